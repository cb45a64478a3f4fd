"""Entering a ladder: install a submission, check it in its sandbox, admit it or not; retiring one.

A submission (a wheel or a bot folder, :mod:`arena.ladder.install`; a program bot's folder or zip, built
confined, :mod:`arena.ladder.program_install`) becomes
the entry ``<plugin>-v<k>``: the k-th version of that bot, linked to the one
before (its ``previous``), with a rating of its own. It is installed into
``DIR/plugins/<entry>/``, discovered confined, then checked with check-bot in
its sandbox under the ladder's rule presets and table sizes and its limits:
it enters matchmaking (status ``active``) only if every check passes;
otherwise it is ``rejected`` (and its folder removed: it never plays). Either
way the verdict and check-bot's report are stored with the entry. The same code
submitted again is refused.

A submission made by a submitter (through the web face) is theirs: it may
start a chain of their own or continue one they own, within their limits
(:mod:`arena.ladder.submitters`); one made by the organiser (the command
line) may continue any chain, which keeps its owner, and ``--as`` makes a new
chain a submitter's without their limits.

An organiser retires an entry, or reinstates a suspended one; every status
change is logged with who made it, when and why (``ladder_changes``).
"""

from __future__ import annotations

import getpass
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from arena.ladder import submitters
from arena.ladder.ledger import REINSTATED, Entry, open_ledger
from arena.ladder.errors import LadderError, SubmissionError
from arena.ladder.install import install_submission, read_package
from arena.ladder.ladder import PLUGINS, Ladder
from arena.ladder.names import entry_base
from arena.ladder.program_install import is_program
from arena.ladder.submitters import Submitter
from arena.plugins.checkbot import check_bot
from arena.plugins.folders import add_folder_players, folder_code_hash
from arena.results.store.database import Store
from arena.sandbox.build import DEFAULT_BUILD
from arena.tournament.event import roster_of

CHECK_GAMES = 1
"""check-bot's games per preset and table size for a submission."""
CHECKED_BY = "check-bot"
"""Who a submission's verdict is logged as."""


def submit(ladder: Ladder, path: Path, *, player: str = "", games: int = CHECK_GAMES,
           progress: Callable[[str], None] | None = None, by: Submitter | None = None,
           owner: str | None = None) -> Entry:
    """Install, check and admit (or reject) the submission at ``path``; the entry as stored.

    ``by``: the submitter who sent it (their ownership and limits apply); None: the organiser, whose
    entry is ``owner``'s (a new chain's, or the chain's own owner's when it continues one)."""
    say = progress or (lambda text: None)
    package = read_package(path)
    base = entry_base(package.plugin)
    with Store(ladder.folder) as store:
        ledger = open_ledger(store)
        entries = ledger.entries()
        owner = submitters.check_owner(entries, base, by.name if by else None) or owner
        if by is not None:
            submitters.check_active(entries, by)
        if is_program(path):
            say(f"{base}: a program bot; staging it, and running the build its bot.toml names (if any) in a sandbox "
                f"of its own (at most {DEFAULT_BUILD.wall_s:g} s) ...")
        name, previous, target = _new_folder(ladder, ledger, base, path)
        try:
            code_hash = folder_code_hash(target, name)
            same = next((e for e in ledger.entries() if e.plugin == base and e.code_hash == code_hash), None)
            if same is not None:
                raise SubmissionError(f"{path} is the same code as the entry {same.name} ({same.status}); "
                                      f"change the bot to submit a new version")
            problems = add_folder_players(ladder.registry, {name: {"folder": str(target), "player": player}})
            if problems:
                raise SubmissionError(f"{path}: {problems[name]}")
        except BaseException:
            shutil.rmtree(target, ignore_errors=True)
            raise
        spec = ladder.registry.players[name]
        entry = Entry(name, spec.name, base, spec.version, code_hash, f"{PLUGINS}/{name}", previous,
                      "checking", "being checked", None, time.time(), owner)
        ledger.add_entry(entry)
        installed = " ".join(w for w in (package.distribution, package.version) if w)
        say(f"{name}: installed {installed} into {target}; checking it ...")
        report = _check(ladder, store, name, games)
        data = {"ok": report.ok, "rows": report.to_dicts(), "text": report.table("simple")}
        if report.ok:
            store.save_roster(roster_of(ladder.registry, [name]))
            ledger.set_status(name, "active", "passed check-bot", data, by=CHECKED_BY)
        else:
            failed = "; ".join(f"{r.check}: {r.detail}" for r in report.failures())
            ledger.set_status(name, "rejected", f"check-bot failed: {failed}", data, by=CHECKED_BY)
            shutil.rmtree(target, ignore_errors=True)  # it never plays: its files only take room
        return _entry(ladder, ledger, name)


def _new_folder(ladder: Ladder, ledger, base: str, path: Path) -> tuple[str, str | None, Path]:
    """The next entry name of the bot ``base``, the entry it follows, and its install folder (made)."""
    for _ in range(20):  # another submit of the same bot may take a name at the same time
        earlier = [e for e in ledger.entries() if e.plugin == base]
        name = f"{base}-v{len(earlier) + 1}"
        target = ladder.folder / PLUGINS / name
        if target.exists():
            continue
        try:
            install_submission(path, target)
        except SubmissionError:
            if target.exists():
                continue
            raise
        return name, (earlier[-1].name if earlier else None), target
    raise LadderError(f"cannot find a free entry name for {base} in {ladder.folder / PLUGINS}")


def _check(ladder: Ladder, store: Store, name: str, games: int):
    spec = ladder.spec
    presets = list(dict.fromkeys(r["preset"] for r in spec.rules))
    return check_bot(name, registry=ladder.registry, games=games, presets=presets,
                     table_sizes=spec.table_sizes, limits=spec.limits, sandbox=True, secret=ladder.secret(store))


def retire(ladder: Ladder, name: str, reason: str = "retired by the organiser", by: str | None = None,
           submitter: Submitter | None = None) -> Entry:
    """Take an entry out of matchmaking (its games and rating stay); a ``submitter`` may retire only their own."""
    with Store(ladder.folder) as store:
        ledger = open_ledger(store)
        entry = _entry(ladder, ledger, name)
        if submitter is not None and entry.owner != submitter.name:
            raise LadderError(f"{name} is not {submitter.name}'s: a submitter may retire only their own entries")
        if entry.status == "retired":
            raise LadderError(f"{name} is retired already")
        ledger.set_status(name, "retired", reason, by=by or _user())
        return _entry(ladder, ledger, name)


def reinstate(ladder: Ladder, name: str, why: str = "", by: str | None = None) -> Entry:
    """Put a suspended entry back into matchmaking; its suspension counts faults from now on."""
    with Store(ladder.folder) as store:
        ledger = open_ledger(store)
        entry = _entry(ladder, ledger, name)
        if entry.status != "suspended":
            raise LadderError(f"{name} is {entry.status}, not suspended: only a suspended entry can be reinstated")
        ledger.set_status(name, "active", f"{REINSTATED} by the organiser" + (f": {why}" if why else ""),
                        by=by or _user())
        return _entry(ladder, ledger, name)


def _entry(ladder: Ladder, ledger, name: str) -> Entry:
    entry = ledger.entry(name)
    if entry is None:
        known = ", ".join(e.name for e in ledger.entries()) or "none"
        raise LadderError(f"no entry {name!r} in {ladder.folder} (entries: {known})")
    return entry


def _user() -> str:
    """Who runs this command (the login name), for the status change log."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no user name for this uid (a bare container)
        return f"uid {os.getuid()}"
