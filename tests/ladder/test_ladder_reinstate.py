"""`arena ladder reinstate`: a suspended bot goes back into matchmaking, logged with who, when and why, and
is suspended again only for faults made after it came back."""

from __future__ import annotations

from arena.cli.app import main
from arena.ladder.ledger import Entry, open_ledger
from arena.ladder.install import install_submission
from arena.ladder.ladder import Ladder
from arena.results.store.database import Store
from arena.tournament.executors import SerialExecutor
from support.ladder import make_ladder

LIMIT = 40
"""Faults before suspension: more than one round of a crasher gives (5 a game, up to 4 rotations)."""


def test_a_reinstated_bot_plays_again_and_is_suspended_only_for_new_faults(tmp_path, registry, wheels, capsys):
    ladder = make_ladder(tmp_path / "L", registry, suspend_faults=LIMIT)
    folder = ladder.folder
    install_submission(wheels["crashy"], folder / "plugins" / "crashy-v1")
    with Store(folder) as store:
        open_ledger(store).add_entry(Entry("crashy-v1", "crashy", "crashy", "0.1.0", "x", "plugins/crashy-v1", None,
                                         "active", "test", None, 0.0))
    assert Ladder.open(folder, registry).run(SerialExecutor(registry), max_games=60).suspended == ("crashy-v1",)
    with Store(folder) as store:
        ledger = open_ledger(store)
        before, games_before = ledger.fault_counts()["crashy-v1"], ledger.games_of()["crashy-v1"]
    assert before >= LIMIT

    assert main(["ladder", "reinstate", str(folder), "crashy-v1", "--reason", "its host was fixed"]) == 0
    assert capsys.readouterr().out.strip() == "crashy-v1: active (reinstated by the organiser: its host was fixed)"
    with Store(folder) as store:
        status, reason, by, at = open_ledger(store).changes("crashy-v1")[-1]
    assert (status, reason) == ("active", "reinstated by the organiser: its host was fixed") and by and at > 0
    assert main(["ladder", "entries", str(folder), "--changes", "crashy-v1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "suspended  by arena ladder run:" in lines[-2] and f"active     by {by}: reinstated" in lines[-1]

    progress = Ladder.open(folder, registry).run(SerialExecutor(registry), max_games=60)
    with Store(folder) as store:
        ledger = open_ledger(store)
        entry, after = ledger.entry("crashy-v1"), ledger.fault_counts()["crashy-v1"]
        assert ledger.games_of()["crashy-v1"] > games_before  # seated again
    # its old faults alone were over the limit: it is suspended again only once its new ones reach it
    assert progress.suspended == ("crashy-v1",) and entry.status == "suspended"
    assert after - before >= LIMIT and "faults since it was reinstated" in entry.reason


def test_reinstate_refuses_an_unknown_name_or_an_entry_not_suspended(tmp_path, registry, capsys):
    folder = make_ladder(tmp_path / "L", registry).folder
    assert main(["ladder", "reinstate", str(folder), "ghost"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no entry 'ghost'" in err[0] and "random" in err[0]
    assert main(["ladder", "reinstate", str(folder), "random"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: random is active, not suspended: only a suspended entry can be reinstated"]
    assert main(["ladder", "entries", str(folder), "--changes", "ghost"]) == 2
    assert "no entry 'ghost'" in capsys.readouterr().err
