"""Slice List: Shift+drag in the real timeline over known slices of the real torch_npu trace lists
exactly those slices (sortable), a double-click on a row selects and shows that slice; the
occurrences of one name come from the Properties pane, the timeline's context menu and the
Selection table; a big area lists at numpy speed."""

from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from workbench.ui.report.document import ReportDocument
from workbench.ui.report.slice_list import DURATION, NAME, START


def open_doc(qtbot, window, path) -> ReportDocument:
    window.open_path(path)
    qtbot.waitUntil(
        lambda: isinstance(window.documents.currentWidget(), ReportDocument) and window.documents.currentWidget().ready,
        timeout=30000,
    )
    return window.documents.currentWidget()


def plot_point(tv, t: float, y: float) -> QPoint:
    """The viewport pixel of time ``t`` (ns from the report start) at row position ``y``."""
    return tv.plot.mapFromScene(tv.viewbox.mapViewToScene(QPointF(t, y)))


def shift_drag(qtbot, tv, a: QPoint, b: QPoint, steps: int = 6) -> None:
    """Shift+drag with the left button from ``a`` to ``b`` on the plot, as a user does."""
    viewport = tv.plot.viewport()
    shift = Qt.KeyboardModifier.ShiftModifier
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, shift, a)
    for k in range(1, steps + 1):
        QTest.mouseEvent(QTest.MouseAction.MouseMove, viewport, Qt.MouseButton.NoButton, shift, a + (b - a) * k / steps)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, shift, b)


def click_header(qtbot, view, column: int) -> None:
    header = view.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))


def double_click(qtbot, viewport, pos: QPoint) -> None:
    """What a double-click sends: press and release, then the double-click (QTest's mouseDClick
    alone sends only the last part)."""
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=pos)


def double_click_row(qtbot, view, row: int, column: int = NAME) -> None:
    index = view.model().index(row, column)
    view.scrollTo(index)
    double_click(qtbot, view.viewport(), view.visualRect(index).center())


@pytest.fixture
def trace(qtbot, window, samples):
    doc = open_doc(qtbot, window, samples / "torch_npu-trace_view" / "trace_view.json")
    return doc, doc.timeline_view


def stream_lane(tl) -> tuple[int, np.ndarray]:
    lane = next(i for i, ln in enumerate(tl.lanes) if ln.is_stream)
    return lane, np.flatnonzero(np.asarray(tl.lane) == lane)


def show_rows_around(tv, lane: int) -> float:
    """Scroll the lanes so ``lane``'s first row is in view; its row position (centre)."""
    row_y = next(r.y for r in tv.rows if r.kind == "slices" and r.lane == lane)
    tv.viewbox.setYRange(row_y - 3, row_y + 9, padding=0)
    return row_y + 0.5


