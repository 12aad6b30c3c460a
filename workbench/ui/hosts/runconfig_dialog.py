"""Ascend ▸ Run Configurations (per project): name, executable, arguments, environment, mode
Remote/Local, host, devices (ASCEND_RT_VISIBLE_DEVICES). Run deploys first (Remote), streams the
output into the Output dock, Stop cancels (the remote process group is killed)."""

from __future__ import annotations

import dataclasses
import shlex

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from workbench.core.services import demohost
from workbench.core.services.runconfig import (
    LOCAL,
    REMOTE,
    RunConfigError,
    RunConfiguration,
    load_run_configurations,
    run_configuration,
    save_run_configurations,
)
from workbench.core.services.runner import parse_devices, parse_env
from workbench.ui.context import AppContext
from workbench.ui.hosts.combo import default_host, fill_host_combo, project_host
from workbench.ui.hosts.widgets import MessageArea, task_error


def _run(config: RunConfiguration, project, transport, *, progress, cancel):
    """Work function: fill in the detected toolkit for Remote runs, then run the configuration."""
    if config.mode == REMOTE and not config.toolkit and transport is not None:
        from workbench.core.services.toolkit import ToolkitNotFound, detect_toolkit

        host = demohost.resolve_host(config.host)
        try:
            info = detect_toolkit(transport, host.toolkit or None, cancel=cancel)
            config = dataclasses.replace(config, toolkit=info.set_env)
        except ToolkitNotFound as exc:
            progress.partial(("stderr", f"{exc}; running without the CANN environment"))
    return run_configuration(config, project, transport=transport, progress=progress, cancel=cancel)


