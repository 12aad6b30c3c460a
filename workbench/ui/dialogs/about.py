"""Help ▸ About and Help ▸ Keyboard Shortcuts."""

from __future__ import annotations

import platform

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QCoreApplication, qVersion
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from workbench import __version__


def about_text() -> str:
    return QCoreApplication.translate(
        "About",
        "<h3>Ascend Workbench {0}</h3>"
        "<p>A fast native workbench for Huawei Ascend NPU developers: model conversion, dump "
        "configuration, profiling views, baseline and accuracy comparison, driven on a remote "
        "Ascend machine over SSH.</p>"
        "<p>Without Ascend hardware the CANN tools are played by the built-in <b>simulated "
        "toolkit</b>, always labelled as simulated.</p>"
        "<p><small>Python {1} · Qt {2} · PySide6 {3}</small></p>",
    ).format(__version__, platform.python_version(), qVersion(), pyside_version)


class ShortcutsDialog(QDialog):
    def __init__(self, shortcuts: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
        table = QTableWidget(len(shortcuts), 2, self)
        table.setHorizontalHeaderLabels([self.tr("Action"), self.tr("Shortcut")])
        table.verticalHeader().setVisible(False)
        for row, (action, keys) in enumerate(shortcuts):
            table.setItem(row, 0, QTableWidgetItem(action))
            table.setItem(row, 1, QTableWidgetItem(keys))
        table.resizeColumnsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Shortcuts of the main window:"), self))
        layout.addWidget(table)
        layout.addWidget(buttons)
        self.table = table
        self.resize(480, 420)