def test_shift_drag_lists_the_area_and_a_double_click_jumps_to_the_slice(qtbot, window, trace):
    doc, tv = trace
    tl = tv.timeline
    lane, on_lane = stream_lane(tl)
    starts = np.asarray(tl.start_ns)[on_lane].astype(np.int64)
    ends = starts + np.asarray(tl.dur_ns)[on_lane].astype(np.int64)
    order = np.argsort(starts)
    on_lane, starts, ends = on_lane[order], starts[order], ends[order]
    # three device tasks with wide gaps on either side (the drag starts and ends in the gaps)
    gaps = starts[1:] - ends[:-1]
    k = next(k for k in range(1, len(on_lane) - 4) if gaps[k - 1] > 20_000 and gaps[k + 2] > 20_000)
    wanted = on_lane[k : k + 3]
    t_from = (int(ends[k - 1]) + int(starts[k])) / 2
    t_to = (int(ends[k + 2]) + int(starts[k + 3])) / 2
    span = t_to - t_from
    tv.set_x_range(t_from - span * 0.4, t_to + span * 0.4)
    y = show_rows_around(tv, lane)
    qtbot.waitUntil(lambda: plot_point(tv, t_from, y).x() > 0)
    with qtbot.waitSignal(tv.range_selected, timeout=5000):
        shift_drag(qtbot, tv, plot_point(tv, t_from, y), plot_point(tv, t_to, y))
    sl = doc.slice_list
    model = sl.model
    qtbot.waitUntil(lambda: model.rowCount() == 3)
    # the listed slices are the three known ones, by start time, with their exact numbers
    listed = [model.slice_at(r) for r in range(model.rowCount())]
    assert listed == [int(i) for i in wanted]
    for r, i in enumerate(wanted):
        assert model.cell_text(r, NAME) == tl.names[int(tl.name_id[i])]
        assert float(model.cell_text(r, DURATION)) == pytest.approx(int(tl.dur_ns[i]) / 1000, abs=5e-4)
        assert float(model.cell_text(r, START)) == pytest.approx(int(tl.start_ns[i]) / 1000, abs=5e-4)
    assert "3 slices" in sl.count.text() and "1 lanes" in sl.note.text()
    assert doc.data_tabs.tabText(doc.data_tabs.indexOf(sl)) == "Slice List"
    # sortable: a click on Duration sorts by it (ascending, then descending)
    doc.data_tabs.setCurrentWidget(sl)
    qtbot.waitUntil(sl.view.isVisible)
    durs = {int(i): int(tl.dur_ns[i]) for i in wanted}
    click_header(qtbot, sl.view, DURATION)
    got = [durs[model.slice_at(r)] for r in range(3)]
    assert got == sorted(got)
    click_header(qtbot, sl.view, DURATION)
    got = [durs[model.slice_at(r)] for r in range(3)]
    assert got == sorted(got, reverse=True)
    # jump: the timeline selects that slice and shows it; Properties shows its name
    target = model.slice_at(1)
    tv.set_x_range(0, 10_000)  # look elsewhere first
    double_click_row(qtbot, sl.view, 1)
    qtbot.waitUntil(lambda: tv.selected == target)
    t0, t1 = tv.x_range()
    assert t0 <= int(tl.start_ns[target]) <= t1
    assert window.details.properties()["Name"] == tl.names[int(tl.name_id[target])]


def _popup_action(qtbot, text_start: str, found: list) -> None:
    """Trigger the entry of the open context menu whose text starts with ``text_start``."""
    menu = QApplication.activePopupWidget()
    if not isinstance(menu, QMenu):
        QTimer.singleShot(20, lambda: _popup_action(qtbot, text_start, found))
        return
    action = next(a for a in menu.actions() if a.text().startswith(text_start))
    found.append(action.text())
    menu.hide()
    action.trigger()


# offscreen QPA: a popup menu cannot raise itself or grab the keyboard (real platforms do)
def test_occurrences_of_a_name_from_properties_and_the_timeline_menu(qtbot, window, trace):
    doc, tv = trace
    tl = tv.timeline
    lane, on_lane = stream_lane(tl)
    first = int(on_lane[np.argsort(np.asarray(tl.start_ns)[on_lane])[0]])
    name_id = int(tl.name_id[first])
    expected = np.flatnonzero(np.asarray(tl.name_id) == name_id)
    expected = expected[np.argsort(np.asarray(tl.start_ns)[expected], kind="stable")]
    assert len(expected) > 1
    # click the slice in the timeline: Properties shows it
    s, d = float(tl.start_ns[first]), float(tl.dur_ns[first])
    tv.set_x_range(s - d, s + 2 * d)
    y = show_rows_around(tv, lane)
    qtbot.mouseClick(tv.plot.viewport(), Qt.MouseButton.LeftButton, pos=plot_point(tv, s + d / 2, y))
    qtbot.waitUntil(lambda: tv.selected == first)
    tree = window.details.tree
    name_row = next(
        tree.topLevelItem(i) for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).text(0) == "Name"
    )
    # a double-click on the Name row lists every occurrence of that name
    double_click(qtbot, tree.viewport(), tree.visualItemRect(name_row).center())
    model = doc.slice_list.model
    qtbot.waitUntil(lambda: model.rowCount() == len(expected))
    assert [model.slice_at(r) for r in range(model.rowCount())] == expected.tolist()
    assert doc.data_tabs.currentWidget() is doc.slice_list
    assert tl.names[name_id] in doc.slice_list.note.text()
    # the same from the timeline: right-click the slice ▸ List All Occurrences of …
    doc.data_tabs.setCurrentWidget(doc.events)
    doc.slice_list.show_slices(tl, np.empty(0, dtype=np.int64), "")
    found: list = []
    QTimer.singleShot(0, lambda: _popup_action(qtbot, "List All Occurrences", found))
    at = plot_point(tv, s + d / 2, y)
    qtbot.mouseClick(tv.plot.viewport(), Qt.MouseButton.RightButton, pos=at)
    # the window system follows a right-click with a context-menu event (QTest does not send it)
    QApplication.sendEvent(
        tv.plot.viewport(), QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, tv.plot.viewport().mapToGlobal(at))
    )
    qtbot.waitUntil(lambda: model.rowCount() == len(expected))
    assert found == [f"List All Occurrences of {tl.names[name_id]}"]
    assert doc.data_tabs.currentWidget() is doc.slice_list


