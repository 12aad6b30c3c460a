"""TimelineView on a synthetic timeline: pin to top, hide, show all, counters, flows, big data paints."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_timeline import make_timeline  # noqa: E402


def _view(qtbot, events: int, width: int, height: int):
    """A shown TimelineView over a synthetic timeline of ``events`` events per lane."""
    from workbench.ui.report.timeline import TimelineView

    tl = make_timeline(events)
    view = TimelineView(tl)
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    return tl, view


def test_pin_hide_show_all_and_counters(qtbot):
    tl, view = _view(qtbot, 500, 1200, 500)
    first_lanes = [r.lane for r in view.rows if r.kind == "slices"]
    assert first_lanes[0] == 0
    view.toggle_pin(2)
    assert [r.lane for r in view.rows if r.kind == "slices"][0] == 2, "a pinned lane goes to the top"
    view.set_lane_hidden(1, True)
    assert 1 not in {r.lane for r in view.rows if r.kind == "slices"}
    view.show_all()
    assert {r.lane for r in view.rows if r.kind == "slices"} == {0, 1, 2}
    counters = [r for r in view.rows if r.kind == "counter"]
    assert [(c.counter, c.series, c.height) for c in counters] == [(0, "", 1)], "compact: one row per counter"
    view.set_counters_expanded(True)
    counters = [r for r in view.rows if r.kind == "counter"]
    assert [(c.counter, c.series, c.height) for c in counters] == [(0, "MHz", 2)]
    view.select_slice(3)
    assert view.item.flows, "the selected slice's flow to the device is drawn"


def _big_view(qtbot):
    """A TimelineView over 70 000 synthetic events per lane, shown at full view."""
    tl, view = _view(qtbot, 70_000, 1400, 600)
    view.reset_zoom()
    return tl, view


def test_two_hundred_thousand_slices_paint_with_lod(qtbot):
    tl, view = _big_view(qtbot)
    image = view.plot.grab().toImage()  # forces a real paint of the slices item
    full = view.item.frame_ms
    t0, t1 = view.x_range()
    draws = [view.layout_.query(r.row, int(t0), int(t1), (t1 - t0) / 1000) for r in view.rows if r.kind == "slices"]
    drawn = sum(len(d.slices) + len(d.merged_start) for d in draws)
    assert drawn < 10_000 < len(tl.lane), "at full view sub-pixel slices are merged, not drawn one by one"
    assert full > 0 and not image.isNull()


def test_merged_runs_are_drawn_pale_in_the_colour_of_their_longest_slice(qtbot):
    """At full view a row of many sub-pixel slices is drawn pale in its longest slice's colour,
    never in one flat grey that hides which operator dominates."""
    import numpy as np

    from workbench.ui.report.slices_item import MERGED_INDEX, PALE

    tl, view = _big_view(qtbot)
    image = view.plot.grab().toImage()
    assert not image.isNull()
    item = view.item
    t0, t1 = view.x_range()
    px = (t1 - t0) / 1000
    pale_used, grey_used = set(), 0
    for r in view.rows:
        if r.kind != "slices":
            continue
        draw = view.layout_.query(r.row, int(t0), int(t1), px)
        assert len(draw.merged_rep) == len(draw.merged_start)
        if len(draw.merged_rep):
            colours = item.color_of_name[np.asarray(tl.name_id)[draw.merged_rep]]
            pale_used |= set((PALE + colours).tolist())
            grey_used += int((colours == MERGED_INDEX).sum())
    assert pale_used and grey_used == 0
    # and that is what reaches the screen: pale pixels, no merged-grey ones
    from PySide6.QtGui import QImage

    img = image.convertToFormat(QImage.Format.Format_ARGB32)
    ptr = img.constBits()
    pixels = np.frombuffer(ptr, dtype=np.uint32, count=img.width() * img.height())
    shown = set(np.unique(pixels).tolist())
    assert {int(item.table[k + 1]) for k in pale_used} & shown
    assert int(item.table[MERGED_INDEX + 1]) not in shown
    # a pale colour is its colour mixed with white: lighter in every channel, same hue order
    for k in pale_used:
        base, pale = int(item.table[k - PALE + 1]), int(item.table[k + 1])
        for shift in (16, 8, 0):
            b, p = (base >> shift) & 0xFF, (pale >> shift) & 0xFF
            assert b <= p <= 255 and (b == 255 or p > b)
