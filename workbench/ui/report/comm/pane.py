"""The Communication tab (MindStudio Insight's Communication page): a table per communication op
(elapse, transit, wait, synchronization and idle time, the wait and synchronization ratios) with
step and kind filters and the "Total Op Info" rows highlighted; for the selected op its bandwidth
per transport (transit size, time, GB/s, large-packet ratio) and its packet-size distribution;
communication_matrix as a src → dst rank heatmap of bandwidth, per op or aggregated. A click on
an op row emits ``op_activated(name, start epoch ns)``: the document selects the op on the
timeline. The numbers come from core (``profiling.comm``); this module draws and forwards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget

from workbench.ui.flowlayout import flow_widget
from workbench.ui.report.comm.heatmap import Heatmap
from workbench.ui.report.summary import BarChart
from workbench.ui.report.table import FrameTable

CONTEXT = "CommunicationView"
TOTAL_OP = "Total Op Info"
OP_COLUMNS = (
    ("device", QT_TRANSLATE_NOOP("CommunicationView", "Rank")),
    ("step", QT_TRANSLATE_NOOP("CommunicationView", "Step")),
    ("kind", QT_TRANSLATE_NOOP("CommunicationView", "Kind")),
    ("name", QT_TRANSLATE_NOOP("CommunicationView", "Operator")),
    ("group", QT_TRANSLATE_NOOP("CommunicationView", "Group")),
    ("start_ms", QT_TRANSLATE_NOOP("CommunicationView", "Start (ms)")),
    ("elapse_ms", QT_TRANSLATE_NOOP("CommunicationView", "Elapse (ms)")),
    ("transit_ms", QT_TRANSLATE_NOOP("CommunicationView", "Transit (ms)")),
    ("wait_ms", QT_TRANSLATE_NOOP("CommunicationView", "Wait (ms)")),
    ("sync_ms", QT_TRANSLATE_NOOP("CommunicationView", "Synchronization (ms)")),
    ("idle_ms", QT_TRANSLATE_NOOP("CommunicationView", "Idle (ms)")),
    ("wait_ratio", QT_TRANSLATE_NOOP("CommunicationView", "Wait Ratio")),
    ("sync_ratio", QT_TRANSLATE_NOOP("CommunicationView", "Synchronization Ratio")),
)
BANDWIDTH_COLUMNS = (
    ("transport", QT_TRANSLATE_NOOP("CommunicationView", "Transport")),
    ("size_mb", QT_TRANSLATE_NOOP("CommunicationView", "Transit Size (MB)")),
    ("time_ms", QT_TRANSLATE_NOOP("CommunicationView", "Transit Time (ms)")),
    ("bandwidth_gbs", QT_TRANSLATE_NOOP("CommunicationView", "Bandwidth (GB/s)")),
    ("large_packet_ratio", QT_TRANSLATE_NOOP("CommunicationView", "Large Packet Ratio")),
)
KIND_LABELS = {
    "collective": QT_TRANSLATE_NOOP("CommunicationView", "collective"),
    "p2p": QT_TRANSLATE_NOOP("CommunicationView", "p2p"),
}
TEXTS = (QT_TRANSLATE_NOOP("CommunicationView", "Total Op Info"),)


def _tr(text: object) -> str:
    """One of this module's marked strings (``QT_TRANSLATE_NOOP``) in the UI's language."""
    return QCoreApplication.translate(CONTEXT, str(text))


def _numbers(values) -> np.ndarray:
    return pd.to_numeric(pd.Series(values), errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)


@dataclass
class CommData:
    """What the Communication tab shows (built on a worker thread by :func:`prepare_comm`)."""

    view: Any  # core CommView, or None
    origin_ns: int = 0
    rows: Any = None  # pd.DataFrame: every op, then the Total Op Info rows (``total`` True), start in ms


def _origin(report, ops: pd.DataFrame) -> int:
    tl = getattr(report, "timeline", None)
    if tl is not None and len(getattr(tl, "start_ns", ())):
        return int(tl.origin_ns)
    start = pd.array(ops["start_ns"], dtype="Int64").dropna()  # exact int64 ns
    return int(start.min()) if len(start) else 0


def op_rows(view, origin_ns: int) -> pd.DataFrame:
    """The ops, then the totals, with ``total`` and the start in ms from ``origin_ns``."""
    parts = []
    for frame, total in ((view.ops, False), (getattr(view, "totals", None), True)):
        if frame is None or not len(frame):
            continue
        part = frame.copy()
        part["total"] = total
        parts.append(part)
    if not parts:
        return pd.DataFrame(columns=[k for k, _h in OP_COLUMNS] + ["op", "start_ns", "total"])
    rows = pd.concat(parts, ignore_index=True)
    if "start_ns" in rows.columns:  # subtracted as integers: float64 keeps ~256 ns at epoch magnitude
        start = pd.array(rows["start_ns"], dtype="Int64") - int(origin_ns)
        rows["start_ms"] = start.to_numpy(dtype=np.float64, na_value=np.nan) / 1e6
    else:
        rows["start_ms"] = np.nan
    return rows


def prepare_comm(report, progress=None, cancel=None) -> CommData:
    """Work function: core's communication view of ``report`` and the rows of its op table."""
    from workbench.core.profiling.comm import communication_view

    view = communication_view(report)
    if view is None:
        return CommData(None)
    origin = _origin(report, view.ops)
    return CommData(view, origin, op_rows(view, origin))


