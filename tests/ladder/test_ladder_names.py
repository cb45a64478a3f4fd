"""Entry names (arena.ladder.names): folded to ASCII, refused rather than cut or replaced, compared by skeleton."""

from __future__ import annotations

import pytest

from arena.ladder.errors import SubmissionError
from arena.ladder.names import MAX_BASE, entry_base, name_key


def test_plain_names_keep_their_letters_and_separators_become_dashes():
    """A plain name is lowercased; '_' and '.' become '-' as they always did, ends trimmed."""
    assert entry_base("lbot") == "lbot"
    assert entry_base("My_Bot.v2") == "my-bot-v2"
    assert entry_base("_edge-") == "edge"


def test_fullwidth_letters_and_compatibility_characters_fold_to_ascii():
    """NFKC then case folding: fullwidth letters, the Kelvin sign and a ligature become plain ASCII."""
    assert entry_base("\uff2d\uff59\uff22\uff4f\uff54") == "mybot"  # ＭｙＢｏｔ
    assert entry_base("\u212aing") == "king"  # KELVIN SIGN
    assert entry_base("\ufb01sh") == "fish"  # LATIN SMALL LIGATURE FI


@pytest.mark.parametrize("plugin, named", [
    ("b\u043et", "CYRILLIC SMALL LETTER O"),
    ("b\u03bft", "GREEK SMALL LETTER OMICRON"),
    ("my\u200dbot", "ZERO WIDTH JOINER"),
    ("bot\u202egnp", "RIGHT-TO-LEFT OVERRIDE"),
    ("b\u00f8t", "LATIN SMALL LETTER O WITH STROKE"),
    ("my bot", "SPACE"),
    ("bot\x00", "U\\+0000 a control character"),
])
def test_a_non_ascii_or_odd_character_is_refused_by_its_unicode_name(plugin, named):
    """Any character outside ASCII letters, digits, '-', '_', '.' is refused, its Unicode name in the line."""
    with pytest.raises(SubmissionError, match=named) as caught:
        entry_base(plugin)
    assert "\n" not in str(caught.value)


def test_a_long_name_is_refused_not_cut():
    """A name over MAX_BASE is refused (cutting it made two long names one entry's)."""
    assert entry_base("a" * MAX_BASE) == "a" * MAX_BASE
    with pytest.raises(SubmissionError, match=f"is {MAX_BASE + 1} characters; .* at most {MAX_BASE}"):
        entry_base("a" * (MAX_BASE + 1))


def test_a_name_without_letters_or_digits_is_refused():
    """Only separators leave nothing to name an entry with."""
    with pytest.raises(SubmissionError, match="no letter or digit"):
        entry_base("-_.")


def test_a_refused_name_is_shown_bounded():
    """The name in the refusal is cut to a few dozen characters, whatever its length."""
    with pytest.raises(SubmissionError) as caught:
        entry_base("\u00e9" * 10_000)
    assert len(str(caught.value)) < 300


@pytest.mark.parametrize("a, b", [
    ("my-bot", "MyB0t"),
    ("my-bot", "my_bot"),
    ("my-bot", "my.bot"),
    ("lbot", "1bot"),
    ("lbot", "Ibot"),
    ("model", "rnodel"),
    ("wolf", "vvolf"),
    ("dart", "clart"),
    ("mybot", "\uff2d\uff59\uff22\uff4f\uff54"),
])
def test_lookalike_names_share_a_key(a, b):
    """Names a reader could take for one another have one skeleton."""
    assert name_key(a) == name_key(b)


def test_the_key_of_my_bot():
    """The documented example: my-bot, MyB0t and my_bot all key as mybot."""
    assert name_key("my-bot") == name_key("MyB0t") == name_key("my_bot") == "mybot"


@pytest.mark.parametrize("a, b", [("lbot", "hbot"), ("alpha", "beta"), ("bot-v1", "bot-v2")])
def test_different_names_keep_different_keys(a, b):
    """The skeleton does not merge names that do not look alike."""
    assert name_key(a) != name_key(b)
