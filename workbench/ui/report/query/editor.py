"""The SQL editor: a plain text edit with completion of table and column names (and keywords);
Ctrl+Enter asks to run."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QFontDatabase, QKeyEvent, QTextCursor
from PySide6.QtWidgets import QCompleter, QPlainTextEdit, QWidget

KEYWORDS = (
    "SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY", "HAVING", "LIMIT", "JOIN", "LEFT JOIN", "ON",
    "AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "ILIKE", "AS", "DISTINCT", "COUNT", "SUM", "AVG", "MIN",
    "MAX", "CASE", "WHEN", "THEN", "ELSE", "END", "WITH", "UNION ALL", "DESC", "ASC", "QUALIFY", "OVER",
    "PARTITION BY", "IS NULL", "IS NOT NULL",
)  # fmt: skip
_CLOSE_POPUP = (Qt.Key.Key_Enter, Qt.Key.Key_Return, Qt.Key.Key_Escape, Qt.Key.Key_Tab, Qt.Key.Key_Backtab)


class SqlEditor(QPlainTextEdit):
    run_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sqlEditor")
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setTabChangesFocus(False)
        self.words = QStringListModel(list(KEYWORDS), self)
        self.completer = QCompleter(self.words, self)
        self.completer.setWidget(self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer.setModelSorting(QCompleter.ModelSorting.CaseInsensitivelySortedModel)
        self.completer.activated.connect(self.insert_completion)

    def set_names(self, names: list[str]) -> None:
        """The table and column names to complete (with the SQL keywords)."""
        self.words.setStringList(sorted(set(names) | set(KEYWORDS), key=str.lower))

    def _prefix(self) -> str:
        cursor = self.textCursor()
        cursor.select(QTextCursor.SelectionType.WordUnderCursor)
        word = cursor.selectedText()
        # only the part left of the cursor counts
        left = self.textCursor().positionInBlock() - (cursor.selectionStart() - cursor.block().position())
        return word[: max(left, 0)] if word and (word[0].isalnum() or word[0] == "_") else ""

    def insert_completion(self, text: str) -> None:
        cursor = self.textCursor()
        prefix = self.completer.completionPrefix()
        cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, len(prefix))
        cursor.insertText(text)
        self.setTextCursor(cursor)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        popup = self.completer.popup()
        if popup is None:  # never: a completer always has its list
            super().keyPressEvent(event)
            return
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if ctrl and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            popup.hide()
            self.run_requested.emit()
            return
        if popup.isVisible() and event.key() in _CLOSE_POPUP:
            event.ignore()  # the completer takes it
            return
        forced = ctrl and event.key() == Qt.Key.Key_Space
        if not forced:
            super().keyPressEvent(event)
        prefix = self._prefix()
        typed = event.text()[-1:]
        if not forced and (len(prefix) < 2 or not (typed.isalnum() or typed == "_")):
            popup.hide()
            return
        if prefix != self.completer.completionPrefix():
            self.completer.setCompletionPrefix(prefix)
            popup.setCurrentIndex(self.completer.completionModel().index(0, 0))
        if self.completer.completionCount() == 0:
            popup.hide()
            return
        rect = self.cursorRect()
        rect.setWidth(popup.sizeHintForColumn(0) + popup.verticalScrollBar().sizeHint().width() + 8)
        self.completer.complete(rect)
