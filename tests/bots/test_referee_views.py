"""The referee's in-process fast path (event tuples, lazy views) plays exactly the games the event dicts play."""

from arena import Rules
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
