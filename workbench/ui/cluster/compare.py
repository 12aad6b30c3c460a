"""The Cluster document's comparisons (core ``cluster.compare``):

- **Compare with Baseline…** (toolbar): a folder chosen in Qt's own folder dialog (a job's folder of
  ranks, a cluster_analysis_output, a saved report: whatever opens as a cluster) is opened off the GUI
  thread, nothing written into it, and compared with the document's cluster in a "Comparison" tab: the
  new, resolved and remaining slow ranks and links, the regressed ranks (the most regressed first), each
  rank's mean changes, every (rank, step) row per column and the column totals;
- **Compare Ranks…** (toolbar): two ranks of the cluster (the selected rank and a rank of its stage by
  default) side by side, step by step, in a "Rank Comparison" tab of the same shape.

A re-analysis of the document compares again (the same baseline folder, the same two ranks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from workbench.core.cluster import compare as core_compare
from workbench.core.cluster.compare import ClusterCompareError, ClusterComparison
from workbench.ui.cluster import pages, texts

ALL_COLUMNS = ""  # the rows table's column filter: every column


def _pct(ratio: float | None) -> float | None:
    return None if ratio is None else (ratio - 1.0) * 100.0


def _floats(values: list[float | None]) -> Any:
    import pandas as pd

    return pd.Series([float("nan") if v is None else v for v in values], dtype="float64")


class BaselineFolderDialog(QFileDialog):
    """Qt's own (non-native) folder dialog for Compare with Baseline…"""

    def __init__(self, parent: QWidget, folder: str) -> None:
        super().__init__(parent, "", folder)
        self.setObjectName("clusterBaselineDialog")
        self.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        self.setFileMode(QFileDialog.FileMode.Directory)
        self.setOption(QFileDialog.Option.ShowDirsOnly, True)
        self.setWindowTitle(self.tr("Compare with Baseline"))


