"""Known positions: the seeds' worked examples and every value of every option."""

import random

import pytest

from arena import Game, IllegalAction, PositionError, Rules, card
from arena.game.cards import PACK


def last(game, kind):
    """The last engine event of one type, as the full record shows it."""
    return next(e for e in reversed(game.to_record()["events"]) if e["type"] == kind)


def kinds(game):
    """The types of every event so far."""
    return [e[0] for e in game.events]


# --------------------------------------------------------------- the seeds
def test_seed000_clean_trick(position, play, hand_of):
    """Seed 000: Asma 6H, Bilal JH, Hina 3H, Danish 9H: discarded, Bilal leads."""
    asma, bilal, hina, danish = range(4)
    g = position("playnest", ["6H 2C", "JH 3C", "3H 4C", "9H 5C"], leader=asma)
    play(g, (asma, "6H"), (bilal, "JH"), (hina, "3H"), (danish, "9H"))
    assert last(g, "clean") == {"type": "clean", "seat": bilal, "cards": ["6H", "JH", "3H", "9H"]}
    assert {card(c) for c in ("6H", "JH", "3H", "9H")} <= set(g.state.pile)
    assert (g.current, g.decision, g.trick) == (bilal, "play", [])
    assert [len(g.hand(s)) for s in range(4)] == [1, 1, 1, 1]


def test_seed000_thulla(position, play, hand_of):
    """Seed 000: 10C, KC, Hina cuts 4D: Danish does not play, Bilal picks up all three and leads."""
    asma, bilal, hina, danish = range(4)
    g = position("playnest", ["TC 2S", "KC 3S", "4D 5S", "9C 6S"], leader=asma)
    play(g, (asma, "10C"), (bilal, "KC"), (hina, "4D"))
    assert last(g, "pickup") == {"type": "pickup", "seat": bilal, "cards": ["TC", "KC", "4D"]}
    assert hand_of(g, bilal) == {"TC", "KC", "4D", "3S"}
    assert hand_of(g, danish) == {"9C", "6S"}
    assert (g.current, g.trick) == (bilal, [])
    assert "clean" not in kinds(g)


def test_seed003_thulla(position, play, hand_of):
    """Seed 003: West 2H, North 6H, East KD: North picks up three cards and leads; South does not play."""
    west, north, east, south = range(4)
    g = position("getaway", ["2H 3C", "6H 4C", "KD 5C", "7H 6C"], leader=west)
    play(g, (west, "2H"), (north, "6H"), (east, "KD"))
    assert hand_of(g, north) == {"2H", "6H", "KD", "4C"}
    assert hand_of(g, south) == {"7H", "6C"}
    assert g.current == north and g.decision == "play"
    assert len(g.legal_actions()) == 4


def test_cut_right_after_the_leader_returns_the_lead(position, play, hand_of):
    """Seed 003: if the player right after the leader cuts, the leader picks up their card and the thulla."""
    g = position("getaway", ["2H 3C", "4C", "5H 6C"], leader=0)
    play(g, (0, "2H"), (1, "4C"))
    assert hand_of(g, 0) == {"2H", "3C", "4C"}
    assert g.current == 0 and hand_of(g, 2) == {"5H", "6C"}


def test_seed002_shootout_after_a_thulla(position, play, hand_of):
    """Seed 002 example 1: Sara cuts with her last card, Ahmed picks up; no common suit: Ahmed is the Bhabhi."""
    ahmed, sara, hina, gone = range(4)
    g = position("champions", ["4D JD", "6H", "KC 2C", []], leader=ahmed, out=[gone])
    play(g, (ahmed, "4D"), (sara, "6H"))
    r = g.result
    assert g.is_over and r.reason == "shootout"
    assert r.order == (gone, sara, hina, ahmed) and r.loser == ahmed
    assert {str(c) for c in r.loser_cards} == {"4D", "JD", "6H"}
    assert r.penalty == (3, 1, 2, 0)
    assert hand_of(g, hina) == {"KC", "2C"}


def test_seed002_shootout_after_a_clean_trick(position, play):
    """Seed 002 example 2: Hina wins the clean trick and leads into a void: Hina is the Bhabhi, Ahmed safe."""
    ahmed, sara, hina = range(3)
    g = position("champions", ["3H 9D", "8H", "KH 2S"], leader=ahmed)
    play(g, (ahmed, "3H"), (sara, "8H"), (hina, "KH"))
    r = g.result
    assert r.reason == "shootout" and r.loser == hina
    assert r.order == (sara, ahmed, hina) and not r.draw
    assert [str(c) for c in r.loser_cards] == ["2S"]


def test_seed002_no_shootout_with_a_common_suit(position, play):
    """Seed 002: Ahmed 9D against Hina 2D KS share diamonds, so play goes on."""
    ahmed, sara, hina = range(3)
    g = position("champions", ["3H 9D", "8H", "KH 2D KS"], leader=ahmed)
    play(g, "3H", "8H", "KH")
    assert not g.is_over and g.current == hina and g.state.out == [sara]


def test_shootout_off_plays_on(position, play):
    """With shootout off (playnest) the same position as seed 002 example 1 plays on, Ahmed leading."""
    g = position("playnest", ["4D JD", "6H", "KC 2C"], leader=0)
    play(g, "4D", "6H")
    assert not g.is_over and g.current == 0 and g.state.out == [1]


def test_shootout_is_checked_before_a_hand_made_positions_first_trick(position):
    """A position that starts with two players and no common suit is over at once (leader loses)."""
    g = position("champions", ["4D", "KC 2C", []], leader=0, out=[2])
    assert g.is_over and g.result.reason == "shootout" and g.result.order == (2, 1, 0)


# ---------------------------------------------------------- first_trick
FIRST = ["AS 2C 3C", "2H 3H 4H", "KS 2S 5H", "3D 4D 5D"]


def test_first_trick_must_lead_the_ace_of_spades(position):
    """Trick 1: the Ace of Spades holder must lead it; a spade holder must follow with any spade."""
    g = position("getaway", FIRST, leader=0, first_trick_done=False)
    assert [str(c) for c in g.legal_actions()] == ["AS"]
    g.apply("AS")
    assert len(g.legal_actions()) == 3
    g.apply("2H")
    assert sorted(str(c) for c in g.legal_actions()) == ["2S", "KS"]


