"""Timeline view: navigation tree, lanes with level-of-detail slices, counters, steps, search, selection.

Navigation follows Perfetto / MindStudio Insight: drag pans, wheel scrolls lanes, Ctrl+wheel and
W/S zoom at the mouse pointer, A/D pan, F fits the selection, 0 resets, Backspace undoes a zoom,
`.` / `,` go to the next / previous slice in the lane, Shift+drag selects a time range over the
lanes it covers, `?` lists all of it over the plot (and Help ▸ Keyboard Shortcuts does too).
The plot takes the keyboard focus when the view is first shown, so the keys work at once.
All the numbers come from core (``lod``, ``timeline_ops``, ``steps``); this module only draws
and forwards.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QKeyEvent, QPainter, QPen, QPolygonF, QTransform
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.profiling import timeline_ops
from workbench.core.profiling.lod import TimelineLayout
from workbench.ui.flowlayout import flow_widget
from workbench.ui.report.palette import name_color_index
from workbench.ui.report.slices_item import RULE_INDEX, DisplayRow, SlicesItem

API_PROCESSES = ("CANN", "AscendCL", "Runtime", "GE", "OS Runtime API")


def shortcut_rows() -> list[tuple[str, str]]:
    """Every key and mouse gesture of the timeline as (what it does, key or gesture), translated:
    the "?" overlay and Help ▸ Keyboard Shortcuts both list these."""
    return [
        (QCoreApplication.translate("TimelineView", "Zoom in / out at the mouse pointer"), "W / S"),
        (
            QCoreApplication.translate("TimelineView", "Zoom at the mouse pointer"),
            QCoreApplication.translate("TimelineView", "Ctrl+Wheel"),
        ),
        (QCoreApplication.translate("TimelineView", "Pan left / right"), "A / D"),
        (
            QCoreApplication.translate("TimelineView", "Pan in time and across lanes"),
            QCoreApplication.translate("TimelineView", "Drag"),
        ),
        (
            QCoreApplication.translate("TimelineView", "Scroll the lanes"),
            QCoreApplication.translate("TimelineView", "Wheel"),
        ),
        (
            QCoreApplication.translate("TimelineView", "Select a slice (its details in Properties)"),
            QCoreApplication.translate("TimelineView", "Click"),
        ),
        (
            QCoreApplication.translate("TimelineView", "Select a time range over the lanes it covers (Selection tab)"),
            QCoreApplication.translate("TimelineView", "Shift+Drag"),
        ),
        (
            QCoreApplication.translate("TimelineView", "Zoom to a step (or choose it in the step list)"),
            QCoreApplication.translate("TimelineView", "Click the Steps row"),
        ),
        (QCoreApplication.translate("TimelineView", "Fit the selected slice or range"), "F"),
        (QCoreApplication.translate("TimelineView", "Show the whole report"), "0"),
        (QCoreApplication.translate("TimelineView", "Undo the last zoom"), "Backspace"),
        (QCoreApplication.translate("TimelineView", "Next / previous slice in the lane"), ". / ,"),
        (QCoreApplication.translate("TimelineView", "Next match of the search"), "Enter"),
        (QCoreApplication.translate("TimelineView", "Close this list, clear the range selection"), "Esc"),
        (QCoreApplication.translate("TimelineView", "Show or hide the keys and mouse gestures"), "?"),
    ]


def help_shortcut_rows() -> list[tuple[str, str]]:
    """``shortcut_rows`` for Help ▸ Keyboard Shortcuts, each named as a timeline entry."""
    return [
        (QCoreApplication.translate("TimelineView", "Timeline ▸ {0}").format(what), keys)
        for what, keys in shortcut_rows()
    ]


class TimeAxis(pg.AxisItem):
    """Time relative to the report start; the unit follows the zoom (ns … s)."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph API
        unit, factor = timeline_ops.unit_for(spacing * 5)
        label = "µs" if unit == "us" else unit
        decimals = 0 if spacing / factor >= 1 else min(6, int(np.ceil(-np.log10(spacing / factor))) + 0)
        return [f"{v / factor:.{decimals}f} {label}" for v in values]


