"""Durability: a damaged results file, a read-only folder, a full disk.

Each is one 'error:' line on stderr and a non-zero exit from every command that
opens a results folder, never a traceback; nothing already stored is lost or
changed; and a resume once the cause is fixed gives the same records as an
unbroken run.

Tests run as root, and root ignores file permissions, so a read-only file and a
full disk are made by SQLite itself, for any user: ``PRAGMA query_only`` makes
every write fail with SQLite's "attempt to write a readonly database" and
``PRAGMA max_page_count`` with "database or disk is full" (SQLITE_FULL), set on
every connection opened to a results database through a wrapped
``sqlite3.connect`` (:class:`Faults`). Where the tests may mount (root), the
same cases run once more on a real, tiny tmpfs: full, then read-only.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import uuid
from pathlib import Path

import pytest

from arena.plugins.registry import load
from arena.results.errors import StoreError
from arena.results.stats.standings import ratings_text
from arena.results.store.database import DB_NAME, Store
from arena.tournament.event import Tournament
from arena.tournament.executors import SerialExecutor
from arena.tournament.spec import spec_from_dict
from support.tournaments import records
from support.cli import run
from support.processes import pool_workers

SPEC = {"name": "tiny", "seed": 3, "rules": ["getaway"], "players": ["heuristic", "low", "high"],
        "table_sizes": [3, 4], "house": ["random"], "deals": 2}
GAMES = 2 * 3 + 2 * 4  # one 3-seat and one 4-seat table (random fills in), two deals, every rotation
TOML = "\n".join(f"{k} = {json.dumps(v)}" for k, v in SPEC.items()) + "\n"


pytestmark = pytest.mark.usefixtures("builtin_players_only")


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """An unbroken serial run of SPEC: what every broken-then-resumed run must equal."""
    folder = tmp_path_factory.mktemp("reference") / "tiny"
    t = Tournament.create(spec_from_dict(SPEC, "test"), folder, load(autoload=False))
    t.run(SerialExecutor())
    return folder


@pytest.fixture()
def event(tmp_path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TOML)
    return path


def one_error_line(code: int, out: str, err: str, *fragments: str, after: int = 0) -> str:
    """A non-zero exit, nothing on stdout, and (after ``after`` progress lines) one 'error:' line on stderr."""
    assert code == 2 and out == "", (code, out, err)
    lines = [line for line in err.splitlines() if not line.startswith("note: ")]  # so few games: rough ratings
    assert len(lines) == after + 1 and lines[-1].startswith("error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[-1], lines[-1]
    return lines[-1]


def table(folder: Path) -> list:
    with Store(folder) as store:
        return [{k: v for k, v in row.items() if k != "decision_ms"}
                for row in json.loads(ratings_text(store, "json"))]


def sql(path: Path, *statements: str) -> list:
    """Run statements on a database with plain sqlite3 (the way a user's tool would); the last one's rows."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        rows = []
        for statement in statements:
            rows = db.execute(statement).fetchall()
        return rows
    finally:
        db.close()


def partial_copy(reference: Path, tmp_path: Path, keep: int) -> Path:
    """A copy of the reference folder holding only its first ``keep`` games (as after a stopped run)."""
    copy = tmp_path / "tiny"
    shutil.copytree(reference, copy)
    sql(copy / DB_NAME, f"DELETE FROM seats WHERE idx >= {keep}", f"DELETE FROM faults WHERE idx >= {keep}",
        f"DELETE FROM games WHERE idx >= {keep}")
    return copy


# ------------------------------------------------------------ damaged files
def _zero_pages(path: Path, first: int, count: int) -> None:
    size = sql(path, "PRAGMA page_size")[0][0]
    with open(path, "r+b") as f:
        f.seek((first - 1) * size)
        f.write(bytes(size * count))


def _root_page(path: Path, name: str) -> int:
    return sql(path, f"SELECT rootpage FROM sqlite_master WHERE name = '{name}'")[0][0]


def zero_games_table(path: Path) -> None:
    """Zero the root page of the games table and the page after it."""
    _zero_pages(path, _root_page(path, "games"), 2)


def zero_an_index(path: Path) -> None:
    """Zero the root page of the seats_player index (SQLite's quick_check reports it as a row, not an error)."""
    _zero_pages(path, _root_page(path, "seats_player"), 1)


def zero_first_page(path: Path) -> None:
    _zero_pages(path, 1, 1)


def empty(path: Path) -> None:
    path.write_bytes(b"")


def truncate(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 3)


def garbage(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 40)


def drop_seats(path: Path) -> None:
    sql(path, "DROP TABLE seats")


DAMAGES = [
    (zero_games_table, "is damaged (database disk image is malformed)"),
    (zero_an_index, "is damaged (SQLite's quick_check: Page"),
    (zero_first_page, "is damaged: its first page is zeroed (no SQLite header)"),
    (empty, "is empty (0 bytes): expected a tournament's results database"),
    (truncate, "is truncated: "),
    (garbage, "is not a results database (not an SQLite file"),
    (drop_seats, "is not a results database: it lacks the table seats"),
]
COMMANDS = [
    ["ratings", "{folder}"],
    ["ratings", "{folder}", "--head-to-head"],
    ["tournament", "status", "{folder}"],
    ["tournament", "resume", "{folder}", "-q", "--jobs", "1"],
    ["tournament", "run", "{event}", "--results", "{root}", "-q", "--jobs", "1"],
    ["replay", "{folder}", "0"],
    ["report", "{folder}"],
    ["plot", "{folder}", "-o", "{root}/ratings.png"],
    ["research", "endings", "{folder}"],
]


@pytest.mark.parametrize("damage, fragment", DAMAGES, ids=lambda d: getattr(d, "__name__", ""))
@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a[:2]).replace("{folder}", ""))
def test_damaged_file_is_one_error_line_and_left_alone(capsys, reference, tmp_path, event, damage, fragment, argv):
    """Every command on a damaged results file: one line naming the file and what is wrong; the file unchanged."""
    folder = tmp_path / "tiny"
    shutil.copytree(reference, folder)
    path = folder / DB_NAME
    damage(path)
    before = path.read_bytes()
    args = [a.format(folder=folder, event=event, root=tmp_path) for a in argv]
    one_error_line(*run(capsys, *args), f"error: {path} ", fragment)
    assert path.read_bytes() == before, "a damaged results file must be left as it was"
    kept = sorted(p.name for p in folder.iterdir() if not p.name.startswith(DB_NAME + "-"))
    assert kept == sorted(p.name for p in reference.iterdir() if not p.name.startswith(DB_NAME + "-"))


