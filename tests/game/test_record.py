"""Game records: the JSON schema, exact replay, and refusal of tampered records."""

import copy
import json
import random

import pytest

from arena import Game, ReplayError, Rules
from arena.game.cards import PACK


def finished(preset="getaway", players=4, seed=11, **overrides):
    """A dealt game played to the end with random legal moves."""
    game = Game.deal(Rules.preset(preset, **overrides), players, seed)
    rng = random.Random(seed)
    while game.current is not None:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_record_schema():
    """A record holds version, rules, players, seed, dealer, names, start, events and result, all plain JSON."""
    game = finished()
    rec = game.to_record()
    assert set(rec) == {"version", "rules", "players", "seed", "dealer", "names", "start", "events", "result"}
    assert json.loads(json.dumps(rec)) == rec
    assert rec["rules"] == Rules.preset("getaway").to_dict()
    assert rec["names"] == ["seat0", "seat1", "seat2", "seat3"]
    assert rec["events"][0]["type"] == "deal" and len(rec["events"][0]["hands"]) == 4
    assert rec["events"][-1] == {"type": "end", **game.result.to_dict()}
    assert rec["result"] == game.result.to_dict()
    assert set(rec["result"]) == {"order", "loser", "draw", "tied", "reason", "ranks", "penalty", "loser_cards"}


def test_record_event_fields():
    """Every event type carries the documented fields."""
    fields = {
        "deal": {"type", "sizes", "hands"}, "play": {"type", "seat", "card"},
        "clean": {"type", "seat", "cards"}, "pickup": {"type", "seat", "cards"},
        "draw": {"type", "seat", "card", "from"}, "out": {"type", "seat", "place"},
        "take": {"type", "seat", "take"}, "trump": {"type", "suit"},
    }
    seen = set()
    for preset in ("getaway", "donkey", "bhabho"):
        for seed in range(10):
            for e in finished(preset, 4, seed).to_record()["events"]:
                seen.add(e["type"])
                if e["type"] in fields:
                    assert fields[e["type"]] <= set(e)
                if e["type"] == "take" and e["take"]:
                    assert {"from", "count", "cards"} <= set(e) and e["count"] == len(e["cards"])
    assert set(fields) | {"end"} <= seen


def test_names_and_extra_fields():
    """to_record takes seat names and extra fields (timings etc.) and keeps them."""
    rec = finished().to_record(names=["a", "b", "c", "d"], timings={"total": 1.5})
    assert rec["names"] == ["a", "b", "c", "d"] and rec["timings"] == {"total": 1.5}
    assert Game.from_record(rec).result.order == tuple(rec["result"]["order"])


def test_unfinished_game_record_replays():
    """A record of a game still in progress replays to the same position."""
    game = Game.deal(Rules.preset("getaway"), 5, seed=4)
    for _ in range(17):
        game.apply(game.legal_actions()[0])
    rec = game.to_record()
    assert rec["result"] is None
    again = Game.from_record(rec)
    assert again.state.hands == game.state.hands and again.current == game.current and again.trick == game.trick


@pytest.mark.parametrize("preset", ["getaway", "donkey", "bhabho", "champions", "playnest"])
def test_replay_reproduces_every_event_through_json(preset):
    """Game.from_record(json round trip of to_record()) gives the identical record and state."""
    for seed in range(15):
        game = finished(preset, 3 + seed % 4, seed)
        rec = json.loads(json.dumps(game.to_record()))
        again = Game.from_record(rec)
        assert again.to_record() == rec
        assert again.state.hands == game.state.hands and again.state.pile == game.state.pile


def test_position_record_with_draws_replays():
    """A hand-made position whose pile was given unsorted replays its random draws exactly."""
    rules = Rules.preset("getaway")
    game = Game.from_position(rules, ["AH", "2H 3C", "5H 4C"], 0, discard=["QS", "2D", "9C", "TH"], seed=3)
    for c in ("AH", "2H", "5H"):
        game.apply(c)
    assert game.events[-1][0] == "draw"
    rec = json.loads(json.dumps(game.to_record()))
    assert rec["start"]["discard"] == ["9C", "2D", "TH", "QS"]   # id order: clubs, diamonds, hearts, spades
    assert Game.from_record(rec).to_record() == rec
    whole = Game.from_position(rules, ["AH", "2H 3C", "5H 4C"], 0, seed=3)
    for c in ("AH", "2H", "5H"):
        whole.apply(c)
    assert Game.from_record(whole.to_record()).to_record() == whole.to_record()