def test_first_trick_free_discards_everything(position, play, hand_of):
    """first_trick=free: non-spades do not stop trick 1; all four cards are discarded and AS leads trick 2."""
    g = position("getaway", FIRST, leader=0, first_trick_done=False)
    play(g, (0, "AS"), (1, "2H"), (2, "2S"), (3, "3D"))
    assert "pickup" not in kinds(g)
    assert last(g, "clean")["seat"] == 0
    assert {card(c) for c in ("AS", "2H", "2S", "3D")} <= set(g.state.pile)
    assert g.current == 0 and [len(g.hand(s)) for s in range(4)] == [2, 2, 2, 2]


def test_first_trick_normal_is_a_thulla(position, play, hand_of):
    """first_trick=normal: a non-spade on trick 1 is a thulla; the Ace of Spades holder picks up."""
    g = position("getaway", FIRST, leader=0, first_trick_done=False, overrides={"first_trick": "normal"})
    play(g, (0, "AS"), (1, "2H"))
    assert hand_of(g, 0) == {"AS", "2H", "2C", "3C"}
    assert hand_of(g, 2) == {"KS", "2S", "5H"} and hand_of(g, 3) == {"3D", "4D", "5D"}
    assert g.current == 0


def test_a_deal_starts_with_the_ace_of_spades_holder():
    """A dealt game starts with the Ace of Spades holder, whose only legal card is AS."""
    for seed in range(20):
        g = Game.deal(Rules.preset("getaway"), 5, seed)
        assert g.state.hands[g.current] >> int(card("AS")) & 1
        assert [str(c) for c in g.legal_actions()] == ["AS"]


# --------------------------------------------------------------- escape
LAST_CARD = ["AH", "2H 3C", "5H 4C", "6H 7C"]


def _win_with_last_card(position, play, escape, hands=LAST_CARD, **kw):
    g = position("getaway", hands, leader=0, overrides={"escape": escape}, **kw)
    play(g, *[(s, h.split()[0]) for s, h in enumerate(hands) if h])
    return g


def test_escape_pass(position, play):
    """escape=pass: the winner of a clean trick with their last card is out; the next player leads."""
    g = _win_with_last_card(position, play, "pass")
    assert g.state.out == [0] and g.current == 1 and "draw" not in kinds(g)


def test_escape_draw(position, play):
    """escape=draw: the winner draws a card from the pile as it stood before the trick and must lead it."""
    g = position("getaway", LAST_CARD, leader=0)
    pile_before = set(g.state.pile)
    play(g, "AH", "2H", "5H", "6H")
    drawn = last(g, "draw")
    assert drawn["seat"] == 0 and drawn["from"] == "pile"
    assert card(drawn["card"]) in pile_before
    assert [str(c) for c in g.hand(0)] == [drawn["card"]]
    assert [str(c) for c in g.legal_actions()] == [drawn["card"]]
    assert g.current == 0 and g.state.out == [] and g.state.active[0]
    assert {card(c) for c in ("AH", "2H", "5H", "6H")} <= set(g.state.pile)


def test_escape_draw_with_an_empty_pile_passes(position, play):
    """escape=draw with an empty pile (before the trick) applies pass instead."""
    g = _win_with_last_card(position, play, "draw", discard=[])
    assert g.state.out == [0] and g.current == 1 and "draw" not in kinds(g)


def test_escape_draw_draws_again_when_nobody_beats_the_drawn_card(position, play):
    """Seed 003: the drawer leads the drawn card; if nobody plays higher and nobody cuts, they draw again."""
    g = position("getaway", ["AH", "2H 3H 4H", []], leader=0, out=[2], discard=["KH", "QH"])
    play(g, "AH", "2H")
    first = last(g, "draw")["card"]
    assert first in ("KH", "QH")
    play(g, first, "3H")
    assert [e[0] for e in g.events].count("draw") == 2
    second = last(g, "draw")["card"]
    assert second in {"KH", "QH", "AH", "2H"} - {first}
    assert g.current == 0 and not g.is_over


def test_escape_draw_is_out_when_someone_plays_higher(position, play):
    """Seed 003: if someone beats the drawn card, the drawer is out when the trick is settled."""
    g = position("getaway", ["AH", "2H KH 9C", "3H 4H 8C"], leader=0, discard=["5H"])
    play(g, "AH", "2H", "3H")
    assert last(g, "draw")["card"] == "5H"
    play(g, "5H", "KH", "4H")
    assert g.state.out == [0] and g.current == 1 and last(g, "clean")["seat"] == 1


def test_escape_draw_last_player_left_is_the_bhabhi(position, play):
    """Under draw, a winner with no cards whose opponents all got out on that trick is the Bhabhi."""
    g = position("getaway", ["5H", "AH", []], leader=0, out=[2])
    play(g, "5H", "AH")
    assert g.result.loser == 1 and g.result.order == (2, 0, 1) and g.result.reason == "last_player"


def test_escape_draw_next_hand(position, play, hand_of):
    """escape=draw_next_hand: the card comes from the next holder's hand; a hand left empty is out, placed next."""
    g = _win_with_last_card(position, play, "draw_next_hand")
    drawn = last(g, "draw")
    assert drawn == {"type": "draw", "seat": 0, "card": "3C", "from": 1}
    assert g.state.out == [1] and hand_of(g, 0) == {"3C"} and g.current == 0
    assert kinds(g)[-2:] == ["draw", "out"]


def test_escape_draw_next_hand_keeps_a_nonempty_victim(position, play, hand_of):
    """escape=draw_next_hand: a victim with cards left stays in; the drawn card leaves their hand."""
    hands = ["AH", "2H 3C 4C", "5H 4D", "6H 7C"]
    g = _win_with_last_card(position, play, "draw_next_hand", hands=hands)
    drawn = last(g, "draw")["card"]
    assert drawn in ("3C", "4C") and hand_of(g, 0) == {drawn}
    assert hand_of(g, 1) == {"3C", "4C"} - {drawn} and g.state.out == []


def test_escape_pass_if_3plus_passes_with_three_active(position, play):
    """escape=pass_if_3plus: with the winner and two holders left (three active), the winner gets out."""
    g = _win_with_last_card(position, play, "pass_if_3plus", hands=["AH", "2H 3C", "5H 4C"])
    assert g.state.out == [0] and g.current == 1


def test_escape_pass_if_3plus_draws_with_two_active(position, play):
    """escape=pass_if_3plus: with only the winner and one holder left, the winner draws."""
    g = _win_with_last_card(position, play, "pass_if_3plus", hands=["AH", "2H", "5H 4C"])
    assert g.state.out == [1] and last(g, "draw")["seat"] == 0 and g.current == 0
    g2 = _win_with_last_card(position, play, "pass_if_3plus", hands=["AH", "2H 3C", "", ""], out=[2, 3])
    assert g2.state.out == [2, 3] and last(g2, "draw")["seat"] == 0


