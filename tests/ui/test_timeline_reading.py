"""Reading a report's timeline as a user does (issue 15): the keys work at once and zoom at the
mouse, every key and gesture is listed, counters stay compact, names and boundaries show, flow
arrows follow the lanes, lanes name their device or part, the header reads Start / End /
Duration in one unit, steps are marked and zoomed to, the timeline gets most of the height.

Everything is driven through the real widgets: keys on the plot, the mouse at the pixels where
things are drawn, the tree's context menu, the combo's popup; what is checked is what is drawn
(grabbed pixels) or shown (labels, menus, the dialog)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent, QImage
from PySide6.QtWidgets import QApplication, QMenu

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_timeline import make_timeline, timeline_of  # noqa: E402

# offscreen QPA: a popup menu raises itself and grabs the keyboard, which that platform cannot do


# --- helpers ----------------------------------------------------------------------------------------
def _view(qtbot, tl, width=1200, height=500):
    from workbench.ui.report.timeline import TimelineView

    view = TimelineView(tl)
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    qtbot.waitExposed(view)
    return view


def _at(view, t: float, y: float) -> QPoint:
    """The plot viewport pixel showing time ``t`` at row coordinate ``y``."""
    scene = view.viewbox.mapViewToScene(QPointF(t, y))
    return view.plot.mapFromScene(scene)


def _time_at(view, pos: QPoint) -> float:
    return view.viewbox.mapSceneToView(view.plot.mapToScene(pos)).x()


def _grab(view) -> np.ndarray:
    """The plot viewport as drawn: an (h, w, 3) uint8 RGB array in viewport pixels."""
    img = view.plot.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    ptr = img.constBits()
    argb = np.frombuffer(ptr, dtype=np.uint32, count=img.width() * img.height()).reshape(img.height(), img.width())
    return np.stack([(argb >> 16) & 0xFF, (argb >> 8) & 0xFF, argb & 0xFF], axis=-1).astype(np.uint8)


def _row(view, lane: int):
    return next(r for r in view.rows if r.kind == "slices" and r.lane == lane)


def _band(view, y: int) -> tuple[int, int]:
    """Viewport pixel rows [top, bottom) of display row ``y``."""
    return _at(view, 0, y).y(), _at(view, 0, y + 1).y()


def _hover(qtbot, view, pos: QPoint, over_plot: bool = True) -> None:
    """Move the mouse to ``pos`` of the plot until the view has seen it there (pyqtgraph drops
    mouse moves that follow each other within a frame, Qt drops a move to where the mouse already
    is: like a real hand, this one trembles by a pixel until the view has followed). Ends at ``pos``."""
    moves = [0]

    def seen() -> bool:
        moves[0] += 1
        at = pos if moves[0] % 2 else pos + QPoint(1, 0)
        qtbot.mouseMove(view.plot.viewport(), at)
        return (
            at == pos
            and view.cursor_line.isVisible() == over_plot
            and (not over_plot or view.cursor_line.value() == pytest.approx(_time_at(view, pos)))
        )

    qtbot.waitUntil(seen, timeout=3000)


def _pick_from_context_menu(qtbot, viewport, pos: QPoint, text: str) -> None:
    """Right-click ``pos`` of ``viewport`` and click the menu entry ``text`` (works with a menu
    that pops up and with one that runs its own event loop)."""
    picked: list[str] = []

    def pick(tries: int = 100) -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            if tries:
                QTimer.singleShot(20, lambda: pick(tries - 1))
            return
        action = next((a for a in menu.actions() if a.text() == text), None)
        picked.append(text if action is not None else f"no {text!r} in {[a.text() for a in menu.actions()]}")
        if action is None:
            menu.close()
            return
        qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())

    QTimer.singleShot(0, pick)
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, viewport.mapToGlobal(pos)))
    qtbot.waitUntil(lambda: bool(picked) and QApplication.activePopupWidget() is None, timeout=5000)
    assert picked == [text]


def _tree_item(view, kind: str, index):
    tree = view.tree
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        if (top.data(0, Qt.ItemDataRole.UserRole) or (None, None)) == (kind, index):
            return top
        for k in range(top.childCount()):
            child = top.child(k)
            if child.data(0, Qt.ItemDataRole.UserRole) == (kind, index):
                return child
    raise AssertionError(f"no tree item {kind} {index}")


def _open(qtbot, window, path):
    from workbench.ui.report.document import ReportDocument

    window.open_path(path)
    qtbot.waitUntil(
        lambda: isinstance(window.documents.currentWidget(), ReportDocument) and window.documents.currentWidget().ready,
        timeout=30000,
    )
    return window.documents.currentWidget()


@pytest.fixture
def two_devices(tmp_path_factory):
    from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof

    out = tmp_path_factory.mktemp("two")
    return write_msprof_prof(out, resnet50_workload(kind="model"), devices=[0, 1], iterations=3)


# --- focus and keys -------------------------------------------------------------------------------
def test_keys_work_as_soon_as_a_report_opens(qtbot, window, samples):
    """No click needed: the plot has the keyboard focus when the report opens, so W zooms."""
    window.resize(1600, 1000)
    doc = _open(qtbot, window, samples / "torch_npu-trace_view" / "trace_view.json")
    tv = doc.timeline_view
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=5000)
    assert QApplication.focusWidget() is tv.plot, f"the keys go to {QApplication.focusWidget()!r}"
    a0, a1 = tv.x_range()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_W)  # where a key press lands: the focus widget
    b0, b1 = tv.x_range()
    assert (b1 - b0) == pytest.approx((a1 - a0) / 2, rel=1e-3)


def test_w_and_s_zoom_at_the_mouse_pointer(qtbot):
    """As in Insight and Perfetto: the time under the mouse stays under it; without the mouse
    over the plot, W/S zoom on the centre."""
    view = _view(qtbot, make_timeline(400))
    r = view.viewbox.sceneBoundingRect()
    pos = view.plot.mapFromScene(QPointF(r.left() + r.width() * 0.2, r.top() + 40))
    _hover(qtbot, view, pos)
    t_mouse = _time_at(view, pos)
    a0, a1 = view.x_range()
    qtbot.keyClick(view.plot, Qt.Key.Key_W)
    b0, b1 = view.x_range()
    assert (b1 - b0) == pytest.approx((a1 - a0) / 2, rel=1e-6)
    assert _time_at(view, pos) == pytest.approx(t_mouse, abs=(a1 - a0) * 1e-6), "W keeps the time under the mouse"
    assert (b0 + b1) / 2 != pytest.approx((a0 + a1) / 2, rel=1e-3), "not zoomed on the centre"
    qtbot.keyClick(view.plot, Qt.Key.Key_S)
    assert _time_at(view, pos) == pytest.approx(t_mouse, abs=(a1 - a0) * 1e-6), "S too"
    assert view.x_range() == pytest.approx((a0, a1), rel=1e-9)
    # the mouse leaves the time area (onto the lane names): the centre again
    _hover(qtbot, view, view.plot.mapFromScene(QPointF(r.left() - 30, r.top() + 40)), over_plot=False)
    qtbot.keyClick(view.plot, Qt.Key.Key_W)
    c0, c1 = view.x_range()
    assert (c0 + c1) / 2 == pytest.approx((a0 + a1) / 2, rel=1e-9)


def test_every_key_and_gesture_is_listed_in_the_overlay_and_in_help(qtbot, window, samples):
    """'?' on the plot (or the ? button) shows every key and mouse gesture, Shift+drag area
    selection included; Help ▸ Keyboard Shortcuts lists the same timeline entries."""
    from workbench.ui.dialogs.about import ShortcutsDialog
    from workbench.ui.report.timeline import shortcut_rows

    doc = _open(qtbot, window, samples / "torch_npu-trace_view" / "trace_view.json")
    tv = doc.timeline_view
    qtbot.keyClick(tv.plot, Qt.Key.Key_Question, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: tv.overlay.isVisible(), timeout=3000)
    text = tv.overlay.text()
    for needle in ("Shift+Drag", "W / S", "A / D", "Ctrl+Wheel", "Backspace", ". / ,", "Steps row", "?"):
        assert needle in text, f"{needle!r} missing from the overlay"
    # over the plot, inside the view, not cut off
    plot_area = tv.plot.geometry().translated(tv.plot.parentWidget().mapTo(tv, tv.plot.parentWidget().rect().topLeft()))
    assert tv.rect().contains(tv.overlay.geometry()) and plot_area.intersects(tv.overlay.geometry())
    assert tv.overlay.label.width() >= tv.overlay.label.sizeHint().width()
    qtbot.keyClick(tv.plot, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not tv.overlay.isVisible(), timeout=3000)
    qtbot.mouseClick(tv.help_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tv.overlay.isVisible(), timeout=3000)
    qtbot.mouseClick(tv.help_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not tv.overlay.isVisible(), timeout=3000)

    seen: list[list[tuple[str, str]]] = []

    def read_dialog(tries: int = 200) -> None:
        dialog = next(
            (w for w in QApplication.topLevelWidgets() if isinstance(w, ShortcutsDialog) and w.isVisible()), None
        )
        if dialog is None:
            if tries:
                QTimer.singleShot(25, lambda: read_dialog(tries - 1))
            return
        t = dialog.table
        seen.append([(t.item(r, 0).text(), t.item(r, 1).text()) for r in range(t.rowCount())])
        dialog.reject()

    QTimer.singleShot(0, read_dialog)
    window.menu_entries()["Help/Keyboard Shortcuts"].trigger()
    qtbot.waitUntil(lambda: bool(seen), timeout=10000)
    listed = seen[0]
    for what, keys in shortcut_rows():
        assert any(what in a and k == keys for a, k in listed), f"Help ▸ Keyboard Shortcuts lacks {what!r} ({keys})"
    assert any(k == "Shift+Drag" and "time range" in a for a, k in listed)


# --- counters, row height, share of the window --------------------------------------------------------
def test_counters_are_compact_and_rows_have_a_height_control(qtbot, window, two_devices):
    """Six counters (11 series) of a 2-device run take one row each by default; Expand Counters
    gives each series its own taller row; Row height changes how tall a row is drawn."""
    window.resize(1600, 1000)
    tv = _open(qtbot, window, two_devices).timeline_view
    counters = [r for r in tv.rows if r.kind == "counter"]
    assert len(counters) == len(tv.timeline.counters) == 6 and all(r.height == 1 for r in counters)
    top, _ = _band(tv, counters[0].y)
    _, bottom = _band(tv, counters[-1].y)
    assert bottom - top <= 6 * tv.ROW_PX + 2, "six counters take six rows"
    slices_px = _band(tv, counters[0].y)[0] - _band(tv, 0)[0]
    assert slices_px > bottom - top, "the lanes keep more height than the counters"
    series = sum(len(c.series) for c in tv.timeline.counters)
    qtbot.mouseClick(tv.counters_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: sum(r.kind == "counter" for r in tv.rows) == series, timeout=3000)
    assert all(r.height == 2 for r in tv.rows if r.kind == "counter")
    qtbot.mouseClick(tv.counters_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: sum(r.kind == "counter" for r in tv.rows) == 6, timeout=3000)
    # Row height: Up on the spin box makes rows taller; fewer rows fit the same plot
    h0 = _band(tv, 1)[1] - _band(tv, 1)[0]
    tv.row_height.setFocus()
    for _ in range(5):
        qtbot.keyClick(tv.row_height, Qt.Key.Key_Up)
    assert tv.row_height.value() == 22 + 5 * 2
    qtbot.waitUntil(lambda: _band(tv, 1)[1] - _band(tv, 1)[0] >= h0 + 9, timeout=3000)
    assert abs((_band(tv, 1)[1] - _band(tv, 1)[0]) - 32) <= 1


def test_the_timeline_gets_most_of_the_document(qtbot, window, two_devices):
    """In a 1600×1000 window the timeline takes most of the report tab's height (the data pane
    under it the rest), and the time area most of the timeline's width."""
    window.resize(1600, 1000)
    doc = _open(qtbot, window, two_devices)
    tv = doc.timeline_view
    split = tv.parentWidget()
    qtbot.waitUntil(lambda: split.height() > 300, timeout=3000)
    assert tv.height() >= 0.7 * split.height(), (tv.height(), split.height())
    assert tv.viewbox.height() >= 0.6 * split.height()
    assert tv.viewbox.width() >= 0.5 * tv.width()


