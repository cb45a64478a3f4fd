"""Rewards and games against the arena's own: the same seeded games played by the same bots give
the same records, and the rewards are minus the arena's scores."""

from __future__ import annotations

import pytest

import arena.rl as rl
from arena.bots.referee import InProcessClient, play_game
from arena.game.rules import PRESETS
from arena.game.seeds import open_bot_seed
from arena.plugins.registry import load
from arena.results.stats.paired import game_score
from arena.rl.encoding import action_of
from arena.rl.rewards import REWARDS, WORST, rewards

NAMES = ["heuristic", "random", "low", "high", "heuristic", "random", "low", "high"]


@pytest.fixture(scope="module")
def registry():
    return load(autoload=False)


def _scaled(record: dict, seat: int, kind: str, players: int) -> float:
    score = game_score(record, seat, kind)
    return score / (players - 1) if kind == "place" else float(score)


@pytest.mark.parametrize(("preset", "players"), [("getaway", 4), ("bhabho", 5), ("donkey", 3),
                                                 ("champions", 4), ("getaway-2deck", 7)])
def test_the_aec_env_played_by_arena_bots_is_the_arenas_game(registry, preset, players):
    """Every seat of the env driven by a built-in bot, seeded as the referee seeds it: the env's game
    is the referee's (same events, same result) and each reward is minus the arena's score."""
    rules, names = PRESETS[preset], NAMES[:players]
    for seed in range(4):
        record = play_game(rules, [InProcessClient(registry.get(n)) for n in names], seed)
        for kind in REWARDS:
            env = rl.env(preset, players, seed=seed, reward=kind)
            env.reset()
            bots = [registry.get(n).create(seed=open_bot_seed(seed, s, n)) for s, n in enumerate(names)]
            for s, bot in enumerate(bots):
                bot.new_game(env.view(env.possible_agents[s]))
            for agent in env.agent_iter():
                if env.terminations[agent]:
                    env.step(None)
                    continue
                env.step(action_of(bots[env.possible_agents.index(agent)].act(env.view(agent))))
            assert env.table.game.to_record()["events"] == record["events"]
            got = [env._cumulative_rewards.get(a, env.rewards.get(a)) for a in env.possible_agents]
            assert env.table.game.result.to_dict() == record["result"]
            assert rewards(env.table.game.result, kind) == tuple(
                -_scaled(record, s, kind, players) for s in range(players))
            assert all(r is None or WORST[kind] <= r <= 0 for r in got)


def test_the_final_step_hands_every_agent_its_reward():
    env = rl.env("getaway", 4, seed=2, reward="penalty")
    env.reset()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, done, _, _info = env.last()
        totals[agent] += reward
        if done:
            env.step(None)
            continue
        env.step(int(observation["action_mask"].nonzero()[0][0]))
    result = env.table.game.result
    assert [totals[a] for a in env.possible_agents] == [-float(p) for p in result.penalty]
    assert sorted(totals.values()) == [-3.0, -2.0, -1.0, 0.0]


@pytest.mark.parametrize("seat", [0, 2])
def test_seat_env_with_a_bot_in_the_learners_seat_is_the_arenas_game(registry, seat):
    """The learner playing as `heuristic` would (its referee seed) against named players: the arena's game."""
    names = ["heuristic", "low", "random", "high"]
    opponents = names[:seat] + names[seat + 1:]
    env = rl.SeatEnv("bhabho", opponents, seat=seat, registry=registry, name=names[seat], reward="place")
    for seed in range(3):
        record = play_game(PRESETS["bhabho"], [InProcessClient(registry.get(n)) for n in names], seed)
        bot = registry.get(names[seat]).create(seed=open_bot_seed(seed, seat, names[seat]))
        env.reset(seed=seed)
        bot.new_game(env.view())
        done, reward = False, 0.0
        while not done:
            _, reward, done, _, info = env.step(action_of(bot.act(env.view())))
        assert info["result"] == record["result"]
        assert reward == -_scaled(record, seat, "place", 4)
    env.close()
