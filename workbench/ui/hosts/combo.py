"""The one host picker every dialog uses: the demo host first, labelled as simulated."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox

from workbench.core.services import demohost
from workbench.core.services.hosts import HostError


def host_label(host) -> str:
    if host.name == demohost.DEMO_NAME and host.simulated:
        return QCoreApplication.translate("HostCombo", "Demo host (simulated CANN)")
    if host.simulated:
        return QCoreApplication.translate("HostCombo", "{0} (simulated)").format(host.name)
    return f"{host.name}  ({host.label})"


def fill_host_combo(combo: QComboBox, select: str | None = None) -> None:
    """Fill ``combo`` with every CANN machine (item data = host name), keeping or setting the
    selection; a damaged hosts file shows as its error message."""
    current = select or combo.currentData()
    blocked = combo.blockSignals(True)
    combo.clear()
    try:
        hosts = demohost.all_hosts()
    except HostError as exc:
        combo.addItem(str(exc), "")
        hosts = []
    for h in hosts:
        combo.addItem(host_label(h), h.name)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    combo.blockSignals(blocked)