def test_zeroed_pages_found_on_open(reference, tmp_path):
    """Zeroed pages are found when the store opens (quick_check), not later when a query reaches them."""
    folder = tmp_path / "tiny"
    shutil.copytree(reference, folder)
    zero_an_index(folder / DB_NAME)
    with pytest.raises(StoreError, match=r"is damaged \(SQLite's quick_check: Page \d+: "):
        Store(folder)


def test_damaged_record_text_is_one_error_line(capsys, reference, tmp_path):
    """A record whose text was damaged (SQLite checks no contents): replay, endings and report say so in one line."""
    folder = tmp_path / "tiny"
    shutil.copytree(reference, folder)
    sql(folder / DB_NAME, "UPDATE games SET record = substr(record, 1, 300) || char(0) || substr(record, 302) "
                          "WHERE idx = 4")
    code, out, err = run(capsys, "replay", folder, "3")
    assert code == 0 and err == ""
    for argv in (["replay", folder, "4"], ["research", "endings", folder], ["report", folder]):
        one_error_line(*run(capsys, *argv), f"{folder / DB_NAME} is damaged: the stored game 4 is not valid JSON")
    code, out, err = run(capsys, "ratings", folder)  # the ratings use the seats table, which is intact
    assert code == 0 and out.startswith(f"{GAMES} games")


