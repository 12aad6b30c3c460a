"""The comparison engine against independently computed values (csv module + Decimal)."""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from cmphelpers import ARITH, number, pct, read, scaled_copy, totals

from workbench.core.compare import CompareError, compare_paths, compare_reports
from workbench.core.profiling.build import open_report
from workbench.core.profiling.report import Report
from workbench.core.tasks import run_inline


def compare(base, current, **kw):
    return run_inline(compare_paths, base, current, **kw)


def assert_all_zero(c, same_starts: bool = True) -> None:
    for by in ("type", "name"):
        rows = c.op_rows(by)
        assert len(rows) and set(rows["status"]) == {"same"}
        assert (rows["diff_us"] == 0).all() and (rows["diff_pct"] == 0).all() and (rows["avg_diff_us"] == 0).all()
        assert (rows["base_count"] == rows["current_count"]).all()
        assert not same_starts or (rows["base_first_ns"] == rows["current_first_ns"]).all()
    overall = c.overall if same_starts else c.overall[~c.overall["metric"].str.startswith(("Free", "End"))]
    assert len(overall) and (overall["diff"] == 0).all() and set(overall["status"]) == {"same"}
    assert (c.metrics["diff"].fillna(0) == 0).all() and set(c.metrics["status"]) <= {"same"}


def test_self_comparison_sample_is_all_zero(pipe_csv):
    c = compare(pipe_csv, pipe_csv)
    assert_all_zero(c)
    assert c.warnings == []
    _, raw = read(pipe_csv)
    expected = totals(raw, "Type")
    rows = c.rows.set_index("key")
    assert set(rows.index) == set(expected)
    for key, e in expected.items():
        assert rows.loc[key, "base_count"] == e["count"]
        assert rows.loc[key, "base_total_us"] == float(e["total"])
        assert rows.loc[key, "base_min_us"] == float(e["min"]) and rows.loc[key, "base_max_us"] == float(e["max"])
    assert c.total()["base_total_us"] == float(sum(e["total"] for e in expected.values()))
    assert not c.metrics.empty  # PipeUtilization PMU columns compared


def test_self_comparison_generated_msprof_is_all_zero(generated):
    c = compare(generated["msprof"], generated["msprof"])
    assert_all_zero(c)
    assert c.warnings == []
    assert c.base.chip and c.base.cann_version and c.base.pmu_group == "PipeUtilization"


@pytest.mark.parametrize("factor", ["1.5", "0.8"])
def test_scaled_type_gives_exactly_its_diff(pipe_csv, tmp_path, factor):
    _, raw = read(pipe_csv)
    target = "MatMulV3"
    assert any(r["Type"] == target for r in raw)
    cur = scaled_copy(pipe_csv, tmp_path / "cur" / "kernel_details.csv", lambda r: r["Type"] == target, factor)
    before, after = totals(raw, "Type"), totals(read(cur)[1], "Type")
    c = compare(pipe_csv, cur)
    rows = c.rows.set_index("key")
    b, a = before[target]["total"], after[target]["total"]
    assert rows.loc[target, "base_total_us"] == float(b)
    assert rows.loc[target, "current_total_us"] == float(a)
    assert rows.loc[target, "diff_us"] == float(a - b)
    assert rows.loc[target, "diff_pct"] == pytest.approx(pct(b, a), abs=0.006)
    assert rows.loc[target, "status"] == ("slower" if factor == "1.5" else "faster")
    assert rows.loc[target, "current_max_us"] == float(after[target]["max"])
    others = rows.drop(index=target)
    assert (others["diff_us"] == 0).all() and set(others["status"]) == {"same"}
    total_b = sum(e["total"] for e in before.values())
    total_a = sum(e["total"] for e in after.values())
    t = c.total()
    assert t["diff_us"] == float(total_a - total_b)
    assert t["diff_pct"] == pytest.approx(pct(total_b, total_a), abs=0.006)
    # regressions first: the scaled row leads when slower, trails when faster
    assert (c.rows["key"].iloc[0] if factor == "1.5" else c.rows["key"].iloc[-1]) == target


def test_tolerance_decides_same(pipe_csv, tmp_path):
    cur = scaled_copy(pipe_csv, tmp_path / "cur" / "kernel_details.csv", lambda r: r["Type"] == "MatMulV3", "1.02")
    loose = compare(pipe_csv, cur, tolerance_pct=5).rows.set_index("key")
    strict = compare(pipe_csv, cur, tolerance_pct=1).rows.set_index("key")
    assert loose.loc["MatMulV3", "status"] == "same"
    assert strict.loc["MatMulV3", "status"] == "slower"
    with pytest.raises(CompareError, match="tolerance"):
        compare(pipe_csv, cur, tolerance_pct=-1)


