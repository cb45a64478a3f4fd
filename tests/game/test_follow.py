"""A seat's knowledge, fed three ways, and its lazy views: the same PlayerView as one rebuilt from scratch,
at every decision."""

import dataclasses
import pickle
import random

import orjson
import pytest
from support.compact import from_dict

from arena import PRESETS, Game, PlayerView, Rules
from arena.game import events as ev
from arena.game.knowledge import SeatKnowledge, view_from_events
from arena.game.public_knowledge import PublicKnowledge
from arena.game.views import LazyView, Pending, Snapshot

FIELDS = tuple(PlayerView.__dataclass_fields__)
VARIANTS = [Rules.preset(p) for p in sorted(PRESETS)] + [
    Rules.preset("getaway", escape="draw_next_hand"), Rules.preset("getaway", escape="draw"),
    Rules.preset("bhabho", take_order="dealer_left"), Rules.preset("getaway", fault_policy="penalty"),
]


def play_following(rules: Rules, players: int, seed: int, shared: bool | str = False):
    """Play one random game (with some faults); at each decision pair the followed seat's lazy view
    with the view rebuilt from scratch from the seat's event dicts. Fields of the lazy view are read
    in a random order, some at once, the rest only after the game is over. ``shared``: the seats
    share a public knowledge (as the referee's in-process seats do); ``"framed"``: each seat is
    framed, fed compact batches through JSON (as the sandbox's host is); ``"framed-dicts"``:
    framed, fed event dicts through JSON, its views made without a table."""
    game = Game.deal(rules, players, seed, dealer=seed % players)
    rng = random.Random(seed)
    framed = shared in ("framed", "framed-dicts")
    seats = [SeatKnowledge(s, players, rules, framed=framed) for s in range(players)]
    public = PublicKnowledge(game) if shared is True else None
    sent = [0] * players
    pairs = []
    while game.current is not None:
        seat = game.current
        stop = len(game.events)
        if shared == "framed-dicts":   # a framed seat also takes plain event dicts, as as_compact wraps them
            seats[seat].feed_many(orjson.loads(orjson.dumps(ev.as_compact(game.seat_events(seat, sent[seat])))))
        elif framed:
            seats[seat].feed_many(orjson.loads(orjson.dumps(ev.for_seat_compact(game, seat, sent[seat]))))
        else:
            seats[seat].feed_many(ev.SeatEvents(game, seat, sent[seat], stop, public))
        sent[seat] = stop
        legal, decision = game.legal_actions(), game.decision
        if shared == "framed":   # as the host's: with the referee's table (led suit, trump)
            lazy = seats[seat].view(legal, decision, None, (game.state.led, game.state.trump))
        else:
            lazy = seats[seat].view(legal, decision)
        fresh = view_from_events(seat, players, rules, game.seat_events(seat), legal, decision)
        for name in rng.sample(FIELDS, rng.randrange(len(FIELDS))):
            assert getattr(lazy, name) == getattr(fresh, name), name
        pairs.append((lazy, fresh))
        if rng.random() < 0.01:
            game.apply_fault("timeout")
        else:
            game.apply(rng.choice(legal))
    return game, seats, pairs


@pytest.mark.parametrize("shared", [False, True, "framed", "framed-dicts"],
                         ids=["alone", "shared", "framed", "framed-dicts"])
@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{r.escape}-{r.take_order}-{r.fault_policy}")
def test_lazy_view_equals_the_view_rebuilt_from_scratch_at_every_decision(rules, shared):
    lo, hi = rules.seat_range
    decisions = 0
    for players in range(lo, hi + 1):
        for seed in range(2):
            _, _, pairs = play_following(rules, players, 1000 * players + seed, shared)
            for lazy, fresh in pairs:
                assert isinstance(lazy, LazyView) and isinstance(lazy, PlayerView)
                for name in FIELDS:   # read after the game went on: a view never changes
                    assert getattr(lazy, name) == getattr(fresh, name), name
                assert lazy == fresh and fresh == lazy
            decisions += len(pairs)
    assert decisions > 100


@pytest.mark.parametrize("shared", [False, True], ids=["alone", "shared"])
def test_followed_history_and_knowledge_equal_the_dict_fed_seat_s(shared):
    rules = Rules.preset("bhabho", escape="draw_next_hand")
    game, seats, _ = play_following(rules, 5, 3, shared)
    for seat, followed in enumerate(seats):
        followed.feed_many(ev.SeatEvents(game, seat, followed.taken, len(game.events), followed._public))
        fresh = view_from_events(seat, 5, rules, game.seat_events(seat))
        assert followed.view() == fresh
        assert list(followed.view().history) == game.seat_events(seat)
        alone = SeatKnowledge(seat, 5, rules)
        alone.feed_many(ev.SeatEvents(game, seat, 0, len(game.events)))
        if followed._public is not None:   # still attached: its knowledge as the public knowledge gives it
            followed._public.copy_to(followed)
        assert _state(followed) == _state(alone)
    if shared:   # the takes and draws parted some seats from the others: each carried on alone from a copy
        assert any(followed._public is None for followed in seats)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{r.escape}-{r.take_order}-{r.fault_policy}")
