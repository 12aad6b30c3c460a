"""When each step ran (for the timeline's step markers), from every source the tools write: the
real torch_npu trace's ProfilerStep#N slice, msprof step_trace, torch_npu OPs Step Id — checked
against the raw files, read here independently of the engine."""

from __future__ import annotations

import csv
import json
from decimal import Decimal

import pandas as pd

from workbench.core.profiling.build import open_report
from workbench.core.profiling.report import Report
from workbench.core.profiling.steps import StepSpan, report_steps, step_spans
from workbench.simtoolkit.profdata import resnet50_workload, transformer_workload, write_msprof_prof, write_torch_npu


def _us_to_ns(text) -> int:
    return int(Decimal(str(text)) * 1000)


def test_profiler_step_slice_of_the_real_trace(samples):
    path = samples / "torch_npu-trace_view" / "trace_view.json"
    raw = [e for e in json.loads(path.read_text()) if str(e.get("name", "")).startswith("ProfilerStep#")]
    assert len(raw) == 1
    start = _us_to_ns(raw[0]["ts"])
    steps = report_steps(open_report(path, use_cache=False))
    assert steps.ids == (1,) and steps.spans_source == "timeline (ProfilerStep#N)"
    assert steps.spans == (StepSpan(1, start, start + _us_to_ns(raw[0]["dur"])),)


def test_msprof_step_trace_iterations_end_to_end(tmp_path):
    """An iteration ends at Iteration End and lasts Iteration Time (it starts where the previous
    one ended); a step on two devices spans both; ``devices`` picks one."""
    prof = write_msprof_prof(tmp_path, resnet50_workload(kind="model"), devices=[0, 1], iterations=3)
    (table,) = prof.glob("mindstudio_profiler_output/step_trace_*.csv")
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    expected: dict[int, dict[int, tuple[int, int]]] = {}
    for r in rows:
        end = _us_to_ns(r["Iteration End(us)"])
        expected.setdefault(int(r["Device_id"]), {})[int(r["Iteration ID"])] = (
            end - _us_to_ns(r["Iteration Time(us)"]),
            end,
        )
    report = open_report(prof, use_cache=False)
    steps = report_steps(report)
    assert steps.ids == (1, 2, 3) and steps.spans_source.startswith("step_trace")
    for span in steps.spans:
        per_device = [expected[d][span.id] for d in (0, 1)]
        assert span.start_ns == min(s for s, _ in per_device) and span.end_ns == max(e for _, e in per_device)
    only0 = report_steps(report, devices=[0])
    assert [(s.start_ns, s.end_ns) for s in only0.spans] == [expected[0][i] for i in (1, 2, 3)]
    # the iterations follow one another on a device: each starts where the previous ended
    assert all(a.end_ns == b.start_ns for a, b in zip(only0.spans, only0.spans[1:]))


def test_torch_npu_steps_from_profiler_step_slices_and_ops(tmp_path):
    out = write_torch_npu(tmp_path, transformer_workload(), steps=3)
    report = open_report(out, use_cache=False)
    steps = report_steps(report)
    assert steps.ids == (1, 2, 3) and steps.source == "OPs table (Step Id)"
    # the spans come from the ProfilerStep#N slices of trace_view.json (read here from the file)
    (trace,) = out.glob("ASCEND_PROFILER_OUTPUT/trace_view.json")
    raw = [e for e in json.loads(trace.read_text()) if str(e.get("name", "")).startswith("ProfilerStep#")]
    want = sorted(
        (int(e["name"].split("#")[1]), _us_to_ns(e["ts"]), _us_to_ns(e["ts"]) + _us_to_ns(e["dur"])) for e in raw
    )
    assert [(s.id, s.start_ns, s.end_ns) for s in steps.spans] == want
    assert steps.spans_source == "timeline (ProfilerStep#N)"
    # without a timeline the OPs table tells: first task start to the last task's end per step
    ops = report.ops
    no_timeline = Report(report.source, report.kind, tables={"ops": ops})
    spans, source = step_spans(no_timeline)
    assert source.startswith("OPs table")
    for span in spans:
        part = ops[ops["step"] == span.id]
        ends = part["start_ns"].astype("int64") + (part["duration_us"] * 1000).round().astype("int64")
        assert span.start_ns == int(part["start_ns"].min()) and span.end_ns == int(ends.max())
    # every step ran inside its ProfilerStep slice
    for from_ops, from_slices in zip(spans, steps.spans):
        assert from_slices.start_ns <= from_ops.start_ns and from_ops.end_ns <= from_slices.end_ns


def test_no_times_no_spans():
    table = pd.DataFrame({"Device_id": [0, 0], "Step": [1, 2], "Computing": [10.0, 11.0]})
    steps = report_steps(Report("m", "torch_npu", tables={"step_trace_time": table}))
    assert steps.ids == (1, 2) and steps.spans == () and steps.spans_source == ""
