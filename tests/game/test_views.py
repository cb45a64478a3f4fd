"""PlayerView: what one seat may know (and nothing more), and its helpers."""

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import PRESETS, Game, PlayerView, Rules, card
from arena.game.cards import CARDS, PACK
from arena.game.knowledge import view_from_events
from support.positions import random_position


def texts(cards):
    return {str(c) for c in cards}


# ------------------------------------------------------------- view leaks
@st.composite
def random_positions(draw):
    """A random mid-game position: any preset, a random split of some cards, the rest on the pile."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = Rules.preset(preset)
    lo, hi = rules.seat_range
    players = draw(st.integers(lo, hi))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return rules, random_position(rules, players, rng, per_seat=8), rng


@settings(max_examples=300, deadline=None)
@given(pos=random_positions())
def test_view_does_not_depend_on_what_the_seat_cannot_see(pos):
    """Swapping unseen cards between other hands (counts kept) and reordering the pile leaves view(seat) unchanged."""
    rules, position, rng = pos
    hands, pile = position.hands, position.pile
    base = position.game(rules, 7)
    for seat in range(len(hands)):
        others = [s for s in range(len(hands)) if s != seat and hands[s]]
        changed = [list(h) for h in hands]
        if len(others) >= 2:
            a, b = rng.sample(others, 2)
            pool = changed[a] + changed[b]
            rng.shuffle(pool)
            changed[a], changed[b] = pool[:len(hands[a])], pool[len(hands[a]):]
        shuffled_pile = list(pile)
        rng.shuffle(shuffled_pile)
        other = dataclasses.replace(position, hands=changed, pile=shuffled_pile).game(rules, 7)
        if base.is_over or other.is_over:
            continue   # a shootout at the start is decided by the hands; the game is over, nothing is hidden
        assert other.view(seat) == base.view(seat)


def _unrevealed(game: Game, deal: list[int]) -> list[set[int]]:
    """Per seat: cards it was dealt that no event has shown (never played, picked up, drawn or taken)."""
    shown = set()
    for e in game.events:
        if e[0] in ("play", "draw"):
            shown.add(int(e[2]))
        elif e[0] in ("clean", "pickup"):
            shown.update(int(c) for c in e[2])
        elif e[0] == "take" and e[2]:
            shown.update(int(c) for c in e[4])
    return [{c for c in range(PACK * game.rules.decks) if deal[s] >> c & 1 and game.state.hands[s] >> c & 1} - shown
            for s in range(game.players)]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_view_does_not_leak_hidden_cards_during_play(preset):
    """Mid-game: two deals differing only by a same-suit swap of cards nobody has seen give every other seat
    the same views."""
    rules = Rules.preset(preset)
    players = rules.seat_range[0] + 1
    checked = 0
    for seed in range(40):
        dealt = Game.deal(rules, players, seed)
        deal = list(dealt.state.hands)
        leader = dealt.current
        hands = [dealt.hand(s) for s in range(players)]
        rng = random.Random(seed)
        a = Game.from_position(rules, hands, leader, discard=[], first_trick_done=False, seed=seed)
        actions = []
        for _ in range(rng.randint(5, 40)):
            if a.current is None:
                break
            legal = a.legal_actions()
            actions.append(legal[rng.randrange(len(legal))])
            a.apply(actions[-1])
        hidden = _unrevealed(a, deal)
        pairs = [(s, t, x, y) for s in range(players) for t in range(s + 1, players)
                 for x in hidden[s] for y in hidden[t] if x % PACK // 13 == y % PACK // 13]
        if not pairs:
            continue
        s, t, x, y = rng.choice(pairs)
        swapped = [list(h) for h in hands]
        swapped[s] = [CARDS[y] if c == x else c for c in swapped[s]]
        swapped[t] = [CARDS[x] if c == y else c for c in swapped[t]]
        b = Game.from_position(rules, swapped, leader, discard=[], first_trick_done=False, seed=seed)
        for act in actions:
            b.apply(act)
        for viewer in range(players):
            if viewer not in (s, t):
                assert a.view(viewer) == b.view(viewer)
                checked += 1
        assert a.view(s) != b.view(s)
    assert checked > 0


def test_reordering_the_pile_mid_game_changes_no_view():
    """The order of the discard pile is not part of any view."""
    game = Game.deal(Rules.preset("getaway"), 4, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    before = [game.view(s) for s in range(4)]
    rng.shuffle(game.state.pile)
    assert [game.view(s) for s in range(4)] == before


# ------------------------------------------------------------------ draws
def _drawn_games(rules, hands, out=()):
    """Two games from one position whose clean trick (won with a last card) draws different cards."""
    games = {}
    for seed in range(50):
        g = Game.from_position(rules, hands, 0, discard=["2S", "3S", "4S", "5S", "6S"], out=list(out), seed=seed)
        for h in hands:
            if h:
                g.apply(h.split()[0])
        drawn = next(e for e in g.events if e[0] == "draw")[2]
        games.setdefault(drawn, g)
        if len(games) == 2:
            return list(games.values())
    raise AssertionError("no two seeds drew different cards")


def test_draw_is_seen_only_by_the_drawer():
    """escape=draw: the drawn card shows in the drawer's view only; others see a draw with card None."""
    a, b = _drawn_games(Rules.preset("getaway"), ["AH", "2H 3C", "5H 4C"])
    for g in (a, b):
        e = g.view(0).history[-1]
        assert e["type"] == "draw" and e["card"] is not None and e["from"] == "pile"
        assert texts(g.view(0).hand) == {e["card"]} and g.view(0).legal == (card(e["card"]),)
        for seat in (1, 2):
            assert g.view(seat).history[-1] == {"type": "draw", "seat": 0, "card": None, "from": "pile"}
            assert g.view(seat).hand_sizes[0] == 1 and g.view(seat).hidden_draws[0] == 1
    assert a.view(0) != b.view(0)
    assert a.view(1) == b.view(1) and a.view(2) == b.view(2)


