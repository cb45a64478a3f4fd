"""Hostile: tries the kernel's shared state two bots at one table could signal through.

File locks on a file every bot can read (its own module), inotify watches on
it, SysV shared memory and message queues, the host name, and mincore (which
pages of a shared file are cached). Reports each attempt. Expect: all refused.
"""

import ctypes
import fcntl
import json
import mmap
import os
import socket

import arena

libc = ctypes.CDLL(None, use_errno=True)
IPC_PRIVATE, IPC_CREAT = 0, 0o1000


def attempt(fn) -> str:
    try:
        fn()
        return "done"
    except OSError as e:
        return type(e).__name__


def call(name: str, *args) -> None:
    if getattr(libc, name)(*args) == -1:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def mincore(path: str) -> None:
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), 0, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        vec = ctypes.create_string_buffer(16)
        buf = (ctypes.c_char * 1).from_buffer(m)
        call("mincore", ctypes.c_void_p(ctypes.addressof(buf)), ctypes.c_size_t(4096), vec)
        del buf
        m.close()


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "done", False):
            self.done = True
            shared = arena.__file__
            with open(shared, "rb") as f:
                report = {
                    "flock": attempt(lambda: fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)),
                    "lockf": attempt(lambda: fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB)),
                }
            report["inotify"] = attempt(lambda: call("inotify_init1", 0))
            report["shmget"] = attempt(lambda: call("shmget", IPC_PRIVATE, 4096, IPC_CREAT | 0o600))
            report["msgget"] = attempt(lambda: call("msgget", IPC_PRIVATE, IPC_CREAT | 0o600))
            report["sethostname"] = attempt(lambda: socket.sethostname("signal"))
            report["mincore"] = attempt(lambda: mincore(shared))
            print("REPORT " + json.dumps(report), flush=True)
        return view.legal[0]
