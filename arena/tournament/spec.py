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
from arena.game.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Presets, Rules
from arena.plugins.names import ALIAS_MARK, base_player, canonical_name, split_names
from arena.sandbox.limits_spec import LimitsSpec
from arena.tournament.book import book_key, fit_book
from arena.tournament.errors import ConfigError, ScheduleError
from arena.tournament.formats import DEFAULT_FORMAT, FORMATS, format_class
from arena.tournament.formats.base import DEFAULT_HOUSE
from arena.tournament.match_spec import match_keys

BACKENDS = ("local", "dask")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")
_RESULT_NEUTRAL = ("jobs", "batch", "backend", "scheduler")
"""Spec keys that change how a tournament runs, never which games it plays or their results."""


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """Everything that defines a tournament; with its seed it fixes every game."""

    name: str
    players: tuple[str, ...]
    seed: int = 1
    rules: tuple[dict, ...] = ({"preset": "getaway"},)
    table_sizes: tuple[int, ...] = (4,)
    format: str = DEFAULT_FORMAT
    candidates: tuple[str, ...] = ()
    deals: int = 1
    budget: int | None = None
    house: tuple[str, ...] = DEFAULT_HOUSE
    limits: LimitsSpec = field(default_factory=LimitsSpec)
    jobs: int = 0
    sandbox: str = "auto"
    batch: int = 8
    tau: float = 0.0
    draw_probability: float = 0.001
    backend: str = "local"
    scheduler: str | None = None
    book: str | None = None
    """The deal book's path (``deals = "book.jsonl"``; :mod:`arena.tournament.book`), or None: seeded deals."""
    book_sha256: str | None = None
    match_points: int | None = None
    """With it, each unit is a match to this many penalty points (:mod:`arena.tournament.match_spec`)."""
    match_score: str | None = None
    """How a match's hands score: ``places`` (None: the default) or ``cards``."""
    sealed: bool | None = None
    """``True``: deals and bot seeds keyed with a secret of the results folder; ``False``: open, the
    seed alone fixes them; None: open among the built-in players, sealed with any third-party bot
    (:mod:`arena.tournament.sealing`, docs/tournaments.md "Seeds and the secret")."""
    source: str = field(default="tournament", compare=False, repr=False)
    """Where the spec came from (a file name, "command line"), for messages; not part of the spec."""
    presets: Presets = field(default=PRESETS, compare=False, repr=False)
    """The presets its rule sets name (a registry's: the built-in ones and plugins'); not part of the spec."""
    deal_book: Any = field(default=None, compare=False, repr=False)
    """The deal book as read (:class:`arena.tournament.book.Book`); not part of the spec."""

    def rules_objects(self) -> list[Rules]:
        """Each rule set as :class:`Rules`, its preset resolved in :attr:`presets`."""
        return [rules_from(r, self.presets) for r in self.rules]

    def resolve(self, entry: dict) -> Rules:
        """The :class:`Rules` of one of :attr:`rules` (a game's ``rules``, as the schedule gives it)."""
        return self.rules_objects()[self.rules.index(entry)]

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _NOT_SPEC}
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
        """The :mod:`arena.tournament.formats` object that makes this tournament's games (with the
        house as :func:`fill_ins` seats it)."""
        return format_class(self.format).from_spec(replace(self, house=fill_ins(self)))


def fill_ins(spec: TournamentSpec) -> tuple[str, ...]:
    """The house as the schedule uses it: the house players who are not entrants, then an alias
    (``random#2``) for each house player who is one.

    A house player already in the pool cannot take a second seat under its own
    name; its alias can. Aliases come last, so a house whose other names suffice
    seats exactly the players it always did (stored schedules stay the same).
    """
    taken = set(spec.players) | set(spec.candidates)
    house = [h for h in spec.house if h not in taken]
    for h in spec.house:
        if h in taken:
            house.append(_alias(base_player(h), taken | set(house)))
    return tuple(house)


def _alias(base: str, taken: set[str]) -> str:
    number = 2
    while f"{base}{ALIAS_MARK}{number}" in taken:
        number += 1
    return f"{base}{ALIAS_MARK}{number}"


def _usable_cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def rules_from(entry: dict, presets: Presets = PRESETS) -> Rules:
    """A rule set from a ``{"preset": name, option: value, ...}`` table (the preset defaults to getaway)."""
    return Rules.from_dict({"preset": "getaway", **entry}, presets)


