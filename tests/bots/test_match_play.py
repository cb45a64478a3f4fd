"""Playing a whole match: hands, dealers, seeds, what each seat is told, exact replay."""

import copy
import json
from typing import ClassVar

import pytest

from arena import Bot, Game, Rules
from arena.bots.match_play import play_match
from arena.bots.referee import InProcessClient
from arena.game.errors import ReplayError
from arena.game.match import MatchRules, MatchView
from arena.game.match_record import replay_match
from arena.game.seeds import match_hand_seed
from arena.game.knowledge import view_from_events
from arena.plugins.registry import load

REGISTRY = load(autoload=False)
RULES = Rules.preset("getaway")


class Watcher(Bot):
    """Plays its lowest legal card and keeps the match view of every new game."""

    seen: ClassVar[list] = []

    def new_game(self, view):
        self.seen.append(view.match)

    def play(self, view):
        return view.legal[0]


class WatcherSpec:
    name = "watcher"

    def __init__(self, seen):
        self.seen = seen

    def create(self, seed):
        bot = Watcher(seed)
        bot.seen = self.seen
        return bot


def clients(names=("heuristic", "low", "high")):
    return [InProcessClient(REGISTRY.get(n)) for n in names]


def test_a_match_plays_hands_until_someone_reaches_six():
    record = play_match(RULES, clients(), 41, MatchRules(6))
    scores = [0, 0, 0]
    for number, hand in enumerate(record["hands"]):
        assert hand["seed"] == match_hand_seed(41, number)
        assert hand["dealer"] == number % 3                  # one seat on each hand
        assert hand["match"]["hand"] == number and hand["match"]["scores"] == scores
        assert max(scores) < 6                                # no hand after the end
        scores = [a + b for a, b in zip(scores, hand["result"]["penalty"])]
    assert max(scores) >= 6 and record["result"]["scores"] == scores
    assert record["result"]["hands"] == len(record["hands"])
    assert json.loads(json.dumps(record)) == record


def test_same_seed_same_match_and_exact_replay():
    a = play_match(RULES, clients(), 7, MatchRules(6, "cards"))
    b = play_match(RULES, clients(), 7, MatchRules(6, "cards"))
    for hand in a["hands"] + b["hands"]:
        del hand["timings"]                                   # CPU times differ run to run
    assert a == b
    state = replay_match(a)
    assert state.result().to_dict() == a["result"] and state.hand == len(a["hands"])
    assert play_match(RULES, clients(), 8, MatchRules(6, "cards"))["hands"][0]["start"] != a["hands"][0]["start"]


def test_replay_refuses_a_tampered_match():
    record = play_match(RULES, clients(), 5, MatchRules(4))
    short = copy.deepcopy(record)
    if len(short["hands"]) > 1:
        short["hands"].pop()
        with pytest.raises(ReplayError, match="not over"):
            replay_match(short)
    swapped = copy.deepcopy(record)
    swapped["hands"][0]["dealer"] = 2
    with pytest.raises(ReplayError, match="hand 0"):
        replay_match(swapped)
    lied = copy.deepcopy(record)
    lied["result"]["scores"][0] += 1
    with pytest.raises(ReplayError, match="standings"):
        replay_match(lied)


def test_every_seat_is_told_the_match_score_before_each_hand():
    seen = []
    record = play_match(RULES, [InProcessClient(WatcherSpec(seen))] + clients(("low", "high")), 3, MatchRules(6))
    assert [v.hand for v in seen] == list(range(len(record["hands"])))
    for view, hand in zip(seen, record["hands"]):
        assert list(view.scores) == hand["match"]["scores"] and view.dealer == hand["dealer"]
        assert view.points == 6 and view.score == "places"


def test_every_seat_sees_the_same_public_match_view_and_no_more():
    """The match event is the same for every seat; the rest of each seat's view is the hand's own
    (a sandboxed bot's host rebuilds its view from the same events with the same tracker)."""
    record = play_match(RULES, clients(), 12, MatchRules(6))
    hand = record["hands"][-1]
    game = Game.from_record(hand)
    event = MatchView(**{**hand["match"], "scores": tuple(hand["match"]["scores"]),
                         "bhabhis": tuple(hand["match"]["bhabhis"])}).to_event()
    views = [view_from_events(s, 3, RULES, [event] + game.seat_events(s)) for s in range(3)]
    assert len({v.match for v in views}) == 1 and views[0].match.hand == len(record["hands"]) - 1
    for s, view in enumerate(views):
        plain = view_from_events(s, 3, RULES, game.seat_events(s))
        assert plain.match is None and view.hand == plain.hand and view.seen_mask == plain.seen_mask
        assert view.history[1:] == plain.history


class DealRecorder(InProcessClient):
    """An in-process client that keeps the ``deal`` every begin is given."""

    def __init__(self, spec, deals):
        super().__init__(spec)
        self.deals = deals

    def begin(self, seat, players, rules, seed, events, deal=None):
        self.deals.append(deal)
        return super().begin(seat, players, rules, seed, events, deal)


def test_each_hand_is_its_own_deal_for_the_sandbox():
    """``deal`` is the hand's seed, so a sandboxed client never gives one process the same hand twice
    (a rotated match replays the same hands: each is a deal a process may play once)."""
    deals = []
    record = play_match(RULES, [DealRecorder(REGISTRY.get("low"), deals)] + clients(("high", "heuristic")), 9,
                        MatchRules(6))
    assert deals == [match_hand_seed(9, h) for h in range(len(record["hands"]))] and len(set(deals)) == len(deals)
