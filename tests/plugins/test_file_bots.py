"""A bot in one file (``PATH.py:ClassName``): played, entered, checked and refused, from the command line.

Every file here is written to the test's own folder, which is made the working folder so that the
seats are the relative names a user types. No test imports a bot file into this process: the
confined discovery process and the bot's sandbox do (each test checks ``sys.modules`` for it).
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from arena import Game, PluginError, Rules
from arena.bots.referee import InProcessClient, play_game
from arena.plugins.file_bots import file_player, file_seat, modules_beside
from arena.plugins.registry import load
from arena.sandbox.client import SandboxClient
from arena.sandbox.limits import Limits, detect
from support.cli import run

pytestmark = pytest.mark.usefixtures("builtin_players_only")
CAPS = detect()
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "one_file_bot.py"
DUCKER = EXAMPLE.read_text()
SIMPLE = textwrap.dedent("""
    from arena import Bot


    class Lowest(Bot):
        \"\"\"Its first legal card.\"\"\"

        def play(self, view):
            return view.legal[0]
""")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """``write(path, source)``: a file under the test's folder (dedented), which is the working folder."""
    monkeypatch.chdir(tmp_path)

    def write(path: str, source: str) -> Path:
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(source))
        return target
    return write


def not_imported_here(*modules: str) -> bool:
    return not any(m in sys.modules for m in modules)


def one_error_line(capsys, *argv) -> str:
    """Run ``arena ARGV``, which must fail with one error line and no traceback; the line."""
    code, out, err = run(capsys, *argv)
    assert code != 0 and out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err.strip()


# ------------------------------------------------------------------ playing
def test_play_a_game_with_a_file_bot(folder, capsys):
    """`arena play` seats ``PATH.py:ClassName`` (and ``PATH.py``: its one Bot subclass) in its sandbox; the
    game is legal, replays, and is sealed like any game with a third-party bot."""
    folder("bots/ducker.py", DUCKER)
    for seat in ("bots/ducker.py:Ducker", "bots/ducker.py"):
        names = [seat, "random", "low", "high"]
        code, out, err = run(capsys, "play", "--rules", "getaway", "--seats", ",".join(names), "--seed", "3", "--json")
        assert code == 0, err
        record = json.loads(out)
        assert record["names"] == names and record["faults"] == [[], [], [], []] and record["sealed"] is True
        assert Game.from_record(record).is_over
    code, out, _ = run(capsys, "play", "--seats", "bots/ducker.py:Ducker,random,low", "--seed", "3")
    assert code == 0 and "bots/ducker.py:Ducker[0]" in out
    assert not_imported_here("ducker")


