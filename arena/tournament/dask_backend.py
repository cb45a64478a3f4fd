"""The Dask backend: tournament batches on a ``dask.distributed`` cluster.

:class:`DaskExecutor` has the ``submit``/``workers``/``shutdown`` surface the
tournament runner needs and returns plain :class:`concurrent.futures.Future`
objects, so ``concurrent.futures.wait`` works on them. Each task runs
:func:`arena.tournament.worker.run_batch` in a worker process exactly as the local pool
does (same client cache, same sandbox, same checks) and returns the records;
the coordinator stores them as they arrive.

- Dask cannot interrupt a running task, so every deadline is the harness's
  own, inside the task; a worker plugin closes the worker's cached bot
  clients (killing their process groups) when the worker shuts down.
- A worker refuses a batch when its arena or one of its players differs from
  the coordinator's (:class:`arena.tournament.worker.WorkerMismatch`). A refusal comes
  back as data, so Dask's ``retries`` never re-run it; it is raised on the
  coordinator as one message naming the player (or the arena) and the worker.
- A lost worker's batches are re-run elsewhere by the scheduler (up to
  ``distributed.scheduler.allowed-failures`` times); the store ignores a game
  it already holds, so none is stored twice.
- Each game a task finishes goes at once to a ``distributed.Queue`` of the
  executor's own (:meth:`DaskExecutor.poll` collects them), so the
  coordinator stores games as they finish, not batch by batch.

``distributed`` is imported only when an executor is made: the rest of the
arena works without it.
"""

from __future__ import annotations

import asyncio
import functools
import socket
import threading
import weakref
from concurrent.futures import CancelledError, Future, InvalidStateError

from arena import __version__
from arena.game.engine import Game
from arena.bots.code_hash import code_hash_of
from arena.tournament.errors import DaskBackendError, WorkerMismatch
from arena.tournament.worker import close_clients, streaming_to, this_process, unpack_results, worker_name

try:  # the plugin base class, when distributed is installed
    from distributed.diagnostics.plugin import WorkerPlugin as _WorkerPlugin
except ImportError:  # pragma: no cover - exercised only without dask
    _WorkerPlugin = object  # type: ignore[misc,assignment]  # a plain base when distributed is not installed

INSTALL_HINT = "pip install 'dask[distributed]' (in a checkout: pip install -e '.[dask]')"
PLUGIN_NAME = "bhabhi-arena"


# ------------------------------------------------------------ worker side
def arena_fingerprint() -> dict:
    """This process's arena: version and code hash (workers must match the coordinator)."""
    return {"version": __version__, "code_hash": code_hash_of(Game)}


@functools.cache
def _cached_fingerprint() -> tuple:
    return tuple(arena_fingerprint().items())


def _local_fingerprint() -> dict:
    """The fingerprint, taken once per process (closest to the code it has imported)."""
    return dict(_cached_fingerprint())


def _arena_refusal(expected: dict) -> str | None:
    got = _local_fingerprint()
    if got == expected:
        return None
    return (f"worker {worker_name()} runs arena {got['version']} (code {got['code_hash']}), but the "
            f"coordinator runs arena {expected['version']} (code {expected['code_hash']}); "
            f"install the same arena on every worker")


def run_task(fn, args: tuple, arena: dict, stream: str | None = None):
    """What a Dask task runs: ``("ok", fn(*args))``, or ``("refused", message)``.

    A refusal is returned rather than raised, so that Dask's ``retries`` (meant
    for failures that may pass) never run a batch again on a worker that will
    refuse it again. ``stream``: the name of the queue each finished game goes to.
    """
    refusal = _arena_refusal(arena)
    if refusal:
        return ("refused", refusal)
    try:
        with streaming_to(_queue(stream).put if stream else None):
            return ("ok", fn(*args))
    except WorkerMismatch as exc:
        return ("refused", str(exc))


def _queue(name: str):
    """The named ``distributed.Queue`` (on a worker: through the worker's client)."""
    import distributed
    return distributed.Queue(name, client=distributed.get_client())


class ArenaWorkerPlugin(_WorkerPlugin):
    """Names the worker in refusals; closes its bot clients when it shuts down.

    Dask starts workers as ``multiprocessing`` children, which leave with
    ``os._exit`` and so skip ``atexit``: ``teardown`` is where a worker's cached
    clients (and their sandboxed bot process groups) are closed.
    """

    name = PLUGIN_NAME
    idempotent = True

    def setup(self, worker) -> None:
        this_process().name = f"{socket.gethostname()} ({worker.address})"

    def teardown(self, worker) -> None:
        close_clients()


