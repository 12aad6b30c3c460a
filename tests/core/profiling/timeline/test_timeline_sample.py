"""The timeline loader on the REAL torch_npu trace_view.json: exact times, nesting, flows, counts.

Expected values are computed here independently with the json and decimal modules (and plain
Python loops), never taken from the loader.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from decimal import ROUND_FLOOR, Decimal

import numpy as np
import pytest

from workbench.core.profiling.timeline import Timeline, load_timeline


def ns(value) -> int:
    """Exact ns of a µs value (string or number text), rounded half up."""
    return int((Decimal(str(value)) * 1000 + Decimal("0.5")).to_integral_value(rounding=ROUND_FLOOR))


@pytest.fixture(scope="module")
def trace_path(samples):
    return samples / "torch_npu-trace_view" / "trace_view.json"


@pytest.fixture(scope="module")
def events(trace_path):
    # parse_float keeps numeric ts/dur exact (Decimal); string ts are decimal text anyway
    return json.loads(trace_path.read_text(encoding="utf-8"), parse_float=Decimal)


@pytest.fixture(scope="module")
def tl(trace_path) -> Timeline:
    return load_timeline(trace_path)


def origin_of(events) -> int:
    return min(ns(e["ts"]) for e in events if e["ph"] != "M" and "ts" in e)


def x_rows(events):
    """(pid, tid, start ns relative, dur ns, name) of every X event, computed independently."""
    origin = origin_of(events)
    return [
        (str(e["pid"]), str(e["tid"]), ns(e["ts"]) - origin, ns(e["dur"]), e["name"]) for e in events if e["ph"] == "X"
    ]


def tl_rows(tl: Timeline):
    return [
        (tl.lanes[int(ln)].pid, tl.lanes[int(ln)].tid, int(s), int(d), tl.names[int(n)])
        for ln, s, d, n in zip(tl.lane, tl.start_ns, tl.dur_ns, tl.name_id)
    ]


def test_counts_match_an_independent_count(tl, events):
    assert tl.event_count == sum(1 for e in events if e["ph"] == "X") == len(tl)
    starts = Counter((e["cat"], str(e["id"])) for e in events if e["ph"] == "s")
    ends = Counter((e["cat"], str(e["id"])) for e in events if e["ph"] == "f")
    paired = sum(min(n, ends[k]) for k, n in starts.items())
    assert paired > 700
    assert tl.flow_count == paired == len(tl.flows)
    assert tl.warnings == []


def test_times_are_exact_nanoseconds(tl, events):
    assert tl.origin_ns == origin_of(events)
    assert sorted(tl_rows(tl)) == sorted(x_rows(events))
    ends = [r[2] + r[3] for r in x_rows(events)]
    assert tl.span_ns == max(ends) - min(r[2] for r in x_rows(events))
    # a value float64 cannot hold: the first event's ts is 1704161511420306.491 µs
    first = events[0]
    assert ns(first["ts"]) == 1704161511420306491
    assert tl.origin_ns + int(tl.start_ns[tl.lane == tl.lane[np.argmin(tl.start_ns)]].min()) <= ns(first["ts"])


def test_slices_sorted_by_lane_start_and_longest_first(tl):
    key = list(zip(tl.lane.tolist(), tl.start_ns.tolist(), (-tl.dur_ns).tolist()))
    assert key == sorted(key)
    assert tl.lane.dtype == np.int32 and tl.start_ns.dtype == np.int64 and tl.dur_ns.dtype == np.int64
    assert tl.name_id.dtype == np.int32 and tl.cat_id.dtype == np.int32 and tl.depth.dtype == np.int16


def test_every_slice_nests_properly(tl, events):
    """With exact times no slice of the real sample overlaps a sibling or leaks out of its parent."""
    by_lane = defaultdict(list)
    for pid, tid, start, dur, _ in x_rows(events):
        by_lane[(pid, tid)].append((start, -dur))
    expected_depth = {}
    for lane_key, rows in by_lane.items():
        stack: list[int] = []
        for start, neg in sorted(rows):
            end = start - neg
            while stack and stack[-1] <= start:
                stack.pop()
            assert not stack or end <= stack[-1], f"{lane_key}: slice at {start} overlaps its parent"
            expected_depth[(lane_key, start, -neg)] = len(stack)
            stack.append(end)
    end_ns = tl.start_ns + tl.dur_ns
    for i in range(len(tl)):
        lane = tl.lanes[int(tl.lane[i])]
        key = ((lane.pid, lane.tid), int(tl.start_ns[i]), int(tl.dur_ns[i]))
        assert int(tl.depth[i]) == expected_depth[key]
        p = int(tl.parent[i])
        if p >= 0:
            assert tl.lane[p] == tl.lane[i]
            assert tl.start_ns[p] <= tl.start_ns[i] and end_ns[i] <= end_ns[p]
            assert tl.depth[p] == tl.depth[i] - 1
        else:
            assert tl.depth[i] == 0
    assert int(tl.depth.max()) >= 3


def enclosing(slices, ts):
    """Deepest slice (start, end, name) with start <= ts <= end; plain loop."""
    best = None
    for start, end, name in slices:
        if start <= ts <= end and (best is None or (start, -(end - start)) > (best[0], -(best[1] - best[0]))):
            best = (start, end, name)
    return best


def test_flows_land_exactly_on_the_samples_slices(tl, events):
    origin = origin_of(events)
    slices = defaultdict(list)
    for pid, tid, start, dur, name in x_rows(events):
        slices[(pid, tid)].append((start, start + dur, name))
    ends = {(e["cat"], str(e["id"])): e for e in events if e["ph"] == "f"}
    expected = {}
    for s in (e for e in events if e["ph"] == "s"):
        f = ends.get((s["cat"], str(s["id"])))
        if f is None:
            continue
        src = enclosing(slices[(str(s["pid"]), str(s["tid"]))], ns(s["ts"]) - origin)
        dst = enclosing(slices[(str(f["pid"]), str(f["tid"]))], ns(f["ts"]) - origin)
        expected[(s["cat"], str(s["id"]))] = (src, dst, ns(s["ts"]) - origin, ns(f["ts"]) - origin)
    fl = tl.flows
    end_ns = tl.start_ns + tl.dur_ns

    def got_slice(i):
        i = int(i)
        return None if i < 0 else (int(tl.start_ns[i]), int(end_ns[i]), tl.name(i))

    got = {
        (fl.cat[k], fl.id[k]): (
            got_slice(fl.src_slice[k]),
            got_slice(fl.dst_slice[k]),
            int(fl.src_ns[k]),
            int(fl.dst_ns[k]),
        )
        for k in range(len(fl))
    }
    assert got == expected
    # every device-side end lands on a task (none dangles) and the big ids stayed strings
    assert all(v[1] is not None for v in expected.values())
    h2d = [k for k in got if k[0] == "HostToDevice"]
    assert len(h2d) == 274
    torch_ids = [k[1] for k in got if k[0] == "async_npu"]
    assert "1704161511434171181" in torch_ids  # > 2**53: float64 would have changed it


def test_args_are_decoded_lazily_and_exactly(tl, events):
    origin = origin_of(events)
    by_key = {}
    for e in events:
        if e["ph"] == "X":
            by_key[(str(e["pid"]), str(e["tid"]), ns(e["ts"]) - origin, ns(e["dur"]), e["name"])] = json.loads(
                json.dumps(e.get("args", {}), default=str)
            )
    rows = tl_rows(tl)
    for i in range(0, len(tl), 7):
        want = by_key[rows[i]]
        got = json.loads(json.dumps(tl.args(i), default=str))
        assert {k: str(v) for k, v in got.items()} == {k: str(v) for k, v in want.items()}


def test_lanes_come_from_process_metadata(tl, events):
    names = {str(e["pid"]): e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    threads = {
        (str(e["pid"]), str(e["tid"])): e["args"]["name"]
        for e in events
        if e["ph"] == "M" and e["name"] == "thread_name"
    }
    assert tl.lanes, "no lanes"
    for i, lane in enumerate(tl.lanes):
        assert lane.index == i
        assert lane.process_name == names[lane.pid]
        assert lane.thread_name == threads.get((lane.pid, lane.tid), "")
        assert lane.is_stream == (lane.process_name == "Ascend Hardware")
        assert lane.device is None if names[lane.pid] in ("Python", "CANN") else lane.device == 0
    sort_of = {
        str(e["pid"]): e["args"]["sort_index"] for e in events if e["ph"] == "M" and e["name"] == "process_sort_index"
    }
    order = [sort_of[lane.pid] for lane in tl.lanes]
    assert order == sorted(order)
    assert tl.devices == [0]


def test_small_blocks_give_the_same_timeline(trace_path, tl):
    """Chunk cuts everywhere (4 KB blocks) must not change a thing."""
    small = load_timeline(trace_path, block=4096)
    assert tl_rows(small) == tl_rows(tl)
    assert small.flow_count == tl.flow_count
    assert np.array_equal(small.flows.dst_slice, tl.flows.dst_slice)
    assert [small.args(i) for i in range(0, len(tl), 97)] == [tl.args(i) for i in range(0, len(tl), 97)]
