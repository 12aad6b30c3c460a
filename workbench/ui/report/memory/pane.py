"""The Memory tab (MindStudio Insight's Memory page): memory_record curves per component (allocated /
reserved / active, each a toggle) against time on the timeline's axis, the peaks marked, a cursor
(click or drag it) listing the operators alive there — at the peak to begin with —, operator_memory
as a sortable table with a name filter (a click marks the allocation on the curve and emits
``op_activated`` so the document can select the op on the timeline), and npu_module_mem per module
in a second plot that shares the time axis.

The numbers come from core (``profiling.memory``); curves with more than ``DOWNSAMPLE_ABOVE``
points are drawn from core's peak-preserving ``downsample``, prepared on a worker thread
(:func:`prepare_memory`)."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from workbench.ui.flowlayout import flow_widget
from workbench.ui.report.table import FrameTable
from workbench.ui.report.timeline import TimeAxis

CONTEXT = "MemoryView"
KINDS = ("allocated", "reserved", "active")
KIND_LABELS = {
    "allocated": QT_TRANSLATE_NOOP("MemoryView", "Allocated"),
    "reserved": QT_TRANSLATE_NOOP("MemoryView", "Reserved"),
    "active": QT_TRANSLATE_NOOP("MemoryView", "Active"),
}
KIND_STYLE = {"allocated": Qt.PenStyle.SolidLine, "reserved": Qt.PenStyle.DashLine, "active": Qt.PenStyle.DotLine}
PALETTE = ("#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#ff9da7")
DOWNSAMPLE_ABOVE = 200_000  # points of a curve drawn as they are; above: core's downsample
DRAW_POINTS = 20_000  # points a downsampled curve keeps (every peak among them)
AXIS_PX = 64  # both plots' left axes: their time axes line up
# the operator table's columns and headers
OPERATOR_COLUMNS = (
    ("name", QT_TRANSLATE_NOOP("MemoryView", "Name")),
    ("size_kb", QT_TRANSLATE_NOOP("MemoryView", "Size (KB)")),
    ("alloc_ms", QT_TRANSLATE_NOOP("MemoryView", "Allocated at (ms)")),
    ("release_ms", QT_TRANSLATE_NOOP("MemoryView", "Released at (ms)")),
    ("duration_us", QT_TRANSLATE_NOOP("MemoryView", "Duration (µs)")),
    ("active_duration_us", QT_TRANSLATE_NOOP("MemoryView", "Active Duration (µs)")),
    ("alloc_total_allocated_mb", QT_TRANSLATE_NOOP("MemoryView", "Allocated at Allocation (MB)")),
    ("alloc_total_reserved_mb", QT_TRANSLATE_NOOP("MemoryView", "Reserved at Allocation (MB)")),
    ("release_total_allocated_mb", QT_TRANSLATE_NOOP("MemoryView", "Allocated at Release (MB)")),
    ("stream", QT_TRANSLATE_NOOP("MemoryView", "Stream")),
    ("device", QT_TRANSLATE_NOOP("MemoryView", "Device")),
)
ALIVE_COLUMNS = ("name", "size_kb", "alloc_ms", "release_ms", "stream")


def _tr(text: object) -> str:
    """One of this module's marked strings (``QT_TRANSLATE_NOOP``) in the UI's language."""
    return QCoreApplication.translate(CONTEXT, str(text))


@dataclass
class Curve:
    """One drawn curve: x in ns from the report start (float64), y in MB; ``points`` in the file."""

    component: str
    kind: str
    x: np.ndarray
    y: np.ndarray
    points: int
    downsampled: bool = False


@dataclass
class MemoryData:
    """What the Memory tab shows (built on a worker thread by :func:`prepare_memory`)."""

    view: Any  # core MemoryView, or None
    origin_ns: int = 0  # the report's time 0 (the timeline's origin where there is one), epoch ns
    curves: list[Curve] = field(default_factory=list)
    modules: list[Curve] = field(default_factory=list)
    operators: Any = None  # pd.DataFrame: the operator table (times in ms from origin_ns)


def curve_name(curve: Curve) -> str:
    """A curve's name in the legend: its component and kind (``PTA allocated``)."""
    return f"{curve.component} {_tr(KIND_LABELS[curve.kind]).lower()}"


