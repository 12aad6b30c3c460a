"""Output dock: one tab per job (running or finished) with its streamed text.

Lines come from a task's ``partial_result``: a ``str`` or a ``(stream, line)`` tuple where stream
is ``"stdout"`` or ``"stderr"``. A line is coloured by the level it states (:mod:`.levels`: msaccucmp's
``- [INFO]``, plog's ``[ERROR]``, ATC's ``E10007:``…; errors red, warnings amber, info plain, debug grey);
a line that states none by its stream (stderr red). The search bar finds text in the current
tab (next / previous, with a match count); Save writes the tab's text to a file atomically.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QKeySequence, QShortcut, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.fsutil import atomic_write_text
from workbench.ui.bridge import QtTask
from workbench.ui.panels.output import levels

MAX_BLOCKS = 200_000  # keep memory bounded for chatty jobs
ERROR_COLOUR, WARNING_COLOUR, DEBUG_COLOUR = "#c0392b", "#b9770e", "#7f8c8d"


class OutputPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("OutputPanel")
        self.tabs = QTabWidget(self)
        self.tabs.setTabsClosable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.tabCloseRequested.connect(self._close_tab)
        self.tabs.currentChanged.connect(lambda _i: self._update_count())
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("Search output"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(lambda _t: self.find_next(restart=True))
        self.search.returnPressed.connect(self.find_next)
        self.prev_button = QToolButton(self)
        self.prev_button.setText("▲")
        self.prev_button.setToolTip(self.tr("Previous match (Shift+F3)"))
        self.prev_button.clicked.connect(self.find_previous)
        self.next_button = QToolButton(self)
        self.next_button.setText("▼")
        self.next_button.setToolTip(self.tr("Next match (F3)"))
        self.next_button.clicked.connect(lambda: self.find_next())
        self.count_label = QLabel(self)
        self.save_button = QToolButton(self)
        self.save_button.setText(self.tr("Save…"))
        self.save_button.setToolTip(self.tr("Save this job's output to a file"))
        self.save_button.clicked.connect(self._save_dialog)
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 2)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.prev_button)
        bar.addWidget(self.next_button)
        bar.addWidget(self.count_label)
        bar.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.tabs)
        QShortcut(QKeySequence(Qt.Key.Key_F3), self, self.find_next)
        QShortcut(QKeySequence("Shift+F3"), self, self.find_previous)
        self._err_format = QTextCharFormat()
        self._err_format.setForeground(QColor(ERROR_COLOUR))
        self._formats = {levels.ERROR: self._err_format, levels.INFO: QTextCharFormat()}
        for level, colour in ((levels.WARNING, WARNING_COLOUR), (levels.DEBUG, DEBUG_COLOUR)):
            self._formats[level] = QTextCharFormat()
            self._formats[level].setForeground(QColor(colour))
        self._last_level: dict[QPlainTextEdit, str | None] = {}  # for continuation lines
        self._views: dict[int, QPlainTextEdit] = {}
        self._connections: dict[QPlainTextEdit, list[tuple[Any, Callable[..., None]]]] = {}
        self._running: set[QPlainTextEdit] = set()  # views of jobs still running (never taken over)
        # Chatty jobs send thousands of lines a second: buffer them and insert in batches.
        self._pending: dict[QPlainTextEdit, list[tuple[str, str]]] = {}
        self._flush_timer = QTimer(self)
        self._flush_timer.setInterval(40)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.timeout.connect(self.flush)

    # --- jobs ------------------------------------------------------------------------------------
    def follow(self, task: QtTask) -> QPlainTextEdit:
        """Give ``task`` a tab and stream its text into it. A job run again (the same title, e.g. the
        next SQL query of a report) takes over the tab of its finished run instead of adding one."""
        view = self._finished_tab(task.title)
        if view is None:
            view = self._new_view()
            index = self.tabs.addTab(view, task.title)
            self.tabs.setTabToolTip(index, task.title)
        else:
            self._disconnect(view)
            self._pending.pop(view, None)
            self._last_level.pop(view, None)
            view.clear()
            index = self.tabs.indexOf(view)
        self.tabs.setCurrentIndex(index)
        self._views[task.handle.task_id] = view
        self._running.add(view)
        task.finished.connect(lambda v=view: self._running.discard(v))
        slots = [
            (task.partial_result, lambda item, v=view: self.append(v, item)),
            (task.status_changed, lambda text, v=view: self.append(v, ("status", text))),
            (task.succeeded, lambda _r, v=view: self.append(v, ("status", self.tr("Finished.")))),
            (task.failed, lambda msg, _e, v=view: self.append(v, ("stderr", self.tr("Failed: {0}").format(msg)))),
            (task.cancelled, lambda v=view: self.append(v, ("stderr", self.tr("Cancelled.")))),
        ]
        for signal, slot in slots:
            signal.connect(slot)
        # closing the tab of a running job disconnects these: no line is queued for a deleted view
        self._connections[view] = slots
        return view

    def _disconnect(self, view: QPlainTextEdit) -> None:
        for signal, slot in self._connections.pop(view, []):
            signal.disconnect(slot)

    def _finished_tab(self, title: str) -> QPlainTextEdit | None:
        for i in range(self.tabs.count()):
            view = self.tabs.widget(i)
            if self.tabs.tabText(i) == title and view in self._connections and view not in self._running:
                return view  # type: ignore[return-value]
        return None

    def add_text_tab(self, title: str, text: str) -> QPlainTextEdit:
        view = self._new_view()
        view.setPlainText(text)
        self.tabs.setCurrentIndex(self.tabs.addTab(view, title))
        return view

    def _new_view(self) -> QPlainTextEdit:
        view = QPlainTextEdit(self)
        view.setReadOnly(True)
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        view.setMaximumBlockCount(MAX_BLOCKS)
        view.setFont(self._mono())
        return view

    @staticmethod
    def _mono():
        from PySide6.QtGui import QFontDatabase

        return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

    def append(self, view: QPlainTextEdit, item: object) -> None:
        """Queue one line for ``view`` (inserted with the next batch, within 40 ms). A partial result
        that is neither a line nor a (stream, line) pair shows only when its class says how (its own
        ``__str__``, e.g. a report preview); other objects are for the document, not the log (their
        repr is no line a user should read)."""
        if not isinstance(item, (str, tuple)) and type(item).__str__ is object.__str__:
            return
        stream, line = item if isinstance(item, tuple) and len(item) == 2 else ("stdout", item)
        self._pending.setdefault(view, []).append((str(stream), str(line).rstrip("\n")))
        if stream != "stdout" or not self._flush_timer.isActive():
            # status and errors show at once; ordinary lines wait for the batch timer
            if stream != "stdout":
                self.flush()
            else:
                self._flush_timer.start()

    def flush(self) -> None:
        """Insert every queued line, one edit block per view."""
        pending, self._pending = self._pending, {}
        status_fmt = QTextCharFormat()
        status_fmt.setForeground(QColor("#2e86c1"))
        plain = QTextCharFormat()
        for view, lines in pending.items():
            if view not in self._views.values() and self.tabs.indexOf(view) < 0:
                continue  # its tab was closed meanwhile
            bar = view.verticalScrollBar()
            at_end = bar.value() >= bar.maximum() - 2
            cursor = QTextCursor(view.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.beginEditBlock()
            previous = self._last_level.get(view)
            for stream, text in lines:
                if not view.document().isEmpty():
                    cursor.insertBlock()
                if stream == "status":
                    cursor.insertText(f"» {text}", status_fmt)
                    continue
                previous = levels.classify(text, previous)
                if previous is not None:
                    cursor.insertText(text, self._formats[previous])
                else:
                    cursor.insertText(text, self._err_format if stream == "stderr" else plain)
            self._last_level[view] = previous
            cursor.endEditBlock()
            if at_end:
                bar.setValue(bar.maximum())
        if self.search.text():
            self._update_count()

    def view_for(self, task_id: int) -> QPlainTextEdit | None:
        self.flush()
        return self._views.get(task_id)

    def _close_tab(self, index: int) -> None:
        widget = self.tabs.widget(index)
        self.tabs.removeTab(index)
        self._views = {k: v for k, v in self._views.items() if v is not widget}
        if isinstance(widget, QPlainTextEdit):
            # A job still running keeps reporting: its lines must not reach the deleted view (a
            # flush would fail on it and drop the lines of every other tab in that batch).
            self._disconnect(widget)
            self._running.discard(widget)
            self._pending.pop(widget, None)
            self._last_level.pop(widget, None)
        widget.deleteLater()

    # --- search ------------------------------------------------------------------------------------
    def current_view(self) -> QPlainTextEdit | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, QPlainTextEdit) else None

    def match_count(self) -> int:
        if self._pending:
            self.flush()
        view, needle = self.current_view(), self.search.text()
        if view is None or not needle:
            return 0
        return view.toPlainText().lower().count(needle.lower())

    def _update_count(self) -> None:
        needle = self.search.text()
        self.count_label.setText(self.tr("{0} matches").format(self.match_count()) if needle else "")

    def find_next(self, restart: bool = False) -> bool:
        return self._find(QTextDocument.FindFlag(0), restart)

    def find_previous(self) -> bool:
        return self._find(QTextDocument.FindFlag.FindBackward, False)

    def _find(self, flags: QTextDocument.FindFlag, restart: bool) -> bool:
        self._update_count()
        view, needle = self.current_view(), self.search.text()
        if view is None or not needle:
            return False
        if restart:
            view.moveCursor(QTextCursor.MoveOperation.Start)
        if view.find(needle, flags):
            return True
        # wrap around
        view.moveCursor(
            QTextCursor.MoveOperation.End
            if flags & QTextDocument.FindFlag.FindBackward
            else QTextCursor.MoveOperation.Start
        )
        return view.find(needle, flags)

    # --- save ----------------------------------------------------------------------------------------
    def save_current(self, path: str) -> None:
        self.flush()
        view = self.current_view()
        if view is not None:
            atomic_write_text(path, view.toPlainText() + "\n")

    def _save_dialog(self) -> None:
        if self.current_view() is None:
            return
        name = self.tabs.tabText(self.tabs.currentIndex()).replace("/", "_") + ".log"
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save Output"), name, self.tr("Log files (*.log *.txt)"))
        if path:
            try:
                self.save_current(path)
            except OSError as exc:
                QMessageBox.warning(self, self.tr("Save Output"), self.tr("Cannot write {0}: {1}").format(path, exc))
