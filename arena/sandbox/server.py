"""The bot side of a fork server: ``main([CTL, MAPS, PARENT])``, in a fork of the harness's zygote
(:mod:`arena.sandbox.zygote`), or exec'd as ``python -m arena.sandbox.server CTL MAPS PARENT``.

Three processes, each started clean:

1. **The keeper** (a fork of the zygote, which is a clean interpreter that
   never sees a game, or an interpreter of its own; never runs bot code) reads the
   ``init`` message from the control socket, joins the bot's control groups,
   and clones the server into new user, PID, mount, network, IPC and UTS
   namespaces; it writes the server's id maps, tells the harness the server's
   pid, then writes the id maps of each game process the harness asks it to
   (from inside the server's user namespace, where it holds the capabilities
   the server gave up). It ends when the harness hangs up or its parent
   (the zygote, or the harness) dies (``PR_SET_PDEATHSIG``), and the server dies with it.
2. **The server** (PID 1 of its namespace) builds its read-only root
   (:func:`arena.sandbox.namespaces.enter_tree`), confines itself (rlimits,
   no capabilities, no new privileges, seccomp ``server``: its death signal
   locked), and only then imports the bot's module, so even import-time code
   runs confined. It answers ``ready``, then serves ``game`` messages: each
   carries three fresh pipe ends (SCM_RIGHTS: commands, replies, log) for one
   game, and the server clones a game process for it and closes its copies.
3. **A game process** per game (and per restart after a fault), cloned into
   namespaces of its own (the keeper writes its id maps: mapping root needs
   a capability the server no longer has): its own tmpfs ``/tmp`` (size and inode capped) and
   ``/proc``, its fds reduced to the game's pipes, Landlock and its own seccomp
   filter; it answers ``{"ready": true}`` on the game's reply pipe and then
   serves that one game (:class:`arena.sandbox.host.Host`) until its command
   pipe closes. A program bot's (``player["program"]``, docs/protocol.md) execs
   the program instead, once the harness has checked it
   (:mod:`arena.sandbox.program_exec`); its server imports no bot code and its
   seccomp filter (``program-server``) lets that exec through.

The server never receives game data: a game's events go to that game's
process only, and the process and its /tmp vanish with the game. Bot code
that ran in the server at import time could try to keep a handle on a game
process's pipes, threads or helper processes; the harness checks from outside
(:mod:`arena.sandbox.audit`) that the server holds none before any game data is
sent.
"""

from __future__ import annotations

import gc
import json
import os
import socket
import sys
import traceback

from arena.sandbox import linux, namespaces
from arena.sandbox.host import PR_SET_PDEATHSIG, Commands, Host, load_factory, short
from arena.sandbox.limits import Capabilities, Limits, confine

MAX_MESSAGE = 1 << 20
GAME_FDS = 3  # commands (read), replies (write), log (write)
CMD_FD, REPLY_FD = 3, 4


def main(argv: list[str] | None = None) -> int:
    """The keeper: start the server in its namespaces, then map its game processes."""
    ctl_fd, maps_fd, parent = (int(a) for a in (sys.argv[1:] if argv is None else argv))
    _die_with_parent()
    if os.getppid() != parent:
        return 0
    ctl = socket.socket(fileno=ctl_fd)
    maps = socket.socket(fileno=maps_fd)
    init = json.loads(ctl.recv(MAX_MESSAGE) or b"{}")
    for path in init.get("cgroups", ()):
        _join(path)
    go_r, go_w = os.pipe()
    try:
        pid = namespaces.clone(namespaces.SERVER_FLAGS)
    except OSError as e:
        _send(ctl, {"error": f"cannot create the bot's namespaces: {e}"})
        return 1
    if pid == 0:
        maps.close()
        os.close(go_w)
        os.read(go_r, 1)
        os.close(go_r)
        os._exit(_serve(ctl, init))
    os.close(go_r)
    uid, gid = os.geteuid(), os.getegid()
    bot = init.get("bot_uid")  # root only: the server's uid 1 is this unprivileged uid
    extra = "" if bot is None else f"\n1 {bot} 1"
    try:
        namespaces.write_id_maps(pid, f"0 {uid} 1{extra}", f"0 {gid} 1{extra}")
    except OSError as e:
        _send(ctl, {"error": f"cannot map the bot's user namespace: {e}"})
        return 1
    _send(ctl, {"server": pid})
    os.write(go_w, b"g")
    os.close(go_w)
    ctl.close()
    return _map_games(pid, maps, 0 if bot is None else 1)


def _map_games(server: int, maps: socket.socket, owner: int) -> int:
    """Write each new game process's id maps, as the harness asks, until it hangs up.

    Only a process in the parent user namespace may map a namespace's root,
    and only with a capability there: the keeper joins the server's user
    namespace (where it, not the server, holds every capability) to do it.
    The keeper runs no bot code, and no bot process can name it. ``owner``:
    the server's uid in its namespace (a game process's root maps to it).
    """
    try:
        fd = os.open(f"/proc/{server}/ns/user", os.O_RDONLY)
        namespaces.setns(fd, namespaces.CLONE_NEWUSER)
        os.close(fd)
    except OSError as e:
        _send(maps, {"error": f"cannot join the bot's user namespace: {e}"})
        return 1
    while True:
        data = maps.recv(4096)
        if not data:
            return 0
        try:
            pid = int(json.loads(data)["map"])
            namespaces.write_id_maps(pid, f"0 {owner} 1", f"0 {owner} 1")
            _send(maps, {"ok": True})
        except (OSError, ValueError, KeyError, TypeError) as e:
            _send(maps, {"error": f"cannot map the game process: {e}"})


