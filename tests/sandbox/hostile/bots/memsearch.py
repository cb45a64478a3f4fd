"""Hostile: searches its own memory (every object gc tracks) for other seats' hands.

At its first decision it collects every card (Card objects and card texts)
held in any container of at most 40 items made since this module was
imported (before any game existed: the library's own card tables are older)
and reports them. Expect: only its own hand and the cards played so far.
"""

import gc
import json
import re

import arena
from arena.game.cards import Card

TEXT = re.compile(r"^(10|[2-9TJQKA])[CDHS]\*?$")
_BEFORE = gc.get_objects()  # held, so that their ids are not reused
_OLD = {id(o) for o in _BEFORE}


def cards_in(obj) -> list[str]:
    items = list(obj.keys()) + list(obj.values()) if isinstance(obj, dict) else list(obj)
    found = []
    for x in items:
        if isinstance(x, Card):
            found.append(str(x))
        elif isinstance(x, str) and TEXT.match(x):
            found.append(x)
    return found


def search() -> list[str]:
    gc.collect()
    found = set()
    for obj in gc.get_objects():
        if id(obj) in _OLD:
            continue
        if isinstance(obj, (list, tuple, set, frozenset, dict)) and len(obj) <= 40:
            found.update(cards_in(obj))
    return sorted(found)


class Bot(arena.Bot):
    def play(self, view):
        if not getattr(self, "searched", False):
            self.searched = True
            print("REPORT " + json.dumps({"found": search(),
                                          "hand": [str(c) for c in view.hand]}), flush=True)
        return view.legal[0]
