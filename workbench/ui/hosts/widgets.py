"""Pieces the host and profiler dialogs share: a message area that never moves its neighbours and
the one line a failed task shows."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSizePolicy, QWidget

# "pkg.module.SomeError: " (or the whole text when the error has no message)
_CLASS_PREFIX = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?::\s+|$)")


def task_error(message: str, exc: object) -> str:
    """What a failed task shows the user: the error's own message (the str() of core's errors is
    written for the user and names the file, field or host), never ``module.Class: …``."""
    if isinstance(exc, BaseException):
        text = str(exc).strip()
        if text:
            return text
    text = _CLASS_PREFIX.sub("", (message or "").strip(), count=1).strip()
    return text or QCoreApplication.translate("TaskError", "The job failed without saying why.")


class MessageArea(QScrollArea):
    """A wrapped, selectable message (an error, a host's state) of a fixed height: ``lines`` lines
    are reserved whether or not there is text, and a longer text scrolls inside them, so the
    widgets around it never move when a message appears, changes or goes away. Reads like a
    QLabel: ``text()``, ``setText()``, ``clear()``."""

    def __init__(self, parent: QWidget | None = None, lines: int = 3) -> None:
        super().__init__(parent)
        self._lines = lines
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setWidget(self.label)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for w in (self, self.viewport(), self.label):
            w.setAutoFillBackground(False)
        self.viewport().setStyleSheet("background: transparent;")
        self._reserve()

    def _reserve(self) -> None:
        self.setFixedHeight(self.fontMetrics().lineSpacing() * self._lines + 2 * self.frameWidth() + 2)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (event.Type.FontChange, event.Type.StyleChange):
            self._reserve()

    def sizeHint(self) -> QSize:
        return QSize(120, self.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(60, self.height())

    def text(self) -> str:
        return self.label.text()

    def setText(self, text: str) -> None:  # noqa: N802 - QLabel's API
        self.label.setText(text)
        self.verticalScrollBar().setValue(0)

    def clear(self) -> None:
        self.label.clear()
