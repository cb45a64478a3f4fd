"""The environments: PettingZoo's and Gymnasium's own checks, legal masks on every preset and size,
determinism, one-line refusals."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test
from pettingzoo.test.seed_test import check_environment_deterministic

import arena.rl as rl
from arena.game.cards import CARDS
from arena.game.errors import ArenaError
from arena.game.rules import PRESETS, Rules
from arena.plugins.registry import load
from arena.rl.encoding import ACTIONS, NO_TAKE, SIZE, TAKE, action_mask, encode
from arena.rl.errors import EnvError
from support.legality import expected_legal_mask

TABLES = [("getaway", 4), ("playnest", 6), ("champions", 3), ("donkey", 5), ("bhabho", 4), ("getaway-2deck", 8)]
OPTIONS = [  # the options the presets leave at one value, each set the other way
    ("bhabho", 5, {"take_from": "first_trick", "take_order": "dealer_left"}),
    ("getaway", 7, {"direction": "anticlockwise", "deal": "piles", "first_trick": "normal"}),
    ("champions", 4, {"escape": "draw_next_hand", "fault_policy": "random"}),
    ("donkey", 3, {"escape": "pass_if_3plus", "simultaneous": "draw", "shootout": True}),
]


@pytest.fixture(scope="module")
def registry():
    return load(autoload=False)


# api_test warns about any observation that is not one array of a Box or Discrete space; ours is the dict of
# the observation and its action mask that pettingzoo's own classic environments give (and draw the same two)
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning",
                            "ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_pettingzoo_api_test_passes(preset, players):
    api_test(rl.env(preset, players, seed=players), num_cycles=300)


def test_pettingzoo_seed_test_passes():
    check_environment_deterministic(rl.env("bhabho", 5), rl.env("bhabho", 5), 500)


def test_gymnasium_check_env_passes(registry):
    check_env(rl.SeatEnv("getaway", ["heuristic", "random", "low"], seat=2, registry=registry, illegal="fault"),
              skip_render_check=True)


def _every_step(env, rng):
    """Play random legal actions to the end, yielding before each step (the env is positioned)."""
    env.reset()
    for agent in env.agent_iter():
        if env.terminations[agent]:
            env.step(None)
            continue
        yield agent
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


@pytest.mark.parametrize(("preset", "players", "options"),
                         [(p, n, {}) for p, n in TABLES] + OPTIONS + [("playnest", 3, {}), ("getaway", 8, {})])
def test_masks_are_the_legal_actions(preset, players, options):
    """At every decision of whole games the acting seat's mask is exactly its legal actions (worked
    out apart from the engine), every other seat's mask is empty, observations are in [0, 1]."""
    rng = np.random.default_rng(players)
    env = rl.env(preset, players, seed=100, **options)
    decisions = takes = 0
    for _game in range(3):
        for agent in _every_step(env, rng):
            game_ = env.table.game
            seat = env.possible_agents.index(agent)
            mask = env.observe(agent)["action_mask"]
            if game_.decision == "take":
                expected = {NO_TAKE, TAKE}
                takes += 1
            else:
                expected = {c for c in range(len(CARDS)) if expected_legal_mask(game_) >> c & 1}
            assert set(np.flatnonzero(mask)) == expected
            other = env.possible_agents[(seat + 1) % players]
            seen = env.observe(other)
            assert not seen["action_mask"].any()
            assert seen["observation"].shape == (SIZE,) and seen["observation"].dtype == np.float32
            assert seen["observation"].min() >= 0.0 and seen["observation"].max() <= 1.0
            decisions += 1
    assert decisions > 10 * players
    assert (takes > 0) == PRESETS[preset].replace(**options).neighbour_take


def test_the_same_seed_gives_the_same_episodes():
    def run(seed):
        env, out = rl.env("donkey", 4, seed=seed), []
        for agent in _every_step(env, np.random.default_rng(1)):
            out.append(env.observe(agent)["observation"].copy())
        return out, env.seed_used
    (a, seed_a), (b, _), (c, _) = run(9), run(9), run(10)
    assert seed_a == 9 and len(a) == len(b) and all((x == y).all() for x, y in zip(a, b))
    assert len(a) != len(c) or any((x != y).any() for x, y in zip(a, c))


def test_reset_without_a_seed_deals_the_next_game():
    env = rl.env("getaway", 4, seed=5)
    env.reset()
    first = env.table.game.start["hands"]
    env.reset()
    assert env.seed_used == 6
    env.reset(seed=5)
    assert env.table.game.start["hands"] == first


@pytest.mark.parametrize(("preset", "players"), [("bhabho", 4), ("donkey", 5), ("getaway-2deck", 7), ("champions", 3)])
def test_batch_rows_are_the_aec_games_of_their_seeds(preset, players):
    """Row i of a batch plays deal seed + i, then seed + i + size: the AEC environment's games, with
    the same observations (the batch reads each seat's tracker, the AEC env its view)."""
    size, rng = 3, np.random.default_rng(4)
    batch = rl.Batch(preset, players, size=size, seed=20, reward="place")
    envs = [rl.env(preset, players, seed=20 + i, reward="place") for i in range(size)]
    for env in envs:
        env.reset()
    ended = 0
    for _ in range(400):
        obs, masks, seats = batch.observe()
        for i, env in enumerate(envs):
            mine = env.observe(env.agent_selection)
            assert seats[i] == env.possible_agents.index(env.agent_selection)
            assert (obs[i] == mine["observation"]).all() and (masks[i] == mine["action_mask"]).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, _, _, rewards, done = batch.step(actions)
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            if done[i]:
                assert list(rewards[i]) == pytest.approx([env.rewards[a] for a in env.possible_agents])
                env.reset(seed=env.seed_used + size)
                ended += 1
    assert ended == batch.finished >= 2


