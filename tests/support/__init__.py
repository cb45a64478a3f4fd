"""Helpers shared by test files (tests/ is on the path: ``from support.processes import alive``)."""
