"""Ratings and statistics from finished games: TrueSkill plus the table columns.

Everything here is a pure function of the outcomes taken in game order (their
``index``), whatever order they arrive in, so a parallel or resumed tournament
gives exactly the same tables as a serial one. No I/O, no printing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import lt
from typing import Any

import trueskill

from arena.game.status import FAULT_KINDS
from arena.results.errors import RatingsError
from arena.results.stats.intervals import prob_above, wilson
from arena.results.stats.outcome import DECISION_MS_HELP, Outcome, check, ranks_from_order  # noqa: F401 (re-exported)
from arena.results.stats.trueskill import FreeForAll

GROUPINGS = ("table-size", "rules", "seat")


# ---------------------------------------------------------------- parameters


@dataclass(frozen=True, slots=True)
class RatingParams:
    """TrueSkill settings.

    ``tau`` defaults to 0: a bot is a fixed program whose skill does not drift,
    and any tau > 0 keeps adding uncertainty each game, so in a large field
    the order never settles. ``draw_probability`` defaults to small but
    non-zero: with 0 the draw margin is 0, a tie (a drawn game's shared last
    place) has probability zero under the model, and trueskill's update for
    it divides by (nearly) zero, giving a FloatingPointError or nonsense such
    as a sigma that grows.
    """

    mu: float = 25.0
    sigma: float = 25 / 3
    beta: float = 25 / 6
    tau: float = 0.0
    draw_probability: float = 0.001

    def __post_init__(self) -> None:
        for name in ("sigma", "beta"):
            check(getattr(self, name) > 0, name, "positive", getattr(self, name))
        check(self.tau >= 0, "tau", ">= 0", self.tau)
        check(0 <= self.draw_probability < 1, "draw_probability", "in [0, 1)", self.draw_probability)

    def env(self) -> trueskill.TrueSkill:
        return trueskill.TrueSkill(mu=self.mu, sigma=self.sigma, beta=self.beta, tau=self.tau,
                                   draw_probability=self.draw_probability)


# ---------------------------------------------------------------- rows and tables


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One player's line in a rating table.

    ``conservative`` is mu - 3 sigma (the sort key); ``p_above_next`` is the
    probability that this player truly ranks above the next row (None on the
    last row); ``bhabhi_ratio`` is the Bhabhi rate over the expected rate
    (the mean of 1/k over the player's tables); ``place`` is the mean
    finishing place scaled 0 (first out) to 1 (Bhabhi); ``faults`` pairs each
    kind in FAULT_KINDS with its count; ``decision_ms`` is the mean CPU time
    per play decision over all the player's games (:data:`DECISION_MS_HELP`;
    None when none were recorded).
    """

    rank: int
    player: str
    conservative: float
    mu: float
    sigma: float
    p_above_next: float | None
    games: int
    bhabhi: int
    bhabhi_rate: float
    bhabhi_low: float
    bhabhi_high: float
    bhabhi_ratio: float
    place: float
    penalty: float
    first_out_rate: float
    faults: tuple[tuple[str, int], ...]
    decision_ms: float | None

    def fault(self, kind: str) -> int:
        """The count of one fault kind."""
        return dict(self.faults)[kind]

    def to_dict(self) -> dict[str, Any]:
        """Flat plain data (faults as ``faults_<kind>``), for CSV, JSON, tabulate."""
        out = {f: getattr(self, f) for f in self.__dataclass_fields__ if f != "faults"}
        out.update((f"faults_{kind}", count) for kind, count in self.faults)
        return out


@dataclass(frozen=True, slots=True)
class RatingTable:
    """Rows sorted by conservative rating (best first), with what made them."""

    rows: tuple[PlayerRow, ...]
    games: int
    params: RatingParams = field(default_factory=RatingParams)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(r.player for r in self.rows)

    def row(self, player: str) -> PlayerRow:
        for r in self.rows:
            if r.player == player:
                return r
        raise RatingsError(f"player must be one of {', '.join(self.players)} (got {player!r})")

    def to_dicts(self) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self.rows]