def test_new_folder_is_told_apart_from_an_emptied_file(tmp_path):
    """No results.sqlite: a new database, made whole (tables and schema row) with no temporary file left;
    an emptied results.sqlite: an error even when creating, and it stays 0 bytes."""
    with Store(tmp_path / "new", create=True, meta={"spec": {"name": "x"}}) as store:
        assert store.meta("schema") == 1 and store.meta("spec") == {"name": "x"} and store.count() == 0
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == [DB_NAME]
    (tmp_path / "emptied").mkdir()
    (tmp_path / "emptied" / DB_NAME).write_bytes(b"")
    with pytest.raises(StoreError, match=r"results.sqlite is empty \(0 bytes\): expected a tournament's"):
        Store(tmp_path / "emptied", create=True)
    assert (tmp_path / "emptied" / DB_NAME).stat().st_size == 0


def test_creation_keeps_a_database_another_process_made_first(tmp_path):
    """Two runs creating one folder at once: the database linked first is kept, never replaced."""
    from arena.results.store.database import create_database
    create_database(tmp_path / "f" / DB_NAME, {"spec": {"name": "first"}})
    create_database(tmp_path / "f" / DB_NAME, {"spec": {"name": "second"}})
    with Store(tmp_path / "f") as store:
        assert store.meta("spec") == {"name": "first"}
    assert sorted(p.name for p in (tmp_path / "f").iterdir()) == [DB_NAME]


# ------------------------------------------------------------ read-only and full, made by SQLite
class Faults:
    """SQLite settings applied to each connection opened to a results database (or its new twin)."""

    def __init__(self) -> None:
        self.settings: list = []
        self.refuse_open = False

    def read_only(self) -> None:
        self.settings.append(lambda db: db.execute("PRAGMA query_only = ON"))

    def disk_full_after(self, pages: int) -> None:
        """Writes fail with SQLITE_FULL once the database would grow ``pages`` pages past its size at open."""
        self.settings.append(lambda db: db.execute(
            f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0] + pages}"))

    def clear(self) -> None:
        self.settings.clear()
        self.refuse_open = False


@pytest.fixture()
def faults(monkeypatch, tmp_path) -> Faults:
    real = sqlite3.connect
    faults = Faults()
    try:
        real(tmp_path / "no" / "such" / "folder.sqlite")
    except sqlite3.OperationalError as exc:
        cannot_open = exc  # SQLite's own SQLITE_CANTOPEN, raised as it comes
    else:
        raise AssertionError("sqlite3 opened a file in a folder that does not exist")

    def connect(database, *args, **kwargs):
        if not Path(str(database)).name.startswith(DB_NAME):
            return real(database, *args, **kwargs)
        if faults.refuse_open:
            raise cannot_open
        db = real(database, *args, **kwargs)
        for apply in faults.settings:
            apply(db)
        return db

    monkeypatch.setattr(sqlite3, "connect", connect)
    return faults


def test_read_only_resume_then_fixed(capsys, reference, tmp_path, faults):
    """Resume into a read-only database: one line before any game is played, nothing changed; reading still
    works; once writable again, resume plays the rest and equals an unbroken run."""
    folder = partial_copy(reference, tmp_path, keep=6)
    before = (folder / DB_NAME).read_bytes()
    faults.read_only()
    one_error_line(*run(capsys, "tournament", "resume", folder, "-q", "--jobs", "1"),
                   f"cannot write to {folder / DB_NAME}: it is read-only (attempt to write a readonly database)",
                   f"6 of {GAMES} games are stored and kept", f"`arena tournament resume {folder}` plays the rest",
                   after=1)
    code, out, err = run(capsys, "ratings", folder)
    assert code == 0 and out.startswith("6 games\n")
    assert (folder / DB_NAME).read_bytes() == before
    faults.clear()
    code, out, err = run(capsys, "tournament", "resume", folder, "-q", "--jobs", "1")
    assert code == 0 and f"{GAMES - 6} to play" in err, err
    assert records(folder) == records(reference) and table(folder) == table(reference)


