"""Hostile: remembers every hand it is dealt, in its module and in files, across games.

With duplicate deals the same bot plays every seat rotation of a deal; a bot
that kept its process (or its files) would know every hand from the second
rotation on. Reports, at each game's first decision, how many earlier games
it remembers and whether any earlier hand is another seat's hand now.
Expect: it remembers nothing, every game.
"""

import json
import os

import arena

SEEN = []  # module-level: lives as long as the process
PLACES = [os.path.join(os.path.expanduser("~"), ".arena-memory.json"),
          "/tmp/arena-memory.json", os.path.join(os.getcwd(), "arena-memory.json")]


def recall() -> list:
    found = list(SEEN)
    for place in PLACES:
        try:
            with open(place) as f:
                found += json.load(f)
        except (OSError, ValueError):
            pass
    return found


def remember(hand: list) -> None:
    SEEN.append(hand)
    for place in PLACES:
        try:
            with open(place, "w") as f:
                json.dump(SEEN, f)
        except OSError:
            pass


class Bot(arena.Bot):
    def new_game(self, view):
        self.reported = False

    def play(self, view):
        if not self.reported:
            self.reported = True
            hand = sorted(str(c) for c in view.hand)
            memory = recall()
            print("REPORT " + json.dumps({"remembered": len(memory), "hand": hand,
                                          "hands": memory}), flush=True)
            remember(hand)
        return view.legal[0]
