"""Helpers of the migration tests (not fixtures)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_tool(module: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """One of the simulated tools, as its launcher runs it."""
    return subprocess.run(
        [sys.executable, "-m", f"workbench.simtoolkit.migration.{module}", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )
