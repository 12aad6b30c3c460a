"""The Overview's two charts, one row per rank (rank 0 on top, the rows of both aligned):

- :class:`RankStepHeatmap`: a step × rank grid of one cluster_step_trace_time column, coloured by its
  value (grey: the rank has no such step), a colour bar, a tooltip per cell;
- :class:`RankBars`: per rank a horizontal stacked bar (Computing, Communication (Not Overlapped),
  Free, Bubble) for one step or the mean of the steps, a tooltip per bar.

Both say which rank the user points at: a click emits ``rank_clicked(rank)``, a double-click
``rank_activated(rank)``, a right-click ``rank_menu(rank, global position)``; ``select_rank(rank)``
outlines a rank's row."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsView, QLabel, QToolTip, QVBoxLayout, QWidget

NO_VALUE = (232, 232, 232, 255)
OUTLINE = "#d62728"
MAX_TICKS = 32  # axis labels at most: they never overlap


def _ticks(labels: Sequence[str]) -> list[tuple[float, str]]:
    step = max(1, int(np.ceil(len(labels) / MAX_TICKS)))
    return [(float(i), text) for i, text in enumerate(labels) if i % step == 0]


class RankChart(QWidget):
    """What both charts share: the rank under the mouse, clicks, the context menu, the outline."""

    rank_clicked = Signal(int)
    rank_activated = Signal(int)
    rank_menu = Signal(int, QPoint)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ranks: list[int] = []
        self.selected: int | None = None
        self.outline: QGraphicsRectItem | None = None

    # the subclass's plot and graphics view
    def _plot(self) -> pg.PlotItem:
        raise NotImplementedError

    def _graphics(self) -> QGraphicsView:
        raise NotImplementedError

    def _row_rect(self, i: int) -> QRectF:
        raise NotImplementedError

    def _follow_mouse(self) -> None:
        view = self._graphics()
        view.viewport().installEventFilter(self)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._context_menu)

    def rank_at_scene(self, scene_pos: QPointF) -> int | None:
        """The rank whose row is at a scene position (None outside the plot)."""
        vb = self._plot().getViewBox()
        if not self.ranks or not vb.sceneBoundingRect().contains(scene_pos):
            return None
        i = int(round(vb.mapSceneToView(scene_pos).y()))
        return self.ranks[i] if 0 <= i < len(self.ranks) else None

    def rank_at(self, pos: QPoint) -> int | None:
        """The rank at a position of the graphics view's viewport."""
        return self.rank_at_scene(self._graphics().mapToScene(pos))

    def row_point(self, rank: int) -> QPoint:
        """A viewport position on ``rank``'s row, in the middle of what it draws (for the tests and
        for a keyboard user's menu)."""
        i = self.ranks.index(rank)
        centre = self._row_rect(i).center()
        scene = self._plot().getViewBox().mapViewToScene(centre)
        return self._graphics().mapFromScene(scene)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        kind = event.type()
        pressed = kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick)
        if pressed and isinstance(event, QMouseEvent) and event.button() == Qt.MouseButton.LeftButton:
            rank = self.rank_at(event.position().toPoint())
            if rank is not None:
                self.select_rank(rank)
                if kind == QEvent.Type.MouseButtonDblClick:
                    self.rank_activated.emit(rank)
                else:
                    self.rank_clicked.emit(rank)
        return False

    def _context_menu(self, pos: QPoint) -> None:
        rank = self.rank_at(pos)
        if rank is not None:
            self.select_rank(rank)
            self.rank_clicked.emit(rank)
            self.rank_menu.emit(rank, self._graphics().viewport().mapToGlobal(pos))

    def select_rank(self, rank: int | None) -> None:
        plot = self._plot()
        if self.outline is not None:
            plot.removeItem(self.outline)
            self.outline = None
        self.selected = rank if rank in self.ranks else None
        if self.selected is None:
            return
        self.outline = QGraphicsRectItem(self._row_rect(self.ranks.index(self.selected)))
        pen = pg.mkPen(OUTLINE, width=2)
        pen.setCosmetic(True)
        self.outline.setPen(pen)
        self.outline.setZValue(20)
        plot.addItem(self.outline)

    def _show_tip(self, scene_pos: QPointF, text: str) -> None:
        view = self._graphics()
        view.setToolTip(text)
        if QToolTip.isVisible():
            if text:
                QToolTip.showText(view.mapToGlobal(view.mapFromScene(scene_pos)), text, view)
            else:
                QToolTip.hideText()


