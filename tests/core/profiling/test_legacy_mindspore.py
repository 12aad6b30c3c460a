"""MindSpore / CANN 5/6 PROF folders with only per-iteration timelines (no summary/): step-trace
markers are steps, not OPs; s/t/f flow chains pair; OP types come from the args or the MindSpore
name, never the full name; device info.json.N is read. Expected values: a plain json read of the
generated files and the generator's own schedule."""

from __future__ import annotations

import json
import re
from collections import Counter
from decimal import Decimal

import pytest

from workbench.core.compare import facts
from workbench.core.profiling import views
from workbench.core.profiling.build import open_report
from workbench.core.profiling.steps import report_steps
from workbench.simtoolkit.profdata import resnet50_workload, simulate_mindspore, write_mindspore_prof

ITERATIONS = 3


def _ns(text) -> int:
    return int(Decimal(str(text)) * 1000)


@pytest.fixture(scope="module")
def prof(tmp_path_factory):
    return write_mindspore_prof(tmp_path_factory.mktemp("ms"), resnet50_workload(), iterations_count=ITERATIONS)


def _events(prof) -> list[dict]:
    out = []
    for path in sorted((prof / "device_0" / "timeline").glob("msprof_*.json")):
        out += json.loads(path.read_text(encoding="utf-8"))
    return out


def _threads(events) -> dict[tuple, str]:
    return {
        (e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "thread_name"
    }


def test_ops_are_the_stream_tasks_only(prof):
    events = _events(prof)
    threads = _threads(events)
    tasks = [e for e in events if e.get("ph") == "X" and threads.get((e["pid"], e["tid"]), "").startswith("Stream ")]
    markers = [e for e in events if e.get("ph") == "X" and threads.get((e["pid"], e["tid"])) == "Model ID:1"]
    assert markers and tasks
    report = open_report(prof, use_cache=False)
    assert report.kind == "msprof-legacy" and report.table_sources["ops"] == "timeline"
    assert len(report.ops) == len(tasks)
    assert not set(report.ops["name"].astype(str)) & {m["name"] for m in markers}
    assert Counter(report.ops["task_type"].astype(str)) == Counter(e["args"]["Task Type"] for e in tasks)
    # the generator's ground truth too
    run = simulate_mindspore(resnet50_workload(), iterations_count=ITERATIONS)
    assert len(report.ops) == len(run.tasks[0])
    assert Counter(report.ops["task_type"].astype(str)) == Counter(t.task_type for t in run.tasks[0])


def test_op_types_come_from_the_mindspore_name_not_the_full_name(prof):
    report = open_report(prof, use_cache=False)
    run = simulate_mindspore(resnet50_workload(), iterations_count=ITERATIONS)
    assert Counter(report.ops["type"].astype(str)) == Counter(t.op.type for t in run.tasks[0])
    stat = report.op_statistic
    assert dict(zip(stat["key"], stat["count"].astype(int))) == dict(Counter(t.op.type for t in run.tasks[0]))
    assert any("their type is read from the op name (MindSpore Type-opN)" in w for w in report.warnings)


def test_step_markers_feed_the_steps(prof):
    events = _events(prof)
    iters = sorted(
        (int(m.group(1)), _ns(e["ts"]), _ns(e["ts"]) + _ns(e["dur"]))
        for e in events
        if e.get("ph") == "X" and (m := re.fullmatch(r"Iteration (\d+)", e["name"]))
    )
    assert [i for i, _, _ in iters] == list(range(1, ITERATIONS + 1))
    steps = report_steps(open_report(prof, use_cache=False))
    assert steps is not None and steps.ids == tuple(range(1, ITERATIONS + 1))
    assert steps.source == "timeline step markers (Iteration N)"
    assert [(s.id, s.start_ns, s.end_ns) for s in steps.spans] == iters


def test_markers_stay_on_the_timeline(prof):
    report = open_report(prof, use_cache=False)
    tl = report.timeline
    lane = next(ln for ln in tl.lanes if ln.thread_name == "Model ID:1")
    names = {tl.names[int(i)] for i, ln in zip(tl.name_id, tl.lane) if int(ln) == lane.index}
    want = {f"{k} {n}" for k in ("Iteration", "FP_BP Time", "Iteration Refresh") for n in range(1, ITERATIONS + 1)}
    assert want | {f"Reduce_{n}_0" for n in range(1, ITERATIONS + 1)} == names


def test_s_t_f_chains_and_open_steps_pair(prof):
    events = _events(prof)
    flows: dict[tuple, list[str]] = {}
    for e in events:
        if e.get("ph") in ("s", "t", "f"):
            flows.setdefault((e["cat"], str(e["id"])), []).append(e["ph"])
    assert {tuple(v) for v in flows.values()} == {("s", "t", "f"), ("s", "t")}
    hops = sum(len(v) - 1 for v in flows.values())
    report = open_report(prof, use_cache=False)
    assert report.flow_count == hops
    assert not [w for w in report.warnings if "without a partner" in w]


def test_the_device_info_of_a_legacy_folder_is_read(prof):
    info_file = prof / "device_0" / "info.json.0"
    report = open_report(prof, use_cache=False)
    assert report.info["device_0/info.json.0"] == json.loads(info_file.read_text(encoding="utf-8"))
    assert facts.chip_of(report) is not None and "910" in facts.chip_of(report)
    device = dict(views.summary_sections(report))["Device"]
    assert device[0][0] == "Device 0" and "chip=910" in device[0][1] and "AI Cores=32" in device[0][1]


def test_marker_names_on_a_stream_without_task_type_are_markers_and_said(tmp_path):
    """A variant: step markers written on a device stream (no Model ID thread) are not OPs either."""
    events = [
        {"ph": "M", "name": "process_name", "pid": 2, "tid": 0, "args": {"name": "Task Scheduler"}},
        {"ph": "M", "name": "thread_name", "pid": 2, "tid": 5, "args": {"name": "Stream 5"}},
        {"ph": "X", "name": "Conv2D-op1", "pid": 2, "tid": 5, "ts": "10", "dur": 2, "args": {"Task Type": "AI_CORE"}},
        {"ph": "X", "name": "Iteration 1", "pid": 2, "tid": 5, "ts": "5", "dur": 20, "args": {"Iteration ID": 1}},
        {"ph": "X", "name": "Reduce_1_0", "pid": 2, "tid": 5, "ts": "15", "dur": 2, "args": {}},
    ]
    path = tmp_path / "msprof_0_1_1.json"
    path.write_text(json.dumps(events), encoding="utf-8")
    report = open_report(path, use_cache=False)
    assert list(report.ops["name"].astype(str)) == ["Conv2D-op1"]
    assert list(report.ops["type"].astype(str)) == ["Conv2D"]
    assert (
        "msprof_0_1_1.json: 2 slices on a device stream named like step markers (Iteration 1, Reduce_1_0) have no "
        "Task Type; kept as step markers, not OPs"
    ) in report.warnings


def test_a_device_folder_without_summary_opens_as_that_device(prof):
    """Opening ``PROF_*/device_0`` of a timeline-only folder: the legacy unit with its device info
    (it was read as a loose timeline, with no device info, before)."""
    report = open_report(prof / "device_0", use_cache=False)
    assert report.kind == "msprof-legacy" and report.devices == [0]
    assert "device_0/info.json.0" in report.info
