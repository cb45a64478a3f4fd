"""Worlds a seat cannot tell from the game it is in: ``resample_from_infostate``, and the state an OpenSpiel bot
searches from (made from a sandboxed bot's :class:`~arena.game.views.PlayerView`).

A world is dealt by the sampler's :class:`players.sampler.Worlds` from the seat's view (hand sizes, cards known
held, known voids, the pile, hidden draws), then set up on the rules core as a position
(:meth:`arena.Game.from_position`: the hands before the trick under way, the pile, who is out, the trump) and
the trick's plays made again; a take round under way resumes at the seat asked now, the seats asked before it
declining. The world's state keeps the seat's events so far as its ``origin``, so the seat's information
string and observation are the same in the world as in the game. The other seats know their world from its
position on (their strings start ``world``): an opponent's information in a world is its sampled hand and
the public position, not the game's true history.

A world whose replay is refused (a deal the rules core finds impossible for the plays seen, which
:class:`~players.sampler.Worlds` can give when its constraints are loose) is dealt again, up to
:data:`TRIES` times. Two packs are not sampled (as the sampler does not).
"""

from __future__ import annotations

import random
from typing import Any

from arena.game.cards import ACE_OF_SPADES, CARDS, PACK_MASK, cards_of, mask_of
from arena.game.engine import Game
from arena.game.errors import ArenaError
from arena.game.state import TAKE as TAKE_DECISION

from players.openspiel.core import Table
from players.openspiel.errors import OpenSpielError
from players.openspiel.observer import knowledge
from players.sampler import Worlds

TRIES = 50


def resample(table: Table, seat: int, rng: random.Random) -> Table:
    """A world in which ``seat``'s information is that of ``table``: the hidden cards dealt at random."""
    if table.over():
        return table.copy()
    if table.game is None:
        return _redeal(table, seat, rng)
    if table.rules.decks != 1:
        raise OpenSpielError(f"worlds are sampled for one pack only (got decks={table.rules.decks})")
    game = table.game
    st = game.state
    k = knowledge(table, seat)
    mine = st.cur == seat and table.pending < 0
    view = k.view(game.legal_actions() if mine else (), st.decision if mine else None)
    must = -1
    cur: int = st.cur  # type: ignore[assignment]  # not over: a seat is to act
    if not st.tcards and st.must >= 0 and (cur == seat or k.known_masks[cur] >> st.must & 1):
        must = st.must                                      # a drawn card the seat saw: the leader leads it
    return world(table, seat, view, st.cur, st.decision, table.events(seat), table.prefix[seat], rng,
                 pending=table.pending, must=must)


def from_view(view: Any, rng: random.Random, worlds: Worlds | None = None, dealer: int = 0) -> Table:
    """The state a bot at ``view``'s decision searches from: a world consistent with its view (``worlds``:
    :class:`~players.sampler.Worlds` of that view, made once a decision)."""
    if view.rules.decks != 1:
        raise OpenSpielError(f"worlds are sampled for one pack only (got decks={view.rules.decks})")
    table = Table(view.rules, view.players, dealer)
    must = int(view.legal[0]) if not view.trick and view.decision == "play" and _leads_drawn(view) else -1
    return world(table, view.seat, view, view.seat, view.decision, list(view.history), f"p{view.seat} view",
                 rng, must=must, worlds=worlds)


def world(table: Table, seat: int, view: Any, current: int | None, decision: str | None,
          origin: list[dict[str, Any]], prefix: str, rng: random.Random, pending: int = -1,
          must: int = -1, worlds: Worlds | None = None) -> Table:
    """A world at ``view``'s position in which ``seat``'s events so far are ``origin`` (its information string
    starting ``prefix``), ``current`` to act with ``decision`` (and, if ``pending``, that card's draw to come)."""
    worlds = worlds or Worlds(view)
    last = ""
    for _ in range(TRIES):
        hands = worlds.deal(rng)
        try:
            new = _set_up(table, view, worlds, hands, must, current)
        except ArenaError as e:                             # a deal the plays seen rule out: deal again
            last = str(e)
            continue
        if not _agrees(new, view, seat, current, decision, pending):
            last = "the world's turn differs"
            continue
        new.origin = [origin if s == seat else [] for s in range(table.players)]
        new.base = [len(new.game.events) if s == seat else 0 for s in range(table.players)]  # type: ignore[union-attr]
        new.prefix = [prefix if s == seat else f"p{s} world" for s in range(table.players)]
        new.strings = None
        return new
    raise OpenSpielError(f"no world consistent with seat {seat}'s view in {TRIES} deals ({last})")


