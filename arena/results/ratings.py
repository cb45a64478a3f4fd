"""Ratings and statistics from finished games: TrueSkill plus the table columns.

Everything here is a pure function of the outcomes taken in game order (their
``index``), whatever order they arrive in, so a parallel or resumed tournament
gives exactly the same tables as a serial one. No I/O, no printing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trueskill

from arena.game.status import FAULT_KINDS
from arena.results.errors import RatingsError
from arena.results.intervals import prob_above, wilson
from arena.results.trueskill_ffa import FreeForAll

GROUPINGS = ("table-size", "rules", "seat")


# ---------------------------------------------------------------- outcomes


def _check(ok: bool, what: str, expected: str, got: Any) -> None:
    if not ok:
        raise RatingsError(f"{what} must be {expected} (got {got!r})")

DECISION_MS_HELP = ("mean CPU time per play decision, in ms: the CPU time of all the player's play decisions "
                    "over their number (take decisions are not counted)")
"""What the ``ms/dec`` column of a rating table means."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one finished game, as the ratings need it.

    ``seats[s]`` played seat ``s``; ``ranks[s]`` is its finishing rank (0 =
    first out, the Bhabhi has the largest; seats tied in a draw share one);
    ``loser`` is the Bhabhi's seat, or None for a draw; ``penalty[s]`` is 0..3;
    ``faults[s]`` maps fault kind to count; ``decision_ms[s]`` is the seat's
    mean CPU time per play decision in the game (ms), or None, and
    ``plays[s]`` the number of play decisions it is the mean of (its weight
    in :attr:`PlayerRow.decision_ms`; 1 each when left empty). ``faults``,
    ``decision_ms`` and ``plays`` may be left empty (no faults, no timings).
    """

    index: int
    seats: tuple[str, ...]
    ranks: tuple[int, ...]
    loser: int | None
    table_size: int
    rules: str
    penalty: tuple[int, ...]
    faults: tuple[Mapping[str, int], ...] = ()
    decision_ms: tuple[float | None, ...] = ()
    plays: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        n, where = self.table_size, f"game {self.index}:"
        _check(type(self.index) is int, "game index", "an integer", self.index)
        _check(isinstance(self.rules, str), f"{where} rules", "a label string", self.rules)
        _check(type(n) is int and n >= 2 and len(self.seats) == n, f"{where} seats", f"{n} names", self.seats)
        _check(len(set(self.seats)) == n, f"{where} seats", "distinct names", self.seats)
        for name in ("seats", "ranks", "penalty", "decision_ms", "plays"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        faults = tuple(dict(f) if isinstance(f, Mapping) else f for f in self.faults)
        object.__setattr__(self, "faults", faults)
        if not self.faults:
            object.__setattr__(self, "faults", tuple({} for _ in range(n)))
        if not self.decision_ms:
            object.__setattr__(self, "decision_ms", (None,) * n)
        if not self.plays:
            object.__setattr__(self, "plays", (1,) * n)
        self._check_ranks()
        self._check_per_seat()

    @classmethod
    def checked_elsewhere(cls, **fields: Any) -> "Outcome":
        """An Outcome of fields already checked and in their final form (tuples of ``table_size``,
        ``faults`` as dicts), built without checking them again: for a reader that checked a whole
        store at once (:mod:`arena.results.store_outcomes`)."""
        outcome = object.__new__(cls)
        for name in _OUTCOME_FIELDS:
            object.__setattr__(outcome, name, fields[name])
        return outcome

    def _check_ranks(self) -> None:
        where, n, ranks = f"game {self.index}:", self.table_size, self.ranks
        ok = len(ranks) == n and all(type(r) is int and 0 <= r < n for r in ranks)
        _check(ok, f"{where} ranks", f"{n} integers from 0 to {n - 1}", ranks)
        if self.loser is not None:
            ok = type(self.loser) is int and 0 <= self.loser < n
            _check(ok, f"{where} loser", f"a seat 0..{n - 1} or None", self.loser)
            alone = ranks.count(ranks[self.loser]) == 1 and ranks[self.loser] == max(ranks)
            _check(alone, f"{where} ranks", f"the loser (seat {self.loser}) alone in last place", ranks)

    def _check_per_seat(self) -> None:
        where, n = f"game {self.index}:", self.table_size
        ok = len(self.penalty) == n and all(type(p) is int and 0 <= p <= 3 for p in self.penalty)
        _check(ok, f"{where} penalty", f"{n} integers from 0 to 3", self.penalty)
        _check(len(self.faults) == n and all(isinstance(f, Mapping) for f in self.faults),
               f"{where} faults", f"{n} mappings of kind to count", self.faults)
        for f in self.faults:
            ok = all(k in FAULT_KINDS and type(c) is int and c >= 0 for k, c in f.items())
            _check(ok, f"{where} faults", f"counts of {', '.join(FAULT_KINDS)}", dict(f))
        ok = len(self.decision_ms) == n and all(
            d is None or (isinstance(d, (int, float)) and d >= 0) for d in self.decision_ms
        )
        _check(ok, f"{where} decision_ms", f"{n} times in ms or None", self.decision_ms)
        ok = len(self.plays) == n and all(type(p) is int and p >= 0 for p in self.plays)
        _check(ok, f"{where} plays", f"{n} counts of play decisions", self.plays)


_OUTCOME_FIELDS = tuple(Outcome.__dataclass_fields__)


def ranks_from_order(order: Sequence[int | Sequence[int]]) -> tuple[int, ...]:
    """Ranks per seat from a finishing order of seats (first out first).

    An entry may be a group of seats that tie (a drawn game's shared last
    place); they share the rank of the group's position: ``[2, 0, (1, 3)]``
    gives ``(1, 2, 0, 2)``.
    """
    ranks: dict[int, int] = {}
    for entry in order:
        group = (entry,) if isinstance(entry, int) else tuple(entry)
        rank = len(ranks)
        ranks.update((seat, rank) for seat in group)
    _check(sorted(ranks) == list(range(len(ranks))), "finishing order", "every seat once", list(order))
    return tuple(ranks[s] for s in range(len(ranks)))


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
            _check(getattr(self, name) > 0, name, "positive", getattr(self, name))
        _check(self.tau >= 0, "tau", ">= 0", self.tau)
        _check(0 <= self.draw_probability < 1, "draw_probability", "in [0, 1)", self.draw_probability)

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

    def add(self, o: Outcome, seat: int) -> None:
        k = o.table_size
        self.games += 1
        self.bhabhi += o.loser == seat
        self.expected += 1 / k
        self.place += o.ranks[seat] / (k - 1)
        self.penalty += o.penalty[seat]
        self.first += o.ranks[seat] == 0
        for kind, count in o.faults[seat].items():
            self.faults[kind] += count
        if o.decision_ms[seat] is not None:
            self.play_ms += o.decision_ms[seat] * o.plays[seat]
            self.plays += o.plays[seat]


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

Key = Callable[[Outcome, int], Hashable]


def _by_player(o: Outcome, seat: int) -> Hashable:
    return o.seats[seat]


def in_order(outcomes: Iterable[Outcome]) -> list[Outcome]:
    """The outcomes sorted by game index; a repeated index is refused."""
    ordered = sorted(outcomes, key=lambda o: o.index)
    for a, b in zip(ordered, ordered[1:]):
        if a.index == b.index:
            raise RatingsError(f"game index must be unique (got {a.index} twice)")
    return ordered


def _rate_game(ffa: FreeForAll, ratings: dict, keys: list, o: Outcome) -> None:
    """One game's TrueSkill update (``trueskill``'s own ``rate``, bit for bit: :mod:`.trueskill_ffa`)."""
    env = ffa.env
    before = [ratings[k] if k in ratings else env.create_rating() for k in keys]
    try:
        new = ffa.rate(before, list(o.ranks))
    except (FloatingPointError, ZeroDivisionError, ValueError) as exc:
        raise RatingsError(
            f"game {o.index}: trueskill could not rate ranks {list(o.ranks)} with draw_probability "
            f"{env.draw_probability} ({exc}); ties need a draw_probability above 0"
        ) from None
    ratings.update(zip(keys, new))


def _run(ordered: list[Outcome], key: Key, params: RatingParams,
         after: Callable[[Outcome, list, dict], None] | None = None) -> tuple[dict, dict]:
    """TrueSkill and tallies over ``ordered`` games, one identity per ``key``."""
    ffa, ratings, tallies = FreeForAll(params.env()), {}, {}
    for o in ordered:
        keys = list(o.seats) if key is _by_player else [key(o, s) for s in range(o.table_size)]
        _rate_game(ffa, ratings, keys, o)
        for seat, k in enumerate(keys):
            tallies.setdefault(k, _Tally()).add(o, seat)
        if after is not None:
            after(o, keys, ratings)
    return ratings, tallies


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
    _check(by in GROUPINGS, "by", f"one of {', '.join(GROUPINGS)}", by)
    ordered = in_order(outcomes)
    if by == "seat":
        return _by_seat(ordered, RatingParams(**params))
    attr = "table_size" if by == "table-size" else "rules"
    groups: dict[Any, list[Outcome]] = {}
    for o in ordered:
        groups.setdefault(getattr(o, attr), []).append(o)
    return {g: rate(groups[g], **params) for g in sorted(groups)}


def _by_seat(ordered: list[Outcome], params: RatingParams) -> dict[int, RatingTable]:
    ratings, tallies = _run(ordered, lambda o, s: (o.seats[s], s), params)
    tables = {}
    for seat in sorted({s for _, s in ratings}):
        keys = [k for k in ratings if k[1] == seat]
        rows = _rows({k: (k[0], ratings[k], tallies[k]) for k in keys})
        tables[seat] = RatingTable(rows, sum(1 for o in ordered if o.table_size > seat), params)
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

    def record(o: Outcome, keys: list, ratings: dict) -> None:
        points.extend(HistoryPoint(o.index, k, ratings[k].mu, ratings[k].sigma) for k in keys)

    _run(in_order(outcomes), _by_player, RatingParams(**params), record)
    return tuple(points)
