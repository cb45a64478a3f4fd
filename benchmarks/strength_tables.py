"""A player's strength on more than one table: paired comparisons against the heuristic player and the sampler.

    python benchmarks/strength_tables.py run [--player learned] [--against heuristic,sampler]
                                             [--tables getaway:3,getaway:4,...] [--games heuristic=3200,sampler=800]
                                             [--results results/strength] [--jobs 2]
    python benchmarks/strength_tables.py show [same options]

``run`` plays, for every table (``PRESET:SEATS``) and every opponent, one
``arena compare PLAYER OPPONENT --rules PRESET --table-size SEATS --games N``
(docs/compare.md: the same deals, seats and bot seeds for both, the field's
other seats drawn per deal from its default field: ``heuristic, low, high, random``, at 7 and 8
seats with a second ``heuristic``, ``low`` and ``high`` beside them), each in
its own results folder ``RESULTS/strength-PLAYER-OPPONENT-PRESET-SEATS``; a
folder that exists is resumed, so a stopped run goes on where it was. ``show``
reads the folders and prints the table (markdown): for each table and
opponent the deals and games counted, both players' Bhabhi rates, the
difference in points with its 95% interval (positive: the player is the Bhabhi
less often) and what it says (better, worse, not told apart at 95%, or the same
games: no deal played differently, as where both players leave the decision to
the heuristic player).

The default tables are the ones issue 40 names: ``getaway`` at 3, 4, 6 and 8
seats, and ``donkey`` (trumps) and ``bhabho`` at 4.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from arena.plugins.registry import load
from arena.tournament.compare import Comparison, folder_name
from arena.tournament.errors import TournamentError

TABLES = "getaway:3,getaway:4,getaway:6,getaway:8,donkey:4,bhabho:4"
GAMES = "heuristic=3200,sampler=800"
ARENA = Path(sys.executable).with_name("arena")


def tables(text: str) -> list[tuple[str, int]]:
    """``PRESET:SEATS`` items, comma-separated."""
    out = []
    for item in text.split(","):
        preset, _, seats = item.partition(":")
        if not seats.isdigit():
            sys.exit(f"strength_tables: a table is PRESET:SEATS, e.g. getaway:4 (got {item!r})")
        out.append((preset, int(seats)))
    return out


def games(text: str, against: list[str]) -> dict[str, int]:
    """``OPPONENT=N`` items: the games of each comparison against that opponent."""
    out = {}
    for item in text.split(","):
        name, _, n = item.partition("=")
        if not n.isdigit():
            sys.exit(f"strength_tables: --games takes OPPONENT=N items, e.g. sampler=800 (got {item!r})")
        out[name] = int(n)
    missing = [a for a in against if a not in out]
    if missing:
        sys.exit(f"strength_tables: --games gives no number for {', '.join(missing)}")
    return out


def folder(results: Path, player: str, opponent: str, preset: str, seats: int) -> Path:
    return results / folder_name(f"strength-{player}-{opponent}-{preset}-{seats}")


def run(args, plan) -> None:
    for preset, seats, opponent, n in plan:
        where = folder(args.results, args.player, opponent, preset, seats)
        if where.exists():
            command = [str(ARENA), "compare", "--resume", str(where)]
        else:
            command = [str(ARENA), "compare", args.player, opponent, "--rules", preset, "--table-size", str(seats),
                       "--games", str(n), "--results", str(args.results), "--name", where.name]
        command += ["--jobs", str(args.jobs), "--interval", "60"]
        print("$", " ".join(command[1:]), flush=True)
        done = subprocess.run(command, check=False)
        if done.returncode != 0:
            sys.exit(f"strength_tables: arena compare for {where.name} exited with {done.returncode} (its message "
                     f"is above); a comparison that was stopped goes on when this is run again")


def show(args, plan) -> None:
    registry = load(autoload=False)
    print(f"| table | against | deals | games | {args.player} Bhabhi | opponent Bhabhi | difference, 95% interval "
          f"| at 95% |")
    print("|---|---|---|---|---|---|---|---|")
    for preset, seats, opponent, _n in plan:
        where = folder(args.results, args.player, opponent, preset, seats)
        if not where.exists():
            print(f"| {preset}, {seats} seats | {opponent} | not played | | | | | |")
            continue
        try:
            f = Comparison.open(where, registry).tally().figures()
        except TournamentError as exc:
            sys.exit(f"strength_tables: {where} cannot be read: {exc}")
        said = ("the same games" if f.wins == f.losses == 0 and f.diff == 0 else "better" if f.low > 0
                else "worse" if f.high < 0 else "not told apart")
        print(f"| {preset}, {seats} seats | {opponent} | {f.units} | {f.games} | {100 * f.rate_a:.2f}% "
              f"| {100 * f.rate_b:.2f}% | {f.diff:+.2f} ({f.low:+.2f} .. {f.high:+.2f}) | {said} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["run", "show"])
    parser.add_argument("--player", default="learned")
    parser.add_argument("--against", default="heuristic,sampler")
    parser.add_argument("--tables", default=TABLES)
    parser.add_argument("--games", default=GAMES)
    parser.add_argument("--results", type=Path, default=Path("results/strength"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    against = args.against.split(",")
    counts = games(args.games, against)
    plan = [(preset, seats, opponent, counts[opponent]) for opponent in against
            for preset, seats in tables(args.tables)]
    if args.what == "run":
        run(args, plan)
    show(args, plan)


if __name__ == "__main__":
    main()
