"""``arena check-bot``: is a bot sound before it enters a tournament?

:func:`check_bot` plays the bot through seeded games at every table size of
every preset, in its sandbox exactly as a tournament runs it (opponents are
built-in players, in-process), and answers, one row per check: does it load;
does it answer every decision legally; within the time limits (median and
worst decision time); within memory; does it handle takes in ``bhabho`` and
trumps in ``donkey``; does it play the same moves given the same seeds (a
short sequence of games played twice, each time in a fresh process, records
compared). Returns a :class:`CheckReport`; the CLI prints its table and exits
non-zero when ``report.ok`` is False.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tabulate import tabulate

from arena.game.cards import SUIT_SYMBOLS, card
from arena.sandbox.limits_spec import LimitsSpec
from arena.game.errors import ArenaError
from arena.plugins.errors import CheckError
from arena.bots.referee import InProcessClient, check_reply
from arena.bots.reply import Reply
from arena.game.rules import PRESETS, Presets
from arena.plugins.registry import load
from arena.plugins.runner import make_client, play_seeded
from arena.game.seeds import Secret, check_case_seed, check_repeat_seed, user_secret
from arena.bots.safetext import printable
from arena.game.status import FAULT_KINDS, Status
from arena.game.views import SeatTracker

OPPONENTS = ("heuristic", "random", "low", "high")
CHECKS = ("loads", "legal answers", "time", "memory", "takes (bhabho)", "trumps (donkey)", "deterministic")
_ANSWER_FAULTS = tuple(k for k in FAULT_KINDS if k != Status.TIMEOUT)



# ---------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class CheckRow:
    """One check: ``ok`` True (passed), False (failed) or None (not run or not measurable)."""

    check: str
    ok: bool | None
    detail: str

    @property
    def status(self) -> str:
        return "ok" if self.ok else "FAIL" if self.ok is False else "-"


@dataclass(frozen=True, slots=True)
class CheckReport:
    """Every check's row for one player, and how the games were run."""

    player: str
    rows: tuple[CheckRow, ...]
    games: int = 0
    sandboxed: bool = False
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when no check failed (a check that could not run does not fail)."""
        return all(r.ok is not False for r in self.rows)

    def row(self, check: str) -> CheckRow:
        for r in self.rows:
            if r.check == check:
                return r
        raise KeyError(check)

    def failures(self) -> list[CheckRow]:
        return [r for r in self.rows if r.ok is False]

    def to_dicts(self) -> list[dict]:
        return [{"check": r.check, "status": r.status, "detail": r.detail} for r in self.rows]

    def table(self, fmt: str = "simple", width: int = 100) -> str:
        """The rows as a tabulate table, with a heading line and the notes.

        A detail quotes the bot (its exception, its answer): its control characters go first."""
        body = tabulate([[r.check, r.status, printable(r.detail)] for r in self.rows],
                        headers=["check", "result", "detail"],
                        tablefmt=fmt, maxcolwidths=[None, None, width])
        where = "in its sandbox" if self.sandboxed else "in-process"
        head = f"check-bot {self.player}: {self.games} games {where}"
        verdict = "all checks passed" if self.ok else f"{len(self.failures())} check(s) failed"
        return "\n".join([head, *self.notes, "", body, "", verdict])


# ---------------------------------------------------------------- the plan


@dataclass(frozen=True, slots=True)
class Case:
    """One seeded game of the check: the bot sits at ``seat``."""

    preset: str
    players: int
    seat: int
    seed: int

    def label(self) -> str:
        return f"{self.preset}, {self.players} players, seat {self.seat}, seed {self.seed}"


def plan(presets: Sequence[str], games: int, seed: int, sizes: Sequence[int] | None = None,
         table: Presets = PRESETS) -> list[Case]:
    """``games`` seeded games at every table size (of ``sizes``) of every preset (named in ``table``);
    the bot's seat rotates."""
    cases = []
    for preset in presets:
        for n in _sizes(table[preset], sizes):
            for g in range(games):
                cases.append(Case(preset, n, (g * 3 + n) % n, check_case_seed(seed, preset, n, g)))
    return cases


