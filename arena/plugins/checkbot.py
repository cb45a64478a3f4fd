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

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from arena.bots.referee import Client, InProcessClient, check_reply
from arena.bots.reply import Reply
from arena.game.errors import ArenaError
from arena.game.rules import PRESETS, Presets
from arena.game.seeds import Secret, check_case_seed, check_repeat_seed
from arena.game.knowledge import SeatKnowledge
from arena.plugins import checks
from arena.plugins.checks import CHECKS, Case, CheckReport, CheckRow, Decision, Run
from arena.plugins.errors import CheckError
from arena.plugins.registry import load
from arena.plugins.runner import make_client, play_seeded, standalone_secret
from arena.sandbox.limits_spec import LimitsSpec


# ---------------------------------------------------------------- the plan



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
                table: Presets = PRESETS, games: int = 1) -> list[Case]:
    """``games`` games per preset (one by default), at 4 players where allowed, for the same-seed check."""
    cases = []
    for g in range(games):
        for i, preset in enumerate(presets):
            allowed = _sizes(table[preset], sizes)
            if allowed:
                n = min(allowed, key=lambda k: (abs(k - 4), k))
                cases.append(Case(preset, n, (i + g) % n, check_repeat_seed(seed, preset, g)))
    return cases


def _sizes(rules, sizes: Sequence[int] | None) -> list[int]:
    lo, hi = rules.seat_range
    return [n for n in range(lo, hi + 1) if sizes is None or n in sizes]

# ---------------------------------------------------------------- watching the bot

@dataclass(slots=True)
class _Watch:
    """A client wrapper that logs every decision of the bot's seat."""

    inner: Client
    created: float = 0.0
    decisions: list[Decision] = field(default_factory=list)
    begins: list[tuple[Case, Reply]] = field(default_factory=list)
    case: Case = field(init=False)  # the game being played: set before each
    knowledge: SeatKnowledge = field(init=False)  # the seat's, made at each begin
    count: int = 0
    ready_ms: float | None = None
    peak_mb: float | None = None

    @property
    def name(self) -> str:
        return self.inner.name

    def begin(self, seat, players, rules, seed, events, deal=None) -> Reply:
        self.knowledge = SeatKnowledge(seat, players, rules)
        self.knowledge.feed_many(events)
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
        self.knowledge.feed_many(events)
        view = self.knowledge.view(legal, decision, None)
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

def _play(spec, registry, cases: Sequence[Case], sandbox: bool, limits: LimitsSpec, secret: Secret,
          progress: Callable[[int], None] | None = None) -> Run:
    run = Run()
    created = time.perf_counter()
    watch = run.watch = _Watch(make_client(spec, sandbox, limits), created)
    try:
        for i, case in enumerate(cases):
            watch.case = case
            seats = _seating(registry, spec.name, case, watch)
            names = [c.name for c in seats]
            try:
                record = play_seeded(registry.presets[case.preset], seats, case.seed, secret, 0, names)
            except Exception as exc:  # noqa: BLE001 - a harness or opponent failure, not the bot's: report it plainly
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
    """The bot at its seat, built-in opponents (in-process) elsewhere (:meth:`Case.seat_names`)."""
    return [bot if s == case.seat else InProcessClient(registry.get(n)) for s, n in enumerate(case.seat_names(name))]

# ---------------------------------------------------------------- entry point


def check_bot(name: str, *, registry=None, games: int = 2, seed: int = 1, presets: Sequence[str] | None = None,
              table_sizes: Sequence[int] | None = None, limits: LimitsSpec | None = None,
              sandbox: bool | None = True, progress: Callable[[int], None] | None = None,
              secret: Secret | None = None, repeat: int = 1) -> CheckReport:
    """Run every check on the player ``name``; the report's ``ok`` is False when any failed.

    ``games`` seeded games per table size and preset (default: every preset,
    each at every table size it allows; ``table_sizes`` narrows that);
    ``limits`` as in a tournament (default: a tournament's defaults);
    ``sandbox`` True runs the bot in its sandbox (as a tournament runs every
    bot but the built-ins), False in-process, None as a tournament would.
    ``repeat`` games per preset are played twice for the determinism check (more
    catch a bot whose moves depend on the clock only now and then).
    ``progress(n)`` is called as games finish; :func:`planned_games` says how
    many there will be. Each case is the game ``arena play --seed SEED`` plays
    with the same seats and ``secret`` (default: the per-user secret), so a
    failing case replays with that command. Raises :class:`CheckError` for
    settings that select no game; a bot's failures are rows, never exceptions.
    """
    if registry is None:
        registry = load()
    cases, twice = _plans(presets, games, seed, table_sizes, registry.presets, repeat)
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
    secret = secret or standalone_secret([spec])  # the key `arena play` gives the same seats: a case replays
    main = _play(spec, registry, cases, sandbox, limits, secret, progress)
    notes = _notes(main, sandbox)
    loads = checks.loads(spec, main, limits, sandbox)
    if not loads.ok:
        return CheckReport(name, (loads, *(CheckRow(c, None, "not run: the bot did not start")
                                           for c in CHECKS[1:])), len(main.records), sandbox, notes, limits)
    first = _play(spec, registry, twice, sandbox, limits, secret, progress)
    second = _play(spec, registry, twice, sandbox, limits, secret, progress)
    decisions = main.watch.decisions
    rows = (loads, checks.legal(main, decisions), checks.timing(decisions, limits),
            checks.memory(main, decisions, limits, sandbox), checks.takes(decisions, chosen),
            checks.trumps(decisions, chosen), checks.same(first, second))
    return CheckReport(name, rows, len(main.records) + len(first.records) + len(second.records), sandbox, notes,
                       limits)


def planned_games(games: int = 2, presets: Sequence[str] | None = None,
                  table_sizes: Sequence[int] | None = None, table: Presets = PRESETS, repeat: int = 1) -> int:
    """How many games :func:`check_bot` plays with these settings (for a progress bar)."""
    cases, twice = _plans(presets, games, 0, table_sizes, table, repeat)
    return len(cases) + 2 * len(twice)


def _plans(presets, games: int, seed: int, sizes, table: Presets, repeat: int = 1) -> tuple[list[Case], list[Case]]:
    if presets is None:
        presets = list(table)
    unknown = [p for p in presets if p not in table]
    if unknown or not presets:
        raise CheckError(f"presets must be among {', '.join(table)} (got {', '.join(unknown) or 'none'})")
    if games < 1:
        raise CheckError(f"games per table size must be 1 or more (got {games})")
    if repeat < 1:
        raise CheckError(f"same-seed games per preset must be 1 or more (got {repeat})")
    cases = plan(presets, games, seed, sizes, table)
    if not cases:
        raise CheckError(f"table sizes {', '.join(map(str, sizes or ()))} fit none of the presets "
                         f"{', '.join(presets)} (see arena variants)")
    return cases, repeat_plan(presets, seed, sizes, table, repeat)


def _notes(run: Run, sandboxed: bool) -> tuple[str, ...]:
    if not sandboxed:
        return ("note: run in-process, not sandboxed: memory is not measured and times are the bot's own",)
    steps = (run.confinement or {}).get("steps") or []
    applied = [s["name"] for s in steps if s.get("status") == "applied"]
    missing = [s["name"] for s in steps if s.get("status") not in ("applied", "skipped")]
    if not steps:
        return ()
    text = f"sandbox layers applied: {', '.join(applied)}"
    return (text + (f"; not available: {', '.join(missing)}" if missing else ""),)
