"""Fixtures for the migration tests: the shipped GPU samples, the simulated tools, the real sshd."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/ (it has no __init__.py)

from sshd import SshServer, ssh_home, ssh_host, ssh_transport, sshd_server  # noqa: E402,F401

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "resources" / "samples"


@pytest.fixture
def tf_project(tmp_path) -> Path:
    return Path(shutil.copytree(SAMPLES / "gpu_tf_trainer", tmp_path / "src" / "gpu_tf_trainer"))


@pytest.fixture
def pt_project(tmp_path) -> Path:
    return Path(shutil.copytree(SAMPLES / "gpu_pytorch_trainer", tmp_path / "src" / "gpu_pytorch_trainer"))


@pytest.fixture(scope="session")
def sim_prefix(tmp_path_factory) -> Path:
    from workbench.simtoolkit.install import install

    prefix = tmp_path_factory.mktemp("migration-sim") / "Ascend"
    install(prefix, cann_version="8.0.RC1", soc_version="Ascend910B2", devices=2)
    return prefix
