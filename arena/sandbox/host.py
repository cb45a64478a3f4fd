"""The bot side of a sandboxed seat: ``python -m arena.sandbox.host CMD_FD REPLY_FD PARENT``.

Started by :class:`arena.sandbox.client.SandboxClient` from a clean
interpreter, before any game exists. In order, it:

1. asks the kernel to kill it when its parent dies (``PR_SET_PDEATHSIG``);
2. reads the ``init`` frame: the limits, the harness's :func:`detect`
   report, its writable folder, and the player to load;
3. confines itself (:func:`arena.sandbox.limits.confine`) while it still runs
   only the harness's own code, single-threaded;
4. only then imports the bot's module (its import-time code runs confined)
   and answers ``{"ready": true, ...}`` (or ``{"error": ...}`` and exits);
5. serves commands until its command pipe closes:

   - ``game``: seat, players, rules, seed and the seat's events so far: a
     fresh bot is built with that seed and its ``new_game`` called;
     answers ``{"ok": {"ends": E}}``, E whether the bot has an ``end_game`` of
     its own (:func:`ends`);
   - ``decide``: new events, the legal actions, the decision kind, the time
     left and (from the referee) the led suit and the trump: the seat's knowledge
     (a framed :class:`~arena.game.knowledge.SeatKnowledge`) keeps the new events
     (compact: :func:`arena.game.events.for_seat_compact`) and hands the bot a
     lazy view (each field worked out when the bot first reads it, the events
     taken in only then, equal to the view rebuilt from the seat's events),
     then the bot's ``act`` is called; answers ``{"action": ...}``;
   - ``finish`` (only to a bot that ``ends``): the last events and the result;
     ``end_game``, then stdout and stderr flushed; answers ``{"done": true}``
     (so the harness takes the game's whole output from the log pipe after it;
     without it, it takes what the pipe holds when the game is over: stdout and
     stderr are unbuffered);
   - ``ping``: answers ``{"pong": true}`` (the transport alone, for benchmarks).

A bot's exception is answered ``{"error": "Type: message", "traceback": ...}``
(the formatted traceback, its last :data:`~arena.bots.output_log.TRACEBACK_CAP`
characters, as text: the harness never unpickles anything from a bot); an
answer that is not plain data is ``{"bad": repr}``.
Nothing here is trusted by the harness: it judges what arrives.
"""

from __future__ import annotations

import functools
import importlib
import os
import signal
import sys
import traceback
from collections.abc import Callable

import arena
from arena.bots.bot import Bot
from arena.bots.output_log import bot_traceback
from arena.game.cards import CARDS
from arena.game.result import Result
from arena.game.rules import Rules
from arena.game.status import Status
from arena.game.knowledge import SeatKnowledge
from arena.sandbox import linux, program_exec, wire
from arena.sandbox.limits import Capabilities, Limits, confine

PR_SET_PDEATHSIG = 1
_MAX_COMMAND = 64 << 20
BOT_API = arena.api()
"""The arena API a bot imports (``from arena import Bot, PlayerSpec, ...``), loaded before confinement."""


def main(argv: list[str] | None = None) -> int:
    """Run the host on the fds named in argv (CMD_FD REPLY_FD PARENT_PID)."""
    cmd, reply, parent = (int(a) for a in (sys.argv[1:] if argv is None else argv))
    _die_with(parent)
    host, commands = Host(reply, parent), Commands(cmd)
    init = commands.next()
    if not host.start(init):
        return 1
    program = init["player"].get("program")
    if program:  # a program bot's process, confined, becomes the program (nothing read past init yet)
        return program_exec.become(cmd, reply, program, init["writable"])
    host.serve(commands)
    return 0


def _die_with(parent: int) -> None:
    """SIGKILL us when the harness dies (and leave now if it already has)."""
    try:
        linux.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass  # not Linux: the command pipe's end of file stops us instead
    if os.getppid() != parent:
        os._exit(0)