class RankStepHeatmap(RankChart):
    """Rows: ranks; columns: steps; ``set_grid(ranks, steps, values[rank][step], name)``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cmap = pg.colormap.get("viridis")
        self.view = pg.GraphicsLayoutWidget(self)
        self.view.setBackground("w")
        self.plot = self.view.addPlot(0, 0)
        self.plot.hideButtons()
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.invertY(True)  # rank 0 on top
        self.plot.setLabel("left", self.tr("Rank"))
        self.plot.setLabel("bottom", self.tr("Step"))
        for name in ("bottom", "left"):
            self.plot.getAxis(name).enableAutoSIPrefix(False)
        self.image = pg.ImageItem()
        self.plot.addItem(self.image)
        self.bar = pg.ColorBarItem(values=(0, 1), colorMap=self.cmap, interactive=False, colorMapMenu=False)
        self.view.addItem(self.bar, 0, 1)
        self.steps: list[str] = []
        self.step_labels: list[str] = []
        self.values = np.empty((0, 0))
        self.name = ""
        self.view.scene().sigMouseMoved.connect(self._hover)
        self._follow_mouse()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)

    def _plot(self) -> pg.PlotItem:
        return self.plot

    def _graphics(self) -> QGraphicsView:
        return self.view

    def _row_rect(self, i: int) -> QRectF:
        return QRectF(-0.5, i - 0.5, max(len(self.steps), 1), 1.0)

    def set_grid(
        self,
        ranks: Sequence[int],
        steps: Sequence[str],
        values: Sequence[Sequence[float | None]],
        name: str,
        labels: Sequence[str],
    ) -> None:
        """``values[rank index][step index]`` in µs (None: no value) of the column called ``name``;
        ``labels``: the steps as the axis shows them."""
        self.ranks = [int(r) for r in ranks]
        self.steps = [str(s) for s in steps]
        self.step_labels = list(labels)
        self.name = name
        rows = [[np.nan if v is None else float(v) for v in row] for row in values]
        self.values = np.array(rows, dtype=np.float64).reshape(len(self.ranks), len(self.steps))
        self.select_rank(None)
        n, m = self.values.shape
        self.bar.getAxis("left").setLabel(self.tr("{0} (µs)").format(name))
        if not n or not m:
            self.image.clear()
            return
        finite = self.values[np.isfinite(self.values)]
        lo = float(finite.min()) if finite.size else 0.0
        hi = float(finite.max()) if finite.size else 1.0
        if hi <= lo:
            lo, hi = min(lo, 0.0), max(hi, lo + 1.0)
        scaled = np.clip((np.nan_to_num(self.values, nan=lo) - lo) / (hi - lo), 0, 1)
        rgba = np.asarray(self.cmap.map(scaled.ravel(), mode="byte"), dtype=np.ubyte).reshape(n, m, 4)
        rgba[~np.isfinite(self.values)] = NO_VALUE
        self.image.setImage(np.ascontiguousarray(rgba.transpose(1, 0, 2)), levels=None, autoLevels=False)
        self.image.setRect(QRectF(-0.5, -0.5, m, n))
        self.bar.setLevels((lo, hi))
        self.plot.getAxis("left").setTicks([_ticks([str(r) for r in self.ranks]), []])
        self.plot.getAxis("bottom").setTicks([_ticks(self.step_labels), []])
        self.plot.setRange(xRange=(-0.5, m - 0.5), yRange=(-0.5, n - 0.5), padding=0.02)

    def cell_at(self, scene_pos: QPointF) -> tuple[int, int] | None:
        """(rank index, step index) at a scene position, or None."""
        n, m = self.values.shape
        vb = self.plot.getViewBox()
        if not n or not m or not vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = vb.mapSceneToView(scene_pos)
        i, j = int(round(p.y())), int(round(p.x()))
        return (i, j) if 0 <= i < n and 0 <= j < m else None

    def cell_point(self, i: int, j: int) -> QPoint:
        """The viewport position of cell (rank index ``i``, step index ``j``)."""
        return self.view.mapFromScene(self.plot.getViewBox().mapViewToScene(QPointF(j, i)))

    def tooltip_for(self, i: int, j: int) -> str:
        value = self.values[i, j]
        shown = f"{value:,.3f} µs" if np.isfinite(value) else self.tr("no value")
        return self.tr("Rank {0} · step {1}\n{2}: {3}").format(self.ranks[i], self.step_labels[j], self.name, shown)

    def _hover(self, scene_pos: QPointF) -> None:
        cell = self.cell_at(scene_pos)
        self._show_tip(scene_pos, self.tooltip_for(*cell) if cell is not None else "")


class RankBars(RankChart):
    """Per rank a horizontal stacked bar: ``set_bars(ranks, parts, caption)`` with parts = (legend
    word, values in µs, colour), stacked left to right."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.legend = QLabel(self)
        self.legend.setObjectName("clusterBarsLegend")
        self.plot_widget = pg.PlotWidget(self)
        self.plot_widget.setBackground("w")
        self.plot = self.plot_widget.getPlotItem()
        self.plot.hideButtons()
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.invertY(True)
        self.plot.showGrid(x=True, alpha=0.25)
        for name in ("bottom", "left"):
            self.plot.getAxis(name).enableAutoSIPrefix(False)
        self.parts: list[tuple[str, np.ndarray]] = []  # (legend word, values in the chart's unit)
        self.totals = np.empty(0)
        self.unit = "ms"
        self.caption = ""
        self.plot_widget.scene().sigMouseMoved.connect(self._hover)
        self._follow_mouse()
        layout = QVBoxLayout(self)  # the legend is placed by the owner (above both charts: rows stay aligned)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot_widget, 1)

    def _plot(self) -> pg.PlotItem:
        return self.plot

    def _graphics(self) -> QGraphicsView:
        return self.plot_widget

    def _row_rect(self, i: int) -> QRectF:
        total = float(self.totals[i]) if i < len(self.totals) else 0.0
        return QRectF(0.0, i - 0.4, max(total, 1e-9), 0.8)

    def set_bars(self, ranks: Sequence[int], parts: Sequence[tuple[str, Sequence[float], str]], caption: str) -> None:
        self.plot.clear()
        self.outline = None
        self.selected = None
        self.ranks = [int(r) for r in ranks]
        self.caption = caption
        n = len(self.ranks)
        y = np.arange(n, dtype=np.float64)
        total_us = np.zeros(n)
        for _name, values, _color in parts:
            total_us += np.nan_to_num(np.asarray(values, dtype=np.float64))
        self.unit, factor = ("ms", 1000.0) if total_us.size and np.nanmax(total_us) >= 1000 else ("µs", 1.0)
        self.parts = []
        left = np.zeros(n)
        for name, values, color in parts:
            width = np.nan_to_num(np.asarray(values, dtype=np.float64)) / factor
            bars = pg.BarGraphItem(
                x0=left.copy(), y=y, width=width, height=0.7, brush=color, pen=pg.mkPen("w", width=0.5)
            )
            self.plot.addItem(bars)
            self.parts.append((name, width))
            left += width
        self.totals = left
        self.legend.setText(
            "&nbsp;&nbsp;".join(f'<span style="color:{color}">■</span> {name}' for name, _values, color in parts)
        )
        self.plot.setLabel("bottom", self.tr("Time ({0}), {1}").format(self.unit, caption))
        self.plot.setLabel("left", self.tr("Rank"))
        self.plot.getAxis("left").setTicks([_ticks([str(r) for r in self.ranks]), []])
        right = float(left.max()) if n and left.max() > 0 else 1.0
        self.plot.setRange(xRange=(0, right * 1.05), yRange=(-0.5, n - 0.5), padding=0.02)

    def tooltip_for(self, i: int) -> str:
        lines = [self.tr("Rank {0} ({1})").format(self.ranks[i], self.caption)]
        for name, width in self.parts:
            lines.append(f"{name}: {width[i]:,.3f} {self.unit}")
        lines.append(self.tr("Total: {0} {1}").format(f"{self.totals[i]:,.3f}", self.unit))
        return "\n".join(lines)

    def _hover(self, scene_pos: QPointF) -> None:
        rank = self.rank_at_scene(scene_pos)
        self._show_tip(scene_pos, self.tooltip_for(self.ranks.index(rank)) if rank is not None else "")
