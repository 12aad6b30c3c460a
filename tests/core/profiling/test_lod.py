"""Level-of-detail layout: exact visible sets, merged runs cover every slice, overlap rows."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from workbench.core.profiling.lod import TimelineLayout


def fake_timeline(lane, start, dur, depth):
    return SimpleNamespace(
        lane=np.array(lane, dtype=np.int32),
        start_ns=np.array(start, dtype=np.int64),
        dur_ns=np.array(dur, dtype=np.int64),
        depth=np.array(depth, dtype=np.int16),
    )


def random_timeline(n=20000, lanes=3, seed=1):
    rng = np.random.default_rng(seed)
    lane = rng.integers(0, lanes, n)
    rng.integers(0, 10**9, n)  # drawn only to keep the generator's stream (and so the data) as it was
    dur = rng.integers(1, 2000, n)
    # make them non-overlapping per lane by construction: start = cumulative per lane
    out_s = np.empty(n, dtype=np.int64)
    for ln in range(lanes):
        m = lane == ln
        gaps = rng.integers(0, 5000, m.sum())
        out_s[m] = np.cumsum(dur[m] + gaps) - dur[m]
    order = np.lexsort((-dur, out_s, lane))
    return fake_timeline(lane[order], out_s[order], dur[order], np.zeros(n))


def brute_visible(tl, rowslices, t0, t1):
    s = tl.start_ns[rowslices]
    e = s + tl.dur_ns[rowslices]
    return set(rowslices[(s < t1) & (e > t0)].tolist())


def test_visible_is_exact():
    tl = random_timeline()
    layout = TimelineLayout(tl)
    assert len(layout.rows) == 3
    rng = np.random.default_rng(2)
    for _ in range(50):
        t0 = int(rng.integers(0, 10**8))
        t1 = t0 + int(rng.integers(1, 10**7))
        for r in range(len(layout.rows)):
            got = set(layout.visible(r, t0, t1).tolist())
            assert got == brute_visible(tl, layout.row_slices(r), t0, t1)


def test_query_draws_or_merges_every_visible_slice():
    tl = random_timeline()
    layout = TimelineLayout(tl)
    t0, t1 = 10**6, 5 * 10**7
    for budget in (10**9, 50):  # individual path and merged-pyramid path
        for px in (1, 37, 5000, 10**6):
            for r in range(len(layout.rows)):
                draw = layout.query(r, t0, t1, px, budget=budget)
                vis = layout.visible(r, t0, t1)
                s = tl.start_ns[vis]
                e = s + tl.dur_ns[vis]
                covered = np.zeros(len(vis), dtype=bool)
                covered |= np.isin(vis, draw.slices)
                for ms, me in zip(draw.merged_start, draw.merged_end):
                    covered |= (s >= ms) & (e <= me)
                assert covered.all(), (budget, px, r)
                # each merged run is one pixel-sized time bucket, drawn as its longest slice (the
                # first of equals): the slice lies inside the run and no slice grouped with it
                # (same bucket; narrower than a pixel and visible on the budget path) is longer
                assert len(draw.merged_rep) == len(draw.merged_start)
                row_idx = layout.row_slices(r)
                rs = tl.start_ns[row_idx]
                re_ = rs + tl.dur_ns[row_idx]
                width = px if budget == 10**9 else 1 << max(0, int(px - 1).bit_length())
                bucket = np.floor(rs / width)
                for ms, me, rep in zip(draw.merged_start, draw.merged_end, draw.merged_rep):
                    rep_s, rep_e = int(tl.start_ns[rep]), int(tl.start_ns[rep] + tl.dur_ns[rep])
                    assert ms <= rep_s and rep_e <= me and rep in set(row_idx.tolist())
                    grouped = bucket == np.floor(ms / width)
                    if budget == 10**9:
                        grouped &= ((re_ - rs) < max(1, px)) & (re_ > t0) & (rs < t1)
                    assert tl.dur_ns[rep] == tl.dur_ns[row_idx[grouped]].max()
                    assert me == re_[grouped].max() and ms == rs[grouped].min()
                # merged runs never exceed what the frame can show
                assert len(draw.merged_start) <= (t1 - t0 + 4000) / px + 2


def test_partial_overlaps_get_their_own_rows():
    # lane 0: A [0,100) and B [50,150) overlap partially at depth 0; C [60,70) nested in A
    tl = fake_timeline([0, 0, 0], [0, 50, 60], [100, 100, 10], [0, 0, 1])
    layout = TimelineLayout(tl)
    levels = layout.level.tolist()
    assert levels[0] == 0 and levels[2] == 1
    assert levels[1] == 2, "the partially overlapping slice goes below the lane's deepest level"
    for r in range(len(layout.rows)):
        idx = layout.row_slices(r)
        s = tl.start_ns[idx]
        e = s + tl.dur_ns[idx]
        assert (s[1:] >= e[:-1]).all(), "no two slices of a row overlap"


def test_slice_at_and_neighbours():
    tl = fake_timeline([0, 0, 0], [0, 100, 300], [50, 100, 10], [0, 0, 0])
    layout = TimelineLayout(tl)
    assert layout.slice_at(0, 120) == 1 and layout.slice_at(0, 60) is None
    assert layout.neighbour(0, 1, +1) == 2 and layout.neighbour(0, 0, -1) is None
    assert layout.row_of(2) == 0


def test_raster_line_matches_brute_force():
    from workbench.core.profiling.lod import raster_line

    rng = np.random.default_rng(5)
    for _ in range(30):
        n = 200
        gaps = rng.integers(0, 300, n)
        durs = rng.integers(1, 400, n)
        s = np.cumsum(gaps + durs) - durs
        e = s + durs
        vals = rng.integers(0, 20, n)
        t0, px, width = float(rng.integers(-500, 500)), float(rng.uniform(0.5, 60)), 800
        line = raster_line(s, e, vals, t0, px, width)
        # brute force with the same rules
        ref = np.zeros(width, dtype=np.int32)
        prev = 0
        for si, ei, v in zip(s, e, vals):
            x0 = min(max(int(np.floor((si - t0) / px)), 0), width)
            x1 = min(max(int(np.floor((ei - t0) / px)), x0 + 1, 0), width)
            x0 = max(x0, prev)
            prev = max(prev, x1)
            if x1 > x0:
                ref[x0:x1] = v + 1
        assert (line == ref).all()
        # every interval inside the window shows at least one pixel
        inside = (s >= t0) & (e <= t0 + px * width)
        assert set((vals[inside] + 1).tolist()) <= set(line.tolist())


def test_back_to_back_slices_get_a_boundary_pixel():
    """Two slices where one ends exactly where the next starts (one name, so one colour) are
    told apart by a boundary pixel at the second's start; a gap needs none; narrow slices (< 4 px)
    get none, so a boundary never eats them; off-screen boundaries are dropped."""
    from workbench.core.profiling.lod import boundary_pixels, raster_line

    starts = np.array([0, 100, 200, 400, 410, 413], dtype=np.int64)
    ends = np.array([100, 200, 300, 410, 413, 416], dtype=np.int64)
    # 1 ns per pixel, 1000 px: 100 and 200 touch their predecessors; 400 is after a gap; 410, 413 are 3 px
    assert boundary_pixels(starts, ends, 0.0, 1.0, 1000).tolist() == [100, 200]
    # the raster alone shows one block: the same value across the boundary
    line = raster_line(starts[:3], ends[:3], np.zeros(3, dtype=np.int64), 0.0, 1.0, 1000)
    assert line[99] == line[100] == line[101] == 1
    # a view starting at 150 ns: the boundary at 100 is left of it, the one at 200 is pixel 50
    assert boundary_pixels(starts, ends, 150.0, 1.0, 1000).tolist() == [50]
    # zoomed out to 50 ns per pixel, the 100-ns slices are 2 px wide: too narrow for a boundary
    assert boundary_pixels(starts, ends, 0.0, 50.0, 1000).tolist() == []
    assert boundary_pixels(starts[:1], ends[:1], 0.0, 1.0, 1000).tolist() == []