def test_a_compact_event_s_tuple_says_no_more_than_its_dict(rules):
    """Every public event a compact batch carries as the engine's tuple is made again from its dict
    alone (faults' plays and pick-ups included); every other event goes as its seat's dict."""
    kinds = set()
    for players in range(rules.seat_range[0], rules.seat_range[1] + 1):
        game, _, _ = play_following(rules, players, 7 * players)
        for seat in range(players):
            batch = ev.for_seat_compact(game, seat, 0)
            assert [ev.from_compact(e, seat) for e in batch] == game.seat_events(seat)
            for e in batch:
                if e[0] in ev.AS_TUPLES:
                    assert e == from_dict(ev.to_json(game, e, seat)), e
                    kinds.add((e[0], len(e)))
    assert ("play", 3) in kinds and ("clean", 3) in kinds


def test_a_framed_seat_s_history_and_state_equal_the_in_process_seat_s():
    rules = Rules.preset("bhabho", escape="draw_next_hand")
    game, seats, _ = play_following(rules, 5, 3, "framed")
    for seat, framed in enumerate(seats):
        framed.feed_many(orjson.loads(orjson.dumps(ev.for_seat_compact(game, seat, framed.fed))))
        assert list(framed.view().history) == game.seat_events(seat)
        alone = SeatKnowledge(seat, 5, rules)
        alone.feed_many(ev.SeatEvents(game, seat, 0, len(game.events)))
        assert _state(framed) == _state(alone)
        assert framed.view() == alone.view()


def _state(seat) -> dict:
    """A seat's knowledge (its attributes but the history, kept apart, and how it is fed)."""
    return {k: v for k, v in vars(seat).items()
            if k not in ("history", "_game", "_public", "_unread", "_reader", "_framed")}


def test_seats_sharing_public_knowledge_know_what_seats_alone_know_at_every_event():
    """Fed event by event, in turn, every attached seat's view and state equal a seat's that follows alone."""
    rules = Rules.preset("getaway")
    game = Game.deal(rules, 4, seed=11)
    public = PublicKnowledge(game)
    shared = [SeatKnowledge(s, 4, rules) for s in range(4)]
    alone = [SeatKnowledge(s, 4, rules) for s in range(4)]
    while game.current is not None:
        stop = len(game.events)
        for s in range(4):
            shared[s].feed_many(ev.SeatEvents(game, s, shared[s].taken, stop, public))
            alone[s].feed_many(ev.SeatEvents(game, s, alone[s].taken, stop))
            assert shared[s].view() == alone[s].view() == view_from_events(s, 4, rules, game.seat_events(s))
        game.apply(game.legal_actions()[0])
    assert public.parted == [None] * 4 and all(seat._public is public for seat in shared)
    for s in range(4):
        public.copy_to(shared[s])
        assert _state(shared[s]) == _state(alone[s]) | {"taken": stop}


def test_a_drawn_card_in_a_position_parts_its_leader_at_the_deal():
    """A position's drawn card is shown to its leader only: the leader parts from the others at the deal."""
    rules = Rules.preset("getaway")
    game = Game.from_position(rules, [["KD", "2S"], ["3C", "4C"], []], leader=0, out=[2], drawn="KD")
    public = PublicKnowledge(game)
    for s in (0, 1):
        seat = SeatKnowledge(s, 3, rules)
        seat.feed_many(ev.SeatEvents(game, s, 0, len(game.events), public))
        assert public.parted[0][0] == 0 and public.parted[1] is None
        assert (seat._public is None) == (s == 0)
        assert seat.view() == view_from_events(s, 3, rules, game.seat_events(s))


def test_seats_sharing_public_knowledge_are_fed_up_to_the_present():
    rules = Rules.preset("getaway")
    game = Game.deal(rules, 4, seed=2)
    public = PublicKnowledge(game)
    first, second = SeatKnowledge(0, 4, rules), SeatKnowledge(1, 4, rules)
    first.feed_many(ev.SeatEvents(game, 0, 0, 1, public))
    game.apply(game.legal_actions()[0])
    second.feed_many(ev.SeatEvents(game, 1, 0, len(game.events), public))
    with pytest.raises(ValueError, match="feed it up to there first"):
        first.view()
    with pytest.raises(ValueError, match="fed up to the game's present"):
        SeatKnowledge(2, 4, rules).feed_many(ev.SeatEvents(game, 2, 0, 1, public))
    with pytest.raises(ValueError, match="another game"):
        SeatKnowledge(3, 4, rules).feed_many(ev.SeatEvents(Game.deal(rules, 4, seed=3), 3, 0, 1, public))


