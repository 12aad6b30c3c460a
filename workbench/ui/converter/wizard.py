"""Ascend ▸ Model Converter: the wizard that turns a model file into a downloaded ``.om``.

Pages (Model, Inputs, Preprocessing, Advanced, Summary) write into one core
:class:`ConversionJob`; after every edit the wizard validates it (core ``validate``, ATC's codes
and messages), shows each issue on the page that has its field, updates the exact ``atc``
command line at the foot of every page, and enables Convert only when there is no error.
Convert runs core ``run_conversion`` as a task (log in the Output dock, Cancel in the Tasks dock
or Stop here); the result panel lists the warnings and every error with its explanation and fix.
The values are remembered per project (core ``remember_job`` / ``last_job``); the CANN machine
is the project's own (core ``default_host``: the one the CANN Machine dock shows), else the last
one used in the project, else the demo host.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from workbench.core.atc import (
    ConversionJob,
    ConversionResult,
    Issue,
    JobInvalid,
    ModelInputs,
    command_line,
    files_produced,
    files_to_upload,
    inspect_model,
    run_conversion,
    validate,
)
from workbench.core.atc import flags as F
from workbench.core.atc.run import default_host, last_job, local_out_dir, remember_job
from workbench.core.atc.validate import ERROR
from workbench.core.services.demohost import resolve_host
from workbench.core.services.npusmi import soc_proposal
from workbench.core.services.toolkit import detect_toolkit, read_npu_smi
from workbench.ui.context import AppContext
from workbench.ui.converter.page_advanced import AdvancedPage
from workbench.ui.converter.page_aipp import AippPage
from workbench.ui.converter.page_inputs import InputsPage
from workbench.ui.converter.page_model import ModelPage
from workbench.ui.converter.page_summary import SummaryPage
from workbench.ui.dialogs.run_wizard import RUN, STOP, RunWizard

CONVERT = RUN  # the wizard's Run button, labelled Convert
WORKING_FOLDER = "<working folder>"


def probe_soc(transport, toolkit: str | None, *, progress, cancel) -> dict:
    """Work function: detect the toolkit, then propose ``--soc_version`` from ``npu-smi info`` (and,
    where its Name does not tell, from the chip's ``npu-smi info -t board``). Returns ``proposed``
    (None when npu-smi cannot tell), ``candidates`` (the ambiguous choice), ``choices`` (the host's
    first, then the known list), ``chip`` (the npu-smi Name), ``board`` (proposed by the board
    query) and ``warnings``."""
    progress.status("Reading the NPU type with npu-smi info")
    info = detect_toolkit(transport, toolkit or None, cancel=cancel)
    smi = read_npu_smi(transport, info, cancel=cancel)
    proposed, candidates = soc_proposal(smi.devices)
    mine = [s for d in sorted(smi.devices, key=lambda d: not d.healthy) for s in d.soc_candidates]
    first = min(smi.devices, key=lambda d: not d.healthy) if smi.devices else None
    return {
        "proposed": proposed,
        "candidates": list(candidates),
        "choices": list(dict.fromkeys([*candidates, *mine, *F.SOC_VERSIONS])),
        "chip": first.name if first else "",
        "board": bool(first and first.board_npu_name),
        "warnings": list(smi.warnings),
    }


def read_inputs(path: str, framework: int | None, *, progress, cancel) -> ModelInputs:
    """Work function: the model's inputs, outputs and ops, read locally."""
    progress.status(f"Reading {Path(path).name}")
    return inspect_model(path, framework)


class ConverterWizard(RunWizard):
    def __init__(self, context: AppContext, model_path: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.setWindowTitle(self.tr("Model Converter"))
        self.setButtonText(CONVERT, self.tr("Convert"))
        self.button(STOP).setEnabled(False)

        self.model_page = ModelPage(self)
        self.inputs_page = InputsPage(self)
        self.aipp_page = AippPage(self)
        self.advanced_page = AdvancedPage(self)
        self.summary_page = SummaryPage(self)
        self.pages = [self.model_page, self.inputs_page, self.aipp_page, self.advanced_page, self.summary_page]
        for page in self.pages:
            self.addPage(page)
            page.changed.connect(self.refresh)
        self.structure_button = QPushButton(self.tr("Open Model Structure"), self.summary_page)
        self.structure_button.hide()
        self.structure_button.clicked.connect(self.open_structure)
        self.summary_page.actions.insertWidget(0, self.structure_button)
        self.model_page.model_chosen.connect(self.read_model)
        self.model_page.detect_soc_requested.connect(self.detect_soc)

        self.model_info: ModelInputs | None = None
        self.model_error = ""
        self._read_key: tuple | None = None  # (path, framework, mtime) last read
        self._keep_inputs: list | None = None  # remembered inputs, kept if they fit the model
        self.job = ConversionJob()
        self.issues: list[Issue] = []
        self.inspect_task = None
        self.soc_task = None
        self._soc_host = ""  # the host soc_task asks
        self.last_result: ConversionResult | None = None
        self._refreshing = True
        self.resize(900, 760)
        self._load_initial(model_path)
        self._refreshing = False
        # after the remembered host is selected: one probe below, not a second one for that selection
        self.model_page.host_changed.connect(self._host_changed)
        self.refresh()
        self.read_model()
        self.detect_soc()

    @property
    def project(self):  # noqa: ANN201 - core Project | None
        """The application's current project (re-read by the window when project.json changes)."""
        return self.context.project

    # --- remembered values ------------------------------------------------------------------------
    def _load_initial(self, model_path: str | None) -> None:
        job = last_job(self.project) if self.project is not None else None
        if job is None:
            job = ConversionJob()
        # the project's CANN machine (the CANN Machine dock's), else the last one used here, else demo
        job.host = default_host(self.project)
        if model_path and str(Path(model_path)) != job.model:
            job.model, job.model_on_host, job.inputs = str(Path(model_path)), False, []
            job.output_name, job.weight, job.framework = "", "", None
        self._keep_inputs = list(job.inputs)
        for page in self.pages:
            page.load(job)

    def remember(self) -> None:
        if self.project is not None and self.job.model:
            try:
                remember_job(self.project, self.job)
            except Exception as exc:  # noqa: BLE001 - a project file we cannot write must not lose the wizard
                message = self.tr("Could not remember the converter's values: {0}").format(exc)
                self.context.show_status(message)

    # --- the model --------------------------------------------------------------------------------
    def read_model(self) -> None:
        """Read the model's inputs locally (a task) when a new local model file is chosen."""
        page = self.model_page
        path, fw = page.model_path(), page.effective_framework()
        if not page.is_local() or not path or not Path(path).is_file():
            self._read_key = None
            self._set_model(
                None,
                "" if not path else self.tr("The model is on the host or not found locally: enter its inputs by hand."),
            )
            return
        key = (str(Path(path).resolve()), fw, Path(path).stat().st_mtime_ns)
        if key == self._read_key:
            return
        self._read_key = key
        self.inspect_task = self.context.bridge.start(
            read_inputs, path, fw, title=self.tr("Read model {0}").format(Path(path).name), kind="inspect"
        )
        self.inspect_task.succeeded.connect(self._model_read)
        self.inspect_task.failed.connect(self._model_unreadable)

    def _model_read(self, info: ModelInputs) -> None:
        if Path(info.path).resolve() != Path(self.model_page.model_path()).resolve():
            return  # an older read: another model was chosen meanwhile
        self._set_model(info, "")

    def _model_unreadable(self, message: str, _exc: object) -> None:
        self._set_model(None, message)

    def _set_model(self, info: ModelInputs | None, error: str) -> None:
        self.model_info, self.model_error = info, error
        keep, self._keep_inputs = self._keep_inputs, None
        self.inputs_page.set_model(info, error, keep)
        self.advanced_page.set_model(info)
        self.refresh()

    # --- SoC --------------------------------------------------------------------------------------
    def _host_changed(self, _name: str) -> None:
        self.detect_soc()

    def detect_soc(self) -> None:
        name = self.model_page.host_name()
        if not name:
            return
        if self.soc_task is not None and not self.soc_task.state.finished and self._soc_host == name:
            return  # already asking this host: its answer comes
        try:
            transport = self.context.host_transport(name)
            toolkit = resolve_host(name).toolkit
        except Exception as exc:  # noqa: BLE001 - HostError / ValueError: shown, not raised
            self.model_page.soc_failed(str(exc))
            return
        label = self.model_page.host.currentText()
        self.model_page.soc_status.setText(self.tr("Reading the NPU type on {0}…").format(label))
        self._soc_host = name
        self.soc_task = self.context.bridge.start(
            probe_soc, transport, toolkit, title=self.tr("Detect SoC on {0}").format(name), kind="probe"
        )
        self.soc_task.succeeded.connect(self._soc_proposed)
        self.soc_task.failed.connect(self._soc_failed)

    def _soc_proposed(self, answer: dict) -> None:
        self.model_page.propose_soc(
            answer["proposed"],
            answer["choices"],
            self.model_page.host.currentText(),
            candidates=answer["candidates"],
            chip=answer["chip"],
            board=answer["board"],
            warnings=answer["warnings"],
        )

    def _soc_failed(self, message: str, _exc: object) -> None:
        self.model_page.soc_failed(message)

    # --- validation and preview -------------------------------------------------------------------
    def collect(self) -> tuple[ConversionJob, list[Issue]]:
        """The job the pages describe, and what could not be parsed."""
        job = ConversionJob()
        problems: list[Issue] = []
        for page in self.pages[:-1]:
            page.apply(job, problems)
        if not job.out_dir and self.project is None and job.model and not job.model_on_host:
            job.out_dir = str(Path(job.model).resolve().parent)
        return job, problems

    def refresh(self) -> None:
        if self._refreshing:
            return
        self._refreshing = True
        try:
            job, problems = self.collect()
            issues = problems + validate(job, self.model_info, inspect=False)
            fw = job.effective_framework
            local = job.model and not job.model_on_host and Path(job.model).is_file()
            if self.model_error and local and fw in (0, 3, 5):
                issues.append(Issue("E19005", "model", F.message_text("E19005", job.model)))
            issues = [i for i in issues if i.severity == ERROR] + [i for i in issues if i.severity != ERROR]
            self.job, self.issues = job, issues
            line = command_line(job)
            owners = self.pages[:-1]
            mine = {id(p): [i for i in issues if next(o for o in owners if o.owns(i.field)) is p] for p in owners}
            for page in owners:
                page.show_state(mine[id(page)], line)
                errs = {id(o): [i.code for i in mine[id(o)] if i.severity == ERROR] for o in owners}
                page.show_elsewhere([(o.title(), errs[id(o)]) for o in owners if o is not page and errs[id(o)]])
            self.summary_page.show_state(issues, line)
            remote = job.remote_dir or WORKING_FOLDER
            self.summary_page.show_files(
                files_to_upload(job, remote), files_produced(job, remote, str(local_out_dir(job, self.project)))
            )
            self._update_buttons()
        finally:
            self._refreshing = False

    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == ERROR]

    def command_line(self) -> str:
        return command_line(self.job)

    def _update_buttons(self) -> None:
        running = self.task is not None
        convert = self.button(CONVERT)
        convert.setEnabled(not running and not self.errors())
        convert.setToolTip(self.tr("Fix the errors shown on the pages first") if self.errors() else "")
        self.button(STOP).setEnabled(running)

    def default_aipp_path(self) -> str:
        base = local_out_dir(self.job, self.project)
        return str(base / f"{self.job.effective_output_name}_insert_op.cfg")

    # --- running ----------------------------------------------------------------------------------
    def start_run(self) -> None:
        self.convert()

    def confirm_overwrite(self, path: Path) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Model Converter"),
            self.tr("{0} exists. Replace it with the new model?").format(path),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def show_summary(self) -> None:
        while self.currentPage() is not self.summary_page and self.currentId() != -1:
            before = self.currentId()
            self.next()
            if self.currentId() == before:
                break

    def convert(self):
        """Start the conversion task (None when the job has errors or the host is unusable)."""
        self.refresh()
        if self.errors() or self.task is not None:
            return None
        job = self.job
        target = local_out_dir(job, self.project) / f"{job.effective_output_name}.om"
        if target.exists() and not self.confirm_overwrite(target):
            return None
        self.remember()
        self.show_summary()
        try:
            transport = self.context.host_transport(job.host)
            toolkit = resolve_host(job.host).toolkit
        except Exception as exc:  # noqa: BLE001 - HostError / ValueError: shown, not raised
            self.summary_page.result.show_message(self.tr("Cannot use the CANN machine"), str(exc))
            return None
        self.structure_button.hide()
        self.summary_page.run_started()
        self.task = self.context.bridge.start(
            run_conversion,
            job,
            transport,
            toolkit or None,
            project=self.project,
            model=self.model_info,
            overwrite=True,
            title=self.tr("Convert {0}").format(Path(job.model).name),
            kind="atc",
        )
        self.task.status_changed.connect(self.summary_page.set_status)
        self.task.progress_changed.connect(self.summary_page.set_fraction)
        self.task.succeeded.connect(self._converted)
        self.task.failed.connect(self._convert_failed)
        self.task.cancelled.connect(self._convert_cancelled)
        self.task.finished.connect(self._convert_finished)
        self._update_buttons()
        return self.task

    def _converted(self, result: ConversionResult) -> None:
        self.last_result = result
        self.summary_page.result.show_result(result)
        if result.ok and result.om_path:
            self.structure_button.show()
            self.context.show_status(self.tr("Converted: {0}").format(result.om_path), 10000)

    def _convert_failed(self, message: str, exc: object) -> None:
        if isinstance(exc, JobInvalid):
            self.summary_page.result.show_issues(exc.issues)
        else:
            self.summary_page.result.show_message(self.tr("Conversion failed"), message)

    def _convert_cancelled(self) -> None:
        self.summary_page.result.show_message(
            self.tr("Conversion stopped"), self.tr("atc was stopped on the host; nothing was downloaded.")
        )

    def _convert_finished(self) -> None:
        self.task = None
        self.summary_page.run_finished()
        self._update_buttons()

    def open_structure(self) -> None:
        from workbench.ui.converter.structure_view import open_model_structure

        if self.last_result is not None and self.last_result.om_path:
            open_model_structure(self.context, self.last_result.om_path, host=self.job.host)

    def reject(self) -> None:
        self.remember()
        super().reject()


def open_model_converter(context: AppContext, parent: QWidget, model_path: str | None = None) -> ConverterWizard:
    """Ascend ▸ Model Converter…, the explorer's "Convert Model…" on a model file, the toolbar button."""
    wizard = ConverterWizard(context, model_path, parent)
    wizard.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    wizard.setModal(False)
    wizard.show()
    return wizard
