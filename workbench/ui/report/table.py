"""A fast table over a pandas DataFrame: sorting and filtering in numpy, not per-row Python.

``FrameTable`` = filter box + row count + Copy + Export (CSV / XLSX) + the table view. A million
rows scroll smoothly because ``data()`` only indexes numpy arrays for the visible cells.
Columns whose name ends in ``ratio`` (0..1) can draw inline bars; rows can be highlighted by a
boolean mask (e.g. ``memory_bound > 1``) and marked by the advisor (``set_marks``: badge, tint,
tooltip). Headers are words, translated (``column_header``; the column key is the header's
tooltip); Ctrl+C copies exactly the selected cells (``copy_cells``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QRect,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from workbench.core.profiling import views
from workbench.core.profiling.tableio import write_table
from workbench.core.profiling.tables.decimals import DecimalArray
from workbench.ui.clipboard import CopyKey


def column_header(column: str) -> str:
    """The translated words a header shows for a column key (core ``views.column_label``)."""
    label, core = views.column_label(column)
    text = QCoreApplication.translate("Column", label)
    return QCoreApplication.translate("Column", core).format(text) if core else text


def header_tooltip(column: str) -> str:
    """A header's tooltip: the column's key (as the source file and an export name it) and how to
    sort or select it."""
    return QCoreApplication.translate("Column", "{0}\nClick: sort by this column · Ctrl+click: select it").format(
        column
    )


class ColumnPicker(QObject):
    """Ctrl+click on a header section selects that whole column instead of sorting by it
    (Ctrl+Shift+click adds it to the selection); a plain click still sorts. Whole columns copy
    with their header."""

    def __init__(self, view: QTableView) -> None:
        super().__init__(view)
        self.view = view
        self._swallow = False
        view.horizontalHeader().viewport().installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        kind = event.type()
        pressed = kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick)
        ctrl = pressed and bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if ctrl and event.button() == Qt.MouseButton.LeftButton:
            column = self.view.horizontalHeader().logicalIndexAt(event.position().toPoint())
            if column >= 0:
                self.select(column, add=bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))
            self._swallow = True
            return True
        if kind == QEvent.Type.MouseButtonRelease and self._swallow:
            self._swallow = False
            return True
        return False

    def select(self, column: int, add: bool = False) -> None:
        model = self.view.model()
        rows = model.rowCount()
        if not rows:
            return
        top, bottom = model.index(0, column), model.index(rows - 1, column)
        how = QItemSelectionModel.SelectionFlag.Select if add else QItemSelectionModel.SelectionFlag.ClearAndSelect
        self.view.selectionModel().select(QItemSelection(top, bottom), how | QItemSelectionModel.SelectionFlag.Columns)
        self.view.setFocus()


def copy_cells(view: QTableView, cell_text=None) -> str:
    """The selected cells of ``view`` as tab/newline-separated text, put on the clipboard: one
    line per selected row, one field per selected column (a cell of the block that is not
    selected stays empty). The header line comes first only when whole columns are selected.
    ``cell_text(row, column)`` gives a cell's text faster than ``model.data``."""
    model = view.model()
    selection = view.selectionModel().selection()
    rows: set[int] = set()
    cols: set[int] = set()
    for r in selection:
        rows.update(range(r.top(), r.bottom() + 1))
        cols.update(range(r.left(), r.right() + 1))
    if not rows:
        return ""
    row_list, col_list = sorted(rows), sorted(cols)
    text_of = cell_text or (lambda row, col: str(model.data(model.index(row, col)) or ""))
    rectangle = len(selection) == 1
    lines = []
    whole = all(view.selectionModel().isColumnSelected(c, QModelIndex()) for c in col_list)
    if whole:
        lines.append(
            "\t".join(
                str(model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)) for c in col_list
            )
        )
    for row in row_list:
        if rectangle:
            fields = [text_of(row, c) for c in col_list]
        else:
            fields = [text_of(row, c) if selection.contains(model.index(row, c)) else "" for c in col_list]
        lines.append("\t".join(fields))
    text = "\n".join(lines)
    QGuiApplication.clipboard().setText(text)
    return text