# -------------------------------------------------------- coordinator side
def _distributed():
    try:
        import distributed
    except ImportError:
        raise DaskBackendError(f"the dask backend needs dask.distributed, which is not installed; "
                               f"{INSTALL_HINT}") from None
    return distributed


class DaskExecutor:
    """``concurrent.futures``-style executor over a ``dask.distributed`` client.

    ``address_or_client``: a scheduler address (``tcp://HOST:PORT``) or a
    cluster object (e.g. a ``LocalCluster``), to which the executor connects
    its own client and closes it on :meth:`shutdown`; or a
    ``distributed.Client``, which the caller keeps and closes. ``retries``: how often Dask re-runs a batch that
    raised (a worker's refusal is never re-run; lost workers are governed by
    the scheduler's ``allowed-failures``). ``connect_timeout``: seconds to
    wait for the scheduler. ``arena``: the fingerprint every worker must match
    (default: this process's, :func:`arena_fingerprint`).
    """

    def __init__(self, address_or_client, retries: int = 1, connect_timeout: float = 10.0,
                 arena: dict | None = None) -> None:
        distributed = _distributed()
        self.retries = retries
        self._own = not isinstance(address_or_client, distributed.Client)
        self.client = self._connect(distributed, address_or_client, connect_timeout) if self._own \
            else address_or_client
        self._arena = dict(arena or _local_fingerprint())
        self._futures: weakref.WeakSet = weakref.WeakSet()
        self._closed = False
        self._stream = f"arena-games-{_uid()}"
        self._queue = None
        self._deliver = None
        self._prepare_workers()

    @staticmethod
    def _connect(distributed, target, timeout: float):
        where = getattr(target, "scheduler_address", target)
        if isinstance(target, str):
            _check_address(target)
        try:
            return distributed.Client(target, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise DaskBackendError(f"cannot reach the Dask scheduler at {where}: {_one_line(exc)}; "
                                   f"start one with `dask scheduler` and pass its address "
                                   f"(tcp://HOST:PORT)") from None

    def _prepare_workers(self) -> None:
        """Register the worker plugin, then check every worker's arena now (tasks check it again,
        for workers that join later)."""
        try:
            self.client.register_plugin(ArenaWorkerPlugin(), name=PLUGIN_NAME)
            replies = self.client.run(_local_fingerprint, on_error="return")
        except BaseException:
            self.shutdown()
            raise
        for address, reply in sorted(replies.items()):
            problem = _worker_problem(address, reply, self._arena)
            if problem:
                self.shutdown()
                raise (DaskBackendError if isinstance(reply, BaseException) else WorkerMismatch)(problem)

    @property
    def workers(self) -> int:
        """Task slots (worker threads) on the cluster now; at least 1."""
        return max(1, sum(self.client.nthreads().values()))

    def submit(self, fn, *args) -> Future:
        """Run ``fn(*args)`` on a worker; a standard future for its result."""
        if self._closed:
            raise DaskBackendError("this Dask executor is shut down")
        stream = self._stream if self._deliver is not None else None
        task = self.client.submit(run_task, fn, args, self._arena, stream, pure=False, retries=self.retries,
                                  key=f"{getattr(fn, '__name__', 'task')}-{_uid()}")
        self._futures.add(task)
        return _wrap(task)

    def deliver_to(self, callback) -> None:
        """Stream each game the tasks finish to ``callback``, when :meth:`poll` is called."""
        if self._queue is None:
            self._queue = _distributed().Queue(self._stream, client=self.client)
        self._deliver = callback

    def poll(self) -> None:
        """Deliver every game the tasks finished so far (never waits: a Dask queue's timed get
        logs an error on the scheduler each time it expires)."""
        if self._queue is not None and self._deliver is not None:
            for packed in self._queue.get(batch=True):
                self._deliver(unpack_results(packed))

    def shutdown(self, wait: bool = True, cancel: bool = False) -> None:
        """Cancel what is pending if ``cancel``; close the client if this executor opened it."""
        if self._closed:
            return
        self._closed = True
        pending = [f for f in list(self._futures) if not f.done()]
        try:
            if self._queue is not None and not cancel:  # games stored already (with their batches)
                self._queue.get(batch=True)
            if cancel and pending:
                self.client.cancel(pending)
            elif wait and pending:
                _distributed().wait(pending)
        finally:
            if self._own:
                self.client.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *rest):
        self.shutdown(cancel=exc_type is not None)


