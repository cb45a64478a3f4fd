"""Fixtures shared by the sandbox tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def clients():
    """Collects clients to close after the test."""
    made = []
    yield made
    for c in made:
        c.close()
