"""Environments for bots that learn (docs/training.md): PettingZoo, Gymnasium and batched.

Needs the ``rl`` extra (``pip install 'bhabhi-arena[rl]'``: pettingzoo,
gymnasium). The observation encoding alone (:mod:`arena.rl.encoding`) needs
only numpy, so a trained bot can use it when it plays.
"""

from arena.rl.aec import BhabhiEnv, env
from arena.rl.batch import Batch
from arena.rl.single import SeatEnv

__all__ = ["Batch", "BhabhiEnv", "SeatEnv", "env"]
