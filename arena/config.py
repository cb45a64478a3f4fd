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

from .errors import ArenaError
from .rules import MAX_PLAYERS, MIN_PLAYERS, Rules

FORMATS = ("round-robin", "gauntlet")
BACKENDS = ("local", "dask")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")


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

    def rules_objects(self) -> list[Rules]:
        return [rules_from(r) for r in self.rules]

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["limits"] = {f.name: getattr(self.limits, f.name) for f in fields(LimitsSpec)}
        for key in ("players", "rules", "table_sizes", "candidates", "house"):
            d[key] = list(d[key])
        return d

    @property
    def workers(self) -> int:
        return self.jobs or os.cpu_count() or 1


def rules_from(entry: dict) -> Rules:
    """A rule set from a ``{"preset": name, option: value, ...}`` table."""
    entry = dict(entry)
    preset = entry.pop("preset", "getaway")
    return Rules.preset(preset, **entry)


_TOP_KEYS = {f.name for f in fields(TournamentSpec)} | {"ratings", "fault_policy", "max_faults"}
_LIMIT_KEYS = {f.name for f in fields(LimitsSpec)}


def load_spec(path: str | Path, **overrides: Any) -> TournamentSpec:
    """Read and validate a tournament file; ``overrides`` (from CLI flags) win over the file."""
    path = Path(path)
    where = str(path)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such tournament file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML: {exc}") from None
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
    rules_only = {k: data.pop(k) for k in ("fault_policy", "max_faults") if k in data}
    backend = data.get("backend")
    if isinstance(backend, dict):
        data["scheduler"] = backend.get("scheduler", data.get("scheduler"))
        data["backend"] = backend.get("kind", "dask" if data["scheduler"] else "local")
    spec = TournamentSpec(
        name=_name(data, where), players=_names(data, "players", where, required=True),
        seed=_int(data, "seed", where, 1, lo=0), rules=_rules(data, where, rules_only),
        table_sizes=_sizes(data, where), format=_choice(data, "format", FORMATS, where, "round-robin"),
        candidates=_names(data, "candidates", where), deals=_int(data, "deals", where, 1, lo=1),
        budget=_int(data, "budget", where, None, lo=1), house=_names(data, "house", where, default=("random",)),
        limits=_limits(data, where), jobs=_int(data, "jobs", where, 0, lo=0),
        sandbox=_sandbox(data, where), batch=_int(data, "batch", where, 8, lo=1),
        tau=_float(data, "tau", where, 0.0), draw_probability=_float(data, "draw_probability", where, 0.001),
        backend=_choice(data, "backend", BACKENDS, where, "local"), scheduler=data.get("scheduler"),
    )
    return _cross_check(spec, where)


def _cross_check(spec: TournamentSpec, where: str) -> TournamentSpec:
    for rules in spec.rules_objects():
        for size in spec.table_sizes:
            try:
                rules.check_players(size)
            except ArenaError as exc:
                raise ConfigError(f"{where}: key 'table_sizes': {exc}") from None
    if spec.format == "gauntlet" and not spec.candidates:
        raise ConfigError(f"{where}: key 'candidates': a gauntlet needs at least one candidate")
    if len(set(spec.players)) != len(spec.players):
        raise ConfigError(f"{where}: key 'players': a player is listed twice")
    if not 0 < spec.draw_probability < 1:
        raise ConfigError(f"{where}: key 'draw_probability': must be between 0 and 1, not 0 (got {spec.draw_probability})")
    if spec.tau < 0:
        raise ConfigError(f"{where}: key 'tau': must be >= 0 (got {spec.tau})")
    if spec.backend == "dask" and not spec.scheduler:
        raise ConfigError(f"{where}: key 'backend': dask needs a scheduler address (tcp://HOST:PORT)")
    return spec


def _name(data, where) -> str:
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ConfigError(f"{where}: key 'name': expected letters, digits, '-', '_' or '.' (got {name!r})")
    return name


def _names(data, key, where, required=False, default=()) -> tuple[str, ...]:
    value = data.get(key, default)
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{where}: key {key!r}: expected a list of player names (got {value!r})")
    if required and not value:
        raise ConfigError(f"{where}: key {key!r}: at least one player is needed")
    return tuple(value)


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
