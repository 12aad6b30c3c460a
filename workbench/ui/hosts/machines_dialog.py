"""Ascend ▸ CANN Machines: add, edit, remove and test hosts; import them from ~/.ssh/config.

The demo host (simulated CANN) is always listed first and cannot be edited. "Test Connection"
runs the core ``check_host`` as a task and shows the toolkit, its tools and the NPUs found by
``npu-smi info``, marking a simulated toolkit as such. Passwords and passphrases are asked when
needed (``QtPrompter``) and never stored.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.services import demohost, sshconfig
from workbench.core.services.hosts import AUTH_METHODS, Host, HostError, HostStore
from workbench.core.services.toolkit import check_host
from workbench.ui.context import AppContext
from workbench.ui.hosts.widgets import MessageArea, task_error


def _check(host: Host, prompter, *, progress, cancel) -> dict:
    """Work function: resolve the demo host's toolkit if needed, connect, detect, read npu-smi."""
    from workbench.core.services.ssh import transport_for  # paramiko: not before the window's first paint

    if host.name == demohost.DEMO_NAME and host.simulated:
        host = demohost.demo_host()
    transport = transport_for(host, prompter)
    try:
        return check_host(transport, host.toolkit or None, progress=progress, cancel=cancel)
    finally:
        transport.close()


