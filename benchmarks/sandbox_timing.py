"""The sandbox's timings that the tests check only as behaviour (a loaded machine would fail a bound).

    .venv/bin/python benchmarks/sandbox_timing.py [--frames 2000] [--repeats 10]

Prints, median and worst of the repeats:

- a small frame written and read through a pipe: µs per round trip
  (tests/sandbox/test_wire.py once asserted under 200 µs);
- how late ``read_frame`` reports a timeout after its deadline, for a writer
  gone silent after a header and for one dribbling a byte every 10 ms
  (test_wire.py once allowed 500 ms);
- how late a bot whose import never ends is reported as a start-up timeout
  after its wall-clock cap, 3 x ``startup_ms`` (test_client.py once allowed 4 s);
- ``kill_group`` on a bot-like group of three processes: ms until all are
  killed and the leader reaped (test_limits.py once allowed 1.5 s).
"""

from __future__ import annotations

import argparse
import os
import statistics
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("ARENA_DISABLE_PLUGIN_AUTOLOAD", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import arena
from arena import Game, PlayerSpec, Rules
from arena.sandbox.client import SandboxClient
from arena.sandbox.processes import group_members, kill_group
from arena.sandbox.wire import read_frame, write_frame
from arena.tournament.spec import LimitsSpec

if sys.argv[0].endswith((os.path.join("sandbox", "host.py"), os.path.join("sandbox", "server.py"))):
    time.sleep(3600)  # imported inside a bot process: a start-up that never ends


class SlowStart(arena.Bot):
    """A bot whose module never finishes importing inside the sandbox (see above)."""

    def play(self, view):
        return view.legal[0]


def frame_round_trips(n: int) -> list[float]:
    """µs per write_frame + read_frame of a small frame through one pipe."""
    r, w = os.pipe()
    try:
        out = []
        for _ in range(n):
            t0 = time.perf_counter_ns()
            write_frame(w, {"play": "AS"})
            read_frame(r, max_bytes=1000, deadline=time.monotonic() + 1)
            out.append((time.perf_counter_ns() - t0) / 1000)
        return out
    finally:
        os.close(r)
        os.close(w)


def timeout_lateness(dribble: bool, wait: float = 0.2) -> float:
    """ms between read_frame's deadline and its timeout, the writer silent or dribbling."""
    r, w = os.pipe()
    stop = threading.Event()

    def drip() -> None:
        while not stop.wait(0.01):
            os.write(w, b" ")

    thread = threading.Thread(target=drip)
    os.write(w, struct.pack(">I", 1 << 20))
    if dribble:
        thread.start()
    try:
        deadline = time.monotonic() + wait
        frame = read_frame(r, max_bytes=1 << 20, deadline=deadline)
        late = (time.monotonic() - deadline) * 1000
    finally:
        stop.set()
        if dribble:
            thread.join()
        os.close(r)
        os.close(w)
    assert frame.status == "timeout", frame
    return late


def startup_lateness(startup_ms: int = 300) -> float:
    """ms between a never-ready bot's start-up cap and the timeout reported for it."""
    import sandbox_timing  # this file under its module name: the sandbox imports the bot by it

    limits = LimitsSpec(decision_ms=200, bank_ms=0, startup_ms=startup_ms, memory_mb=1024)
    rules = Rules.preset("getaway")
    start = time.monotonic()
    client = SandboxClient(PlayerSpec("slow-start", sandbox_timing.SlowStart), limits)
    try:
        reply = client.begin(0, 3, rules, 1, Game.deal(rules, 3, 1).seat_events(0))
        late = (time.monotonic() - start) * 1000 - 3 * startup_ms
    finally:
        client.close()
    assert reply.status == "timeout", reply
    return late


def kill_group_ms() -> float:
    """ms for kill_group on a shell and its two sleepers."""
    proc = subprocess.Popen(["sh", "-c", "sleep 60 & sleep 60 & wait"], start_new_session=True)
    while len(group_members(proc.pid)) < 3:
        time.sleep(0.001)
    t0 = time.perf_counter()
    kill_group(proc)
    return (time.perf_counter() - t0) * 1000


def line(label: str, values: list[float], unit: str) -> str:
    return f"  median {statistics.median(values):9.1f} {unit}  worst {max(values):9.1f} {unit}  {label}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    n = args.repeats
    print(f"sandbox timings ({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f})")
    print(line(f"small frame round trip through a pipe ({args.frames} frames)",
               frame_round_trips(args.frames), "µs"))
    print(line(f"read_frame timeout after its deadline, silent writer ({n} reads)",
               [timeout_lateness(False) for _ in range(n)], "ms"))
    print(line(f"read_frame timeout after its deadline, dribbling writer ({n} reads)",
               [timeout_lateness(True) for _ in range(n)], "ms"))
    print(line(f"start-up timeout after its 900 ms cap, import never ends ({n} bots)",
               [startup_lateness() for _ in range(n)], "ms"))
    print(line(f"kill_group of a 3-process group ({n} groups)", [kill_group_ms() for _ in range(n)], "ms"))


if __name__ == "__main__":
    main()
