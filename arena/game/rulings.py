"""The rule decisions the rules core and the solver share: pure functions on hand masks and small ints.

:class:`arena.game.state.State` (the engine's and the playouts' rules) and the
two-player solver (:mod:`arena.game.solver`) both call these, so each of these
rules (docs/rules.md) is written once:

- :func:`lead_mask`, :func:`follow_mask`: which cards may be played;
- :func:`follow_step` (:data:`STEP`, its table): the trick step, what a card
  does to the trick's winning card: takes it, falls under it, or cuts;
- :func:`drawn_cut_ends`: ``drawn_cut_loses``;
- :func:`escape_mode`, :func:`winner_without_cards`: what a clean-trick winner
  who played their last card does (``escape``, ``simultaneous``);
- :func:`no_common_suit`: the shootout.

and the rule options as they test them: :class:`RuleFlags`, compiled once per
:class:`arena.game.rules.Rules` by :func:`rule_flags`, so that what an option means to the code
(``first_trick == "free"``, the escape mode's number, the direction's step) is written once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from arena.game.cards import BIT, CARDS, PACK, SUIT_MASK
from arena.game.rules import MAX_PLAYERS, Rules

PASS, DRAW, DRAW_NEXT, PASS3 = 0, 1, 2, 3
MODES = {"pass": PASS, "draw": DRAW, "draw_next_hand": DRAW_NEXT, "pass_if_3plus": PASS3}
SIMULTANEOUS, TIED, ALONE = 4, 5, 6
"""The other answers of :func:`winner_without_cards`: the winner is the Bhabhi (``highest_loses``), the
game is a draw, the winner is the last player left (it cannot get away and nobody else holds cards)."""


@dataclass(frozen=True, slots=True)
class RuleFlags:
    """The options of a :class:`~arena.game.rules.Rules` as the rules core, the solver and the
    policies test them; :func:`rule_flags` makes them, each from its option (docs/rules.md)."""

    trumps: bool
    """``trumps``: Donkey, the first card that cannot follow fixes the trump suit."""
    free_first: bool
    """``first_trick == "free"``: trick 1 is discarded whatever is played (nobody picks it up)."""
    take: bool
    """``neighbour_take``: a take phase before each trick (with three or more players in)."""
    take_first: bool
    """``take_from == "first_trick"``: the take phase comes before trick 1 too."""
    take_dealer: bool
    """``take_order == "dealer_left"``: the dealer's next seat is asked first, not the leader."""
    shootout: bool
    """``shootout``: two players left with no suit in common, the leader loses."""
    cut_loses: bool
    """``drawn_cut_loses`` (:func:`drawn_cut_ends`)."""
    escape: int
    """``escape`` as :data:`MODES` numbers it (:func:`escape_mode`)."""
    highest_loses: bool
    """``simultaneous == "highest_loses"`` (:func:`winner_without_cards`)."""
    plain: bool
    """No take phase and no shootout: a trick's winner (or picker) simply leads the next one."""
    step: int
    """``direction``: 1 clockwise (the next seat is ``seat + 1``), -1 anticlockwise."""
    next_seat: tuple[tuple[int, ...], ...]
    """``next_seat[players][seat]``: the next seat in play order at a table of ``players`` (any size up to
    :data:`~arena.game.rules.MAX_PLAYERS`), out or not."""


@functools.cache
def rule_flags(rules: Rules) -> RuleFlags:
    """The :class:`RuleFlags` of ``rules``, made once per rule set (a cache of this pure function)."""
    step = 1 if rules.direction == "clockwise" else -1
    return RuleFlags(
        trumps=rules.trumps,
        free_first=rules.first_trick == "free",
        take=rules.neighbour_take,
        take_first=rules.take_from == "first_trick",
        take_dealer=rules.take_order == "dealer_left",
        shootout=rules.shootout,
        cut_loses=rules.drawn_cut_loses,
        escape=MODES[rules.escape],
        highest_loses=rules.simultaneous == "highest_loses",
        plain=not (rules.neighbour_take or rules.shootout),
        step=step,
        next_seat=tuple(tuple((s + step) % n for s in range(n)) for n in range(MAX_PLAYERS + 1)),
    )


