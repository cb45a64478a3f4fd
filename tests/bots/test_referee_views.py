"""The referee's in-process fast path (event tuples, lazy views) plays exactly the games the event dicts play."""

from arena import Game, Rules
from arena.bots.referee import InProcessClient, play_game
from arena.plugins.registry import load

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


class SharingClient(DictClient):
    """A client that says it only reads its event dicts: the referee may hand seats the same dicts."""

    reads_events_only = True

    def __init__(self, spec) -> None:
        super().__init__(spec)
        self.got: list[dict] = []

    def begin(self, seat, players, rules, seed, events, deal=None):
        self.got = list(events)
        return super().begin(seat, players, rules, seed, events, deal)

    def decide(self, events, legal, decision):
        self.got.extend(events)
        return super().decide(events, legal, decision)

    def finish(self, events, result):
        self.got.extend(events)
        super().finish(events, result)


def test_clients_that_only_read_get_each_seats_own_events_and_the_same_records():
    names = ["heuristic", "random", "low", "high"]
    for preset, players in (("getaway", 4), ("bhabho", 4), ("getaway", 3)):
        rules = Rules.preset(preset)
        plain = [DictClient(REGISTRY.get(n)) for n in names[:players]]
        sharing = [SharingClient(REGISTRY.get(n)) for n in names[:players]]
        for seed in range(6):
            a, b = play_game(rules, plain, seed), play_game(rules, sharing, seed)
            assert without_timings(a) == without_timings(b)
            replay = Game.from_record(b)
            for seat, client in enumerate(sharing):
                assert client.got == replay.seat_events(seat)  # draws and takes filtered per seat
            plays = [[e for e in c.got if e["type"] == "play"] for c in sharing]
            assert all(p[0] is plays[0][0] for p in plays[1:])  # public events: one dict, shared
