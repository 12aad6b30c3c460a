"""Main window: docks, menus (disabled entries explain themselves), layout restore, projects."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QByteArray, Qt
from PySide6.QtWidgets import QMessageBox

from workbench.core import project as core_project
from workbench.core import settings as core_settings
from workbench.core import uistate
from workbench.ui.documents.text_view import TextView

EXPECTED_MENU = [
    "File/New Project…",
    "File/Open Project…",
    "File/Close Project",
    "File/Open Report…",
    "File/Exit",
    "Ascend/Model Converter…",
    "Ascend/Dump Configuration…",
    "Ascend/System Profiler/New Profiling…",
    "Ascend/System Profiler/Open Report…",
    "Ascend/System Profiler/Merge Reports…",
    "Ascend/System Profiler/Timeline Color…",
    "Ascend/Baseline Comparison…",
    "Ascend/Model Accuracy Analyzer…",
    "Ascend/CANN Machines…",
    "Ascend/Deployment…",
    "View/Reset Layout",
    "Help/Keyboard Shortcuts",
    "Help/About Ascend Workbench",
]


def test_docks_and_menus(window):
    assert set(window.docks) == {"ProjectExplorerDock", "DetailsDock", "OutputDock", "TasksDock", "HostDock"}
    assert window.dockWidgetArea(window.docks["ProjectExplorerDock"]) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert window.dockWidgetArea(window.docks["DetailsDock"]) == Qt.DockWidgetArea.RightDockWidgetArea
    assert window.dockWidgetArea(window.docks["OutputDock"]) == Qt.DockWidgetArea.BottomDockWidgetArea
    entries = window.menu_entries()
    for path in EXPECTED_MENU:
        assert path in entries, path
    assert any(p.startswith("File/Recent Projects") for p in entries) or window.recent_projects_menu is not None
    not_built = [p for p, a in entries.items() if a.property("not_built")]
    for path in not_built:
        act = entries[path]
        assert not act.isEnabled() and act.toolTip().startswith("Not available yet"), path
    assert not entries["File/Close Project"].isEnabled(), "nothing to close without a project"
    for path in ("Ascend/Deployment…", "Ascend/Run Configurations…"):
        assert not entries[path].isEnabled() and entries[path].toolTip().startswith("Open a project first")
    built = [
        p for p in entries if p.startswith("Ascend/") and p not in ("Ascend/Deployment…", "Ascend/Run Configurations…")
    ]
    assert built and all(entries[p].isEnabled() for p in built), "every Ascend feature is built and enabled"
    # every dock can be toggled from View
    view_titles = {a.text() for a in window.view_menu.actions()}
    assert {"Project Explorer", "Properties", "Output", "Tasks", "CANN Machine"} <= view_titles


def test_layout_restored_and_survives_corrupt_state(qtbot, window):
    from workbench.ui.app import build_window

    window.docks["DetailsDock"].hide()
    window.resize(1000, 700)
    window.save_state()
    second = build_window(window.settings, [], [], restore=True, demo=False)
    qtbot.addWidget(second)
    assert second.docks["DetailsDock"].isHidden()
    second._quitting = True
    second.close()
    uistate.state_path().write_text("{ broken", encoding="utf-8")
    third = build_window(window.settings, [], [], restore=True, demo=False)
    qtbot.addWidget(third)
    assert not third.docks["DetailsDock"].isHidden(), "a corrupt state file gives the default layout"
    assert "could not be restored" in third.statusBar().currentMessage()
    third._quitting = True
    third.close()


def test_project_created_closed_reopened_shows_artefacts(qtbot, window, tmp_path):
    folder = tmp_path / "resnet_app"
    (folder / "model").mkdir(parents=True)
    (folder / "model" / "resnet50.onnx").write_bytes(b"\x08\x07")
    (folder / "src").mkdir()
    (folder / "src" / "acl.json").write_text('{"dump": {}}')
    prof = folder / "PROF_000001_20240101000000000_ABCDEFGHIJKLMNOP"
    prof.mkdir()
    project = window.create_project(folder, ptype=core_project.OPERATOR)
    assert project is not None and window.project.type == core_project.OPERATOR
    window.close_project()
    assert window.project is None
    reopened = window.open_project(folder)
    assert reopened.type == core_project.OPERATOR
    explorer = window.explorer
    qtbot.waitUntil(lambda: explorer.type_text(prof) == "Profiling data (PROF)", timeout=5000)
    explorer.view.expandAll()
    qtbot.waitUntil(lambda: explorer.type_text(folder / "model" / "resnet50.onnx") == "ONNX model", timeout=5000)
    qtbot.waitUntil(
        lambda: explorer.type_text(folder / "src" / "acl.json") == "AscendCL config (acl.json)", timeout=5000
    )
    # a file created on disk appears without a restart
    (folder / "model" / "resnet50.om").write_bytes(b"IMOD")
    qtbot.waitUntil(
        lambda: explorer.type_text(folder / "model" / "resnet50.om") == "Offline model (.om)", timeout=10000
    )
    assert str(folder) in window.settings.recent_projects[0]
    saved, _ = core_settings.load()
    assert saved.recent_projects[0] == str(folder.resolve())


def test_open_file_without_viewer_uses_text_or_hex_view(window, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("昇腾 notes\nline 2", encoding="utf-8")
    binary = tmp_path / "blob.bin"
    binary.write_bytes(bytes(range(256)))
    window.open_path(text)
    view = window.documents.currentWidget()
    assert isinstance(view, TextView) and view.mode == "text" and "昇腾" in view.edit.toPlainText()
    window.open_path(binary)
    view = window.documents.currentWidget()
    assert view.mode == "hex" and view.edit.toPlainText().startswith("00000000  00 01 02")


def test_corrupt_project_reported_not_overwritten(monkeypatch, window, tmp_path):
    folder = tmp_path / "p"
    core_project.create_project(folder)
    pfile = folder / ".ascend-workbench" / "project.json"
    pfile.write_text("{oops")
    shown = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: shown.append(a[2]) or QMessageBox.StandardButton.No)
    assert window.open_project(folder) is None
    assert shown and str(pfile) in shown[0] and "line 1" in shown[0]
    assert pfile.read_text() == "{oops"


def test_missing_recent_project_is_reported_and_dropped(monkeypatch, window, tmp_path):
    gone = str(tmp_path / "gone")
    window.settings.add_recent("projects", gone)
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a[2]))
    window.open_project(gone)
    assert warned and "does not exist" in warned[0]
    assert gone not in window.settings.recent_projects


def test_app_starts_with_corrupt_settings(qtbot):
    from workbench.ui.app import build_window, create_app

    path = core_settings.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("not json", encoding="utf-8")
    _app, settings, problems = create_app("en")
    win = build_window(settings, problems, [], demo=False)
    qtbot.addWidget(win)
    assert str(path) in win.statusBar().currentMessage()
    assert path.with_name("settings.json.corrupt").read_text() == "not json"
    win._quitting = True
    win.close()


def test_demo_project_opens_on_first_start(qtbot):
    from workbench.ui.app import build_window, create_app

    _app, settings, problems = create_app("en")
    win = build_window(settings, problems, [], demo=True)
    qtbot.addWidget(win)
    assert win.project is not None and win.project.name == "Ascend Workbench Demo"
    assert (win.project.root / "reports").is_dir()
    # the report shown is the torch_npu training run: a newcomer sees memory, communication and steps
    from workbench.ui.report.document import ReportDocument

    qtbot.waitUntil(
        lambda: isinstance(win.documents.currentWidget(), ReportDocument) and win.documents.currentWidget().ready,
        timeout=30000,
    )
    doc = win.documents.currentWidget()
    assert doc.report.kind == "torch_npu" and doc.report.source.name.endswith("_ascend_pt")
    titles = [doc.tabs.tabText(i) for i in range(doc.tabs.count())]
    assert {"Steps", "Memory", "Communication"} <= set(titles), titles
    win._quitting = True
    win.close()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_first_start_docks_are_wide_enough_for_their_titles(qtbot, language):
    """No saved layout: ``ascend-workbench`` shows the window at its own size, then the window manager
    (or the user) gives it 1600x1000; the explorer is a usable width and its title is not clipped."""
    from PySide6.QtCore import QSize
    from PySide6.QtWidgets import QAbstractButton, QStyle

    from workbench.ui import i18n
    from workbench.ui.app import build_window, create_app

    assert not uistate.state_path().exists(), "a fresh settings dir"
    app, settings, problems = create_app(language)
    try:
        win = build_window(settings, problems, [], restore=True, demo=False)
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        win.resize(1600, 1000)
        explorer = win.docks["ProjectExplorerDock"]
        qtbot.waitUntil(lambda: win.size() == QSize(1600, 1000) and explorer.width() >= 260)
        for name in ("ProjectExplorerDock", "DetailsDock", "HostDock"):
            dock = win.docks[name]
            buttons = [b for b in dock.findChildren(QAbstractButton) if b.parent() is dock and b.isVisible()]
            margin = dock.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetTitleMargin, None, dock)
            room = min(b.x() for b in buttons) - 2 * margin  # the title bar left of the float/close buttons
            needed = dock.fontMetrics().horizontalAdvance(dock.windowTitle())
            assert needed <= room, f"{name}: title {dock.windowTitle()!r} needs {needed} px, has {room}"
        win._quitting = True
        win.close()
    finally:
        for tr in getattr(app, "_wb_translators", []):
            app.removeTranslator(tr)
        app._wb_translators = i18n.install_translators(app, "en")


# --- window state: geometry from another screen, stray dock tab bars --------------------------------
def _geometry_blob(rect, screen_width: int, maximized: bool = False) -> bytes:
    """What QWidget.saveGeometry() writes (format 3.0) for a window at ``rect`` on a screen
    ``screen_width`` wide: built by hand, as another screen (another monitor, Xvfb of another size,
    an offscreen screenshot run) would have written it."""
    import struct

    x1, y1, x2, y2 = rect.left(), rect.top(), rect.right(), rect.bottom()
    return (
        struct.pack(">IHH", 0x1D9D0CB, 3, 0)
        + struct.pack(">4i", x1, y1 - 30, x2, y2)  # frame geometry (title bar above)
        + struct.pack(">4i", x1, y1, x2, y2)  # normal geometry
        + struct.pack(">iBBi", 0, int(maximized), 0, screen_width)
        + struct.pack(">4i", x1, y1, x2, y2)
    )


def _write_state(geometry: bytes) -> None:
    import base64
    import json

    path = uistate.state_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"version": uistate.STATE_VERSION, "blobs": {"geometry": base64.b64encode(geometry).decode("ascii")}}
    path.write_text(json.dumps(data), encoding="utf-8")


def test_geometry_saved_on_another_screen_is_fitted_without_a_warning(qtbot):
    """A readable geometry Qt refuses (saved on a screen of another size: every start under a window
    manager-less X server after an offscreen run) is no start-up problem: the saved size is kept,
    fitted to this screen."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QGuiApplication

    from workbench.ui.app import build_window, create_app

    _app, settings, problems = create_app("en")
    screen = QGuiApplication.primaryScreen().availableGeometry()
    saved = QRect(10, 20, screen.width() * 3 // 4, screen.height() * 3 // 4)
    _write_state(_geometry_blob(saved, screen_width=screen.width() * 2))
    win = build_window(settings, problems, [], restore=True, demo=False)
    qtbot.addWidget(win)
    assert not win.restoreGeometry(QByteArray(_geometry_blob(saved, screen.width() * 2))), "Qt refuses it"
    assert "not usable" not in win.statusBar().currentMessage()
    assert win.statusBar().currentMessage() == "Ready"
    assert win.size() == saved.size() and win.pos() == saved.topLeft()
    # a window bigger than this screen is made to fit
    _write_state(_geometry_blob(QRect(0, 0, screen.width() * 3, screen.height() * 3), screen.width() * 3))
    big = build_window(settings, [], [], restore=True, demo=False)
    qtbot.addWidget(big)
    assert big.width() <= screen.width() and big.height() <= screen.height()
    assert big.statusBar().currentMessage() == "Ready"
    for w in (win, big):
        w._quitting = True
        w.close()


def test_unreadable_geometry_is_still_reported(qtbot):
    from workbench.ui.app import build_window, create_app

    _app, settings, problems = create_app("en")
    _write_state(b"\x00\x01 not a geometry")
    win = build_window(settings, problems, [], restore=True, demo=False)
    qtbot.addWidget(win)
    assert win.statusBar().currentMessage() == "saved window geometry was not usable; using the default"
    win._quitting = True
    win.close()


def test_a_screenshot_run_leaves_the_saved_layout_alone(qtbot, window, tmp_path):
    """``ascend-workbench --screenshot`` renders offscreen; closing it must not replace the user's
    saved window state with the offscreen one (the next real start would refuse it)."""
    import argparse

    from workbench.ui.app import take_screenshot

    window.docks["DetailsDock"].hide()
    window.save_state()
    before = uistate.state_path().read_bytes()
    args = argparse.Namespace(
        lang="en", open=[], no_demo=True, view=None, size="900x700", screenshot=str(tmp_path / "shot.png")
    )
    assert take_screenshot(args) == 0 and (tmp_path / "shot.png").is_file()
    assert uistate.state_path().read_bytes() == before


def _dock_tab_bars(win) -> list:
    """The tab bars of tabified docks that are on screen."""
    from PySide6.QtWidgets import QTabBar

    return [b for b in win.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly) if b.isVisible()]


