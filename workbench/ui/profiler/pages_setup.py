"""New Profiling, pages 1 and 2 (MindStudio's Project Properties and Executable Properties)."""

from __future__ import annotations

import shlex
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QWidget,
    QWizardPage,
)

from workbench.core.profiler.options import BINARY, EXECUTABLE_TYPES, LOCAL, PYTHON, REMOTE, RUN_MODES, ProfilingJob
from workbench.core.profiler.run import detect_project_type, is_project
from workbench.core.project import PROJECT_DIR
from workbench.ui.hosts.widgets import MessageArea
from workbench.ui.labels import project_type_label
from workbench.ui.profiler.common import fill_hosts, option_label


def _row(*widgets: QWidget) -> QWidget:
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for i, w in enumerate(widgets):
        layout.addWidget(w, 1 if i == 0 else 0)
    return box


def _error_label(parent: QWidget, lines: int = 3) -> MessageArea:
    """The red line a page or dialog names its first problem in; its height is reserved, so the
    fields and buttons around it stay where they are when a problem appears or goes away."""
    label = MessageArea(parent, lines)
    label.setObjectName("PageError")
    label.setStyleSheet("color: #c0392b;")
    return label


def _mappings(path: str) -> list:
    """Where the app project goes on the host (its deployment mappings, as the run uses them)."""
    from workbench.core.project import ProjectError, open_project
    from workbench.core.services.deploy import Mapping, project_mappings

    if is_project(path):
        try:
            return project_mappings(open_project(path))
        except (ProjectError, ValueError):
            pass
    return [Mapping(".", f"ascend-workbench/{Path(path).name}")]


class ProjectPage(QWizardPage):
    """Name and location of the profiling results (one folder per run under them)."""

    FIELDS = {"name", "location"}

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Project Properties"))
        self.setSubTitle(
            self.tr(
                "Name the profiling project and choose where its results are kept. "
                "Every run gets its own folder there and appears in the project's Profiling runs."
            )
        )
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("letters, digits, '.', '_' or '-'"))
        self.location = QLineEdit(self)
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._browse)
        self.where = QLabel(self)
        self.where.setWordWrap(True)
        self.error = _error_label(self)
        form = QFormLayout(self)
        form.addRow(self.tr("Project name:"), self.name)
        form.addRow(self.tr("Location:"), _row(self.location, browse))
        form.addRow("", self.where)
        form.addRow("", self.error)
        self.name.textChanged.connect(self.update_where)
        self.location.textChanged.connect(self.update_where)

    def set_job(self, job: ProfilingJob) -> None:
        self.name.setText(job.name)
        self.location.setText(job.location)

    def fill(self, job: ProfilingJob) -> None:
        job.name = self.name.text().strip()
        job.location = self.location.text().strip()

    def default_location(self) -> str:
        wizard = self.wizard()
        path = wizard.exec_page.project_path.text().strip() if wizard is not None else ""
        return str(Path(path) / PROJECT_DIR) if path else ""

    def update_where(self) -> None:
        base = self.location.text().strip() or self.default_location()
        self.location.setPlaceholderText(self.default_location() or self.tr("a folder for the results"))
        if base:
            folder = Path(base).expanduser() / self.name.text().strip() / "RUN_ID"
            self.where.setText(self.tr("Runs are kept in {0}").format(str(folder)))
        else:
            self.where.setText(
                self.tr(
                    "Choose a location, or an app project on the next page (results then go "
                    "under its .ascend-workbench folder)."
                )
            )

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Location"), self.location.text() or str(Path.home()))
        if folder:
            self.location.setText(folder)

    def validatePage(self) -> bool:  # noqa: N802 - Qt API
        return self.wizard().check_fields(self, self.FIELDS)


