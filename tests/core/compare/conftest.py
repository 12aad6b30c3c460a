"""Fixtures: the real kernel_details samples and generated msprof / torch_npu reports of one workload."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cmphelpers import PIPE  # noqa: E402


@pytest.fixture
def pipe_csv(samples, tmp_path) -> Path:
    """A private copy of the real PipeUtilization kernel_details sample."""
    dst = tmp_path / "base" / "kernel_details.csv"
    dst.parent.mkdir()
    shutil.copy(samples.joinpath(*PIPE), dst)
    return dst


@pytest.fixture(scope="session")
def generated(tmp_path_factory) -> dict[str, Path]:
    """One transformer workload as msprof (device 0; devices 0+1; device 1) and torch_npu (device 0) output."""
    from workbench.simtoolkit.profdata import transformer_workload, write_msprof_prof, write_torch_npu

    root = tmp_path_factory.mktemp("generated")
    work = transformer_workload(layers=1, seq=256, hidden=512, heads=8)
    return {
        "msprof": write_msprof_prof(root / "msprof", work),
        "msprof01": write_msprof_prof(root / "msprof01", work, devices=(0, 1)),
        "torch": write_torch_npu(root / "torch", work),
        "msprof_dev1": write_msprof_prof(root / "msprof1", work, devices=(1,)),
    }
