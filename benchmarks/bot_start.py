"""What starting sandboxed bots costs, with keepers forked from the zygote and exec'd, side by side.

    .venv/bin/python benchmarks/bot_start.py [--bots 8] [--rounds 5] [--player random]

Each trial is a fresh process (so the zygote's own start is counted where it is
used) that finds the plugins and probes the machine first (not counted), then
starts ``--bots`` sandboxed clients of ``--player`` one after another and waits
until each has answered a ping: its fork server started, the bot imported, a
game process cloned. It reports the wall time of that and the CPU time of the
trial process and everything under it (Linux /proc: utime + stime + cutime +
cstime of each live process, read before the clients close; 10 ms ticks).
"exec" makes the zygote unavailable, so every keeper is exec'd as its own
interpreter (what happened before the zygote). The modes alternate, round by
round; the medians are printed last.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import tournament  # noqa: E402, F401  (it puts this checkout first on the path)

MODES = ("zygote", "exec")


def trial(mode: str, bots: int, player: str) -> dict:
    """In a fresh process: start the bots, ping each; wall and CPU seconds."""
    from arena.plugins.registry import load
    from arena.sandbox import zygoteproc
    from arena.sandbox.cpu_meter import start_meter
    from arena.sandbox.client import SandboxClient
    from arena.sandbox.limits import detect

    if mode == "exec":
        def refuse(*args, **kwargs):
            raise OSError("no zygote (benchmark: exec'd keepers)")
        zygoteproc.spawn = refuse
    spec = load().get(player)
    detect()
    meter = start_meter()  # counts every process the trial starts
    cpu0, wall0 = meter.seconds(), time.perf_counter()
    clients = [SandboxClient(spec) for _ in range(bots)]
    try:
        answers = [c.ping().status for c in clients]
        wall, cpu = time.perf_counter() - wall0, meter.seconds() - cpu0
    finally:
        for c in clients:
            c.close()
    if set(answers) != {"ok"}:
        raise SystemExit(f"expected every bot to answer ok, got {answers}")
    return {"wall": wall, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--player", default="random")
    parser.add_argument("--trial", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.trial:
        print(json.dumps(trial(args.trial, args.bots, args.player)))
        return
    seen: dict[str, list[dict]] = {m: [] for m in MODES}
    print(f"{args.bots} sandboxed {args.player} bots started in a fresh process, {args.rounds} rounds")
    for r in range(args.rounds):
        for mode in MODES:
            out = subprocess.run([sys.executable, __file__, "--trial", mode, "--bots", str(args.bots),
                                  "--player", args.player], check=False, capture_output=True, text=True)
            if out.returncode:
                raise SystemExit(f"the {mode} trial failed: {out.stderr.strip().splitlines()[-1:]}")
            got = json.loads(out.stdout.strip().splitlines()[-1])
            seen[mode].append(got)
            print(f"round {r + 1} {mode:6}  wall {got['wall'] * 1000:7.1f} ms  CPU {got['cpu'] * 1000:7.1f} ms"
                  f"  ({got['cpu'] / args.bots * 1000:.1f} ms a bot)", flush=True)
    print("medians:")
    for mode in MODES:
        wall = statistics.median(g["wall"] for g in seen[mode])
        cpu = statistics.median(g["cpu"] for g in seen[mode])
        print(f"  {mode:6}  wall {wall * 1000:7.1f} ms  CPU {cpu * 1000:7.1f} ms  "
              f"({cpu / args.bots * 1000:.1f} ms a bot)")


if __name__ == "__main__":
    main()
