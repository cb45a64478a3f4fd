"""The OpenSpiel game's position: one :class:`~arena.game.engine.Game` of the rules core, its chance nodes and
what each seat has seen, with a cheap copy. No pyspiel here: :mod:`players.openspiel.game` wraps it.

Chance comes in two places, both explicit chance nodes with uniform outcomes:

- **the deal**, one card at a time: outcome ``c`` puts card ``c`` (any card not yet dealt) in the hand of the
  next seat to be dealt to, in the order :meth:`arena.Game.deal` deals (the seat after the dealer first);
  once every card is out the game is ``Game.deal(rules, players, 0, dealer, hands)``, a given deal;
- **a draw** (the ``escape`` rules ``draw``, ``draw_next_hand``, ``pass_if_3plus``): before a play is made it
  is tried on a copy of the rules core whose generator records the draw it is asked for; a play that draws
  becomes a chance node with one outcome per card it may draw (outcome ``i``: the ``i``-th, as the rules core
  counts them), and the play is made once the outcome is known, the core's generator answering ``i``.

So every random step of a game is a chance node and the rules core decides everything else: this module
plays no rule itself. Each seat's information is the event dicts the engine shows it
(:func:`arena.game.events.for_seat`), as a sandboxed bot receives them; a position set up from a seat's
view (:mod:`players.openspiel.worlds`) carries that seat's earlier events as ``origin``.
"""

from __future__ import annotations

import random
from typing import Any

import orjson

from arena.game.cards import CARDS, PACK
from arena.game.engine import Game
from arena.game.rules import Rules
from arena.game.rulings import rule_flags
from arena.game.state import TAKE as TAKE_DECISION

from players.openspiel.errors import OpenSpielError

CARD_SLOTS = 2 * PACK
"""Action numbers ``0..103`` are the cards (ids, :mod:`arena.game.cards`), whatever the packs."""
NO_TAKE, TAKE = CARD_SLOTS, CARD_SLOTS + 1
"""The two answers to a take decision (``neighbour_take``)."""
ACTIONS = CARD_SLOTS + 2
MAX_MOVES = 1500
"""Moves (chance outcomes included) after which an unfinished game ends as a draw: every return 0. Random
play never came near it (the longest of 150 random games per preset and table size: 174 plays)."""


class DrawAnswer:
    """The rules core's generator: ``randrange`` answers the chance outcome set for the draw being made, and
    records ``n`` when asked while probing. Asked at any other time, it is a bug of this module."""

    __slots__ = ("value", "asked")

    def __init__(self) -> None:
        self.value: int | None = None
        self.asked: int | None = None

    def randrange(self, n: int) -> int:
        self.asked = n
        if self.value is None:
            return 0
        value, self.value = self.value, None
        if not 0 <= value < n:
            raise OpenSpielError(f"a draw's outcome must be 0..{n - 1} (got {value})")
        return value


