"""Deliberately broken bots for the check-bot tests (never registered as a plugin).

Each breaks exactly one rule a tournament relies on, so ``check_bot`` must fail
it on the matching check and pass it on the others.
"""

from __future__ import annotations

import random
import time

from arena import Bot


class LowestBot(Bot):
    """Sound: its lowest legal card (the base of the broken ones)."""

    def play(self, view):
        return min(view.legal, key=lambda c: (c.rank, c.copy))


class TakerBot(LowestBot):
    """Sound: takes its neighbour's cards whenever it may (bhabho), so it has take decisions."""

    def take(self, view):
        return True


class TrumpCheatBot(LowestBot):
    """Donkey: when it cannot follow suit and must play a trump, it throws a non-trump instead (illegal)."""

    def play(self, view):
        if view.trump is not None and view.led_suit is not None:
            off = [c for c in view.hand if c.suit not in (view.led_suit, view.trump)]
            if off and all(c.suit == view.trump for c in view.legal):
                return off[0]
        return super().play(view)


class FlakyBot(Bot):
    """Ignores its seed: a random legal card from a generator seeded by the clock."""

    def __init__(self, seed: int = 0, **options) -> None:
        super().__init__(seed, **options)
        self.rng = random.Random(time.perf_counter_ns())

    def play(self, view):
        return view.legal[self.rng.randrange(len(view.legal))]


class SometimesFlakyBot(LowestBot):
    """Ignores its seed only from seat 1 (a clock cut-off that bites now and then): there it plays
    a card the global ``random`` module picks, which differs from run to run."""

    def play(self, view):
        if view.seat == 1:
            return view.legal[random.randrange(len(view.legal))]
        return super().play(view)


class GlobalRandomBot(Bot):
    """Sound, by the recipe of writing-a-bot.md ("Wrapping an existing bot"): wrapped code that draws
    from the global ``random`` module, seeded from ``self.rng`` in ``new_game``."""

    def new_game(self, view):
        random.seed(self.rng.getrandbits(64))

    def play(self, view):
        return view.legal[random.randrange(len(view.legal))]


class SlowBot(LowestBot):
    """Thinks for about 0.3 s of CPU once a game: when it first holds exactly 5 cards."""

    def play(self, view):
        if len(view.hand) == 5 and not getattr(self, "slept", False):
            self.slept = True
            end = time.process_time() + 0.3
            while time.process_time() < end:
                pass
        return super().play(view)


class HogBot(LowestBot):
    """Tries to hold 2 GiB of memory once a game: when it first holds exactly 5 cards."""

    def play(self, view):
        if len(view.hand) == 5 and not getattr(self, "ballast", None):
            self.ballast = bytearray(2 << 30)
        return super().play(view)


class NoTakeBot(LowestBot):
    """Bhabho: answers a take decision with a card instead of True or False (malformed)."""

    def take(self, view):
        return "AS"

    def act(self, view):
        if view.decision == "take":
            return self.take(view)
        return self.play(view)
