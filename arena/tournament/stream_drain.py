"""The coordinator's reader of a local pool's game stream.

A pool worker puts each game it finishes on the pool's stream (a pipe) and
goes on only once the pipe took it. Read by the coordinator's main thread,
which looks at the stream between waits for batches, the pipe fills while
that thread sleeps or stores, and the workers stop in ``put`` with it: at
``--jobs 2`` the pool played at half its serial speed. A :class:`Drain` is a
thread that reads the stream as fast as it fills and keeps the games until
the main thread takes them (:meth:`Drain.take`).

It also answers for the games it has read (:meth:`Drain.wait_for`): a batch
whose games all went down the stream comes back as their indices only
(:class:`~arena.tournament.worker.Streamed`), and the executor settles the
batch once those games are here, so the coordinator, which takes the drain's
games before it looks at finished batches, holds every game of a batch before
it forgets the batch.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from arena.tournament.worker import unpack_results

IDLE_SECONDS = 0.05
"""How long the reader waits for the pipe before it looks whether it was told to stop."""


class Drain:
    """Reads ``stream`` (a ``SimpleQueue`` of packed ``(index, record)`` lists) in a thread of its own."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self._ready = threading.Condition()
        self._games: list = []  # read, not taken yet
        self._arrived: set[int] = set()  # indices read and not yet waited for
        self._stopping = threading.Event()
        self._ended = False
        self._thread = threading.Thread(target=self._read, name="arena-stream-drain", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        reader = self._stream._reader  # SimpleQueue's end of the pipe (poll has a timeout; get has none)
        try:
            while not self._stopping.is_set():
                if not reader.poll(IDLE_SECONDS):
                    continue
                pairs = unpack_results(self._stream.get())
                with self._ready:
                    self._games.extend(pairs)
                    self._arrived.update(index for index, _ in pairs)
                    self._ready.notify_all()
        except (EOFError, OSError):  # the pipe was closed: nothing more can come
            pass
        finally:
            with self._ready:
                self._ended = True
                self._ready.notify_all()

    def take(self) -> list:
        """Every game read since the last call, in the order read."""
        with self._ready:
            games, self._games = self._games, []
        return games

    def wait_for(self, indices: Iterable[int], timeout: float) -> bool:
        """Wait until the games ``indices`` were read (true), or ``timeout`` seconds passed or the
        reader ended first (false). Each index is answered once."""
        wanted = set(indices)
        with self._ready:
            self._ready.wait_for(lambda: wanted <= self._arrived or self._ended, timeout)
            here = wanted <= self._arrived
            self._arrived -= wanted
        return here

    def stop(self, timeout: float = 1.0) -> list:
        """Stop reading (what is in the pipe stays there) and return the games not taken yet.
        A worker killed in the middle of a ``put`` leaves half a game in the pipe, which the
        reader may wait on for ever: it is a daemon thread, so it is left behind then."""
        self._stopping.set()
        self._thread.join(timeout)
        with self._ready:
            self._ended = True
            self._ready.notify_all()
        return self.take()
