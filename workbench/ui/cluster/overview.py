"""The Overview tab: the findings (every slow rank and slow link with its evidence, one line each;
beside them the advisor's cluster findings, ``set_advisor``) above a step × rank heatmap of a chosen
cluster_step_trace_time column and per-rank stacked bars (Computing / Communication (Not Overlapped)
/ Free / Bubble) of one step or the mean of the steps. The rows of both charts are the ranks; pointing
at a rank anywhere emits it (click: ``rank_clicked``, double-click: ``rank_activated``, right-click:
``rank_menu``)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from workbench.core.cluster import findings, views
from workbench.core.cluster.report import ClusterReport
from workbench.ui.cluster import texts
from workbench.ui.cluster.charts import RankBars, RankStepHeatmap

FINDING_ROLE = Qt.ItemDataRole.UserRole + 1
# the stacked parts of a rank's bar, left to right (core views.STACK) and their colours
COLORS = {
    "Computing": "#4e79a7",
    "Communication(Not Overlapped)": "#e15759",
    "Free": "#bab0ac",
    "Bubble": "#f28e2b",
}
DEFAULT_COLUMN = "Computing"


class ClusterOverviewPane(QWidget):
    rank_clicked = Signal(int)
    rank_activated = Signal(int)
    rank_menu = Signal(int, QPoint)
    link_clicked = Signal(int, int, str)  # src, dst, transport of a slow link's finding
    link_activated = Signal(int, int, str)  # the same, double-clicked: show it in the matrix
    finding_menu = Signal(object, QPoint)  # the finding's key, global position

    def __init__(self, report: ClusterReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ClusterOverview")
        self.report = report
        tables = report.tables
        self.steps = views.steps_of(tables)
        self.all_ranks = sorted({*tables.ranks, *(r.rank for r in report.ranks)})

        self.findings = QListWidget(self)
        self.findings.setObjectName("clusterFindings")
        self.findings.setAlternatingRowColors(True)
        self.findings.setWordWrap(True)  # a long line of evidence wraps in its row
        self.findings.setResizeMode(QListView.ResizeMode.Adjust)
        self.findings.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.findings.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.findings.customContextMenuRequested.connect(self._findings_menu)
        self.findings.itemClicked.connect(self._finding_clicked)
        self.findings.itemDoubleClicked.connect(self._finding_activated)
        self._fill_findings()

        self.column = QComboBox(self)
        self.column.setObjectName("clusterColumn")
        for column in texts.time_columns(tables.step_header):
            self.column.addItem(texts.column_label(column), column)
        at = self.column.findData(DEFAULT_COLUMN)
        self.column.setCurrentIndex(max(at, 0))
        self.step = QComboBox(self)
        self.step.setObjectName("clusterBarsStep")
        self.step.addItem(self.tr("Mean of the steps"), None)
        for step in self.steps:
            self.step.addItem(self.tr("Step {0}").format(texts.step_label(step)), step)
        self.heatmap = RankStepHeatmap(self)
        self.heatmap.setObjectName("clusterHeatmap")
        self.bars = RankBars(self)
        self.bars.setObjectName("clusterBars")
        controls = QHBoxLayout()
        controls.setContentsMargins(0, 0, 0, 0)
        heat_label = QLabel(self.tr("&Heatmap of"), self)
        heat_label.setBuddy(self.column)
        bars_label = QLabel(self.tr("&Bars for"), self)
        bars_label.setBuddy(self.step)
        controls.addWidget(heat_label)
        controls.addWidget(self.column)
        controls.addSpacing(16)
        controls.addWidget(bars_label)
        controls.addWidget(self.step)
        controls.addStretch(1)
        controls.addWidget(self.bars.legend)

        self.bars.plot.setYLink(self.heatmap.plot)  # the same rank on the same height
        for chart in (self.heatmap, self.bars):
            chart.rank_clicked.connect(self._chart_rank_clicked)
            chart.rank_activated.connect(self.rank_activated)
            chart.rank_menu.connect(self.rank_menu)
        charts = QSplitter(Qt.Orientation.Horizontal, self)
        charts.addWidget(self.heatmap)
        charts.addWidget(self.bars)
        charts.setSizes([600, 400])
        lower = QWidget(self)
        box = QVBoxLayout(lower)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(controls)
        box.addWidget(charts, 1)
        # the findings beside the advisor's (set_advisor: its pane, once the document has one)
        self.top = QSplitter(Qt.Orientation.Horizontal, self)
        self.top.addWidget(self.findings)
        self.advisor: QWidget | None = None
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.top)
        split.addWidget(lower)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 4)
        split.setSizes([140, 560])
        self.split = split
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)

        self.column.currentIndexChanged.connect(lambda _i: self.show_column())
        self.step.currentIndexChanged.connect(lambda _i: self.show_bars())
        self.show_column()
        self.show_bars()

    # --- findings -----------------------------------------------------------------------------------
    def _fill_findings(self) -> None:
        found = self.report.findings
        for s in found.slow_ranks:
            item = QListWidgetItem(self.tr("Slow rank · {0}").format(texts.slow_rank_line(s, self.all_ranks)))
            item.setData(FINDING_ROLE, ("rank", s.rank))
            self.findings.addItem(item)
        for link in found.slow_links:
            item = QListWidgetItem(self.tr("Slow link · {0}").format(texts.slow_link_line(link)))
            item.setData(FINDING_ROLE, ("link", link.src, link.dst, link.transport))
            if link.ops:
                item.setToolTip(self.tr("Operators: {0}").format(", ".join(link.ops)))
            self.findings.addItem(item)
        if not found.slow_ranks and not found.slow_links:
            item = QListWidgetItem(
                self.tr(
                    "No slow rank (Computing more than {0} % above its peers' median) and no slow link "
                    "(bandwidth under {1} % of its transport's median)"
                ).format(f"{findings.RANK_THRESHOLD * 100:.0f}", f"{findings.LINK_THRESHOLD * 100:.0f}")
            )
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.findings.addItem(item)

    def finding_items(self) -> list[QListWidgetItem]:
        items = (self.findings.item(i) for i in range(self.findings.count()))
        return [item for item in items if item is not None]

    @staticmethod
    def finding_key(item: QListWidgetItem | None) -> tuple | None:
        return item.data(FINDING_ROLE) if item is not None else None

    def _finding_clicked(self, item: QListWidgetItem) -> None:
        key = self.finding_key(item)
        if not key:
            return
        if key[0] == "rank":
            self.select_rank(key[1])
            self.rank_clicked.emit(key[1])
        else:
            self.link_clicked.emit(key[1], key[2], key[3])

    def _finding_activated(self, item: QListWidgetItem) -> None:
        key = self.finding_key(item)
        if key and key[0] == "rank":
            self.rank_activated.emit(key[1])
        elif key:
            self.link_activated.emit(key[1], key[2], key[3])

    def _findings_menu(self, pos: QPoint) -> None:
        item = self.findings.itemAt(pos)
        key = self.finding_key(item)
        if item is None or not key:
            return
        self.findings.setCurrentItem(item)
        self._finding_clicked(item)
        self.finding_menu.emit(key, self.findings.viewport().mapToGlobal(pos))

    # --- charts ---------------------------------------------------------------------------------------
    def show_column(self) -> None:
        column = self.column.currentData() or DEFAULT_COLUMN
        grid = views.step_grid(self.report.tables, column)
        selected = self.heatmap.selected
        self.heatmap.set_grid(
            grid.ranks, grid.steps, grid.values, texts.column_label(column), [texts.step_label(s) for s in grid.steps]
        )
        self.heatmap.select_rank(selected)

    def show_bars(self) -> None:
        step = self.step.currentData()
        ranks, parts = views.breakdown(self.report.tables, step)
        caption = self.tr("mean of the steps") if step is None else self.tr("step {0}").format(texts.step_label(step))
        selected = self.bars.selected
        self.bars.set_bars(
            ranks,
            [(texts.column_label(name), parts[name], COLORS.get(name, "#888")) for name in views.STACK],
            caption,
        )
        self.bars.select_rank(selected)

    def _chart_rank_clicked(self, rank: int) -> None:
        self.select_rank(rank)
        self.rank_clicked.emit(rank)

    def set_advisor(self, pane: QWidget) -> None:
        """The advisor's findings of the cluster (an AdvisorPane) beside the slow ranks and links;
        the findings row grows to show it."""
        if self.advisor is not None:
            self.advisor.setParent(None)
            self.advisor.deleteLater()
        self.advisor = pane
        self.top.addWidget(pane)
        self.top.setSizes([300, 700])  # the advisor lists the slow ranks and links too, with their evidence
        self.split.setSizes([300, 400])

    def select_rank(self, rank: int | None) -> None:
        """Outline ``rank`` in both charts and select its finding, if it has one."""
        self.heatmap.select_rank(rank)
        self.bars.select_rank(rank)
        current = self.finding_key(self.findings.currentItem())
        if current and current[0] == "rank" and current[1] == rank:
            return
        for item in self.finding_items():
            key = self.finding_key(item)
            if key and key[0] == "rank" and key[1] == rank:
                self.findings.setCurrentItem(item)
                return
        self.findings.clearSelection()
