"""The Dask backend: same results as the local pool, lost workers, refusals."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed: pip install 'bhabhi-arena[dask]'")

from distributed import Client, LocalCluster

from arena.game.seeds import Secret
from arena.plugins.registry import load
from arena.results.stats.standings import head_to_head_text, ratings_text
from arena.results.store.database import Store
from arena.sandbox.processes import descendants
from arena.tournament.dask_backend import ArenaWorkerPlugin, DaskExecutor, arena_fingerprint
from arena.tournament.errors import DaskBackendError
from arena.tournament.event import Tournament
from arena.tournament.executors import LocalExecutor
from arena.tournament.spec import spec_from_dict
from arena.tournament.worker import WorkerMismatch, batch_payload, run_batch
from support.processes import all_gone, wait_for

pytestmark = pytest.mark.long

PLAYERS = ["heuristic", "random", "low", "high"]
SMALL = {"players": PLAYERS, "table_sizes": [3, 4], "deals": 3, "batch": 4, "seed": 7}
"""48 games in 12 batches."""
LONGER = {"players": PLAYERS, "table_sizes": [3, 4], "deals": 30, "batch": 40, "seed": 7}
"""480 games in 12 batches of a quarter of a second or so each: at the first progress callback
(after the first batch is stored) other batches are still being played for a good while."""
SECRET = Secret(bytes(range(32)))
"""Every folder's secret here, so runs in different folders give the same bot seeds."""


def _cluster(workers: int) -> LocalCluster:
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                        dashboard_address=":0", silence_logs=50)


@pytest.fixture(scope="module")
def registry():
    return load()


@pytest.fixture(scope="module")
def cluster():
    with _cluster(2) as c:
        yield c


@pytest.fixture
def cluster3():
    """Three workers of the test's own, for the tests that kill one (its nanny starts a new one) or
    retire one (gone for good): no test sees a cluster another has changed."""
    with _cluster(3) as c:
        yield c


@pytest.fixture(scope="module")
def client(cluster):
    with Client(cluster, set_as_default=False) as c:
        yield c


def _tournament(tmp_path, registry, settings: dict, name: str) -> Tournament:
    spec = spec_from_dict({"name": name, **settings})
    return Tournament.create(spec, tmp_path / name, registry, SECRET)


def _results(folder) -> tuple[list, list, str]:
    """Every record and the tables, without the decision times (which vary run to run)."""
    with Store(folder) as store:
        records = list(store.records())
        table = json.loads(ratings_text(store, "json"))
        h2h = head_to_head_text(store, "plain")
    for row in table:
        row.pop("decision_ms", None)
    return records, table, h2h


@pytest.fixture(scope="module")
def local_results(tmp_path_factory, registry):
    """The reference: SMALL and LONGER on the local multiprocess pool."""
    root = tmp_path_factory.mktemp("local")
    out = {}
    with LocalExecutor(2) as pool:
        for label, settings in (("small", SMALL), ("longer", LONGER)):
            t = _tournament(root, registry, settings, label)
            t.run(pool)
            out[label] = _results(t.folder)
    return out


def test_same_records_and_tables_as_local(tmp_path, registry, cluster, local_results):
    """A local Dask cluster (2 worker processes, 1 thread each) gives the local pool's records and tables."""
    t = _tournament(tmp_path, registry, SMALL, "small")
    executor = DaskExecutor(cluster.scheduler_address)
    try:
        assert executor.workers == 2
        progress = t.run(executor)
    finally:
        executor.shutdown()
    assert progress.done == progress.total == len(t.games) == 48
    records, table, h2h = _results(t.folder)
    assert [i for i, _ in records] == list(range(48))
    assert (records, table, h2h) == local_results["small"]


def test_resume_on_dask_plays_only_missing_games(tmp_path, registry, client, local_results):
    """Half the games stored, the rest played on Dask: the same result as one uninterrupted run."""
    t = _tournament(tmp_path, registry, SMALL, "small")
    with Store(t.folder) as store:
        for index, record in run_batch(batch_payload(t.spec, t.games[:20], t.roster, t.secret)):
            store.add_game(t.games[index], record)
    with DaskExecutor(client) as executor:
        progress = t.run(executor)
    assert progress.played_now == 28
    assert _results(t.folder) == local_results["small"]
    assert client.status == "running", "an executor made from a client leaves the client open"


