"""Random hand-made positions for property tests (the engine's and the views')."""

from __future__ import annotations

import random
from dataclasses import dataclass

from arena import Game, Rules
from arena.game.cards import ACE_OF_SPADES, PACK

AS = int(ACE_OF_SPADES)


@dataclass(frozen=True, slots=True)
class RandomPosition:
    """A position for :meth:`arena.Game.from_position`: hands of card ids per seat (seats in ``out`` hold
    none), the pile (None: every other card), the trump suit (0-3 or None), the leader's drawn card."""

    hands: list[list[int]]
    leader: int
    out: list[int]
    pile: list[int] | None
    trump: int | None
    first_trick_done: bool
    drawn: int | None

    def game(self, rules: Rules, seed: int) -> Game:
        return Game.from_position(rules, self.hands, self.leader, discard=self.pile, out=self.out,
                                  first_trick_done=self.first_trick_done, trump=self.trump, seed=seed,
                                  drawn=self.drawn)


def random_position(rules: Rules, players: int, rng: random.Random, per_seat: int = 7, trick_one: bool = False,
                    partial_pile: bool = False, drawn: bool = False) -> RandomPosition:
    """A random split of some of the pack between the seats still in (up to ``per_seat`` cards each, at least
    one), a random leader and, under trumps, a random trump suit (or none yet).

    ``trick_one``: one position in five (about) has trick 1 still to play (when AS is held: its holder
    leads). ``partial_pile``: the pile is every other card three times in ten, else a random part of the
    rest (the other cards are out of play); without it, every other card. ``drawn``: one position in five
    (after trick 1) has the leader holding a drawn card it must lead.
    """
    pack = list(range(PACK * rules.decks))
    rng.shuffle(pack)
    out = sorted(rng.sample(range(players), rng.randint(0, players - 2)))
    in_play = [s for s in range(players) if s not in out]
    hands: list[list[int]] = [[] for _ in range(players)]
    held = rng.randint(len(in_play), min(len(pack), per_seat * len(in_play)))
    for i, c in enumerate(pack[:held]):
        hands[in_play[i % len(in_play)]].append(c)
    leader = rng.choice(in_play)
    first_done = True
    if trick_one:
        first_done = rng.random() < 0.8 or AS not in pack[:held]
        if not first_done:
            leader = next(s for s in in_play if AS in hands[s])
    if partial_pile:
        pile = None if rng.random() < 0.3 else pack[held:held + rng.randint(0, len(pack) - held)]
    else:
        pile = pack[held:]
    trump = rng.choice([None, 0, 1, 2, 3]) if rules.trumps and first_done else None
    lead_drawn = rng.choice(hands[leader]) if drawn and first_done and rng.random() < 0.2 else None
    return RandomPosition(hands, leader, out, pile, trump, first_done, lead_drawn)