def _fmt(value) -> str:
    if value is None:
        return "N/A"
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return "N/A"
        if float(value).is_integer() and abs(value) < 1e15:
            return f"{int(value)}"
        return f"{value:.3f}"
    return str(value)


MARK_BACKGROUND = QColor(255, 236, 179)  # a row the advisor has a finding about
MARK_ICONS: list[QIcon] = []


def mark_icon() -> QIcon:
    """The advisor's badge (an orange flag) in a marked row's first cell."""
    if not MARK_ICONS:
        pixmap = QPixmap(12, 12)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(230, 126, 34))
        painter.drawEllipse(1, 1, 10, 10)
        painter.setPen(QColor(255, 255, 255))
        painter.drawLine(6, 3, 6, 7)
        painter.drawPoint(6, 9)
        painter.end()
        MARK_ICONS.append(QIcon(pixmap))
    return MARK_ICONS[0]


class _MaskedInts:
    """A nullable integer column's cells: exact int64 (pandas would give float64 for a column with a
    missing value: ns timestamps lose their last digits) and None where missing."""

    def __init__(self, column: pd.Series) -> None:
        self.values = column.to_numpy(dtype=np.int64, na_value=0)
        self.missing = column.isna().to_numpy()

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, rows):
        if np.ndim(rows) == 0:
            return None if self.missing[rows] else self.values[rows]
        return pd.arrays.IntegerArray(self.values[rows], self.missing[rows])  # sortable, missing last


class _Categories:
    """A categorical column's cells from its codes (no object array of a million rows): the
    category, NaN where missing (what ``to_numpy()`` gives)."""

    def __init__(self, column: pd.Series) -> None:
        self.codes = column.cat.codes.to_numpy()
        self.names = np.append(np.asarray(column.cat.categories, dtype=object), np.nan)  # code -1: the last

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, rows):
        return self.names[self.codes[rows]]

    def order(self, rows: np.ndarray, ascending: bool) -> np.ndarray:
        """``rows`` sorted by their text (stable), missing last either way: one rank per category."""
        texts = np.asarray([str(n) for n in self.names[:-1]], dtype=object)
        rank = np.empty(len(self.names), dtype=np.int64)
        rank[np.argsort(texts, kind="stable")] = np.arange(len(texts))
        if not ascending:
            rank[:-1] = len(texts) - 1 - rank[:-1]
        rank[-1] = len(texts)  # missing (code -1)
        return rows[np.argsort(rank[self.codes[rows]], kind="stable")]

    def matching(self, text: str) -> np.ndarray:
        """Per row: its text contains ``text`` (case-insensitive); each category tested once."""
        texts = pd.Index([str(n) for n in self.names[:-1]], dtype=object)
        hit = np.append(np.asarray(texts.str.contains(text, case=False, regex=False), dtype=bool), False)
        return hit[self.codes]  # code -1 (missing): the last, no match


