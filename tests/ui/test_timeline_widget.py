"""TimelineView on a synthetic timeline: pin to top, hide, show all, counters, flows, big data paints."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_timeline import make_timeline  # noqa: E402


def test_pin_hide_show_all_and_counters(qtbot):
    from workbench.ui.report.timeline import TimelineView

    tl = make_timeline(500)
    view = TimelineView(tl)
    qtbot.addWidget(view)
    view.resize(1200, 500)
    view.show()
    first_lanes = [r.lane for r in view.rows if r.kind == "slices"]
    assert first_lanes[0] == 0
    view.toggle_pin(2)
    assert [r.lane for r in view.rows if r.kind == "slices"][0] == 2, "a pinned lane goes to the top"
    view.set_lane_hidden(1, True)
    assert 1 not in {r.lane for r in view.rows if r.kind == "slices"}
    view.show_all()
    assert {r.lane for r in view.rows if r.kind == "slices"} == {0, 1, 2}
    counters = [r for r in view.rows if r.kind == "counter"]
    assert [(c.counter, c.series) for c in counters] == [(0, "MHz")]
    view.select_slice(3)
    assert view.item.flows, "the selected slice's flow to the device is drawn"


def test_two_hundred_thousand_slices_paint_with_lod(qtbot):
    from workbench.ui.report.timeline import TimelineView

    tl = make_timeline(70_000)
    view = TimelineView(tl)
    qtbot.addWidget(view)
    view.resize(1400, 600)
    view.show()
    view.reset_zoom()
    image = view.plot.grab().toImage()  # forces a real paint of the slices item
    full = view.item.frame_ms
    t0, t1 = view.x_range()
    draws = [view.layout_.query(r.row, int(t0), int(t1), (t1 - t0) / 1000) for r in view.rows if r.kind == "slices"]
    drawn = sum(len(d.slices) + len(d.merged_start) for d in draws)
    assert drawn < 10_000 < len(tl.lane), "at full view sub-pixel slices are merged, not drawn one by one"
    assert full > 0 and not image.isNull()
