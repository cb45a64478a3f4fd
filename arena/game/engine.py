"""The game engine: one game of Bhabhi as a checked, recorded, seeded state machine.

:class:`Game` wraps the rules core (:class:`arena.game.state.State`) with what a
harness needs around it: the deal, checked actions, faults and forfeits
(docs/rules.md, faults), the event log, records and per-seat views. No I/O and no
global randomness: everything random (the shuffle, the piles, draws, a
fault's replacement card) comes from the game's own ``random.Random`` seeded
with the game's seed.

Events are kept as small tuples while the game runs (cheap) and turned into
JSON-ready dicts only for records and views; see :mod:`arena.game.events`.
"""

from __future__ import annotations

import copy
import random
from typing import Any, NoReturn

from arena.game import events as ev
from arena.game import position, record
from arena.game.cards import CARDS, PACK, SECOND_PACK, SUIT_MASK, Card, card, cards_of, mask_of
from arena.game.errors import IllegalAction, PositionError
from arena.game.result import Result
from arena.game.rules import Rules
from arena.game.rulings import follow_mask, lead_mask, rule_flags
from arena.game.status import FAULT_KINDS
from arena.game.state import AS, TAKE, State
from arena.game.lookup import SUIT_CARDS, hand_texts, legal_tuple
from arena.game.knowledge import view_from_events
from arena.game.views import Action, PlayerView

_PLAY = ev.PLAY
_SHIFT = (0, 13, 26, 39)            # a suit's first bit in a one-pack hand