class LaneAxis(pg.AxisItem):
    """Lane names at the rows where lanes start; as wide as the widest name (up to ``MAX_PX``,
    longer names elided), since pyqtgraph drops a tick label that does not fit."""

    MIN_PX, MAX_PX = 90, 200

    def __init__(self) -> None:
        super().__init__("left")
        self.labels: dict[int, str] = {}
        self.tick_font = QFont()
        self.setStyle(tickFont=self.tick_font)

    def fits(self, text: str) -> bool:
        return QFontMetrics(self.tick_font).horizontalAdvance(text) <= self.MAX_PX - 16

    def set_labels(self, labels: dict[int, str]) -> None:
        fm = QFontMetrics(self.tick_font)
        room = self.MAX_PX - 16
        self.labels = {y: fm.elidedText(t, Qt.TextElideMode.ElideRight, room) for y, t in labels.items()}
        widest = max((fm.horizontalAdvance(t) for t in self.labels.values()), default=0)
        self.setWidth(int(min(self.MAX_PX, max(self.MIN_PX, widest + 16))))
        self.picture = None
        self.update()

    def tickValues(self, minVal, maxVal, size):  # noqa: N802,N803 - pyqtgraph API
        lo, hi = sorted((minVal, maxVal))  # the view is inverted: pyqtgraph passes (max, min)
        return [(1.0, [y + 0.5 for y in self.labels if lo - 1 <= y <= hi])]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph API
        return [self.labels.get(int(v - 0.5), "") for v in values]


class ElidedLabel(QLabel):
    """A one-line label that elides its text at the right when narrower than it (full text in the
    tooltip), so a long legend never widens the view or shows cut-off glyphs."""

    def minimumSizeHint(self):  # noqa: N802 - Qt API
        hint = super().minimumSizeHint()
        hint.setWidth(40)
        return hint

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        fm = self.fontMetrics()
        text = fm.elidedText(self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width())
        painter.drawText(self.contentsRect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)

    def is_elided(self) -> bool:
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()


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