def test_drawn_card_is_public_once_led():
    """After the drawn card is led, everyone knows it (it is no longer on the pile for anyone)."""
    g = Game.from_position(Rules.preset("getaway"), ["AH", "2H 3C", "5H 4C"], 0, discard=["KD"])
    for c in ("AH", "2H", "5H", "KD"):
        g.apply(c)
    for seat in range(3):
        v = g.view(seat)
        assert v.trick == ((0, card("KD")),) and card("KD") not in v.discarded()


def test_draw_next_hand_is_seen_by_drawer_and_victim_only():
    """escape=draw_next_hand: the drawer and the player drawn from see the card; the others do not."""
    rules = Rules.preset("getaway", escape="draw_next_hand")
    g = Game.from_position(rules, ["AH", "2H 3C 4C", "5H 4D", "6H 7C"], 0)
    for c in ("AH", "2H", "5H", "6H"):
        g.apply(c)
    e = g.to_record()["events"][-1]
    assert e["type"] == "draw" and e["from"] == 1
    assert g.view(0).history[-1] == e and g.view(1).history[-1] == e
    for seat in (2, 3):
        assert g.view(seat).history[-1]["card"] is None
    assert texts(g.view(1).hand) == {"3C", "4C"} - {e["card"]}
    assert g.view(2).hand_sizes == (1, 1, 1, 1)
    assert g.view(2).known_cards(1) == ()


