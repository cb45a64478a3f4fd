"""The checks of ``arena check-bot``: one function per row, over what the games showed.

Each takes what :func:`arena.plugins.checkbot.check_bot` saw (a :class:`Run`
per pass over its cases, the :class:`Decision` list of the bot's seat) and
returns a :class:`CheckRow`; :class:`CheckReport` holds the rows.
"""

from __future__ import annotations

import shlex
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from tabulate import tabulate

from arena.bots.safetext import printable
from arena.game.cards import SUIT_SYMBOLS, card
from arena.game.status import FAULT_KINDS, Status
from arena.sandbox.limits_spec import LimitsSpec

OPPONENTS = ("heuristic", "random", "low", "high")
"""The built-in players a check seats around the bot."""
CHECKS = ("loads", "legal answers", "time", "memory", "takes (bhabho)", "trumps (donkey)", "deterministic")
_ANSWER_FAULTS = tuple(k for k in FAULT_KINDS if k != Status.TIMEOUT)

# ---------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class CheckRow:
    """One check: ``ok`` True (passed), False (failed) or None (not run or not measurable)."""

    check: str
    ok: bool | None
    detail: str
    case: Case | None = None
    """The game that shows a failure (the first one), which ``arena play`` replays."""

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
    limits: LimitsSpec | None = None
    """The limits the games ran under (the replay commands carry the ones not at their defaults)."""

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

    def table(self, fmt: str = "simple", width: int = 100, grid=None, fold=None) -> str:
        """The rows as a tabulate table (or laid out by ``grid(headers, rows)``), with a heading line,
        the notes and the commands that replay the failures; ``fold(text)`` lays out the heading, the
        notes and the verdict (the CLI wraps them at words to the terminal), never a command.

        A detail quotes the bot (its exception, its answer): its control characters go first."""
        rows = [[r.check, r.status, printable(r.detail)] for r in self.rows]
        headers = ["check", "result", "detail"]
        body = (grid(headers, rows) if grid is not None
                else tabulate(rows, headers=headers, tablefmt=fmt, maxcolwidths=[None, None, width]))
        where = "in its sandbox" if self.sandboxed else "in-process"
        head = f"check-bot {self.player}: {self.games} games {where}"
        verdict = "all checks passed" if self.ok else f"{len(self.failures())} check(s) failed"
        fold = fold or (lambda text: text)
        return "\n".join([fold(head), *map(fold, self.notes), "", body, "", *self.replays(), fold(verdict)])

    def replays(self) -> list[str]:
        """For each failed check with a game to show, the command that plays that game again."""
        return [f"replay ({r.check}): {r.case.command(self.player, self.sandboxed, self.limits)}"
                for r in self.failures() if r.case is not None]


# ---------------------------------------------------------------- what the games showed


@dataclass(frozen=True, slots=True)
class Case:
    """One seeded game of the check: the bot sits at ``seat``."""

    preset: str
    players: int
    seat: int
    seed: int

    def label(self) -> str:
        return f"{self.preset}, {self.players} players, seat {self.seat}, seed {self.seed}"

    def seat_names(self, bot: str) -> list[str]:
        """Who sits where: ``bot`` at :attr:`seat`, built-in :data:`OPPONENTS` (chosen by the seed) elsewhere."""
        return [bot if s == self.seat else OPPONENTS[(s + self.seed) % len(OPPONENTS)] for s in range(self.players)]

    def command(self, bot: str, sandboxed: bool = True, limits: LimitsSpec | None = None) -> str:
        """The ``arena play`` command that plays this game again (same seats, seed and dealer, under
        the same key (open among built-in players, else the per-user secret) and the same limits: a flag
        for each limit not at its default)."""
        where = "" if sandboxed else " --in-process"
        seats = shlex.quote(",".join(self.seat_names(bot)))     # quoted when a name has options: sampler(worlds=4)
        flags = "".join(f" --{f.name.replace('_', '-')} {getattr(limits, f.name)}" for f in fields(LimitsSpec)
                        if limits is not None and getattr(limits, f.name) != f.default)
        return f"arena play --rules {self.preset} --seats {seats} --seed {self.seed}{where}{flags}"


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
class Run:
    """What one pass over a list of cases saw: each case's record, the games that failed to play."""

    records: list[tuple[Any, dict]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    watch: Any = None
    """The watching client (checkbot's): its ``decisions``, ``begins``, ``ready_ms``, ``peak_mb``."""
    confinement: dict | None = None


# ---------------------------------------------------------------- the checks


def loads(spec, run: Run, limits: LimitsSpec, sandboxed: bool) -> CheckRow:
    where = f"plugin {spec.plugin or '?'} version {spec.version or '?'}"
    source = getattr(spec, "source", None)
    if source is not None and source.file:  # a bot in one file: no plugin, no version of its own
        where = f"class {source.entry_point.partition(':')[2]} of the file {spec.plugin}"
    if source is not None and source.program:  # a program bot (docs/protocol.md): its command and its hello
        hello = getattr(run.watch.inner, "hello", None)
        said = f"; said hello as {hello['name'] or '?'} version {hello['version'] or '?'}, protocol 1" if hello else ""
        where = f"program {shlex.join(source.program)[:120]}{said}"
    begins = run.watch.begins
    if not begins:
        return CheckRow("loads", False, f"{where}; no game could start: {'; '.join(run.errors)[:300]}")
    reply = begins[0][1]
    if not reply.ok:
        return CheckRow("loads", False, f"{where}; it did not start: {reply.status}: {reply.detail}", begins[0][0])
    late = [b for b in begins if not b[1].ok]
    if late:
        case, r = late[0]
        return CheckRow("loads", False, f"{where}; a new game failed to start ({case.label()}): "
                        f"{r.status}: {r.detail}", case)
    ready_ms = run.watch.ready_ms
    ready = f"; started and ready for its first game in {ready_ms:.0f} ms" if ready_ms is not None else ""
    limit = f" (start-up limit {limits.startup_ms} ms)" if limits.startup_ms and sandboxed else ""
    return CheckRow("loads", True, f"{where}{ready}{limit}")


def legal(run: Run, decisions: list[Decision]) -> CheckRow:
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
                    f"decision {first.number}: {first.status}: {first.detail}", first.case)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def timing(decisions: list[Decision], limits: LimitsSpec) -> CheckRow:
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
                        f"{t.detail}. {text}", t.case)
    if limit and worst.cpu_ms > limit:
        return CheckRow("time", False, f"worst decision over the limit ({worst.case.label()}, decision "
                        f"{worst.number}). {text}", worst.case)
    return CheckRow("time", True, text)


