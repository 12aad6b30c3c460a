"""The Steps tab: per step, a stacked bar of Computing, Communication (Not Overlapped) and Free
(together the step's time, Stage) with a legend and a tooltip per segment, above the table of every
column of core's ``steps.step_breakdown``. A click on a step's bar (or its table row) emits
``step_activated``: the document selects that step's span on the timeline where the report records
when the steps ran. The numbers come from core; this module draws and forwards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPointF, Qt, Signal
from PySide6.QtWidgets import QLabel, QSplitter, QToolTip, QVBoxLayout, QWidget

from workbench.ui.report.table import FrameTable

CONTEXT = "StepsView"
MIN_SLOTS = 6  # the chart is at least this many bars wide

# (column of step_breakdown, legend word, colour): the parts of a step, bottom up; they add up to Stage
SEGMENTS = (
    ("computing_us", QT_TRANSLATE_NOOP("StepsView", "Computing"), "#4e79a7"),
    ("communication_not_overlapped_us", QT_TRANSLATE_NOOP("StepsView", "Communication (Not Overlapped)"), "#e15759"),
    ("free_us", QT_TRANSLATE_NOOP("StepsView", "Free"), "#bab0ac"),
)
# the table's columns (step_breakdown's keys) and their headers
COLUMNS = (
    ("step", QT_TRANSLATE_NOOP("StepsView", "Step")),
    ("computing_us", QT_TRANSLATE_NOOP("StepsView", "Computing (µs)")),
    ("communication_not_overlapped_us", QT_TRANSLATE_NOOP("StepsView", "Communication (Not Overlapped) (µs)")),
    ("overlapped_us", QT_TRANSLATE_NOOP("StepsView", "Overlapped (µs)")),
    ("communication_us", QT_TRANSLATE_NOOP("StepsView", "Communication (µs)")),
    ("free_us", QT_TRANSLATE_NOOP("StepsView", "Free (µs)")),
    ("stage_us", QT_TRANSLATE_NOOP("StepsView", "Stage (µs)")),
    ("bubble_us", QT_TRANSLATE_NOOP("StepsView", "Bubble (µs)")),
    (
        "communication_not_overlapped_exclude_receive_us",
        QT_TRANSLATE_NOOP("StepsView", "Communication (Not Overlapped, Exclude Receive) (µs)"),
    ),
    ("preparing_us", QT_TRANSLATE_NOOP("StepsView", "Preparing (µs)")),
)
DEVICE = QT_TRANSLATE_NOOP("StepsView", "Device")
# where step_breakdown read a step (its ``source`` column)
SOURCES = {
    "step_trace_time": QT_TRANSLATE_NOOP("StepsView", "read from step_trace_time.csv"),
    "timeline": QT_TRANSLATE_NOOP("StepsView", "computed from the timeline's Overlap Analysis lanes"),
}


def _tr(text: object) -> str:
    """One of this module's marked strings (``QT_TRANSLATE_NOOP``) in the UI's language."""
    return QCoreApplication.translate(CONTEXT, str(text))


@dataclass
class StepsData:
    """What the Steps tab shows (built on a worker thread by :func:`prepare_steps`)."""

    frame: Any  # pd.DataFrame of core's step_breakdown, or None


def prepare_steps(report, progress=None, cancel=None) -> StepsData:
    """Work function: core's per-step breakdown of ``report``."""
    from workbench.core.profiling.steps import step_breakdown

    return StepsData(step_breakdown(report))


