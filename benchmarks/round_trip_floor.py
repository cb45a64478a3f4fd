"""The floor under a sandboxed decision: what one round trip costs when neither side does anything else.

    .venv/bin/python benchmarks/round_trip_floor.py [--trips 20000] [--rounds 5] [--peers 1,4]

A parent process and ``--peers`` child processes, all pinned to one core (as a
tournament worker and its game's bots are), pass small frames over pipes: the
parent writes a frame to one child, waits for its answer, then goes on to the
next child in turn, as the referee asks each seat in turn. Each child reads a
frame and answers at once. Two kinds of frame:

- ``bytes``: a fixed 160-byte frame and a 16-byte answer, no parsing (the pipes
  and the process switches alone);
- ``json``: a decision's frame as the harness sends it, about 160 bytes of JSON
  with a 4-byte length header, decoded by the child, which encodes a one-key
  answer that the parent decodes (orjson on both sides, as the sandbox uses).

It prints, for each setting, the parent's and the children's CPU microseconds per
round trip (medians over ``--rounds``; the children's from their own
``resource.getrusage``), and the sum. Compare with a sandboxed game's cost per round
trip (``benchmarks/game_cost.py``: about 74 round trips a game of getaway at 4
players): what is above this floor is the harness's and the host's Python work.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import struct
import sys
import time

import orjson

HEADER = struct.Struct(">I")
MESSAGE = {"op": "decide",
           "events": [["play", 1, 17], ["play", 2, 20], ["play", 3, 23], ["clean", 3, [14, 17, 20, 23]]],
           "legal": [2, 5, 9, 31, 44], "decision": "play", "time_left": 1.0, "table": [-1, -1]}


def child(cmd: int, reply: int, mode: str, out: int) -> None:
    """Answer every frame until the command pipe closes; then report this process's CPU seconds."""
    answer = b"\0\0\0\x0c{\"action\":9}"
    while True:
        chunk = os.read(cmd, 65536)
        if not chunk:
            break
        if mode == "json":
            message = orjson.loads(chunk[HEADER.size:])
            body = orjson.dumps({"action": message["legal"][0]})
            answer = HEADER.pack(len(body)) + body
        os.write(reply, answer)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    os.write(out, orjson.dumps(usage.ru_utime + usage.ru_stime))


def one_round(peers: int, trips: int, mode: str, core: int) -> tuple[float, float]:
    """(parent's, children's) CPU microseconds per round trip."""
    pipes, pids, outs = [], [], []
    for _ in range(peers):
        cmd_r, cmd_w = os.pipe()
        rep_r, rep_w = os.pipe()
        out_r, out_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.sched_setaffinity(0, {core})
            for fd in (cmd_w, rep_r, out_r):
                os.close(fd)
            child(cmd_r, rep_w, mode, out_w)
            os._exit(0)
        for fd in (cmd_r, rep_w, out_w):
            os.close(fd)
        pipes.append((cmd_w, rep_r))
        pids.append(pid)
        outs.append(out_r)
    frame = HEADER.pack(160) + b"x" * 160
    cpu0 = time.process_time()
    for i in range(trips):
        cmd, rep = pipes[i % peers]
        if mode == "json":
            body = orjson.dumps(MESSAGE)
            os.write(cmd, HEADER.pack(len(body)) + body)
            orjson.loads(os.read(rep, 65536)[HEADER.size:])
        else:
            os.write(cmd, frame)
            os.read(rep, 65536)
    parent = time.process_time() - cpu0
    for cmd, _rep in pipes:
        os.close(cmd)
    children = 0.0
    for pid, out in zip(pids, outs):
        children += orjson.loads(os.read(out, 64))
        os.waitpid(pid, 0)
        os.close(out)
    for _, rep in pipes:
        os.close(rep)
    return parent / trips * 1e6, children / trips * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trips", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--peers", default="1,4", help="child processes, comma-separated")
    parser.add_argument("--core", type=int, default=None, help="the core to pin to (default: the last)")
    args = parser.parse_args(argv)
    if not hasattr(os, "sched_setaffinity"):
        sys.exit("this benchmark pins processes to one core: Linux only")
    core = args.core if args.core is not None else max(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {core})
    try:
        print(f"{args.trips} round trips x {args.rounds} rounds, all on core {core}; CPU us a round trip, medians")
        for mode in ("bytes", "json"):
            for peers in (int(p) for p in args.peers.split(",")):
                runs = [one_round(peers, args.trips, mode, core) for _ in range(args.rounds)]
                parent = statistics.median(r[0] for r in runs)
                children = statistics.median(r[1] for r in runs)
                both = statistics.median(r[0] + r[1] for r in runs)
                print(f"  {mode:5s}  {peers} peer{'s' if peers > 1 else ' '}:  parent {parent:5.2f}  "
                      f"children {children:5.2f}  both {both:5.2f}")
    finally:
        os.sched_setaffinity(0, before)


if __name__ == "__main__":
    main()
