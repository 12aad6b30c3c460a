"""Clicks and keys for the journeys, and nothing else: menus through their real QActions, buttons
through the mouse, fields and combo boxes through the keyboard, modal dialogs (``exec()``) answered
from a timer while they block, and the real non-native QFileDialog (its file name field typed into,
then Enter).

Every wait is on something the user sees (``qtbot.waitUntil``); a wait that runs out raises
pytest-qt's ``TimeoutError`` with what was awaited. ``Budget`` carries the time limit, so the
disconnected-button check can run a journey with a short one and expect that error.
"""

from __future__ import annotations

import contextlib
import os
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QFileDialog,
    QLineEdit,
    QMessageBox,
    QWidget,
)
from pytestqt.exceptions import TimeoutError as WaitTimeout

LEFT = Qt.MouseButton.LeftButton
SHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
SHOTS_ENV = "WORKBENCH_JOURNEY_SHOTS"


@dataclass
class Budget:
    """How long a journey waits for each visible result (ms), and an optional hook that tampers
    with a dialog once it is open (the disconnected-button check)."""

    wait_ms: int = 60_000
    tamper: Callable[[str, QWidget], None] | None = None

    def opened(self, what: str, widget: QWidget) -> None:
        if self.tamper is not None:
            self.tamper(what, widget)


def wait_for(qtbot, condition: Callable[[], object], what: str, budget: Budget) -> None:
    """Wait until ``condition()`` is true; on time-out say ``what`` was awaited."""
    try:
        qtbot.waitUntil(lambda: bool(condition()), timeout=budget.wait_ms)
    except WaitTimeout as exc:
        raise WaitTimeout(f"{what}: not seen within {budget.wait_ms / 1000:g} s") from exc


# --- menus ------------------------------------------------------------------------------------------
def menu_action(window, path: str) -> QAction:
    """The real menu QAction at ``path`` ('Ascend/System Profiler/New Profiling…')."""
    entries = window.menu_entries()
    assert path in entries, f"no menu entry {path!r}; the menus have {sorted(entries)}"
    return entries[path]


def trigger(window, path: str) -> None:
    action = menu_action(window, path)
    assert action.isEnabled(), f"menu entry {path} is disabled: {action.toolTip()}"
    action.trigger()


# --- buttons and fields -----------------------------------------------------------------------------
def click(qtbot, button: QAbstractButton, budget: Budget, what: str = "") -> None:
    """A left click on ``button`` once it is visible and enabled (a user cannot click it before)."""
    label = what or button.text().replace("&", "") or button.objectName()
    wait_for(qtbot, lambda: button.isVisible() and button.isEnabled(), f"button {label!r} enabled", budget)
    qtbot.mouseClick(button, LEFT)


def focus(qtbot, widget: QWidget) -> None:
    """Give ``widget`` the keyboard focus the way a click does (its window activated first)."""
    win = widget.window()
    if not win.isActiveWindow():
        win.activateWindow()
        qtbot.waitUntil(win.isActiveWindow, timeout=5000)
    widget.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(widget.hasFocus, timeout=5000)


def type_text(qtbot, edit: QWidget, text: str, *, finish: str = "tab") -> None:
    """Replace the text of a line edit (or an editable combo box) by typing: focus, Ctrl+A, the
    characters, then Tab (``finish='tab'``, ends the edit: editingFinished), Enter or nothing."""
    target = edit.lineEdit() if isinstance(edit, QComboBox) else edit
    focus(qtbot, target)
    qtbot.keyClick(target, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    if text:
        qtbot.keyClicks(target, text)
    else:
        qtbot.keyClick(target, Qt.Key.Key_Delete)
    if finish == "tab":
        qtbot.keyClick(target, Qt.Key.Key_Tab)
    elif finish == "enter":
        qtbot.keyClick(target, Qt.Key.Key_Return)


def choose(qtbot, combo: QComboBox, data: Any, budget: Budget, what: str = "") -> None:
    """Pick the item whose data is ``data`` with the keyboard: Home, then Down to it."""
    wait_for(qtbot, lambda: combo.findData(data) >= 0, f"{what or 'combo box'} offers {data!r}", budget)
    index = combo.findData(data)
    focus(qtbot, combo)
    qtbot.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(index):
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentIndex() == index, f"{what or 'combo box'}: the keyboard reached {combo.currentText()!r}"


def edit_cell(qtbot, view: QAbstractItemView, row: int, column: int, text: str) -> None:
    """Double-click a table cell, replace its text in the editor that opens, Enter."""
    index = view.model().index(row, column)
    view.scrollTo(index)
    rect = view.visualRect(index)
    qtbot.mouseClick(view.viewport(), LEFT, pos=rect.center())
    qtbot.mouseDClick(view.viewport(), LEFT, pos=rect.center())

    def editor() -> QLineEdit | None:
        return next((e for e in view.viewport().findChildren(QLineEdit) if e.isVisible()), None)

    qtbot.waitUntil(lambda: editor() is not None and editor().hasFocus(), timeout=5000)
    line = editor()
    qtbot.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(line, text)
    qtbot.keyClick(line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: editor() is None, timeout=5000)
    assert index.data() == text, f"the cell holds {index.data()!r}"


def expand_in_tree(qtbot, view: QAbstractItemView, index, budget: Budget) -> None:
    """Select a folder of a tree with a click and expand it with the Right arrow key."""
    wait_for(qtbot, lambda: index.isValid() and view.visualRect(index).isValid(), "the folder in the tree", budget)
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), LEFT, pos=view.visualRect(index).center())
    focus(qtbot, view)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    wait_for(qtbot, lambda: view.isExpanded(index), "the folder expanded", budget)


