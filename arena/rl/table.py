"""One game played by action numbers, each seat following it from its own events only.

:class:`Table` is what every environment of this layer steps: a
:class:`~arena.game.engine.Game` dealt from a seed exactly as the arena deals
it (``Game.deal(rules, players, seed, dealer)``: the same seed, the same
cards as a tournament game with that deal seed; or ``hands`` as given, as a
deal book's), and one
:class:`~arena.game.knowledge.SeatKnowledge` per seat fed that seat's events, as the
referee feeds an in-process bot. A seat's :class:`~arena.game.views.PlayerView`
therefore holds what a bot in that seat is shown and nothing more; the
observations (:mod:`arena.rl.encoding`) are made from it.

:func:`table_rules` resolves the ``rules`` argument every environment takes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from arena.game import events as ev
from arena.game.cards import CARDS, Card
from arena.game.engine import Game
from arena.game.knowledge import SeatKnowledge
from arena.game.public_knowledge import PublicKnowledge
from arena.game.rules import PRESETS, Presets, Rules
from arena.game.state import TAKE as TAKE_DECISION
from arena.game.views import Action, PlayerView, leads_next
from arena.rl.encoding import ACTIONS, CARD_SLOTS, NO_TAKE, TAKE, action_of
from arena.rl.errors import EnvError
from arena.rl.observation import action_mask, layout, observation

ILLEGAL = ("raise", "fault")
"""What an environment does with an illegal action: refuse it, or make it the seat's fault."""


