"""Discovery's temporary folder: a plugin's import may write there (and only there), and a failed import
says why in words its author understands.

Each plugin is a real tiny distribution (the ``fake_plugins`` fixture of tests/conftest.py, or a folder
plugin as a ladder installs one, :mod:`support.folder_plugins`). Discovery runs each import in a child of
its own: a private tmpfs on a folder the harness made (``mode="tmpfs"``), or, as on a machine without
namespaces, the folder itself (``mode="folder"``: ``namespaces`` disabled in the discovery limits).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tempfile

import pytest

from arena import Rules
from arena.bots.referee import InProcessClient, play_game
from arena.plugins import discovery
from arena.plugins.folders import add_folder_players
from arena.plugins.names import BUILTIN_PLUGIN, ENTRY_POINT_GROUP
from arena.plugins.registry import load
from arena.sandbox.client import SandboxClient
from arena.sandbox.limits import Limits, detect
from support.cli import run
from support.folder_plugins import folder_plugin
from support.plugins import problems_of

CAPS = detect()
MODES = {"tmpfs": discovery.LIMITS,
         "folder": dataclasses.replace(discovery.LIMITS, disable=frozenset({"namespaces"}))}
TMP_FOLDER = r"(/\S+/arena-plugin-\d+-\w+)"
"""A discovery process's temporary folder, as a message names it."""

MOUNTED = """
    def _mounted(path):
        with open("/proc/self/mountinfo") as f:
            for line in f:
                left, _, right = line.partition(" - ")
                if left.split()[4] == path and right.split()[0] == "tmpfs":
                    return True
        return False
"""
WRITER = MOUNTED + """
    import json, os, tempfile

    CACHE = tempfile.mkdtemp(prefix="cache-")
    with open(os.path.join(CACHE, "model.bin"), "wb") as f:
        f.write(b"weights" * 100)
    with open(os.path.join(tempfile.gettempdir(), "mine.txt"), "w") as f:
        f.write("written at import")
    os.makedirs(os.path.join(os.path.expanduser("~"), ".cache", "writer"))
    TMP = tempfile.gettempdir()
    SEEN = {"tmp": TMP, "same": os.path.expanduser("~") == os.getcwd() == TMP, "tmpfs": _mounted(TMP),
            "files": sorted(os.listdir(TMP)), "cache": os.path.basename(CACHE)}

    class Writer(LowBot):
        def new_game(self, view):
            print("TMP-AT-START", json.dumps(sorted(os.listdir(tempfile.gettempdir()))), flush=True)

        def act(self, view):
            with open(os.path.join(tempfile.gettempdir(), "game.txt"), "a") as f:
                f.write("a move")
            return super().act(view)

    @hookimpl
    def arena_players():
        return [PlayerSpec("tmp-writer", Writer, json.dumps(SEEN))]
"""
NEIGHBOUR = """
    import json, os, tempfile

    TMP = tempfile.gettempdir()
    with open(os.path.join(TMP, "{name}.txt"), "w") as f:
        f.write("{name}")
    try:
        PEEK = [sorted(os.listdir(os.path.join(os.path.dirname(TMP), n))) for n in os.listdir(os.path.dirname(TMP))
                if n.startswith("arena-plugin-")]
    except OSError as exc:
        PEEK = type(exc).__name__

    @hookimpl
    def arena_players():
        seen = {{"tmp": TMP, "files": sorted(os.listdir(TMP)), "peek": PEEK}}
        return [PlayerSpec("{name}-bot", LowBot, json.dumps(seen))]
"""


def needs(*layers: str):
    """Skip unless every named isolation layer works on this machine."""
    missing = [n for n in layers if not CAPS.available(n)]
    return pytest.mark.skipif(bool(missing), reason=f"layer unavailable here: {missing}")


def reports(mode: str) -> dict[str, dict]:
    """Every installed third-party plugin's discovery report, by plugin name, discovered in ``mode``."""
    found, _ = discovery.candidates(ENTRY_POINT_GROUP, BUILTIN_PLUGIN)
    return discovery.discover(found, limits=MODES[mode])


