"""Deployment dialog against the real sshd: a file edited on the host since the last sync is a
conflict row; Sync leaves it as it is until the user ticks the row's checkbox."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sshd import SshServer, ssh_home, sshd_server  # noqa: E402,F401
from test_deployment_ui import _add_loop_host  # noqa: E402

from workbench.core.services import deploy  # noqa: E402

T0 = 1_700_000_000


def _edit(path: Path, text: str, mtime: int) -> None:
    path.write_text(text)
    os.utime(path, (mtime, mtime))


def _rows(dialog) -> dict[str, str]:
    return {dialog.items.item(r, 1).text(): dialog.items.item(r, 0).text() for r in range(dialog.items.rowCount())}


def _click_checkbox(qtbot, table, row: int) -> None:
    """A real mouse click on the check indicator of the row's first cell."""
    item = table.item(row, 0)
    table.scrollToItem(item)
    option = QStyleOptionViewItem()
    option.initFrom(table)
    option.rect = table.visualItemRect(item)
    option.features = QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator | (
        QStyleOptionViewItem.ViewItemFeature.HasDisplay
    )
    option.text = item.text()
    box = table.style().subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, option, table)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=box.center())


def _compute_plan(qtbot, dialog) -> None:
    assert not dialog.sync_button.isEnabled()
    qtbot.mouseClick(dialog.plan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(dialog.sync_button.isEnabled, timeout=60000)


def _sync(qtbot, dialog) -> str:
    qtbot.mouseClick(dialog.sync_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.summary.text().startswith("Synced"), timeout=60000)
    return dialog.summary.text()


def test_a_host_edit_is_kept_until_its_conflict_row_is_ticked(qtbot, window, sshd_server, ssh_home, tmp_path):
    from workbench.ui.hosts.deployment_dialog import DeploymentDialog

    _add_loop_host(sshd_server)
    proj_dir = tmp_path / "conflictapp"
    proj_dir.mkdir()
    _edit(proj_dir / "main.py", "print('v1')\n", T0)
    _edit(proj_dir / "other.py", "X = 1\n", T0)
    remote = tmp_path / "remote" / "conflictapp"
    window.create_project(proj_dir)
    window.project.remote.host = "loop"
    deploy.set_project_mappings(window.project, [deploy.Mapping(".", str(remote))])
    window.project.save()
    window.menu_entries()["Ascend/Deployment…"].trigger()
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(DeploymentDialog)))
    dialog = next(d for d in window.findChildren(DeploymentDialog) if d.isVisible())
    qtbot.addWidget(dialog)
    assert dialog.host.currentData() == "loop"
    _compute_plan(qtbot, dialog)
    assert _sync(qtbot, dialog).startswith("Synced to loop. Files sent: 2 ")
    assert (remote / "main.py").read_text() == "print('v1')\n"

    _edit(remote / "main.py", "print('fixed on the host')\n", T0 + 100)  # edited on the host
    _edit(proj_dir / "main.py", "print('v2')\n", T0 + 200)  # and locally
    _compute_plan(qtbot, dialog)
    row_label = "conflict: edited here and on the host — overwrite the host's copy?"
    assert _rows(dialog) == {f"{remote}/main.py": row_label}
    assert "1 conflicts: changed on the host since the last sync, not sent unless ticked." in dialog.summary.text()
    assert dialog.items.item(0, 0).checkState() == Qt.CheckState.Unchecked
    assert dialog.sync_button.text() == "Sync"
    text = _sync(qtbot, dialog)
    assert "Files sent: 0 " in text and text.endswith("Conflicts not sent (the host's copy was kept): 1.")
    assert (remote / "main.py").read_text() == "print('fixed on the host')\n", "Sync leaves the host's edit"

    _compute_plan(qtbot, dialog)
    assert _rows(dialog) == {f"{remote}/main.py": row_label}, "still a conflict after a sync that kept it"
    _click_checkbox(qtbot, dialog.items, 0)
    qtbot.waitUntil(lambda: dialog.items.item(0, 0).checkState() == Qt.CheckState.Checked)
    assert dialog.sync_button.text() == "Sync and overwrite 1 host edits"
    text = _sync(qtbot, dialog)
    assert text.startswith("Synced to loop. Files sent: 1 (12 bytes)") and "Conflicts" not in text
    assert (remote / "main.py").read_text() == "print('v2')\n"
    assert (remote / "other.py").read_text() == "X = 1\n"