# --- drawing: names, boundaries ------------------------------------------------------------------------
def _dark_pixels(rgb: np.ndarray, top: int, bottom: int, left: int, right: int) -> int:
    part = rgb[top:bottom, max(0, left) : right].astype(int)
    return int(((part[..., 0] < 80) & (part[..., 1] < 80) & (part[..., 2] < 80)).sum())


def test_a_slice_starting_left_of_the_view_keeps_its_name(qtbot):
    tl = timeline_of([(1, 0, 1_000_000, "LongKernelName"), (1, 1_200_000, 300_000, "Other")])
    view = _view(qtbot, tl)
    # the slice's start far left of the view: 300 µs of it visible, about 240 px
    width_px = view.viewbox.width()
    t0 = 700_000
    view.set_x_range(t0, t0 + 300_000 * width_px / 240)
    y = _row(view, 1).y
    left, right = _at(view, t0, y).x(), _at(view, 1_000_000, y).x()
    assert 230 <= right - left <= 250
    top, bottom = _band(view, y)
    qtbot.waitUntil(lambda: _dark_pixels(_grab(view), top, bottom, left, right) > 20, timeout=3000)
    # and the name is drawn inside the visible part, none of it left of the view
    rgb = _grab(view)
    assert _dark_pixels(rgb, top, bottom, 0, left - 1) == 0


