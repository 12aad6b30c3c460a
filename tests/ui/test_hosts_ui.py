"""CANN Machines dialog: the demo host, a real sshd host with an unknown key, ssh_config import."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (no __init__.py)
from sshd import SshServer, ssh_home, sshd_server  # noqa: E402,F401

from workbench.core.services.hosts import Host, HostStore  # noqa: E402


def run_check(qtbot, user, dialog) -> None:
    """Click Test Connection; wait until the button is back (the check's result is shown)."""
    user.click(dialog.test_button)
    assert not dialog.test_button.isEnabled(), dialog.status.text()  # the check is running
    qtbot.waitUntil(dialog.test_button.isEnabled, timeout=120000)
    assert not dialog.status.text().startswith("Connecting"), dialog.status.text()


def machines(qtbot, window):
    from workbench.ui.hosts.machines_dialog import CannMachinesDialog

    return opened(qtbot, window, "Ascend/CANN Machines…", CannMachinesDialog)


def select_host(qtbot, user, dialog, name: str) -> None:
    """Click the host's row in the list."""
    from PySide6.QtCore import Qt

    row = next(i for i in range(dialog.list.count()) if dialog.list.item(i).text().startswith(f"{name}  "))
    rect = dialog.list.visualItemRect(dialog.list.item(row))
    qtbot.mouseClick(dialog.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: dialog.current_host().name == name and dialog.name.text() == name)


def test_demo_host_checks_as_simulated(qtbot, user, window):
    dialog = machines(qtbot, window)
    assert dialog.list.item(0).text() == "Demo host (simulated CANN)"
    assert not dialog.name.isEnabled(), "the demo host is not editable"
    run_check(qtbot, user, dialog)
    assert dialog.last_check["simulated"] is True
    assert "(simulated)" in dialog.status.text() and "8.0.RC1" in dialog.status.text()
    # every tool the toolkit has, the migration tools too
    tools = "atc, msprof, msaccucmp, msfmktransplt, convert_tf2npu_tf1, convert_tf2npu_tf2, npu_smi"
    assert dialog.status.text().endswith(f"\nTools: {tools}"), dialog.status.text()
    assert dialog.devices.rowCount() == len(dialog.last_check["devices"]) > 0
    assert dialog.devices.item(0, 2).text().startswith("Ascend")


def test_sshd_host_unknown_key_prompt_and_devices(qtbot, user, window, sshd_server, ssh_home, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    from workbench.core.services.knownhosts import app_known_hosts
    from workbench.simtoolkit.install import install

    app_known_hosts().write_text("")  # the server's key is unknown again
    prefix = tmp_path / "Ascend"
    install(prefix, cann_version="7.0.0", soc_version="Ascend310P3", devices=2)
    HostStore().add(sshd_server.host("loop", toolkit=str(prefix)))
    dialog = machines(qtbot, window)
    select_host(qtbot, user, dialog, "loop")
    # the real "Unknown Host Key" question, answered Yes
    with user.answering(QMessageBox, lambda box: user.press(box, QMessageBox.StandardButton.Yes), 60000) as asked:
        run_check(qtbot, user, dialog)
    assert "SHA256:" in asked[0] and "can't be established" in asked[0], asked
    assert sshd_server.host_key_line.split()[-1] in app_known_hosts().read_text(), "accepted key is remembered"
    assert dialog.last_check["cann_version"] == "7.0.0"
    assert [dialog.devices.item(r, 2).text() for r in range(dialog.devices.rowCount())] == ["Ascend310P3"] * 2
    # refusing an unknown key fails clearly
    app_known_hosts().write_text("")
    with user.answering(QMessageBox, lambda box: user.press(box, QMessageBox.StandardButton.No), 60000) as asked:
        run_check(qtbot, user, dialog)
    assert "SHA256:" in asked[0], asked
    assert "Connection failed" in dialog.status.text()
    assert app_known_hosts().read_text() == "", "a refused key is not remembered"


def test_edit_validate_and_import(qtbot, user, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))  # Import reads ~/.ssh/config
    dialog = machines(qtbot, window)
    user.click(user.button(dialog, "Add"))
    qtbot.waitUntil(lambda: dialog.name.text() == "new-host" and dialog.hostname.isEnabled())
    user.retype(dialog.hostname, "atlas-800")
    user.retype(dialog.user, "ma")
    user.retype(dialog.port, "2222")
    user.click(dialog.save_button)
    qtbot.waitUntil(lambda: dialog.status.text() == "Saved new-host.")
    saved = HostStore().get("new-host")
    assert (saved.hostname, saved.user, saved.port) == ("atlas-800", "ma", 2222)
    user.retype(dialog.hostname, "bad host name")
    user.click(dialog.save_button)
    qtbot.waitUntil(lambda: "hostname" in dialog.status.text())
    assert HostStore().get("new-host").hostname == "atlas-800", "a bad hostname is not saved"
    (home / ".ssh" / "config").write_text(
        "Host a310\n  HostName 10.1.2.3\n  User hw\n  Port 2200\n\nHost *\n  User nobody\n"
    )
    user.click(user.button(dialog, "Import ~/.ssh/config…"))
    qtbot.waitUntil(lambda: dialog.status.text() == "Imported 1 of 1 hosts (existing names were kept).")
    assert HostStore().get("a310").hostname == "10.1.2.3"
    select_host(qtbot, user, dialog, "a310")
    with user.answering(QMessageBox, lambda box: user.press(box, QMessageBox.StandardButton.Yes)) as asked:
        user.click(dialog.remove_button)
    assert "Remove a310" in asked[0], asked
    qtbot.waitUntil(lambda: all(not dialog.list.item(i).text().startswith("a310") for i in range(dialog.list.count())))
    assert "a310" not in {h.name for h in HostStore().load()}


def test_host_panel_device_picker_feeds_run_configurations(qtbot, user, window, tmp_path):
    from PySide6.QtCore import Qt

    from workbench.core.project import open_project
    from workbench.ui.hosts.runconfig_dialog import RunConfigurationsDialog

    window.create_project(tmp_path / "proj")
    panel = window.host_panel
    assert panel.host.currentData() == "demo"
    with qtbot.waitSignal(window.context.bridge.task_started) as started:
        user.click(panel.check_button)
    task = started.args[0]
    qtbot.waitUntil(lambda: panel.devices.count() > 0, timeout=60000)
    assert "(simulated)" in panel.status.text()
    for row in (0, 3):  # select the NPU's row with a click, tick it with Space
        rect = panel.devices.visualItemRect(panel.devices.item(row))
        qtbot.mouseClick(panel.devices.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.keyClick(panel.devices, Qt.Key.Key_Space)
        qtbot.waitUntil(lambda r=row: panel.devices.item(r).checkState() == Qt.CheckState.Checked)
    assert panel.selected_devices() == [0, 3]
    assert "ASCEND_RT_VISIBLE_DEVICES=0,3" in panel.env.text()
    assert open_project(tmp_path / "proj").extra["devices"] == [0, 3], "the choice is kept in the project"
    dialog = opened(qtbot, window, "Ascend/Run Configurations…", RunConfigurationsDialog)
    user.click(dialog.add_button)
    qtbot.waitUntil(lambda: dialog.devices.text() == "0,3")
    assert dialog.configs[-1].devices == [0, 3]
    assert task.state.value == "succeeded"


# --- as the user clicks it ---------------------------------------------------------------------------


def opened(qtbot, window, menu_path: str, cls):
    """Trigger a menu entry; the dialog of class ``cls`` it opened."""
    window.menu_entries()[menu_path].trigger()
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(cls)))
    dialog = next(d for d in window.findChildren(cls) if d.isVisible())
    qtbot.addWidget(dialog)
    return dialog


