"""The report's game browser data: each game as a list of states, one per step.

A game record is replayed with the engine (:func:`replay_steps`); the narration
of its events (:func:`arena.game.display.moments`: a card played, a clean
trick, a cut and pick-up, a draw, a take, the end) is turned into steps a
person can follow, each holding the full state to draw: every hand face up,
the trick on the table, the trump, the discard pile's size, who is out. At every decision point the step's hands and trick are checked against
the engine's, so the browser shows exactly what the engine did. The page's
script only renders these states.

Compact JSON: a hand is its card texts run together (``"ASKS4HTH*"``); keys
that are at their default are left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.game.cards import SUIT_SYMBOLS, card
from arena.game.display import PLACES, Moment, moments, pretty
from arena.game.engine import Game
from arena.game.record import from_record
from arena.game.record import start_game as record_start
from arena.results.errors import ReportError

SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
_SHOW_ORDER = (3, 2, 0, 1)
"""Suits left to right in a shown hand: spades, hearts, clubs, diamonds (black, red, black, red)."""
_REASONS: dict[str | None, str] = {"shootout": "shootout: no suit in common with the last opponent",
            "drawn_cut": "cut on a drawn lead with two players left",
            "simultaneous": "every hand emptied on one trick; the highest card of it loses",
            "forfeit": "forfeited after too many faults", "last_player": "last player holding cards"}


def hand_key(text: str) -> tuple:
    c = card(text)
    return (_SHOW_ORDER.index(c.suit), -c.rank, c.copy)


def start_game(record: dict) -> Game:
    """A fresh engine game at the record's start (dealt, or the hand-made position)."""
    return record_start(Game, record)


def apply_recorded(game: Game, event: dict) -> None:
    """Apply the decision a recorded event stands for (a play, a take, or a fault)."""
    if event["type"] == "fault":
        game.apply_fault(event["kind"])
    elif event["type"] == "take":
        game.apply(bool(event["take"]))
    else:
        game.apply(event["card"])