def test_back_to_back_slices_of_one_name_show_a_boundary(qtbot):
    tl = timeline_of([(1, 0, 400_000, "Same"), (1, 400_000, 400_000, "Same"), (1, 900_000, 100_000, "Same")])
    view = _view(qtbot, tl)
    qtbot.keyClick(view.plot, Qt.Key.Key_0)
    y = _row(view, 1).y
    top, _bottom = _band(view, y)
    line = _grab(view)[top + 2].astype(int)  # above the name
    a, mid, b = _at(view, 0, y).x(), _at(view, 400_000, y).x(), _at(view, 800_000, y).x()
    colour = line[a + 5]
    assert (line[mid + 5] == colour).all(), "one name, one colour"
    differs = [x for x in range(a + 3, b - 3) if not (line[x] == colour).all()]
    assert differs and all(abs(x - mid) <= 1 for x in differs), f"boundary pixels at {differs}, expected near {mid}"
    assert (line[differs[0]] < colour).all(), "the boundary is darker than the slices"


# --- flows follow the lanes ------------------------------------------------------------------------------
def _red_pixels(rgb: np.ndarray, top: int, bottom: int) -> int:
    part = rgb[max(0, top) : bottom].astype(int)
    return int(((part[..., 0] > 170) & (part[..., 1] < 70) & (part[..., 2] < 70)).sum())


