"""Tournament specs: TOML files and CLI flags into one validated, frozen :class:`TournamentSpec`.

Every key is checked before anything runs; a problem is one line naming the
file, the key and the reason.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from arena.game.errors import ArenaError
from arena.game.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from arena.tournament import paired  # noqa: F401  (registers the "paired" format)
from arena.tournament.schedule import ScheduleError, make_format

FORMATS = ("round-robin", "gauntlet", "paired")
BACKENDS = ("local", "dask")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")
ALIAS_MARK = "#"
"""``random#2`` is a second, separately rated seat-holder playing as ``random`` (see :func:`base_player`)."""
_RESULT_NEUTRAL = ("jobs", "batch", "backend", "scheduler")
"""Spec keys that change how a tournament runs, never which games it plays or their results."""


class ConfigError(ArenaError, ValueError):
    """A tournament file or flag that cannot be used."""


@dataclass(frozen=True, slots=True)
class LimitsSpec:
    """Per-bot limits in a tournament (see docs/sandbox.md)."""

    decision_ms: int = 1000
    bank_ms: int = 0
    startup_ms: int = 10000
    memory_mb: int = 1024


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """Everything that defines a tournament; with its seed it fixes every game."""

    name: str
    players: tuple[str, ...]
    seed: int = 1
    rules: tuple[dict, ...] = ({"preset": "getaway"},)
    table_sizes: tuple[int, ...] = (4,)
    format: str = "round-robin"
    candidates: tuple[str, ...] = ()
    deals: int = 1
    budget: int | None = None
    house: tuple[str, ...] = ("random",)
    limits: LimitsSpec = field(default_factory=LimitsSpec)
    jobs: int = 0
    sandbox: str = "auto"
    batch: int = 8
    tau: float = 0.0
    draw_probability: float = 0.001
    backend: str = "local"
    scheduler: str | None = None
    source: str = field(default="tournament", compare=False, repr=False)
    """Where the spec came from (a file name, "command line"), for messages; not part of the spec."""

    def rules_objects(self) -> list[Rules]:
        return [rules_from(r) for r in self.rules]

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "source"}
        d["limits"] = {f.name: getattr(self.limits, f.name) for f in fields(LimitsSpec)}
        for key in ("players", "rules", "table_sizes", "candidates", "house"):
            d[key] = list(d[key])
        return d

    def results_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` without the keys that cannot change a game (jobs, batch, backend)."""
        return {k: v for k, v in self.to_dict().items() if k not in _RESULT_NEUTRAL}

    @property
    def workers(self) -> int:
        return self.jobs or _usable_cores()

    def schedule_format(self):
        """The :mod:`arena.tournament.schedule` format object that makes this tournament's games."""
        params = dict(table_sizes=self.table_sizes, rules=self.rules, seed=self.seed, deals=self.deals,
                      budget=self.budget, house=self.house)
        if self.format in ("gauntlet", "paired"):
            field_ = tuple(p for p in self.players if p not in self.candidates)
            return make_format(self.format, candidates=self.candidates, field=field_, **params)
        return make_format("round-robin", players=self.players, **params)


def _usable_cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def base_player(name: str) -> str:
    """The installed player a seat name plays as: ``random#2`` -> ``random``; ``random`` -> ``random``.

    An alias lets one bot hold more than one seat of a table as separately
    named (and separately rated) players, e.g. to fill 7-8 seat tables from a
    few built-in bots: ``house = ["random#2", "low#2"]``.
    """
    return name.split(ALIAS_MARK, 1)[0]


def rules_from(entry: dict) -> Rules:
    """A rule set from a ``{"preset": name, option: value, ...}`` table."""
    entry = dict(entry)
    preset = entry.pop("preset", "getaway")
    return Rules.preset(preset, **entry)


_TOP_KEYS = {f.name for f in fields(TournamentSpec) if f.name != "source"} | {"ratings", "fault_policy", "max_faults"}
_LIMIT_KEYS = {f.name for f in fields(LimitsSpec)}


def load_spec(path: str | Path, **overrides: Any) -> TournamentSpec:
    """Read and validate a tournament file; ``overrides`` (from CLI flags) win over the file."""
    path = Path(path)
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such tournament file") from None
    except IsADirectoryError:
        raise ConfigError(f"{where}: is a folder, expected a tournament file (TOML)") from None
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read the tournament file ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{where}: not a text file (UTF-8 expected; {exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML: {' '.join(str(exc).split())}") from None
    data.setdefault("name", path.stem)
    data.update({k: v for k, v in overrides.items() if v is not None})
    return spec_from_dict(data, where)


def spec_from_dict(data: dict[str, Any], where: str = "tournament") -> TournamentSpec:
    """Validate plain data (a parsed TOML file, or the spec stored with results)."""
    data = dict(data)
    for key in data:
        if key not in _TOP_KEYS:
            raise ConfigError(f"{where}: key {key!r}: unknown key (known: {', '.join(sorted(_TOP_KEYS))})")
    ratings = data.pop("ratings", {}) or {}
    if not isinstance(ratings, dict) or set(ratings) - {"tau", "draw_probability"}:
        raise ConfigError(f"{where}: key 'ratings': expected a table with tau and/or draw_probability")
    data.update(ratings)
    rules_only = _rules_only(data, where)
    _backend_table(data, where)
    spec = TournamentSpec(
        name=_name(data, where), players=_names(data, "players", where, required=True),
        seed=_int(data, "seed", where, 1, lo=0), rules=_rules(data, where, rules_only),
        table_sizes=_sizes(data, where), format=_choice(data, "format", FORMATS, where, "round-robin"),
        candidates=_names(data, "candidates", where), deals=_int(data, "deals", where, 1, lo=1),
        budget=_int(data, "budget", where, None, lo=1), house=_names(data, "house", where, default=("random",)),
        limits=_limits(data, where), jobs=_int(data, "jobs", where, 0, lo=0),
        sandbox=_sandbox(data, where), batch=_int(data, "batch", where, 8, lo=1),
        tau=_float(data, "tau", where, 0.0), draw_probability=_float(data, "draw_probability", where, 0.001),
        backend=_choice(data, "backend", BACKENDS, where, "local"), scheduler=_scheduler(data, where),
        source=where,
    )
    return _cross_check(spec, where)


def _rules_only(data, where) -> dict:
    """``fault_policy`` and ``max_faults`` at the top: checked under their own key, then put into every rule set."""
    out = {k: data.pop(k) for k in ("fault_policy", "max_faults") if k in data}
    for key, value in out.items():
        try:
            Rules(**{key: value})
        except ArenaError as exc:
            raise ConfigError(f"{where}: key {key!r}: {exc}") from None
    return out


def _backend_table(data, where) -> None:
    """``[backend]`` with ``kind`` and ``scheduler``, as an alternative to the two top-level keys."""
    backend = data.get("backend")
    if not isinstance(backend, dict):
        return
    unknown = set(backend) - {"kind", "scheduler"}
    if unknown:
        raise ConfigError(f"{where}: key 'backend.{sorted(unknown)[0]}': unknown key (known: kind, scheduler)")
    data["scheduler"] = backend.get("scheduler", data.get("scheduler"))
    data["backend"] = backend.get("kind", "dask" if data["scheduler"] else "local")


def _scheduler(data, where) -> str | None:
    value = data.get("scheduler")
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise ConfigError(f"{where}: key 'scheduler': expected an address such as tcp://HOST:8786 (got {value!r})")
    return value


def _cross_check(spec: TournamentSpec, where: str) -> TournamentSpec:
    for rules in spec.rules_objects():
        for size in spec.table_sizes:
            try:
                rules.check_players(size)
            except ArenaError as exc:
                raise ConfigError(f"{where}: key 'table_sizes': {exc}") from None
    if spec.format == "gauntlet" and not spec.candidates:
        raise ConfigError(f"{where}: key 'candidates': a gauntlet needs at least one candidate")
    if spec.format == "round-robin" and spec.candidates:
        raise ConfigError(f"{where}: key 'candidates': only a gauntlet (or the paired format) has candidates "
                          f"(format is {spec.format!r})")
    for key in ("players", "candidates", "house"):
        names = getattr(spec, key)
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ConfigError(f"{where}: key {key!r}: {twice[0]!r} is listed twice (a player holds one seat "
                              f"per table; use an alias such as {twice[0]}{ALIAS_MARK}2 for a second copy)")
    if not 0 < spec.draw_probability < 1:
        raise ConfigError(f"{where}: key 'draw_probability': must be between 0 and 1, not 0 (got {spec.draw_probability})")
    if spec.tau < 0:
        raise ConfigError(f"{where}: key 'tau': must be >= 0 (got {spec.tau})")
    if spec.backend == "dask" and not spec.scheduler:
        raise ConfigError(f"{where}: key 'backend': dask needs a scheduler address (tcp://HOST:PORT)")
    _check_schedule(spec, where)
    return spec


_SCHEDULE_KEYS = {"field": "players", "table_sizes": "table_sizes", "budget": "budget", "rules": "rules",
                  "players": "players", "candidates": "candidates", "house": "house", "deals": "deals"}


def _check_schedule(spec: TournamentSpec, where: str) -> None:
    """Build the format (cheap: no table is drawn yet) so a schedule that cannot exist is refused now."""
    try:
        spec.schedule_format()
    except ScheduleError as exc:
        text = str(exc).split(": ", 1)[-1]
        key = "house" if "house" in text else next(
            (k for p, k in _SCHEDULE_KEYS.items() if text.startswith(p)), "players")
        raise ConfigError(f"{where}: key {key!r}: {text}") from None


def _name(data, where) -> str:
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ConfigError(f"{where}: key 'name': expected letters, digits, '-', '_' or '.' (got {name!r})")
    return name


def _names(data, key, where, required=False, default=()) -> tuple[str, ...]:
    value = data.get(key, default)
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and _player_name(v) for v in value):
        raise ConfigError(f"{where}: key {key!r}: expected a list of player names (got {value!r})")
    if required and not value:
        raise ConfigError(f"{where}: key {key!r}: at least one player is needed")
    return tuple(value)


def _player_name(name: str) -> bool:
    """A name, or an alias ``name#tag`` (tag: letters, digits, '-', '_', '.')."""
    base, mark, tag = name.partition(ALIAS_MARK)
    return bool(base.strip()) and base == base.strip() and (not mark or bool(_NAME.match(tag)))


def _int(data, key, where, default, lo=None):
    value = data.get(key, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or (lo is not None and value < lo):
        raise ConfigError(f"{where}: key {key!r}: expected a whole number >= {lo} (got {value!r})")
    return value


def _float(data, key, where, default) -> float:
    value = data.get(key, default)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ConfigError(f"{where}: key {key!r}: expected a number (got {value!r})")
    return float(value)


def _choice(data, key, allowed, where, default) -> str:
    value = data.get(key, default)
    if value not in allowed:
        raise ConfigError(f"{where}: key {key!r}: expected one of {', '.join(allowed)} (got {value!r})")
    return value


def _sandbox(data, where) -> str:
    value = data.get("sandbox", "auto")
    if value is True:
        return "always"
    if value is False:
        return "never"
    if value not in ("auto", "always", "never"):
        raise ConfigError(f"{where}: key 'sandbox': expected auto, always, never, true or false (got {value!r})")
    return value


def _sizes(data, where) -> tuple[int, ...]:
    value = data.get("table_sizes", [4])
    if isinstance(value, int):
        value = [value]
    if (not isinstance(value, list) or not value
            or not all(isinstance(v, int) and not isinstance(v, bool) and MIN_PLAYERS <= v <= MAX_PLAYERS for v in value)):
        raise ConfigError(f"{where}: key 'table_sizes': expected table sizes {MIN_PLAYERS}-{MAX_PLAYERS} (got {value!r})")
    return tuple(sorted(set(value)))


def _rules(data, where, rules_only=None) -> tuple[dict, ...]:
    value = data.get("rules", "getaway")
    rules_only = rules_only or {}
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        entry = {"preset": item} if isinstance(item, str) else item
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: key 'rules': expected a preset name or a table (got {item!r})")
        entry = dict(entry)
        for key, v in rules_only.items():
            entry.setdefault(key, v)
        try:
            rules_from(entry)
        except ArenaError as exc:
            raise ConfigError(f"{where}: key 'rules': {exc}") from None
        out.append(entry)
    if not out:
        raise ConfigError(f"{where}: key 'rules': at least one rule set is needed")
    return tuple(out)


def _limits(data, where) -> LimitsSpec:
    value = data.get("limits", {}) or {}
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: key 'limits': expected a table")
    for key, v in value.items():
        if key not in _LIMIT_KEYS:
            raise ConfigError(f"{where}: key 'limits.{key}': unknown key (known: {', '.join(sorted(_LIMIT_KEYS))})")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ConfigError(f"{where}: key 'limits.{key}': expected a whole number >= 0 (got {v!r})")
    return replace(LimitsSpec(), **value)
