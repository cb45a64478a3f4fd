"""A ladder: made, run, stopped and run again without losing a game; submissions checked and admitted."""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from arena.cli.app import main
from arena.ladder.ledger import Entry, open_ledger
from arena.ladder.errors import LadderError, SubmissionError
from arena.ladder.install import install_submission
from arena.ladder.ladder import Ladder
from arena.ladder.submit import retire, submit
from arena.results.errors import StoreError
from arena.results.stats.standings import ratings_text
from arena.results.store.database import Store
from arena.tournament.executors import SerialExecutor
from support.ladder import bot_folder, make_ladder


def _games_of(folder) -> dict[str, int]:
    with Store(folder) as store:
        return open_ledger(store).games_of()


def _unfinished(folder):
    with Store(folder) as store:
        return open_ledger(store).rounds(unfinished_only=True)


def test_a_ladder_plays_whole_rounds_and_rates_them(tmp_path, registry):
    ladder = make_ladder(tmp_path / "L", registry)
    progress = ladder.run(SerialExecutor(registry), max_games=14)
    assert progress.stored == 14  # rounds of 3 then 4 games: each deal in every rotation
    with Store(ladder.folder) as store:
        rounds = open_ledger(store).rounds()
        assert [r.size for r in rounds] == [3, 4, 3, 4]
        for r in rounds:  # every rotation of the deal: each player held each hand once
            seats = [store.record(i)["names"] for i in r.indices]
            assert {tuple(s) for s in seats} == {tuple(r.circle[(k - j) % r.size] for k in range(r.size))
                                                 for j in range(r.size)}
            assert len({store.record(i)["seed"] for i in r.indices}) == 1
        table = ratings_text(store, "csv")
    assert sorted(line.split(",")[1] for line in table.splitlines()[1:]) == ["heuristic", "high", "low", "random"]
    assert _unfinished(ladder.folder) == []


class _StopAfter(SerialExecutor):
    """Plays ``n`` batches, then Ctrl-C as the next is sent (a run stopped mid-way)."""

    def __init__(self, registry, n: int) -> None:
        super().__init__(registry)
        self.left = n

    def submit(self, fn, *args) -> Future:
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return super().submit(fn, *args)


def test_a_stopped_run_finishes_its_planned_round_first(tmp_path, registry):
    ladder = make_ladder(tmp_path / "L", registry)
    with pytest.raises(KeyboardInterrupt):
        ladder.run(_StopAfter(registry, 1))
    left = _unfinished(ladder.folder)
    assert len(left) == 1  # planned, sent never: nothing of it is stored
    ladder = Ladder.open(ladder.folder, registry)
    ladder.run(SerialExecutor(registry), max_games=1)
    with Store(ladder.folder) as store:
        done = store.done()
    assert set(left[0].indices) <= done
    assert _unfinished(ladder.folder) == []


def test_one_run_at_a_time(tmp_path, registry):
    ladder = make_ladder(tmp_path / "L", registry)
    inner = []

    def again():
        with pytest.raises(LadderError, match="another `arena ladder run`"):
            Ladder.open(ladder.folder, registry).run(SerialExecutor(registry), max_games=1)
        inner.append(True)
        return True
    ladder.run(SerialExecutor(registry), should_stop=again)
    assert inner


def test_create_refuses_a_folder_with_results_and_a_table_the_house_cannot_fill(tmp_path, registry):
    make_ladder(tmp_path / "L", registry)
    with pytest.raises(LadderError, match="already holds results"):
        make_ladder(tmp_path / "L", registry)
    with pytest.raises(LadderError, match="never"):
        make_ladder(tmp_path / "M", registry, extra={"sandbox": "never"})


