"""Open Timelines Aligned… (the Cluster document's rank menu): several ranks' timelines merged into one
report document, each rank shifted so that a chosen step or communication operator starts together
(core :mod:`workbench.core.profiling.align`).

The dialog offers the job's ranks (ticked by default: the rank pointed at and its peers — a slow rank's,
else its pipeline stage, else the job — at most :data:`DEFAULT_RANKS` of them, nearest first), the
reference rank, and what to align on: the start of a step of the cluster, or the k-th start of a
communication operator (those of the cluster's communication tables the reference ran, the widest wait
spread first; any name can be typed). OK merges the ranks as a task off the GUI thread: a loading tab
with progress and Cancel, then the report document in its place (as the report picker's "Open as
Cluster" opens its merged report)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QRadioButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from workbench.core.cluster import views
from workbench.core.cluster.merge import digits
from workbench.core.cluster.report import ClusterReport
from workbench.core.profiling import align
from workbench.ui.cluster import texts
from workbench.ui.context import AppContext
from workbench.ui.labels import tr_status, tr_template

DEFAULT_RANKS = 8  # ticked at most by default: every rank of a big stage would be a very long merge
RANK_ROLE = Qt.ItemDataRole.UserRole + 1

# core's lines about the alignment (align.TEMPLATES), first in the merged report's warnings
ALIGNMENT_LABELS = (
    QT_TRANSLATE_NOOP("ReportWarning", "Timelines aligned on the start of step {0}; the reference is {1}"),
    QT_TRANSLATE_NOOP("ReportWarning", "Timelines aligned on the start of {0} (occurrence {1}); the reference is {2}"),
    QT_TRANSLATE_NOOP("ReportWarning", "{0}: shifted by {1} ns"),
    QT_TRANSLATE_NOOP("ReportWarning", "{0}: step {1} has no start time there; left unshifted"),
    QT_TRANSLATE_NOOP(
        "ReportWarning",
        "{0}: occurrence {1} of {2} is not on its communication lanes (it starts there {3} times); left unshifted",
    ),
)


def tr_alignment(line: str) -> str:
    """A line core wrote about the alignment, in the UI's language (others as they are)."""
    return tr_template("ReportWarning", line, align.TEMPLATES)


def local_folder(report: ClusterReport, rank: int) -> Path | None:
    """The rank's profiling folder when it is on this machine."""
    info = next((r for r in report.ranks if r.rank == rank), None)
    if info is None or not info.path or info.host or not Path(info.path).is_dir():
        return None
    return Path(info.path)


def default_ranks(report: ClusterReport, rank: int | None) -> list[int]:
    """The ranks ticked at first: ``rank`` (else the first slow rank, else the first rank) and its peers."""
    ranks = sorted({*report.tables.ranks, *(r.rank for r in report.ranks)})
    if not ranks:
        return []
    slow = report.findings.slow_ranks
    if rank is None:
        rank = slow[0].rank if slow else ranks[0]
    finding = next((s for s in slow if s.rank == rank), None)
    stage = next((s for s in report.tables.stages if rank in s), None)
    peers = list(finding.peers) if finding is not None else (list(stage) if stage else ranks)
    local = [r for r in {rank, *peers} if local_folder(report, r) is not None]
    return sorted(sorted(local, key=lambda r: (abs(r - rank), r))[:DEFAULT_RANKS])


def operators(report: ClusterReport, rank: int) -> list[tuple[str, str]]:
    """(timeline name, where) of the communication operators ``rank`` ran, the widest wait spread first."""
    ran = {row.op for row in views.op_rows(report.tables) if row.rank == rank}
    out: dict[str, str] = {}
    for op in views.op_summary(report.tables):
        name = op.op.rpartition("@")[0] or op.op  # the tables' key: name@group hash
        if op.op in ran and name not in out:
            out[name] = QCoreApplication.translate("AlignDialog", "group {0} · {1} · wait spread {2} ms").format(
                op.group, op.step, f"{op.wait_spread_ms:.3f}"
            )
    return list(out.items())


