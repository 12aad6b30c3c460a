"""The Matrix tab: the cluster's communication matrix as a src × dst heatmap of bandwidth (GB/s, the
links' size over time summed over steps and groups) for one transport or all of them; the slow links of
the findings outlined; the tooltip names src, dst, transport, bandwidth, size and time. What a cell holds
and its bandwidth (also "All transports") is core's ``views.link_matrix``: this pane only draws it."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QComboBox, QGraphicsRectItem, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from workbench.core.cluster import views
from workbench.core.cluster.report import ClusterReport
from workbench.ui.report.comm.heatmap import Heatmap

ALL = None  # the combo's data for every transport (a link's transport may be "", unnamed)
SLOW_OUTLINE = "#d62728"


class ClusterMatrixPane(QWidget):
    def __init__(self, report: ClusterReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ClusterMatrix")
        self.report = report
        self.links = views.link_rows(report.tables)
        self.matrix = views.link_matrix(report.tables, ALL, report.findings.slow_links, self.links)
        self.ranks = self.matrix.ranks
        self.transport = QComboBox(self)
        self.transport.setObjectName("clusterTransport")
        self.transport.addItem(self.tr("All transports"), ALL)
        for name in views.matrix_transports(self.links):
            self.transport.addItem(name or "—", name)
        label = QLabel(self.tr("&Transport"), self)
        label.setBuddy(self.transport)
        self.note = QLabel(self)
        self.note.setObjectName("clusterMatrixNote")
        self.note.setWordWrap(True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(label)
        row.addWidget(self.transport)
        row.addWidget(self.note, 1)
        self.heatmap = Heatmap(self)
        self.heatmap.setObjectName("clusterMatrixHeatmap")
        self.outlines: list[QGraphicsRectItem] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.heatmap, 1)
        self.cells: dict[tuple[int, int], list[views.LinkRow]] = {}
        self.transport.currentIndexChanged.connect(lambda _i: self.show_transport())
        self.show_transport()

    def show_transport(self) -> None:
        chosen = self.transport.currentData()
        matrix = views.link_matrix(self.report.tables, chosen, self.report.findings.slow_links, self.links)
        self.matrix = matrix
        self.cells = {at: list(cell.links) for at, cell in matrix.cells.items()}
        n = len(self.ranks)
        grid = np.full((n, n), np.nan)
        for (i, j), cell in matrix.cells.items():
            grid[i, j] = cell.bandwidth
        self.heatmap.set_grid(self.ranks, grid, self.details)
        for item in self.outlines:
            self.heatmap.plot.removeItem(item)
        self.outlines = []
        slow = matrix.slow
        for s in slow:
            row, column = matrix.index(s.src), matrix.index(s.dst)
            if row is not None and column is not None:
                item = QGraphicsRectItem(QRectF(column - 0.5, row - 0.5, 1.0, 1.0))
                pen = pg.mkPen(SLOW_OUTLINE, width=3)
                pen.setCosmetic(True)
                item.setPen(pen)
                item.setZValue(20)
                self.heatmap.plot.addItem(item)
                self.outlines.append(item)
        if not self.links:
            self.note.setText(
                self.tr("This cluster has no communication matrix (no cluster_communication_matrix data).")
            )
        elif slow:
            self.note.setText(
                self.tr("{0} links; slow links outlined: {1}").format(
                    len(self.cells), ", ".join(f"{s.src} → {s.dst} ({s.transport})" for s in slow)
                )
            )
        else:
            self.note.setText(self.tr("{0} links; none is slow").format(len(self.cells)))

    def details(self, i: int, j: int) -> str:
        links = self.cells.get((i, j), [])
        src, dst = self.ranks[i], self.ranks[j]
        if not links:
            return self.tr("{0} → {1}: no link").format(src, dst)
        lines = []
        for link in links:
            lines.append(
                self.tr("{0} → {1} · {2}\nBandwidth: {3} GB/s\nSize: {4} MB · Time: {5} ms").format(
                    src,
                    dst,
                    link.transport or "—",
                    f"{link.bandwidth:,.2f}",
                    f"{link.size_mb:,.3f}",
                    f"{link.time_ms:,.3f}",
                )
            )
        return "\n".join(lines)

    def select_link(self, src: int, dst: int, transport: str) -> None:
        """Show ``transport``'s matrix (the link's own)."""
        at = self.transport.findData(transport)
        if at >= 0:
            self.transport.setCurrentIndex(at)
