"""Ascend ▸ System Profiler ▸ New Profiling: MindStudio's wizard (Project Properties → Executable
Properties → Profiling Options) plus a page with the exact msprof command and the checks made on
the host. Start runs the profiling as a task (its output streams into the Output dock; Cancel in
the Tasks dock stops msprof and the application on the host) and opens the report when it is done.

The form is bound to a core :class:`ProfilingJob`; the command comes from core ``msprof_command``,
the checks from core ``preflight``, the run from core ``run_profiling`` (the work functions are
in :mod:`workbench.core.profiler.actions`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QWidget, QWizard

from workbench.core.profiler import actions, history
from workbench.core.profiler.command import command_text, msprof_command
from workbench.core.profiler.options import REMOTE, JobError, ProfilingJob
from workbench.core.profiler.run import ProfilerError, is_project, results_root
from workbench.core.project import ProjectError, open_project
from workbench.core.services.demohost import DEMO_NAME
from workbench.ui.context import AppContext
from workbench.ui.hosts.combo import project_host
from workbench.ui.hosts.widgets import task_error
from workbench.ui.profiler.common import follow, remember, remembered
from workbench.ui.profiler.pages_options import CheckPage, OptionsPage
from workbench.ui.profiler.pages_setup import ExecutablePage, ProjectPage


class NewProfilingWizard(QWizard):
    def __init__(self, context: AppContext, job: ProfilingJob | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.setWindowTitle(self.tr("New Profiling"))
        self.setObjectName("NewProfilingWizard")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setButtonText(QWizard.WizardButton.FinishButton, self.tr("Start"))
        self.probe: actions.HostProbe | None = None
        self.probe_task = None
        self.task = None  # the profiling task once started
        self._auto_toolkit = ""  # the toolkit path the last probe filled in
        self.project_page = ProjectPage(self)
        self.exec_page = ExecutablePage(self)
        self.options_page = OptionsPage(self)
        self.check_page = CheckPage(self)
        for page in (self.project_page, self.exec_page, self.options_page, self.check_page):
            self.addPage(page)
        self.set_job(job or self.initial_job())
        e = self.exec_page
        e.host.currentIndexChanged.connect(self.probe_host)
        e.run_mode.currentIndexChanged.connect(self.probe_host)
        e.toolkit.editingFinished.connect(self._toolkit_edited)
        e.refresh_host.clicked.connect(self.probe_host)
        e.deployment_button.clicked.connect(self._deployment)
        self.resize(820, 760)
        self.probe_host()

    # --- the job ---------------------------------------------------------------------------------------
    def initial_job(self) -> ProfilingJob:
        """The project's last run's options (MindStudio remembers them), else the last job of any
        project (or defaults) on the project's CANN machine, the demo host only when the project
        names none; the open project is the app project."""
        project = self.context.project
        job = history.last_job(project) if project is not None else None
        if project is not None and job is not None:
            job.project_path = str(project.root)
            return job
        raw = remembered(self.context).get("last_job")
        try:
            job = ProfilingJob.from_dict(raw) if raw else None
        except JobError:
            job = None
        if job is None:
            job = ProfilingJob(host=DEMO_NAME)
        if project is not None:
            job.project_path = str(project.root)
            job.host = project_host(project) or job.host or DEMO_NAME
        return job

    def set_job(self, job: ProfilingJob) -> None:
        self.project_page.set_job(job)
        self.exec_page.set_job(job)
        self.options_page.set_job(job)
        self.project_page.update_where()

    def job(self, strict: bool = True) -> ProfilingJob:
        """The job the form describes; with ``strict`` a field that cannot be read raises JobError,
        otherwise it keeps its default (for the live command preview)."""
        job = ProfilingJob()
        for page in (self.project_page, self.exec_page, self.options_page):
            try:
                page.fill(job)
            except JobError:
                if strict:
                    raise
        return job

    def project_root(self, job: ProfilingJob) -> str | None:
        """The workbench project recording the run: the app project when it is one."""
        return job.project_path if job.project_path and is_project(job.project_path) else None

    def command_preview(self) -> str:
        job = self.job(strict=False)
        probe = self.probe
        argv = msprof_command(
            job,
            probe.version if probe else None,
            output=actions.PREVIEW_OUTPUT,
            msprof=(probe.msprof if probe else "") or "msprof",
        )
        return command_text(argv)

    def check_fields(self, page: Any, fields: set[str]) -> bool:
        """validatePage: show the first problem of ``page``'s fields under it; False if any."""
        message = ""
        try:
            job = self.job()
            job.validate()
            if "location" in fields and page is self.exec_page:
                results_root(job)
        except JobError as exc:
            if exc.field in fields or not exc.field:
                message = str(exc)
        except ProfilerError as exc:
            message = str(exc)
        page.error.setText(message)
        return not message

    # --- host -----------------------------------------------------------------------------------------
    def _toolkit_edited(self) -> None:
        if self.exec_page.toolkit.text().strip() != self._auto_toolkit:
            self.probe_host()

    def probe_host(self) -> None:
        """Find the toolkit, the chip and the devices of the chosen host (a task)."""
        e = self.exec_page
        if self.probe_task is not None and not self.probe_task.state.finished:
            self.probe_task.cancel()
        mode = e.run_mode.currentData() or REMOTE
        host = e.host.currentData() or "" if mode == REMOTE else ""
        if mode == REMOTE and not host:
            e.show_host(self.tr("Choose a CANN machine (Ascend ▸ CANN Machines adds one)."))
            return
        toolkit = e.toolkit.text().strip()
        if toolkit == self._auto_toolkit and (self.probe is None or self.probe.host != host):
            toolkit = remembered(self.context).get("toolkits", {}).get(host or "local", "")
            e.toolkit.setText(toolkit)
            self._auto_toolkit = toolkit
        e.show_host(self.tr("Looking for the CANN toolkit and the NPUs…"))
        title = self.tr("Check host {0}").format(host or self.tr("this machine"))
        self.probe_task = self.context.bridge.start(
            actions.probe_host,
            mode,
            host,
            toolkit,
            self.context.prompter,
            self.context.pool,
            title=title,
            kind="profiler-host",
        )
        self.probe_task.succeeded.connect(self._probed)
        self.probe_task.failed.connect(self._probe_failed)

    def _probed(self, probe: actions.HostProbe) -> None:
        e = self.exec_page
        self.probe = probe
        if probe.toolkit:
            if e.toolkit.text().strip() in ("", self._auto_toolkit):
                e.toolkit.setText(probe.toolkit)
                self._auto_toolkit = probe.toolkit
            remember(self.context, toolkits={probe.host or "local": e.toolkit.text().strip()})
            parts = [self.tr("CANN {0}").format(probe.version or self.tr("(version unknown)"))]
            if probe.simulated:
                parts.append(self.tr("simulated toolkit"))
            if probe.soc:
                parts.append(probe.soc)
            if probe.devices:
                parts.append(self.tr("NPUs: {0}").format(", ".join(str(d) for d in probe.devices)))
            text = " · ".join(parts)
        else:
            text = self.tr("No CANN toolkit found.")
        if probe.problems:
            text += "\n" + "\n".join(probe.problems)
        e.show_host(text)
        self.options_page.set_chip(probe.soc)

    def _probe_failed(self, message: str, exc: object) -> None:
        self.exec_page.show_host(self.tr("Could not check the host: {0}").format(task_error(message, exc)))

    def _deployment(self) -> None:
        path = self.exec_page.project_path.text().strip()
        if not path or not is_project(path):
            self.exec_page.deploy_info.setText(
                self.tr("Deployment mappings belong to a workbench project; this app project is not one.")
            )
            return
        try:
            project = open_project(path)
        except ProjectError as exc:
            self.exec_page.deploy_info.setText(str(exc))
            return
        from workbench.ui.hosts.deployment_dialog import DeploymentDialog

        dialog = DeploymentDialog(self.context, project, self)
        dialog.open()

    # --- checks and start -----------------------------------------------------------------------------------
    def start_checks(self):
        job = self.job(strict=False)
        return self.context.bridge.start(
            actions.check_job,
            job,
            self.project_root(job),
            self.context.prompter,
            self.context.pool,
            title=self.tr("Check profiling options"),
            kind="profiler-check",
        )

    def start(self):
        """Start the profiling task (also what Start/Finish does); returns it."""
        job = self.job()
        job.validate()
        remember(self.context, last_job=job.to_dict())
        where = job.host if job.run_mode == REMOTE else self.tr("this machine")
        title = self.tr("Profile {0} on {1}").format(Path(job.executable).name, where)
        self.task = self.context.bridge.start(
            actions.start_profiling,
            job,
            self.project_root(job),
            self.context.prompter,
            self.context.pool,
            title=title,
            kind="profile",
        )
        follow(self.context, self.task, self.tr("New Profiling"))
        return self.task

    def accept(self) -> None:
        self.start()
        super().accept()

    def done(self, result: int) -> None:
        for task in (self.probe_task, self.check_page._task):
            if task is not None and not task.state.finished:
                task.cancel()
        super().done(result)


def open_new_profiling(context: AppContext, parent: QWidget, job: ProfilingJob | None = None) -> NewProfilingWizard:
    """Ascend ▸ System Profiler ▸ New Profiling…: the wizard, opened window-modal."""
    wizard = NewProfilingWizard(context, job, parent)
    wizard.open()
    return wizard
