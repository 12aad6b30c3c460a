"""Slice List (MindStudio Insight's): the slices of an area selection, or every occurrence of one
name, one row per slice, sortable by any column; double-click (or Enter on) a row and the
timeline selects and shows that slice.

The model holds numpy arrays of the listed slices and formats only the cells on screen, so an
area of a million slices lists and sorts at numpy speed (no item per row). The numbers come from
core ``views`` (``area_slices``, ``name_slices``, ``self_time_ns``, ``name_order``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableView, QVBoxLayout, QWidget

from workbench.core.profiling import views
from workbench.ui.clipboard import CopyKey
from workbench.ui.report.table import ColumnPicker, _fmt, column_header, copy_cells, header_tooltip

NAME, START, DURATION, SELF, LANE, DEPTH = range(len(views.SLICE_LIST_COLUMNS))
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class SliceListModel(QAbstractTableModel):
    """Rows = slices of one timeline (``indices``), in ``order`` after sorting."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.columns = list(views.SLICE_LIST_COLUMNS)
        self.timeline: Any = None
        self.indices = np.empty(0, dtype=np.int64)
        self.order = np.empty(0, dtype=np.int64)
        self._lane_labels: list[str] = []

    def set_slices(self, timeline, indices: np.ndarray) -> None:
        self.beginResetModel()
        tl = timeline
        self.timeline = tl
        self.indices = np.asarray(indices, dtype=np.int64)
        self.order = np.arange(len(self.indices), dtype=np.int64)
        self._start = np.asarray(tl.start_ns)[self.indices]
        self._dur = np.asarray(tl.dur_ns)[self.indices]
        self._self = views.self_time_ns(tl, self.indices)
        self._lane = np.asarray(tl.lane)[self.indices]
        self._depth = np.asarray(tl.depth)[self.indices]
        self._name = np.asarray(tl.name_id)[self.indices]
        self._lane_labels = [views.lane_label(info) for info in tl.lanes]
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802,B008 - Qt API
        return 0 if parent.isValid() else len(self.order)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802,B008 - Qt API
        return 0 if parent.isValid() else len(self.columns)

    def slice_at(self, row: int) -> int:
        """The timeline slice index shown in ``row``."""
        return int(self.indices[self.order[row]])

    def cell_text(self, row: int, column: int) -> str:
        k = self.order[row]
        if column == NAME:
            return self.timeline.names[int(self._name[k])]
        if column == START:
            return _fmt(self._start[k] / 1000.0)
        if column == DURATION:
            return _fmt(self._dur[k] / 1000.0)
        if column == SELF:
            return _fmt(self._self[k] / 1000.0)
        if column == LANE:
            return self._lane_labels[int(self._lane[k])]
        return str(int(self._depth[k]))

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self.cell_text(index.row(), index.column())
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (START, DURATION, SELF, DEPTH):
            return _RIGHT
        return None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 - Qt API
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.columns):
            if role == Qt.ItemDataRole.DisplayRole:
                return column_header(self.columns[section])
            if role == Qt.ItemDataRole.ToolTipRole:
                return header_tooltip(self.columns[section])
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return str(section + 1)
        return None

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        if not len(self.indices):
            return
        if column == NAME:
            key = views.name_order(self.timeline, self.indices)
        elif column == LANE:
            ranks = np.argsort(np.argsort(np.array(self._lane_labels, dtype=object), kind="stable"))
            key = ranks[self._lane]
        else:
            key = {START: self._start, DURATION: self._dur, SELF: self._self, DEPTH: self._depth}[column]
        key = np.asarray(key, dtype=np.int64)
        if order == Qt.SortOrder.DescendingOrder:
            key = -key
        self.layoutAboutToBeChanged.emit()
        # ties keep the start-time order the rows came in
        self.order = np.lexsort((self._start, key)).astype(np.int64)
        self.layoutChanged.emit()


class SliceListPane(QWidget):
    """The Slice List tab of the report's data pane."""

    slice_activated = Signal(int)  # timeline slice index

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SliceList")
        self.model = SliceListModel(self)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QTableView.SelectionBehavior.SelectItems)
        self.view.verticalHeader().setDefaultSectionSize(22)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self._fit_pending = False
        self.view.activated.connect(lambda idx: self.slice_activated.emit(self.model.slice_at(idx.row())))
        self.note = QLabel(self.tr("Shift+drag across lanes in the timeline to list the slices of a time range."), self)
        self.note.setWordWrap(True)
        self.note.setContentsMargins(4, 2, 4, 0)
        self.hint = QLabel(self.tr("Double-click a row to show the slice in the timeline."), self)
        self.hint.setStyleSheet("color:#666;padding-left:2px;")
        self.count = QLabel(self)
        self.copy_button = QPushButton(self.tr("Copy"), self)
        self.copy_button.setToolTip(self.tr("Copy the selected cells as tab-separated text (Ctrl+C)"))
        self.copy_button.clicked.connect(lambda: self.copy_selection())
        bar = QHBoxLayout()
        bar.setContentsMargins(2, 2, 2, 2)
        bar.addWidget(self.hint, 1)
        bar.addWidget(self.count)
        bar.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.note)
        layout.addLayout(bar)
        layout.addWidget(self.view)
        CopyKey(self.view, self.copy_selection)
        ColumnPicker(self.view)

    def show_slices(self, timeline, indices: np.ndarray, note: str) -> None:
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.model.set_slices(timeline, indices)
        self.note.setText(note)
        self.count.setText(self.tr("{0} slices").format(f"{len(indices):,}"))
        self._fit_pending = True
        if self.view.isVisible():
            self._fit_columns()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if self._fit_pending:
            self._fit_columns()

    def _fit_columns(self) -> None:
        """Columns as wide as what they show (the rows on screen: cheap for a million), all in
        sight: the name column gives up what the pane lacks (long names elide, full in the tooltip)."""
        self._fit_pending = False
        self.view.resizeColumnsToContents()
        for column in range(self.model.columnCount()):
            cap = 480 if column == NAME else 300
            self.view.setColumnWidth(column, min(self.view.columnWidth(column) + 12, cap))
        room = self.view.viewport().width()
        others = sum(self.view.columnWidth(c) for c in range(1, self.model.columnCount()))
        if room > 300 and others + self.view.columnWidth(NAME) > room:
            self.view.setColumnWidth(NAME, max(160, room - others))

    def copy_selection(self) -> str:
        return copy_cells(self.view, self.model.cell_text)
