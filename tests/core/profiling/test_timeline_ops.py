from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from workbench.core.profiling import timeline_ops as ops


def tl():
    return SimpleNamespace(
        names=["MatMul", "Conv2D", "aclrtMemcpy", "aclmdlExecute"],
        lane=np.array([0, 0, 0, 1, 1, 2], dtype=np.int32),
        start_ns=np.array([0, 100, 300, 50, 400, 10], dtype=np.int64),
        dur_ns=np.array([80, 150, 30, 20, 500, 5], dtype=np.int64),
        name_id=np.array([0, 1, 0, 2, 3, 2], dtype=np.int32),
    )


def test_selection_aggregates_by_name():
    t = tl()
    idx = ops.selected_slices(t, [0, 1], 60, 320)
    assert sorted(idx.tolist()) == [0, 1, 2, 3]
    rows = {r["name"]: r for r in ops.aggregate(t, idx)}
    assert rows["MatMul"] == {"name": "MatMul", "count": 2, "total_ns": 110, "avg_ns": 55.0, "min_ns": 30, "max_ns": 80}
    assert rows["Conv2D"]["count"] == 1 and rows["aclrtMemcpy"]["total_ns"] == 20
    assert [r["name"] for r in ops.aggregate(t, idx)][0] == "Conv2D"  # biggest total first


def test_search_substring_and_regex():
    t = tl()
    assert ops.search(t, "acl").tolist() == [5, 3, 4]  # by start time
    assert ops.search(t, "^Mat", regex=True).tolist() == [0, 2]
    assert ops.search(t, "nothing").tolist() == []
    with pytest.raises(ops.SearchError, match="invalid regular expression"):
        ops.search(t, "([", regex=True)


def test_format_units_follow_span():
    assert ops.format_ns(1500) == "1.5 µs"
    assert ops.format_ns(2_500_000_000) == "2.5 s"
    assert ops.format_ns(999) == "999 ns"
    assert ops.format_ns(1_234_567, span_ns=10_000_000) == "1.235 ms"


def test_color_rule_thresholds_two_decimals():
    rule = ops.ColorRule()
    assert rule.level(4.99) == "green"
    assert rule.level(4.999) == "yellow"  # 5.00 after rounding to two decimals
    assert rule.level(5.0) == "yellow" and rule.level(9.99) == "yellow"
    assert rule.level(10.0) == "red"
    with pytest.raises(ValueError):
        ops.ColorRule(10, 5)
    t = tl()
    shares = ops.api_shares(t, [1, 2])
    assert shares[3] == pytest.approx(500 / 525 * 100)
    assert shares[2] == pytest.approx(25 / 525 * 100)


def test_view_readout_uses_one_unit_for_the_zoom_level():
    # the view: 1,029.918 µs to 1,063.278 µs: all three in µs, enough decimals for the span
    assert ops.view_readout(1_029_918, 1_063_278) == ("1,029.92 µs", "1,063.28 µs", "33.36 µs")
    # a 14 ms view: ms for all three, even a start below 1 ms
    assert ops.view_readout(480_000, 14_755_000) == ("0.480 ms", "14.755 ms", "14.275 ms")
    assert ops.view_readout(0, 3_000_000_000) == ("0.000 s", "3.000 s", "3.000 s")
    assert ops.view_readout(100, 900) == ("100 ns", "900 ns", "800 ns")
    r = ops.readout_for(33_360)
    assert (r.unit, r.scale, r.decimals) == ("µs", 1000, 2) and r.text(480_000) == "480.00 µs"


def _lanes_counters(lanes, counters=()):
    from workbench.core.profiling.timeline import Counter, Lane

    ls = [
        Lane(i, pid, tid, proc, f"Thread {tid}", dev, i, proc == "Ascend Hardware")
        for i, (pid, tid, proc, dev) in enumerate(lanes)
    ]
    cs = [Counter(proc, name, dev, np.zeros(1, dtype=np.int64), {"v": np.zeros(1)}) for proc, name, dev in counters]
    return SimpleNamespace(lanes=ls, counters=cs)


def test_origins_of_one_report_with_two_devices():
    t = _lanes_counters(
        [
            ("1", "10", "CANN", None),
            ("1", "11", "CANN", None),
            ("2", "5", "Ascend Hardware", 0),
            ("3", "6", "Ascend Hardware", 1),
        ],
        [
            ("AI Core Freq", "AI Core Freq", 1),
            ("AI Core Freq", "AI Core Freq", 0),
            ("HBM", "HBM", 1),
            ("HBM", "HBM", 0),
        ],
    )
    o = ops.origins(t)
    assert o.parts == 1
    assert o.lane_device == (None, None, 0, 1) and o.lane_part == (None,) * 4
    assert o.counter_device == (1, 0, 1, 0), "two AI Core Freq counters say their device"
    one = ops.origins(
        _lanes_counters([("1", "10", "CANN", None), ("2", "5", "Ascend Hardware", 0)], [("HBM", "HBM", 0)])
    )
    assert one.lane_device == (None, None) and one.counter_device == (None,), "one device: nothing to say"


