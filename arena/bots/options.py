"""Options of a parametrised player: what a factory accepts, and options given as text typed against it.

A player name may carry options, ``sampler(budget_ms=20,worlds=40)`` (parsed by
:func:`arena.plugins.names.player_options`); the factory is then called as
``factory(seed=..., budget_ms=20.0, worlds=40)``. What a factory accepts is read
from its signature: every keyword parameter with a default but ``seed``, typed by
its default (``int``, ``float``, ``bool``, ``str``; ``any`` for a default of None
or of another type). A third-party player's is read the same way by its confined
discovery and arrives as plain data.
"""

from __future__ import annotations

import difflib
import inspect
from typing import Any
from collections.abc import Callable

from arena.bots.errors import PluginError

_TYPES = {bool: "bool", int: "int", float: "float", str: "str"}
_EXPECTED = {"bool": "true or false", "int": "a whole number", "float": "a number", "str": "a text",
             "any": "a number, true, false or a text"}


def accepted_options(factory: Callable[..., Any] | None) -> dict[str, str]:
    """The options ``factory`` accepts, name -> type (``int``, ``float``, ``bool``, ``str`` or ``any``)."""
    if factory is None:
        return {}
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: _TYPES.get(type(p.default), "any") for p in params
            if p.name != "seed" and p.default is not inspect.Parameter.empty
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def typed_options(player: str, given: dict[str, str], accepts: dict[str, str]) -> tuple[tuple[str, Any], ...]:
    """``given`` (texts) typed against ``accepts``, sorted by name; an unknown option or a value of the
    wrong type raises :class:`PluginError` naming the player, the option, what was expected and what came."""
    out = []
    for key, text in sorted(given.items()):
        kind = accepts.get(key)
        if kind is None:
            known = ", ".join(f"{k} ({v})" for k, v in sorted(accepts.items())) or "none"
            close = difflib.get_close_matches(key, list(accepts), n=1)
            hint = f": did you mean {close[0]!r}?" if close else ""
            raise PluginError(f"player {player!r}: unknown option {key!r}{hint} (its options: {known})")
        value = _typed(text, kind)
        if value is None:
            raise PluginError(f"player {player!r}: option {key!r}: expected {_EXPECTED[kind]} (got {text!r})")
        out.append((key, value))
    return tuple(out)


def _typed(text: str, kind: str) -> Any:
    """``text`` as ``kind``, or None when it is not one."""
    low = text.lower()
    if kind in ("bool", "any") and low in ("true", "false"):
        return low == "true"
    for number in (int, float):
        if kind in ("any", "float") or (kind == "int" and number is int):
            try:
                value = number(text)
            except ValueError:
                continue
            return float(value) if kind == "float" else value
    return text if kind in ("str", "any") else None


def reported_options(value: Any) -> tuple[tuple[str, str], ...]:
    """The options a third-party discovery reported (name -> type), anything else in it dropped."""
    items = value.items() if isinstance(value, dict) else ()
    return tuple(sorted((k, v) for k, v in items if isinstance(k, str) and k.isidentifier() and len(k) <= 60
                        and v in _EXPECTED))[:100]