# --------------------------------------------------------- simultaneous
SIMUL = ["5H", "AH", "2H", []]


def test_simultaneous_highest_loses(position, play):
    """simultaneous=highest_loses: every hand emptied on one clean trick: the highest card is the Bhabhi."""
    g = position("playnest", SIMUL, leader=0, out=[3])
    play(g, "5H", "AH", "2H")
    r = g.result
    assert (r.reason, r.loser, r.order, r.draw) == ("simultaneous", 1, (3, 0, 2, 1), False)
    assert r.penalty == (1, 3, 2, 0) and r.loser_cards == ()


def test_simultaneous_draw(position, play):
    """simultaneous=draw: the players who emptied their hands share the last place; no Bhabhi."""
    g = position("champions", SIMUL, leader=0, out=[3])
    play(g, "5H", "AH", "2H")
    r = g.result
    assert (r.reason, r.loser, r.draw) == ("draw", None, True)
    assert r.tied == (0, 1, 2) and r.order == (3, 0, 1, 2)
    assert r.ranks == (1, 1, 1, 0) and r.penalty == (1, 1, 1, 0)


def test_simultaneous_draw_with_nobody_out_before(position, play):
    """A draw where nobody got out earlier: all tied at rank 0, penalty 0 for all."""
    g = position("champions", ["5H", "AH", "2H"], leader=0)
    play(g, "5H", "AH", "2H")
    assert g.result.draw and g.result.ranks == (0, 0, 0) and g.result.penalty == (0, 0, 0)


# ------------------------------------------------------ drawn_cut_loses
DRAWN_CUT = dict(hands=["AH", "2H 3C 4C", []], leader=0, out=[2], discard=["KD"])


def test_drawn_cut_loses_on(position, play):
    """drawn_cut_loses: two left, the leader leads a drawn card and the other cuts: the leader loses at once."""
    g = position("getaway", **DRAWN_CUT)
    play(g, "AH", "2H")
    assert last(g, "draw")["card"] == "KD"
    play(g, "KD", "3C")
    r = g.result
    assert (r.reason, r.loser, r.order) == ("drawn_cut", 0, (2, 1, 0))
    assert {str(c) for c in r.loser_cards} == {"KD", "3C"}


def test_drawn_cut_loses_off(position, play, hand_of):
    """Without drawn_cut_loses the leader just picks up the drawn card and the thulla, and leads again."""
    g = position("getaway", overrides={"drawn_cut_loses": False}, **DRAWN_CUT)
    play(g, "AH", "2H", "KD", "3C")
    assert not g.is_over and g.current == 0
    assert hand_of(g, 0) == {"KD", "3C"} and hand_of(g, 1) == {"4C"}


def test_drawn_cut_loses_applies_to_draw_next_hand(position, play):
    """drawn_cut_loses also applies to a card drawn from the next hand."""
    g = position("getaway", ["AH", "2H KD 3C", []], leader=0, out=[2], overrides={"escape": "draw_next_hand"})
    play(g, "AH", "2H")
    drawn = last(g, "draw")["card"]
    other = ({"KD", "3C"} - {drawn}).pop()
    play(g, drawn, other)
    assert g.result.reason == "drawn_cut" and g.result.loser == 0


def test_drawn_cut_needs_two_players(position, play):
    """With three active, a cut on a drawn lead is an ordinary thulla."""
    g = position("getaway", ["AH", "2H 3C 4C", "5H 6C 7C"], leader=0, discard=["KD"])
    play(g, "AH", "2H", "5H", "KD", "3C")
    assert not g.is_over and g.current == 0


def test_drawn_card_from_a_position(position, play):
    """A position's ``drawn`` card is the leader's only legal lead and counts as a drawn lead."""
    g = position("getaway", ["KD 2S", "3C 4C", []], leader=0, out=[2], drawn="KD")
    assert [str(c) for c in g.legal_actions()] == ["KD"]
    play(g, "KD", "3C")
    assert g.result.reason == "drawn_cut"


# ---------------------------------------------------------------- trumps
def test_donkey_first_non_follower_sets_trumps_and_does_not_end_the_trick(position, play, hand_of):
    """Donkey: the first card that cannot follow fixes the trump suit, the trick goes on and the trump wins."""
    g = position("donkey", ["5H 2S", "3H 3S", "2C 4D", "9H 4S"], leader=0)
    play(g, (0, "5H"), (1, "3H"))
    assert len(g.legal_actions()) == 2
    play(g, (2, "2C"))
    assert g.state.trump == 0 and last(g, "trump") == {"type": "trump", "suit": "C"}
    assert g.current == 3 and [str(c) for c in g.legal_actions()] == ["9H"]
    play(g, (3, "9H"))
    assert last(g, "clean")["seat"] == 2 and g.current == 2
    assert "pickup" not in kinds(g) and hand_of(g, 2) == {"4D"}


def test_donkey_must_trump_and_a_non_trump_discard_ends_the_trick(position, play, hand_of):
    """Donkey: a void player holding trumps must trump; one with neither cuts, ending the trick; the trump picks up."""
    g = position("donkey", ["5H 2S", "2C 3S", "4D 5S", "9H 4S"], leader=0, trump="C")
    play(g, (0, "5H"))
    assert [str(c) for c in g.legal_actions()] == ["2C"]
    play(g, (1, "2C"))
    assert len(g.legal_actions()) == 2
    play(g, (2, "4D"))
    assert last(g, "pickup") == {"type": "pickup", "seat": 1, "cards": ["5H", "2C", "4D"]}
    assert hand_of(g, 3) == {"9H", "4S"} and g.current == 1


def test_donkey_highest_trump_wins(position, play):
    """Donkey: of several trumps the highest wins, above the highest card of the led suit."""
    g = position("donkey", ["5H 2S", "2C 3S", "9C 5S", "AH 4S"], leader=0, trump="C")
    play(g, "5H", "2C", "9C", "AH")
    assert last(g, "clean")["seat"] == 2 and g.current == 2


def test_donkey_trump_led(position, play, hand_of):
    """Donkey: when a trump is led everyone must play trumps; one who cannot plays any card, a thulla."""
    g = position("donkey", ["5C 2S", "KC 3S", "4D 5S", "9C 4S"], leader=0, trump="C")
    play(g, "5C")
    assert [str(c) for c in g.legal_actions()] == ["KC"]
    play(g, "KC", "4D")
    assert hand_of(g, 1) == {"5C", "KC", "4D", "3S"} and g.current == 1