class ExecutablePage(QWizardPage):
    """Run mode, host, deployment, app project, the executable, toolkit path and devices."""

    FIELDS = {
        "run_mode",
        "host",
        "executable",
        "executable_type",
        "args",
        "env",
        "devices",
        "location",
        "cwd",
        "toolkit",
        "project_path",
    }

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Executable Properties"))
        self.setSubTitle(self.tr("What to profile and where: the application runs on the CANN machine under msprof."))
        self.run_mode = QComboBox(self)
        for mode in RUN_MODES:
            self.run_mode.addItem(option_label(mode), mode)
        self.host = QComboBox(self)
        fill_hosts(self.host)
        self.refresh_host = QPushButton(self.tr("Check Host"), self)
        self.refresh_host.setToolTip(self.tr("Look for the CANN toolkit and the NPUs on the host again"))
        self.host_info = MessageArea(self, lines=3)  # what the probe found, or why it could not check
        self.deploy = QCheckBox(self.tr("Deploy the app project to the host before running"), self)
        self.deploy_info = MessageArea(self, lines=2)
        self.deployment_button = QPushButton(self.tr("Deployment…"), self)
        self.project_path = QLineEdit(self)
        self.project_path.setPlaceholderText(self.tr("local folder of the application (optional)"))
        browse_project = QPushButton(self.tr("Browse…"), self)
        browse_project.clicked.connect(self._browse_project)
        self.project_type = QLabel(self)
        self.executable_type = QComboBox(self)
        for kind in EXECUTABLE_TYPES:
            self.executable_type.addItem(option_label(kind), kind)
        self.executable = QLineEdit(self)
        self.executable.setPlaceholderText(
            self.tr("e.g. ./out/main, main.py or run.sh (relative to the working folder)")
        )
        browse_exe = QPushButton(self.tr("Browse…"), self)
        browse_exe.clicked.connect(self._browse_executable)
        self.python = QLineEdit(self)
        self.python_label = QLabel(self.tr("Python interpreter:"), self)
        self.python_note = QLabel(
            self.tr(
                "Note: MindStudio requires absolute paths inside acl Python projects (models, input data): "
                "the script runs from the deployed folder on the host."
            ),
            self,
        )
        self.python_note.setWordWrap(True)
        self.python_note.setStyleSheet("color: #8a6d3b;")
        self.args = QLineEdit(self)
        self.args.setPlaceholderText(self.tr("arguments as in a shell, e.g. --model /opt/m.om --loop 10"))
        self.env = QPlainTextEdit(self)
        self.env.setPlaceholderText(self.tr("NAME=value, one per line"))
        self.env.setMaximumHeight(60)
        self.cwd = QLineEdit(self)
        self.cwd.setPlaceholderText(self.tr("default: the deployed project (Remote) or the project (Local)"))
        self.toolkit = QLineEdit(self)
        self.toolkit.setPlaceholderText(self.tr("filled from the host; e.g. /usr/local/Ascend/ascend-toolkit/latest"))
        self.devices = QLineEdit(self)
        self.devices.setPlaceholderText(self.tr("e.g. 0,1 — sets ASCEND_RT_VISIBLE_DEVICES (empty: all)"))
        self.error = _error_label(self)
        self._detected = ("", "")  # (app project path, its detected type)
        form = QFormLayout(self)
        form.addRow(self.tr("Run mode:"), self.run_mode)
        form.addRow(self.tr("CANN machine:"), _row(self.host, self.refresh_host))
        form.addRow("", self.host_info)
        form.addRow(self.tr("App project path:"), _row(self.project_path, browse_project))
        form.addRow(self.tr("Project type:"), self.project_type)
        form.addRow(self.tr("Deployment:"), _row(self.deploy, self.deployment_button))
        form.addRow("", self.deploy_info)
        form.addRow(self.tr("Executable type:"), self.executable_type)
        form.addRow(self.tr("Executable:"), _row(self.executable, browse_exe))
        form.addRow(self.python_label, self.python)
        form.addRow("", self.python_note)
        form.addRow(self.tr("Arguments:"), self.args)
        form.addRow(self.tr("Environment:"), self.env)
        form.addRow(self.tr("Working folder:"), self.cwd)
        form.addRow(self.tr("Toolkit path:"), self.toolkit)
        form.addRow(self.tr("Devices:"), self.devices)
        form.addRow("", self.error)
        self.run_mode.currentIndexChanged.connect(self._mode_changed)
        self.executable_type.currentIndexChanged.connect(self._type_changed)
        self.project_path.editingFinished.connect(self.update_project_type)
        self.deploy.toggled.connect(self.update_deploy_info)

    # --- job <-> fields --------------------------------------------------------------------------
    def set_job(self, job: ProfilingJob) -> None:
        self.run_mode.setCurrentIndex(max(0, self.run_mode.findData(job.run_mode)))
        index = self.host.findData(job.host)
        if index >= 0:
            self.host.setCurrentIndex(index)
        self.deploy.setChecked(job.deploy)
        self.project_path.setText(job.project_path)
        self.executable_type.setCurrentIndex(max(0, self.executable_type.findData(job.executable_type)))
        self.executable.setText(job.executable)
        self.python.setText(job.python)
        self.args.setText(shlex.join(job.args))
        self.env.setPlainText("\n".join(f"{k}={v}" for k, v in job.env.items()))
        self.cwd.setText(job.cwd)
        self.toolkit.setText(job.toolkit)
        self.devices.setText(",".join(str(d) for d in job.devices))
        self.update_project_type()
        self._mode_changed()
        self._type_changed()

    def fill(self, job: ProfilingJob) -> None:
        """Copy the fields into ``job``; raises ValueError naming the field that cannot be read."""
        from workbench.core.profiler.options import JobError
        from workbench.core.services.runner import parse_devices, parse_env

        job.run_mode = self.run_mode.currentData() or REMOTE
        job.host = self.host.currentData() or "" if job.run_mode == REMOTE else ""
        job.deploy = self.deploy.isChecked()
        job.project_path = self.project_path.text().strip()
        job.project_type = self._detected[1] if self._detected[0] == job.project_path else ""
        job.executable_type = self.executable_type.currentData() or BINARY
        job.executable = self.executable.text().strip()
        job.python = self.python.text().strip() or "python3"
        try:
            job.args = shlex.split(self.args.text())
        except ValueError as exc:
            raise JobError(self.tr("Arguments: {0}").format(exc), "args") from None
        lines = [ln.strip() for ln in self.env.toPlainText().splitlines() if ln.strip()]
        try:
            job.env = parse_env(lines, where=self.tr("Environment"))
        except ValueError as exc:
            raise JobError(str(exc), "env") from None
        job.cwd = self.cwd.text().strip()
        job.toolkit = self.toolkit.text().strip()
        try:
            job.devices = parse_devices(self.devices.text(), where=self.tr("Devices"))
        except ValueError as exc:
            raise JobError(str(exc), "devices") from None

    # --- reactions ---------------------------------------------------------------------------------
    def _mode_changed(self) -> None:
        remote = self.run_mode.currentData() == REMOTE
        self.host.setEnabled(remote)
        self.deploy.setEnabled(remote)
        self.deployment_button.setEnabled(remote)
        self.update_deploy_info()

    def _type_changed(self) -> None:
        python = self.executable_type.currentData() == PYTHON
        for w in (self.python, self.python_label, self.python_note):
            w.setVisible(python)

    def update_project_type(self) -> None:
        path = self.project_path.text().strip()
        if not path:
            self.project_type.setText(self.tr("(no app project: nothing is deployed)"))
        elif not Path(path).is_dir():
            self.project_type.setText(self.tr("{0}: no such folder").format(path))
        else:
            self._detected = (path, detect_project_type(path))  # walks the folder: once per path, not per change
            text = project_type_label(self._detected[1])
            if not is_project(path):
                text += "  " + self.tr("(not a workbench project: runs are kept but not listed in a project)")
            self.project_type.setText(text)
        self.update_deploy_info()
        wizard = self.wizard()
        if wizard is not None:
            wizard.project_page.update_where()

    def update_deploy_info(self) -> None:
        path = self.project_path.text().strip()
        if self.run_mode.currentData() == LOCAL:
            self.deploy_info.setText(self.tr("Local mode runs on this machine: nothing is deployed."))
        elif not path:
            self.deploy_info.setText(self.tr("No app project: the executable must already be on the host."))
        elif not self.deploy.isChecked():
            self.deploy_info.setText(self.tr("Not deployed: the project must already be on the host."))
        else:
            places = [
                f"{m.local} → {m.remote if m.remote.startswith('/') else '~/' + m.remote}" for m in _mappings(path)
            ]
            self.deploy_info.setText(
                self.tr("New and changed files are copied to the host first: {0}").format(", ".join(places))
            )

    def show_host(self, text: str) -> None:
        self.host_info.setText(text)

    def _browse_project(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("App Project Path"), self.project_path.text() or str(Path.home())
        )
        if folder:
            self.project_path.setText(folder)
            self.update_project_type()

    def _browse_executable(self) -> None:
        start = self.project_path.text() or str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Executable"), start)
        if not path:
            return
        root = self.project_path.text().strip()
        if root and Path(path).is_relative_to(root):
            path = Path(path).relative_to(root).as_posix()
        self.executable.setText(str(path))
        if str(path).endswith(".py"):
            self.executable_type.setCurrentIndex(self.executable_type.findData(PYTHON))
        elif str(path).endswith(".sh"):
            self.executable_type.setCurrentIndex(self.executable_type.findData("shell"))

    def validatePage(self) -> bool:  # noqa: N802 - Qt API
        return self.wizard().check_fields(self, self.FIELDS)