def _die_with_parent() -> None:
    import signal

    try:
        linux.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass


def _join(procs_file: str) -> None:
    """Join a control group (the keeper's children are born in it)."""
    try:
        with open(procs_file, "w") as f:
            f.write(str(os.getpid()))
    except OSError:
        pass  # the harness checks membership from outside


def _send(ctl: socket.socket, obj) -> None:
    try:
        ctl.send(json.dumps(obj).encode())
    except OSError:
        os._exit(1)


# ------------------------------------------------------------------ server
def _serve(ctl: socket.socket, init: dict) -> int:
    """PID 1 of the bot's namespaces: root, confinement, the bot's import, then games."""
    _die_with_parent()  # the keeper; seccomp locks it from here on
    try:
        scratch = namespaces.scratch_folder(init["readable"])
        namespaces.enter_tree(init["root"], init["readable"], scratch)
        os.environ.update(HOME=scratch, TMPDIR=scratch)
        init["scratch"] = scratch
        if init.get("bot_uid") is not None:  # from here on an unprivileged uid outside
            linux.drop_capabilities(effective=False)  # the bounding set, while we may
            os.setresgid(1, 1, 1)
            os.setresuid(1, 1, 1)  # and the other sets go with uid 0
    except OSError as e:
        _send(ctl, {"error": f"cannot build the bot's file system: {e}"})
        return 1
    if init.get("path"):
        sys.path.append(init["path"])
    program = init["player"].get("program")
    report = confine(Limits.from_dict(init["limits"]), caps=Capabilities.from_dict(init["caps"]),
                     stage="program-server" if program else "server")
    if not report.ok:
        failed = "; ".join(f"{s.name}: {s.detail}" for s in report.steps if s.status == "failed")
        _send(ctl, {"error": f"confinement failed ({failed})"})
        return 1
    init["game"] = _game_setup(init)
    try:
        factory = None if program else load_factory(init["player"])
    except BaseException as exc:  # noqa: BLE001 - the bot's import: anything may happen
        traceback.print_exc()
        _send(ctl, {"error": f"cannot load player {init['player'].get('name')!r}: "
                             f"{type(exc).__name__}: {short(str(exc))}"})
        return 1
    _send(ctl, {"ready": True, "confinement": report.to_dict()})
    gc.collect()
    gc.freeze()  # game processes then copy fewer of the server's pages (no collector writes)
    for _, fds in requests(ctl, MAX_MESSAGE, GAME_FDS):
        if len(fds) != GAME_FDS:
            return 2  # the harness never sends this
        _reap()
        try:
            pid = namespaces.clone(namespaces.GAME_FLAGS)
        except OSError as e:
            for fd in fds:
                os.close(fd)
            _send(ctl, {"error": f"cannot start a game process: {e}"})
            continue
        if pid == 0:
            ctl.close()
            os._exit(_game(fds, init, factory))
        for fd in fds:
            os.close(fd)
        _send(ctl, {"forked": pid})
    return 0


def requests(ctl: socket.socket, max_message: int, max_fds: int):
    """Each datagram that comes on ``ctl``, with the descriptors sent with it, until the other end
    hangs up or the socket fails (the keeper's and the zygote's way to hear their harness)."""
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(ctl, max_message, max_fds)
        except OSError:
            return
        if not data:
            return
        yield data, fds


def _game_setup(init: dict) -> dict:
    """What every game process needs, made once, before the bot's import."""
    from arena.sandbox import seccomp

    caps, limits = Capabilities.from_dict(init["caps"]), Limits.from_dict(init["limits"])
    program = None
    if caps.available("seccomp") and "seccomp" not in limits.disable:
        try:
            program = seccomp.compile_bpf(1, stage="game")  # PID 1 of its own namespace
        except (OSError, ImportError, RuntimeError):
            program = None  # the game process builds its filter itself
    return {"caps": caps, "limits": limits, "program": program}


def _reap() -> None:
    """Collect every ended child (the harness killed the last game's processes)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


# -------------------------------------------------------------------- game
def _game(fds: list[int], init: dict, factory) -> int:
    """One game's process: its own namespaces, /tmp and /proc, then the game."""
    cmd, reply, log = fds
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.dup2(cmd, CMD_FD)
    os.dup2(reply, REPLY_FD)
    os.closerange(REPLY_FD + 1, 1 << 16)
    sys.argv[1:] = [str(CMD_FD), str(REPLY_FD)]  # as an exec'd host's
    host, commands = Host(REPLY_FD, 0), Commands(CMD_FD)
    if commands.next().get("op") != "go":  # the harness has written our id maps
        return 2
    try:
        namespaces.game_mounts(init["tmp"], init["scratch"])
        os.chdir(init["scratch"])
    except OSError as e:
        host.send({"error": f"cannot set up the game process: {e}"})
        return 1
    setup, program = init["game"], init["player"].get("program")
    if program:
        from arena.sandbox import program_exec
    report = confine(setup["limits"], writable_dir=init["scratch"], caps=setup["caps"], stage="game",
                     program=setup["program"],
                     executable=program_exec.executable_paths(program) if program else ())
    if not report.ok:
        failed = "; ".join(f"{s.name}: {s.detail}" for s in report.steps if s.status == "failed")
        host.send({"error": f"confinement failed ({failed})"})
        return 1
    host.factory = factory
    host.send({"ready": True, "pid": os.getpid(), "confinement": report.to_dict()})
    if program:
        return program_exec.become(CMD_FD, REPLY_FD, program, init["scratch"])
    host.serve(commands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
