"""The demo host: a simulated toolkit in the user's data folder, run through LocalTransport.

``ensure_demo_toolkit()`` installs it on first use and reinstalls it when the installed one is
outdated (another CANN version/SoC, an older layout stamp, or a different Python interpreter),
so a newcomer can click through every wizard with no Ascend machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

from workbench.core import paths
from workbench.simtoolkit.config import CONFIG_NAME, LAYOUT_STAMP, SimConfig
from workbench.simtoolkit.install import install

DEMO_CANN = "8.0.RC1"
DEMO_SOC = "Ascend910B2"  # an Atlas 800T A2-like training server
DEMO_DEVICES = 8


def demo_prefix() -> Path:
    return paths.data_dir() / "demo-host" / "Ascend"


def _current(root: Path) -> bool:
    try:
        cfg = SimConfig.from_file(root / CONFIG_NAME)
    except ValueError:
        return False
    return (
        cfg.layout_stamp == LAYOUT_STAMP
        and cfg.cann_version == DEMO_CANN
        and cfg.soc_version == DEMO_SOC
        and cfg.devices == DEMO_DEVICES
        and cfg.python == sys.executable
        and (root.parent / "set_env.sh").exists()
    )


def ensure_demo_toolkit() -> Path:
    """The demo host's toolkit root (``…/demo-host/Ascend/ascend-toolkit/latest``), installed if needed."""
    root = demo_prefix() / "ascend-toolkit" / "latest"
    if not _current(root):
        root = install(demo_prefix(), cann_version=DEMO_CANN, soc_version=DEMO_SOC, devices=DEMO_DEVICES)
    return root