def test_a_name_of_the_selection_lists_its_slices_in_the_area(qtbot, window, trace):
    doc, tv = trace
    tl = tv.timeline
    lane, _ = stream_lane(tl)
    t0, t1 = tv.x_range()
    y = show_rows_around(tv, lane)
    qtbot.waitUntil(lambda: plot_point(tv, t0 + (t1 - t0) * 0.05, y).x() > 0)
    with qtbot.waitSignal(tv.range_selected, timeout=5000) as blocker:
        shift_drag(qtbot, tv, plot_point(tv, t0 + (t1 - t0) * 0.05, y), plot_point(tv, t0 + (t1 - t0) * 0.6, y))
    a, b, lanes = blocker.args
    assert lanes == [lane]
    sel = doc.selection
    qtbot.waitUntil(lambda: sel.model.rowCount() > 0)
    top_name = sel.model.cell_text(0, sel.model.columns.index("Name"))
    start = np.asarray(tl.start_ns).astype(np.int64)
    end = start + np.asarray(tl.dur_ns).astype(np.int64)
    names = np.array([tl.names[int(i)] for i in tl.name_id], dtype=object)
    hits = np.flatnonzero((np.asarray(tl.lane) == lane) & (start < b) & (end > a) & (names == top_name))
    qtbot.waitUntil(sel.view.isVisible)
    double_click_row(qtbot, sel.view, 0, 0)
    model = doc.slice_list.model
    qtbot.waitUntil(lambda: doc.data_tabs.currentWidget() is doc.slice_list)
    assert sorted(model.slice_at(r) for r in range(model.rowCount())) == hits.tolist()
    assert top_name in doc.slice_list.note.text()


def test_a_big_area_lists_and_sorts_at_numpy_speed(qtbot, window, tmp_path):
    """300 000 slices in one Shift+drag: listed in well under a second, sorted by name likewise —
    a model over arrays, no item per row."""
    from workbench.simtoolkit.profdata import write_big_timeline

    path = tmp_path / "trace_view.json"
    write_big_timeline(path, "torch_npu", 300_000)
    doc = open_doc(qtbot, window, path)
    tv = doc.timeline_view
    tl = tv.timeline
    t0, t1 = tv.x_range()
    rows = [r for r in tv.rows if r.kind == "slices"]
    y0, y1 = tv.viewbox.viewRange()[1]
    visible = [r for r in rows if y0 <= r.y and r.y + 1 <= y1]
    top, bottom = visible[0].y + 0.5, visible[-1].y + 0.5
    a, b = plot_point(tv, t0 + (t1 - t0) * 0.001, top), plot_point(tv, t1 - (t1 - t0) * 0.001, bottom)
    with qtbot.waitSignal(tv.range_selected, timeout=10000) as blocker:
        began = time.perf_counter()
        shift_drag(qtbot, tv, a, b)
    listed = time.perf_counter() - began
    ta, tb, lanes = blocker.args
    start = np.asarray(tl.start_ns).astype(np.int64)
    end = start + np.asarray(tl.dur_ns).astype(np.int64)
    expected = int(((start < tb) & (end > ta) & np.isin(np.asarray(tl.lane), lanes)).sum())
    model = doc.slice_list.model
    assert expected > 100_000 and model.rowCount() == expected
    assert listed < 3.0, f"listing {expected:,} slices took {listed:.2f} s"
    doc.data_tabs.setCurrentWidget(doc.slice_list)
    qtbot.waitUntil(doc.slice_list.view.isVisible)
    began = time.perf_counter()
    click_header(qtbot, doc.slice_list.view, NAME)
    sorted_in = time.perf_counter() - began
    assert sorted_in < 2.0, f"sorting {expected:,} slices by name took {sorted_in:.2f} s"
    shown = [model.cell_text(r, NAME).lower() for r in range(0, expected, max(1, expected // 500))]
    assert shown == sorted(shown)
