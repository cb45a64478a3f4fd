"""The built-in players, registered through the same hooks as any plugin."""

from __future__ import annotations

from arena import PlayerSpec, hookimpl

from players.heuristic import HeuristicBot
from players.learned import learned
from players.openspiel import ismcts
from players.sampler import SamplerBot
from players.simple import HighBot, LowBot, RandomBot


@hookimpl
def arena_players() -> list[PlayerSpec]:
    return [
        PlayerSpec("random", RandomBot, "plays a uniformly random legal card; never takes", trusted=True),
        PlayerSpec("low", LowBot, "plays its lowest legal card; throws its highest card when it cuts",
                   trusted=True),
        PlayerSpec("high", HighBot, "plays its highest legal card", trusted=True),
        PlayerSpec("heuristic", HeuristicBot,
                   "ducks under players known void, dumps high cards when safe, leads suits all hold",
                   trusted=True),
        PlayerSpec("sampler", SamplerBot,
                   "models each opponent from its public plays, samples 120 hidden deals a decision, "
                   "plays each card out, keeps the safest; exact solver with two left; deterministic",
                   trusted=True),
        PlayerSpec("learned", learned,
                   "a small neural network (numpy) scores each legal card from its view: trained on "
                   "rollouts in the ladder's field; plays the heuristic card unless another scores clearly lower; "
                   "with three left plays the sampler's card; with two, searches its cards against the other's model",
                   trusted=True),
        PlayerSpec("openspiel-ismcts", ismcts,
                   "OpenSpiel's ISMCTS (random rollouts) on the python_bhabhi game, searching worlds dealt "
                   "from its view; 100 simulations a decision; needs the openspiel extra; deterministic",
                   trusted=True),
    ]
