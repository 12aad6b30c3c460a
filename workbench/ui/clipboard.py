"""Copy in tables and trees: each view handles the platform's Copy key itself."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeySequence


class CopyKey(QObject):
    """Ctrl+C (the platform's Copy key) on ``view`` runs ``copy``: handled as the view's own key
    (ShortcutOverride accepted), so a window with many tables has no ambiguous Copy shortcut and
    the table with the focus copies."""

    def __init__(self, view, copy) -> None:
        super().__init__(view)
        self.copy = copy
        view.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        kind = event.type()
        if kind in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) and event.matches(
            QKeySequence.StandardKey.Copy
        ):
            event.accept()
            if kind == QEvent.Type.KeyPress:
                self.copy()
            return True
        return False
