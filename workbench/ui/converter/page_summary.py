"""Summary page: the exact atc command line (copyable), the files uploaded and produced, every
issue of the job, and the run: progress, then the result panel."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.atc import Issue, Produced, Upload
from workbench.ui.converter.page_base import ConverterPage
from workbench.ui.converter.result_panel import ResultPanel


def _table(parent: QWidget, headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers), parent)
    table.setHorizontalHeaderLabels(headers)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    table.verticalHeader().hide()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setMaximumHeight(84)
    return table


def _fill(table: QTableWidget, rows: list[tuple[str, ...]]) -> None:
    table.setRowCount(len(rows))
    for r, values in enumerate(rows):
        for c, text in enumerate(values):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            table.setItem(r, c, item)


class SummaryPage(ConverterPage):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            self.tr("Summary"),
            self.tr("Check the command, then Convert. The log streams into the Output dock."),
            parent,
        )
        self.preview.hide()
        self.preview_label.hide()
        self.command = QPlainTextEdit(self)
        self.command.setReadOnly(True)
        self.command.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.command.setFixedHeight(88)
        self.copy_button = QPushButton(self.tr("Copy"), self)
        self.copy_button.setToolTip(self.tr("Copy the atc command line to the clipboard"))
        self.copy_button.clicked.connect(self.copy_command)
        cmd_box = QGroupBox(self.tr("atc command"), self)
        cl = QHBoxLayout(cmd_box)
        cl.addWidget(self.command, 1)
        cl.addWidget(self.copy_button)
        self.uploads = _table(self, [self.tr("Kind"), self.tr("Local file"), self.tr("On the host")])
        self.produced = _table(self, [self.tr("On the host"), self.tr("Downloaded to")])
        files = QGroupBox(self.tr("Files"), self)
        fl = QVBoxLayout(files)
        fl.addWidget(QLabel(self.tr("Uploaded:"), self))
        fl.addWidget(self.uploads)
        fl.addWidget(QLabel(self.tr("Produced:"), self))
        fl.addWidget(self.produced)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.hide()
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.result = ResultPanel(self)
        self.body.addWidget(cmd_box)
        self.body.addWidget(files)
        self.body.addWidget(self.progress)
        self.body.addWidget(self.status)
        self.body.addWidget(self.result, 3)
        self.actions = QHBoxLayout()
        self.actions.addStretch(1)
        self.body.addLayout(self.actions)
        self.body.addStretch(1)

    def owns(self, field: str) -> bool:
        return True

    def copy_command(self) -> str:
        text = self.command.toPlainText()
        QGuiApplication.clipboard().setText(text)
        return text

    def show_files(self, uploads: list[Upload], produced: list[Produced]) -> None:
        kinds = {"model": self.tr("model"), "weight": self.tr("weight"), "aipp": self.tr("AIPP config")}
        _fill(
            self.uploads,
            [(kinds.get(u.kind, u.kind), u.local or self.tr("(written from the wizard)"), u.remote) for u in uploads],
        )
        _fill(self.produced, [(p.remote, p.local) for p in produced])

    def show_state(self, issues: list[Issue], command_line: str) -> None:
        super().show_state(issues, command_line)
        if self.command.toPlainText() != command_line:
            self.command.setPlainText(command_line)

    # --- the run -----------------------------------------------------------------------------------------
    def run_started(self) -> None:
        self.result.hide()
        self.progress.show()
        self.progress.setRange(0, 0)
        self.status.setText(self.tr("Starting…"))

    def set_status(self, text: str) -> None:
        self.status.setText(text)

    def set_fraction(self, value: object) -> None:
        if value is None:
            self.progress.setRange(0, 0)
        else:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * float(value)))

    def run_finished(self) -> None:
        self.progress.hide()