def test_donkey_trick_one_free_with_trumps(position, play):
    """Donkey trick 1 (free): a void sets trumps, a later void without trumps does not stop it, the highest
    trump leads next."""
    hands = ["AS 2C", "2H 3H", "4D 6D", "KS 4C", "3D 5H"]
    g = position("donkey", hands, leader=0, first_trick_done=False)
    play(g, (0, "AS"), (1, "2H"))
    assert g.state.trump == 2
    assert len(g.legal_actions()) == 2   # seat 2: no spade, no heart: anything, and it does not end trick 1
    play(g, (2, "4D"), (3, "KS"))
    assert [str(c) for c in g.legal_actions()] == ["5H"]
    play(g, (4, "5H"))
    assert last(g, "clean")["seat"] == 4 and g.current == 4
    assert "pickup" not in kinds(g)


def test_donkey_trick_one_all_spades_ace_leads(position, play):
    """Donkey trick 1 with no trump played: the Ace of Spades holder leads trick 2 and no trump is set."""
    g = position("donkey", ["AS 2C", "2S 3H", "3S 4D"], leader=0, first_trick_done=False)
    play(g, "AS", "2S", "3S")
    assert g.state.trump == -1 and g.current == 0


def test_donkey_loser_cards_are_the_legs(position, play):
    """Donkey: the Bhabhi is a donkey with as many legs as cards left in hand, picked-up cards included."""
    g = position("donkey", ["5H 6H 7D", "2D", []], leader=0, out=[2], trump="C")
    play(g, "5H", "2D")
    r = g.result
    assert r.loser == 0 and r.legs == 4
    assert {str(c) for c in r.loser_cards} == {"5H", "6H", "7D", "2D"}


def test_trumps_off_never_set_a_trump(position, play):
    """Without trumps a void card is always a thulla and no trump event is made."""
    g = position("getaway", ["5H 2S", "2C 3S", "4D 5S"], leader=0)
    play(g, "5H", "2C")
    assert g.state.trump == -1 and "trump" not in kinds(g) and g.current == 0


def test_trump_in_a_position_needs_trump_rules(position):
    """A trump suit in a position with trumps off is refused."""
    with pytest.raises(PositionError, match="trumps on"):
        position("getaway", ["5H", "2C", "3C"], leader=0, trump="C")


# -------------------------------------------------------- neighbour_take
TAKE4 = ["2C 3C", "4D", "5H", "6S"]


def test_take_makes_the_leaders_neighbour_safe(position, play, hand_of):
    """neighbour_take: the leader takes their left neighbour's cards; the neighbour is out, placed next."""
    g = position("bhabho", TAKE4, leader=0)
    assert (g.decision, g.current, g.legal_actions()) == ("take", 0, (False, True))
    play(g, (0, True))
    assert hand_of(g, 0) == {"2C", "3C", "4D"} and g.state.out == [1]
    assert (g.decision, g.current) == ("take", 2)
    play(g, (2, False), (3, False))
    assert (g.decision, g.current) == ("play", 0)
    assert last(g, "take") == {"type": "take", "seat": 3, "take": False}
    assert next(e for e in g.to_record()["events"] if e["type"] == "take") == {
        "type": "take", "seat": 0, "take": True, "from": 1, "count": 1, "cards": ["4D"]}


def test_take_legal_actions_are_false_true(position):
    """A take decision's legal actions are (False, True); a card is refused."""
    g = position("bhabho", TAKE4, leader=0)
    assert g.legal_actions() == (False, True) and g.decision == "take"
    with pytest.raises(IllegalAction, match="take decision"):
        g.apply("2C")


def test_taking_the_leader_passes_the_lead(position, play):
    """neighbour_take: if the next leader is taken, the next active player after them leads."""
    g = position("bhabho", TAKE4, leader=0)
    play(g, (0, False), (1, False), (2, False), (3, True))
    assert g.state.out == [0] and (g.decision, g.current) == ("play", 1)


def test_asking_stops_when_two_are_left(position, play):
    """neighbour_take: once a take leaves two active, nobody else is asked and the trick starts."""
    g = position("bhabho", ["2C", "4D", "5H"], leader=0)
    play(g, (0, True))
    assert (g.decision, g.current) == ("play", 0)
    assert kinds(g).count("take") == 1


def test_no_takes_with_two_players(position):
    """neighbour_take: with two active there is no asking."""
    g = position("bhabho", ["2C", "4C", []], leader=0, out=[2])
    assert g.decision == "play" and "take" not in kinds(g)


def test_no_takes_before_trick_one():
    """neighbour_take: trick 1 starts without asking; asking begins before trick 2."""
    g = Game.deal(Rules.preset("bhabho"), 4, seed=5)
    assert g.decision == "play"
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    assert g.decision == "take" and g.current == g.state.leader


def test_drawn_card_leader_still_leads_it_after_taking(position, play):
    """neighbour_take: a player who must lead a drawn card still leads it after taking."""
    g = position("bhabho", ["5H 2C", "4D 3D", "5S", "6S"], leader=0, drawn="5H")
    play(g, (0, True))
    play(g, (2, False), (3, False))
    assert g.current == 0 and [str(c) for c in g.legal_actions()] == ["5H"]


def test_take_skips_seats_already_out(position, play, hand_of):
    """neighbour_take: the left neighbour is the next player still holding cards."""
    g = position("bhabho", ["2C", [], "4D", "5H", "6S"], leader=0, out=[1])
    play(g, (0, True))
    assert hand_of(g, 0) == {"2C", "4D"} and g.state.out == [1, 2]


def test_take_fault_counts_as_no(position):
    """A fault at a take decision is answered no."""
    g = position("bhabho", TAKE4, leader=0)
    g.apply_fault("timeout")
    assert g.events[-2:] == [("fault", 0, "timeout"), ("take", 0, False)] and g.current == 1


def test_forfeited_seats_never_take(position, play):
    """A forfeited seat is auto-answered no at every take decision."""
    g = position("bhabho", ["2C 3C", "4D 7D", "5H 8H", "6S 9S"], leader=0, overrides={"max_faults": 1})
    g.apply_fault("crash")
    assert 0 in g.forfeited
    seat0_takes = [e for e in g.events if e[0] == "take" and e[1] == 0]
    assert seat0_takes == [("take", 0, False)]
    play(g, False, False, False)
    assert g.decision == "play" and g.current == 1   # 0 led automatically
    assert g.trick[0][0] == 0


