"""`arena ladder run DIR --backend dask`: a local Dask cluster plays the ladder's rounds, a submitted bot
among them (its workers read DIR/plugins at the same path), and a second run goes on from the first."""

from __future__ import annotations

import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed: pip install 'bhabhi-arena[dask]'")

from distributed import LocalCluster

from arena.cli.app import main
from arena.ladder.ledger import open_ledger
from arena.ladder.submit import submit
from arena.results.store.database import Store
from support.ladder import make_ladder

pytestmark = pytest.mark.long


def _state(folder):
    """Stored game indices, the planned rounds' indices, games per entry."""
    with Store(folder) as store:
        ledger = open_ledger(store)
        stored = [i for (i,) in store.db.execute("SELECT idx FROM games ORDER BY idx")]
        return stored, [i for r in ledger.rounds() for i in r.indices], ledger.games_of()


def test_a_ladder_runs_on_dask_and_a_second_run_goes_on(tmp_path, registry, wheels, capsys):
    ladder = make_ladder(tmp_path / "L", registry)
    assert submit(ladder, wheels["v1"]).status == "active"
    folder = str(ladder.folder)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=50) as cluster:
        run = ["ladder", "run", folder, "--backend", "dask", "--scheduler", cluster.scheduler_address, "-q"]
        assert main([*run, "--games", "24"]) == 0
        first, planned, games = _state(folder)
        assert len(first) >= 24 and first == planned  # whole rounds, each game once
        assert games.get("lbot-v1", 0) > 0, "the submitted bot never played on the cluster"
        assert main([*run, "--games", "12"]) == 0
    second, planned, _ = _state(folder)
    assert second[:len(first)] == first and len(second) >= len(first) + 12 and second == planned
    assert "games stored" in capsys.readouterr().err