# ------------------------------------------------------------------ takes
def test_take_shows_cards_only_to_the_taker():
    """neighbour_take: the taker sees the taken cards; the others see only how many."""
    g = Game.from_position(Rules.preset("bhabho"), ["2C 3C", "4D 9S", "5H", "6S"], 0)
    g.apply(True)
    taker, other, victim = g.view(0), g.view(2), g.view(1)
    take = {"type": "take", "seat": 0, "take": True, "from": 1, "count": 2}
    assert taker.history[1] == {**take, "cards": ["4D", "9S"]}
    assert other.history[1] == take and victim.history[1] == take
    assert texts(taker.hand) == {"2C", "3C", "4D", "9S"}
    assert texts(taker.known_cards(0)) == {"2C", "3C", "4D", "9S"}
    assert other.known_cards(0) == () and other.hand_sizes == (4, 0, 1, 1)
    assert card("4D") in other.unseen() and card("4D") not in taker.unseen()
    assert victim.hand == () and victim.out == (1,)


def test_take_of_different_hidden_cards_looks_the_same_to_others():
    """Taking a hand of different (unseen) cards of the same count gives an onlooker the same view."""
    rules = Rules.preset("bhabho")
    a = Game.from_position(rules, ["2C 3C", "4D 9S", "5H", "6S"], 0, discard=[])
    b = Game.from_position(rules, ["2C 3C", "4D 9H", "5S", "6S"], 0, discard=[])
    a.apply(True)
    b.apply(True)
    assert a.view(3) == b.view(3) and a.view(0) != b.view(0)


# ---------------------------------------------------------------- helpers
def _thulla_game():
    g = Game.from_position(Rules.preset("getaway"), ["5H 2S", "9H 3S KH", "4D 5S", "7H 6S"], 0)
    for c in ("5H", "9H", "4D"):
        g.apply(c)
    return g


def test_known_cards_and_void_suits_after_a_pickup():
    """A pick-up is public: the picker is known to hold those cards; the thrower is void in the led suit."""
    g = _thulla_game()
    v = g.view(3)
    assert texts(v.known_cards(1)) == {"5H", "9H", "4D"}
    assert v.void_suits(2) == frozenset({2}) and v.is_void(2, 2)
    assert v.void_suits(1) == frozenset() and v.known_cards(2) == ()
    g.apply("9H")
    assert texts(g.view(3).known_cards(1)) == {"5H", "4D"}


def test_void_suits_learnt_from_trumps():
    """Donkey: a void player who plays a non-trump is known void in the led suit and in trumps."""
    g = Game.from_position(Rules.preset("donkey"), ["5H 2S", "2C 3S", "4D 5S", "9H 4S"], 0, trump="C")
    g.apply("5H")
    g.apply("2C")
    assert g.view(3).void_suits(1) == frozenset({2})
    g.apply("4D")
    v = g.view(3)
    assert v.void_suits(2) == frozenset({0, 2})
    assert v.void_suits(1) == frozenset()     # seat 1 picked up 5H, so it holds hearts again


def test_unseen_and_discarded():
    """unseen() is every card not in the seat's hand, the known pile or a seen play; discarded() is the pile it
    knows."""
    g = Game.from_position(Rules.preset("getaway"), ["5H 2S", "9H 3S", "4H 5S", "7H 6S"], 0,
                           discard=["AC", "KC"])
    v = g.view(0)
    assert texts(v.discarded()) == {"AC", "KC"}
    assert texts(v.unseen()) == set(map(str, CARDS[:PACK])) - {"5H", "2S", "AC", "KC"}
    for c in ("5H", "9H", "4H", "7H"):
        g.apply(c)
    v = g.view(0)
    assert texts(v.discarded()) == {"AC", "KC", "5H", "9H", "4H", "7H"}
    assert not {card("9H"), card("4H")} & set(v.unseen())
    assert len(v.unseen()) == PACK - 7   # cards out of play are unseen too