def check_seed(seed) -> int:
    """``seed`` if it is a whole number (the first deal seed), else :class:`EnvError`."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise EnvError(f"seed must be a whole number (got {seed!r})")
    return seed


def check_illegal(illegal: str) -> bool:
    """Whether an illegal action is a fault (``illegal="fault"``); another value is refused."""
    if illegal not in ILLEGAL:
        raise EnvError(f"illegal must be one of {', '.join(ILLEGAL)} (got {illegal!r})")
    return illegal == "fault"


class Facts:
    """The fields of a seat's :class:`PlayerView` the encoding reads (and its ``winning``), taken from the
    seat's :class:`~arena.game.knowledge.SeatKnowledge` under the same names: :meth:`Table.facts`. Valid until
    the next step."""

    __slots__ = ("seat", "players", "rules", "known_masks", "trick", "seen_mask", "pile_mask", "hand_sizes",
                 "hidden_draws", "void_masks", "active", "out", "decision", "legal", "led_suit", "trump",
                 "first_trick", "next_leader")
    seat: int
    players: int
    rules: Rules
    known_masks: list[int]
    trick: list[tuple[int, Card]]
    seen_mask: int
    pile_mask: int
    hand_sizes: list[int]
    hidden_draws: list[int]
    void_masks: list[int]
    active: list[bool]
    out: list[int]
    decision: str | None
    legal: tuple[Action, ...]
    led_suit: int | None
    trump: int | None
    first_trick: bool
    next_leader: int | None
    if TYPE_CHECKING:  # PlayerView.winning reads only these fields
        def winning(self) -> tuple[int, Card] | None: ...
    else:
        winning = PlayerView.winning


def table_rules(rules: str | Rules, players: int, presets: Presets | None = None, **options: Any) -> Rules:
    """The rule set: a preset's name (of ``presets``, default the built-in ones; a registry's
    ``presets`` holds the plugins' too) or a :class:`Rules`, with ``options`` changed; checked
    for ``players`` seats (:class:`arena.RulesError`, one line, otherwise)."""
    if isinstance(rules, str):
        resolved = (presets or PRESETS).rules(rules, **options)
    elif isinstance(rules, Rules):
        resolved = rules.replace(**options) if options else rules
    else:
        raise EnvError(f"rules must be a preset name or a Rules (got {type(rules).__name__})")
    resolved.check_players(players)
    return resolved


class Table:
    """One game in progress, stepped with action numbers (:mod:`arena.rl.encoding`).

    Its seats follow the game through one :class:`~arena.game.public_knowledge.PublicKnowledge` (the
    public events taken in once for all of them, as the referee's in-process seats do), each on its
    own from a draw or a take that parts it from the others."""

    __slots__ = ("game", "seats", "public", "layout", "_legal", "_legal_at")

    def __init__(self, rules: Rules, players: int, seed: int, dealer: int = 0, hands=None) -> None:
        self.game = game = Game.deal(rules, players, seed, dealer, hands)
        self.seats = [SeatKnowledge(s, players, rules) for s in range(players)]
        self.public = PublicKnowledge(game)
        self.layout = layout(rules, players)
        self._legal: tuple[Action, ...] = ()
        self._legal_at = -1

    @property
    def current(self) -> int | None:
        """The seat to act (None once the game is over)."""
        return self.game.state.cur

    @property
    def over(self) -> bool:
        return self.game.result is not None

    def legal(self) -> tuple[Action, ...]:
        """The game's legal actions now (asked of the game once a position: every action adds an event)."""
        at = len(self.game.events)
        if self._legal_at != at:
            self._legal, self._legal_at = self.game.legal_actions(), at
        return self._legal

    def knowledge(self, seat: int) -> tuple[SeatKnowledge, int, int]:
        """``(knowledge, hand, seen)``: what ``seat`` knows now, its hand and the cards it has seen; the
        knowledge is the seat's own, or (while it shares it) the public one, whose other fields are the
        seat's. Read only; valid until the next step."""
        game, public = self.game, self.public
        stop = len(game.events)
        if public.parted[seat] is None:
            if public.taken < stop:
                public.follow(stop)
            if public.parted[seat] is None:
                common = public.common
                return common, public.hand_of(seat), common.seen_mask | public.dealt[seat]
        k = self._fed(seat)
        return k, k.hand_mask, k.seen_mask

    def _fed(self, seat: int) -> SeatKnowledge:
        """``seat``'s own knowledge, fed up to the game's present."""
        k, game = self.seats[seat], self.game
        stop = len(game.events)
        if k.taken < stop:
            k.feed_many(ev.SeatEvents(game, seat, k.taken, stop, self.public))
        return k

    def observe(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """New arrays of ``seat``'s observation and action mask: :func:`arena.rl.encoding.encode` and
        :func:`~arena.rl.encoding.action_mask` of its view, made without the view."""
        t, hand, seen = self.knowledge(seat)
        state = self.game.state
        if seat == state.cur:
            decision = state.decision
            return observation(t, seat, hand, seen, decision, self.layout), action_mask(self.legal(), decision)
        return observation(t, seat, hand, seen, None, self.layout), action_mask((), None)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` knows now; at its own decision, with the legal actions and the decision."""
        k, game = self._fed(seat), self.game
        if seat == game.state.cur:
            return k.view(game.legal_actions(), game.state.decision)
        return k.view()

    def facts(self, seat: int) -> Facts:
        """What :func:`arena.rl.encoding.parts` reads of ``seat``'s view, taken from the same knowledge
        without making the view (equal to the view's fields)."""
        game = self.game
        t, hand, seen = self.knowledge(seat)
        f = Facts()
        mine = seat == game.state.cur
        f.decision = game.state.decision if mine else None
        f.legal = self.legal() if mine else ()
        f.seat, f.players, f.rules = seat, game.players, game.rules
        known = list(t.known_masks)
        known[seat] = hand
        f.known_masks, f.seen_mask, f.pile_mask = known, seen, t.pile_mask
        f.trick = [(s, CARDS[c]) for s, c in t.trick]
        f.hand_sizes, f.hidden_draws, f.void_masks = t.hand_sizes, t.hidden_draws, t.void_masks
        f.active, f.out, f.first_trick = t.active, t.out, t.first_trick
        f.led_suit, f.trump = t.led_suit, t.trump
        f.next_leader = leads_next(seat, hand, f.decision, t.trick, t.first_trick, t.as_holder, t.active,
                                   t.lead_from, game.players, self.layout.step)
        return f

    def step(self, action, fault: bool = False) -> None:
        """The seat to act takes action number ``action``. An illegal one is refused (:class:`EnvError`),
        or with ``fault`` is the seat's fault, costing what it costs a bot (``fault_policy``, ``max_faults``)."""
        game = self.game
        state = game.state
        if state.cur is None:
            raise EnvError(f"the game is over; no action is legal (got {action!r})")
        if type(action) is int:
            a = action
        else:
            try:
                a = int(action)
            except (TypeError, ValueError):
                a = -1
        legal = self.legal()
        if state.decision is TAKE_DECISION:
            if a == TAKE or a == NO_TAKE:
                game.apply(a == TAKE)
                return
        elif 0 <= a < CARD_SLOTS and CARDS[a] in legal:
            game.apply(CARDS[a])
            return
        if fault:
            game.apply_fault("illegal")
            return
        raise EnvError(f"seat {state.cur} may not take action {action!r}: expected one of "
                       f"{', '.join(str(action_of(x)) for x in legal)} (of 0..{ACTIONS - 1})")