def test_position_record_with_drawn_card_and_trump_replays():
    """A position with a drawn card, a trump and seats out records its start and replays."""
    rules = Rules.preset("donkey")
    game = Game.from_position(rules, ["KD 2S", "3C 4C", [], "5D"], 0, out=[2], trump="C", drawn="KD",
                              discard=["AH"])
    start = game.to_record()["start"]
    assert start == {"hands": [["KD", "2S"], ["3C", "4C"], [], ["5D"]], "leader": 0, "out": [2],
                     "discard": ["AH"], "trump": "C", "first_trick_done": True, "drawn": "KD"}
    rng = random.Random(0)
    while game.current is not None:
        game.apply(rng.choice(game.legal_actions()))
    assert Game.from_record(json.loads(json.dumps(game.to_record()))).result == game.result


def test_position_with_drawn_2c_records_it():
    """The drawn card 2C (card id 0) is recorded, not taken for none: the cut of it ends the game on replay too."""
    rules = Rules.preset("getaway", drawn_cut_loses=True)
    game = Game.from_position(rules, ["KD 9S", "2C 4S", [], []], 1, out=[2, 3], drawn="2C")
    assert game.to_record()["start"]["drawn"] == "2C"
    game.apply("2C")
    game.apply("KD")
    assert game.result.reason == "drawn_cut" and game.result.loser == 1
    assert Game.from_record(json.loads(json.dumps(game.to_record()))).result == game.result


def test_faults_and_forfeits_replay():
    """Faults (with their random replacement cards and penalty pick-ups) and forfeits replay exactly."""
    for policy in ("penalty", "random"):
        game = Game.deal(Rules.preset("getaway", fault_policy=policy, max_faults=2), 4, seed=8)
        rng = random.Random(8)
        while game.current is not None:
            if rng.random() < 0.1:
                game.apply_fault(rng.choice(["timeout", "crash", "illegal", "malformed"]))
            else:
                game.apply(rng.choice(game.legal_actions()))
        rec = game.to_record()
        assert any(e["type"] == "fault" for e in rec["events"])
        assert Game.from_record(json.loads(json.dumps(rec))).to_record() == rec


# ----------------------------------------------------------------- tamper
def _index(rec, kind, nth=0):
    return [i for i, e in enumerate(rec["events"]) if e["type"] == kind][nth]


def _refused(rec, index):
    with pytest.raises(ReplayError) as err:
        Game.from_record(rec)
    assert f"event {index}" in str(err.value)
    return str(err.value)


def test_tampered_play_card_is_refused_naming_the_event():
    """A play changed to a card the seat does not hold is refused with ReplayError naming that event."""
    game = finished()
    rec = game.to_record()
    i = _index(rec, "play", 5)
    seat = rec["events"][i]["seat"]
    bad = copy.deepcopy(rec)
    bad["events"][i]["card"] = rec["start"]["hands"][(seat + 1) % 4][0]   # dealt to another seat
    msg = _refused(bad, i)
    assert "cannot be replayed" in msg and f"seat {seat} may not play" in msg


def test_tampered_play_to_another_legal_card_is_refused_where_it_shows():
    """A play changed to another legal card is refused at the first event it contradicts."""
    rec = finished().to_record()
    events = rec["events"]
    for i, e in enumerate(events):
        if e["type"] != "play" or i < 10:
            continue
        replay = Game.from_record({**rec, "events": events[:i], "result": None})
        alternatives = [str(c) for c in replay.legal_actions() if str(c) != e["card"]]
        if alternatives:
            break
    bad = copy.deepcopy(rec)
    bad["events"][i]["card"] = alternatives[0]
    with pytest.raises(ReplayError) as err:
        Game.from_record(bad)
    index = int(str(err.value).split("event ")[1].split()[0])
    assert index > i


