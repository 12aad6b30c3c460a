"""A src → dst rank heatmap of link bandwidth (communication_matrix): a cell per link coloured by
GB/s (grey: no link), the value written in the cell while the matrix is small, a colour bar, and a
tooltip naming the link's transport, size and time (``details(src, dst)`` gives the text)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QToolTip, QVBoxLayout, QWidget

NO_LINK = (232, 232, 232, 255)
LABELLED_UP_TO = 16  # ranks up to which every cell shows its value


class Heatmap(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cmap = pg.colormap.get("viridis")
        self.view = pg.GraphicsLayoutWidget(self)
        self.view.setBackground("w")
        self.plot = self.view.addPlot(0, 0)
        self.plot.hideButtons()
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.invertY(True)  # rank 0 on top, as a matrix reads
        self.plot.setAspectLocked(True)
        self.plot.setLabel("bottom", self.tr("Destination rank"))
        self.plot.setLabel("left", self.tr("Source rank"))
        self.image = pg.ImageItem()
        self.plot.addItem(self.image)
        self.bar = pg.ColorBarItem(
            values=(0, 1), colorMap=self.cmap, interactive=False, colorMapMenu=False, label=self.tr("Bandwidth (GB/s)")
        )
        self.view.addItem(self.bar, 0, 1)
        self.labels: list[pg.TextItem] = []
        self.cell_font = QFont(self.font())
        self.cell_font.setPointSizeF(max(6.5, self.font().pointSizeF() - 1.5))
        self.ranks: list[int] = []
        self.bandwidth = np.empty((0, 0))
        self.details: Callable[[int, int], str] = lambda _s, _d: ""
        self.view.scene().sigMouseMoved.connect(self._hover)
        self.plot.getViewBox().sigResized.connect(lambda _vb: self._fit_labels())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)

    def set_grid(self, ranks: list[int], bandwidth: np.ndarray, details: Callable[[int, int], str]) -> None:
        """``bandwidth[src, dst]`` in GB/s (NaN: no link) over ``ranks``; ``details(src i, dst j)``: a
        cell's tooltip."""
        for item in self.labels:
            self.plot.removeItem(item)
        self.labels = []
        self.ranks = [int(r) for r in ranks]
        self.bandwidth = np.asarray(bandwidth, dtype=np.float64)
        self.details = details
        n = len(self.ranks)
        if not n:
            self.image.clear()
            return
        finite = self.bandwidth[np.isfinite(self.bandwidth)]
        vmax = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
        rgba = self.cmap.map(np.clip(np.nan_to_num(self.bandwidth) / vmax, 0, 1).ravel(), mode="byte")
        rgba = np.asarray(rgba, dtype=np.ubyte).reshape(n, n, 4)
        rgba[~np.isfinite(self.bandwidth)] = NO_LINK
        self.image.setImage(np.ascontiguousarray(rgba.transpose(1, 0, 2)), levels=None, autoLevels=False)
        self.image.setRect(QRectF(-0.5, -0.5, n, n))
        self.bar.setLevels((0.0, vmax))
        ticks = [(float(i), str(r)) for i, r in enumerate(self.ranks)]
        step = max(1, int(np.ceil(n / 32)))
        for name in ("bottom", "left"):
            self.plot.getAxis(name).setTicks([ticks[::step], []])
        if n <= LABELLED_UP_TO:
            for i in range(n):
                for j in range(n):
                    v = self.bandwidth[i, j]
                    if not np.isfinite(v):
                        continue
                    light = v / vmax > 0.6  # viridis turns yellow: dark text there
                    text = pg.TextItem(f"{v:,.1f}", color="#111" if light else "#fff", anchor=(0.5, 0.5))
                    text.setFont(self.cell_font)
                    text.setPos(j, i)
                    self.plot.addItem(text)
                    self.labels.append(text)
        self.plot.setRange(xRange=(-0.5, n - 0.5), yRange=(-0.5, n - 0.5), padding=0.02)
        self._fit_labels()

    def _fit_labels(self) -> None:
        """Cell values are written only where every one fits in its cell (else the colour and the
        tooltip tell it)."""
        if not self.labels:
            return
        vb = self.plot.getViewBox()
        (x0, x1), (y0, y1) = vb.viewRange()
        cell = min(vb.width() / max(x1 - x0, 1e-9), vb.height() / max(y1 - y0, 1e-9))
        metrics = QFontMetrics(self.labels[0].textItem.font())
        widest = max(metrics.horizontalAdvance(t.toPlainText()) for t in self.labels)
        fits = widest + 4 <= cell and metrics.height() <= cell
        for t in self.labels:
            t.setVisible(fits)

    def cell_at(self, scene_pos: QPointF) -> tuple[int, int] | None:
        """(src index, dst index) of the cell at a scene position, or None."""
        n = len(self.ranks)
        if not n or not self.plot.getViewBox().sceneBoundingRect().contains(scene_pos):
            return None
        p = self.plot.getViewBox().mapSceneToView(scene_pos)
        j, i = int(round(p.x())), int(round(p.y()))
        return (i, j) if 0 <= i < n and 0 <= j < n else None

    def cell_center(self, i: int, j: int) -> QPointF:
        """The scene position of cell (src i, dst j) (for tests and tooltips)."""
        return self.plot.getViewBox().mapViewToScene(QPointF(j, i))

    def _hover(self, scene_pos: QPointF) -> None:
        cell = self.cell_at(scene_pos)
        text = self.details(*cell) if cell is not None else ""
        self.view.setToolTip(text)
        if QToolTip.isVisible():
            if text:
                QToolTip.showText(self.view.mapToGlobal(self.view.mapFromScene(scene_pos)), text, self.view)
            else:
                QToolTip.hideText()
