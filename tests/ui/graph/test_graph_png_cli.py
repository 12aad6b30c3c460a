"""``ascend-workbench model graph MODEL --png OUT``: the headless verb renders through the GUI's
renderer, which the composition root (workbench.wiring) plugs into core."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_model_graph_png_from_the_command_line(tmp_path):
    from PySide6.QtGui import QImage

    from workbench.core.graph.synth import synth_onnx

    model = synth_onnx(200, tmp_path / "m.onnx")
    png = tmp_path / "m.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    env.pop("WORKBENCH_BLOCK_QT", None)
    r = subprocess.run(
        [sys.executable, "-m", "workbench", "model", "graph", str(model), "--png", str(png)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert f"wrote: {png}" in r.stdout
    image = QImage(str(png))
    assert not image.isNull() and image.width() > 100 and image.height() > 100
    assert len({image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}) > 2
