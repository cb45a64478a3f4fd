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

from arena.game import events as ev
from arena.game.cards import CARDS, Card
from arena.game.engine import Game
from arena.game.knowledge import SeatKnowledge
from arena.game.rules import PRESETS, Presets, Rules
from arena.game.state import TAKE as TAKE_DECISION
from arena.game.views import Action, PlayerView
from arena.rl.encoding import ACTIONS, CARD_SLOTS, NO_TAKE, TAKE, action_of
from arena.rl.errors import EnvError

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
    """One game in progress, stepped with action numbers (:mod:`arena.rl.encoding`)."""

    __slots__ = ("game", "seats", "_sent")

    def __init__(self, rules: Rules, players: int, seed: int, dealer: int = 0, hands=None) -> None:
        self.game = Game.deal(rules, players, seed, dealer, hands)
        self.seats = [SeatKnowledge(s, players, rules) for s in range(players)]
        self._sent = [0] * players

    @property
    def current(self) -> int | None:
        """The seat to act (None once the game is over)."""
        return self.game.state.cur

    @property
    def over(self) -> bool:
        return self.game.result is not None

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` knows now; at its own decision, with the legal actions and the decision."""
        game = self.game
        stop = len(game.events)
        if self._sent[seat] < stop:
            self.seats[seat].feed_many(ev.SeatEvents(game, seat, self._sent[seat], stop))
            self._sent[seat] = stop
        if seat == game.state.cur:
            return self.seats[seat].view(game.legal_actions(), game.state.decision)
        return self.seats[seat].view()

    def facts(self, seat: int) -> Facts:
        """What :func:`arena.rl.encoding.parts` reads of ``seat``'s view, taken from the same knowledge
        without making the view (a batch's fast path; equal to the view's fields)."""
        game, k = self.game, self.seats[seat]
        stop = len(game.events)
        if self._sent[seat] < stop:
            k.feed_many(ev.SeatEvents(game, seat, self._sent[seat], stop))
            self._sent[seat] = stop
        f = Facts()
        mine = seat == game.state.cur
        f.decision = game.state.decision if mine else None
        f.legal = game.legal_actions() if mine else ()
        f.seat, f.players, f.rules = seat, k.players, k.rules
        known = list(k.known_masks)
        known[seat] = k.hand_mask
        f.known_masks, f.seen_mask, f.pile_mask = known, k.seen_mask, k.pile_mask
        f.trick = [(s, CARDS[c]) for s, c in k.trick]
        f.hand_sizes, f.hidden_draws, f.void_masks = k.hand_sizes, k.hidden_draws, k.void_masks
        f.active, f.out, f.first_trick = k.active, k.out, k.first_trick
        f.led_suit, f.trump = k.led_suit, k.trump
        f.next_leader = k.next_leader(f.decision)
        return f

    def step(self, action, fault: bool = False) -> None:
        """The seat to act takes action number ``action``. An illegal one is refused (:class:`EnvError`),
        or with ``fault`` is the seat's fault, costing what it costs a bot (``fault_policy``, ``max_faults``)."""
        game = self.game
        state = game.state
        if state.cur is None:
            raise EnvError(f"the game is over; no action is legal (got {action!r})")
        try:
            a = int(action)
        except (TypeError, ValueError):
            a = -1
        legal = game.legal_actions()
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