def _assert_dock_tabs_sound(win) -> None:
    """Exactly one visible tab bar per tabified group, each right under a dock of its own group;
    none over another dock (the stray "Output | Tasks" strip over the Project Explorer)."""
    bars = _dock_tab_bars(win)
    groups = sorted(tuple(b.tabText(i) for i in range(b.count())) for b in bars)
    assert groups == [("Output", "Tasks"), ("Properties", "CANN Machine")], groups
    titles = {d.windowTitle(): d for d in win.docks.values()}
    for bar in bars:
        rect = bar.geometry()
        own = [titles[bar.tabText(i)] for i in range(bar.count())]
        shown = [d for d in own if d.isVisible() and d.geometry().intersects(win.rect())]
        assert len(shown) == 1, [d.objectName() for d in shown]
        dock = shown[0].geometry()
        assert abs(rect.top() - dock.bottom()) <= 4 and rect.left() == dock.left(), (rect, dock)
        for other in win.docks.values():
            if other not in own and other.isVisible():
                assert not other.geometry().intersects(rect), f"tab bar {groups} over {other.objectName()}"


def test_no_stray_dock_tab_bar_after_start_reset_layout_and_restart(qtbot):
    """What ``--screenshot`` renders (the window laid out through processEvents, as
    ``app.wait_for_jobs`` does, before any event loop runs): after start, after View ▸ Reset Layout
    and after a restart with the saved layout, one tab bar per tabified dock group, each under its
    own dock — no retired "Output | Tasks" bar left over the Project Explorer."""
    from PySide6.QtCore import QSize
    from PySide6.QtWidgets import QApplication

    from workbench.ui.app import build_window, create_app, wait_for_jobs

    app, settings, problems = create_app("en")
    win = build_window(settings, problems, [], restore=True, demo=False, screenshot=True)
    qtbot.addWidget(win)
    win.resize(QSize(1400, 900))
    win.show()
    wait_for_jobs(app, win)
    _assert_dock_tabs_sound(win)
    win.menu_entries()["View/Reset Layout"].trigger()
    wait_for_jobs(app, win)
    _assert_dock_tabs_sound(win)
    win.resize(1200, 800)  # nothing stays behind where the old layout had it
    wait_for_jobs(app, win)
    _assert_dock_tabs_sound(win)
    # the bars left are the live ones: clicking Tasks shows the Tasks dock
    bar = next(b for b in _dock_tab_bars(win) if b.tabText(1) == "Tasks")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    qtbot.waitUntil(lambda: win.docks["TasksDock"].geometry().intersects(win.rect()) and win.tasks.isVisible())
    win.save_state()
    win._quitting = True
    win.close()
    second = build_window(settings, [], [], restore=True, demo=False, screenshot=True)
    qtbot.addWidget(second)
    second.show()
    wait_for_jobs(QApplication.instance(), second)
    _assert_dock_tabs_sound(second)
    second._quitting = True
    second.close()