def _check_address(address: str) -> None:
    """Refuse an address whose scheme Dask does not know (before a client half-starts)."""
    from distributed.comm import registry
    scheme = address.split("://", 1)[0] if "://" in address else "tcp"
    known = sorted(getattr(registry, "backends", {})) or [scheme]
    if scheme not in known:
        raise DaskBackendError(f"scheduler address {address!r}: unknown scheme {scheme!r} "
                               f"(expected tcp://HOST:PORT; Dask knows {', '.join(known)})")


def _worker_problem(address: str, reply, expected: dict) -> str | None:
    if isinstance(reply, BaseException):
        detail = f"{type(reply).__name__}: {_one_line(reply)}" if isinstance(reply, ImportError) \
            else f"{type(reply).__name__}; is the arena installed there?"
        return (f"Dask worker {address} failed the arena check ({detail}); "
                f"install the arena and the same bot packages on every worker: {INSTALL_HINT}")
    if reply != expected:
        return (f"worker {address} runs arena {reply.get('version')} (code {reply.get('code_hash')}), but the "
                f"coordinator runs arena {expected['version']} (code {expected['code_hash']}); "
                f"install the same arena on every worker")
    return None


def _uid() -> str:
    import uuid
    return uuid.uuid4().hex


def _one_line(exc) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _wrap(task) -> Future:
    """A ``concurrent.futures.Future`` fed by a Dask future (and cancelling it in turn)."""
    fut: Future = Future()
    # keeps the Dask future (and so its result on the cluster) alive; an attribute a Future's type does not declare
    fut._dask_task = task  # type: ignore[attr-defined]

    def on_cancel(f: Future) -> None:
        if f.cancelled() and not task.done():
            task.cancel()

    fut.add_done_callback(on_cancel)
    task.add_done_callback(lambda t: _deliver(fut, t))
    return fut


def _deliver(fut: Future, task) -> None:
    """Runs in Dask's callback thread once ``task`` is over, or its result was lost.

    A result held only by a worker that died is "lost": Dask computes it
    again, and ``task.result()`` waits for that. The wait happens in a thread
    of its own, so Dask's one callback thread goes on delivering other results.
    """
    if fut.done():
        return
    if task.status in ("finished", "error", "cancelled"):
        _settle(fut, task)
    else:
        threading.Thread(target=_settle, args=(fut, task), name="arena-dask-lost-result", daemon=True).start()


def _settle(fut: Future, task) -> None:
    try:
        kind, value = task.result()
    except BaseException as exc:  # noqa: BLE001 - the task's own error, or a cancellation
        cancelled = task.status == "cancelled" or isinstance(exc, (CancelledError, asyncio.CancelledError))
        _set(fut, None, DaskBackendError(
            "the Dask scheduler dropped a batch (scheduler restarted or connection lost); "
            "the games stored so far are kept") if cancelled else _task_error(exc))
    else:
        _set(fut, value, None if kind == "ok" else WorkerMismatch(value))
    finally:
        fut._dask_task = None  # type: ignore[attr-defined]  # set by _wrap, not declared on Future


def _set(fut: Future, result, error: BaseException | None) -> None:
    try:
        if error is None:
            fut.set_result(result)
        else:
            fut.set_exception(error)
    except InvalidStateError:  # cancelled by the coordinator meanwhile
        pass


def _task_error(exc: BaseException) -> BaseException:
    """Errors from the cluster, made into one clear line where we know what they mean."""
    name = type(exc).__name__
    if name == "KilledWorker":
        tries = getattr(exc, "allowed_failures", None)
        last = getattr(getattr(exc, "last_worker", None), "address", "?")
        count = f"{tries + 1} workers" if isinstance(tries, int) else "several workers"
        return DaskBackendError(
            f"a batch of games was running on {count} that died (the last: {last}); see the worker logs "
            f"(a memory limit?); the games stored so far are kept (distributed.scheduler.allowed-failures "
            f"sets how many deaths a batch may see)")
    if isinstance(exc, ImportError):
        return DaskBackendError(f"a Dask worker cannot import what a batch needs ({_one_line(exc)}); install "
                                f"the arena and the same bot packages on every worker: {INSTALL_HINT}")
    return exc
