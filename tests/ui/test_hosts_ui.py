"""CANN Machines dialog: the demo host, a real sshd host with an unknown key, ssh_config import."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (no __init__.py)
from sshd import SshServer, ssh_home, sshd_server  # noqa: E402,F401

from workbench.core.services.hosts import Host, HostStore  # noqa: E402


def run_check(qtbot, dialog):
    task = dialog.test_connection()
    assert task is not None
    qtbot.waitUntil(lambda: task.state.finished, timeout=120000)
    qtbot.wait(50)
    return task


def test_demo_host_checks_as_simulated(qtbot, window):
    dialog = window.cann_machines_dialog()
    qtbot.addWidget(dialog)
    assert dialog.list.item(0).text() == "Demo host (simulated CANN)"
    assert not dialog.name.isEnabled(), "the demo host is not editable"
    run_check(qtbot, dialog)
    assert dialog.last_check["simulated"] is True
    assert "(simulated)" in dialog.status.text() and "8.0.RC1" in dialog.status.text()
    assert dialog.devices.rowCount() == len(dialog.last_check["devices"]) > 0
    assert dialog.devices.item(0, 2).text().startswith("Ascend")


def test_sshd_host_unknown_key_prompt_and_devices(qtbot, window, sshd_server, ssh_home, tmp_path):
    from workbench.core.services.knownhosts import app_known_hosts
    from workbench.simtoolkit.install import install

    app_known_hosts().write_text("")  # the server's key is unknown again
    prefix = tmp_path / "Ascend"
    install(prefix, cann_version="7.0.0", soc_version="Ascend310P3", devices=2)
    HostStore().add(
        Host(
            name="loop",
            hostname="127.0.0.1",
            port=sshd_server.port,
            user=sshd_server.user,
            auth="key",
            key_file=str(sshd_server.client_key),
            toolkit=str(prefix),
        )
    )
    dialog = window.cann_machines_dialog()
    qtbot.addWidget(dialog)
    dialog.reload(select="loop")
    asked = []
    window.prompter.answer_host_key = lambda info: asked.append(info) or True
    run_check(qtbot, dialog)
    assert asked and asked[0].fingerprint.startswith("SHA256:")
    assert sshd_server.host_key_line.split()[-1] in app_known_hosts().read_text(), "accepted key is remembered"
    assert dialog.last_check["cann_version"] == "7.0.0"
    assert [dialog.devices.item(r, 2).text() for r in range(dialog.devices.rowCount())] == ["Ascend310P3"] * 2
    # refusing an unknown key fails clearly
    app_known_hosts().write_text("")
    window.prompter.answer_host_key = lambda info: False
    from workbench.core.services.ssh import ConnectionPool  # noqa: F401 - fresh transports per check

    run_check(qtbot, dialog)
    assert "Connection failed" in dialog.status.text()


def test_edit_validate_and_import(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    dialog = window.cann_machines_dialog()
    qtbot.addWidget(dialog)
    dialog.add_host()
    dialog.hostname.setText("atlas-800")
    dialog.user.setText("ma")
    dialog.port.setValue(2222)
    assert dialog.save_host()
    saved = HostStore().get("new-host")
    assert (saved.hostname, saved.user, saved.port) == ("atlas-800", "ma", 2222)
    dialog.hostname.setText("bad host name")
    assert not dialog.save_host()
    assert "hostname" in dialog.status.text()
    cfg = tmp_path / "config"
    cfg.write_text("Host a310\n  HostName 10.1.2.3\n  User hw\n  Port 2200\n\nHost *\n  User nobody\n")
    assert dialog.import_ssh_config(str(cfg)) == 1
    assert HostStore().get("a310").hostname == "10.1.2.3"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    dialog.reload(select="a310")
    dialog.remove_host()
    assert "a310" not in {h.name for h in HostStore().load()}


def test_host_panel_device_picker_feeds_run_configurations(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    from workbench.core.project import open_project

    window.create_project(tmp_path / "proj")
    panel = window.host_panel
    assert panel.host.currentData() == "demo"
    task = panel.check()
    qtbot.waitUntil(lambda: panel.devices.count() > 0, timeout=60000)
    assert "(simulated)" in panel.status.text()
    for row in (0, 3):
        panel.devices.item(row).setCheckState(Qt.CheckState.Checked)
    assert panel.selected_devices() == [0, 3]
    assert "ASCEND_RT_VISIBLE_DEVICES=0,3" in panel.env.text()
    assert open_project(tmp_path / "proj").extra["devices"] == [0, 3], "the choice is kept in the project"
    dialog = window.run_configurations_dialog()
    qtbot.addWidget(dialog)
    dialog.add_config()
    assert dialog.configs[-1].devices == [0, 3] and dialog.devices.text() == "0,3"
    assert task.state.value == "succeeded"
