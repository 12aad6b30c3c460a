"""A report opened as a document tab: Timeline (with its data pane: Event View, Statistics, AI
Core Metrics, Selection, Slice List), Analysis Summary, Steps / Memory / Communication (where the
report has their data: each built off the GUI thread when first shown, a click there selects the
step, allocation or op on the timeline), Baseline Comparison, Query and Advisor sub-views (the
advisor runs as a task once the report is ready; its evidence is marked in the views). Loading
is a task (progress, cancel); a failed load leaves the other tabs alone and shows the engine's
message. Core's English texts (status lines, the AI Core description) are translated here."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMenu,
    QMessageBox,
    QProgressBar,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from workbench.core.profiling import timeline_ops, views
from workbench.core.profiling.errors import ProfilingDataError
from workbench.ui.labels import tr_report_warning, tr_status
from workbench.ui.report.slice_list import SliceListPane
from workbench.ui.report.summary import SummaryView
from workbench.ui.report.table import FrameTable

VIEWS = ("timeline", "events", "statistics", "aicore", "summary", "steps", "memory", "communication", "baseline")
# the tables whose presence makes a tab appear (a cheap test: a cached report's tables stay undecoded)
MEMORY_TABLES = ("memory_record", "operator_memory", "npu_module_mem")
COMM_TABLES = ("communication", "communication_matrix")
OVERLAP_PROCESS = "Overlap Analysis"  # torch_npu's timeline lanes the steps can be computed from
_NOT_COLLECTED = re.compile(r"^(.*): not collected\. Collect it with (.*)\.$")


# core's AI Core Metrics sentences (views.AICORE_TEXT,
# views.PMU_GROUPS), for pyside6-lupdate; a test checks that the lists match core's.
AICORE_LABELS = (
    QT_TRANSLATE_NOOP(
        "AICoreMetrics",
        "No AI Core PMU data in this report. Collect it with {0} (task-based) — the metric group decides "
        "which columns appear.",
    ),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Metric group collected: {0}."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Metric group collected: unknown (the columns match no --aic-metrics group)."),
    QT_TRANSLATE_NOOP(
        "AICoreMetrics", "Columns are split into AIC (cube core) and AIV (vector core), as on 910B-class chips."
    ),
    QT_TRANSLATE_NOOP(
        "AICoreMetrics",
        "Memory Bound > 1 (highlighted) means the MTE2 ratio exceeds the larger of the cube and "
        "vector ratios: the operator waits on memory.",
    ),
    QT_TRANSLATE_NOOP(
        "AICoreMetrics", "Only AI Core tasks are listed: {0} tasks of other types ({1}) have no PMU metrics."
    ),
    QT_TRANSLATE_NOOP(
        "AICoreMetrics",
        "Time and ratio of each pipeline (vector, cube/mac, scalar, MTE1/2/3, fixpipe): "
        "shows which unit bounds an operator.",
    ),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Does not show cache hit rates or memory bandwidth."),
    QT_TRANSLATE_NOOP(
        "AICoreMetrics",
        "Cube (MAC fp16/int8) and vector (fp32/fp16/int32/misc) instruction ratios and the cube and vector "
        "FLOP counts: shows how the compute units are used.",
    ),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Does not show pipeline stalls or memory traffic."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Main-memory and L2 read/write bandwidth per operator."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Does not show on-chip buffer traffic."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "L0A/L0B/L0C read/write bandwidth."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Does not show main memory or UB traffic."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Unified Buffer read/write bandwidth of the vector unit."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Does not show L0 or main memory."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Bank and bank-group conflicts and vector waits."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Does not show bandwidth."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "L2 cache hit rates and allocations."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Does not show pipeline utilisation."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Memory access volume by path."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Per-pipeline execution ratios on newer chips."),
    QT_TRANSLATE_NOOP("AICoreMetrics", "Does not show memory bandwidth."),
)


def tr_sentences(parts) -> str:
    """Core's description sentences ([(template, args)], e.g. ``views.ai_core_description``)."""
    return " ".join(QCoreApplication.translate("AICoreMetrics", t).format(*args) for t, args in parts)


# core's views.COLLECT_HINT values that hold words besides the command line (tests check the list)
COLLECT_HINT_TEXTS = (
    QT_TRANSLATE_NOOP("CollectHint", "msprof --sys-profiling=on (needs perf and ltrace on the host)"),
    QT_TRANSLATE_NOOP("CollectHint", "msprof --task-time=on (or torch_npu profiler with ProfilerActivity.NPU)"),
)


def tr_hint(hint: str) -> str:
    """How to collect something (a command line, maybe with words): in the UI's language."""
    return QCoreApplication.translate("CollectHint", hint) if hint in COLLECT_HINT_TEXTS else hint


def tr_note(note: str) -> str:
    m = _NOT_COLLECTED.match(note)
    if m:
        return QCoreApplication.translate("ReportDocument", "{0}: not collected. Collect it with {1}.").format(
            QCoreApplication.translate("ReportDocument", m.group(1)), tr_hint(m.group(2))
        )
    return note


def _model_task(build, report, progress=None, cancel=None):
    """Work function: a view model of ``report`` (``build(report, progress, cancel)``)."""
    return build(report, progress=progress, cancel=cancel)


