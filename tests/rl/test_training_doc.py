"""docs/training.md's Python examples run as shown, and its bot package passes check-bot, sandboxed.

The examples run in order in one namespace, in a temporary folder (the
training example writes ``weights.npz`` there). The block that starts with
``# my_bot/__init__.py`` is the bot: it is written into the package
``arena new-bot`` makes, with those weights and the page's package-data
table, installed (not editable) into a site folder, and checked sandboxed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena.plugins.registry import DISABLE_ENV
from support.install import RUN_ARENA, pip_install

pytestmark = pytest.mark.long

DOC = Path(__file__).resolve().parents[2] / "docs" / "training.md"
BOT = "# my_bot/__init__.py"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)


def _arena(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != DISABLE_ENV}
    return subprocess.run([sys.executable, "-c", RUN_ARENA, str(site), *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=600, check=False)


def test_the_examples_run_and_the_bot_passes_check_bot(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    examples = [b for b in _blocks("python") if not b.startswith(BOT)]
    assert len(examples) == 4
    namespace: dict = {}
    for block in examples:
        exec(compile(block, str(DOC), "exec"), namespace)
    assert (tmp_path / "weights.npz").exists() and namespace["batch"].finished >= 100

    site = tmp_path / "site"
    made = _arena(site, "new-bot", "my-bot", "--dir", str(tmp_path / "bots"), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    package = tmp_path / "bots" / "my-bot"
    (package / "my_bot" / "__init__.py").write_text(next(b for b in _blocks("python") if b.startswith(BOT)))
    (package / "my_bot" / "weights.npz").write_bytes((tmp_path / "weights.npz").read_bytes())
    (package / "pyproject.toml").write_text((package / "pyproject.toml").read_text() + "\n" + _blocks("toml")[0])
    pip_install(package, site)
    assert (site / "my_bot" / "weights.npz").exists()
    checked = _arena(site, "check-bot", "my-bot", "--games", "1", "--rules", "getaway,bhabho",
                     "--table-sizes", "4", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "all checks passed" in checked.stdout and "in its sandbox" in checked.stdout

    # the installed plugin as an opponent of SeatEnv: found through the registry, played sandboxed
    played = subprocess.run([sys.executable, "-c", SEAT_ENV_WITH_PLUGIN, str(site)], check=False, capture_output=True,
                            text=True, cwd=tmp_path, env={k: v for k, v in os.environ.items() if k != DISABLE_ENV},
                            timeout=600)
    assert played.returncode == 0, played.stderr
    assert played.stdout.split() == ["SandboxClient", "plays", "faults", "0"]


SEAT_ENV_WITH_PLUGIN = """
import site, sys
site.addsitedir(sys.argv[1])
import arena.rl as rl
env = rl.SeatEnv("getaway", ["my-bot", "heuristic", "random"], seat=1, seed=3)
plays = faults = 0
for episode in range(2):                      # the sandboxed client kept from one game to the next
    observation, _ = env.reset()
    client = env.clients[0]
    done = False
    while not done:
        observation, reward, done, _, info = env.step(int(observation["action_mask"].nonzero()[0][0]))
    game = env.table.game
    plays += sum(1 for e in game.events if e[0] == "play" and e[1] == 0)
    faults += game.faults[0]
    assert env.clients[0] is client
env.close()
print(type(client).__name__, "plays" if plays else "none", "faults", faults)
"""
