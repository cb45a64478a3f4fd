"""What a run's xdist workers make once and share: a folder made under a lock by whichever worker
asks first, read by the others."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path


def made_once(tmp_path_factory, name: str, make: Callable[[Path], dict[str, Path]]) -> dict[str, Path]:
    """``make(folder)`` run once per test run (not once per xdist worker), its paths given to every
    worker that asks. ``make`` writes only under ``folder`` and returns paths under it; they must be
    read, never changed, by the tests that take them."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # this run's folder, above each worker's own
    folder, index = base / f"shared-{name}", base / f"shared-{name}.json"
    with open(base / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not index.exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a worker whose make() failed left
            folder.mkdir()
            made = make(folder)
            index.write_text(json.dumps({key: str(path) for key, path in made.items()}))
        return {key: Path(path) for key, path in json.loads(index.read_text()).items()}
