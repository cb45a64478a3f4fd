"""One bot's fork server, shared by the clients that play it at once (a worker's lanes).

A tournament's worker plays several sandboxed games at a time, each in a
thread of its own with its own :class:`~arena.sandbox.client.SandboxClient`
per seat (a client follows one game). Without this, each of those clients
would start a fork server of its own: a keeper forked from the zygote and a
server importing the bot, each time. With it, the
clients of one bot on one worker share one server:

- one client at a time starts the server, waits for it, clones a game
  process from it and checks that process from outside (:attr:`lock`), so
  the check sees every other child of the server as a game process the
  harness started (:attr:`ForkServer.games`) and nothing else;
- the server is killed when the last client sharing it closes (or when one
  of them finds it broken: a refused check, a failed start; every client then
  starts afresh, as a lone client would);
- its control group holds every lane's processes: :data:`Limits.processes`
  plus a game process and a pool of frozen ones for each further lane, and
  twice ``memory_mb`` for each lane.

What a bot may rely on does not change: every game process is still cloned
fresh from the server, plays no deal twice, and is frozen between games.
A client made without one gets a private share (one lane).
"""

from __future__ import annotations

import threading
import weakref

from arena.sandbox.serverproc import ForkServer


class SharedServer:
    """The fork server of one bot for ``lanes`` clients that may each play a game at once."""

    def __init__(self, lanes: int = 1) -> None:
        self.lanes = max(1, lanes)
        self.lock = threading.RLock()
        self.users = 0
        self._box: dict = {}  # the server, for the finalizer (a share dropped without close)
        self._finalizer = weakref.finalize(self, _kill, self._box)

    @property
    def server(self):
        return self._box.get("server")

    def live(self):
        """The server, if it is running (else None)."""
        server = self._box.get("server")
        return server if server is not None and not server.closed else None

    def start(self, init: dict, limits, idle: int, **options) -> tuple[ForkServer | None, str | None]:
        """Start the server for ``init`` (the lock held): (the server, None) or (None, why not).

        Its control group: ``limits.processes`` plus, for each further lane, a game process and
        ``idle`` frozen ones; twice ``memory_mb`` for each lane.
        """
        lanes = self.lanes
        try:
            server = ForkServer(
                init, **options,
                pids_max=None if limits.processes is None else limits.processes + lanes * (idle + 1) - 1,
                memory_bytes=None if limits.memory_mb is None else 2 * lanes * limits.memory_mb << 20,
                use_cgroups="cgroups" not in limits.disable)
        except (OSError, RuntimeError) as exc:  # RuntimeError: no thread for its log drain
            return None, f"could not start the bot process: {exc}"
        self._box["server"] = server
        return server, None

    def forget(self, server) -> bool:
        """Stop sharing ``server`` (it is being killed); False if another had replaced it already."""
        if self._box.get("server") is server:
            del self._box["server"]
            return True
        return False

    def join(self) -> None:
        with self.lock:
            self.users += 1

    def leave(self) -> bool:
        """One client fewer; True when it was the last (the server is then the caller's to kill)."""
        with self.lock:
            self.users -= 1
            return self.users <= 0


def _kill(box: dict) -> None:
    server = box.pop("server", None)
    if server is not None:
        server.kill()