def test_takes_under_anticlockwise_go_the_other_way(position, play):
    """neighbour_take anticlockwise: the left neighbour is the next seat in anticlockwise play order."""
    g = position("bhabho", TAKE4, leader=0, overrides={"direction": "anticlockwise"})
    play(g, (0, True))
    assert g.state.out == [3] and g.current == 2


# ----------------------------------------------- take_from and take_order
TAKE_FIRST = {"take_from": "first_trick"}
DEALER_LEFT = {"take_order": "dealer_left"}


def test_take_from_first_trick_asks_before_trick_one(position, play):
    """take_from=first_trick: the take phase comes before trick 1 too, starting with the AS holder."""
    g = position("bhabho", ["AS 2C", "4D 3S", "5H", "6S"], leader=0, first_trick_done=False, overrides=TAKE_FIRST)
    assert (g.decision, g.current, g.trick) == ("take", 0, [])
    assert not any(e[0] == "play" for e in g.events)
    play(g, (0, False), (1, False), (2, False), (3, False))
    assert (g.decision, g.current) == ("play", 0) and [str(c) for c in g.legal_actions()] == ["AS"]


def test_take_from_first_trick_in_a_deal():
    """take_from=first_trick: a dealt game starts with take decisions, the AS holder asked first."""
    g = Game.deal(Rules.preset("bhabho", **TAKE_FIRST), 4, seed=5)
    assert g.decision == "take" and g.current == g.state.leader and g.state.hands[g.state.leader] >> int(card("AS")) & 1
    for _ in range(4):
        g.apply(False)
    assert g.decision == "play" and [str(c) for c in g.legal_actions()] == ["AS"]


def test_taking_the_ace_of_spades_holder_before_trick_one(position, play, hand_of):
    """take_from=first_trick: whoever takes the AS holder's cards holds AS and leads it in trick 1."""
    g = position("bhabho", ["AS 2C", "4D 3S", "5H", "6S 7S"], leader=0, first_trick_done=False,
                 overrides=TAKE_FIRST)
    play(g, (0, False), (1, False), (2, False), (3, True))
    assert g.state.out == [0] and "AS" in hand_of(g, 3)
    assert (g.decision, g.current) == ("play", 3) and [str(c) for c in g.legal_actions()] == ["AS"]


def test_take_before_trick_one_leaving_two_starts_trick_one(position, play):
    """take_from=first_trick: a take that leaves two players ends the asking; trick 1 starts with AS."""
    g = position("bhabho", ["AS 2C", "4D", "5H"], leader=0, first_trick_done=False, overrides=TAKE_FIRST)
    play(g, (0, True))
    assert (g.decision, g.current) == ("play", 0) and [str(c) for c in g.legal_actions()] == ["AS"]
    assert kinds(g).count("take") == 1


def test_take_from_first_trick_still_asks_before_later_tricks(position, play):
    """take_from=first_trick: the asking before trick 2 on is unchanged."""
    g = position("bhabho", ["AS 2C", "3S 4D", "5S 6H", "7S 8C"], leader=0, first_trick_done=False,
                 overrides=TAKE_FIRST)
    play(g, False, False, False, False, "AS", "3S", "5S", "7S")
    assert (g.decision, g.current) == ("take", 0)


def test_take_from_second_trick_is_the_default():
    """take_from defaults to second_trick: no asking before trick 1 (test_no_takes_before_trick_one)."""
    assert Rules.preset("bhabho").take_from == "second_trick"
    assert Rules().take_order == "leader"


def test_take_order_leader_starts_with_the_next_leader(position, play):
    """take_order=leader (default): asking starts with the next leader, even when the dealer's neighbour differs."""
    g = position("bhabho", TAKE4, leader=2)
    assert g.dealer == 0 and (g.decision, g.current) == ("take", 2)
    play(g, (2, False), (3, False), (0, False), (1, False))
    assert (g.decision, g.current) == ("play", 2)


def test_take_order_dealer_left_starts_after_the_dealer(position, play, hand_of):
    """take_order=dealer_left: asking starts with the dealer's left neighbour (a position's dealer is seat 0)."""
    g = position("bhabho", TAKE4, leader=3, overrides=DEALER_LEFT)
    assert (g.decision, g.current) == ("take", 1)
    play(g, (1, False), (2, True))
    assert g.state.out == [3] and hand_of(g, 2) == {"5H", "6S"}
    # seat 3 led, was taken: the lead passes to the next active player after it
    play(g, (0, False))
    assert (g.decision, g.current) == ("play", 0)


def test_take_order_dealer_left_in_a_deal():
    """take_order=dealer_left in a dealt game: the first seat asked is the one after the dealer, every trick."""
    rules = Rules.preset("bhabho", take_order="dealer_left", take_from="first_trick")
    for dealer in range(4):
        g = Game.deal(rules, 4, seed=11, dealer=dealer)
        assert (g.decision, g.current) == ("take", (dealer + 1) % 4)
        for _ in range(4):
            g.apply(False)
        while g.decision == "play":
            g.apply(g.legal_actions()[0])
        if g.decision == "take":
            assert g.current == g.state.next_active(dealer)


def test_take_order_dealer_left_skips_an_out_dealer(position, play):
    """take_order=dealer_left: with the dealer out, asking starts with the next active seat after it."""
    g = position("bhabho", [[], "2C", "4D", "5H", "6S"], leader=3, out=[0], overrides=DEALER_LEFT)
    assert g.current == 1
    g2 = position("bhabho", [[], [], "4D", "5H", "6S"], leader=3, out=[0, 1],
                  overrides={**DEALER_LEFT, "direction": "anticlockwise"})
    assert g2.current == 4


def test_take_order_dealer_left_record_replays(position, play):
    """A game with the new take options replays exactly from its record."""
    g = position("bhabho", TAKE4, leader=3, overrides={**DEALER_LEFT, **TAKE_FIRST})
    play(g, (1, False), (2, True))
    g2 = Game.from_record(g.to_record())
    assert g2.events == g.events


# -------------------------------------------------------------- direction
def test_anticlockwise_play_order(position, play):
    """direction=anticlockwise: play goes 0, 3, 2, 1."""
    g = position("playnest", ["5H 2C", "8H 5C", "7H 4C", "6H 3C"], leader=0,
                 overrides={"direction": "anticlockwise"})
    play(g, (0, "5H"), (3, "6H"), (2, "7H"), (1, "8H"))
    assert last(g, "clean")["seat"] == 1 and g.current == 1


