"""Checks from outside, before a game process gets any game data.

The fork server imported the bot, so bot code may have run in it: it could
try to keep a handle on a game process (a copy of its pipes, a thread that
outlives the import, a helper process), or patch the code that confines
each game process. None of that can be seen from inside; all of it can be
seen in /proc by the harness. :func:`check_game` reads, for the server and
the new game process:

- threads: the server has exactly one; so does the game process, so far;
- processes: the server's only children are the game process and the
  client's frozen ones (:mod:`arena.sandbox.pool`); the new one has none;
- open files: the server holds only its control socket, the keeper's log
  pipe and /dev/null; the game process only its three game pipes and /dev/null;
- namespaces: the game process's user, PID and mount namespaces are its own (not the server's, not the harness's);
- confinement: seccomp in filter mode (one filter more than the server), no
  new privileges, no capabilities, not dumpable;
- memory: no shared mapping but read-only ones of files on the read-only root
  (anything else would be shared with the next game's process, born of the
  same server).

Any failure is a one-line reason; the client then treats the bot as failed
to start (a crash fault) and kills its whole tree.
"""

from __future__ import annotations

import os
from collections.abc import Set as AbstractSet

from arena.sandbox.processes import thread_children

GAME_NAMESPACES = ("user", "pid", "mnt")


def check_game(server: int, game: int, pipes: tuple[int, int, int], *,
               seccomp: bool = True, others: AbstractSet[int] = frozenset()) -> str | None:
    """None if the server and its new game process are as they must be, else why not.

    ``pipes``: the harness's ends (commands write, replies read, log read) of
    the game's three pipes (the game process must hold the other ends).
    ``seccomp``: whether the filters are expected (not disabled, available).
    ``others``: the other game processes the harness started from this server (frozen, or
    playing for a client that shares it): the only other children it may have.
    """
    try:
        return (_threads(server, game) or _children(server, game, others)
                or _server_files(server, pipes) or _game_files(game, pipes)
                or _namespaces(server, game) or _status(server, game, seccomp) or _maps(game))
    except OSError as e:
        return f"could not inspect the bot's processes: {e}"


def _threads(server: int, game: int) -> str | None:
    for who, pid in (("fork server", server), ("game process", game)):
        count = len(os.listdir(f"/proc/{pid}/task"))
        if count != 1:
            return f"the bot's {who} runs {count} threads (one expected before the game)"
    return None


def _children(server: int, game: int, others: AbstractSet[int]) -> str | None:
    kids = set(thread_children(server))
    extra = len(kids - {game} - set(others))  # others: the harness's games (one may have just died)
    if game not in kids or extra:
        return f"the bot's fork server has other processes ({extra} besides the games')"
    if thread_children(game):
        return "the bot's game process has started processes"
    return None


def fd_links(pid: int) -> dict[int, str]:
    """What each of ``pid``'s descriptors points to (``/proc/PID/fd``; one closed meanwhile is skipped)."""
    base = f"/proc/{pid}/fd"
    found = {}
    for name in os.listdir(base):
        try:
            found[int(name)] = os.readlink(f"{base}/{name}")
        except OSError:
            continue
    return found


def _pipe_ids(fds: tuple[int, ...]) -> set[str]:
    return {f"pipe:[{os.fstat(fd).st_ino}]" for fd in fds}


def _server_files(server: int, pipes: tuple[int, int, int]) -> str | None:
    game = _pipe_ids(pipes)
    for fd, target in fd_links(server).items():
        if target in game:
            return f"the bot's fork server kept a game pipe open (fd {fd})"
        if not (target.startswith(("socket:", "pipe:")) or target == "/dev/null"):
            return f"the bot's fork server holds an open file (fd {fd}: {target[:80]})"
    sockets = [t for t in fd_links(server).values() if t.startswith("socket:")]
    if len(sockets) > 1:
        return "the bot's fork server holds more than its control socket"
    return None


def _game_files(game: int, pipes: tuple[int, int, int]) -> str | None:
    allowed = _pipe_ids(pipes) | {"/dev/null"}
    for fd, target in fd_links(game).items():
        if target not in allowed:
            return f"the bot's game process holds an inherited file (fd {fd}: {target[:80]})"
    return None


def _namespaces(server: int, game: int) -> str | None:
    me = os.getpid()
    for ns in GAME_NAMESPACES:
        own = os.readlink(f"/proc/{game}/ns/{ns}")
        if own in (os.readlink(f"/proc/{server}/ns/{ns}"), os.readlink(f"/proc/{me}/ns/{ns}")):
            return f"the bot's game process shares a {ns} namespace"
    return None


def _status(server: int, game: int, seccomp: bool) -> str | None:
    srv, own = _fields(server), _fields(game)
    if own.get("NoNewPrivs") != "1":
        return "the bot's game process may gain privileges (no PR_SET_NO_NEW_PRIVS)"
    if seccomp and own.get("Seccomp") != "2":
        return "the bot's game process is not under its seccomp filter"
    if seccomp and int(own.get("Seccomp_filters", "1")) <= int(srv.get("Seccomp_filters", "0")):
        return "the bot's game process did not add its own seccomp filter"
    for cap in ("CapEff", "CapPrm", "CapInh", "CapAmb"):
        if int(own.get(cap, "0"), 16):
            return f"the bot's game process still holds capabilities ({cap})"
    return None


def _fields(pid: int) -> dict[str, str]:
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            out[key] = value.strip()
    return out


def _maps(game: int) -> str | None:
    with open(f"/proc/{game}/maps") as f:
        for line in f:
            parts = line.split(maxsplit=5)
            perms, path = parts[1], (parts[5].strip() if len(parts) > 5 else "")
            if perms[3] == "s" and not _read_only_file(perms, path):
                return f"the bot's game process has a shared memory mapping ({path[:60] or 'anonymous'})"
    return None


def _read_only_file(perms: str, path: str) -> bool:
    """A shared mapping of a file on the read-only root (glibc maps its gconv cache so):
    it was opened read-only, so it can never be made writable."""
    return (perms[1] != "w" and path.startswith("/") and not path.endswith("(deleted)")
            and not path.startswith(("/memfd:", "/SYSV", "/dev/", "/tmp/", "/var/tmp/")))
