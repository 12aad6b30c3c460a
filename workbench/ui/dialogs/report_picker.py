"""The report picker: a folder searched for reports (File ▸ Open Report Folder…, a dropped folder,
``--open``) holds several. It lists them — kind, devices, ranks, size, collection time — and opens
one (or each selected one in its own tab), several as one merged report, or the ranks of one job
"as a cluster" (the ranks as one merged report); a folder of one job's ranks is also offered to
"Analyse as Cluster" (the Cluster document of the job's folder)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.profiling.discover import Discovery, FoundReport, ranks_of_one_job
from workbench.ui.context import AppContext

OPEN, MERGE, CLUSTER, ANALYSE = "open", "merge", "cluster", "analyse"
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
PATH_ROLE = Qt.ItemDataRole.UserRole + 2


def job_ranks(reports: Sequence[FoundReport]) -> list[FoundReport]:
    """The biggest group of ``reports`` that are the ranks of one job (side by side in one folder),
    or none."""
    groups: dict[tuple[str, str], list[FoundReport]] = {}
    for report in reports:
        groups.setdefault((str(report.path.parent), report.kind), []).append(report)
    jobs = [group for group in groups.values() if ranks_of_one_job(group)]
    return max(jobs, key=len) if jobs else []


def kind_label(kind: str) -> str:
    """What a report of detect's layout ``kind`` is called in the picker (translated)."""
    labels = {
        "msprof": QCoreApplication.translate("ReportPicker", "msprof (CANN 7/8)"),
        "msprof-legacy": QCoreApplication.translate("ReportPicker", "msprof (CANN 5/6)"),
        "torch_npu": QCoreApplication.translate("ReportPicker", "torch_npu / MindSpore"),
        "cluster": QCoreApplication.translate("ReportPicker", "Cluster analysis (msprof-analyze)"),
        "timeline": QCoreApplication.translate("ReportPicker", "Timeline JSON"),
        "workbench": QCoreApplication.translate("ReportPicker", "Saved report"),
    }
    return labels.get(kind, kind)