def test_anticlockwise_deal_starts_right_of_the_dealer():
    """direction=anticlockwise: dealing starts with the next seat anticlockwise, who gets the extra cards."""
    g = Game.deal(Rules.preset("getaway", direction="anticlockwise"), 5, seed=3, dealer=0)
    assert [len(g.hand(s)) for s in range(5)] == [10, 10, 10, 11, 11]


# ------------------------------------------------------------------ decks
def _seven(hands):
    return hands + [[]] * (7 - len(hands))


def test_two_equal_cards_first_played_counts_higher(position, play):
    """decks=2: when two copies tie for highest, the first played wins the trick."""
    hands = ["KH 2C", "KH* 3C", "2H 4C", "3H 5C", "4H 6C", "5H 7C", "6H 8C"]
    g = position("getaway-2deck", hands, leader=0)
    play(g, *[h.split()[0] for h in hands])
    assert last(g, "clean")["seat"] == 0
    hands = ["2H 2C", "KH* 3C", "KH 4C", "3H 5C", "4H 6C", "5H 7C", "6H 8C"]
    g = position("getaway-2deck", hands, leader=0)
    play(g, *[h.split()[0] for h in hands])
    assert last(g, "clean")["seat"] == 1


def test_two_equal_cards_first_played_picks_up(position, play, hand_of):
    """decks=2: after a cut, the first of two equal highest cards picks up."""
    hands = ["5H 2C", "KH 3C", "KH* 4C", "7C", "4H 6C", "5H* 8C", "6H 9C"]
    g = position("getaway-2deck", hands, leader=0)
    play(g, "5H", "KH", "KH*", "7C")
    assert hand_of(g, 1) == {"5H", "KH", "KH*", "7C", "3C"} and g.current == 1


def test_two_deck_text_and_first_ace_leads():
    """decks=2: 104 cards are dealt; the first-pack AS (not AS*) leads trick 1."""
    for n in (7, 8):
        g = Game.deal(Rules.preset("getaway-2deck"), n, seed=n)
        sizes = [len(g.hand(s)) for s in range(n)]
        assert sum(sizes) == 104 and max(sizes) - min(sizes) <= 1
        assert sum(h.bit_count() for h in g.state.hands) == 104
        assert [str(c) for c in g.legal_actions()] == ["AS"]
    assert sorted(len(Game.deal(Rules.preset("getaway-2deck"), 7, 1).hand(s)) for s in range(7)) == [14] + [15] * 6


def test_second_pack_card_needs_two_decks(position):
    """A second-pack card in a one-pack position is refused."""
    with pytest.raises(PositionError, match="needs a second pack"):
        position("getaway", ["AS*", "2C", "3C"], leader=0)


# ------------------------------------------------------------------- deal
SINGLE_SIZES = {
    3: [18, 17, 17], 4: [13] * 4, 5: [11, 11, 10, 10, 10], 6: [9, 9, 9, 9, 8, 8],
    7: [8, 8, 8, 7, 7, 7, 7], 8: [7, 7, 7, 7, 6, 6, 6, 6],
}


@pytest.mark.parametrize("players", sorted(SINGLE_SIZES))
def test_single_deal_sizes(players):
    """deal=single: the first 52 mod n players after the dealer get one card more (docs/rules.md's table)."""
    for dealer in range(players):
        g = Game.deal(Rules.preset("getaway"), players, seed=dealer, dealer=dealer)
        by_order = [len(g.hand((dealer + 1 + i) % players)) for i in range(players)]
        assert by_order == SINGLE_SIZES[players]
        assert sum(h.bit_count() for h in g.state.hands) == PACK


def test_single_deal_is_one_card_at_a_time_from_the_seeded_shuffle():
    """deal=single: card i of the pack shuffled by random.Random(seed) goes to the i-th seat after the dealer
    (cyclically)."""
    pack = list(range(PACK))
    random.Random(42).shuffle(pack)
    g = Game.deal(Rules.preset("getaway"), 4, seed=42, dealer=2)
    for i, c in enumerate(pack):
        assert g.state.hands[(3 + i) % 4] >> c & 1


def test_the_engines_shuffle_is_random_shuffle():
    """The engine's inlined Fisher-Yates gives exactly ``random.Random(seed).shuffle``'s permutation."""
    from arena.game.engine import _shuffle
    for seed in range(500):
        for size in (PACK, 2 * PACK, 5):
            expected, mine = list(range(size)), list(range(size))
            random.Random(seed).shuffle(expected)
            _shuffle(random.Random(seed), mine)
            assert mine == expected, (seed, size)


def test_a_seed_deals_what_it_always_dealt():
    """Stored records replay only if a seed's deal never changes: a deal pinned in full."""
    g = Game.deal(Rules.preset("getaway"), 4, seed=2026)
    assert g.start["hands"] == [
        ["4C", "9C", "TC", "4D", "7D", "8D", "KD", "AD", "TH", "2S", "4S", "5S", "JS"],
        ["3C", "JC", "AC", "JD", "4H", "5H", "QH", "AH", "6S", "8S", "QS", "KS", "AS"],
        ["5C", "6C", "7C", "2D", "3D", "TD", "QD", "2H", "8H", "9H", "KH", "7S", "9S"],
        ["2C", "8C", "QC", "KC", "5D", "6D", "9D", "3H", "6H", "7H", "JH", "3S", "TS"],
    ]
    assert g.current == 1      # the ace of spades leads


@pytest.mark.parametrize("players", range(3, 9))
def test_pile_deal(players):
    """deal=piles: sizes sum to the pack, no pile is empty, piles are contiguous cuts given in order after the
    dealer."""
    r = Rules.preset("getaway", deal="piles")
    differs = False
    for seed in range(30):
        dealer = seed % players
        g = Game.deal(r, players, seed, dealer)
        pack = list(range(PACK))
        random.Random(seed).shuffle(pack)
        sizes, start = [], 0
        for i in range(players):
            seat = (dealer + 1 + i) % players
            size = g.state.hands[seat].bit_count()
            assert size >= 1
            assert g.state.hands[seat] == sum(1 << c for c in pack[start:start + size])
            sizes.append(size)
            start += size
        assert start == PACK
        assert all(abs(a - b) <= players for a, b in zip(sizes, SINGLE_SIZES[players]))
        differs |= sizes != SINGLE_SIZES[players]
        assert Game.deal(r, players, seed, dealer).state.hands == g.state.hands
    assert differs, "pile sizes should vary from the single-deal sizes"


