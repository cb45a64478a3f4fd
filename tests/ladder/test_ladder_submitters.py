"""Submitters: tokens of their own (stored hashed, shown once), revoked and renewed; chains owned by their
submitter; the organiser's commands may do anything; a ladder made before submitters gains the owner column."""

from __future__ import annotations

import sqlite3
import time

import pytest

from arena.cli.app import main
from arena.ladder import submitters
from arena.ladder.ledger import Entry, open_ledger
from arena.ladder.errors import LadderError, SubmissionError
from arena.ladder.ladder import Ladder
from arena.ladder.submit import retire, submit
from arena.results.store.database import Store
from support.ladder import make_ladder


def _entry(name: str, plugin: str, owner: str | None, status: str = "active") -> Entry:
    return Entry(name, plugin, plugin, "1", "h-" + name, f"plugins/{name}", None, status, "test", None, 0.0, owner)


def test_a_token_is_shown_once_and_stored_only_as_its_hash(tmp_path, registry):
    """The token authenticates its submitter; the database holds its SHA-256, never the token itself."""
    ladder = make_ladder(tmp_path / "L", registry)
    with Store(ladder.folder) as store:
        ledger = open_ledger(store)
        token = submitters.add(ledger, "alice")
        assert len(token) >= 40
        assert submitters.authenticate(ledger, token).name == "alice"
        assert submitters.authenticate(ledger, token + "x") is None and submitters.authenticate(ledger, "") is None
    raw = (ladder.folder / "results.sqlite").read_bytes()
    assert token.encode() not in raw and submitters.token_hash(token).encode() in raw


def test_revoked_and_renewed_tokens(tmp_path, registry):
    """A revoked token is refused; a new token works and the old one no longer does."""
    ladder = make_ladder(tmp_path / "L", registry)
    with Store(ladder.folder) as store:
        ledger = open_ledger(store)
        old = submitters.add(ledger, "alice")
        assert submitters.revoke(ledger, "alice").revoked
        assert submitters.authenticate(ledger, old) is None
        with pytest.raises(LadderError, match="revoked already"):
            submitters.revoke(ledger, "alice")
        new = submitters.new_token(ledger, "alice")
        assert submitters.authenticate(ledger, new).name == "alice" and submitters.authenticate(ledger, old) is None


@pytest.mark.parametrize("name, message", [("Alice", "lowercase"), ("a" * 31, "1-30"), ("al ice", "lowercase"),
                                           ("b0b", "reads like the submitter 'bob'")])
def test_submitter_names_are_checked(tmp_path, registry, name, message):
    """Malformed names are refused; one that reads like a submitter's name is refused too."""
    ladder = make_ladder(tmp_path / "L", registry)
    with Store(ladder.folder) as store:
        ledger = open_ledger(store)
        submitters.add(ledger, "bob")
        with pytest.raises(LadderError, match=message):
            submitters.add(ledger, name)


def test_a_chain_belongs_to_the_submitter_of_its_first_version():
    """Only the chain's owner may continue it; the organiser may, and the chain keeps its owner; a lookalike
    of another chain or of a house player is refused whoever asks."""
    entries = [Entry("heuristic", "heuristic", "players", "1", "h", "", None, "active", "house", None, 0.0),
               _entry("lbot-v1", "lbot", "alice")]
    assert submitters.check_owner(entries, "lbot", "alice") == "alice"
    assert submitters.check_owner(entries, "lbot", None) == "alice"  # the organiser: the owner stays
    assert submitters.check_owner(entries, "newbot", "bob") == "bob"
    assert submitters.check_owner(entries, "newbot", None) is None
    with pytest.raises(SubmissionError, match="belongs to another submitter"):
        submitters.check_owner(entries, "lbot", "bob")
    for lookalike in ("lb0t", "l-bot", "1bot"):
        with pytest.raises(SubmissionError, match="reads like the bot 'lbot'"):
            submitters.check_owner(entries, lookalike, "alice")
    with pytest.raises(SubmissionError, match="reads like the house player 'heuristic'"):
        submitters.check_owner(entries, "heur1stic", None)


