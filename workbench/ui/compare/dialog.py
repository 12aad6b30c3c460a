"""Starting a comparison: Ascend ▸ Baseline Comparison (two reports, files or already open), and the
Baseline Comparison sub-view of an open report ("Baseline file: … [Browse]", as MindStudio)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
    QPushButton, QVBoxLayout, QWidget,
)

from workbench.core.compare.engine import compare_paths, compare_reports
from workbench.ui.compare.view import CompareView


def _open_reports(window) -> list:
    from workbench.ui.report.document import ReportDocument

    docs = [window.documents.widget(i) for i in range(window.documents.count())]
    return [d.report for d in docs if isinstance(d, ReportDocument)]


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
    def __init__(self, window, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setWindowTitle(self.tr("Baseline Comparison"))
        self.window_ = window
        reports = _open_reports(window)
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
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Compare"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.resize(640, 200)

    def start(self):
        base, current = self.base.path(), self.current.path()
        return start_comparison(self.window_, base, current, self.by.currentData(), self.tolerance.value())


def start_comparison(window, base: str, current: str, by: str = "type", tolerance: float = 1.0):
    """Compare two report paths as a task; the result opens as a document tab."""
    title = QCoreApplication.translate("Compare", "Compare {0} with {1}").format(Path(base).name, Path(current).name)
    task = window.bridge.start(compare_paths, base, current, by=by, tolerance_pct=tolerance, title=title, kind="compare")
    task.succeeded.connect(window.show_comparison)
    task.failed.connect(window.report_task_failed)
    return task


def open_compare_dialog(window):
    dialog = CompareDialog(window)
    if dialog.exec():
        return dialog.start()
    return None


def _compare_with_baseline(baseline: str, current_report, by: str, *, progress, cancel):
    from workbench.core.compare.engine import open_side

    base_report = open_side("base", baseline, progress, cancel, None)
    return compare_reports(base_report, current_report, by=by)


class BaselinePane(QWidget):
    """The report's Baseline Comparison sub-view: pick a baseline, compare, show the result here."""

    def __init__(self, window, report, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.report = report
        self.view: CompareView | None = None
        self.path = QLineEdit(self)
        self.path.setPlaceholderText(self.tr("a PROF_ folder, *_ascend_pt folder, timeline JSON, CSV or .wbreport"))
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._browse)
        self.compare_button = QPushButton(self.tr("Compare"), self)
        self.compare_button.clicked.connect(self.compare)
        self.message = QLabel(self.tr("Choose a baseline report to compare this report against."), self)
        self.message.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Baseline file:"), self))
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        row.addWidget(self.compare_button)
        self.body = QVBoxLayout(self)
        self.body.addLayout(row)
        self.body.addWidget(self.message)
        self.body.addStretch(1)

    def _browse(self) -> None:
        dialog = QFileDialog(self, self.tr("Baseline Report"))
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        if dialog.exec() and dialog.selectedFiles():
            self.path.setText(dialog.selectedFiles()[0])

    def compare(self):
        baseline = self.path.text().strip()
        if not baseline:
            self.message.setText(self.tr("Choose a baseline report first."))
            return None
        self.compare_button.setEnabled(False)
        self.message.setText(self.tr("Comparing…"))
        task = self.window_.bridge.start(_compare_with_baseline, baseline, self.report, "type",
                                         title=QCoreApplication.translate("Compare", "Compare {0} with {1}").format(
                                             Path(baseline).name, Path(self.report.source).name), kind="compare")
        task.succeeded.connect(self._show)
        task.failed.connect(self._failed)
        task.finished.connect(self._finished)
        return task

    def _show(self, comparison) -> None:
        if self.view is not None:
            self.body.removeWidget(self.view)
            self.view.deleteLater()
        self.view = CompareView(comparison, self)
        self.view.row_opened.connect(self._row_opened)
        self.body.insertWidget(1, self.view, 1)
        self.message.setText("")

    def _row_opened(self, row) -> None:
        self.window_.open_comparison_row(self.view.comparison, row)

    def _failed(self, message: str, _exc: object) -> None:
        self.message.setText(message)

    def _finished(self) -> None:
        self.compare_button.setEnabled(True)


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