def test_same_seed_same_deal_different_seed_different_deal():
    """A deal is a pure function of the seed."""
    r = Rules.preset("getaway")
    assert Game.deal(r, 4, 7).state.hands == Game.deal(r, 4, 7).state.hands
    assert Game.deal(r, 4, 7).state.hands != Game.deal(r, 4, 8).state.hands


# ----------------------------------------------------------------- faults
FAULT4 = ["5H 2C", "6H 3C", "7H 4C", "8H 5C"]


def test_penalty_fault_by_a_follower_picks_up(position, play, hand_of):
    """fault_policy=penalty: a following player's fault ends the trick; they pick up and lead."""
    g = position("getaway", FAULT4, leader=0)
    play(g, "5H")
    g.apply_fault("illegal")
    assert g.events[-2:] == [("fault", 1, "illegal"), ("pickup", 1, (card("5H"),), "fault")]
    assert hand_of(g, 1) == {"5H", "6H", "3C"} and g.current == 1 and g.trick == []
    assert last(g, "pickup") == {"type": "pickup", "seat": 1, "cards": ["5H"], "by": "fault"}


def test_penalty_fault_by_the_leader_plays_a_random_legal_card(position):
    """fault_policy=penalty: a leader's fault is replaced by a random legal card."""
    g = position("getaway", FAULT4, leader=0)
    g.apply_fault("timeout")
    e = g.events[-1]
    assert e[0] == "play" and e[1] == 0 and e[3] == "fault" and str(card(e[2])) in ("5H", "2C")
    assert g.current == 1


def test_random_fault_plays_a_random_legal_card(position, play):
    """fault_policy=random: a follower's fault is replaced by a random legal card (following suit)."""
    g = position("getaway", FAULT4, leader=0, overrides={"fault_policy": "random"})
    play(g, "5H")
    g.apply_fault("malformed")
    assert g.events[-1] == ("play", 1, card("6H"), "fault") and g.current == 2


@pytest.mark.parametrize("kind", ["timeout", "crash", "illegal", "malformed"])
def test_every_fault_kind_is_recorded(position, kind):
    """Every fault is recorded with its kind."""
    g = position("getaway", FAULT4, leader=0)
    g.apply_fault(kind)
    assert {"type": "fault", "seat": 0, "kind": kind} in g.to_record()["events"]


def test_unknown_fault_kind_is_refused(position):
    """An unknown fault kind raises IllegalAction naming it and the kinds."""
    g = position("getaway", FAULT4, leader=0)
    with pytest.raises(IllegalAction, match=r"timeout, crash, illegal, malformed \(got 'oops'\)"):
        g.apply_fault("oops")


def _natural_order(game):
    outs = [e[1] for e in game.events if e[0] == "out"]
    return outs + [s for s in range(game.players) if s not in outs]


@pytest.mark.parametrize("policy", ["penalty", "random"])
def test_max_faults_forfeits(policy, play_out, check_result):
    """After max_faults faults a seat forfeits: auto-played, placed last as the Bhabhi, others' order kept."""
    for seed in range(20):
        g = Game.deal(Rules.preset("getaway", fault_policy=policy, max_faults=3), 5, seed)
        bad = (g.current + 1) % 5
        rng = random.Random(seed)
        while g.current is not None and bad not in g.forfeited:
            if g.current == bad:
                g.apply_fault("timeout")
            else:
                g.apply(rng.choice(g.legal_actions()))
        assert g.faults[bad] == 3 or g.is_over
        def never_asked(game, bad=bad):
            assert game.current != bad, "a forfeited seat was asked to act"
        play_out(g, rng, each=never_asked)
        r = g.result
        assert r.loser == bad and r.reason == "forfeit" and r.order[-1] == bad
        assert list(r.order[:-1]) == [s for s in _natural_order(g) if s != bad]
        assert r.penalty[bad] == 3
        check_result(g)


def test_first_forfeit_is_the_bhabhi(position, play_out):
    """With several forfeits the first to forfeit is the Bhabhi and the later ones are placed just before."""
    g = position("getaway", ["5H 2C 9D", "6H 3C TD", "7H 4C JD", "8H 5C QD"], leader=0,
                 overrides={"max_faults": 1, "fault_policy": "random"})
    g.apply_fault("crash")      # seat 0 forfeits; its lead is random
    g.apply_fault("crash")      # seat 1 forfeits
    play_out(g, random.Random(1))
    r = g.result
    assert g.forfeited == [0, 1]
    assert r.loser == 0 and r.order[-2:] == (1, 0) and r.reason == "forfeit"


def test_forfeit_on_the_last_action_still_loses(position):
    """A seat that forfeits on the action that ends the game is still the Bhabhi."""
    g = position("playnest", ["2H 3C", "AH", []], leader=0, out=[2],
                 overrides={"fault_policy": "random", "max_faults": 1})
    g.apply("2H")
    g.apply_fault("timeout")     # seat 1's random card AH wins with its last card
    r = g.result
    assert r.loser == 1 and r.reason == "forfeit" and r.order == (2, 0, 1)
    assert [e[0] for e in g.events][-1] == "end" and ("forfeit", 1) in g.events


# ------------------------------------------------------ illegal actions
def test_illegal_card_names_seat_action_and_legal(position, play):
    """Not following suit raises IllegalAction naming the seat, the card and the legal cards."""
    g = position("getaway", FAULT4, leader=0)
    play(g, "5H")
    with pytest.raises(IllegalAction) as err:
        g.apply("3C")
    msg = str(err.value)
    assert "seat 1 may not play '3C'" in msg and "6H" in msg
    assert err.value.seat == 1 and err.value.legal == (card("6H"),)
    assert g.current == 1 and len(g.trick) == 1


@pytest.mark.parametrize("action", ["AS", "XX", "", True, None, 3.5, 200])
def test_bad_actions_are_refused_without_changing_the_game(position, action):
    """A card not held, a malformed text, a bool or another object raises IllegalAction and changes nothing."""
    g = position("getaway", FAULT4, leader=0)
    before = (list(g.state.hands), list(g.events))
    with pytest.raises(IllegalAction) as err:
        g.apply(action)
    assert f"may not play {action!r}" in str(err.value) and "5H" in str(err.value)
    assert (list(g.state.hands), list(g.events)) == before


def test_action_after_the_end_is_refused(position, play):
    """Any action after the game is over raises IllegalAction saying so."""
    g = position("playnest", ["5H", "AH", "2H"], leader=0)
    play(g, "5H", "AH", "2H")
    with pytest.raises(IllegalAction, match="the game is over"):
        g.apply("5H")
    with pytest.raises(IllegalAction, match="the game is over"):
        g.apply_fault("timeout")
    assert g.legal_actions() == ()


