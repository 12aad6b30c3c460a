"""Tasks dock: one row per job with title, progress bar, status text and a Cancel button.

Finished jobs stay listed (with their outcome) until cleared, so a user can see what ran.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.ui.bridge import QtTask


class TasksPanel(QWidget):
    COL_TITLE, COL_PROGRESS, COL_STATUS, COL_ACTION = range(4)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("TasksPanel")
        self.tree = QTreeWidget(self)
        self.tree.setRootIsDecorated(False)
        self.tree.setHeaderLabels([self.tr("Job"), self.tr("Progress"), self.tr("Status"), ""])
        header = self.tree.header()
        header.setSectionResizeMode(self.COL_TITLE, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(self.COL_STATUS, QHeaderView.ResizeMode.Stretch)
        self.tree.setColumnWidth(self.COL_TITLE, 220)
        self.tree.setColumnWidth(self.COL_PROGRESS, 140)
        self.clear_button = QPushButton(self.tr("Clear Finished"), self)
        self.clear_button.clicked.connect(self.clear_finished)
        bar = QHBoxLayout()
        bar.addStretch(1)
        bar.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        layout.addLayout(bar)
        self._rows: dict[int, tuple[QTreeWidgetItem, QtTask]] = {}

    def follow(self, task: QtTask) -> None:
        item = QTreeWidgetItem([task.title, "", self.tr("Waiting…"), ""])
        item.setToolTip(self.COL_TITLE, task.title)
        self.tree.addTopLevelItem(item)
        bar = QProgressBar()
        bar.setRange(0, 0)  # busy until the job reports a fraction
        bar.setTextVisible(True)
        self.tree.setItemWidget(item, self.COL_PROGRESS, bar)
        cancel = QPushButton(self.tr("Cancel"))
        cancel.setToolTip(self.tr("Stop this job (a remote command is killed on the host)"))
        cancel.clicked.connect(task.cancel)
        cancel.clicked.connect(lambda: cancel.setEnabled(False))
        self.tree.setItemWidget(item, self.COL_ACTION, cancel)
        self._rows[task.handle.task_id] = (item, task)
        task.status_changed.connect(lambda text: item.setText(self.COL_STATUS, text))
        task.progress_changed.connect(lambda value: self._set_fraction(bar, value))
        task.succeeded.connect(lambda _r: self._done(item, bar, cancel, self.tr("Done"), 1.0))
        task.failed.connect(lambda msg, _e: self._done(item, bar, cancel, self.tr("Failed: {0}").format(msg), None))
        task.cancelled.connect(lambda: self._done(item, bar, cancel, self.tr("Cancelled"), None))

    @staticmethod
    def _set_fraction(bar: QProgressBar, value: object) -> None:
        if value is None:
            bar.setRange(0, 0)
        else:
            bar.setRange(0, 1000)
            bar.setValue(int(float(value) * 1000))  # type: ignore[arg-type]

    def _done(
        self, item: QTreeWidgetItem, bar: QProgressBar, cancel: QPushButton, text: str, fraction: float | None
    ) -> None:
        item.setText(self.COL_STATUS, text)
        item.setToolTip(self.COL_STATUS, text)
        bar.setRange(0, 1000)
        bar.setValue(1000 if fraction == 1.0 else bar.value())
        cancel.setEnabled(False)
        cancel.setVisible(False)
        if fraction is None:
            item.setForeground(self.COL_STATUS, Qt.GlobalColor.darkRed)

    def row_count(self) -> int:
        return self.tree.topLevelItemCount()

    def status_of(self, task_id: int) -> str:
        return self._rows[task_id][0].text(self.COL_STATUS)

    def clear_finished(self) -> None:
        for task_id, (item, task) in list(self._rows.items()):
            if task.state.finished:
                self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(item))
                del self._rows[task_id]