def repeat_plan(presets: Sequence[str], seed: int, sizes: Sequence[int] | None = None,
                table: Presets = PRESETS) -> list[Case]:
    """One game per preset, at 4 players where allowed, for the same-seed check."""
    cases = []
    for i, preset in enumerate(presets):
        allowed = _sizes(table[preset], sizes)
        if allowed:
            n = min(allowed, key=lambda k: (abs(k - 4), k))
            cases.append(Case(preset, n, i % n, check_repeat_seed(seed, preset)))
    return cases


def _sizes(rules, sizes: Sequence[int] | None) -> list[int]:
    lo, hi = rules.seat_range
    return [n for n in range(lo, hi + 1) if sizes is None or n in sizes]


# ---------------------------------------------------------------- watching the bot


@dataclass(slots=True)
class Decision:
    """One decision the bot was asked, and how it went."""

    case: Case
    number: int
    decision: str
    status: Status
    cpu_ms: float
    wall_ms: float
    detail: str
    trump: int | None
    must_trump: bool
    took: bool = False


@dataclass(slots=True)
class _Watch:
    """A client wrapper that logs every decision of the bot's seat."""

    inner: object
    created: float = 0.0
    decisions: list[Decision] = field(default_factory=list)
    begins: list[tuple[Case, Reply]] = field(default_factory=list)
    case: Case | None = None
    tracker: SeatTracker | None = None
    count: int = 0
    ready_ms: float | None = None
    peak_mb: float | None = None

    @property
    def name(self) -> str:
        return self.inner.name

    def begin(self, seat, players, rules, seed, events, deal=None) -> Reply:
        self.tracker = SeatTracker(seat, players, rules)
        self.tracker.feed_many(events)
        self.count = 0
        reply = self.inner.begin(seat, players, rules, seed, events, deal=deal)
        if self.ready_ms is None:
            self.ready_ms = (time.perf_counter() - self.created) * 1000
        self.begins.append((self.case, reply))
        self.sample_memory()
        return reply

    def sample_memory(self) -> None:
        peak = _peak_rss_mb(self.inner)
        if peak is not None:
            self.peak_mb = max(self.peak_mb or 0.0, peak)

    def decide(self, events, legal, decision) -> Reply:
        self.tracker.feed_many(events)
        view = self.tracker.view(legal, decision, None)
        reply = self.inner.decide(events, legal, decision)
        status, action, detail = check_reply(reply, legal, decision)
        must_trump = (decision == "play" and view.trump is not None and view.led_suit is not None
                      and view.led_suit != view.trump and bool(legal)
                      and all(c.suit == view.trump for c in legal))
        self.count += 1
        self.decisions.append(Decision(self.case, self.count, decision, status, reply.cpu * 1000,
                                       reply.wall * 1000, detail, view.trump, must_trump, action is True))
        self.sample_memory()
        return reply

    def finish(self, events, result) -> None:
        self.inner.finish(events, result)

    def close(self) -> None:
        self.inner.close()


def _peak_rss_mb(client) -> float | None:
    """The bot process's peak resident memory (VmHWM), if it runs in a process we can see."""
    pid = getattr(client, "pid", None)
    if not pid:
        return None
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


# ---------------------------------------------------------------- playing


