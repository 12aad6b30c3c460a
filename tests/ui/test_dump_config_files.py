"""Dump Configuration ▸ Save on files the user protected or shares: a read-only acl.json is replaced
only after the user's yes (and stays read-only); a hard-linked one keeps sharing its content."""

from __future__ import annotations

import json
import os
import shutil
import stat

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

SAMPLE = "acl-json-dump-samples/acl.json"


def _open(window, qtbot, root, acl):
    from workbench.ui.dump.config_dialog import DumpConfigDialog

    assert window.create_project(root) is not None
    open_entry = window.explorer.menu_for(acl).actions()[0]
    assert open_entry.text() == "Open"
    open_entry.trigger()
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(DumpConfigDialog)), timeout=10000)
    return [d for d in window.findChildren(DumpConfigDialog) if d.isVisible()][-1]


def _retype_dump_path(qtbot, dialog, text):
    edit = dialog.dump_path.edit
    edit.setFocus()
    qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(edit, text)


def _save_answering(qtbot, dialog, answer):
    """Click Save; the message box it opens (modal, so found by a timer) is answered with ``answer``."""
    seen: list[str] = []

    def poll():
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            seen.append(box.text())
            qtbot.mouseClick(box.button(answer), Qt.MouseButton.LeftButton)
        else:
            QTimer.singleShot(20, poll)

    QTimer.singleShot(0, poll)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(seen), timeout=10000)
    return seen[0]


def test_read_only_acl_json_is_replaced_only_after_yes_and_stays_read_only(window, qtbot, samples, tmp_path):
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    acl = root / "src" / "acl.json"
    shutil.copy(samples / SAMPLE, acl)
    before = acl.read_bytes()
    acl.chmod(0o444)  # as the samples are; said here so the test does not depend on it
    dialog = _open(window, qtbot, root, acl)
    _retype_dump_path(qtbot, dialog, "dump/ro")
    question = _save_answering(qtbot, dialog, QMessageBox.StandardButton.No)
    assert f"{acl} is read-only" in question
    qtbot.waitUntil(lambda: "read-only and was left unchanged" in dialog.status.text(), timeout=5000)
    assert acl.read_bytes() == before
    assert sorted(p.name for p in acl.parent.iterdir()) == ["acl.json"], "no temp left beside it"
    _save_answering(qtbot, dialog, QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(lambda: dialog.status.text().startswith("Saved"), timeout=5000)
    assert json.loads(acl.read_text())["dump"]["dump_path"] == "dump/ro"
    assert stat.S_IMODE(acl.stat().st_mode) == 0o444
    dialog.close()


def test_hard_linked_acl_json_keeps_sharing_its_content(window, qtbot, samples, tmp_path):
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    acl = root / "src" / "acl.json"
    shutil.copy(samples / SAMPLE, acl)
    acl.chmod(0o644)  # the samples are read-only
    other = tmp_path / "elsewhere.json"
    os.link(acl, other)
    inode = acl.stat().st_ino
    dialog = _open(window, qtbot, root, acl)
    _retype_dump_path(qtbot, dialog, "dump/linked")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.status.text().startswith("Saved"), timeout=5000)
    expected = json.loads((samples / SAMPLE).read_text())
    expected["dump"]["dump_path"] = "dump/linked"
    assert json.loads(acl.read_text()) == expected
    assert acl.stat().st_ino == inode and acl.stat().st_nlink == 2
    assert other.read_bytes() == acl.read_bytes()
    assert sorted(p.name for p in acl.parent.iterdir()) == ["acl.json"]
    dialog.close()
