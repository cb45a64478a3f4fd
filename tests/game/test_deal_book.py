"""Deal books' lines (arena/game/book.py) and games dealt from given hands (Game.deal(hands=...))."""

from __future__ import annotations

import json
import random
import re

import pytest

from arena import Game, Rules
from arena.game.book import BookDeal, check_deal, deal_line, parse_line
from arena.game.errors import PositionError
from arena.game.rules import PRESETS


def _play_out(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while game.current is not None:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_a_book_deal_plays_the_given_hands_and_replays_from_its_record():
    """The hands of a seeded deal, given as a book line under another seed: the same cards per seat and
    dealer, and with the same moves the same game; the record says the deal was given and replays."""
    rules = PRESETS["getaway"]
    seeded = Game.deal(rules, 4, 11, dealer=2)
    line = parse_line(json.dumps({"players": 4, "dealer": 2, "hands": seeded.start["hands"]}))
    given = line.game(rules, 999)
    assert given.start == {"hands": seeded.start["hands"], "given": True} and given.dealer == 2
    assert given.current == seeded.current  # the holder of AS leads
    _play_out(seeded, 5), _play_out(given, 5)
    assert given.result == seeded.result
    record = given.to_record()
    assert Game.from_record(record).result.to_dict() == record["result"]


def test_a_seeded_record_still_replays_and_a_given_deal_cannot_pass_as_seeded():
    """Old records (no "given") replay as before; dropping "given" from a book game's record is refused."""
    rules = Rules()
    seeded = _play_out(Game.deal(rules, 3, 4), 1)
    assert Game.from_record(seeded.to_record()).result == seeded.result
    other = Game.deal(rules, 3, 5).start["hands"]
    record = _play_out(Game.deal(rules, 3, 4, hands=other), 1).to_record()
    del record["start"]["given"]
    with pytest.raises(Exception, match="not what this seed deals"):
        Game.from_record(record)


def test_a_position_line_starts_the_position():
    """A line with a leader is a position (Game.from_position's keys), recorded as one."""
    line = BookDeal.from_dict({"players": 3, "hands": [["AS", "2C"], ["KS"], ["3D", "4D"]], "leader": 0,
                               "discard": []})
    game = line.game(PRESETS["getaway"], 1)
    assert game.start["leader"] == 0 and game.start["discard"] == []
    assert [len(game.hand(s)) for s in range(3)] == [2, 1, 2]
    assert Game.from_record(_play_out(game, 2).to_record()).result == game.result


@pytest.mark.parametrize("data, fragment", [
    ("[1, 2]", "expected a JSON object with hands (got list)"),
    ("{bad", "expected a JSON object (got text that is not JSON: "),
    ('{"hands": []}', "key 'hands': expected a list of hands"),
    ('{"players": 3, "hands": [["AS"], ["KS"]]}', "key 'players': expected the number of hands, 2 (got 3)"),
    ('{"dealer": 5, "hands": [["AS"], ["KS"], ["QS"]]}', "key 'dealer': expected a seat 0..2 (got 5)"),
    ('{"hands": [["AS"], ["KS"], ["QS"]], "colour": 1}', "unknown key 'colour'"),
    ('{"hands": [["AS"], ["KS"], ["QS"]], "discard": []}', "a position needs its 'leader'"),
])
def test_a_bad_line_names_what_is_wrong(data, fragment):
    with pytest.raises(PositionError, match=re.escape(fragment)):
        parse_line(data)


@pytest.mark.parametrize("change, fragment", [
    (lambda h: h[0].pop(), "are in no hand"),
    (lambda h: h[1].append(h[0][0]), "appears twice"),
    (lambda h: h[2].append("ZZ"), "not a card"),
    (lambda h: h[1].append("AS*"), "needs a second pack"),
])
def test_a_deal_must_hold_the_whole_pack_once(change, fragment):
    """Checked against the rules it is played under: every card of the pack exactly once."""
    hands = [list(h) for h in Game.deal(Rules(), 3, 8).start["hands"]]
    change(hands)
    with pytest.raises(Exception, match=fragment):
        check_deal(BookDeal.from_dict({"hands": hands}), Rules())


def test_deal_line_of_a_record_is_a_book_line_that_deals_it_again():
    record = Game.deal(Rules(), 5, 21, dealer=3).to_record(names=list("abcde"))
    line = deal_line(record, source={"game": 7})
    assert line["source"] == {"game": 7} and line["dealer"] == 3
    again = parse_line(json.dumps(line)).game(Rules(), 0)
    assert again.start["hands"] == record["start"]["hands"] and again.dealer == 3