class CompareRanksDialog(QDialog):
    """Two ranks of the cluster: the one compared and the one it is compared with (different)."""

    def __init__(self, ranks: list[int], rank: int, against: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("clusterCompareRanksDialog")
        self.setWindowTitle(self.tr("Compare Ranks"))
        self.rank = QComboBox(self)
        self.rank.setObjectName("clusterCompareRank")
        self.against = QComboBox(self)
        self.against.setObjectName("clusterCompareAgainst")
        for combo, chosen in ((self.rank, rank), (self.against, against)):
            for r in ranks:
                combo.addItem(self.tr("Rank {0}").format(r), r)
            combo.setCurrentIndex(max(combo.findData(chosen), 0))
            combo.currentIndexChanged.connect(lambda _i: self._check())
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(self.tr("&Compare rank"), self.rank)
        form.addRow(self.tr("&With rank"), self.against)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(self.hint)
        box.addWidget(self.buttons)
        self._check()

    def chosen(self) -> tuple[int, int]:
        """(the rank compared with, the rank compared): the base side first."""
        return int(self.against.currentData()), int(self.rank.currentData())

    def _check(self) -> None:
        same = self.rank.currentData() == self.against.currentData()
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(not same)
        self.hint.setText(self.tr("Choose two different ranks.") if same else "")


class ClusterComparisonPane(QWidget):
    """One comparison (two clusters, or two ranks): findings, regressed ranks, ranks, rows, totals."""

    def __init__(self, comparison: ClusterComparison, parent: QWidget | None = None) -> None:
        from workbench.ui.report.table import FrameTable

        super().__init__(parent)
        self.setObjectName("ClusterComparison")
        self.comparison = c = comparison
        self.ranks_mode = c.kind == "ranks"
        if self.ranks_mode:
            self.base_header = self.tr("Rank {0} (µs)").format(c.base_rank)
            self.current_header = self.tr("Rank {0} (µs)").format(c.current_rank)
        else:
            self.base_header, self.current_header = self.tr("Baseline (µs)"), self.tr("Current (µs)")
        self.note = QLabel(self)
        self.note.setObjectName("clusterCompareNote")
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.setText(self._note())
        self.findings = QListWidget(self)
        self.findings.setObjectName("clusterCompareFindings")
        self.findings.setAlternatingRowColors(True)
        self.findings.setWordWrap(True)
        self.findings.setResizeMode(QListView.ResizeMode.Adjust)
        self.findings.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self._fill_findings()
        self.regressions = FrameTable(self.tr("Regressed ranks"), self)
        self.regressions.setObjectName("clusterCompareRegressions")
        self.ranks = FrameTable(self.tr("Ranks"), self)
        self.ranks.setObjectName("clusterCompareRanks")
        self.rows = FrameTable(self.tr("Rows"), self)
        self.rows.setObjectName("clusterCompareRows")
        self.totals = FrameTable(self.tr("Totals"), self)
        self.totals.setObjectName("clusterCompareTotals")
        self.column = QComboBox(self)
        self.column.setObjectName("clusterCompareColumn")
        self.column.addItem(self.tr("All columns"), ALL_COLUMNS)
        for name in c.columns:
            self.column.addItem(texts.column_label(name), name)
        self._fill_regressions()
        self._fill_ranks()
        if self.ranks_mode:  # one pair: its means are the totals' halves, no cluster's change to subtract
            self.ranks.hide()
            self.regressions.view.setColumnHidden(5, True)
        self._fill_totals()
        self.show_rows()
        self.column.currentIndexChanged.connect(lambda _i: self.show_rows())

        column_row = QHBoxLayout()
        column_row.setContentsMargins(0, 0, 0, 0)
        label = QLabel(self.tr("&Rows of"), self)
        label.setBuddy(self.column)
        column_row.addWidget(label)
        column_row.addWidget(self.column)
        column_row.addStretch(1)
        lower_left = QWidget(self)
        box = QVBoxLayout(lower_left)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(column_row)
        box.addWidget(self.rows, 1)
        lower = QSplitter(Qt.Orientation.Horizontal, self)
        lower.addWidget(lower_left)
        lower.addWidget(self.totals)
        lower.setSizes([700, 400])
        split = QSplitter(Qt.Orientation.Vertical, self)
        for part in (self.findings, self.regressions, self.ranks, lower):
            split.addWidget(part)
        split.setSizes([90, 140, 180, 320])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.note)
        layout.addWidget(split, 1)

    # --- what is shown --------------------------------------------------------------------------------
    def _note(self) -> str:
        c = self.comparison
        ranks = sorted({r.rank for r in c.rows})
        steps = sorted({r.step for r in c.rows})
        if self.ranks_mode:
            lines = [
                self.tr("Rank {0} against rank {1} of {2}: {3} steps compared, times in µs.").format(
                    c.current_rank, c.base_rank, c.current_source, len(steps)
                )
            ]
        else:
            lines = [
                self.tr("{0} against the baseline {1}: {2} ranks × {3} steps compared ({4} rows), times in µs.").format(
                    c.current_source, c.base_source, len(ranks), len(steps), len(c.rows)
                )
            ]

        def named(items: list) -> str:
            return ", ".join(map(str, items))

        if self.ranks_mode:
            listed = [
                (self.tr("Steps only rank {0} has: {1}"), c.base_rank, c.steps_only_base),
                (self.tr("Steps only rank {0} has: {1}"), c.current_rank, c.steps_only_current),
            ]
            lines += [t.format(r, named([texts.step_label(x) for x in items])) for t, r, items in listed if items]
        else:
            parts = [
                (
                    self.tr("Ranks only in the baseline: {0}"),
                    texts.id_ranges(c.ranks_only_base) if c.ranks_only_base else "",
                ),
                (
                    self.tr("Ranks only in the current cluster: {0}"),
                    texts.id_ranges(c.ranks_only_current) if c.ranks_only_current else "",
                ),
                (self.tr("Steps only in the baseline: {0}"), named([texts.step_label(x) for x in c.steps_only_base])),
                (
                    self.tr("Steps only in the current cluster: {0}"),
                    named([texts.step_label(x) for x in c.steps_only_current]),
                ),
                (
                    self.tr("Columns only in the baseline: {0}"),
                    named([texts.column_label(x) for x in c.columns_only_base]),
                ),
                (
                    self.tr("Columns only in the current cluster: {0}"),
                    named([texts.column_label(x) for x in c.columns_only_current]),
                ),
            ]
            lines += [template.format(items) for template, items in parts if items]
        unmatched = len(c.rows_only_base) + len(c.rows_only_current)
        if unmatched and not self.ranks_mode:
            lines.append(self.tr("{0} (rank, step) rows are on one side only and not compared.").format(unmatched))
        return "\n".join(lines)

    def _item(self, text: str, rank: int | None = None) -> None:
        item = QListWidgetItem(text)
        if rank is None:
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        self.findings.addItem(item)

    def _fill_findings(self) -> None:
        c = self.comparison
        f = c.findings
        current_ranks = sorted({*(r.rank for r in c.rows), *c.ranks_only_current})
        base_ranks = sorted({*(r.base_rank for r in c.rows), *c.ranks_only_base})
        if self.ranks_mode:
            for side, found, ranks in ((c.current_rank, f.current, current_ranks), (c.base_rank, f.base, base_ranks)):
                for s in found.slow_ranks:
                    self._item(self.tr("Slow rank · {0}").format(texts.slow_rank_line(s, ranks)), s.rank)
                for link in found.slow_links:
                    self._item(self.tr("Slow link of rank {0} · {1}").format(side, texts.slow_link_line(link)))
            if (
                not f.current.slow_ranks
                and not f.current.slow_links
                and not f.base.slow_ranks
                and not f.base.slow_links
            ):
                self._item(self.tr("No finding names rank {0} or rank {1}.").format(c.current_rank, c.base_rank))
            return
        groups = (
            (
                self.tr("New · Slow rank · {0}"),
                self.tr("New · Slow link · {0}"),
                f.new_ranks,
                f.new_links,
                current_ranks,
            ),
            (
                self.tr("Resolved · Slow rank · {0}"),
                self.tr("Resolved · Slow link · {0}"),
                f.resolved_ranks,
                f.resolved_links,
                base_ranks,
            ),
            (
                self.tr("Still · Slow rank · {0}"),
                self.tr("Still · Slow link · {0}"),
                f.persisting_ranks,
                f.persisting_links,
                current_ranks,
            ),
        )
        for rank_text, link_text, slow_ranks, slow_links, ranks in groups:
            for s in slow_ranks:
                self._item(rank_text.format(texts.slow_rank_line(s, ranks)), s.rank)
            for link in slow_links:
                self._item(link_text.format(texts.slow_link_line(link)))
        if not self.findings.count():
            self._item(self.tr("No slow rank and no slow link in either cluster."))

    def finding_rows(self) -> list[str]:
        items = (self.findings.item(i) for i in range(self.findings.count()))
        return [item.text() for item in items if item is not None]

    def _fill_regressions(self) -> None:
        import pandas as pd

        regs = self.comparison.regressions
        self.regressions.set_frame(
            pd.DataFrame(
                {
                    "rank": pd.Series([r.rank for r in regs], dtype="int64"),
                    "column": [texts.column_label(r.column) for r in regs],
                    "base_us": _floats([r.base_us for r in regs]),
                    "current_us": _floats([r.current_us for r in regs]),
                    "diff_us": _floats([r.diff_us for r in regs]),
                    "cluster_diff_us": _floats([r.cluster_diff_us for r in regs]),
                    "excess_us": _floats([r.excess_us for r in regs]),
                    "diff_pct": _floats([_pct(r.ratio) for r in regs]),
                }
            ),
            note=self._regressions_note(),
            headers=[
                self.tr("Rank"),
                self.tr("Column"),
                self.base_header,
                self.current_header,
                self.tr("Change (µs)"),
                self.tr("Cluster's Change (µs)"),
                self.tr("Excess (µs)"),
                self.tr("Change (%)"),
            ],
        )

    def _regressions_note(self) -> str:
        c = self.comparison
        share = f"{core_compare.REGRESSION_SHARE * 100:g}"
        if self.ranks_mode:
            if not c.regressions:
                return self.tr(
                    "Rank {0}'s Computing and Free exceed rank {1}'s by no more than {2} % of its step."
                ).format(c.current_rank, c.base_rank, share)
            return self.tr(
                "The columns where rank {0}'s mean exceeds rank {1}'s by more than {2} % of rank {1}'s step "
                "(Computing + Communication (Not Overlapped) + Free). Ranked: Computing and Free."
            ).format(c.current_rank, c.base_rank, share)
        if not c.regressions:
            return self.tr("No rank regressed: no rank's Computing or Free grew more than the cluster's did.")
        return self.tr(
            "A rank regressed in a column when its mean change there exceeds the cluster's median change "
            "by more than {0} % of its step (Computing + Communication (Not Overlapped) + Free). Ranked: "
            "Computing and Free; communication is mostly waiting for the others."
        ).format(share)

    def _fill_ranks(self) -> None:
        import numpy as np
        import pandas as pd

        c = self.comparison
        frame: dict[str, Any] = {
            "rank": pd.Series([m.rank for m in c.rank_means], dtype="int64"),
            "steps": pd.Series([m.steps for m in c.rank_means], dtype="int64"),
        }
        headers = [self.tr("Rank"), self.tr("Steps")]
        for i, column in enumerate(c.columns):
            frame[f"diff_{i}"] = _floats([m.diff[i] for m in c.rank_means])
            headers.append(self.tr("Δ {0} (µs)").format(texts.column_label(column)))
        regressed = set(c.regressed_ranks)
        self.ranks.set_frame(
            pd.DataFrame(frame),
            note=self.tr("Per rank the change of its mean over the steps, the most regressed rank first."),
            highlight=np.array([m.rank in regressed for m in c.rank_means], dtype=bool),
            headers=headers,
        )

    def _fill_totals(self) -> None:
        import pandas as pd

        totals = self.comparison.totals
        self.totals.set_frame(
            pd.DataFrame(
                {
                    "column": [texts.column_label(t.column) for t in totals],
                    "base_us": _floats([t.base for t in totals]),
                    "current_us": _floats([t.current for t in totals]),
                    "diff_us": _floats([t.diff for t in totals]),
                    "diff_pct": _floats([_pct(t.ratio) for t in totals]),
                }
            ),
            note=self.tr("Each column summed over the compared rows."),
            headers=[
                self.tr("Column"),
                self.base_header,
                self.current_header,
                self.tr("Change (µs)"),
                self.tr("Change (%)"),
            ],
        )

    def show_rows(self) -> None:
        """Every compared (rank, step) row, one line per column (or only the chosen column)."""
        import pandas as pd

        c = self.comparison
        chosen = self.column.currentData() or ALL_COLUMNS
        picks = [i for i, name in enumerate(c.columns) if chosen in (ALL_COLUMNS, name)]
        rows = [(row, i) for row in c.rows for i in picks]
        frame: dict[str, Any] = {}
        headers: list[str] = []
        if not self.ranks_mode:
            frame["rank"] = pd.Series([row.rank for row, _ in rows], dtype="int64")
            headers.append(self.tr("Rank"))
        frame.update(
            {
                "step": [texts.step_label(row.step) for row, _ in rows],
                "column": [texts.column_label(c.columns[i]) for _, i in rows],
                "base_us": _floats([row.base[i] for row, i in rows]),
                "current_us": _floats([row.current[i] for row, i in rows]),
                "diff_us": _floats([row.diff[i] for row, i in rows]),
                "diff_pct": _floats([_pct(row.ratio[i]) for row, i in rows]),
            }
        )
        headers += [
            self.tr("Step"),
            self.tr("Column"),
            self.base_header,
            self.current_header,
            self.tr("Change (µs)"),
            self.tr("Change (%)"),
        ]
        self.rows.set_frame(pd.DataFrame(frame), headers=headers)