class Table:
    """One game: being dealt (``game`` None, ``dealt`` the cards so far), or in play (``game``); ``pending``
    a card whose play waits for its draw (``draw_n`` outcomes). ``origin[s]``: seat ``s``'s events before
    ``base[s]`` of this game's (a position set up from a view), ``prefix[s]`` what its information string
    starts with. ``moves``: chance outcomes and actions applied."""

    __slots__ = ("rules", "players", "dealer", "order", "dealt", "game", "draws", "pending", "draw_n",
                 "origin", "base", "prefix", "strings", "moves")

    def __init__(self, rules: Rules, players: int, dealer: int = 0) -> None:
        if rules.deal != "single":
            raise OpenSpielError(f"the OpenSpiel game deals one card at a time: deal must be 'single' "
                                 f"(got {rules.deal!r})")
        rules.check_players(players)
        self.rules, self.players, self.dealer = rules, players, dealer
        step = rule_flags(rules).step
        self.order = [(dealer + step * (i + 1)) % players for i in range(players)]
        self.dealt: list[int] = []
        self.game: Game | None = None
        self.draws = DrawAnswer()
        self.pending, self.draw_n, self.moves = -1, 0, 0
        self.origin: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.base = [0] * players
        self.prefix = [f"p{s}" for s in range(players)]
        self.strings: list[tuple[int, str]] | None = None

    # ------------------------------------------------------------ copying
    def copy(self) -> Table:
        new = object.__new__(Table)
        new.rules, new.players, new.dealer, new.order = self.rules, self.players, self.dealer, self.order
        new.dealt, new.pending, new.draw_n, new.moves = self.dealt[:], self.pending, self.draw_n, self.moves
        new.origin, new.base, new.prefix = self.origin, self.base, self.prefix   # never changed in place
        new.strings = self.strings[:] if self.strings is not None else None
        new.draws = DrawAnswer()
        new.game = copy_game(self.game, new.draws) if self.game is not None else None
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:   # pyspiel's clone deep-copies a state's attributes
        return self.copy()

    # ------------------------------------------------------------ where it stands
    @property
    def deck(self) -> int:
        return PACK * self.rules.decks

    def chance(self) -> bool:
        return self.game is None or self.pending >= 0

    def over(self) -> bool:
        return self.game is not None and (self.game.result is not None or self.moves >= MAX_MOVES)

    def current(self) -> int:
        """The seat to act (the game's; meaningful when neither chance nor over)."""
        return self.game.state.cur  # type: ignore[union-attr,return-value]  # in play, not over: a seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.game is None:
            dealt = set(self.dealt)
            left = [c for c in range(self.deck) if c not in dealt]
        else:
            left = list(range(self.draw_n))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def legal(self) -> list[int]:
        """The seat to act's legal action numbers, ascending."""
        game = self.game
        if game.state.decision is TAKE_DECISION:  # type: ignore[union-attr]
            return [NO_TAKE, TAKE]
        return sorted(int(c) for c in game.legal_actions())  # type: ignore[union-attr]

    def returns(self) -> list[float]:
        """-1 for the Bhabhi, ``1 / (players - 1)`` for each other seat (zero-sum); all 0 for a drawn game,
        an unfinished one, or one not over."""
        result = self.game.result if self.game is not None else None
        if result is None or result.loser is None:
            return [0.0] * self.players
        win = 1.0 / (self.players - 1)
        return [-1.0 if s == result.loser else win for s in range(self.players)]

    # ------------------------------------------------------------ moving
    def apply(self, action: int) -> None:
        self.moves += 1
        if self.game is None:
            self._deal(action)
        elif self.pending >= 0:
            card, self.pending = self.pending, -1
            self.draws.value = action
            self.game.apply(CARDS[card])
            if self.draws.value is not None:
                raise OpenSpielError(f"the play of {CARDS[card]} was expected to draw, and did not")
        elif self.game.state.decision is TAKE_DECISION:
            self.game.apply(action == TAKE)
        else:
            self._play(action)

    def _deal(self, c: int) -> None:
        self.dealt.append(c)
        if len(self.dealt) < self.deck:
            return
        hands: list[list[Any]] = [[] for _ in range(self.players)]
        for i, card in enumerate(self.dealt):
            hands[self.order[i % self.players]].append(CARDS[card])
        self.prefix = [self.deal_string(s) for s in range(self.players)]
        self.start(Game.deal(self.rules, self.players, 0, self.dealer, hands))

    def start(self, game: Game) -> None:
        """Play ``game`` from here on, its draws answered by the chance nodes."""
        game.state.rng = self.draws  # type: ignore[assignment]  # (what the rules core calls of a Random)
        self.game = game

    def _play(self, c: int) -> None:
        """Play card ``c``, or make it wait for the chance node of its draw. Only a play after which a seat
        of the trick has no cards can settle a trick whose winner draws: others are not tried."""
        st = self.game.state  # type: ignore[union-attr]
        if st.emptied or st.hands[st.cur].bit_count() == 1:  # type: ignore[index]
            probe = st.copy()
            answer = DrawAnswer()
            probe.rng = answer
            probe.play(c)
            if answer.asked is not None:
                self.pending, self.draw_n = c, answer.asked
                return
        self.game.apply(CARDS[c])  # type: ignore[union-attr]

    # ------------------------------------------------------------ what a seat has seen
    def deal_string(self, seat: int) -> str:
        """What ``seat`` saw of the deal: its cards in the order they came."""
        mine = [CARDS[c].text for i, c in enumerate(self.dealt) if self.order[i % self.players] == seat]
        return f"p{seat} dealt {' '.join(mine)}"

    def events(self, seat: int) -> list[dict[str, Any]]:
        """Every event dict ``seat`` has seen, its ``origin`` first (none while dealing)."""
        if self.game is None:
            return []
        return self.origin[seat] + self.game.seat_events(seat, self.base[seat])

    def info_string(self, seat: int) -> str:
        """Everything ``seat`` has seen, in order: its information state (perfect recall), kept per seat and
        extended by the events since it was last asked."""
        if self.game is None:
            return self.deal_string(seat)
        strings = self.strings
        if strings is None:
            strings = self.strings = [(self.base[s], self.prefix[s] + "".join(map(_text, self.origin[s])))
                                      for s in range(self.players)]
        taken, text = strings[seat]
        stop = len(self.game.events)
        if taken < stop:
            text += "".join(map(_text, self.game.seat_events(seat, taken)))
            strings[seat] = (stop, text)
        return text


def _text(event: dict[str, Any]) -> str:
    return orjson.dumps(event).decode()


def copy_game(game: Game, rng: Any) -> Game:
    """An independent copy of ``game`` (the rules core copied, the events list too) drawing from ``rng``."""
    new = object.__new__(Game)
    for name in Game.__slots__:
        setattr(new, name, getattr(game, name))
    new.state = state = game.state.copy()
    state.rng = rng
    new.events = list(game.events)
    state.log = new.events
    new.faults, new.forfeited = list(game.faults), list(game.forfeited)
    new._offered = 0
    return new


def seeded(value: float) -> random.Random:
    """A generator seeded from a sampler's number in [0, 1)."""
    return random.Random(int(value * (1 << 53)))
