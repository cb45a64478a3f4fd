#!/usr/bin/env python3
"""A program bot that misbehaves as its options say (tests/sandbox/test_program_bots.py); no arena import."""
import json
import os
import socket
import sys
import time

ORDER = "23456789TJQKA"


def probe(secret):
    """Try what the sandbox refuses; say on stderr what happened."""
    def attempt(what, fn):
        try:
            fn()
            print(f"{what}: allowed", file=sys.stderr, flush=True)
        except Exception as exc:  # noqa: BLE001
            print(f"{what}: refused {type(exc).__name__}", file=sys.stderr, flush=True)
    attempt("fork", lambda: os._exit(0) if os.fork() == 0 else None)
    attempt("socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
    attempt("read secret", lambda: open(secret).read())
    attempt("read passwd", lambda: open("/etc/passwd").read())
    attempt("write folder", lambda: open("bot.py", "a").write("x"))
    attempt("new file in folder", lambda: open("new.txt", "w").write("x"))
    tmp = os.environ["TMPDIR"]
    attempt("write tmp", lambda: open(os.path.join(tmp, "t.txt"), "w").write("x"))
    path = os.path.join(tmp, "run.sh")

    def run_written():
        with open(path, "w") as f:
            f.write("#!/bin/sh\necho hi\n")
        os.chmod(path, 0o755)
        os.execv(path, [path])
    attempt("exec written", run_written)


def main():
    mode, answered = "", 0
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            mode = msg["options"].get("mode", "")
            if mode == "probe":
                probe(msg["options"]["secret"])
            reply = {"type": "hello", "protocol": 2 if mode == "protocol2" else 1, "name": mode}
        elif kind == "new_game":
            reply = {"type": "ready"}
        elif kind == "decide":
            view, answered = msg["view"], answered + 1
            low = min(view["legal"], key=lambda c: (ORDER.index(c[0]), c)) if view["decision"] == "play" else False
            reply = {"action": low}
            if answered == 2:
                if mode == "garbage":
                    print("thinking...", flush=True)
                elif mode == "exit":
                    sys.exit(3)
                elif mode == "flood":
                    sys.stdout.write("x" * 200_000)
                    sys.stdout.flush()
                    time.sleep(5)
                elif mode == "sleep":
                    time.sleep(5)
                elif mode == "spin":
                    while True:
                        pass
                elif mode == "twice":
                    print(json.dumps(reply), flush=True)
                elif mode == "illegal":
                    held = set(view["hand"])
                    reply = {"action": next(c for c in ("2C", "3C", "4C", "5C", "6C") if c not in held)}
                elif mode == "notcard":
                    reply = {"action": "XX"}
                elif mode == "error":
                    reply = {"type": "error", "message": "boom"}
        elif kind == "end_game":
            reply = {"type": "done"}
        else:
            break
        print(json.dumps(reply), flush=True)


main()
