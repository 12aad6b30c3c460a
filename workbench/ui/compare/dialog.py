"""Starting a comparison: Ascend ▸ Baseline Comparison (two reports, files or already open). The
Baseline Comparison sub-view of an open report is :class:`workbench.ui.compare.baseline.BaselinePane`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QPushButton,
    QWidget,
)

from workbench.core.compare.engine import compare_paths
from workbench.ui.context import AppContext


class PathPicker(QWidget):
    """A report path: typed, browsed (file or folder), or picked from the reports already open."""

    def __init__(self, open_reports: list, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QComboBox(self)
        self.edit.setEditable(True)
        for r in open_reports:
            self.edit.addItem(str(r.source))
        self.edit.setCurrentText("")
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._browse)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(browse)

    def path(self) -> str:
        return self.edit.currentText().strip()

    def set_path(self, path: str) -> None:
        self.edit.setCurrentText(path)

    def _browse(self) -> None:
        dialog = QFileDialog(self, self.tr("Choose a Report"))
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        if dialog.exec() and dialog.selectedFiles():
            self.set_path(dialog.selectedFiles()[0])


class CompareDialog(QDialog):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Baseline Comparison"))
        self.context = context
        reports = context.open_reports()
        self.base = PathPicker(reports, self)
        self.current = PathPicker(reports, self)
        self.by = QComboBox(self)
        self.by.addItem(self.tr("OP type"), "type")
        self.by.addItem(self.tr("Op name"), "name")
        self.tolerance = QDoubleSpinBox(self)
        self.tolerance.setRange(0.0, 100.0)
        self.tolerance.setDecimals(2)
        self.tolerance.setValue(1.0)
        self.tolerance.setSuffix(" %")
        form = QFormLayout(self)
        form.addRow(self.tr("Baseline report:"), self.base)
        form.addRow(self.tr("Current report:"), self.current)
        form.addRow(self.tr("Match operators by:"), self.by)
        form.addRow(self.tr("Same within:"), self.tolerance)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Compare"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.resize(640, 200)

    def start(self):
        base, current = self.base.path(), self.current.path()
        return start_comparison(self.context, base, current, self.by.currentData(), self.tolerance.value())


def start_comparison(context: AppContext, base: str, current: str, by: str = "type", tolerance: float = 1.0):
    """Compare two report paths as a task; the result opens as a document tab."""
    title = QCoreApplication.translate("Compare", "Compare {0} with {1}").format(Path(base).name, Path(current).name)
    task = context.bridge.start(
        compare_paths, base, current, by=by, tolerance_pct=tolerance, title=title, kind="compare"
    )
    task.succeeded.connect(context.show_comparison)
    task.failed.connect(context.comparison_failed)
    return task


def open_compare_dialog(context: AppContext, parent: QWidget):
    dialog = CompareDialog(context, parent)
    if dialog.exec():
        return dialog.start()
    return None


def locate_slice(report, abs_ns) -> int | None:
    """The timeline slice starting exactly at ``abs_ns`` (epoch ns), or the nearest start."""
    tl = getattr(report, "timeline", None)
    if tl is None or abs_ns is None or len(tl.start_ns) == 0:
        return None
    target = int(abs_ns) - int(tl.origin_ns)
    starts = np.asarray(tl.start_ns)
    exact = np.flatnonzero(starts == target)
    if len(exact):
        return int(exact[0])
    return int(np.argmin(np.abs(starts - target)))