def _cells(column: pd.Series):
    """What :meth:`FrameModel.raw` indexes for one column."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return _Categories(column)
    if isinstance(column.dtype, pd.api.extensions.ExtensionDtype) and pd.api.types.is_integer_dtype(column.dtype):
        if column.hasnans:
            return _MaskedInts(column)
        return column.to_numpy(dtype=np.int64)
    if isinstance(column.array, DecimalArray):  # PMU metrics: indexed as they are held (no float64 copy)
        return column.array
    return column.to_numpy()


class FrameModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.frame = pd.DataFrame()
        self.columns: list[str] = []
        self._arrays: list[np.ndarray] = []
        self.view = np.empty(0, dtype=np.int64)  # row order after sort + filter
        self.highlight: np.ndarray | None = None
        self.row_colors: np.ndarray | None = None  # object array of QColor | None per source row
        self.headers: list[str] | None = None  # display names (translated) of the columns
        self.bar_columns: set[int] = set()
        self.marks: dict[int, list[str]] | None = None  # source row -> the advisor findings about it

    def set_marks(self, marks: dict[int, list[str]] | None) -> None:
        """Mark rows (source row -> the titles of the advisor's findings about it): a tinted row, a
        badge in the first column, the titles in every cell's tooltip."""
        self.marks = marks or None
        if len(self.view) and self.columns:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.view) - 1, len(self.columns) - 1))

    def mark_of(self, row: int) -> list[str] | None:
        return self.marks.get(int(self.view[row])) if self.marks else None

    def set_frame(
        self,
        frame: pd.DataFrame,
        highlight: np.ndarray | None = None,
        row_colors: np.ndarray | None = None,
        headers: list[str] | None = None,
    ) -> None:
        self.beginResetModel()
        self.marks = None  # they were about the rows of the old frame
        self.row_colors = row_colors
        self.headers = headers
        self.frame = frame.reset_index(drop=True)
        self.columns = [str(c) for c in self.frame.columns]
        self._arrays = [_cells(self.frame[c]) for c in self.frame.columns]
        self.view = np.arange(len(self.frame), dtype=np.int64)
        self.highlight = highlight
        self.bar_columns = {i for i, c in enumerate(self.columns) if c.lower().endswith("ratio")}
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802,B008 - Qt API
        return 0 if parent.isValid() else len(self.view)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802,B008 - Qt API
        return 0 if parent.isValid() else len(self.columns)

    def raw(self, row: int, column: int):
        return self._arrays[column][self.view[row]]

    def source_row(self, row: int) -> int:
        return int(self.view[row])

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return _fmt(self.raw(index.row(), index.column()))
        if role == Qt.ItemDataRole.ToolTipRole:
            text = _fmt(self.raw(index.row(), index.column()))
            marked = self.mark_of(index.row()) if self.marks else None
            return "\n".join(["⚑ " + t for t in marked] + [text]) if marked else text
        if self.marks and role == Qt.ItemDataRole.DecorationRole and index.column() == 0:
            return mark_icon() if self.mark_of(index.row()) else None
        if self.marks and role == Qt.ItemDataRole.BackgroundRole and self.mark_of(index.row()):
            return MARK_BACKGROUND
        if role == Qt.ItemDataRole.UserRole:
            return self.raw(index.row(), index.column())
        if role == Qt.ItemDataRole.TextAlignmentRole:
            value = self.raw(index.row(), index.column())
            if isinstance(value, (int, float, np.integer, np.floating)):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if (
            role == Qt.ItemDataRole.BackgroundRole
            and self.highlight is not None
            and bool(self.highlight[self.view[index.row()]])
        ):
            return QColor(255, 224, 204)
        if role == Qt.ItemDataRole.ForegroundRole and self.row_colors is not None:
            return self.row_colors[self.view[index.row()]]
        return None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 - Qt API
        if role == Qt.ItemDataRole.DisplayRole:
            if orientation == Qt.Orientation.Horizontal:
                if section >= len(self.columns):
                    return None
                headers = getattr(self, "headers", None)
                return headers[section] if headers else column_header(self.columns[section])
            return str(section + 1)
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            return header_tooltip(self.columns[section]) if section < len(self.columns) else None
        return None

    def cell_text(self, row: int, column: int) -> str:
        return _fmt(self.raw(row, column))

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        if not self.columns:
            return
        self.layoutAboutToBeChanged.emit()
        cells = self._arrays[column]
        if isinstance(cells, _Categories):  # by the categories' order: no string per row
            self.view = cells.order(self.view, order == Qt.SortOrder.AscendingOrder)
            self.layoutChanged.emit()
            return
        values = cells[self.view]
        try:
            keys = pd.Series(values)
            ranks = keys.rank(method="first", na_option="bottom", ascending=order == Qt.SortOrder.AscendingOrder)
            self.view = self.view[np.argsort(ranks.to_numpy(), kind="stable")]
        except TypeError:
            keys = np.array([str(v) for v in values])
            idx = np.argsort(keys, kind="stable")
            self.view = self.view[idx if order == Qt.SortOrder.AscendingOrder else idx[::-1]]
        self.layoutChanged.emit()

    def set_filter(self, text: str) -> None:
        """Keep rows where any text column contains ``text`` (case-insensitive)."""
        self.beginResetModel()
        if not text:
            self.view = np.arange(len(self.frame), dtype=np.int64)
        else:
            mask = np.zeros(len(self.frame), dtype=bool)
            for c, cells in zip(self.frame.columns, self._arrays):
                col = self.frame[c]
                if isinstance(cells, _Categories):
                    mask |= cells.matching(text)
                elif col.dtype == object or pd.api.types.is_string_dtype(col):
                    mask |= col.astype(str).str.contains(text, case=False, regex=False, na=False).to_numpy()
            self.view = np.flatnonzero(mask)
        self.endResetModel()

    def visible_frame(self) -> pd.DataFrame:
        return self.frame.iloc[self.view]


