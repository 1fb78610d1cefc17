"""The environment that injects a fault into an ``attn-explain`` subprocess (see fault_shim)."""

import os
from pathlib import Path

SHIM = Path(__file__).resolve().parent / "fault_shim"


def env(spec: str) -> dict:
    """``hang:<Scene>`` or ``fail:<Scene>``: that scene's jobs hang or fail in the workers;
    ``unreadable:<path>``: opening that file fails with EACCES (mode 000 as a user, not root)."""
    path = os.pathsep.join(p for p in (str(SHIM), os.environ.get("PYTHONPATH", "")) if p)
    return {"ATTN_FAULT": spec, "PYTHONPATH": path}