class CommPane(QWidget):
    """The Communication tab over a :class:`CommData`. ``op_activated(name, start epoch ns)``."""

    op_activated = Signal(str, object)
    show_slice = Signal(int)  # Show on Timeline: the timeline slice of the clicked op

    def __init__(self, data: CommData, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CommPane")
        self.data = data
        self.view = data.view
        self.rows = data.rows if data.rows is not None else pd.DataFrame()
        self.shown = self.rows  # the rows the table lists (after the filters)
        self.selected: pd.Series | None = None
        self.linked: int | None = None  # the timeline slice of the last clicked op

        self.step = QComboBox(self)
        self.step.setToolTip(self.tr("Show the ops (and the matrix) of one step"))
        self.step.addItem(self.tr("All steps"), None)
        steps = list(dict.fromkeys(self.rows["step"])) if "step" in self.rows.columns else []
        for s in steps:
            self.step.addItem(str(s), s)
        self.kind = QComboBox(self)
        self.kind.setToolTip(self.tr("Collective or point-to-point ops"))
        self.kind.addItem(self.tr("All kinds"), None)
        kinds = list(dict.fromkeys(self.rows["kind"])) if "kind" in self.rows.columns else []
        for k in kinds:
            self.kind.addItem(_tr(KIND_LABELS[k]) if k in KIND_LABELS else str(k), k)
        self.step.currentIndexChanged.connect(lambda _i: self._filters_changed())
        self.kind.currentIndexChanged.connect(lambda _i: self.apply_filters())
        bar = flow_widget(self, [QLabel(self.tr("Step:"), self), self.step, QLabel(self.tr("Kind:"), self), self.kind])

        self.ops = FrameTable(self.tr("Communication"), self)
        self.ops.row_activated.connect(self._row_clicked)
        self.detail_title = QLabel(self)
        self.detail_title.setObjectName("commDetailTitle")
        self.detail_title.setWordWrap(True)
        self.detail_title.setStyleSheet("font-weight:bold;padding:2px;")
        self.bandwidth = FrameTable(self.tr("Bandwidth"), self)
        self.sizes = BarChart(self.tr("Packet sizes (count)"), self, label_px=150)
        self.sizes.setMinimumWidth(0)
        self.sizes.plot.setMinimumWidth(0)
        self.group_op = QComboBox(self)
        self.group_op.setToolTip(self.tr("One communication op of the matrix, or all of them aggregated"))
        self.group_op.currentIndexChanged.connect(lambda _i: self.redraw_matrix())
        self.matrix_title = QLabel(self)
        self.matrix_title.setWordWrap(True)
        self.heatmap = Heatmap(self)
        self.heatmap.setMinimumSize(260, 220)
        self.status = QLabel(self)
        self.status.setObjectName("commStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.show_button = QPushButton(self.tr("Show on Timeline"), self)
        self.show_button.setToolTip(self.tr("Go to the Timeline with the clicked op selected"))
        self.show_button.setEnabled(False)
        self.show_button.clicked.connect(lambda: self.show_slice.emit(self.linked) if self.linked is not None else None)

        detail = QWidget(self)
        detail_layout = QVBoxLayout(detail)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addWidget(self.detail_title)
        detail_split = QSplitter(Qt.Orientation.Vertical, detail)
        detail_split.addWidget(self.bandwidth)
        detail_split.addWidget(self.sizes)
        detail_split.setSizes([210, 220])  # the transports (five or so rows) above their packet sizes
        detail_layout.addWidget(detail_split, 1)
        matrix = QWidget(self)
        matrix_layout = QVBoxLayout(matrix)
        matrix_layout.setContentsMargins(0, 0, 0, 0)
        matrix_layout.addWidget(flow_widget(matrix, [QLabel(self.tr("Matrix:"), matrix), self.group_op]))
        matrix_layout.addWidget(self.matrix_title)
        matrix_layout.addWidget(self.heatmap, 1)
        lower = QSplitter(Qt.Orientation.Horizontal, self)
        lower.addWidget(detail)
        lower.addWidget(matrix)
        lower.setStretchFactor(0, 1)
        lower.setStretchFactor(1, 1)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.ops)
        split.addWidget(lower)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        split.setSizes([230, 520])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addWidget(bar)
        layout.addWidget(split, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.show_button)
        layout.addLayout(bottom)
        if self.view is None:
            self.detail_title.setText(self.tr("This report has no communication data."))
            return
        self.apply_filters()
        self._fill_group_ops()
        self.detail_title.setText(self.tr("Click an op to see its bandwidth per transport."))

    # --- the op table -------------------------------------------------------------------------------------
    def apply_filters(self) -> None:
        rows = self.rows
        mask = np.ones(len(rows), dtype=bool)
        for combo, column in ((self.step, "step"), (self.kind, "kind")):
            value = combo.currentData()
            if value is not None and column in rows.columns:
                mask &= (rows[column] == value).to_numpy()
        self.shown = rows[mask].reset_index(drop=True)
        table = pd.DataFrame(index=self.shown.index)
        ranks = self.rows["device"].nunique() if "device" in self.rows.columns else 0
        for key, _header in OP_COLUMNS:
            if key in self.shown.columns and (key != "device" or ranks > 1):  # the rank: where there are several
                table[key] = self.shown[key]  # nullable ints shown exactly by the table
        if "kind" in table.columns:
            table["kind"] = [_tr(KIND_LABELS[k]) if k in KIND_LABELS else k for k in table["kind"]]
        if "name" in table.columns:
            table["name"] = [_tr(TOTAL_OP) if t else n for n, t in zip(table["name"], self.shown["total"])]
        totals = self.shown["total"].to_numpy(dtype=bool) if "total" in self.shown.columns else None
        self.ops.set_frame(
            table,
            self.tr("{0} ops; the highlighted rows are the totals of a step (Total Op Info).").format(
                int((~totals).sum()) if totals is not None else len(table)
            ),
            highlight=totals,
            headers=[_tr(h) for k, h in OP_COLUMNS if k in table.columns],
        )
        self._apply_marks()

    # --- the advisor's marks ----------------------------------------------------------------------------
    def set_marks(self, marks: dict[tuple[str, int | None], list[str]] | None) -> None:
        """Mark the ops the advisor's findings are about ((name, start epoch ns or None) -> titles)."""
        self.marks = dict(marks or {})
        self._apply_marks()

    def _apply_marks(self) -> None:
        marks = getattr(self, "marks", None)
        shown = getattr(self, "shown", None)
        if not marks or shown is None or not len(shown) or "name" not in shown.columns:
            self.ops.set_marks(None)
            return
        names = shown["name"].astype(str).tolist()
        starts = pd.array(shown["start_ns"], dtype="Int64") if "start_ns" in shown.columns else None
        totals = shown["total"].to_numpy(dtype=bool) if "total" in shown.columns else np.zeros(len(shown), bool)
        rows: dict[int, list[str]] = {}
        for r, name in enumerate(names):
            if totals[r]:
                continue
            start = None if starts is None or pd.isna(starts[r]) else int(starts[r])
            titles = marks.get((name, start)) or marks.get((name, None))
            if titles:
                rows[r] = titles
        self.ops.set_marks(rows)

    def select_op(self, name: str, start_ns: int | None = None) -> bool:
        """Select (and show) the op ``name`` (starting at ``start_ns``) in the op table, the step and
        kind filters cleared when they hide it; its details shown as a click does."""
        for attempt in range(2):
            shown = self.shown
            hit = [
                r
                for r in range(len(shown))
                if str(shown["name"].iloc[r]) == name
                and not bool(shown["total"].iloc[r] if "total" in shown.columns else False)
                and (start_ns is None or int(shown["start_ns"].iloc[r]) == int(start_ns))
            ]
            if hit:
                self.ops.select_source_row(hit[0])
                self._row_clicked(hit[0])
                return True
            if attempt == 0:
                for combo in (self.step, self.kind):
                    combo.setCurrentIndex(0)
                self._filters_changed()
        return False

    def _filters_changed(self) -> None:
        self.apply_filters()
        self._fill_group_ops()

    def _row_clicked(self, source_row: int) -> None:
        row = self.shown.iloc[source_row]
        self.show_op(row)
        self.linked = None
        self.show_button.setEnabled(False)
        self.set_status("")
        if not bool(row.get("total", False)):
            start = pd.to_numeric(pd.Series([row.get("start_ns")]), errors="coerce").iloc[0]
            if pd.notna(start):
                self.op_activated.emit(str(row["name"]), int(start))

    def _of_op(self, which: str, row: pd.Series) -> pd.DataFrame:
        """The rows of core's ``bandwidth`` or ``sizes`` (their ``_totals`` for a Total Op Info row)
        that belong to the op of ``row``."""
        total = bool(row.get("total", False))
        frame = getattr(self.view, f"{which}_totals" if total else which, None)
        if frame is None or not len(frame):
            return pd.DataFrame()
        mask = np.ones(len(frame), dtype=bool)
        for column in ("device", "step", "kind", "op"):
            if column in frame.columns and column in row.index:
                value = row[column]
                same = frame[column].astype(object) == value
                mask &= (frame[column].isna() if pd.isna(value) else same).to_numpy(dtype=bool)
        return frame[mask].reset_index(drop=True)

    def show_op(self, row: pd.Series) -> None:
        """The selected op's bandwidth per transport and packet-size distribution."""
        self.selected = row
        name = _tr(TOTAL_OP) if bool(row.get("total", False)) else str(row.get("name", ""))
        self.detail_title.setText(self.tr("{0} (step {1}): bandwidth per transport").format(name, row.get("step", "")))
        bw = self._of_op("bandwidth", row)
        keys = [k for k, _h in BANDWIDTH_COLUMNS if k in bw.columns]
        self.bandwidth.set_frame(bw[keys], headers=[_tr(h) for k, h in BANDWIDTH_COLUMNS if k in bw.columns])
        sizes = self._of_op("sizes", row)
        self.sizes.clear()
        if len(sizes):
            names = [
                self.tr("{0} {1} MB").format(t, f"{float(p):g}") for t, p in zip(sizes["transport"], sizes["packet_mb"])
            ]
            self.sizes.set_bars(names[::-1], _numbers(sizes["count"])[::-1], unit=self.tr("packets"))
            self.sizes.set_title(self.tr("Packet sizes of {0} (count)").format(name))
        else:
            self.sizes.set_title(self.tr("No packet-size distribution for {0}").format(name))

    # --- the matrix ---------------------------------------------------------------------------------------------
    def _matrix(self) -> pd.DataFrame:
        frame = getattr(self.view, "matrix", None)
        if frame is None or not len(frame):
            return pd.DataFrame(columns=["step", "group_op", "src", "dst", "transport", "size_mb", "time_ms"])
        step = self.step.currentData()
        return frame if step is None else frame[(frame["step"] == step).to_numpy()]

    def _fill_group_ops(self) -> None:
        current = self.group_op.currentData()
        self.group_op.blockSignals(True)
        self.group_op.clear()
        self.group_op.addItem(self.tr("All ops (aggregated)"), None)
        for g in self.view.group_ops(self.step.currentData()):
            self.group_op.addItem(str(g), g)
        k = self.group_op.findData(current) if current is not None else 0
        self.group_op.setCurrentIndex(max(0, k))
        self.group_op.blockSignals(False)
        self.redraw_matrix()

    def redraw_matrix(self) -> None:
        step, group_op = self.step.currentData(), self.group_op.currentData()
        if self.view is None or not len(self._matrix()):
            self.matrix_title.setText(self.tr("No communication matrix in this report."))
            self.heatmap.set_grid([], np.empty((0, 0)), lambda _i, _j: "")
            return
        grid = self.view.link_grid(step=step, group_op=group_op)
        ranks = grid.ranks
        links = int((grid.entries > 0).sum())
        self.matrix_title.setText(
            self.tr("Bandwidth (GB/s) from source rank to destination rank: {0} ranks, {1} links.").format(
                len(ranks), links
            )
        )

        def number(value: float, decimals: int) -> str:
            return f"{float(value):,.{decimals}f}" if np.isfinite(value) else self.tr("unknown")

        def details(i: int, j: int) -> str:
            head = self.tr("Rank {0} → rank {1}").format(ranks[i], ranks[j])
            if not grid.entries[i, j]:
                return self.tr("{0}: no link").format(head)
            transport = grid.transport[i, j]
            lines = [
                head,
                self.tr("Transport: {0}").format(transport if transport is not None else self.tr("unknown")),
                self.tr("Bandwidth: {0} GB/s").format(number(grid.bandwidth_gbs[i, j], 3)),
                self.tr("Size: {0} MB").format(number(grid.size_mb[i, j], 3)),
                self.tr("Time: {0} ms").format(number(grid.time_ms[i, j], 4)),
            ]
            if group_op is None:  # what the aggregate sums (torch_npu: the -total entries, one per step)
                lines.append(self.tr("Matrix entries summed: {0}").format(int(grid.entries[i, j])))
            return "\n".join(lines)

        self.heatmap.set_grid(list(ranks), grid.bandwidth_gbs, details)

    def set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color:#933;" if error else "")

    def set_linked(self, index: int | None, text: str) -> None:
        """What the document found on the timeline for the clicked op (``index``: its slice)."""
        self.linked = index
        self.show_button.setEnabled(index is not None)
        name = "" if self.selected is None else str(self.selected.get("name", ""))
        self.set_status(f"{name}: {text}" if name and not text.startswith(name) else text)