def seen(report: dict) -> dict:
    """What the plugin's import saw, as its one player's description says."""
    [player] = report["players"]
    return json.loads(player["description"])


def problem(report: dict) -> str:
    [said] = report["problems"]
    return said


# ------------------------------------------------------------------ what an import may write
@pytest.mark.parametrize("mode", MODES)
def test_an_import_writing_temporary_files_is_discovered(fake_plugins, mode):
    """mkdtemp, a file in gettempdir() and a folder under HOME at import: the plugin is discovered, its folder
    (HOME, working folder and tempfile's) was private (a tmpfs in its own mount namespace where there is
    one) and is gone afterwards."""
    fake_plugins("writer", WRITER)
    report = reports(mode)["writer"]
    assert report["problems"] == []
    what = seen(report)
    assert what["same"] is True
    assert os.path.dirname(what["tmp"]) == tempfile.gettempdir()
    assert os.path.basename(what["tmp"]).startswith(f"{discovery.TMP_PREFIX}{os.getpid()}-")
    assert what["files"] == sorted([".cache", what["cache"], "mine.txt"])
    if mode == "folder":
        assert what["tmpfs"] is False
    elif CAPS.available("namespaces"):
        assert what["tmpfs"] is True
    assert not os.path.lexists(what["tmp"])


@pytest.mark.parametrize("forked", [True, False], ids=["fork-server", "exec"])
def test_it_plays_sandboxed_writing_at_import_and_in_its_games(fake_plugins, forked):
    """The same plugin plays a clean game from its sandbox (a fork server's or an exec'd process's): its import
    writes there too, and its moves write in the game process's own temporary folder, which starts empty under a
    fork server (what the server's import wrote is not seen by any game) and holds the import's files when exec'd
    (one process imports and plays)."""
    if forked and not CAPS.available("forkserver"):
        pytest.skip("no fork server here")
    fake_plugins("writer", WRITER)
    registry = load()
    assert problems_of(registry) == {}
    os_limits = Limits() if forked else Limits(disable=frozenset({"forkserver"}))
    client = SandboxClient(registry.get("tmp-writer"), os_limits=os_limits)
    try:
        record = play_game(Rules.preset("getaway"), [client, InProcessClient(registry.get("low")),
                                                     InProcessClient(registry.get("high"))], 7)
    finally:
        client.close()
    assert client._forked is forked
    assert record["faults"][0] == [], client.log_text()
    assert record["timings"][0]["decisions"] > 0
    [start] = [line for line in client.log_text().splitlines() if line.startswith("TMP-AT-START")]
    files = json.loads(start.split(" ", 1)[1])
    if forked:
        assert files == []
    else:
        assert {"mine.txt", ".cache"} <= set(files)


@pytest.mark.parametrize("mode", MODES)
def test_two_discovery_processes_do_not_see_each_others_files(fake_plugins, mode):
    """Two plugins discovered side by side: each folder holds only its own plugin's file, the two are
    different folders, and (Landlock) neither can even list the folder the other's lives in."""
    for name in ("left", "right"):
        fake_plugins(name, NEIGHBOUR.format(name=name))
    found = reports(mode)
    left, right = seen(found["left"]), seen(found["right"])
    assert (left["files"], right["files"]) == (["left.txt"], ["right.txt"])
    assert left["tmp"] != right["tmp"]
    if CAPS.available("landlock"):
        assert left["peek"] == right["peek"] == "PermissionError"
    assert not os.path.lexists(left["tmp"]) and not os.path.lexists(right["tmp"])


# ------------------------------------------------------------------ a failed import, in words
@needs("landlock")
def test_writing_outside_its_folder_says_what_is_writable(fake_plugins, tmp_path, capsys):
    """A write outside the temporary folder at import: `arena players` warns in one line naming the path,
    the plugin's line, and the one folder it may write in; nothing was written."""
    outside = tmp_path / "outside.txt"
    fake_plugins("outsider", f"open({str(outside)!r}, 'w').write('escaped')\n")
    code, out, err = run(capsys, "players", "--format", "plain")
    assert code == 0 and "heuristic" in out
    [line] = err.splitlines()
    assert re.fullmatch(
        rf"warning: plugin outsider: failed to load: PermissionError: it may not write '{re.escape(str(outside))}' "
        rf"\(fakeplug_outsider\.py:3\): while a plugin is discovered it may write only in its temporary folder, "
        rf"{TMP_FOLDER} \(tempfile\.gettempdir\(\) and HOME\)", line), line
    assert not outside.exists()