class Commands:
    """The harness's frames, read a pipe-full at a time (one read per command, usually)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.frames = wire.FrameBuffer(_MAX_COMMAND)

    def next(self):
        """The next command (blocking); exit quietly at end of file or on nonsense."""
        frame = self.frames.pop()
        while frame is None:
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                os._exit(0)
            frame = self.frames.take(chunk)
        if frame[0] != Status.OK:
            os._exit(2)  # the harness never sends this
        return frame[1]


class Host:
    """The bot's process: builds bots, keeps the seat's view, answers commands."""

    def __init__(self, reply_fd: int, parent: int) -> None:
        self.reply, self.parent = reply_fd, parent
        self.factory: Callable[..., Bot] | None = None  # start() loads it before any command is read
        self.bot: Bot | None = None
        # the seat's, from game(): the harness sends a game before any decide or finish
        self.knowledge: SeatKnowledge = None  # type: ignore[assignment]
        self._rules: tuple[dict, Rules] | None = None

    def send(self, obj) -> None:
        try:
            data = wire.encode(obj)
        except (TypeError, ValueError):  # not plain data: say so, in plain data
            data = wire.encode({"bad": short(repr(obj.get("action")))})
        sent = os.write(self.reply, data)
        if sent < len(data):
            wire.write_frame_bytes(self.reply, data[sent:])

    def start(self, init: dict) -> bool:
        """Confine, then load the player (a program bot's: nothing to load); send ready or the error. True
        when ready."""
        if init.get("path"):
            sys.path.append(init["path"])
        program = init["player"].get("program")
        report = confine(Limits.from_dict(init["limits"]), writable_dir=init["writable"],
                         readable=init.get("readable"), listable=init.get("listable", ()),
                         caps=Capabilities.from_dict(init["caps"]),
                         stage="program-process" if program else "process",
                         executable=program_exec.executable_paths(program) if program else ())
        if not report.ok:
            failed = "; ".join(f"{s.name}: {s.detail}" for s in report.steps
                               if s.status == "failed")
            self.send({"error": f"confinement failed ({failed})"})
            return False
        _die_with(self.parent)  # credential changes may have cleared it
        if program:
            self.send({"ready": True, "pid": os.getpid(), "confinement": report.to_dict()})
            return True
        try:
            self.factory = load_factory(init["player"])
        except BaseException as exc:  # noqa: BLE001 - the bot's import: anything may happen
            traceback.print_exc()
            self.send({"error": f"cannot load player {init['player'].get('name')!r}: "
                                f"{type(exc).__name__}: {short(str(exc))}"})
            return False
        self.send({"ready": True, "pid": os.getpid(), "confinement": report.to_dict()})
        return True

    def serve(self, commands: Commands) -> None:
        handlers = {"game": self.game, "decide": self.decide, "finish": self.finish,
                    "ping": lambda m: {"pong": True}}
        while True:
            message = commands.next()
            handler = handlers.get(message.get("op"))
            if handler is None:
                os._exit(3)  # the harness never sends this: stop
            try:
                answer = handler(message)
            except Exception as exc:  # noqa: BLE001 - a bot's bug is its fault, sent as data
                answer = {"error": f"{type(exc).__name__}: {short(str(exc))}",
                          "traceback": bot_traceback(exc, __file__)}
            self.send(answer)

    def game(self, m: dict) -> dict:
        """A new game: a fresh bot with the seed, fed the seat's events so far."""
        self.bot = None
        self.knowledge = knowledge = SeatKnowledge(m["seat"], m["players"], self.rules(m["rules"]), framed=True)
        knowledge.feed_many(m["events"])
        bot = self.factory(seed=m["seed"])  # type: ignore[misc]  # start() set it
        if not callable(getattr(bot, "act", None)):
            raise TypeError(f"the factory returned {type(bot).__name__}, expected an arena.Bot")
        self.bot = bot
        bot.new_game(knowledge.view())
        return {"ok": {"ends": ends(bot)}}

    def decide(self, m: dict) -> dict:
        self.knowledge.feed_many(m["events"])
        legal = m["legal"]
        if m["decision"] == "play":
            legal = [CARDS[c] for c in legal]
        view = self.knowledge.view(legal, m["decision"], m.get("time_left"), m.get("table"))
        if self.bot is None:
            raise RuntimeError("no bot: its game never started")
        return {"action": self.bot.act(view)}

    def finish(self, m: dict) -> dict:
        self.knowledge.feed_many(m["events"])
        try:
            if self.bot is not None and m.get("result") is not None:
                self.bot.end_game(Result.from_dict(m["result"]))
        finally:
            _flush()
        return {"done": True}

    def rules(self, data: dict) -> Rules:
        """Rules from their dict, rebuilt only when they change."""
        if self._rules is None or self._rules[0] != data:
            self._rules = (data, Rules.from_dict(data))
        return self._rules[1]


def ends(bot) -> bool:
    """Whether the bot has an ``end_game`` of its own (the Bot class's does nothing): if not, the
    harness sends no ``finish``, and the process is not woken at the end of a game."""
    hook = getattr(bot, "end_game", None)
    return callable(hook) and getattr(hook, "__func__", None) is not Bot.end_game


def _flush() -> None:
    """Push what the bot wrote through Python's stdout and stderr into the log pipe."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - the bot may have replaced or closed them
            pass


def load_factory(player: dict):
    """The player's factory: from its plugin's entry point (a third-party player: only that
    plugin is loaded), by ``module`` + ``qualname``, else by name from the built-in players;
    with the player's ``options`` (a parametrised player) bound to it.

    All of it is derived by the harness from the PlayerSpec it was given
    (never from anything a bot says).
    """
    factory = _factory(player)
    return functools.partial(factory, **player["options"]) if player.get("options") else factory


def _factory(player: dict):
    if player.get("entry_point"):
        from arena.plugins.host import plugin_factory

        return plugin_factory(player["plugin"], player["entry_point"], player["name"])
    if player.get("module"):
        obj = importlib.import_module(player["module"])
        for part in player["qualname"].split("."):
            obj = getattr(obj, part)
        return obj
    from arena.plugins.registry import load

    return load(autoload=False).get(player["name"]).factory


def short(text: str, limit: int = 300) -> str:
    """text cut to limit characters (with an ellipsis)."""
    return text if len(text) <= limit else text[:limit] + "..."


if __name__ == "__main__":
    sys.exit(main())