class ShortcutOverlay(QFrame):
    """The "?" list of keys and mouse gestures, over the top right of the plot; a click closes it."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("TimelineShortcutOverlay")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setStyleSheet(
            "#TimelineShortcutOverlay { background: rgba(255, 255, 255, 240); border: 1px solid #8a93a0;"
            " border-radius: 4px; }"
        )
        self.label = QLabel(self)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(self.label)
        self.refresh()
        self.hide()

    def refresh(self) -> None:
        rows = "".join(
            f"<tr><td style='padding-right:14px'><b>{keys}</b></td><td>{what}</td></tr>"
            for what, keys in shortcut_rows()
        )
        title = self.tr("Timeline keys and mouse gestures")
        self.label.setText(f"<p><b>{title}</b></p><table cellspacing='2'>{rows}</table>")
        self.adjustSize()

    def text(self) -> str:
        return self.label.text()

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.hide()
        event.accept()


MARK_BADGE = "⚑"  # before a lane's name: the advisor has a finding about it
MARK_PEN = QColor(230, 126, 34)


class AdvisorMarksItem(pg.GraphicsObject):
    """The advisor's evidence slices, outlined in orange (at least a few pixels wide, so an op of a
    microsecond still shows at any zoom), with a small flag above their start."""

    def __init__(self, view: TimelineView) -> None:
        super().__init__()
        self.view = view

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        span = max(1, int(getattr(self.view.timeline, "span_ns", 0) or 1))
        return QRectF(0.0, 0.0, float(span), float(max(1, len(self.view.rows))))

    def paint(self, painter: QPainter, _option, _widget=None) -> None:
        marks = self.view.slice_marks
        spans = self.view.span_marks
        if not marks and not spans:
            return
        tr = painter.transform()
        sx, sy, dx, dy = tr.m11(), tr.m22(), tr.dx(), tr.dy()
        if sx == 0 or sy == 0:
            return
        t0, t1 = self.view.x_range()
        tl = self.view.timeline
        painter.save()
        painter.setTransform(QTransform())
        pen = QPen(MARK_PEN, 2)
        for index in marks:
            s = float(tl.start_ns[index])
            e = s + float(tl.dur_ns[index])
            if e < t0 or s > t1:
                continue
            y = self.view._row_y_of(index)
            if y is None:
                continue
            a, b = dx + sx * s, dx + sx * e
            top, bottom = dy + sy * y, dy + sy * (y + 1)
            if b - a < 4:
                a, b = (a + b) / 2 - 2, (a + b) / 2 + 2
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(QRectF(a, min(top, bottom) + 1, b - a, abs(bottom - top) - 2))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(MARK_PEN)
            y0 = min(top, bottom) + 1
            painter.drawPolygon(QPolygonF([QPointF(a, y0), QPointF(a + 7, y0), QPointF(a, y0 + 7)]))
        dashed = QPen(MARK_PEN, 1.5, Qt.PenStyle.DashLine)
        for lane, s0, s1 in spans:
            if s1 < t0 or s0 > t1:
                continue
            y = next((r.y for r in self.view.rows if r.kind == "slices" and r.lane == lane), None)
            if y is None:
                continue
            a, b = dx + sx * s0, dx + sx * s1
            top, bottom = dy + sy * y, dy + sy * (y + 1)
            painter.setPen(dashed)
            painter.setBrush(QColor(230, 126, 34, 40))
            painter.drawRect(QRectF(a, min(top, bottom) + 1, max(3.0, b - a), abs(bottom - top) - 2))
        painter.restore()


class TimelineView(QWidget):
    slice_selected = Signal(int)  # slice index (-1: none)
    range_selected = Signal(int, int, object)  # t0 ns, t1 ns, list of lane indices
    event_view_requested = Signal(int)  # lane index

    ROW_PX = 22  # default pixel height of a row (the Row height control changes it)

    def __init__(
        self,
        timeline,
        parent: QWidget | None = None,
        layout: TimelineLayout | None = None,
        name_colors: np.ndarray | None = None,
        part_labels: list[str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("TimelineView")
        self.timeline = timeline
        self.layout_ = layout if layout is not None else TimelineLayout(timeline)
        self._base_colors = name_colors
        self.origins = timeline_ops.origins(timeline)
        # a merge of named parts (ranks aligned on a step): each lane group starts with its part's name
        self.part_labels = part_labels
        self._lane_parts = timeline_ops.lane_parts(timeline) if part_labels else []
        self.hidden_lanes: set[int] = set()
        self.pinned_lanes: list[int] = []
        self.hidden_counters: set[int] = set()
        self.collapsed_groups: set[str] = set()
        self.counters_expanded = False
        self.color_rule: timeline_ops.ColorRule | None = None
        self.matches = np.empty(0, dtype=np.int64)
        self.match_pos = -1
        self.zoom_history: list[tuple[float, float]] = []
        self.selected: int | None = None
        self.selection_range: tuple[int, int, list[int]] | None = None
        self.step_spans: list[tuple[int, int, int]] = []  # (step id, start ns, end ns), timeline-relative
        self.rows: list[DisplayRow] = []
        self._mouse_scene: QPointF | None = None  # where the mouse is over the plot (W/S zoom there)
        self._cursor_t: float | None = None
        self._focused_once = False
        self._menu: QMenu | None = None
        # the advisor's marks (issue #21): slice / lane index -> the titles of the findings about it
        self.slice_marks: dict[int, list[str]] = {}
        self.lane_marks: dict[int, list[str]] = {}
        self.span_marks: dict[tuple[int, ...], list[str]] = {}

        # --- navigation tree --------------------------------------------------------------------
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels([self.tr("Lanes")])
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._tree_menu)
        self.tree.itemChanged.connect(self._tree_item_changed)
        self.tree.itemCollapsed.connect(lambda item: self._group_expanded(item, False))
        self.tree.itemExpanded.connect(lambda item: self._group_expanded(item, True))

        # --- plot ------------------------------------------------------------------------------------
        self.viewbox = TimelineViewBox()
        self.lane_axis = LaneAxis()
        self.plot = pg.PlotWidget(
            viewBox=self.viewbox, axisItems={"bottom": TimeAxis("bottom"), "left": self.lane_axis}
        )
        self.plot.setBackground("w")
        self.plot.getPlotItem().hideButtons()
        self.plot.getPlotItem().setMenuEnabled(False)
        self.item = SlicesItem(timeline, self.layout_)
        self.plot.addItem(self.item)
        self.region = pg.LinearRegionItem(brush=pg.mkBrush(47, 101, 202, 40), movable=False)
        self.region.hide()
        self.plot.addItem(self.region, ignoreBounds=True)
        self.cursor_line = pg.InfiniteLine(angle=90, pen=pg.mkPen(QColor(120, 120, 120), style=Qt.PenStyle.DashLine))
        self.cursor_line.hide()
        self.plot.addItem(self.cursor_line, ignoreBounds=True)
        self.marks_item = AdvisorMarksItem(self)
        self.plot.addItem(self.marks_item, ignoreBounds=True)
        # the time under the mouse, at the bottom of the cursor line (in the unit of the header)
        self.cursor_text = pg.InfLineLabel(
            self.cursor_line,
            text="",
            position=0.97,
            anchors=[(0, 1), (0, 1)],
            color=(60, 60, 60),
            fill=(255, 255, 255, 210),
        )
        self.viewbox.range_dragged.connect(self._on_range_drag)
        self.viewbox.clicked.connect(self._on_click)
        self.viewbox.sigXRangeChanged.connect(lambda *_: self._update_readouts())
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.overlay = ShortcutOverlay(self)  # over the plot; wider than a narrow plot, it overlaps the tree
        self.overlay.installEventFilter(self)

        # --- search and readouts ----------------------------------------------------------------------
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("Search slices by name"))
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(160)
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
        self.start_label.setObjectName("viewStart")
        self.end_label = QLabel(self)
        self.end_label.setObjectName("viewEnd")
        self.duration_label = QLabel(self)
        self.duration_label.setObjectName("viewDuration")
        self.readouts = (self.start_label, self.end_label, self.duration_label)

        # --- controls: steps, row height, counters, "?" -----------------------------------------------
        self.step_combo = QComboBox(self)
        self.step_combo.setObjectName("zoomToStep")
        self.step_combo.setToolTip(self.tr("Zoom the timeline to one step"))
        self.step_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.step_combo.setMaximumWidth(320)  # a long step label elides (it wraps onto its own row)
        self.step_combo.activated.connect(self._step_chosen)
        self.step_combo.hide()
        self.row_height_label = QLabel(self.tr("Row height"), self)
        self.row_height = QSpinBox(self)
        self.row_height.setObjectName("rowHeight")
        self.row_height.setRange(14, 48)
        self.row_height.setSingleStep(2)
        self.row_height.setSuffix(" px")
        self.row_height.setValue(self.ROW_PX)
        self.row_height.setToolTip(self.tr("Height of one timeline row"))
        self.row_height.valueChanged.connect(self.set_row_height)
        self.row_height_label.setBuddy(self.row_height)
        self.counters_button = QToolButton(self)
        self.counters_button.setObjectName("expandCounters")
        self.counters_button.setCheckable(True)
        self.counters_button.setText(self.tr("Expand Counters"))
        self.counters_button.setToolTip(self.tr("One row per counter (compact) or one taller row per series"))
        self.counters_button.toggled.connect(self.set_counters_expanded)
        self.counters_button.setVisible(bool(getattr(timeline, "counters", None)))
        self.help_button = QToolButton(self)
        self.help_button.setObjectName("timelineKeys")
        self.help_button.setText("?")
        self.help_button.setCheckable(True)
        self.help_button.setToolTip(self.tr("Keys and mouse gestures of the timeline (?)"))
        self.help_button.toggled.connect(self.show_shortcuts)

        # three groups that wrap onto more rows in a narrow view (never widening the window): the
        # search, the step, and the display controls at the right end
        def group(*widgets: QWidget) -> QWidget:
            box = QWidget(self)
            row = QHBoxLayout(box)
            row.setContentsMargins(0, 0, 0, 0)
            for w in widgets:
                row.addWidget(w)
            return box

        controls = (self.row_height_label, self.row_height, self.counters_button, self.help_button)
        top = flow_widget(
            self,
            [group(self.search, self.regex, prev_btn, next_btn, self.match_label), self.step_combo, group(*controls)],
            trailing=2,
        )
        top.layout().setContentsMargins(4, 2, 4, 2)

        # --- under the plot: legend, and Start / End / Duration of the view ---------------------------
        self.legend = ElidedLabel(self)
        self.legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        bottom = QHBoxLayout()
        bottom.setContentsMargins(4, 2, 4, 2)
        bottom.setSpacing(8)
        bottom.addWidget(self.legend, 1)
        for k, w in enumerate(self.readouts):
            if k:
                sep = QFrame(self)
                sep.setFrameShape(QFrame.Shape.VLine)
                sep.setFrameShadow(QFrame.Shadow.Sunken)
                bottom.addWidget(sep)
            w.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            bottom.addWidget(w)

        right = QWidget(self)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.setSpacing(0)
        rl.addWidget(top)
        rl.addWidget(self.plot, 1)
        rl.addLayout(bottom)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.tree)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        self.tree.setMinimumWidth(150)
        self.splitter = splitter
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(splitter)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.plot.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setFocusProxy(self.plot)
        self.plot.installEventFilter(self)
        self.plot.viewport().installEventFilter(self)

        self._fill_tree()
        # the tree as wide as its names (within reason), the plot the rest
        tree_px = min(200, max(150, self.tree.sizeHintForColumn(0) + 24))
        splitter.setSizes([tree_px, 1000])
        self.set_color_rule(None)
        self.rebuild_rows()
        self.reset_zoom()

    # --- labels -------------------------------------------------------------------------------------------
    def _tag(self, device: int | None, part: int | None) -> str:
        """'#2 D1': the part of a merged report and the device, where the label must say them."""
        bits = [f"#{part}" if part is not None else "", f"D{device}" if device is not None else ""]
        return " ".join(b for b in bits if b)

    def lane_label(self, lane: int) -> str:
        """Short lane name for the axis: 'D0 Stream 3', 'CANN · Thread 1000', '#2 CANN · Thread 1000'."""
        info = self.timeline.lanes[lane]
        name = info.thread_name or self.tr("Thread {0}").format(info.tid)
        device = self.origins.lane_device[lane]
        if info.is_stream and device is None:
            device = info.device
        tag = self._tag(device, self.origins.lane_part[lane])
        text = name if info.is_stream else f"{info.process_name} · {name}"
        text = f"{tag} {text}" if tag else text
        return f"{MARK_BADGE} {text}" if lane in self.lane_marks else text

    def group_label(self, lane: int) -> str:
        """The tree group of a lane: 'Device 0 · Ascend Hardware', 'Host · CANN', 'Report 2 · Host · CANN'."""
        info = self.timeline.lanes[lane]
        device = self.origins.lane_device[lane]
        if info.device is not None:
            text = self.tr("Device {0} · {1}").format(info.device, info.process_name)
        elif device is not None:
            text = self.tr("Host of Device {0} · {1}").format(device, info.process_name)
        else:
            text = self.tr("Host · {0}").format(info.process_name)
        if self.part_labels and lane < len(self._lane_parts) and 0 <= self._lane_parts[lane] < len(self.part_labels):
            return self.tr("{0} · {1}").format(self.part_labels[self._lane_parts[lane]], text)
        part = self.origins.lane_part[lane]
        return self.tr("Report {0} · {1}").format(part, text) if part is not None else text

    def counter_label(self, ci: int, series: str | None = None) -> str:
        """'D1 AI Core Freq · MHz'; without ``series`` the compact row's 'HBM · Read(MB/s), Write(MB/s)',
        or 'NPU MEM · 3 series' where the names do not fit."""
        counter = self.timeline.counters[ci]
        tag = self._tag(self.origins.counter_device[ci], self.origins.counter_part[ci])
        name = f"{tag} {counter.name}" if tag else counter.name
        names = [series] if series is not None else list(counter.series)
        shown = [s for s in names if s != counter.name]
        text = f"{name} · {', '.join(shown)}" if shown else name
        if series is None and len(shown) > 1 and not self.lane_axis.fits(text):
            text = self.tr("{0} · {1} series").format(name, len(shown))
        return text

    # --- rows -------------------------------------------------------------------------------------------
    def lane_order(self) -> list[int]:
        lanes = sorted(range(len(self.timeline.lanes)), key=lambda i: (self.timeline.lanes[i].sort_index, i))
        pinned = [i for i in self.pinned_lanes if i in lanes]
        return pinned + [i for i in lanes if i not in pinned]

    def lane_collapsed(self, lane: int) -> bool:
        return self.group_label(lane) in self.collapsed_groups

    def rebuild_rows(self) -> None:
        """Lay the displayed rows out again (pin, hide, collapse, counters, steps): labels, rows,
        and the selected slice's flow arrows at the rows their ends are now on."""
        rows: list[DisplayRow] = []
        labels: dict[int, str] = {}
        y = 0
        if self.step_spans:
            labels[y] = self.tr("Steps")
            rows.append(DisplayRow(y=y, kind="steps"))
            y += 1
        for lane in self.lane_order():
            if lane in self.hidden_lanes:
                continue
            row_ids = self.layout_.lane_rows.get(lane, [])
            if not row_ids:
                continue
            labels[y] = self.lane_label(lane)
            ordered = sorted(row_ids, key=lambda r: self.layout_.rows[r].level)
            if self.lane_collapsed(lane):
                ordered = ordered[:1]
            for rid in ordered:
                rows.append(DisplayRow(y=y, kind="slices", lane=lane, row=rid))
                y += 1
        for ci, counter in enumerate(getattr(self.timeline, "counters", []) or []):
            if ci in self.hidden_counters:
                continue
            if not self.counters_expanded:
                labels[y] = self.counter_label(ci)
                rows.append(DisplayRow(y=y, kind="counter", counter=ci, series="", height=1))
                y += 1
                continue
            for series in counter.series:
                labels[y] = self.counter_label(ci, series)
                rows.append(DisplayRow(y=y, kind="counter", counter=ci, series=series, height=2))
                y += 2
        self.rows = rows
        self.lane_axis.set_labels(labels)
        self.item.flows = self._flows_of(self.selected) if self.selected is not None else []
        self.item.set_rows(rows)

    def _fill_tree(self) -> None:
        self.tree.blockSignals(True)
        self.tree.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        for lane in self.lane_order():
            info = self.timeline.lanes[lane]
            if lane not in self.layout_.lane_rows:
                continue
            key = self.group_label(lane)
            group = groups.get(key)
            if group is None:
                group = QTreeWidgetItem([key])
                group.setToolTip(0, key)
                group.setData(0, Qt.ItemDataRole.UserRole, ("group", key))
                group.setFlags(group.flags() | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsAutoTristate)
                group.setCheckState(0, Qt.CheckState.Checked)
                self.tree.addTopLevelItem(group)
                groups[key] = group
            item = QTreeWidgetItem([info.thread_name or info.tid])
            item.setToolTip(
                0, self.tr("{0} · {1} (process {2}, thread {3})").format(key, item.text(0), info.pid, info.tid)
            )
            item.setData(0, Qt.ItemDataRole.UserRole, ("lane", lane))
            if lane in self.lane_marks:  # the advisor's badge: a finding has evidence on this lane
                from workbench.ui.report.table import mark_icon

                item.setIcon(0, mark_icon())
                item.setToolTip(0, "\n".join([item.toolTip(0)] + [f"{MARK_BADGE} {t}" for t in self.lane_marks[lane]]))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(0, Qt.CheckState.Unchecked if lane in self.hidden_lanes else Qt.CheckState.Checked)
            group.addChild(item)
        counters = getattr(self.timeline, "counters", []) or []
        if counters:
            group = QTreeWidgetItem([self.tr("Counters")])
            group.setFlags(group.flags() | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsAutoTristate)
            self.tree.addTopLevelItem(group)
            for ci, counter in enumerate(counters):
                tag = self._tag(self.origins.counter_device[ci], self.origins.counter_part[ci])
                item = QTreeWidgetItem([f"{tag} · {counter.name}" if tag else counter.name])
                item.setData(0, Qt.ItemDataRole.UserRole, ("counter", ci))
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(0, Qt.CheckState.Unchecked if ci in self.hidden_counters else Qt.CheckState.Checked)
                group.addChild(item)
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            data = top.data(0, Qt.ItemDataRole.UserRole)
            top.setExpanded(not (data and data[1] in self.collapsed_groups))
        self.tree.blockSignals(False)

    def _tree_item_changed(self, item: QTreeWidgetItem, _col: int) -> None:
        data = item.data(0, Qt.ItemDataRole.UserRole)
        if not data or data[0] == "group":
            return
        kind, index = data
        visible = item.checkState(0) == Qt.CheckState.Checked
        target = self.hidden_lanes if kind == "lane" else self.hidden_counters
        (target.discard if visible else target.add)(index)
        self.rebuild_rows()

    def _group_expanded(self, item: QTreeWidgetItem, expanded: bool) -> None:
        """Collapsing a group in the tree folds its lanes to their top row in the plot."""
        data = item.data(0, Qt.ItemDataRole.UserRole)
        if not data or data[0] != "group":
            return
        (self.collapsed_groups.discard if expanded else self.collapsed_groups.add)(data[1])
        self.rebuild_rows()

    def set_all_expanded(self, expanded: bool) -> None:
        for i in range(self.tree.topLevelItemCount()):
            self.tree.topLevelItem(i).setExpanded(expanded)

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
        menu.addAction(self.tr("Collapse All"), lambda: self.set_all_expanded(False))
        menu.addAction(self.tr("Expand All"), lambda: self.set_all_expanded(True))
        self._popup(menu, self.tree.viewport().mapToGlobal(pos))

    def _popup(self, menu: QMenu, at: QPoint) -> None:
        """Show a context menu without blocking (the user picks an entry or clicks away)."""
        if self._menu is not None:
            self._menu.deleteLater()
        self._menu = menu
        menu.popup(at)

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

    def set_counters_expanded(self, expanded: bool) -> None:
        """Counters as one compact row each (default) or one taller row per series."""
        self.counters_expanded = bool(expanded)
        if self.counters_button.isChecked() != self.counters_expanded:
            self.counters_button.setChecked(self.counters_expanded)
        self.rebuild_rows()

    def set_row_height(self, px: int) -> None:
        """Pixel height of one row: the visible row count follows the plot height."""
        self.ROW_PX = int(px)
        if self.row_height.value() != px:
            self.row_height.setValue(px)
        self._fit_rows_to_height()

    # --- steps --------------------------------------------------------------------------------------------
    def set_steps(self, steps) -> None:
        """Show the report's steps (``core.profiling.steps.Steps`` or None): a Steps row on top,
        step boundaries across the lanes and the "zoom to step" list."""
        origin = int(getattr(self.timeline, "origin_ns", 0) or 0)
        spans = list(getattr(steps, "spans", ()) or ())
        self.step_spans = [(int(sp.id), int(sp.start_ns) - origin, int(sp.end_ns) - origin) for sp in spans]
        self.item.steps = [(s, e, self.tr("Step {0}").format(i)) for i, s, e in self.step_spans]
        self.step_combo.blockSignals(True)
        self.step_combo.clear()
        self.step_combo.addItem(self.tr("Zoom to step…"), None)
        for i, s, e in self.step_spans:
            self.step_combo.addItem(
                self.tr("Step {0} ({1})").format(i, timeline_ops.format_ns(e - s)),
                i,
            )
        self.step_combo.setCurrentIndex(0)
        self.step_combo.blockSignals(False)
        self.step_combo.setVisible(bool(self.step_spans))
        self.rebuild_rows()
        if self.step_spans:
            self._fit_rows_to_height(top=-0.2)

    def _step_chosen(self, index: int) -> None:
        step = self.step_combo.itemData(index)
        if step is not None:
            self.zoom_to_step(int(step))

    def step_at(self, t: float) -> int | None:
        """The step running at time ``t`` (the later one where two overlap), or None."""
        hit = [i for i, s, e in self.step_spans if s <= t < e]
        return hit[-1] if hit else None

    def zoom_to_step(self, step: int) -> None:
        span = next(((s, e) for i, s, e in self.step_spans if i == step), None)
        if span is None:
            return
        s, e = span
        margin = max(10.0, (e - s) * 0.02)
        self.set_x_range(s - margin, e + margin)
        k = self.step_combo.findData(step)
        if k >= 0:
            self.step_combo.setCurrentIndex(k)

    # --- the advisor's marks ------------------------------------------------------------------------------
    def set_marks(
        self,
        slices: dict[int, list[str]],
        lanes: dict[int, list[str]],
        spans: dict[tuple[int, int, int], list[str]] | None = None,
    ) -> None:
        """Mark the slices, lanes and stretches of lanes ((lane, start, end) in timeline ns) the
        advisor's findings are about (-> finding titles): the slices outlined, the stretches framed
        with a dashed line, the lanes badged in the axis and the tree (their tooltip names the findings)."""
        self.slice_marks = {int(k): list(v) for k, v in slices.items()}
        self.lane_marks = {int(k): list(v) for k, v in lanes.items()}
        self.span_marks = {tuple(int(x) for x in k): list(v) for k, v in (spans or {}).items()}
        self._fill_tree()
        self.rebuild_rows()
        self.marks_item.update()

    def marks_at(self, index: int) -> list[str]:
        """The titles of the findings about slice ``index`` (none: [])."""
        return self.slice_marks.get(int(index), [])

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
            self.legend.setText(self.tr("Colour by slice name; pale: merged slices under a pixel"))
        self.legend.setToolTip(
            self.legend.text()
            + "\n"
            + self.tr("A merged run is drawn in the colour of its longest slice; press ? for the keys.")
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
        self.viewbox.setXRange(first, first + span, padding=0)
        self._fit_rows_to_height(top=-0.2)

    def _fit_rows_to_height(self, top: float | None = None) -> None:
        """Rows keep a fixed pixel height: the visible row count follows the widget height."""
        y0 = self.viewbox.viewRange()[1][0] if top is None else top
        rows_visible = max(3.0, self.viewbox.height() / self.ROW_PX) if self.viewbox.height() > 10 else 20.0
        self.viewbox.setYRange(y0, y0 + rows_visible, padding=0)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_rows_to_height()
        self._place_overlay()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        """The first time the timeline shows, the plot takes the keyboard focus: W/S/A/D work at once."""
        super().showEvent(event)
        if not self._focused_once:
            self._focused_once = True
            self.plot.setFocus(Qt.FocusReason.OtherFocusReason)

    def undo_zoom(self) -> None:
        if self.zoom_history:
            t0, t1 = self.zoom_history.pop()
            self.viewbox.setXRange(t0, t1, padding=0)

    def zoom_anchor(self) -> float:
        """The time W/S zoom around: under the mouse when it is over the plot, else the view centre."""
        t0, t1 = self.x_range()
        if self._mouse_scene is not None and self.viewbox.sceneBoundingRect().contains(self._mouse_scene):
            t = self.viewbox.mapSceneToView(self._mouse_scene).x()
            if t0 <= t <= t1:
                return t
        return (t0 + t1) / 2

    def zoom(self, factor: float, anchor: float | None = None) -> None:
        """Zoom by ``factor`` (< 1 zooms in) keeping ``anchor`` (default: :meth:`zoom_anchor`) in place."""
        t0, t1 = self.x_range()
        a = self.zoom_anchor() if anchor is None else anchor
        self.set_x_range(a - (a - t0) * factor, a + (t1 - a) * factor)

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

    def show_shortcuts(self, shown: bool) -> None:
        """The "?" list of keys and mouse gestures over the plot."""
        if shown:
            self.overlay.refresh()
            self._place_overlay()
            self.overlay.show()
            self.overlay.raise_()
        else:
            self.overlay.hide()
        if self.help_button.isChecked() != shown:
            self.help_button.setChecked(shown)

    def _place_overlay(self) -> None:
        if not hasattr(self, "overlay"):
            return
        self.overlay.adjustSize()
        corner = self.plot.mapTo(self, QPoint(self.plot.width(), 0))
        x = max(0, min(corner.x() - self.overlay.width() - 12, self.width() - self.overlay.width()))
        self.overlay.move(x, max(0, corner.y() + 8))

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.plot and event.type() == QEvent.Type.KeyPress:
            return self.handle_key(event)
        if event.type() == QEvent.Type.Leave and obj is self.plot.viewport():
            self._mouse_scene = None
            self.cursor_line.hide()
        if obj is self.overlay and event.type() == QEvent.Type.Hide:
            self.help_button.setChecked(False)
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
            Qt.Key.Key_Question: lambda: self.show_shortcuts(not self.overlay.isVisible()),
            Qt.Key.Key_Escape: self._escape,
        }
        try:
            action = actions.get(Qt.Key(key))
        except ValueError:
            return False
        if action is None:
            return False
        action()
        return True

    def _escape(self) -> None:
        if self.overlay.isVisible():
            self.show_shortcuts(False)
        elif self.selection_range is not None:
            self.selection_range = None
            self.region.hide()

    # --- selection -----------------------------------------------------------------------------------------------
    def row_at(self, y: float) -> DisplayRow | None:
        for r in self.rows:
            if r.y <= y < r.y + r.height:
                return r
        return None

    def _on_click(self, x: float, y: float) -> None:
        self.overlay.hide()
        row = self.row_at(y)
        if row is not None and row.kind == "steps":
            step = self.step_at(x)
            if step is not None:
                self.zoom_to_step(step)
            return
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
            row_y = self._row_y_of(index)
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
        """The displayed row of a slice: its own, or its lane's top row when the lane is folded."""
        if index < 0:
            return None
        rid = self.layout_.row_of(index)
        y = next((r.y for r in self.rows if r.kind == "slices" and r.row == rid), None)
        if y is None:
            lane = int(self.timeline.lane[index])
            if self.lane_collapsed(lane):
                y = next((r.y for r in self.rows if r.kind == "slices" and r.lane == lane), None)
        return y

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
        """Start / End / Duration of the view (and the cursor), all in the unit of the zoom level."""
        t0, t1 = self.x_range()
        start, end, duration = timeline_ops.view_readout(t0, t1)
        self.start_label.setText(self.tr("Start {0}").format(start))
        self.end_label.setText(self.tr("End {0}").format(end))
        self.duration_label.setText(self.tr("Duration {0}").format(duration))
        if self._cursor_t is not None:
            self.cursor_text.setText(timeline_ops.readout_for(t1 - t0).text(self._cursor_t))

    def _on_mouse_moved(self, pos: QPointF) -> None:
        if not self.viewbox.sceneBoundingRect().contains(pos):  # over the lane names or the time axis
            self._mouse_scene = None
            self.cursor_line.hide()
            return
        self._mouse_scene = QPointF(pos)
        p = self.viewbox.mapSceneToView(pos)
        self.cursor_line.setValue(p.x())
        self.cursor_line.show()
        self._cursor_t = p.x()
        self._update_readouts()
