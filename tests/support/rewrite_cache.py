"""Assertion-rewritten bytecode, written once by the run's first process before its workers start.

pytest rewrites the asserts of every test module it imports and of the modules of its plugins'
distributions (hypothesis, anyio, xdist), and keeps the result in ``__pycache__`` files of its own
unless ``PYTHONDONTWRITEBYTECODE`` is set, as it is on the CI machines. Then each xdist worker
rewrote all it imported again: about 3.3 s of CPU a worker (1.8 s for the suite's 102 test modules
and conftests, most of the rest for hypothesis's), a third of its start. :func:`write` writes
pytest's own cache files for them, split over two processes, so that the workers read them instead.

It calls pytest's internal functions (``_pytest.assertion.rewrite``; pytest is pinned below 9.2 in
pyproject.toml). Should they change, nothing is written, and each worker rewrites as before: the
tests run the same either way, only their start is slower.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest


def sources(config: pytest.Config, tests: Path) -> list[Path]:
    """What a worker rewrites at its start: the test modules and conftests under ``tests``, and the
    modules of the packages pytest marked for rewriting (its plugins' distributions: the worker
    imports many of them while it collects)."""
    found = sorted(tests.rglob("test_*.py")) + sorted(tests.rglob("conftest.py"))
    try:
        from _pytest.assertion.rewrite import assertstate_key

        marked = sorted(config.stash[assertstate_key].hook._must_rewrite)
    except (ImportError, AttributeError, KeyError):
        marked = []
    for name in marked:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is None:
            continue
        if spec.submodule_search_locations:
            for folder in spec.submodule_search_locations:
                found += sorted(Path(folder).rglob("*.py"))
        elif spec.origin:
            found.append(Path(spec.origin))
    return list(dict.fromkeys(p.resolve() for p in found if p.suffix == ".py"))


def write(config: pytest.Config, paths: list[Path]) -> int:
    """Write the rewritten bytecode of each of ``paths`` that has no current cache file; the number
    written by this process (its helper writes about as many). 0 where pytest's internals differ."""
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        steps = (rewrite.get_cache_dir, rewrite._read_pyc, rewrite._rewrite_test, rewrite._write_pyc)
    except (ImportError, AttributeError, KeyError):
        return 0
    get_cache_dir, read_pyc, rewrite_test, write_pyc = steps

    def cache_file(path: Path) -> Path:
        return get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)

    todo = [p for p in paths if read_pyc(p, cache_file(p)) is None]

    def run(share: list[Path]) -> int:
        done = 0
        for path in share:
            try:
                pyc = cache_file(path)
                pyc.parent.mkdir(exist_ok=True)
                stat, code = rewrite_test(path, config)
                done += bool(write_pyc(state, code, stat, pyc))
            except Exception:  # noqa: BLE001 - a cache file not written must not stop the run
                continue  # the worker meets the same file and says what is wrong with it
        return done

    if len(todo) < 2 or not hasattr(os, "fork"):
        return run(todo)
    pid = os.fork()
    if pid == 0:
        try:
            run(todo[1::2])
        finally:
            os._exit(0)
    done = run(todo[0::2])
    os.waitpid(pid, 0)
    return done