def test_a_file_bot_with_an_alias_and_options(folder, capsys):
    """An alias seats the file twice; options are typed against the class's keyword defaults."""
    folder("opt.py", """
        from arena import Bot


        class Picky(Bot):
            def __init__(self, seed=0, last: bool = False, **options):
                super().__init__(seed, **options)
                self.last = last

            def play(self, view):
                return view.legal[-1 if self.last else 0]
    """)
    names = ["opt.py:Picky(last=true)", "opt.py:Picky#2", "low"]
    code, out, err = run(capsys, "play", "--seats", ",".join(names), "--seed", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["faults"] == [[], [], []]
    line = one_error_line(capsys, "play", "--seats", "opt.py:Picky(last=7),low,high")
    assert "last" in line and "7" in line
    assert not_imported_here("opt")


def test_a_tournament_file_names_a_file_bot(folder, capsys):
    """A tournament's ``players`` take a file bot, played by the local pool's workers; the event is sealed and
    records the file's code hash."""
    folder("bots/ducker.py", DUCKER)
    folder("mine.toml", """
        name = "mine"
        seed = 1
        rules = ["getaway"]
        players = ["bots/ducker.py:Ducker", "heuristic", "random", "low"]
        table_sizes = [4]
        deals = 2
    """)
    code, _, err = run(capsys, "tournament", "run", "mine.toml", "--results", "results", "-q", "-j", "2")
    assert code == 0, err
    code, out, _ = run(capsys, "tournament", "status", "results/mine")
    assert code == 0 and "games: 8 of 8" in out and "sealed: yes" in out
    spec = file_player("bots/ducker.py:Ducker")
    assert f"player bots/ducker.py:Ducker 0 (plugin bots/ducker.py, code {spec.code_hash()})" in out
    assert not_imported_here("ducker")


def test_compare_takes_a_file_bot(folder, capsys):
    folder("bots/ducker.py", DUCKER)
    code, out, err = run(capsys, "compare", "bots/ducker.py:Ducker", "low", "--games", "8", "--results", "results")
    assert code == 0, err
    assert "bots/ducker.py:Ducker against low" in out


def test_check_bot_on_a_file_bot(folder, capsys):
    folder("bots/ducker.py", DUCKER)
    code, out, err = run(capsys, "check-bot", "bots/ducker.py", "--rules", "getaway,bhabho,donkey",
                         "--table-sizes", "3")
    assert code == 0, out + err
    assert "class Ducker of the file bots/ducker.py" in out and "all checks passed" in out
    assert not_imported_here("ducker")


@pytest.mark.parametrize("command", [["play", "--seats", "lone.py,random,low"],
                                     ["check-bot", "lone.py", "--rules", "getaway", "--table-sizes", "3"]])
def test_a_file_bot_in_process_is_refused(folder, capsys, command):
    folder("lone.py", SIMPLE)
    assert one_error_line(capsys, *command, "--in-process") == (
        "error: player 'lone.py' is a bot in one file, third-party code that never runs in the harness: "
        "it plays sandboxed only, not in-process")


# --------------------------------------------------------- what its sandbox reads
READER = """
    import os

    from arena import Bot
    from helper import first

    HERE = os.path.dirname(os.path.abspath(__file__))


    def readable(path):
        try:
            with open(path) as f:
                f.read()
        except OSError as exc:
            return type(exc).__name__
        return "read"


    class Reader(Bot):
        def new_game(self, view):
            print("READS", readable(os.path.join(HERE, "helper.py")), readable(os.path.join(HERE, "notes.txt")),
                  readable(os.path.join(HERE, "..", "outside.py")), flush=True)

        def play(self, view):
            return first(view.legal)
"""


@pytest.mark.parametrize("forked", [True, False], ids=["fork-server", "exec"])
def test_its_sandbox_reads_the_file_and_the_modules_beside_it_only(folder, forked):
    """The bot imports a module beside it and reads it; a file beside it that is not a module, and a module
    in the folder above, are not there for it (a fork server's root) or not readable (an exec'd process)."""
    if forked and not CAPS.available("forkserver"):
        pytest.skip("no fork server here")
    if not forked and not CAPS.available("landlock"):
        pytest.skip("no Landlock here: an exec'd bot could read anything")
    bot = folder("bots/reader.py", READER)
    folder("bots/helper.py", "def first(cards):\n    return cards[0]\n")
    folder("bots/notes.txt", "private\n")
    folder("outside.py", "X = 1\n")
    assert modules_beside(bot.resolve()) == [str(bot.resolve()), str(bot.parent.resolve() / "helper.py")]
    registry = load()
    os_limits = Limits() if forked else Limits(disable=frozenset({"forkserver"}))
    client = SandboxClient(registry.get("bots/reader.py:Reader"), os_limits=os_limits)
    try:
        record = play_game(Rules.preset("getaway"), [client, InProcessClient(registry.get("low")),
                                                     InProcessClient(registry.get("high"))], 7)
    finally:
        client.close()
    assert client._forked is forked
    assert record["faults"][0] == [], client.log_text()
    [line] = [line for line in client.log_text().splitlines() if line.startswith("READS")]
    denied = "FileNotFoundError" if forked else "PermissionError"
    assert line == f"READS read {denied} {denied}"
    assert not_imported_here("reader", "helper")


def test_the_code_hash_comes_from_the_file_and_the_modules_beside_it(folder):
    """A code edit in the file or a module beside it changes the hash; a comment does not; a file beside it
    that is not a module does not count."""
    bot = folder("bots/lone.py", SIMPLE)
    first = file_player("bots/lone.py:Lowest").code_hash()
    bot.write_text(bot.read_text() + "# a comment\n")
    folder("bots/notes.txt", "not code\n")
    assert file_player("bots/lone.py:Lowest").code_hash() == first
    bot.write_text(bot.read_text().replace("legal[0]", "legal[-1]"))
    edited = file_player("bots/lone.py:Lowest").code_hash()
    assert edited != first
    folder("bots/util.py", "X = 1\n")
    assert file_player("bots/lone.py:Lowest").code_hash() not in (first, edited)


def test_file_seats_are_told_from_other_names():
    assert file_seat("bots/a.py:Mine") == ("bots/a.py", "Mine")
    assert file_seat("/abs/a.py") == ("/abs/a.py", "")
    assert file_seat("a.py") == ("a.py", "")
    assert file_seat("bots/a.txt:Mine") == ("bots/a.txt", "Mine")
    assert file_seat("bots/notes") == ("bots/notes", "")
    for name in ("random", "my-bot", "sampler", "a.b", "program:bots/a.py", "program:./run"):
        assert file_seat(name) is None, name


# ------------------------------------------------------------------ refusals
ERRORS = [
    # (files to write, seat, the error line)
    ({}, "bots/nope.py:Mine",
     "error: bots/nope.py: no such file (a seat PATH.py:ClassName plays the Bot subclass that Python file defines)"),
    ({"bots/mine.txt": SIMPLE}, "bots/mine.txt:Lowest",
     "error: bots/mine.txt: expected a Python file, PATH.py (a seat PATH.py:ClassName plays the Bot subclass that "
     "Python file defines); got a file ending in '.txt'"),
    ({"bots/mine.py": SIMPLE}, "bots/mine.py:Highest",
     "error: bots/mine.py: no class 'Highest' in the file (its Bot subclasses: Lowest)"),
    ({"bots/mine.py": SIMPLE + "\nHIGHEST = 3\n"}, "bots/mine.py:HIGHEST",
     "error: bots/mine.py: HIGHEST is not a Bot subclass (expected a class deriving from arena.Bot, got an int)"),
    ({"bots/mine.py": SIMPLE + "\nclass Plain:\n    pass\n"}, "bots/mine.py:Plain",
     "error: bots/mine.py: Plain is not a Bot subclass (expected a class deriving from arena.Bot, got a class "
     "deriving from object)"),
    ({"bots/mine.py": SIMPLE + "\ndef broken(:\n    pass\n"}, "bots/mine.py:Lowest",
     "error: bots/mine.py:11: syntax error: invalid syntax"),
    ({"bots/mine.py": "from arena import Bot\n"}, "bots/mine.py",
     "error: bots/mine.py: expected a Bot subclass defined in the file (found none)"),
    ({"bots/mine.py": SIMPLE + "\nclass Other(Lowest):\n    pass\n"}, "bots/mine.py",
     "error: bots/mine.py: expected one Bot subclass, found 2 (Lowest, Other): name one, as bots/mine.py:Lowest"),
    ({"bots/mine.py": "import numpy_not_installed_anywhere\n" + SIMPLE}, "bots/mine.py:Lowest",
     "error: bots/mine.py:1 imports numpy_not_installed_anywhere, which is not installed: install it into the "
     "Python environment the arena runs in, or put it beside the file"),
    ({"bots/mine.py": "import shared\n" + SIMPLE, "bots/shared/part.py": "X = 1\n"}, "bots/mine.py:Lowest",
     "error: bots/mine.py imports shared, a folder beside the file without __init__.py, which the sandbox cannot "
     "read: only the modules beside it are readable (NAME.py, packages): add an __init__.py"),
    ({"bots/mine.py": "import helper\n" + SIMPLE, "bots/helper.py": "def f(:\n    pass\n"}, "bots/mine.py:Lowest",
     "error: bots/helper.py:1: syntax error: invalid syntax"),
    ({"bots/mine.py": "raise RuntimeError('no luck')\n"}, "bots/mine.py",
     "error: bots/mine.py: failed to load: RuntimeError: no luck (bots/mine.py:1)"),
    ({"bots/json.py": SIMPLE}, "bots/json.py:Lowest", None),  # the standard library's json: checked below
    ({"bots/my-bot.py": SIMPLE}, "bots/my-bot.py:Lowest",
     "error: bots/my-bot.py: expected a file name that is a Python module name (letters, digits and '_', not "
     "starting with a digit); got 'my-bot'"),
    ({"bots/mine.py": SIMPLE}, "bots/mine.py:9x",
     "error: bots/mine.py:9x: expected PATH.py:ClassName, a Python name after ':' (got '9x')"),
]


@pytest.mark.parametrize("files, seat, line", ERRORS, ids=[e[1] + f"-{i}" for i, e in enumerate(ERRORS)])
def test_a_file_that_cannot_play_is_one_error_line(folder, capsys, files, seat, line):
    for path, source in files.items():
        folder(path, source)
    got = one_error_line(capsys, "play", "--seats", f"{seat},random,low")
    if line is None:
        assert got.startswith("error: bots/json.py: its module name 'json' is taken by ") and \
            got.endswith("json/__init__.py, which the sandbox imports instead: rename the file")
    else:
        assert got == line
    assert not_imported_here("mine", "helper", "my-bot")


def test_an_import_the_sandbox_cannot_read_names_it_and_where_it_lies(folder, tmp_path, capsys):
    """A module from elsewhere on the disk (here put on the path by the bot itself): one line naming the
    import, the folder it lies in and what to do; the same for check-bot and a tournament file."""
    lib = tmp_path / "home" / "lib"
    folder("home/lib/helpers.py", "X = 1\n")
    folder("bots/mine.py", f"import sys\nsys.path.insert(0, {str(lib)!r})\nimport helpers\n" + SIMPLE)
    expected = (f"error: bots/mine.py:3 imports helpers from {lib}, which the sandbox cannot read: put it beside the "
                f"file or install it")
    if not CAPS.available("landlock"):
        pytest.skip("no Landlock here: discovery could read it")
    assert one_error_line(capsys, "play", "--seats", "bots/mine.py:Lowest,random,low") == expected
    assert one_error_line(capsys, "check-bot", "bots/mine.py:Lowest") == expected
    folder("mine.toml", 'name = "mine"\nseed = 1\nrules = ["getaway"]\nplayers = ["bots/mine.py:Lowest", "random", '
                        '"low"]\ntable_sizes = [3]\ndeals = 1\n')
    assert one_error_line(capsys, "tournament", "run", "mine.toml", "--results", "results").endswith(expected[7:])
    assert not_imported_here("mine", "helpers")


def test_a_file_it_reads_at_import_that_the_sandbox_cannot_read(folder, capsys):
    """A data file beside it is not a module: reading it at import is one line saying so."""
    if not CAPS.available("landlock"):
        pytest.skip("no Landlock here: discovery could read it")
    data = folder("bots/weights.txt", "1 2 3\n")
    folder("bots/mine.py", "import os\nopen(os.path.join(os.path.dirname(__file__), 'weights.txt')).read()\n" + SIMPLE)
    assert one_error_line(capsys, "play", "--seats", "bots/mine.py,random,low") == (
        f"error: bots/mine.py:2 reads {data.resolve()}, which the sandbox cannot read: a bot in one file may read "
        f"only its modules (the .py files and packages beside it); for data files make it a package (arena new-bot)")


def test_file_player_raises_plugin_error(folder):
    with pytest.raises(PluginError, match="no such file"):
        file_player("nowhere.py:Mine")
