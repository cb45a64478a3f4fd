"""The learned player: its shipped weights, legal and deterministic play, and a tiny training run end to end.

No test here asks how strong it is (docs/training.md has the measurements):
training quality is not something a test can pin without flaking.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

from arena import Game
from arena.bots.referee import InProcessClient, play_game
from arena.game.rules import PRESETS
from arena.plugins.registry import load
from players.learned.bot import WEIGHTS, WEIGHTS_SHA256, LearnedBot, choose, load_net
from players.learned.features import GLOBAL, NAMES, SIZE, card_features
from players.errors import WeightsError
from players.learned.net import Net
from players.learned.train import Trainer, options
from players.learned.train import main as train_main
from players.lookahead import LookaheadSampler

REGISTRY = load(autoload=False)


def test_shipped_weights_load_and_are_small():
    """The package ships weights.npz: it matches its digest, fits the features, and is small."""
    assert hashlib.sha256(WEIGHTS.read_bytes()).hexdigest() == WEIGHTS_SHA256
    net = load_net()
    assert net.p["w1"].shape[0] == SIZE and net.gate >= 0
    assert WEIGHTS.stat().st_size < 100_000
    assert net.score(np.zeros((3, SIZE), np.float32)).shape == (3,)


def test_registered_like_the_other_builtins():
    """`learned` is a trusted built-in of the players plugin with a one-line description."""
    spec = REGISTRY.get("learned")
    assert spec.trusted and spec.plugin == "players"
    assert spec.description and "\n" not in spec.description
    assert isinstance(spec.create(seed=3), LearnedBot)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_plays_legal_cards_under_every_preset(preset):
    """Learned players at every seat of every table size of every preset play legal cards and take with bools."""
    rules = PRESETS[preset]
    lo, hi = rules.seat_range
    for players in range(lo, hi + 1):
        game = Game.deal(rules, players, 7 + players)
        bots = [LearnedBot(seed=s) for s in range(players)]
        while not game.is_over:
            seat = game.current
            view = game.view(seat)
            action = bots[seat].act(view)
            if view.decision == "take":
                assert type(action) is bool
            else:
                assert action in view.legal, f"played {action} (legal: {view.legal})"
            game.apply(action)
        assert game.result.loser is not None or game.result.draw


def test_deterministic_from_its_seed():
    """Through the referee, the same game seed gives the learned player's table the same moves."""
    names = ("learned", "heuristic", "random", "learned")

    def events(seed):
        clients = [InProcessClient(REGISTRY.get(n)) for n in names]
        return play_game(PRESETS["getaway"], clients, seed)["events"]

    assert events(5) == events(5)
    assert events(5) != events(6)


def test_features_read_the_view_alone():
    """One row per legal card, the shared numbers alike on every row, the heuristic card marked once."""
    game = Game.deal(PRESETS["getaway"], 4, 11)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    view = game.view(game.current)
    rows = card_features(view)
    assert rows.shape == (len(view.legal), len(NAMES))
    assert (rows[:, :GLOBAL] == rows[0, :GLOBAL]).all()
    assert rows[:, NAMES.index("heuristic_card")].sum() == 1
    assert np.isfinite(rows).all()


def test_the_gate_keeps_the_heuristic_card_unless_clearly_beaten():
    """choose() plays the lowest score only when it is lower than the heuristic card's by more than the gate."""
    net = Net.new(4, np.random.default_rng(0))
    rows = np.zeros((2, SIZE), np.float32)
    rows[1, NAMES.index("heuristic_card")] = 1.0
    scores = net.score(rows)
    low, high = int(np.argmin(scores)), int(np.argmax(scores))
    gap = float(scores[high] - scores[low])
    assert choose(net, rows, gate=gap + 1.0) == 1
    assert choose(net, rows, gate=0.0) == low


def test_weights_of_other_features_are_refused(tmp_path):
    """A weights file made for another feature list is refused in one line naming both."""
    net = Net.new(4, np.random.default_rng(0))
    path = tmp_path / "w.npz"
    net.save(path)
    with np.load(path) as f:
        arrays = dict(f)
    arrays["features"] = np.array(["something", "else"])
    np.savez(path, **arrays)
    with pytest.raises(WeightsError, match="trained on features"):
        Net.load(path)


def test_a_tiny_training_runs_and_resumes(tmp_path):
    """The training script plays, trains, measures, checkpoints; run again, it goes on from its checkpoint."""
    run = tmp_path / "run"
    common = ["--chunk", "2", "--steps", "2", "--batch", "4", "--eval-every", "2", "--eval-deals", "1",
              "--hidden", "8"]
    assert train_main([str(run), "--games", "2", *common]) == 0
    first = [json.loads(x) for x in (run / "log.jsonl").read_text().splitlines()]
    assert [x["games"] for x in first if "loss" in x] == [2]
    assert train_main([str(run), "--games", "4", *common]) == 0
    lines = [json.loads(x) for x in (run / "log.jsonl").read_text().splitlines()]
    assert [x["games"] for x in lines if "loss" in x] == [2, 4]
    assert [x["games"] for x in lines if "field_lost" in x] == [0, 2, 4]
    net, arrays = Net.load(run / "checkpoint.npz")
    assert int(arrays["games"]) == 4 and net.t == 4
    bot = LearnedBot(seed=1, weights=str(run / "weights-4.npz"))
    game = Game.deal(PRESETS["getaway"], 4, 3)
    while not game.is_over:
        view = game.view(game.current)
        game.apply(bot.act(view))