def _set_up(table: Table, view: Any, worlds: Worlds, hands: list[int], must: int, current: int | None) -> Table:
    """The world of ``hands`` (each seat's cards now, the trick's aside) as a table in play."""
    trick = [(s, int(c)) for s, c in view.trick]
    before = list(hands)
    for s, c in trick:
        before[s] |= 1 << c
    held = worlds.trick_mask
    for h in hands:
        held |= h
    pile = cards_of(PACK_MASK & ~held)
    if trick:
        leader = trick[0][0]
    elif view.next_leader is not None:                      # who leads next, as the seat can tell
        leader = view.next_leader
    elif view.first_trick:                                  # before trick 1: the world's AS holder
        leader = next(s for s in range(table.players) if before[s] >> ACE_OF_SPADES & 1)
    else:
        leader = current if current is not None else view.seat
    drawn = None
    if not view.first_trick:                                # (trick 1 is led with AS, never a drawn card)
        drawn = trick[0][1] if trick and worlds.drawn_lead else (must if not trick and must >= 0 else None)
    out = list(view.out)
    new = Table(table.rules, table.players, table.dealer)
    new.dealt, new.moves = table.dealt, table.moves
    game = Game.from_position(table.rules, [cards_of(before[s]) for s in range(table.players)], leader, pile, out,
                              first_trick_done=not view.first_trick, trump=view.trump, drawn=drawn)
    new.start(game)
    while trick and game.state.cur is not None and game.state.decision is TAKE_DECISION:
        game.apply(False)                                   # the take round before this trick was over
    for _, c in trick:
        game.apply(CARDS[c])
    return new


def _agrees(new: Table, view: Any, seat: int, current: int | None, decision: str | None, pending: int) -> bool:
    """Is the world's turn the game's: the same seat to act on the same decision (the take round resumed at
    it), the seat's legal actions the same, and a pending play's draw to come?"""
    game = new.game
    st = game.state  # type: ignore[union-attr]
    while st.cur is not None and st.decision is TAKE_DECISION and (st.cur != current or decision != TAKE_DECISION):
        game.apply(False)  # type: ignore[union-attr]
    if st.cur != current or st.decision != decision:
        return False
    if current == seat and pending < 0 and decision != TAKE_DECISION and mask_of(view.legal) != mask_of(
            game.legal_actions()):  # type: ignore[union-attr]
        return False
    if pending >= 0:
        if not st.legal_mask() >> pending & 1:             # the card being played is not the world's to play
            return False
        new._play(pending)
        return new.pending >= 0
    return True


def _leads_drawn(view: Any) -> bool:
    """Must the seat lead a card it has just drawn (its only legal card, drawn since the last trick)?"""
    if len(view.legal) != 1 or len(view.hand) == 1:
        return False
    for e in reversed(view.history):
        if e["type"] == "draw":
            return bool(e["seat"] == view.seat)
        if e["type"] in ("clean", "pickup", "play"):
            return False
    return False


def _redeal(table: Table, seat: int, rng: random.Random) -> Table:
    """While dealing: the cards dealt to the other seats so far drawn again from all the seat does not hold."""
    mine = {c for i, c in enumerate(table.dealt) if table.order[i % table.players] == seat}
    others = [c for c in range(table.deck) if c not in mine]
    rng.shuffle(others)
    new = table.copy()
    it = iter(others)
    new.dealt = [c if table.order[i % table.players] == seat else next(it) for i, c in enumerate(table.dealt)]
    return new