def test_the_flow_arrow_follows_pin_hide_and_collapse(qtbot):
    # lane 0 (host): a call at depth 0 and a nested launch at depth 1 with a flow to lane 2's task
    tl = timeline_of(
        [
            (0, 0, 100_000, "aclmdlExecute"),
            (0, 10_000, 20_000, "launch", 1),
            (1, 40_000, 20_000, "MatMul"),
            (2, 60_000, 30_000, "Conv2D"),
        ],
        flows=[(1, 3)],
    )
    src = tl.index[1]
    view = _view(qtbot, tl)
    qtbot.keyClick(view.plot, Qt.Key.Key_0)
    src_row = next(r for r in view.rows if r.kind == "slices" and view.layout_.row_of(src) == r.row)
    qtbot.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, pos=_at(view, 20_000, src_row.y + 0.5))
    qtbot.waitUntil(lambda: view.selected == src, timeout=3000)

    def arrow_rows():
        (flow,) = view.item.flows
        return flow[1], flow[3]

    assert arrow_rows() == (src_row.y, _row(view, 2).y)
    # Pin to Top, from the lane's context menu in the tree: the arrow ends on lane 2's new row
    item = _tree_item(view, "lane", 2)
    _pick_from_context_menu(qtbot, view.tree.viewport(), view.tree.visualItemRect(item).center(), "Pin to Top")
    qtbot.waitUntil(lambda: _row(view, 2).y == 0, timeout=3000)
    assert arrow_rows() == (_row(view, 2).y + 1 + 1, 0), "source row moved down by one, destination on top"
    top, bottom = _band(view, 0)
    qtbot.waitUntil(lambda: _red_pixels(_grab(view), top, bottom) > 5, timeout=3000)
    # collapsing the host group folds lane 0 to its top row: the arrow starts there
    group = _tree_item(view, "group", view.group_label(0))
    view.tree.setCurrentItem(group)
    qtbot.keyClick(view.tree, Qt.Key.Key_Left)  # collapse, as a user does with the keyboard
    qtbot.waitUntil(lambda: view.lane_collapsed(0), timeout=3000)
    assert arrow_rows() == (_row(view, 0).y, 0)
    qtbot.keyClick(view.tree, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: not view.lane_collapsed(0), timeout=3000)
    # hiding lane 2 (its check box, with the keyboard): no arrow to a lane that is not shown
    item = _tree_item(view, "lane", 2)
    view.tree.setCurrentItem(item)
    qtbot.keyClick(view.tree, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: 2 in view.hidden_lanes, timeout=3000)
    assert view.item.flows == []
    qtbot.keyClick(view.tree, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: bool(view.item.flows), timeout=3000)