class _Steps:
    """Turns a record's moments into display steps (working state of one game: hands, pile, who is out)."""

    def __init__(self, record: dict) -> None:
        self.names: list[str] = record["names"]
        start = record["start"]
        self.hands = [set(h) for h in start["hands"]]
        self.discard = len(start.get("discard") or ())
        self.out: list[int | None] = [None] * len(self.names)
        for place, seat in enumerate(start.get("out") or ()):
            self.out[seat] = place
        self.trick: tuple[tuple[int, str], ...] = ()
        self.steps: list[dict] = []
        self.pending: list[str] = []

    # -------------------------------------------------------------- helpers
    def who(self, seat: int) -> str:
        return f"{self.names[seat]} [{seat}]"

    def snap(self, m: Moment, kind: str, message: str, ev: int, trick=None, **marks) -> dict:
        """A step after moment ``m``: its table is ``m``'s trick unless ``trick`` is given."""
        step = {"k": kind, "m": " ".join([*self.pending, message]), "ev": ev, "n": m.number,
                "h": ["".join(sorted(h, key=hand_key)) for h in self.hands],
                "t": [[s, c] for s, c in (m.trick if trick is None else trick)]}
        self.pending = []
        if m.trump >= 0:
            step["tr"] = m.trump
        if self.discard:
            step["d"] = self.discard
        if any(o is not None for o in self.out):
            step["o"] = list(self.out)
        step.update({k: v for k, v in marks.items() if v is not None})
        self.steps.append(step)
        return step

    def note(self, text: str, ev: int | None = None) -> None:
        """Add to the last step's message (an out, a trump fixed); ``ev``: the event it now ends with."""
        last = self.steps[-1]
        last["m"] = f"{last['m']} {text}"
        if ev is not None:
            last["ev"] = ev

    # -------------------------------------------------------------- events
    def feed(self, m: Moment, j: int) -> None:
        self.trick = m.trick if m.kind not in ("clean", "pickup") else ()
        getattr(self, "_" + m.event["type"])(m, j)

    def _deal(self, m: Moment, j: int) -> None:
        holder = next((s for s, h in enumerate(self.hands) if "AS" in h), None)
        sizes = ", ".join(str(len(h)) for h in self.hands)
        if m.first and holder is not None:
            text = f"Dealt ({sizes} cards). {self.who(holder)} holds A♠ and must lead it."
        else:
            text = f"Starting position ({sizes} cards)."
        self.snap(m, "deal", text, j)

    def _play(self, m: Moment, j: int) -> None:
        e = m.event
        seat, text = e["seat"], e["card"]
        self.hands[seat].discard(text)
        led = SUIT_WORDS[card(m.trick[0][1]).suit]
        if m.kind == "lead":
            self.snap(m, "play", f"Trick {m.number}: {self.who(seat)} leads {pretty(text)}.{_by(e)}", j, last=seat)
        elif m.kind == "follow":
            self.snap(m, "play", f"{self.who(seat)} plays {pretty(text)}.{_by(e)}", j, last=seat)
        elif m.kind == "ruff":
            self.snap(m, "play", f"{self.who(seat)} has no {led} and trumps with {pretty(text)}.{_by(e)}",
                      j, last=seat)
        elif m.kind == "free":
            self.snap(m, "play", f"{self.who(seat)} has no {led} and plays {pretty(text)}: "
                      f"free on the first trick.{_by(e)}", j, last=seat)
        else:
            self.snap(m, "cut", f"{self.who(seat)} has no {led} and CUTS with {pretty(text)} "
                      f"(thulla)!{_by(e)}", j, last=seat, cut=seat)

    def _trump(self, m: Moment, j: int) -> None:
        self.steps[-1]["tr"] = m.trump
        self.note(f"{SUIT_SYMBOLS[m.trump]} {SUIT_WORDS[m.trump]} are trumps from now on.", j)

    def _clean(self, m: Moment, j: int) -> None:
        winner = m.event["seat"]
        what = "the free first trick" if m.free else "clean (nobody cut)"
        self.snap(m, "clean", f"Trick {m.number} is {what}: its {len(m.trick)} cards go to the discard pile; "
                  f"{self.who(winner)} played the highest and leads next.", j, win=winner, gone=1)
        self.discard += len(m.trick)
        self.steps[-1]["d"] = self.discard

    def _pickup(self, m: Moment, j: int) -> None:
        e = m.event
        picker, cards = e["seat"], e["cards"]
        self.hands[picker].update(cards)
        shown = " ".join(pretty(c) for c in cards)
        if e.get("by") == "fault":
            self.snap(m, "pickup", f"{self.who(picker)} faulted and picks up the trick's {len(cards)} card(s) "
                      f"as a penalty: {shown}.", j, pick=picker, gone=2)
            return
        cutter = m.cutter
        if cutter is None:
            raise ReportError(f"a pick-up (step {j}) not by a fault and after no cut")
        self.snap(m, "pickup", f"{self.who(cutter)} cut, so {self.who(picker)} (highest of the led suit) "
                  f"PICKS UP {len(cards)} card(s): {shown}.", j, pick=picker, cut=cutter, gone=2)

    def _draw(self, m: Moment, j: int) -> None:
        e = m.event
        seat, text, source = e["seat"], e["card"], e["from"]
        self.hands[seat].add(text)
        if source == "pile":
            self.discard -= 1
            where = "the discard pile"
        else:
            self.hands[source].discard(text)
            where = f"{self.who(source)}'s hand"
        self.snap(m, "draw", f"{self.who(seat)} won the trick with their last card: draws {pretty(text)} "
                  f"from {where} and must lead it.", j, draw=seat)

    def _take(self, m: Moment, j: int) -> None:
        e = m.event
        seat = e["seat"]
        if not e["take"]:
            self.pending.append(f"{self.who(seat)} does not take.")
            return
        victim, cards = e["from"], e.get("cards", [])
        self.hands[seat].update(cards)
        self.hands[victim].clear()
        self.snap(m, "take", f"{self.who(seat)} TAKES all {e['count']} card(s) of {self.who(victim)}.", j,
                  take=seat, victim=victim)

    def _out(self, m: Moment, j: int) -> None:
        seat = m.event["seat"]
        self.out[seat] = m.event["place"]
        self.steps[-1]["o"] = list(self.out)
        self.note(f"{self.who(seat)} is out ({PLACES[m.event['place']]}).", j)

    def _fault(self, m: Moment, j: int) -> None:
        self.pending.append(f"{self.who(m.event['seat'])} FAULTED ({m.event['kind']}).")

    def _forfeit(self, m: Moment, j: int) -> None:
        self.pending.append(f"{self.who(m.event['seat'])} forfeits: random legal cards are played for it "
                            "from now on.")

    def _end(self, m: Moment, j: int) -> None:
        e = m.event
        order = ", ".join(self.who(s) for s in e.get("order", ()))
        if e.get("draw"):
            text = "Game over: a draw; " + ", ".join(self.who(s) for s in e["tied"]) + " share the last place."
            self.snap(m, "end", f"{text} Finishing order: {order}.", j, trick=())
            return
        loser, cards = e["loser"], e.get("loser_cards", [])
        reason = _REASONS.get(e.get("reason"), e.get("reason", ""))
        self.snap(m, "end", f"Game over. Bhabhi: {self.who(loser)} ({reason}), left holding {len(cards)} card(s). "
                  f"Finishing order: {order}.", j, trick=(), loser=loser)

    # -------------------------------------------------------------- checks
    def check(self, game: Game, index: int) -> None:
        """The hands and the trick must be the engine's at a decision point."""
        for seat in range(game.players):
            mine, engine = self.hands[seat], {str(c) for c in game.hand(seat)}
            if mine != engine:
                raise ReportError(f"game {index}: replay differs at event {len(game.events)}: seat {seat} "
                                  f"holds {sorted(engine)}, the browser would show {sorted(mine)}")
        if tuple((s, str(c)) for s, c in game.trick) != self.trick:
            raise ReportError(f"game {index}: replay differs at event {len(game.events)}: the trick is "
                              f"{[(s, str(c)) for s, c in game.trick]}, the browser would show {list(self.trick)}")
        if self.steps and game.current is not None:
            self.steps[-1]["turn"] = game.current
            if game.decision == "take":
                self.steps[-1]["dec"] = "take"