class BarDelegate(QStyledItemDelegate):
    """Draws ratio columns (0..1) as an inline bar behind the number."""

    def paint(self, painter, option, index) -> None:
        # the cell first (its background: a marked row's tint), then the translucent bar over it
        super().paint(painter, option, index)
        model = index.model()
        if index.column() in getattr(model, "bar_columns", ()):
            value = model.data(index, Qt.ItemDataRole.UserRole)
            try:
                v = float(value)
            except (TypeError, ValueError):
                v = float("nan")
            if not math.isnan(v):
                r: QRect = option.rect.adjusted(2, 3, -2, -3)
                r.setWidth(int(r.width() * max(0.0, min(1.0, v))))
                painter.fillRect(r, QColor(78, 121, 167, 90))


class FrameTable(QWidget):
    row_activated = Signal(int)  # source row of the frame

    def __init__(self, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.inputs: list = []  # files the rows were read from: an export never writes over one
        self.model = FrameModel(self)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        # No sort indicator: rows keep the order core gives (e.g. regressions first) until a click.
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)
        self.view.setItemDelegate(BarDelegate(self.view))
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QTableView.SelectionBehavior.SelectItems)
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.activated.connect(lambda idx: self.row_activated.emit(self.model.source_row(idx.row())))
        self.view.clicked.connect(lambda idx: self.row_activated.emit(self.model.source_row(idx.row())))
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(self.tr("Filter rows"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.count = QLabel(self)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.copy_button = QPushButton(self.tr("Copy"), self)
        self.copy_button.setToolTip(self.tr("Copy the selected cells as tab-separated text (Ctrl+C)"))
        self.copy_button.clicked.connect(self.copy_selection)
        self.export_button = QPushButton(self.tr("Export…"), self)
        self.export_button.setToolTip(self.tr("Export the shown rows to CSV or Excel"))
        self.export_button.clicked.connect(self._export_dialog)
        bar = QHBoxLayout()
        bar.setContentsMargins(2, 2, 2, 2)
        bar.addWidget(self.filter, 1)
        bar.addWidget(self.count)
        bar.addWidget(self.copy_button)
        bar.addWidget(self.export_button)
        self.bar = bar
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.note)
        layout.addLayout(bar)
        layout.addWidget(self.view)
        CopyKey(self.view, self.copy_selection)
        ColumnPicker(self.view)
        self.note.hide()

    def set_frame(
        self,
        frame: pd.DataFrame,
        note: str = "",
        highlight: np.ndarray | None = None,
        row_colors: np.ndarray | None = None,
        headers: list[str] | None = None,
    ) -> None:
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.model.set_frame(frame, highlight, row_colors, headers)
        self.set_note(note)
        self._apply_filter(self.filter.text())
        if len(frame) <= 5000:
            self.view.resizeColumnsToContents()
        for c in range(self.model.columnCount()):
            if self.view.columnWidth(c) > 320:
                self.view.setColumnWidth(c, 320)

    def set_marks(self, marks: dict[int, list[str]] | None) -> None:
        """The advisor's marks on rows of the shown frame (source row -> finding titles)."""
        self.model.set_marks(marks)

    def select_source_row(self, source_row: int) -> bool:
        """Select and show the row of source row ``source_row`` (the filter cleared if it hides it)."""
        hit = np.flatnonzero(self.model.view == source_row)
        if not len(hit) and self.filter.text():
            self.filter.clear()
            hit = np.flatnonzero(self.model.view == source_row)
        if not len(hit):
            return False
        index = self.model.index(int(hit[0]), 0)
        self.view.selectRow(int(hit[0]))
        self.view.scrollTo(index, QTableView.ScrollHint.PositionAtCenter)
        return True

    def set_note(self, note: str) -> None:
        self.note.setText(note)
        self.note.setVisible(bool(note))

    def _apply_filter(self, text: str) -> None:
        self.model.set_filter(text)
        self.count.setText(
            self.tr("{0} of {1} rows").format(f"{self.model.rowCount():,}", f"{len(self.model.frame):,}")
        )

    def copy_selection(self) -> str:
        return copy_cells(self.view, self.model.cell_text)

    def export(self, path: str) -> None:
        write_table(self.model.visible_frame(), path, sheet=self.title or "table", inputs=self.inputs)

    def _export_dialog(self) -> None:
        name = (self.title or "table").replace(" ", "_")
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Export Table"),
            f"{name}.xlsx",
            self.tr("Excel workbook (*.xlsx);;CSV (*.csv)"),
            options=QFileDialog.Option.DontUseNativeDialog,  # as every file dialog of the workbench
        )
        if not path:
            return
        try:
            self.export(path)
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, self.tr("Export Table"), str(exc))


