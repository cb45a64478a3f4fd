"""Cleaning up after bots: folders they filled, control groups, and what dead harnesses left."""

from __future__ import annotations

import os

import pytest

from arena.sandbox import cgroups
from arena.sandbox.processes import remove_tree


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
