"""Tests for arena.tournament.formats: the registry the tournament spec reads."""

from __future__ import annotations

import pytest

from arena.tournament.errors import ConfigError, ScheduleError
from arena.tournament.formats import FORMATS, Format, format_class
from arena.tournament.spec import TournamentSpec, spec_from_dict

BASE = {"name": "f", "players": ["a", "b", "c", "d"], "table_sizes": [3]}
OWN = {"round-robin": {}, "gauntlet": {"candidates": ["d"]}, "paired": {"candidates": ["c", "d"]}}
"""What each registered format needs in a spec besides BASE (a new format adds its line)."""


def test_every_format_has_a_spec_example():
    """OWN covers the registry exactly, so every format below is tested from a spec."""
    assert set(OWN) == set(FORMATS)


@pytest.mark.parametrize("name", list(FORMATS))
def test_format_from_spec(name):
    """Each format is built from a spec by its registered class, and plays a well-formed schedule."""
    spec = spec_from_dict({**BASE, "format": name, **OWN[name]})
    fmt = spec.schedule_format()
    assert type(fmt) is FORMATS[name] and issubclass(type(fmt), Format) and fmt.name == name
    games = fmt.games()
    assert games and [g.index for g in games] == list(range(fmt.count()))
    assert all(len(g.seats) == 3 and set(g.seats) <= set(BASE["players"]) | {"random"} for g in games)


@pytest.mark.parametrize("name", list(FORMATS))
def test_spec_keys_name_spec_keys(name):
    """Each format's reads and spec_keys name keys a tournament spec has."""
    cls = FORMATS[name]
    spec_fields = set(TournamentSpec.__dataclass_fields__)
    assert set(cls.reads) <= spec_fields and set(cls.spec_keys.values()) <= spec_fields


def test_registry_is_read_only_and_refuses_unknown_names():
    """FORMATS cannot be changed at run time; an unknown name lists the known ones."""
    with pytest.raises(TypeError):
        FORMATS["swiss"] = FORMATS["round-robin"]  # type: ignore[index]
    expected = r"format must be one of gauntlet, paired, round-robin \(got 'swiss'\)"
    with pytest.raises(ScheduleError, match=expected) as info:
        format_class("swiss")
    assert info.value.param is None


def test_schedule_error_names_its_parameter():
    """A ScheduleError carries the parameter and the reason, so a spec need not parse its message."""
    with pytest.raises(ScheduleError) as info:
        FORMATS["gauntlet"](candidates=["a"], field=["a", "b"], table_sizes=[3], rules="g", seed=1)
    assert (info.value.fmt, info.value.param) == ("gauntlet", "field")
    assert str(info.value) == f"gauntlet: {info.value.reason}"


def test_spec_reports_a_format_error_under_its_parameter_key():
    """A format's error is reported under the spec key of the parameter it names (no message parsing)."""
    with pytest.raises(ConfigError, match=r"key 'house': table size 5 needs 4 distinct field players"):
        spec_from_dict({**BASE, "format": "gauntlet", "candidates": ["d"], "table_sizes": [5], "house": []})
    with pytest.raises(ConfigError, match=r"key 'budget': budget must be >= 3 .*\(got 2\)"):
        spec_from_dict({**BASE, "budget": 2})
