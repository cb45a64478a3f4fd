"""A game told trick by trick: the places said as seats go out are the places they finish in."""

from __future__ import annotations

import random
import re

from arena import Game, Rules
from arena.game.display import PLACES, describe


def _forfeit_that_empties(seed: int) -> Game | None:
    """A 4-seat game in which seat 0 forfeits at once and its auto-played hand empties before the end."""
    g = Game.deal(Rules.preset("getaway", max_faults=1), 4, seed)
    rng = random.Random(seed)
    while g.current is not None:
        if g.current == 0 and 0 not in g.forfeited:
            g.apply_fault("crash")
        else:
            g.apply(rng.choice(g.legal_actions()))
    outs = [e for e in g.to_record()["events"] if e.get("type") == "out"]
    return g if any(e["seat"] == 0 for e in outs) else None


def test_a_forfeited_seat_that_empties_is_not_said_to_get_out_and_places_are_final():
    """The forfeited seat's last card is not 'is out (2nd)'; every 'is out' place is the seat's final
    place; the Bhabhi line says 'by forfeit' and no 'holding 0 card(s)'."""
    game = next(g for g in map(_forfeit_that_empties, range(200)) if g is not None)
    record, result = game.to_record(), game.result
    lines = describe(record)
    names = record["names"]
    said = {int(m[1]): m[2] for line in lines if (m := re.search(r"^\s+\S+\[(\d)\] is out \((\w+)\)", line))}
    assert 0 not in said and said, lines
    assert all(place == PLACES[result.ranks[seat]] for seat, place in said.items()), (said, result.ranks)
    assert any(line.strip() == f"{names[0]}[0] has played its last card, but it forfeited: it finishes last "
                                "all the same" for line in lines)
    bhabhi = next(line for line in lines if line.startswith("Bhabhi: "))
    assert bhabhi.startswith(f"Bhabhi: {names[0]}[0] (forfeit: too many faults), holding ")
    assert "holding 0 card" not in bhabhi
