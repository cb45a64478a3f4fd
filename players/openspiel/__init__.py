"""Bhabhi as an OpenSpiel game (``python_bhabhi``) and OpenSpiel's ISMCTS as a player: docs/training.md, "OpenSpiel".

The ``openspiel`` extra installs OpenSpiel (``pip install -e '.[openspiel]'``). Nothing here imports it until a
bot is made: :mod:`players.openspiel.game` registers the game when imported, :mod:`players.openspiel.bot` is
the player.
"""

from __future__ import annotations

import importlib.util

NEEDS = ("pyspiel", "open_spiel", "absl")
"""What the openspiel extra installs that the player imports."""


def ismcts(seed: int = 0, simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1, **options):
    """The ``openspiel-ismcts`` player's factory: :class:`players.openspiel.bot.ISMCTSPlayer`.

    OpenSpiel (about 0.3 s to import) is imported here, when such a bot is made, not when the built-in
    players are registered; without the extra installed the factory fails, naming it."""
    missing = [m for m in NEEDS if importlib.util.find_spec(m) is None]  # found, not imported
    if missing:
        raise ModuleNotFoundError(f"the openspiel-ismcts player needs OpenSpiel, which is not installed here "
                                  f"(no {', '.join(missing)}): pip install -e '.[openspiel]'")
    from players.openspiel.bot import ISMCTSPlayer
    return ISMCTSPlayer(seed, simulations=simulations, uct_c=uct_c, rollouts=rollouts, **options)