# --- lanes say their device or part ------------------------------------------------------------------------
def test_two_devices_counters_say_their_device(qtbot, window, two_devices):
    tv = _open(qtbot, window, two_devices).timeline_view
    counter_labels = [tv.lane_axis.labels[r.y] for r in tv.rows if r.kind == "counter"]
    freq = [t for t in counter_labels if "AI Core Freq" in t]
    assert sorted(freq) == ["D0 AI Core Freq · MHz", "D1 AI Core Freq · MHz"]
    assert len(set(counter_labels)) == len(counter_labels)
    tree_counters = [_tree_item(tv, "counter", i).text(0) for i in range(len(tv.timeline.counters))]
    assert len(set(tree_counters)) == len(tree_counters) and all(t[:2] in ("D0", "D1") for t in tree_counters)


def test_a_merged_report_says_which_part_every_lane_comes_from(qtbot, tmp_path):
    """Two runs of one device merged: every lane, group and counter label is unique."""
    from workbench.core.profiling.merge import merge_reports
    from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof
    from workbench.ui.report.document import ReportDocument

    a = write_msprof_prof(tmp_path / "a", resnet50_workload(kind="model"), devices=[0])
    b = write_msprof_prof(tmp_path / "b", resnet50_workload(kind="model"), devices=[0])
    doc = ReportDocument(merge_reports([a, b]))
    qtbot.addWidget(doc)
    doc.resize(1200, 700)
    doc.show()
    tv = doc.timeline_view
    labels = [tv.lane_axis.labels[r.y] for r in tv.rows if r.y in tv.lane_axis.labels]
    assert len(set(labels)) == len(labels), labels
    assert sum("Thread 437675" in t for t in labels) == 2 and all(
        t.startswith(("#1 ", "#2 ")) for t in labels if "Thread" in t or "Stream" in t or "·" in t
    )
    groups = [tv.tree.topLevelItem(i).text(0) for i in range(tv.tree.topLevelItemCount())]
    assert len(set(groups)) == len(groups) and "Report 2 · Host · CANN" in groups


