"""The host panel (a dock): the CANN machine the project works with, its toolkit and NPUs, and a
device picker. Ticked NPUs become the project's default devices (ASCEND_RT_VISIBLE_DEVICES) for new
run configurations and profiling runs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.services import demohost
from workbench.ui.context import AppContext
from workbench.ui.hosts.combo import default_host, fill_host_combo
from workbench.ui.hosts.machines_dialog import _check, _memory_text
from workbench.ui.hosts.widgets import MessageArea, task_error


class HostPanel(QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("HostPanel")
        self.context = context
        self.host = QComboBox(self)
        self.host.currentIndexChanged.connect(self._host_changed)
        self.check_button = QPushButton(self.tr("Check"), self)
        self.check_button.setToolTip(self.tr("Connect, find the CANN toolkit and list the NPUs"))
        self.check_button.clicked.connect(self.check)
        self.status = MessageArea(self, lines=3)  # fixed height: the NPU list below never moves
        self.status.setText(self.tr("Not checked yet."))
        self.devices = QListWidget(self)
        self.devices.itemChanged.connect(self._devices_changed)
        self.env = QLabel(self)
        self.env.setWordWrap(True)
        self.env.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        row.addWidget(self.host, 1)
        row.addWidget(self.check_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.devices, 1)
        layout.addWidget(self.env)
        self.reload_hosts()
        context.events.project_changed.connect(self._project_changed)

    def reload_hosts(self) -> None:
        """List the CANN machines again, the open project's own host selected (the demo host only
        when the project names none, or with no project open)."""
        project = self.context.project
        fill_host_combo(self.host, default_host(project) if project is not None else None)
        self._show_env()

    def _project_changed(self, _project) -> None:
        self.reload_hosts()

    def _host_changed(self, _i: int) -> None:
        self.devices.clear()
        self.status.setText(self.tr("Not checked yet."))
        project = self.context.project
        if project is not None and self.host.currentData():
            project.remote.host = self.host.currentData()
            project.save()
        self._show_env()

    def check(self):
        name = self.host.currentData()
        if not name:
            return None
        host = demohost.resolve_host(name) if name != demohost.DEMO_NAME else demohost.all_hosts()[0]
        self.check_button.setEnabled(False)
        self.status.setText(self.tr("Checking {0}…").format(name))
        task = self.context.bridge.start(
            _check, host, self.context.prompter, title=self.tr("Check host {0}").format(name), kind="host"
        )
        task.succeeded.connect(self._show_check)
        task.failed.connect(self._failed)
        task.finished.connect(self._finished)
        return task

    def _failed(self, message: str, exc: object) -> None:
        self.status.setText(self.tr("Connection failed: {0}").format(task_error(message, exc)))

    def _finished(self) -> None:
        self.check_button.setEnabled(True)

    def _show_check(self, result: dict) -> None:
        if not result.get("toolkit_path"):
            self.status.setText(self.tr("No CANN toolkit found: {0}").format("; ".join(result.get("errors", []))))
            return
        sim = self.tr(" (simulated)") if result.get("simulated") else ""
        self.status.setText(self.tr("CANN {0}{1}").format(result.get("cann_version") or "?", sim))
        chosen = set(self.project_devices())
        self.devices.blockSignals(True)
        self.devices.clear()
        devices = result.get("devices", [])
        # Atlas A3 (and 310P Duo) list two chips per NPU: each row is one chip, picked by its device id
        multi = len({d.get("id") for d in devices}) < len(devices)
        for d in devices:
            soc = d.get("soc_version")
            if not soc and d.get("soc_candidates"):
                soc = self.tr("{0}, SoC version ambiguous: {1}").format(d.get("chip"), " / ".join(d["soc_candidates"]))
            where = f"NPU {d.get('id')}"
            if multi:
                where = self.tr("NPU {0} chip {1} (device {2})").format(d.get("id"), d.get("chip_id"), _device(d))
            item = QListWidgetItem(f"{where} · {soc or d.get('chip')} · {d.get('health')} · {_memory_text(d)}")
            item.setToolTip(item.text())
            item.setData(Qt.ItemDataRole.UserRole, _device(d) if multi else d.get("id"))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if d.get("id") in chosen else Qt.CheckState.Unchecked)
            self.devices.addItem(item)
        self.devices.blockSignals(False)
        self._show_env()

    def selected_devices(self) -> list[int]:
        return [
            self.devices.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(self.devices.count())
            if self.devices.item(i).checkState() == Qt.CheckState.Checked
        ]

    def project_devices(self) -> list[int]:
        project = self.context.project
        devices = project.extra.get("devices", []) if project is not None else []
        return [d for d in devices if isinstance(d, int)]

    def _devices_changed(self, _item) -> None:
        project = self.context.project
        if project is not None:
            project.extra["devices"] = self.selected_devices()
            project.save()
        self._show_env()

    def _show_env(self) -> None:
        devices = self.project_devices()
        if self.context.project is None:
            self.env.setText(self.tr("Open a project to keep a device choice."))
        elif devices:
            self.env.setText(self.tr("Runs use ASCEND_RT_VISIBLE_DEVICES={0}").format(",".join(map(str, devices))))
        else:
            self.env.setText(self.tr("No NPU ticked: runs see every NPU."))


def _device(d: dict) -> object:
    """The chip's device id (Phy-ID / Device column of npu-smi info), else its NPU id."""
    return d.get("device_id") if d.get("device_id") is not None else d.get("id")
