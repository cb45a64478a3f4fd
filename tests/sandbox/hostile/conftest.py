"""The hostile-bot suite's fixtures: each attack as a tiny plugin, and a table to play it at.

An attack lives in ``bots/<attack>.py`` (a module with a ``Bot`` class). The
``hostile`` fixture copies it into the test's tmp_path as a uniquely named
module with ``CONFIG`` (targets, paths, ports) prepended, imports it and
returns a ``PlayerSpec`` whose factory is its ``Bot``: the sandbox host then
imports the same module by path (its folder is added to the host's sys.path).

``play`` seats the hostile bot (sandboxed, seat 0) with an honest sandboxed
``random`` (seat 1, the same process across the module's tests) and an
honest in-process ``heuristic`` (seat 2), with 200 ms decisions and
``max_faults=2`` to keep the suite fast.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import uuid

import pytest
from hostile_support import BOTS, FAST, REGISTRY, RULES, Table, check_unharmed

from arena import PlayerSpec
from arena.bots.referee import InProcessClient, play_game
from arena.sandbox.client import SandboxClient


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    """make(attack, **config) -> PlayerSpec of that attack's bot, CONFIG baked in."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def make(attack: str, **config) -> PlayerSpec:
        name = f"hostile_{attack}_{uuid.uuid4().hex[:8]}"
        source = (BOTS / f"{attack}.py").read_text()
        header = f"import json as _json\nCONFIG = _json.loads({json.dumps(config)!r})\n"
        (tmp_path / f"{name}.py").write_text(header + source)
        module = importlib.import_module(name)
        make.module = module
        return PlayerSpec(attack.replace("_", "-"), module.Bot)

    return make


@pytest.fixture(scope="module")
def honest():
    """An honest sandboxed bot shared by the module's tables: it must never be disturbed. Started
    at once, so that its pid is there for a test to name even before any table has been played."""
    client = SandboxClient(REGISTRY.get("random"), FAST)
    assert client.ping().status == "ok" and client.pid is not None
    yield client
    client.close()


@pytest.fixture(scope="module")
def sentinel():
    """A bystander process that must outlive every attack."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    yield proc
    proc.kill()
    proc.wait()


@pytest.fixture
def play(honest, sentinel):
    """play(spec, seed=1) -> Table, after checking everything the attack must not have hurt."""

    def run(spec: PlayerSpec, seed: int = 1, limits=FAST, before_close=None,
            os_limits=None) -> Table:
        client = SandboxClient(spec, limits, os_limits=os_limits)
        clients = [client, honest, InProcessClient(REGISTRY.get("heuristic"))]
        try:
            record = play_game(RULES, clients, seed)
            if before_close is not None:
                before_close(client)
        finally:
            client.close()
        check_unharmed(record, honest, sentinel)
        assert [pid for pid in client.pids if os.path.exists(f"/proc/{pid}")] == []
        return Table(record, client)

    return run