@dataclass(slots=True)
class _Tally:
    """Running sums for one player (working state of one table build)."""

    games: int = 0
    bhabhi: int = 0
    expected: float = 0.0
    place: float = 0.0
    penalty: int = 0
    first: int = 0
    faults: dict = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS, 0))
    play_ms: float = 0.0
    plays: int = 0


def _row(rank: int, player: str, r: trueskill.Rating, nxt: trueskill.Rating | None, t: _Tally) -> PlayerRow:
    low, high = wilson(t.bhabhi, t.games)
    rate = t.bhabhi / t.games
    return PlayerRow(
        rank=rank, player=player, conservative=r.mu - 3 * r.sigma, mu=r.mu, sigma=r.sigma,
        p_above_next=None if nxt is None else prob_above(r.mu, r.sigma, nxt.mu, nxt.sigma),
        games=t.games, bhabhi=t.bhabhi, bhabhi_rate=rate, bhabhi_low=low, bhabhi_high=high,
        bhabhi_ratio=rate / (t.expected / t.games), place=t.place / t.games,
        penalty=t.penalty / t.games, first_out_rate=t.first / t.games,
        faults=tuple(t.faults.items()),
        decision_ms=t.play_ms / t.plays if t.plays else None,
    )


def _rows(entries: Mapping[Hashable, tuple[str, trueskill.Rating, _Tally]]) -> tuple[PlayerRow, ...]:
    """Rows for ``key -> (player, rating, tally)``, best conservative rating first."""
    order = sorted(entries.values(), key=lambda e: (-(e[1].mu - 3 * e[1].sigma), -e[1].mu, e[0]))
    rows = []
    for i, (player, rating, tally) in enumerate(order):
        nxt = order[i + 1][1] if i + 1 < len(order) else None
        rows.append(_row(i + 1, player, rating, nxt, tally))
    return tuple(rows)


# ---------------------------------------------------------------- rating in game order

Key = Callable[[Outcome], Sequence[Hashable]]
"""A game's identities, one a seat: the players, or (player, seat) pairs."""


def _by_player(o: Outcome) -> Sequence[Hashable]:
    return o.seats


def _by_player_and_seat(o: Outcome) -> Sequence[Hashable]:
    return tuple(zip(o.seats, range(o.table_size)))


def in_order(outcomes: Iterable[Outcome]) -> list[Outcome]:
    """The outcomes sorted by game index; a repeated index is refused."""
    ordered = list(outcomes)
    indices = [o.index for o in ordered]
    if all(map(lt, indices, indices[1:])):          # already in order, as a store reads them
        return ordered
    ordered.sort(key=lambda o: o.index)
    for a, b in zip(ordered, ordered[1:]):
        if a.index == b.index:
            raise RatingsError(f"game index must be unique (got {a.index} twice)")
    return ordered


def _run(ordered: list[Outcome], key: Key, params: RatingParams,
         after: Callable[[Outcome, Sequence[Hashable], dict], None] | None = None) -> tuple[dict, dict]:
    """TrueSkill and tallies over ``ordered`` games, one identity per ``key``: each identity's
    ``trueskill.Rating`` and :class:`_Tally`. ``after`` sees each game, its keys and the ratings so far
    as ``(mu, sigma)`` pairs (``Rating(*pair)`` is the rating)."""
    ffa = FreeForAll(params.env())
    ratings: dict = {}
    tallies: dict = {}
    start, rate_args = ffa.start, ffa.rate_args
    for o in ordered:
        keys = key(o)
        try:
            new = rate_args([ratings[k] if k in ratings else start for k in keys], o.ranks)
        except (FloatingPointError, ZeroDivisionError, ValueError) as exc:
            raise RatingsError(
                f"game {o.index}: trueskill could not rate ranks {list(o.ranks)} with draw_probability "
                f"{ffa.env.draw_probability} ({exc}); ties need a draw_probability above 0"
            ) from None
        ratings.update(zip(keys, new))
        _tally(tallies, o, keys)
        if after is not None:
            after(o, keys, ratings)
    return {k: trueskill.Rating(*pair) for k, pair in ratings.items()}, tallies


def _tally(tallies: dict, o: Outcome, keys: Sequence[Hashable]) -> None:
    """Add one game to the tallies of its seats' identities."""
    size = o.table_size
    expected, spread = 1 / size, size - 1
    loser, ranks, penalty, faults, decision_ms, plays = o.loser, o.ranks, o.penalty, o.faults, o.decision_ms, o.plays
    for seat, k in enumerate(keys):
        t = tallies.get(k)
        if t is None:
            t = tallies[k] = _Tally()
        rank = ranks[seat]
        t.games += 1
        t.bhabhi += loser == seat
        t.expected += expected
        t.place += rank / spread
        t.penalty += penalty[seat]
        t.first += rank == 0
        if faults[seat]:
            for kind, count in faults[seat].items():
                t.faults[kind] += count
        if decision_ms[seat] is not None:
            t.play_ms += decision_ms[seat] * plays[seat]  # type: ignore[operator]  # not None: checked above
            t.plays += plays[seat]


def rate(outcomes: Iterable[Outcome], *, mu: float = 25.0, sigma: float = 25 / 3, beta: float = 25 / 6,
         tau: float = 0.0, draw_probability: float = 0.001) -> RatingTable:
    """The rating table: TrueSkill over the games in index order, plus statistics.

    Each game is one free-for-all of one-player teams ranked by ``ranks``.
    ``tau`` 0 and a small ``draw_probability``: see :class:`RatingParams`.
    """
    params = RatingParams(mu, sigma, beta, tau, draw_probability)
    ordered = in_order(outcomes)
    ratings, tallies = _run(ordered, _by_player, params)
    rows = _rows({k: (k, ratings[k], tallies[k]) for k in ratings})
    return RatingTable(rows, len(ordered), params)


def breakdown(outcomes: Iterable[Outcome], by: str = "table-size", **params: float) -> dict[Any, RatingTable]:
    """The same rows per group, groups in sorted order.

    ``by="table-size"`` or ``"rules"``: the games are split into groups and
    each group is rated on its own. ``by="seat"``: one TrueSkill run over all
    games in which a player at each seat is a separate identity, so group
    ``s`` rates and counts each player's games at seat ``s`` only. In every
    case each (game, seat) lands in exactly one group.
    """
    check(by in GROUPINGS, "by", f"one of {', '.join(GROUPINGS)}", by)
    ordered = in_order(outcomes)
    if by == "seat":
        return _by_seat(ordered, RatingParams(**params))
    attr = "table_size" if by == "table-size" else "rules"
    groups: dict[Any, list[Outcome]] = {}
    for o in ordered:
        groups.setdefault(getattr(o, attr), []).append(o)
    return {g: rate(groups[g], **params) for g in sorted(groups)}


def _by_seat(ordered: list[Outcome], params: RatingParams) -> dict[int, RatingTable]:
    ratings, tallies = _run(ordered, _by_player_and_seat, params)
    sizes = Counter(o.table_size for o in ordered)
    tables = {}
    for seat in sorted({s for _, s in ratings}):
        keys = [k for k in ratings if k[1] == seat]
        rows = _rows({k: (k[0], ratings[k], tallies[k]) for k in keys})
        tables[seat] = RatingTable(rows, sum(n for size, n in sizes.items() if size > seat), params)
    return tables


# ---------------------------------------------------------------- history


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A player's rating right after a game they played."""

    index: int
    player: str
    mu: float
    sigma: float


def history(outcomes: Iterable[Outcome], **params: float) -> tuple[HistoryPoint, ...]:
    """Every player's mu and sigma after each of their games, in game order.

    Only the players at a game's table change, so each game adds a point for
    those players alone; a plot steps between a player's points.
    """
    points: list[HistoryPoint] = []

    def record(o: Outcome, keys: Sequence[Hashable], ratings: dict) -> None:
        for k in keys:
            rating = trueskill.Rating(*ratings[k])
            # keyed by _by_player: each key is a player's name, a str
            points.append(HistoryPoint(o.index, k, rating.mu, rating.sigma))  # type: ignore[arg-type]

    _run(in_order(outcomes), _by_player, RatingParams(**params), record)
    return tuple(points)