class LazyTab(QWidget):
    """A sub-view whose model is computed off the GUI thread (on the context's task bridge, or
    right here without one) the first time the tab shows; ``build(model)`` makes its widget, then
    ``built`` fires. While it runs the tab shows its status and progress; a model that cannot be
    built leaves the engine's one-line message in the tab. It is a step of the view, not a job: no
    Tasks row, no Output tab (``announce=False``)."""

    built = Signal(object)  # the widget

    def __init__(self, prepare, report, build, title: str, context=None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prepare, self.report, self.build, self.title, self.context = prepare, report, build, title, context
        self.widget: QWidget | None = None
        self.task: Any = None  # the QtTask (True while built right here)
        self.placeholder = QWidget(self)
        self.label = QLabel(self.tr("Preparing…"), self.placeholder)
        self.label.setObjectName("lazyTabMessage")
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        self.progress = QProgressBar(self.placeholder)
        self.progress.setObjectName("lazyTabProgress")
        self.progress.setRange(0, 0)  # busy until the work reports a fraction
        self.progress.setTextVisible(False)
        self.progress.setFixedWidth(240)
        waiting = QVBoxLayout(self.placeholder)
        waiting.addStretch(1)
        waiting.addWidget(self.label)
        waiting.addWidget(self.progress, 0, Qt.AlignmentFlag.AlignHCenter)
        waiting.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.placeholder)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self.load()

    def load(self) -> None:
        if self.task is not None or self.widget is not None:
            return
        if self.context is None:
            self.task = True
            try:
                model = _model_task(self.prepare, self.report)
            except ProfilingDataError as exc:
                self._failed(str(exc), exc)
                return
            self._ready(model)
            return
        self.task = self.context.bridge.start(
            _model_task, self.prepare, self.report, title=self.title, kind="view", announce=False
        )
        self.task.status_changed.connect(self.label.setText)
        self.task.progress_changed.connect(self._fraction)
        self.task.succeeded.connect(self._ready)
        self.task.failed.connect(self._failed)
        self.task.cancelled.connect(self._cancelled)

    def _fraction(self, value) -> None:
        if value is None:
            self.progress.setRange(0, 0)
        else:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(float(value) * 1000))

    def _ready(self, model) -> None:
        self.widget = self.build(model)
        self.layout().removeWidget(self.placeholder)
        self.placeholder.deleteLater()
        self.layout().addWidget(self.widget)
        self.built.emit(self.widget)

    def _failed(self, message: str, _exc) -> None:
        self.progress.hide()
        self.label.setText(message)
        self.label.setStyleSheet("color:#933;")

    def _cancelled(self) -> None:
        self.progress.hide()
        self.label.setText(self.tr("Preparing this view was cancelled."))


