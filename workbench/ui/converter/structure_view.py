"""Model structure document: the searchable op list of an ``.om`` (``atc --mode=1`` on a CANN
machine, run as a task) or an ONNX model (read locally): name, type, inputs, output shapes,
dtypes and formats, filtered by text and by op type. The dump-configuration editor reuses
:class:`ModelStructureView`."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from workbench.core.atc import ModelStructure, model_structure
from workbench.core.atc.run import default_host as project_default_host
from workbench.core.services.demohost import resolve_host
from workbench.ui.context import AppContext
from workbench.ui.report.table import FrameTable

COLUMNS = ["name", "type", "inputs", "output_shapes", "output_dtypes", "output_formats"]


def structure_frame(structure: ModelStructure, op_type: str = "") -> pd.DataFrame:
    """One row per op (optionally only ops of ``op_type``)."""
    rows = []
    for op in structure.ops:
        if op_type and op.type != op_type:
            continue
        rows.append(
            (
                op.name,
                op.type,
                ", ".join(op.inputs),
                "; ".join("[" + ",".join(str(d) for d in o.shape) + "]" for o in op.outputs),
                "; ".join(o.dtype for o in op.outputs),
                "; ".join(o.format for o in op.outputs if o.format),
            )
        )
    return pd.DataFrame(rows, columns=COLUMNS)


class ModelStructureView(QWidget):
    def __init__(self, structure: ModelStructure, where: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.structure = structure
        counts = structure.op_types()
        self.header = QLabel(self)
        self.header.setWordWrap(True)
        self.header.setText(
            self.tr("<b>{0}</b> — {1} ops, {2} op types<br><small>{3}</small>").format(
                structure.name, len(structure.ops), len(counts), structure.source + (f" · {where}" if where else "")
            )
        )
        self.type_filter = QComboBox(self)
        self.type_filter.addItem(self.tr("All op types"), "")
        for name, n in counts.items():
            self.type_filter.addItem(f"{name} ({n})", name)
        self.type_filter.currentIndexChanged.connect(self._type_changed)
        self.table = FrameTable(structure.name, self)
        self.table.filter.setPlaceholderText(self.tr("Search ops by name, type, input or shape"))
        self.headers = [
            self.tr("Name"),
            self.tr("Type"),
            self.tr("Inputs"),
            self.tr("Output shapes"),
            self.tr("Output dtypes"),
            self.tr("Output formats"),
        ]
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.type_filter)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        self._type_changed()

    def _type_changed(self) -> None:
        self.table.set_frame(
            structure_frame(self.structure, self.type_filter.currentData() or ""), headers=self.headers
        )

    def search(self, text: str) -> int:
        """Filter the rows as typing in the search box does; the number of rows shown."""
        self.table.filter.setText(text)
        return self.table.model.rowCount()


def default_host(context: AppContext) -> str:
    """The CANN machine for an .om: the project's remote host, else the converter's last one, else the demo
    (core ``default_host``, which ``ascend-workbench model`` uses too)."""
    return project_default_host(context.project)


class _Opener(QObject):
    """Receives the structure task's result and opens the document (lives as long as the application
    window: the wizard that asked may be closed meanwhile)."""

    def __init__(self, context: AppContext, path: str, where: str) -> None:
        super().__init__(context.events)
        self.context, self.path, self.where = context, path, where
        self.view: ModelStructureView | None = None

    def opened(self, structure: ModelStructure) -> None:
        self.view = ModelStructureView(structure, self.where)
        self.context.add_document(self.view, self.tr("{0} — Structure").format(Path(self.path).name), self.path)

    def failed(self, message: str, _exc: object) -> None:
        self.context.show_status(self.tr("Model structure of {0}: {1}").format(Path(self.path).name, message))

    def done(self) -> None:
        self.deleteLater()


def open_model_structure(context: AppContext, path: str | Path, host: str | None = None):
    """Open the op list of ``path`` (.om via ``atc --mode=1`` on ``host``, .onnx / om .json locally)
    in a document tab; returns the task (its result is the core ModelStructure)."""
    path = str(path)
    transport = toolkit = None
    where = ""
    if Path(path).suffix.lower() == ".om":
        host = host or default_host(context)
        try:
            transport = context.host_transport(host)
            toolkit = resolve_host(host).toolkit or None
        except Exception as exc:  # noqa: BLE001 - HostError / ValueError: shown, not raised
            context.show_status(str(exc))
            return None
        where = QCoreApplication.translate("ModelStructureView", "atc --mode=1 on {0}").format(host)
    opener = _Opener(context, path, where)
    task = context.bridge.start(
        model_structure,
        path,
        transport,
        toolkit,
        title=opener.tr("Model structure of {0}").format(Path(path).name),
        kind="structure",
    )
    task.succeeded.connect(opener.opened)
    task.failed.connect(opener.failed)
    task.finished.connect(opener.done)
    task.opener = opener
    return task
