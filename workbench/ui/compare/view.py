"""The Baseline Comparison view: both summaries side by side, the overall diffs, the OP table
(regressions first, worse in red, better in green, filter by status, by type or name), the top
regressions / improvements chart, AI Core metric diffs, memory (peaks per component, allocations
per operator) and communication (per op type) diffs, warnings, xlsx export; a click on a row
opens both reports' timelines at that operator's first occurrence.

Core writes English: the warnings, the Overall metric names and the AI Core metric names are
translated here (templates of core's lines, matched with ``views.match_template``). Long values
(report paths) are elided to the width they get, so the view fits a 1600 px window."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QSize, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from workbench.core.compare.model import BETTER, STATUSES, WORSE, Comparison
from workbench.core.profiling import views
from workbench.ui.compare.labels import header, status
from workbench.ui.labels import tr_template
from workbench.ui.report.summary import BarChart
from workbench.ui.report.table import FrameTable, column_header

RED = QColor(192, 57, 43)
GREEN = QColor(39, 139, 76)


def _colors(statuses) -> np.ndarray:
    out = np.empty(len(statuses), dtype=object)
    for i, s in enumerate(statuses):
        out[i] = RED if s in WORSE or s == "higher" else (GREEN if s in BETTER or s == "lower" else None)
    return out


# The warnings core/compare writes (facts.py, overall.py, engine.py), as templates for lupdate and
# for matching; tests/ui/test_compare_ui.py drives core into every one of them.
WARNINGS = (
    QT_TRANSLATE_NOOP("CompareWarning", "different device IDs: {0}"),
    QT_TRANSLATE_NOOP("CompareWarning", "base device {0} compared with current device {1}"),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "base device(s) {0} left out of the comparison (no counterpart on the other side)"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "current device(s) {0} left out of the comparison (no counterpart on the other side)"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning",
        "different kinds of report: base is {0} output, current is {1} output "
        "(OPs are matched by key; the tools may count time differently)",
    ),
    QT_TRANSLATE_NOOP("CompareWarning", "different chip / SoC: base {0}, current {1}"),
    QT_TRANSLATE_NOOP("CompareWarning", "different CANN version: base {0}, current {1}"),
    QT_TRANSLATE_NOOP("CompareWarning", "different model name: base {0}, current {1}"),
    QT_TRANSLATE_NOOP("CompareWarning", "different AI Core PMU group: base {0}, current {1}"),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "chip / SoC not recorded in current (the base has {0}): cannot check that they match"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "chip / SoC not recorded in base (the current has {0}): cannot check that they match"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "CANN version not recorded in current (the base has {0}): cannot check that they match"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "CANN version not recorded in base (the current has {0}): cannot check that they match"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "model name not recorded in current (the base has {0}): cannot check that they match"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "model name not recorded in base (the current has {0}): cannot check that they match"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning",
        "current has no OPs table (op_summary / kernel_details): all its OP rows show as added / removed",
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "base has no OPs table (op_summary / kernel_details): all its OP rows show as added / removed"
    ),
    QT_TRANSLATE_NOOP("CompareWarning", "current has no AI Core metrics (PMU data): AI Core metrics are not compared"),
    QT_TRANSLATE_NOOP("CompareWarning", "base has no AI Core metrics (PMU data): AI Core metrics are not compared"),
    QT_TRANSLATE_NOOP("CompareWarning", "current has no step_trace_time table: step trace rows are left out"),
    QT_TRANSLATE_NOOP("CompareWarning", "base has no step_trace_time table: step trace rows are left out"),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "neither report has an OPs table (op_summary / kernel_details): no OP rows to compare"
    ),
    QT_TRANSLATE_NOOP("CompareWarning", "base OPs have no task type: AI Core / AI CPU / communication times left out"),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "current OPs have no task type: AI Core / AI CPU / communication times left out"
    ),
    QT_TRANSLATE_NOOP("CompareWarning", "AI Core metrics only in base (not compared): {0}"),
    QT_TRANSLATE_NOOP("CompareWarning", "AI Core metrics only in current (not compared): {0}"),
    QT_TRANSLATE_NOOP("CompareWarning", "no OP type is present in both reports: every row is added or removed"),
    QT_TRANSLATE_NOOP("CompareWarning", "no OP name is present in both reports: every row is added or removed"),
    # memory and communication (engine.py)
    QT_TRANSLATE_NOOP(
        "CompareWarning", "base has no memory_record (memory per component): memory peaks are not compared"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "current has no memory_record (memory per component): memory peaks are not compared"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "base has no operator_memory (memory per operator): operator memory is not compared"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning", "current has no operator_memory (memory per operator): operator memory is not compared"
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning",
        "base has no communication.json (communication operators): communication is not compared",
    ),
    QT_TRANSLATE_NOOP(
        "CompareWarning",
        "current has no communication.json (communication operators): communication is not compared",
    ),
)
# The Overall table's metric names and units (core/compare/overall.py).
OVERALL_METRICS = (
    QT_TRANSLATE_NOOP("CompareMetric", "Total device time"),
    QT_TRANSLATE_NOOP("CompareMetric", "Device time per step"),
    QT_TRANSLATE_NOOP("CompareMetric", "Device tasks"),
    QT_TRANSLATE_NOOP("CompareMetric", "AI Core time"),
    QT_TRANSLATE_NOOP("CompareMetric", "AI CPU time"),
    QT_TRANSLATE_NOOP("CompareMetric", "Communication time"),
    QT_TRANSLATE_NOOP("CompareMetric", "Free time (device idle between tasks)"),
    QT_TRANSLATE_NOOP("CompareMetric", "End-to-end span"),
    QT_TRANSLATE_NOOP("CompareMetric", "Step trace: {0}"),
    QT_TRANSLATE_NOOP("CompareMetric", "count"),
    QT_TRANSLATE_NOOP("CompareMetric", "us"),
    # memory peaks (core/compare/memdiff.py)
    QT_TRANSLATE_NOOP("CompareMetric", "Peak allocated"),
    QT_TRANSLATE_NOOP("CompareMetric", "Peak reserved"),
    QT_TRANSLATE_NOOP("CompareMetric", "MB"),
)


def tr_warning(text: str) -> str:
    """A comparison warning translated (its arguments kept; a device-pair list piece by piece)."""
    found = views.match_template(text, WARNINGS)
    if found is None:
        return text
    template, args = found
    if template == "different device IDs: {0}":
        args = (QCoreApplication.translate("CompareWarning", ", ").join(tr_warning(a) for a in args[0].split(", ")),)
    return QCoreApplication.translate("CompareWarning", template).format(*args)


def _display(frame, columns):
    """The table as shown: chosen columns, statuses, metric names and units translated, headers
    translated."""
    shown = frame[columns].copy()
    if "status" in shown.columns:
        shown["status"] = [status(s) for s in shown["status"]]
    if "metric" in shown.columns:
        shown["metric"] = [_metric_name(m) for m in shown["metric"]]
    if "unit" in shown.columns:
        shown["unit"] = [QCoreApplication.translate("CompareMetric", str(u)) for u in shown["unit"]]
    return shown, [header(c) for c in columns]


def _metric_name(metric) -> str:
    """An Overall metric (``Total device time``) or a PMU metric (``aic_mte2_ratio``) in words."""
    text = str(metric)
    translated = tr_template("CompareMetric", text, OVERALL_METRICS)
    if translated != text or text in OVERALL_METRICS:
        return translated
    return column_header(text)


class ElidedLabel(QLabel):
    """One line of text elided in the middle to the width the layout gives it (so a long path
    never widens the window); the tooltip and the context menu's Copy have the whole text."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.full_text = text
        self.setToolTip(text)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(40, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(self.fontMetrics().horizontalAdvance(self.full_text) + 4, super().sizeHint().height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        shown = self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideMiddle, max(10, self.width()))
        if shown != self.text():
            self.setText(shown)

    def contextMenuEvent(self, event) -> None:  # noqa: N802 - Qt API
        menu = QMenu(self)
        menu.addAction(self.tr("Copy"), lambda: QGuiApplication.clipboard().setText(self.full_text))
        menu.exec(event.globalPos())


OP_SHOWN = [
    "key",
    "task_type",
    "status",
    "base_count",
    "current_count",
    "base_total_us",
    "current_total_us",
    "diff_us",
    "diff_pct",
    "base_avg_us",
    "current_avg_us",
    "avg_diff_pct",
    "base_max_us",
    "current_max_us",
]
# The memory and communication tables' columns as shown (the xlsx and the JSON have them all).
MEMORY_PEAK_SHOWN = ["component", "metric", "unit", "status", "base", "current", "diff", "diff_pct"]
MEMORY_OP_SHOWN = [
    "name",
    "status",
    "base_count",
    "current_count",
    "base_size_kb",
    "current_size_kb",
    "diff_size_kb",
    "diff_pct",
    "base_duration_us",
    "current_duration_us",
    "diff_duration_us",
]
COMM_SHOWN = [
    "comm_op",
    "status",
    "base_calls",
    "current_calls",
    "base_total_us",
    "current_total_us",
    "diff_us",
    "diff_pct",
    "base_avg_us",
    "current_avg_us",
    "avg_diff_pct",
    "base_max_us",
    "current_max_us",
    "base_min_us",
    "current_min_us",
]


def _shown_frame(table: FrameTable, frame, columns: list[str], empty_note: str) -> None:
    """``frame``'s ``columns`` in ``table``, statuses coloured; ``empty_note`` when it has no rows."""
    if not len(frame):
        table.set_frame(frame[columns], empty_note, headers=[header(c) for c in columns])
        return
    shown, headers = _display(frame, columns)
    table.set_frame(shown, row_colors=_colors(frame["status"]), headers=headers)


class CompareView(QWidget):
    row_opened = Signal(object)  # the OP row (pandas Series) the user clicked

    def __init__(self, comparison: Comparison, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CompareView")
        self.comparison = comparison
        self.by = comparison.by
        self.frame = None
        sides = QHBoxLayout()
        for side, title in ((comparison.base, self.tr("Baseline")), (comparison.current, self.tr("Current"))):
            box = QGroupBox(title, self)
            form = QFormLayout(box)
            for label, value in (
                (self.tr("Source"), side.source),
                (self.tr("Kind"), side.kind),
                (self.tr("Devices"), ", ".join(map(str, side.compared_devices)) or "-"),
                (self.tr("Chip"), side.chip or "-"),
                (self.tr("CANN"), side.cann_version or "-"),
                (self.tr("PMU group"), side.pmu_group or "-"),
                (self.tr("OPs"), f"{side.op_count:,}"),
                (self.tr("Total device time"), f"{side.total_us:,.3f} µs"),
                (self.tr("Steps"), f"{side.steps:,}" if side.steps else self.tr("not recorded")),
            ):
                v = ElidedLabel(str(value), box)
                form.addRow(label + ":", v)
            sides.addWidget(box)
        total = comparison.total()
        pct = total["diff_pct"]
        self.total_label = QLabel(self)
        self.total_label.setWordWrap(True)
        self.total_label.setText(
            self.tr("Total device time: {0} → {1} µs, {2} µs ({3})").format(
                _num(total["base_total_us"]),
                _num(total["current_total_us"]),
                _num(total["diff_us"]),
                "n/a" if pct is None else f"{pct:+.2f}%",
            )
        )
        color = RED if total["status"] in WORSE else (GREEN if total["status"] in BETTER else QColor(60, 60, 60))
        self.total_label.setStyleSheet(f"font-weight:bold;color:{color.name()};padding:4px;")
        # which figure decided the statuses: a longer run is no slower run
        self.basis_label = QLabel(self)
        self.basis_label.setObjectName("CompareBasis")
        self.basis_label.setWordWrap(True)
        if comparison.basis == "step":
            per_step = comparison.overall[comparison.overall["metric"] == "Device time per step"]
            figures = ""
            if len(per_step):
                row = per_step.iloc[0]
                pct_step = row["diff_pct"]
                figures = self.tr(" Device time per step: {0} → {1} µs ({2}).").format(
                    _num(row["base"]), _num(row["current"]), "n/a" if pct_step != pct_step else f"{pct_step:+.2f}%"
                )
            self.basis_label.setText(
                self.tr("Statuses compare the time per step ({0} base steps, {1} current steps).").format(
                    comparison.base.steps, comparison.current.steps
                )
                + figures
            )
        else:
            missing = [
                self.tr("baseline") if not comparison.base.steps else None,
                self.tr("current") if not comparison.current.steps else None,
            ]
            self.basis_label.setText(
                self.tr("Statuses compare the average time per call: the {0} report records no steps.").format(
                    self.tr(" and ").join(m for m in missing if m)
                )
            )
        self.warnings = QLabel(self)
        self.warnings.setWordWrap(True)
        if comparison.warnings:
            self.warnings.setText("⚠ " + "\n⚠ ".join(tr_warning(w) for w in comparison.warnings))
            self.warnings.setStyleSheet("background:#fff3cd;color:#664d03;padding:4px;")
        else:
            self.warnings.hide()
        # controls
        self.by_box = QComboBox(self)
        self.by_box.addItem(self.tr("By OP type"), "type")
        self.by_box.addItem(self.tr("By op name"), "name")
        self.by_box.setCurrentIndex(0 if self.by == "type" else 1)
        self.by_box.currentIndexChanged.connect(self._by_changed)
        self.status_checks: dict[str, QCheckBox] = {}
        controls = QHBoxLayout()
        controls.addWidget(self.by_box)
        controls.addWidget(QLabel(self.tr("Show:"), self))
        for s in STATUSES:
            box = QCheckBox(status(s), self)
            box.setChecked(True)
            box.toggled.connect(self._refresh)
            self.status_checks[s] = box
            controls.addWidget(box)
        controls.addStretch(1)
        self.export_button = QPushButton(self.tr("Export to Excel…"), self)
        self.export_button.clicked.connect(self._export_dialog)
        controls.addWidget(self.export_button)
        # tables and chart
        self.ops = FrameTable(self.tr("Operators"), self)
        self.ops.row_activated.connect(self._row_activated)
        self.overall = FrameTable(self.tr("Overall"), self)
        self.metrics = FrameTable(self.tr("AI Core Metrics"), self)
        self.chart = BarChart(self.tr("Top regressions / improvements (µs)"), self)
        self.memory_peaks = FrameTable(self.tr("Memory Peaks"), self)
        self.memory_ops = FrameTable(self.tr("Memory per Operator"), self)
        self.memory = QSplitter(Qt.Orientation.Vertical, self)
        self.memory.setObjectName("CompareMemory")
        for title, table in (
            (self.tr("Peak memory per component (memory_record)"), self.memory_peaks),
            (self.tr("Allocations per operator (operator_memory)"), self.memory_ops),
        ):
            group = QGroupBox(title, self.memory)
            QVBoxLayout(group).addWidget(table)
            self.memory.addWidget(group)
        self.memory.setSizes([240, 400])
        self.communication = FrameTable(self.tr("Communication"), self)
        tabs = QTabWidget(self)
        tabs.addTab(self.ops, self.tr("Operators"))
        tabs.addTab(self.overall, self.tr("Overall"))
        tabs.addTab(self.metrics, self.tr("AI Core Metrics"))
        tabs.addTab(self.memory, self.tr("Memory"))
        tabs.addTab(self.communication, self.tr("Communication"))
        self.tabs = tabs
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(tabs)
        split.addWidget(self.chart)
        split.setSizes([800, 380])
        layout = QVBoxLayout(self)
        layout.addLayout(sides)
        layout.addWidget(self.total_label)
        layout.addWidget(self.basis_label)
        layout.addWidget(self.warnings)
        layout.addLayout(controls)
        layout.addWidget(split, 1)
        ov, ov_headers = _display(comparison.overall, list(comparison.overall.columns))
        self.overall.set_frame(ov, row_colors=_colors(comparison.overall["status"]), headers=ov_headers)
        if len(comparison.metrics):
            mt, mt_headers = _display(comparison.metrics, list(comparison.metrics.columns))
            self.metrics.set_frame(mt, row_colors=_colors(comparison.metrics["status"]), headers=mt_headers)
        else:
            self.metrics.set_frame(comparison.metrics, self.tr("No AI Core metrics on both sides to compare."))
        _shown_frame(
            self.memory_peaks,
            comparison.memory_peaks,
            MEMORY_PEAK_SHOWN,
            self.tr("No memory peaks to compare: memory_record is not in both reports."),
        )
        _shown_frame(
            self.memory_ops,
            comparison.memory_ops,
            MEMORY_OP_SHOWN,
            self.tr("No operator memory to compare: operator_memory is not in both reports."),
        )
        _shown_frame(
            self.communication,
            comparison.communication,
            COMM_SHOWN,
            self.tr("No communication to compare: communication.json is not in both reports."),
        )
        self._refresh()

    # --- OP table ------------------------------------------------------------------------------------
    def _by_changed(self, _i: int) -> None:
        self.by = self.by_box.currentData()
        self._refresh()

    def wanted_statuses(self) -> set[str]:
        return {s for s, box in self.status_checks.items() if box.isChecked()}

    def _refresh(self) -> None:
        rows = Comparison.sort_regressions_first(self.comparison.op_rows(self.by))
        rows = Comparison.filter_status(rows, self.wanted_statuses())
        self.frame = rows
        columns = [c for c in OP_SHOWN if c in rows.columns]
        shown, headers = _display(rows, columns)
        common = self.comparison.common_rows(self.by)
        note = (
            ""
            if common
            else self.tr("No operator appears in both reports: nothing to pair. Both summaries are shown above.")
        )
        self.ops.set_frame(shown, note, row_colors=_colors(rows["status"]), headers=headers)
        self._draw_chart()

    def _draw_chart(self) -> None:
        self.chart.clear()
        worse, better = self.comparison.top(10, self.by)
        names = list(worse["key"].astype(str))[::-1] + list(better["key"].astype(str))[::-1]
        values = list(worse["diff_us"])[::-1] + list(better["diff_us"])[::-1]
        if not values:
            self.chart.set_title(self.tr("No regressions or improvements beyond the tolerance"))
            return
        self.chart.set_title(self.tr("Top regressions / improvements (µs)"))
        # the colour says the row's status (a longer run's total can grow while its time per step falls)
        brushes = [pg.mkBrush("#c0392b")] * len(worse) + [pg.mkBrush("#278b4c")] * len(better)
        self.chart.set_bars(names, values, brushes, unit="µs")

    def _row_activated(self, source_row: int) -> None:
        if self.frame is not None and 0 <= source_row < len(self.frame):
            self.row_opened.emit(self.frame.iloc[source_row])

    # --- export --------------------------------------------------------------------------------------
    def export(self, path: str) -> Path:
        from workbench.core.compare.xlsx import write_xlsx

        return write_xlsx(self.comparison, path)

    def _export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Export Comparison"),
            "comparison.xlsx",
            self.tr("Excel workbook (*.xlsx)"),
            options=QFileDialog.Option.DontUseNativeDialog,
        )
        if path:
            try:
                self.export(path)
            except (OSError, ValueError) as exc:
                QMessageBox.warning(self, self.tr("Export Comparison"), str(exc))


def _num(v) -> str:
    return "n/a" if v is None else f"{v:,.3f}"
