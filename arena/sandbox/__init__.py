"""Bot processes: wire protocol, limits and OS isolation.

See :mod:`arena.sandbox.limits` (detect, confine, harden_harness, kill_group)
and :mod:`arena.sandbox.wire` (length-prefixed JSON frames, log draining).
"""
