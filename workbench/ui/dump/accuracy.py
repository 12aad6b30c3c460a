"""Ascend ▸ Model Accuracy Analyzer: NPU dump folder vs ground-truth .npy folder, op by op.

Runs the core comparison locally (numpy, no CANN) or the host's ``msaccucmp.py compare``; either way
the result is a ``CompareReport`` shown in a sortable table in model order with msaccucmp's columns
and 6-decimal values. The first output whose cosine similarity is below the threshold is
highlighted and the seed's advice on what to check next is shown beside it. Exports write
msaccucmp's result CSV layout, or an .xlsx sheet.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from workbench.core.dump import compare, metrics
from workbench.core.dump.compare import CompareReport
from workbench.ui.context import AppContext
from workbench.ui.dump import common
from workbench.ui.flowlayout import flow_widget
from workbench.ui.report.table import FrameModel, FrameTable

LOCAL = ""
# compare.NEXT_STEPS, marked for translation (a test checks they stay the same).
NEXT_STEPS = (
    QT_TRANSLATE_NOOP(
        "AccuracyAnalyzer",
        "Check the input preprocessing: mean/scale, channel order (RGB/BGR), "
        "layout (NCHW/NHWC) and AIPP settings must match the framework's.",
    ),
    QT_TRANSLATE_NOOP(
        "AccuracyAnalyzer",
        "Check quantization: compare against a non-quantized model; calibrate again or skip this layer.",
    ),
    QT_TRANSLATE_NOOP(
        "AccuracyAnalyzer",
        "Check fusion: the op may be a fused op; compare with the fusion rule (om JSON) or disable the fusion pattern.",
    ),
    QT_TRANSLATE_NOOP(
        "AccuracyAnalyzer",
        "Check post-processing: output order, data type (float16 overflow) and the decoding of the results.",
    ),
)
BELOW = QColor(192, 57, 43)
# Shown before the metrics (by name; msaccucmp's other identifying columns come after them).
LEAD_COLUMNS = ("Index", "OpType", "NPUDump")
# Width bounds (px) so the metrics are in sight at the default window size; cells and headers that
# do not fit are elided and show their full text as a tooltip.
LEAD_WIDTHS = {"Index": 56, "OpType": 120, "NPUDump": 240}
LEAD_MIN_WIDTH = 60  # OpType and NPUDump narrow down to this when the table is narrow
METRIC_WIDTH = (72, 128)
OTHER_WIDTH = 180


class ResultModel(FrameModel):
    """FrameModel showing floats as msaccucmp prints them (6 decimals, ``NaN``)."""

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole) and index.isValid():
            value = self.raw(index.row(), index.column())
            if isinstance(value, (float, np.floating)):
                return metrics.NAN if math.isnan(value) else metrics.fmt(value)
        return super().data(index, role)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 - Qt API
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            return super().headerData(section, orientation, Qt.ItemDataRole.DisplayRole)
        return super().headerData(section, orientation, role)


def report_frame(report: CompareReport) -> pd.DataFrame:
    """The result table: msaccucmp's columns, metric values as floats (so sorting is numeric)."""
    header = report.header()
    names = [f"{h}#{i}" for i, h in enumerate(header)]  # unique: msaccucmp repeats DataType
    rows = []
    for r in report.csv_rows():
        cells: list = list(r)
        cells[0] = int(r[0])
        for j, alg in enumerate(report.algorithms, start=9):
            if alg != "StandardDeviation":
                try:
                    cells[j] = float(r[j])
                except ValueError:
                    cells[j] = math.nan
        rows.append(cells)
    return pd.DataFrame(rows, columns=names)


def _row(parent: QWidget, *widgets: QWidget) -> QWidget:
    """``widgets`` side by side in one widget (kept together when a flow layout wraps)."""
    box = QWidget(parent)
    row = QHBoxLayout(box)
    row.setContentsMargins(0, 0, 0, 0)
    for w in widgets:
        row.addWidget(w)
    return box


