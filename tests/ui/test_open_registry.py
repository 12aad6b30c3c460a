"""Opening things the way a user does, through the one registry of what the workbench can open
(core ``artefacts.KINDS`` + ``ui.openers.OPENERS``): the project explorer's real context menu,
a double-click in the explorer; and a dialog driven by an application context without a window."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from uikit import click_menu_entry, explorer_menu, explorer_row_centre

from workbench.core import artefacts
from workbench.core.project import create_project


def test_every_action_has_an_opener_and_a_translated_label():
    from workbench.ui import labels, openers

    used = {k.open for k in artefacts.KINDS} | {a for k in artefacts.KINDS for a in k.actions}
    assert used <= set(openers.OPENERS), "an action id without a UI opener"
    assert set(openers.OPENERS) <= used | {artefacts.OPEN_TEXT}, "an opener no kind uses"
    assert set(artefacts.ACTION_LABELS.values()) == set(labels.ACTION_LABELS)


@pytest.fixture
def project(window, samples, tmp_path):
    """A project holding an acl.json, an om JSON called model.json (known by content only), a .npy
    and a kernel_details.csv, shown in the explorer."""
    import numpy as np

    root = tmp_path / "proj"
    create_project(root)
    shutil.copyfile(samples / "acl-json-dump-samples" / "acl.json", root / "acl.json")
    shutil.copyfile(samples / "atc-om2json-310-cann5.1" / "model.json", root / "model.json")
    shutil.copyfile(samples / "torch_npu-kernel_details-arith" / "kernel_details.csv", root / "kernel_details.csv")
    np.save(root / "golden.npy", np.arange(12, dtype=np.float32).reshape(3, 4))
    window.open_project(root)
    return root


# offscreen QPA: a popup menu raises itself and grabs the keyboard, which that platform cannot do
# (real platforms can); the warnings say so and are harmless here.
def test_explorer_context_menu_opens_the_right_view(qtbot, window, project):
    from workbench.ui.converter.structure_view import ModelStructureView
    from workbench.ui.dump.config_dialog import DumpConfigDialog
    from workbench.ui.dump.data_view import DumpDataView

    def dialogs():
        return [d for d in window.findChildren(DumpConfigDialog) if d.isVisible()]

    om_json = project / "model.json"  # an om JSON named *.json: known by its content
    menu = explorer_menu(qtbot, window, om_json)
    assert [a.text() for a in menu.actions()] == ["Open", "Show Model Structure", "Dump Configuration…"]
    click_menu_entry(qtbot, menu, "Show Model Structure")
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), ModelStructureView), timeout=30000)
    assert window.documents.tabToolTip(window.documents.currentIndex()) == str(om_json)

    click_menu_entry(qtbot, explorer_menu(qtbot, window, om_json), "Dump Configuration…")
    qtbot.waitUntil(lambda: bool(dialogs()), timeout=10000)
    dialog = dialogs()[0]
    assert dialog.model_path.text() == str(om_json)
    dialog.close()
    qtbot.waitUntil(lambda: not dialogs(), timeout=10000)

    acl = project / "acl.json"
    menu = explorer_menu(qtbot, window, acl)
    assert [a.text() for a in menu.actions()] == ["Open"]
    click_menu_entry(qtbot, menu, "Open")
    qtbot.waitUntil(lambda: bool(dialogs()), timeout=10000)
    assert dialogs()[0].acl_path.text() == str(acl)
    dialogs()[0].close()

    npy = project / "golden.npy"
    click_menu_entry(qtbot, explorer_menu(qtbot, window, npy), "Open Dump Data")
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), DumpDataView), timeout=10000)
    assert window.documents.currentWidget().path == npy


def test_double_click_on_a_report_opens_the_report_document(qtbot, window, project):
    from workbench.ui.report.document import ReportDocument

    report = project / "kernel_details.csv"
    pos = explorer_row_centre(qtbot, window, report)
    viewport = window.explorer.view.viewport()
    # a double click as a platform delivers it: press + release, then the double-click event
    # (QTest's mouseDClick sends only the latter; an item view opens on it when it saw the press)
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.waitUntil(
        lambda: isinstance(window.documents.currentWidget(), ReportDocument) and window.documents.currentWidget().ready,
        timeout=30000,
    )
    doc = window.documents.currentWidget()
    assert Path(doc.report.source) == report and len(doc.report.ops) > 0
    assert window.settings.recent_reports[0] == str(report)


class _Report:
    def __init__(self, source: str) -> None:
        self.source = source


def test_a_dialog_runs_on_an_application_context_without_a_window(qtbot, user, samples):
    """The Baseline Comparison dialog gets what it needs from an AppContext built of fakes."""
    from workbench.core.settings import Settings
    from workbench.ui.bridge import TaskBridge
    from workbench.ui.compare.dialog import CompareDialog, open_compare_dialog
    from workbench.ui.context import AppContext, AppEvents
    from workbench.ui.hosts.prompter import QtPrompter

    src = str(samples / "torch_npu-kernel_details-arith" / "kernel_details.csv")
    shown, failed = [], []
    bridge = TaskBridge()
    context = AppContext(
        bridge=bridge,
        pool=None,
        prompter=QtPrompter(None),
        settings=Settings(),
        save_settings=lambda: None,
        current_project=lambda: None,
        events=AppEvents(),
        host_transport=lambda name: None,
        add_document=lambda w, title, tip="": 0,
        open_report=lambda path, view=None: None,
        show_status=lambda text, timeout_ms=0: None,
        warn=lambda title, message: None,
        show_properties=lambda title, rows: None,
        open_reports=lambda: [_Report(src)],
        show_comparison=shown.append,
        comparison_failed=lambda message, exc: failed.append(message),
        open_comparison_row=lambda comparison, row: None,
    )
    offered = []

    def fill_in_and_compare(dialog: CompareDialog) -> None:
        offered.extend(dialog.base.edit.itemText(i) for i in range(dialog.base.edit.count()))
        user.retype(dialog.base.edit.lineEdit(), src)
        user.retype(dialog.current.edit.lineEdit(), src)
        user.click(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))

    with user.answering(CompareDialog, fill_in_and_compare) as answered:
        task = open_compare_dialog(context, None)  # exec(): the Compare button's answer starts the task
    assert answered == ["Baseline Comparison"] and offered == [src]
    assert task is not None
    try:
        qtbot.waitUntil(lambda: bool(shown or failed), timeout=30000)
    finally:
        bridge.shutdown()
    assert not failed and task.state.value == "succeeded"
    assert str(shown[0].base.source) == str(shown[0].current.source) == src