def test_still_to_play_and_winning():
    """still_to_play() lists the seats after this one in this trick; winning() the card now on top."""
    g = Game.from_position(Rules.preset("getaway"), ["5H 2S", "9H 3S", "4H 5S", "7H 6S"], 0)
    assert g.view(0).still_to_play() == (1, 2, 3) and g.view(0).winning() is None
    g.apply("5H")
    assert g.view(1).still_to_play() == (2, 3)
    assert g.view(1).winning() == (0, card("5H"))
    g.apply("9H")
    g.apply("4H")
    v = g.view(3)
    assert v.still_to_play() == () and v.winning() == (1, card("9H")) and v.leader == 0
    assert v.led_suit == 2


def test_still_to_play_anticlockwise_skips_seats_out():
    """still_to_play() follows the play direction and skips seats already out."""
    rules = Rules.preset("getaway", direction="anticlockwise")
    g = Game.from_position(rules, ["5H 2S", "9H 3S", [], "4H 5S", "7H 6S"], 0, out=[2])
    g.apply("5H")
    assert g.current == 4 and g.view(4).still_to_play() == (3, 1)


def test_winning_with_trumps_and_two_packs():
    """winning(): the highest trump beats the led suit; of two equal cards the first played wins."""
    g = Game.from_position(Rules.preset("donkey"), ["5H 2S", "2C 3S", "AH 5S"], 0, trump="C")
    g.apply("5H")
    g.apply("2C")
    assert g.view(2).winning() == (1, card("2C"))
    hands = ["KH 2C", "KH* 3C", "2H 4C", "3H 5C", "4H 6C", "5H 7C", "6H 8C"]
    g = Game.from_position(Rules.preset("getaway-2deck"), hands, 0)
    g.apply("KH")
    g.apply("KH*")
    assert g.view(2).winning() == (0, card("KH"))


def test_view_fields_for_a_seat_not_to_act():
    """A seat not to act gets no legal actions and no decision; its hand is sorted by suit then rank."""
    g = Game.from_position(Rules.preset("getaway"), ["5H 2S AH", "9H 3S", "4H 5S"], 0)
    v0, v1 = g.view(0), g.view(1)
    assert v0.legal and v0.decision == "play"
    assert v1.legal == () and v1.decision is None
    assert [str(c) for c in v0.hand] == ["AH", "5H", "2S"]
    assert v0.seat == 0 and v0.players == 3 and v0.rules == Rules.preset("getaway")
    assert v0.time_left is None and g.view(0, time_left=1.5).time_left == 1.5
    with pytest.raises(dataclasses.FrozenInstanceError):
        v0.seat = 1


def test_deal_event_shows_only_the_own_hand():
    """The deal event in a seat's history holds only that seat's cards (and everyone's counts)."""
    g = Game.deal(Rules.preset("getaway"), 4, seed=1)
    for seat in range(4):
        deal = g.view(seat).history[0]
        assert deal["type"] == "deal" and "hands" not in deal
        assert deal["hand"] == [str(c) for c in g.hand(seat)] and deal["sizes"] == [13] * 4


def test_view_rebuilt_from_seat_events_matches():
    """A view rebuilt from the seat's events (as a sandboxed bot's host does, through JSON) equals game.view."""
    game = Game.deal(Rules.preset("bhabho"), 5, seed=2)
    rng = random.Random(2)
    while game.current is not None:
        seat = game.current
        events = json.loads(json.dumps(game.seat_events(seat)))
        rebuilt = view_from_events(seat, 5, game.rules.to_dict(), events, legal=game.legal_actions(),
                                   decision=game.decision)
        assert rebuilt == game.view(seat)
        game.apply(rng.choice(game.legal_actions()))


def test_view_history_never_holds_another_seats_hidden_cards():
    """No event a seat is shown names a card of another hand that it has not seen played, picked up or taken."""
    for preset in ("bhabho", "getaway"):
        game = Game.deal(Rules.preset(preset, escape="draw_next_hand"), 4, seed=9)
        rng = random.Random(9)
        while game.current is not None:
            game.apply(rng.choice(game.legal_actions()))
        for seat in range(4):
            for e in game.seat_events(seat):
                if e["type"] == "draw" and seat not in (e["seat"], e["from"]):
                    assert e["card"] is None
                if e["type"] == "take" and e["take"] and seat != e["seat"]:
                    assert "cards" not in e
                if e["type"] == "deal":
                    assert set(e) >= {"hand", "sizes"} and "hands" not in e
            assert isinstance(game.view(seat), PlayerView)


