"""Plugin discovery: real pip-installed entry points, and every kind of broken plugin.

The real tests pip-install a copy of ``tests/example_plugin`` and a fresh
``arena new-bot`` scaffold into temporary ``--target`` folders, so the test
environment itself never changes. The error tests write small plugin modules,
each with a ``.dist-info`` naming it as an ``arena.plugins`` entry point, to a
temporary folder on sys.path (the ``fake_plugins`` fixture of conftest.py).
No test here imports a third-party plugin into this process: discovery does
that in its confined child, and the bot's sandbox host when it plays (the
hostile side of it is tests/sandbox/hostile/test_hostile_plugins.py).
"""

from __future__ import annotations

import hashlib
import importlib.metadata as metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import arena.cli.app
from arena import Bot, Game, PlayerSpec, PluginError, Rules
from arena.plugins import discovery
from arena.plugins import registry as plugins
from arena.bots.code_hash import normalised
from arena.plugins.registry import DISABLE_ENV, load
from arena.bots.referee import InProcessClient, play_game
from arena.game.rules import PRESETS
from arena.sandbox.client import SandboxClient
from arena.plugins.scaffold import new_bot
from support.install import RUN_ARENA, pip_install
from support.plugins import FINE, problems_of

EXAMPLE = Path(__file__).resolve().parents[1] / "example_plugin"


# ------------------------------------------------------------------ helpers
def arena_with(site: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """Run ``arena ARGS`` in a fresh interpreter that has ``site`` as a site folder (.pth files work)."""
    environ = {k: v for k, v in os.environ.items() if k != DISABLE_ENV}
    environ.update(env)
    return subprocess.run([sys.executable, "-c", RUN_ARENA, str(site), *args], check=False, capture_output=True,
                          text=True, timeout=120, env=environ, cwd=site.parent)


def check_legal_record(record: dict, names: list[str]) -> None:
    """The record is a finished game between ``names``, without faults, that replays exactly."""
    assert record["names"] == names
    assert all(not seat_faults for seat_faults in record["faults"])
    game = Game.from_record(record)
    assert game.is_over


def player_rows(out: str) -> dict[str, list[str]]:
    """``arena players`` output as {player: [columns...]} (a description's wrapped lines joined)."""
    rows, cols = {}, []
    for line in out.splitlines()[2:]:
        if line.startswith(" "):
            cols[4] += " " + line.strip()
            continue
        cols = line.split(None, 4)
        rows[cols[0]] = cols
    return rows


# ------------------------------------------------- a real installed plugin
@pytest.fixture(scope="module")
def example_site(tmp_path_factory) -> Path:
    """A copy of tests/example_plugin pip-installed into a fresh folder (built outside the repo)."""
    root = tmp_path_factory.mktemp("example")
    source = root / "src"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    site = root / "site"
    pip_install(source, site)
    return site


@pytest.fixture
def with_example(example_site, monkeypatch):
    """The installed example plugin on sys.path for this test only (each `main` call loads it afresh)."""
    monkeypatch.syspath_prepend(str(example_site))
    monkeypatch.delenv(DISABLE_ENV, raising=False)
    yield example_site
    assert "arena_example" not in sys.modules  # the harness never imports a third-party plugin


def test_installed_plugin_listed_with_version_and_plugin(with_example, capsys):
    """`arena players` lists the installed plugin's bot with its plugin name, version and description."""
    assert arena.cli.app.main(["players"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    row = player_rows(out)["example-ducker"]
    assert row[1:4] == ["arena-example", "0.2.0", "no"]
    assert "ducks under the winning card" in row[4]
    assert {"random", "low", "high", "heuristic"} <= set(player_rows(out))


def test_installed_plugin_plays_a_game_sandboxed(with_example, capsys):
    """`arena play` seats the installed bot in its sandbox; the game is legal and replays; the text form names it."""
    seats = ["example-ducker", "random", "low", "high"]
    args = ["play", "--seats", ",".join(seats), "--seed", "3"]
    assert arena.cli.app.main([*args, "--json"]) == 0
    check_legal_record(json.loads(capsys.readouterr().out), seats)
    assert arena.cli.app.main(args) == 0
    out = capsys.readouterr().out
    assert "example-ducker[0]" in out and "Bhabhi:" in out


@pytest.mark.parametrize("command", [["play", "--seats", "example-ducker,random,low"],
                                     ["check-bot", "example-ducker", "--rules", "getaway", "--table-sizes", "3"]])
def test_installed_plugin_in_process_is_refused(with_example, capsys, command):
    """`--in-process` with a third-party player (`arena play`, `arena check-bot`): one error line, no game."""
    assert arena.cli.app.main([*command, "--in-process"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith("error: player 'example-ducker' comes from the third-party plugin arena-example")
    assert "sandboxed only" in err


def test_installed_plugin_spec(with_example):
    """The spec comes from the entry point: plugin name, distribution version, untrusted, no factory here."""
    spec = load().get("example-ducker")
    assert (spec.plugin, spec.version, spec.trusted, spec.factory) == ("arena-example", "0.2.0", False, None)
    assert spec.source.entry_point == "arena_example"
    assert spec.source.path == str(with_example)
    assert spec.source.factory == "arena_example:DuckerBot"
    assert len(spec.code_hash()) == 16
    with pytest.raises(PluginError, match="plays sandboxed only"):
        spec.create(seed=5)


def test_installed_plugin_code_hash_reads_the_distribution(with_example):
    """The code hash covers the files the distribution's RECORD lists, read from disk and normalised
    (comments and docstrings left out)."""
    dist = metadata.distribution("arena-example-plugin")
    listed = sorted(f.as_posix() for f in dist.files if f.suffix == ".py")
    assert listed == ["arena_example/__init__.py"]
    digest = hashlib.sha256()
    for name in listed:
        digest.update(name.encode())
        digest.update(normalised(dist.locate_file(name).read_bytes()))
    assert load().get("example-ducker").code_hash() == digest.hexdigest()[:16]


def test_autoload_env_var_hides_installed_plugin(with_example, monkeypatch):
    """ARENA_DISABLE_PLUGIN_AUTOLOAD=1 loads the built-in players only; 0 leaves autoloading on."""
    monkeypatch.setenv(DISABLE_ENV, "1")
    registry = load()
    assert "example-ducker" not in registry.players and "heuristic" in registry.players
    monkeypatch.setenv(DISABLE_ENV, "0")
    assert "example-ducker" in load().players
    assert "example-ducker" not in load(autoload=False).players


# ------------------------------------------------- the scaffold, installed
SCAFFOLD = "tiny-scaffold-bot"


@pytest.fixture(scope="module")
def scaffold_site(tmp_path_factory) -> tuple[Path, Path]:
    """`arena new-bot` output, pip-installed in editable mode into a fresh site folder."""
    root = tmp_path_factory.mktemp("scaffold")
    package = new_bot(SCAFFOLD, root / "bots")
    site = root / "site"
    pip_install(package, site, editable=True)
    return package, site


def test_scaffold_installed_is_listed_and_plays_legally(scaffold_site):
    """After `pip install -e`, the new bot is in `arena players` and plays a legal game (sandboxed)."""
    _, site = scaffold_site
    listed = arena_with(site, "players")
    assert listed.returncode == 0, listed.stderr
    assert player_rows(listed.stdout)[SCAFFOLD][1:4] == [SCAFFOLD, "0.1.0", "no"]
    seats = [SCAFFOLD, "random", "low", "heuristic"]
    played = arena_with(site, "play", "--rules", "bhabho", "--seats", ",".join(seats), "--seed", "11", "--json")
    assert played.returncode == 0, played.stderr
    check_legal_record(json.loads(played.stdout), seats)


def test_scaffold_own_test_passes(scaffold_site):
    """The test the scaffold generates passes under pytest against the installed package."""
    package, site = scaffold_site
    code = ("import site, sys; site.addsitedir(sys.argv[1]); import pytest; "
            "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', sys.argv[2]]))")
    done = subprocess.run([sys.executable, "-c", code, str(site), str(package / "tests")],
                          check=False, capture_output=True, text=True, timeout=120, cwd=site.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


def test_scaffold_editable_install_sees_edits(scaffold_site):
    """An editable install picks up a change to the bot's source without reinstalling."""
    package, site = scaffold_site
    module = package / SCAFFOLD.replace("-", "_") / "__init__.py"
    module.write_text(module.read_text().replace('"plays its lowest legal card")', '"edited description")'))
    listed = arena_with(site, "players")
    assert listed.returncode == 0, listed.stderr
    assert player_rows(listed.stdout)[SCAFFOLD][4] == "edited description"


# ------------------------------------------------------- broken plugins
# ``fake_plugins`` (tests/conftest.py) writes each plugin as a real tiny distribution on
# sys.path: discovery finds it in the metadata and imports it only in its confined child.


def test_duplicate_name_names_both_plugins(fake_plugins, capsys):
    """Two plugins offering one name: a problem and a PluginError naming both; other players work."""
    fake_plugins("alpha", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("twin", LowBot), PlayerSpec("solo", LowBot, "alpha's own")]
    """)
    fake_plugins("beta", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("twin", LowBot)]
    """)
    registry = load()
    [problem] = registry.problems
    assert "twin" in str(problem) and "alpha" in str(problem) and "beta" in str(problem)
    with pytest.raises(PluginError, match=r"'twin'.*alpha and beta"):
        registry.get("twin")
    assert "twin" not in registry.players
    assert registry.get("solo").plugin == "alpha" and registry.get("solo").description == "alpha's own"
    assert arena.cli.app.main(["play", "--seats", "solo,random,low", "--json"]) == 0
    out, err = capsys.readouterr()
    check_legal_record(json.loads(out), ["solo", "random", "low"])
    assert err.startswith("warning: plugin beta:")


def test_duplicate_name_in_cli_is_one_error_line(fake_plugins, capsys):
    """`arena play` with a duplicated name fails with one error line naming both plugins."""
    for name in ("alpha", "beta"):
        fake_plugins(name, """
            @hookimpl
            def arena_players():
                return [PlayerSpec("twin", LowBot)]
        """)
    assert arena.cli.app.main(["play", "--seats", "twin,random,low"]) == 2
    out, err = capsys.readouterr()
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "alpha" in errors[0] and "beta" in errors[0]
    assert "Traceback" not in err and out == ""


def test_clash_message_names_both_packages(fake_plugins):
    """The problem and the error name both plugins and the packages that pip installed them as."""
    for name in ("alpha", "beta"):
        fake_plugins(name, """
            @hookimpl
            def arena_players():
                return [PlayerSpec("twin", LowBot)]
        """)
    registry = load()
    [problem] = registry.problems
    assert "plugins alpha and beta (packages fakeplug_alpha and fakeplug_beta)" in str(problem)
    assert "\n" not in str(problem)
    with pytest.raises(PluginError, match=r"alpha and beta \(packages fakeplug_alpha and fakeplug_beta\)"):
        registry.get("twin")


def test_plugin_taking_a_built_in_name_leaves_the_built_in_playing(fake_plugins, capsys):
    """A plugin offering `sampler` does not disable the built-in: one warning line names both packages."""
    fake_plugins("mysampler", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("sampler", LowBot)]
    """)
    registry = load()
    assert registry.get("sampler").plugin == "players" and registry.get("sampler").trusted
    [problem] = registry.problems
    assert str(problem) == ("plugin mysampler: offers player 'sampler', the name of a built-in player (plugin "
                            "players, package bhabhi-arena); the built-in one plays, this one is not used: "
                            "rename it in package fakeplug_mysampler")
    assert arena.cli.app.main(["play", "--seats", "sampler,random,low", "--json"]) == 0
    _, err = capsys.readouterr()
    assert err.splitlines() == [f"warning: {problem}"]


def test_name_offered_twice_by_one_plugin(fake_plugins):
    """One plugin offering a name twice is reported against that plugin alone."""
    fake_plugins("gamma", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("echo", LowBot), PlayerSpec("echo", LowBot)]
    """)
    registry = load()
    assert [p.plugin for p in registry.problems] == ["gamma"]
    with pytest.raises(PluginError, match="plugin gamma offers it more than once"):
        registry.get("echo")


def test_plugin_raising_on_import_is_reported_and_others_load(fake_plugins):
    """A plugin that raises on import is a problem with its name and the error; the rest still load."""
    fake_plugins("broken", "raise RuntimeError('boom at import')\n")
    fake_plugins("missing", None)
    fake_plugins("fine", FINE)
    registry = load()
    problems = problems_of(registry)
    assert set(problems) == {"broken", "missing"}
    assert "RuntimeError: boom at import" in problems["broken"]
    assert "ModuleNotFoundError" in problems["missing"]
    assert "fine-bot" in registry.players and "heuristic" in registry.players


def test_plugin_import_error_is_a_warning_in_cli(fake_plugins, capsys):
    """The CLI prints a broken plugin as one warning line and carries on."""
    fake_plugins("broken", "raise RuntimeError('boom at import')\n")
    assert arena.cli.app.main(["players"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == ["warning: plugin broken: failed to load: RuntimeError: boom at import"]
    assert "heuristic" in player_rows(out)


def test_hook_raising_or_returning_nonsense(fake_plugins):
    """arena_players that raises, or returns a bare spec or a non-spec, is a problem naming the plugin."""
    fake_plugins("raiser", """
        @hookimpl
        def arena_players():
            raise KeyError("nope")
    """)
    fake_plugins("bare", """
        @hookimpl
        def arena_players():
            return PlayerSpec("bare-bot", LowBot)
    """)
    fake_plugins("junk", """
        @hookimpl
        def arena_players():
            return ["not a spec", PlayerSpec("ok-bot", LowBot)]
    """)
    registry = load()
    problems = problems_of(registry)
    assert "arena_players raised KeyError" in problems["raiser"]
    assert "must return a list of PlayerSpec (got PlayerSpec)" in problems["bare"]
    assert "returned str, expected PlayerSpec" in problems["junk"]
    assert "ok-bot" in registry.players and "bare-bot" not in registry.players


def test_factory_not_callable_or_bad_name(fake_plugins):
    """A factory that is not callable, or a bad player name, is a problem naming plugin and player."""
    fake_plugins("delta", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("lazy", 42), PlayerSpec("Bad Name", LowBot), PlayerSpec("good", LowBot)]
    """)
    registry = load()
    messages = [str(p) for p in registry.problems]
    assert any(m.startswith("plugin delta:") and "'lazy'" in m and "not callable" in m for m in messages)
    assert any(m.startswith("plugin delta:") and "'Bad Name'" in m for m in messages)
    with pytest.raises(PluginError, match="unknown player 'lazy'"):
        registry.get("lazy")
    assert registry.get("good").source.factory == "players.simple:LowBot"


def test_factory_that_raises_or_returns_no_bot(fake_plugins, capsys):
    """A factory that raises (or returns a non-bot) loads; in a game it is a crash fault naming why."""
    fake_plugins("epsilon", """
        def grumpy(seed, **options):
            raise ValueError("no seed for me")

        @hookimpl
        def arena_players():
            return [PlayerSpec("grumpy", grumpy), PlayerSpec("hollow", lambda seed: object())]
    """)
    registry = load()
    assert registry.problems == []
    for name, why in (("grumpy", "ValueError: no seed for me"), ("hollow", "expected an arena.Bot")):
        assert arena.cli.app.main(["play", "--seats", f"{name},low,high", "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert record["faults"][0] and all(f["kind"] == "crash" for f in record["faults"][0])
        assert why in record["faults"][0][0]["detail"]


def test_third_party_cannot_declare_itself_trusted(fake_plugins):
    """trusted=True is honoured for the built-in players only: a plugin stays sandboxed."""
    fake_plugins("sneaky", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("sneaky-bot", LowBot, trusted=True)]
    """)
    registry = load()
    assert registry.get("sneaky-bot").trusted is False
    assert registry.get("heuristic").trusted is True


def test_builtin_players_register_through_the_entry_point_table():
    """The built-in players are the bhabhi-arena distribution's own `arena.plugins` entry point."""
    [entry] = [ep for ep in metadata.entry_points(group=plugins.ENTRY_POINT_GROUP, name=plugins.BUILTIN_PLUGIN)
               if ep.dist is not None and ep.dist.name == plugins.DISTRIBUTION]
    assert entry.value == "players"
    registry = load(autoload=False)
    assert registry.manager.get_plugin(plugins.BUILTIN_PLUGIN) is entry.load()
    assert all(spec.trusted and spec.plugin == "players" for spec in registry.players.values())


def test_a_third_party_entry_point_named_players_is_not_the_builtin(fake_plugins):
    """Another distribution's entry point named `players` is neither imported nor trusted."""
    path = fake_plugins("players", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("impostor", LowBot, trusted=True)]
    """)
    registry = load()
    assert "impostor" not in registry.players and path.stem not in sys.modules
    assert registry.get("low").trusted is True


def test_autoload_env_var_with_fake_plugins(fake_plugins, monkeypatch):
    """The environment variable turns entry-point loading off entirely: no players, no problems."""
    fake_plugins("broken", "raise RuntimeError('boom')\n")
    fake_plugins("fine", FINE)
    for value in ("1", "true", "yes"):
        monkeypatch.setenv(DISABLE_ENV, value)
        registry = load()
        assert registry.problems == [] and "fine-bot" not in registry.players
        assert set(registry.players) == {"random", "low", "high", "heuristic", "sampler", "learned", "openspiel-ismcts"}
    for value in ("", "0", "false"):
        monkeypatch.setenv(DISABLE_ENV, value)
        assert "fine-bot" in load().players


def test_version_without_distribution_version(fake_plugins):
    """A distribution with no version gives the module's __version__ (or '0'); a spec's own version wins."""
    fake_plugins("versioned", """
        __version__ = "3.1.4"

        @hookimpl
        def arena_players():
            return [PlayerSpec("v-bot", LowBot), PlayerSpec("w-bot", LowBot, version="9.9")]
    """, version=None)
    fake_plugins("bare-version", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("x-bot", LowBot)]
    """, version=None)
    fake_plugins("released", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("y-bot", LowBot)]
    """, version="2.5")
    registry = load()
    assert registry.get("v-bot").version == "3.1.4"
    assert registry.get("w-bot").version == "9.9"
    assert registry.get("x-bot").version == "0"
    assert registry.get("y-bot").version == "2.5"
    assert registry.get("random").version == metadata.version("bhabhi-arena")


def test_rule_presets_hook(fake_plugins):
    """arena_rule_presets adds presets to the registry's (not to the built-in table); a non-Rules item
    or a clash with a preset is a problem."""
    fake_plugins("presets", """
        @hookimpl
        def arena_rule_presets():
            return [Rules(name="quick-pass", escape="pass"), "junk",
                    Rules(name="getaway", escape="pass")]
    """)
    registry = load()
    assert registry.presets.rules("quick-pass").escape == "pass"
    assert "quick-pass" not in PRESETS
    messages = [p.message for p in registry.problems if p.plugin == "presets"]
    assert len(messages) == 2
    assert any("expected Rules, got str" in m for m in messages)
    assert any("'getaway' is already defined differently" in m for m in messages)
    assert PRESETS["getaway"].escape == "draw"


def test_plugin_preset_plays_with_a_sandboxed_plugin_bot(fake_plugins, capsys):
    """A plugin's preset is usable by name (`arena variants`, `--rules`), with its own bot seated."""
    fake_plugins("both", """
        @hookimpl
        def arena_rule_presets():
            return [Rules(name="both-pass", escape="pass", max_players=5)]

        @hookimpl
        def arena_players():
            return [PlayerSpec("both-bot", LowBot)]
    """)
    assert arena.cli.app.main(["variants"]) == 0
    assert "both-pass" in capsys.readouterr().out
    assert arena.cli.app.main(["play", "--rules", "both-pass", "--seats", "both-bot,low,high", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["rules"]["name"] == "both-pass" and record["faults"][0] == []


def test_game_finished_observer_of_a_third_party_plugin_is_not_called(fake_plugins, capsys):
    """A third-party arena_game_finished is never called (it would run in the harness): a warning says so."""
    marker = fake_plugins.folder / "observed"
    fake_plugins("watcher", f"""
        @hookimpl
        def arena_game_finished(record):
            open({str(marker)!r}, "w").write(str(record["seed"]))
    """)
    registry = load()
    assert [(p.plugin, p.message) for p in registry.problems] == [("watcher", plugins.OBSERVER_IGNORED)]
    assert registry.notify_game_finished({"seed": 42}) == []
    assert arena.cli.app.main(["play", "--seats", "random,low,high"]) == 0
    err = capsys.readouterr().err
    assert err.splitlines() == [f"warning: plugin watcher: {plugins.OBSERVER_IGNORED}"]
    assert not marker.exists() and "fakeplug_watcher" not in sys.modules


def test_unknown_player_lists_known_ones():
    """An unknown name raises PluginError listing every known player."""
    known = r"unknown player 'nobody' \(known players: heuristic, high, learned, low, openspiel-ismcts, random, sampler"
    with pytest.raises(PluginError, match=known):
        load(autoload=False).get("nobody")


def test_player_spec_is_frozen():
    """PlayerSpec is a frozen value object."""
    spec = PlayerSpec("x", Bot)
    with pytest.raises(AttributeError):
        spec.name = "y"  # type: ignore[misc]


# ------------------------------------------- where a third-party player is loaded
def test_code_hash_follows_the_source_without_importing(fake_plugins):
    """The code hash is read from the plugin's files: it changes with a code edit (not with a comment),
    nothing is imported."""
    source = """
        @hookimpl
        def arena_players():
            return [PlayerSpec("hashed", LowBot)]
    """
    module = fake_plugins("hashed", source)
    before = load().get("hashed").code_hash()
    assert before == load().get("hashed").code_hash() and len(before) == 16
    module.write_text(module.read_text() + "# an edit\n")
    assert load().get("hashed").code_hash() == before
    module.write_text(module.read_text() + "EDITED = 1\n")
    assert load().get("hashed").code_hash() != before
    assert "fakeplug_hashed" not in sys.modules


def test_discovery_is_cached_within_a_process(fake_plugins, monkeypatch):
    """A second load() in the same process asks no discovery process again."""
    fake_plugins("cached", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("cached-bot", LowBot, "once")]
    """)
    first = load().get("cached-bot")
    monkeypatch.setattr(discovery, "_run", lambda *args: pytest.fail("discovery ran again"))
    assert load().get("cached-bot") == first


def test_sandbox_host_loads_only_the_named_plugin(fake_plugins):
    """The bot's process imports its own plugin's entry point, and no other plugin."""
    fake_plugins("one", """
        import sys

        class Teller(LowBot):
            def new_game(self, view):
                print("MODULES", sorted(m for m in sys.modules if m.startswith("fakeplug_")), flush=True)

        @hookimpl
        def arena_players():
            return [PlayerSpec("teller", Teller)]
    """)
    fake_plugins("two", """
        @hookimpl
        def arena_players():
            return [PlayerSpec("other", LowBot)]
    """)
    registry = load()
    client = SandboxClient(registry.get("teller"))
    try:
        record = play_game(Rules.preset("getaway"), [client, InProcessClient(registry.get("low")),
                                                     InProcessClient(registry.get("high"))], 7)
    finally:
        client.close()
    assert record["faults"][0] == []
    assert "MODULES ['fakeplug_one']" in client.log_text()
    assert not any(m.startswith("fakeplug_") for m in sys.modules)