class CannMachinesDialog(QDialog):
    hosts_changed = Signal()

    def __init__(self, context: AppContext, store: HostStore | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("CANN Machines"))
        self.context = context
        self.store = store or HostStore()
        self.last_check: dict | None = None
        self.list = QListWidget(self)
        self.list.currentRowChanged.connect(self._show_host)
        add = QPushButton(self.tr("Add"), self)
        add.clicked.connect(self.add_host)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.clicked.connect(self.remove_host)
        imp = QPushButton(self.tr("Import ~/.ssh/config…"), self)
        imp.clicked.connect(self._import_clicked)  # not import_ssh_config: clicked(bool) would be its path
        left = QVBoxLayout()
        left.addWidget(self.list, 1)
        row = QHBoxLayout()
        for b in (add, self.remove_button):
            row.addWidget(b)
        left.addLayout(row)
        left.addWidget(imp)
        lw = QWidget(self)
        lw.setLayout(left)

        self.name = QLineEdit(self)
        self.hostname = QLineEdit(self)
        self.port = QSpinBox(self)
        self.port.setRange(1, 65535)
        self.port.setValue(22)
        self.user = QLineEdit(self)
        self.auth = QComboBox(self)
        for method, label in zip(
            AUTH_METHODS,
            (
                self.tr("Automatic (agent, keys, then password)"),
                self.tr("SSH agent"),
                self.tr("Key file"),
                self.tr("Password"),
            ),
        ):
            self.auth.addItem(label, method)
        self.key_file = QLineEdit(self)
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._browse_key)
        self.browse_button = browse
        key_row = QHBoxLayout()
        key_row.addWidget(self.key_file, 1)
        key_row.addWidget(browse)
        self.proxy_jump = QLineEdit(self)
        self.proxy_jump.setPlaceholderText(self.tr("another host's name, or user@host:port"))
        self.toolkit = QLineEdit(self)
        self.toolkit.setPlaceholderText(self.tr("detected (/usr/local/Ascend/ascend-toolkit/latest, …)"))
        self.form = QFormLayout()
        self.form.addRow(self.tr("Name:"), self.name)
        self.form.addRow(self.tr("Host name:"), self.hostname)
        self.form.addRow(self.tr("Port:"), self.port)
        self.form.addRow(self.tr("User:"), self.user)
        self.form.addRow(self.tr("Authentication:"), self.auth)
        self.form.addRow(self.tr("Key file:"), key_row)
        self.form.addRow(self.tr("ProxyJump:"), self.proxy_jump)
        self.form.addRow(self.tr("Toolkit path:"), self.toolkit)
        self.save_button = QPushButton(self.tr("Save Host"), self)
        self.save_button.clicked.connect(self.save_host)
        self.test_button = QPushButton(self.tr("Test Connection"), self)
        self.test_button.clicked.connect(self.test_connection)
        actions = QHBoxLayout()
        actions.addWidget(self.save_button)
        actions.addWidget(self.test_button)
        actions.addStretch(1)
        self.status = MessageArea(self, lines=4)  # fixed height: the table below never moves
        self.devices = QTableWidget(0, 5, self)
        self.devices.setHorizontalHeaderLabels(
            [self.tr("NPU"), self.tr("Chip"), self.tr("--soc_version"), self.tr("Health"), self.tr("Memory")]
        )
        self.devices.horizontalHeader().setStretchLastSection(True)
        self.devices.verticalHeader().setVisible(False)
        box = QGroupBox(self.tr("Host"), self)
        bl = QVBoxLayout(box)
        bl.addLayout(self.form)
        bl.addLayout(actions)
        bl.addWidget(self.status)
        bl.addWidget(self.devices, 1)
        split = QSplitter(self)
        split.addWidget(lw)
        split.addWidget(box)
        split.setSizes([220, 520])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        self.resize(860, 560)
        self.reload()

    # --- list --------------------------------------------------------------------------------------
    def hosts(self) -> list[Host]:
        return demohost.all_hosts(self.store)

    def reload(self, select: str | None = None) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        errors = []
        try:
            hosts = self.hosts()
        except HostError as exc:
            errors.append(str(exc))
            hosts = [demohost.Host(name=demohost.DEMO_NAME, hostname="local", simulated=True)]
        for h in hosts:
            text = self.tr("Demo host (simulated CANN)") if self._is_demo(h) else f"{h.name}  —  {h.label}"
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, h)
            self.list.addItem(item)
        self.list.blockSignals(False)
        names = [self.list.item(i).data(Qt.ItemDataRole.UserRole).name for i in range(self.list.count())]
        self.list.setCurrentRow(names.index(select) if select in names else 0)
        self._show_host(self.list.currentRow())
        if errors:
            self.status.setText("\n".join(errors))

    @staticmethod
    def _is_demo(h: Host) -> bool:
        return h.name == demohost.DEMO_NAME and h.simulated and h.hostname == "local"

    def current_host(self) -> Host | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def _show_host(self, _row: int) -> None:
        h = self.current_host()
        editable = h is not None and not self._is_demo(h)
        for w in (
            self.name,
            self.hostname,
            self.port,
            self.user,
            self.auth,
            self.key_file,
            self.proxy_jump,
            self.toolkit,
            self.save_button,
            self.remove_button,
            self.browse_button,
        ):
            w.setEnabled(editable)
        if h is None:
            return
        self.name.setText(h.name)
        self.hostname.setText(h.hostname)
        self.port.setValue(h.port)
        self.user.setText(h.user)
        self.auth.setCurrentIndex(max(0, self.auth.findData(h.auth)))
        self.key_file.setText(h.key_file)
        self.proxy_jump.setText(h.proxy_jump)
        self.toolkit.setText(h.toolkit)
        self.status.setText(
            self.tr("This machine, with the simulated CANN toolkit: no Ascend hardware needed.")
            if self._is_demo(h)
            else ""
        )
        self.devices.setRowCount(0)

    def form_host(self) -> Host:
        return Host(
            name=self.name.text().strip(),
            hostname=self.hostname.text().strip(),
            port=self.port.value(),
            user=self.user.text().strip(),
            auth=self.auth.currentData(),
            key_file=self.key_file.text().strip(),
            proxy_jump=self.proxy_jump.text().strip(),
            toolkit=self.toolkit.text().strip(),
        ).validate()

    # --- edits ---------------------------------------------------------------------------------------
    def add_host(self) -> None:
        base, n = "new-host", 1
        existing = {h.name for h in self.store.load()}
        name = base
        while name in existing or name == demohost.DEMO_NAME:
            n += 1
            name = f"{base}-{n}"
        try:
            self.store.add(Host(name=name, hostname="example.com"))
        except HostError as exc:
            QMessageBox.warning(self, self.tr("CANN Machines"), str(exc))
            return
        self.reload(select=name)
        self.hostname.setFocus()
        self.hostname.selectAll()
        self.hosts_changed.emit()

    def save_host(self) -> bool:
        old = self.current_host()
        try:
            host = self.form_host()
            if old is not None and old.name != host.name:
                self.store.add(host)
                self.store.remove(old.name)
            else:
                self.store.update(host)
        except HostError as exc:
            self.status.setText(str(exc))
            return False
        self.reload(select=host.name)
        self.status.setText(self.tr("Saved {0}.").format(host.name))
        self.hosts_changed.emit()
        return True

    def remove_host(self) -> None:
        h = self.current_host()
        if h is None or self._is_demo(h):
            return
        answer = QMessageBox.question(
            self,
            self.tr("Remove Host"),
            self.tr("Remove {0} from the CANN machines? Nothing on the host is touched.").format(h.name),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.store.remove(h.name)
            self.reload()
            self.hosts_changed.emit()

    def _import_clicked(self) -> None:
        self.import_ssh_config()

    def import_ssh_config(self, path: str | None = None) -> int:
        try:
            found = sshconfig.import_ssh_config(path)
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, self.tr("Import ~/.ssh/config"), str(exc))
            return 0
        existing = {h.name for h in self.store.load()}
        added = 0
        for host in found:
            if host.name not in existing:
                self.store.add(host)
                added += 1
        self.reload()
        self.status.setText(self.tr("Imported {0} of {1} hosts (existing names were kept).").format(added, len(found)))
        self.hosts_changed.emit()
        return added

    def _browse_key(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Private Key"), str(__import__("pathlib").Path.home() / ".ssh")
        )
        if path:
            self.key_file.setText(path)

    # --- test -----------------------------------------------------------------------------------------
    def test_connection(self):
        h = self.current_host()
        if h is None:
            return None
        if not self._is_demo(h):
            if not self.save_host():
                return None
            h = self.current_host()
        self.status.setText(self.tr("Connecting to {0}…").format(h.name))
        self.test_button.setEnabled(False)
        task = self.context.bridge.start(
            _check, h, self.context.prompter, title=self.tr("Check host {0}").format(h.name), kind="host"
        )
        task.succeeded.connect(self._show_check)
        task.failed.connect(self._check_failed)
        task.finished.connect(self._check_finished)
        return task

    # Bound methods (not lambdas): Qt drops the connection when the dialog is deleted.
    def _check_failed(self, message: str, exc: object) -> None:
        self.status.setText(self.tr("Connection failed: {0}").format(task_error(message, exc)))

    def _check_finished(self) -> None:
        self.test_button.setEnabled(True)

    def _show_check(self, result: dict) -> None:
        self.last_check = result
        if not result.get("toolkit_path"):
            self.status.setText(
                self.tr("Reachable, but no CANN toolkit found: {0}").format("; ".join(result.get("errors", [])))
            )
            return
        tools = ", ".join(k for k, v in result.get("tools", {}).items() if v) or self.tr("none")
        sim = self.tr(" (simulated)") if result.get("simulated") else ""
        self.status.setText(
            self.tr("CANN {0}{1} at {2}\nTools: {3}").format(
                result.get("cann_version") or "?", sim, result["toolkit_path"], tools
            )
        )
        devices = result.get("devices", [])
        self.devices.setRowCount(len(devices))
        for r, d in enumerate(devices):
            mem = _memory_text(d)
            soc = d.get("soc_version")
            if not soc and d.get("soc_ambiguous"):
                candidates = ", ".join(d.get("soc_candidates") or [])
                soc = self.tr("ambiguous: one of {0}").format(candidates)
            for c, value in enumerate((d.get("id"), d.get("chip"), soc, d.get("health"), mem)):
                item = QTableWidgetItem("" if value is None else str(value))
                if c == 2 and d.get("soc_ambiguous"):
                    item.setToolTip(
                        self.tr(
                            "npu-smi info does not tell this chip's exact --soc_version and the board query "
                            "(npu-smi info -t board) did not answer: choose it in the Model Converter."
                        )
                    )
                self.devices.setItem(r, c, item)
        self.devices.resizeColumnsToContents()


def _memory_text(device: dict) -> str:
    """'HBM 3397 / 65536 MB' (or Memory … for chips without HBM)."""
    for key, label in (("hbm", "HBM"), ("memory", "Memory")):
        total = device.get(f"{key}_total_mb")
        if total:
            return f"{label} {device.get(f'{key}_used_mb', 0)} / {total} MB"
    return ""
