"""New Profiling, pages 3 and 4: Profiling Options (with the msprof command shown live) and the
checks before starting (the exact command, copyable, and what preflight found on the host)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QStyle,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from workbench.core.profiler.chips import metric_groups
from workbench.core.profiler.command import command_text
from workbench.core.profiler.options import (
    FREQ_RANGE,
    HOST_SYS,
    SAMPLE_BASED,
    TASK_BASED,
    TASK_TIME_LEVELS,
    ProfilingJob,
)
from workbench.ui.hosts.widgets import MessageArea, task_error
from workbench.ui.profiler.common import issue_level_label, option_label
from workbench.ui.profiler.pages_setup import _error_label


class CommandBox(QWidget):
    """A read-only monospace box holding one command line, with a Copy button."""

    def __init__(self, lines: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setObjectName("MsprofCommand")
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        height = self.text.fontMetrics().lineSpacing() * lines + 14
        self.text.setFixedHeight(height)
        self.setFixedHeight(height)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.copy_button = QPushButton(self.tr("Copy"), self)
        self.copy_button.setToolTip(self.tr("Copy the msprof command line"))
        self.copy_button.clicked.connect(self.copy)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)

    def set_command(self, text: str) -> None:
        self.text.setPlainText(text)
        self.text.verticalScrollBar().setValue(0)

    def command(self) -> str:
        return self.text.toPlainText()

    def copy(self) -> str:
        QGuiApplication.clipboard().setText(self.command())
        return self.command()


class OptionsPage(QWizardPage):
    """Every msprof switch the wizard offers, defaults as msprof's (core ProfilingJob)."""

    FIELDS = {
        "ai_core",
        "aic_mode",
        "aic_metrics",
        "aic_freq",
        "task_time",
        "msproftx",
        "ascendcl",
        "runtime_api",
        "os_runtime_api",
        "graph_engine",
        "aicpu",
        "sys_hardware_mem",
        "sys_hardware_mem_freq",
        "host_sys",
        "hccl",
    }

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Profiling Options"))
        self.setSubTitle(
            self.tr("What msprof collects. The defaults are msprof's; the command line below follows every change.")
        )
        # AI Core
        self.ai_core = QGroupBox(self.tr("AI Core profiling"), self)
        self.ai_core.setCheckable(True)
        self.task_based = QRadioButton(option_label(TASK_BASED), self)
        self.sample_based = QRadioButton(option_label(SAMPLE_BASED), self)
        self.aic_mode = QButtonGroup(self)
        self.aic_mode.addButton(self.task_based)
        self.aic_mode.addButton(self.sample_based)
        self.aic_metrics = QComboBox(self)
        self.aic_freq = QSpinBox(self)
        self.aic_freq.setRange(*FREQ_RANGE)
        self.aic_freq.setSuffix(self.tr(" Hz"))
        self.chip = QLabel(self)
        aic = QFormLayout(self.ai_core)
        modes = QHBoxLayout()
        modes.addWidget(self.task_based)
        modes.addWidget(self.sample_based)
        modes.addStretch(1)
        aic.addRow(self.tr("Mode:"), modes)
        aic.addRow(self.tr("Metrics:"), self.aic_metrics)
        aic.addRow(self.tr("Sampling frequency:"), self.aic_freq)
        aic.addRow("", self.chip)
        # Tasks and APIs
        apis = QGroupBox(self.tr("Tasks and API traces"), self)
        self.task_time = QComboBox(self)
        for level in TASK_TIME_LEVELS:
            self.task_time.addItem(option_label(level), level)
        self.ascendcl = QCheckBox(self.tr("AscendCL API"), self)
        self.runtime_api = QCheckBox(self.tr("Runtime API"), self)
        self.os_runtime_api = QCheckBox(self.tr("OS Runtime API (needs perf and ltrace on the host)"), self)
        self.graph_engine = QCheckBox(self.tr("Graph Engine"), self)
        self.aicpu = QCheckBox(self.tr("AI CPU"), self)
        self.msproftx = QCheckBox(self.tr("MsprofTX (application markers)"), self)
        self.hccl = QCheckBox(self.tr("HCCL (collective communication)"), self)
        api = QGridLayout(apis)
        api.addWidget(QLabel(self.tr("Task time:"), self), 0, 0)
        api.addWidget(self.task_time, 0, 1)
        for i, box in enumerate(
            (
                self.ascendcl,
                self.runtime_api,
                self.os_runtime_api,
                self.graph_engine,
                self.aicpu,
                self.msproftx,
                self.hccl,
            )
        ):
            api.addWidget(box, 1 + i // 2, i % 2)
        # Device and host sampling
        system = QGroupBox(self.tr("System sampling"), self)
        self.sys_hardware_mem = QCheckBox(self.tr("Device memory / DDR"), self)
        self.sys_hardware_mem_freq = QSpinBox(self)
        self.sys_hardware_mem_freq.setRange(*FREQ_RANGE)
        self.sys_hardware_mem_freq.setSuffix(self.tr(" Hz"))
        self.host_sys = {v: QCheckBox(option_label(v), self) for v in HOST_SYS}
        self.host_sys["disk"].setToolTip(self.tr("Host disk sampling needs iotop on the host"))
        sysl = QGridLayout(system)
        sysl.addWidget(self.sys_hardware_mem, 0, 0)
        sysl.addWidget(self.sys_hardware_mem_freq, 0, 1)
        sysl.addWidget(QLabel(self.tr("Host:"), self), 1, 0)
        hosts = QHBoxLayout()
        for box in self.host_sys.values():
            hosts.addWidget(box)
        hosts.addStretch(1)
        sysl.addLayout(hosts, 1, 1)
        defaults = QPushButton(self.tr("Restore Defaults"), self)
        defaults.clicked.connect(self.restore_defaults)
        self.preview = CommandBox(5, self)
        self.error = _error_label(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.ai_core)
        layout.addWidget(apis)
        layout.addWidget(system)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("msprof command:"), self))
        row.addStretch(1)
        row.addWidget(defaults)
        layout.addLayout(row)
        layout.addWidget(self.preview)
        layout.addWidget(self.error)
        self.set_chip("")
        for w in (
            self.ai_core,
            self.ascendcl,
            self.runtime_api,
            self.os_runtime_api,
            self.graph_engine,
            self.aicpu,
            self.msproftx,
            self.hccl,
            self.sys_hardware_mem,
            *self.host_sys.values(),
        ):
            w.toggled.connect(self.changed)
        self.aic_mode.buttonToggled.connect(self.changed)
        for w in (self.aic_metrics, self.task_time):
            w.currentIndexChanged.connect(self.changed)
        for w in (self.aic_freq, self.sys_hardware_mem_freq):
            w.valueChanged.connect(self.changed)

    def set_chip(self, soc: str) -> None:
        """Offer only the metric groups the host's chip supports (unknown chip: the common ones)."""
        current = self.aic_metrics.currentData()
        self.aic_metrics.blockSignals(True)
        self.aic_metrics.clear()
        for group in metric_groups(soc or None):
            self.aic_metrics.addItem(group, group)
        index = self.aic_metrics.findData(current)
        self.aic_metrics.setCurrentIndex(max(0, index))
        self.aic_metrics.blockSignals(False)
        self.chip.setText(
            self.tr("Metric groups of {0}").format(soc)
            if soc
            else self.tr("Chip not known yet: only the groups every chip has are offered")
        )
        self.changed()

    def set_job(self, job: ProfilingJob) -> None:
        self.ai_core.setChecked(job.ai_core)
        (self.sample_based if job.aic_mode == SAMPLE_BASED else self.task_based).setChecked(True)
        index = self.aic_metrics.findData(job.aic_metrics)
        if index < 0:  # a group this chip lacks: keep it visible so the check can name it
            self.aic_metrics.addItem(job.aic_metrics, job.aic_metrics)
            index = self.aic_metrics.count() - 1
        self.aic_metrics.setCurrentIndex(index)
        self.aic_freq.setValue(job.aic_freq)
        self.task_time.setCurrentIndex(max(0, self.task_time.findData(job.task_time)))
        for name in (
            "ascendcl",
            "runtime_api",
            "os_runtime_api",
            "graph_engine",
            "aicpu",
            "msproftx",
            "hccl",
            "sys_hardware_mem",
        ):
            getattr(self, name).setChecked(getattr(job, name))
        self.sys_hardware_mem_freq.setValue(job.sys_hardware_mem_freq)
        for value, box in self.host_sys.items():
            box.setChecked(value in job.host_sys)
        self.changed()

    def fill(self, job: ProfilingJob) -> None:
        job.ai_core = self.ai_core.isChecked()
        job.aic_mode = SAMPLE_BASED if self.sample_based.isChecked() else TASK_BASED
        job.aic_metrics = self.aic_metrics.currentData() or job.aic_metrics
        job.aic_freq = self.aic_freq.value()
        job.task_time = self.task_time.currentData()
        for name in (
            "ascendcl",
            "runtime_api",
            "os_runtime_api",
            "graph_engine",
            "aicpu",
            "msproftx",
            "hccl",
            "sys_hardware_mem",
        ):
            setattr(job, name, getattr(self, name).isChecked())
        job.sys_hardware_mem_freq = self.sys_hardware_mem_freq.value()
        job.host_sys = [v for v, box in self.host_sys.items() if box.isChecked()]

    def restore_defaults(self) -> None:
        self.set_job(ProfilingJob())

    def changed(self, *_args) -> None:
        self.aic_freq.setEnabled(self.sample_based.isChecked())
        self.sys_hardware_mem_freq.setEnabled(self.sys_hardware_mem.isChecked())
        wizard = self.wizard()
        if wizard is not None:
            self.preview.set_command(wizard.command_preview())

    def initializePage(self) -> None:  # noqa: N802 - Qt API
        self.changed()

    def validatePage(self) -> bool:  # noqa: N802 - Qt API
        return self.wizard().check_fields(self, self.FIELDS)


