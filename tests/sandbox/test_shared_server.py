"""Clients of one bot that play at the same time (a worker's lanes) share its fork server."""

from __future__ import annotations

import os
import threading

from arena.bots.referee import play_game
from arena.game.rules import Rules
from arena.plugins.registry import load
from arena.sandbox.client import SandboxClient
from arena.sandbox.shared_server import SharedServer

REGISTRY = load(autoload=False)
RULES = Rules.preset("getaway")
NAMES = ("random", "heuristic", "low", "high")


def _no_timings(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "timings"}


def test_two_lanes_share_each_bots_server_and_play_the_games_of_one_lane(clients):
    """Two lanes play seeds 0-3 (and seeds 0-3 again) at once: one server per bot, no process
    given a deal twice, the records of the same games played alone; the last close kills it all."""
    shares = {n: SharedServer(2) for n in NAMES}
    lanes = [[SandboxClient(REGISTRY.get(n), share=shares[n]) for n in NAMES] for _ in range(2)]
    clients.extend(c for lane in lanes for c in lane)
    played: list[list] = [[], []]
    pids: list[list] = [[], []]

    def run(i: int) -> None:
        for seed in range(4):
            played[i].append(play_game(RULES, lanes[i], seed))
            pids[i].append([c.pid for c in lanes[i]])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    alone = [SandboxClient(REGISTRY.get(n)) for n in NAMES]
    clients.extend(alone)
    expected = [_no_timings(play_game(RULES, alone, seed)) for seed in range(4)]
    assert [_no_timings(r) for r in played[0]] == [_no_timings(r) for r in played[1]] == expected
    assert all(not any(r["faults"]) for lane in played for r in lane)
    if not lanes[0][0]._forked:
        return
    for seat in range(4):  # one server per bot, started by one of its clients
        assert sum(lane[seat].starts for lane in lanes) == 1
        assert lanes[0][seat]._server is lanes[1][seat]._server
    both = {p for lane in pids for game in lane for p in game}
    assert not set(lanes[0][0].pids) & set(lanes[1][0].pids)  # each process belongs to one lane
    servers = [shares[n].live() for n in NAMES]
    for c in lanes[0]:
        c.close()
    assert all(s is not None and s.alive() for s in servers), "the other lane still uses them"
    for c in lanes[1]:
        c.close()
    assert all(not s.alive() for s in servers)
    assert not any(os.path.exists(f"/proc/{p}") for p in both)
