"""The CPU meter counts every process a run starts, an orphaned grandchild included, in both of its ways."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BURN_S = 0.4
SCRIPT = f"""
import json, os, sys, time
from arena.sandbox import cpu_meter
if sys.argv[1] == "walk":
    cpu_meter.CPUACCT = ("/nonexistent",)   # as on a machine without a cgroup v1 cpuacct hierarchy
meter = cpu_meter.start_meter()
own0 = time.process_time()
r, w = os.pipe()
child = os.fork()
if child == 0:
    if os.fork() == 0:                      # the grandchild, orphaned at once: re-parented as it burns
        os.close(r)
        end = time.process_time() + {BURN_S}
        while time.process_time() < end:
            pass
        os._exit(0)
    os._exit(0)
os.close(w)
os.waitpid(child, 0)
while os.read(r, 1):                        # end of file: the grandchild has exited
    pass
print(json.dumps({{"how": meter.how, "others": meter.seconds() - (time.process_time() - own0)}}))
meter.close()
"""


def _run(mode: str) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _cgroup_here() -> bool:
    usage = "/sys/fs/cgroup/cpuacct/cpuacct.usage"
    return os.path.isfile(usage) and os.access(os.path.dirname(usage), os.W_OK)


@pytest.mark.parametrize("mode", ["default", "walk"])
def test_an_orphaned_grandchild_s_cpu_is_counted(mode):
    got = _run(mode)
    expected = "cgroup v1 cpuacct" if mode == "default" and _cgroup_here() else "/proc walk"
    assert got["how"].startswith(expected), got["how"]
    assert BURN_S * 0.9 <= got["others"] <= BURN_S + 0.5, got


def test_the_meter_leaves_no_group_behind():
    """No meter group outlives its process. A group is looked at again after its owner is seen gone: another
    test's meter, listed while it ran, removes its group just before its process exits."""
    _run("default")
    parent = Path("/sys/fs/cgroup/cpuacct/bhabhi-arena")
    listed = [p.name for p in parent.glob("meter-*")] if parent.is_dir() else []
    owner_gone = [n for n in listed if not Path(f"/proc/{n.split('-')[1]}").exists()]
    assert [n for n in owner_gone if (parent / n).exists()] == []