class AccuracyAnalyzer(QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.report: CompareReport | None = None
        self.task = None
        root = context.project_root()
        self.npu = common.PathRow("dir", self.tr("NPU Dump Folder"), parent=self)
        self.npu.edit.setPlaceholderText(self.tr("the dump files of the offline model (any level of the dump folder)"))
        if root and (root / "dump").is_dir():
            self.npu.setText(str(root / "dump"))
        self.golden = common.PathRow("dir", self.tr("Ground Truth Folder"), parent=self)
        self.golden.edit.setPlaceholderText(self.tr("{op_name}.{output_index}.{timestamp}.npy files"))
        self.rule = common.PathRow("open", self.tr("Fusion Rule"), self.tr("om JSON (*.json);;All files (*)"), self)
        self.rule.edit.setPlaceholderText(self.tr("optional: the om JSON (atc --mode=1) maps fused ops to originals"))
        self.algs: dict[str, QCheckBox] = {}
        for name in metrics.ALGORITHMS:
            cb = QCheckBox(name, self)
            cb.setChecked(name in metrics.DEFAULT_ALGORITHMS)
            self.algs[name] = cb
        # as many per row as fit: the form never makes the window wider
        alg_box = flow_widget(self, list(self.algs.values()), spacing=12)
        self.threshold = QDoubleSpinBox(self)
        self.threshold.setRange(0.0, 1.0)
        self.threshold.setDecimals(4)
        self.threshold.setSingleStep(0.01)
        self.threshold.setValue(compare.DEFAULT_THRESHOLD)
        self.threshold.valueChanged.connect(self._threshold_changed)
        self.where = QComboBox(self)
        self.where.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.where.setMinimumContentsLength(16)  # a long host line elides; the list shows it whole
        self.where.addItem(self.tr("This computer (numpy, no CANN needed)"), LOCAL)
        for label, name in common.host_items():
            self.where.addItem(self.tr("{0}: msaccucmp.py").format(label), name)
        self.on_host = QCheckBox(self.tr("The folders are on the machine"), self)
        self.where.currentIndexChanged.connect(self._where_changed)
        self.run_button = QPushButton(self.tr("Compare"), self)
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        box = QGroupBox(self.tr("Comparison"), self)
        form = QFormLayout(box)
        form.addRow(self.tr("NPU dump:"), self.npu)
        form.addRow(self.tr("Ground truth:"), self.golden)
        form.addRow(self.tr("Fusion rule:"), self.rule)
        form.addRow(self.tr("Algorithms:"), alg_box)
        threshold_label = QLabel(self.tr("Cosine threshold:"), self)
        threshold_label.setBuddy(self.threshold)
        where_label = QLabel(self.tr("Run on:"), self)
        where_label.setBuddy(self.where)
        # one row when there is room, wrapped onto more in a narrow window (never widening it)
        run_row = flow_widget(
            self,
            [
                _row(self, threshold_label, self.threshold),
                _row(self, where_label, self.where, self.on_host),
                _row(self, self.run_button, self.cancel_button),
            ],
            trailing=1,
            spacing=16,
        )
        form.addRow(run_row)

        self.table = FrameTable(self.tr("Accuracy comparison"), self)
        self.table.model = ResultModel(self.table)
        self.table.view.setModel(self.table.model)
        self.table.export_button.hide()
        self.csv_button = QPushButton(self.tr("Export CSV…"), self)
        self.csv_button.setToolTip(self.tr("msaccucmp's result CSV layout"))
        self.csv_button.clicked.connect(self.export_csv_dialog)
        self.xlsx_button = QPushButton(self.tr("Export xlsx…"), self)
        self.xlsx_button.clicked.connect(self.export_xlsx_dialog)
        self.table.bar.addWidget(self.csv_button)
        self.table.bar.addWidget(self.xlsx_button)
        self.row_graph_button = QPushButton(self.tr("Show Selected Op in Graph"), self)
        self.row_graph_button.setToolTip(
            self.tr("Centre and select the clicked row's op in the model graph (the fusion rule's om JSON)")
        )
        self.row_graph_button.setEnabled(False)
        self.row_graph_button.clicked.connect(lambda: self.show_row_in_graph())
        self.row_graph_button.hide()  # shown with the clicked row's details
        self._row: int | None = None  # the source row clicked last
        self.table.row_activated.connect(self._row_activated)
        self.guidance = QLabel(self)
        self.guidance.setWordWrap(True)
        self.guidance.setTextFormat(Qt.TextFormat.RichText)
        self.guidance.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.guidance.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.guidance.setMinimumWidth(200)
        self.details = QLabel(self)
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop)
        side = QWidget(self)
        sl = QVBoxLayout(side)
        sl.setContentsMargins(6, 0, 0, 0)
        sl.addWidget(self.guidance)
        self.graph_button = QPushButton(self.tr("Show in Graph"), side)
        self.graph_button.setToolTip(
            self.tr("Centre and select the first op below the threshold in the model graph (the fusion rule's om JSON)")
        )
        self.graph_button.clicked.connect(lambda: self.show_first_in_graph())
        self.graph_button.hide()
        sl.addWidget(self.graph_button, 0, Qt.AlignmentFlag.AlignLeft)
        sl.addWidget(self.details)
        sl.addWidget(self.row_graph_button, 0, Qt.AlignmentFlag.AlignLeft)
        sl.addStretch(1)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.table)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([900, 320])
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.addWidget(box)
        lay.addWidget(self.status)
        lay.addWidget(split, 1)
        self._where_changed()
        self._set_exports(False)
        self.guidance.setText(self.tr("Choose the NPU dump and the ground truth, then Compare."))

    # ----- running
    def algorithms(self) -> list[str]:
        return [a for a, cb in self.algs.items() if cb.isChecked()]

    def _where_changed(self, *_args) -> None:
        self.on_host.setEnabled(self.where.currentData() != LOCAL)

    def run(self):
        npu, golden, rule = self.npu.text(), self.golden.text(), self.rule.text()
        algs = self.algorithms()
        remote = self.where.currentData()
        problem = "" if npu and golden else self.tr("Choose the NPU dump folder and the ground truth folder.")
        if not problem and not algs:
            problem = self.tr("Tick at least one algorithm.")
        if not problem and remote == LOCAL:
            missing = [p for p in (npu, golden, rule) if p and not Path(p).exists()]
            problem = self.tr("{0}: no such file or folder").format(missing[0]) if missing else ""
        if problem:
            self.status.setText(problem)
            return None
        threshold = self.threshold.value()
        if remote == LOCAL:
            self.task = self.context.bridge.start(
                compare.compare_dirs,
                npu,
                golden,
                fusion_rule=rule or None,
                algorithms=algs,
                threshold=threshold,
                title=self.tr("Accuracy comparison of {0}").format(_short(npu)),
                kind="accuracy",
            )
        else:
            self.task = self.context.bridge.start(
                common.compare_on_host,
                remote,
                npu,
                golden,
                rule,
                algs,
                threshold,
                self.on_host.isChecked(),
                self.context.prompter,
                self.context.pool,
                title=self.tr("Accuracy comparison of {0} on {1}").format(_short(npu), remote),
                kind="accuracy",
            )
        self.status.setText(self.tr("Comparing…"))
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.task.succeeded.connect(self.show_report)
        self.task.failed.connect(self._failed)
        self.task.cancelled.connect(self._cancelled)
        self.task.finished.connect(self._finished)
        return self.task

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _failed(self, message: str, _exc: object) -> None:
        self.status.setText(message)

    def _cancelled(self) -> None:
        self.status.setText(self.tr("Cancelled."))

    def _finished(self) -> None:
        self.task = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    # ----- results
    def show_report(self, report: CompareReport) -> None:
        self.report = report
        self._row = None
        self.row_graph_button.setEnabled(False)
        self.row_graph_button.hide()
        report.threshold = self.threshold.value()
        frame = report_frame(report)
        first = report.first_below_threshold
        highlight = np.array([r is first for r in report.rows], dtype=bool)
        colors = np.array(
            [
                BELOW if (r.kind == "output" and r.cosine is not None and r.cosine < report.threshold) else None
                for r in report.rows
            ],
            dtype=object,
        )
        self.table.set_frame(frame, highlight=highlight, row_colors=colors, headers=report.header())
        self._arrange_columns(report)
        outputs = sum(r.kind == "output" for r in report.rows)
        failed = sum(bool(r.reason) and r.cosine is None for r in report.rows)
        text = self.tr("{0} rows ({1} outputs) compared; {2} without a value (see CompareFailReason).").format(
            len(report.rows), outputs, failed
        )
        if report.warnings:
            text += "<br>" + "<br>".join(_html(w) for w in report.warnings[:5])
        self.status.setText(text)
        self._show_guidance()
        self._set_exports(True)
        if first is not None:
            self.table.view.scrollTo(
                self.table.model.index(report.rows.index(first), 0), QAbstractItemView.ScrollHint.PositionAtCenter
            )

    def _arrange_columns(self, report: CompareReport) -> None:
        """Keep the metric columns in sight: Index, OpType and the op name (compact), then the metrics
        (CosineSimilarity first) and CompareFailReason, then the other columns. Only the view's order
        changes: sorting, copying and the exports keep msaccucmp's column order."""
        view, header = self.table.view, self.table.view.horizontalHeader()
        names = report.header()
        lead = [names.index(n) for n in LEAD_COLUMNS if n in names]
        metric = [names.index(a) for a in report.algorithms if a in names]
        reason = [i for i, n in enumerate(names) if n == "CompareFailReason"]
        placed = lead + metric + reason
        order = placed + [i for i in range(len(names)) if i not in placed]
        for visual, logical in enumerate(order):
            header.moveSection(header.visualIndex(logical), visual)
        for i, name in enumerate(names):
            width = view.columnWidth(i)
            if i in lead:
                width = min(width, LEAD_WIDTHS[name])
            elif i in metric:
                width = max(METRIC_WIDTH[0], min(width, METRIC_WIDTH[1]))
            else:
                width = min(width, OTHER_WIDTH)
            view.setColumnWidth(i, width)
        # a narrow table: the op name, then the op type, give way (elided) until the first metric fits
        over = sum(view.columnWidth(i) for i in lead + metric[:1]) - view.viewport().width()
        for name in ("NPUDump", "OpType"):
            if over > 0 and name in names:
                i = names.index(name)
                cut = min(over, view.columnWidth(i) - LEAD_MIN_WIDTH)
                if cut > 0:
                    view.setColumnWidth(i, view.columnWidth(i) - cut)
                    over -= cut

    def _show_guidance(self) -> None:
        report = self.report
        if report is None:
            return
        first = report.first_below_threshold
        self.graph_button.setVisible(first is not None)
        if first is None:
            self.guidance.setText(
                "<b>"
                + self.tr("Every compared output reaches cosine similarity {0}.").format(f"{report.threshold:g}")
                + "</b>"
            )
            return
        steps = "".join(f"<li>{_html(QCoreApplication.translate('AccuracyAnalyzer', s))}</li>" for s in NEXT_STEPS)
        self.guidance.setText(
            "<b>"
            + self.tr("First op below the threshold:")
            + "</b><br>"
            + self.tr("{0} ({1}), output {2}: cosine similarity {3} &lt; {4}").format(
                _html(first.npu_op),
                _html(first.op_type),
                first.tensor,
                metrics.fmt(first.cosine),
                f"{report.threshold:g}",
            )
            + "<br><br><b>"
            + self.tr("What to check next:")
            + "</b><ul>"
            + steps
            + "</ul>"
        )

    def _threshold_changed(self, value: float) -> None:
        if self.report is not None:
            self.report.threshold = value
            self.show_report(self.report)

    def _row_activated(self, source_row: int) -> None:
        if self.report is None or not 0 <= source_row < len(self.report.rows):
            return
        r = self.report.rows[source_row]
        self._row = source_row
        self.row_graph_button.setEnabled(bool(r.npu_op))
        self.row_graph_button.show()
        parts = [
            f"<b>{_html(r.tensor_index)}</b>",
            self.tr("NPU dump: {0}").format(_html(r.npu_file or "-")),
            self.tr("Ground truth: {0}").format(_html(r.golden_file or r.ground_truth)),
        ]
        if r.reason:
            parts.append(self.tr("Reason: {0}").format(_html(r.reason)))
        self.details.setText("<br>".join(parts))

    # ----- the model graph
    def show_first_in_graph(self) -> bool:
        """The first op below the threshold centred and selected in the model graph."""
        first = self.report.first_below_threshold if self.report is not None else None
        return first is not None and self._show_in_graph(first.npu_op)

    def show_row_in_graph(self) -> bool:
        """The op of the row clicked last centred and selected in the model graph."""
        if self.report is None or self._row is None or not 0 <= self._row < len(self.report.rows):
            return False
        return self._show_in_graph(self.report.rows[self._row].npu_op)

    def _show_in_graph(self, name: str) -> bool:
        from workbench.ui.graph.links import show_in_graph

        # the fusion rule is the model's om JSON; without one, an open graph holding the op, or ask
        return show_in_graph(self.context, name, self.rule.text() or None, self)

    # ----- exports
    def _set_exports(self, on: bool) -> None:
        self.csv_button.setEnabled(on)
        self.xlsx_button.setEnabled(on)

    def export_csv_dialog(self) -> None:
        self._export_dialog("result.csv", self.tr("CSV (*.csv)"), self.export_csv)

    def export_xlsx_dialog(self) -> None:
        self._export_dialog("result.xlsx", self.tr("Excel workbook (*.xlsx)"), self.export_xlsx)

    def _export_dialog(self, name: str, name_filter: str, write) -> None:
        start = str(Path(self.npu.text() or Path.home()).parent / name)
        target, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export Result"), start, name_filter, options=QFileDialog.Option.DontUseNativeDialog
        )
        if target:
            write(target)

    def export_csv(self, path: str) -> None:
        self._export(compare.write_result_csv, path)

    def export_xlsx(self, path: str) -> None:
        self._export(compare.write_result_xlsx, path)

    def _export(self, writer, path: str) -> None:
        try:
            writer(self.report, path)
        except OSError as err:
            self.status.setText(self.tr("Not saved: {0}").format(err))
            return
        self.status.setText(self.tr("Saved {0}").format(path))


def _short(path: str) -> str:
    """The last folders of a dump path (its leaf is often just an iteration number)."""
    return "/".join(Path(path).parts[-3:])


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def open_accuracy_analyzer(
    context: AppContext, npu_dir: str | None = None, golden_dir: str | None = None, fusion_rule: str | None = None
) -> AccuracyAnalyzer:
    """Ascend ▸ Model Accuracy Analyzer…: a document in the main window."""
    view = AccuracyAnalyzer(context)
    for row, value in ((view.npu, npu_dir), (view.golden, golden_dir), (view.rule, fusion_rule)):
        if value:
            row.setText(str(value))
    context.add_document(view, QCoreApplication.translate("AccuracyAnalyzer", "Model Accuracy Analyzer"), "")
    return view