class RunConfigurationsDialog(QDialog):
    def __init__(self, context: AppContext, project, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Run Configurations — {0}").format(project.name))
        self.context = context
        self.project = project
        self.configs: list[RunConfiguration] = []
        self.task = None
        self.list = QListWidget(self)
        self.list.currentRowChanged.connect(self._show)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self.add_config)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.clicked.connect(self.remove_config)
        left = QVBoxLayout()
        left.addWidget(self.list, 1)
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        left.addLayout(row)
        lw = QWidget(self)
        lw.setLayout(left)
        self.name = QLineEdit(self)
        self.executable = QLineEdit(self)
        self.args = QLineEdit(self)
        self.args.setPlaceholderText(self.tr("arguments as in a shell, e.g. --model resnet50.om --loop 10"))
        self.env = QPlainTextEdit(self)
        self.env.setPlaceholderText(self.tr("NAME=value, one per line"))
        self.env.setMaximumHeight(70)
        self.mode = QComboBox(self)
        self.mode.addItem(self.tr("Remote"), REMOTE)
        self.mode.addItem(self.tr("Local"), LOCAL)
        self.host = QComboBox(self)
        fill_host_combo(self.host, default_host(project))  # the project's CANN machine until a config says
        self.devices = QLineEdit(self)
        self.devices.setPlaceholderText(self.tr("e.g. 0,1 — sets ASCEND_RT_VISIBLE_DEVICES"))
        self.cwd = QLineEdit(self)
        self.cwd.setPlaceholderText(self.tr("default: the deployed folder (Remote) or the project (Local)"))
        self.deploy_first = QCheckBox(self.tr("Deploy the project before running"), self)
        form = QFormLayout()
        form.addRow(self.tr("Name:"), self.name)
        form.addRow(self.tr("Executable:"), self.executable)
        form.addRow(self.tr("Arguments:"), self.args)
        form.addRow(self.tr("Environment:"), self.env)
        form.addRow(self.tr("Run mode:"), self.mode)
        form.addRow(self.tr("CANN machine:"), self.host)
        form.addRow(self.tr("Devices:"), self.devices)
        form.addRow(self.tr("Working folder:"), self.cwd)
        form.addRow("", self.deploy_first)
        self.status = MessageArea(self, lines=3)
        self.save_button = QPushButton(self.tr("Save"), self)
        self.save_button.clicked.connect(self._save_clicked)  # not save(): clicked(bool) would fill its parameters
        self.run_button = QPushButton(self.tr("Run"), self)
        self.run_button.clicked.connect(self.run)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        actions = QHBoxLayout()
        for b in (self.save_button, self.run_button, self.stop_button):
            actions.addWidget(b)
        actions.addStretch(1)
        right = QVBoxLayout()
        right.addLayout(form)
        right.addLayout(actions)
        right.addWidget(self.status)
        right.addStretch(1)
        rw = QWidget(self)
        rw.setLayout(right)
        split = QSplitter(self)
        split.addWidget(lw)
        split.addWidget(rw)
        split.setSizes([200, 560])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        self.resize(820, 480)
        try:
            self.configs = load_run_configurations(project)
        except RunConfigError as exc:
            self.status.setText(str(exc))
        self._refresh()

    def _refresh(self, select: int = 0) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        for c in self.configs:
            self.list.addItem(self.tr("{0}  ({1})").format(c.name, self._mode_label(c.mode)))
        self.list.blockSignals(False)
        if self.configs:
            self.list.setCurrentRow(min(select, len(self.configs) - 1))
            self._show(self.list.currentRow())

    def _mode_label(self, mode: str) -> str:
        index = self.mode.findData(mode)
        return self.mode.itemText(index) if index >= 0 else mode

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self.configs):
            return
        c = self.configs[row]
        self.name.setText(c.name)
        self.executable.setText(c.executable)
        self.args.setText(shlex.join(c.args))
        self.env.setPlainText("\n".join(f"{k}={v}" for k, v in c.env.items()))
        self.mode.setCurrentIndex(max(0, self.mode.findData(c.mode)))
        self.host.setCurrentIndex(max(0, self.host.findData(c.host)))
        self.devices.setText(",".join(str(d) for d in c.devices))
        self.cwd.setText(c.cwd)
        self.deploy_first.setChecked(c.deploy_first)

    def form_config(self) -> RunConfiguration:
        try:
            args = shlex.split(self.args.text())
        except ValueError as exc:
            raise RunConfigError(self.tr("field 'args': {0}").format(exc)) from None
        env_lines = [ln for ln in self.env.toPlainText().splitlines() if ln.strip()]
        try:
            env = parse_env(env_lines, where=self.tr("Environment"))
            devices = parse_devices(self.devices.text(), where=self.tr("Devices"))
        except ValueError as exc:
            raise RunConfigError(str(exc)) from None
        return RunConfiguration(
            name=self.name.text().strip(),
            executable=self.executable.text().strip(),
            args=args,
            env=env,
            mode=self.mode.currentData(),
            host=self.host.currentData() or "",
            devices=list(devices or []),
            cwd=self.cwd.text().strip(),
            deploy_first=self.deploy_first.isChecked(),
        ).validate()

    def add_config(self) -> None:
        names = {c.name for c in self.configs}
        n = 1
        while f"run{n}" in names:
            n += 1
        devices = [d for d in self.project.extra.get("devices", []) if isinstance(d, int)]
        self.configs.append(
            RunConfiguration(
                name=f"run{n}",
                executable="./main",
                mode=REMOTE,
                host=project_host(self.project) or self.host.currentData() or demohost.DEMO_NAME,
                devices=devices,
            )
        )
        self._refresh(len(self.configs) - 1)

    def remove_config(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.configs):
            del self.configs[row]
            self._store(validate_current=False)
            self._refresh()

    def _save_clicked(self) -> None:
        self.save()

    def save(self) -> bool:
        """Take the form into the selected configuration and write them all; False (the reason in
        the status line) when a field is wrong or the project cannot be written."""
        return self._store(validate_current=True)

    def _store(self, validate_current: bool) -> bool:
        try:
            if validate_current and 0 <= self.list.currentRow() < len(self.configs):
                self.configs[self.list.currentRow()] = self.form_config()
            save_run_configurations(self.project, self.configs)
        except (RunConfigError, OSError) as exc:
            self.status.setText(str(exc))
            return False
        self.status.setText(self.tr("Saved."))
        row = self.list.currentRow()
        self._refresh(row)
        return True

    def run(self):
        if not self.save():
            return None
        config = self.configs[self.list.currentRow()]
        transport = self.context.host_transport(config.host) if config.mode == REMOTE else None
        self.task = self.context.bridge.start(
            _run, config, self.project, transport, title=self.tr("Run {0}").format(config.name), kind="run"
        )
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.task.succeeded.connect(self._exited)
        self.task.failed.connect(self._failed)
        self.task.cancelled.connect(self._stopped)
        self.task.finished.connect(self._run_finished)
        return self.task

    # Bound methods (not lambdas): Qt drops the connection when the dialog is deleted.
    def _exited(self, result) -> None:
        self.status.setText(self.tr("Exited with status {0}.").format(result.exit_status))

    def _failed(self, message: str, exc: object) -> None:
        self.status.setText(task_error(message, exc))

    def _stopped(self) -> None:
        self.status.setText(self.tr("Stopped."))

    def _run_finished(self) -> None:
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
