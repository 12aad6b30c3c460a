"""The two pages the Cluster document and its comparison tabs show while there is no result: the
progress of the work (title, status line, busy bar, Cancel) and a message (an error, a cancel)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from workbench.ui.elided import ElidedLabel


@dataclass
class ProgressPage:
    page: QWidget
    title: ElidedLabel
    status: ElidedLabel
    bar: QProgressBar
    cancel: QPushButton


def progress_page(parent: QWidget, on_cancel: Callable[[], None], cancel_name: str) -> ProgressPage:
    page = QWidget(parent)
    title = ElidedLabel("", page)
    title.setStyleSheet("font-size: 14pt; font-weight: 600;")
    status = ElidedLabel(QCoreApplication.translate("ClusterView", "Starting…"), page)
    bar = QProgressBar(page)
    bar.setRange(0, 0)
    cancel = QPushButton(QCoreApplication.translate("ClusterView", "Cancel"), page)
    cancel.setObjectName(cancel_name)
    cancel.clicked.connect(lambda: on_cancel())
    row = QHBoxLayout()
    row.addWidget(bar, 1)
    row.addWidget(cancel)
    box = QVBoxLayout(page)
    box.addWidget(title)
    box.addWidget(status)
    box.addLayout(row)
    box.addStretch(1)
    return ProgressPage(page, title, status, bar, cancel)


def message_page(parent: QWidget, name: str) -> tuple[QWidget, QLabel]:
    page = QWidget(parent)
    message = QLabel(page)
    message.setObjectName(name)
    message.setWordWrap(True)
    message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    message.setAlignment(Qt.AlignmentFlag.AlignCenter)
    QVBoxLayout(page).addWidget(message)
    return page, message
