"""Resuming after a bot's file was edited: comments pass, code is refused, --allow-changed records it."""

from __future__ import annotations

import pytest

from arena.cli.app import main
from arena.plugins.registry import load
from arena.results.store.database import Store
from arena.tournament.event import Tournament
from arena.tournament.spec import spec_from_dict
from arena.tournament.worker import Worker, running_on
from support.tournaments import StopAfter

BOT = """
    class EditBot(LowBot):
        '''Plays its lowest card.'''


    @hookimpl
    def arena_players():
        return [PlayerSpec("edit-bot", EditBot)]
"""
SPEC = {"name": "edits", "seed": 5, "players": ["edit-bot", "random", "low"], "table_sizes": [3], "deals": 3,
        "batch": 1, "jobs": 1}
"""9 games, one per batch."""


def _stop_after(folder, games: int) -> None:
    """Play ``games`` more games of the folder's tournament in-process, then stop as Ctrl-C does
    (on a worker of its own: this process's may have loaded the players before the plugin was there)."""
    registry = load()
    worker = Worker(registry)
    try:
        with running_on(worker), pytest.raises(KeyboardInterrupt):
            Tournament.open(folder, registry).run(StopAfter(games + 1))
    finally:
        worker.close()


def test_comment_edit_resumes_code_edit_needs_allow_changed(fake_plugins, tmp_path, capsys):
    module = fake_plugins("edit-bot", BOT)
    folder = tmp_path / "edits"
    Tournament.create(spec_from_dict(SPEC, "test"), folder, load())
    _stop_after(folder, 2)
    first = load().get("edit-bot").code_hash()

    module.write_text(module.read_text().replace("'''Plays its lowest card.'''", "'''The lowest card.'''  # edited"))
    assert load().get("edit-bot").code_hash() == first  # a docstring and a comment are not code
    _stop_after(folder, 2)  # a comment-only edit resumes
    with Store(folder) as store:
        assert store.count() == 4

    module.write_text(module.read_text().replace("'''The lowest card.'''", "level = 2"))
    second = load().get("edit-bot").code_hash()
    assert second != first
    capsys.readouterr()
    assert main(["tournament", "resume", str(folder), "--quiet"]) != 0
    err = capsys.readouterr().err.strip().splitlines()[-1]  # after the line saying what is to play
    assert err.startswith("error: player 'edit-bot' is now version 1.0")
    assert f"(code {first})" in err and f"(code {second})" in err and "--allow-changed" in err
    with Store(folder) as store:
        assert store.count() == 4 and store.player_changes() == []

    assert main(["tournament", "resume", str(folder), "--quiet", "--allow-changed"]) == 0
    with Store(folder) as store:
        assert store.count() == 9
        [change] = store.player_changes()
        assert {k: change[k] for k in ("player", "old_code", "new_code", "after_games", "of_games")} == \
            {"player": "edit-bot", "old_code": first, "new_code": second, "after_games": 4, "of_games": 9}
        assert {p["name"]: p["code_hash"] for p in store.roster()}["edit-bot"] == second
    capsys.readouterr()
    assert main(["tournament", "status", str(folder)]) == 0
    shown = capsys.readouterr().out
    assert (f"changed: player edit-bot after 4 of 9 games: version 1.0 (code {first}) -> version 1.0 "
            f"(code {second}), allowed by --allow-changed") in shown
    assert "warning" not in shown
    assert main(["report", str(folder), "--output", str(tmp_path / "report.html")]) == 0
    html = (tmp_path / "report.html").read_text()
    assert "code changed" in html and f"code {first}) -&gt; version 1.0 (code {second})" in html