def test_by_name_and_instances_in_order_of_appearance(pipe_csv, tmp_path):
    header, raw = read(pipe_csv)
    name = raw[1]["Name"]
    occurrences = [r for r in raw if r["Name"] == name]
    # scale only the second occurrence of that name (by start time)
    second = sorted(occurrences, key=lambda r: Decimal(r["Start Time(us)"].strip()))[1]["Start Time(us)"]
    cur = scaled_copy(
        pipe_csv,
        tmp_path / "cur" / "kernel_details.csv",
        lambda r: r["Name"] == name and r["Start Time(us)"] == second,
        "2",
    )
    c = compare(pipe_csv, cur, by="name")
    before, after = totals(raw, "Name"), totals(read(cur)[1], "Name")
    rows = c.rows.set_index("key")
    assert rows.loc[name, "diff_us"] == float(after[name]["total"] - before[name]["total"]) > 0
    assert rows.loc[name, "base_count"] == len(occurrences)
    pairs = c.instances(name)
    assert list(pairs["ordinal"]) == list(range(1, len(occurrences) + 1))
    assert list(pairs["status"]) == ["same", "slower"] + ["same"] * (len(occurrences) - 2)
    assert pairs["base_start_ns"].is_monotonic_increasing
    assert pairs["diff_us"].iloc[1] == pairs["base_duration_us"].iloc[1]


def test_added_and_removed_rows(pipe_csv, tmp_path):
    header, raw = read(pipe_csv)
    from cmphelpers import write

    dropped = raw[0]["Type"]
    cur_rows = [dict(r) for r in raw if r["Type"] != dropped]
    extra = dict(raw[0], Type="BrandNewOp", Name="brand_new_op")
    cur = write(tmp_path / "cur" / "kernel_details.csv", header, cur_rows + [extra])
    c = compare(pipe_csv, cur)
    rows = c.rows.set_index("key")
    assert rows.loc[dropped, "status"] == "removed" and rows.loc[dropped, "current_count"] == 0
    assert rows.loc[dropped, "diff_pct"] == -100.0
    assert rows.loc["BrandNewOp", "status"] == "added" and rows.loc["BrandNewOp", "base_count"] == 0
    assert math.isnan(rows.loc["BrandNewOp", "diff_pct"])  # n/a: no baseline
    rec = next(r for r in c.records(c.rows) if r["key"] == "BrandNewOp")
    assert rec["diff_pct"] is None and rec["base_avg_us"] is None
    assert c.status_counts()["added"] == 1 and c.status_counts()["removed"] == 1
    only = c.filter_status(c.rows, {"added", "removed"})
    assert set(only["key"]) == {dropped, "BrandNewOp"}
    worse, better = c.top(5)
    assert "BrandNewOp" in set(worse["key"]) and dropped in set(better["key"])


def _report(durations: dict[str, list[float]], device: int = 0, kind: str = "torch_npu") -> Report:
    types = [t for t, ds in durations.items() for _ in ds]
    ds = [d for ds in durations.values() for d in ds]
    ops = pd.DataFrame(
        {
            "device": pd.array([device] * len(ds), dtype="Int64"),
            "name": pd.Categorical([f"{t}_op" for t in types]),
            "type": pd.Categorical(types),
            "task_type": pd.Categorical(["AI_CORE"] * len(ds)),
            "start_ns": pd.array(
                np.arange(len(ds), dtype=np.int64) * 1_000_000 + 1_700_000_000_000_000_000, dtype="Int64"
            ),
            "duration_us": np.array(ds, dtype=np.float64),
        }
    )
    return Report(source="mem", kind=kind, tables={"ops": ops}).finish()


def test_zero_baseline_time_is_na_not_an_error():
    c = compare_reports(_report({"A": [0.0, 0.0], "B": [0.0]}), _report({"A": [5.0, 0.0], "B": [0.0]}))
    rows = c.rows.set_index("key")
    assert math.isnan(rows.loc["A", "diff_pct"]) and rows.loc["A", "status"] == "slower"
    assert rows.loc["B", "diff_pct"] == 0 and rows.loc["B", "status"] == "same"
    assert math.isnan(c.overall.set_index("metric").loc["Total device time", "diff_pct"])
    assert c.total()["diff_pct"] is None
    # no steps recorded: the gate, like the statuses, goes by the average time per call
    assert c.basis == "call"
    assert c.regressions(50) == ["A: 0.000 -> 2.500 us per call (n/a)"]


def test_no_common_rows_is_said_and_summaries_kept():
    c = compare_reports(_report({"A": [1.0]}), _report({"B": [2.0]}))
    assert set(c.rows["status"]) == {"added", "removed"}
    assert any("no OP type is present in both reports" in w for w in c.warnings)
    assert c.base.op_count == 1 and c.current.total_us == 2.0


