"""The Communication tab: the communication groups (type, parallel group tp/pp/dp, hash, ranks),
per group, step and operator the summary (ranks, the longest elapse, the rank the others waited for
and the spread of their waits; sortable, widest spread first), and each rank's times of the selected
operator. A rank (a row of the per-rank table, the "waited for" cell) is emitted like the Overview's:
click ``rank_clicked``, double-click ``rank_activated``, right-click ``rank_menu``."""

from __future__ import annotations

from collections import defaultdict

import pandas as pd
from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from workbench.core.cluster import views
from workbench.core.cluster.report import ClusterReport
from workbench.ui.cluster import texts
from workbench.ui.report.table import FrameTable


class ClusterCommPane(QWidget):
    rank_clicked = Signal(int)
    rank_activated = Signal(int)
    rank_menu = Signal(int, QPoint)

    def __init__(self, report: ClusterReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ClusterCommunication")
        tables = report.tables
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.groups = FrameTable(self.tr("Communication groups"), self)
        self.groups.setObjectName("clusterGroups")
        self.summary = FrameTable(self.tr("Operators"), self)
        self.summary.setObjectName("clusterOps")
        self.per_rank = FrameTable(self.tr("Ranks of the operator"), self)
        self.per_rank.setObjectName("clusterOpRanks")
        groups = views.group_rows(tables)
        self.groups.set_frame(
            pd.DataFrame(
                {
                    "type": [g[0] for g in groups],
                    "parallel": [g[1] or "—" for g in groups],
                    "hash": [g[2] or "—" for g in groups],
                    "size": [len(g[3]) for g in groups],
                    "ranks": [texts.id_ranges(g[3]) for g in groups],
                }
            ),
            headers=[
                self.tr("Type"),
                self.tr("Parallel Group"),
                self.tr("Group Hash"),
                self.tr("Size"),
                self.tr("Ranks"),
            ],
        )
        self.ops = views.op_summary(tables)
        self.summary.set_frame(
            pd.DataFrame(
                {
                    "group": [o.group for o in self.ops],
                    "step": [texts.step_label(o.step) for o in self.ops],
                    "op": [o.op for o in self.ops],
                    "ranks": [o.ranks for o in self.ops],
                    "max_elapse_ms": [o.max_elapse_ms for o in self.ops],
                    "waited_for": [o.waited_for for o in self.ops],
                    "wait_spread_ms": [o.wait_spread_ms for o in self.ops],
                }
            ),
            headers=[
                self.tr("Group"),
                self.tr("Step"),
                self.tr("Operator"),
                self.tr("Ranks"),
                self.tr("Max Elapse (ms)"),
                self.tr("Waited-for Rank"),
                self.tr("Wait Spread (ms)"),
            ],
        )
        self.summary.view.setColumnWidth(2, min(self.summary.view.columnWidth(2), 260))  # long names: tooltip
        self.rows: dict[tuple[str, str, str], list[views.OpRow]] = defaultdict(list)
        for row in views.op_rows(tables):
            self.rows[(row.group, row.step, row.op)].append(row)
        self.per_rank_headers = [
            self.tr("Rank"),
            self.tr("Elapse (ms)"),
            self.tr("Wait (ms)"),
            self.tr("Transit (ms)"),
            self.tr("Synchronization (ms)"),
            self.tr("Idle (ms)"),
            self.tr("Wait Ratio"),
        ]
        self.shown: tuple[str, str, str] | None = None
        self.show_op(None)
        self.summary.row_activated.connect(self._op_clicked)
        self.summary.view.doubleClicked.connect(self._op_double_clicked)
        self.per_rank.row_activated.connect(lambda row: self.rank_clicked.emit(self._rank_of_row(row)))
        self.per_rank.view.doubleClicked.connect(
            lambda index: self.rank_activated.emit(self._rank_of_row(self.per_rank.model.source_row(index.row())))
        )
        self.per_rank.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.per_rank.view.customContextMenuRequested.connect(self._per_rank_menu)
        if not self.ops:
            self.note.setText(self.tr("This cluster has no communication operators (no cluster_communication data)."))
        else:
            self.note.setText(
                self.tr(
                    "{0} operators in {1} groups. The waited-for rank is the one with the least wait: the others "
                    "waited for it, up to the wait spread. Double-click a rank to open its report."
                ).format(len(self.ops), len(groups))
            )

        lower = QSplitter(Qt.Orientation.Horizontal, self)
        lower.addWidget(self.summary)
        lower.addWidget(self.per_rank)
        lower.setSizes([700, 400])
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.groups)
        split.addWidget(lower)
        split.setSizes([220, 480])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.note)
        layout.addWidget(split, 1)
        if self.ops:
            self.show_op(0)

    def show_op(self, source_row: int | None) -> None:
        """The per-rank rows of the summary's ``source_row`` (None: empty)."""
        op = self.ops[source_row] if source_row is not None and 0 <= source_row < len(self.ops) else None
        key = (op.group, op.step, op.op) if op is not None else None
        self.shown = key
        rows = sorted(self.rows.get(key, []), key=lambda r: r.rank) if key else []
        self.per_rank.set_frame(
            pd.DataFrame(
                {
                    "rank": pd.Series([r.rank for r in rows], dtype="int64"),
                    "elapse_ms": pd.Series([r.elapse_ms for r in rows], dtype="float64"),
                    "wait_ms": pd.Series([r.wait_ms for r in rows], dtype="float64"),
                    "transit_ms": pd.Series([r.transit_ms for r in rows], dtype="float64"),
                    "sync_ms": pd.Series([r.sync_ms for r in rows], dtype="float64"),
                    "idle_ms": pd.Series([r.idle_ms for r in rows], dtype="float64"),
                    "wait_ratio": pd.Series([r.wait_ratio for r in rows], dtype="float64"),
                }
            ),
            note=self.tr("{0} · step {1} · {2}").format(op.op, texts.step_label(op.step), op.group) if op else "",
            headers=self.per_rank_headers,
        )

    def _op_clicked(self, source_row: int) -> None:
        self.show_op(source_row)
        index = self.summary.view.currentIndex()
        if index.isValid() and self.summary.model.columns[index.column()] == "waited_for":
            self.rank_clicked.emit(self.ops[source_row].waited_for)

    def _op_double_clicked(self, index: QModelIndex) -> None:
        if self.summary.model.columns[index.column()] == "waited_for":
            self.rank_activated.emit(self.ops[self.summary.model.source_row(index.row())].waited_for)

    def _rank_of_row(self, source_row: int) -> int:
        return int(self.per_rank.model.frame["rank"].iloc[source_row])

    def _per_rank_menu(self, pos: QPoint) -> None:
        index = self.per_rank.view.indexAt(pos)
        if not index.isValid():
            return
        rank = self._rank_of_row(self.per_rank.model.source_row(index.row()))
        self.rank_clicked.emit(rank)
        self.rank_menu.emit(rank, self.per_rank.view.viewport().mapToGlobal(pos))
