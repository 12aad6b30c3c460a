"""Timeline operations the views need, kept Qt-free: area-selection aggregates, name search, the
slice of a name running at a time (what a Memory / Communication row selects on the timeline),
time formatting (the view's Start / End / Duration in one unit), where a lane comes from (device,
part of a merged report), the MindStudio Timeline Color rule and which slices are step markers
(msprof 5/6 / MindSpore step trace: steps, never OPs)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

# --- step markers -------------------------------------------------------------------------

# Step-trace markers (msprof 5/6, MindSpore): what the step_trace timeline writes per iteration
# (docs/cann-formats.md §3.1). They mark steps; they are never device tasks (OPs).
STEP_MARKER = re.compile(r"^(?:Iteration|Iteration Refresh|FP_BP Time|Data_aug Bound) \d+$|^FP_BP$|^Reduce_\d+_\d+$")
# Threads that hold step markers: "Step Trace(Model ID:1)" (CANN 7/8), "Model ID:1" (CANN 5/6).
STEP_THREAD = re.compile(r"^(?:Step Trace\b.*|Model ID\s*:.*)$")
STEP_PROCESSES = ("Step Trace",)

STEP_ITERATION = re.compile(r"^Iteration (\d+)$")


def step_marker_mask(tl) -> np.ndarray:
    """Per slice of ``tl``: True for step-trace markers (a step lane's slices; elsewhere a step
    marker's name), which belong to the steps, never to the OPs."""
    n = int(tl.event_count)
    if n == 0:
        return np.zeros(0, dtype=bool)
    step_lane = np.zeros(len(tl.lanes) + 1, dtype=bool)
    for ln in tl.lanes:
        step_lane[ln.index] = ln.process_name in STEP_PROCESSES or bool(STEP_THREAD.match(str(ln.thread_name)))
    named = np.fromiter((bool(STEP_MARKER.match(str(t))) for t in tl.names), dtype=bool, count=len(tl.names))
    named = np.append(named, False)
    return step_lane[np.asarray(tl.lane)] | named[np.asarray(tl.name_id)]


# --- area selection ---------------------------------------------------------------------------


def selected_slices(tl, lanes: list[int] | None, t0: int, t1: int) -> np.ndarray:
    """Indices of slices on ``lanes`` (all when None) that overlap [t0, t1)."""
    start = np.asarray(tl.start_ns)
    end = start + np.asarray(tl.dur_ns)
    mask = (start < t1) & (end > t0)
    if lanes is not None:
        mask &= np.isin(np.asarray(tl.lane), np.asarray(lanes, dtype=np.int64))
    return np.flatnonzero(mask)


def aggregate(tl, indices: np.ndarray) -> list[dict]:
    """Per name: count, total, avg, min, max (ns) over ``indices`` — sorted by total descending.

    Like Perfetto's area selection and Insight's Slice List, a slice counts with its whole
    duration when it overlaps the selected time range.
    """
    if len(indices) == 0:
        return []
    names = np.asarray(tl.name_id)[indices]
    durs = np.asarray(tl.dur_ns)[indices].astype(np.int64)
    order = np.argsort(names, kind="stable")
    names, durs = names[order], durs[order]
    bounds = np.flatnonzero(np.diff(names)) + 1
    starts = np.concatenate(([0], bounds))
    counts = np.diff(np.concatenate((starts, [len(names)])))
    totals = np.add.reduceat(durs, starts)
    mins = np.minimum.reduceat(durs, starts)
    maxs = np.maximum.reduceat(durs, starts)
    rows = []
    for k, a in enumerate(starts):
        rows.append(
            {
                "name": tl.names[int(names[a])],
                "count": int(counts[k]),
                "total_ns": int(totals[k]),
                "avg_ns": float(totals[k]) / int(counts[k]),
                "min_ns": int(mins[k]),
                "max_ns": int(maxs[k]),
            }
        )
    rows.sort(key=lambda r: (-r["total_ns"], r["name"]))
    return rows


# --- search -------------------------------------------------------------------------------------


class SearchError(ValueError):
    pass


def search(tl, pattern: str, regex: bool = False) -> np.ndarray:
    """Slice indices whose name matches (case-insensitive substring, or a regex), by start time."""
    if not pattern:
        return np.empty(0, dtype=np.int64)
    if regex:
        try:
            rx = re.compile(pattern, re.IGNORECASE)
        except re.error as exc:
            raise SearchError(f"invalid regular expression {pattern!r}: {exc}") from exc
        ids = [i for i, n in enumerate(tl.names) if rx.search(n)]
    else:
        low = pattern.lower()
        ids = [i for i, n in enumerate(tl.names) if low in n.lower()]
    if not ids:
        return np.empty(0, dtype=np.int64)
    hits = np.flatnonzero(np.isin(np.asarray(tl.name_id), np.asarray(ids)))
    return hits[np.argsort(np.asarray(tl.start_ns)[hits], kind="stable")]


# the time a file writes (µs, so rounded) and the timeline's slice may differ by this much
MATCH_TOLERANCE_NS = 1000


def slice_named_at(tl, name: str, t_ns: int, tolerance_ns: int = MATCH_TOLERANCE_NS) -> int | None:
    """The slice called ``name`` running at epoch ``t_ns`` (a communication op's start, an allocation
    inside an operator): of the slices of that name whose [start, end] holds ``t_ns`` (each edge
    widened by ``tolerance_ns``), the one starting closest to it (equally close: the earlier start,
    then the lower index). None when no slice of that name runs then. Every slice bearing the name
    counts, whichever of the timeline's name ids it has (a merged timeline may repeat a name)."""
    ids = [i for i, n in enumerate(tl.names) if n == name]
    if not ids:
        return None
    name_id = np.asarray(tl.name_id)
    hits = np.flatnonzero(name_id == ids[0]) if len(ids) == 1 else np.flatnonzero(np.isin(name_id, ids))
    if not len(hits):
        return None
    t = int(t_ns) - int(tl.origin_ns)
    start = np.asarray(tl.start_ns, dtype=np.int64)[hits]
    end = start + np.asarray(tl.dur_ns, dtype=np.int64)[hits]
    inside = (start - tolerance_ns <= t) & (t <= end + tolerance_ns)
    if not inside.any():
        return None
    hits, start = hits[inside], start[inside]
    best = np.lexsort((hits, start, np.abs(start - t)))[0]  # closest start, then earlier, then lower index
    return int(hits[best])


# --- time formatting ----------------------------------------------------------------------------

UNITS = (("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000), ("ns", 1))


def unit_for(span_ns: float) -> tuple[str, int]:
    """The unit a time axis should use for a visible span (ns … s)."""
    for name, scale in UNITS:
        if span_ns >= scale:
            return name, scale
    return "ns", 1


def format_ns(value_ns: float, span_ns: float | None = None) -> str:
    """Human time: unit follows ``span_ns`` (or the value itself), 3 significant decimals."""
    name, scale = unit_for(abs(span_ns if span_ns is not None else value_ns) or 1)
    v = value_ns / scale
    text = f"{v:,.3f}".rstrip("0").rstrip(".") if scale > 1 else f"{int(round(v)):,}"
    return f"{text} {'µs' if name == 'us' else name}"


@dataclass(frozen=True)
class Readout:
    """The visible range as the header shows it: every value in one unit chosen for the zoom."""

    unit: str  # "s", "ms", "µs" or "ns"
    scale: int  # ns per unit
    decimals: int

    def text(self, value_ns: float) -> str:
        return f"{value_ns / self.scale:,.{self.decimals}f} {self.unit}"


def readout_for(span_ns: float) -> Readout:
    """One unit for a visible span (the time axis's unit) and enough decimals to tell apart
    times about a two-thousandth of the span apart (at most 6, none for ns)."""
    name, scale = unit_for(abs(span_ns) or 1)
    step = max(abs(span_ns), 1.0) / 2000 / scale
    decimals = 0 if scale == 1 else max(0, min(6, math.ceil(-math.log10(step)))) if step < 1 else 0
    return Readout("µs" if name == "us" else name, scale, decimals)


def view_readout(t0_ns: float, t1_ns: float) -> tuple[str, str, str]:
    """(start, end, duration) of a visible range, in one unit chosen for its span."""
    r = readout_for(t1_ns - t0_ns)
    return r.text(t0_ns), r.text(t1_ns), r.text(t1_ns - t0_ns)


# --- where lanes come from: device, part of a merged report --------------------------------------


@dataclass(frozen=True)
class Origins:
    """What a lane's or counter's label must say so that none reads like another.

    ``*_device``: the device to name (None: nothing to say — one device only, or a host lane of a
    single report); ``*_part``: the 1-based part of a merged report (several reports or ranks
    combined) where the device does not tell the parts apart, else None."""

    lane_device: tuple[int | None, ...]
    lane_part: tuple[int | None, ...]
    counter_device: tuple[int | None, ...]
    counter_part: tuple[int | None, ...]
    parts: int


def lane_parts(tl) -> list[int]:
    """The part (0-based) of a merged timeline each lane comes from.

    A timeline that records it (``lane_source``) says so; otherwise the parts are found from the
    order: a merge appends each input's lanes after the previous input's, and one input's lanes
    are grouped by process, so a process name seen before coming back after another process
    starts the next part."""
    explicit = getattr(tl, "lane_source", None)
    if explicit is not None and len(explicit) == len(tl.lanes):
        return [int(v) for v in explicit]
    parts: list[int] = []
    part, previous = 0, None
    seen: set[str] = set()
    for lane in tl.lanes:
        name = lane.process_name
        if name != previous and name in seen:
            part, seen = part + 1, set()
        seen.add(name)
        previous = name
        parts.append(part)
    return parts


def counter_parts(tl) -> list[int]:
    """The part (0-based) of a merged timeline each counter comes from: one input never has two
    counters of the same process, name and device, so such a repeat starts the next part."""
    explicit = getattr(tl, "counter_source", None)
    counters = list(getattr(tl, "counters", []) or [])
    if explicit is not None and len(explicit) == len(counters):
        return [int(v) for v in explicit]
    parts: list[int] = []
    part = 0
    seen: set[tuple[str, str, int | None]] = set()
    for c in counters:
        key = (c.process_name, c.name, c.device)
        if key in seen:
            part, seen = part + 1, set()
        seen.add(key)
        parts.append(part)
    return parts


def _part_devices(parts: list[int], devices: list[int | None]) -> dict[int, int] | None:
    """part -> its one device, when every part has exactly one and no two parts share it."""
    found: dict[int, set[int]] = {}
    for p, d in zip(parts, devices):
        found.setdefault(p, set())
        if d is not None:
            found[p].add(d)
    if any(len(ds) != 1 for ds in found.values()):
        return None
    one = {p: next(iter(ds)) for p, ds in found.items()}
    return one if len(set(one.values())) == len(one) else None


def origins(tl) -> Origins:
    """Which device / part every lane and counter of ``tl`` must name (see :class:`Origins`)."""
    lanes = list(tl.lanes)
    counters = list(getattr(tl, "counters", []) or [])
    devices = {ln.device for ln in lanes if ln.device is not None} | {
        c.device for c in counters if c.device is not None
    }
    several_devices = len(devices) > 1

    def resolve(parts: list[int], own: list[int | None]) -> tuple[tuple[int | None, ...], tuple[int | None, ...]]:
        count = max(parts, default=0) + 1
        by_part = _part_devices(parts, own) if count > 1 else None
        shown_dev: list[int | None] = []
        shown_part: list[int | None] = []
        for p, d in zip(parts, own):
            if d is None and by_part is not None:
                d = by_part[p]  # a rank's host lanes: the device that rank drives
            shown_dev.append(d if d is not None and (several_devices or by_part is not None) else None)
            shown_part.append(p + 1 if count > 1 and by_part is None else None)
        return tuple(shown_dev), tuple(shown_part)

    lp = lane_parts(tl)
    cp = counter_parts(tl)
    lane_dev, lane_part = resolve(lp, [ln.device for ln in lanes])
    counter_dev, counter_part = resolve(cp, [c.device for c in counters])
    return Origins(lane_dev, lane_part, counter_dev, counter_part, max([*lp, *cp], default=0) + 1)


# --- Timeline Color (MindStudio): green ≤ a % ≤ yellow < b % ≤ red by API time share ------------------


@dataclass(frozen=True)
class ColorRule:
    a_pct: float = 5.0
    b_pct: float = 10.0

    def __post_init__(self) -> None:
        if not (0.0 <= self.a_pct <= self.b_pct <= 100.0):
            raise ValueError(
                f"Timeline Color thresholds must satisfy 0 ≤ a ≤ b ≤ 100, got a={self.a_pct}, b={self.b_pct}"
            )

    def level(self, share_pct: float) -> str:
        """'green' below a %, 'yellow' from a % up to b %, 'red' from b % (rounded to two decimals)."""
        share = round(share_pct, 2)
        if share < round(self.a_pct, 2):
            return "green"
        if share < round(self.b_pct, 2):
            return "yellow"
        return "red"

    def describe(self) -> str:
        return f"green < {self.a_pct:.2f}% ≤ yellow < {self.b_pct:.2f}% ≤ red"


def api_shares(tl, lanes: list[int]) -> dict[int, float]:
    """name_id -> share (%) of the total time of all slices on ``lanes`` (the API lanes)."""
    if not lanes:
        return {}
    mask = np.isin(np.asarray(tl.lane), np.asarray(lanes))
    names = np.asarray(tl.name_id)[mask]
    durs = np.asarray(tl.dur_ns)[mask].astype(np.float64)
    total = durs.sum()
    if total <= 0:
        return {}
    sums = np.bincount(names, weights=durs)
    return {int(i): float(v) * 100.0 / total for i, v in enumerate(sums) if v > 0}