def test_read_only_new_tournament(capsys, event, tmp_path, reference, faults):
    """`tournament run` of a finished tournament in a read-only database prints its table (nothing to write);
    a changed setting that must be stored is one error line."""
    shutil.copytree(reference, tmp_path / "tiny")
    faults.read_only()
    code, out, err = run(capsys, "tournament", "run", event, "--results", tmp_path, "-q")
    assert code == 0 and "0 to play" in err and out.startswith(f"{GAMES} games\n")
    one_error_line(*run(capsys, "tournament", "run", event, "--results", tmp_path, "-q", "--batch", "3"),
                   f"cannot write to {tmp_path / 'tiny' / DB_NAME}: it is read-only")


@pytest.mark.parametrize("jobs", [1, 2])
def test_disk_full_mid_run_then_resume_equals_unbroken(capsys, reference, event, tmp_path, faults, jobs):
    """The disk fills after a few games: the run stops with one line saying how many games are kept; those games
    are the unbroken run's; workers are gone; with space again, resume plays only the rest: same records."""
    faults.disk_full_after(12)
    code, out, err = run(capsys, "tournament", "run", event, "--results", tmp_path, "-q", "--jobs", jobs,
                         "--secret-from", reference)  # the reference's cards and bot seeds
    folder = tmp_path / "tiny"
    line = one_error_line(code, out, err, f"error: cannot write to {folder}: the disk is full "
                          f"(database or disk is full); free some space there;",
                          f"games are stored and kept; once that is fixed, `arena tournament resume {folder}` "
                          f"plays the rest", after=1)
    assert err.splitlines()[0] == f"tiny: {GAMES} games scheduled, {GAMES} to play -> {folder}"
    if Path("/proc/self/stat").exists():
        assert pool_workers() == [], "the worker pool outlived the stopped run"
    faults.clear()
    kept = records(folder)
    assert f"; {len(kept)} of {GAMES} games are stored and kept;" in line
    assert 0 < len(kept) < GAMES, "the disk filled too early or too late to test a resume"
    assert kept == [r for r in records(reference) if r[0] in {i for i, _ in kept}]
    with Store(folder) as store:
        assert dict(store.db.execute("SELECT idx, COUNT(*) FROM seats GROUP BY idx")) == \
            dict(store.db.execute("SELECT idx, table_size FROM games"))
    code, out, err = run(capsys, "tournament", "resume", folder, "-q", "--jobs", jobs)
    assert code == 0 and f"{GAMES - len(kept)} to play" in err, err
    assert records(folder) == records(reference) and table(folder) == table(reference)


def test_disk_full_creating_the_database(capsys, event, tmp_path, faults):
    """No room for even a new database: one line, no results.sqlite (nor a half-made one) left behind; with
    room again the same command runs the tournament."""
    faults.disk_full_after(1)
    one_error_line(*run(capsys, "tournament", "run", event, "--results", tmp_path, "-q", "--jobs", "1"),
                   f"error: cannot write to {tmp_path / 'tiny'}: the disk is full (database or disk is full)")
    assert list((tmp_path / "tiny").iterdir()) == []
    faults.clear()
    code, out, err = run(capsys, "tournament", "run", event, "--results", tmp_path, "-q", "--jobs", "1")
    assert code == 0 and out.startswith(f"{GAMES} games\n")


