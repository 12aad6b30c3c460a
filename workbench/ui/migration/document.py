"""The Migration Report document: what convert_tf2npu or msFmkTransplt reported on one migration.

Top: the tool, the folders, the brief summary as numbers and a bar chart of the support values.
Tabs: the API table (script, line, module, API, support, advice; sortable; filtered by support;
the failed / unsupported rows first) and the change list (file, lines, operation, message).
Double-clicking a row shows the side-by-side diff below (input file vs migrated file, read
locally), scrolled to that row's line: an API row names a line of the input, a change a line of the
migrated file. "Open Migrated Project" makes the migrated copy a workbench project and opens it.

Opened by the wizard when a run ends (the report, input and output are known), or for a report
folder (File ▸ Open Report…, the explorer: core ``artefacts`` kind ``MIGRATION_REPORT``), read by a
task; the input project is then not known until the user chooses it (Choose Input Folder…).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from workbench.core.migration.diff import DiffError, ProjectFiles, diff_files, project_files
from workbench.core.migration.reports import MigrationReport, read_report_folder
from workbench.ui.bridge import QtTask
from workbench.ui.context import AppContext
from workbench.ui.migration.diff_view import DiffView
from workbench.ui.migration.texts import CATEGORY_ORDER, category_label

CATEGORY_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
ALL = "__all__"
API_COLUMNS = 6
CHART_CATEGORIES = ("supported", "migrated_by_tool", "manual", "analysing", "unsupported", "deprecated", "na")


def load_report(folder: str, *, progress, cancel) -> MigrationReport:
    """Work function: the report folder read; convert_tf2npu's absolute host paths (the input folder
    on the host) cut to project paths."""
    progress.status(f"Reading {folder}")
    rep = read_report_folder(folder)
    files = {c.file for c in rep.changes} | {a.file for a in rep.apis}
    absolute = [f for f in files if f.startswith("/")]
    if absolute and len(absolute) == len(files):
        root = os.path.commonpath([os.path.dirname(f) for f in absolute])
        rep = read_report_folder(folder, (root,))
    return rep


class _FilterProxy(QSortFilterProxyModel):
    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.category = ALL
        self.setSortRole(SORT_ROLE)

    def set_category(self, category: str) -> None:
        self.beginFilterChange()
        self.category = category
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent) -> bool:  # noqa: N802 - Qt's name
        if self.category == ALL:
            return True
        item = self.sourceModel().index(source_row, 4, source_parent)
        return item.data(CATEGORY_ROLE) == self.category


def _item(text: str, sort: object | None = None) -> QStandardItem:
    item = QStandardItem(text)
    item.setEditable(False)
    item.setData(sort if sort is not None else text, SORT_ROLE)
    return item


class MigrationReportDocument(QWidget):
    def __init__(
        self,
        context: AppContext,
        folder: str | Path,
        report: MigrationReport | None = None,
        *,
        input_dir: str | Path | None = None,
        output_dir: str | Path | None = None,
        open_project: Callable[[str], object] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("migrationReportDocument")
        self.context = context
        self.path = Path(folder)
        self.report: MigrationReport | None = None
        self.files = ProjectFiles(Path(input_dir) if input_dir else None, Path(output_dir) if output_dir else None)
        self._open_project = open_project
        self.task: QtTask | None = None
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        self.body = QWidget(self)
        layout.addWidget(self.body, 1)
        if report is not None:
            self.build(report)
        else:
            self.status.setText(self.tr("Reading {0}…").format(self.path))

    def start(self) -> None:
        if self.report is not None:
            return
        self.task = self.context.bridge.start(
            load_report,
            str(self.path),
            title=self.tr("Read migration report {0}").format(self.path.name),
            kind="report",
            announce=False,
        )
        self.task.succeeded.connect(self.build)
        self.task.failed.connect(self._failed)

    def _failed(self, message: str, _exc: object) -> None:
        self.status.setText(message)
        self.context.warn(self.tr("Migration Report"), message)

    # --- building -------------------------------------------------------------------------------
    def build(self, report: MigrationReport) -> None:
        self.report = report
        if self.files.output_dir is None:
            self.files = project_files(report.folder, report.tool, self.files.input_dir)
        self.status.setText(self._header())
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(self._summary(report), 0)
        self.chart = self._chart(report)
        top.addWidget(self.chart, 1)
        body.addLayout(top)

        buttons = QHBoxLayout()
        self.open_project_button = QPushButton(self.tr("Open Migrated Project"), self.body)
        self.open_project_button.setEnabled(self.files.output_dir is not None)
        self.open_project_button.clicked.connect(lambda: self.open_migrated_project())
        self.choose_input_button = QPushButton(self.tr("Choose Input Folder…"), self.body)
        self.choose_input_button.setToolTip(self.tr("The GPU project the report is about, for the diff"))
        self.choose_input_button.clicked.connect(lambda: self.choose_input())
        buttons.addWidget(self.open_project_button)
        buttons.addWidget(self.choose_input_button)
        buttons.addStretch(1)
        body.addLayout(buttons)

        self.splitter = QSplitter(Qt.Orientation.Vertical, self.body)
        self.tabs = QTabWidget(self.splitter)
        self.tabs.addTab(self._api_tab(report), self.tr("APIs ({0})").format(len(report.apis)))
        self.tabs.addTab(self._changes_tab(report), self.tr("Changes ({0})").format(len(report.changes)))
        notes = report.manual_notes + report.log_errors + report.warnings
        if notes:
            from PySide6.QtWidgets import QPlainTextEdit

            text = QPlainTextEdit(self.tabs)
            text.setReadOnly(True)
            text.setPlainText("\n".join(notes))
            self.tabs.addTab(text, self.tr("Notes ({0})").format(len(notes)))
        self.diff_view = DiffView(self.splitter)
        self.splitter.addWidget(self.tabs)
        self.splitter.addWidget(self.diff_view)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        body.addWidget(self.splitter, 1)

    def _header(self) -> str:
        assert self.report is not None
        rep = self.report
        lines = [self.tr("{0} report: {1}").format(rep.tool, rep.folder)]
        if self.files.input_dir is not None:
            lines.append(self.tr("Input project: {0}").format(self.files.input_dir))
        if self.files.output_dir is not None:
            lines.append(self.tr("Migrated project: {0}").format(self.files.output_dir))
        if rep.log_status == "fail":
            lines.append(self.tr("The tool's log says the migration failed."))
        return "\n".join(lines)

    def _summary(self, rep: MigrationReport) -> QWidget:
        box = QWidget(self.body)
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(2)
        counts = rep.counts()
        brief = rep.brief.get("in_brief", {})
        rows = [
            (self.tr("Files"), counts["files"]),
            (self.tr("Changes"), counts["changes"]),
            (self.tr("APIs analysed"), brief.get("total", counts["apis"])),
        ]
        for cat in CATEGORY_ORDER:
            n = brief.get(cat, counts.get(cat, 0)) if cat in CHART_CATEGORIES else counts.get(cat, 0)
            if n:
                rows.append((category_label(cat), n))
        if "unique" in rep.brief and "total" in rep.brief["unique"]:
            rows.append((self.tr("APIs without duplicates"), rep.brief["unique"]["total"]))
        self.summary_values: dict[str, int] = {}
        for r, (name, value) in enumerate(rows):
            label = QLabel(name, box)
            number = QLabel(f"{value:,}", box)
            number.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(label, r, 0)
            grid.addWidget(number, r, 1)
            self.summary_values[name] = int(value)
        grid.setRowStretch(len(rows), 1)
        return box

    def chart_values(self, rep: MigrationReport) -> list[tuple[str, int]]:
        """(category, count) of the bar chart: the brief's counts where the tool wrote one, else the rows'."""
        brief = rep.brief.get("in_brief", {})
        counts = rep.counts()
        cats = [c for c in CATEGORY_ORDER if (brief.get(c) if c in brief else counts.get(c, 0))]
        return [(c, int(brief.get(c, counts.get(c, 0)))) for c in cats]

    def _chart(self, rep: MigrationReport) -> QWidget:
        import pyqtgraph as pg

        values = self.chart_values(rep)
        plot = pg.PlotWidget(self.body)
        plot.setObjectName("migrationSupportChart")
        plot.setBackground("w")
        plot.setMinimumHeight(130)
        plot.setMaximumHeight(190)
        plot.setMouseEnabled(x=False, y=False)
        plot.hideButtons()
        plot.setMenuEnabled(False)
        colours = {"unsupported": "#d62728", "deprecated": "#8c564b", "manual": "#ff7f0e", "supported": "#2ca02c"}
        if values:
            # horizontal bars, the first category on top: the support names fit on the left axis
            bars = pg.BarGraphItem(
                x0=0,
                y=[-i for i in range(len(values))],
                height=0.6,
                width=[n for _c, n in values],
                brushes=[pg.mkBrush(colours.get(c, "#1f77b4")) for c, _n in values],
            )
            plot.addItem(bars)
        plot.setYRange(-max(len(values), 3) + 0.5, 0.5, padding=0.05)
        plot.getAxis("left").setTicks([[(-i, category_label(c)) for i, (c, _n) in enumerate(values)]])
        plot.setLabel("bottom", self.tr("APIs"))
        plot.setTitle(self.tr("Support of the APIs"), color="#333")
        self.chart_bars = values
        return plot

    def _table(self, headers: list[str], name: str) -> tuple[QTableView, QStandardItemModel, _FilterProxy]:
        model = QStandardItemModel(0, len(headers), self)
        model.setHorizontalHeaderLabels(headers)
        proxy = _FilterProxy(self)
        proxy.setSourceModel(model)
        view = QTableView(self)
        view.setObjectName(name)
        view.setModel(proxy)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.verticalHeader().setVisible(False)
        view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        view.setSortingEnabled(True)
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        view.horizontalHeader().setStretchLastSection(True)
        return view, model, proxy

    def _api_tab(self, rep: MigrationReport) -> QWidget:
        tab = QWidget(self)
        headers = [
            self.tr("Script"),
            self.tr("Line"),
            self.tr("Module"),
            self.tr("API"),
            self.tr("Support"),
            self.tr("Advice"),
        ]
        self.api_view, self.api_model, self.api_proxy = self._table(headers, "migrationApiTable")
        rank = {c: i for i, c in enumerate(CATEGORY_ORDER)}
        self.api_rows = sorted(rep.apis, key=lambda a: (rank.get(a.category, len(rank)), a.file, a.line))
        for a in self.api_rows:
            support = _item(a.support or category_label(a.category), (rank.get(a.category, len(rank)), a.support))
            support.setData(a.category, CATEGORY_ROLE)
            support.setToolTip(category_label(a.category))
            self.api_model.appendRow(
                [_item(a.file), _item(str(a.line), a.line), _item(a.module), _item(a.api), support, _item(a.advice)]
            )
        self.api_view.doubleClicked.connect(self._api_activated)
        self.filter = QComboBox(tab)
        self.filter.setObjectName("migrationSupportFilter")
        self.filter.addItem(self.tr("All ({0})").format(len(rep.apis)), ALL)
        present: dict[str, int] = {}
        for a in rep.apis:
            present[a.category] = present.get(a.category, 0) + 1
        for cat in sorted(present, key=lambda c: rank.get(c, len(rank))):
            self.filter.addItem(f"{category_label(cat)} ({present[cat]})", cat)
        self.filter.currentIndexChanged.connect(lambda _i: self.api_proxy.set_category(self.filter.currentData()))
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Support:"), tab))
        bar.addWidget(self.filter)
        bar.addStretch(1)
        layout = QVBoxLayout(tab)
        layout.addLayout(bar)
        layout.addWidget(self.api_view, 1)
        self.api_view.resizeColumnsToContents()
        return tab

    def _changes_tab(self, rep: MigrationReport) -> QWidget:
        headers = [self.tr("File"), self.tr("Line"), self.tr("End line"), self.tr("Operation"), self.tr("Message")]
        self.change_view, self.change_model, self.change_proxy = self._table(headers, "migrationChangeTable")
        self.change_rows = list(rep.changes)
        for c in self.change_rows:
            self.change_model.appendRow(
                [
                    _item(c.file),
                    _item(str(c.line), c.line),
                    _item(str(c.end_line), c.end_line),
                    _item(c.kind),
                    _item(c.text),
                ]
            )
        self.change_view.doubleClicked.connect(self._change_activated)
        self.change_view.resizeColumnsToContents()
        return self.change_view

    # --- the diff -------------------------------------------------------------------------------
    def _source_row(self, proxy: QSortFilterProxyModel, index) -> int:
        return proxy.mapToSource(index).row()

    def _api_activated(self, index) -> None:
        a = self.api_rows[self._source_row(self.api_proxy, index)]
        self.show_diff(a.file, a.line, "left", f"{a.file}:{a.line}  {a.api}")

    def _change_activated(self, index) -> None:
        c = self.change_rows[self._source_row(self.change_proxy, index)]
        self.show_diff(c.file, c.line, "right", f"{c.file}:{c.line}  {c.text}")

    def show_diff(self, file: str, line: int, side: str, title: str) -> None:
        left, right = self.files.pair(file)
        if left is None:
            left = Path(self.tr("(input folder not known: Choose Input Folder…)")) / file
        if right is None:
            right = Path(self.tr("(migrated project not found)")) / file
        try:
            diff = diff_files(left, right)
        except DiffError as exc:
            self.diff_view.title.setText(str(exc))
            return
        sizes = self.splitter.sizes()
        if sum(sizes) and sizes[1] < sum(sizes) * 0.55:  # the diff gets the room once there is one to show
            self.splitter.setSizes([sum(sizes) * 2 // 5, sum(sizes) - sum(sizes) * 2 // 5])
        where = self.tr("input line {0}").format(line) if side == "left" else self.tr("migrated line {0}").format(line)
        self.diff_view.show_diff(diff, f"{title}  ({where})", line, side)

    def choose_input(self) -> None:
        dialog = QFileDialog(self, self.tr("Choose the GPU project folder"), str(self.files.input_dir or self.path))
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        if dialog.exec() and dialog.selectedFiles():
            self.files = ProjectFiles(Path(dialog.selectedFiles()[0]), self.files.output_dir)
            self.status.setText(self._header())

    def open_migrated_project(self) -> None:
        """Make the migrated copy a workbench project (if it is not one) and open it."""
        from workbench.core import project as core_project

        out = self.files.output_dir
        if out is None:
            return
        if not (out / core_project.PROJECT_DIR / core_project.PROJECT_FILE).exists():
            try:
                core_project.create_project(out, name=out.name, ptype=core_project.TRAINING)
            except core_project.ProjectError as exc:
                self.context.warn(self.tr("Open Migrated Project"), str(exc))
                return
        if self._open_project is not None:
            self._open_project(str(out))
        else:
            self.context.show_status(self.tr("Created the project {0}: open it with File ▸ Open Project").format(out))


def open_migration_report(
    context: AppContext,
    folder: str | Path,
    report: MigrationReport | None = None,
    *,
    input_dir: str | Path | None = None,
    output_dir: str | Path | None = None,
    parent: QWidget | None = None,
) -> MigrationReportDocument:
    """Open a migration report as a document tab (read by a task unless ``report`` is given).
    The context's ``open_project(folder)`` opens the migrated project (``parent`` is not used: the document
    becomes a tab of the context's window)."""
    folder = Path(folder).expanduser().absolute()
    doc = MigrationReportDocument(
        context, folder, report, input_dir=input_dir, output_dir=output_dir, open_project=context.open_project
    )
    title = QCoreApplication.translate("MigrationReportDocument", "Migration {0}").format(
        (Path(output_dir).name if output_dir else "") or folder.name
    )
    context.add_document(doc, title, str(folder))
    doc.start()
    return doc
