"""Setting up a game position by hand (tests, puzzles, solvers)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from arena.game.cards import ACE_OF_SPADES, PACK, SUIT_OF_TEXT, SUITS, Card, card, mask_of, parse_cards
from arena.game.errors import PositionError

if TYPE_CHECKING:
    from arena.game.rules import Rules


@dataclass(frozen=True, slots=True)
class Setup:
    """A checked hand-made position, ready for :class:`arena.game.state.State` (and the record's start)."""

    hands: tuple[int, ...]
    pile: tuple[int, ...]
    out: tuple[int, ...]
    trump: int
    drawn: int
    start: dict[str, Any]


def build_position(rules: Rules, hands: Sequence[Any], leader: int, discard: Iterable[Any] | None,
                   out: Iterable[int] | None, first_trick_done: bool, trump: int | str | None,
                   drawn: Card | str | int | None) -> Setup:
    """Check a position given by hand (see :meth:`arena.Game.from_position`) and return its :class:`Setup`."""
    rules.check_players(len(hands))
    parsed = [parse_cards(h) for h in hands]
    seen: set[int] = set()
    for seat, cards in enumerate(parsed):
        for c in cards:
            _check_card(c, rules.decks, seen, f"seat {seat}'s hand")
    masks = [mask_of(cards) for cards in parsed]
    given: Sequence[int] = (parse_cards(discard) if discard is not None
                            else [c for c in range(PACK * rules.decks) if c not in seen])
    for p in given:
        _check_card(p, rules.decks, seen, "the discard pile")
    out = list(out or [])
    _check_seats(masks, leader, out)
    pile = sorted(int(p) for p in given)
    trump_id = _trump(trump, rules)
    drawn_card = _drawn(drawn, masks, leader)
    if not first_trick_done and not masks[leader] >> int(ACE_OF_SPADES) & 1:
        raise PositionError(f"trick 1 is not done, so the leader must be the seat holding AS (got seat {leader}, "
                            f"which does not hold it)")
    if not first_trick_done and drawn_card is not None:
        raise PositionError(f"trick 1 is not done, so the leader must lead AS, not a drawn card (got {drawn_card})")
    start = {
        "hands": [[c.text for c in sorted(h)] for h in parsed], "leader": leader, "out": out,
        "discard": [card(c).text for c in pile], "trump": trump_text(trump_id),
        "first_trick_done": bool(first_trick_done), "drawn": drawn_card.text if drawn_card is not None else None,
    }
    drawn_id = int(drawn_card) if drawn_card is not None else -1
    return Setup(tuple(masks), tuple(pile), tuple(out), trump_id, drawn_id, start)


def given_deal(rules: Rules, players: int, hands: object) -> list[int]:
    """The hand masks of a deal given card by card (a deal book's): ``players`` non-empty hands that
    hold every card of the rules' pack exactly once; a :class:`PositionError` names what is wrong."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)) or len(hands) != players:
        got = len(hands) if isinstance(hands, (list, tuple)) else repr(hands)
        raise PositionError(f"a deal for {players} players needs {players} hands (got {got})")
    seen: set[int] = set()
    masks = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, (str, bytes)) or not isinstance(hand, (list, tuple)) or not hand:
            raise PositionError(f"seat {seat}'s hand must be a non-empty list of cards (got {hand!r})")
        cards = parse_cards(hand)
        for c in cards:
            _check_card(c, rules.decks, seen, f"seat {seat}'s hand")
        masks.append(mask_of(cards))
    missing = [card(c).text for c in range(PACK * rules.decks) if c not in seen]
    if missing:
        raise PositionError(f"a deal holds the whole pack ({PACK * rules.decks} cards), but "
                            f"{len(missing)} are in no hand: {' '.join(missing[:8])}"
                            f"{' ...' if len(missing) > 8 else ''}")
    return masks


def trump_text(trump: int) -> str | None:
    return SUITS[trump] if trump >= 0 else None


def _check_card(c: int, decks: int, seen: set[int], where: str) -> None:
    if c >= PACK * decks:
        raise PositionError(f"{c} in {where} needs a second pack, but decks is {decks}")
    if c in seen:
        raise PositionError(f"{c} appears twice (again in {where})")
    seen.add(c)


def _check_seats(hands: list[int], leader: object, out: list[int]) -> None:
    n = len(hands)
    if not isinstance(leader, int) or not 0 <= leader < n:
        raise PositionError(f"leader must be a seat 0..{n - 1} (got {leader!r})")
    for s in out:
        if not isinstance(s, int) or not 0 <= s < n:
            raise PositionError(f"out must list seats 0..{n - 1} (got {s!r})")
        if out.count(s) > 1:
            raise PositionError(f"out lists seat {s} twice")
        if hands[s]:
            raise PositionError(f"seat {s} is listed as out, so it must hold no cards (got {hands[s].bit_count()})")
    if leader in out or not hands[leader]:
        got = "listed as out" if leader in out else "holding no cards"
        raise PositionError(f"the leader must be a seat in the game holding a card (got seat {leader}, {got})")
    for s in range(n):
        if not hands[s] and s not in out:
            raise PositionError(f"seat {s} holds no cards, so it must be listed in out")
    if n - len(out) < 2:
        raise PositionError(f"a position needs at least two players in the game (got {n - len(out)})")


def _trump(trump: object, rules: Rules) -> int:
    if trump is None:
        return -1
    if not rules.trumps:
        raise PositionError(f"a trump suit needs rules with trumps on (got trump={trump!r})")
    if isinstance(trump, int) and 0 <= trump < 4:
        return trump
    if isinstance(trump, str) and trump in SUIT_OF_TEXT:
        return SUIT_OF_TEXT[trump]
    raise PositionError(f"trump must be a suit C, D, H or S, or its symbol (got {trump!r})")


def _drawn(drawn: Card | str | int | None, hands: list[int], leader: int) -> Card | None:
    if drawn is None:
        return None
    c = card(drawn)
    if not hands[leader] >> int(c) & 1:
        raise PositionError(f"the drawn card {c} must be in the leader's hand (seat {leader})")
    return c
