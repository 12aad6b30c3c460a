"""Shared pieces of the System Profiler UI: the host list, translated option labels, the
remembered values and the follower that opens a finished run's report (and announces the
changed history on the application's ``events.runs_changed``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QComboBox

from workbench.ui.context import AppContext

SETTINGS_KEY = "profiler"  # settings.extra[SETTINGS_KEY] = {"last_job": {...}, "toolkits": {host: path}}
translate = QCoreApplication.translate  # under this name pyside6-lupdate finds the strings


def option_label(value: str) -> str:
    """The translated label of a core option value (core's English ``options.LABELS``)."""
    labels = {
        "Remote": translate("Profiler", "Remote"),
        "Local": translate("Profiler", "Local"),
        "binary": translate("Profiler", "Binary"),
        "python": translate("Profiler", "Python script"),
        "shell": translate("Profiler", "Shell script"),
        "task-based": translate("Profiler", "Task-based"),
        "sample-based": translate("Profiler", "Sample-based"),
        "l0": translate("Profiler", "Level 0 (launch and execution time only)"),
        "l1": translate("Profiler", "Level 1 (adds op information)"),
        "l2": translate("Profiler", "Level 2 (adds op attributes)"),
        "off": translate("Profiler", "Off"),
        "cpu": translate("Profiler", "CPU"),
        "mem": translate("Profiler", "Memory"),
        "disk": translate("Profiler", "Disk"),
        "network": translate("Profiler", "Network"),
    }
    return labels.get(value, value)


def issue_level_label(level: str) -> str:
    return {
        "error": translate("Profiler", "Error"),
        "warning": translate("Profiler", "Warning"),
        "info": translate("Profiler", "Note"),
    }.get(level, level)


def fill_hosts(combo: QComboBox) -> None:
    """Every CANN machine, the demo host first and labelled as simulated; data = host name."""
    from workbench.ui.hosts.combo import fill_host_combo

    fill_host_combo(combo)


def remembered(context: AppContext) -> dict:
    """The profiler's remembered values in the settings (last job, toolkit path per host)."""
    value = context.settings.extra.get(SETTINGS_KEY)
    return value if isinstance(value, dict) else {}


def remember(context: AppContext, **values: Any) -> None:
    data = dict(remembered(context))
    for key, value in values.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key] = {**data[key], **value}
        else:
            data[key] = value
    context.settings.extra[SETTINGS_KEY] = data
    context.save_settings()


class ReportFollower(QObject):
    """Lives on the application's event hub (the dialog that started the task may be gone): when
    the task succeeds, opens the report it returns and announces the changed history; on failure
    says why."""

    def __init__(self, context: AppContext, task: Any, action: str, report_failures: bool = True) -> None:
        super().__init__(context.events)
        self.context = context
        self.action = action
        self.report_failures = report_failures
        task.succeeded.connect(self._succeeded)
        task.failed.connect(self._failed)
        task.finished.connect(self._finished)

    def _succeeded(self, path: Any) -> None:
        self.context.events.runs_changed.emit()
        if isinstance(path, (str, Path)):
            self.context.open_report(Path(path))

    def _failed(self, message: str, exc: object) -> None:
        from workbench.ui.hosts.widgets import task_error

        message = task_error(message, exc)
        self.context.events.runs_changed.emit()
        self.context.show_status(message)
        if self.report_failures:
            self.context.warn(self.action, message)  # not exec(): never blocks the event loop

    def _finished(self) -> None:
        self.deleteLater()


def follow(context: AppContext, task: Any, action: str, report_failures: bool = True) -> Any:
    """Open the task's resulting report when it succeeds (a failure goes to the status bar, and
    to a message box when ``report_failures``); returns the task."""
    ReportFollower(context, task, action, report_failures)
    return task
