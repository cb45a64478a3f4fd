"""A comparison of two players as an event: the paired schedule, stored, resumable, with its test.

A comparison is a tournament of format ``paired`` (:mod:`arena.tournament.formats.paired`)
in its own results folder, plus its test (:class:`CompareTest`, kept in the
store's meta as ``compare``). :meth:`Comparison.run` plays the games on any
executor (serial, ``--jobs``, Dask) and stops sending games once the sequential
test has its verdict; the verdict is computed from the stored games in deal
order (:class:`PairedTally`), so killing the run at any point and running it
again gives the same verdict as an unbroken run.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from collections.abc import Callable

from arena.game.rules import PRESETS, Presets
from arena.results.errors import StoreError
from arena.results.stats.paired import META_KEY, CompareTest, Figures, PairedTally, tally
from arena.results.store.database import Store
from arena.tournament.errors import TournamentError
from arena.tournament.event import Progress, Tournament
from arena.tournament.schedule import GameSpec
from arena.tournament.spec import TournamentSpec, spec_from_dict

FAST_FIELD = ("heuristic", "low", "high", "random")
"""The default field: the built-in players that decide in microseconds."""
FIELD_ALIAS = "field"
WIDE_FIELD = (*FAST_FIELD, "heuristic#2", "low#2", "high#2")
"""The default field at 7 and 8 seats, which draw 6 or 7 distinct opponents a deal: the fast players and a
second ``heuristic``, ``low`` and ``high``."""


def default_field(size: int) -> tuple[str, ...]:
    """The field a comparison at ``size`` seats draws from when none is given."""
    return FAST_FIELD if size <= 6 else WIDE_FIELD


def field_for(a: str, b: str, field: tuple[str, ...] = FAST_FIELD) -> tuple[str, ...]:
    """The field with any player who is also a candidate seated under an alias (``heuristic#field``)."""
    return tuple(f"{p}#{FIELD_ALIAS}" if p in (a, b) else p for p in field)


def folder_name(text: str) -> str:
    """``text`` as a results folder name: unusual characters (a player's options) as ``_``, at most 64."""
    return re.sub(r"[^A-Za-z0-9_.\-]", "_", text)[:64]


def default_name(a: str, b: str) -> str:
    """A results folder name for A against B: ``compare-A-B`` with unusual characters as ``_``."""
    return folder_name(f"compare-{a}-{b}")


def compare_spec(test: CompareTest, field: tuple[str, ...], games: int, presets: Presets = PRESETS,
                 **keys) -> TournamentSpec:
    """The paired tournament of a comparison: ``games`` is the cap (rounded up to whole deals).

    ``keys`` are any other tournament keys (name, seed, rules, table_sizes, limits, jobs, ...);
    ``presets`` the presets its rule set may name (a registry's).
    """
    size = (keys.get("table_sizes") or [4])[0]
    deals = max(1, -(-games // (2 * size)))
    data = {"name": default_name(test.a, test.b), **keys, "format": "paired", "deals": deals,
            "players": [test.a, test.b, *field], "candidates": [test.a, test.b]}
    return spec_from_dict(data, "compare", presets)


class Comparison:
    """One comparison bound to its results folder."""

    def __init__(self, tournament: Tournament, test: CompareTest) -> None:
        self.tournament, self.test = tournament, test
        self.size = tournament.spec.table_sizes[0]

    @property
    def folder(self) -> Path:
        return self.tournament.folder

    @classmethod
    def create(cls, spec: TournamentSpec, test: CompareTest, folder: str | Path, registry,
               secret=None) -> Comparison:
        """A new comparison, or the same one again (refused if the folder holds another test)."""
        if spec.format != "paired" or tuple(spec.candidates) != (test.a, test.b):
            raise TournamentError(f"a comparison needs the paired format with candidates {test.a}, {test.b} "
                                  f"(got format {spec.format!r}, candidates {list(spec.candidates)})")
        t = Tournament.create(spec, folder, registry, secret)
        with Store(t.folder) as store:
            stored = store.meta(META_KEY)
            if stored is None:
                store.set_meta(META_KEY, test.to_dict())
            elif stored != json.loads(json.dumps(test.to_dict())):
                raise TournamentError(f"{t.folder} already holds a comparison with another test ({stored}); "
                                      f"give another --name")
        return cls(t, test)

    @classmethod
    def open(cls, folder: str | Path, registry) -> Comparison:
        """An existing comparison, from its results folder."""
        try:
            with Store(folder) as store:
                stored = store.meta(META_KEY)
        except StoreError as exc:
            raise TournamentError(str(exc)) from None
        if stored is None:
            raise TournamentError(f"{folder} holds no comparison (expected the results of `arena compare`)")
        return cls(Tournament.open(folder, registry), CompareTest.from_dict(stored))

    def tally(self) -> PairedTally:
        """The paired units of the games stored so far."""
        with Store(self.folder) as store:
            return tally(self.test, self.size, store.records())

    def run(self, executor, on_progress: Callable[[Progress, Figures], None] | None = None,
            on_game: Callable[[GameSpec, dict, Callable[[], Figures]], None] | None = None) -> Figures:
        """Play until the test's verdict (or every game of the cap); the figures at the end.

        ``on_progress`` gets the runner's progress (at most ten times a second)
        with the figures so far; ``on_game`` every game stored now, with its
        record and a function giving the figures so far.
        """
        counted = self.tally()
        if counted.done:
            return counted.figures()

        def watch(game, record) -> bool:
            done = counted.add(game.index, record)
            if on_game is not None:
                on_game(game, record, counted.figures)
            return done

        def show(progress: Progress) -> None:
            if on_progress is not None:
                on_progress(progress, counted.figures())

        self.tournament.run(executor, on_progress=show, watch=watch)
        return counted.figures()