class ComparisonTab(QStackedWidget):
    """A comparison's tab: its progress (with Cancel) while the baseline opens, then the comparison,
    or one line saying why there is none."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("clusterComparisonTab")
        self.pane: ClusterComparisonPane | None = None
        self.task: Any = None
        progress = pages.progress_page(self, self.cancel, "clusterCompareCancel")
        self.progress_page, self.progress_title, self.progress_status = progress.page, progress.title, progress.status
        self.progress_bar, self.cancel_button = progress.bar, progress.cancel
        self.message_page, self.message = pages.message_page(self, "clusterCompareMessage")
        self.addWidget(self.progress_page)
        self.addWidget(self.message_page)

    def running(self, heading: str) -> None:
        self.progress_title.setText(heading)
        self.progress_status.setText(self.tr("Starting…"))
        self.progress_bar.setRange(0, 0)
        self.cancel_button.setEnabled(True)
        self.setCurrentWidget(self.progress_page)

    def status(self, line: str) -> None:
        self.progress_status.setText(texts.status_text(line))

    def cancel(self) -> None:
        if self.task is not None:
            self.cancel_button.setEnabled(False)
            self.progress_status.setText(self.tr("Cancelling…"))
            self.task.cancel()

    def show_comparison(self, comparison: ClusterComparison) -> None:
        if self.pane is not None:
            self.removeWidget(self.pane)
            self.pane.deleteLater()
        self.pane = ClusterComparisonPane(comparison, self)
        self.addWidget(self.pane)
        self.setCurrentWidget(self.pane)

    def show_message(self, text: str, error: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color:#933;" if error else "")
        self.setCurrentWidget(self.message_page)


class ClusterComparisons(QObject):
    """The comparisons of one Cluster document: its two toolbar actions and their tabs."""

    def __init__(self, doc: Any) -> None:
        super().__init__(doc)
        self.doc = doc
        self.base_path: Path | None = None  # the baseline folder last chosen (compared again on a re-analysis)
        self.rank_pair: tuple[int, int] | None = None  # (base rank, compared rank) last chosen
        self.baseline_tab: ComparisonTab | None = None
        self.ranks_tab: ComparisonTab | None = None
        self.generation = 0  # a task's result for an older report (or a replaced tab) is dropped
        self.task: Any = None
        self.act_baseline = doc.toolbar.addAction(self.tr("Compare with Baseline…"))
        self.act_baseline.setToolTip(
            self.tr("Compare this cluster with a baseline cluster's folder (nothing is written into it)")
        )
        self.act_baseline.setEnabled(False)
        self.act_baseline.triggered.connect(lambda _checked=False: self.choose_baseline())
        self.act_ranks = doc.toolbar.addAction(self.tr("Compare Ranks…"))
        self.act_ranks.setToolTip(self.tr("Compare two ranks of this cluster side by side, step by step"))
        self.act_ranks.setEnabled(False)
        self.act_ranks.triggered.connect(lambda _checked=False: self.choose_ranks())

    # --- the document's life --------------------------------------------------------------------------
    def rebuilt(self) -> None:
        """The document built its tabs anew (they replaced ours): compare again what was compared."""
        self.generation += 1
        if self.task is not None:
            self.task.cancel()
            self.task = None
        self.baseline_tab = self.ranks_tab = None
        ready = self.doc.report is not None
        self.act_baseline.setEnabled(ready)
        self.act_ranks.setEnabled(ready and len(self._ranks()) >= 2)
        if not ready:
            return
        pair, self.rank_pair = self.rank_pair, None
        if pair is not None and all(r in self._ranks() for r in pair):
            self.compare_ranks(*pair, show=False)
        if self.base_path is not None:
            self.compare_with(self.base_path, show=False)

    def closing(self) -> None:
        self.generation += 1
        if self.task is not None:
            self.task.cancel()

    # --- with a baseline ------------------------------------------------------------------------------
    def _start_folder(self) -> str:
        if self.base_path is not None:
            return str(self.base_path.parent)
        report = self.doc.report
        folder = Path(report.source) if report is not None else Path(self.doc.path)
        return str(folder.parent if folder.parent.is_dir() else folder)

    def choose_baseline(self) -> None:
        """Compare with Baseline…: a folder in Qt's own dialog, then the comparison."""
        if self.doc.report is None:
            return
        dialog = BaselineFolderDialog(self.doc, self._start_folder())
        if dialog.exec() and dialog.selectedFiles():
            self.compare_with(Path(dialog.selectedFiles()[0]).expanduser().absolute())

    def _tab(self, attr: str, title: str, show: bool) -> ComparisonTab:
        tabs = self.doc.tabs
        tab: ComparisonTab | None = getattr(self, attr)
        if tab is None or tabs.indexOf(tab) < 0:
            tab = ComparisonTab(tabs)
            tabs.addTab(tab, title)
            setattr(self, attr, tab)
        if show:
            tabs.setCurrentWidget(tab)
        return tab

    def compare_with(self, base: Path, show: bool = True) -> None:
        """Open the baseline ``base`` off the GUI thread and show its comparison with the document's cluster."""
        report = self.doc.report
        if report is None:
            return
        if self.task is not None:
            self.task.cancel()
        self.base_path = base
        self.generation += 1
        gen = self.generation
        tab = self._tab("baseline_tab", self.tr("Comparison"), show)
        name = base.name or str(base)
        tab.running(self.tr("Opening the baseline {0}").format(name))
        task = self.doc.context.bridge.start(
            core_compare.compare_with,
            base,
            report,
            title=self.tr("Compare {0} with the baseline {1}").format(Path(report.source).name or report.source, name),
            kind="cluster",
        )
        self.task = tab.task = task
        task.status_changed.connect(lambda line, g=gen: self._status(g, tab, line))
        task.succeeded.connect(lambda result, g=gen: self._succeeded(g, tab, result))
        task.failed.connect(lambda message, _exc, g=gen: self._failed(g, tab, message))
        task.cancelled.connect(lambda g=gen, b=str(base): self._cancelled(g, tab, b))

    def _live(self, gen: int) -> bool:
        return gen == self.generation and not self.doc.closed

    def _status(self, gen: int, tab: ComparisonTab, line: str) -> None:
        if self._live(gen):
            tab.status(line)

    def _done(self, tab: ComparisonTab) -> None:
        self.task = tab.task = None

    def _succeeded(self, gen: int, tab: ComparisonTab, comparison: ClusterComparison) -> None:
        if self._live(gen):
            self._done(tab)
            tab.show_comparison(comparison)

    def _failed(self, gen: int, tab: ComparisonTab, message: str) -> None:
        if self._live(gen):
            self._done(tab)
            tab.show_message(message, error=True)

    def _cancelled(self, gen: int, tab: ComparisonTab, base: str) -> None:
        if self._live(gen):
            self._done(tab)
            tab.show_message(self.tr("The comparison with the baseline {0} was cancelled.").format(base))

    # --- two ranks ------------------------------------------------------------------------------------
    def _ranks(self) -> list[int]:
        report = self.doc.report
        if report is None:
            return []
        return sorted(
            {r[2] for r in report.tables.step_rows if len(r) > 2 and r[1] == "rank" and isinstance(r[2], int)}
        )

    def _default_pair(self, ranks: list[int]) -> tuple[int, int]:
        """(with, compared): the selected rank (else the first slow rank, else the first rank) and the
        first other rank of its stage (else the first other rank)."""
        report = self.doc.report
        slow = [s.rank for s in report.findings.slow_ranks if s.rank in ranks] if report is not None else []
        selected = self.doc.selected_rank
        rank = selected if selected in ranks else slow[0] if slow else ranks[0]
        stage: list[int] = next((s for s in report.tables.stages if rank in s), []) if report is not None else []
        others = [r for r in sorted(stage) if r != rank and r in ranks] or [r for r in ranks if r != rank]
        return others[0], rank

    def choose_ranks(self) -> CompareRanksDialog | None:
        """Compare Ranks…: two rank combo boxes, then the two ranks side by side."""
        ranks = self._ranks()
        if len(ranks) < 2:
            return None
        against, rank = self._default_pair(ranks)
        dialog = CompareRanksDialog(ranks, rank, against, self.doc)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.compare_ranks(*dialog.chosen()))
        dialog.open()
        return dialog

    def compare_ranks(self, rank_a: int, rank_b: int, show: bool = True) -> None:
        """Rank ``rank_b`` against rank ``rank_a``, step by step, in the Rank Comparison tab."""
        report = self.doc.report
        if report is None:
            return
        self.rank_pair = (rank_a, rank_b)
        tab = self._tab("ranks_tab", self.tr("Rank Comparison"), show)
        try:
            comparison = core_compare.compare_ranks(report, rank_a, rank_b)
        except ClusterCompareError as exc:
            tab.show_message(str(exc), error=True)
            return
        tab.show_comparison(comparison)
