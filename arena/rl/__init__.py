"""Environments for bots that learn (docs/training.md): PettingZoo, Gymnasium and batched.

The environments need the ``rl`` extra (``pip install 'bhabhi-arena[rl]'``:
pettingzoo, gymnasium); they are imported on first use (PEP 562), so the
observation encoding alone (:mod:`arena.rl.encoding`, numpy only) loads
without them: a trained bot uses it when it plays, sandboxed.
"""

import importlib

_HOME = {"env": "arena.rl.aec", "BhabhiEnv": "arena.rl.aec", "SeatEnv": "arena.rl.single", "Batch": "arena.rl.batch"}
__all__ = ["Batch", "BhabhiEnv", "SeatEnv", "env"]


def __getattr__(name: str):
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.rl' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