# --- the header -----------------------------------------------------------------------------------------------
_READOUT = re.compile(r"^(Start|End|Duration) (-?[\d,]+(?:\.\d+)?) (s|ms|µs|ns)$")


def test_the_header_reads_start_end_duration_in_one_unit(qtbot):
    view = _view(qtbot, make_timeline(400))
    r = view.viewbox.sceneBoundingRect()
    _hover(qtbot, view, view.plot.mapFromScene(QPointF(r.left() + r.width() * 0.3, r.top() + 20)))
    for zooms in (0, 4, 9, 13):
        qtbot.keyClick(view.plot, Qt.Key.Key_0)
        for _ in range(zooms):
            qtbot.keyClick(view.plot, Qt.Key.Key_W)
        texts = [w.text() for w in view.readouts]
        parsed = [_READOUT.match(t) for t in texts]
        assert all(parsed), texts
        assert [m.group(1) for m in parsed] == ["Start", "End", "Duration"]
        units = {m.group(3) for m in parsed}
        assert len(units) == 1, f"one unit for the zoom level: {texts}"
        start, end, dur = (float(m.group(2).replace(",", "")) for m in parsed)
        t0, t1 = view.x_range()
        scale = {"s": 1e9, "ms": 1e6, "µs": 1e3, "ns": 1}[units.pop()]
        assert start == pytest.approx(t0 / scale, abs=(t1 - t0) / scale / 500)
        assert dur == pytest.approx(end - start, abs=(t1 - t0) / scale / 500)
        assert 1 <= (t1 - t0) / scale < 1000, "the unit suits the span"
    # separate widgets side by side, none overlapping another, none cut off (once laid out)
    qtbot.waitUntil(lambda: all(w.width() >= w.sizeHint().width() for w in view.readouts), timeout=3000)
    geoms = [w.geometry() for w in view.readouts]
    assert all(a.right() + 4 < b.left() for a, b in zip(geoms, geoms[1:])), geoms


# --- steps -------------------------------------------------------------------------------------------------------
def test_steps_are_marked_and_zoomed_to(qtbot, window, tmp_path):
    from workbench.core.profiling.steps import report_steps
    from workbench.simtoolkit.profdata import transformer_workload, write_torch_npu

    out = write_torch_npu(tmp_path, transformer_workload(), steps=3)
    doc = _open(qtbot, window, out)
    tv = doc.timeline_view
    spans = report_steps(doc.report).spans
    origin = doc.report.timeline.origin_ns
    assert [r.kind for r in tv.rows][0] == "steps" and tv.lane_axis.labels[0] == "Steps"
    # the Steps row: one block per step, boundaries where they start
    top, bottom = _band(tv, 0)
    line = _grab(tv)[(top + bottom) // 2].astype(int)
    b2 = _at(tv, spans[1].start_ns - origin, 0).x()
    assert not (line[b2 - 3] == line[b2 + 3]).all(), "step 1 and step 2 are told apart"
    # "Zoom to step…": open the list above the plot, arrow down to Step 2, Enter
    combo = tv.step_combo
    assert combo.isVisible() and [combo.itemText(i) for i in range(combo.count())][1].startswith("Step 1 (")
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: combo.view().isVisible(), timeout=3000)
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Return):
        qtbot.keyClick(combo.view(), key)
    s, e = spans[1].start_ns - origin, spans[1].end_ns - origin

    def shows(a, b):
        t0, t1 = tv.x_range()
        return t0 < a < b < t1 and (t1 - t0) < (b - a) * 1.1

    qtbot.waitUntil(lambda: shows(s, e), timeout=3000)
    t0, t1 = tv.x_range()
    assert (t1 - t0) == pytest.approx((e - s) * 1.04, rel=0.01), "the view is step 2 (and 2 % either side)"
    assert combo.currentText().startswith("Step 2")
    # a click on the Steps row zooms to the step clicked: back to the whole report, click step 3
    qtbot.keyClick(tv.plot, Qt.Key.Key_0)
    s3, e3 = spans[2].start_ns - origin, spans[2].end_ns - origin
    qtbot.mouseClick(tv.plot.viewport(), Qt.MouseButton.LeftButton, pos=_at(tv, (s3 + e3) / 2, 0.5))
    qtbot.waitUntil(lambda: shows(s3, e3), timeout=3000)
    assert combo.currentText().startswith("Step 3")


