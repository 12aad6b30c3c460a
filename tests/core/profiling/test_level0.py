"""torch_npu Level0: kernel_details writes ``Type`` / ``Accelerator Core`` = N/A; the report fills
them from trace_view.json of the same run (Task Type / OP Type args of the Ascend Hardware slices,
matched by stream, task id and start) and says so. Expected values come from a plain csv/json read
of the generated files and from the generator's schedule, never from our reader."""

from __future__ import annotations

import csv
import json
from collections import Counter
from decimal import Decimal

import pytest

from workbench.core.profiling import views
from workbench.core.profiling.build import open_report
from workbench.core.profiling.cli import info_dict
from workbench.simtoolkit.profdata import chips, resnet50_workload, simulate, write_torch_npu


def _ns(text: str) -> int:
    return int(Decimal(text.strip()) * 1000)


def _output(root):
    return next(root.glob("*_ascend_pt")) / "ASCEND_PROFILER_OUTPUT"


def _kernels(out) -> list[dict]:
    with open(out / "kernel_details.csv", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _hardware(out) -> dict[tuple[int, int, int], dict]:
    """(stream, task id, start ns) -> args of every Ascend Hardware slice, by a plain json read."""
    events = json.loads((out / "trace_view.json").read_text(encoding="utf-8"))
    hw = {
        e["pid"]
        for e in events
        if e.get("ph") == "M" and e["name"] == "process_name" and e["args"]["name"] == "Ascend Hardware"
    }
    return {
        (int(e["tid"]), int(e["args"]["Task Id"]), _ns(e["ts"])): e["args"]
        for e in events
        if e.get("ph") == "X" and e["pid"] in hw
    }


@pytest.fixture()
def level0(tmp_path):
    write_torch_npu(tmp_path, resnet50_workload(), profiler_level="Level0")
    return _output(tmp_path)


def _expected(out) -> list[tuple[str | None, str | None]]:
    """(task type, OP type) of every kernel_details row: the file's own, else its timeline partner's."""
    hw = _hardware(out)
    got = []
    for row in _kernels(out):
        partner = hw.get((int(row["Stream ID"]), int(row["Task ID"]), _ns(row["Start Time(us)"])), {})
        core = row["Accelerator Core"] if row["Accelerator Core"] != "N/A" else partner.get("Task Type")
        kind = row["Type"] if row["Type"] != "N/A" else partner.get("OP Type")
        got.append((core, kind))
    return got


def test_level0_kernel_types_come_from_the_timeline_exactly(level0):
    rows = _kernels(level0)
    assert sum(r["Accelerator Core"] == "N/A" for r in rows) == len(rows)  # the Level0 file says nothing
    report = open_report(level0.parent, use_cache=False)
    ops = report.ops
    got = list(zip(ops["task_type"].astype(object), ops["type"].astype(object)))
    assert got == _expected(level0)
    # and against the generator's schedule: every kernel's task and OP type
    run = simulate(resnet50_workload(), chips.chip("Ascend910B2"), style="torch", devices=[0], iterations=2, seed=0)
    assert got == [(t.task_type, t.op.type) for t in run.tasks[0]]


def test_the_report_says_which_columns_were_derived_from_which_file(level0):
    report = open_report(level0.parent, use_cache=False)
    n = len(_kernels(level0))
    line = (
        f"kernel_details.csv: Accelerator Core and Type derived from trace_view.json (Ascend Hardware slices "
        f"matched by stream, task id and start) for {n} of {n} rows; 0 rows have no timeline partner and stay N/A"
    )
    assert line in report.warnings
    assert line in info_dict(report)["warnings"]  # `report info`
    assert line in [v for _, v in dict(views.summary_sections(report))["Warnings"]]  # the report summary
    assert report.info["derived"] == [
        {
            "table": "ops",
            "file": "kernel_details.csv",
            "columns": ["task_type", "type"],
            "from": "trace_view.json",
            "rows": n,
            "of": n,
            "unmatched": 0,
        }
    ]


def test_kernels_without_a_timeline_partner_stay_na_and_are_counted(level0):
    path = level0 / "trace_view.json"
    events = json.loads(path.read_text(encoding="utf-8"))
    hw_pids = {e["pid"] for e in events if e.get("ph") == "M" and e["args"].get("name") == "Ascend Hardware"}
    hw_at = [i for i, e in enumerate(events) if e.get("ph") == "X" and e["pid"] in hw_pids]
    dropped = {hw_at[3], hw_at[10], hw_at[-1]}
    path.write_text(json.dumps([e for i, e in enumerate(events) if i not in dropped]), encoding="utf-8")
    report = open_report(level0.parent, use_cache=False)
    expected = _expected(level0)
    assert sum(core is None for core, _ in expected) == 3
    got = [(None if c != c else c, None if k != k else k) for c, k in zip(report.ops["task_type"], report.ops["type"])]
    assert got == expected
    n = len(expected)
    assert any(
        w.endswith(f"for {n - 3} of {n} rows; 3 rows have no timeline partner and stay N/A") for w in report.warnings
    )
    assert report.info["derived"][0]["unmatched"] == 3


def test_op_statistic_is_computed_from_the_derived_types(level0):
    report = open_report(level0.parent, use_cache=False)
    assert report.table_sources["op_statistic"] == "computed"
    stat = report.op_statistic
    want = Counter((r[1], r[0]) for r in _expected(level0))
    assert {(k, t): int(c) for k, t, c in zip(stat["key"], stat["task_type"], stat["count"])} == dict(want)
    assert "op_statistic: the file groups by the types that were N/A; computed from the OPs table instead" in (
        report.warnings
    )


def test_a_level1_run_derives_nothing(tmp_path):
    write_torch_npu(tmp_path, resnet50_workload())
    report = open_report(next(tmp_path.glob("*_ascend_pt")), use_cache=False)
    assert "derived" not in report.info and report.table_sources["op_statistic"] == "file"
    assert not [w for w in report.warnings if "derived" in w]
