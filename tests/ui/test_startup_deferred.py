"""The interactive start (``build_window(..., after_first_paint=True)``, as ``run_gui`` calls it)
paints the window before it builds the CANN Machine dock's panel, behind Properties — only where a
user cannot tell: when a saved layout sizes the docks. The default layout grows the docks to every
panel's minimum width (the CANN Machine panel's depends on the host names), so there, and wherever
the dock is in front, the panel is built before the first paint. Once built after the paint, the
dock and the menu entries reaching it work as before. (The start-up's imports are checked in a
fresh process by test_startup_imports.py.)"""

from __future__ import annotations

import threading

import pytest

from workbench.core.services.hosts import HostStore


def _dock_tab_shown(window, title: str) -> bool:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QTabBar

    bars = window.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
    return any(b.isVisible() and title in [b.tabText(i) for i in range(b.count())] for b in bars)


def _first_session(qtbot, user, front: str | None = None, size: tuple[int, int] | None = None) -> None:
    """A session the user closes (resized to ``size``, ``front``'s dock tab brought to the front
    first): it leaves its window layout saved, as every start after the first finds it."""
    from workbench.ui.app import build_window, create_app

    app, settings, problems = create_app()
    first = build_window(settings, problems, [], demo=False)
    if size:
        first.resize(*size)
    first.show()
    qtbot.waitExposed(first)
    if front:
        qtbot.waitUntil(lambda: _dock_tab_shown(first, front))
        user.dock_tab(first, front)
    first.close()  # closeEvent saves geometry and docks
    first.deleteLater()


@pytest.fixture
def start(qtbot):
    """``start()`` -> (window, what its first paint showed): the interactive start, watched from an
    event filter that notes the CANN Machine dock's content and the right docks' width at the
    window's first paint. The window is closed after the test, its warm-up thread ended."""
    from PySide6.QtCore import QEvent, QObject

    from workbench.ui.app import build_window, create_app

    windows = []

    def run():
        app, settings, problems = create_app()
        window = build_window(settings, problems, [], demo=False, after_first_paint=True)
        seen: dict = {}

        class FirstPaint(QObject):
            def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
                if event.type() == QEvent.Type.Paint and "dock" not in seen:
                    seen["dock"] = type(window.docks["HostDock"].widget()).__name__
                    seen["right"] = window.docks["DetailsDock"].width()
                return False

        window._test_first_paint = FirstPaint(window)
        window.installEventFilter(window._test_first_paint)  # runs before the app's own first-paint watcher
        windows.append(window)
        window.show()
        qtbot.waitUntil(lambda: "dock" in seen)
        return window, seen

    yield run
    qtbot.waitUntil(lambda: not any(t.name == "warm-up" for t in threading.enumerate()), timeout=60000)
    for window in windows:
        window._quitting = True
        window.close()
        window.deleteLater()


def _built(window) -> bool:
    return type(window.docks["HostDock"].widget()).__name__ == "HostPanel"


@pytest.mark.parametrize("size", [None, (1200, 800)], ids=["default size, docks squeezed", "1200x800"])
def test_a_saved_layout_paints_before_the_cann_machine_panel_is_built_and_the_dock_then_works(qtbot, user, start, size):
    """At the window's own first size its docks do not fit their minimum widths: the saved layout
    is squeezed, and a placeholder smaller than the panel painted the right docks 81 px narrower."""
    _first_session(qtbot, user, size=size)
    window, seen = start()
    assert seen["dock"] == "QWidget", "the first paint came after the panel was built"
    qtbot.waitUntil(lambda: _built(window))
    assert window.docks["DetailsDock"].width() == seen["right"], "building the panel moved the splitter"
    qtbot.waitUntil(lambda: _dock_tab_shown(window, "CANN Machine"))
    user.dock_tab(window, "CANN Machine")
    panel = window.host_panel
    qtbot.waitUntil(panel.isVisible)
    assert panel.host.currentData() == "demo"
    user.click(panel.check_button)
    qtbot.waitUntil(lambda: panel.devices.count() > 0, timeout=60000)
    assert "(simulated)" in panel.status.text()


def test_after_the_deferred_build_cann_machines_changes_reach_the_dock(qtbot, user, start):
    """Ascend ▸ CANN Machines… on a window whose panel was built after the paint: a saved host is
    listed in the dock at once (the dialog's hosts_changed reaches the panel)."""
    from workbench.ui.hosts.machines_dialog import CannMachinesDialog

    _first_session(qtbot, user)
    window, seen = start()
    assert seen["dock"] == "QWidget"
    qtbot.waitUntil(lambda: _built(window))
    user.trigger(window, "Ascend/CANN Machines…")
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(CannMachinesDialog)))
    dialog = next(d for d in window.findChildren(CannMachinesDialog) if d.isVisible())
    user.click(user.button(dialog, "Add"))
    qtbot.waitUntil(lambda: dialog.name.text() == "new-host" and dialog.hostname.isEnabled())
    user.retype(dialog.hostname, "atlas-800")
    user.click(dialog.save_button)
    qtbot.waitUntil(lambda: dialog.status.text() == "Saved new-host.")
    assert HostStore().get("new-host").hostname == "atlas-800"
    qtbot.waitUntil(lambda: window.host_panel.host.findData("new-host") >= 0)
    dialog.close()


def test_a_saved_layout_showing_the_cann_machine_dock_builds_its_panel_before_the_first_paint(qtbot, user, start):
    _first_session(qtbot, user, front="CANN Machine", size=(1200, 800))
    window, seen = start()
    assert seen["dock"] == "HostPanel", "the dock in front was painted empty"


def test_the_default_layout_builds_the_cann_machine_panel_before_the_first_paint(qtbot, start):
    """No saved layout (a first start): the docks are as wide as in a window built all at once."""
    from workbench.ui.app import build_window, create_app

    window, seen = start()
    assert seen["dock"] == "HostPanel"
    app, settings, problems = create_app()
    whole = build_window(settings, problems, [], demo=False)
    try:
        whole.resize(window.size())
        whole.show()
        qtbot.waitExposed(whole)
        qtbot.waitUntil(lambda: whole.docks["DetailsDock"].width() == seen["right"])
    finally:
        whole._quitting = True
        whole.close()
        whole.deleteLater()