def lead_mask(hand: int, must: int) -> int:
    """The cards a leader may lead: any, or the card it must lead (a drawn one, the Ace of Spades; -1: none)."""
    return hand if must < 0 else BIT[must]


def follow_mask(hand: int, led: int, trump: int = -1) -> int:
    """The cards a following seat may play to a trick led in suit ``led``: that suit if it holds any;
    else (Donkey, ``trump`` >= 0) a trump if it holds any; else any card."""
    follow = hand & SUIT_MASK[led]
    if follow:
        return follow
    if trump >= 0:
        return hand & SUIT_MASK[trump] or hand
    return hand


HOLDS, TAKES, CUTS = 0, 1, 2
"""The answers of :func:`follow_step`."""


def follow_step(best: int, c: int) -> int:
    """The trick step: what card ``c`` does to a trick whose winning card so far is ``best``.

    ``TAKES``: a higher card of ``best``'s suit, ``c`` wins the trick so far (the
    higher card of the led suit wins; of two equal cards, two packs, the first
    played keeps it); ``HOLDS``: a lower or equal card of that suit; ``CUTS``: a
    card of another suit, a thulla: the trick stops and the holder of ``best``
    (the highest card of the led suit) picks it up. With trumps (Donkey) a
    card of another suit may be a trump instead: the rules core decides that
    (:class:`arena.game.state.State`), the solver has no trumps.
    """
    if c % PACK // 13 != best % PACK // 13:
        return CUTS
    return TAKES if c % 13 > best % 13 else HOLDS


STEP = tuple(tuple(follow_step(best, c) for c in range(len(CARDS))) for best in range(len(CARDS)))
"""``STEP[best][c]`` is :func:`follow_step` ``(best, c)``: the form the hot paths index."""


def drawn_cut_ends(cut_loses: bool, drawn_lead: bool, players: int, thrower: int, picker: int) -> bool:
    """Does a cut end the game, the picker (the leader) losing? ``drawn_cut_loses``: with two players
    active, a drawn lead cut by the other player."""
    return cut_loses and drawn_lead and players == 2 and thrower != picker


def escape_mode(escape: int, players_left: int, pile: bool) -> int:
    """What a clean-trick winner without cards does: ``PASS``, ``DRAW`` or ``DRAW_NEXT``.

    ``escape`` is the rule (:data:`MODES`), ``players_left`` the active players
    holding cards counting the winner, ``pile`` whether the discard pile (before
    this trick) holds a card: ``pass_if_3plus`` passes with three or more,
    draws with two; a draw from an empty pile is a pass.
    """
    if escape == PASS3:
        escape = PASS if players_left >= 3 else DRAW
    if escape == DRAW and not pile:
        return PASS
    return escape


def winner_without_cards(escape: int, holders: int, pile: bool, highest_loses: bool) -> int:
    """The escape rule, whole: the winner of a clean trick played their last card and ``holders`` other
    active players still hold cards.

    ``PASS`` (the winner is out; the lead passes on), ``DRAW`` / ``DRAW_NEXT`` (it
    draws a card and leads it), or, when nobody else holds cards, the end of the
    game: ``SIMULTANEOUS`` (every hand emptied on this trick and the winner, who
    played its highest card, is the Bhabhi), ``TIED`` (the same under
    ``simultaneous = "draw"``) or ``ALONE`` (the winner cannot get away and is
    the last player left).
    """
    mode = escape_mode(escape, holders + 1, pile)
    if holders:
        return mode
    if mode == PASS:
        return SIMULTANEOUS if highest_loses else TIED
    return ALONE


def no_common_suit(a: int, b: int) -> bool:
    """Two hands with no suit in common (the shootout ends the game: the leader loses)."""
    m0, m1, m2, m3 = SUIT_MASK
    return not ((a & m0 and b & m0) or (a & m1 and b & m1) or (a & m2 and b & m2) or (a & m3 and b & m3))