# ------------------------------------------------------------ next_leader
def test_next_leader_at_take_decisions_follows_a_taken_leader():
    """Known position (bhabho, dealer_left, 5 seats): seat 3 picks up; seat 2 takes seat 3, so seat 4 leads.

    Seat 0 leads 2C, seat 1 follows 3C, seat 2 follows 4C, seat 3 follows KC, seat 4 cuts with AH:
    seat 3 (highest club) picks the trick up and would lead. The asking starts after the dealer (seat 1).
    """
    rules = Rules.preset("bhabho", take_order="dealer_left")
    hands = [["2C", "2D"], ["3C", "3D"], ["4C", "4D"], ["KC", "5D"], ["AH", "6D"]]
    g = Game.from_position(rules, hands, leader=0, seed=1)
    for seat in [1, 2, 3, 4, 0]:                                       # the asking before this trick: all say no
        assert g.decision == "take" and g.current == seat and g.view(seat).next_leader == 0
        g.apply(False)
    for c in ["2C", "3C", "4C", "KC", "AH"]:
        assert g.view(g.current).next_leader == (g.current if c == "2C" else None)
        g.apply(c)
    assert g.decision == "take" and g.current == 1
    assert [g.view(s).next_leader for s in range(5)] == [3] * 5         # public: every seat is told
    view = g.view(1)
    assert view.decision == "take" and view.leader is None and view.next_leader == 3
    g.apply(False)
    assert g.current == 2 and g.view(2).next_leader == 3
    g.apply(True)                                                      # seat 2 takes seat 3's hand: 3 is out
    assert g.current == 4
    view = g.view(4)
    assert view.decision == "take" and view.next_leader == 4
    rebuilt = view_from_events(4, 5, rules.to_dict(), g.seat_events(4), view.legal, "take")
    assert rebuilt.next_leader == 4
    g.apply(False)
    g.apply(False)                                                     # seat 0; seat 1 was asked already
    assert g.decision == "play" and g.current == 4 and g.view(4).next_leader == 4


@pytest.mark.parametrize("overrides", [{}, dict(take_order="dealer_left"), dict(take_from="first_trick"),
                                       dict(take_from="first_trick", take_order="dealer_left")])
def test_next_leader_at_every_take_decision_is_who_then_leads(overrides):
    """Random bhabho games: at every take decision the asked seat's next_leader is the seat the engine
    will start the trick with as things stand (None only before trick 1 when the seat cannot know who holds AS)."""
    rules = Rules.preset("bhabho", **overrides)
    rng = random.Random(5)
    unknown = asked = 0
    for seed in range(40):
        g = Game.deal(rules, rng.randint(3, 8), seed, dealer=seed % 3)
        while not g.is_over:
            seat, legal = g.current, g.legal_actions()
            view = g.view(seat)
            if g.decision == "take":
                asked += 1
                st_ = g.state
                expected = st_.holder(int(card("AS"))) if st_.first else st_.leader
                if view.next_leader is None:
                    assert st_.first                                 # only before trick 1
                    unknown += 1
                else:
                    assert view.next_leader == expected
                g.apply(rng.random() < 0.3)
            else:
                assert view.next_leader == (seat if not view.trick else None)
                g.apply(legal[rng.randrange(len(legal))])
    assert asked > 100
    if overrides.get("take_from") == "first_trick" and overrides.get("take_order") == "dealer_left":
        assert unknown > 0      # before trick 1 a seat asked after the dealer cannot know who holds AS
    else:
        assert unknown == 0     # under take_order="leader" the AS holder is asked first, in public