@dataclass(slots=True)
class _Run:
    """What one pass over a list of cases saw."""

    records: list[tuple[Case, dict]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    watch: _Watch | None = None
    confinement: dict | None = None


def _play(spec, registry, cases: Sequence[Case], sandbox: bool, limits: LimitsSpec, secret: Secret,
          progress: Callable[[int], None] | None = None) -> _Run:
    run = _Run()
    created = time.perf_counter()
    watch = run.watch = _Watch(make_client(spec, sandbox, limits), created)
    try:
        for i, case in enumerate(cases):
            watch.case = case
            seats = _seating(registry, spec.name, case, watch)
            names = [c.name for c in seats]
            try:
                record = play_seeded(registry.presets[case.preset], seats, case.seed, secret, 0, names)
            except Exception as exc:  # a harness or opponent failure, not the bot's: report it plainly
                run.errors.append(f"{case.label()}: the game could not be played: {type(exc).__name__}: {exc}")
                continue
            run.records.append((case, record))
            if progress is not None:
                progress(1)
            if i == 0 and watch.begins and not watch.begins[0][1].ok:
                break  # it never started: every other game would only repeat that
    finally:
        run.confinement = getattr(watch.inner, "confinement", None)
        watch.close()
    return run


def _seating(registry, name: str, case: Case, bot) -> list:
    """The bot at its seat, built-in opponents (in-process) elsewhere."""
    seats = []
    for s in range(case.players):
        if s == case.seat:
            seats.append(bot)
        else:
            seats.append(InProcessClient(registry.get(OPPONENTS[(s + case.seed) % len(OPPONENTS)])))
    return seats


# ---------------------------------------------------------------- the checks


def _loads(spec, run: _Run, limits: LimitsSpec, sandboxed: bool) -> CheckRow:
    where = f"plugin {spec.plugin or '?'} version {spec.version or '?'}"
    begins = run.watch.begins
    if not begins:
        return CheckRow("loads", False, f"{where}; no game could start: {'; '.join(run.errors)[:300]}")
    reply = begins[0][1]
    if not reply.ok:
        return CheckRow("loads", False, f"{where}; it did not start: {reply.status}: {reply.detail}")
    late = [b for b in begins if not b[1].ok]
    if late:
        case, r = late[0]
        return CheckRow("loads", False, f"{where}; a new game failed to start ({case.label()}): "
                        f"{r.status}: {r.detail}")
    ready_ms = run.watch.ready_ms
    ready = f"; started and ready for its first game in {ready_ms:.0f} ms" if ready_ms is not None else ""
    limit = f" (start-up limit {limits.startup_ms} ms)" if limits.startup_ms and sandboxed else ""
    return CheckRow("loads", True, f"{where}{ready}{limit}")


def _legal(run: _Run, decisions: list[Decision]) -> CheckRow:
    bad = [d for d in decisions if d.status in _ANSWER_FAULTS]
    presets = {c.preset for c, _ in run.records}
    sizes = sorted({c.players for c, _ in run.records})
    if run.errors:
        return CheckRow("legal answers", False, run.errors[0])
    if not bad:
        span = f"{sizes[0]}-{sizes[-1]}" if len(sizes) > 1 else str(sizes[0]) if sizes else "none"
        return CheckRow("legal answers", True, f"{_count(len(decisions), 'decision')} in "
                        f"{_count(len(run.records), 'game')} over {_count(len(presets), 'preset')}, table sizes "
                        f"{span}: all legal")
    counts = ", ".join(f"{k}: {sum(d.status == k for d in bad)}" for k in _ANSWER_FAULTS
                       if any(d.status == k for d in bad))
    first = bad[0]
    return CheckRow("legal answers", False, f"{counts} (of {len(decisions)} decisions); first: {first.case.label()}, "
                    f"decision {first.number}: {first.status}: {first.detail}")


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _time(decisions: list[Decision], limits: LimitsSpec) -> CheckRow:
    if not decisions:
        return CheckRow("time", None, "no decisions were made")
    cpu = [d.cpu_ms for d in decisions]
    wall = [d.wall_ms for d in decisions]
    worst = max(decisions, key=lambda d: d.cpu_ms)
    timeouts = [d for d in decisions if d.status == Status.TIMEOUT]
    limit = limits.decision_ms
    text = (f"CPU per decision: median {statistics.median(cpu):.2f} ms, worst {worst.cpu_ms:.2f} ms "
            f"(limit {limit} ms); wall: median {statistics.median(wall):.2f} ms, worst {max(wall):.2f} ms")
    if timeouts:
        t = timeouts[0]
        return CheckRow("time", False, f"{len(timeouts)} timeout(s); first: {t.case.label()}, decision {t.number}: "
                        f"{t.detail}. {text}")
    if limit and worst.cpu_ms > limit:
        return CheckRow("time", False, f"worst decision over the limit ({worst.case.label()}, decision "
                        f"{worst.number}). {text}")
    return CheckRow("time", True, text)


def _memory(run: _Run, decisions: list[Decision], limits: LimitsSpec, sandboxed: bool) -> CheckRow:
    hit = [d for d in decisions if d.status == Status.CRASH and "memory" in d.detail.lower()]
    limit = f"limit {limits.memory_mb} MiB" if limits.memory_mb else "no limit set"
    if hit:
        return CheckRow("memory", False, f"ran out of memory ({limit}): {hit[0].case.label()}: {hit[0].detail}")
    peak = run.watch.peak_mb
    if peak is None:
        why = "in-process: the harness's memory is shared" if not sandboxed else "the bot process was not visible"
        return CheckRow("memory", None, f"not measured ({why})")
    text = f"peak {peak:.0f} MiB resident ({limit})"
    if limits.memory_mb and peak > limits.memory_mb:
        return CheckRow("memory", False, text)
    return CheckRow("memory", True, text)


def _takes(decisions: list[Decision], presets: Sequence[str]) -> CheckRow:
    if "bhabho" not in presets:
        return CheckRow("takes (bhabho)", None, "not run: bhabho is not among the presets checked")
    mine = [d for d in decisions if d.case.preset == "bhabho"]
    takes = [d for d in mine if d.decision == "take"]
    bad = [d for d in mine if d.status != Status.OK]
    if bad:
        b = bad[0]
        what = "take decision" if b.decision == "take" else "play"
        return CheckRow("takes (bhabho)", False, f"{len(bad)} fault(s) in bhabho games; first: {b.case.label()}, "
                        f"a {what}: {b.status}: {b.detail}")
    if not takes:
        return CheckRow("takes (bhabho)", None, "never asked to take in these games")
    took = sum(d.took for d in takes)
    return CheckRow("takes (bhabho)", True, f"answered {len(takes)} take decisions with True or False "
                    f"(took {took} times); {len(mine) - len(takes)} plays, all legal")


def _trumps(decisions: list[Decision], presets: Sequence[str]) -> CheckRow:
    if "donkey" not in presets:
        return CheckRow("trumps (donkey)", None, "not run: donkey is not among the presets checked")
    mine = [d for d in decisions if d.case.preset == "donkey"]
    after = [d for d in mine if d.trump is not None]
    must = [d for d in mine if d.must_trump]
    bad = [d for d in mine if d.status != Status.OK]
    if bad:
        b = bad[0]
        trump = f"trumps were {SUIT_SYMBOLS[b.trump]}" if b.trump is not None else "no trump suit was fixed yet"
        rule = "; it could not follow suit and holds trumps, so it must play one" if b.must_trump else ""
        return CheckRow("trumps (donkey)", False, f"{len(bad)} fault(s) in donkey games; first: {b.case.label()}, "
                        f"decision {b.number} ({trump}{rule}): {b.status}: {b.detail}")
    if not after:
        return CheckRow("trumps (donkey)", None, "trumps were never fixed before its turn in these games")
    return CheckRow("trumps (donkey)", True, f"{len(after)} decisions after trumps were fixed, {len(must)} of "
                    f"them had to play a trump: all legal")


def _same(first: _Run, second: _Run) -> CheckRow:
    if first.errors or second.errors or len(first.records) != len(second.records):
        return CheckRow("deterministic", None, "not compared: the games could not all be played")
    for (case, a), (_, b) in zip(first.records, second.records):
        diff = _first_difference(a, b)
        if diff and any(d.status == Status.TIMEOUT for d in first.watch.decisions + second.watch.decisions):
            return CheckRow("deterministic", None, f"not judged: {case.label()}: {diff}, but there were "
                            f"timeouts, whose forced moves differ with the machine's load; fix those first")
        if diff:
            return CheckRow("deterministic", False, f"{case.label()}: {diff}. Take every random choice "
                            f"from self.rng (seeded); never from the time, the global random module or set order")
    games = len(first.records)
    what = f"{games} games (one per preset)" if games != 1 else "1 game"
    return CheckRow("deterministic", True, f"{what} played twice from the same seeds, each time in a fresh "
                    f"process: the same moves")


def _first_difference(a: dict, b: dict) -> str | None:
    ea, eb = a["events"], b["events"]
    for i, (x, y) in enumerate(zip(ea, eb)):
        if x != y:
            return f"event {i} differs: first run {_event_text(x)}, second run {_event_text(y)}"
    if len(ea) != len(eb):
        return f"the first run has {len(ea)} events, the second {len(eb)}"
    if a["result"] != b["result"]:
        return "the results differ"
    return None


def _event_text(e: dict) -> str:
    if e.get("type") == "play":
        return f"seat {e['seat']} played {card(e['card']).pretty}"
    if e.get("type") == "take":
        return f"seat {e['seat']} {'took' if e['take'] else 'did not take'}"
    return str(e)[:120]


# ---------------------------------------------------------------- entry point


def check_bot(name: str, *, registry=None, games: int = 2, seed: int = 1, presets: Sequence[str] | None = None,
              table_sizes: Sequence[int] | None = None, limits: LimitsSpec | None = None,
              sandbox: bool | None = True, progress: Callable[[int], None] | None = None,
              secret: Secret | None = None) -> CheckReport:
    """Run every check on the player ``name``; the report's ``ok`` is False when any failed.

    ``games`` seeded games per table size and preset (default: every preset,
    each at every table size it allows; ``table_sizes`` narrows that);
    ``limits`` as in a tournament (default: a tournament's defaults);
    ``sandbox`` True runs the bot in its sandbox (as a tournament runs every
    bot but the built-ins), False in-process, None as a tournament would.
    ``progress(n)`` is called as games finish; :func:`planned_games` says how
    many there will be. Each case is the game ``arena play --seed SEED`` plays
    with the same seats and ``secret`` (default: the per-user secret), so a
    failing case replays with that command. Raises :class:`CheckError` for
    settings that select no game; a bot's failures are rows, never exceptions.
    """
    if registry is None:
        registry = load()
    cases, repeat = _plans(presets, games, seed, table_sizes, registry.presets)
    limits = limits or LimitsSpec()
    try:
        spec = registry.get(name)
    except ArenaError as exc:
        return CheckReport(name, (CheckRow("loads", False, str(exc)),
                                  *(CheckRow(c, None, "not run: the player did not load") for c in CHECKS[1:])),
                           sandboxed=bool(sandbox))
    if sandbox is None:
        sandbox = not spec.trusted
    chosen = sorted({c.preset for c in cases}, key=list(registry.presets).index)
    secret = secret or user_secret()
    main = _play(spec, registry, cases, sandbox, limits, secret, progress)
    notes = _notes(main, sandbox)
    loads = _loads(spec, main, limits, sandbox)
    if not loads.ok:
        return CheckReport(name, (loads, *(CheckRow(c, None, "not run: the bot did not start")
                                           for c in CHECKS[1:])), len(main.records), sandbox, notes)
    first = _play(spec, registry, repeat, sandbox, limits, secret, progress)
    second = _play(spec, registry, repeat, sandbox, limits, secret, progress)
    decisions = main.watch.decisions
    rows = (loads, _legal(main, decisions), _time(decisions, limits), _memory(main, decisions, limits, sandbox),
            _takes(decisions, chosen), _trumps(decisions, chosen), _same(first, second))
    return CheckReport(name, rows, len(main.records) + len(first.records) + len(second.records), sandbox, notes)


def planned_games(games: int = 2, presets: Sequence[str] | None = None,
                  table_sizes: Sequence[int] | None = None, table: Presets = PRESETS) -> int:
    """How many games :func:`check_bot` plays with these settings (for a progress bar)."""
    cases, repeat = _plans(presets, games, 0, table_sizes, table)
    return len(cases) + 2 * len(repeat)


def _plans(presets, games: int, seed: int, sizes, table: Presets) -> tuple[list[Case], list[Case]]:
    if presets is None:
        presets = list(table)
    unknown = [p for p in presets if p not in table]
    if unknown or not presets:
        raise CheckError(f"presets must be among {', '.join(table)} (got {', '.join(unknown) or 'none'})")
    if games < 1:
        raise CheckError(f"games per table size must be 1 or more (got {games})")
    cases = plan(presets, games, seed, sizes, table)
    if not cases:
        raise CheckError(f"table sizes {', '.join(map(str, sizes or ()))} fit none of the presets "
                         f"{', '.join(presets)} (see arena variants)")
    return cases, repeat_plan(presets, seed, sizes, table)


def _notes(run: _Run, sandboxed: bool) -> tuple[str, ...]:
    if not sandboxed:
        return ("note: run in-process, not sandboxed: memory is not measured and times are the bot's own",)
    steps = (run.confinement or {}).get("steps") or []
    applied = [s["name"] for s in steps if s.get("status") == "applied"]
    missing = [s["name"] for s in steps if s.get("status") not in ("applied", "skipped")]
    if not steps:
        return ()
    text = f"sandbox layers applied: {', '.join(applied)}"
    return (text + (f"; not available: {', '.join(missing)}" if missing else ""),)
