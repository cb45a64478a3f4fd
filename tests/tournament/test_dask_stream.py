"""The Dask backend stores each game as it finishes, not when its batch returns."""

from __future__ import annotations

import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed: pip install 'bhabhi-arena[dask]'")

from distributed import Client, Event, LocalCluster

from arena.game.seeds import Secret
from arena.plugins.registry import load
from arena.results.store.database import Store
from arena.tournament.dask_backend import DaskExecutor
from arena.tournament.event import Tournament
from arena.tournament.executors import SerialExecutor
from arena.tournament.spec import spec_from_dict
from support.tournaments import HeldBatches, records

SPEC = {"name": "streamed", "players": ["heuristic", "random", "low", "high"], "table_sizes": [3, 4], "deals": 3,
        "batch": 8, "seed": 7}
"""48 games in 6 batches of 8."""
SECRET = Secret(bytes(range(32)))


def test_games_are_stored_while_their_batch_is_still_running(tmp_path):
    registry = load(autoload=False)
    held = Tournament.create(spec_from_dict(SPEC), tmp_path / "held", registry, SECRET)
    seen: list[int] = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=50) as cluster, Client(cluster, set_as_default=False) as client:
        release = Event("arena-test-release", client=client)

        def show(progress) -> None:
            if progress.done >= 6 and not release.is_set():  # both workers wait, 3 games into a batch
                with Store(held.folder) as store:
                    seen.append(store.count())
                release.set()

        with DaskExecutor(client) as executor:
            held.run(HeldBatches(executor, 3, "arena-test-release"), on_progress=show)
    assert seen == [6]  # stored while no batch had returned
    plain = Tournament.create(spec_from_dict(SPEC), tmp_path / "plain", registry, SECRET)
    plain.run(SerialExecutor(registry))
    assert records(held.folder) == records(plain.folder)
