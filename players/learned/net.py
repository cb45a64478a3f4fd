"""A small multilayer perceptron in numpy: the learned player's score of a card, and its training step.

``score(x)`` maps rows of card features (:mod:`players.learned.features`) to
one number each: the expected loss of playing that card (lower is better).
Two hidden layers with ``tanh``. Training (:meth:`Net.train_step`) regresses
the scores onto targets *within each decision*: both are centred on their
decision's mean, so only the differences between the cards of one decision
are learned (what choosing needs), and whatever the decision's cards share
(a deal already lost) does not add noise. Adam, plain numpy, float32.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from players.errors import WeightsError
from players.learned.features import NAMES, SIZE

LAYERS = ("w1", "b1", "w2", "b2", "w3", "b3")


class Net:
    """The parameters (a dict of arrays) and, when training, Adam's moments."""

    def __init__(self, params: dict[str, np.ndarray], gate: float = 0.0) -> None:
        self.p = params
        self.gate = gate
        """How much lower than the heuristic player's card another card must score to be played."""
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    @classmethod
    def new(cls, hidden: int, rng: np.random.Generator) -> Net:
        """Random weights (Glorot-scaled), ``hidden`` units in each hidden layer."""
        def layer(i: int, o: int) -> np.ndarray:
            return (rng.standard_normal((i, o)) * np.sqrt(1.0 / i)).astype(np.float32)
        p = {"w1": layer(SIZE, hidden), "b1": np.zeros(hidden, np.float32),
             "w2": layer(hidden, hidden), "b2": np.zeros(hidden, np.float32),
             "w3": layer(hidden, 1) * 0.1, "b3": np.zeros(1, np.float32)}
        return cls(p)

    # ---------------------------------------------------------------- play
    def score(self, x: np.ndarray) -> np.ndarray:
        """The expected loss of each row's card (lower is better)."""
        p = self.p
        h1 = np.tanh(x @ p["w1"] + p["b1"])
        h2 = np.tanh(h1 @ p["w2"] + p["b2"])
        return (h2 @ p["w3"] + p["b3"])[:, 0]

    # ------------------------------------------------------------ training
    def train_step(self, x: np.ndarray, y: np.ndarray, group: np.ndarray, groups: int, lr: float) -> float:
        """One Adam step on rows ``x`` with targets ``y``; ``group[i]`` numbers row i's decision
        (0 .. groups-1). Returns the mean squared error of the centred scores."""
        p = self.p
        a1 = x @ p["w1"] + p["b1"]
        h1 = np.tanh(a1)
        h2 = np.tanh(h1 @ p["w2"] + p["b2"])
        q = (h2 @ p["w3"] + p["b3"])[:, 0]
        d = q - y
        count = np.bincount(group, minlength=groups).astype(np.float32)
        mean = np.bincount(group, weights=d, minlength=groups) / np.maximum(count, 1)
        e = (d - mean[group]).astype(np.float32)
        loss = float(np.mean(e * e))
        dq = (2.0 / len(e)) * e
        grads = {"w3": h2.T @ dq[:, None], "b3": np.array([dq.sum()], np.float32)}
        dh2 = dq[:, None] * p["w3"][:, 0] * (1 - h2 * h2)
        grads["w2"], grads["b2"] = h1.T @ dh2, dh2.sum(0)
        dh1 = (dh2 @ p["w2"].T) * (1 - h1 * h1)
        grads["w1"], grads["b1"] = x.T @ dh1, dh1.sum(0)
        self._adam(grads, lr)
        return loss

    def _adam(self, grads: dict[str, np.ndarray], lr: float, b1: float = 0.9, b2: float = 0.999) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mh = self.m[k] / (1 - b1 ** self.t)
            vh = self.v[k] / (1 - b2 ** self.t)
            self.p[k] = (self.p[k] - lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)

    # ----------------------------------------------------------------- files
    def save(self, path: Path, extra: dict | None = None) -> None:
        """The weights (and, for a checkpoint, Adam's state and ``extra`` arrays) as one ``.npz``."""
        arrays = {k: self.p[k] for k in LAYERS}
        arrays["features"] = np.array(NAMES)
        arrays["gate"] = np.array(self.gate, np.float32)
        if extra is not None:
            arrays.update({f"m_{k}": v for k, v in self.m.items()})
            arrays.update({f"v_{k}": v for k, v in self.v.items()})
            arrays["adam_t"] = np.array(self.t)
            arrays.update(extra)
        tmp = Path(path).with_suffix(".tmp.npz")
        # numpy's stub matches **arrays against savez's allow_pickle (a bool); every key here names an array
        np.savez(tmp, **arrays)  # type: ignore[arg-type]
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> tuple[Net, dict[str, np.ndarray]]:
        """The net in ``path`` and the file's other arrays; :class:`WeightsError` if it does not fit."""
        with np.load(path, allow_pickle=False) as f:
            arrays = {k: f[k] for k in f.files}
        names = tuple(str(x) for x in arrays.get("features", ()))
        if names != NAMES:
            raise WeightsError(f"weights {path} were trained on features {names[:3]}... "
                               f"({len(names)}); this player computes {len(NAMES)} ({NAMES[:3]}...)")
        net = cls({k: arrays[k].astype(np.float32) for k in LAYERS}, float(arrays["gate"]))
        if "adam_t" in arrays:
            net.m = {k: arrays[f"m_{k}"] for k in LAYERS}
            net.v = {k: arrays[f"v_{k}"] for k in LAYERS}
            net.t = int(arrays["adam_t"])
        return net, arrays
