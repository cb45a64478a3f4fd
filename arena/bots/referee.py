"""The referee: plays one game with one bot client per seat.

A client answers decisions from its seat's events only. Two kinds exist:
:class:`InProcessClient` (trusted bots, fastest) and the sandboxed client in
:mod:`arena.sandbox` (the default for every bot). Whatever a client does, the
referee gets a :class:`Reply` back: failures are data (a status), never an
exception escaping the game.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from arena.bots.output_log import OutputLog, bot_traceback
from arena.bots.player_spec import PlayerSpec
from arena.bots.reply import Reply
from arena.game import events as ev
from arena.game.book import BookDeal
from arena.game.cards import Card, card
from arena.game.engine import Game
from arena.game.errors import CardError
from arena.game.result import Result
from arena.game.rules import Rules
from arena.game.seeds import open_bot_seed
from arena.game.knowledge import SeatKnowledge
from arena.game.match import MatchView
from arena.game.public_knowledge import PublicKnowledge
from arena.game.status import Status
from arena.game.views import Action


_perf_counter, _OK, _new_tuple = time.perf_counter, Status.OK, tuple.__new__

Batch: TypeAlias = "list[ev.EventDict] | list[ev.Event] | ev.SeatEvents"
"""What a client is handed at each call: event dicts, compact events (``takes_compact``) or, for an in-process
seat of :func:`play_game`, the game's own tuples."""


class Client(Protocol):
    """What the referee needs from a seat's bot, in-process or sandboxed."""

    name: str

    def begin(self, seat: int, players: int, rules: Rules, seed: int, events: Batch,
              deal: int | None = None) -> Reply:
        """A new game. ``deal``: the game's deal seed, equal for every rotation of a deal
        (a sandboxed client never lets one process play two games of one deal)."""

    def decide(self, events: Batch, legal: tuple[Action, ...], decision: str) -> Reply:
        """A decision. A client with ``takes_compact`` set is handed compact events
        (:func:`arena.game.events.for_seat_compact`) and a fourth argument, ``table``: the
        trick's led suit and the trump, suit numbers (-1: none yet)."""

    def finish(self, events: Batch, result: Result) -> None: ...

    def game_log(self) -> str:
        """What the bot printed in its last finished game, with its faults' tracebacks ('' if nothing)."""

    def close(self) -> None: ...


class InProcessClient:
    """Runs a trusted bot in the referee's own process (no limits, timed only).

    It takes its events as event dicts or, from :func:`play_game`, as the
    game's own tuples (:class:`arena.game.events.SeatEvents`), which its
    :class:`~arena.game.knowledge.SeatKnowledge` reads without the dicts; the public
    events are taken in once for all such seats of a game, by the
    :class:`~arena.game.public_knowledge.PublicKnowledge` the referee hands them.
    (A subclass gets the dicts: it may pass its events on, e.g. to a sandboxed
    client.)

    While the bot runs, ``sys.stdout`` and ``sys.stderr`` are its game's
    :class:`OutputLog` (two swaps a call), so its prints and tracebacks are
    kept as a sandboxed bot's are. Only in the main thread: ``sys.stdout`` is
    the process's, so a game played in another thread (a Dask worker's)
    keeps its bots' tracebacks but leaves their prints where they go.
    """

    def __init__(self, spec: PlayerSpec) -> None:
        self.spec = spec
        self.name = spec.name
        self.bot: Any = None   # what the spec's factory made: any object with the Bot's methods
        self.knowledge: SeatKnowledge | None = None
        self._output = _Capture(OutputLog())
        self._last_output = ""
        self._swap = False

    def begin(self, seat: int, players: int, rules: Rules, seed: int, events: Batch,
              deal: int | None = None) -> Reply:
        self._output = _Capture(OutputLog())
        self._swap = threading.current_thread() is threading.main_thread()  # a game stays on its thread
        self.knowledge = SeatKnowledge(seat, players, rules)
        self.knowledge.feed_many(events)
        return self._call(self._create_and_start, seed)

    def _create_and_start(self, seed: int) -> None:
        self.bot = self.spec.create(seed=seed)
        self.bot.new_game(self.knowledge.view())  # type: ignore[union-attr]  # begin made it

    def decide(self, events: Batch, legal: tuple[Action, ...], decision: str) -> Reply:
        knowledge, bot = self.knowledge, self.bot
        knowledge.feed_many(events)  # type: ignore[union-attr]  # begin made it; the same below
        if bot is None:
            return Reply(Status.CRASH, detail="the bot could not be created")
        return self._call(bot.act, knowledge.view(legal, decision, None))  # type: ignore[union-attr]

    def finish(self, events: Batch, result: Result) -> None:
        self.knowledge.feed_many(events)  # type: ignore[union-attr]
        if self.bot is not None:
            self._call(self.bot.end_game, result, "end_game ")
        self._last_output = self._output.log.text()

    def game_log(self) -> str:
        return self._last_output

    def _call(self, fn: Callable[[Any], Any], arg: Any, what: str = "") -> Reply:
        """``fn(arg)``, timed, its output captured; a crash is a Reply (no lambda a call: one is made
        at every decision).

        Timed on the wall clock only, and the wall time is also the call's CPU time: the bot
        runs right here, on this thread, doing nothing but compute, so the two differ only when
        the OS takes the core away during the call. The thread's CPU clock is a system call on
        Linux (no vDSO; 1.2-3.5 us a read here, against 44 ns for ``perf_counter``), and two
        reads a call, about 88 calls a game, would be a fifth of an in-process game's CPU
        (docs/throughput.md). The records' medians are unaffected; a maximum may include a
        preemption. Sandboxed bots' CPU figures are their process's CPU clock.
        """
        out, err = sys.stdout, sys.stderr
        try:  # the swap inside: a Ctrl-C landing right after it must not leave the streams swapped
            if self._swap:
                sys.stdout = sys.stderr = self._output
            wall0 = _perf_counter()
            value = fn(arg)
        except Exception as exc:  # noqa: BLE001 - a bot's bug is a fault, not the harness's crash
            wall = _perf_counter() - wall0
            detail = f"{type(exc).__name__}: {exc}"
            self._output.log.fault(f"{what}{Status.CRASH}", detail, bot_traceback(exc, __file__))
            return Reply(Status.CRASH, None, wall, wall, detail)
        finally:
            sys.stdout, sys.stderr = out, err
        wall = _perf_counter() - wall0
        return _new_tuple(Reply, (_OK, value, wall, wall, ""))   # Reply(_OK, value, wall, wall), without
        # the NamedTuple's Python-level __new__

    def close(self) -> None:
        self.bot = None


