"""A synthetic Timeline with the engine's contract (lanes, columnar slices, flows, counters),
for widget tests that must not depend on a parser."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from workbench.core.profiling.timeline import Counter, Lane  # the engine's own lane and counter types


@dataclass
class Flows:
    cat: list
    id: list
    name: list
    src_slice: np.ndarray
    dst_slice: np.ndarray
    src_ns: np.ndarray
    dst_ns: np.ndarray


@dataclass
class FakeTimeline:
    lanes: list
    lane: np.ndarray
    start_ns: np.ndarray
    dur_ns: np.ndarray
    name_id: np.ndarray
    cat_id: np.ndarray
    depth: np.ndarray
    names: list
    cats: list
    flows: Flows
    counters: list
    origin_ns: int = 1_704_161_511_420_306_491
    warnings: list = field(default_factory=list)

    @property
    def event_count(self):
        return len(self.lane)

    @property
    def flow_count(self):
        return len(self.flows.src_slice)

    @property
    def span_ns(self):
        return int((self.start_ns + self.dur_ns).max() - self.start_ns.min())

    def args(self, i):
        return {"Task Id": int(i), "Stream Id": int(self.lane[i])}


def three_lanes() -> list:
    """A host API thread and two device streams."""
    return [
        Lane(0, "1000", "1000", "CANN", "Thread 1000", None, 0, False),
        Lane(1, "800", "3", "Ascend Hardware", "Stream 3", 0, 1, True),
        Lane(2, "800", "5", "Ascend Hardware", "Stream 5", 0, 2, True),
    ]


def make_timeline(n_per_lane: int = 2000, seed: int = 0) -> FakeTimeline:
    rng = np.random.default_rng(seed)
    names = [
        "aclmdlExecute",
        "aclrtMemcpy",
        "aclrtSynchronizeStream",
        "MatMul",
        "Conv2D",
        "Add",
        "ReLU",
        "TransData",
        "Softmax",
        "LayerNorm",
    ]
    lanes = three_lanes()
    lane_l, start_l, dur_l, name_l, depth_l = [], [], [], [], []
    for ln in range(3):
        durs = rng.integers(200, 20000, n_per_lane)
        gaps = rng.integers(100, 5000, n_per_lane)
        starts = np.cumsum(durs + gaps) - durs
        lane_l.append(np.full(n_per_lane, ln))
        start_l.append(starts)
        dur_l.append(durs)
        name_l.append(rng.integers(0, 3, n_per_lane) if ln == 0 else rng.integers(3, len(names), n_per_lane))
        depth_l.append(np.zeros(n_per_lane))
    lane = np.concatenate(lane_l).astype(np.int32)
    start = np.concatenate(start_l).astype(np.int64)
    dur = np.concatenate(dur_l).astype(np.int64)
    name_id = np.concatenate(name_l).astype(np.int32)
    depth = np.concatenate(depth_l).astype(np.int16)
    order = np.lexsort((-dur, start, lane))
    lane, start, dur, name_id, depth = lane[order], start[order], dur[order], name_id[order], depth[order]
    src = np.arange(0, 50, dtype=np.int64)
    dst = n_per_lane + src
    flows = Flows(
        cat=["HostToDevice"] * 50,
        id=[str(2**60 + i) for i in range(50)],
        name=["HostToDevice"] * 50,
        src_slice=src,
        dst_slice=dst,
        src_ns=start[src],
        dst_ns=start[dst],
    )
    ts = np.arange(0, int(start.max()), 1_000_000, dtype=np.int64)
    counters = [Counter("AI Core Freq", "AI Core Freq", 0, ts, {"MHz": 1800 - (np.arange(len(ts)) % 7) * 100.0})]
    return FakeTimeline(
        lanes, lane, start, dur, name_id, np.zeros(len(lane), dtype=np.int32), depth, names, ["op"], flows, counters
    )


def timeline_of(slices: list[tuple], counters: list | None = None, flows: list[tuple[int, int]] = ()) -> FakeTimeline:
    """A FakeTimeline holding exactly ``slices`` — (lane 0..2, start ns, duration ns, name[, depth])
    — on the lanes of :func:`make_timeline`; ``flows``: (source, destination) positions in ``slices``.
    ``timeline_of.index[k]`` is where ``slices[k]`` ended up."""
    names = sorted({s[3] for s in slices})
    lanes = three_lanes()
    lane = np.array([s[0] for s in slices], dtype=np.int32)
    start = np.array([s[1] for s in slices], dtype=np.int64)
    dur = np.array([s[2] for s in slices], dtype=np.int64)
    name_id = np.array([names.index(s[3]) for s in slices], dtype=np.int32)
    depth = np.array([s[4] if len(s) > 4 else 0 for s in slices], dtype=np.int16)
    order = np.lexsort((-dur, start, lane))
    where = np.empty(len(order), dtype=np.int64)
    where[order] = np.arange(len(order))
    src = np.array([where[a] for a, _ in flows], dtype=np.int64)
    dst = np.array([where[b] for _, b in flows], dtype=np.int64)
    start_s = start[order]
    tl = FakeTimeline(
        lanes,
        lane[order],
        start_s,
        dur[order],
        name_id[order],
        np.zeros(len(slices), dtype=np.int32),
        depth[order],
        names,
        ["op"],
        Flows(
            ["HostToDevice"] * len(flows),
            [str(k) for k in range(len(flows))],
            ["HostToDevice"] * len(flows),
            src,
            dst,
            start_s[src] if len(src) else src,
            start_s[dst] if len(dst) else dst,
        ),
        counters or [],
    )
    tl.index = [int(w) for w in where]  # type: ignore[attr-defined]
    return tl