def _by(e: dict) -> str:
    return {"fault": " (a random legal card, after the fault)",
            "auto": " (played for the forfeited seat)"}.get(e.get("by", ""), "")


def replay_steps(record: dict, index: int = 0) -> list[dict]:
    """The display steps of one game record, replayed and checked with the engine."""
    from_record(Game, record)  # the record must replay exactly (raises ReplayError)
    game, recorded, steps = start_game(record), record["events"], _Steps(record)
    told = list(moments(record))
    done = 0
    while True:
        for j in range(done, len(game.events)):
            steps.feed(told[j], j)
        done = len(game.events)
        steps.check(game, index)
        if done >= len(recorded) or game.current is None:
            break
        apply_recorded(game, recorded[done])
    if steps.pending:
        steps.note(" ".join(steps.pending))
    return steps.steps


def game_title(index: int, record: dict) -> str:
    result = record.get("result") or {}
    loser = result.get("loser")
    end = "draw" if result.get("draw") else f"Bhabhi: {record['names'][loser]}" if loser is not None else ""
    return f"#{index} · {record['rules']['name']} · {record['players']} players · {end}"


def browser_game(index: int, record: dict, label: str) -> dict:
    """One game for the browser: what its index entry needs to list and filter it, and its steps.

    ``k`` table size, ``loser`` the Bhabhi's seat (None: a draw or none),
    ``fs`` the seats with faults, ``seed`` the deal seed as text (it is beyond
    JavaScript's exact integers).
    """
    faults = [len(f) for f in record.get("faults") or ()]
    result = record.get("result") or {}
    return {"i": index, "id": (record.get("schedule") or {}).get("id", ""), "title": game_title(index, record),
            "rules": label, "k": record["players"], "names": record["names"], "seed": str(record["seed"]),
            "loser": result.get("loser"), "draw": bool(result.get("draw")), "faults": sum(faults),
            "fs": [s for s, n in enumerate(faults) if n], "steps": replay_steps(record, index)}


def pick_games(games: Sequence[tuple[int, tuple, bool]], limit: int) -> list[int]:
    """At most ``limit`` game indices, chosen deterministically.

    ``games`` are ``(index, group, has_faults)``. Up to a fifth of the slots go
    to games with faults; the rest are shared equally by the groups (rules and
    table size). Within each, the games are evenly spaced in game order.
    """
    if len(games) <= limit:
        return sorted(g[0] for g in games)
    chosen = set(_even(sorted(g[0] for g in games if g[2]), limit // 5))
    groups: dict[tuple, list[int]] = {}
    for index, group, _ in sorted(games):
        if index not in chosen:
            groups.setdefault(group, []).append(index)
    quotas = _quotas({k: len(v) for k, v in groups.items()}, limit - len(chosen))
    for key, quota in quotas.items():
        chosen.update(_even(groups[key], quota))
    return sorted(chosen)


def _even(items: list[int], n: int) -> list[int]:
    """``n`` of ``items``, evenly spaced, the first and last included."""
    if n >= len(items):
        return list(items)
    if n <= 1:
        return list(items[:n])
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def _quotas(sizes: dict, total: int) -> dict:
    """Share ``total`` slots equally among groups of the given sizes (a full group passes its share on)."""
    quotas = dict.fromkeys(sorted(sizes), 0)
    while total > 0:
        open_ = [k for k in quotas if quotas[k] < sizes[k]]
        if not open_:
            break
        share = max(1, total // len(open_))
        for k in open_:
            give = min(share, sizes[k] - quotas[k], total)
            quotas[k] += give
            total -= give
    return quotas
