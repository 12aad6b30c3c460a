"""Timeline view: navigation tree, lanes with level-of-detail slices, counters, search, selection.

Navigation follows Perfetto / MindStudio Insight: drag pans, wheel scrolls lanes, Ctrl+wheel
zooms, W/S zoom, A/D pan, F fits the selection, 0 resets, Backspace undoes a zoom, `.` / `,` go to
the next / previous slice in the lane. Shift+drag selects a time range over the lanes it covers.
All the numbers come from core (``lod``, ``timeline_ops``); this module only draws and forwards.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QSplitter,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.profiling import timeline_ops
from workbench.core.profiling.lod import TimelineLayout
from workbench.ui.report.palette import name_color_index
from workbench.ui.report.slices_item import RULE_INDEX, DisplayRow, SlicesItem

API_PROCESSES = ("CANN", "AscendCL", "Runtime", "GE", "OS Runtime API")


class TimeAxis(pg.AxisItem):
    """Time relative to the report start; the unit follows the zoom (ns … s)."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph API
        unit, factor = timeline_ops.unit_for(spacing * 5)
        label = "µs" if unit == "us" else unit
        decimals = 0 if spacing / factor >= 1 else min(6, int(np.ceil(-np.log10(spacing / factor))) + 0)
        return [f"{v / factor:.{decimals}f} {label}" for v in values]


class LaneAxis(pg.AxisItem):
    """Lane names at the rows where lanes start."""

    def __init__(self) -> None:
        super().__init__("left")
        self.labels: dict[int, str] = {}

    def tickValues(self, minVal, maxVal, size):  # noqa: N802,N803 - pyqtgraph API
        lo, hi = sorted((minVal, maxVal))  # the view is inverted: pyqtgraph passes (max, min)
        return [(1.0, [y + 0.5 for y in self.labels if lo - 1 <= y <= hi])]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph API
        return [self.labels.get(int(v - 0.5), "") for v in values]


class TimelineViewBox(pg.ViewBox):
    """Wheel scrolls rows, Ctrl+wheel zooms time, drag pans, Shift+drag selects a range."""

    range_dragged = Signal(float, float, float, float, bool)  # t0, t1, y0, y1, finished
    clicked = Signal(float, float)

    def __init__(self) -> None:
        super().__init__(invertY=True, enableMenu=False)
        self.setMouseEnabled(x=True, y=True)
        self.setLimits(yMin=-0.5)

    def wheelEvent(self, ev, axis=None):  # noqa: N802 - pyqtgraph API
        delta = ev.delta() if hasattr(ev, "delta") else ev.angleDelta().y()
        if ev.modifiers() & Qt.KeyboardModifier.ControlModifier:
            factor = 0.8 if delta > 0 else 1.25
            center = self.mapSceneToView(ev.scenePos())
            self.scaleBy(x=factor, center=center)
            self.sigRangeChangedManually.emit(self.state["mouseEnabled"])
        else:
            (y0, y1) = self.viewRange()[1]
            step = (y1 - y0) * (0.15 if delta < 0 else -0.15)
            self.setYRange(y0 + step, y1 + step, padding=0)
        ev.accept()

    def mouseDragEvent(self, ev, axis=None):  # noqa: N802 - pyqtgraph API
        if ev.modifiers() & Qt.KeyboardModifier.ShiftModifier and ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            a = self.mapSceneToView(ev.buttonDownScenePos())
            b = self.mapSceneToView(ev.scenePos())
            self.range_dragged.emit(
                min(a.x(), b.x()), max(a.x(), b.x()), min(a.y(), b.y()), max(a.y(), b.y()), ev.isFinish()
            )
            return
        super().mouseDragEvent(ev, axis)

    def mouseClickEvent(self, ev):  # noqa: N802 - pyqtgraph API
        if ev.button() == Qt.MouseButton.LeftButton:
            p = self.mapSceneToView(ev.scenePos())
            self.clicked.emit(p.x(), p.y())
            ev.accept()
            return
        super().mouseClickEvent(ev)


