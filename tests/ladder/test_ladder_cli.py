"""`arena ladder ...` from the command line: a run killed with -9 while a bot is submitted loses nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from arena.cli.app import main
from arena.ladder.ledger import open_ledger
from arena.results.store.database import Store
from support.processes import wait_for

CREATE = ["--rules", "getaway", "--table-sizes", "3,4", "--house", "random,low,high,heuristic", "--seed", "5"]


_WITH_CTRL_C = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                "from arena.cli.app import main; sys.exit(main())")


RUN_PATIENCE = 180.0
"""Seconds to wait for a ladder run's games: the run starts a pool and bot processes on a loaded machine."""


def _wait(what) -> None:
    """Wait for ``what()`` (its docstring names it) to come true while the run plays."""
    assert wait_for(what, RUN_PATIENCE, interval=0.05), f"timed out waiting for {what.__doc__}"


def _stored(folder) -> int:
    """games stored"""
    with Store(folder) as store:
        return store.count()


def test_kill_9_while_a_submission_enters_loses_nothing(tmp_path, wheels, capsys):
    folder = tmp_path / "L"
    assert main(["ladder", "create", str(folder), *CREATE]) == 0
    env = {**os.environ, "ARENA_DISABLE_PLUGIN_AUTOLOAD": "1"}
    # Ctrl-C's default handler restored first: a shell starts background jobs with SIGINT ignored, and
    # the child would inherit that when the suite runs in the background (then it never stops)
    run = subprocess.Popen([sys.executable, "-c", _WITH_CTRL_C, "ladder", "run", str(folder), "-j", "1", "-q"],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        _wait(lambda: _stored(folder) >= 6)
        assert main(["ladder", "submit", str(folder), str(wheels["v1"])]) == 0  # while run plays
        assert "lbot-v1: active" in capsys.readouterr().out

        def played():
            """the submitted bot's games"""
            with Store(folder) as store:
                return open_ledger(store).games_of().get("lbot-v1", 0) >= 3
        _wait(played)
    finally:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
    before = _stored(folder)
    assert main(["ladder", "run", str(folder), "--games", "4", "-j", "1", "-q"]) == 0
    with Store(folder) as store:
        ledger = open_ledger(store)
        assert ledger.rounds(unfinished_only=True) == []  # the round cut by kill -9 was played again
        assert store.count() >= before + 4
    assert main(["ladder", "table", str(folder), "--format", "csv"]) == 0
    table = capsys.readouterr().out
    assert "lbot-v1" in table and table.startswith("rank,player,conservative")
    assert main(["ladder", "entries", str(folder)]) == 0
    assert "lbot-v1" in capsys.readouterr().out
    assert main(["ladder", "entries", str(folder), "--report", "lbot-v1"]) == 0
    assert "all checks passed" in capsys.readouterr().out


def test_a_run_on_a_worker_pool_reads_the_games_its_workers_stream(tmp_path, capsys):
    """`ladder run -j 2`: the pool's workers stream each game through a queue, and the run reads it, so
    they never block on a full queue; the run ends with every game stored (it stalled once the queue's
    pipe was full: 27 games in three minutes)."""
    folder = tmp_path / "L"
    assert main(["ladder", "create", str(folder), *CREATE]) == 0
    env = {**os.environ, "ARENA_DISABLE_PLUGIN_AUTOLOAD": "1"}
    run = subprocess.Popen([sys.executable, "-m", "arena.cli.app", "ladder", "run", str(folder), "-j", "2",
                            "--games", "150", "-q"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           start_new_session=True)
    try:
        _, err = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode == 0, err
    assert _stored(folder) >= 150
    with Store(folder) as store:
        assert open_ledger(store).rounds(unfinished_only=True) == []


def test_errors_are_one_line(tmp_path, capsys):
    assert main(["ladder", "table", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no results database" in err
    assert main(["ladder", "create", str(tmp_path / "L"), "--house", "random,nobody"]) == 2
    assert "unknown player 'nobody'" in capsys.readouterr().err
    assert main(["ladder", "create", str(tmp_path / "M"), "--table-sizes", "9", "--house", "random"]) == 2
    assert "--house must name at least 9" in capsys.readouterr().err
    assert main(["ladder", "create", str(tmp_path / "M"), "--table-sizes", "9", "--house", ",".join(
        f"random#{i}" for i in range(1, 10))]) == 2
    assert "table_sizes" in capsys.readouterr().err
    assert main(["ladder", "create", str(tmp_path / "N"), *CREATE]) == 0
    assert main(["ladder", "submit", str(tmp_path / "N"), str(tmp_path / "x.txt")]) == 2
    assert "expected a wheel" in capsys.readouterr().err
    assert main(["ladder", "retire", str(tmp_path / "N"), "ghost"]) == 2
    assert "no entry 'ghost'" in capsys.readouterr().err


def test_ctrl_c_stops_with_130_and_a_new_run_goes_on(tmp_path):
    folder = tmp_path / "L"
    assert main(["ladder", "create", str(folder), *CREATE]) == 0
    env = {**os.environ, "ARENA_DISABLE_PLUGIN_AUTOLOAD": "1"}
    # Ctrl-C's default handler restored first: a shell starts background jobs with SIGINT ignored, and
    # the child would inherit that when the suite runs in the background (then it never stops)
    run = subprocess.Popen([sys.executable, "-c", _WITH_CTRL_C, "ladder", "run", str(folder), "-j", "1", "-q"],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    try:
        _wait(lambda: _stored(folder) >= 4)
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode == 130 and "goes on where it stopped" in err and "Traceback" not in err
    before = _stored(folder)
    assert main(["ladder", "run", str(folder), "--games", "3", "-j", "1", "-q"]) == 0
    with Store(folder) as store:
        assert open_ledger(store).rounds(unfinished_only=True) == [] and store.count() >= before + 3


def test_submitting_a_missing_file_says_so(tmp_path, capsys):
    """A path that does not exist is one line saying so, not that it is the wrong kind of file."""
    folder = tmp_path / "L"
    assert main(["ladder", "create", str(folder), *CREATE]) == 0
    capsys.readouterr()
    assert main(["ladder", "submit", str(folder), str(tmp_path / "missing.whl")]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing.whl: no such file or folder" in err[0]