def geometry(widget, top):
    """Where ``widget`` is inside its window, after pending layout changes are applied."""
    from PySide6.QtCore import QPoint, QRect
    from PySide6.QtWidgets import QApplication

    for _ in range(3):
        QApplication.processEvents()
    return QRect(widget.mapTo(top, QPoint(0, 0)), widget.size())


CLASS_NAME = re.compile(r"workbench\.|\b[A-Z]\w*(Error|Exception|Changed|Key|Failed)\b\s*:")


def test_changed_host_key_is_one_clear_message_and_nothing_moves(qtbot, window, sshd_server, ssh_home):
    from PySide6.QtCore import Qt

    from workbench.core.services.knownhosts import app_known_hosts
    from workbench.ui.hosts.machines_dialog import CannMachinesDialog

    kind, b64 = Path(f"{sshd_server.other_key}.pub").read_text().split()[:2]
    app_known_hosts().write_text(f"[127.0.0.1]:{sshd_server.port} {kind} {b64}\n")  # the host "was reinstalled"
    HostStore().add(sshd_server.host("loop"))
    dialog = opened(qtbot, window, "Ascend/CANN Machines…", CannMachinesDialog)
    row = next(i for i in range(dialog.list.count()) if dialog.list.item(i).text().startswith("loop"))
    rect = dialog.list.visualItemRect(dialog.list.item(row))
    qtbot.mouseClick(dialog.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert dialog.current_host().name == "loop"
    watched = (dialog.test_button, dialog.devices, dialog.toolkit)
    before = [geometry(w, dialog) for w in watched]
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.status.text().startswith("Connection failed"), timeout=60000)
    qtbot.waitUntil(dialog.test_button.isEnabled)
    text = dialog.status.text()
    assert "'loop'" in text and f"{app_known_hosts()} line 1" in text and "differs" in text, text
    assert not CLASS_NAME.search(text), text
    assert [geometry(w, dialog) for w in watched] == before, "the error moved the button, the table or a field"


def test_host_dock_shows_the_projects_host(qtbot, window, sshd_server, ssh_home, tmp_path):
    from workbench.core.project import create_project
    from workbench.core.services.runconfig import RunConfiguration, save_run_configurations

    HostStore().add(Host(name="loop", hostname="127.0.0.1", port=sshd_server.port, user=sshd_server.user))
    named = create_project(tmp_path / "named")
    named.remote.host = "loop"  # what the dock and the Deployment dialog store
    named.save()
    by_run = create_project(tmp_path / "by_run")
    save_run_configurations(by_run, [RunConfiguration("run1", "./main", host="loop")])
    plain = create_project(tmp_path / "plain")
    panel = window.host_panel
    for project, expected in ((named, "loop"), (plain, "demo"), (by_run, "loop")):
        window.open_project(project.root)

        def shows(name=project.name, host=expected):
            assert panel.host.currentData() == host, f"{name}: the dock shows {panel.host.currentText()}"

        qtbot.waitUntil(shows)
