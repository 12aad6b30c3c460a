"""Fixtures for the converter: the real sshd (tests/sshd.py), a simulated toolkit, real models."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/ (it has no __init__.py)

from atc_models import CAFFE_PROTOTXT, SIM_SOC, small_cnn  # noqa: E402
from sshd import SshServer, ssh_home, ssh_host, ssh_transport, sshd_server  # noqa: E402,F401


@pytest.fixture(scope="session")
def sim_prefix(tmp_path_factory) -> Path:
    """A /usr/local/Ascend look-alike holding a simulated CANN 8.0.RC1 toolkit (2 x 310P3)."""
    from workbench.simtoolkit.install import install

    prefix = tmp_path_factory.mktemp("atc-sim") / "Ascend"
    install(prefix, cann_version="8.0.RC1", soc_version=SIM_SOC, devices=2)
    return prefix


@pytest.fixture
def cnn(tmp_path) -> Path:
    return small_cnn(tmp_path / "smallcnn.onnx")


@pytest.fixture
def caffe(tmp_path) -> Path:
    p = tmp_path / "tiny.prototxt"
    p.write_text(CAFFE_PROTOTXT)
    return p
