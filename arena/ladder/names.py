"""Ladder entry names: what a plugin's name becomes, and when two names are the same name to a reader.

A submitted plugin's name becomes the base of its entries' names
(``<base>-v1``, ``<base>-v2``, ...), which name a folder under
``DIR/plugins/``, a player in the registry, a row on every page and a path in
the web face's URLs. :func:`entry_base` makes that base: the name is
NFKC-normalised and case-folded (so fullwidth ``ＢＯＴ`` and the Kelvin sign
fold to ASCII ``bot`` and ``k``), then every character left must be an ASCII
letter, digit, ``-``, ``_`` or ``.``; anything else is refused, never replaced,
so no Unicode confusable (Cyrillic ``а``, Greek ``ο``, a zero-width joiner, a
right-to-left override) can reach a name. ``_`` and ``.`` become ``-``, as
they always did, so the names of existing entries stay as they were.

Within ASCII, some names still look alike (``my-bot``, ``MyB0t``,
``my_bot``). :func:`name_key` gives a confusable skeleton of a name, so that
two names with one key can be treated as one name (for uniqueness, not for
display).
"""

from __future__ import annotations

import unicodedata

from arena.ladder.errors import SubmissionError

MAX_BASE = 30
"""The longest entry base a ladder takes, in characters (after folding); a longer name is refused, not cut."""
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.")
"""What a plugin's name may hold once folded: ASCII letters (folded to lowercase), digits, '-', '_', '.'."""
SEPARATORS = "-_."
"""Characters a name may hold that :func:`name_key` drops (and that :func:`entry_base` turns into '-')."""
LOOKALIKE_CHARS = {"0": "o", "1": "l", "i": "l", "|": "l", "!": "l"}
"""One character read as another: zero as o; one, i, the bar and the exclamation mark as l."""
LOOKALIKE_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
"""Two characters read as one, replaced in this order after :data:`LOOKALIKE_CHARS`: rn as m, vv as w, cl as d."""
_SHOWN = 60


def folded(name: str) -> str:
    """``name`` NFKC-normalised and case-folded: ``ＭｙＢｏｔ`` -> ``mybot``."""
    return unicodedata.normalize("NFKC", name).casefold()


def entry_base(plugin: str) -> str:
    """A plugin's name made an entry base: folded, ASCII letters, digits and '-' only, at most :data:`MAX_BASE`.

    Refuses (:class:`SubmissionError`) a name with any other character, naming
    the first such one; a name longer than :data:`MAX_BASE`; a name with no
    letter or digit. ``My_Bot`` -> ``my-bot``; ``ＭｙＢｏｔ`` -> ``mybot``.
    """
    name = folded(plugin)
    bad = next((c for c in name if c not in NAME_CHARS), None)
    if bad is not None:
        raise SubmissionError(f"refused: the plugin name {_shown(plugin)} has {described(bad)}; a ladder entry "
                              f"name may hold only ASCII letters, digits, '-', '_' and '.'")
    base = "".join("-" if c in SEPARATORS else c for c in name).strip("-")
    if not base:
        raise SubmissionError(f"refused: the plugin name {_shown(plugin)} has no letter or digit to name an entry with")
    if len(base) > MAX_BASE:
        raise SubmissionError(f"refused: the plugin name {_shown(plugin)} is {len(base)} characters; a ladder "
                              f"entry name takes at most {MAX_BASE}")
    return base


def name_key(name: str) -> str:
    """The confusable skeleton of ``name``: two names with one key read alike.

    The name is folded as :func:`entry_base` folds it, the separators
    (:data:`SEPARATORS`) dropped, each character of :data:`LOOKALIKE_CHARS`
    replaced, then each pair of :data:`LOOKALIKE_PAIRS`:
    ``name_key("my-bot") == name_key("MyB0t") == name_key("my_bot") == "mybot"``,
    ``name_key("rnodel") == name_key("m0del")``. The key is for comparing, never
    for showing.
    """
    key = "".join(LOOKALIKE_CHARS.get(c, c) for c in folded(name) if c not in SEPARATORS)
    for pair, one in LOOKALIKE_PAIRS:
        key = key.replace(pair, one)
    return key


def described(c: str) -> str:
    """``'ø' (U+00F8 LATIN SMALL LETTER O WITH STROKE)``: a character named so that any reader can tell it."""
    kind = "a control character" if unicodedata.category(c) == "Cc" else "an unnamed character"
    return f"{c!r} (U+{ord(c):04X} {unicodedata.name(c, kind)})"


def _shown(name: str) -> str:
    """A name as a bounded repr (it may be long, or hold characters a terminal would act on)."""
    return repr(name[:_SHOWN]) + ("..." if len(name) > _SHOWN else "")