def activate_in_tree(qtbot, view: QAbstractItemView, index, budget: Budget) -> None:
    """Select an item of a tree/list with a click and open it with Enter (activated)."""
    wait_for(qtbot, lambda: index.isValid() and view.visualRect(index).isValid(), "the item in the view", budget)
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), LEFT, pos=view.visualRect(index).center())
    focus(qtbot, view)
    qtbot.keyClick(view, Qt.Key.Key_Return)


# --- modal dialogs -----------------------------------------------------------------------------------
@dataclass
class _Answer:
    done: bool = False
    error: BaseException | None = None
    seen: list[int] = field(default_factory=list)  # id()s: no widget is kept alive here
    cancelled: bool = False

    def cancel(self) -> None:
        """Nothing modal is coming after all (the caller saw a non-modal window): stop watching."""
        self.cancelled = self.done = True


class _Watcher:
    """Polls for the modal dialog (a bound method for the timer: no closure cycle that Python's
    cyclic GC would free later, on whatever thread it runs then, with a widget in it)."""

    def __init__(self, qtbot, kind: type, handler: Callable[[Any], None], budget: Budget, label: str) -> None:
        self.qtbot, self.kind, self.handler, self.label = qtbot, kind, handler, label
        self.budget_s = budget.wait_ms / 1000
        self.deadline = time.monotonic() + self.budget_s
        self.state = _Answer()

    def poll(self) -> None:
        state = self.state
        if state.cancelled:
            return
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, self.kind) and dialog.isVisible() and id(dialog) not in state.seen:
            state.seen.append(id(dialog))
            try:
                self.handler(dialog)
                try:
                    self.qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)
                except WaitTimeout:
                    raise WaitTimeout(f"{self.label}: still open after it was answered") from None
            except BaseException as exc:  # noqa: BLE001 - re-raised in the test, after unblocking exec()
                traceback.clear_frames(exc.__traceback__)  # the frames' locals (the dialog) are not kept
                state.error = exc
                if dialog.isVisible():
                    dialog.reject()
            state.done = True
            return
        if time.monotonic() > self.deadline:
            state.error = WaitTimeout(f"{self.label}: did not open within {self.budget_s:g} s")
            state.done = True
            return
        QTimer.singleShot(20, self.poll)


@contextlib.contextmanager
def answering(qtbot, kind: type, handler: Callable[[Any], None], budget: Budget, what: str = "") -> Iterator[_Answer]:
    """Answer the next modal ``kind`` (a QMessageBox, a QFileDialog, a dialog run with ``exec()``)
    with ``handler(dialog)``: a timer polls for it, since ``exec()`` blocks whatever opened it.
    A handler failure (or a dialog still open after it) closes the dialog so nothing hangs, and
    is raised when the ``with`` block ends; so is a dialog that never appeared."""
    watcher = _Watcher(qtbot, kind, handler, budget, what or kind.__name__)
    state = watcher.state
    QTimer.singleShot(0, watcher.poll)
    try:
        yield state
        qtbot.waitUntil(lambda: state.done, timeout=budget.wait_ms + 10_000)
    finally:
        state.cancelled = True  # stop polling whatever happened in the block
    if state.error is not None:
        error, state.error = state.error, None
        traceback.clear_frames(error.__traceback__)  # poll's frame is done now: drop its locals too
        raise error


def press(qtbot, box: QMessageBox, button: QMessageBox.StandardButton) -> None:
    """Click one of a message box's standard buttons."""
    target = box.button(button)
    assert target is not None, f"message box {box.text()!r} has no {button.name} button"
    qtbot.mouseClick(target, LEFT)


def file_dialog_answer(qtbot, path: str | Path) -> Callable[[QFileDialog], None]:
    """A handler for :func:`answering`: type ``path`` into the real (non-native) QFileDialog's
    file name field and press Enter."""

    def handler(dialog: QFileDialog) -> None:
        edit = dialog.findChild(QLineEdit, "fileNameEdit")
        assert edit is not None, "the file dialog is a native one: no file name field to type into"
        type_text(qtbot, edit, str(path), finish="enter")

    return handler


# --- screenshots -------------------------------------------------------------------------------------
def end_state(qtbot, widget: QWidget, name: str) -> None:
    """With WORKBENCH_JOURNEY_SHOTS=1, docs/screenshots/journey-<name>.png of ``widget``'s window."""
    if os.environ.get(SHOTS_ENV) != "1":
        return
    QApplication.processEvents()  # pending layouts and repaints first
    target = SHOTS / f"journey-{name}.png"
    assert widget.window().grab().save(str(target)), target
