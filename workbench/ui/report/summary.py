"""Analysis Summary: profiling, host and device facts, bandwidth, AI Core utilization and the
top-10 operators chart. Facts come from core ``views.summary_sections`` (English, translated here
through ``views.SUMMARY_VALUES`` / ``DEVICE_FIELDS``).

``BarChart`` (also the comparison's top-10 chart): a title that wraps above a horizontal bar
chart whose labels are elided in the middle to a fixed width, the full name and value in the
tooltip of the bar under the mouse."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPointF, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QToolTip,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.profiling import views
from workbench.ui.labels import tr_report_warning, tr_template

# views.SUMMARY_VALUES and the DEVICE_FIELDS names, for pyside6-lupdate (a test checks the lists).
SUMMARY_VALUE_LABELS = (
    QT_TRANSLATE_NOOP("Summary", "not present in this report"),
    QT_TRANSLATE_NOOP("Summary", "not collected ({0})"),
    QT_TRANSLATE_NOOP("Summary", "none"),
    QT_TRANSLATE_NOOP("Summary", "unknown"),
    QT_TRANSLATE_NOOP("Summary", "simulated CANN toolkit"),
    QT_TRANSLATE_NOOP("Summary", "avg {0}, max {1}"),
    QT_TRANSLATE_NOOP("Summary", "Device {0}"),
)
DEVICE_FIELD_LABELS = (
    QT_TRANSLATE_NOOP("Summary", "chip"),
    QT_TRANSLATE_NOOP("Summary", "AI Cores"),
    QT_TRANSLATE_NOOP("Summary", "AI Vector cores"),
    QT_TRANSLATE_NOOP("Summary", "AI CPUs"),
    QT_TRANSLATE_NOOP("Summary", "control CPUs"),
    QT_TRANSLATE_NOOP("Summary", "AI Core MHz"),
)
_DEVICE_FIELDS = {name for _key, name in views.DEVICE_FIELDS}


def tr_value(value: str) -> str:
    """A Summary value: a known phrase or template translated; device facts (``chip=910B2, AI
    Cores=24``) with their field names translated; data as it is."""
    translated = tr_template("Summary", value, views.SUMMARY_VALUES)
    if translated != value:
        return translated
    translated = tr_report_warning(value)  # the Warnings section
    if translated != value:
        return translated
    pieces = value.split(", ")
    if all("=" in p and p.split("=", 1)[0] in _DEVICE_FIELDS for p in pieces):
        return QCoreApplication.translate("Summary", ", ").join(
            f"{QCoreApplication.translate('Summary', k)}={v}" for k, v in (p.split("=", 1) for p in pieces)
        )
    return value


def tr_name(name: str) -> str:
    """A Summary row name: a fixed label (``views.SUMMARY_LABELS``), ``Device 0``, or data."""
    if name in views.SUMMARY_LABELS:
        return QCoreApplication.translate("Summary", name)
    return tr_template("Summary", name, views.SUMMARY_VALUES)


class NumberAxis(pg.AxisItem):
    """Plain numbers with thousands separators (pyqtgraph writes ``1e+06`` beside ``500000``)."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph API
        decimals = len(f"{spacing * scale:.6f}".rstrip("0").partition(".")[2])  # as many as the step has
        return [f"{v * scale:,.{decimals}f}" for v in values]


class BarChart(QWidget):
    """Horizontal bars with a wrapping title; labels elided to ``label_px``, full text on hover."""

    def __init__(self, title: str, parent: QWidget | None = None, label_px: int = 170) -> None:
        super().__init__(parent)
        self.label_px = label_px
        self.title = QLabel(title, self)
        self.title.setWordWrap(True)
        self.title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.title.setStyleSheet("color:#333;font-weight:bold;padding:2px;")
        self.plot = pg.PlotWidget(self, axisItems={"bottom": NumberAxis("bottom")})
        self.plot.setBackground("w")
        self.plot.getPlotItem().setMouseEnabled(x=False, y=False)
        self.plot.getPlotItem().hideButtons()
        self.plot.getPlotItem().setMenuEnabled(False)
        self.plot.setMinimumWidth(label_px + 160)
        self.axis = self.plot.getAxis("left")
        self.axis.setStyle(tickFont=self.font())
        self.axis.setWidth(label_px + 12)
        self.names: list[str] = []
        self.values = np.empty(0)
        self.labels: list[str] = []
        self.unit = ""
        self.plot.scene().sigMouseMoved.connect(self._hover)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.title)
        layout.addWidget(self.plot, 1)

    def set_title(self, text: str, color: str = "#333") -> None:
        self.title.setText(text)
        self.title.setStyleSheet(f"color:{color};font-weight:bold;padding:2px;")

    def clear(self) -> None:
        self.plot.clear()
        self.names, self.values, self.labels = [], np.empty(0), []
        self.axis.setTicks([[]])

    def set_bars(self, names: list[str], values, brushes=None, unit: str = "") -> None:
        """Bars from the bottom up: ``names[0]`` is drawn lowest."""
        self.clear()
        self.names = [str(n) for n in names]
        self.values = np.asarray(values, dtype=np.float64)
        self.unit = unit
        metrics = QFontMetrics(self.font())
        self.labels = [metrics.elidedText(n, Qt.TextElideMode.ElideMiddle, self.label_px) for n in self.names]
        y = np.arange(len(self.values))
        kw = {"brushes": brushes} if brushes is not None else {"brush": "#4e79a7"}
        self.plot.addItem(pg.BarGraphItem(x0=0, y=y, height=0.6, width=self.values, **kw))
        self.axis.setTicks([list(zip(y.tolist(), self.labels))])

    def bar_at(self, scene_pos: QPointF) -> int | None:
        """The bar (or its label) at a scene position, or None."""
        if not self.names:
            return None
        vb = self.plot.getPlotItem().getViewBox()
        y = vb.mapSceneToView(scene_pos).y()
        i = int(round(y))
        inside_rows = 0 <= i < len(self.names) and abs(y - i) <= 0.4
        over = vb.sceneBoundingRect().contains(scene_pos) or self.axis.sceneBoundingRect().contains(scene_pos)
        return i if inside_rows and over else None

    def tooltip_for(self, i: int) -> str:
        value = f"{self.values[i]:,.3f}"
        return f"{self.names[i]}\n{value} {self.unit}".rstrip()

    def _hover(self, scene_pos: QPointF) -> None:
        i = self.bar_at(scene_pos)
        text = self.tooltip_for(i) if i is not None else ""
        self.plot.setToolTip(text)  # shown by Qt after the hover delay
        if QToolTip.isVisible():  # already up: follow the bar under the mouse
            if text:
                QToolTip.showText(self.plot.mapToGlobal(self.plot.mapFromScene(scene_pos)), text, self.plot)
            else:
                QToolTip.hideText()


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
                item = QTreeWidgetItem([tr_name(name), tr_value(value)])
                item.setToolTip(1, value)
                section.addChild(item)
        self.tree.expandAll()
        self.top_ops = views.top_operators(report)
        self.chart = BarChart(self.tr("Top 10 operators by total time (µs)"), self)
        self.chart.setMinimumWidth(420)
        if self.top_ops:
            self.chart.set_bars([n for n, _ in self.top_ops][::-1], [v for _, v in self.top_ops][::-1], unit="µs")
        else:
            self.chart.set_title(self.tr("Top operators: no operator statistics in this report"), "#933")
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
