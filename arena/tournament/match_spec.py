"""A tournament's match keys: ``match_points`` and ``match_score`` (docs/tournaments.md, "Matches").

With ``match_points`` set, each unit of the schedule is a match played to
that many penalty points (:mod:`arena.game.match`) instead of one game;
``match_score`` (``places``, the default, or ``cards``) says how hands score.
Both absent: a tournament of single games, its stored spec without either key.
"""

from __future__ import annotations

from typing import Any

from arena.game.errors import MatchError
from arena.game.match import SCORES, MatchRules
from arena.tournament.errors import ConfigError

MATCH_KEYS = ("match_points", "match_score")


def match_keys(data: dict[str, Any], where: str) -> dict[str, Any]:
    """The two keys, checked: ``{"match_points": int | None, "match_score": str | None}``.

    ``match_score`` without ``match_points`` is refused (it would change nothing).
    """
    points, score = data.get("match_points"), data.get("match_score")
    if points is None:
        if score is not None:
            raise ConfigError(f"{where}: key 'match_score': needs match_points (a match's points total, "
                              f"e.g. match_points = 6) (got match_score {score!r} alone)")
        return {"match_points": None, "match_score": None}
    book = data["deals"] if isinstance(data.get("deals"), str) else data.get("book")
    if book is not None:
        raise ConfigError(f"{where}: key 'match_points': a match deals its own hands; it cannot play a deal "
                          f"book (got the book {book!r})")
    try:
        MatchRules(points, "places" if score is None else score)
    except MatchError as exc:
        key, _, reason = str(exc).partition(" ")
        raise ConfigError(f"{where}: key {key!r}: {reason}") from None
    return {"match_points": points, "match_score": score}


def match_rules(spec) -> MatchRules | None:
    """The :class:`MatchRules` of a spec (a TournamentSpec or its dict), or None for single games."""
    data: dict[str, Any] = spec if isinstance(spec, dict) else {k: getattr(spec, k, None) for k in MATCH_KEYS}
    if data.get("match_points") is None:
        return None
    return MatchRules(data["match_points"], data.get("match_score") or SCORES[0])
