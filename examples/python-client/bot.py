#!/usr/bin/env python3
"""A tiny reference client of the program-bot protocol (docs/protocol.md): the standard library
only, no ``import arena``. ``run(decide)`` speaks the protocol; ``decide(view)`` gets each
``decide`` message's view (a dict, with ``view["history"]`` the game's whole history so far) and
returns the action: a card text from ``view["legal"]``, or True/False for a take. Copy this file
and replace ``decide``.

    arena check-bot "program:examples/python-client"
"""

import json
import sys
import traceback

OPTIONS = {}  # the [options] table of bot.toml, from hello


def run(decide, name="python-client", version="1.0"):
    history = []  # the history is sent once: keep it, the whole is the concatenation
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "shutdown":
            return
        try:
            if kind == "hello":
                OPTIONS.update(msg.get("options") or {})
                reply = {"type": "hello", "protocol": 1, "name": name, "version": version}
            elif kind in ("new_game", "decide", "end_game"):
                view = msg.get("view", msg)  # end_game carries its history at the top level
                history[view["history_start"]:] = view["history"]
                if kind == "new_game":
                    reply = {"type": "ready"}
                elif kind == "decide":
                    reply = {"action": decide(dict(view, history=history))}
                else:
                    reply = {"type": "done"}
            else:  # never sent to a version-1 bot; every message gets one line all the same
                reply = {"type": "error", "message": f"unknown message type {kind!r}"}
        except Exception as exc:  # noqa: BLE001 - the traceback goes to stderr, the bot's log
            traceback.print_exc()
            reply = {"type": "error", "message": repr(exc)[:200]}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


# --- an example strategy -------------------------------------------------------------------------

RANKS, SUITS = "23456789TJQKA", "CDHS"


def rank(card):
    return RANKS.index(card[0])


def suit(card):  # "AS*", a second-pack copy, is a spade too
    return SUITS.index(card[1])


def beats(a, b, trump):
    """Does card a beat b, the trick's winner so far? Of two equal cards the first played wins."""
    return rank(a) > rank(b) if suit(a) == suit(b) else trump is not None and suit(a) == trump


def decide(view):
    """Leads low from its longest suit that no opponent is known to lack, ducks under the trick when
    it follows (the lowest card if all win, the highest when last), throws its highest card when
    void or on a free trick 1, and never takes (a take only adds cards to its hand)."""
    if view["decision"] == "take":
        return bool(OPTIONS.get("take", False))
    legal, trick, trump = view["legal"], view["trick"], view["trump"]
    if len(legal) == 1:
        return legal[0]
    count = [sum(suit(c) == s for c in view["hand"]) for s in range(4)]
    if not trick:
        others = [s for s, on in enumerate(view["active"]) if on and s != view["seat"]]

        def cut(c):
            return any(view["void_masks"][o] >> suit(c) & 1 for o in others)

        return min(legal, key=lambda c: (cut(c), -count[suit(c)], rank(c)))
    winner = trick[0][1]
    for _, card in trick:
        if beats(card, winner, trump):
            winner = card
    following = suit(legal[0]) in (suit(trick[0][1]), trump)
    if not following or (view["first_trick"] and view["rules"]["first_trick"] == "free"):
        return max(legal, key=lambda c: (rank(c), -count[suit(c)]))
    under = [c for c in legal if not beats(c, winner, trump)]
    if under:
        return max(under, key=rank)
    last = len(trick) == sum(view["active"]) - 1
    return max(legal, key=rank) if last else min(legal, key=rank)


if __name__ == "__main__":
    run(decide)
