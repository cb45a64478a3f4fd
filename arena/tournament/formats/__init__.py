"""Tournament formats, a registry by name: one file per format over :class:`Format`.

To add a format: write ``arena/tournament/formats/NAME.py`` with a frozen
subclass of :class:`~arena.tournament.formats.base.Format`, list it in
:data:`FORMATS` below, and add ``tests/tournament/test_format_NAME.py``.
The tournament spec reads this registry; it knows no format by name
(docs/tournaments.md, Adding a format).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, fields
from types import MappingProxyType
from typing import Any

from arena.tournament.errors import ScheduleError
from arena.tournament.formats.base import Format
from arena.tournament.formats.gauntlet import Gauntlet
from arena.tournament.formats.paired import Paired
from arena.tournament.formats.round_robin import RoundRobin

FORMATS: Mapping[str, type[Format]] = MappingProxyType({cls.name: cls for cls in (RoundRobin, Gauntlet, Paired)})
"""Every format by name, in the order help texts list them."""
DEFAULT_FORMAT = RoundRobin.name


def format_class(name: str) -> type[Format]:
    """The format registered as ``name``; an unknown name is refused, naming the known ones."""
    cls = FORMATS.get(name)
    if cls is None:
        raise ScheduleError(f"format must be one of {', '.join(sorted(FORMATS))} (got {name!r})")
    return cls


def make_format(name: str, **params: Any) -> Format:
    """The format registered as ``name``, made with ``params``."""
    cls = format_class(name)
    allowed = [f.name for f in fields(cls)]
    for param in params:
        if param not in allowed:
            raise ScheduleError(f"unknown parameter {param!r}; expected one of {', '.join(allowed)}",
                                fmt=name, param=param)
    for f in fields(cls):
        if f.default is MISSING and f.default_factory is MISSING and f.name not in params:
            raise ScheduleError(f"parameter {f.name!r} is required (got nothing)", fmt=name, param=f.name)
    return cls(**params)


__all__ = ["DEFAULT_FORMAT", "FORMATS", "Format", "Gauntlet", "Paired", "RoundRobin", "format_class", "make_format"]