@needs("landlock")
def test_writing_outside_its_folder_on_disk_says_so_too(fake_plugins, tmp_path):
    """Where there is no mount namespace (the harness's folder on disk), the same words name that folder."""
    outside = tmp_path / "outside.txt"
    fake_plugins("outsider", f"open({str(outside)!r}, 'w').write('escaped')\n")
    said = problem(reports("folder")["outsider"])
    folder = re.search(rf"temporary folder, {TMP_FOLDER} ", said).group(1)
    assert said.startswith(f"failed to load: PermissionError: it may not write '{outside}' (fakeplug_outsider.py:3)")
    assert not outside.exists() and not os.path.lexists(folder)


def test_a_module_not_installed_says_which_and_what_to_do(fake_plugins, capsys):
    """A plugin importing a module that is not installed: the module, the plugin's line, and to install it
    where the arena's Python finds it or ship it; `arena check-bot` of its player says so in its error."""
    fake_plugins("needy", "import numpyy_never_installed_here\n")
    message = ("failed to load: ModuleNotFoundError: it imports 'numpyy_never_installed_here' (fakeplug_needy.py:3), "
               "which is not installed: install it into the Python environment the arena runs in, or ship it inside "
               "the plugin's package")
    assert problems_of(load()) == {"needy": message}
    code, out, err = run(capsys, "check-bot", "needy")
    assert code == 2 and out == ""
    assert err.splitlines() == [f"warning: plugin needy: {message}",
                                f"error: player 'needy' is not available: plugin needy: {message}"]


def test_a_folder_plugin_missing_a_module_says_so_in_one_line(tmp_path):
    """Folder plugins (a ladder's submissions, add_folder_players): a module of its own it does not ship, or one a
    module of its own imports that is not installed, is one line naming it and the plugin's file and line."""
    own = folder_plugin(tmp_path, "halfbot", "from .strategy import choose\n")
    deep = folder_plugin(tmp_path, "deepbot", "from . import strategy\n", strategy="import numpyy_nowhere\n")
    problems = add_folder_players(load(autoload=False), {"halfbot-v1": {"folder": str(own), "player": ""},
                                                         "deepbot-v1": {"folder": str(deep), "player": ""}})
    assert problems == {
        "halfbot-v1": "failed to load: ModuleNotFoundError: it imports 'halfbot.strategy' (halfbot/__init__.py:3), "
                      "which its package does not hold: ship that module in the package",
        "deepbot-v1": "failed to load: ModuleNotFoundError: it imports 'numpyy_nowhere' (deepbot/strategy.py:1), which "
                      "is not installed: install it into the Python environment the arena runs in, or ship it inside "
                      "the plugin's package"}


@needs("rlimit_fsize")
def test_a_file_too_large_says_the_cap(fake_plugins):
    """A file past the discovery's file size limit, in its own temporary folder: the cap, in words."""
    fake_plugins("hoarder", "import os, tempfile\n"
                            "open(os.path.join(tempfile.gettempdir(), 'big'), 'wb').write(b'x' * (2 << 20))\n")
    assert problems_of(load()) == {
        "hoarder": "failed to load: OSError: a file it wrote grew too large (fakeplug_hoarder.py:4): while a plugin "
                   "is discovered a file may hold at most 1 MiB"}


def test_any_other_failure_is_its_type_and_message_bounded(fake_plugins):
    """Any other exception: its type and its message, cut at 300 characters."""
    fake_plugins("windy", "raise RuntimeError('x' * 5000)\n")
    assert problems_of(load()) == {"windy": "failed to load: RuntimeError: " + "x" * 300 + "..."}
