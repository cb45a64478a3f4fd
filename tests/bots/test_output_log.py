"""Tests for arena.bots.output_log: one seat's log of one game, its caps and its notes."""

from __future__ import annotations

from arena.bots.output_log import KEPT_TRACEBACKS, TRACEBACK_CAP, OutputLog, bot_traceback, cap_traceback


def test_output_and_faults_in_order():
    """Output is kept as written (bytes or text); a fault is a marked line after the output before it."""
    log = OutputLog()
    log.output(b"one\ntwo")
    log.fault("crash", "ValueError: no", "Traceback (most recent call last):\nValueError: no\n")
    log.output("three\n")
    assert log.text() == ("one\ntwo\n[arena: crash: ValueError: no]\nTraceback (most recent call last):\n"
                          "ValueError: no\nthree\n")


def test_output_cap_counts_the_rest():
    """The first cap bytes are kept; the rest (here and already dropped by a pipe) is counted in a note."""
    log = OutputLog(cap=8)
    log.output(b"12345")
    log.output(b"67890", more=100)
    assert log.text() == ("12345678\n[arena: 102 more bytes of output not kept: the log keeps the first 8 bytes "
                          "of a seat's output per game]\n")


def test_nothing_printed_is_empty():
    assert OutputLog().text() == ""


def test_tracebacks_capped_in_length_and_number():
    """A long traceback keeps its end; after KEPT_TRACEBACKS, faults keep their line only (and one note)."""
    long = "x" * (TRACEBACK_CAP + 50) + "\nValueError: the end"
    cut = cap_traceback(long)
    assert cut.endswith("ValueError: the end") and len(cut) < TRACEBACK_CAP + 100
    assert cut.startswith(f"[... the first {len(long) - TRACEBACK_CAP} characters of the traceback cut]")
    log = OutputLog()
    for n in range(KEPT_TRACEBACKS + 2):
        log.fault("crash", f"E{n}", f"Traceback {n}\n")
    text = log.text()
    assert [f"Traceback {n}" in text for n in range(KEPT_TRACEBACKS + 2)] == [True] * KEPT_TRACEBACKS + [False] * 2
    assert text.count("later tracebacks not kept") == 1
    assert f"[arena: crash: E{KEPT_TRACEBACKS + 1}]" in text


def _raise():
    raise KeyError("deep")


def test_bot_traceback_leaves_out_the_harness_frames():
    """The caller's own frames are left out; the bot's frames and the exception stay."""
    try:
        _raise()
    except KeyError as exc:
        text = bot_traceback(exc, __file__)
    assert "KeyError: 'deep'" in text and "test_output_log.py" not in text
    try:
        _raise()
    except KeyError as exc:
        text = bot_traceback(exc, "elsewhere.py")
    assert "in _raise" in text
