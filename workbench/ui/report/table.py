"""A fast table over a pandas DataFrame: sorting and filtering in numpy, not per-row Python.

``FrameTable`` = filter box + row count + Copy + Export (CSV / XLSX) + the table view. A million
rows scroll smoothly because ``data()`` only indexes numpy arrays for the visible cells.
Columns whose name ends in ``ratio`` (0..1) can draw inline bars; rows can be highlighted by a
boolean mask (e.g. ``memory_bound > 1``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QRect, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QKeySequence, QShortcut
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

from workbench.core.profiling.tableio import write_table


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

    def set_frame(
        self,
        frame: pd.DataFrame,
        highlight: np.ndarray | None = None,
        row_colors: np.ndarray | None = None,
        headers: list[str] | None = None,
    ) -> None:
        self.beginResetModel()
        self.row_colors = row_colors
        self.headers = headers
        self.frame = frame.reset_index(drop=True)
        self.columns = [str(c) for c in self.frame.columns]
        self._arrays = [self.frame[c].to_numpy() for c in self.frame.columns]
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
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return _fmt(self.raw(index.row(), index.column()))
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
                return headers[section] if headers else self.columns[section]
            return str(section + 1)
        return None

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        if not self.columns:
            return
        self.layoutAboutToBeChanged.emit()
        values = self._arrays[column][self.view]
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
            for c in self.frame.columns:
                col = self.frame[c]
                if (
                    col.dtype == object
                    or isinstance(col.dtype, pd.CategoricalDtype)
                    or pd.api.types.is_string_dtype(col)
                ):
                    mask |= col.astype(str).str.contains(text, case=False, regex=False, na=False).to_numpy()
            self.view = np.flatnonzero(mask)
        self.endResetModel()

    def visible_frame(self) -> pd.DataFrame:
        return self.frame.iloc[self.view]


class BarDelegate(QStyledItemDelegate):
    """Draws ratio columns (0..1) as an inline bar behind the number."""

    def paint(self, painter, option, index) -> None:
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
        super().paint(painter, option, index)


class FrameTable(QWidget):
    row_activated = Signal(int)  # source row of the frame

    def __init__(self, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.model = FrameModel(self)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        # No sort indicator: rows keep the order core gives (e.g. regressions first) until a click.
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)
        self.view.setItemDelegate(BarDelegate(self.view))
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
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
        self.copy_button.setToolTip(self.tr("Copy the selected rows as tab-separated text"))
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
        QShortcut(QKeySequence.StandardKey.Copy, self.view, self.copy_selection)
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

    def set_note(self, note: str) -> None:
        self.note.setText(note)
        self.note.setVisible(bool(note))

    def _apply_filter(self, text: str) -> None:
        self.model.set_filter(text)
        self.count.setText(
            self.tr("{0} of {1} rows").format(f"{self.model.rowCount():,}", f"{len(self.model.frame):,}")
        )

    def copy_selection(self) -> str:
        rows = sorted({i.row() for i in self.view.selectionModel().selectedIndexes()}) or []
        lines = ["\t".join(self.model.columns)]
        for r in rows:
            lines.append("\t".join(_fmt(self.model.raw(r, c)) for c in range(self.model.columnCount())))
        text = "\n".join(lines)
        QGuiApplication.clipboard().setText(text)
        return text

    def export(self, path: str) -> None:
        write_table(self.model.visible_frame(), path, sheet=self.title or "table")

    def _export_dialog(self) -> None:
        name = (self.title or "table").replace(" ", "_")
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export Table"), f"{name}.xlsx", self.tr("Excel workbook (*.xlsx);;CSV (*.csv)")
        )
        if not path:
            return
        try:
            self.export(path)
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, self.tr("Export Table"), str(exc))
