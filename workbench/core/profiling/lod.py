"""Timeline layout and level-of-detail queries for drawing millions of slices (Qt-free).

``TimelineLayout(timeline)`` assigns every slice a *row*: lanes keep their nesting depth, and a
slice that partially overlaps another at the same depth (concurrent AI Core tasks, overlapping
OS-runtime calls) moves to an extra row of its lane, so nothing is drawn on top of something else.

``query(row, t0, t1, ns_per_px)`` returns what to draw for one row in a visible time range:
slices wider than a pixel individually, and everything smaller grouped into pixel-sized time
buckets, each drawn as its longest slice (Perfetto's quantised slices; for big rows precomputed
per power-of-two bucket size and cached), so the work per frame is bounded by the pixels on
screen, not by the number of events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Row:
    lane: int  # index into timeline.lanes
    level: int  # 0 = top row of the lane


@dataclass
class RowDraw:
    slices: np.ndarray  # slice indices drawn one by one (wider than a pixel)
    merged_start: np.ndarray  # int64 ns: merged runs of sub-pixel slices
    merged_end: np.ndarray
    # per merged run, the slice that stands for it (its longest; as Perfetto colours a bucket by
    # its biggest slice), so a merged run can be drawn in that slice's colour
    merged_rep: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))


def _runs(
    start: np.ndarray, end: np.ndarray, idx: np.ndarray, bucket: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Slices (sorted by start) grouped by the time bucket their start falls in (width ``bucket``
    ns, on a grid from the timeline origin, so a bucket is at most about a pixel): per occupied
    bucket, (first start, latest end, the index of its longest slice — the first of equals). Like
    Perfetto's quantised slices: each pixel shows the slice that dominates it."""
    key = np.floor_divide(start, bucket) if isinstance(bucket, int) else np.floor(start / bucket)
    brk = key[1:] != key[:-1]
    breaks = np.flatnonzero(brk) + 1
    first = np.concatenate(([0], breaks))
    run_end = np.maximum.reduceat(end, first)
    # longest per bucket (first of equals), in O(n): the bucket's max duration, then the first
    # position holding it
    dur = end - start
    longest = np.maximum.reduceat(dur, first)
    counts = np.diff(np.concatenate((first, [len(start)])))
    pos = np.arange(len(start), dtype=np.int64)
    pos[dur != np.repeat(longest, counts)] = len(start)
    heads = np.minimum.reduceat(pos, first)
    return start[first], run_end, idx[heads]


@dataclass
class _RowData:
    idx: np.ndarray  # slice indices of the row, sorted by start
    start: np.ndarray  # their starts (int64 ns)
    end: np.ndarray  # their ends
    max_dur: int
    # bucket size exponent -> (bucket starts, ends, longest slice, running max of the ends)
    merged: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict)


