"""What a user does, for the UI tests: the :class:`User` behind the ``user`` fixture (also usable
as ``User(qtbot)`` inside a test's own helpers). The journeys have their own kit."""

from __future__ import annotations


class User:
    """Clicks and keys on the real widgets, for the UI tests (the journeys have their own kit):
    buttons by the mouse, check boxes on their indicator, fields by the keyboard (select-all
    first; non-ASCII text as an input method commits it), combo boxes by typing their item's
    label, menu entries through their QActions, modal dialogs (``exec()``, static QMessageBox
    functions) answered from a timer while they block."""

    def __init__(self, qtbot) -> None:
        from PySide6.QtCore import Qt

        self.qtbot = qtbot
        self.LEFT = Qt.MouseButton.LeftButton

    def click(self, button, timeout: int = 10000) -> None:
        """A left click on ``button`` once it is visible and enabled (a user cannot click it before)."""
        self.qtbot.waitUntil(lambda: button.isVisible() and button.isEnabled(), timeout=timeout)
        self.qtbot.mouseClick(button, self.LEFT)

    def toggle(self, checkbox, timeout: int = 10000) -> None:
        """Click a check box (or radio button) on its indicator, where a click toggles it."""
        from PySide6.QtWidgets import QStyle, QStyleOptionButton

        self.qtbot.waitUntil(lambda: checkbox.isVisible() and checkbox.isEnabled(), timeout=timeout)
        option = QStyleOptionButton()
        checkbox.initStyleOption(option)
        element = QStyle.SubElement.SE_CheckBoxIndicator
        if checkbox.metaObject().className() == "QRadioButton":
            element = QStyle.SubElement.SE_RadioButtonIndicator
        rect = checkbox.style().subElementRect(element, option, checkbox)
        self.qtbot.mouseClick(checkbox, self.LEFT, pos=rect.center())

    def set_checked(self, checkbox, checked: bool, timeout: int = 10000) -> None:
        """Bring a check box (or radio button) to ``checked`` by clicking its indicator, only when it is
        not so already (a user looks first); asserts the click did it."""
        if checkbox.isChecked() != checked:
            self.toggle(checkbox, timeout=timeout)
        assert checkbox.isChecked() == checked, f"clicking {checkbox.text()!r} left it {checkbox.isChecked()}"

    def step_to(self, combo, text: str) -> None:
        """Pick the item labelled ``text`` by the arrow keys (for labels whose first word several items
        share, where :meth:`choose`'s keyboard search cannot tell them apart)."""
        from PySide6.QtCore import Qt

        row = combo.findText(text)
        assert row >= 0, f"the combo box offers no {text!r}: {[combo.itemText(i) for i in range(combo.count())]}"
        self.focus(combo)
        for _ in range(combo.count()):
            if combo.currentIndex() == row:
                break
            self.qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < row else Qt.Key.Key_Up)
        assert combo.currentText() == text, f"the arrow keys stopped at {combo.currentText()!r}, not {text!r}"

    def dock_tab(self, window, title: str) -> None:
        """Bring the tabbed dock titled ``title`` to the front by clicking its tab below the docks."""
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QTabBar

        bars = [
            (bar, i)
            for bar in window.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
            if bar.isVisible()
            for i in range(bar.count())
            if bar.tabText(i).replace("&", "") == title
        ]
        assert len(bars) == 1, f"{len(bars)} visible dock tabs titled {title!r}"
        bar, index = bars[0]
        self.qtbot.mouseClick(bar, self.LEFT, pos=bar.tabRect(index).center())
        self.qtbot.waitUntil(lambda: bar.currentIndex() == index, timeout=5000)

    @staticmethod
    def button(parent, text: str):
        """The visible button of ``parent`` labelled ``text`` (without its ``&`` shortcut mark)."""
        from PySide6.QtWidgets import QAbstractButton

        found = [b for b in parent.findChildren(QAbstractButton) if b.text().replace("&", "") == text and b.isVisible()]
        assert len(found) == 1, f"{len(found)} visible buttons labelled {text!r}"
        return found[0]

    def focus(self, widget) -> None:
        """Give ``widget`` the keyboard focus as a click does (its window activated first)."""
        from PySide6.QtCore import Qt

        win = widget.window()
        if not win.isActiveWindow():
            win.activateWindow()
            self.qtbot.waitUntil(win.isActiveWindow, timeout=5000)
        widget.setFocus(Qt.FocusReason.MouseFocusReason)
        self.qtbot.waitUntil(widget.hasFocus, timeout=5000)

    def retype(self, field, text: str, finish: str | None = None) -> None:
        """Replace what a line edit (or plain text edit) holds by typing: focus, Ctrl+A, the text;
        then ``finish``: "tab" (leaves the field: editingFinished), "enter" or None."""
        from PySide6.QtCore import Qt

        self.focus(field)
        self.qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        if text:
            self.type(field, text)
        else:
            self.qtbot.keyClick(field, Qt.Key.Key_Delete)
        if finish == "tab":
            self.qtbot.keyClick(field, Qt.Key.Key_Tab)
        elif finish == "enter":
            self.qtbot.keyClick(field, Qt.Key.Key_Return)

    def type(self, field, text: str) -> None:
        """Type ``text`` into the focused ``field``: ASCII as key clicks; other characters (昇腾) as
        an input method commits them (QTest's key clicks know ASCII keys only)."""
        import itertools

        from PySide6.QtGui import QInputMethodEvent
        from PySide6.QtWidgets import QApplication

        for ascii_run, chars in itertools.groupby(text, key=str.isascii):
            run = "".join(chars)
            if ascii_run:
                self.qtbot.keyClicks(field, run)
            else:
                event = QInputMethodEvent()
                event.setCommitString(run)
                QApplication.sendEvent(field, event)

    def choose(self, combo, text: str) -> None:
        """Pick the item labelled ``text`` as a user does with the keyboard: focus the combo box and
        type its label up to the first space (the keyboard search selects the first item starting
        with what was typed; Space would open the popup list).
        (Clicking the item in the popup list is not used: offscreen, the popup warns that it
        cannot grab the keyboard, and it ignores a release within the double-click interval.)"""
        row = combo.findText(text)
        assert row >= 0, f"the combo box offers no {text!r}: {[combo.itemText(i) for i in range(combo.count())]}"
        self.focus(combo)
        self.qtbot.keyClicks(combo, text.split(" ")[0])  # Space would open the popup list
        assert combo.currentText() == text, f"typing {text!r} chose {combo.currentText()!r}"

    @staticmethod
    def trigger(window, path: str) -> None:
        """The menu entry ``path`` ('Ascend/Run Configurations…') through its real QAction."""
        entries = window.menu_entries()
        assert path in entries, f"no menu entry {path!r}"
        assert entries[path].isEnabled(), f"menu entry {path!r} is disabled"
        entries[path].trigger()

    def press(self, box, standard_button) -> None:
        """Click one of a message box's (or button box's) standard buttons."""
        target = box.button(standard_button)
        assert target is not None, f"no {standard_button.name} button"
        self.qtbot.mouseClick(target, self.LEFT)

    def answering(self, kind, handler, timeout: int = 10000):
        """A ``with`` block: the next modal ``kind`` (QMessageBox, QFileDialog, …) that opens while it
        runs is answered by ``handler(dialog)``; it yields the list of what was answered (a message
        box's text, else the dialog's title) and, at its end, waits until one was."""
        import contextlib

        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication, QMessageBox
        from pytestqt.exceptions import TimeoutError as WaitTimeout

        seen: list[str] = []
        stop: list[bool] = []
        errors: list[BaseException] = []

        def poll() -> None:
            if stop:
                return
            dialog = QApplication.activeModalWidget()
            if isinstance(dialog, kind) and dialog.isVisible():
                seen.append(dialog.text() if isinstance(dialog, QMessageBox) else dialog.windowTitle())
                try:
                    handler(dialog)
                    self.qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)
                except BaseException as exc:  # noqa: BLE001 - raised in the test once exec() is unblocked
                    errors.append(exc)
                    if dialog.isVisible():
                        dialog.reject()  # a handler that failed (or a dialog its answer did not close)
            else:
                QTimer.singleShot(20, poll)

        @contextlib.contextmanager
        def block():
            QTimer.singleShot(0, poll)
            try:
                yield seen
                self.qtbot.waitUntil(lambda: bool(seen), timeout=timeout)
            finally:
                stop.append(True)
            if errors:
                raise WaitTimeout(f"{seen[-1]!r}: the answer failed or left it open") from errors[0]

        return block()

    def typing_path(self, path):
        """A handler for :meth:`answering`: in Qt's own (non-native) file dialog, replace the file
        name field's text with ``path`` by the keyboard and press Enter."""
        from PySide6.QtCore import QPoint, Qt
        from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit

        qtbot = self.qtbot

        def handler(dialog: QFileDialog) -> None:
            assert dialog.testOption(QFileDialog.Option.DontUseNativeDialog), "Qt's own dialog"
            dialog.activateWindow()  # as the window manager does with a new dialog
            edit = dialog.findChild(QLineEdit, "fileNameEdit")
            qtbot.waitUntil(edit.hasFocus, timeout=5000)
            qtbot.mouseClick(edit, Qt.MouseButton.LeftButton, pos=QPoint(4, edit.height() // 2))
            qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # what it holds is replaced
            qtbot.keyClicks(edit, str(path))
            popup = QApplication.activePopupWidget()
            if popup is not None:  # the completion list: keep what was typed
                qtbot.keyClick(popup, Qt.Key.Key_Escape)
            qtbot.keyClick(edit, Qt.Key.Key_Return)

        return handler


def explorer_row_centre(qtbot, window, path):
    """Where ``path``'s row is in the project explorer, once it is shown."""
    view = window.explorer.view
    qtbot.waitUntil(lambda: not view.visualRect(window.explorer.index_of(path)).isEmpty(), timeout=10000)
    return view.visualRect(window.explorer.index_of(path)).center()


def explorer_menu(qtbot, window, path):
    """Right-click ``path`` in the project explorer: the menu the panel pops up."""
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication, QMenu

    viewport = window.explorer.view.viewport()
    pos = explorer_row_centre(qtbot, window, path)
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, viewport.mapToGlobal(pos)))
    shown = [m for m in window.explorer.findChildren(QMenu) if m.isVisible()]
    assert len(shown) == 1, "right-click pops up one menu"
    return shown[0]


def click_menu_entry(qtbot, menu, text: str) -> None:
    """Click the entry ``text`` of the popped-up ``menu``, as a user does; it triggers and the menu closes."""
    from PySide6.QtCore import Qt

    texts = [a.text() for a in menu.actions()]
    action = next((a for a in menu.actions() if a.text() == text), None)
    assert action is not None, f"{text!r} not in {texts}"
    triggered = []
    action.triggered.connect(lambda *_: triggered.append(True))
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())
    qtbot.waitUntil(lambda: bool(triggered) and not menu.isVisible(), timeout=5000)
