"""Ascend ▸ Framework Trans ▸ TensorFlow GPU2Ascend… / PyTorch GPU2Ascend…: the migration wizard.

Page 1 (Project): framework (TF1 / TF2 / PyTorch), the GPU project folder on this computer (uploaded
to the CANN machine by core ``run_migration``), the main script where the tool needs it, the options
(PyTorch version, distributed), the local output folder and the CANN machine (the demo host by
default). After every edit the wizard checks the job with core's own refusals (``check_local_input``,
``check_job``: one line naming the field, shown on the page; Next disabled) and shows core's exact
command line (``command_line``) as it runs on the host, the working folder being made at the run.
Page 2 (Run): Run starts ``run_migration`` as a task through the bridge (the tool's lines in the
Output dock, progress here, Stop or the Tasks dock's Cancel kills the tool's process group on the
host); at the end the Migration Report document opens.
"""

from __future__ import annotations

import contextlib
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from workbench.core.migration.job import (
    DEFAULT_PYTORCH_VERSION,
    FRAMEWORKS,
    PYTORCH_VERSIONS,
    JobError,
    MigrationJob,
    check_job,
    check_local_input,
    command_line,
)
from workbench.core.migration.run import MigrationResult, default_out, run_migration
from workbench.core.services import demohost
from workbench.ui.context import AppContext
from workbench.ui.dialogs.run_wizard import RUN, STOP, RunWizard
from workbench.ui.migration.texts import framework_label, tr_check, tr_status

if TYPE_CHECKING:
    from workbench.ui.migration.document import MigrationReportDocument

DEFAULT_ROOT = "/usr/local/Ascend/ascend-toolkit/latest"  # until the host's toolkit is known
WORKING_FOLDER = "<working folder>"
CHECK_ENTRIES = 5000  # entries looked at for a .py as the user types (the run checks the whole folder)


def _folder_dialog(parent: QWidget, title: str, start: str) -> str:
    dialog = QFileDialog(parent, title, start)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    return dialog.selectedFiles()[0] if dialog.exec() and dialog.selectedFiles() else ""


