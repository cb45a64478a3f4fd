"""safetext.printable: what plugin- and bot-supplied text keeps on its way to a terminal."""

from __future__ import annotations

import pytest

from arena.bots.safetext import printable


@pytest.mark.parametrize("text, shown", [
    ("\x1b[2J\x1b[1;31mred\x1b[0m", "red"),                        # CSI: clear screen, colours
    ("\x1b]0;window title\x07after", "after"),                     # OSC with BEL
    ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),           # OSC hyperlink with ST
    ("\x1bPq#0;2;0;0;0\x1b\\ok", "ok"),                            # DCS (sixel)
    ("a\rb\x08c\x07d\x00e\x7ff\x9b31mg", "abcdef31mg"),            # C0 and C1 controls
    ("abc\u202edcba\u2066x\u2069", "abcdcbax"),                    # bidirectional overrides
    ("one\u2028two", "onetwo"),                                    # line separator
])
def test_escapes_and_controls_are_removed(text, shown):
    """Escape sequences go whole; other controls go one by one."""
    assert printable(text) == shown


def test_printable_unicode_is_kept():
    """Letters, symbols and wide characters are kept as they are."""
    text = "ünïcödé ♠♥♦♣ 日本語 emoji 🂡 — “quotes”"
    assert printable(text) == text


def test_one_line_or_many():
    """A field becomes one line (tabs and newlines are spaces); a whole output keeps its lines and tabs."""
    assert printable("line one\nline two\tend\r\n") == "line one line two end "
    assert printable("row 1\tx\nrow 2\r\n", one_line=False) == "row 1\tx\nrow 2\n"


def test_any_object_is_shown_as_text():
    """Non-strings are converted with str() first."""
    assert printable(ValueError("bad\x1b[0m value")) == "bad value"