def id_ranges(ids: Sequence[int]) -> str:
    """``(0, 1, 2, 3, 6)`` -> ``0–3, 6``; empty -> ``—``."""
    if not ids:
        return "—"
    parts: list[str] = []
    start = prev = ids[0]
    for n in [*ids[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}–{prev}" if prev > start + 1 else f"{start}, {prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


def size_text(size: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if size >= scale:
            return f"{size / scale:,.1f} {unit}"
    return f"{size} B"


class _Item(QTreeWidgetItem):
    """A row that sorts by the value behind each cell (bytes, seconds), not its text."""

    def __lt__(self, other: QTreeWidgetItem) -> bool:
        column = self.treeWidget().sortColumn() if self.treeWidget() is not None else 0
        mine, theirs = self.data(column, SORT_ROLE), other.data(column, SORT_ROLE)
        if mine is None or theirs is None:
            return self.text(column) < other.text(column)
        return mine < theirs


class ReportPickerDialog(QDialog):
    """``chosen(mode, paths)`` when the user picks: mode is :data:`OPEN` (each path in its own tab),
    :data:`MERGE` (the paths as one merged report), :data:`CLUSTER` (ranks of one job) or
    :data:`ANALYSE` (the one path is the job's folder, for the Cluster document)."""

    chosen = Signal(str, object)  # mode, list[Path]

    COLUMNS = ("Report", "Kind", "Devices", "Ranks", "Size", "Collected")

    def __init__(self, context: AppContext, discovery: Discovery, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.discovery = discovery
        self.setObjectName("ReportPickerDialog")
        self.setWindowTitle(self.tr("Open Report — {0}").format(discovery.root.name or str(discovery.root)))
        self.header = QLabel(
            self.tr("{0} reports in {1}. Select one or more (Ctrl+click, Shift+click).").format(
                len(discovery.reports), discovery.root
            ),
            self,
        )
        self.header.setWordWrap(True)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        notes = []
        if discovery.truncated:
            notes.append(
                self.tr("The search stopped after {0} folders: reports further down may be missing.").format(
                    discovery.folders
                )
            )
        if discovery.skipped:
            notes.append(
                self.tr("{0} folders looked like reports but could not be read.").format(len(discovery.skipped))
            )
            self.note.setToolTip("\n".join(discovery.skipped[:20]))
        self.note.setText(" ".join(notes))
        self.note.setVisible(bool(notes))

        self.tree = QTreeWidget(self)
        self.tree.setObjectName("ReportList")
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setHeaderLabels(
            [
                self.tr("Report"),
                self.tr("Kind"),
                self.tr("Devices"),
                self.tr("Ranks"),
                self.tr("Size"),
                self.tr("Collected"),
            ]
        )
        for report in discovery.reports:
            self.tree.addTopLevelItem(self._row(report))
        head = self.tree.header()
        head.setStretchLastSection(False)
        metrics = self.tree.fontMetrics()
        header = self.tree.headerItem()
        wanted = 0
        for column in range(len(self.COLUMNS)):
            texts = [header.text(column)] + [item.text(column) for item in self.items()]
            wanted += max(metrics.horizontalAdvance(text) for text in texts) + 24
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(self.COLUMNS)):
            head.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setSortingEnabled(True)
        self.tree.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        self.tree.itemDoubleClicked.connect(lambda item, _column: self._pick(OPEN, [item.data(0, PATH_ROLE)]))

        self.buttons = QDialogButtonBox(self)
        self.open_button = QPushButton(self.tr("Open"), self)
        self.open_button.setToolTip(self.tr("Open each selected report in its own tab"))
        self.merge_button = QPushButton(self.tr("Open as One Report"), self)
        self.merge_button.setToolTip(
            self.tr("Merge the selected reports into one: tables per device, statistics recomputed, timelines combined")
        )
        self.cluster_button = QPushButton(self.tr("Open Ranks Together"), self)
        self.buttons.addButton(self.open_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.merge_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.cluster_button, QDialogButtonBox.ButtonRole.ActionRole)
        # a folder of one job's ranks: its cluster analysis (the Cluster document)
        job = job_ranks(discovery.reports)
        self.job_folder = job[0].path.parent if job else None
        self.analyse_button = QPushButton(self.tr("Analyse as Cluster"), self)
        self.analyse_button.setToolTip(
            self.tr("Analyse the ranks of {0} as one cluster: slow ranks and links, communication, matrix").format(
                self.job_folder
            )
        )
        self.analyse_button.setVisible(self.job_folder is not None)
        self.buttons.addButton(self.analyse_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.open_button.setDefault(True)
        self.open_button.clicked.connect(lambda: self._pick(OPEN, self.selected_paths()))
        self.merge_button.clicked.connect(lambda: self._pick(MERGE, self.selected_paths()))
        self.cluster_button.clicked.connect(lambda: self._pick(CLUSTER, self.selected_paths()))
        self.analyse_button.clicked.connect(lambda: self._pick(ANALYSE, [self.job_folder] if self.job_folder else []))
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.note)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.buttons)

        # the ranks of one job are selected, ready for Open Ranks Together; otherwise the first report
        job_paths = {str(r.path) for r in job}
        items = self.items()
        for item in items:
            item.setSelected(str(item.data(0, PATH_ROLE)) in job_paths)
        if items and not job_paths:
            items[0].setSelected(True)
        first = next((item for item in items if item.isSelected()), None)
        if first is not None:
            self.tree.setCurrentItem(first, 0, QItemSelectionModel.SelectionFlag.NoUpdate)
        self._update_buttons()
        room = self.screen().availableGeometry().width() * 9 // 10 if self.screen() is not None else 1280
        if parent is not None:
            room = max(room, parent.window().width() * 9 // 10)
        rows = min(len(discovery.reports), 16) * (metrics.height() + 6)
        self.resize(max(760, min(room, wanted + 60)), max(300, 200 + rows))

    def _row(self, report: FoundReport) -> QTreeWidgetItem:
        when = _dt.datetime.fromtimestamp(report.time).strftime("%Y-%m-%d %H:%M:%S") if report.time else "—"
        item = _Item(
            [
                report.relative_to(self.discovery.root),
                kind_label(report.kind),
                id_ranges(report.devices),
                id_ranges(report.ranks),
                size_text(report.size),
                when,
            ]
        )
        item.setData(0, PATH_ROLE, report.path)
        item.setToolTip(0, str(report.path))
        item.setData(2, SORT_ROLE, report.devices)
        item.setData(3, SORT_ROLE, report.ranks)
        item.setData(4, SORT_ROLE, report.size)
        item.setData(5, SORT_ROLE, report.time)
        for column in (2, 3, 4):
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return item

    def items(self) -> list[QTreeWidgetItem]:
        """The list's rows, in their (sorted) order."""
        rows = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [item for item in rows if item is not None]

    def selected_reports(self) -> list[FoundReport]:
        paths = {str(p) for p in self.selected_paths()}
        return [r for r in self.discovery.reports if str(r.path) in paths]

    def selected_paths(self) -> list[Path]:
        """The selected reports' paths, in the list's order."""
        return [Path(item.data(0, PATH_ROLE)) for item in self.items() if item.isSelected()]

    def _update_buttons(self) -> None:
        selected = self.selected_reports()
        self.open_button.setEnabled(bool(selected))
        self.merge_button.setEnabled(len(selected) >= 2)
        cluster = ranks_of_one_job(selected)
        self.cluster_button.setEnabled(cluster)
        self.cluster_button.setToolTip(
            self.tr("Open the selected ranks of one job together as one merged report")
            if cluster
            else self.tr(
                "Select two or more ranks of one job: reports side by side in one folder, each of its own rank"
            )
        )

    def _pick(self, mode: str, paths: list[Path]) -> None:
        if not paths:
            return
        self.accept()
        self.chosen.emit(mode, list(paths))


def open_report_picker(context: AppContext, parent: QWidget | None, discovery: Discovery) -> ReportPickerDialog:
    """Show the picker for a searched folder (window-modal, not blocking); connect to ``chosen``."""
    dialog = ReportPickerDialog(context, discovery, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