class ReportDocument(QWidget):
    """``staged``: build the frame and the timeline now and fill the data pane (statistics, AI Core
    metrics, first Event View) in later event-loop turns, so no single step holds the GUI thread
    long; ``ready`` turns true (and ``filled`` fires) when everything is in place."""

    slice_details = Signal(str, object)  # title, [(name, value)]
    filled = Signal()

    def __init__(
        self, report, settings=None, parent: QWidget | None = None, prepared=None, staged: bool = False, context=None
    ) -> None:
        """``context`` (the window's ``AppContext``): with one, the document has a Baseline
        Comparison tab, whose comparisons run on the context's task bridge."""
        super().__init__(parent)
        self.setObjectName("ReportDocument")
        self.report = report
        self.ready = False
        prepared = prepared or views.PreparedView()
        self.settings = settings
        self.timeline_view = None
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.setTabPosition(QTabWidget.TabPosition.South)

        # --- data pane -------------------------------------------------------------------------------
        self.data_tabs = QTabWidget(self)
        self.events = FrameTable(self.tr("Event View"), self)
        self.events.set_note(self.tr("Right-click a lane in the timeline ▸ Show in Event View."))
        self.stats = FrameTable(self.tr("Statistics"), self)
        self.stats_selector = QComboBox(self)
        for key in views.STATISTICS:
            self.stats_selector.addItem(QCoreApplication.translate("ReportDocument", key), key)
        self.stats_selector.currentIndexChanged.connect(
            lambda _i: self.show_statistics(self.stats_selector.currentData())
        )
        self.stats.bar.insertWidget(0, self.stats_selector)
        # right-click an op of Statistics ▸ Op Info: Show in Graph (issue #23)
        self.stats.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.stats.view.customContextMenuRequested.connect(self._stats_menu)
        self.aicore = FrameTable(self.tr("AI Core Metrics"), self)
        self.selection = FrameTable(self.tr("Selection"), self)
        self.selection.set_note(self.tr("Shift+drag across lanes in the timeline to select a time range."))
        self.selection.view.doubleClicked.connect(self._selection_name_activated)
        inputs = report.input_paths()  # Export never writes over what the report was read from
        for table in (self.events, self.stats, self.aicore, self.selection):
            table.inputs = inputs
        self.slice_list = SliceListPane(self)
        self.data_tabs.addTab(self.events, self.tr("Event View"))
        self.data_tabs.addTab(self.stats, self.tr("Statistics"))
        self.data_tabs.addTab(self.aicore, self.tr("AI Core Metrics"))
        self.data_tabs.addTab(self.selection, self.tr("Selection"))
        self.data_tabs.addTab(self.slice_list, self.tr("Slice List"))
        self._area: tuple[int, int, list] | None = None  # the last area selection (t0, t1, lanes)

        # --- timeline sub-view ---------------------------------------------------------------------
        split = QSplitter(Qt.Orientation.Vertical, self)
        tl = report.timeline
        if tl is not None and len(tl.lanes) and len(tl.start_ns):
            from workbench.core.profiling.steps import report_steps
            from workbench.ui.report.timeline import TimelineView

            self.timeline_view = TimelineView(
                tl, self, layout=prepared.layout, name_colors=prepared.name_colors, part_labels=_part_labels(report)
            )
            self.timeline_view.set_steps(report_steps(report))  # step boundaries, "zoom to step"
            self.timeline_view.slice_selected.connect(self._slice_selected)
            self.timeline_view.range_selected.connect(self._range_selected)
            self.timeline_view.event_view_requested.connect(self.show_lane_events)
            self.events.row_activated.connect(self._event_row_activated)
            self.slice_list.slice_activated.connect(self.jump_to_slice)
            # right-click a slice: list every occurrence of its name
            self.timeline_view.plot.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            self.timeline_view.plot.customContextMenuRequested.connect(self._timeline_menu)
            split.addWidget(self.timeline_view)
        else:
            label = QLabel(
                self.tr(
                    "This report has no timeline to draw: it holds tables only ({0}). A timeline comes with {1}."
                ).format(report.kind, tr_hint(views.COLLECT_HINT["timeline"])),
                self,
            )
            label.setWordWrap(True)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            split.addWidget(label)
        split.addWidget(self.data_tabs)
        if self.timeline_view is not None:
            split.setStretchFactor(0, 3)  # the timeline gets most of the height (3:1), the data pane the rest
            split.setStretchFactor(1, 1)
            split.setSizes([750, 250])
        else:  # tables only: the note is one line, the tables get the room, the statistics first
            split.setStretchFactor(0, 0)
            split.setStretchFactor(1, 1)
            split.setSizes([label.sizeHint().height() + 16, 2000])
            self.data_tabs.setCurrentWidget(self.stats)
        self.tabs.addTab(split, self.tr("Timeline"))
        # Built when first shown: keeps the GUI thread free while the report appears.
        self._summary: SummaryView | None = None
        self._summary_holder = QWidget(self)
        QVBoxLayout(self._summary_holder).setContentsMargins(0, 0, 0, 0)
        self.tabs.addTab(self._summary_holder, self.tr("Analysis Summary"))
        self.tabs.currentChanged.connect(
            lambda i: self.summary if self.tabs.widget(i) is self._summary_holder else None
        )
        self._add_analysis_tabs(report, context)
        from workbench.ui.compare.baseline import BaselinePane

        if context is not None:
            self.baseline = BaselinePane(context, report, self)
            self.tabs.addTab(self.baseline, self.tr("Baseline Comparison"))
            from workbench.ui.report.query.pane import QueryPane

            self.query = QueryPane(context, report, self)  # SQL over the report (issue #18)
            self.query.show_slice.connect(self._query_slice)
            self.tabs.addTab(self.query, self.tr("Query"))
        # the Advisor tab (issue #21): its findings come from a task started once the document is ready
        self._context = context
        self.advisor: Any = None
        self.advisor_result: Any = None
        self.advisor_task: Any = None
        self.marks: Any = None  # where the findings' evidence is in the views (ui.advisor.marks.Marks)
        if context is not None:
            from workbench.ui.advisor.pane import AdvisorPane

            self.advisor = AdvisorPane(self, inputs=inputs)
            self.advisor.evidence_activated.connect(self.show_evidence)
            self.tabs.addTab(self.advisor, self.tr("Advisor"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        warn = "\n".join(tr_report_warning(w) for w in report.warnings)
        if warn:
            banner = QLabel("⚠ " + warn, self)
            banner.setWordWrap(True)
            banner.setStyleSheet("background:#fff3cd;color:#664d03;padding:4px;")
            layout.addWidget(banner)
        layout.addWidget(self.tabs)
        self._prepared = prepared
        self._steps = [self._fill_statistics, self._fill_aicore, self._fill_first_events]
        if staged:
            # the document as context: a step never runs once it is deleted (a bound method alone
            # keeps only the Python wrapper, and its tables' C++ objects would be gone)
            QTimer.singleShot(0, self, self._next_step)
        else:
            while self._steps:
                self._steps.pop(0)()
            self._set_ready()

    def _next_step(self) -> None:
        if self._steps:
            self._steps.pop(0)()
        if self._steps:
            QTimer.singleShot(0, self, self._next_step)
        else:
            self._set_ready()

    def _set_ready(self) -> None:
        self.ready = True
        self._prepared = None
        self.filled.emit()
        self.start_advisor()

    # --- the Advisor ----------------------------------------------------------------------------------------
    def start_advisor(self) -> None:
        """Run the advisor's rules over the report on the context's task bridge (never on the GUI
        thread); the Advisor tab, its count and the marks in the views fill when it is done."""
        if self.advisor is None or self.advisor_task is not None:
            return
        if self._context.bridge.runner.closed:  # the window is closing (a report that got ready as it closed)
            return
        from workbench.core.advisor.run import advise

        task = self._context.bridge.start(
            advise,
            self.report,
            title=self.tr("Advise on {0}").format(Path(str(self.report.source)).name),
            kind="view",
            announce=False,
        )
        self.advisor_task = task
        self.advisor.set_running(None)
        task.progress_changed.connect(self.advisor.set_running)
        task.succeeded.connect(self._advisor_ready)
        # the pane's own slots, not lambdas: a report closed while the advisor runs deletes the pane, and Qt
        # then drops these connections (a lambda would call into the deleted pane)
        task.failed.connect(self.advisor.task_failed)
        task.cancelled.connect(self.advisor.task_cancelled)

    def _advisor_ready(self, result) -> None:
        from workbench.ui.advisor.marks import place
        from workbench.ui.advisor.pane import finding_title

        self.advisor_result = result
        self.advisor.set_result(result)
        self.tabs.setTabText(self.tabs.indexOf(self.advisor), self.tr("Advisor ({0})").format(len(result.findings)))
        self.marks = place(self.report, result.findings, finding_title, self.aicore.model.frame)
        if self.timeline_view is not None:
            self.timeline_view.set_marks(self.marks.slices, self.marks.lanes, self.marks.spans)
        self.aicore.set_marks(self.marks.aicore)
        if self.stats_selector.currentData() == "Op Info":
            self.stats.set_marks(self.marks.ops)
        self._mark_events()
        steps = self.steps_tab.widget if self.steps_tab is not None else None
        if steps is not None:
            self._mark_steps(steps)
        comm = self.comm_tab.widget if self.comm_tab is not None else None
        if comm is not None:
            comm.set_marks(self.marks.comm)

    def _mark_events(self) -> None:
        """The Event View's rows of marked slices (its ID column is the slice index)."""
        frame = self.events.model.frame
        if getattr(self, "marks", None) is None or not self.marks.slices or "ID" not in frame.columns:
            return
        ids = frame["ID"].to_numpy()
        self.events.set_marks(
            {row: self.marks.slices[int(i)] for row, i in enumerate(ids) if int(i) in self.marks.slices}
        )

    def _mark_steps(self, pane) -> None:
        frame = pane.table.model.frame
        if self.marks is None or not self.marks.steps or "step" not in frame.columns:
            return
        pane.table.set_marks(
            {row: self.marks.steps[int(s)] for row, s in enumerate(frame["step"]) if int(s) in self.marks.steps}
        )

    def show_evidence(self, finding, e) -> None:
        """An evidence item of the Advisor tab brought up where it is: a slice selected on the Timeline
        tab, an op's row in Statistics ▸ Op Info (and its slice), an AI Core Metrics row, a step in
        the Steps tab; the Advisor tab's status line says what happened."""
        from workbench.ui.advisor import marks

        pane = self.advisor
        tl = self.report.timeline
        if e.kind == "lane" and e.start_ns is not None and self.timeline_view is not None:
            lanes, span = marks.lanes_of(tl, e), marks.span_of(tl, e)
            if lanes and span is not None:  # a stretch of a lane (an idle gap): selected and in view
                t0, t1 = span
                pad = max(1000, (t1 - t0) // 2)
                self.tabs.setCurrentIndex(0)
                self.timeline_view.set_x_range(t0 - pad, t1 + pad)
                self.timeline_view.select_range(t0, t1, lanes)
                pane.set_status(self.tr("{0}: the stretch is selected on the timeline.").format(e.label))
                return
        if e.kind == "slice":
            index = marks.slice_of(tl, e) if self.timeline_view is not None else None
            if index is None:
                pane.set_status(self.tr("{0} is not on the timeline").format(e.label), error=True)
                return
            self._query_slice(index)
            pane.set_status(self.tr("{0} selected on the timeline.").format(e.label))
            return
        if e.kind == "lane":
            lanes = marks.lanes_of(tl, e) if self.timeline_view is not None else []
            if not lanes:
                pane.set_status(self.tr("{0} is not on the timeline").format(e.label), error=True)
                return
            self.tabs.setCurrentIndex(0)
            self.show_lane_events(lanes[0])
            pane.set_status(self.tr("The events of {0} are in the Event View.").format(e.label))
            return
        if e.kind == "op" or (e.kind == "row" and e.table == "ops"):
            row = marks.op_row_of(self.report.ops, e)
            if row is None:
                pane.set_status(self.tr("{0} is not in the OPs table").format(e.label), error=True)
                return
            self.tabs.setCurrentIndex(0)
            self.show_statistics("Op Info")
            self.data_tabs.setCurrentWidget(self.stats)
            self.stats.select_source_row(row)
            ops = self.report.ops
            index = None
            if self.timeline_view is not None and "name" in ops.columns and "start_ns" in ops.columns:
                index = self.find_slice(str(ops["name"].iloc[row]), int(ops["start_ns"].iloc[row]))
            if index is not None:
                self.jump_to_slice(index)
            if index is not None:
                pane.set_status(
                    self.tr("{0}: row {1} of Statistics ▸ Op Info, selected on the timeline.").format(e.label, row + 1)
                )
            else:
                pane.set_status(self.tr("{0}: row {1} of Statistics ▸ Op Info.").format(e.label, row + 1))
            return
        if e.kind == "row" and e.table == "ai_core_metrics" and e.row is not None:
            self.tabs.setCurrentIndex(0)
            self.data_tabs.setCurrentWidget(self.aicore)
            if self.aicore.select_source_row(int(e.row)):
                pane.set_status(self.tr("{0}: row {1} of AI Core Metrics.").format(e.label, int(e.row) + 1))
            else:
                pane.set_status(self.tr("{0} is not in the AI Core Metrics table").format(e.label), error=True)
            return
        if e.kind == "row" and e.table == "op_statistic" and e.row is not None:
            self.tabs.setCurrentIndex(0)
            self.show_statistics("OPs")
            self.data_tabs.setCurrentWidget(self.stats)
            self.stats.select_source_row(int(e.row))
            pane.set_status(self.tr("{0}: row {1} of Statistics ▸ OPs.").format(e.label, int(e.row) + 1))
            return
        key = marks.comm_key(self.report, e)
        if key is not None and self.comm_tab is not None:
            self.tabs.setCurrentWidget(self.comm_tab)

            def select(widget, name=key[0], start=key[1]) -> None:
                if widget.select_op(name, start):
                    pane.set_status(self.tr("{0} selected in the Communication tab.").format(name))
                else:
                    pane.set_status(self.tr("{0} is not in the Communication tab").format(name), error=True)

            if self.comm_tab.widget is not None:
                select(self.comm_tab.widget)
            else:
                self.comm_tab.built.connect(select)
            return
        if e.kind == "step" and self.steps_tab is not None:
            step = marks.step_of(e)
            self.tabs.setCurrentWidget(self.steps_tab)
            if self.steps_tab.widget is not None:
                self._select_step(self.steps_tab.widget, step)
            else:
                self.steps_tab.built.connect(lambda widget: self._select_step(widget, step))
            pane.set_status(self.tr("{0} in the Steps tab.").format(e.label))
            return
        pane.set_status(self.tr("{0} is not shown in a view of this report.").format(e.label), error=True)

    def _select_step(self, pane, step: int | None) -> None:
        if step is None or step not in getattr(pane, "ids", []):
            return
        pane.chart.select(pane.ids.index(step))
        frame = pane.table.model.frame
        if "step" in frame.columns:
            rows = [r for r, s in enumerate(frame["step"]) if int(s) == step]
            if rows:
                pane.table.select_source_row(rows[0])

    def _fill_statistics(self) -> None:
        self.show_statistics(views.STATISTICS[3] if len(self.report.op_statistic) else views.STATISTICS[0])

    def _fill_first_events(self) -> None:
        if self.timeline_view is None:
            return
        prepared = self._prepared
        if prepared is not None and prepared.first_events is not None:
            self.show_lane_events(prepared.first_lane, prepared.first_events)
        else:
            self.show_lane_events(views.first_lane(self.report.timeline))

    @property
    def summary(self) -> SummaryView:
        if self._summary is None:
            self._summary = SummaryView(self.report, self)
            self._summary_holder.layout().addWidget(self._summary)
        return self._summary

    # --- sub-views ---------------------------------------------------------------------------------------
    def show_view(self, name: str) -> None:
        """Bring a view forward: timeline, events, statistics, aicore or summary."""
        if name not in VIEWS:
            raise ValueError(f"unknown view {name!r}; expected one of {', '.join(VIEWS)}")
        if name == "baseline":
            if getattr(self, "baseline", None) is not None:
                self.tabs.setCurrentWidget(self.baseline)
            return
        if name in ("steps", "memory", "communication"):
            tab = {"steps": self.steps_tab, "memory": self.memory_tab, "communication": self.comm_tab}[name]
            if tab is not None:
                self.tabs.setCurrentWidget(tab)
            return
        if name == "summary":
            self.tabs.setCurrentIndex(1)
            self.summary  # noqa: B018 - build it now
            return
        self.tabs.setCurrentIndex(0)
        if name in ("events", "statistics", "aicore"):
            self.data_tabs.setCurrentIndex({"events": 0, "statistics": 1, "aicore": 2}[name])

    def show_statistics(self, which: str) -> None:
        frame, note = views.statistics(self.report, which)
        self.stats.set_frame(frame, tr_note(note))
        if which == "Op Info" and getattr(self, "marks", None) is not None:
            self.stats.set_marks(self.marks.ops)
        i = self.stats_selector.findData(which)
        if i >= 0 and i != self.stats_selector.currentIndex():
            self.stats_selector.blockSignals(True)
            self.stats_selector.setCurrentIndex(i)
            self.stats_selector.blockSignals(False)

    def stats_op_name(self, row: int) -> str:
        """The op name of view row ``row`` of Statistics ▸ Op Info ("" on another table)."""
        model = self.stats.model
        if self.stats_selector.currentData() != "Op Info" or "name" not in model.columns:
            return ""
        if not 0 <= row < model.rowCount():
            return ""
        value = model.raw(row, model.columns.index("name"))
        return "" if value is None or (isinstance(value, float) and np.isnan(value)) else str(value)

    def _stats_menu(self, pos: QPoint) -> None:
        index = self.stats.view.indexAt(pos)
        name = self.stats_op_name(index.row()) if index.isValid() else ""
        if not name or self._context is None:
            return
        old = getattr(self, "_stats_popup", None)
        if old is not None:  # the last one (closed by now): one menu kept, not one per right-click
            old.deleteLater()
        menu = self._stats_popup = QMenu(self)
        action = menu.addAction(self.tr("Show in Graph"), lambda: self._show_op_in_graph(name))
        action.setToolTip(self.tr("Centre and select {0} in an open model graph (or choose the model)").format(name))
        menu.popup(self.stats.view.viewport().mapToGlobal(pos))

    def _is_op(self, name: str) -> bool:
        """Is ``name`` an op of the report's OPs (a device kernel, as a model graph names its ops)?"""
        names = self.__dict__.get("_op_names")
        if names is None:
            ops = self.report.ops
            names = set(ops["name"].astype(str)) if ops is not None and "name" in ops.columns else set()
            self._op_names = names
        return name in names

    def _show_op_in_graph(self, name: str) -> None:
        from workbench.ui.graph.links import show_in_graph

        # a report does not name its model: an open graph holding the op, else the user picks the model
        show_in_graph(self._context, name, None, self)

    def _fill_aicore(self) -> None:
        frame, description, mask = views.ai_core_view(self.report)
        self.aicore.set_frame(frame, tr_sentences(description), mask)
        if "duration_us" in frame.columns:
            col = list(frame.columns).index("duration_us")
            self.aicore.view.sortByColumn(col, Qt.SortOrder.DescendingOrder)

    def show_lane_events(self, lane: int, frame=None) -> None:
        tl = self.report.timeline
        if frame is None:
            frame = views.lane_events(tl, lane, self.report.ops)
        info = tl.lanes[lane]
        self.events.set_frame(
            frame, self.tr("Events of {0} · {1}").format(info.process_name, info.thread_name or info.tid)
        )
        self._mark_events()
        self.data_tabs.setCurrentWidget(self.events)

    def _event_row_activated(self, source_row: int) -> None:
        slice_index = int(self.events.model.frame["ID"].iloc[source_row])
        self.timeline_view.select_slice(slice_index, center=True)

    # --- timeline interaction ---------------------------------------------------------------------------
    def _slice_selected(self, index: int) -> None:
        if index < 0:
            self.slice_details.emit("", [])
            return
        tl = self.report.timeline
        start = int(tl.start_ns[index])
        dur = int(tl.dur_ns[index])
        lane = tl.lanes[int(tl.lane[index])]
        name_id = int(tl.name_id[index])
        rows: list[tuple] = [
            (
                self.tr("Name"),
                tl.names[name_id],
                (self.tr("List All Occurrences"), lambda: self.show_occurrences(name_id)),
            ),
            (self.tr("Category"), tl.cats[int(tl.cat_id[index])] if len(tl.cats) else ""),
            (self.tr("Lane"), views.lane_label(lane)),
            (self.tr("Start"), timeline_ops.format_ns(start, 1000) + f"  ({start:,} ns)"),
            (self.tr("End"), timeline_ops.format_ns(start + dur, 1000)),
            (self.tr("Duration"), timeline_ops.format_ns(dur) + f"  ({dur:,} ns)"),
        ]
        name = tl.names[name_id]
        if self._context is not None and self._is_op(name):  # a kernel: it can be looked up in the model
            rows.append(
                (
                    self.tr("Model graph"),
                    self.tr("double-click: Show in Graph"),
                    (self.tr("Show in Graph"), lambda: self._show_op_in_graph(name)),
                )
            )
        for key, value in (tl.args(index) or {}).items():
            rows.append((f"args.{key}", str(value)))
        for direction, cat, other in self.timeline_view.flow_partners(index):
            other_name = tl.names[int(tl.name_id[other])] if other >= 0 else "?"
            arrow = "→" if direction == "out" else "←"
            rows.append((self.tr("Flow {0}").format(cat), f"{arrow} {other_name}"))
        self.slice_details.emit(tl.names[int(tl.name_id[index])], rows)

    def _range_selected(self, t0: int, t1: int, lanes: list) -> None:
        import pandas as pd

        tl = self.report.timeline
        area = views.area_slices(tl, t0, t1, lanes)
        rows = timeline_ops.aggregate(tl, area)
        frame = pd.DataFrame(
            {
                "Name": [r["name"] for r in rows],
                "Count": [r["count"] for r in rows],
                "Total(us)": [r["total_ns"] / 1000 for r in rows],
                "Avg(us)": [r["avg_ns"] / 1000 for r in rows],
                "Min(us)": [r["min_ns"] / 1000 for r in rows],
                "Max(us)": [r["max_ns"] / 1000 for r in rows],
            }
        )
        self._area = (t0, t1, list(lanes))
        self._area_slices = area
        where = self._area_text()
        self.selection.set_frame(
            frame, self.tr("{0}. Double-click a name to list its slices.").format(where) if len(frame) else where
        )
        self.slice_list.show_slices(tl, area, self.tr("Slices of the area: {0}").format(where))
        self.data_tabs.setCurrentWidget(self.selection)
        self.slice_details.emit(self.tr("Selected area"), self._area_rows(t0, t1, lanes, len(area)))

    def _area_rows(self, t0: int, t1: int, lanes: list, slices: int) -> list[tuple]:
        """The Properties of a selected stretch (a dragged area, an advisor's idle gap): what replaces
        the slice selected before it."""
        tl = self.report.timeline
        return [
            (self.tr("Start"), timeline_ops.format_ns(t0, 1000) + f"  ({t0:,} ns)"),
            (self.tr("End"), timeline_ops.format_ns(t1, 1000)),
            (self.tr("Duration"), timeline_ops.format_ns(t1 - t0) + f"  ({t1 - t0:,} ns)"),
            (self.tr("Lanes"), "; ".join(views.lane_label(tl.lanes[int(i)]) for i in (lanes or []))),
            (self.tr("Slices"), f"{slices:,}"),
        ]

    def _area_text(self) -> str:
        t0, t1, lanes = self._area or (0, 0, [])
        return self.tr("{0} lanes, {1} → {2} ({3})").format(
            len(lanes),
            timeline_ops.format_ns(t0, t1 - t0),
            timeline_ops.format_ns(t1, t1 - t0),
            timeline_ops.format_ns(t1 - t0),
        )

    # --- Slice List --------------------------------------------------------------------------------------
    def _selection_name_activated(self, index) -> None:
        """Double-click on a name of the Selection table: its slices in the area."""
        if self._area is None or not index.isValid():
            return
        tl = self.report.timeline
        name = str(self.selection.model.frame["Name"].iloc[self.selection.model.source_row(index.row())])
        area = self._area_slices
        ids = [int(i) for i in np.unique(np.asarray(tl.name_id)[area]) if tl.names[int(i)] == name]
        if not ids:
            return
        self.slice_list.show_slices(
            tl,
            views.name_slices(tl, ids[0], within=area),
            self.tr("Slices named {0} in the area: {1}").format(name, self._area_text()),
        )
        self.data_tabs.setCurrentWidget(self.slice_list)

    def show_occurrences(self, name_id: int) -> None:
        """The Slice List of every slice named like ``name_id`` in the whole report."""
        tl = self.report.timeline
        if tl is None:
            return
        self.slice_list.show_slices(
            tl,
            views.name_slices(tl, name_id),
            self.tr("Every occurrence of {0} in the report").format(tl.names[name_id]),
        )
        self.tabs.setCurrentIndex(0)
        self.data_tabs.setCurrentWidget(self.slice_list)

    def jump_to_slice(self, index: int) -> None:
        """Select slice ``index`` in the timeline and bring it into view."""
        if self.timeline_view is not None:
            self.timeline_view.select_slice(index, center=True)

    # --- Steps, Memory, Communication ------------------------------------------------------------------
    def _add_analysis_tabs(self, report, context) -> None:
        """The Steps, Memory and Communication tabs, where the report has their data."""
        self.steps_tab: LazyTab | None = None
        self.memory_tab: LazyTab | None = None
        self.comm_tab: LazyTab | None = None
        tables = report.tables
        tl = report.timeline
        overlap = tl is not None and any(ln.process_name == OVERLAP_PROCESS for ln in tl.lanes)
        if "step_trace_time" in tables or overlap:
            from workbench.ui.report.steps.pane import prepare_steps

            self.steps_tab = LazyTab(
                prepare_steps, report, self._build_steps, self.tr("Prepare the Steps view"), context, self
            )
            self.tabs.addTab(self.steps_tab, self.tr("Steps"))
        if any(name in tables for name in MEMORY_TABLES):
            from workbench.ui.report.memory.pane import prepare_memory

            self.memory_tab = LazyTab(
                prepare_memory, report, self._build_memory, self.tr("Prepare the Memory view"), context, self
            )
            self.tabs.addTab(self.memory_tab, self.tr("Memory"))
        if any(name in tables for name in COMM_TABLES):
            from workbench.ui.report.comm.pane import prepare_comm

            self.comm_tab = LazyTab(
                prepare_comm, report, self._build_comm, self.tr("Prepare the Communication view"), context, self
            )
            self.tabs.addTab(self.comm_tab, self.tr("Communication"))

    def _build_steps(self, model) -> QWidget:
        from workbench.ui.report.steps.pane import StepsPane

        pane = StepsPane(model, self)
        pane.step_activated.connect(lambda step: self._step_activated(pane, step))
        self._mark_steps(pane)
        return pane

    def _build_memory(self, model) -> QWidget:
        from workbench.ui.report.memory.pane import MemoryPane

        pane = MemoryPane(model, self)
        pane.op_activated.connect(lambda name, t: self._op_activated(pane, name, t))
        pane.show_slice.connect(self._show_slice)
        pane.cursor_moved.connect(self._cursor_moved)
        return pane

    def _build_comm(self, model) -> QWidget:
        from workbench.ui.report.comm.pane import CommPane

        pane = CommPane(model, self)
        pane.op_activated.connect(lambda name, t: self._op_activated(pane, name, t))
        pane.show_slice.connect(self._show_slice)
        if getattr(self, "marks", None) is not None:
            pane.set_marks(self.marks.comm)
        return pane

    def _step_activated(self, pane, step: int) -> None:
        """A step clicked in the Steps tab: its span selected (and shown) on the timeline."""
        tv = self.timeline_view
        span = next(((s, e) for i, s, e in tv.step_spans if i == step), None) if tv is not None else None
        if tv is None or span is None:
            pane.set_status(
                self.tr(
                    "The report does not record when step {0} ran: there is no span to select on the timeline."
                ).format(step)
            )
            return
        pane.set_status(self.tr("Step {0} selected on the timeline.").format(step))
        self.tabs.setCurrentIndex(0)
        tv.zoom_to_step(step)
        lanes = [lane for lane in range(len(self.report.timeline.lanes)) if lane not in tv.hidden_lanes]
        tv.select_range(span[0], span[1], lanes)

    def find_slice(self, name: str, t_ns: int) -> int | None:
        """The timeline slice named ``name`` running at epoch ``t_ns``, or None."""
        tl = self.report.timeline
        if self.timeline_view is None or tl is None:
            return None
        return timeline_ops.slice_named_at(tl, name, t_ns)

    def _op_activated(self, pane, name: str, t_ns: int) -> None:
        """An allocation (Memory) or a communication op clicked: the op selected on the timeline."""
        if self.timeline_view is None:
            pane.set_linked(None, self.tr("the report has no timeline"))
            return
        index = self.find_slice(name, t_ns)
        if index is None:
            pane.set_linked(None, self.tr("{0} is not on the timeline").format(name))
            return
        self.timeline_view.select_slice(index, center=True)
        pane.set_linked(index, self.tr("selected on the timeline"))

    def _show_slice(self, index: int) -> None:
        self.tabs.setCurrentIndex(0)
        self.jump_to_slice(index)

    def _cursor_moved(self, x: float) -> None:
        """The Memory tab's cursor (ns from the report start) shown on the timeline too."""
        tv = self.timeline_view
        if tv is not None:
            tv.cursor_line.setValue(x)
            tv.cursor_line.show()

    def closing(self) -> None:
        """The tab is being closed (MainWindow.close_document): a running SQL query is cancelled."""
        query = getattr(self, "query", None)
        if query is not None:
            query.shutdown()
        if self.advisor_task is not None and not self.advisor_task.state.finished:
            self.advisor_task.cancel()

    def _query_slice(self, index: int) -> None:
        """The Query tab's Show on Timeline: the Timeline tab, with the slice selected and in view."""
        self.tabs.setCurrentIndex(0)
        self.jump_to_slice(index)

    def _timeline_menu(self, pos: QPoint) -> None:
        tv = self.timeline_view
        p = tv.viewbox.mapSceneToView(tv.plot.mapToScene(pos))
        row = tv.row_at(p.y())
        hit = tv.layout_.slice_at(row.row, int(p.x())) if row is not None and row.kind == "slices" else None
        if hit is None:
            return
        name_id = int(self.report.timeline.name_id[hit])
        menu = QMenu(self)
        menu.addAction(
            self.tr("List All Occurrences of {0}").format(self.report.timeline.names[name_id]),
            lambda: self.show_occurrences(name_id),
        )
        menu.exec(tv.plot.mapToGlobal(pos))


def open_report(window, path: Path, view: str | None = None, then: Callable[[Any], None] | None = None) -> None:
    """Load ``path`` as a task. A loading page takes the document tab at once (progress, Cancel,
    and a preview of a big trace's start); the ReportDocument replaces it when the load is done.
    ``then(document)`` runs once the document is on screen and filled (e.g. to show an item in it)."""
    from workbench.ui.report.loading import ReportLoadingPage

    title = QCoreApplication.translate("ReportDocument", "Open report {0}").format(path.name)
    task = window.bridge.start(views.open_for_view, path, title=title, kind="report")
    page = ReportLoadingPage(path, task, window)
    window.add_document(page, path.name, str(path))
    _ReportOpener(window, path, view, task, page, then)


class _ReportOpener(QObject):
    """Follows one report-loading task: feeds the loading page, swaps in the document, cleans up."""

    def __init__(self, window, path: Path, view: str | None, task, page, then=None) -> None:
        super().__init__(page)
        self.window, self.path, self.view, self.task, self.page = window, path, view, task, page
        self.then = then
        task.status_changed.connect(self.status)
        task.progress_changed.connect(page.set_fraction)
        task.partial_result.connect(page.partial)
        task.succeeded.connect(self.done)
        task.failed.connect(self.failed)
        task.cancelled.connect(self.cancelled)

    def status(self, line: str) -> None:
        self.page.set_status(tr_status(line))

    def _page_index(self) -> int:
        return self.window.documents.indexOf(self.page)

    def done(self, result) -> None:
        window = self.window
        report, prepared = result
        screenshot = getattr(window, "_screenshot_mode", False)
        doc = ReportDocument(report, window.settings, window, prepared, staged=not screenshot, context=window.context)
        doc.slice_details.connect(window.show_slice_details)
        if self.view:
            doc.show_view(self.view)
        rule = getattr(window, "timeline_color_rule", None)
        if rule is not None and doc.timeline_view is not None:
            doc.timeline_view.set_color_rule(rule())
        self.doc, self.report = doc, report
        # shown in the next event-loop turn: building and laying out the tab are two steps
        QTimer.singleShot(0, self._swap_in)

    def _swap_in(self) -> None:
        window, doc, report = self.window, self.doc, self.report
        shown = self.page.preview_range()  # keep where the user looked in the preview
        if shown is not None and doc.timeline_view is not None:
            t0, t1 = shown
            shift = float(self.page.preview.timeline.origin_ns - report.timeline.origin_ns)
            doc.timeline_view.set_x_range(t0 + shift, t1 + shift, remember=False)
        index = self._page_index()
        if index < 0:  # the user closed the loading tab as the load finished: they do not want it
            doc.deleteLater()
            return
        current = window.documents.currentIndex() == index
        window.documents.insertTab(index, doc, self.path.name)
        window.documents.setTabToolTip(index, str(self.path))
        window.documents.removeTab(index + 1)
        if current:
            window.documents.setCurrentIndex(index)
        self.setParent(doc)  # outlives the page (deleted now), for the cache step below
        self.page.deleteLater()
        if self.then is not None:
            then = self.then
            if doc.ready:
                then(doc)
            else:
                doc.filled.connect(lambda: then(doc))
        if report.pending_cache is not None:  # written once the document is complete on screen
            if doc.ready:
                self.write_cache()
            else:
                doc.filled.connect(self.write_cache)

    def write_cache(self) -> None:
        self.window.bridge.start(
            views.write_cache,
            self.report,
            kind="cache",
            title=QCoreApplication.translate("ReportDocument", "Cache {0} for fast re-opening").format(self.path.name),
        )

    def _drop_page(self) -> None:
        index = self._page_index()
        if index >= 0:
            self.window.close_document(index)
        else:
            self.page.deleteLater()

    def failed(self, message: str, _exc) -> None:
        self._drop_page()
        self.window.statusBar().showMessage(message)
        if not getattr(self.window, "_screenshot_mode", False):
            QMessageBox.warning(self.window, QCoreApplication.translate("ReportDocument", "Open Report"), message)

    def cancelled(self) -> None:
        self._drop_page()
        self.window.statusBar().showMessage(
            QCoreApplication.translate("ReportDocument", "Opening {0} was cancelled").format(self.path.name)
        )


def _part_labels(report) -> list[str] | None:
    """The merged parts' names of ranks merged with their timelines aligned ("Rank 3"), in lane-part
    order (core ``profiling.align`` keeps them in ``info["alignment"]``); None for any other report."""
    import re

    from PySide6.QtCore import QCoreApplication

    alignment = report.info.get("alignment") if isinstance(report.info, dict) else None
    parts = alignment.get("offsets_ns") if isinstance(alignment, dict) else None
    if not isinstance(parts, list) or not parts:
        return None
    labels = []
    for entry in parts:
        name = str(entry[0]) if isinstance(entry, list) and entry else ""
        m = re.fullmatch(r"rank (\d+)", name)
        labels.append(QCoreApplication.translate("ReportDocument", "Rank {0}").format(m.group(1)) if m else name)
    return labels
