"""The project's profiling runs (MindStudio's "Profiling" node): every run with its options and
time; Re-open, Re-run with the same options, Delete (locally, or also on the host when ticked).

``ProfilingRunsPanel`` is a plain widget the main window can put in a dock; ``open_profiling_runs``
shows it in a dialog. It follows the application's project and refreshes when a run finishes.
"""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.profiler import actions
from workbench.core.profiler.history import list_runs
from workbench.core.profiler.options import LOCAL
from workbench.core.profiler.run import COLLECTED, ProfilingRun
from workbench.core.project import ProjectError, open_project
from workbench.ui.context import AppContext
from workbench.ui.hosts.widgets import MessageArea, task_error
from workbench.ui.profiler.common import follow, option_label
from workbench.ui.report.table import FrameTable

translate = QCoreApplication.translate  # under this name pyside6-lupdate finds the strings


def options_summary(options: dict) -> str:
    """The switches a run had on, in a line (translated)."""
    o = options or {}
    parts = []
    if o.get("ai_core", True):
        parts.append(
            translate("ProfilingRuns", "AI Core {0} {1}").format(
                option_label(o.get("aic_mode", "task-based")), o.get("aic_metrics", "")
            )
        )
    parts.append(translate("ProfilingRuns", "task time {0}").format(o.get("task_time", "l1")))
    names = (
        ("ascendcl", translate("ProfilingRuns", "AscendCL")),
        ("runtime_api", translate("ProfilingRuns", "Runtime API")),
        ("os_runtime_api", translate("ProfilingRuns", "OS Runtime API")),
        ("graph_engine", translate("ProfilingRuns", "Graph Engine")),
        ("aicpu", translate("ProfilingRuns", "AI CPU")),
        ("msproftx", translate("ProfilingRuns", "MsprofTX")),
        ("sys_hardware_mem", translate("ProfilingRuns", "DDR")),
        ("hccl", translate("ProfilingRuns", "HCCL")),
    )
    parts += [label for key, label in names if o.get(key)]
    if o.get("host_sys"):
        parts.append(translate("ProfilingRuns", "host {0}").format(", ".join(option_label(v) for v in o["host_sys"])))
    return " · ".join(parts)


def _application(run: ProfilingRun) -> str:
    o = run.options or {}
    if run.kind != COLLECTED:
        return run.remote_dir
    return " ".join([o.get("executable", ""), *o.get("args", [])]).strip()


class ProfilingRunsPanel(QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.setObjectName("ProfilingRunsPanel")
        self.runs: list[ProfilingRun] = []
        self.task = None
        self.title = QLabel(self)
        self.table = FrameTable(self.tr("Profiling runs"), self)
        self.table.view.doubleClicked.connect(self._double_clicked)
        self.table.row_activated.connect(self.show_details)
        self.reopen_button = QPushButton(self.tr("Re-open"), self)
        self.rerun_button = QPushButton(self.tr("Re-run"), self)
        self.rerun_button.setToolTip(self.tr("Profile again with the same options (a new run is added)"))
        self.delete_button = QPushButton(self.tr("Delete"), self)
        self.on_host = QCheckBox(self.tr("Also delete the data on the host"), self)
        self.new_button = QPushButton(self.tr("New Profiling…"), self)
        self.import_button = QPushButton(self.tr("Import Result…"), self)
        self.reopen_button.clicked.connect(self.reopen)
        self.rerun_button.clicked.connect(self.rerun)
        self.delete_button.clicked.connect(self.delete_selected)
        self.new_button.clicked.connect(self._new)
        self.import_button.clicked.connect(self._import)
        self.status = MessageArea(self, lines=2)  # fixed height: the table and buttons never move
        row = QHBoxLayout()
        for w in (self.reopen_button, self.rerun_button, self.delete_button, self.on_host):
            row.addWidget(w)
        row.addStretch(1)
        row.addWidget(self.new_button)
        row.addWidget(self.import_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.status)
        context.events.project_changed.connect(self.refresh)
        context.events.runs_changed.connect(self.refresh)
        self.refresh()

    # --- listing -------------------------------------------------------------------------------------
    def project_root(self) -> str | None:
        project = self.context.project
        return str(project.root) if project is not None else None

    def refresh(self, *_args) -> None:
        root = self.project_root()
        self.runs = []
        if root is None:
            self.title.setText(self.tr("Open a project to see its profiling runs."))
        else:
            try:
                project = open_project(root)  # the file is the truth: runs finish on worker threads
                self.runs = list(reversed(list_runs(project)))  # newest first
                self.title.setText(self.tr("Profiling runs of {0}: {1}").format(project.name, len(self.runs)))
            except ProjectError as exc:
                self.title.setText(str(exc))
        self.table.set_frame(
            self._frame(),
            headers=[
                self.tr("Time"),
                self.tr("Kind"),
                self.tr("Host"),
                self.tr("Application"),
                self.tr("Options"),
                self.tr("CANN"),
                self.tr("Report"),
                self.tr("Run"),
            ],
        )
        self._enable()

    def _frame(self) -> pd.DataFrame:
        kinds = {COLLECTED: self.tr("collected"), "imported": self.tr("imported")}
        rows = [
            {
                "time": r.time[:19].replace("T", " "),
                "kind": kinds.get(r.kind, r.kind),
                "host": self.tr("this machine") if r.host == "local" else r.host,
                "application": _application(r),
                "options": options_summary(r.options) if r.kind == COLLECTED else "",
                "cann": r.cann_version or "",
                "report": r.report_path,
                "id": r.id,
            }
            for r in self.runs
        ]
        columns = ["time", "kind", "host", "application", "options", "cann", "report", "id"]
        return pd.DataFrame(rows, columns=columns)

    def _enable(self) -> None:
        has = bool(self.runs) and self.project_root() is not None
        for b in (self.reopen_button, self.rerun_button, self.delete_button):
            b.setEnabled(has)
        self.new_button.setEnabled(True)

    def selected(self) -> ProfilingRun | None:
        index = self.table.view.currentIndex()
        if not index.isValid():
            return self.runs[0] if len(self.runs) == 1 else None
        row = self.table.model.source_row(index.row())
        return self.runs[row] if 0 <= row < len(self.runs) else None

    def select(self, run_id: str) -> bool:
        """Make ``run_id`` the current row (tests and callers that know the run)."""
        for view_row in range(self.table.model.rowCount()):
            source = self.table.model.source_row(view_row)
            if self.runs[source].id == run_id:
                self.table.view.selectRow(view_row)
                return True
        return False

    def show_details(self, row: int) -> None:
        """The run's whole record (command, folders, every option) in the Properties dock."""
        if not 0 <= row < len(self.runs):
            return
        from workbench.core.profiler.command import command_text

        r = self.runs[row]
        props = [
            (self.tr("Run"), r.id),
            (self.tr("Time"), r.time),
            (self.tr("Host"), r.host),
            (self.tr("CANN"), r.cann_version or ""),
            (self.tr("Toolkit"), r.toolkit),
            (self.tr("Command"), command_text(r.command) if r.command else ""),
            (self.tr("On the host"), r.remote_dir),
            (self.tr("Local folder"), r.local_dir),
            (self.tr("Report"), r.report_path),
        ]
        props += [(f"options.{k}", str(v)) for k, v in (r.options or {}).items()]
        self.context.show_properties(self.tr("Profiling run {0}").format(r.id), props)

    # --- actions -------------------------------------------------------------------------------------
    def _double_clicked(self, _index) -> None:
        self.reopen()

    def _need(self) -> ProfilingRun | None:
        run = self.selected()
        if run is None:
            self.status.setText(self.tr("Select a run first."))
        return run

    def reopen(self) -> None:
        run = self._need()
        if run is None:
            return
        path = run.report(self.context.project.root)
        if not path.exists():
            self.status.setText(self.tr("{0}: the run's data is gone (deleted outside the workbench?)").format(path))
            return
        self.context.open_report(path)

    def rerun(self):
        run = self._need()
        if run is None:
            return None
        if run.kind != COLLECTED:
            self.status.setText(self.tr("An imported result has no options to re-run; import it again instead."))
            return None
        o = run.options or {}
        where = self.tr("this machine") if o.get("run_mode") == LOCAL else run.host
        title = self.tr("Re-run profiling {0} on {1}").format(o.get("executable", ""), where)
        self.task = self.context.bridge.start(
            actions.rerun,
            self.project_root(),
            run.id,
            self.context.prompter,
            self.context.pool,
            title=title,
            kind="profile",
        )
        return follow(self.context, self.task, self.tr("Re-run"))

    def delete_selected(self) -> None:
        run = self._need()
        if run is None:
            return
        on_host = self.on_host.isChecked()
        text = (
            self.tr("Delete run {0} here and its data on {1} ({2})?").format(run.id, run.host, run.remote_dir)
            if on_host
            else self.tr("Delete run {0}? Its local data is removed; the data on the host is kept.").format(run.id)
        )
        answer = QMessageBox.question(
            self,
            self.tr("Delete Profiling Run"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.delete(run.id, on_host)

    def delete(self, run_id: str, on_host: bool = False):
        """Delete ``run_id`` (a task); the list refreshes when it is done."""
        title = self.tr("Delete profiling run {0}").format(run_id)
        self.task = self.context.bridge.start(
            actions.delete,
            self.project_root(),
            run_id,
            on_host,
            self.context.prompter,
            self.context.pool,
            title=title,
            kind="profiler-delete",
        )
        self.task.succeeded.connect(self._deleted)
        self.task.failed.connect(self._delete_failed)
        return self.task

    def _deleted(self, run_id: str) -> None:
        self.status.setText(self.tr("Deleted run {0}.").format(run_id))
        self.context.events.runs_changed.emit()

    def _delete_failed(self, message: str, exc: object) -> None:
        self.status.setText(task_error(message, exc))
        self.context.events.runs_changed.emit()

    def _new(self) -> None:
        from workbench.ui.profiler.wizard import open_new_profiling

        open_new_profiling(self.context, self.window())

    def _import(self) -> None:
        from workbench.ui.profiler.dialogs import open_import_result

        open_import_result(self.context, self.window())


class ProfilingRunsDialog(QDialog):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Profiling Runs"))
        self.panel = ProfilingRunsPanel(context, self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.panel, 1)
        layout.addWidget(buttons)
        self.resize(1000, 420)


def open_profiling_runs(context: AppContext, parent: QWidget) -> ProfilingRunsDialog:
    """Ascend ▸ System Profiler ▸ Profiling Runs…: the project's runs in a (modeless) dialog."""
    dialog = ProfilingRunsDialog(context, parent)
    dialog.show()
    return dialog
