"""Bot processes: wire protocol, limits and OS isolation.

:mod:`arena.sandbox.limits` detects and applies the isolation layers;
:mod:`arena.sandbox.wire` frames the harness-bot pipe traffic.
"""

from arena.sandbox.errors import LimitsError
from arena.sandbox.limits import (Capabilities, Confinement, Limits, confine, detect, harden_harness, kill_group,
                                  reap_orphans)
from arena.sandbox.wire import LogDrain, read_frame, write_frame

__all__ = ["Capabilities", "Confinement", "Limits", "LimitsError", "LogDrain",
           "confine", "detect", "harden_harness", "kill_group", "read_frame",
           "reap_orphans", "write_frame"]
