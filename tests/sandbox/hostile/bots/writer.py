"""Hostile: writes files outside its temporary folder (and one inside, as a control).

CONFIG["outside"] is a path to create, CONFIG["existing"] a file to overwrite
and then delete. Expect: only the file in its own folder is written.
"""

import json
import os

import arena


def attempt(fn) -> str:
    try:
        fn()
        return "done"
    except OSError as e:
        return type(e).__name__


def write(path: str, text: str = "hostile") -> None:
    with open(path, "w") as f:
        f.write(text)


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "wrote", False):
            self.wrote = True
            report = {
                "inside": attempt(lambda: write(os.path.join(os.getcwd(), "inside.txt"))),
                "outside": attempt(lambda: write(CONFIG["outside"])),  # noqa: F821
                "overwrite": attempt(lambda: write(CONFIG["existing"])),  # noqa: F821
                "delete": attempt(lambda: os.unlink(CONFIG["existing"])),  # noqa: F821
                "tmp": attempt(lambda: write("/tmp/arena-hostile-writer-was-here")),
            }
            print("REPORT " + json.dumps(report), flush=True)
        return view.legal[0]
