"""Analysis Summary: profiling, host and device facts, bandwidth, AI Core utilization and the
top-10 operators chart. Facts come from core ``views.summary_sections``."""

from __future__ import annotations

import re

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from workbench.core.profiling import views

_NOT_COLLECTED = re.compile(r"^not collected \((.*)\)$")


def tr_value(value: str) -> str:
    m = _NOT_COLLECTED.match(value)
    if m:
        return QCoreApplication.translate("Summary", "not collected ({0})").format(m.group(1))
    return value


class SummaryView(QWidget):
    def __init__(self, report, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SummaryView")
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels([self.tr("Item"), self.tr("Value")])
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for title, rows in views.summary_sections(report):
            section = QTreeWidgetItem([QCoreApplication.translate("Summary", title), ""])
            font = section.font(0)
            font.setBold(True)
            section.setFont(0, font)
            self.tree.addTopLevelItem(section)
            for name, value in rows:
                item = QTreeWidgetItem([QCoreApplication.translate("Summary", name), tr_value(value)])
                item.setToolTip(1, value)
                section.addChild(item)
        self.tree.expandAll()
        self.top_ops = views.top_operators(report)
        self.chart = pg.PlotWidget(self)
        self.chart.setBackground("w")
        self.chart.setTitle(self.tr("Top 10 operators by total time (µs)"), color="#333")
        self.chart.setMinimumWidth(420)
        if self.top_ops:
            names = [n for n, _ in self.top_ops][::-1]
            values = np.array([v for _, v in self.top_ops][::-1])
            bars = pg.BarGraphItem(x0=0, y=np.arange(len(values)), height=0.6, width=values, brush="#4e79a7")
            self.chart.addItem(bars)
            self.chart.getAxis("left").setTicks([list(enumerate(names))])
            self.chart.getPlotItem().setMouseEnabled(x=False, y=False)
        else:
            self.chart.setTitle(self.tr("Top operators: no operator statistics in this report"), color="#933")
        self.util_chart = None
        util = report.table("ai_core_utilization")
        right = QVBoxLayout()
        right.addWidget(self.chart, 1)
        if len(util):
            self.util_chart = pg.PlotWidget(self)
            self.util_chart.setBackground("w")
            self.util_chart.setTitle(self.tr("AI Core utilization (sample-based)"), color="#333")
            cols = [c for c in util.columns if "util" in str(c).lower() or "ratio" in str(c).lower()]
            if cols:
                y = np.asarray(util[cols[0]], dtype=np.float64)
                self.util_chart.plot(np.arange(len(y)), y, pen=pg.mkPen("#e15759", width=2))
            right.addWidget(self.util_chart, 1)
        layout = QHBoxLayout(self)
        layout.addWidget(self.tree, 3)
        layout.addLayout(right, 2)
        self.note = QLabel(self)
        self.note.setAlignment(Qt.AlignmentFlag.AlignLeft)

    def values(self) -> dict[str, str]:
        out = {}
        for i in range(self.tree.topLevelItemCount()):
            sec = self.tree.topLevelItem(i)
            for j in range(sec.childCount()):
                out[f"{sec.text(0)}/{sec.child(j).text(0)}"] = sec.child(j).text(1)
        return out