class TimelineView(QWidget):
    slice_selected = Signal(int)  # slice index (-1: none)
    range_selected = Signal(int, int, object)  # t0 ns, t1 ns, list of lane indices
    event_view_requested = Signal(int)  # lane index

    def __init__(
        self,
        timeline,
        parent: QWidget | None = None,
        layout: TimelineLayout | None = None,
        name_colors: np.ndarray | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("TimelineView")
        self.timeline = timeline
        self.layout_ = layout if layout is not None else TimelineLayout(timeline)
        self._base_colors = name_colors
        self.hidden_lanes: set[int] = set()
        self.pinned_lanes: list[int] = []
        self.hidden_counters: set[int] = set()
        self.color_rule: timeline_ops.ColorRule | None = None
        self.matches = np.empty(0, dtype=np.int64)
        self.match_pos = -1
        self.zoom_history: list[tuple[float, float]] = []
        self.selected: int | None = None
        self.selection_range: tuple[int, int, list[int]] | None = None

        # --- navigation tree --------------------------------------------------------------------
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels([self.tr("Lanes")])
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._tree_menu)
        self.tree.itemChanged.connect(self._tree_item_changed)

        # --- plot ------------------------------------------------------------------------------------
        self.viewbox = TimelineViewBox()
        self.lane_axis = LaneAxis()
        self.plot = pg.PlotWidget(
            viewBox=self.viewbox, axisItems={"bottom": TimeAxis("bottom"), "left": self.lane_axis}
        )
        self.plot.setBackground("w")
        self.plot.getPlotItem().hideButtons()
        self.plot.getPlotItem().setMenuEnabled(False)
        self.lane_axis.setWidth(190)
        self.item = SlicesItem(timeline, self.layout_)
        self.plot.addItem(self.item)
        self.region = pg.LinearRegionItem(brush=pg.mkBrush(47, 101, 202, 40), movable=False)
        self.region.hide()
        self.plot.addItem(self.region, ignoreBounds=True)
        self.cursor_line = pg.InfiniteLine(angle=90, pen=pg.mkPen(QColor(120, 120, 120), style=Qt.PenStyle.DashLine))
        self.plot.addItem(self.cursor_line, ignoreBounds=True)
        self.viewbox.range_dragged.connect(self._on_range_drag)
        self.viewbox.clicked.connect(self._on_click)
        self.viewbox.sigXRangeChanged.connect(lambda *_: self._update_readouts())
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)

        # --- search and readouts ----------------------------------------------------------------------
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("Search slices by name"))
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(180)
        self.search.returnPressed.connect(lambda: self.find(+1))
        self.search.textChanged.connect(lambda _t: self._run_search())
        self.regex = QCheckBox(self.tr("Regex"), self)
        self.regex.toggled.connect(lambda _c: self._run_search())
        prev_btn = QToolButton(self)
        prev_btn.setText("◀")
        prev_btn.setToolTip(self.tr("Previous match"))
        prev_btn.clicked.connect(lambda: self.find(-1))
        next_btn = QToolButton(self)
        next_btn.setText("▶")
        next_btn.setToolTip(self.tr("Next match"))
        next_btn.clicked.connect(lambda: self.find(+1))
        self.match_label = QLabel(self)
        self.start_label = QLabel(self)
        self.end_label = QLabel(self)
        self.current_label = QLabel(self)
        self.legend = QLabel(self)
        top = QHBoxLayout()
        top.setContentsMargins(4, 2, 4, 2)
        for w in (self.search, self.regex, prev_btn, next_btn, self.match_label):
            top.addWidget(w)
        top.addStretch(1)
        for w in (self.start_label, self.end_label, self.current_label):
            w.setMinimumWidth(105)
            top.addWidget(w)
        right = QWidget(self)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.setSpacing(0)
        rl.addLayout(top)
        rl.addWidget(self.plot, 1)
        rl.addWidget(self.legend)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.tree)
        splitter.addWidget(right)
        self.tree.setMinimumWidth(170)
        splitter.setSizes([230, 900])
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(splitter)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.plot.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.plot.installEventFilter(self)

        self._fill_tree()
        self.set_color_rule(None)
        self.rebuild_rows()
        self.reset_zoom()

    # --- rows -------------------------------------------------------------------------------------------
    def lane_order(self) -> list[int]:
        lanes = sorted(range(len(self.timeline.lanes)), key=lambda i: (self.timeline.lanes[i].sort_index, i))
        pinned = [i for i in self.pinned_lanes if i in lanes]
        return pinned + [i for i in lanes if i not in pinned]

    def rebuild_rows(self) -> None:
        rows: list[DisplayRow] = []
        labels: dict[int, str] = {}
        y = 0
        for lane in self.lane_order():
            if lane in self.hidden_lanes:
                continue
            row_ids = self.layout_.lane_rows.get(lane, [])
            if not row_ids:
                continue
            info = self.timeline.lanes[lane]
            labels[y] = _lane_label(info)
            for rid in sorted(row_ids, key=lambda r: self.layout_.rows[r].level):
                rows.append(DisplayRow(y=y, kind="slices", lane=lane, row=rid))
                y += 1
        for ci, counter in enumerate(getattr(self.timeline, "counters", []) or []):
            if ci in self.hidden_counters:
                continue
            for series in counter.series:
                labels[y] = f"{counter.name} · {series}" if series != counter.name else counter.name
                rows.append(DisplayRow(y=y, kind="counter", counter=ci, series=series, height=2))
                y += 2
        self.rows = rows
        self.lane_axis.labels = labels
        self.lane_axis.picture = None
        self.lane_axis.update()
        self.item.set_rows(rows)

    def _fill_tree(self) -> None:
        self.tree.blockSignals(True)
        self.tree.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        for lane in self.lane_order():
            info = self.timeline.lanes[lane]
            if lane not in self.layout_.lane_rows:
                continue
            key = _group_label(info)
            group = groups.get(key)
            if group is None:
                group = QTreeWidgetItem([key])
                group.setFlags(group.flags() | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsAutoTristate)
                group.setCheckState(0, Qt.CheckState.Checked)
                self.tree.addTopLevelItem(group)
                groups[key] = group
            item = QTreeWidgetItem([info.thread_name or info.tid])
            item.setData(0, Qt.ItemDataRole.UserRole, ("lane", lane))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(0, Qt.CheckState.Unchecked if lane in self.hidden_lanes else Qt.CheckState.Checked)
            group.addChild(item)
        counters = getattr(self.timeline, "counters", []) or []
        if counters:
            group = QTreeWidgetItem([self.tr("Counters")])
            group.setFlags(group.flags() | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsAutoTristate)
            self.tree.addTopLevelItem(group)
            for ci, counter in enumerate(counters):
                item = QTreeWidgetItem([counter.name])
                item.setData(0, Qt.ItemDataRole.UserRole, ("counter", ci))
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(0, Qt.CheckState.Checked)
                group.addChild(item)
        self.tree.expandAll()
        self.tree.blockSignals(False)

    def _tree_item_changed(self, item: QTreeWidgetItem, _col: int) -> None:
        data = item.data(0, Qt.ItemDataRole.UserRole)
        if not data:
            return
        kind, index = data
        visible = item.checkState(0) == Qt.CheckState.Checked
        target = self.hidden_lanes if kind == "lane" else self.hidden_counters
        (target.discard if visible else target.add)(index)
        self.rebuild_rows()

    def _tree_menu(self, pos) -> None:
        item = self.tree.itemAt(pos)
        menu = QMenu(self)
        data = item.data(0, Qt.ItemDataRole.UserRole) if item else None
        if data and data[0] == "lane":
            lane = data[1]
            menu.addAction(self.tr("Show in Event View"), lambda: self.event_view_requested.emit(lane))
            pin_text = self.tr("Unpin") if lane in self.pinned_lanes else self.tr("Pin to Top")
            menu.addAction(pin_text, lambda: self.toggle_pin(lane))
            menu.addAction(self.tr("Hide"), lambda: self.set_lane_hidden(lane, True))
        menu.addAction(self.tr("Show All"), self.show_all)
        menu.addAction(self.tr("Collapse All"), self.tree.collapseAll)
        menu.addAction(self.tr("Expand All"), self.tree.expandAll)
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def toggle_pin(self, lane: int) -> None:
        if lane in self.pinned_lanes:
            self.pinned_lanes.remove(lane)
        else:
            self.pinned_lanes.insert(0, lane)
        self._fill_tree()
        self.rebuild_rows()

    def set_lane_hidden(self, lane: int, hidden: bool) -> None:
        (self.hidden_lanes.add if hidden else self.hidden_lanes.discard)(lane)
        self._fill_tree()
        self.rebuild_rows()

    def show_all(self) -> None:
        self.hidden_lanes.clear()
        self.hidden_counters.clear()
        self._fill_tree()
        self.rebuild_rows()

    # --- colours ------------------------------------------------------------------------------------------
    def set_color_rule(self, rule: timeline_ops.ColorRule | None) -> None:
        """None: stable colours by name. A rule: API slices coloured by their share of API time."""
        self.color_rule = rule
        if self._base_colors is None:
            self._base_colors = name_color_index(self.timeline.names)
        colors = self._base_colors.copy()
        if rule is not None:
            api_lanes = [i for i, ln in enumerate(self.timeline.lanes) if ln.process_name in API_PROCESSES]
            for name_id, share in timeline_ops.api_shares(self.timeline, api_lanes).items():
                colors[name_id] = RULE_INDEX[rule.level(share)]
            self.legend.setText(
                self.tr("Timeline Color (API share of time): green < {0}% ≤ yellow < {1}% ≤ red").format(
                    f"{rule.a_pct:.2f}", f"{rule.b_pct:.2f}"
                )
            )
        else:
            self.legend.setText(
                self.tr(
                    "Colours: stable by slice name; pale = slices narrower than a pixel, merged, in the colour of the longest"  # noqa: E501 - one source string for lupdate
                )
            )
        self.item.set_colors(colors)

    # --- zoom and navigation ---------------------------------------------------------------------------
    def x_range(self) -> tuple[float, float]:
        return tuple(self.viewbox.viewRange()[0])  # type: ignore[return-value]

    def set_x_range(self, t0: float, t1: float, remember: bool = True) -> None:
        if remember:
            self.zoom_history.append(self.x_range())
            del self.zoom_history[:-100]
        self.viewbox.setXRange(t0, max(t1, t0 + 10), padding=0)

    def reset_zoom(self) -> None:
        span = max(10, int(getattr(self.timeline, "span_ns", 0) or 0))
        first = int(np.min(self.timeline.start_ns)) if len(self.timeline.start_ns) else 0
        self.viewbox.setXRange(first, first + span, padding=0.01)
        self._fit_rows_to_height(top=-0.2)

    ROW_PX = 24

    def _fit_rows_to_height(self, top: float | None = None) -> None:
        """Rows keep a fixed pixel height: the visible row count follows the widget height."""
        y0 = self.viewbox.viewRange()[1][0] if top is None else top
        rows_visible = max(3.0, self.viewbox.height() / self.ROW_PX) if self.viewbox.height() > 10 else 20.0
        self.viewbox.setYRange(y0, y0 + rows_visible, padding=0)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_rows_to_height()

    def undo_zoom(self) -> None:
        if self.zoom_history:
            t0, t1 = self.zoom_history.pop()
            self.viewbox.setXRange(t0, t1, padding=0)

    def zoom(self, factor: float) -> None:
        t0, t1 = self.x_range()
        center = (t0 + t1) / 2
        half = (t1 - t0) * factor / 2
        self.set_x_range(center - half, center + half)

    def pan(self, fraction: float) -> None:
        t0, t1 = self.x_range()
        d = (t1 - t0) * fraction
        self.set_x_range(t0 + d, t1 + d, remember=False)

    def fit_selection(self) -> None:
        if self.selected is not None:
            s = float(self.timeline.start_ns[self.selected])
            d = max(10.0, float(self.timeline.dur_ns[self.selected]))
            self.set_x_range(s - d * 0.25, s + d * 1.25)
        elif self.selection_range is not None:
            t0, t1, _ = self.selection_range
            self.set_x_range(t0, t1)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.plot and event.type() == event.Type.KeyPress:
            return self.handle_key(event)
        return super().eventFilter(obj, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if not self.handle_key(event):
            super().keyPressEvent(event)

    def handle_key(self, event: QKeyEvent) -> bool:
        key = event.key()
        actions = {
            Qt.Key.Key_W: lambda: self.zoom(0.5),
            Qt.Key.Key_S: lambda: self.zoom(2.0),
            Qt.Key.Key_A: lambda: self.pan(-0.2),
            Qt.Key.Key_D: lambda: self.pan(0.2),
            Qt.Key.Key_F: self.fit_selection,
            Qt.Key.Key_0: self.reset_zoom,
            Qt.Key.Key_Backspace: self.undo_zoom,
            Qt.Key.Key_Period: lambda: self.step_slice(+1),
            Qt.Key.Key_Comma: lambda: self.step_slice(-1),
        }
        action = actions.get(Qt.Key(key))
        if action is None:
            return False
        action()
        return True

    # --- selection -----------------------------------------------------------------------------------------------
    def row_at(self, y: float) -> DisplayRow | None:
        for r in self.rows:
            if r.y <= y < r.y + r.height:
                return r
        return None

    def _on_click(self, x: float, y: float) -> None:
        row = self.row_at(y)
        hit = self.layout_.slice_at(row.row, int(x)) if row is not None and row.kind == "slices" else None
        self.select_slice(hit)

    def select_slice(self, index: int | None, center: bool = False) -> None:
        self.selected = index
        self.item.selected = index
        self.item.flows = self._flows_of(index) if index is not None else []
        self.item.update()
        if index is not None and center:
            s = float(self.timeline.start_ns[index])
            d = max(1000.0, float(self.timeline.dur_ns[index]))
            t0, t1 = self.x_range()
            if not (t0 <= s <= t1) or (t1 - t0) > d * 200:
                self.set_x_range(s - d * 2, s + d * 3)
            row_y = next((r.y for r in self.rows if r.kind == "slices" and r.row == self.layout_.row_of(index)), None)
            if row_y is not None:
                y0, y1 = self.viewbox.viewRange()[1]
                if not (y0 <= row_y <= y1 - 1):
                    h = y1 - y0
                    self.viewbox.setYRange(row_y - h / 3, row_y - h / 3 + h, padding=0)
        self.slice_selected.emit(-1 if index is None else int(index))

    def step_slice(self, step: int) -> None:
        if self.selected is None:
            return
        nxt = self.layout_.neighbour(self.layout_.row_of(self.selected), self.selected, step)
        if nxt is not None:
            self.select_slice(nxt, center=True)

    def _flows_of(self, index: int) -> list[tuple[int, int, int, int]]:
        flows = getattr(self.timeline, "flows", None)
        if flows is None or len(getattr(flows, "src_slice", [])) == 0:
            return []
        src = np.asarray(flows.src_slice)
        dst = np.asarray(flows.dst_slice)
        out = []
        for k in np.flatnonzero((src == index) | (dst == index))[:50]:
            a, b = int(src[k]), int(dst[k])
            ya, yb = self._row_y_of(a), self._row_y_of(b)
            if ya is None or yb is None:
                continue
            out.append((int(flows.src_ns[k]), ya, int(flows.dst_ns[k]), yb))
        return out

    def _row_y_of(self, index: int) -> int | None:
        if index < 0:
            return None
        rid = self.layout_.row_of(index)
        return next((r.y for r in self.rows if r.kind == "slices" and r.row == rid), None)

    def flow_partners(self, index: int) -> list[tuple[str, str, int]]:
        """(direction, category, other slice) for the flows touching ``index``."""
        flows = getattr(self.timeline, "flows", None)
        if flows is None or len(getattr(flows, "src_slice", [])) == 0:
            return []
        src = np.asarray(flows.src_slice)
        dst = np.asarray(flows.dst_slice)
        out = []
        for k in np.flatnonzero(src == index)[:50]:
            out.append(("out", flows.cat[k], int(dst[k])))
        for k in np.flatnonzero(dst == index)[:50]:
            out.append(("in", flows.cat[k], int(src[k])))
        return out

    def _on_range_drag(self, t0: float, t1: float, y0: float, y1: float, finished: bool) -> None:
        self.region.setRegion((t0, t1))
        self.region.show()
        if finished:
            lanes = sorted({r.lane for r in self.rows if r.kind == "slices" and y0 - 1 < r.y <= y1})
            self.select_range(int(t0), int(t1), lanes)

    def select_range(self, t0: int, t1: int, lanes: list[int]) -> None:
        self.selection_range = (t0, t1, lanes)
        self.region.setRegion((t0, t1))
        self.region.show()
        self.range_selected.emit(t0, t1, lanes)

    # --- search ---------------------------------------------------------------------------------------------------
    def _run_search(self) -> None:
        try:
            self.matches = timeline_ops.search(self.timeline, self.search.text(), self.regex.isChecked())
            self.search.setToolTip("")
        except timeline_ops.SearchError as exc:
            self.matches = np.empty(0, dtype=np.int64)
            self.search.setToolTip(str(exc))
        self.match_pos = -1
        self._update_match_label()

    def _update_match_label(self) -> None:
        if not self.search.text():
            self.match_label.setText("")
        elif self.match_pos < 0:
            self.match_label.setText(self.tr("{0} matches").format(len(self.matches)))
        else:
            self.match_label.setText(self.tr("{0} of {1}").format(self.match_pos + 1, len(self.matches)))

    def find(self, step: int) -> int | None:
        if len(self.matches) == 0:
            self._update_match_label()
            return None
        self.match_pos = (
            (self.match_pos + step) % len(self.matches)
            if self.match_pos >= 0
            else (0 if step > 0 else len(self.matches) - 1)
        )
        index = int(self.matches[self.match_pos])
        self.select_slice(index, center=True)
        self._update_match_label()
        return index

    # --- readouts ---------------------------------------------------------------------------------------------------
    def _update_readouts(self) -> None:
        t0, t1 = self.x_range()
        span = t1 - t0
        self.start_label.setText(self.tr("Start: {0}").format(timeline_ops.format_ns(max(0.0, t0), span)))
        self.end_label.setText(self.tr("End: {0}").format(timeline_ops.format_ns(t1, span)))

    def _on_mouse_moved(self, pos: QPointF) -> None:
        if not self.viewbox.sceneBoundingRect().contains(pos):
            return
        p = self.viewbox.mapSceneToView(pos)
        self.cursor_line.setValue(p.x())
        t0, t1 = self.x_range()
        self.current_label.setText(self.tr("Current: {0}").format(timeline_ops.format_ns(max(0.0, p.x()), t1 - t0)))


def _lane_label(info, limit: int = 30) -> str:
    """Short lane name for the axis: 'D0 Stream 3', 'CANN · Thread 1000' (elided to ``limit``)."""
    name = info.thread_name or f"Thread {info.tid}"
    text = f"D{info.device} {name}" if info.is_stream and info.device is not None else f"{info.process_name} · {name}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _group_label(info) -> str:
    if info.device is not None:
        return f"Device {info.device} · {info.process_name}"
    return f"Host · {info.process_name}"