class CheckPage(QWizardPage):
    """The exact command and the checks preflight makes on the host; Start is enabled when no
    check blocks the run."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Command and Checks"))
        self.setSubTitle(
            self.tr("The exact msprof command that will run on the host, and what was checked there before starting.")
        )
        self.command = CommandBox(5, self)
        self.where = QLabel(self)
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.state = MessageArea(self, lines=3)
        self.issues = QListWidget(self)
        self.issues.setWordWrap(True)
        self.issues.setObjectName("PreflightIssues")
        self.check_again = QPushButton(self.tr("Check Again"), self)
        self.check_again.clicked.connect(self.run_checks)
        self.result = None  # CheckResult of the last finished check
        self._task = None
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("msprof command:"), self))
        layout.addWidget(self.command)
        layout.addWidget(self.where)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Checks before starting:"), self))
        row.addStretch(1)
        row.addWidget(self.check_again)
        layout.addLayout(row)
        layout.addWidget(self.issues, 1)
        layout.addWidget(self.state)

    def initializePage(self) -> None:  # noqa: N802 - Qt API
        self.command.set_command(self.wizard().command_preview())
        self.run_checks()

    def cleanupPage(self) -> None:  # noqa: N802 - Qt API
        self._cancel()

    def _cancel(self) -> None:
        if self._task is not None and not self._task.state.finished:
            self._task.cancel()
        self._task = None

    def run_checks(self) -> None:
        self._cancel()
        self.result = None
        self.issues.clear()
        self.where.clear()
        self.state.setText(self.tr("Checking on the host…"))
        self.check_again.setEnabled(False)
        self._task = self.wizard().start_checks()
        self._task.succeeded.connect(self._checked)
        self._task.failed.connect(self._check_failed)
        self._task.finished.connect(self._check_finished)
        self.completeChanged.emit()

    def _checked(self, result) -> None:
        self.result = result
        self.command.set_command(command_text(result.argv))
        self.where.setText(
            self.tr(
                "CANN {0} · working folder on the host: {1}\nOutput: {2}/RUN_ID (RUN_ID: the run's "
                "date and time, chosen when it starts)"
            ).format(
                result.version or self.tr("unknown"), result.workdir or self.tr("the login folder"), result.remote_base
            )
        )
        style = self.style()
        icons = {
            "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
            "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
            "info": QStyle.StandardPixmap.SP_MessageBoxInformation,
        }
        for issue in result.issues:
            item = QListWidgetItem(
                style.standardIcon(icons.get(issue.level, icons["info"])),
                f"{issue_level_label(issue.level)}: {issue.message}",
            )
            item.setData(Qt.ItemDataRole.UserRole, issue)
            self.issues.addItem(item)
        if not result.issues:
            self.issues.addItem(
                QListWidgetItem(
                    style.standardIcon(QStyle.StandardPixmap.SP_DialogApplyButton), self.tr("No problems found.")
                )
            )
        blocking = [i for i in result.issues if i.blocking]
        if blocking:
            self.state.setText(
                self.tr(
                    "{0} problem(s) must be fixed before starting: go Back and change the "
                    "options, or fix the host, then Check Again."
                ).format(len(blocking))
            )
        elif result.issues:
            self.state.setText(self.tr("Ready to start (read the notes above)."))
        else:
            self.state.setText(self.tr("All checks passed: ready to start."))
        self.completeChanged.emit()

    def _check_failed(self, message: str, exc: object) -> None:
        self.state.setText(self.tr("The checks could not run: {0}").format(task_error(message, exc)))

    def _check_finished(self) -> None:
        self.check_again.setEnabled(True)
        self.completeChanged.emit()

    def blocking(self) -> list:
        return [] if self.result is None else [i for i in self.result.issues if i.blocking]

    def isComplete(self) -> bool:  # noqa: N802 - Qt API
        return self.result is not None and not self.blocking()
