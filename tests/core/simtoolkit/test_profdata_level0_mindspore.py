"""The generator's torch_npu Level0 run and MindSpore-style CANN 5/6 PROF folder: the real layout,
deterministic, and their contents against the generator's schedule (plain csv/json reads)."""

from __future__ import annotations

import csv
import filecmp
import json
import re

import pytest

from workbench.simtoolkit.profdata import resnet50_workload, simulate_mindspore, write_mindspore_prof, write_torch_npu
from workbench.simtoolkit.profdata.mindspore import step_markers


def _tree(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_level0_layout_and_values(tmp_path):
    root = write_torch_npu(tmp_path, resnet50_workload(), profiler_level="Level0")
    info = json.loads((root / "profiler_info.json").read_text(encoding="utf-8"))
    assert info["config"]["experimental_config"] == {"_aic_metrics": "ACL_AICORE_NONE", "_profiler_level": "Level0"}
    out = root / "ASCEND_PROFILER_OUTPUT"
    with open(out / "kernel_details.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and all(r["Type"] == "N/A" and r["Accelerator Core"] == "N/A" for r in rows)
    assert not [c for c in rows[0] if c.startswith(("aic_", "aiv_", "aicore_time"))]  # no PMU at Level0
    events = json.loads((out / "trace_view.json").read_text(encoding="utf-8"))
    hw = {e["pid"] for e in events if e.get("ph") == "M" and e["args"].get("name") == "Ascend Hardware"}
    tasks = [e for e in events if e.get("ph") == "X" and e["pid"] in hw]
    assert len(tasks) == len(rows) and all({"Task Type", "OP Type", "Task Id"} <= set(e["args"]) for e in tasks)
    with open(out / "op_statistic.csv", encoding="utf-8", newline="") as fh:
        stat = list(csv.DictReader(fh))
    assert [(r["OP Type"], r["Core Type"], int(r["Count"])) for r in stat] == [("N/A", "N/A", len(rows))]


def test_unknown_level_is_refused(tmp_path):
    with pytest.raises(ValueError, match="profiler_level"):
        write_torch_npu(tmp_path, resnet50_workload(), profiler_level="Level9")


def test_mindspore_prof_layout(tmp_path):
    prof = write_mindspore_prof(tmp_path, resnet50_workload(), iterations_count=2)
    dev = prof / "device_0"
    assert not (dev / "summary").exists()
    assert {p.name for p in dev.iterdir() if p.is_file()} == {
        "info.json.0",
        "start_info.0",
        "end_info.0",
        "sample.json",
    }
    assert sorted(p.name for p in (dev / "timeline").iterdir()) == [
        "msprof_0_1_1.json",
        "msprof_0_1_2.json",
        "step_trace_0_1_1.json",
        "step_trace_0_1_2.json",
    ]
    assert json.loads((dev / "end_info.0").read_text(encoding="utf-8"))["rankId"] == "0"
    run = simulate_mindspore(resnet50_workload(), iterations_count=2)
    for it in (1, 2):
        events = json.loads((dev / "timeline" / f"msprof_0_1_{it}.json").read_text(encoding="utf-8"))
        tasks = [e for e in events if e.get("ph") == "X" and "Task Type" in e.get("args", {})]
        assert len(tasks) == len([t for t in run.tasks[0] if t.step == it])
        assert all(re.search(r"^Default/.*/[A-Za-z0-9_]+-op\d+$", e["name"]) for e in tasks)
        step = json.loads((dev / "timeline" / f"step_trace_0_1_{it}.json").read_text(encoding="utf-8"))
        names = [e["name"] for e in step if e.get("ph") == "X"]
        assert sorted(names) == sorted(m.name for m in step_markers(run, 0) if m.iteration == it)
        assert [e["ph"] for e in step if e.get("cat") == "Data_aug Bound"] == ["s", "t"]
        phases = [e["ph"] for e in events if e.get("cat") == "async_acl_npu"]
        assert phases.count("s") == phases.count("t") == phases.count("f") == len(tasks)


def test_mindspore_prof_is_deterministic(tmp_path):
    a = write_mindspore_prof(tmp_path / "a", resnet50_workload(), iterations_count=2)
    b = write_mindspore_prof(tmp_path / "b", resnet50_workload(), iterations_count=2)
    assert _tree(a) == _tree(b)
    files = [p for p in _tree(a) if (a / p).is_file()]
    assert filecmp.cmpfiles(a, b, files, shallow=False)[0] == files


def test_a_modern_cann_version_is_refused(tmp_path):
    with pytest.raises(ValueError, match="CANN 5/6"):
        write_mindspore_prof(tmp_path, resnet50_workload(), cann_version="8.0.RC1")