class MigrationProjectPage(QWizardPage):
    changed = Signal()

    def __init__(self, wizard: MigrationWizard) -> None:
        super().__init__(wizard)
        self.wiz = wizard
        self.setTitle(self.tr("GPU project"))
        self.setSubTitle(
            self.tr("The migration tool copies the project, changes the copy for Ascend and reports what it did.")
        )
        self.framework = QComboBox(self)
        self.framework.setObjectName("migrationFramework")
        for fw in FRAMEWORKS:
            self.framework.addItem(framework_label(fw), fw)
        self.input = QLineEdit(self)
        self.input.setObjectName("migrationInput")
        self.input.setPlaceholderText(self.tr("The folder of the GPU project on this computer"))
        self.input_browse = QPushButton(self.tr("Browse…"), self)
        self.input_browse.clicked.connect(lambda: self._browse_input())
        self.main = QLineEdit(self)
        self.main.setObjectName("migrationMain")
        self.main.setPlaceholderText(self.tr("e.g. train.py (relative to the project folder)"))
        self.main_note = QLabel(self)
        self.main_note.setWordWrap(True)
        self.version = QComboBox(self)
        self.version.setObjectName("migrationPytorchVersion")
        for v in PYTORCH_VERSIONS:
            self.version.addItem(v, v)
        self.version.setCurrentIndex(self.version.findData(DEFAULT_PYTORCH_VERSION))
        self.distributed = QCheckBox(
            self.tr("Distributed: make a multi-device NPU script (needs the main script)"), self
        )
        self.target_model = QLineEdit("model", self)
        self.target_model.setObjectName("migrationTargetModel")
        self.output = QLineEdit(self)
        self.output.setObjectName("migrationOutput")
        self.output.setPlaceholderText(self.tr("Default: <project>_npu beside the project folder"))
        self.output_browse = QPushButton(self.tr("Browse…"), self)
        self.output_browse.clicked.connect(lambda: self._browse_output())
        self.force = QCheckBox(self.tr("Write into an output folder that already holds files"), self)
        self.host = QComboBox(self)
        self.host.setObjectName("migrationHost")
        from workbench.ui.hosts.combo import default_host, fill_host_combo

        fill_host_combo(self.host, default_host(wizard.context.project))
        self.host_note = QLabel(self)
        self.host_note.setWordWrap(True)
        self.checks = QLabel(self)
        self.checks.setObjectName("migrationChecks")
        self.checks.setWordWrap(True)
        self.checks.setStyleSheet("color: #c62828;")
        self.checks.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.command = QPlainTextEdit(self)
        self.command.setObjectName("migrationCommand")
        self.command.setReadOnly(True)
        self.command.setMaximumHeight(90)

        form = QFormLayout()
        form.addRow(self.tr("Framework:"), self.framework)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addWidget(self.input_browse)
        form.addRow(self.tr("Project folder:"), row)
        form.addRow(self.tr("Main script:"), self.main)
        form.addRow("", self.main_note)
        self.version_label = QLabel(self.tr("PyTorch version:"), self)
        form.addRow(self.version_label, self.version)
        form.addRow("", self.distributed)
        self.target_label = QLabel(self.tr("Model variable:"), self)
        form.addRow(self.target_label, self.target_model)
        row = QHBoxLayout()
        row.addWidget(self.output, 1)
        row.addWidget(self.output_browse)
        form.addRow(self.tr("Output folder:"), row)
        form.addRow("", self.force)
        form.addRow(self.tr("CANN machine:"), self.host)
        form.addRow("", self.host_note)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.checks)
        layout.addWidget(QLabel(self.tr("Command line on the CANN machine:"), self))
        layout.addWidget(self.command)

        self.framework.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.version.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.host.currentIndexChanged.connect(lambda _i: self.changed.emit())
        for edit in (self.input, self.main, self.output, self.target_model):
            edit.textChanged.connect(lambda _t: self.changed.emit())
        for box in (self.distributed, self.force):
            box.toggled.connect(lambda _c: self.changed.emit())

    def _browse_input(self) -> None:
        chosen = _folder_dialog(self, self.tr("GPU project folder"), self.input.text() or str(Path.home()))
        if chosen:
            self.input.setText(chosen)

    def _browse_output(self) -> None:
        start = self.output.text() or str(Path(self.input.text()).parent if self.input.text() else Path.home())
        chosen = _folder_dialog(self, self.tr("Output folder"), start)
        if chosen:
            self.output.setText(chosen)

    def framework_value(self) -> str:
        return self.framework.currentData()

    def show_state(self, errors: list[str], line: str) -> None:
        pytorch = self.framework_value() == "pytorch"
        for w in (self.version_label, self.version, self.distributed, self.target_label, self.target_model):
            w.setVisible(pytorch)
        self.target_model.setEnabled(self.distributed.isChecked())
        if pytorch:
            self.main_note.setText(self.tr("msFmkTransplt needs the main script only for a distributed migration."))
        else:
            self.main_note.setText(self.tr("convert_tf2npu's -m: the script that starts the training (optional)."))
        demo = self.host.currentData() == demohost.DEMO_NAME
        self.host_note.setText(
            self.tr("Simulated: the demo host runs a simulated CANN toolkit on this computer.") if demo else ""
        )
        self.host_note.setVisible(demo)
        self.checks.setText("\n".join(errors))
        self.checks.setVisible(bool(errors))
        self.command.setPlainText(line)
        self.completeChanged.emit()

    def isComplete(self) -> bool:  # noqa: N802 - Qt's name
        return not self.wiz.errors


class MigrationRunPage(QWizardPage):
    def __init__(self, wizard: MigrationWizard) -> None:
        super().__init__(wizard)
        self.wiz = wizard
        self.setTitle(self.tr("Run"))
        self.setSubTitle(
            self.tr("Run uploads the project, runs the tool on the CANN machine and downloads its result.")
        )
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.command = QPlainTextEdit(self)
        self.command.setObjectName("migrationRunCommand")
        self.command.setReadOnly(True)
        self.command.setMaximumHeight(90)
        self.status = QLabel(self)
        self.status.setObjectName("migrationStatus")
        self.status.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.checks = QLabel(self)
        self.checks.setObjectName("migrationRunChecks")
        self.checks.setWordWrap(True)
        self.checks.setStyleSheet("color: #c62828;")
        self.result = QLabel(self)
        self.result.setObjectName("migrationResult")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(QLabel(self.tr("Command line on the CANN machine:"), self))
        layout.addWidget(self.command)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.checks)
        layout.addWidget(self.result, 1)

    def initializePage(self) -> None:  # noqa: N802 - Qt's name
        job = self.wiz.job_values()
        self.summary.setText(
            self.tr("{0}\nProject: {1}\nOutput: {2}\nCANN machine: {3}").format(
                framework_label(job["framework"]), job["input"], job["out"], self.wiz.project_page.host.currentText()
            )
        )
        self.command.setPlainText(self.wiz.preview)
        self.wiz.update_buttons()

    def cleanupPage(self) -> None:  # noqa: N802 - Qt's name
        self.wiz.update_buttons()

    def set_fraction(self, value: object) -> None:
        if isinstance(value, (int, float)):
            self.progress.setValue(int(max(0.0, min(1.0, float(value))) * 1000))


