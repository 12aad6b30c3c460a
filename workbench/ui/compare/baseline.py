"""The Baseline Comparison sub-view of an open report ("Baseline file: … [Browse]", as MindStudio).

Its own module (below both :mod:`workbench.ui.compare.dialog` and :mod:`workbench.ui.report.document`):
the report document builds this pane, and the dialog looks at the open report documents."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from workbench.core.compare.engine import compare_reports, open_side
from workbench.ui.compare.view import CompareView


def _compare_with_baseline(baseline: str, current_report, by: str, *, progress, cancel):
    base_report = open_side("base", baseline, progress, cancel, None)
    return compare_reports(base_report, current_report, by=by)


class BaselinePane(QWidget):
    """The report's Baseline Comparison sub-view: pick a baseline, compare, show the result here."""

    def __init__(self, context, report, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
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
        task = self.context.bridge.start(
            _compare_with_baseline,
            baseline,
            self.report,
            "type",
            title=QCoreApplication.translate("Compare", "Compare {0} with {1}").format(
                Path(baseline).name, Path(self.report.source).name
            ),
            kind="compare",
        )
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
        self.context.open_comparison_row(self.view.comparison, row)

    def _failed(self, message: str, _exc: object) -> None:
        self.message.setText(message)

    def _finished(self) -> None:
        self.compare_button.setEnabled(True)
