"""The game engine: one game of Bhabhi as a pure, seeded state machine.

No I/O and no global randomness: everything random (the shuffle, the piles,
draws, a fault's replacement card) comes from the game's own ``random.Random``
seeded with the game's seed. Hands are bitmasks of card ids (see
:mod:`arena.game.cards`), so the legal cards are one ``&`` away.

Events are kept as small tuples while the game runs (cheap) and turned into
JSON-ready dicts only for records and views; see :mod:`arena.game.events`.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from arena.game import events as ev
from arena.game.cards import ACE_OF_SPADES, BIT, CARDS, PACK, SUIT_MASK, TEXTS, Card, card
from arena.game.errors import IllegalAction, PositionError
from arena.game.result import Result
from arena.game.rules import Rules
from arena.game.status import FAULT_KINDS
from arena.game.tables import SUIT_CARDS, legal_tuple

PLAY, TAKE = "play", "take"
_AS = int(ACE_OF_SPADES)
_PLAY = ev.PLAY
_SUIT = tuple(c % PACK // 13 for c in range(len(CARDS)))
_RANK = tuple(c % 13 for c in range(len(CARDS)))


class Game:
    """One game. Build it with :meth:`deal`, :meth:`from_position` or :meth:`from_record`."""

    # Slots: a game has more attributes than CPython's shared-key instance dicts hold
    # (30), and slot access keeps the inner loop's attribute reads cheap.
    __slots__ = (
        "_asked",
        "_free_first",
        "_next",
        "_one_pack",
        "_shootout",
        "_take",
        "_trick_emptied",
        "_trumps",
        "_views",
        "active",
        "best_card",
        "best_seat",
        "best_trump",
        "cur",
        "dealer",
        "decision",
        "discard",
        "drawn_lead",
        "events",
        "faults",
        "first_trick",
        "forfeited",
        "hands",
        "leader",
        "led",
        "must_lead",
        "n_active",
        "out",
        "players",
        "result",
        "rng",
        "rules",
        "seed",
        "start",
        "trick_cards",
        "trick_seats",
        "tricks",
        "trump",
    )

    def __init__(self, rules: Rules, players: int, seed: int, dealer: int = 0) -> None:
        rules.check_players(players)
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise PositionError(f"dealer must be a seat 0..{players - 1} (got {dealer!r})")
        self.rules = rules
        self._one_pack = rules.decks == 1
        # The rule flags the inner loop reads, as plain attributes.
        self._trumps = rules.trumps
        self._free_first = rules.first_trick == "free"
        self._take = rules.neighbour_take
        self._shootout = rules.shootout
        self.players = players
        self.seed = seed
        self.dealer = dealer
        self.rng = random.Random(seed)
        step = 1 if rules.direction == "clockwise" else -1
        self._next = tuple((s + step) % players for s in range(players))
        self.hands = [0] * players
        self.active = [True] * players
        self.n_active = players
        self.out: list[int] = []
        self.discard: list[int] = []
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self._trick_emptied = False         # did a seat play its last card in this trick?
        self.led = -1
        self.best_seat = -1
        self.best_card = -1
        self.best_trump = False
        self.trump = -1
        self.leader = 0
        self.cur: int | None = 0
        self.decision = PLAY
        self.tricks = 0
        self.first_trick = True
        self.must_lead = -1
        self.drawn_lead = False
        self.faults = [0] * players
        self.forfeited: list[int] = []
        self.events: list[tuple] = []
        self.result: Result | None = None
        self._asked: set[int] = set()
        self.start: dict[str, Any] = {}
        self._views: dict[int, Any] = {}

    # ------------------------------------------------------------------ set-up
    @classmethod
    def deal(cls, rules: Rules, players: int, seed: int, dealer: int = 0) -> "Game":
        """Shuffle with ``seed`` and deal, starting with the player after ``dealer``."""
        game = cls(rules, players, seed, dealer)
        pack = list(range(PACK * rules.decks))
        _shuffle(game.rng, pack)
        seats = game._deal_order()
        if rules.deal == "single":
            for i, seat in enumerate(seats):     # card i goes to seats[i % players]
                game.hands[seat] = _mask(pack[i::players])
        else:
            start = 0
            for seat, size in zip(seats, game._pile_sizes(len(pack))):
                game.hands[seat] = _mask(pack[start:start + size])
                start += size
        game.start = {"hands": [_texts_of(h) for h in game.hands]}
        game._begin(leader=game._holder(_AS), first_trick=True)
        return game

    @classmethod
    def from_position(cls, rules: Rules, hands: list, leader: int, discard: list | None = None,
                      out: list | None = None, first_trick_done: bool = True, trump=None,
                      seed: int = 0, drawn=None) -> "Game":
        """A position set up by hand (tests, puzzles, solvers).

        ``hands`` are card lists (texts or Cards) per seat; seats in ``out`` hold
        none. ``discard=None`` puts every other card on the discard pile; an
        explicit list is used as given (cards in neither are out of play).
        ``drawn`` is a card the leader drew and must lead.
        """
        from arena.game.position import build_position
        return build_position(cls, rules, hands, leader, discard, out, first_trick_done, trump, seed, drawn)

    def _deal_order(self) -> list[int]:
        seats, s = [], self._next[self.dealer]
        for _ in range(self.players):
            seats.append(s)
            s = self._next[s]
        return seats

    def _pile_sizes(self, total: int) -> list[int]:
        """Single-deal sizes, then ``players`` random one-card moves (no pile empty)."""
        n = self.players
        sizes = [total // n + (1 if i < total % n else 0) for i in range(n)]
        for _ in range(n):
            a, b = self.rng.randrange(n), self.rng.randrange(n)
            if a != b and sizes[a] > 1:
                sizes[a] -= 1
                sizes[b] += 1
        return sizes

    def _holder(self, c: int) -> int:
        for seat, hand in enumerate(self.hands):
            if hand >> c & 1:
                return seat
        raise PositionError(f"nobody holds {CARDS[c]}")

    def _begin(self, leader: int, first_trick: bool, drawn: int = -1) -> None:
        self.events.append((ev.DEAL,))
        self.first_trick = first_trick
        self.leader = leader
        if first_trick:
            self.must_lead = _AS
            if self._take and self.n_active >= 3 and self.rules.take_from == "first_trick":
                self._ask_takes(leader)
            else:
                self._start_play(leader)
        else:
            self.must_lead = drawn
            self._next_trick(leader, drawn=drawn >= 0)
        self._auto()

    # ------------------------------------------------------------- public API
    @property
    def current(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return self.cur

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def trick(self) -> list[tuple[int, Card]]:
        """The current trick as (seat, card) pairs."""
        return [(s, CARDS[c]) for s, c in zip(self.trick_seats, self.trick_cards)]

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds, lowest id first."""
        from arena.game.cards import cards_of
        return cards_of(self.hands[seat])

    def legal_actions(self) -> tuple:
        """The legal actions now: Cards to play, or ``(False, True)`` for a take decision."""
        if self.cur is None:
            return ()
        if self.decision is TAKE:
            return (False, True)
        if not self.trick_cards:
            return legal_tuple(1 << self.must_lead if self.must_lead >= 0 else self.hands[self.cur])
        if self._one_pack:
            follow = self.hands[self.cur] >> (13 * self.led) & 0x1FFF
            if follow:
                return SUIT_CARDS[self.led][follow]
            if self.trump < 0:                          # a thulla: any card
                return legal_tuple(self.hands[self.cur])
        return legal_tuple(self._legal_mask())

    def _legal_mask(self) -> int:
        hand = self.hands[self.cur]
        if not self.trick_cards:
            return 1 << self.must_lead if self.must_lead >= 0 else hand
        follow = hand & SUIT_MASK[self.led]
        if follow:
            return follow
        if self.trump >= 0:
            trumps = hand & SUIT_MASK[self.trump]
            if trumps:
                return trumps
        return hand

    def apply(self, action) -> None:
        """Play a card (a Card or its text) or answer a take decision (a bool)."""
        if type(action) is Card and self.decision is PLAY and self.cur is not None:
            s = self.cur
            hand = self.hands[s]
            if not self.trick_cards:                    # the common cases, inlined: _legal_mask
                legal = hand if self.must_lead < 0 else 1 << self.must_lead
            elif self.trump < 0:
                legal = hand & SUIT_MASK[self.led] or hand
            else:
                legal = self._legal_mask()
            if legal >> action & 1:
                self.hands[s] = hand ^ 1 << action      # inlined: _play(action)
                self.events.append((_PLAY, s, action))
                self._place(s, action)
                if self.forfeited:
                    self._auto()
                return
        if self.cur is None:
            raise IllegalAction(f"the game is over; no action is legal (got {action!r})", action=action)
        if self.decision == TAKE:
            if not isinstance(action, bool):
                self._illegal(action)
            self._answer_take(action)
        else:
            if isinstance(action, bool) or not isinstance(action, (int, str)):
                self._illegal(action)
            c = action if type(action) is Card else self._parse_action(action)
            if not self._legal_mask() >> c & 1:
                self._illegal(action)
            self._play(c)
        self._auto()

    def _parse_action(self, action) -> int:
        try:
            return card(action)
        except ValueError:
            self._illegal(action)

    def _illegal(self, action) -> None:
        legal = self.legal_actions()
        shown = ", ".join(str(a) for a in legal)
        what = "a take decision (True or False)" if self.decision == TAKE else "a card"
        raise IllegalAction(
            f"seat {self.cur} may not play {action!r}: expected {what}, one of {shown}",
            seat=self.cur, action=action, legal=legal)

    def apply_fault(self, kind: str) -> None:
        """The current seat's bot faulted (``timeout``, ``crash``, ``illegal``, ``malformed``).

        Applies ``rules.fault_policy`` (RULES.md, Faults) and forfeits the seat
        after ``rules.max_faults`` faults in this game.
        """
        if kind not in FAULT_KINDS:
            raise IllegalAction(f"fault kind must be one of {', '.join(FAULT_KINDS)} (got {kind!r})",
                                seat=self.cur, action=kind)
        if self.cur is None:
            raise IllegalAction(f"the game is over; nobody can fault (got {kind!r})", action=kind)
        seat = self.cur
        self.faults[seat] += 1
        self.events.append((ev.FAULT, seat, kind))
        if self.faults[seat] >= self.rules.max_faults and seat not in self.forfeited:
            # Forfeit before the replacement action, so that it holds even if
            # that action ends the game.
            self.forfeited.append(seat)
            self.events.append((ev.FORFEIT, seat))
        if self.decision == TAKE:
            self._answer_take(False)
        elif self.rules.fault_policy == "penalty" and self.trick_cards:
            self._penalty_pickup(seat)
        else:
            self._play_random(ev.BY_FAULT)
        self._auto()

    def view(self, seat: int, time_left: float | None = None):
        """What ``seat`` may know now, as a :class:`arena.game.views.PlayerView`."""
        from arena.game.views import SeatTracker
        tracker = self._views.get(seat)
        if tracker is None:
            tracker = self._views[seat] = SeatTracker(seat, self.players, self.rules)
        tracker.feed_many(ev.for_seat(self, seat, tracker.seen_events))
        legal = self.legal_actions() if self.cur == seat else ()
        decision = self.decision if self.cur == seat else None
        return tracker.view(legal, decision, time_left)

    def seat_events(self, seat: int, start: int = 0) -> list[dict]:
        """The events from index ``start`` on, as ``seat`` sees them (JSON-ready)."""
        return ev.for_seat(self, seat, start)

    def to_record(self, **extra) -> dict:
        """The game record: JSON-ready, replayable with :meth:`from_record`."""
        from arena.game.record import to_record
        return to_record(self, **extra)

    @classmethod
    def from_record(cls, record: dict) -> "Game":
        """Replay a record, checking every step; raises :class:`arena.ReplayError`."""
        from arena.game.record import from_record
        return from_record(cls, record)

    def is_active(self, seat: int) -> bool:
        return self.active[seat]

    def next_active(self, seat: int) -> int:
        """The next seat after ``seat`` in play order that is still in the game."""
        s = self._next[seat]
        while not self.active[s]:
            s = self._next[s]
        return s

    def active_count(self) -> int:
        return self.n_active

    # ----------------------------------------------------------- playing cards
    def _play(self, c: int) -> None:
        s = self.cur
        self.hands[s] ^= 1 << c
        self.events.append((ev.PLAY, s, c))
        self._place(s, c)

    def _place(self, s: int, c: int) -> None:
        """Put card ``c`` of seat ``s`` on the trick and move the game on."""
        cards = self.trick_cards
        cards.append(c)
        self.trick_seats.append(s)
        if not self.hands[s]:
            self._trick_emptied = True
        suit = _SUIT[c]
        if self.led < 0:                        # the lead
            self.led = suit
            self.best_seat, self.best_card = s, c
            self.best_trump = suit == self.trump
            self.must_lead = -1
        elif suit == self.led:
            if not self.best_trump or suit == self.trump:
                if _RANK[c] > _RANK[self.best_card]:
                    self.best_seat, self.best_card = s, c
        elif self._trumps and (self.trump < 0 or suit == self.trump):
            if self.trump < 0:
                self.trump = suit
                self.events.append((ev.TRUMP, suit))
            if not self.best_trump or _RANK[c] > _RANK[self.best_card]:
                self.best_seat, self.best_card, self.best_trump = s, c, True
        elif not (self.first_trick and self._free_first):
            self._settle_pickup(s)
            return
        nxt = self._next[s]
        while not self.active[nxt]:
            nxt = self._next[nxt]
        if nxt == self.leader:
            self._settle_clean()
        else:
            self.cur = nxt

    def _play_random(self, by: str) -> None:
        legal = self._legal_mask()
        choice = legal_tuple(legal)[self.rng.randrange(legal.bit_count())]
        s = self.cur
        self.hands[s] ^= 1 << choice
        self.events.append((ev.PLAY, s, int(choice), by))
        self._place(s, int(choice))

    def _auto(self) -> None:
        """Play for forfeited seats (random legal cards; they never take)."""
        while self.cur is not None and self.cur in self.forfeited:
            if self.decision == TAKE:
                self._answer_take(False)
            else:
                self._play_random(ev.BY_AUTO)

    # --------------------------------------------------------- settling tricks
    def _emptied(self, skip: int) -> list[int]:
        """The seats of this trick (but ``skip``) that played their last card in it."""
        if not self._trick_emptied:
            return []
        hands = self.hands
        return [s for s in self.trick_seats if s != skip and not hands[s]]

    def _settle_pickup(self, thrower: int) -> None:
        picker = self.best_seat
        cards = tuple(self.trick_cards)
        self.hands[picker] |= _mask(cards)
        self.events.append((ev.PICKUP, picker, cards))
        drawn_cut = (self.drawn_lead and self.n_active == 2 and thrower != picker
                     and self.rules.drawn_cut_loses)
        emptied = self._emptied(picker)
        self._clear_trick()
        if emptied:
            self._go_out(emptied)
        if drawn_cut:
            if self.active[thrower]:
                self._go_out([thrower])
            self._finish(picker, "drawn_cut")
        elif self.n_active > 1 or not self._maybe_over(picker):
            self._next_trick(picker)

    def _penalty_pickup(self, seat: int) -> None:
        cards = tuple(self.trick_cards)
        self.hands[seat] |= _mask(cards)
        self.events.append((ev.PICKUP, seat, cards, ev.BY_FAULT))
        emptied = self._emptied(seat)
        self._clear_trick()
        self._go_out(emptied)
        if not self._maybe_over(seat):
            self._next_trick(seat)

    def _settle_clean(self) -> None:
        winner = self.best_seat
        cards = tuple(self.trick_cards)
        self.events.append((ev.CLEAN, winner, cards))
        emptied = self._emptied(-1)
        self._clear_trick()
        if self.hands[winner]:
            self.discard.extend(cards)
            if emptied:
                self._go_out(emptied)
            if self.n_active > 1 or not self._maybe_over(winner):
                self._next_trick(winner)
            return
        self._winner_without_cards(winner, cards, emptied)

    def _winner_without_cards(self, winner: int, cards: tuple, emptied: list[int]) -> None:
        """The escape rule: the clean-trick winner played their last card."""
        others = [s for s in emptied if s != winner]
        holders = [s for s in range(self.players) if self.active[s] and self.hands[s]]
        mode = self.rules.escape
        if mode == "pass_if_3plus":
            mode = "pass" if len(holders) + 1 >= 3 else "draw"
        if mode == "draw" and not self.discard:
            mode = "pass"
        if mode == "pass":
            self.discard.extend(cards)
            if not holders:
                self._simultaneous(winner, emptied)
                return
            self._go_out(emptied)
            if not self._maybe_over(None):
                self._next_trick(self.next_active(winner))
            return
        if not holders:
            self.discard.extend(cards)
            self._go_out(others)
            self._finish(winner, "last_player")
            return
        if mode == "draw":
            self._draw_from_pile(winner)
            self.discard.extend(cards)
            self._go_out(others)
        else:
            self.discard.extend(cards)
            self._go_out(others)
            self._draw_from_next_hand(winner)
        if not self._maybe_over(winner):
            self._next_trick(winner, drawn=True)

    def _draw_from_pile(self, seat: int) -> None:
        pile = self.discard
        i = self.rng.randrange(len(pile))
        c = pile[i]
        pile[i] = pile[-1]
        pile.pop()
        self.hands[seat] |= 1 << c
        self.must_lead = c
        self.events.append((ev.DRAW, seat, c, -1))

    def _draw_from_next_hand(self, seat: int) -> None:
        victim = self.next_active(seat)
        held = legal_tuple(self.hands[victim])
        c = int(held[self.rng.randrange(len(held))])
        self.hands[victim] ^= 1 << c
        self.hands[seat] |= 1 << c
        self.must_lead = c
        self.events.append((ev.DRAW, seat, c, victim))
        if not self.hands[victim]:
            self._go_out([victim])

    def _simultaneous(self, winner: int, emptied: list[int]) -> None:
        if self.rules.simultaneous == "highest_loses":
            self._go_out([s for s in emptied if s != winner])
            self._finish(winner, "simultaneous")
        else:
            self._finish(None, "draw", tied=emptied)

    def _clear_trick(self) -> None:
        self.trick_cards = []
        self.trick_seats = []
        self._trick_emptied = False
        self.led = -1
        self.drawn_lead = False
        if self.first_trick:
            self.first_trick = False

    def _go_out(self, seats: Iterable[int]) -> None:
        for s in seats:
            if self.active[s]:
                self.active[s] = False
                self.n_active -= 1
                self.out.append(s)
                self.events.append((ev.OUT, s, len(self.out) - 1))

    def _maybe_over(self, leader: int | None) -> bool:
        """End the game if at most one player is left; True when it ended."""
        if self.n_active > 1:
            return False
        left = [s for s in range(self.players) if self.active[s]]
        self._finish(left[0] if left else leader, "last_player")
        return True

    # ------------------------------------------------------- starting a trick
    def _next_trick(self, leader: int, drawn: bool = False) -> None:
        self.leader = leader
        self.drawn_lead = drawn
        if not drawn:
            self.must_lead = -1
        if self._take and self.n_active >= 3:
            self._ask_takes(leader)
            return
        if self._shootout and self.n_active == 2:
            self._start_trick()
        else:                                   # inlined: _start_play(leader)
            self.tricks += 1
            self.decision = PLAY
            self.cur = leader

    def _ask_takes(self, leader: int) -> None:
        """Start the take phase: the first seat asked follows ``rules.take_order``."""
        self._asked = set()
        self.decision = TAKE
        self.cur = leader if self.rules.take_order == "leader" else self.next_active(self.dealer)

    def _start_trick(self) -> None:
        if self.first_trick:        # after takes before trick 1 (take_from="first_trick")
            self.must_lead = _AS    # whoever holds AS now leads it
            self._start_play(self._holder(_AS))
            return
        leader = self.leader
        if self._shootout and self.n_active == 2:
            other = self.next_active(leader)
            if not any(self.hands[leader] & m and self.hands[other] & m for m in SUIT_MASK):
                self._go_out([other])
                self._finish(leader, "shootout")
                return
        self._start_play(leader)

    def _start_play(self, leader: int) -> None:
        self.tricks += 1
        self.decision = PLAY
        self.leader = leader
        self.cur = leader

    def _answer_take(self, take: bool) -> None:
        asker = self.cur
        self._asked.add(asker)
        if take:
            victim = self.next_active(asker)
            taken = self.hands[victim]
            self.hands[asker] |= taken
            self.hands[victim] = 0
            self.events.append((ev.TAKE, asker, True, victim, tuple(legal_tuple(taken))))
            self._go_out([victim])
            if victim == self.leader:
                self.leader = self.next_active(victim)
                self.must_lead = -1
                self.drawn_lead = False
        else:
            self.events.append((ev.TAKE, asker, False))
        nxt = self.next_active(asker)
        if self.active_count() >= 3 and nxt not in self._asked:
            self.cur = nxt
        else:
            self._start_trick()

    # ------------------------------------------------------------------ ending
    def _finish(self, loser: int | None, reason: str, tied: Iterable[int] = ()) -> None:
        tied = tuple(tied)
        order = list(self.out) + ([loser] if loser is not None else [])
        order += [s for s in tied if s not in order]
        order += [s for s in range(self.players) if s not in order]
        loser_cards = _cards_tuple(self.hands[loser]) if loser is not None else ()
        if self.forfeited:
            order = [s for s in order if s not in self.forfeited] + self.forfeited[::-1]
            loser, reason, tied = self.forfeited[0], "forfeit", ()
            loser_cards = _cards_tuple(self.hands[loser])
        for s in range(self.players):
            self.active[s] = False
        self.n_active = 0
        self.result = Result.build(order, loser, reason, loser_cards, tied)
        self.cur = None
        self.events.append((ev.END,))


_BITS = tuple(n.bit_length() for n in range(PACK * 2 + 1))


def _shuffle(rng: random.Random, cards: list) -> None:
    """``rng.shuffle(cards)``, the same permutation, without two Python calls per card.

    The Fisher-Yates loop of CPython's ``random.shuffle`` with its
    ``_randbelow`` (``getrandbits`` with rejection) inlined; deals therefore
    depend only on ``getrandbits``, which CPython keeps stable.
    """
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = _BITS[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _cards_tuple(mask: int) -> tuple[Card, ...]:
    return legal_tuple(mask)


def _texts_of(mask: int) -> list[str]:
    return list(map(TEXTS.__getitem__, legal_tuple(mask)))


def _mask(cards) -> int:
    """The bitmask of *distinct* cards (a pack's slice, a trick): one C-level sum."""
    return sum(map(BIT.__getitem__, cards))