def test_origins_of_merged_reports():
    # two runs on device 0 merged: the same lanes and counters twice -> told apart by part
    same = _lanes_counters(
        [("448", "7", "CANN", None), ("648", "5", "Ascend Hardware", 0)] * 2,
        [("HBM", "HBM", 0), ("NPU MEM", "NPU MEM", 0)] * 2,
    )
    o = ops.origins(same)
    assert ops.lane_parts(same) == [0, 0, 1, 1] and ops.counter_parts(same) == [0, 0, 1, 1]
    assert o.lane_part == (1, 1, 2, 2) and o.counter_part == (1, 1, 2, 2) and o.parts == 2
    assert o.lane_device == (None,) * 4
    # two ranks, one device each: every lane (host ones too) says the device of its rank
    ranks = _lanes_counters(
        [("75", "75", "Python", None), ("7502", "75", "CANN", None), ("800", "3", "Ascend Hardware", 0)]
        + [("76", "83", "Python", None), ("7602", "83", "CANN", None), ("800", "4", "Ascend Hardware", 1)]
    )
    o = ops.origins(ranks)
    assert ops.lane_parts(ranks) == [0, 0, 0, 1, 1, 1]
    assert o.lane_device == (0, 0, 0, 1, 1, 1) and o.lane_part == (None,) * 6
    # a timeline that records where each lane came from is believed
    ranks.lane_source = [0, 1, 1, 1, 1, 1]
    assert ops.lane_parts(ranks) == [0, 1, 1, 1, 1, 1]


def test_origins_of_real_generated_reports(tmp_path):
    """The real engine's lanes: a 2-device msprof run, and two runs of one device merged."""
    from workbench.core.profiling.build import open_report
    from workbench.core.profiling.merge import merge_reports
    from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof

    two = open_report(
        write_msprof_prof(tmp_path / "two", resnet50_workload(kind="model"), devices=[0, 1]), use_cache=False
    )
    o = ops.origins(two.timeline)
    counters = two.timeline.counters
    freq = [(o.counter_device[i], c.device) for i, c in enumerate(counters) if c.name == "AI Core Freq"]
    assert len(freq) == 2 and all(shown == dev for shown, dev in freq) and {d for d, _ in freq} == {0, 1}
    assert o.parts == 1
    a = write_msprof_prof(tmp_path / "a", resnet50_workload(kind="model"), devices=[0])
    b = write_msprof_prof(tmp_path / "b", resnet50_workload(kind="model"), devices=[0])
    merged = merge_reports([a, b]).timeline
    o = ops.origins(merged)
    keys = [(o.lane_part[i], ln.process_name, ln.thread_name) for i, ln in enumerate(merged.lanes)]
    assert len(set(keys)) == len(keys), "no two lanes of a merged report read the same"
    ckeys = [(o.counter_part[i], c.name) for i, c in enumerate(merged.counters)]
    assert len(set(ckeys)) == len(ckeys) and o.parts == 2


def _named():
    """Slices of "hcom_allReduce" under two name ids (a merged timeline repeats a name), one MatMul,
    a name without slices; times from an epoch origin (exact int64 ns)."""
    return SimpleNamespace(
        origin_ns=1_736_408_883_732_241_500,
        names=["hcom_allReduce", "MatMul", "Conv2D", "hcom_allReduce"],
        name_id=np.array([0, 1, 0, 3, 0], dtype=np.int32),
        start_ns=np.array([100, 120, 5000, 5030, 20000], dtype=np.int64),
        dur_ns=np.array([50, 10, 100, 10, 0], dtype=np.int64),
    )


def test_slice_named_at_a_time_edges_several_and_none():
    t = _named()
    at = t.origin_ns
    assert ops.slice_named_at(t, "hcom_allReduce", at + 120) == 0
    assert ops.slice_named_at(t, "MatMul", at + 100) == 1, "only slices of that name"
    # the slice's edges: start and end inclusive; the tolerance widens each by 1000 ns
    assert ops.slice_named_at(t, "hcom_allReduce", at + 100, tolerance_ns=0) == 0
    assert ops.slice_named_at(t, "hcom_allReduce", at + 150, tolerance_ns=0) == 0
    assert ops.slice_named_at(t, "hcom_allReduce", at + 99, tolerance_ns=0) is None
    assert ops.slice_named_at(t, "hcom_allReduce", at + 151, tolerance_ns=0) is None
    assert ops.slice_named_at(t, "hcom_allReduce", at + 100 - 1000) == 0
    assert ops.slice_named_at(t, "hcom_allReduce", at + 100 - 1001) is None
    assert ops.slice_named_at(t, "hcom_allReduce", at + 150 + 1000) == 0
    assert ops.slice_named_at(t, "hcom_allReduce", at + 150 + 1001) is None
    assert ops.slice_named_at(t, "hcom_allReduce", at + 20000) == 4, "a slice of no duration"
    # several slices of the name running then (under either name id): the one starting closest
    assert ops.slice_named_at(t, "hcom_allReduce", at + 5035) == 3
    assert ops.slice_named_at(t, "hcom_allReduce", at + 5010) == 2
    assert ops.slice_named_at(t, "hcom_allReduce", at + 5015) == 2, "equally close: the earlier start"
    # none
    assert ops.slice_named_at(t, "Conv2D", at + 100) is None, "a name without slices"
    assert ops.slice_named_at(t, "Softmax", at + 100) is None, "a name the timeline lacks"
    assert ops.slice_named_at(t, "MatMul", at + 50_000) is None, "nothing of the name runs then"