class StepChart(QWidget):
    """Stacked vertical bars, one per step (labelled by its id); hover shows a segment's value,
    a click emits ``bar_clicked(i)``; ``select(i)`` outlines a bar."""

    bar_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget(self)
        self.plot.setBackground("w")
        item = self.plot.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.showGrid(y=True, alpha=0.25)
        # one row above the bars (the y range leaves room for it): the legend never hides a bar
        self.legend = item.addLegend(offset=(10, 4), labelTextColor="#333", brush=pg.mkBrush(255, 255, 255, 220))
        self.legend.setColumnCount(len(SEGMENTS))
        self.axis = self.plot.getAxis("bottom")
        for name in ("bottom", "left"):  # step ids and ms as they are: no "x0.001" scale in the label
            self.plot.getAxis(name).enableAutoSIPrefix(False)
        self.ids: list[int] = []
        self.labels: list[str] = []
        self.parts: list[tuple[str, np.ndarray]] = []  # (legend word, values in the chart's unit)
        self.totals = np.empty(0)
        self.unit = "ms"
        self.selected: int | None = None
        self.outline: pg.BarGraphItem | None = None
        self.plot.scene().sigMouseMoved.connect(self._hover)
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)

    def set_bars(
        self, ids: list[int], parts: list[tuple[str, np.ndarray, str]], labels: list[str] | None = None
    ) -> None:
        """``parts``: (legend word, values in µs, colour), stacked in that order from the bottom;
        ``labels``: the bars' names (default: the step ids)."""
        self.plot.clear()
        self.legend.clear()
        self.outline, self.selected = None, None
        self.ids = [int(i) for i in ids]
        self.labels = labels if labels is not None else [str(i) for i in self.ids]
        x = np.arange(len(self.ids), dtype=np.float64)
        total_us = np.zeros(len(self.ids))
        for _name, values, _color in parts:
            total_us += np.nan_to_num(np.asarray(values, dtype=np.float64))
        self.unit, factor = ("ms", 1000.0) if total_us.size and np.nanmax(total_us) >= 1000 else ("µs", 1.0)
        self.parts = []
        bottom = np.zeros(len(self.ids))
        for name, values, color in parts:
            height = np.nan_to_num(np.asarray(values, dtype=np.float64)) / factor
            bars = pg.BarGraphItem(
                x=x, y0=bottom.copy(), height=height, width=0.6, brush=color, pen=pg.mkPen("w", width=0.5), name=name
            )
            self.plot.addItem(bars)
            self.parts.append((name, height))
            bottom += height
        self.totals = bottom
        self.plot.getPlotItem().setLabel("left", self.tr("Time ({0})").format(self.unit))
        self.plot.getPlotItem().setLabel("bottom", self.tr("Step"))
        step = max(1, int(np.ceil(len(self.ids) / 30)))  # at most ~30 labels: they never overlap
        self.axis.setTicks([[(float(i), s) for i, s in enumerate(self.labels) if i % step == 0], []])
        top = float(bottom.max()) if bottom.size else 1.0
        half = max(len(self.ids), MIN_SLOTS) / 2  # a few steps stay bars, centred, not walls
        middle = (len(self.ids) - 1) / 2
        self.plot.getPlotItem().getViewBox().setRange(
            xRange=(middle - half, middle + half), yRange=(0, top * 1.3 or 1.0), padding=0
        )

    def bar_at(self, scene_pos: QPointF) -> tuple[int, int | None] | None:
        """(bar, segment or None above the stack) at a scene position, or None."""
        if not self.ids:
            return None
        vb = self.plot.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = vb.mapSceneToView(scene_pos)
        i = int(round(p.x()))
        if not (0 <= i < len(self.ids) and abs(p.x() - i) <= 0.3):
            return None
        if p.y() < 0 or p.y() > self.totals[i]:
            return i, None
        bottom = 0.0
        for k, (_name, height) in enumerate(self.parts):
            if p.y() <= bottom + height[i]:
                return i, k
            bottom += height[i]
        return i, None

    def tooltip_for(self, i: int, segment: int | None) -> str:
        lines = [self.tr("Step {0}").format(self.labels[i])]
        for k, (name, height) in enumerate(self.parts):
            mark = "▶ " if k == segment else ""
            lines.append(f"{mark}{name}: {height[i]:,.3f} {self.unit}")
        lines.append(self.tr("Total: {0} {1}").format(f"{self.totals[i]:,.3f}", self.unit))
        return "\n".join(lines)

    def _hover(self, scene_pos: QPointF) -> None:
        hit = self.bar_at(scene_pos)
        text = self.tooltip_for(*hit) if hit is not None else ""
        self.plot.setToolTip(text)
        if QToolTip.isVisible():
            if text:
                QToolTip.showText(self.plot.mapToGlobal(self.plot.mapFromScene(scene_pos)), text, self.plot)
            else:
                QToolTip.hideText()

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        hit = self.bar_at(event.scenePos())
        if hit is not None:
            self.select(hit[0])
            self.bar_clicked.emit(hit[0])

    def select(self, i: int | None) -> None:
        if self.outline is not None:
            self.plot.removeItem(self.outline)
            self.outline = None
        self.selected = i
        if i is None:
            return
        self.outline = pg.BarGraphItem(
            x=[float(i)], y0=[0.0], height=[self.totals[i]], width=0.72, brush=None, pen=pg.mkPen("#222", width=2)
        )
        self.plot.addItem(self.outline)


class StepsPane(QWidget):
    """The Steps tab over a :class:`StepsData`. ``step_activated(step id)``: the user clicked a step."""

    step_activated = Signal(int)

    def __init__(self, data: StepsData, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("StepsPane")
        frame = data.frame
        self.frame = frame
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.status = QLabel(self)
        self.status.setObjectName("stepsStatus")
        self.status.setWordWrap(True)
        self.chart = StepChart(self)
        self.chart.setMinimumHeight(220)
        self.chart.bar_clicked.connect(self._bar_clicked)
        self.table = FrameTable(self.tr("Steps"), self)
        self.table.row_activated.connect(self._row_activated)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.chart)
        split.addWidget(self.table)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([480, 260])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addWidget(self.note)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)
        self.ids: list[int] = []
        if frame is None or not len(frame):
            self.note.setText(self.tr("This report has no per-step breakdown."))
            self.chart.hide()
            self.table.hide()
            return
        self.ids = [int(s) for s in frame["step"]]
        several = "device" in frame.columns and frame["device"].nunique() > 1  # a merged report: per device
        labels = [f"{s} · {d}" for s, d in zip(self.ids, frame["device"])] if several else None
        self.chart.set_bars(
            self.ids,
            [
                (_tr(word), frame[key].to_numpy(dtype=np.float64, na_value=np.nan), color)
                for key, word, color in SEGMENTS
            ],
            labels,
        )
        columns = ((("device", DEVICE),) if several else ()) + COLUMNS
        keys = [key for key, _word in columns if key in frame.columns]
        self.table.set_frame(
            frame[keys].reset_index(drop=True), headers=[_tr(word) for key, word in columns if key in frame.columns]
        )
        sources = [str(s) for s in dict.fromkeys(frame["source"])] if "source" in frame.columns else []
        where = "; ".join(_tr(SOURCES[s]) if s in SOURCES else s for s in sources)
        self.note.setText(
            self.tr(
                "Steps: {0} ({1}). Computing + Communication (Not Overlapped) + Free = the step's time. "
                "Click a bar to select the step on the timeline."
            ).format(len(self.ids), where)
        )

    def set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color:#933;" if error else "")

    def _bar_clicked(self, i: int) -> None:
        self.step_activated.emit(self.ids[i])

    def _row_activated(self, source_row: int) -> None:
        step = int(self.table.model.frame["step"].iloc[source_row])
        if step in self.ids:
            self.chart.select(self.ids.index(step))
        self.step_activated.emit(step)
