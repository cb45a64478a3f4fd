#!/usr/bin/env python3
"""A program bot that plays its lowest legal card (docs/protocol.md); no arena import: a plain script."""
import json
import sys

ORDER = "23456789TJQKA"


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            reply = {"type": "hello", "protocol": 1, "name": "lowest", "version": "1"}
        elif kind == "new_game":
            print(f"new game, seed {msg['seed']}", file=sys.stderr, flush=True)
            reply = {"type": "ready"}
        elif kind == "decide":
            view = msg["view"]
            if view["decision"] == "take":
                reply = {"action": False}
            else:
                reply = {"action": min(view["legal"], key=lambda c: (ORDER.index(c[0]), c))}
        elif kind == "end_game":
            reply = {"type": "done"}
        else:
            break
        print(json.dumps(reply), flush=True)


main()
