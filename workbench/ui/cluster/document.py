"""The Cluster document: a multi-rank job opened as a document tab.

Opening runs core ``cluster.analyze.open_cluster`` as a task (a saved ``cluster.wbcluster`` re-opens
at once, msprof-analyze's ``cluster_analysis_output`` is read as it is, otherwise the ranks are
analysed and the files written); the tab shows its progress with a working Cancel, then a header line
(source, ranks, steps, stages, engine, warnings) above the Overview, Communication and Matrix tabs.
A rank pointed at anywhere (a heatmap row, a bar, a finding, a rank cell) becomes the selected rank:
"Open Rank N Report" (toolbar, double-click, context menu) opens its folder as a report document.
Re-analyse runs ``analyze.analyze`` again and asks before it replaces the files there."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QPoint, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from workbench.core.cluster import analyze, files
from workbench.core.cluster import report as cluster_report
from workbench.core.cluster.views import steps_of
from workbench.core.fsutil import OutputRefused
from workbench.ui.cluster import pages, texts
from workbench.ui.cluster.compare import ClusterComparisons
from workbench.ui.context import AppContext
from workbench.ui.elided import ElidedLabel

OVERVIEW, COMMUNICATION, MATRIX = 0, 1, 2


def output_files(source: str | Path) -> list[Path]:
    """The files of an analysis of ``source`` that exist already (a new analysis would replace them)."""
    out = analyze.default_out(source)
    return [out / name for name in (*files.NAMES, cluster_report.REPORT_NAME) if (out / name).exists()]


def is_cluster_output(path: str | Path) -> bool:
    """Is ``path`` itself a ``cluster_analysis_output`` (msprof-analyze's or ours)?"""
    found = analyze.output_folder(path)
    return found is not None and Path(found) == Path(path)


class ClusterDocument(QWidget):
    def __init__(self, context: AppContext, path: str | Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ClusterDocument")
        self.context = context
        self.path = Path(path)
        self.analysis: analyze.Analysis | None = None
        self.task: Any = None  # the running QtTask
        self.force = False  # the running analysis replaces existing files (the user said yes)
        self.selected_rank: int | None = None
        self._rank_evidence: tuple | None = None  # (rank, finding, evidence) Show picked in a rank's own report
        self.closed = False  # the tab was closed: the task's last signals find no widgets to update
        self.overview: Any = None
        self.comm: Any = None
        self.matrix: Any = None
        self.advisor: Any = None  # the Advisor list in the Overview (issue #21): the cluster rules' findings
        self.advisor_task: Any = None
        self.advisor_result: Any = None

        self.toolbar = QToolBar(self)
        self.toolbar.setObjectName("clusterToolbar")
        self.act_reanalyse = self.toolbar.addAction(self.tr("Re-analyse"))
        self.act_reanalyse.setToolTip(self.tr("Analyse the ranks again and write the cluster files anew"))
        self.act_reanalyse.triggered.connect(lambda _checked=False: self.reanalyse())
        self.act_open_rank = self.toolbar.addAction(self.tr("Open Rank Report"))
        self.act_open_rank.setToolTip(self.tr("Open the selected rank's profiling folder as a report"))
        self.act_open_rank.setEnabled(False)
        self.act_open_rank.triggered.connect(lambda _checked=False: self._open_selected())
        self.comparisons = ClusterComparisons(self)  # Compare with Baseline…, Compare Ranks… and their tabs
        self.source = ElidedLabel("", self)
        self.source.setObjectName("clusterSource")
        self.source.setStyleSheet("font-weight: 600;")
        self.header = ElidedLabel("", self)
        self.header.setObjectName("clusterHeader")
        self.warnings_button = QPushButton(self)
        self.warnings_button.setObjectName("clusterWarnings")
        self.warnings_button.setFlat(True)
        self.warnings_button.setStyleSheet("color:#8a6d3b;")
        self.warnings_button.clicked.connect(lambda: self.show_warnings())
        self.warnings_button.hide()
        top = QHBoxLayout()
        top.setContentsMargins(4, 0, 4, 0)
        top.addWidget(self.toolbar)
        top.addWidget(self.source, 1)
        top.addWidget(self.warnings_button)
        self.header.setContentsMargins(8, 0, 8, 2)

        # the progress of an analysis, with Cancel
        progress = pages.progress_page(self, self.cancel, "clusterCancel")
        self.progress_page, self.progress_title, self.progress_status = progress.page, progress.title, progress.status
        self.progress_bar, self.cancel_button = progress.bar, progress.cancel
        # what went wrong (or that the user cancelled) when there is no report to show
        self.message_page, self.message = pages.message_page(self, "clusterMessage")
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("clusterTabs")
        self.tabs.setDocumentMode(True)
        self.stack = QStackedWidget(self)
        for page in (self.progress_page, self.tabs, self.message_page):
            self.stack.addWidget(page)
        self.status = QLabel(self)
        self.status.setObjectName("clusterStatus")
        self.status.setWordWrap(True)
        self.status.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.header)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.status)

    @property
    def report(self) -> cluster_report.ClusterReport | None:
        return self.analysis.report if self.analysis is not None else None

    @property
    def ready(self) -> bool:
        return self.report is not None and self.stack.currentWidget() is self.tabs

    # --- running the analysis ---------------------------------------------------------------------
    def start(self) -> None:
        """Open the folder: the saved report, msprof-analyze's files, or an analysis of its ranks."""
        self._run(
            analyze.open_cluster,
            self.path,
            title=self.tr("Open cluster {0}").format(self._name()),
            heading=self.tr("Opening cluster {0}").format(self._name()),
        )

    def reanalyse(self) -> None:
        """Analyse the ranks again; files there are replaced only when the user says yes."""
        if self.task is not None:
            return
        source = self.report.source if self.report is not None else str(self._folder())
        existing = output_files(source)
        if existing and not self._ask_replace(existing):
            return
        self._reanalyse(source, force=bool(existing))

    def _reanalyse(self, source: str, force: bool) -> None:
        self._run(
            analyze.analyze,
            source,
            force=force,
            title=self.tr("Analyse cluster {0}").format(self._name()),
            heading=self.tr("Analysing cluster {0}").format(self._name()),
        )

    def _ask_replace(self, existing: list[Path]) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Re-analyse"),
            self.tr("{0} holds the files of an earlier analysis ({1}). Replace them?").format(
                existing[0].parent, ", ".join(p.name for p in existing)
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _run(self, fn, source, *, title: str, heading: str, force: bool = False) -> None:
        kwargs: dict[str, Any] = {"force": True} if force else {}
        self.force = force
        self.progress_title.setText(heading)
        self.progress_status.setText(self.tr("Starting…"))
        self.progress_bar.setRange(0, 0)
        self.cancel_button.setEnabled(True)
        self.stack.setCurrentWidget(self.progress_page)
        self.act_reanalyse.setEnabled(False)
        self.status.hide()
        task = self.context.bridge.start(fn, source, title=title, kind="cluster", **kwargs)
        self.task = task
        task.status_changed.connect(self._status)
        task.progress_changed.connect(self._fraction)
        task.succeeded.connect(self._succeeded)
        task.failed.connect(lambda message, exc, s=str(source): self._failed(s, message, exc))
        task.cancelled.connect(lambda s=str(source): self._cancelled(s))

    def _status(self, line: str) -> None:
        if not self.closed:
            self.progress_status.setText(texts.status_text(line))

    def _fraction(self, value) -> None:
        if self.closed:
            return
        if value is None:
            self.progress_bar.setRange(0, 0)
            return
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setValue(int(max(0.0, min(1.0, float(value))) * 1000))

    def cancel(self) -> None:
        if self.task is not None:
            self.cancel_button.setEnabled(False)
            self.progress_status.setText(self.tr("Cancelling…"))
            self.task.cancel()

    def closing(self) -> None:
        """The tab is being closed: stop the analysis."""
        self.closed = True
        self.comparisons.closing()
        if self.task is not None:
            self.task.cancel()
        if self.advisor_task is not None and not self.advisor_task.state.finished:
            self.advisor_task.cancel()

    # --- the Advisor -----------------------------------------------------------------------------------------
    def _add_advisor(self, report: cluster_report.ClusterReport) -> None:
        """The Advisor's list in the Overview, filled by the cluster rules run as a task (never on the
        GUI thread)."""
        from workbench.core.advisor.run import advise_cluster
        from workbench.ui.advisor.pane import AdvisorPane

        if self.advisor_task is not None and not self.advisor_task.state.finished:
            self.advisor_task.cancel()
        pane = AdvisorPane(self, inputs=[report.source])
        pane.evidence_activated.connect(self.show_evidence)
        self.advisor = pane
        self.advisor_result = None
        self.overview.set_advisor(pane)  # in the Overview, beside the slow ranks and links
        task = self.context.bridge.start(
            advise_cluster,
            report,
            title=self.tr("Advise on cluster {0}").format(self._name()),
            kind="view",
            announce=False,
        )
        self.advisor_task = task
        task.progress_changed.connect(lambda value, p=pane: self._advisor_step(p, lambda: p.set_running(value)))
        task.succeeded.connect(lambda result, p=pane: self._advisor_step(p, lambda: self._advisor_ready(p, result)))
        task.failed.connect(lambda message, _exc, p=pane: self._advisor_step(p, lambda: p.set_failed(message)))

    def _advisor_step(self, pane, step: Callable[[], None]) -> None:
        """An advisor task's event, for its pane only while it is the shown one (a re-analysis replaces it)."""
        if not self.closed and pane is self.advisor:
            step()

    def _advisor_ready(self, pane, result) -> None:
        self.advisor_result = result
        pane.set_result(result)

    def show_evidence(self, finding, e) -> None:
        """An evidence item of the Advisor tab: a rank selected (Overview), a link shown in the Matrix."""
        pane = self.advisor
        values = dict(e.values)
        if e.kind == "link" and {"src", "dst"} <= set(values):
            self._link_clicked(int(values["src"]), int(values["dst"]), str(values.get("transport", "")), True)
            pane.set_status(self.tr("{0} selected in the Matrix.").format(e.label))
            return
        rank = e.rank if e.rank is not None else values.get("rank")
        if rank is None:  # an item of a rank's own report (a report rule run over that rank): its rank
            rank = getattr(finding, "rank", None)
        if rank is not None and self.report is not None and int(rank) in self.report.tables.ranks:
            self.select_rank(int(rank))
            if getattr(finding, "rank", None) == int(rank) and e.kind != "rank":
                # an item of the rank's own report: opening that report shows it there
                self._rank_evidence = (int(rank), finding, e)
            self.tabs.setCurrentWidget(self.overview)
            pane.set_status(self.tr("Rank {0} selected: Open Rank Report opens its timeline.").format(int(rank)))
            return
        pane.set_status(self.tr("{0} is not shown in a view of this cluster.").format(e.label), error=True)

    def _finished(self) -> None:
        self.task = None
        self.act_reanalyse.setEnabled(True)

    def _succeeded(self, analysis: analyze.Analysis) -> None:
        if self.closed:
            return
        self._finished()
        self.analysis = analysis
        self._build()

    def _failed(self, source: str, message: str, exc: object) -> None:
        if self.closed:
            return
        self._finished()
        if isinstance(exc, OutputRefused) and not self.force:
            existing = output_files(source)
            if existing and self._ask_replace(existing):
                self._reanalyse(source, force=True)
                return
            if existing:  # the user said no: what was shown stays
                self._back(self.tr("Nothing was analysed: the files of the earlier analysis were kept."))
                return
        self._back(message, error=True)

    def _cancelled(self, source: str) -> None:
        if self.closed:
            return
        self._finished()
        if self.report is not None:
            self._back(self.tr("The analysis of {0} was cancelled; the earlier analysis is shown.").format(source))
            return
        written = output_files(source)
        if written:  # the cancel came as the files were written
            self._back(
                self.tr("The analysis of {0} was cancelled after it had written its files to {1}.").format(
                    source, written[0].parent
                )
            )
        else:
            self._back(self.tr("The analysis of {0} was cancelled. No file was written.").format(source))

    def _back(self, text: str, error: bool = False) -> None:
        """Show the report again (if there is one) with ``text`` below it, else ``text`` alone."""
        if self.report is not None:
            self.stack.setCurrentWidget(self.tabs)
            self.status.setText(text)
            self.status.setStyleSheet("color:#933;" if error else "")
            self.status.show()
        else:
            self.message.setText(text)
            self.message.setStyleSheet("color:#933;" if error else "")
            self.stack.setCurrentWidget(self.message_page)

    # --- the report ---------------------------------------------------------------------------------
    def _folder(self) -> Path:
        """The job's folder (the one holding a cluster_analysis_output that was opened)."""
        return self.path.parent if self.path.name == files.OUTPUT_DIR else self.path

    def _name(self) -> str:
        folder = self._folder()
        return folder.name or str(folder)

    def _build(self) -> None:
        from workbench.ui.cluster.comm import ClusterCommPane
        from workbench.ui.cluster.matrix import ClusterMatrixPane
        from workbench.ui.cluster.overview import ClusterOverviewPane

        report = self.report
        assert report is not None
        while self.tabs.count():
            widget = self.tabs.widget(0)
            self.tabs.removeTab(0)
            if widget is not None:
                widget.deleteLater()
        self.overview = ClusterOverviewPane(report, self)
        self.comm = ClusterCommPane(report, self)
        self.matrix = ClusterMatrixPane(report, self)
        self.tabs.addTab(self.overview, self.tr("Overview"))
        self.tabs.addTab(self.comm, self.tr("Communication"))
        self.tabs.addTab(self.matrix, self.tr("Matrix"))
        self._add_advisor(report)
        for pane in (self.overview, self.comm):
            pane.rank_clicked.connect(self.select_rank)
            pane.rank_activated.connect(self.open_rank)
            pane.rank_menu.connect(self.rank_menu)
        self.overview.link_clicked.connect(self._link_clicked)
        self.overview.link_activated.connect(lambda src, dst, transport: self._link_clicked(src, dst, transport, True))
        self.overview.finding_menu.connect(self._finding_menu)
        self._header()
        self.selected_rank = None
        self.act_open_rank.setText(self.tr("Open Rank Report"))
        self.act_open_rank.setEnabled(False)
        self.stack.setCurrentWidget(self.tabs)
        self._retitle()
        self.comparisons.rebuilt()

    def _header(self) -> None:
        report = self.report
        assert report is not None and self.analysis is not None
        ranks = sorted({*report.tables.ranks, *(r.rank for r in report.ranks)})
        if report.from_files:
            origin = self.tr("read from msprof-analyze's cluster_analysis_output")
        elif self.analysis.written:
            origin = self.tr("analysed now, files written to {0}").format(self.analysis.written[0].parent)
        else:
            when = _dt.datetime.fromtimestamp(report.created).strftime("%Y-%m-%d %H:%M:%S")
            origin = self.tr("re-opened from {0} (analysed {1})").format(cluster_report.REPORT_NAME, when)
        self.source.setText(report.source)
        self.header.setText(
            self.tr("ranks: {0} · steps: {1} · stages: {2} · engine: {3} · {4}").format(
                len(ranks),
                len(steps_of(report.tables)),
                len(report.tables.stages),
                report.engine or "—",
                origin,
            )
        )
        count = len(self.warnings())
        self.warnings_button.setText(self.tr("Warnings ({0})…").format(count))
        self.warnings_button.setVisible(count > 0)

    def warnings(self) -> list[str]:
        """What the analysis had to say: its warnings, the merge's, each failed rank's error."""
        if self.analysis is None:
            return []
        report = self.analysis.report
        out = list(self.analysis.warnings)
        for line in [*report.tables.warnings, *(r.error for r in report.ranks if r.error)]:
            if line not in out:
                out.append(line)
        return out

    def show_warnings(self) -> QDialog:
        dialog = QDialog(self)
        dialog.setObjectName("clusterWarningsDialog")
        dialog.setWindowTitle(self.tr("Warnings of {0}").format(self._name()))
        text = QPlainTextEdit(dialog)
        text.setReadOnly(True)
        text.setPlainText("\n".join(texts.warning_text(line) for line in self.warnings()))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
        buttons.rejected.connect(dialog.reject)
        box = QVBoxLayout(dialog)
        box.addWidget(text)
        box.addWidget(buttons)
        dialog.resize(720, 360)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _retitle(self) -> None:
        """The tab's title once the cluster is known: its folder and how many ranks."""
        report = self.report
        if report is None:
            return
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QTabWidget):
            parent = parent.parentWidget()
        if isinstance(parent, QTabWidget):
            index = parent.indexOf(self)
            if index >= 0:
                n = len({*report.tables.ranks, *(r.rank for r in report.ranks)})
                parent.setTabText(index, self.tr("Cluster {0} ({1} ranks)").format(self._name(), n))

    # --- ranks ----------------------------------------------------------------------------------------
    def select_rank(self, rank: int) -> None:
        if rank != self.selected_rank:
            self._rank_evidence = None  # the advisor's item was of the rank selected before
        self.selected_rank = rank
        if self.overview is not None:
            self.overview.select_rank(rank)
        self.act_open_rank.setText(self.tr("Open Rank {0} Report").format(rank))
        self.act_open_rank.setEnabled(True)

    def _open_selected(self) -> None:
        if self.selected_rank is not None:
            self.open_rank(self.selected_rank)

    def open_rank(self, rank: int) -> None:
        """Open ``rank``'s profiling folder as a report document (local ranks only)."""
        report = self.report
        if report is None:
            return
        self.select_rank(rank)
        info = next((r for r in report.ranks if r.rank == rank), None)
        title = self.tr("Open Rank {0} Report").format(rank)
        if info is None or not info.path:
            self.context.warn(
                title,
                self.tr(
                    "Rank {0}: this cluster names no folder for it ({1} was read without the ranks' folders)."
                ).format(rank, report.source),
            )
        elif info.host:
            self.context.warn(
                title,
                self.tr(
                    "Rank {0} is on the remote host {1} ({2}): opening a remote rank's report is not supported; "
                    "copy its folder to this machine and open it there."
                ).format(rank, info.host, info.path),
            )
        elif not Path(info.path).is_dir():
            self.context.warn(
                title, self.tr("Rank {0}: its folder {1} does not exist any more.").format(rank, info.path)
            )
        else:
            pending = self._rank_evidence
            if pending is not None and pending[0] == rank:  # the finding's item, shown in the rank's report
                _rank, finding, e = pending
                self.context.open_report(Path(info.path), then=lambda doc: doc.show_evidence(finding, e))
            else:
                self.context.open_report(Path(info.path))

    def rank_menu(self, rank: int, at: QPoint) -> QMenu:
        menu = QMenu(self)
        menu.setObjectName("clusterRankMenu")
        menu.addAction(self.tr("Open Rank {0} Report").format(rank), lambda: self.open_rank(rank))
        menu.addAction(self.tr("Open Timelines Aligned…"), lambda: self.open_aligned(rank))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(at)
        return menu

    def open_aligned(self, rank: int) -> None:
        """Several ranks' timelines aligned on a step or an operator (dialog: workbench.ui.cluster.align)."""
        from workbench.ui.cluster.align import open_align_dialog

        if self.report is not None:
            self.select_rank(rank)
            open_align_dialog(self.context, self, self.report, rank)

    def _finding_menu(self, key: tuple, at: QPoint) -> None:
        if key[0] == "rank":
            self.rank_menu(key[1], at)
            return
        _kind, src, dst, transport = key
        menu = QMenu(self)
        menu.setObjectName("clusterRankMenu")
        for rank in (src, dst):
            menu.addAction(self.tr("Open Rank {0} Report").format(rank), self._rank_opener(rank))
        menu.addAction(self.tr("Show in Matrix"), lambda: self._link_clicked(src, dst, transport, show=True))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(at)

    def _rank_opener(self, rank: int) -> Callable[[], None]:
        return lambda: self.open_rank(rank)

    def _link_clicked(self, src: int, dst: int, transport: str, show: bool = False) -> None:
        if self.matrix is not None:
            self.matrix.select_link(src, dst, transport)
            if show:
                self.tabs.setCurrentWidget(self.matrix)


def open_cluster(context: AppContext, path: str | Path) -> ClusterDocument:
    """Open ``path`` (a job folder of ranks, or a cluster_analysis_output) as a Cluster document tab."""
    path = Path(path).expanduser().absolute()
    doc = ClusterDocument(context, path)
    title = QCoreApplication.translate("ClusterDocument", "Cluster {0}").format(doc._name())
    context.add_document(doc, title, str(path))
    doc.start()
    return doc