def test_apply_accepts_cards_texts_and_ids(position):
    """apply takes a Card, its text (any accepted form) or its id."""
    g = position("getaway", ["TH 2C", "6H 3C", "7H 4C"], leader=0)
    g.apply("10H")
    g.apply(int(card("6H")))
    g.apply(card("7H"))
    assert last(g, "clean")["cards"] == ["TH", "6H", "7H"]


# -------------------------------------------------------------- positions
@pytest.mark.parametrize("kw, expected", [
    (dict(hands=["AS", "AS", "2C"]), "AS appears twice"),
    (dict(hands=["AS", "2C", "3C"], discard=["2C"]), "2C appears twice"),
    (dict(hands=["AS", "2C", "3C"], leader=5), "leader must be a seat 0..2"),
    (dict(hands=["AS", "2C", "3C"], out=[1]), "seat 1 is listed as out, so it must hold no cards (got 1)"),
    (dict(hands=["AS", "2C", []]), "seat 2 holds no cards, so it must be listed in out"),
    (dict(hands=["AS", [], []], out=[1, 2]), "at least two players"),
    (dict(hands=["2C", "AS", "3C"], first_trick_done=False),
     "the leader must be the seat holding AS (got seat 0, which does not hold it)"),
    (dict(hands=["AS 2C", "3C", "4C"], drawn="3C"), "drawn card 3C must be in the leader's hand"),
    (dict(hands=["AS 2C", "3C", "4C", []], out=[3, 3]), "out lists seat 3 twice"),
])
def test_inconsistent_positions_are_refused(kw, expected):
    """A hand-made position that cannot happen raises PositionError saying what is wrong."""
    kw.setdefault("leader", 0)
    with pytest.raises(PositionError) as err:
        Game.from_position(Rules.preset("getaway"), **kw)
    assert expected in str(err.value)


def test_position_discard_none_puts_every_other_card_on_the_pile(position):
    """from_position with discard=None puts every card not in a hand on the discard pile."""
    g = position("getaway", ["AH", "2H", "3H"], leader=0)
    assert len(g.state.pile) == PACK - 3 and not {card("AH"), card("2H"), card("3H")} & set(g.state.pile)
    g2 = position("getaway", ["AH", "2H", "3H"], leader=0, discard=["4H"])
    assert g2.state.pile == [card("4H")]


# ------------------------------------- decisions where the rule sources are silent
def test_shootout_is_checked_after_takes(position, play):
    """shootout with neighbour_take: a take that leaves two players with no common suit ends the game at once."""
    g = position("bhabho", ["2C 3C", "4H", "5D"], leader=0, overrides={"shootout": True})
    play(g, (0, True))
    r = g.result
    assert r.reason == "shootout" and r.order == (1, 2, 0) and r.loser == 0


def test_take_phase_comes_before_a_positions_first_trick(position):
    """A hand-made position (trick 1 done) starts with the take decisions under neighbour_take."""
    g = position("bhabho", TAKE4, leader=2)
    assert (g.decision, g.current) == ("take", 2)


def test_draw_with_empty_pile_and_nobody_left_is_a_simultaneous_finish(position, play):
    """escape=draw with an empty pile falls back to pass, so an all-empty last trick follows simultaneous."""
    g = position("getaway", ["5H", "AH", []], leader=0, out=[2], discard=[])
    play(g, "5H", "AH")
    assert g.result.reason == "simultaneous" and g.result.loser == 1


def test_draw_next_hand_taking_the_last_card_leaves_the_drawer_last(position, play):
    """escape=draw_next_hand: drawing the only other player's last card puts them out; the drawer is the Bhabhi."""
    g = position("getaway", ["AH", "2H 3C", []], leader=0, out=[2], overrides={"escape": "draw_next_hand"})
    play(g, "AH", "2H")
    r = g.result
    assert r.loser == 0 and r.order == (2, 1, 0) and [str(c) for c in r.loser_cards] == ["3C"]


def test_pass_if_3plus_with_two_left_and_an_empty_pile_passes(position, play):
    """escape=pass_if_3plus with two left draws, unless the pile is empty: then it passes."""
    g = position("getaway", ["AH", "2H 3C", []], leader=0, out=[2], discard=[],
                 overrides={"escape": "pass_if_3plus"})
    play(g, "AH", "2H")
    assert g.result.loser == 1 and g.result.order == (2, 0, 1)


def test_penalty_fault_on_trick_one_picks_up(position, play, hand_of):
    """A follower's fault on trick 1 (free) is penalised like any other: they pick up the cards so far."""
    g = position("getaway", FIRST, leader=0, first_trick_done=False)
    play(g, "AS", "2H")
    g.apply_fault("timeout")
    assert hand_of(g, 2) == {"AS", "2H", "KS", "2S", "5H"} and g.current == 2


def test_penalty_pickup_puts_out_those_who_emptied(position, play):
    """A penalty pick-up settles the trick: a player whose last card is in it is out."""
    g = position("getaway", ["5H", "6H 2C", "7H 3C"], leader=0)
    play(g, "5H")
    g.apply_fault("crash")
    assert g.state.out == [0] and g.current == 1


def test_forfeit_overrides_a_drawn_game(position):
    """A forfeited seat is the Bhabhi even when the game would have been a draw."""
    g = position("champions", ["5H", "AH", "2H", []], leader=0, out=[3],
                 overrides={"max_faults": 1, "fault_policy": "random"})
    g.apply_fault("timeout")    # seat 0 forfeits; its random lead is its only card
    g.apply("AH")
    g.apply("2H")               # every hand empties on one clean trick: a draw, but for the forfeit
    r = g.result
    assert r.loser == 0 and r.reason == "forfeit" and not r.draw and r.order[-1] == 0


def test_forfeited_seat_plays_marked_auto(position):
    """After forfeiting, a seat's cards are played automatically and recorded with by=auto."""
    g = position("getaway", ["5H 2C 9D", "6H 3C TD", "7H 4C JD"], leader=1,
                 overrides={"max_faults": 1, "fault_policy": "random"})
    g.apply_fault("crash")       # seat 1 forfeits, plays a random lead
    while g.current is not None and len([e for e in g.events if e[0] == "play"]) < 6:
        g.apply(g.legal_actions()[0])
    autos = [e for e in g.events if e[0] == "play" and e[1] == 1]
    assert autos[0][3] == "fault" and all(e[3] == "auto" for e in autos[1:]) and len(autos) >= 2
