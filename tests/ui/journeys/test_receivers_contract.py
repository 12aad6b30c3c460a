"""Contract: every enabled button and action of every dialog, wizard and document the app offers
has a receiver: a click always reaches code. Each is opened the way a user does, through its menu
QAction (documents that only the Project Explorer opens: through it), then every enabled
QAbstractButton and QAction below it is checked with ``QObject.receivers(SIGNAL(...))`` (what
works in PySide6 6.11; ``isSignalConnected(QMetaMethod.fromSignal(...))`` agrees).

What is excluded, and why, is listed in ``HANDLED_BY_CONTAINER`` and ``NOT_A_COMMAND``; every
menu entry is either opened here or named in ``NOT_OPENED`` with the reason, so a new menu entry
fails this test until it is covered.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from journey_kit import Budget, activate_in_tree, answering, trigger, wait_for
from PySide6.QtCore import SIGNAL, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QTabBar,
    QTabWidget,
    QToolBar,
    QToolButton,
    QWidget,
    QWizard,
)

BUDGET = Budget(wait_ms=30_000)

# Buttons whose click their container turns into its own signal (checked there instead, or Qt's own code).
HANDLED_BY_CONTAINER = {
    "QDialogButtonBox": "standard buttons: the box emits accepted/rejected/clicked (the box's receiver is checked)",
    "QWizard": "Back/Next/Commit/Finish/Cancel/Help: QWizard's own; custom buttons: customButtonClicked is checked",
    "QTabBar": "scroll arrows and tab close buttons: the tab bar (tabCloseRequested is checked where closable)",
    "QToolBarExtension": "the toolbar's overflow button: QToolBar",
    "QDockWidgetTitleButton": "a dock's float/close buttons: QDockWidget",
    "QLineEditIconButton": "a line edit's clear/action icons: QLineEdit",
    "pyqtgraph": "the plot widgets' own buttons and menus: pyqtgraph",
}
# Not commands: state a dialog reads when it acts, or a trigger handled elsewhere.
NOT_A_COMMAND = {
    "checkable": "check boxes, radio buttons, toggle actions: state read by the dialog (or its QButtonGroup)",
    "menu": "a button/action that opens a menu: the menu's actions are checked",
    "default action": "a QToolButton showing a QAction: the action is checked",
    "separator": "a menu separator",
}
# Menu entries not opened here.
NOT_OPENED = {
    "File/Open Project…": "Qt's own QFileDialog",
    "File/Close Project": "closes the project: no dialog",
    "File/Exit": "quits",
    "Ascend/System Profiler/Open Report…": "the same action as File/Open Report… (opened here)",
    "View/Reset Layout": "re-arranges the docks: no dialog",
    "Help/Open Log Folder": "opens the folder in the desktop's file manager",
    "Help/About Ascend Workbench": "Qt's own QMessageBox.about",
}


def _connected(obj: QObject, *signals: str) -> bool:
    return any(obj.receivers(SIGNAL(s)) > 0 for s in signals)


def _in(obj: QObject, class_names: tuple[str, ...]) -> str:
    """The name of the first ancestor (or ``obj``) whose class (or module) is one of ``class_names``."""
    node: QObject | None = obj
    while node is not None:
        for cls in type(node).__mro__:
            if cls.__name__ in class_names or cls.__module__.split(".")[0] in class_names:
                return cls.__name__ if cls.__name__ in class_names else cls.__module__.split(".")[0]
        node = node.parent()
    return ""


def _container_handles(button: QAbstractButton) -> bool | None:
    """True/False when a container owns the click (False: it has no receiver), None when not."""
    parent = button.parentWidget()
    if isinstance(parent, QDialogButtonBox):
        role = parent.buttonRole(button)
        accepted = (QDialogButtonBox.ButtonRole.AcceptRole, QDialogButtonBox.ButtonRole.YesRole)
        rejected = (QDialogButtonBox.ButtonRole.RejectRole, QDialogButtonBox.ButtonRole.NoRole)
        return (
            button.receivers(SIGNAL("clicked()")) > 1  # the box's own connection is the first
            or _connected(button, "pressed()", "released()")
            or _connected(parent, "clicked(QAbstractButton*)")
            or (role in accepted and _connected(parent, "accepted()"))
            or (role in rejected and _connected(parent, "rejected()"))
            or (role == QDialogButtonBox.ButtonRole.HelpRole and _connected(parent, "helpRequested()"))
        )
    wizard = button.window()
    if isinstance(wizard, QWizard):
        # (wizard.button() creates a button it does not have yet: ask only for those it has)
        wb, wo = QWizard.WizardButton, QWizard.WizardOption
        custom = [
            wizard.button(which)
            for which, option in (
                (wb.CustomButton1, wo.HaveCustomButton1),
                (wb.CustomButton2, wo.HaveCustomButton2),
                (wb.CustomButton3, wo.HaveCustomButton3),
            )
            if wizard.testOption(option)
        ]
        if button in custom:
            return button.receivers(SIGNAL("clicked()")) > 1 or _connected(wizard, "customButtonClicked(int)")
        own = [wb.BackButton, wb.NextButton, wb.CommitButton, wb.FinishButton, wb.CancelButton]
        if wizard.testOption(wo.HaveHelpButton):
            own.append(wb.HelpButton)
        if button in [wizard.button(which) for which in own]:
            return True
    if isinstance(parent, QTabBar):
        return True
    if _in(button, tuple(HANDLED_BY_CONTAINER)):
        return True
    return None


def _describe(button: QAbstractButton) -> str:
    """'Text' (QPushButton), plus its tooltip and the widgets it sits in when it has no text."""
    text = f"{button.text().replace('&', '')!r} ({type(button).__name__})"
    if not button.text():
        chain, node = [], button.parentWidget()
        while node is not None and len(chain) < 4:
            chain.append(node.objectName() or type(node).__name__)
            node = node.parentWidget()
        text += f" tooltip {button.toolTip()!r} in {' < '.join(chain)}"
    return text


CHECKED: list[str] = []  # what unconnected() looked at (the test asserts it looked at plenty)


def unconnected(root: QWidget) -> list[str]:
    """Every enabled button and action below ``root`` that no code receives, as readable names."""
    where = root.windowTitle() or type(root).__name__
    missing = []
    for button in root.findChildren(QAbstractButton):
        if not button.isEnabled() or button.isCheckable():
            continue
        if getattr(button, "menu", lambda: None)() is not None:
            continue
        if isinstance(button, QToolButton) and button.defaultAction() is not None:
            continue
        CHECKED.append(f"{where}: {button.text()}")
        handled = _container_handles(button)
        if handled is True:
            continue
        if handled is False or not _connected(button, "clicked()", "pressed()", "released()"):
            missing.append(f"{where}: button {_describe(button)}")
    actions = set(root.findChildren(QAction)) | set(root.actions())
    for tb in root.findChildren(QToolBar):
        actions |= set(tb.actions())
    for action in actions:
        if not action.isEnabled() or action.isSeparator() or action.isCheckable() or action.menu() is not None:
            continue
        if _in(action, ("pyqtgraph",)):
            continue
        CHECKED.append(f"{where}: {action.text()}")
        if not _connected(action, "triggered()", "triggered(bool)"):
            missing.append(f"{where}: action {action.text().replace('&', '')!r}")
    for tabs in root.findChildren(QTabBar):
        if tabs.tabsClosable() and not _connected(tabs, "tabCloseRequested(int)"):
            parent = tabs.parentWidget()
            if not (parent is not None and _connected(parent, "tabCloseRequested(int)")):
                missing.append(f"{where}: closable tabs without a receiver")
    return sorted(missing)


def _visible_children(window) -> set[QWidget]:
    return {w for w in QApplication.topLevelWidgets() if w.isVisible() and w.parentWidget() is window}


def _documents(window) -> list[QWidget]:
    return [window.documents.widget(i) for i in range(window.documents.count())]


def open_and_check(qtbot, window, entry: str, two_runs) -> list[tuple[str, list[str]]]:
    """Trigger the menu entry; check the dialog, wizard or document it opens; close it. Baseline
    Comparison is answered (two runs, Compare) so its result document is checked too."""
    from journey_kit import click, type_text

    from workbench.ui.compare.dialog import CompareDialog
    from workbench.ui.compare.view import CompareView

    found: list[tuple[str, list[str]]] = []

    def check_modal(dialog: QDialog) -> None:
        found.append((type(dialog).__name__, unconnected(dialog)))
        if isinstance(dialog, CompareDialog):
            type_text(qtbot, dialog.base.edit, str(two_runs[0]))
            type_text(qtbot, dialog.current.edit, str(two_runs[1]))
            click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), BUDGET, "Compare")
        else:
            dialog.reject()

    tops, docs = _visible_children(window), _documents(window)
    with answering(qtbot, QDialog, check_modal, BUDGET, entry) as state:
        trigger(window, entry)
        wait_for(
            qtbot,
            lambda: found or (_visible_children(window) - tops) or len(_documents(window)) > len(docs),
            f"what {entry} opens",
            BUDGET,
        )
        if not found:  # not modal: a window or a document, nothing for the watcher to answer
            state.cancel()
            new = list(_visible_children(window) - tops) or [d for d in _documents(window) if d not in docs]
            found.append((type(new[0]).__name__, unconnected(new[0])))
            if new[0] in _documents(window):
                window.close_document(window.documents.indexOf(new[0]))
            else:
                new[0].close()
    if found[0][0] == "CompareDialog":
        wait_for(qtbot, lambda: isinstance(window.documents.currentWidget(), CompareView), "the comparison", BUDGET)
        view = window.documents.currentWidget()
        found.append((type(view).__name__, unconnected(view)))
        window.close_document(window.documents.indexOf(view))
    return found


def test_every_enabled_button_and_action_has_a_receiver(qtbot, window, project, two_runs, samples):
    entries = {
        path: act
        for path, act in window.menu_entries().items()
        if act.isEnabled() and not act.isCheckable() and not act.isSeparator()
    }
    assert set(NOT_OPENED) <= set(window.menu_entries()), "NOT_OPENED names entries that no longer exist"
    results: dict[str, list[tuple[str, list[str]]]] = {}
    for entry in sorted(set(entries) - set(NOT_OPENED)):
        results[entry] = open_and_check(qtbot, window, entry, two_runs)
    # documents the Project Explorer opens (double-click / Enter): an om JSON's graph,
    # a report, a dump folder
    root = Path(project.root)
    shutil.copy(samples / "atc-om2json-310-cann5.1" / "model.json", root / "model.om.json")
    prof = shutil.copytree(two_runs[0], root / two_runs[0].name)
    from workbench.core.dump.aclconfig import DumpSettings
    from workbench.core.dump.omjson import read_om_json
    from workbench.simtoolkit.dumpwriter import write_model_dump

    model = read_om_json(root / "model.om.json")
    dump = root / "dump_iteration"
    write_model_dump(model, DumpSettings(option="all", model_name=model.name), dump)
    explorer = window.explorer
    for path in (root / "model.om.json", prof, dump):
        before = _documents(window)
        activate_in_tree(qtbot, explorer.view, explorer.index_of(path), BUDGET)  # click it, Enter
        wait_for(qtbot, lambda b=before: len(_documents(window)) > len(b), f"the document of {path.name}", BUDGET)
        doc = next(d for d in _documents(window) if d not in before)
        if type(doc).__name__ == "ReportLoadingPage":  # a report opens as a loading tab, then its document
            from workbench.ui.report.document import ReportDocument

            def loaded(b=before):
                new = [d for d in _documents(window) if d not in b and isinstance(d, ReportDocument)]
                return new[0] if new and new[0].ready else None

            wait_for(qtbot, loaded, f"{path.name} loaded", BUDGET)
            doc = loaded()
        for tabs in doc.findChildren(QTabWidget):  # sub-views are built when first shown
            for i in range(tabs.count()):
                tabs.setCurrentIndex(i)
        results[f"Project Explorer/{path.name}"] = [(type(doc).__name__, unconnected(doc))]
    results["main window"] = [("MainWindow", unconnected(window))]

    kinds = {kind for found in results.values() for kind, _missing in found}
    expected = {
        "NewProjectDialog",
        "ConverterWizard",
        "DumpConfigDialog",
        "NewProfilingWizard",
        "ImportResultDialog",
        "MergeReportsDialog",
        "ProfilingRunsDialog",
        "TimelineColorDialog",
        "CompareDialog",
        "CompareView",
        "AccuracyAnalyzer",
        "CannMachinesDialog",
        "RunConfigurationsDialog",
        "DeploymentDialog",
        "ShortcutsDialog",
        "GraphDocument",
        "ReportDocument",
        "DumpDataView",
    }
    assert expected <= kinds, f"not opened: {sorted(expected - kinds)}; opened: {sorted(kinds)}"
    assert len(CHECKED) > 100, f"only {len(CHECKED)} buttons and actions were checked"
    problems = [m for found in results.values() for _kind, missing in found for m in missing]
    assert not problems, "buttons/actions nobody receives:\n" + "\n".join(problems)


def test_the_contract_sees_a_button_nobody_receives(qtbot):
    """The checker itself: it names an unconnected push button, dialog-box button, wizard custom
    button and action, and accepts their connected twins and the container-handled buttons."""
    from PySide6.QtWidgets import QPushButton, QVBoxLayout

    dialog = QDialog()
    qtbot.addWidget(dialog)
    dialog.setWindowTitle("Probe")
    lay = QVBoxLayout(dialog)
    for text, connect in (("Dead", False), ("Alive", True)):
        button = QPushButton(text, dialog)
        if connect:
            button.clicked.connect(dialog.accept)
        lay.addWidget(button)
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, dialog)
    box.rejected.connect(dialog.reject)  # Cancel is handled by the box, Ok is not
    lay.addWidget(box)
    dead_action = QAction("Nothing", dialog)
    live_action = QAction("Something", dialog)
    live_action.triggered.connect(dialog.accept)
    dialog.addActions([dead_action, live_action])
    assert unconnected(dialog) == [
        "Probe: action 'Nothing'",
        "Probe: button 'Dead' (QPushButton)",
        "Probe: button 'OK' (QPushButton)",
    ]
    wizard = QWizard()
    qtbot.addWidget(wizard)
    wizard.setWindowTitle("Wizard")
    wizard.setOption(QWizard.WizardOption.HaveCustomButton1, True)
    wizard.setButtonText(QWizard.WizardButton.CustomButton1, "Go")
    assert unconnected(wizard) == ["Wizard: button 'Go' (QPushButton)"], "Back/Next/Cancel are QWizard's own"
    wizard.customButtonClicked.connect(lambda _which: None)
    assert unconnected(wizard) == []
