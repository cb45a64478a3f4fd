"""The code hash of a player: what tells two versions of its code apart."""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
from pathlib import Path
from typing import Any


def code_hash_of(obj: Any) -> str:
    """SHA-256 (first 16 hex digits) of every .py file of the top-level package defining ``obj``.

    For the harness's own code (the built-in players, the arena): it imports nothing new.
    """
    module = inspect.getmodule(obj)
    if module is None:
        return "unknown"
    spec = importlib.util.find_spec(module.__name__.split(".")[0])
    if spec is None:
        return "unknown"
    if spec.submodule_search_locations:
        root = Path(list(spec.submodule_search_locations)[0])
        files = sorted(root.rglob("*.py"))
    else:
        root = Path(spec.origin)
        files = [root]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.relative_to(root.parent).as_posix().encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]
