"""Context-menu actions for a file in the project explorer: "Convert Model…" on a model the
converter reads (.onnx, .pb, .prototxt, .air) and "Show Model Structure" on an .om, om JSON or
ONNX model. The window adds them to its explorer menu; each action calls the entry functions."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction

from workbench.core.artefacts import Artefact, classify

CONVERTIBLE = {Artefact.ONNX_MODEL, Artefact.TF_MODEL, Artefact.CAFFE_MODEL, Artefact.AIR_MODEL}
STRUCTURE = {Artefact.OM_MODEL, Artefact.OM_JSON, Artefact.ONNX_MODEL}


class _Trigger(QObject):
    """Keeps the path for an action's slot (a bound method, not a lambda capturing widgets)."""

    def __init__(self, window, path: str, parent: QObject) -> None:
        super().__init__(parent)
        self.window_, self.path = window, path

    def convert(self) -> None:
        from workbench.ui.converter.wizard import open_model_converter

        open_model_converter(self.window_, self.path)

    def structure(self) -> None:
        from workbench.ui.converter.structure_view import open_model_structure

        open_model_structure(self.window_, self.path)


def model_actions(window, path: str | Path, parent: QObject) -> list[QAction]:
    """The converter's actions for ``path`` (empty for other files), owned by ``parent`` (the menu)."""
    kind = classify(Path(path))
    trigger = _Trigger(window, str(path), parent)
    out = []
    if kind in CONVERTIBLE:
        act = QAction(QCoreApplication.translate("ModelActions", "Convert Model…"), parent)
        act.triggered.connect(trigger.convert)
        out.append(act)
    if kind in STRUCTURE:
        act = QAction(QCoreApplication.translate("ModelActions", "Show Model Structure"), parent)
        act.triggered.connect(trigger.structure)
        out.append(act)
    return out