def memory(run: Run, decisions: list[Decision], limits: LimitsSpec, sandboxed: bool) -> CheckRow:
    hit = [d for d in decisions if d.status == Status.CRASH and "memory" in d.detail.lower()]
    limit = f"limit {limits.memory_mb} MiB" if limits.memory_mb else "no limit set"
    if hit:
        return CheckRow("memory", False, f"ran out of memory ({limit}): {hit[0].case.label()}: {hit[0].detail}",
                        hit[0].case)
    peak = run.watch.peak_mb
    if peak is None:
        why = "in-process: the harness's memory is shared" if not sandboxed else "the bot process was not visible"
        return CheckRow("memory", None, f"not measured ({why})")
    text = f"peak {peak:.0f} MiB resident ({limit})"
    if limits.memory_mb and peak > limits.memory_mb:
        return CheckRow("memory", False, text)
    return CheckRow("memory", True, text)


def takes(decisions: list[Decision], presets: Sequence[str]) -> CheckRow:
    if "bhabho" not in presets:
        return CheckRow("takes (bhabho)", None, "not run: bhabho is not among the presets checked")
    mine = [d for d in decisions if d.case.preset == "bhabho"]
    takes = [d for d in mine if d.decision == "take"]
    bad = [d for d in mine if d.status != Status.OK]
    if bad:
        b = bad[0]
        what = "take decision" if b.decision == "take" else "play"
        return CheckRow("takes (bhabho)", False, f"{len(bad)} fault(s) in bhabho games; first: {b.case.label()}, "
                        f"a {what}: {b.status}: {b.detail}", b.case)
    if not takes:
        return CheckRow("takes (bhabho)", None, "never asked to take in these games")
    took = sum(d.took for d in takes)
    return CheckRow("takes (bhabho)", True, f"answered {len(takes)} take decisions with True or False "
                    f"(took {took} times); {len(mine) - len(takes)} plays, all legal")


def trumps(decisions: list[Decision], presets: Sequence[str]) -> CheckRow:
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
                        f"decision {b.number} ({trump}{rule}): {b.status}: {b.detail}", b.case)
    if not after:
        return CheckRow("trumps (donkey)", None, "trumps were never fixed before its turn in these games")
    return CheckRow("trumps (donkey)", True, f"{len(after)} decisions after trumps were fixed, {len(must)} of "
                    f"them had to play a trump: all legal")


def same(first: Run, second: Run) -> CheckRow:
    if first.errors or second.errors or len(first.records) != len(second.records):
        return CheckRow("deterministic", None, "not compared: the games could not all be played")
    for (case, a), (_, b) in zip(first.records, second.records):
        diff = _first_difference(a, b)
        if diff and any(d.status == Status.TIMEOUT for d in first.watch.decisions + second.watch.decisions):
            return CheckRow("deterministic", None, f"not judged: {case.label()}: {diff}, but there were "
                            f"timeouts, whose forced moves differ with the machine's load; fix those first")
        if diff:
            return CheckRow("deterministic", False, f"{case.label()}: {diff}. Take every random choice "
                            f"from self.rng (seeded); never from the time, the global random module or set order",
                            case)
    games, presets = len(first.records), len({case.preset for case, _ in first.records})
    each = "one" if games == presets else f"{games // presets}"
    what = f"{games} games ({each} per preset)" if games != 1 else "1 game"
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