class _Capture:
    """A text stream onto an OutputLog (what an in-process bot's print writes to)."""

    __slots__ = ("log",)
    encoding = "utf-8"

    def __init__(self, log: OutputLog) -> None:
        self.log = log

    def write(self, text: str) -> int:
        self.log.output(str(text))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


@dataclass(slots=True)
class SeatLog:
    """What the referee saw of one seat during a game (``play_cpu_ms``: the play decisions' CPU times)."""

    cpu_ms: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)
    play_cpu_ms: list[float] = field(default_factory=list)
    faults: list[dict[str, Any]] = field(default_factory=list)

    def summary(self, per_decision: bool = True) -> dict[str, Any]:
        """The per-seat timing summary of a record; ``per_decision`` adds every decision's CPU and
        wall ms (a tournament's store keeps only the summary: it leaves them out)."""
        def med(xs: list[float]) -> float | None:
            """statistics.median's value (the mean of the middle two of an even count), without its checks."""
            if not xs:
                return None
            xs, half = sorted(xs), len(xs) // 2
            return round(xs[half] if len(xs) % 2 else (xs[half - 1] + xs[half]) / 2, 3)
        summary: dict[str, Any] = {
            "decisions": len(self.cpu_ms), "plays": len(self.play_cpu_ms),
            "play_cpu_ms": round(sum(self.play_cpu_ms), 3),
            "cpu_ms_median": med(self.cpu_ms), "cpu_ms_max": round(max(self.cpu_ms), 3) if self.cpu_ms else None,
            "wall_ms_median": med(self.wall_ms), "wall_ms_max": round(max(self.wall_ms), 3) if self.wall_ms else None,
        }
        if per_decision:   # (round with digits is slow: two lists of about 20 a seat cost 0.1 ms a game)
            summary["cpu_ms"] = [round(x, 3) for x in self.cpu_ms]
            summary["wall_ms"] = [round(x, 3) for x in self.wall_ms]
        return summary


def check_reply(reply: Reply, legal: tuple[Action, ...], decision: str) -> tuple[Status, Any, str]:
    """Turn a bot's answer into (status, legal action or None, detail)."""
    value = reply.value
    if type(value) is Card and reply.status is _OK and decision == "play" and value in legal:
        return _OK, value, ""            # the common case, first
    if reply.status != Status.OK:
        return reply.status, None, reply.detail
    value = reply.value
    if decision == "take":
        if isinstance(value, bool):
            return Status.OK, value, ""
        return Status.MALFORMED, None, f"expected True or False for a take decision, got {value!r}"[:200]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return Status.MALFORMED, None, f"expected a card, got {type(value).__name__}"
    try:
        c = card(value)
    except CardError as exc:
        return Status.MALFORMED, None, str(exc)[:200]
    if c not in legal:
        return Status.ILLEGAL, None, f"{c} is not legal here (legal: {' '.join(map(str, legal))})"
    return Status.OK, c, ""