def _assign_levels(lane: np.ndarray, start: np.ndarray, end: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Row level per slice: its depth, bumped past partial overlaps within (lane, depth)."""
    level = depth.astype(np.int32, copy=True)
    n = len(lane)
    if n == 0:
        return level
    order = np.lexsort((start, level, lane))
    l_s, d_s, s_s, e_s = lane[order], level[order], start[order], end[order]
    group_start = np.ones(n, dtype=bool)
    group_start[1:] = (l_s[1:] != l_s[:-1]) | (d_s[1:] != d_s[:-1])
    offsets = np.flatnonzero(group_start)
    run_max = np.empty_like(e_s)
    for a, b in zip(offsets, [*offsets[1:], n]):
        run_max[a:b] = np.maximum.accumulate(e_s[a:b])
    conflict = np.zeros(n, dtype=bool)
    conflict[1:] = ~group_start[1:] & (s_s[1:] < run_max[:-1])
    if not conflict.any():
        return level
    # Rare: place each partially-overlapping slice greedily on an extra row below its lane.
    base = {int(ln): int(level[lane == ln].max()) + 1 for ln in np.unique(l_s[conflict])}
    extra_rows: dict[int, list[int]] = {}  # lane -> end time of each extra row
    for pos in np.flatnonzero(conflict):
        ln, s, e = int(l_s[pos]), int(s_s[pos]), int(e_s[pos])
        rows = extra_rows.setdefault(ln, [])
        for k, row_end in enumerate(rows):
            if row_end <= s:
                rows[k] = e
                level[order[pos]] = base[ln] + k
                break
        else:
            rows.append(e)
            level[order[pos]] = base[ln] + len(rows) - 1
    return level


class TimelineLayout:
    """Rows and fast visible-range queries over a Timeline's columnar slices."""

    def __init__(self, timeline) -> None:
        self.timeline = timeline
        lane = np.asarray(timeline.lane, dtype=np.int64)
        start = np.asarray(timeline.start_ns, dtype=np.int64)
        dur = np.asarray(timeline.dur_ns, dtype=np.int64)
        end = start + dur
        self.level = _assign_levels(lane, start, end, np.asarray(timeline.depth))
        self.rows: list[Row] = []
        self.lane_rows: dict[int, list[int]] = {}
        self._data: list[_RowData] = []
        if len(lane) == 0:
            return
        key = lane * 4096 + self.level
        order = np.lexsort((start, key))
        keys_sorted = key[order]
        bounds = np.flatnonzero(np.diff(keys_sorted)) + 1
        starts = np.concatenate(([0], bounds))
        stops = np.concatenate((bounds, [len(order)]))
        for a, b in zip(starts, stops):
            k = int(keys_sorted[a])
            row = Row(lane=k // 4096, level=k % 4096)
            idx = order[a:b]
            s, e = start[idx], end[idx]
            self.lane_rows.setdefault(row.lane, []).append(len(self.rows))
            self.rows.append(row)
            self._data.append(_RowData(idx=idx, start=s, end=e, max_dur=int((e - s).max()) if len(s) else 0))

    # --- queries -------------------------------------------------------------------------------------
    def row_slices(self, row: int) -> np.ndarray:
        return self._data[row].idx

    def visible(self, row: int, t0: int, t1: int) -> np.ndarray:
        """Indices of the row's slices overlapping [t0, t1), in start order."""
        d = self._data[row]
        lo = int(np.searchsorted(d.start, t0 - d.max_dur, side="left"))
        hi = int(np.searchsorted(d.start, t1, side="left"))
        if lo >= hi:
            return d.idx[:0]
        sel = slice(lo, hi)
        mask = d.end[sel] > t0
        return d.idx[sel][mask]

    def merged(self, row: int, gap_ns: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The row's slices grouped into time buckets of the smallest power of two ≥ ``gap_ns``
        (cached per row and size): bucket starts, ends and each bucket's longest slice."""
        return self._buckets(row, gap_ns)[:3]

    def _buckets(self, row: int, gap_ns: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        k = max(0, int(gap_ns - 1).bit_length()) if gap_ns > 1 else 0
        d = self._data[row]
        if k not in d.merged:
            if len(d.start) == 0:
                d.merged[k] = (d.start, d.end, d.idx, d.end)
            else:
                ms, me, rep = _runs(d.start, d.end, d.idx, 1 << k)
                d.merged[k] = (ms, me, rep, np.maximum.accumulate(me))
        return d.merged[k]

    def query(self, row: int, t0: int, t1: int, ns_per_px: float, budget: int = 20000) -> RowDraw:
        """What to draw for ``row`` in [t0, t1) at ``ns_per_px`` resolution."""
        d = self._data[row]
        lo = int(np.searchsorted(d.start, t0 - d.max_dur, side="left"))
        hi = int(np.searchsorted(d.start, t1, side="left"))
        empty = np.empty(0, dtype=np.int64)
        if lo >= hi:
            return RowDraw(d.idx[:0], empty, empty, empty)
        px = max(1.0, float(ns_per_px))
        if hi - lo <= budget:
            sel = slice(lo, hi)
            s, e, idx = d.start[sel], d.end[sel], d.idx[sel]
            keep = e > t0
            s, e, idx = s[keep], e[keep], idx[keep]
            wide = (e - s) >= px
            if (~wide).any():
                ms, me, rep = _runs(s[~wide], e[~wide], idx[~wide], px)
                return RowDraw(idx[wide], ms, me, rep)
            return RowDraw(idx[wide], empty, empty, empty)
        # Too many candidates: draw the row's buckets at the power of two just above a pixel.
        ms, me, rep, run_max = self._buckets(row, int(np.ceil(px)))
        a = int(np.searchsorted(run_max, t0, side="right"))
        b = int(np.searchsorted(ms, t1, side="left"))
        return RowDraw(d.idx[:0], ms[a:b], me[a:b], rep[a:b])

    def slice_at(self, row: int, t: int) -> int | None:
        """The slice of ``row`` covering time ``t`` (the innermost/last started), or None."""
        d = self._data[row]
        hi = int(np.searchsorted(d.start, t, side="right"))
        lo = int(np.searchsorted(d.start, t - d.max_dur, side="left"))
        for pos in range(hi - 1, lo - 1, -1):
            if d.end[pos] > t:
                return int(d.idx[pos])
        return None

    def neighbour(self, row: int, slice_index: int, step: int) -> int | None:
        """Next (step=+1) or previous (step=-1) slice in the same row."""
        d = self._data[row]
        pos = np.flatnonzero(d.idx == slice_index)
        if len(pos) == 0:
            return None
        j = int(pos[0]) + step
        return int(d.idx[j]) if 0 <= j < len(d.idx) else None

    def row_of(self, slice_index: int) -> int:
        lane = int(self.timeline.lane[slice_index])
        level = int(self.level[slice_index])
        for r in self.lane_rows.get(lane, []):
            if self.rows[r].level == level:
                return r
        raise KeyError(slice_index)


def raster_line(
    starts: np.ndarray, ends: np.ndarray, values: np.ndarray, t0: float, ns_per_px: float, width: int
) -> np.ndarray:
    """Rasterise non-overlapping intervals (sorted by start) into one pixel line.

    Returns an int32 array of ``width`` pixels holding ``values[i] + 1`` where interval ``i``
    covers the pixel and 0 where nothing does. An interval narrower than a pixel still gets one
    pixel unless an earlier interval already took it (sub-pixel neighbours: the first one wins).
    Fully vectorised: cost O(intervals + width).
    """
    line = np.zeros(width + 1, dtype=np.int64)
    if len(starts) == 0 or width <= 0:
        return line[:width].astype(np.int32)
    x0 = np.floor((np.asarray(starts, dtype=np.float64) - t0) / ns_per_px).astype(np.int64)
    x1 = np.floor((np.asarray(ends, dtype=np.float64) - t0) / ns_per_px).astype(np.int64)
    x0 = np.clip(x0, 0, width)
    x1 = np.clip(np.maximum(x1, x0 + 1), 0, width)
    # no pixel twice: each interval starts at or after the previous interval's end
    prev_end = np.concatenate(([0], np.maximum.accumulate(x1)[:-1]))
    x0 = np.maximum(x0, prev_end)
    keep = x1 > x0
    x0, x1, v = x0[keep], x1[keep], np.asarray(values, dtype=np.int64)[keep] + 1
    np.add.at(line, x0, v)
    np.add.at(line, x1, -v)
    return np.cumsum(line[:width]).astype(np.int32)


def boundary_pixels(
    starts: np.ndarray, ends: np.ndarray, t0: float, ns_per_px: float, width: int, min_px: int = 4
) -> np.ndarray:
    """Pixels where a slice begins right where the one before it ends (back to back, within a
    pixel), for slices at least ``min_px`` wide: drawn as a darker line so that two adjacent
    slices of one name do not read as one block. ``starts`` / ``ends`` sorted by start, not
    overlapping (one row). Returns sorted pixel indices in ``[0, width)``."""
    if len(starts) < 2 or width <= 0:
        return np.empty(0, dtype=np.int64)
    s = (np.asarray(starts, dtype=np.float64) - t0) / ns_per_px
    e = (np.asarray(ends, dtype=np.float64) - t0) / ns_per_px
    prev_end = np.maximum.accumulate(e)[:-1]
    touching = s[1:] - prev_end <= 1.0
    wide = (e[1:] - s[1:] >= min_px) & (e[:-1] - s[:-1] >= min_px)
    px = np.floor(s[1:][touching & wide]).astype(np.int64)
    return np.unique(px[(px >= 0) & (px < width)])
