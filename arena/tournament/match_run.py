"""A scheduled match on a worker: the schedule's unit when a tournament has ``match_points``.

The match's deal seed is the schedule's deal seed keyed with the tournament's
secret (:func:`arena.game.seeds.tournament_deal`), so every rotation of a deal
plays the same hands (:func:`arena.game.seeds.match_hand_seed`) in the same
order, the seats rotated; the first hand is dealt by the schedule's dealer.
Each hand's bot seeds are keyed with the secret, the hand's seed and the rotation.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.bots.match_play import play_match
from arena.game.match import MatchRules
from arena.game.match_record import is_match_record
from arena.game.rules import Rules
from arena.game.seeds import Secret, bot_seeds, tournament_deal
from arena.results.store.database import Store
from arena.results.store.matches import add_match, done_matches, match_count, matches_among
from arena.tournament.match_spec import match_rules
from arena.tournament.schedule import GameSpec


def play_scheduled_match(game: GameSpec, rules: Rules, clients: Sequence, secret: Secret,
                         match: MatchRules) -> dict:
    """Play the match of one schedule unit; its match record (each hand's record inside)."""
    keyed = game.seed_names or game.seats
    return play_match(rules, clients, tournament_deal(secret, game.deal_seed), match, game.dealer,
                      names=game.seats,
                      bot_seeds=lambda hand_seed: bot_seeds(secret, hand_seed, game.rotation, keyed),
                      schedule={"index": game.index, "id": game.game_id, "rotation": game.rotation})


def stored_units(store: Store, spec) -> set[int]:
    """The schedule indices already stored: matches in a match tournament, else games."""
    return done_matches(store) if match_rules(spec) is not None else store.done()


def stored_count(store: Store, spec) -> int:
    """How many schedule units are stored: matches in a match tournament, else games."""
    return match_count(store) if match_rules(spec) is not None else store.count()


def stored_among(store: Store, spec, indices: list[int]) -> set[int]:
    """Those of ``indices`` (a few hundred at most) whose unit is stored."""
    return matches_among(store, indices) if match_rules(spec) is not None else store.stored_among(indices)


def store_unit(store: Store, game: GameSpec, record: dict) -> bool:
    """Store one finished unit (a game, or a match with its hands); False if it was stored already."""
    return add_match(store, game, record) if is_match_record(record) else store.add_game(game, record)


def unit_games(record: dict) -> list[dict]:
    """The game records of one finished unit: a match's hands, or the game itself."""
    return record["hands"] if is_match_record(record) else [record]
