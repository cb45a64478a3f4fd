"""Text from plugins and bots, made safe for a terminal: :func:`printable`.

A plugin supplies descriptions, versions and error messages; a bot supplies
fault details. Any of them may carry terminal control sequences (``\\x1b[2J``,
a ``\\r`` that overwrites a line, a bell, bidirectional overrides that reorder
what is shown). Whatever of theirs reaches a terminal goes through
:func:`printable` first; printable Unicode is kept as it is.
"""

from __future__ import annotations

import re

_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"              # CSI: colours, cursor moves, clearing the screen
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: window titles, hyperlinks
    r"|\x1b[P^_X][^\x1b]*(?:\x1b\\)?"       # DCS, PM, APC and SOS strings
    r"|\x1b.?", re.DOTALL)                  # any other escape
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                      "\u2028\u2029\u2066-\u2069\ud800-\udfff]")
"""C0 and C1 controls but tab and newline, bidirectional marks and overrides,
line and paragraph separators, lone surrogates."""
_BREAKS = re.compile("[\t\n]")


def printable(text: object, *, one_line: bool = True) -> str:
    """``text`` without escape sequences and control characters.

    ``one_line`` (the default, for a field such as a description or a
    message): tabs and newlines become spaces too. ``one_line=False`` (a whole
    output, such as a table): tabs and newlines are kept.
    """
    text = _CONTROL.sub("", _ESCAPE.sub("", str(text)))
    return _BREAKS.sub(" ", text) if one_line else text