def play_game(rules: Rules, clients: Sequence[Client], seed: int, dealer: int = 0,
              names: Sequence[str] | None = None, bot_seeds: Sequence[int] | None = None,
              book: dict[str, Any] | None = None, match: MatchView | None = None, decision_times: bool = True,
              **extra: Any) -> dict[str, Any]:
    """Play one game to the end and return its record (with faults, timings and bot seeds).

    ``bot_seeds`` are the seeds each seat's bot is built with; the harness
    derives them with a secret (:mod:`arena.game.seeds`). Without them the open
    :func:`~arena.game.seeds.open_bot_seed` is used, which anyone who knows
    ``seed`` can compute: fit only for trusted in-process players. ``book``: a
    deal book's line (:mod:`arena.game.book`) to start from instead of dealing
    with ``seed`` (which then seeds only the game's own draws).
    ``match`` (a :class:`~arena.game.match.MatchView`) makes the game a hand of a
    match: every seat is sent its ``match`` event first (``view.match``) and
    the record keeps it under ``match``. ``decision_times=False`` leaves each decision's
    times out of the record's ``timings`` (their summaries stay).
    """
    game = Game.deal(rules, len(clients), seed, dealer) if book is None else BookDeal.from_dict(book).game(rules, seed)
    names = list(names) if names is not None else [c.name for c in clients]
    if bot_seeds is None:
        bot_seeds = [open_bot_seed(seed, seat, name) for seat, name in enumerate(names)]
    logs = [SeatLog() for _ in clients]
    sent = [0] * len(clients)
    tuples = [type(c) is InProcessClient and match is None for c in clients]  # a match hand: dicts (its event)
    compact = [getattr(c, "takes_compact", False) for c in clients]  # sandboxed: events.for_seat_compact
    public = PublicKnowledge(game) if any(tuples) else None  # the public events taken in once for those seats

    def new_events(seat: int) -> Batch:
        start = sent[seat]
        sent[seat] = stop = len(game.events)
        if tuples[seat]:
            return ev.SeatEvents(game, seat, start, stop, public)
        if compact[seat]:
            return ev.for_seat_compact(game, seat, start)
        return game.seat_events(seat, start)

    first = match.to_event() if match is not None else None   # a match hand's seats see the match first
    if match is not None:
        extra["match"] = match.to_dict()
    for seat, client in enumerate(clients):
        events = new_events(seat)
        if first is not None:
            events = [(first["type"], first) if compact[seat] else first, *events]
        reply = client.begin(seat, len(clients), rules, bot_seeds[seat], events, deal=seed)
        if reply.status != Status.OK:
            logs[seat].faults.append({"kind": str(reply.status), "detail": reply.detail, "event": 0, "at": "start"})
    state, events, seat_events = game.state, game.events, ev.SeatEvents
    while state.cur is not None:
        seat = state.cur
        legal, decision = game.legal_actions(), state.decision
        if tuples[seat]:   # (new_events inline, the NamedTuple made without its Python-level __new__)
            start, sent[seat] = sent[seat], len(events)
            batch = _new_tuple(seat_events, (game, seat, start, sent[seat], public))
            reply = clients[seat].decide(batch, legal, decision)
        elif compact[seat]:   # (and the led suit and the trump: public, and all most bots read)
            reply = clients[seat].decide(new_events(seat), legal, decision,  # type: ignore[call-arg]
                                         (state.led, state.trump))   # (a compact client takes the table)
        else:
            reply = clients[seat].decide(new_events(seat), legal, decision)
        log, cpu_ms = logs[seat], reply.cpu * 1000
        log.cpu_ms.append(cpu_ms)
        log.wall_ms.append(reply.wall * 1000)
        value = reply.value
        if decision == "play":
            log.play_cpu_ms.append(cpu_ms)
            if type(value) is Card and reply.status is _OK and value in legal:   # check_reply's common case
                game.apply(value)
                continue
        status, action, detail = check_reply(reply, legal, decision)
        if status is _OK:
            game.apply(action)
        else:
            log.faults.append({"kind": str(status), "detail": detail, "event": len(game.events)})
            game.apply_fault(str(status))
    for seat, client in enumerate(clients):
        client.finish(new_events(seat), game.result)  # type: ignore[arg-type]  # the game is over
    record = game.to_record(
        names=names,
        faults=[log.faults for log in logs],
        timings=[log.summary(decision_times) for log in logs],
        bot_seeds=list(bot_seeds),
        **extra,
    )
    output = [getattr(c, "game_log", str)() for c in clients]
    if any(output):
        record["logs"] = output  # not part of the game: the store keeps it apart (arena logs)
    return record