_NOT_SPEC = ("source", "presets", "deal_book")
BOOK_KEYS = ("book", "book_sha256")
"""Keys the spec stores for ``deals = "FILE"`` (its flag is ``--deals FILE``), read back on resume."""
_TOP_KEYS = ({f.name for f in fields(TournamentSpec) if f.name not in _NOT_SPEC}
             | {"ratings", "fault_policy", "max_faults"})
_LIMIT_KEYS = {f.name for f in fields(LimitsSpec)}


def load_spec(path: str | Path, presets: Presets = PRESETS, **overrides: Any) -> TournamentSpec:
    """Read and validate a tournament file; ``overrides`` (from CLI flags) win over the file.

    ``presets``: the presets its rule sets may name (a plugin registry's ``presets``)."""
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
        raise ConfigError(f"{where}: expected a TOML file (got invalid TOML: {' '.join(str(exc).split())})") from None
    data.setdefault("name", path.stem)
    if isinstance(data.get("deals"), str):  # a deal book named in the file: relative to the file
        data["deals"] = str(path.parent / Path(data["deals"]).expanduser())
    data.update({k: v for k, v in overrides.items() if v is not None})
    return spec_from_dict(data, where, presets)


def spec_from_dict(data: dict[str, Any], where: str = "tournament", presets: Presets = PRESETS) -> TournamentSpec:
    """Validate plain data (a parsed TOML file, or the spec stored with results); ``presets`` as in
    :func:`load_spec`."""
    data = dict(data)
    for key in data:
        if key not in _TOP_KEYS:
            raise ConfigError(f"{where}: key {key!r}: unknown key (known: {', '.join(sorted(_TOP_KEYS))})")
    ratings = data.pop("ratings", {}) or {}
    if not isinstance(ratings, dict) or set(ratings) - {"tau", "draw_probability"}:
        got = (f"the key {sorted(set(ratings) - {'tau', 'draw_probability'})[0]!r}" if isinstance(ratings, dict)
               else repr(ratings))
        raise ConfigError(f"{where}: key 'ratings': expected a table with tau and/or draw_probability (got {got})")
    for key, value in ratings.items():
        data.setdefault(key, value)  # a top-level key (a flag) wins over the [ratings] table
    rules_only = _rules_only(data, where)
    _backend_table(data, where)
    book = book_key(data, where)
    booked: dict[str, Any] = {} if book is None else {"book": book.path, "book_sha256": book.sha256,
                                                      "deal_book": book}
    spec = TournamentSpec(
        name=_name(data, where), players=_names(data, "players", where, required=True),
        seed=_int(data, "seed", where, 1, lo=0), rules=_rules(data, where, presets, rules_only),
        table_sizes=_sizes(data, where), format=_choice(data, "format", tuple(FORMATS), where, DEFAULT_FORMAT),
        candidates=_names(data, "candidates", where),
        deals=_int(data, "deals", where, 1, lo=1) if book is None else 1,
        budget=_int(data, "budget", where, None, lo=1), house=_names(data, "house", where, default=DEFAULT_HOUSE),
        limits=_limits(data, where), jobs=_int(data, "jobs", where, 0, lo=0),
        sandbox=_sandbox(data, where), batch=_int(data, "batch", where, 8, lo=1),
        tau=_float(data, "tau", where, 0.0), draw_probability=_float(data, "draw_probability", where, 0.001),
        backend=_choice(data, "backend", BACKENDS, where, "local"), scheduler=_scheduler(data, where),
        sealed=_sealed(data, where),
        source=where, presets=presets, **match_keys(data, where), **booked,
    )
    spec = _cross_check(spec, where, house_given="house" in data)
    return spec if book is None else _cross_check(fit_book(spec, where), where, house_given="house" in data)


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


