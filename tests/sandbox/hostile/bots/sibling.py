"""Hostile: reads other processes' CPU clocks, priorities and I/O priorities.

Two colluding bots could pass a hand through I/O priorities (set on self,
read on the other), and one bot could time its victim's thinking from the
victim's CPU clock. CONFIG["targets"] names pids (the harness, an honest
bot's game process, a sentinel). Expect: every read refused (the pids do not
exist in its PID namespace, or seccomp says no).
"""

import ctypes
import json
import os
import time

import arena

libc = ctypes.CDLL(None, use_errno=True)
SYS_IOPRIO_GET, SYS_IOPRIO_SET = 252, 251


def attempt(fn) -> str:
    try:
        value = fn()
        return f"got {value}"
    except OSError as e:
        return type(e).__name__


def cpu_clock(pid: int) -> float:
    return time.clock_gettime(((~pid) << 3) | 2)


def ioprio_get(pid: int) -> int:
    r = libc.syscall(SYS_IOPRIO_GET, 1, pid)
    if r == -1:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return r


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "done", False):
            self.done = True
            libc.syscall(SYS_IOPRIO_SET, 1, 0, (2 << 13) | 5)  # on self: allowed, a signal
            report = {}
            for name, pid in CONFIG["targets"].items():  # noqa: F821
                report[name + "_clock"] = attempt(lambda pid=pid: cpu_clock(pid))
                report[name + "_ioprio"] = attempt(lambda pid=pid: ioprio_get(pid))
                report[name + "_priority"] = attempt(
                    lambda pid=pid: os.getpriority(os.PRIO_PROCESS, pid))
                report[name + "_affinity"] = attempt(lambda pid=pid: os.sched_getaffinity(pid))
                report[name + "_signal0"] = attempt(lambda pid=pid: os.kill(pid, 0))
            report["own_clock"] = attempt(lambda: time.clock_gettime(time.CLOCK_PROCESS_CPUTIME_ID) >= 0)
            print("REPORT " + json.dumps(report), flush=True)
        return view.legal[0]
