"""Bots that talk: one prints at every step of a game (and one likewise without an end_game), one prints and
then raises, one floods its output."""

import sys

import arena


class Printer(arena.Bot):
    """Prints a line at the start, on every decision (to stdout, and stderr every third) and at the end."""

    def new_game(self, view):
        self.n = 0
        print(f"printer: new game, seat {view.seat}")

    def act(self, view):
        self.n += 1
        print(f"printer: decision {self.n}")
        if self.n % 3 == 0:
            print(f"printer: to stderr {self.n}", file=sys.stderr)
        return view.legal[0]

    def end_game(self, result):
        print(f"printer: game over after {self.n} decisions")


class PrinterWithoutEnd(arena.Bot):
    """Printer's lines but the last: it has no end_game (the harness then sends it no finish)."""

    new_game, act = Printer.new_game, Printer.act


class Raiser(arena.Bot):
    """Prints, then raises on its second decision of every game, deep in a helper."""

    def new_game(self, view):
        self.n = 0

    def act(self, view):
        self.n += 1
        print(f"raiser: decision {self.n}")
        if self.n == 2:
            self.helper(view)
        return view.legal[0]

    def helper(self, view):
        raise ValueError(f"raiser gives up at decision {self.n}")


class Flood(arena.Bot):
    """Writes a megabyte on its first decision of each game."""

    def new_game(self, view):
        self.first = True

    def act(self, view):
        if self.first:
            self.first = False
            sys.stdout.write("x" * (1 << 20) + "\n")
        return view.legal[0]


class Quiet(arena.Bot):
    """Plays its first legal card and says nothing."""

    def act(self, view):
        return view.legal[0]


class BadEnding(Quiet):
    """Raises in end_game on even seeds; spins for ever in it on odd ones."""

    def __init__(self, seed=None):
        self.seed = seed

    def end_game(self, result):
        print("bad ending: end_game called")
        if self.seed % 2 == 0:
            raise RuntimeError("no ending")
        while True:
            pass