def test_worker_killed_mid_run_loses_no_game(tmp_path, registry, cluster3, local_results):
    """SIGKILL one of three workers while it plays a batch: the batch runs elsewhere, nothing is lost."""
    t = _tournament(tmp_path, registry, LONGER, "longer")
    killed = {}
    with DaskExecutor(cluster3.scheduler_address) as executor:
        def kill_one(progress) -> None:
            """At the first callback (the coordinator waits meanwhile): kill a worker playing a batch."""
            if killed or progress.done == progress.total:
                return
            busy: dict = {}
            wait_for(lambda: busy.update(executor.client.run(_pid_and_executing))
                     or any(executing for _, executing in busy.values()))
            for address, (pid, executing) in sorted(busy.items()):
                if executing:
                    os.kill(pid, signal.SIGKILL)
                    killed.update(address=address, pid=pid, tasks=executing)
                    return

        progress = t.run(executor, on_progress=kill_one)
        pids = set(executor.client.run(os.getpid).values())
    assert killed, "no worker was busy when the test tried to kill one"
    assert killed["pid"] not in pids
    assert progress.done == progress.total == 480
    assert _results(t.folder) == local_results["longer"]


def test_sandboxed_bots_die_with_their_worker(tmp_path, registry, cluster3):
    """Bot processes of a SIGKILLed worker die with it; those of a retired worker go when it closes."""
    pytest.importorskip("arena.sandbox.client", reason="the sandbox client is not available")
    settings = {"players": PLAYERS[:3], "table_sizes": [3], "deals": 4, "batch": 2, "sandbox": "always"}
    t = _tournament(tmp_path, registry, settings, "sandboxed")
    killed: dict = {}
    with DaskExecutor(cluster3.scheduler_address) as executor:
        def kill_one(progress) -> None:
            if killed or progress.done < 2:
                return
            for address, (pid, bots) in executor.client.run(_pid_and_bots).items():
                if bots:
                    os.kill(pid, signal.SIGKILL)
                    killed.update(address=address, bots=bots)
                    return

        progress = t.run(executor, on_progress=kill_one)
        # a retiring worker's data must move to a running one: wait until the killed worker's
        # replacement has joined (a retire with nowhere to move data to is refused)
        _wait_for_workers(executor.client, 3, gone=killed.get("address"))
        # a worker whose connection closes meanwhile is left out (on a loaded machine the killed
        # one's nanny was seen closing its just-registered replacement: "Stream is closed")
        found = executor.client.run(_pid_and_bots, on_error="ignore")
        address, (_, left) = next((a, w) for a, w in sorted(found.items()) if w[1])
        retired = executor.client.retire_workers([address])
    assert killed and left, "the test saw no bot processes"
    assert progress.done == progress.total == 12
    assert all_gone(killed["bots"]), "a killed worker's bot processes outlived it"
    assert address in retired, f"the scheduler refused to retire {address}"
    assert all_gone(left), "a retired worker's bot processes outlived it"


def _wait_for_workers(client, n: int, gone: str | None = None) -> None:
    """Wait until the scheduler lists n running workers, none of them at address ``gone``."""
    def whole() -> bool:
        workers = client.scheduler_info()["workers"]
        running = [a for a, w in workers.items() if w["status"] == "running"]
        return len(running) >= n and gone not in workers

    assert wait_for(whole, timeout=60), f"the cluster did not get back to {n} running workers"


def _pid_and_bots() -> tuple[int, list[int]]:
    return os.getpid(), descendants(os.getpid())


def _untimed(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "timings"}


def _pid_and_executing(dask_worker) -> tuple[int, list[str]]:
    executing = [str(ts.key) for ts in dask_worker.state.tasks.values() if ts.state == "executing"]
    return os.getpid(), executing


def test_batch_run_twice_is_stored_once(tmp_path, registry, client):
    """A batch whose results arrive twice (a worker thought lost) adds no game the second time."""
    t = _tournament(tmp_path, registry, SMALL, "small")
    payload = batch_payload(t.spec, t.games[:4], t.roster, t.secret)
    with DaskExecutor(client) as executor:
        first, second = executor.submit(run_batch, payload).result(), executor.submit(run_batch, payload).result()
    assert [(i, _untimed(r)) for i, r in first] == [(i, _untimed(r)) for i, r in second]
    with Store(t.folder) as store:
        assert [store.add_game(t.games[i], r) for i, r in first] == [True] * 4
        assert [store.add_game(t.games[i], r) for i, r in second] == [False] * 4
        assert store.count() == 4 and len(list(store.seat_rows())) == 4 * 3


def test_player_mismatch_refused_naming_player_and_worker(tmp_path, registry, client):
    """A worker whose player's code differs from the coordinator's refuses the batch, in one line."""
    t = _tournament(tmp_path, registry, SMALL, "small")
    t.roster = [dict(p, code_hash="0123456789abcdef") if p["name"] == "low" else p for p in t.roster]
    with DaskExecutor(client) as executor, pytest.raises(WorkerMismatch) as caught:
        t.run(executor)
    message = str(caught.value)
    assert message.startswith("player 'low' on worker ")
    assert "tcp://127.0.0.1:" in message and "0123456789abcdef" in message
    assert "\n" not in message
    with Store(t.folder) as store:
        assert store.count() == 0


