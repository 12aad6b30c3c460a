"""The dump data view: a dump folder (timestamp / device / model / model id / iteration) as a tree of
ops and their tensors, read without CANN. A tensor opens with its statistics and a histogram and
exports to .npy or .txt; "Convert to .npy…" converts the whole folder as msaccucmp's convert does.

Reading headers, decoding big tensors, exports and conversion run as tasks; a tensor of at most
``SYNC_BYTES`` is summarised at once so clicking through small ops feels immediate.
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.dump import browse
from workbench.core.dump.convert import convert_paths
from workbench.core.dump.dtypes import DataTypeError
from workbench.core.dump.dumpfile import DumpFileError
from workbench.ui.context import AppContext
from workbench.ui.elided import ElidedLabel

SYNC_BYTES = 8 << 20
TENSOR_ROLE = Qt.ItemDataRole.UserRole
LEVEL_LABELS = (  # browse.LEVELS, marked for translation
    QT_TRANSLATE_NOOP("DumpDataView", "Iteration"),
    QT_TRANSLATE_NOOP("DumpDataView", "Model ID"),
    QT_TRANSLATE_NOOP("DumpDataView", "Model"),
    QT_TRANSLATE_NOOP("DumpDataView", "Device"),
    QT_TRANSLATE_NOOP("DumpDataView", "Timestamp"),
)
STAT_ORDER = ("dtype", "shape", "count", "min", "max", "mean", "std", "zeros", "nan", "pos_inf", "neg_inf")


def _stat_label(key: str) -> str:
    return {
        "dtype": QCoreApplication.translate("DumpDataView", "Data type"),
        "shape": QCoreApplication.translate("DumpDataView", "Shape"),
        "count": QCoreApplication.translate("DumpDataView", "Elements"),
        "min": QCoreApplication.translate("DumpDataView", "Min"),
        "max": QCoreApplication.translate("DumpDataView", "Max"),
        "mean": QCoreApplication.translate("DumpDataView", "Mean"),
        "std": QCoreApplication.translate("DumpDataView", "Std deviation"),
        "zeros": QCoreApplication.translate("DumpDataView", "Zeros"),
        "nan": QCoreApplication.translate("DumpDataView", "NaN"),
        "pos_inf": QCoreApplication.translate("DumpDataView", "+Inf"),
        "neg_inf": QCoreApplication.translate("DumpDataView", "-Inf"),
    }.get(key, key)


def _shape(shape) -> str:
    return "[" + ",".join(map(str, shape)) + "]"


class DumpDataView(QWidget):
    def __init__(self, context: AppContext, path: str | Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.path = Path(path)
        self.scan: browse.DumpScan | None = None
        self.current: tuple[str, str, int] | None = None  # (file, kind, index)
        self.summary: browse.TensorSummary | None = None
        self.task = None
        self.title = ElidedLabel("", self)  # a long path never widens the window
        self.convert_button = QPushButton(self.tr("Convert to .npy…"), self)
        self.convert_button.setToolTip(self.tr("Convert every dump file below this folder to .npy files"))
        self.convert_button.clicked.connect(self.convert_dialog)
        if browse.is_npy(self.path):  # already an array: nothing to convert
            self.convert_button.setToolTip(self.tr("A .npy file is already a NumPy array"))
        self.reload_button = QPushButton(self.tr("Reload"), self)
        self.reload_button.clicked.connect(self.reload)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.reload_button)
        top.addWidget(self.convert_button)

        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels([self.tr("Op / tensor"), self.tr("Type"), self.tr("Shape"), self.tr("Format")])
        self.tree.setUniformRowHeights(True)
        self.tree.setIndentation(14)
        self.tree.currentItemChanged.connect(self._current_changed)

        self.heading = QLabel(self.tr("Select a tensor to see its statistics."), self)
        self.heading.setWordWrap(True)
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stats = QTableWidget(0, 2, self)
        self.stats.setHorizontalHeaderLabels([self.tr("Statistic"), self.tr("Value")])
        self.stats.verticalHeader().hide()
        self.stats.verticalHeader().setDefaultSectionSize(22)
        self.stats.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.stats.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.plot = pg.PlotWidget(self)
        self.plot.setBackground(None)
        self.plot.setLabel("bottom", self.tr("Value"))
        self.plot.setLabel("left", self.tr("Count"))
        self.plot.setMinimumHeight(180)
        self.npy_button = QPushButton(self.tr("Export .npy…"), self)
        self.npy_button.clicked.connect(self.export_npy_dialog)
        self.txt_button = QPushButton(self.tr("Export .txt…"), self)
        self.txt_button.clicked.connect(self.export_txt_dialog)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        exports = QHBoxLayout()
        exports.addWidget(self.npy_button)
        exports.addWidget(self.txt_button)
        exports.addStretch(1)
        right = QWidget(self)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.heading)
        rl.addWidget(self.stats, 2)
        rl.addWidget(self.plot, 3)
        rl.addLayout(exports)
        rl.addWidget(self.status)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.tree)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.split = split
        self._sized = False
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(split, 1)
        self._set_tensor_actions(False)
        self.convert_button.setEnabled(not browse.is_npy(self.path))
        self.reload()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if not self._sized:  # the first time: 60 % for the tree (size hints would favour the long labels)
            self._sized = True
            total = max(self.split.width(), 600)
            self.split.setSizes([total * 3 // 5, total - total * 3 // 5])

    # ----- the tree
    def reload(self) -> None:
        self.title.setText(self.tr("Reading {0}…").format(self.path))
        self.reload_button.setEnabled(False)
        task = self.context.bridge.start(
            browse.scan_dump_folder, str(self.path), title=self.tr("Read dump {0}").format(self.path.name), kind="dump"
        )
        task.succeeded.connect(self._scanned)
        task.failed.connect(self._failed)
        task.finished.connect(self._scan_done)

    def _scan_done(self) -> None:
        self.reload_button.setEnabled(True)

    def _scanned(self, scan: browse.DumpScan) -> None:
        self.scan = scan
        self.tree.clear()
        folders: dict[tuple[str, ...], QTreeWidgetItem] = {}

        def folder_item(parts: tuple[str, ...]) -> QTreeWidgetItem | None:
            """One node per folder holding dump files, its levels joined (compact for deep layouts)."""
            if not parts:
                return None
            if parts not in folders:
                levels = [scan.level_name(len(parts) - 1 - i) for i in range(len(parts))]
                names = [QCoreApplication.translate("DumpDataView", lv) if lv else "" for lv in levels]
                label = " / ".join(parts)
                if any(names):
                    label += "  (" + " / ".join(n for n in names if n) + ")"
                item = QTreeWidgetItem([label, "", "", ""])
                item.setToolTip(0, "\n".join(f"{n}: {p}" if n else p for n, p in zip(names, parts)))
                self.tree.addTopLevelItem(item)
                item.setFirstColumnSpanned(True)
                folders[parts] = item
            return folders[parts]

        for e in scan.entries:
            parent = folder_item(e.folder)
            if e.npy:
                what = self.tr("(damaged)") if e.error else self.tr("NumPy array")
            else:
                what = e.op_type or self.tr("(damaged)")
            op = QTreeWidgetItem([e.op_name, what, "", ""])
            op.setToolTip(0, str(e.path))
            if e.error:
                op.setToolTip(0, e.error)
                op.setForeground(0, pg.mkColor("#c0392b"))
            for t in e.tensors:
                child = QTreeWidgetItem(
                    [
                        f"{t.kind} {t.index}",
                        t.dtype.removeprefix("DT_"),
                        _shape(t.shape),
                        t.format.removeprefix("FORMAT_"),
                    ]
                )
                child.setData(0, TENSOR_ROLE, (str(e.path), t.kind, t.index, t.size))
                op.addChild(child)
            (parent.addChild(op) if parent else self.tree.addTopLevelItem(op))
        self.tree.expandToDepth(0)
        for col, cap in ((0, 360), (1, 220)):  # collapsed tensors do not count: fixed widths for the rest
            self.tree.resizeColumnToContents(col)
            self.tree.setColumnWidth(col, min(self.tree.columnWidth(col), cap))
        self.tree.setColumnWidth(2, 130)
        errors = scan.errors
        if len(scan.entries) == 1 and scan.entries[0].npy:  # one .npy: its array, or why it cannot be read
            entry = scan.entries[0]
            if entry.error:  # the whole reason, word-wrapped below (the title elides)
                self.title.setText(self.tr("{0}: not a readable .npy file").format(self.path))
                self.status.setText(entry.error)
            else:
                self.title.setText(self.tr("{0}: NumPy array").format(self.path))
        else:
            text = self.tr("{0}: {1} dump files").format(self.path, len(scan.entries))
            if errors:
                text += " — " + self.tr("{0} damaged (hover them for the reason)").format(len(errors))
            self.title.setText(text)
        tensors = self._tensor_items()
        if len(tensors) == 1 and self.tree.currentItem() is None:  # one tensor (a .npy): show it at once
            self.tree.setCurrentItem(tensors[0])

    def _failed(self, message: str, _exc: object) -> None:
        self.title.setText(message)

    def select_tensor(self, file: str, kind: str, index: int) -> bool:
        """Make a tensor current (tests and the accuracy table use it)."""
        for item in self._tensor_items():
            f, k, i, _size = item.data(0, TENSOR_ROLE)
            if (Path(f), k, i) == (Path(file), kind, index):
                self.tree.setCurrentItem(item)
                return True
        return False

    def _tensor_items(self) -> list[QTreeWidgetItem]:
        out, stack = [], [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            item = stack.pop()
            if item.data(0, TENSOR_ROLE):
                out.append(item)
            stack += [item.child(i) for i in range(item.childCount())]
        return out

    # ----- one tensor
    def _current_changed(self, item: QTreeWidgetItem | None, _prev) -> None:
        data = item.data(0, TENSOR_ROLE) if item is not None else None
        if not data:
            return
        file, kind, index, size = data
        self.current = (file, kind, index)
        self.heading.setText(self.tr("{0} — {1} {2}").format(Path(file).name, kind, index))
        self.status.clear()
        if size <= SYNC_BYTES:
            try:
                self._show_summary(browse.summarise_tensor(file, kind, index))
            except (DumpFileError, DataTypeError, ValueError, OSError) as err:
                self._summary_failed(str(err), err)
            return
        self.heading.setText(self.heading.text() + " " + self.tr("(reading…)"))
        task = self.context.bridge.start(
            browse.summarise_tensor,
            file,
            kind,
            index,
            title=self.tr("Statistics of {0}").format(Path(file).name),
            kind="dump",
        )
        task.succeeded.connect(self._show_summary)
        task.failed.connect(self._summary_failed)

    def _show_summary(self, summary: browse.TensorSummary) -> None:
        self.summary = summary
        if self.current:
            self.heading.setText(self.tr("{0} — {1} {2}").format(Path(self.current[0]).name, *self.current[1:]))
        keys = [k for k in STAT_ORDER if k in summary.stats]
        self.stats.setRowCount(len(keys))
        for row, key in enumerate(keys):
            value = summary.stats[key]
            text = f"{value:.6g}" if isinstance(value, float) else str(value)
            self.stats.setItem(row, 0, QTableWidgetItem(_stat_label(key)))
            self.stats.setItem(row, 1, QTableWidgetItem(text))
        self.stats.resizeColumnToContents(0)
        self.plot.clear()
        if summary.counts.size:
            edges = summary.edges
            width = float(edges[1] - edges[0]) if edges.size > 1 else 1.0
            self.plot.addItem(
                pg.BarGraphItem(
                    x=(edges[:-1] + edges[1:]) / 2,
                    height=summary.counts,
                    width=width * 0.95 or 1.0,
                    brush=pg.mkBrush(78, 121, 167, 200),
                )
            )
        self._set_tensor_actions(True)

    def _summary_failed(self, message: str, _exc: object) -> None:
        self.summary = None
        self.stats.setRowCount(0)
        self.plot.clear()
        self.status.setText(message)
        self._set_tensor_actions(False)

    def _set_tensor_actions(self, on: bool) -> None:
        self.npy_button.setEnabled(on)
        self.txt_button.setEnabled(on)

    # ----- exports
    def export_npy_dialog(self) -> None:
        self._export_dialog(".npy", self.tr("NumPy arrays (*.npy)"))

    def export_txt_dialog(self) -> None:
        self._export_dialog(".txt", self.tr("Text (*.txt)"))

    def _export_dialog(self, suffix: str, name_filter: str) -> None:
        if not self.current:
            return
        file, kind, index = self.current
        start = str(Path(file).parent / f"{Path(file).name}.{kind}.{index}{suffix}")
        target, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export Tensor"), start, name_filter, options=QFileDialog.Option.DontUseNativeDialog
        )
        if target:
            self.export(target)

    def export(self, target: str):
        """Write the current tensor to ``target`` (.npy, else text) as a task."""
        file, kind, index = self.current
        task = self.context.bridge.start(
            browse.export_tensor,
            file,
            kind,
            index,
            target,
            title=self.tr("Export {0}").format(Path(target).name),
            kind="dump",
        )
        task.succeeded.connect(self._exported)
        task.failed.connect(self._summary_status)
        return task

    def _exported(self, path) -> None:
        self.status.setText(self.tr("Saved {0}").format(path))

    def _summary_status(self, message: str, _exc: object) -> None:
        self.status.setText(message)

    # ----- conversion
    def convert_dialog(self) -> None:
        start = str(self.path.parent / f"{self.path.name}_npy")
        out = QFileDialog.getExistingDirectory(
            self, self.tr("Convert to .npy: output folder"), start, QFileDialog.Option.DontUseNativeDialog
        )
        if out:
            self.convert(out)

    def convert(self, out_dir: str):
        task = self.context.bridge.start(
            convert_paths,
            [str(self.path)],
            out_dir,
            title=self.tr("Convert {0} to .npy").format(self.path.name),
            kind="dump",
        )
        self.convert_button.setEnabled(False)
        task.succeeded.connect(self._converted)
        task.failed.connect(self._summary_status)
        task.finished.connect(self._convert_done)
        self._convert_out = out_dir
        return task

    def _converted(self, report) -> None:
        text = self.tr("Converted {0} files into {1}: {2} .npy files written").format(
            report.files_ok, self._convert_out, len(report.written)
        )
        if report.errors:
            text += "; " + self.tr("{0} failed (see the Output tab)").format(report.files_failed)
        self.title.setText(text)

    def _convert_done(self) -> None:
        self.convert_button.setEnabled(not browse.is_npy(self.path))


def dump_title(path: str | Path) -> str:
    """The tab title of the dump data at ``path``: the model and iteration where known, else the
    op of a dump file or the folder's name (a numbered folder with its parent's: never "Dump: 0")."""
    p = Path(path)
    if browse.is_npy(p):  # a NumPy array: its file name
        return p.name
    place = browse.describe(p)
    if not p.is_dir():  # a dump file: its op
        return QCoreApplication.translate("DumpDataView", "Dump: {0}").format(place.name)
    if place.model and place.iteration:
        return QCoreApplication.translate("DumpDataView", "Dump: {0}, iteration {1}").format(
            place.model, place.iteration
        )
    name = place.name
    if p.is_dir() and name.isdigit() and p.parent.name:
        name = f"{p.parent.name}/{name}"
    if place.model and place.model != name:
        return QCoreApplication.translate("DumpDataView", "Dump: {0} ({1})").format(name, place.model)
    return QCoreApplication.translate("DumpDataView", "Dump: {0}").format(name)


def open_dump_data(context: AppContext, path: str | Path) -> DumpDataView:
    """Open a dump folder (any level) or one dump file as a document (the explorer calls this)."""
    view = DumpDataView(context, path)
    p = Path(path)
    context.add_document(view, dump_title(p), str(p))
    return view