class Game:
    """One game. Build it with :meth:`deal`, :meth:`from_position` or :meth:`from_record`.

    ``state`` is the rules core (hands, trick, pile, ...: see :class:`State`): read
    it freely, change it only through the game's actions (``apply`` takes a card
    that :meth:`legal_actions` has just offered without working legality out
    again). ``events`` are the event tuples so far (the state logs into the same list).
    """

    __slots__ = ("_offered", "dealer", "events", "faults", "forfeited", "players", "result", "rules", "seed",
                 "start", "state")

    def __init__(self, rules: Rules, state: State, seed: int, start: dict[str, Any], dealer: int = 0) -> None:
        self.rules, self.state, self.seed, self.start, self.dealer = rules, state, seed, start, dealer
        self.players = state.n
        self.events: list[ev.Event] = []
        state.log = self.events
        self.faults = [0] * state.n
        self.forfeited: list[int] = []
        self.result: Result | None = None
        self._offered = 0               # the mask of the cards legal_actions returned, until the next action

    def fork(self, state: State | None = None) -> Game:
        """An independent game in this one's position: the same rules, seed, events so far, faults and
        forfeits, played on from here without touching this game (a search's what-if). Its state is a copy of
        this one's with a copy of its generator (so the fork draws what this game would), or ``state``: a copy
        the caller made, of a subclass say (the playouts' ``World.of``), in this game's position and with a
        generator of the caller's choosing."""
        if state is None:
            position = self.state.copy()
            position.rng = copy.deepcopy(self.state.rng)     # its own generator: the fork's draws are not ours
        else:
            position = state
        if position is self.state:
            raise PositionError("fork: expected a copy of the game's state, got the state itself")
        fork = Game(self.rules, position, self.seed, self.start, self.dealer)
        fork.events.extend(self.events)
        fork.faults, fork.forfeited, fork.result = self.faults[:], self.forfeited[:], self.result
        return fork

    # ------------------------------------------------------------------ set-up
    @classmethod
    def deal(cls, rules: Rules, players: int, seed: int, dealer: int = 0,
             hands: list[list[str | Card]] | None = None) -> Game:
        """Shuffle with ``seed`` and deal, starting with the player after ``dealer``.

        ``hands`` (card lists per seat, e.g. a deal book's) are dealt as given instead of shuffled:
        checked to hold the whole pack, recorded with ``"given": true`` so the record replays.
        """
        rules.check_players(players)
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise PositionError(f"dealer must be a seat 0..{players - 1} (got {dealer!r})")
        rng = random.Random(seed)
        if hands is not None:
            return cls._dealt(rules, position.given_deal(rules, players, hands), rng, seed, dealer)
        pack = list(range(PACK * rules.decks))
        _shuffle(rng, pack)
        step = rule_flags(rules).step
        seats = [(dealer + step * (i + 1)) % players for i in range(players)]
        # Each seat's hand as a mask, then its record texts from the mask (in id order, as sorted).
        masks = [0] * players
        if rules.deal == "single":
            for i, seat in enumerate(seats):     # card i goes to seats[i % players]
                masks[seat] = mask_of(pack[i::players])
        else:
            start = 0
            for seat, size in zip(seats, _pile_sizes(rng, players, len(pack))):
                masks[seat] = mask_of(pack[start:start + size])
                start += size
        return cls._dealt(rules, masks, rng, seed, dealer, {"hands": list(map(hand_texts, masks))})

    @classmethod
    def _dealt(cls, rules: Rules, hands: list[int], rng: random.Random, seed: int, dealer: int,
               start: dict[str, Any] | None = None) -> Game:
        """The game of a deal; ``start`` is the record's (None: a given deal, recorded from ``hands``)."""
        state = State(rules, len(hands), rng, dealer, hands)
        if start is None:
            start = {"hands": list(map(hand_texts, hands)), "given": True}
        game = cls(rules, state, seed, start, dealer)
        game._begin(state.holder(AS), first_trick=True)
        return game

    @classmethod
    def from_position(cls, rules: Rules, hands: list[Any], leader: int, discard: list[Any] | None = None,
                      out: list[int] | None = None, first_trick_done: bool = True, trump: int | str | None = None,
                      seed: int = 0, drawn: Card | str | int | None = None) -> Game:
        """A position set up by hand (tests, puzzles, solvers).

        ``hands`` are card lists (texts or Cards) per seat; seats in ``out`` hold
        none. ``discard=None`` puts every other card on the discard pile; an
        explicit list is used as given (cards in neither are out of play).
        ``drawn`` is a card the leader drew and must lead.
        """
        setup = position.build_position(rules, hands, leader, discard, out, first_trick_done, trump, drawn)
        state = State(rules, len(hands), random.Random(seed), 0, setup.hands, setup.pile, setup.out,
                      setup.trump)
        game = cls(rules, state, seed, setup.start)
        game._begin(leader, not first_trick_done, setup.drawn)
        return game

    def _begin(self, leader: int, first_trick: bool, drawn: int = -1) -> None:
        self.events.append((ev.DEAL,))
        self.state.begin(leader, first_trick, drawn)
        self._after()

    # ------------------------------------------------------------- public API
    @property
    def current(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return self.state.cur

    @property
    def decision(self) -> str:
        """``"play"`` or ``"take"``: what the seat to act decides."""
        return self.state.decision

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def trick(self) -> list[tuple[int, Card]]:
        """The current trick as (seat, card) pairs."""
        st = self.state
        return [(s, CARDS[c]) for s, c in zip(st.tseats, st.tcards)]

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds, lowest id first."""
        return cards_of(self.state.hands[seat])

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions now: Cards to play, or ``(False, True)`` for a take decision."""
        st = self.state
        # State.legal_mask's answer, asking rulings.py directly (one call fewer). Following
        # first (most decisions): a trick under way means a play decision in a game not over.
        # For a seat holding the led suit (follow_mask's first answer: it must play that
        # suit), no call at all: one table lookup.
        led = st.led
        if led >= 0:
            hand = st.hands[st.cur]  # type: ignore[index]  # a trick under way: a seat is to act
            mask = hand & SUIT_MASK[led]
            if mask and mask < SECOND_PACK:
                legal = SUIT_CARDS[led][mask >> _SHIFT[led]]
            else:
                mask = follow_mask(hand, led, st.trump)
                legal = legal_tuple(mask)
        elif st.cur is None:
            return ()
        elif st.decision is TAKE:
            return (False, True)
        else:
            mask = lead_mask(st.hands[st.cur], st.must)
            legal = legal_tuple(mask)
        self._offered = mask
        return legal

    def apply(self, action: Action | str | int) -> None:
        """Play a card (a Card or its text) or answer a take decision (a bool)."""
        st = self.state
        offered, self._offered = self._offered, 0
        if type(action) is Card and offered >> action & 1:  # the common case: a card legal_actions offered
            self.events.append((_PLAY, st.cur, action))
            st.play(action)
            if st.cur is None or self.forfeited:
                self._after()
            return
        if st.cur is None:
            raise IllegalAction(f"the game is over; no action is legal (got {action!r})", action=action)
        if st.decision is TAKE:
            if not isinstance(action, bool):
                self._illegal(action)
            st.take_answer(action)
        else:
            if isinstance(action, bool) or not isinstance(action, (int, str)):
                self._illegal(action)
            c = self._parse_action(action)
            if not st.legal_mask() >> c & 1:
                self._illegal(action)
            self.events.append((_PLAY, st.cur, c))
            st.play(c)
        self._after()

    def _parse_action(self, action: Action | str | int) -> Card:
        try:
            return card(action)
        except ValueError:
            self._illegal(action)

    def _illegal(self, action: object) -> NoReturn:
        legal = self.legal_actions()
        shown = ", ".join(str(a) for a in legal)
        what = "a take decision (True or False)" if self.decision == TAKE else "a card"
        raise IllegalAction(
            f"seat {self.current} may not play {action!r}: expected {what}, one of {shown}",
            seat=self.current, action=action, legal=legal)

    def apply_fault(self, kind: str) -> None:
        """The current seat's bot faulted (``timeout``, ``crash``, ``illegal``, ``malformed``).

        Applies ``rules.fault_policy`` (docs/rules.md, faults) and forfeits the seat
        after ``rules.max_faults`` faults in this game.
        """
        st = self.state
        if kind not in FAULT_KINDS:
            raise IllegalAction(f"fault kind must be one of {', '.join(FAULT_KINDS)} (got {kind!r})",
                                seat=st.cur, action=kind)
        if st.cur is None:
            raise IllegalAction(f"the game is over; nobody can fault (got {kind!r})", action=kind)
        seat = st.cur
        self._offered = 0
        self.faults[seat] += 1
        self.events.append((ev.FAULT, seat, kind))
        if self.faults[seat] >= self.rules.max_faults and seat not in self.forfeited:
            # Forfeit before the replacement action, so that it holds even if
            # that action ends the game.
            self.forfeited.append(seat)
            self.events.append((ev.FORFEIT, seat))
        if st.decision is TAKE:
            st.take_answer(False)
        elif self.rules.fault_policy == "penalty" and st.tcards:
            st.penalty_pickup(seat)
        else:
            self._play_random(ev.BY_FAULT)
        self._after()

    def view(self, seat: int, time_left: float | None = None) -> PlayerView:
        """What ``seat`` may know now, as a :class:`arena.game.views.PlayerView`.

        Built from the seat's events each call; a caller asking at every decision
        keeps its own :class:`arena.game.knowledge.SeatKnowledge` fed with
        :meth:`seat_events` instead (as the referee does).
        """
        mine = self.current == seat
        return view_from_events(seat, self.players, self.rules, self.seat_events(seat),
                                self.legal_actions() if mine else (), self.decision if mine else None,
                                time_left)

    def seat_events(self, seat: int, start: int = 0) -> list[ev.EventDict]:
        """The events from index ``start`` on, as ``seat`` sees them (JSON-ready)."""
        return ev.for_seat(self, seat, start)

    def to_record(self, **extra: Any) -> dict[str, Any]:
        """The game record: JSON-ready, replayable with :meth:`from_record`."""
        return record.to_record(self, **extra)

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> Game:
        """Replay a record, checking every step; raises :class:`arena.ReplayError`."""
        return record.from_record(cls, data)

    # ------------------------------------------------------ faults and the end
    def _play_random(self, by: str) -> None:
        st = self.state
        legal = st.legal_mask()
        choice = int(legal_tuple(legal)[st.rng.randrange(legal.bit_count())])
        self.events.append((_PLAY, st.cur, choice, by))
        st.play(choice)

    def _after(self) -> None:
        """Play for forfeited seats (random legal cards; they never take); the result once over."""
        st = self.state
        while st.cur is not None and st.cur in self.forfeited:
            if st.decision is TAKE:
                st.take_answer(False)
            else:
                self._play_random(ev.BY_AUTO)
        if st.cur is None and self.result is None:
            self.result = self._result()

    def _result(self) -> Result:
        """The finishing order from the state's end; a forfeited seat is placed last, as the Bhabhi."""
        st = self.state
        loser, reason, tied = st.loser, st.reason, st.tied
        order = list(st.out) + ([loser] if loser is not None else [])
        order += [s for s in tied if s not in order]
        order += [s for s in range(self.players) if s not in order]
        if self.forfeited:
            order = [s for s in order if s not in self.forfeited] + self.forfeited[::-1]
            loser, reason, tied = self.forfeited[0], "forfeit", ()
        loser_cards = legal_tuple(st.hands[loser]) if loser is not None else ()
        return Result.build(order, loser, reason, loser_cards, tied)  # type: ignore[arg-type]  # over: a reason


def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The shuffle's steps for ``size`` cards: position ``i``, the ``n`` cards to draw from, ``n``'s bits."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


_STEPS = {size: _steps(size) for size in (PACK, 2 * PACK)}


def _shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``, the same permutation, without two Python calls per card.

    The Fisher-Yates loop of CPython's ``random.shuffle`` with its
    ``_randbelow`` (``getrandbits`` with rejection) inlined; deals therefore
    depend only on ``getrandbits``, which CPython keeps stable.
    """
    getrandbits = rng.getrandbits
    for i, n, k in _STEPS.get(len(cards)) or _steps(len(cards)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _pile_sizes(rng: random.Random, n: int, total: int) -> list[int]:
    """``deal = "piles"``: the single-deal sizes, then ``n`` random one-card moves (no pile empty)."""
    sizes = [total // n + (1 if i < total % n else 0) for i in range(n)]
    for _ in range(n):
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b and sizes[a] > 1:
            sizes[a] -= 1
            sizes[b] += 1
    return sizes