def test_a_batch_is_deterministic():
    def run():
        batch, rng, out = rl.Batch("getaway", 5, size=4, seed=3), random.Random(0), []
        for _ in range(150):
            _, masks, _ = batch.observe()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, _, seats, rewards, _ = batch.step(actions)
            out.append((obs.copy(), seats.copy(), rewards.copy()))
        return out
    assert all((x == y).all() for a, b in zip(run(), run()) for x, y in zip(a, b))


def test_seat_env_refuses_an_illegal_action_or_faults_it(registry):
    env = rl.SeatEnv("getaway", ["low", "low", "low"], seat=0, registry=registry)
    obs, _ = env.reset(seed=1)
    wrong = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(EnvError, match=f"may not take action {wrong}: expected one of"):
        env.step(wrong)
    faulty = rl.SeatEnv("getaway", ["low", "low", "low"], seat=0, registry=registry, illegal="fault")
    faulty.reset(seed=1)
    faulty.step(wrong)
    assert faulty.table.game.faults[0] == 1


@pytest.mark.parametrize(("make", "message"), [
    (lambda: rl.env("getaway", 4, reward="score"), "reward must be one of bhabhi, place, penalty (got 'score')"),
    (lambda: rl.env("getaway", 9), "players must be 3-8 for 'getaway' tables (got 9)"),
    (lambda: rl.env("nope", 4), "unknown preset 'nope'"),
    (lambda: rl.env("getaway", 4, escape="fly"), "option 'escape' must be one of"),
    (lambda: rl.env("getaway", 4, illegal="ignore"), "illegal must be one of raise, fault (got 'ignore')"),
    (lambda: rl.Batch("getaway", 4, size=0), "size must be a whole number >= 1 (got 0)"),
    (lambda: rl.Batch("getaway", 4, seed=1.5), "seed must be a whole number (got 1.5)"),
    (lambda: rl.env("getaway", 4, seed=None), "seed must be a whole number (got None)"),
    (lambda: rl.SeatEnv("getaway", ["low", "lo"], registry=load(autoload=False)), "unknown player 'lo'"),
    (lambda: rl.SeatEnv("getaway", ["low", "low"], seat=3, registry=load(autoload=False)), "seat must be 0..2"),
])
def test_bad_arguments_are_refused_in_one_line(make, message):
    with pytest.raises(ArenaError) as caught:
        make()
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_batch_refuses_bad_actions_and_steps_nothing():
    batch = rl.Batch("getaway", 4, size=2, seed=0)
    before = batch.observe()[0].copy()
    _, masks, _ = batch.observe()
    wrong = int(np.flatnonzero(masks[1] == 0)[0])
    with pytest.raises(EnvError, match=f"game 1 .*action {wrong} is not legal"):
        batch.step(np.array([np.flatnonzero(masks[0])[0], wrong]))
    with pytest.raises(EnvError, match="actions must be 2 integers"):
        batch.step(np.array([0.5, 1.0]))
    assert (batch.observe()[0] == before).all()


def test_encoding_reads_a_view_alone():
    """encode() and action_mask() take any PlayerView: the engine's own view gives the env's numbers."""
    env = rl.env("bhabho", 4, seed=3)
    env.reset()
    agent = env.agent_selection
    view = env.table.game.view(env.possible_agents.index(agent))
    assert (encode(view) == env.observe(agent)["observation"]).all()
    assert (action_mask(view) == env.observe(agent)["action_mask"]).all()
    assert action_mask(view).shape == (ACTIONS,)


def test_render_shows_the_table():
    env = rl.env("donkey", 3, seed=1, render_mode="ansi")
    env.reset()
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    text = env.render()
    assert text.splitlines()[0] == "donkey, deal 1, player_1 to play"
    assert text.splitlines()[-1] == "  trick: 0:AS" and len(text.splitlines()) == 5
    assert rl.env("donkey", 3).render() is None


def test_seat_env_is_deterministic_from_its_seed(registry):
    """Against players that draw from their seeds (random), the same seed gives the same episodes,
    in a fresh environment or the same one again."""
    def episodes(env, seed):
        out = []
        observation, _ = env.reset(seed=seed)
        for _ in range(3):
            done = False
            while not done:
                out.append(observation["observation"].copy())
                observation, reward, done, _, _ = env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
            out.append(reward)
            observation, _ = env.reset()
        return out

    def make():
        return rl.SeatEnv("donkey", ["random", "random", "random", "random"], seat=3, registry=registry)
    env = make()
    a, b, c = episodes(env, 11), episodes(make(), 11), episodes(env, 11)
    assert len(a) == len(b) == len(c) and all(np.array_equal(x, y) and np.array_equal(x, z)
                                              for x, y, z in zip(a, b, c))
    assert not (len(episodes(env, 12)) == len(a) and all(np.array_equal(x, y) for x, y in zip(episodes(env, 12), a)))


def test_a_plugins_preset_and_a_rules_object_are_accepted():
    mine = Rules(name="mine", escape="pass", trumps=True)
    env = rl.env("mine", 4, presets=PRESETS.adding(mine), seed=1)
    env.reset()
    assert env.rules == mine
    assert rl.env(mine, 3, direction="anticlockwise").rules == mine.replace(direction="anticlockwise")
    with pytest.raises(ArenaError, match="unknown preset 'mine'"):
        rl.env("mine", 4)
