"""The referee's in-process fast path (event tuples, lazy views) plays exactly the games the event dicts play."""

import orjson
from support.compact import from_dict

from arena import Game, Rules
from arena.bots.referee import InProcessClient, play_game
from arena.plugins.registry import load
from arena.game.events import AS_TUPLES, from_compact
from arena.game.knowledge import SeatKnowledge

REGISTRY = load(autoload=False)


class DictClient(InProcessClient):
    """An in-process client the referee hands event dicts (a subclass never gets the tuples)."""


def without_timings(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "timings"}


def test_tuple_fed_and_dict_fed_clients_play_the_same_records():
    names = ["heuristic", "random", "low", "high"]
    for preset, players in (("getaway", 4), ("bhabho", 4), ("getaway", 3)):
        rules = Rules.preset(preset)
        fast = [InProcessClient(REGISTRY.get(n)) for n in names[:players]]
        slow = [DictClient(REGISTRY.get(n)) for n in names[:players]]
        for seed in range(6):
            a, b = play_game(rules, fast, seed), play_game(rules, slow, seed)
            assert without_timings(a) == without_timings(b)
            assert [t["decisions"] for t in a["timings"]] == [t["decisions"] for t in b["timings"]]


class CompactClient(DictClient):
    """A client that takes compact batches, as the sandboxed one does: its seat is a framed SeatKnowledge fed
    each batch as the host gets it, through JSON."""

    takes_compact = True

    def __init__(self, spec) -> None:
        super().__init__(spec)
        self.got: list = []
        self.tables: list = []

    def begin(self, seat, players, rules, seed, events, deal=None):
        self.got = list(events)
        reply = super().begin(seat, players, rules, seed, [], deal)
        self.knowledge = SeatKnowledge(seat, players, rules, framed=True)
        self.knowledge.feed_many(orjson.loads(orjson.dumps(events)))
        return reply

    def decide(self, events, legal, decision, table=None):
        """As the host decides: the view made with the referee's table (led suit, trump)."""
        self.got.extend(events)
        self.tables.append(table)
        self.knowledge.feed_many(orjson.loads(orjson.dumps(events)))
        return self._call(self.bot.act, self.knowledge.view(legal, decision, None, orjson.loads(orjson.dumps(table))))

    def finish(self, events, result):
        self.got.extend(events)
        super().finish(orjson.loads(orjson.dumps(events)), result)


def test_compact_clients_get_each_seats_own_events_and_play_the_same_records():
    names = ["heuristic", "random", "low", "high"]
    for preset, players in (("getaway", 4), ("bhabho", 4), ("getaway", 3), ("donkey", 5)):
        rules = Rules.preset(preset)
        plain = [DictClient(REGISTRY.get(n)) for n in (names * 2)[:players]]
        compact = [CompactClient(REGISTRY.get(n)) for n in (names * 2)[:players]]
        for seed in range(6):
            a, b = play_game(rules, plain, seed), play_game(rules, compact, seed)
            assert without_timings(a) == without_timings(b)
            replay = Game.from_record(b)
            for seat, client in enumerate(compact):   # what each seat was sent says what its dicts say, no more
                assert [from_compact(e, seat) for e in client.got] == replay.seat_events(seat)
                assert all(tuple(e) == from_dict(from_compact(e, seat)) for e in client.got if e[0] in AS_TUPLES)
            assert all(type(t) is tuple and len(t) == 2 for c in compact for t in c.tables)   # at every decision
            plays = [[e for e in c.got if e[0] == "play"] for c in compact]
            assert all(p[0] is plays[0][0] for p in plays[1:])  # public events: the engine's tuple, shared
            assert all(type(e) is tuple and len(e) == 2 and type(e[1]) is dict
                       for c in compact for e in c.got if e[0] not in AS_TUPLES)