def test_arena_mismatch_refused_at_start(client):
    """Workers whose arena differs from the coordinator's are named before any batch is sent."""
    other = {**arena_fingerprint(), "code_hash": "ffffffffffffffff"}
    with pytest.raises(WorkerMismatch, match=r"^worker tcp://127.0.0.1:\d+ runs arena .*coordinator runs arena"):
        DaskExecutor(client, arena=other)
    assert client.status == "running"


def test_arena_mismatch_refused(client):
    """A batch sent to a worker running another arena (engine code) is refused."""
    with DaskExecutor(client) as executor:
        executor._arena = dict(executor._arena, code_hash="ffffffffffffffff")
        with pytest.raises(WorkerMismatch, match=r"^worker .*tcp://.* runs arena .*coordinator runs arena"):
            executor.submit(len, "abc").result()


def test_cli_reports_a_mismatch_as_one_line(tmp_path, monkeypatch, capsys, cluster):
    """`arena tournament run --backend dask` turns a refusal into one stderr line and exit code 2."""
    import arena.tournament.event
    from arena.cli.app import main
    real = arena.tournament.event.roster_of

    def wrong_hash(registry, names):
        return [dict(p, code_hash="0" * 16) if p["name"] == "high" else p for p in real(registry, names)]

    monkeypatch.setattr(arena.tournament.event, "roster_of", wrong_hash)
    code = main(["tournament", "run", "--players", ",".join(PLAYERS), "--deals", "1", "--quiet",
                 "--results", str(tmp_path), "--backend", "dask", "--scheduler", cluster.scheduler_address])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err[-1].startswith("error: player 'high' on worker ") and "install the same player" in err[-1]


def test_unreachable_scheduler_is_one_clear_error():
    """No scheduler at the address: a DaskBackendError saying so, not a traceback from distributed."""
    with pytest.raises(DaskBackendError, match=r"cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        DaskExecutor("tcp://127.0.0.1:9", connect_timeout=1)
    with pytest.raises(DaskBackendError, match=r"scheduler address 'tpc://10.0.0.5:8786': unknown scheme 'tpc'"):
        DaskExecutor("tpc://10.0.0.5:8786")


def test_workers_know_their_name_and_close_clients_on_teardown(client, monkeypatch):
    """The worker plugin names each worker by address and closes its cached clients when it stops."""
    import arena.tournament.worker
    with DaskExecutor(client):
        names = client.run(_worker_name)
    assert sorted(names) == sorted(client.scheduler_info()["workers"])
    assert all(address in name for address, name in names.items())

    closed = []

    class Fake:
        def close(self):
            closed.append(self)

    worker = arena.tournament.worker.this_process()
    monkeypatch.setattr(worker, "_clients", {1: {"a": Fake()}, 2: {"b": Fake()}})
    ArenaWorkerPlugin().teardown(None)
    assert len(closed) == 2 and worker._clients == {}


class _Task:
    """A stand-in for a Dask future, in a given state; result() as Dask's (waits, then returns or raises)."""

    def __init__(self, status: str, outcome) -> None:
        self.status, self.outcome = status, outcome

    def result(self):
        if self.status == "lost":  # Dask computes a lost result again before result() returns
            time.sleep(0.05)
            self.status = "finished"
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self.outcome


def test_every_task_outcome_reaches_the_future():
    """Results (also ones lost with a worker and computed again), refusals, errors and cancellations."""
    from concurrent.futures import CancelledError, Future

    from arena.tournament.dask_backend import _deliver

    def deliver(status, outcome):
        fut = Future()
        _deliver(fut, _Task(status, outcome))
        return fut.exception(timeout=5) or fut.result()

    assert deliver("finished", ("ok", [(0, {})])) == [(0, {})]
    assert deliver("lost", ("ok", [(1, {})])) == [(1, {})]
    assert isinstance(deliver("finished", ("refused", "player 'x' on worker w ...")), WorkerMismatch)
    assert isinstance(deliver("error", ZeroDivisionError("boom")), ZeroDivisionError)
    assert isinstance(deliver("error", ModuleNotFoundError("No module named 'mybot'")), DaskBackendError)
    assert "dropped a batch" in str(deliver("cancelled", CancelledError()))


def _worker_name() -> str:
    from arena.tournament.worker import worker_name
    return worker_name()
