"""Rules: every option of the game, the named presets, and their validation.

``Rules`` is a frozen value object; change it with :meth:`Rules.replace`. The
options and their meaning are documented in docs/rules.md. :class:`Presets`
names rule sets: :data:`PRESETS` holds the six built-in ones, and the plugin
registry (:mod:`arena.plugins.registry`) holds those plus the presets plugins
add, passed explicitly to whoever resolves a preset name; no module state
changes when plugins load.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from arena.game.errors import RulesError

MIN_PLAYERS, MAX_PLAYERS = 3, 8
TWO_DECK_MIN = 7
"""Two packs (104 cards) are for 7 or 8 players (docs/rules.md, table and deck options)."""

CHOICES: dict[str, tuple[Any, ...]] = {
    "first_trick": ("free", "normal"),
    "escape": ("pass", "draw", "draw_next_hand", "pass_if_3plus"),
    "simultaneous": ("highest_loses", "draw"),
    "shootout": (False, True),
    "drawn_cut_loses": (False, True),
    "trumps": (False, True),
    "neighbour_take": (False, True),
    "take_from": ("second_trick", "first_trick"),
    "take_order": ("leader", "dealer_left"),
    "direction": ("clockwise", "anticlockwise"),
    "decks": (1, 2),
    "deal": ("single", "piles"),
    "fault_policy": ("penalty", "random"),
}
"""Each option with its allowed values (``max_faults`` and the seat range are numbers)."""

OPTION_HELP: dict[str, str] = {
    "first_trick": "trick 1: 'free' discards it whatever is played; 'normal' plays it as any trick",
    "escape": "what a clean-trick winner with no cards left does",
    "simultaneous": "every remaining hand emptied on one clean trick",
    "shootout": "two players left with no suit in common: the leader loses at once",
    "drawn_cut_loses": "two players left: a cut on a drawn lead makes the leader lose",
    "trumps": "Donkey: the first card that cannot follow fixes the trump suit",
    "neighbour_take": "before each trick, players may take their left neighbour's cards",
    "take_from": "neighbour_take: the first trick taking comes before ('second_trick' or 'first_trick')",
    "take_order": "neighbour_take: who is asked first ('leader': the next leader; "
                  "'dealer_left': the dealer's left neighbour)",
    "direction": "play order",
    "decks": "packs shuffled together (2 for 7-8 players)",
    "deal": "'single' one card at a time; 'piles' one uncounted pile each",
    "fault_policy": "what a bot's fault costs it",
    "max_faults": "faults in one game before a seat forfeits",
    "min_players": "smallest table",
    "max_players": "largest table",
}


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete rule set. Build it with :meth:`preset`; see docs/rules.md."""

    name: str = "custom"
    first_trick: str = "free"
    escape: str = "draw"
    simultaneous: str = "highest_loses"
    shootout: bool = False
    drawn_cut_loses: bool = False
    trumps: bool = False
    neighbour_take: bool = False
    take_from: str = "second_trick"
    take_order: str = "leader"
    direction: str = "clockwise"
    decks: int = 1
    deal: str = "single"
    fault_policy: str = "penalty"
    max_faults: int = 5
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS

    def __post_init__(self) -> None:
        for option, allowed in CHOICES.items():
            value = getattr(self, option)
            if not _allowed(value, allowed):
                raise RulesError(
                    f"option {option!r} must be one of {_show(allowed)} (got {value!r})"
                )
        if not isinstance(self.max_faults, int) or isinstance(self.max_faults, bool) or self.max_faults < 1:
            raise RulesError(f"option 'max_faults' must be a whole number >= 1 (got {self.max_faults!r})")
        for option in ("min_players", "max_players"):
            value = getattr(self, option)
            if not isinstance(value, int) or isinstance(value, bool) or not MIN_PLAYERS <= value <= MAX_PLAYERS:
                raise RulesError(
                    f"option {option!r} must be a whole number {MIN_PLAYERS}..{MAX_PLAYERS} (got {value!r})"
                )
        if self.min_players > self.max_players:
            raise RulesError(
                f"option 'min_players' must not exceed max_players {self.max_players} (got {self.min_players})"
            )
        if self.decks == 2 and self.max_players < TWO_DECK_MIN:
            raise RulesError(
                f"option 'decks' 2 is for {TWO_DECK_MIN}-{MAX_PLAYERS} players, "
                f"but max_players is {self.max_players}"
            )

    # -- construction -------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """The built-in preset with keyword overrides, e.g. ``Rules.preset("getaway", escape="pass")``
        (a plugin's preset: ``registry.presets.rules(name, ...)``)."""
        return PRESETS.rules(name, **overrides)

    def replace(self, **overrides: Any) -> Rules:
        """A copy with some options changed; unknown options are refused by name."""
        for key in overrides:
            if key not in _FIELDS:
                raise RulesError(f"unknown option {key!r} (known: {', '.join(OPTIONS)})")
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """Every option as plain JSON-ready data (including the preset name)."""
        return dict(zip(_FIELDS, _VALUES(self)))      # (one C call for the values: every record asks)

    @classmethod
    def from_dict(cls, data: dict[str, Any], presets: Presets | None = None) -> Rules:
        """Rules from :meth:`to_dict` output; a ``preset`` key starts from that preset
        (of ``presets``, default the built-in ones)."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a table of options (got {type(data).__name__})")
        data = dict(data)
        preset = data.pop("preset", None)
        base = (presets or PRESETS).rules(preset) if preset is not None else cls()
        return base.replace(**data)

    # -- checks --------------------------------------------------------------
    def check_players(self, players: int) -> None:
        """Refuse a table size these rules do not allow, naming the allowed range."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise RulesError(f"players must be a whole number (got {players!r})")
        lo, hi = self.seat_range
        if not lo <= players <= hi:
            where = f"{self.name!r} tables" if self.name != "custom" else "these rules"
            if self.decks == 2 and players < TWO_DECK_MIN <= hi and self.min_players < TWO_DECK_MIN:
                raise RulesError(f"option 'decks' 2 needs {lo}-{hi} players for {where} (got {players})")
            raise RulesError(f"players must be {lo}-{hi} for {where} (got {players})")

    @property
    def seat_range(self) -> tuple[int, int]:
        """The table sizes these rules allow (two packs need at least 7 players)."""
        lo = max(self.min_players, TWO_DECK_MIN) if self.decks == 2 else self.min_players
        return lo, self.max_players

    def differences(self) -> dict[str, Any]:
        """Options that differ from this rule set's built-in preset (for display; none for others)."""
        base = PRESETS.get(self.name)
        if base is None:
            return {}
        return {f: getattr(self, f) for f in OPTIONS if getattr(self, f) != getattr(base, f)}


def _allowed(value: Any, allowed: tuple[Any, ...]) -> bool:
    return any(value == a and type(value) is type(a) for a in allowed)


def _show(allowed: tuple[Any, ...]) -> str:
    return ", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in allowed)


_FIELDS = tuple(f.name for f in dataclasses.fields(Rules))
_VALUES = operator.attrgetter(*_FIELDS)
OPTIONS = tuple(f for f in _FIELDS if f != "name")



class Presets(Mapping[str, Rules]):
    """Named rule sets, a read-only mapping of name to :class:`Rules`.

    A value: :meth:`adding` returns a new one, so a registry that gains a
    plugin's preset never changes the one another caller holds.
    """

    __slots__ = ("_table",)

    def __init__(self, table: Mapping[str, Rules] | Iterable[tuple[str, Rules]] = ()) -> None:
        self._table: dict[str, Rules] = dict(table)

    def __getitem__(self, name: str) -> Rules:
        return self._table[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def __hash__(self) -> int:
        return hash(tuple(self._table.items()))

    def __repr__(self) -> str:
        return f"Presets({', '.join(self._table)})"

    def adding(self, rules: Rules) -> Presets:
        """These presets and ``rules`` under its name; a name already taken differently is refused."""
        if not isinstance(rules, Rules):
            raise RulesError(f"a preset must be Rules (got {type(rules).__name__})")
        if self._table.get(rules.name, rules) != rules:
            had, got = self._table[rules.name].to_dict(), rules.to_dict()
            keys = [k for k in {**had, **got} if had.get(k) != got.get(k)]
            raise RulesError(f"preset {rules.name!r} is already defined differently: expected "
                             f"{', '.join(f'{k}={had.get(k)!r}' for k in keys)} (got "
                             f"{', '.join(f'{k}={got.get(k)!r}' for k in keys)})")
        return Presets({**self._table, rules.name: rules})

    def rules(self, name: str, **overrides: Any) -> Rules:
        """The preset ``name`` with keyword overrides; an unknown name is refused, naming the known ones."""
        base = self._table.get(name)
        if base is None:
            raise RulesError(f"unknown preset {name!r} (known: {', '.join(self._table)})")
        return base.replace(**overrides)


PRESETS = Presets({
    "getaway": Rules(name="getaway", escape="draw", drawn_cut_loses=True),
    "playnest": Rules(name="playnest", escape="pass", max_players=6),
    "champions": Rules(name="champions", escape="pass", simultaneous="draw", shootout=True),
    "donkey": Rules(name="donkey", escape="draw", trumps=True),
    "bhabho": Rules(name="bhabho", escape="draw", neighbour_take=True),
    "getaway-2deck": Rules(name="getaway-2deck", escape="draw", drawn_cut_loses=True, decks=2, min_players=7),
})
"""The six presets of docs/rules.md; a registry adds plugins' presets (``arena_rule_presets``) to its own copy."""

PRESET_SOURCES = {
    "getaway": '"How to play Bhabhi" (a rules page: Getaway)',
    "playnest": 'PlayNest, "Bhabhi rules: how to play Thulla, step by step"',
    "champions": 'Thulla Champions, "The Thulla shootout rule, explained"',
    "donkey": '"Bhabhi Thulla Getaway Offline" (an app\'s page: Donkey, Kerala\'s trumps)',
    "bhabho": '"Bhabho - Laad - Get Away" (an app\'s page: taking a neighbour\'s cards)',
    "getaway-2deck": '"How to play Bhabhi": its two packs for 7-8 players',
}
"""Each built-in preset's source text, by its title (docs/rules.md, "Presets", lists them)."""