# --- screenshots (docs/screenshots/report-timeline*.png): WB_SCREENSHOTS=1 ------------------------------------------
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _laid_out(tv) -> bool:
    """The header, footer and data pane have taken the size of their current texts (a zoom, a
    filled table change them; the layout follows in a later event-loop turn)."""
    from PySide6.QtWidgets import QLabel, QSizePolicy

    doc = tv.parentWidget().parentWidget()
    labels = [
        w
        for w in doc.findChildren(QLabel)
        if w.isVisible() and not w.wordWrap() and w.sizePolicy().horizontalPolicy() != QSizePolicy.Policy.Ignored
    ]
    shown = [*labels, tv.step_combo, tv.counters_button]
    return all(w.width() >= w.sizeHint().width() for w in shown if w.isVisible())


@pytest.mark.skipif(not os.environ.get("WB_SCREENSHOTS"), reason="writes docs/screenshots; set WB_SCREENSHOTS=1")
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_screenshots(qtbot, tmp_path, language):
    """The 2-device, 3-iteration msprof run in a 1600×1000 window: the whole report, then step 2
    zoomed to (from the step list) with the keys overlay ('?'); and two ranks (devices 0, 1) merged."""
    from workbench.core.profiling.merge import merge_reports
    from workbench.simtoolkit.profdata import (
        resnet50_workload,
        transformer_workload,
        write_msprof_prof,
        write_torch_npu,
    )
    from workbench.ui import i18n
    from workbench.ui.app import build_window, create_app
    from workbench.ui.report.document import ReportDocument

    suffix = "" if language == "en" else f"-{language}"
    app, settings, problems = create_app(language)
    try:
        win = build_window(settings, problems, [], restore=False, demo=False)
        win.resize(1600, 1000)
        win.show()
        prof = write_msprof_prof(tmp_path / "two", resnet50_workload(kind="model"), devices=[0, 1], iterations=3)
        tv = _open(qtbot, win, prof).timeline_view
        qtbot.waitUntil(lambda: _laid_out(tv), timeout=3000)
        win.grab().save(str(SHOTS / f"report-timeline{suffix}.png"))
        combo = tv.step_combo
        qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: combo.view().isVisible(), timeout=3000)
        for key in (Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Return):
            qtbot.keyClick(combo.view(), key)
        qtbot.waitUntil(lambda: combo.currentIndex() == 2, timeout=3000)
        qtbot.keyClick(tv.plot, Qt.Key.Key_Question, Qt.KeyboardModifier.ShiftModifier)
        qtbot.waitUntil(lambda: tv.overlay.isVisible() and _laid_out(tv), timeout=3000)
        win.grab().save(str(SHOTS / f"report-timeline-keys{suffix}.png"))
        ranks = [
            write_torch_npu(tmp_path / f"r{k}", transformer_workload(), steps=2, device=k, rank=k, pid=437675 + k)
            for k in (0, 1)
        ]
        doc = ReportDocument(merge_reports(ranks))
        qtbot.addWidget(doc)
        doc.resize(1300, 760)
        doc.show()
        qtbot.waitExposed(doc)
        doc.grab().save(str(SHOTS / f"report-timeline-merged{suffix}.png"))
        win._quitting = True
        win.close()
    finally:
        for translator in getattr(app, "_wb_translators", []):
            app.removeTranslator(translator)
        app._wb_translators = i18n.install_translators(app, "en")