def test_cannot_open(capsys, reference, tmp_path, faults):
    """SQLite unable to open the file (SQLITE_CANTOPEN, as in a read-only folder): one line for each command."""
    folder = tmp_path / "tiny"
    shutil.copytree(reference, folder)
    faults.refuse_open = True
    for argv in (["ratings", folder], ["replay", folder, "1"], ["tournament", "resume", folder, "-q"],
                 ["tournament", "status", folder], ["report", folder]):
        one_error_line(*run(capsys, *argv), f"error: cannot open {folder / DB_NAME} (unable to open database "
                       f"file): {folder} must exist and be writable")


def test_storage_errors_known_by_name_or_text(tmp_path):
    """SQLite's failures a user can cause become StoreErrors naming the file; a bug's error is left alone."""
    from arena.results.store.check import storage_error
    path = tmp_path / "r" / DB_NAME
    cases = {"database or disk is full": "the disk is full", "attempt to write a readonly database": "read-only",
             "unable to open database file": "cannot open", "database disk image is malformed": "is damaged",
             "file is not a database": "is damaged", "disk I/O error": "failed", "database is locked": "is locked"}
    for text, fragment in cases.items():
        error = storage_error(path, sqlite3.OperationalError(text))
        assert isinstance(error, StoreError) and str(path.parent) in str(error) and fragment in str(error)
    assert storage_error(path, sqlite3.OperationalError('near "SELEC": syntax error')) is None


# ------------------------------------------------------------ other files in the results folder
def test_report_and_plot_that_cannot_be_written(capsys, reference, tmp_path):
    """A report or plot whose file cannot be written: one line naming the file and the cause; nothing left."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for argv, target in ((["report", reference, "-o"], blocker / "report.html"),
                         (["plot", reference, "-o"], blocker / "ratings.png")):
        one_error_line(*run(capsys, *argv, target), f"error: cannot write {target} (")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


# ------------------------------------------------------------ a real full, then read-only, file system
def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True, timeout=30)


@pytest.fixture()
def tiny_disk(tmp_path):
    """A 320 KiB tmpfs at ``tmp_path/disk`` (root only); unmounted afterwards."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a real full disk needs root to mount a tmpfs")
    disk = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    disk.mkdir()
    try:
        _mount("-t", "tmpfs", "-o", "size=320k", "tmpfs", str(disk))
    except (subprocess.CalledProcessError, OSError) as exc:
        pytest.skip(f"cannot mount a tmpfs here ({exc})")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True, timeout=30)


def test_real_full_then_read_only_disk(capsys, reference, event, tiny_disk):
    """On a real tmpfs: the disk fills mid-run (SQLITE_FULL), report.html cannot be written (ENOSPC), the disk
    turns read-only (a clean database there cannot even be opened): one line each; then with room, resume
    equals an unbroken run."""
    folder = tiny_disk / "tiny"
    code, out, err = run(capsys, "tournament", "run", event, "--results", tiny_disk, "-q", "--jobs", "1",
                         "--secret-from", reference)
    one_error_line(code, out, err, f"cannot write to {folder}: the disk is full", "games are stored and kept",
                   after=1)
    kept = records(folder)
    assert 0 < len(kept) < GAMES
    one_error_line(*run(capsys, "report", folder), f"error: cannot write {folder / 'report.html'} (No space left")
    assert not (folder / "report.html").exists()
    _mount("-o", "remount,size=4m", str(tiny_disk))
    code, out, err = run(capsys, "tournament", "resume", folder, "-q", "--jobs", "1")
    assert code == 0 and f"{GAMES - len(kept)} to play" in err, err
    assert records(folder) == records(reference)
    _mount("-o", "remount,ro", str(tiny_disk))
    for argv in (["tournament", "resume", folder, "-q"], ["ratings", folder]):
        one_error_line(*run(capsys, *argv), f"error: cannot open {folder / DB_NAME} (unable to open database file)")
    _mount("-o", "remount,rw", str(tiny_disk))
    assert records(folder) == records(reference) and table(folder) == table(reference)
