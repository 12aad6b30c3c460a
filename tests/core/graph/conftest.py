"""Fixtures of the graph tests: the generated and hand-built models (models.py), the real samples."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# the converter tests' models (small_cnn, CAFFE_PROTOTXT, SIM_SOC): tests/core/atc has no __init__.py
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "atc"))


@pytest.fixture(scope="session")
def synth300(tmp_path_factory) -> Path:
    from workbench.core.graph.synth import synth_onnx

    return synth_onnx(300, tmp_path_factory.mktemp("synth") / "synth300.onnx", seed=3)