def test_a_submission_is_checked_admitted_versioned_and_played(tmp_path, registry, wheels):
    ladder = make_ladder(tmp_path / "L", registry)
    first = submit(ladder, wheels["v1"])
    assert (first.name, first.status, first.previous, first.player) == ("lbot-v1", "active", None, "lbot")
    assert first.report["ok"] and "all checks passed" in first.report["text"]
    assert (ladder.folder / "plugins" / "lbot-v1" / "lbot" / "__init__.py").exists()
    with pytest.raises(SubmissionError, match="same code as the entry lbot-v1"):
        submit(ladder, wheels["v1"])
    second = submit(ladder, wheels["v2"])
    assert (second.name, second.status, second.previous) == ("lbot-v2", "active", "lbot-v1")
    Ladder.open(ladder.folder, registry).run(SerialExecutor(registry), max_games=30)
    games = _games_of(ladder.folder)
    assert games["lbot-v1"] > 0 and games["lbot-v2"] > 0  # each version has its own rating
    retire(ladder, "lbot-v1")
    Ladder.open(ladder.folder, registry).run(SerialExecutor(registry), max_games=12)
    assert _games_of(ladder.folder)["lbot-v1"] == games["lbot-v1"]
    with pytest.raises(LadderError, match="no entry 'nobody'"):
        retire(ladder, "nobody")


def test_a_bot_folder_is_read_not_built(tmp_path, registry, wheels):
    """A folder submission copies the package; its setup files never run (a setup.py here would raise)."""
    folder = bot_folder(tmp_path, "fbot")
    (folder / "setup.py").write_text("raise SystemExit('setup.py must never run')\n")
    ladder = make_ladder(tmp_path / "L", registry)
    entry = submit(ladder, folder)
    assert (entry.name, entry.status) == ("fbot-v1", "active")


def test_a_failing_bot_is_rejected_with_its_report(tmp_path, registry, wheels):
    ladder = make_ladder(tmp_path / "L", registry)
    entry = submit(ladder, wheels["crashy"])
    assert entry.status == "rejected" and "check-bot failed" in entry.reason
    assert entry.report["ok"] is False and "FAIL" in entry.report["text"]
    ladder.run(SerialExecutor(registry), max_games=8)
    assert "crashy-v1" not in _games_of(ladder.folder)


def test_a_bot_crashing_on_every_decision_is_suspended_and_the_others_go_on(tmp_path, registry, wheels):
    """A bot that passed its check and broke later (entered here directly): its forfeits are
    stored, it is suspended at the ladder's fault limit, and the ladder plays on without it."""
    ladder = make_ladder(tmp_path / "L", registry, suspend_faults=6)
    install_submission(wheels["crashy"], ladder.folder / "plugins" / "crashy-v1")
    with Store(ladder.folder) as store:
        open_ledger(store).add_entry(Entry("crashy-v1", "crashy", "crashy", "0.1.0", "x", "plugins/crashy-v1", None,
                                         "active", "test", None, 0.0))
    progress = Ladder.open(ladder.folder, registry).run(SerialExecutor(registry), max_games=40)
    assert progress.suspended == ("crashy-v1",)
    with Store(ladder.folder) as store:
        ledger = open_ledger(store)
        assert ledger.entry("crashy-v1").status == "suspended"
        assert ledger.fault_counts()["crashy-v1"] >= 6
        assert store.count() >= 40
    crashed = _games_of(ladder.folder)["crashy-v1"]
    Ladder.open(ladder.folder, registry).run(SerialExecutor(registry), max_games=8)
    assert _games_of(ladder.folder)["crashy-v1"] == crashed


def test_not_a_ladder(tmp_path, registry):
    with pytest.raises(LadderError, match="no results database"):
        Ladder.open(tmp_path, registry)
    with pytest.raises(SubmissionError, match="expected a wheel"):
        submit(make_ladder(tmp_path / "L", registry), tmp_path / "nothing.zip")


def test_a_full_disk_stops_the_run_with_one_line_and_a_new_run_goes_on(tmp_path, registry, monkeypatch, capsys):
    ladder = make_ladder(tmp_path / "L", registry)
    real = Store.add_game
    calls = []

    def full(self, game, record):
        calls.append(game.index)
        if len(calls) > 5:
            raise StoreError(f"cannot write to {self.path}: the disk is full")
        return real(self, game, record)
    monkeypatch.setattr(Store, "add_game", full)
    assert main(["ladder", "run", str(ladder.folder), "-j", "1", "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: cannot write to") and "the disk is full; 5 games are stored and kept" in err[-1]
    assert "`arena ladder run" in err[-1]
    monkeypatch.setattr(Store, "add_game", real)
    assert main(["ladder", "run", str(ladder.folder), "-j", "1", "-q", "--games", "3"]) == 0
    assert _unfinished(ladder.folder) == []
