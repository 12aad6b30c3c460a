"""The Query tab: an SQL editor, Run / Stop, the results, Export, Show on Timeline, examples."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from workbench.core.profiling import query
from workbench.ui.flowlayout import flow_widget
from workbench.ui.report.query.editor import SqlEditor
from workbench.ui.report.query.model import ResultModel

MAX_ROWS = 5_000_000  # rows a result keeps in the window (all are counted)

# core's sentences (query.EXAMPLES titles, query.ERROR_TEMPLATES), for pyside6-lupdate; a test checks
# that the lists match core's.
CORE_TEXTS = (
    QT_TRANSLATE_NOOP("QueryPane", "Slowest 20 OPs"),
    QT_TRANSLATE_NOOP("QueryPane", "OPs on stream {stream} after step {step} slower than 10 µs"),
    QT_TRANSLATE_NOOP("QueryPane", "Time per task type"),
    QT_TRANSLATE_NOOP("QueryPane", "Longest slices per lane"),
    QT_TRANSLATE_NOOP("QueryPane", "Busiest slice names"),
    QT_TRANSLATE_NOOP("QueryPane", "the query is empty: write a SELECT statement"),
    QT_TRANSLATE_NOOP("QueryPane", "one statement at a time: remove what follows the first ';'"),
    QT_TRANSLATE_NOOP(
        "QueryPane", "only SELECT queries run over a report; this is a {0} statement (the report is read-only)"
    ),
    QT_TRANSLATE_NOOP(
        "QueryPane", "reading or writing files is not allowed in a report query (the report is read-only)"
    ),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("QueryPane", text)


def error_text(message: str, exc: object) -> str:
    """A failed query as the message area shows it: ``Line L, column C: what``, translated where
    the sentence is the workbench's own."""
    if not isinstance(exc, query.QueryError):
        return message
    detail = _tr(exc.template).format(*exc.fields) if exc.template else exc.detail
    if exc.line is None or exc.column is None:
        return detail
    return QCoreApplication.translate("QueryPane", "Line {0}, column {1}: {2}").format(exc.line, exc.column, detail)


