"""A serial run shares one core with its bots, as a pool worker does, and gives the cores back at shutdown."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import json, os, subprocess, sys, threading
from arena.tournament.executors import SerialExecutor
from arena.plugins.registry import load
before = sorted(os.sched_getaffinity(0))
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])   # started before the run
executor = SerialExecutor(load(autoload=False))
during = executor.submit(lambda: {
    "self": sorted(os.sched_getaffinity(0)),
    "child": sorted(os.sched_getaffinity(child.pid)),
    "new thread": sorted(_in_thread()),
    "new process": subprocess.run([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                                  capture_output=True, text=True).stdout.strip(),
}).result()
executor.shutdown()
after = {"self": sorted(os.sched_getaffinity(0)), "child": sorted(os.sched_getaffinity(child.pid))}
child.kill()
print(json.dumps({"before": before, "during": during, "after": after}))
"""
HELPER = """
def _in_thread():
    got = []
    t = threading.Thread(target=lambda: got.append(os.sched_getaffinity(0)))
    t.start(); t.join()
    return got[0]
"""


def test_a_serial_run_pins_its_tree_to_one_core_and_gives_the_cores_back():
    script = SCRIPT.replace("executor = SerialExecutor", HELPER + "\nexecutor = SerialExecutor")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "ARENA_DISABLE_PLUGIN_AUTOLOAD": "1"}, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    one = [min(got["before"])]
    assert got["during"] == {"self": one, "child": one, "new thread": one, "new process": str(one)}
    assert got["after"] == {"self": got["before"], "child": got["before"]}