class MigrationWizard(RunWizard):
    def __init__(
        self, context: AppContext, framework: str = "pytorch", input_dir: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.setWindowTitle(self.tr("GPU → Ascend Migration"))
        self.setButtonText(RUN, self.tr("Run"))
        self.errors: list[str] = []
        self.preview = ""
        self.last_result: MigrationResult | None = None
        self.document: MigrationReportDocument | None = None
        self.project_page = MigrationProjectPage(self)
        self.run_page = MigrationRunPage(self)
        self.addPage(self.project_page)
        self.addPage(self.run_page)
        page = self.project_page
        page.framework.setCurrentIndex(max(0, page.framework.findData(framework)))
        if input_dir:
            page.input.setText(input_dir)
        page.changed.connect(self.refresh)
        self.currentIdChanged.connect(lambda _i: self.update_buttons())
        self.resize(820, 640)
        self.refresh()

    # --- the job --------------------------------------------------------------------------------
    def job_values(self) -> dict:
        p = self.project_page
        inp = p.input.text().strip()
        out = p.output.text().strip()
        if not out and inp:
            with contextlib.suppress(ValueError):  # "/" has no name to put _npu after
                out = str(default_out(inp))
        return {
            "framework": p.framework_value(),
            "input": inp,
            "main": p.main.text().strip(),
            "out": out,
            "pytorch_version": p.version.currentData(),
            "distributed": p.distributed.isChecked(),
            "target_model": p.target_model.text().strip() or "model",
            "force": p.force.isChecked(),
            "host": p.host.currentData() or "",
        }

    def _toolkit_root(self, host: str) -> str:
        try:
            return demohost.resolve_host(host).toolkit or DEFAULT_ROOT
        except Exception:  # noqa: BLE001 - an unknown host: the preview uses the default install
            return DEFAULT_ROOT

    def check(self, v: dict) -> tuple[list[str], str]:
        """core's refusals (one line each, translated) and the command line as it runs on the host."""
        errors: list[str] = []
        name = Path(v["input"]).name if v["input"] else "project"
        work = WORKING_FOLDER
        remote_in = posixpath.join(work, "input", name)
        main_rel = v["main"].replace("\\", "/")
        if main_rel and v["input"] and Path(main_rel).is_absolute():
            with contextlib.suppress(ValueError):  # outside the input: check_local_input says so
                main_rel = Path(main_rel).resolve().relative_to(Path(v["input"]).expanduser().resolve()).as_posix()
        job = MigrationJob(
            framework=v["framework"],
            input=remote_in,
            output=posixpath.join(work, "output"),
            report=posixpath.join(work, "report") if v["framework"] != "pytorch" else "",
            main=posixpath.normpath(posixpath.join(remote_in, main_rel)) if main_rel else "",
            pytorch_version=v["pytorch_version"],
            distributed=v["distributed"] and v["framework"] == "pytorch",
            target_model=v["target_model"],
        )
        if not v["input"]:
            errors.append(tr_check("--input: the folder of the GPU project to migrate is missing"))
        else:
            try:
                local_in = check_local_input(v["input"], v["main"], limit=CHECK_ENTRIES)
                out = Path(v["out"]).expanduser().resolve()
                try:
                    out.relative_to(local_in)
                except ValueError:
                    if out.exists() and out.is_dir() and any(out.iterdir()) and not v["force"]:
                        errors.append(
                            self.tr(
                                "Output folder {0}: already holds files; choose another folder or tick "
                                "“Write into an output folder that already holds files”"
                            ).format(out)
                        )
                    elif out.exists() and not out.is_dir():
                        errors.append(self.tr("Output folder {0}: it is a file; expected a folder").format(out))
                else:
                    errors.append(
                        tr_check(
                            f"--out {v['out']}: must not be inside the input folder {local_in} (the tool refuses it)"
                        )
                    )
            except JobError as exc:
                errors.append(tr_check(str(exc)))
        try:
            check_job(job)
        except JobError as exc:
            errors.append(tr_check(str(exc)))
        if not v["host"]:
            errors.append(self.tr("CANN machine: none is configured (Ascend ▸ CANN Machines adds one)"))
        return list(dict.fromkeys(errors)), command_line(job, self._toolkit_root(v["host"]))

    def refresh(self) -> None:
        self.errors, self.preview = self.check(self.job_values())
        self.project_page.show_state(self.errors, self.preview)
        self.run_page.checks.setText("\n".join(self.errors))  # e.g. the output folder now holds the last run
        self.run_page.checks.setVisible(bool(self.errors))
        self.update_buttons()

    def update_buttons(self) -> None:
        running = self.task is not None
        on_run = self.currentPage() is self.run_page
        self.button(RUN).setVisible(on_run)
        self.button(STOP).setVisible(on_run)
        self.button(RUN).setEnabled(on_run and not running and not self.errors)
        self.button(STOP).setEnabled(running)
        self.button(QWizard.WizardButton.BackButton).setEnabled(not running)

    # --- running --------------------------------------------------------------------------------
    def start_run(self) -> None:
        self.run()

    def run(self):
        self.refresh()
        if self.errors or self.task is not None:
            return None
        v = self.job_values()
        page = self.run_page
        try:
            transport = self.context.host_transport(v["host"])
            toolkit = demohost.resolve_host(v["host"]).toolkit
        except Exception as exc:  # noqa: BLE001 - HostError / ValueError: shown, not raised
            page.result.setText(self.tr("Cannot use the CANN machine {0}: {1}").format(v["host"], exc))
            return None
        page.result.setText("")
        page.progress.setValue(0)
        self.task = self.context.bridge.start(
            run_migration,
            v["framework"],
            v["input"],
            v["out"],
            transport,
            toolkit or None,
            main=v["main"],
            pytorch_version=v["pytorch_version"],
            distributed=v["distributed"] and v["framework"] == "pytorch",
            target_model=v["target_model"],
            host=v["host"],
            force=v["force"],
            title=self.tr("Migrate {0}").format(Path(v["input"]).name),
            kind="migration",
        )
        self.task.status_changed.connect(lambda text: page.status.setText(tr_status(text)))
        self.task.progress_changed.connect(page.set_fraction)
        self.task.succeeded.connect(self._finished_run)
        self.task.failed.connect(self._failed)
        self.task.cancelled.connect(self._cancelled)
        self.task.finished.connect(self._task_done)
        self.update_buttons()
        return self.task

    def _finished_run(self, result: MigrationResult) -> None:
        self.last_result = result
        page = self.run_page
        page.command.setPlainText(result.command)
        if result.ok and result.report is not None:
            page.result.setText(self.tr("Migrated: {0}").format(result.output_dir))
        else:
            page.result.setText(self.tr("The migration failed: {0}").format(result.error))
        if result.report is not None and result.report_dir:
            from workbench.ui.migration.document import open_migration_report

            self.document = open_migration_report(
                self.context,
                result.report_dir,
                result.report,
                input_dir=self.job_values()["input"],
                output_dir=result.output_dir,
                parent=self.parentWidget(),
            )

    def _failed(self, message: str, _exc: object) -> None:
        self.run_page.result.setText(self.tr("The migration failed: {0}").format(tr_check(message)))

    def _cancelled(self) -> None:
        self.run_page.result.setText(self.tr("Stopped: the tool's process group on the CANN machine was killed."))

    def _task_done(self) -> None:
        self.task = None
        self.refresh()


def open_migration_wizard(
    context: AppContext, parent: QWidget, framework: str = "pytorch", input_dir: str = ""
) -> MigrationWizard:
    """Ascend ▸ Framework Trans ▸ TensorFlow GPU2Ascend… / PyTorch GPU2Ascend…"""
    wizard = MigrationWizard(context, framework, input_dir, parent)
    wizard.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    wizard.setModal(False)
    wizard.show()
    return wizard
