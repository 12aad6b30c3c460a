"""Running a script in a shell that sourced an installed simulated toolkit's set_env.sh, as a user's
terminal on the CANN machine does (the tests of the simulated runtimes: pyACL, torch / torch_npu)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

# what the suite's own environment may hold that a user's fresh shell does not
_DROP = ("ASCEND_SIM_CONFIG", "PYTHONPATH", "ASCEND_SIM_RUNTIME_LOG", "ASCEND_RT_VISIBLE_DEVICES")


def toolkit_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _DROP}
    env.update(extra)
    return env


def in_toolkit_shell(
    prefix: Path, script: str, cwd: Path, timeout: int = 300, **extra: str
) -> subprocess.CompletedProcess:
    """``script`` run by bash after ``source <prefix>/ascend-toolkit/set_env.sh``, in ``cwd``."""
    return subprocess.run(
        ["bash", "-c", f"source {prefix}/ascend-toolkit/set_env.sh && {script}"],
        capture_output=True,
        text=True,
        env=toolkit_env(**extra),
        timeout=timeout,
        cwd=cwd,
        check=False,
    )
