"""Running the CLI in-process from a test."""

from __future__ import annotations

from arena.cli.app import main


def run(capsys, *argv) -> tuple[int, str, str]:
    """Run `arena ARGV` (each argument made a string); return (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err
