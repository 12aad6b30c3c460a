"""A table model over an Arrow query result: rows are converted to Python a chunk at a time, when
the view first shows them, and a bounded number of chunks is kept."""

from __future__ import annotations

from collections import OrderedDict
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

CHUNK = 1024  # rows converted at once
KEEP = 64  # chunks kept (per column)

Index = QModelIndex | QPersistentModelIndex


def cell_text(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return repr(value) if value == value else "NaN"
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


class ResultModel(QAbstractTableModel):
    """Rows of a ``pyarrow.Table`` (core ``QueryResult.table``)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.table: Any = None
        self._chunks: OrderedDict[tuple[int, int], list[Any]] = OrderedDict()
        self.converted = 0  # rows converted so far (all columns), for tests and the curious

    def set_table(self, table: Any) -> None:
        self.beginResetModel()
        self.table = table
        self._chunks.clear()
        self.converted = 0
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt API
        return 0 if parent.isValid() or self.table is None else int(self.table.num_rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt API
        return 0 if parent.isValid() or self.table is None else int(self.table.num_columns)

    def value(self, row: int, column: int) -> Any:
        key = (row // CHUNK, column)
        chunk = self._chunks.get(key)
        if chunk is None:
            chunk = self.table.column(column).slice(key[0] * CHUNK, CHUNK).to_pylist()
            self.converted += len(chunk)
            self._chunks[key] = chunk
            if len(self._chunks) > KEEP * max(1, self.columnCount()):
                self._chunks.popitem(last=False)
        else:
            self._chunks.move_to_end(key)
        return chunk[row % CHUNK]

    def row(self, row: int) -> dict[str, Any]:
        """Row ``row`` as {column: value}."""
        names = self.table.column_names
        return {names[c]: self.value(row, c) for c in range(len(names))}

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.table is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return cell_text(self.value(index.row(), index.column()))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            value = self.value(index.row(), index.column())
            if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and self.value(index.row(), index.column()) is None:
            return Qt.GlobalColor.gray
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or self.table is None:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.table.column_names[section] if section < self.table.num_columns else None
        return str(section + 1)