@pytest.mark.parametrize("kind, field, value", [
    ("clean", "seat", 99), ("clean", "cards", ["AS"]), ("out", "place", 7), ("out", "seat", 99),
    ("deal", "sizes", [1, 1, 1, 1]), ("end", "loser", 99),
])
def test_tampered_engine_event_is_refused_naming_it(kind, field, value):
    """Changing an event the engine produces (a trick result, an out, the deal, the end) is refused at that index."""
    rec = finished().to_record()
    i = _index(rec, kind)
    bad = copy.deepcopy(rec)
    bad["events"][i][field] = value
    msg = _refused(bad, i)
    assert "differs" in msg


def test_tampered_draw_is_refused_naming_it():
    """A drawn card changed in the record is refused at the draw event."""
    for seed in range(50):
        rec = finished("getaway", 3, seed).to_record()
        draws = [i for i, e in enumerate(rec["events"]) if e["type"] == "draw"]
        if draws:
            break
    i = draws[0]
    bad = copy.deepcopy(rec)
    bad["events"][i]["card"] = "AS" if bad["events"][i]["card"] != "AS" else "KS"
    _refused(bad, i)


def test_tampered_take_is_refused_naming_it():
    """A take answer flipped in the record is refused at the first event it changes."""
    rec = finished("bhabho", 5, 3).to_record()
    i = next(i for i, e in enumerate(rec["events"]) if e["type"] == "take" and not e["take"])
    bad = copy.deepcopy(rec)
    bad["events"][i]["take"] = True
    _refused(bad, i)


def test_missing_and_extra_events_are_refused():
    """A record with an event dropped or one added is refused."""
    rec = finished().to_record()
    i = _index(rec, "play", 3)
    dropped = copy.deepcopy(rec)
    del dropped["events"][i]
    with pytest.raises(ReplayError):
        Game.from_record(dropped)
    extra = copy.deepcopy(rec)
    extra["events"].append({"type": "play", "seat": 0, "card": "AS"})
    _refused(extra, len(rec["events"]))
    short = copy.deepcopy(rec)
    del short["events"][-1]
    with pytest.raises(ReplayError, match="ends at event"):
        Game.from_record(short)


def test_tampered_deal_seed_and_result_are_refused():
    """A changed deal, seed or result is refused, saying what differs."""
    rec = finished().to_record()
    bad = copy.deepcopy(rec)
    bad["start"]["hands"][0], bad["start"]["hands"][1] = rec["start"]["hands"][1], rec["start"]["hands"][0]
    with pytest.raises(ReplayError, match=r"recorded deal is not what this seed deals \(seat 0: the record has "):
        Game.from_record(bad)
    bad = copy.deepcopy(rec)
    bad["seed"] += 1
    with pytest.raises(ReplayError, match="deal"):
        Game.from_record(bad)
    bad = copy.deepcopy(rec)
    bad["result"]["penalty"] = [0, 0, 0, 0]
    with pytest.raises(ReplayError, match="replayed result"):
        Game.from_record(bad)


@pytest.mark.parametrize("mutate, message", [
    (lambda r: r.update(version=2), r"version 1 \(got 2\)"),
    (lambda r: r.pop("events"), "missing the field 'events'"),
    (lambda r: r.pop("rules"), "missing the field 'rules'"),
])
def test_malformed_records_are_refused(mutate, message):
    """A record with the wrong version or a missing field is refused with ReplayError saying which."""
    rec = finished().to_record()
    mutate(rec)
    with pytest.raises(ReplayError, match=message):
        Game.from_record(rec)


def test_non_dict_record_is_refused():
    """Something that is not a record dict is refused."""
    with pytest.raises(ReplayError, match="must be a dict"):
        Game.from_record([1, 2])


def test_record_has_every_card_once_in_the_deal():
    """The recorded deal is the whole pack, each card once."""
    rec = finished().to_record()
    cards = [c for h in rec["start"]["hands"] for c in h]
    assert len(cards) == len(set(cards)) == PACK
