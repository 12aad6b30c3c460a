"""The whole graph as a PNG (the CLI's ``model graph --png``): painted offscreen into a QImage at
the scale that fits :data:`MAX_SIZE` pixels (never larger than 1:1), labels where they are readable,
written atomically and never over the model it shows."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QGuiApplication, QImage, QImageWriter, QPainter

from workbench.core.fsutil import atomic_open, refuse_inputs
from workbench.core.graph.model import Graph, Layout
from workbench.ui.graph.scene import TEXT_PX, SceneData

MAX_SIZE = 8192  # pixels, the longest side


def _application() -> None:
    """Fonts need a QGuiApplication: a headless one (offscreen) when there is none yet."""
    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _application.app = QGuiApplication([])  # type: ignore[attr-defined]


def render_png(graph: Graph, layout: Layout, path: str | os.PathLike[str], *, max_size: int = MAX_SIZE) -> Path:
    """Write ``graph`` laid out as ``layout`` to the PNG ``path``; returns the path."""
    refuse_inputs(path, [graph.source], inside=False)
    _application()
    data = SceneData(graph, layout, overview=False)
    b = data.bounds
    scale = min(1.0, max_size / max(b.width(), 1.0), max_size / max(b.height(), 1.0))
    image = QImage(max(1, int(b.width() * scale)), max(1, int(b.height() * scale)), QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, scale >= 0.5)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.scale(scale, scale)
    painter.translate(-b.left(), -b.top())
    data.paint_vector(painter, b, scale, text=scale * data.box_h >= TEXT_PX, edges=True)
    painter.end()
    raw = QByteArray()
    buffer = QBuffer(raw)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not QImageWriter(buffer, QByteArray(b"PNG")).write(image):
        raise OSError(f"{path}: the image could not be encoded as PNG")
    buffer.close()
    with atomic_open(path, "wb", encoding=None) as fh:
        fh.write(raw.data())
    return Path(path)