class AlignDialog(QDialog):
    """Which ranks, which reference, aligned on what; :meth:`choice` once accepted."""

    def __init__(
        self, context: AppContext, report: ClusterReport, rank: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("AlignDialog")
        self.setWindowTitle(self.tr("Open Timelines Aligned"))
        self.context = context
        self.report = report
        ticked = default_ranks(report, rank)
        start = rank if rank in ticked else (ticked[0] if ticked else None)

        self.ranks = QListWidget(self)
        self.ranks.setObjectName("alignRanks")
        for r in sorted({*report.tables.ranks, *(info.rank for info in report.ranks)}):
            folder = local_folder(report, r)
            item = QListWidgetItem(
                self.tr("Rank {0}").format(r) if folder else self.tr("Rank {0} (no folder on this machine)").format(r)
            )
            item.setData(RANK_ROLE, r)
            if folder is None:
                item.setFlags(Qt.ItemFlag.NoItemFlags)
            else:
                item.setFlags(
                    Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable
                )
                item.setCheckState(Qt.CheckState.Checked if r in ticked else Qt.CheckState.Unchecked)
                item.setToolTip(str(folder))
            self.ranks.addItem(item)
        self.reference = QComboBox(self)
        self.reference.setObjectName("alignReference")
        self.reference.setToolTip(
            self.tr("The other ranks are shifted so that the event starts when it does on this rank")
        )

        self.on_step = QRadioButton(self.tr("Start of &step"), self)
        self.on_step.setObjectName("alignOnStep")
        self.step = QComboBox(self)
        self.step.setObjectName("alignStep")
        for s in views.steps_of(report.tables):
            if digits(s):
                self.step.addItem(self.tr("Step {0}").format(texts.step_label(s)), int(s))
        self.on_op = QRadioButton(self.tr("Start of a &communication operator"), self)
        self.on_op.setObjectName("alignOnOp")
        self.op = QComboBox(self)
        self.op.setObjectName("alignOp")
        self.op.setEditable(True)
        self.op.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.op.setMinimumContentsLength(28)
        edit = self.op.lineEdit()
        if edit is not None:
            edit.setPlaceholderText(self.tr("e.g. hcom_allReduce__586_0_1"))
        self.occurrence = QSpinBox(self)
        self.occurrence.setObjectName("alignOccurrence")
        self.occurrence.setRange(1, 1_000_000)
        self.occurrence.setToolTip(self.tr("Which start of the operator on each rank's timeline (1: the first)"))
        (self.on_step if self.step.count() else self.on_op).setChecked(True)

        self.note = QLabel(self)
        self.note.setObjectName("alignNote")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color:#8a6d3b;")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        ranks_label = QLabel(self.tr("&Ranks (each one lane group):"), self)
        ranks_label.setBuddy(self.ranks)
        form = QFormLayout()
        form.addRow(self.tr("R&eference rank:"), self.reference)
        form.addRow(self.on_step, self.step)
        op_row = QHBoxLayout()
        op_row.addWidget(self.op, 1)
        occurrence_label = QLabel(self.tr("&Occurrence"), self)
        occurrence_label.setBuddy(self.occurrence)
        op_row.addWidget(occurrence_label)
        op_row.addWidget(self.occurrence)
        form.addRow(self.on_op, op_row)
        box = QVBoxLayout(self)
        box.addWidget(ranks_label)
        box.addWidget(self.ranks, 1)
        box.addLayout(form)
        box.addWidget(self.note)
        box.addWidget(self.buttons)
        self.resize(560, 480)

        self._fill_reference(start)
        self._fill_ops()
        self.ranks.itemChanged.connect(lambda _item: self._ranks_changed())
        self.reference.currentIndexChanged.connect(lambda _i: self._reference_changed())
        for radio in (self.on_step, self.on_op):
            radio.toggled.connect(lambda _on: self._update())
        self.op.editTextChanged.connect(lambda _text: self._update())
        self._update()

    # --- state ----------------------------------------------------------------------------------------
    def ticked(self) -> list[int]:
        items = (self.ranks.item(i) for i in range(self.ranks.count()))
        return [int(it.data(RANK_ROLE)) for it in items if it is not None and it.checkState() == Qt.CheckState.Checked]

    def _fill_reference(self, keep: int | None) -> None:
        self.reference.blockSignals(True)
        self.reference.clear()
        for r in self.ticked():
            self.reference.addItem(self.tr("Rank {0}").format(r), r)
        at = self.reference.findData(keep) if keep is not None else -1
        self.reference.setCurrentIndex(max(at, 0) if self.reference.count() else -1)
        self.reference.blockSignals(False)

    def _fill_ops(self) -> None:
        text = self.op.currentText()
        self.op.blockSignals(True)
        self.op.clear()
        rank = self.reference.currentData()
        for name, where in operators(self.report, rank) if rank is not None else []:
            self.op.addItem(name)
            self.op.setItemData(self.op.count() - 1, where, Qt.ItemDataRole.ToolTipRole)
        self.op.setEditText(text or (self.op.itemText(0) if self.op.count() else ""))
        self.op.blockSignals(False)

    def _ranks_changed(self) -> None:
        self._fill_reference(self.reference.currentData())
        self._fill_ops()
        self._update()

    def _reference_changed(self) -> None:
        self._fill_ops()
        self._update()

    def problem(self) -> str:
        """Why OK cannot be pressed yet ('' when it can)."""
        if len(self.ticked()) < 2:
            return self.tr("Tick at least two ranks to align.")
        if self.on_step.isChecked() and self.step.currentData() is None:
            return self.tr("This cluster records no step numbers: align on a communication operator.")
        if self.on_op.isChecked() and not self.op.currentText().strip():
            return self.tr("Name the communication operator to align on (as the timeline shows it).")
        return ""

    def _update(self) -> None:
        self.step.setEnabled(self.on_step.isChecked())
        self.op.setEnabled(self.on_op.isChecked())
        self.occurrence.setEnabled(self.on_op.isChecked())
        problem = self.problem()
        self.note.setText(problem)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setEnabled(not problem)

    def choice(self) -> tuple[list[int], align.Alignment]:
        """The ranks, the reference first, and what to align on."""
        reference = int(self.reference.currentData())
        ranks = [reference, *(r for r in self.ticked() if r != reference)]
        if self.on_step.isChecked():
            return ranks, align.Alignment.step_start(int(self.step.currentData()))
        return ranks, align.Alignment.op_start(self.op.currentText(), self.occurrence.value())

    def accept(self) -> None:
        if self.problem():
            return
        ranks, alignment = self.choice()
        folders = [local_folder(self.report, r) for r in ranks]
        open_aligned(self.context, [f for f in folders if f is not None], ranks, alignment)
        super().accept()


def open_align_dialog(
    context: AppContext, parent: QWidget, report: ClusterReport, rank: int | None = None
) -> AlignDialog:
    """The Open Timelines Aligned dialog for ``rank`` (window-modal over ``parent``)."""
    dialog = AlignDialog(context, report, rank, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.open()
    return dialog


# --- the merged, aligned report as a document --------------------------------------------------------------


def aligned_for_view(paths, alignment, progress=None, cancel=None):
    """Work function: the ranks at ``paths`` merged with their timelines aligned, prepared for the document."""
    from workbench.core.profiling import merge
    from workbench.core.profiling import views as report_views
    from workbench.core.tasks import NullProgress, ScaledProgress

    progress = progress or NullProgress()
    merged = merge.merge_reports(paths, progress=ScaledProgress(progress, 0.0, 0.9), cancel=cancel, align=alignment)
    return merged, report_views.prepare(merged, progress, cancel)


def open_aligned(context: AppContext, paths: list[Path], ranks: list[int], alignment: align.Alignment) -> QWidget:
    """Merge ``paths`` (the ranks ``ranks``, the reference first) aligned on ``alignment`` as a task: a
    loading tab at once, the report document in its place when done."""
    from workbench.ui.report.loading import ReportLoadingPage

    common = Path(os.path.commonpath([str(p) for p in paths]))
    ranks_text = ", ".join(str(r) for r in ranks)
    if alignment.on == align.STEP:
        title = QCoreApplication.translate("AlignDialog", "Ranks {0} aligned on step {1}").format(
            ranks_text, alignment.step
        )
    else:
        title = QCoreApplication.translate("AlignDialog", "Ranks {0} aligned on {1}").format(ranks_text, alignment.op)
    task = context.bridge.start(aligned_for_view, paths, alignment, title=title, kind="report")
    page = ReportLoadingPage(common, task)
    page.title.setText(title)
    tooltip = "\n".join(str(p) for p in paths)
    context.add_document(page, title, tooltip)
    _AlignedOpener(context, page, task, title, tooltip)
    return page


def _tabs_of(widget: QWidget) -> QTabWidget | None:
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QTabWidget):
        parent = parent.parentWidget()
    return parent


class _AlignedOpener(QObject):
    """Follows the merge task: feeds the loading page, puts the report document in its tab, or says why not."""

    def __init__(self, context: AppContext, page: Any, task: Any, title: str, tooltip: str) -> None:
        super().__init__(page)
        self.context, self.page, self.title, self.tooltip = context, page, title, tooltip
        task.status_changed.connect(self.status)
        task.progress_changed.connect(page.set_fraction)
        task.succeeded.connect(self.done)
        task.failed.connect(self.failed)
        task.cancelled.connect(self.cancelled)

    def status(self, line: str) -> None:
        self.page.set_status(tr_status(line))

    def _index(self) -> tuple[QTabWidget | None, int]:
        tabs = _tabs_of(self.page)
        return tabs, (tabs.indexOf(self.page) if tabs is not None else -1)

    def done(self, result) -> None:
        from workbench.ui.report.document import ReportDocument

        tabs, index = self._index()
        if tabs is None or index < 0:  # the user closed the loading tab: they do not want it any more
            return
        report, prepared = result
        context = self.context
        doc = ReportDocument(report, context.settings, None, prepared, staged=True, context=context)
        doc.slice_details.connect(lambda title, rows: context.show_properties(title, rows) if rows else None)
        settings = context.settings
        if doc.timeline_view is not None and settings.timeline_color_rule:
            from workbench.core.profiling import timeline_ops

            doc.timeline_view.set_color_rule(
                timeline_ops.ColorRule(settings.timeline_color_a, settings.timeline_color_b)
            )
        current = tabs.currentIndex() == index
        tabs.insertTab(index, doc, self.title)
        tabs.setTabToolTip(index, self.tooltip)
        tabs.removeTab(index + 1)
        if current:
            tabs.setCurrentIndex(index)
        shifted = (report.info.get("alignment") or {}).get("offsets_ns") or []
        lines = report.warnings[: len(shifted)]  # the alignment's lines come first: its event, then each rank
        if lines:
            context.show_status(" · ".join(tr_alignment(line) for line in lines))
        self.page.deleteLater()

    def _drop_page(self) -> None:
        tabs, index = self._index()
        if tabs is not None and index >= 0:
            tabs.removeTab(index)
        self.page.deleteLater()

    def failed(self, message: str, _exc: object) -> None:
        self._drop_page()
        self.context.show_status(message)
        self.context.warn(QCoreApplication.translate("AlignDialog", "Open Timelines Aligned"), message)

    def cancelled(self) -> None:
        self._drop_page()
        self.context.show_status(
            QCoreApplication.translate("AlignDialog", "Opening {0} was cancelled").format(self.title)
        )