def test_lazy_view_behaves_as_a_frozen_player_view():
    game = Game.deal(Rules.preset("getaway"), 4, seed=5)
    seat = SeatKnowledge(game.current, 4, game.rules)
    seat.feed_many(ev.SeatEvents(game, game.current, 0, len(game.events)))
    lazy = seat.view(game.legal_actions(), game.decision, 2.5)
    fresh = game.view(game.current, time_left=2.5)
    assert repr(lazy) == repr(fresh)
    copy = pickle.loads(pickle.dumps(lazy))
    assert type(copy) is PlayerView and copy == fresh
    assert dataclasses.asdict(lazy) == dataclasses.asdict(fresh)
    assert dataclasses.replace(lazy, time_left=1.0) == dataclasses.replace(fresh, time_left=1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        lazy.seat = 1
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        lazy.nonsense  # noqa: B018 - the read is the test
    assert lazy.unseen() == fresh.unseen() and lazy.still_to_play() == fresh.still_to_play()


def test_a_seat_refuses_events_out_of_order_or_of_another_seat():
    game = Game.deal(Rules.preset("getaway"), 4, seed=1)
    seat = SeatKnowledge(0, 4, game.rules)
    with pytest.raises(ValueError, match="taken in 0 events"):
        seat.feed_many(ev.SeatEvents(game, 0, 1, len(game.events)))
    with pytest.raises(ValueError, match="seat 1's"):
        seat.feed_many(ev.SeatEvents(game, 1, 0, len(game.events)))
    seat.feed_many(ev.SeatEvents(game, 0, 0, len(game.events)))
    with pytest.raises(ValueError, match="no event dicts"):
        seat.feed(game.seat_events(0)[0])


def framed_turns(seat: int, seed: int):
    """A random 4-player getaway game followed by seat ``seat``'s framed knowledge (fed its compact batches
    through JSON at each of its turns); yields (game, framed seat, events fed so far) at each turn."""
    rules = Rules.preset("getaway")
    game = Game.deal(rules, 4, seed)
    framed, rng, sent = SeatKnowledge(seat, 4, rules, framed=True), random.Random(seed), 0
    while game.current is not None:
        if game.current == seat:
            framed.feed_many(orjson.loads(orjson.dumps(ev.for_seat_compact(game, seat, sent))))
            sent = len(game.events)
            yield game, framed, sent
        game.apply(rng.choice(game.legal_actions()))


def test_a_framed_seat_takes_its_events_in_only_when_a_view_needs_them():
    """Fed and asked for views, a framed seat reads no event while a bot reads only the seat, the legal
    actions, the decision and the table's led suit and trump; views read later, newest first, still
    each show their own moment, and reading one takes the events in only up to its point."""
    seat, views = 2, []
    for game, framed, sent in framed_turns(seat, 11):  # noqa: B007 - the last one is read below
        legal, state = game.legal_actions(), game.state
        view = framed.view(legal, game.decision, 0.5, (state.led, state.trump))
        assert (view.seat, view.legal, view.decision) == (seat, tuple(legal), game.decision)
        assert view.led_suit == (state.led if state.led >= 0 else None)
        views.append((view, view_from_events(seat, 4, game.rules, game.seat_events(seat), legal, game.decision,
                                             time_left=0.5)))
    assert framed.taken == 0 and framed.fed == sent > 0 and len(views) > 5
    middle, fresh = views[len(views) // 2]
    assert middle.hand == fresh.hand
    assert framed.taken == len(fresh.history) < sent   # up to that view's point, no further
    for lazy, fresh in reversed(views):
        assert lazy == fresh
    framed.settle()
    assert framed.taken == sent
    assert framed.view() == view_from_events(seat, 4, game.rules, game.seat_events(seat)[:sent])


def test_a_framed_seat_whose_bot_reads_an_older_view_keeps_every_view_at_its_moment():
    """Views made unread, then an older one read (the seat turns to taking its events in as views are
    made): the views not yet read are given their own moment first, and every view equals the view
    rebuilt from scratch at its decision."""
    seat, pairs = 1, []
    for game, framed, sent in framed_turns(seat, 5):
        legal = game.legal_actions()
        pairs.append((framed.view(legal, game.decision), view_from_events(
            seat, 4, game.rules, game.seat_events(seat), legal, game.decision)))
        made = type(pairs[-1][0].__dict__["_snapshot"])
        assert made is (Pending if len(pairs) <= 3 else Snapshot)   # taken in as views are made once one is read
        if len(pairs) == 3:   # two views made unread before it: read the first one now
            assert framed.taken < sent
            assert pairs[0][0].hand_sizes == pairs[0][1].hand_sizes
    assert len(pairs) > 4 and all(type(lazy) is LazyView for lazy, _ in pairs)
    for lazy, fresh in pairs:
        assert lazy == fresh