def test_different_device_ids_warn_and_explicit_pairs(generated):
    c = compare(generated["msprof"], generated["msprof_dev1"])
    assert c.pairs == [(0, 1)]
    assert any("different device IDs" in w and "base device 0" in w and "current device 1" in w for w in c.warnings)
    assert_all_zero(c, same_starts=False)  # same workload and seed on another device: same durations
    c = compare(generated["msprof01"], generated["msprof_dev1"], pairs=[(1, 1)])
    assert c.base.compared_devices == [1] and c.current.compared_devices == [1]
    assert not any("different device IDs" in w for w in c.warnings)
    assert any("base device(s) 0 left out" in w for w in c.warnings)
    c = compare(generated["msprof01"], generated["torch"])  # same IDs by default: device 0 only
    assert c.pairs == [(0, 0)] and any("base device(s) 1 left out" in w for w in c.warnings)
    with pytest.raises(CompareError, match=r"^current: no device 7"):
        compare(generated["msprof01"], generated["torch"], pairs=[(0, 7)])


def test_msprof_vs_torch_npu_of_the_same_workload(generated):
    c = compare(generated["msprof"], generated["torch"])
    assert any("different kinds of report" in w and "msprof" in w and "torch_npu" in w for w in c.warnings)
    rows = c.rows
    assert set(rows["status"]) <= {"same", "slower", "faster"}  # every OP type matched, none added/removed
    ref = open_report(generated["msprof"]).ops
    assert set(rows["key"]) == set(ref["type"].astype(str))
    assert (rows["base_count"] == rows["current_count"]).all()
    assert set(c.metrics["metric"])  # AI Core metrics compared on both sides


def test_ai_core_metric_means_against_csv(pipe_csv, tmp_path):
    target, metric = "MatMulV3", "aic_mac_ratio"
    cur = scaled_copy(
        pipe_csv, tmp_path / "cur" / "kernel_details.csv", lambda r: r["Type"] == target, "0.5", column=metric
    )
    c = compare(pipe_csv, cur)
    m = c.metrics.set_index(["key", "metric"])

    def mean(path):
        vals = [float(r[metric]) for r in read(path)[1] if r["Type"] == target]
        return sum(vals) / len(vals)

    b, a = mean(pipe_csv), mean(cur)
    assert m.loc[(target, metric), "base"] == pytest.approx(b, rel=1e-12)
    assert m.loc[(target, metric), "current"] == pytest.approx(a, rel=1e-12)
    assert m.loc[(target, metric), "diff"] == pytest.approx(a - b, rel=1e-9)
    assert m.loc[(target, metric), "status"] == "lower"
    assert m.loc[(target, "aic_mac_time(us)"), "diff"] == 0  # other metrics unchanged
    assert (c.rows["diff_us"] == 0).all()


def test_overall_rows_against_csv(samples, tmp_path):
    path = samples.joinpath(*ARITH)
    c = compare(path, path)
    _, raw = read(path)
    by_task: dict[str, Decimal] = {}
    for r in raw:
        d = number(r["Duration(us)"])
        if d is not None:
            by_task[r["Accelerator Core"]] = by_task.get(r["Accelerator Core"], Decimal(0)) + d
    o = c.overall.set_index("metric")
    assert o.loc["Total device time", "base"] == float(sum(by_task.values()))
    ai_core = sum(v for k, v in by_task.items() if k in ("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV"))
    assert o.loc["AI Core time", "base"] == float(ai_core)
    assert o.loc["AI CPU time", "base"] == float(by_task["AI_CPU"])
    assert o.loc["Communication time", "base"] == float(by_task["HCCL"])
    assert o.loc["Device tasks", "base"] == sum(1 for r in raw if number(r["Duration(us)"]) is not None)
    assert {"Free time (device idle between tasks)", "End-to-end span"} <= set(o.index)


def test_unreadable_side_is_named(pipe_csv, tmp_path):
    bad = tmp_path / "bad" / "kernel_details.csv"
    bad.parent.mkdir()
    bad.write_text("this,is,not\n1,2,3\n")
    with pytest.raises(CompareError, match=r"^current report"):
        compare(pipe_csv, bad)
    with pytest.raises(CompareError, match=r"^base report.*missing"):
        compare(tmp_path / "missing", pipe_csv)
    with pytest.raises(CompareError, match="expected 'type' or 'name'"):
        compare(pipe_csv, pipe_csv, by="kernel")


def test_progress_and_cancel(pipe_csv):
    from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress

    progress = RecordingProgress()
    compare_paths(pipe_csv, pipe_csv, progress=progress, cancel=CancelToken())
    statuses = [v for k, v in progress.events if k == "status"]
    fractions = [v for k, v in progress.events if k == "fraction" and v is not None]
    assert any("base" in s for s in statuses) and any("current" in s for s in statuses)
    assert fractions[-1] == 1.0 and fractions == sorted(fractions)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        compare_paths(pipe_csv, pipe_csv, progress=RecordingProgress(), cancel=token)
