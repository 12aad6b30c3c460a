"""Answers the SSH layer's questions (host key, passphrase, password) with dialogs on the GUI
thread, while the asking worker thread waits. Secrets go straight to the connection attempt and
are never stored."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit, QMessageBox, QWidget

if TYPE_CHECKING:  # annotations only: the window builds its prompter before its first paint
    from workbench.core.services.hosts import Host
    from workbench.core.services.knownhosts import HostKeyInfo


class QtPrompter(QObject):
    """Implements ``workbench.core.services.ssh.Prompter``; safe to call from any thread."""

    _ask = Signal(str, object, object)  # kind, payload, holder dict (with an Event)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._parent = parent
        self._ask.connect(self._on_ask, Qt.ConnectionType.QueuedConnection)
        # Tests replace these to answer without dialogs.
        self.answer_host_key = self._dialog_host_key
        self.answer_secret = self._dialog_secret

    # --- Prompter protocol (worker threads) --------------------------------------------------------
    def confirm_host_key(self, info: HostKeyInfo) -> bool:
        return bool(self._call("host_key", info))

    def ask_passphrase(self, host: Host, key_file: str) -> str | None:
        return self._call("passphrase", (host, key_file))

    def ask_password(self, host: Host) -> str | None:
        return self._call("password", host)

    # --- marshalling ------------------------------------------------------------------------------
    def _call(self, kind: str, payload: Any) -> Any:
        if QThread.currentThread() is self.thread():
            return self._answer(kind, payload)
        holder: dict[str, Any] = {"event": threading.Event(), "value": None}
        self._ask.emit(kind, payload, holder)
        holder["event"].wait()
        return holder["value"]

    @Slot(str, object, object)
    def _on_ask(self, kind: str, payload: Any, holder: dict[str, Any]) -> None:
        try:
            holder["value"] = self._answer(kind, payload)
        finally:
            holder["event"].set()

    def _answer(self, kind: str, payload: Any) -> Any:
        if kind == "host_key":
            return self.answer_host_key(payload)
        return self.answer_secret(kind, payload)

    # --- dialogs ------------------------------------------------------------------------------------
    def _dialog_host_key(self, info: HostKeyInfo) -> bool:
        text = self.tr(
            "The authenticity of host {0} ({1}) can't be established.\n\n{2} key fingerprint:\n{3}\n\n"
            "Trust this key and connect? It will be remembered in Ascend Workbench's known_hosts file."
        ).format(info.host_name, info.address, info.key_type, info.fingerprint)
        answer = QMessageBox.question(
            self._parent,
            self.tr("Unknown Host Key"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _dialog_secret(self, kind: str, payload: Any) -> str | None:
        if kind == "passphrase":
            host, key_file = payload
            label = self.tr("Passphrase for the key {0} (host {1}):").format(key_file, host.name)
            title = self.tr("Key Passphrase")
        else:
            host = payload
            label = self.tr("Password for {0}@{1}:").format(host.user or "", host.hostname)
            title = self.tr("SSH Password")
        text, ok = QInputDialog.getText(
            self._parent or QApplication.activeWindow(),
            title,
            label + "\n" + self.tr("(used for this connection only, never saved)"),
            QLineEdit.EchoMode.Password,
        )
        return text if ok else None