def test_a_second_round_starts_from_given_weights_and_rolls_out_with_a_net(tmp_path):
    """``--init`` starts the run from those weights (its first snapshot is them); ``--continue-with`` rolls
    out with a net, and the targets it trains on differ from the heuristic rollouts' on the same games."""
    common = ["--games", "2", "--chunk", "2", "--steps", "1", "--batch", "4", "--eval-every", "2",
              "--eval-deals", "1", "--explore", "0", "--init", str(WEIGHTS)]
    assert train_main([str(tmp_path / "plain"), *common]) == 0
    assert train_main([str(tmp_path / "net"), *common, "--continue-with", str(WEIGHTS)]) == 0
    first = Net.load(tmp_path / "net" / "weights-0.npz")[0]
    assert all(np.array_equal(first.p[k], load_net().p[k]) for k in first.p)
    after = [Net.load(tmp_path / run / "weights-2.npz")[0] for run in ("plain", "net")]
    assert not all(np.array_equal(after[0].p[k], after[1].p[k]) for k in first.p)


def test_workers_play_the_same_training_as_one_process(tmp_path):
    """``--workers 2`` plays the chunk's games in two processes: the same records, so the same weights."""
    common = ["--games", "4", "--chunk", "2", "--steps", "2", "--batch", "4", "--eval-every", "100",
              "--eval-deals", "1", "--hidden", "8"]
    assert train_main([str(tmp_path / "one"), *common]) == 0
    assert train_main([str(tmp_path / "two"), *common, "--workers", "2"]) == 0
    one, two = (Net.load(tmp_path / run / "checkpoint.npz") for run in ("one", "two"))
    assert int(one[1]["games"]) == int(two[1]["games"]) == 4
    assert all(np.array_equal(one[0].p[k], two[0].p[k]) for k in one[0].p)
    fresh = Net.load(tmp_path / "one" / "weights-0.npz")[0]
    assert not all(np.array_equal(one[0].p[k], fresh.p[k]) for k in fresh.p)


def test_ctrl_c_stops_a_run_with_workers_in_one_line(tmp_path):
    """Ctrl-C (SIGINT to the process group) stops a ``--workers 2`` run: exit 130 and one line, no worker's
    traceback, no process left (the workers ignore it and the trainer stops them)."""
    args = [sys.executable, "-m", "players.learned.train", str(tmp_path / "run"), "--games", "100000",
            "--chunk", "20", "--eval-every", "1000000", "--eval-deals", "1", "--hidden", "8", "--workers", "2"]
    proc = subprocess.Popen(args, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert '"games": 0' in proc.stdout.readline()       # measured: the pool is up, games are next
        assert '"games": 20' in proc.stdout.readline()      # a chunk played by the workers
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=120) == 130
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.stderr.read().strip().splitlines() == [
        "python -m players.learned.train: stopped; run the same command to go on from the last checkpoint"]
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)


def test_a_lookahead_teacher_gives_the_targets_with_four_in(tmp_path, monkeypatch):
    """``--teacher lookahead``: the decisions with more than three in get the lookahead sampler's values over
    worlds of the view, not rollouts; the same game, the same decisions and features otherwise."""
    calls = []
    values = LookaheadSampler.values

    def spy(self, view):
        calls.append((sum(view.active), values(self, view)))
        return calls[-1][1]

    monkeypatch.setattr(LookaheadSampler, "values", spy)
    common = ["--explore", "0", "--seed", "4"]
    taught = Trainer(options([str(tmp_path / "t"), *common, "--teacher", "lookahead", "--teacher-worlds", "3"]))
    taught_records = taught.learner().game(0)
    plain_records = Trainer(options([str(tmp_path / "p"), *common])).learner().game(0)
    assert calls and all(n > 3 for n, _ in calls)
    assert len(taught_records) == len(plain_records)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(taught_records, plain_records))
    for (_, want), (_, got) in zip(calls, taught_records):
        assert got.tolist() == pytest.approx(want)
    assert any(not np.allclose(a[1], b[1]) for a, b in zip(taught_records[:len(calls)], plain_records))


def test_bad_input_is_one_line(tmp_path, capsys):
    """A missing weights file to ship, or no run folder, is one line on stderr and a non-zero exit."""
    assert train_main(["--ship", str(tmp_path / "missing.npz")]) == 1
    assert train_main([]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and "missing.npz" in lines[0] and "RUN_DIR" in lines[1]
    for flag in ("--workers", "--teacher-worlds"):
        with pytest.raises(SystemExit) as stop:
            train_main([str(tmp_path / "run"), flag, "0"])
        assert stop.value.code == 2
        assert capsys.readouterr().err.strip().splitlines()[-1].endswith(
            f"argument {flag}: expected a whole number of at least 1, got '0'")
    assert not (tmp_path / "run").exists()


def test_registering_the_built_ins_loads_no_numpy():
    """numpy (about 0.2 s) is loaded when a learned bot is made, not by every process that lists the players."""
    code = ("import sys; from arena.plugins.registry import load; load().get('learned'); "
            "print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr
