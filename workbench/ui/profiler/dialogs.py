"""System Profiler ▸ Import Result and ▸ Merge Reports (MindStudio: Input directory, Output
directory, Output name). Both run as tasks and open what they produce."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.profiler import actions
from workbench.core.profiler.mergejob import MergeError, merge_inputs, merge_reports_to
from workbench.core.project import PROJECT_DIR
from workbench.ui.context import AppContext
from workbench.ui.hosts.widgets import task_error
from workbench.ui.profiler.common import fill_hosts, follow
from workbench.ui.profiler.pages_setup import _error_label, _row

translate = QCoreApplication.translate  # base-class strings: a fixed context (self.tr would use the subclass)


class _TaskDialog(QDialog):
    """A dialog whose OK starts one task: it stays open (status below) until the task succeeds."""

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.task = None
        self.status = _error_label(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.start)
        self.buttons.rejected.connect(self.reject)

    def _started(self, task, action: str):
        self.task = follow(self.context, task, action, report_failures=False)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
        self.status.setStyleSheet("")
        self.status.setText(translate("ProfilerTaskDialog", "Working… (the Output dock shows the progress)"))
        task.succeeded.connect(self._succeeded)
        task.failed.connect(self._failed)
        task.cancelled.connect(self._cancelled)
        return task

    def _succeeded(self, _result) -> None:
        self.accept()

    def _failed(self, message: str, exc: object) -> None:
        self.status.setStyleSheet("color: #c0392b;")
        self.status.setText(task_error(message, exc))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)

    def _cancelled(self) -> None:
        self.status.setText(translate("ProfilerTaskDialog", "Cancelled."))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)

    def start(self):  # pragma: no cover - overridden
        raise NotImplementedError


def _browse_dir(parent: QWidget, title: str, edit: QLineEdit) -> None:
    folder = QFileDialog.getExistingDirectory(parent, title, edit.text() or str(Path.home()))
    if folder:
        edit.setText(folder)


class ImportResultDialog(_TaskDialog):
    """A PROF_* folder, its parent or a folder of several, on a CANN machine or on this machine."""

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setWindowTitle(self.tr("Import Result"))
        self.on_host = QRadioButton(self.tr("On a CANN machine"), self)
        self.on_local = QRadioButton(self.tr("On this machine"), self)
        self.on_host.setChecked(True)
        self.host = QComboBox(self)
        fill_hosts(self.host)
        self.source = QLineEdit(self)
        self.source.setPlaceholderText(self.tr("a PROF_* folder, its parent, or a folder of several"))
        self.browse = QPushButton(self.tr("Browse…"), self)
        self.browse.clicked.connect(self._browse_source)
        self.results = QLineEdit(self)
        project = context.project
        self.results.setPlaceholderText(
            str(project.root / PROJECT_DIR / "profiling") if project is not None else self.tr("a local folder")
        )
        browse_results = QPushButton(self.tr("Browse…"), self)
        browse_results.clicked.connect(self._browse_results)
        note = QLabel(
            self.tr(
                "Only what the views need is copied (mindstudio_profiler_output, or summary and "
                "timeline, plus the info files); data never exported is exported on the host first. "
                "The import is listed with the project's profiling runs."
            ),
            self,
        )
        note.setWordWrap(True)
        form = QFormLayout()
        radios = _row(self.on_host, self.on_local)
        radios.layout().setStretch(0, 0)
        radios.layout().addStretch(1)
        form.addRow(self.tr("Source:"), radios)
        form.addRow(self.tr("CANN machine:"), self.host)
        form.addRow(self.tr("Folder:"), _row(self.source, self.browse))
        form.addRow(self.tr("Import into:"), _row(self.results, browse_results))
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.on_host.toggled.connect(self._where_changed)
        self._where_changed()
        self.resize(700, 280)

    def _where_changed(self, *_args) -> None:
        self.host.setEnabled(self.on_host.isChecked())
        self.browse.setEnabled(self.on_local.isChecked())

    def _browse_source(self) -> None:
        _browse_dir(self, self.tr("Import Result"), self.source)

    def _browse_results(self) -> None:
        _browse_dir(self, self.tr("Import into"), self.results)

    def start(self):
        source = self.source.text().strip()
        host = self.host.currentData() if self.on_host.isChecked() else None
        project = self.context.project
        results = self.results.text().strip() or None
        if not source:
            self.status.setText(self.tr("Folder: enter the folder to import."))
            return None
        if self.on_host.isChecked() and not host:
            self.status.setText(self.tr("CANN machine: choose one (Ascend ▸ CANN Machines adds one)."))
            return None
        if project is None and results is None:
            self.status.setText(self.tr("Import into: open a project or choose a local folder."))
            return None
        task = self.context.bridge.start(
            actions.import_into,
            source,
            host,
            str(project.root) if project else None,
            results,
            self.context.prompter,
            self.context.pool,
            title=self.tr("Import {0}").format(Path(source).name),
            kind="profiler-import",
        )
        return self._started(task, self.tr("Import Result"))


class MergeReportsDialog(_TaskDialog):
    """Input directory (PROF_* folders up to two levels down), Output directory, Output name."""

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setWindowTitle(self.tr("Merge Reports"))
        self.input_dir = QLineEdit(self)
        self.output_dir = QLineEdit(self)
        self.output_name = QLineEdit("merged", self)
        self.overwrite = QCheckBox(self.tr("Replace an existing output of that name"), self)
        self.found = QLabel(self)
        self.found.setWordWrap(True)
        browse_in = QPushButton(self.tr("Browse…"), self)
        browse_in.clicked.connect(self._browse_in)
        browse_out = QPushButton(self.tr("Browse…"), self)
        browse_out.clicked.connect(self._browse_out)
        form = QFormLayout()
        form.addRow(self.tr("Input directory:"), _row(self.input_dir, browse_in))
        form.addRow("", self.found)
        form.addRow(self.tr("Output directory:"), _row(self.output_dir, browse_out))
        form.addRow(self.tr("Output name:"), self.output_name)
        form.addRow("", self.overwrite)
        note = QLabel(
            self.tr(
                "Every PROF_* folder of the input directory (up to two levels down) is combined: "
                "tables per device, statistics recomputed, timelines merged. The result is saved as "
                "<output name>.wbreport and opened."
            ),
            self,
        )
        note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.input_dir.editingFinished.connect(self.show_inputs)
        self.resize(700, 300)

    def _browse_in(self) -> None:
        _browse_dir(self, self.tr("Input directory"), self.input_dir)
        self.show_inputs()

    def _browse_out(self) -> None:
        _browse_dir(self, self.tr("Output directory"), self.output_dir)

    def show_inputs(self) -> None:
        text = self.input_dir.text().strip()
        if not text:
            self.found.clear()
            return
        try:
            found = merge_inputs(text)
            self.found.setText(self.tr("{0} report(s) to merge").format(len(found)))
            self.found.setToolTip("\n".join(str(p) for p in found))
            # a suggestion, not a value: typing into the empty field replaces it (an empty field
            # means the suggestion when Merge starts)
            self.output_dir.setPlaceholderText(str(Path(text).expanduser()))
        except MergeError as exc:
            self.found.setText(str(exc))
            self.found.setToolTip("")
            self.output_dir.setPlaceholderText("")

    def start(self):
        inp, out, name = self.input_dir.text().strip(), self.output_dir.text().strip(), self.output_name.text().strip()
        out = out or self.output_dir.placeholderText().strip()
        for value, label in (
            (inp, self.tr("Input directory")),
            (out, self.tr("Output directory")),
            (name, self.tr("Output name")),
        ):
            if not value:
                self.status.setText(self.tr("{0}: required.").format(label))
                return None
        task = self.context.bridge.start(
            merge_reports_to,
            inp,
            out,
            name,
            overwrite=self.overwrite.isChecked(),
            title=self.tr("Merge reports into {0}").format(name),
            kind="profiler-merge",
        )
        return self._started(task, self.tr("Merge Reports"))


def open_import_result(context: AppContext, parent: QWidget) -> ImportResultDialog:
    """Ascend ▸ System Profiler ▸ Import Result…"""
    dialog = ImportResultDialog(context, parent)
    dialog.open()
    return dialog


def open_merge_reports(context: AppContext, parent: QWidget) -> MergeReportsDialog:
    """Ascend ▸ System Profiler ▸ Merge Reports…"""
    dialog = MergeReportsDialog(context, parent)
    dialog.open()
    return dialog