def test_limits_count_live_entries_and_submissions_begun_this_hour(tmp_path, registry):
    """max_active counts checking, active and suspended entries of the submitter; per_hour counts every
    submission begun in the last hour, whatever became of it."""
    ladder = make_ladder(tmp_path / "L", registry)
    with Store(ladder.folder) as store:
        ledger = open_ledger(store)
        submitters.add(ledger, "alice", per_hour=2, max_active=2)
        who = submitters.find(ledger, "alice")
        live = [_entry("a-v1", "a", "alice"), _entry("b-v1", "b", "alice", "suspended"),
                _entry("c-v1", "c", "alice", "retired"), _entry("d-v1", "d", "bob")]
        with pytest.raises(SubmissionError, match=r"2 entries that can still play \(a-v1, b-v1\)"):
            submitters.check_active(live, who)
        submitters.check_active(live[1:], who)
        now = time.time()
        ledger.begin_submission("alice", now - 4000)  # over an hour ago: not counted
        ledger.begin_submission("alice", now - 10)
        submitters.check_rate(ledger, who, now)
        ledger.end_submission(ledger.begin_submission("alice", now - 5), "refused: not a wheel")
        with pytest.raises(SubmissionError, match="began 2 submissions in the last hour"):
            submitters.check_rate(ledger, who, now)


def test_the_organiser_may_submit_as_someone_and_retire_anything(tmp_path, registry, wheels, capsys):
    """`arena ladder submit --as alice` makes the chain alice's; a submitter retires only their own entries,
    the organiser any."""
    folder = tmp_path / "L"
    make_ladder(folder, registry)
    assert main(["ladder", "submitter", "add", str(folder), "alice"]) == 0
    assert main(["ladder", "submitter", "add", str(folder), "bob"]) == 0
    assert main(["ladder", "submit", str(folder), str(wheels["v1"]), "--as", "alice"]) == 0
    assert main(["ladder", "submit", str(folder), str(wheels["v2"]), "--as", "nobody"]) != 0
    assert "no submitter 'nobody'" in capsys.readouterr().err
    assert main(["ladder", "entries", str(folder)]) == 0
    assert "follows" not in (line := next(r for r in capsys.readouterr().out.splitlines() if "lbot-v1" in r))
    assert "alice's" in line
    ladder = Ladder.open(folder, registry)
    with Store(folder) as store:
        ledger = open_ledger(store)
        assert ledger.entry("lbot-v1").owner == "alice"
        bob, alice = submitters.find(ledger, "bob"), submitters.find(ledger, "alice")
    with pytest.raises(SubmissionError, match="belongs to another submitter"):
        submit(ladder, wheels["v2"], by=bob)
    with pytest.raises(LadderError, match="not bob's"):
        retire(ladder, "lbot-v1", submitter=bob)
    assert submit(ladder, wheels["v2"]).owner == "alice"  # the organiser continues alice's chain: still hers
    assert retire(ladder, "lbot-v2", submitter=alice).status == "retired"
    assert retire(ladder, "lbot-v1").status == "retired"  # the organiser


def test_the_submitter_commands(tmp_path, registry, capsys):
    """add prints only the token on stdout; list and limits show each submitter; revoke says what stays."""
    folder = tmp_path / "L"
    make_ladder(folder, registry)
    capsys.readouterr()
    assert main(["ladder", "submitter", "add", str(folder), "alice", "--per-hour", "2"]) == 0
    token = capsys.readouterr().out.strip()
    assert len(token.split()) == 1 and len(token) >= 40
    assert main(["ladder", "submitter", "limits", str(folder), "alice", "--max-active", "5"]) == 0
    assert "2 submissions an hour, 0/5 live entries" in capsys.readouterr().out
    assert main(["ladder", "submitter", "revoke", str(folder), "alice"]) == 0
    assert "their entries stay" in capsys.readouterr().out
    assert main(["ladder", "submitter", "list", str(folder)]) == 0
    assert "revoked" in capsys.readouterr().out
    assert main(["ladder", "submitter", "revoke", str(folder), "carol"]) != 0
    assert "no submitter 'carol' (submitters: alice)" in capsys.readouterr().err


def test_a_ladder_made_before_submitters_gains_the_owner_column(tmp_path, registry):
    """An entries table without ``owner`` (an older ladder) gets it on open; its entries are the organiser's."""
    ladder = make_ladder(tmp_path / "L", registry)
    db = sqlite3.connect(ladder.folder / "results.sqlite")
    db.execute("ALTER TABLE ladder_entries DROP COLUMN owner")
    db.commit()
    db.close()
    with Store(ladder.folder) as store:
        entries = open_ledger(store).entries()
    assert entries and all(e.owner is None for e in entries)