def _cross_check(spec: TournamentSpec, where: str, house_given: bool = True) -> TournamentSpec:
    for rules in spec.rules_objects():
        for size in spec.table_sizes:
            try:
                rules.check_players(size)
            except ArenaError as exc:
                raise ConfigError(f"{where}: key 'table_sizes': {exc}") from None
    if spec.candidates and "candidates" not in format_class(spec.format).reads:
        users = " or ".join(f"a {name}" for name, cls in FORMATS.items() if "candidates" in cls.reads)
        raise ConfigError(f"{where}: key 'candidates': only {users} has candidates (got format {spec.format!r})")
    for key in ("players", "candidates", "house"):
        names = getattr(spec, key)
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ConfigError(f"{where}: key {key!r}: {twice[0]!r} is listed twice (a player holds one seat "
                              f"per table; use an alias such as {twice[0]}{ALIAS_MARK}2 for a second copy)")
    if not 0 < spec.draw_probability < 1:
        raise ConfigError(f"{where}: key 'draw_probability': must be between 0 and 1, not 0 "
                          f"(got {spec.draw_probability})")
    if spec.tau < 0:
        raise ConfigError(f"{where}: key 'tau': must be >= 0 (got {spec.tau})")
    if spec.backend == "dask" and not spec.scheduler:
        raise ConfigError(f"{where}: key 'backend': dask expects a scheduler address (tcp://HOST:PORT); "
                          f"got none")
    _check_schedule(spec, where, house_given)
    return spec


def _check_schedule(spec: TournamentSpec, where: str, house_given: bool) -> None:
    """Build the format (cheap: no table is drawn yet) so a schedule that cannot exist is refused now;
    the error names the spec key its format parameter comes from (a table the house cannot fill:
    ``table_sizes`` when the house was left at its default, and what to change)."""
    try:
        spec.schedule_format()
    except ScheduleError as exc:
        param = exc.param
        key = format_class(spec.format).spec_keys.get(param, param or "format") if param is not None else "format"
        reason = exc.reason
        if exc.param == "house":
            key = "house" if house_given else "table_sizes"
            reason += (f"; add players, use smaller tables, or name more fill-ins with the house key "
                       f"(--house), e.g. {','.join(_example_house(spec))}")
        raise ConfigError(f"{where}: key {key!r}: {reason}") from None


def _example_house(spec: TournamentSpec) -> list[str]:
    """A house that fills the largest table: aliases of the house's players and the entrants, in turn."""
    field_ = set(spec.players) - set(spec.candidates)
    need = max(spec.table_sizes) - len(field_) - (1 if spec.candidates else 0)
    names, taken = list(fill_ins(spec)), set(spec.players) | set(spec.candidates)
    bases = list(dict.fromkeys(base_player(n) for n in (*spec.house, *spec.players)))
    while len(names) < need:
        names.append(_alias(bases[len(names) % len(bases)], taken | set(names)))
    return names


def _name(data, where) -> str:
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ConfigError(f"{where}: key 'name': expected letters, digits, '-', '_' or '.' (got {name!r})")
    return name


def _names(data, key, where, required=False, default=()) -> tuple[str, ...]:
    value = data.get(key, default)
    if isinstance(value, str):
        value = split_names(value)
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and _player_name(v) for v in value):
        raise ConfigError(f"{where}: key {key!r}: expected a list of player names (got {value!r})")
    try:
        value = [canonical_name(v) for v in value]      # options sorted: one name per player
    except ValueError as exc:
        raise ConfigError(f"{where}: key {key!r}: {exc}") from None
    if required and not value:
        raise ConfigError(f"{where}: key {key!r}: expected at least one player (got none)")
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


def _sealed(data, where) -> bool | None:
    value = data.get("sealed")
    if value is not None and not isinstance(value, bool):
        raise ConfigError(f"{where}: key 'sealed': expected true or false (got {value!r})")
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
            or not all(isinstance(v, int) and not isinstance(v, bool) and MIN_PLAYERS <= v <= MAX_PLAYERS
                       for v in value)):
        raise ConfigError(f"{where}: key 'table_sizes': expected table sizes {MIN_PLAYERS}-{MAX_PLAYERS} "
                          f"(got {value!r})")
    return tuple(sorted(set(value)))


def _rules(data, where, presets: Presets, rules_only=None) -> tuple[dict, ...]:
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
            rules_from(entry, presets)
        except ArenaError as exc:
            raise ConfigError(f"{where}: key 'rules': {exc}") from None
        out.append(entry)
    if not out:
        raise ConfigError(f"{where}: key 'rules': expected at least one rule set (got none)")
    return tuple(out)


def _limits(data, where) -> LimitsSpec:
    value = data.get("limits", {}) or {}
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: key 'limits': expected a table (got {value!r})")
    for key, v in value.items():
        if key not in _LIMIT_KEYS:
            raise ConfigError(f"{where}: key 'limits.{key}': unknown key (known: {', '.join(sorted(_LIMIT_KEYS))})")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ConfigError(f"{where}: key 'limits.{key}': expected a whole number >= 0 (got {v!r})")
    return replace(LimitsSpec(), **value)
