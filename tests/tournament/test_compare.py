"""The comparison event: it stops at the verdict, the store gives the same one, kill -9 and resume too."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys

import pytest
from support.processes import wait_for
from support.tournaments import records

from arena.game.seeds import Secret
from arena.plugins.registry import DISABLE_ENV, load
from arena.results.stats.paired import CompareTest, PairedTally, figures_lines
from arena.results.store.database import Store
from arena.tournament.compare import Comparison, compare_spec, field_for
from arena.tournament.executors import SerialExecutor

pytestmark = pytest.mark.long

SECRET = Secret(bytes(range(32)))


@pytest.fixture(scope="module")
def registry():
    return load()


def spec_of(test, games=400, **keys):
    return compare_spec(test, field_for(test.a, test.b), games, sandbox="never", seed=3, **keys)


def run(test, folder, registry, games=400):
    c = Comparison.create(spec_of(test, games), test, folder, registry, SECRET)
    return c, c.run(SerialExecutor(registry))


def test_sprt_stops_before_the_cap_and_the_store_gives_the_same_verdict(tmp_path, registry):
    """heuristic against low: H1 (at least 5 points better) well before the 4,000-game cap."""
    test = CompareTest("heuristic", "low", sprt=(0, 5))
    _c, figures = run(test, tmp_path / "c", registry, games=4000)
    assert figures.verdict == "H1" and figures.units < 500
    with Store(tmp_path / "c") as store:
        assert figures.games <= store.count() < 4000
    again = Comparison.open(tmp_path / "c", registry).tally().figures()
    assert (again.verdict, again.units, again.llrs) == (figures.verdict, figures.units, figures.llrs)
    assert any("H1 accepted" in line for line in figures_lines(figures))


def test_identical_players_never_give_h1(tmp_path, registry):
    """low against an alias of itself: every deal is a tie, and the test accepts H0 (no false verdict)."""
    test = CompareTest("low", "low#2", sprt=(0, 5))
    _, figures = run(test, tmp_path / "same", registry, games=4000)
    assert figures.verdict == "H0" and figures.wins == figures.losses == 0 and figures.diff == 0


def test_tally_is_order_free(tmp_path, registry):
    """The games fed in any order give the same units, LLR path and verdict."""
    test = CompareTest("heuristic", "random", score="place", sprt=(0, 3))
    _, figures = run(test, tmp_path / "c", registry, games=400)
    shuffled_records = records(tmp_path / "c")
    random.Random(1).shuffle(shuffled_records)
    shuffled = PairedTally(test, 4)
    for index, record in shuffled_records:
        shuffled.add(index, record)
    f = shuffled.figures()
    assert (f.units, f.llrs, f.verdict, f.diff) == (figures.units, figures.llrs, figures.verdict, figures.diff)


def test_another_test_in_the_same_folder_is_refused(tmp_path, registry):
    """The folder keeps its test: other bounds on the same games are refused."""
    run(CompareTest("heuristic", "low", sprt=(0, 5)), tmp_path / "c", registry, games=64)
    other = CompareTest("heuristic", "low", sprt=(0, 9))
    with pytest.raises(Exception, match="another test"):
        Comparison.create(spec_of(other, 64), other, tmp_path / "c", registry, SECRET)


def test_kill_9_and_resume_gives_the_unbroken_verdict(tmp_path):
    """kill -9 the CLI mid-run, resume: the same verdict, units and LLR as an unbroken run on the same secret."""
    argv = [sys.executable, "-m", "arena.cli.app", "compare", "heuristic", "random", "--sprt", "0,3",
            "--score", "place", "--games", "3000", "--jobs", "1", "-q", "--sandbox", "never", "--seed", "4"]
    (tmp_path / "key").write_text(SECRET.hex() + "\n")
    env = {**os.environ, DISABLE_ENV: "1"}
    unbroken = subprocess.run(argv + ["--results", tmp_path / "a", "--secret-from", tmp_path / "key"],
                              capture_output=True, text=True, env=env, check=True).stdout
    proc = subprocess.Popen(argv + ["--results", tmp_path / "b", "--secret-from", tmp_path / "key"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    db = tmp_path / "b" / "compare-heuristic-random" / "results.sqlite"
    wait_for(lambda: db.exists() and _stored(db) >= 40, timeout=60, interval=0.05)  # the assert below says if not
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with Store(tmp_path / "a" / "compare-heuristic-random") as store:
        assert 40 <= _stored(db) < store.count()  # killed mid-run
    resumed = subprocess.run([sys.executable, "-m", "arena.cli.app", "compare", "--resume",
                              tmp_path / "b" / "compare-heuristic-random", "-q"],
                             capture_output=True, text=True, env=env, check=True).stdout
    assert resumed == unbroken


def _stored(db) -> int:
    try:
        with Store(db.parent) as store:
            return store.count()
    except Exception:  # noqa: BLE001 - not made yet, or being written
        return 0
