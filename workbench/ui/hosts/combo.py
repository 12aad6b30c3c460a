"""The one host picker every dialog uses: the demo host first, labelled as simulated."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox

from workbench.core.services import demohost
from workbench.core.services.hosts import HostError
from workbench.core.services.runconfig import REMOTE


def host_label(host) -> str:
    if host.name == demohost.DEMO_NAME and host.simulated:
        return QCoreApplication.translate("HostCombo", "Demo host (simulated CANN)")
    if host.simulated:
        return QCoreApplication.translate("HostCombo", "{0} (simulated)").format(host.name)
    return f"{host.name}  ({host.label})"


def project_host(project) -> str:
    """The CANN machine the project names ('' when none): its remote host (what the CANN Machine
    dock and the Deployment dialog store), else the host of its first Remote run configuration."""
    if project is None:
        return ""
    if project.remote.host:
        return project.remote.host
    for raw in project.run_configurations:
        host = raw.get("host") if isinstance(raw, dict) and raw.get("mode", REMOTE) == REMOTE else None
        if isinstance(host, str) and host.strip():
            return host.strip()
    return ""


def default_host(project) -> str:
    """The host a dialog preselects for ``project``: the one it names, else the demo host."""
    return project_host(project) or demohost.DEMO_NAME


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