class QueryPane(QWidget):
    """SQL over ``report``; queries run on ``context.bridge``. ``show_slice(index)`` asks the
    document to select a timeline slice."""

    show_slice = Signal(int)

    def __init__(self, context, report, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("QueryPane")
        self.context, self.report = context, report
        self.session: query.QuerySession | None = None
        self.task: Any = None
        self._opening: Any = None
        self._pending: str | None = None
        self.result: query.QueryResult | None = None

        self.examples = QComboBox(self)
        self.examples.addItem(self.tr("Examples…"), None)
        for title, fields, sql in query.example_queries(report):
            self.examples.addItem(_tr(title).format(**fields), sql)
        self.examples.setToolTip(self.tr("Put an example query into the editor"))
        self.examples.activated.connect(self._example_chosen)
        self.run_button = QPushButton(self.tr("Run"), self)
        self.run_button.setToolTip(self.tr("Run the query (Ctrl+Enter)"))
        self.run_button.clicked.connect(lambda: self.run())
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setToolTip(self.tr("Stop the running query"))
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(lambda: self.stop())
        self.show_button = QPushButton(self.tr("Show on Timeline"), self)
        self.show_button.setToolTip(self.tr("Select the slice of the chosen row in the timeline"))
        self.show_button.setEnabled(False)
        self.show_button.clicked.connect(lambda: self.show_on_timeline())
        self.export_button = QPushButton(self.tr("Export…"), self)
        self.export_button.setToolTip(self.tr("Export every row of the result to CSV or Excel"))
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(lambda: self._export_dialog())
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(120)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.count = QLabel(self)
        # the controls wrap onto a second row when the document is narrow: a bar never widens the window
        bar = flow_widget(
            self,
            [
                self.examples,
                self.run_button,
                self.stop_button,
                self.progress,
                self.count,
                self.show_button,
                self.export_button,
            ],
            trailing=3,
        )

        self.editor = SqlEditor(self)
        self.editor.setPlaceholderText(
            self.tr("SELECT name, dur_ns FROM ops ORDER BY dur_ns DESC LIMIT 20   — Ctrl+Enter runs")
        )
        self.editor.run_requested.connect(lambda: self.run())
        self.model = ResultModel(self)
        self.view = QTableView(self)
        self.view.setObjectName("queryResults")
        self.view.setModel(self.model)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.selectionModel().selectionChanged.connect(lambda *_: self._selection_changed())
        self.view.doubleClicked.connect(lambda *_: self.show_on_timeline())
        self.message = QLabel(self)
        self.message.setObjectName("queryMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.message.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 8)
        self.message.setStyleSheet("padding:2px 4px;")

        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.editor)
        split.addWidget(self.view)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        split.setSizes([160, 480])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(bar)
        layout.addWidget(split, 1)
        layout.addWidget(self.message)
        self._say(self.tr("Tables: {0}. Ctrl+Space completes names.").format(self.tr("preparing…")))

    # --- the session -------------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._open_session()

    def _open_session(self) -> None:
        if self.session is not None or self._opening is not None:
            return
        self._opening = self.context.bridge.start(
            query.open_session, self.report, title=self.tr("Prepare SQL tables"), kind="query"
        )
        self._opening.succeeded.connect(self._session_ready)
        self._opening.failed.connect(self._session_failed)

    def _session_ready(self, session: query.QuerySession) -> None:
        self._opening = None
        self.session = session
        self.editor.set_names(session.completions())
        if self.result is None and self.task is None:
            self._say(self.tr("Tables: {0}. Ctrl+Space completes names.").format(", ".join(session.tables)))
        if self._pending is not None:
            sql, self._pending = self._pending, None
            self.run(sql)

    def _session_failed(self, message: str, _exc: object) -> None:
        self._opening = None
        self._pending = None
        self._set_running(False)
        self._say(message, error=True)

    # --- running -------------------------------------------------------------------------------------
    def run(self, sql: str | None = None) -> None:
        """Run ``sql`` (default: the editor's text) off the GUI thread."""
        if self.task is not None:
            return
        sql = self.editor.toPlainText() if sql is None else sql
        self._set_running(True)
        if self.session is None:
            self._pending = sql
            self._open_session()
            return
        self._say(self.tr("Running…"))
        self.task = self.context.bridge.start(
            query.run_query, self.session, sql, title=self.tr("SQL query"), kind="query", max_rows=MAX_ROWS
        )
        self.task.succeeded.connect(self._done)
        self.task.failed.connect(self._failed)
        self.task.cancelled.connect(self._cancelled)
        self.task.finished.connect(self._finished)

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
        elif self._pending is not None:
            self._pending = None
            self._set_running(False)
            self._say(self.tr("Query stopped."))

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        self.progress.setVisible(running)

    def _done(self, result: query.QueryResult) -> None:
        self.result = result
        self.model.set_table(result.table)
        if result.num_rows <= 2000:
            self.view.resizeColumnsToContents()
        for c in range(self.model.columnCount()):
            if self.view.columnWidth(c) > 320:
                self.view.setColumnWidth(c, 320)
        seconds = f"{result.elapsed_s:.2f}"
        if result.truncated:
            text = self.tr("{0} of {1} rows kept ({2} s): add a LIMIT or narrow the query.").format(
                f"{result.num_rows:,}", f"{result.total_rows:,}", seconds
            )
        else:
            text = self.tr("{0} rows ({1} s)").format(f"{result.num_rows:,}", seconds)
        self.count.setText(self.tr("{0} rows").format(f"{result.num_rows:,}"))
        self._say(text)
        self.export_button.setEnabled(True)
        self._selection_changed()

    def _failed(self, message: str, exc: object) -> None:
        self._say(error_text(message, exc), error=True)
        if isinstance(exc, query.QueryError) and exc.line is not None and exc.column is not None:
            self._place_cursor(exc.line, exc.column)

    def _cancelled(self) -> None:
        self._say(self.tr("Query stopped."))

    def _finished(self) -> None:
        self.task = None
        self._set_running(False)

    def _place_cursor(self, line: int, column: int) -> None:
        block = self.editor.document().findBlockByNumber(line - 1)
        if not block.isValid():
            return
        cursor = QTextCursor(block)
        cursor.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.MoveAnchor, column - 1)
        self.editor.setTextCursor(cursor)

    def _say(self, text: str, error: bool = False) -> None:
        self.message.setText(text)
        self.message.setProperty("error", error)
        self.message.setStyleSheet("padding:2px 4px;" + ("color:#b00020;" if error else ""))

    # --- examples, rows --------------------------------------------------------------------------------
    def _example_chosen(self, index: int) -> None:
        sql = self.examples.itemData(index)
        if sql:
            self.editor.setPlainText(sql)

    def current_row(self) -> dict[str, Any] | None:
        rows = self.view.selectionModel().selectedRows()
        if not rows and self.view.currentIndex().isValid():
            rows = [self.view.currentIndex()]
        return self.model.row(rows[0].row()) if rows else None

    def _selection_changed(self) -> None:
        row = self.current_row()
        self.show_button.setEnabled(row is not None and query.slice_of_row(self.report, row) is not None)

    def show_on_timeline(self) -> None:
        row = self.current_row()
        index = query.slice_of_row(self.report, row) if row is not None else None
        if index is None:
            self._say(self.tr("This row holds no slice of the timeline (it needs id, or lane / stream and start_ns)."))
            return
        self.show_slice.emit(index)

    # --- export ------------------------------------------------------------------------------------------
    def _export_dialog(self) -> None:
        if self.result is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Export Query Result"),
            "query.xlsx",
            self.tr("Excel workbook (*.xlsx);;CSV (*.csv)"),
            options=QFileDialog.Option.DontUseNativeDialog,
        )
        if not path:
            return
        task = self.context.bridge.start(
            query.export_result,
            self.result,
            path,
            self.report.source,
            title=self.tr("Export query result to {0}").format(path),
            kind="export",
        )
        rows = f"{self.result.num_rows:,}"
        task.succeeded.connect(lambda out: self._say(self.tr("Exported {0} rows to {1}").format(rows, out)))
        task.failed.connect(lambda message, _exc: self._say(message, error=True))

    def shutdown(self) -> None:
        """Stop a running query (the document closes)."""
        if self.task is not None:
            self.task.cancel()