# Header words of the core's column keys (views.COLUMN_LABELS, PMU_LABELS, PMU_CORE_TEMPLATES), for
# pyside6-lupdate; tests/ui/test_report_views.py checks that every core label is listed.
COLUMN_LABELS = (
    QT_TRANSLATE_NOOP("Column", "Device"),
    QT_TRANSLATE_NOOP("Column", "Step"),
    QT_TRANSLATE_NOOP("Column", "Model Name"),
    QT_TRANSLATE_NOOP("Column", "Model ID"),
    QT_TRANSLATE_NOOP("Column", "Task ID"),
    QT_TRANSLATE_NOOP("Column", "Stream ID"),
    QT_TRANSLATE_NOOP("Column", "Infer ID"),
    QT_TRANSLATE_NOOP("Column", "Name"),
    QT_TRANSLATE_NOOP("Column", "OP Type"),
    QT_TRANSLATE_NOOP("Column", "OP State"),
    QT_TRANSLATE_NOOP("Column", "Task Type"),
    QT_TRANSLATE_NOOP("Column", "Start Time(ns)"),
    QT_TRANSLATE_NOOP("Column", "Duration(us)"),
    QT_TRANSLATE_NOOP("Column", "Wait Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Block Dim"),
    QT_TRANSLATE_NOOP("Column", "Mix Block Dim"),
    QT_TRANSLATE_NOOP("Column", "HF32 Eligible"),
    QT_TRANSLATE_NOOP("Column", "Input Shapes"),
    QT_TRANSLATE_NOOP("Column", "Input Data Types"),
    QT_TRANSLATE_NOOP("Column", "Input Formats"),
    QT_TRANSLATE_NOOP("Column", "Output Shapes"),
    QT_TRANSLATE_NOOP("Column", "Output Data Types"),
    QT_TRANSLATE_NOOP("Column", "Output Formats"),
    QT_TRANSLATE_NOOP("Column", "Context ID"),
    QT_TRANSLATE_NOOP("Column", "Core Type"),
    QT_TRANSLATE_NOOP("Column", "Count"),
    QT_TRANSLATE_NOOP("Column", "Total Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Min Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Avg Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Max Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Ratio(%)"),
    QT_TRANSLATE_NOOP("Column", "Level"),
    QT_TRANSLATE_NOOP("Column", "Type"),
    QT_TRANSLATE_NOOP("Column", "Time(%)"),
    QT_TRANSLATE_NOOP("Column", "Variance"),
    QT_TRANSLATE_NOOP("Column", "Process ID"),
    QT_TRANSLATE_NOOP("Column", "Thread ID"),
    QT_TRANSLATE_NOOP("Column", "Source"),
    QT_TRANSLATE_NOOP("Column", "ID"),
    QT_TRANSLATE_NOOP("Column", "Start(us)"),
    QT_TRANSLATE_NOOP("Column", "End(us)"),
    QT_TRANSLATE_NOOP("Column", "Self(us)"),
    QT_TRANSLATE_NOOP("Column", "Stream"),
    QT_TRANSLATE_NOOP("Column", "Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Total(us)"),
    QT_TRANSLATE_NOOP("Column", "Avg(us)"),
    QT_TRANSLATE_NOOP("Column", "Min(us)"),
    QT_TRANSLATE_NOOP("Column", "Max(us)"),
    QT_TRANSLATE_NOOP("Column", "Lane"),
    QT_TRANSLATE_NOOP("Column", "Depth"),
    QT_TRANSLATE_NOOP("Column", "Category"),
    QT_TRANSLATE_NOOP("Column", "AI Core Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Total Cycles"),
    QT_TRANSLATE_NOOP("Column", "Memory Bound"),
    QT_TRANSLATE_NOOP("Column", "Cube Utilization(%)"),
    QT_TRANSLATE_NOOP("Column", "Vector Ratio"),
    QT_TRANSLATE_NOOP("Column", "Vector Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Cube (MAC) Ratio"),
    QT_TRANSLATE_NOOP("Column", "Cube (MAC) Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Scalar Ratio"),
    QT_TRANSLATE_NOOP("Column", "Scalar Time(us)"),
    QT_TRANSLATE_NOOP("Column", "MTE1 Ratio"),
    QT_TRANSLATE_NOOP("Column", "MTE1 Time(us)"),
    QT_TRANSLATE_NOOP("Column", "MTE2 Ratio"),
    QT_TRANSLATE_NOOP("Column", "MTE2 Time(us)"),
    QT_TRANSLATE_NOOP("Column", "MTE3 Ratio"),
    QT_TRANSLATE_NOOP("Column", "MTE3 Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Fixpipe Ratio"),
    QT_TRANSLATE_NOOP("Column", "Fixpipe Time(us)"),
    QT_TRANSLATE_NOOP("Column", "ICache Miss Rate"),
    QT_TRANSLATE_NOOP("Column", "Cube FP16 Ratio"),
    QT_TRANSLATE_NOOP("Column", "Cube INT8 Ratio"),
    QT_TRANSLATE_NOOP("Column", "Vector FP32 Ratio"),
    QT_TRANSLATE_NOOP("Column", "Vector FP16 Ratio"),
    QT_TRANSLATE_NOOP("Column", "Vector INT32 Ratio"),
    QT_TRANSLATE_NOOP("Column", "Vector Misc Ratio"),
    QT_TRANSLATE_NOOP("Column", "Cube FLOPs"),
    QT_TRANSLATE_NOOP("Column", "Vector FLOPs"),
    QT_TRANSLATE_NOOP("Column", "UB Read(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "UB Write(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L1 Read(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L1 Write(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L2 Read Bandwidth"),
    QT_TRANSLATE_NOOP("Column", "L2 Write Bandwidth"),
    QT_TRANSLATE_NOOP("Column", "Main Memory Read(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "Main Memory Write(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L0A Read(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L0A Write(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L0B Read(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L0B Write(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L0C Read(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L0C Write(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L0C Cube Read(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "L0C Cube Write(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "UB Vector Read(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "UB Vector Write(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "UB Scalar Read(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "UB Scalar Write(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "UB MTE Read(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "UB MTE Write(GB/s)"),
    QT_TRANSLATE_NOOP("Column", "Vector Bank Group Conflict Ratio"),
    QT_TRANSLATE_NOOP("Column", "Vector Bank Conflict Ratio"),
    QT_TRANSLATE_NOOP("Column", "Vector Resource Conflict Ratio"),
    QT_TRANSLATE_NOOP("Column", "MTE1 Queue Full Ratio"),
    QT_TRANSLATE_NOOP("Column", "MTE2 Queue Full Ratio"),
    QT_TRANSLATE_NOOP("Column", "MTE3 Queue Full Ratio"),
    QT_TRANSLATE_NOOP("Column", "Cube Queue Full Ratio"),
    QT_TRANSLATE_NOOP("Column", "Vector Queue Full Ratio"),
    QT_TRANSLATE_NOOP("Column", "Queue Full Ratio"),
    QT_TRANSLATE_NOOP("Column", "Write Cache Hits"),
    QT_TRANSLATE_NOOP("Column", "Write Cache Miss Allocations"),
    QT_TRANSLATE_NOOP("Column", "R0 Read Cache Hits"),
    QT_TRANSLATE_NOOP("Column", "R1 Read Cache Hits"),
    QT_TRANSLATE_NOOP("Column", "R0 Read Cache Miss Allocations"),
    QT_TRANSLATE_NOOP("Column", "R1 Read Cache Miss Allocations"),
    QT_TRANSLATE_NOOP("Column", "Read Cache Hits"),
    QT_TRANSLATE_NOOP("Column", "Read Cache Miss Allocations"),
    QT_TRANSLATE_NOOP("Column", "Main Memory Read(KB)"),
    QT_TRANSLATE_NOOP("Column", "Main Memory Write(KB)"),
    QT_TRANSLATE_NOOP("Column", "GM to L1(KB)"),
    QT_TRANSLATE_NOOP("Column", "L0C to L1(KB)"),
    QT_TRANSLATE_NOOP("Column", "L0C to GM(KB)"),
    QT_TRANSLATE_NOOP("Column", "GM to UB(KB)"),
    QT_TRANSLATE_NOOP("Column", "UB to GM(KB)"),
    QT_TRANSLATE_NOOP("Column", "Vector Execute Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Vector Execute Ratio"),
    QT_TRANSLATE_NOOP("Column", "Cube Execute Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Cube Execute Ratio"),
    QT_TRANSLATE_NOOP("Column", "Scalar Execute Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Scalar Execute Ratio"),
    QT_TRANSLATE_NOOP("Column", "MTE1 Execute Time(us)"),
    QT_TRANSLATE_NOOP("Column", "MTE1 Execute Ratio"),
    QT_TRANSLATE_NOOP("Column", "MTE2 Execute Time(us)"),
    QT_TRANSLATE_NOOP("Column", "MTE2 Execute Ratio"),
    QT_TRANSLATE_NOOP("Column", "MTE3 Execute Time(us)"),
    QT_TRANSLATE_NOOP("Column", "MTE3 Execute Ratio"),
    QT_TRANSLATE_NOOP("Column", "Fixpipe Execute Time(us)"),
    QT_TRANSLATE_NOOP("Column", "Fixpipe Execute Ratio"),
    QT_TRANSLATE_NOOP("Column", "{0} (AIC)"),
    QT_TRANSLATE_NOOP("Column", "{0} (AIV)"),
)
