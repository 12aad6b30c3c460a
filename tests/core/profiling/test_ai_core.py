"""AI Core PMU metrics: group detection per chip and metric group, memory_bound when missing."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from profhelpers import first, kd_path, read_rows, write_csv

from workbench.core.profiling.build import open_report


def _f(value: str) -> float:
    return math.nan if value in ("", "N/A") else float(value)


def expected_memory_bound(row: dict[str, str]) -> float:
    mte2 = [_f(v) for k, v in row.items() if k.endswith("mte2_ratio")]
    compute = [_f(v) for k, v in row.items() if k.endswith(("mac_ratio", "vec_ratio"))]
    mte2 = [v for v in mte2 if not math.isnan(v)]
    compute = [v for v in compute if not math.isnan(v)]
    if not mte2 or not compute or max(compute) <= 0:
        return math.nan
    return max(mte2) / max(compute)


AI_CORE = {"AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV"}  # docs/cann-formats.md §2.1 Task Type


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12)


@pytest.mark.parametrize("which,group", [("arith", "ArithmeticUtilization"), ("pipe", "PipeUtilization")])
def test_real_samples_group_and_memory_bound(samples, which, group):
    path = kd_path(samples, which)
    header, rows = read_rows(path)
    report = open_report(path)
    assert report.pmu_group == group and report.pmu_split  # aic_/aiv_ columns: 910B-class
    metrics = report.ai_core_metrics
    rows = [r for r in rows if first(r, "Task Type", "Accelerator Core") in AI_CORE]  # the rest have no PMU data
    assert len(metrics) == len(rows)
    pmu_headers = header[header.index("Context ID") + 1 :]
    assert [c for c in metrics.columns if c in pmu_headers] == pmu_headers
    if group == "PipeUtilization":
        assert "memory_bound" not in header
        for value, row in zip(metrics["memory_bound"], rows):
            assert same(float(value), expected_memory_bound(row)), row["Name"]
    else:
        assert "memory_bound" not in metrics.columns


def test_arithmetic_utilization_lists_ai_core_tasks_and_explains_only_its_metrics(samples):
    """The real ArithmeticUtilization kernel_details: HCCL / AI_CPU / DSA rows (all N/A) are not
    AI Core Metrics rows, the description says so (counted from the file) and explains no
    memory_bound, which that group does not have."""
    from workbench.core.profiling import views

    path = kd_path(samples, "arith")
    _header, rows = read_rows(path)
    report = open_report(path, use_cache=False)
    frame, parts, mask = views.ai_core_view(report)
    kept = [r for r in rows if r["Accelerator Core"] in AI_CORE]
    others: dict[str, int] = {}
    for r in rows:
        if r["Accelerator Core"] not in AI_CORE:
            others[r["Accelerator Core"]] = others.get(r["Accelerator Core"], 0) + 1
    assert {"HCCL", "AI_CPU"} <= set(others)
    assert len(frame) == len(kept) and set(frame["task_type"].astype(str)) <= AI_CORE
    assert frame["name"].tolist() == [r["Name"] for r in kept]
    assert mask is None and "memory_bound" not in frame.columns
    text = views.ai_core_header(report)
    assert "emory" not in text.replace("memory traffic", ""), text  # no Memory Bound explained
    assert "ArithmeticUtilization" in text and "FLOP" in text
    assert f"{sum(others.values())} tasks of other types" in text
    assert all(t in text for t in others)
    templates = set(views.AICORE_TEXT.values()) | {t for pair in views.PMU_GROUPS.values() for t in pair}
    assert all(template in templates for template, _args in parts)


def test_pipe_utilization_explains_memory_bound(samples):
    from workbench.core.profiling import views

    report = open_report(kd_path(samples, "pipe"), use_cache=False)
    frame, _parts, mask = views.ai_core_view(report)
    assert "memory_bound" in frame.columns and mask is not None
    assert "Memory Bound > 1" in views.ai_core_header(report)


def test_unprefixed_columns_and_file_memory_bound_is_kept(tmp_path):
    header = [
        "Op Name",
        "OP Type",
        "Task Type",
        "Task Start Time(us)",
        "Task Duration(us)",
        "aicore_time(us)",
        "total_cycles",
        "vec_ratio",
        "mac_ratio",
        "scalar_ratio",
        "mte1_ratio",
        "mte2_ratio",
        "mte3_ratio",
    ]
    rows = [
        ["a", "Add", "AI_CORE", "1.0", "2.0", "1.5", "100", "0.2", "0.1", "0.1", "0.1", "0.5", "0.1"],
        ["b", "Mul", "AI_CORE", "3.0", "2.0", "1.5", "100", "0", "0", "0.1", "0.1", "0.5", "0.1"],
        ["c", "Mul", "AI_CORE", "5.0", "2.0", "N/A", "N/A", "N/A", "N/A", "N/A", "N/A", "N/A", "N/A"],
    ]
    path = write_csv(tmp_path / "op_summary_0_1_1.csv", header, rows)
    report = open_report(path)
    assert (report.pmu_group, report.pmu_split) == ("PipeUtilization", False)
    mb = report.ai_core_metrics["memory_bound"].tolist()
    assert mb[0] == 0.5 / 0.2 and math.isnan(mb[1]) and math.isnan(mb[2])  # 0 or N/A denominators: missing
    with_file = write_csv(
        tmp_path / "op_summary_0_1_2.csv", header + ["memory_bound"], [r + [v] for r, v in zip(rows, ["7", "8", "N/A"])]
    )
    kept = open_report(with_file).ai_core_metrics["memory_bound"].tolist()
    assert kept[:2] == [7.0, 8.0] and math.isnan(kept[2])


def test_no_pmu_columns_means_no_metrics_table(tmp_path):
    path = write_csv(
        tmp_path / "op_summary_1.csv",
        ["Op Name", "OP Type", "Task Type", "Task Start Time(us)", "Task Duration(us)"],
        [["a", "Add", "AI_CORE", "1", "2"]],
    )
    report = open_report(path)
    assert report.pmu_group is None and "ai_core_metrics" not in report.tables


profdata = pytest.importorskip("workbench.simtoolkit.profdata")
CASES = [
    (soc, group)
    for soc in ("Ascend910B2", "Ascend910", "Ascend310P3")
    for group in profdata.AIC_METRICS
    if soc == "Ascend910B2" or group not in ("L2Cache", "MemoryAccess")
]


@pytest.mark.parametrize("soc,group", CASES)
def test_generated_groups_are_detected(tmp_path, soc, group):
    prof = profdata.write_msprof_prof(tmp_path, profdata.resnet50_workload(), soc=soc, aic_metrics=group, iterations=1)
    op_summary = sorted(prof.rglob("op_summary_*.csv"))[0]
    header, rows = read_rows(op_summary)
    report = open_report(op_summary)
    assert report.pmu_group == group
    assert report.pmu_split == any(h.startswith(("aic_", "aiv_")) for h in header)
    if group == "PipeUtilization" and "memory_bound" not in header:
        for value, row in zip(report.ai_core_metrics["memory_bound"], rows):
            assert same(float(value), expected_memory_bound(row))


def test_the_ai_core_rows_are_the_same_for_categorical_and_plain_task_types():
    from workbench.core.profiling import stats

    task_types = [" ai_core ", "AI_CPU", None, "MIX_AIV", "HCCL", "AI_VECTOR_CORE", "ai_core "]
    ops = pd.DataFrame(
        {
            "name": [f"op{i}" for i in range(len(task_types))],
            "task_type": pd.Categorical(task_types),
            "duration_us": np.arange(len(task_types), dtype=np.float64),
            "aic_mac_ratio": [0.5, np.nan, np.nan, 0.25, np.nan, 0.125, 0.75],
            "aic_mte2_ratio": [0.25, np.nan, np.nan, 0.5, np.nan, 0.25, 0.5],
        }
    )
    plain = ops.assign(task_type=ops["task_type"].astype(object))
    expected = [True, False, False, True, False, True, True]
    assert stats.ai_core_mask(ops).tolist() == expected
    assert stats.ai_core_mask(plain).tolist() == expected
    metrics, group, _ = stats.ai_core_metrics(ops)
    assert metrics["name"].tolist() == ["op0", "op3", "op5", "op6"]
    assert metrics["aic_mac_ratio"].tolist() == [0.5, 0.25, 0.125, 0.75]
    assert list(metrics.index) == [0, 1, 2, 3]
    metrics.loc[0, "aic_mac_ratio"] = 9.0  # a copy: the OPs table is untouched
    assert ops.loc[0, "aic_mac_ratio"] == 0.5
