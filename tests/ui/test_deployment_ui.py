"""Deployment dialog against the real sshd: the plan, sync keeps remote-only files unless ticked."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sshd import SshServer, ssh_home, sshd_server  # noqa: E402,F401

from workbench.core.services import deploy  # noqa: E402
from workbench.core.services.hosts import HostStore  # noqa: E402


def wait(qtbot, task):
    assert task is not None
    qtbot.waitUntil(lambda: task.state.finished, timeout=60000)
    qtbot.wait(30)
    assert task.state.value == "succeeded", task.handle.error_text


def _add_loop_host(sshd_server) -> None:
    """The test sshd as the configured CANN machine ``loop`` (key login)."""
    HostStore().add(sshd_server.host("loop"))


def test_sync_keeps_remote_only_files_unless_ticked(qtbot, window, sshd_server, ssh_home, tmp_path, monkeypatch):
    _add_loop_host(sshd_server)
    proj_dir = tmp_path / "app"
    (proj_dir / "src").mkdir(parents=True)
    (proj_dir / "src" / "main.py").write_text("print('hi')\n")
    (proj_dir / "model.onnx").write_bytes(b"\x08" * 1000)
    window.create_project(proj_dir)
    remote = tmp_path / "remote" / "app"
    (remote / "data").mkdir(parents=True)
    (remote / "data" / "dataset.bin").write_bytes(b"precious")
    (remote / "out.log").write_text("old run")
    dialog = window.deployment_dialog()
    qtbot.addWidget(dialog)
    dialog.host.setCurrentIndex(dialog.host.findData("loop"))
    dialog.mappings.item(0, 1).setText(str(remote))
    wait(qtbot, dialog.compute_plan())
    plan = dialog.plan
    assert {i.rel for i in plan.of(deploy.NEW)} == {"src/main.py", "model.onnx"}
    assert {i.rel for i in plan.of(deploy.REMOTE_ONLY)} == {"data/dataset.bin", "out.log"}
    assert dialog.sync_button.text() == "Sync"
    wait(qtbot, dialog.sync())
    assert (remote / "src" / "main.py").read_text() == "print('hi')\n"
    assert (remote / "data" / "dataset.bin").read_bytes() == b"precious", "remote-only files survive a sync"
    assert (remote / "out.log").exists()
    # tick one remote-only file: only that one is deleted, after a confirmation
    wait(qtbot, dialog.compute_plan())
    row = next(
        r
        for r in range(dialog.items.rowCount())
        if dialog.items.item(r, 0).data(Qt.ItemDataRole.UserRole).rel == "out.log"
    )
    dialog.items.item(row, 0).setCheckState(Qt.CheckState.Checked)
    assert dialog.sync_button.text() == "Sync and delete 1 remote files"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    wait(qtbot, dialog.sync())
    assert not (remote / "out.log").exists()
    assert (remote / "data" / "dataset.bin").exists()
    # mappings are stored in the project
    from workbench.core.project import open_project

    assert deploy.project_mappings(open_project(proj_dir))[0].remote == str(remote)


def test_sync_result_is_one_summary_line(qtbot, window, sshd_server, ssh_home, tmp_path):
    from workbench.ui.hosts.deployment_dialog import DeploymentDialog

    _add_loop_host(sshd_server)
    proj_dir = tmp_path / "sumapp"
    proj_dir.mkdir()
    (proj_dir / "main.py").write_text("print('hi')\n")  # 12 bytes
    (proj_dir / "model.om").write_bytes(b"\x01" * 1000)
    remote = tmp_path / "remote" / "sumapp"
    remote.mkdir(parents=True)
    (remote / "old.log").write_text("kept")
    window.create_project(proj_dir)
    window.project.remote.host = "loop"
    window.project.save()
    window.menu_entries()["Ascend/Deployment…"].trigger()
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(DeploymentDialog)))
    dialog = next(d for d in window.findChildren(DeploymentDialog) if d.isVisible())
    qtbot.addWidget(dialog)
    assert dialog.host.currentData() == "loop"
    dialog.mappings.item(0, 1).setText(str(remote))
    qtbot.mouseClick(dialog.plan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(dialog.sync_button.isEnabled, timeout=60000)
    qtbot.mouseClick(dialog.sync_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.summary.text().startswith("Synced"), timeout=60000)
    assert dialog.summary.text() == (
        "Synced to loop. Files sent: 2 (1,012 bytes); folders created: 0; deleted on the host: 0; "
        "kept, only on the host: 1."
    )
    assert (remote / "model.om").stat().st_size == 1000 and (remote / "old.log").exists()


def test_an_empty_dump_folder_is_in_the_plan_and_created_on_the_host(qtbot, window, sshd_server, ssh_home, tmp_path):
    from workbench.ui.hosts.deployment_dialog import DeploymentDialog

    _add_loop_host(sshd_server)
    proj_dir = tmp_path / "dumpapp"
    (proj_dir / "dump").mkdir(parents=True)  # the runtime needs acl.json's dump_path to exist
    (proj_dir / "main.py").write_text("print('hi')\n")
    remote = tmp_path / "remote" / "dumpapp"
    window.create_project(proj_dir)
    window.project.remote.host = "loop"
    window.project.save()
    window.menu_entries()["Ascend/Deployment…"].trigger()
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(DeploymentDialog)))
    dialog = next(d for d in window.findChildren(DeploymentDialog) if d.isVisible())
    qtbot.addWidget(dialog)
    dialog.mappings.item(0, 1).setText(str(remote))
    qtbot.mouseClick(dialog.plan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(dialog.sync_button.isEnabled, timeout=60000)
    rows = {dialog.items.item(r, 1).text(): dialog.items.item(r, 0).text() for r in range(dialog.items.rowCount())}
    assert rows[f"{remote}/dump"] == "new folder"
    assert "1 folders to create" in dialog.summary.text()
    qtbot.mouseClick(dialog.sync_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.summary.text().startswith("Synced"), timeout=60000)
    assert "folders created: 1" in dialog.summary.text()
    assert (remote / "dump").is_dir() and (remote / "main.py").exists()
