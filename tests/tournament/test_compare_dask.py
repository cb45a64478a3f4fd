"""A comparison on the Dask backend: the verdict of a serial run, at the same deal."""

from __future__ import annotations

import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed: pip install 'bhabhi-arena[dask]'")

from distributed import LocalCluster

from arena.game.seeds import Secret
from arena.plugins.registry import load
from arena.results.stats.paired import CompareTest
from arena.tournament.compare import Comparison, compare_spec, field_for
from arena.tournament.dask_backend import DaskExecutor
from arena.tournament.executors import SerialExecutor

pytestmark = pytest.mark.long

SECRET = Secret(bytes(range(32)))


def test_dask_gives_the_serial_verdict(tmp_path):
    """heuristic against random on a 2-worker local cluster: same verdict, units and LLR path as serially."""
    registry = load()
    test = CompareTest("heuristic", "random", sprt=(0, 5))
    spec = compare_spec(test, field_for(test.a, test.b), 2000, sandbox="never", seed=8)
    serial = Comparison.create(spec, test, tmp_path / "serial", registry, SECRET).run(SerialExecutor(registry))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=50) as cluster:
        executor = DaskExecutor(cluster.scheduler_address)
        try:
            on_dask = Comparison.create(spec, test, tmp_path / "dask", registry, SECRET).run(executor)
        finally:
            executor.shutdown()
    assert serial.verdict == "H1"
    assert (on_dask.verdict, on_dask.units, on_dask.llrs) == (serial.verdict, serial.units, serial.llrs)
