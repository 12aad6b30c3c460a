"""The installed simulated toolkit's own settings file and what every simulated tool shares.

``sim install`` writes ``<toolkit>/simulated_toolkit.json`` (the simulator's own file, not part
of any real CANN install: its presence is how detection tells a simulated toolkit apart). The
launcher scripts export ``ASCEND_SIM_CONFIG`` pointing at it, so a tool knows the CANN version,
SoC and device count it must imitate.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from workbench.simtoolkit import platform

CONFIG_NAME = "simulated_toolkit.json"
ENV_CONFIG = "ASCEND_SIM_CONFIG"
# Bumped whenever the installed layout or launchers change: the demo host reinstalls on mismatch.
LAYOUT_STAMP = 4  # 4: the simulated torch / torch_npu runtime
BANNER = "[simulated CANN toolkit]"
# ``extra`` keys a test may set in simulated_toolkit.json to play a less usual host:
# an Atlas A3 whose ``npu-smi info -t board -i N -c C`` prints no "NPU Name" line (UNVERIFIED for
# real drivers; the workbench must then let the user choose among the A3 soc_versions).
EXTRA_BOARD_WITHOUT_NPU_NAME = "board_without_npu_name"


@dataclass
class SimConfig:
    cann_version: str = platform.DEFAULT_CANN
    soc_version: str = platform.DEFAULT_SOC
    devices: int = 8
    driver_version: str = ""
    arch: str = "x86_64"
    python: str = ""
    toolkit_root: str = ""
    layout_stamp: int = LAYOUT_STAMP
    simulated: bool = True
    extra: dict = field(default_factory=dict)

    @property
    def release(self) -> platform.CannRelease:
        return platform.release(self.cann_version)

    @property
    def soc(self) -> platform.Soc:
        return platform.soc(self.soc_version)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"

    @classmethod
    def from_file(cls, path: Path) -> "SimConfig":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: cannot read the simulated toolkit settings: {exc}") from exc
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a JSON object")
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        cfg = cls(**known)
        platform.release(cfg.cann_version)
        platform.soc(cfg.soc_version)
        return cfg


def load() -> SimConfig:
    """The settings of the toolkit this tool was launched from (defaults when run bare)."""
    value = os.environ.get(ENV_CONFIG)
    if not value:
        return SimConfig(driver_version=platform.release(platform.DEFAULT_CANN).driver)
    return SimConfig.from_file(Path(value))


def banner() -> None:
    """Say on stderr that this is the simulator, leaving stdout exactly as the real tool's."""
    print(BANNER, file=sys.stderr, flush=True)
