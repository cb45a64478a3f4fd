"""Parametrised players: ``sampler(worlds=40)`` on the command line and in tournament files, options
typed against the factory's signature, refused in one line, passed to the bot in-process and sandboxed."""

from __future__ import annotations

import json

import pytest

import arena.cli.app
from arena import PlayerSpec
from arena.bots.errors import PluginError
from arena.plugins.names import base_player, canonical_name, player_options, split_names
from arena.bots.options import accepted_options
from arena.plugins.registry import load
from arena.tournament.errors import ConfigError
from arena.tournament.event import check_players, roster_of
from arena.tournament.spec import spec_from_dict
from players.sampler import SamplerBot
from players.simple import LowBot

REGISTRY = load(autoload=False)

CHOOSER = """
    from players.simple import HighBot

    class Chooser(Bot):
        def __init__(self, seed=0, high: bool = False, **options):
            super().__init__(seed, **options)
            self.other = HighBot(seed) if high else LowBot(seed)

        def play(self, view):
            return self.other.play(view)

    @hookimpl
    def arena_players():
        return [PlayerSpec("chooser", Chooser)]
"""


def test_names_with_options_split_parse_and_sort():
    assert split_names("sampler(budget_ms=20, worlds=40), random ,low#2") == [
        "sampler(budget_ms=20, worlds=40)", "random", "low#2"]
    assert player_options("sampler(budget_ms=20, worlds=40)") == ("sampler", {"budget_ms": "20", "worlds": "40"})
    assert player_options("random") == ("random", {})
    assert canonical_name("sampler( worlds=40, budget_ms=20 )#fast") == "sampler(budget_ms=20,worlds=40)#fast"
    assert base_player("sampler(worlds=40)#2") == "sampler(worlds=40)"
    for bad, says in [("sampler(worlds=40", "ending with ')'"), ("sampler()", "at least one option"),
                      ("sampler(worlds)", "OPTION=VALUE"), ("sampler(worlds=1,worlds=2)", "given twice")]:
        with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
            player_options(bad)


def test_what_a_factory_accepts_is_read_from_its_signature():
    accepts = accepted_options(SamplerBot)
    assert accepts["worlds"] == "int" and accepts["budget_ms"] == "float" and accepts["model"] == "bool"
    assert "seed" not in accepts and accepted_options(LowBot) == {}


def test_registry_builds_a_parametrised_player_and_the_factory_gets_its_options():
    spec = REGISTRY.get("sampler(worlds=7,solver_share=0.25)#b")
    assert spec.name == "sampler" and spec.options == (("solver_share", 0.25), ("worlds", 7))
    bot = spec.create(seed=3)
    assert bot.max_worlds == 7 and bot.solver_share == 0.25
    plain = REGISTRY.get("sampler")
    assert plain.options == () and plain.create(seed=3).max_worlds == 120


@pytest.mark.parametrize("name, message", [
    ("sampler(budget=5)", "player 'sampler': unknown option 'budget': did you mean 'budget_ms'? (its options: "
                          "budget_ms (float), "),
    ("sampler(zzz=5)", "player 'sampler': unknown option 'zzz' (its options: budget_ms (float), "),
    ("sampler(worlds=many)", "player 'sampler': option 'worlds': expected a whole number (got 'many')"),
    ("sampler(model=1)", "player 'sampler': option 'model': expected true or false (got '1')"),
    ("low(fast=true)", "player 'low': unknown option 'fast' (its options: none)"),
])
def test_an_unknown_option_or_a_wrong_type_is_one_clear_error(name, message):
    with pytest.raises(PluginError) as info:
        REGISTRY.get(name)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_a_player_spec_without_options_still_works_positionally():
    """Backward compatible: the old positional PlayerSpec and factory(seed=...) are unchanged."""
    spec = PlayerSpec("x", LowBot, "d", "1", "p", False, None)
    assert spec.options == () and isinstance(spec.create(seed=1), LowBot)


def test_tournament_file_names_parametrised_players_sorted_and_checked():
    data = {"name": "t", "players": ["sampler( worlds=40, budget_ms=5)", "sampler", "low"], "table_sizes": [3]}
    spec = spec_from_dict(data, "t.toml", REGISTRY.presets)
    assert spec.players == ("sampler(budget_ms=5,worlds=40)", "sampler", "low")
    check_players(spec, REGISTRY)
    described = {p["name"]: p for p in roster_of(REGISTRY, list(spec.players))}
    assert described["sampler(budget_ms=5,worlds=40)"]["base"] == "sampler"
    assert described["sampler(budget_ms=5,worlds=40)"]["options"] == {"budget_ms": 5.0, "worlds": 40}
    assert "options" not in described["sampler"]
    bad = spec_from_dict({**data, "players": ["sampler(worlds=x)", "low", "high"]}, "t.toml", REGISTRY.presets)
    with pytest.raises(ConfigError, match=r"^t.toml: key 'players': player 'sampler': option 'worlds': "
                                          r"expected a whole number \(got 'x'\)$"):
        check_players(bad, REGISTRY)
    with pytest.raises(ConfigError, match=r"^t.toml: key 'players': player 'sampler\(worlds=1, low': expected NAME"):
        spec_from_dict({**data, "players": "sampler(worlds=1, low"}, "t.toml", REGISTRY.presets)


def test_play_with_a_parametrised_built_in_player(capsys, builtin_players_only):
    assert arena.cli.app.main(["play", "--seats", "sampler(worlds=4,budget_ms=2),low,high", "--json",
                               "--seed", "2"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["names"][0] == "sampler(worlds=4,budget_ms=2)" and not any(record["faults"])
    assert arena.cli.app.main(["play", "--seats", "sampler(world=4),low,high"]) != 0
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: player 'sampler': unknown option 'world': did you mean 'worlds'? (its options:")
    assert "\n" not in err


def test_a_sandboxed_third_party_bot_gets_its_options_as_plain_json(fake_plugins, capsys):
    """The option crosses to the bot's own process: chooser(high=true) plays exactly as `high` (--sealed:
    the built-in players' games keyed with the same secret as the third-party bot's always are)."""
    fake_plugins("choose", CHOOSER)

    def seat0_plays(seats):
        assert arena.cli.app.main(["play", "--seats", seats, "--seed", "4", "--json", "--sealed"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert not any(record["faults"])
        return [e["card"] for e in record["events"] if e["type"] == "play" and e["seat"] == 0]

    high, low = seat0_plays("high,low,low"), seat0_plays("low,low,low")
    assert high != low
    assert seat0_plays("chooser(high=true),low,low") == high
    assert seat0_plays("chooser,low,low") == low
    assert arena.cli.app.main(["play", "--seats", "chooser(high=maybe),low,low"]) != 0
    assert "player 'chooser': option 'high': expected true or false (got 'maybe')" in capsys.readouterr().err


def test_check_bot_replay_command_quotes_a_name_with_options():
    from arena.plugins.checks import Case
    case = Case("getaway", 3, 1, 5)
    assert case.command("low") == "arena play --rules getaway --seats random,low,high --seed 5"
    assert case.command("sampler(worlds=4)") == ("arena play --rules getaway --seats "
                                                 "'random,sampler(worlds=4),high' --seed 5")


def test_players_lists_the_options_a_player_accepts(capsys, builtin_players_only):
    assert arena.cli.app.main(["players", "--format", "plain"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line.strip()}
    assert lines["sampler"].endswith(
        "(options: budget_ms, cap_ms, gate_z, max_worlds, model, solver_share, solver_states, worlds)")
    assert "options:" not in lines["low"]
