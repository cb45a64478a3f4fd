"""Hostile: fills its temporary folder with 1 MiB files, then with empty files.

Reports how much it wrote and how it stopped. Expect: stopped by its private
file system's size and inode caps (ENOSPC), the machine's disk untouched.
"""

import errno
import json
import os

import arena

MIB = b"x" * (1 << 20)


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "done", False):
            self.done = True
            where = os.environ.get("TMPDIR") or os.getcwd()
            written, files, stop_bytes, stop_files = 0, 0, None, None
            for i in range(2000):  # up to 2 GiB
                try:
                    with open(os.path.join(where, f"big{i}"), "wb") as f:
                        f.write(MIB)
                    written += 1
                except OSError as e:
                    stop_bytes = errno.errorcode.get(e.errno, str(e.errno))
                    break
            for i in range(100_000):
                try:
                    os.close(os.open(os.path.join(where, f"e{i}"), os.O_CREAT | os.O_WRONLY))
                    files += 1
                except OSError as e:
                    stop_files = errno.errorcode.get(e.errno, str(e.errno))
                    break
            print("REPORT " + json.dumps({"mib": written, "files": files, "stop_bytes": stop_bytes,
                                          "stop_files": stop_files}), flush=True)
        return view.legal[0]