def legend_html(entries: list[tuple[str, str, str]]) -> str:
    """A legend line of (colour, kind, name): a line sample drawn like the curve (solid allocated,
    dashed reserved, dotted active), then the name."""
    glyph = {"allocated": "━━", "reserved": "╍╍", "active": "┅┅"}
    return "&nbsp;&nbsp; ".join(
        f'<span style="color:{color};font-weight:bold">{glyph.get(kind, "━━")}</span>&nbsp;{html.escape(name)}'
        for color, kind, name in entries
    )


def relative_ns(epoch_ns, origin_ns: int) -> np.ndarray:
    """Epoch ns (Int64, <NA> where unknown) as float64 ns from ``origin_ns``: subtracted as integers
    first (float64 keeps only ~256 ns at epoch magnitude), NaN where unknown."""
    values = pd.array(epoch_ns, dtype="Int64") - int(origin_ns)
    return values.to_numpy(dtype=np.float64, na_value=np.nan)


def _numbers(values) -> np.ndarray:
    return pd.to_numeric(pd.Series(values), errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)


def _curve(component: str, kind: str, ts_ns, mb, origin: int, downsample) -> Curve | None:
    ts = np.asarray(ts_ns, dtype=np.int64)
    y = np.asarray(mb, dtype=np.float64)
    keep = np.isfinite(y)  # an empty cell is no point (a component that never fills a column has no curve)
    ts, y = ts[keep], y[keep]
    if not len(y):
        return None
    points, sampled = len(y), False
    if points > DOWNSAMPLE_ABOVE:
        idx = np.asarray(downsample(ts, y, DRAW_POINTS), dtype=np.int64)
        ts, y, sampled = ts[idx], y[idx], True
    return Curve(component, kind, (ts - origin).astype(np.float64), y, points, sampled)


def _origin(report, view) -> int:
    """Time 0 of the report: the timeline's origin, else the first time the memory files record."""
    tl = getattr(report, "timeline", None)
    if tl is not None and len(getattr(tl, "start_ns", ())):
        return int(tl.origin_ns)
    firsts = []
    for component in view.components:
        for kind in KINDS:
            ts, _mb = view.curve(component, kind)
            if len(ts):
                firsts.append(int(np.min(ts)))
    for module in view.modules:
        ts, _mb = view.module_curve(module)
        if len(ts):
            firsts.append(int(np.min(ts)))
    alloc = pd.array(view.operators["alloc_ns"], dtype="Int64").dropna()  # exact int64 ns
    if len(alloc):
        firsts.append(int(alloc.min()))
    return min(firsts) if firsts else 0


def operator_table(operators: pd.DataFrame, origin_ns: int) -> pd.DataFrame:
    """operator_memory as the table shows it: allocation and release in ms from ``origin_ns``."""
    out = pd.DataFrame(index=operators.index)
    for key, _header in OPERATOR_COLUMNS:
        if key == "alloc_ms":
            out[key] = relative_ns(operators["alloc_ns"], origin_ns) / 1e6
        elif key == "release_ms":
            out[key] = relative_ns(operators["release_ns"], origin_ns) / 1e6
        elif key == "device" and "device_type" in operators.columns:
            out[key] = operators["device_type"].astype(object).to_numpy()  # as the file names it: NPU:0
        elif key in operators.columns:
            out[key] = operators[key]  # the table shows nullable ints exactly, missing as N/A
    return out.reset_index(drop=True)


def prepare_memory(report, progress=None, cancel=None) -> MemoryData:
    """Work function: core's memory view of ``report`` and its curves ready to draw."""
    from workbench.core.profiling.memory import downsample, memory_view

    view = memory_view(report)
    if view is None:
        return MemoryData(None)
    origin = _origin(report, view)
    data = MemoryData(view, origin)
    for component in view.components:
        for kind in KINDS:
            if cancel is not None:
                cancel.raise_if_cancelled()
            ts, mb = view.curve(component, kind)
            curve = _curve(component, kind, ts, mb, origin, downsample)
            if curve is not None:
                data.curves.append(curve)
    for module in view.modules:
        ts, mb = view.module_curve(module)
        curve = _curve(module, "reserved", ts, mb, origin, downsample)
        if curve is not None:
            data.modules.append(curve)
    data.operators = operator_table(view.operators, origin)
    return data


def _plot(parent: QWidget, y_label: str) -> pg.PlotWidget:
    plot = pg.PlotWidget(parent, axisItems={"bottom": TimeAxis("bottom")})
    plot.setBackground("w")
    item = plot.getPlotItem()
    item.hideButtons()
    item.setMenuEnabled(False)
    item.showGrid(x=True, y=True, alpha=0.2)
    item.setMouseEnabled(x=True, y=False)
    item.setLabel("left", y_label)
    plot.getAxis("left").enableAutoSIPrefix(False)  # MB as they are, never "(x1e+03)"
    plot.getAxis("left").setWidth(AXIS_PX)
    return plot


