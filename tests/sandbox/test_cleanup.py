"""Cleaning up after bots: folders they filled, control groups, and what dead harnesses left."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.sandbox import cgroups
from arena.sandbox.processes import remove_tree
from arena.sandbox.roots import sweep


def test_remove_tree_takes_a_deep_folder_and_never_follows_links(tmp_path):
    """A 3,000-deep folder goes without recursion; a link out of it is removed, not followed."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    top = tmp_path / "bot"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY)
    for _ in range(3000):  # deeper than PATH_MAX: made, like a bot would, one level at a time
        os.mkdir("d", dir_fd=fd)
        sub = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = sub
    os.close(os.open("f", os.O_CREAT | os.O_WRONLY, dir_fd=fd))
    os.close(fd)
    (top / "link").symlink_to(outside)
    (top / "file-link").symlink_to(outside / "keep.txt")
    remove_tree(str(top))
    assert not top.exists()
    assert (outside / "keep.txt").read_text() == "keep"


def test_remove_tree_of_nothing_or_a_file_does_not_raise(tmp_path):
    """A missing path is fine; a file in place of the folder is removed."""
    remove_tree(str(tmp_path / "missing"))
    (tmp_path / "file").write_text("x")
    remove_tree(str(tmp_path / "file"))
    assert not (tmp_path / "file").exists()


@pytest.mark.skipif(cgroups.available()[0] is None, reason="no writable pids and memory controllers")
def test_a_bot_group_has_its_caps_and_stale_groups_are_removed():
    """A new group carries pids.max and the memory cap; empty groups of dead harnesses go."""
    version, _ = cgroups.available()
    probe, _ = cgroups.create(None, None)
    parent = os.path.dirname(probe.paths[0])
    probe.remove()
    stale = os.path.join(parent, "bot-4999999-deadbeef")  # above any pid_max: never a live pid
    os.makedirs(stale, exist_ok=True)
    group, detail = cgroups.create(7, 64 << 20)
    try:
        assert group is not None, detail
        assert not os.path.exists(stale)
        assert group.stat("pids.max") == "7"
        memory = group.stat("memory.limit_in_bytes" if version == 1 else "memory.max")
        assert int(memory) == 64 << 20
        assert group.members() == []
    finally:
        group.remove()
    assert not any(os.path.exists(p) for p in group.paths)


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=False)
    return int(done.stdout)


def test_sweep_removes_only_the_empty_roots_of_dead_makers(tmp_path):
    dead, alive = _dead_pid(), os.getpid()
    names = {"gone": f"arena-root-{dead}-abc_123", "mine": f"arena-root-{alive}-def456",
             "full": f"arena-root-{dead}-full", "old": "arena-root-x1y2z3", "other": f"other-{dead}-x"}
    for name in names.values():
        (tmp_path / name).mkdir()
    (tmp_path / names["full"] / "left.txt").write_text("a bot's file")
    assert sweep(str(tmp_path)) == [str(tmp_path / names["gone"])]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(n for k, n in names.items() if k != "gone")


HARNESS = """
import sys
from arena import Rules
from arena.bots.referee import InProcessClient, play_game
from arena.plugins.registry import load
from arena.sandbox.client import SandboxClient
from arena.tournament.spec import LimitsSpec
registry = load(autoload=False)
client = SandboxClient(registry.get("random"), LimitsSpec(startup_ms=10000))
play_game(Rules.preset("getaway"), [client] + [InProcessClient(registry.get(n)) for n in ("low", "high")], 3)
print(client._server.root if client._server is not None else "", flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork servers are Linux's")
def test_a_harness_killed_with_9_leaves_a_root_that_the_next_one_removes(tmp_path):
    """kill -9 of a harness leaves its server's root folder (nothing could remove it then); the next
    fork server made on the machine removes it, and makes its own beside it."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    harness = subprocess.Popen([sys.executable, "-c", HARNESS], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, env=env)
    line = harness.stdout.readline().strip()
    if not line:
        harness.kill()
        pytest.skip("no fork server on this machine (arena sandbox-info says why)")
    root = Path(line)
    assert root.parent == tmp_path and root.name.startswith(f"arena-root-{harness.pid}-"), root
    harness.kill()
    harness.wait()
    assert root.is_dir()  # left behind
    done = subprocess.run([sys.executable, "-c", "from arena.sandbox.roots import make_root; print(make_root())"],
                          check=False, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert not root.exists()
    assert Path(done.stdout.strip()).is_dir()