class MemoryPane(QWidget):
    """The Memory tab over a :class:`MemoryData`. ``op_activated(name, allocation epoch ns)``: the
    user clicked an operator's allocation (the document looks for the op on the timeline)."""

    op_activated = Signal(str, object)
    show_slice = Signal(int)  # Show on Timeline: the timeline slice of the clicked allocation's op
    cursor_moved = Signal(float)  # the cursor's time (ns from the report start)

    def __init__(self, data: MemoryData, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MemoryPane")
        self.data = data
        self.view = data.view
        self.origin_ns = data.origin_ns
        self.cursor_x: float | None = None
        self.drawn: dict[tuple[str, str], pg.PlotDataItem] = {}
        self.peak_items: list[Any] = []
        self.mark_row: int | None = None  # the operator_memory row marked on the curve
        self.linked: int | None = None  # the timeline slice of the last clicked allocation

        # --- controls --------------------------------------------------------------------------------
        self.component = QComboBox(self)
        self.component.setToolTip(self.tr("The memory_record component to draw"))
        self.component.addItem(self.tr("All components"), None)
        for name in dict.fromkeys(c.component for c in data.curves):
            self.component.addItem(name, name)
        self.component.currentIndexChanged.connect(lambda _i: self.redraw())
        self.kind_boxes: dict[str, QCheckBox] = {}
        for kind in KINDS:
            box = QCheckBox(_tr(KIND_LABELS[kind]), self)
            box.setChecked(kind != "active")
            box.setEnabled(any(c.kind == kind for c in data.curves))
            box.toggled.connect(lambda _on: self.redraw())
            self.kind_boxes[kind] = box
        self.peak_button = QPushButton(self.tr("Go to Peak"), self)
        self.peak_button.setToolTip(self.tr("Put the cursor on the highest curve's peak and list what is alive there"))
        self.peak_button.clicked.connect(lambda: self.go_to_peak())
        self.readout = QLabel(self)
        self.readout.setObjectName("memoryReadout")
        self.readout.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bar = flow_widget(
            self, [QLabel(self.tr("Component:"), self), self.component, *self.kind_boxes.values(), self.peak_button]
        )

        # --- the curves ------------------------------------------------------------------------------
        self.plot = _plot(self, self.tr("Memory (MB)"))
        self.legend = QLabel(self)  # above the plot, never over a curve
        self.legend.setObjectName("memoryLegend")
        self.legend.setWordWrap(True)
        self.time_cursor = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen("#333", width=1))
        self.time_cursor.setToolTip(self.tr("Drag the cursor: the operators alive at that time are listed"))
        self.time_cursor.hide()
        self.time_cursor.sigPositionChangeFinished.connect(lambda line: self.set_cursor(float(line.value())))
        self.plot.addItem(self.time_cursor, ignoreBounds=True)
        self.alloc_region = pg.LinearRegionItem(brush=pg.mkBrush(242, 142, 43, 50), movable=False)
        self.alloc_region.hide()
        self.plot.addItem(self.alloc_region, ignoreBounds=True)
        self.alloc_marker = pg.ScatterPlotItem(size=11, symbol="t", brush=pg.mkBrush("#f28e2b"), pen=pg.mkPen("#222"))
        self.plot.addItem(self.alloc_marker)
        self.plot.scene().sigMouseClicked.connect(self._plot_clicked)

        # --- modules ----------------------------------------------------------------------------------
        self.module = QComboBox(self)
        self.module.setToolTip(self.tr("The npu_module_mem module to draw"))
        used = [m for m in data.modules if np.nanmax(m.y) > 0]
        self.module.addItem(self.tr("Modules in use ({0})").format(len(used)), None)
        for m in sorted(data.modules, key=lambda m: -float(np.nanmax(m.y))):
            self.module.addItem(m.component, m.component)
        self.module.currentIndexChanged.connect(lambda _i: self.redraw_modules())
        self.module_plot = _plot(self, self.tr("MB"))
        self.module_plot.setXLink(self.plot)
        self.module_legend = QLabel(self)
        self.module_legend.setObjectName("moduleLegend")
        self.module_legend.setWordWrap(True)
        self.module_cursor = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen("#333", width=1))
        self.module_cursor.hide()
        self.module_plot.addItem(self.module_cursor, ignoreBounds=True)
        self.module_box = QWidget(self)
        module_layout = QVBoxLayout(self.module_box)
        module_layout.setContentsMargins(0, 0, 0, 0)
        module_layout.setSpacing(0)
        module_layout.addWidget(
            flow_widget(self.module_box, [QLabel(self.tr("NPU module memory:"), self), self.module])
        )
        module_layout.addWidget(self.module_legend)
        module_layout.addWidget(self.module_plot, 1)
        self.module_box.setVisible(bool(data.modules))

        # --- tables -----------------------------------------------------------------------------------
        self.operators = FrameTable(self.tr("Operator Memory"), self)
        self.operators.filter.setPlaceholderText(self.tr("Filter by operator name"))
        self.operators.row_activated.connect(self._operator_clicked)
        self.alive = FrameTable(self.tr("Alive"), self)
        self.status = QLabel(self)
        self.status.setObjectName("memoryStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.show_button = QPushButton(self.tr("Show on Timeline"), self)
        self.show_button.setToolTip(self.tr("Go to the Timeline with the clicked allocation's operator selected"))
        self.show_button.setEnabled(False)
        self.show_button.clicked.connect(lambda: self.show_slice.emit(self.linked) if self.linked is not None else None)

        curves_box = QWidget(self)
        curves_layout = QVBoxLayout(curves_box)
        curves_layout.setContentsMargins(0, 0, 0, 0)
        curves_layout.setSpacing(0)
        curves_layout.addWidget(self.legend)
        curves_layout.addWidget(self.plot, 1)
        plots = QSplitter(Qt.Orientation.Vertical, self)
        plots.addWidget(curves_box)
        plots.addWidget(self.module_box)
        plots.setStretchFactor(0, 3)
        plots.setStretchFactor(1, 2)
        plots.setSizes([330, 170])
        tables = QSplitter(Qt.Orientation.Horizontal, self)
        tables.addWidget(self.operators)
        tables.addWidget(self.alive)
        tables.setStretchFactor(0, 3)
        tables.setStretchFactor(1, 2)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(plots)
        split.addWidget(tables)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([500, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addWidget(bar)
        layout.addWidget(self.readout)
        layout.addWidget(split, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.show_button)
        layout.addLayout(bottom)

        if self.view is None or not (data.curves or data.modules or len(data.operators)):
            self.readout.setText(self.tr("This report has no memory data."))
            return
        if data.operators is not None:
            headers = [_tr(h) for k, h in OPERATOR_COLUMNS if k in data.operators.columns]
            self.operators.set_frame(
                data.operators,
                self.tr("operator_memory: {0} allocations. Click one to mark it on the curve.").format(
                    f"{len(data.operators):,}"
                ),
                headers=headers,
            )
        sampled = [c for c in data.curves + data.modules if c.downsampled]
        if sampled:
            self.status.setText(
                self.tr("Curves of more than {0} points are drawn from {1} points each; every peak is kept.").format(
                    f"{DOWNSAMPLE_ABOVE:,}", f"{DRAW_POINTS:,}"
                )
            )
        self.redraw()
        self.redraw_modules()
        self.go_to_peak()

    # --- drawing --------------------------------------------------------------------------------------
    def shown_curves(self) -> list[Curve]:
        """The curves the component selector and the kind toggles let through."""
        component = self.component.currentData()
        kinds = {k for k, box in self.kind_boxes.items() if box.isChecked()}
        return [c for c in self.data.curves if c.kind in kinds and (component is None or c.component == component)]

    def _color(self, component: str) -> str:
        names = list(dict.fromkeys(c.component for c in self.data.curves))
        return PALETTE[names.index(component) % len(PALETTE)] if component in names else PALETTE[0]

    def redraw(self) -> None:
        for item in list(self.drawn.values()) + self.peak_items:
            self.plot.removeItem(item)
        self.drawn, self.peak_items = {}, []
        curves = self.shown_curves()
        self.legend.setText(legend_html([(self._color(c.component), c.kind, curve_name(c)) for c in curves]))
        for c in curves:
            pen = pg.mkPen(
                self._color(c.component), width=2 if c.kind == "allocated" else 1.5, style=KIND_STYLE[c.kind]
            )
            item = pg.PlotDataItem(c.x, c.y, pen=pen, name=curve_name(c), connect="finite")
            self.plot.addItem(item)
            self.drawn[(c.component, c.kind)] = item
        # the peak of each kind shown (core's peaks): a dot on the curve that reaches it, and a label
        # beside it, reserved above its dot and allocated / active below theirs, so that they never cover
        # each other where the peaks coincide
        x_max = max((float(c.x[-1]) for c in curves if len(c.x)), default=0.0)
        for kind, peak in self.shown_peaks().items():
            x = float(peak.ts_ns - self.origin_ns)
            y = float(peak.value_mb)
            dot = pg.ScatterPlotItem(
                [x], [y], size=9, brush=pg.mkBrush(self._color(peak.component)), pen=pg.mkPen("#222")
            )
            text = pg.TextItem(
                self.tr("Peak {0}: {1} MB ({2})").format(_tr(KIND_LABELS[kind]).lower(), f"{y:,.2f}", peak.component),
                color="#222",
                anchor=(1.0 if x > x_max * 0.7 else 0.0, 1.0 if kind == "reserved" else 0.0),
                fill=pg.mkBrush(255, 255, 255, 210),
            )
            text.setPos(x, y)
            for item in (dot, text):
                self.plot.addItem(item)
                self.peak_items.append(item)
        if curves:
            self.plot.getPlotItem().enableAutoRange()
            top_y = max(float(np.nanmax(c.y)) for c in curves)
            # room above the highest curve for the label above the reserved peak
            self.plot.getPlotItem().setYRange(0, top_y * 1.25 or 1.0, padding=0)
        self._update_readout()

    def shown_peaks(self) -> dict[str, Any]:
        """Per kind shown, core's highest peak among the shown curves (``Peak``)."""
        shown = {(c.component, c.kind) for c in self.shown_curves()}
        out: dict[str, Any] = {}
        for peak in getattr(self.view, "peaks", None) or []:
            if (peak.component, peak.kind) not in shown or not np.isfinite(peak.value_mb):
                continue
            if peak.kind not in out or peak.value_mb > out[peak.kind].value_mb:
                out[peak.kind] = peak
        return {kind: out[kind] for kind in KINDS if kind in out}

    def redraw_modules(self) -> None:
        plot = self.module_plot
        for item in [i for i in plot.getPlotItem().listDataItems()]:
            plot.removeItem(item)
        chosen = self.module.currentData()
        shown = [m for m in self.data.modules if (m.component == chosen if chosen else np.nanmax(m.y) > 0)]
        for k, m in enumerate(shown):
            plot.addItem(
                pg.PlotDataItem(m.x, m.y, pen=pg.mkPen(PALETTE[k % len(PALETTE)], width=1.5), name=m.component)
            )
        self.module_legend.setText(
            legend_html([(PALETTE[k % len(PALETTE)], "allocated", m.component) for k, m in enumerate(shown)])
        )
        if shown:
            top_y = max(float(np.nanmax(m.y)) for m in shown)
            plot.getPlotItem().setYRange(0, top_y * 1.15 or 1.0, padding=0)

    # --- the cursor and the operators alive there -----------------------------------------------------------
    def peak(self):
        """Core's ``Peak`` the cursor goes to: the highest shown allocated curve's (else reserved, else
        active; every curve when none is shown), or None."""
        peaks = self.shown_peaks() or {
            p.kind: p
            for p in sorted(getattr(self.view, "peaks", None) or [], key=lambda p: p.value_mb)
            if np.isfinite(p.value_mb)
        }
        return next((peaks[kind] for kind in KINDS if kind in peaks), None)

    def go_to_peak(self) -> None:
        peak = self.peak()
        if peak is None:
            return
        x = float(peak.ts_ns - self.origin_ns)
        self.set_cursor(
            x,
            self.tr("At the peak of {0} {1} ({2} MB at {3})").format(
                peak.component, _tr(KIND_LABELS[peak.kind]).lower(), f"{peak.value_mb:,.2f}", self.time_text(x)
            ),
            at_ns=int(peak.ts_ns),
        )

    def time_text(self, x: float) -> str:
        """A time of the axis (ns from the report start) as the table shows it, in ms."""
        return self.tr("{0} ms").format(f"{x / 1e6:,.3f}")

    def set_cursor(self, x: float, what: str | None = None, at_ns: int | None = None) -> None:
        """Put the cursor at ``x`` (ns from the report start) and list the operators alive there
        (``at_ns``: the exact epoch time, where known)."""
        self.cursor_x = float(x)
        self.time_cursor.blockSignals(True)
        self.time_cursor.setValue(self.cursor_x)
        self.time_cursor.blockSignals(False)
        self.time_cursor.show()
        self.module_cursor.setValue(self.cursor_x)
        self.module_cursor.show()
        self.cursor_moved.emit(self.cursor_x)
        if self.view is None:
            return
        alive = self.view.alive_at(at_ns if at_ns is not None else int(round(self.origin_ns + self.cursor_x)))
        table = operator_table(alive, self.origin_ns)
        table = table[[c for c in ALIVE_COLUMNS if c in table.columns]]
        if "size_kb" in table.columns:
            table = table.sort_values("size_kb", ascending=False, kind="stable")
        total_mb = float(np.nansum(_numbers(table["size_kb"]))) / 1024 if "size_kb" in table.columns else 0.0
        what = what or self.tr("At the cursor ({0})").format(self.time_text(self.cursor_x))
        self.alive.set_frame(
            table.reset_index(drop=True),
            self.tr("{0} · alive: {1} · {2} MB").format(what, len(table), f"{total_mb:,.2f}"),
            headers=[_tr(h) for k, h in OPERATOR_COLUMNS if k in table.columns],
        )
        self._update_readout()

    def value_at(self, curve: Curve, x: float) -> float | None:
        """The curve's value at ``x``: the last record at or before it."""
        i = int(np.searchsorted(curve.x, x, side="right")) - 1
        return float(curve.y[i]) if i >= 0 else None

    def _update_readout(self) -> None:
        if self.cursor_x is None:
            self.readout.setText("")
            return
        parts = [self.tr("Cursor {0}").format(self.time_text(self.cursor_x))]
        for c in self.shown_curves():
            v = self.value_at(c, self.cursor_x)
            if v is not None:
                parts.append(f"{c.component} {_tr(KIND_LABELS[c.kind]).lower()} {v:,.2f} MB")
        self.readout.setText(" · ".join(parts))

    def _plot_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or event.double():
            return
        vb = self.plot.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        self.set_cursor(vb.mapSceneToView(event.scenePos()).x())

    # --- operator allocations ------------------------------------------------------------------------------
    def _operator_clicked(self, source_row: int) -> None:
        self.mark_allocation(source_row)
        op = self.view.operators.iloc[source_row]
        alloc = pd.to_numeric(pd.Series([op["alloc_ns"]]), errors="coerce").iloc[0]
        if pd.notna(alloc):
            self.op_activated.emit(str(op["name"]), int(alloc))

    def mark_allocation(self, source_row: int) -> None:
        """Mark operator ``source_row``'s allocation on the curve: a triangle at its allocation
        (total allocated then), one at its release, the span between shaded; the view follows."""
        self.mark_row = source_row
        row = self.data.operators.iloc[source_row]
        op = self.view.operators.iloc[[source_row]]
        a, r = (float(relative_ns(op[key], self.origin_ns)[0]) for key in ("alloc_ns", "release_ns"))
        if np.isnan(a):
            return
        xs, ys = [a], [float(row.get("alloc_total_allocated_mb", np.nan))]
        if not np.isnan(r):
            xs.append(r)
            ys.append(float(row.get("release_total_allocated_mb", np.nan)))
            self.alloc_region.setRegion((a, r))
            self.alloc_region.show()
        else:
            self.alloc_region.hide()
        keep = [k for k, y in enumerate(ys) if np.isfinite(y)]
        self.alloc_marker.setData([xs[k] for k in keep], [ys[k] for k in keep])
        t0, t1 = self.plot.getPlotItem().getViewBox().viewRange()[0]
        end = xs[-1]
        if a < t0 or end > t1:
            span = max(t1 - t0, (end - a) * 3, 1000.0)
            self.plot.getPlotItem().setXRange(a - span * 0.3, a + span * 0.7, padding=0)
        size = row.get("size_kb", np.nan)
        released = self.time_text(r) if not np.isnan(r) else self.tr("never (in this profile)")
        self.set_status(
            self.tr("{0}: {1} KB allocated at {2}, released at {3}").format(
                row.get("name", ""), f"{float(size):,.1f}", self.time_text(a), released
            )
        )
        self.set_cursor(a, at_ns=int(op["alloc_ns"].iloc[0]))

    def set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color:#933;" if error else "")

    def set_linked(self, index: int | None, text: str) -> None:
        """What the document found on the timeline for the clicked allocation (``index``: its slice)."""
        self.linked = index
        self.show_button.setEnabled(index is not None)
        self.status.setText(f"{self.status.text()} — {text}" if self.status.text() else text)
