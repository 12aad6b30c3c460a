"""Reports with a timeline: real trace_view sample and generated PROF / torch_npu folders.

Statistics computed from the timeline are checked against the summary CSVs written beside it,
and every expected value is computed from the raw files with the json / csv modules.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest
from profhelpers import (
    api_from_trace,
    complete_events,
    op_stats,
    paired_flows,
    process_names,
    read_rows,
    trace_events,
    us_to_ns,
    x_span_ns,
)

from workbench.cli import main
from workbench.core.profiling.build import open_report
from workbench.core.profiling.storage.saved import save_report

pytest.importorskip("workbench.core.profiling.timeline", reason="timeline reader not there yet")
profdata = pytest.importorskip("workbench.simtoolkit.profdata")


def cli_json(capsys, *argv):
    code = main(["report", *argv])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_trace_view_sample(capsys, samples):
    path = samples / "torch_npu-trace_view" / "trace_view.json"
    events = trace_events(path)
    names = process_names(events)
    info = cli_json(capsys, "info", str(path), "--json")
    assert info["kind"] == "timeline"
    assert info["event_count"] == len(complete_events(events))
    assert info["flow_count"] == paired_flows(events)
    assert abs(info["span_us"] * 1000 - x_span_ns(events)) <= 1
    hardware = [e for e in complete_events(events) if names[e["pid"]] == "Ascend Hardware"]
    assert info["op_count"] == len(hardware)
    assert all(isinstance(d, int) for d in info["devices"])
    expected = api_from_trace(events)
    rows = cli_json(capsys, "api", str(path), "--json")
    assert {(r["level"], r["name"]) for r in rows} == set(expected)
    for r in rows:
        count, total = expected[(r["level"], r["name"])]
        assert r["count"] == count
        assert math.isclose(r["total_us"], total, rel_tol=1e-6, abs_tol=1e-3 * count)
    ops = cli_json(capsys, "ops", str(path), "--json", "--by", "name")
    by_name: dict[str, list[float]] = {}
    for e in hardware:
        by_name.setdefault(e["name"], []).append(float(e["dur"]))
    assert {r["key"]: r["count"] for r in ops} == {k: len(v) for k, v in by_name.items()}


def _csv(folder: Path, pattern: str) -> Path:
    found = sorted(folder.rglob(pattern))
    assert found, pattern
    return found[0]


def check_against_summaries(
    capsys,
    root: Path,
    ops_csv: Path,
    api_csvs: list[tuple[Path, str | None, float]],
    timeline_json: Path,
    op_statistic_csv: Path | None,
) -> dict:
    """The engine's numbers equal the tool's CSVs and the timeline (all read independently)."""
    _, ops_rows = read_rows(ops_csv)
    events = trace_events(timeline_json)
    info = cli_json(capsys, "info", str(root), "--json")
    assert info["op_count"] == len(ops_rows)
    assert info["event_count"] == len(complete_events(events))
    assert info["flow_count"] == paired_flows(events)
    # OP statistics from the OPs table equal the tool's op_statistic file.
    if op_statistic_csv is not None:
        _, stat_rows = read_rows(op_statistic_csv)
        ours = {(r["key"], r["task_type"]): r for r in cli_json(capsys, "ops", str(root), "--json")}
        expected = op_stats(ops_rows, "type")
        assert {k: v["count"] for k, v in expected.items()} == {k: r["count"] for k, r in ours.items()}
        tool: dict[str, list[float]] = {}  # per OP type, summed over devices
        for row in stat_rows:
            acc = tool.setdefault(row["OP Type"], [0, 0.0, 0])
            acc[0] += int(row["Count"])
            acc[1] += float(row["Total Time(us)"])
            acc[2] += 1
        assert tool
        for op_type, (count, total, n_rows) in tool.items():
            mine = [r for (key, _), r in ours.items() if key == op_type]
            assert sum(r["count"] for r in mine) == count
            assert math.isclose(sum(r["total_us"] for r in mine), total, abs_tol=1e-3 * n_rows)
    # API statistics computed from the timeline equal the tool's API CSVs.
    report = open_report(root, use_cache=False)
    from workbench.core.profiling import stats

    from_timeline = {(r.level, r.name): r for r in stats.api_statistics_from_timeline(report.timeline).itertuples()}
    for path, level, scale in api_csvs:
        _, rows = read_rows(path)
        for row in rows:
            key = (row.get("Level", level), row.get("API Name", row.get("Name")))
            mine = from_timeline[key]
            count = int(row.get("Count", row.get("Calls")))
            total = float(row.get("Time(us)", row.get("Time(ns)"))) * scale
            assert mine.count == count, key
            assert math.isclose(mine.total_us, total, rel_tol=1e-6, abs_tol=2e-3), key
    # OP statistics from the timeline's device tasks equal those from the OPs CSV.
    from workbench.core.profiling.build import ops_from_timeline

    timeline_stats = stats.op_statistics(ops_from_timeline(report.timeline), "name")
    csv_stats = op_stats(ops_rows, "name")
    assert {(r.key, r.task_type): r.count for r in timeline_stats.itertuples()} == {
        k: v["count"] for k, v in csv_stats.items()
    }
    for r in timeline_stats.itertuples():
        assert math.isclose(r.total_us, csv_stats[(r.key, r.task_type)]["total_us"], rel_tol=1e-9, abs_tol=1e-6)
    # Device tasks in the timeline are the OPs rows: same names, same exact start times.
    names = process_names(events)
    hw = [e for e in complete_events(events) if names[e["pid"]] in ("Ascend Hardware", "Task Scheduler")]
    start_key = next(k for k in ("Task Start Time(us)", "Start Time(us)", "Task Start Time") if k in ops_rows[0])
    assert sorted(us_to_ns(e["ts"]) for e in hw) == sorted(us_to_ns(r[start_key]) for r in ops_rows)
    return info


def test_generated_cann8_prof_two_devices(capsys, tmp_path):
    prof = profdata.write_msprof_prof(tmp_path, profdata.resnet50_workload(), devices=[0, 1])
    out = prof / "mindstudio_profiler_output"
    info = check_against_summaries(
        capsys,
        prof,
        _csv(out, "op_summary_*.csv"),
        [(_csv(out, "api_statistic_*.csv"), None, 1.0)],
        _csv(out, "msprof_*.json"),
        _csv(out, "op_statistic_*.csv"),
    )
    assert info["kind"] == "msprof" and info["devices"] == [0, 1]


def test_generated_cann6_prof(capsys, tmp_path):
    prof = profdata.write_msprof_prof(tmp_path, profdata.resnet50_workload(), cann_version="6.0.1", soc="Ascend910")
    summary = prof / "device_0" / "summary"
    info = check_against_summaries(
        capsys,
        prof,
        _csv(summary, "op_summary_*.csv"),
        [(_csv(summary, "acl_statistic_*.csv"), "acl", 1.0), (_csv(summary, "runtime_api_*.csv"), "runtime", 1e-3)],
        _csv(prof / "device_0" / "timeline", "msprof_*.json"),
        _csv(summary, "op_statistic_*.csv"),
    )
    assert info["kind"] == "msprof-legacy" and info["devices"] == [0]


def test_generated_torch_npu(capsys, tmp_path):
    top = profdata.write_torch_npu(tmp_path, profdata.transformer_workload())
    out = top / "ASCEND_PROFILER_OUTPUT"
    info = check_against_summaries(
        capsys,
        top,
        out / "kernel_details.csv",
        [(out / "api_statistic.csv", None, 1.0)],
        out / "trace_view.json",
        out / "op_statistic.csv",
    )
    assert info["kind"] == "torch_npu"


def test_saved_and_cached_timeline_round_trip(tmp_path, samples):
    source = samples / "torch_npu-trace_view" / "trace_view.json"
    original = open_report(source, use_cache=False)
    reopened = open_report(save_report(original, tmp_path / "tv.wbreport"))
    cached_first = open_report(source, use_cache=True)
    cached = open_report(source, use_cache=True)
    assert "cache" in cached.info and "cache" not in cached_first.info
    meta, arrays = original.timeline.to_arrays()
    for other in (reopened, cached):
        other_meta, other_arrays = other.timeline.to_arrays()
        assert json.dumps(other_meta, sort_keys=True, default=str) == json.dumps(meta, sort_keys=True, default=str)
        assert set(other_arrays) == set(arrays)
        for name in arrays:
            assert np.array_equal(np.asarray(other_arrays[name]), np.asarray(arrays[name])), name
        assert other.timeline.event_count == original.timeline.event_count
        assert other.timeline.flow_count == original.timeline.flow_count
        assert list(other.tables) == list(original.tables)
        for name in original.tables:
            assert other.tables[name].equals(original.tables[name]), name


def test_merge_two_prof_folders(capsys, tmp_path):
    a = profdata.write_msprof_prof(tmp_path / "a", profdata.resnet50_workload(), devices=[0], seed=1)
    b = profdata.write_msprof_prof(tmp_path / "b", profdata.resnet50_workload(), devices=[3], seed=2)
    out = tmp_path / "merged.wbreport"
    merged = cli_json(capsys, "merge", str(a), str(b), "--out", str(out))
    assert merged["devices"] == [0, 3]
    _, rows_a = read_rows(_csv(a, "op_summary_*.csv"))
    _, rows_b = read_rows(_csv(b, "op_summary_*.csv"))
    info = cli_json(capsys, "info", str(out), "--json")
    assert info["kind"] == "workbench" and info["devices"] == [0, 3]
    assert info["op_count"] == len(rows_a) + len(rows_b)
    ev_a = len(complete_events(trace_events(_csv(a, "msprof_*.json"))))
    ev_b = len(complete_events(trace_events(_csv(b, "msprof_*.json"))))
    assert info["event_count"] == ev_a + ev_b
    ops = cli_json(capsys, "ops", str(out), "--json")
    expected = op_stats(rows_a + rows_b)
    assert {(r["key"], r["task_type"]): r["count"] for r in ops} == {k: v["count"] for k, v in expected.items()}


def test_truncated_timeline_loads_with_a_warning(capsys, tmp_path, samples):
    text = (samples / "torch_npu-trace_view" / "trace_view.json").read_text(encoding="utf-8")
    cut = tmp_path / "trace_view.json"
    cut.write_text(text[: len(text) * 2 // 3], encoding="utf-8")
    info = cli_json(capsys, "info", str(cut), "--json")
    assert info["warnings"] and info["event_count"] > 0


def test_folder_of_two_torch_ranks_is_one_cluster_report(capsys, tmp_path):
    tops = [
        profdata.write_torch_npu(
            tmp_path / "job", profdata.transformer_workload(), device=r, rank=r, hostname=f"node{r}", seed=r
        )
        for r in (0, 1)
    ]
    info = cli_json(capsys, "info", str(tmp_path / "job"), "--json")
    assert info["kind"] == "cluster" and info["devices"] == [0, 1]
    kernel_rows = [read_rows(t / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv")[1] for t in tops]
    traces = [trace_events(t / "ASCEND_PROFILER_OUTPUT" / "trace_view.json") for t in tops]
    assert info["op_count"] == sum(len(r) for r in kernel_rows)
    assert info["event_count"] == sum(len(complete_events(e)) for e in traces)
    assert info["flow_count"] == sum(paired_flows(e) for e in traces)
    starts = [us_to_ns(e["ts"]) for ev in traces for e in complete_events(ev)]
    ends = [us_to_ns(e["ts"]) + us_to_ns(repr(float(e["dur"]))) for ev in traces for e in complete_events(ev)]
    assert abs(info["span_us"] * 1000 - (max(ends) - min(starts))) <= 1
    report = open_report(tmp_path / "job", use_cache=False)
    assert sorted(report.ops["device"].unique().tolist()) == [0, 1]
    # args of slices from the second rank are still reachable after merging
    tl = report.timeline
    hw_lanes = [lane.index for lane in tl.lanes if lane.process_name == "Ascend Hardware" and lane.device == 1]
    assert hw_lanes
    i = int(np.flatnonzero(np.isin(np.asarray(tl.lane), hw_lanes))[0])
    assert "Task Id" in tl.args(i)


def test_big_flow_name_table_is_kept_in_arrays_and_round_trips(tmp_path, samples, monkeypatch):
    """A flow-name table longer than BIG_TABLE is written as blob + offsets (not a JSON list) in
    saved reports and caches, and reads back to the same names."""
    from workbench.core.profiling.timeline import model as tl_mod

    source = tmp_path / "trace_view.json"
    shutil.copyfile(samples / "torch_npu-trace_view" / "trace_view.json", source)
    original = open_report(source, use_cache=False)
    names = list(original.timeline.flows.name)
    assert len(set(names)) > 2
    monkeypatch.setattr(tl_mod, "BIG_TABLE", 2)
    meta, arrays = original.timeline.to_arrays()
    assert meta["flow_names"] is None and meta["version"] == 2
    blob, off = arrays["flow_name_blob"], arrays["flow_name_off"]
    assert [bytes(blob[a:b]).decode() for a, b in zip(off[:-1], off[1:])] == sorted(set(names), key=names.index)
    open_report(source, use_cache=True)  # writes the cache
    for other in (open_report(save_report(original, tmp_path / "tv.wbreport")), open_report(source, use_cache=True)):
        assert isinstance(other.timeline.flows.name.table, tl_mod.TextTable)
        assert list(other.timeline.flows.name) == names
        assert other.timeline.flows.name[len(names) - 1] == names[-1]
        again, again_arrays = other.timeline.to_arrays()  # a reopened big table is written back as is
        assert again["flow_names"] is None
        assert np.array_equal(again_arrays["flow_name_blob"], blob)
    # a version-1 meta (the table as a JSON list) is still read
    monkeypatch.setattr(tl_mod, "BIG_TABLE", 10**9)
    meta1, arrays1 = original.timeline.to_arrays()
    meta1["version"] = 1
    assert list(tl_mod.Timeline.from_arrays(meta1, arrays1).flows.name) == names


@pytest.mark.parametrize(
    "texts",
    [["HostToDevice1", "", "x" * 300, "HostToDevice2"], ["a", "中文", "", "é\n"], []],
    ids=["ascii", "utf8", "empty"],
)
def test_text_table_holds_any_names(texts):
    from workbench.core.profiling.timeline import TextTable

    table = TextTable.of(texts)
    assert len(table) == len(texts) and list(table) == texts and table[:] == texts
    if texts:
        assert table[-1] == texts[-1]
    with pytest.raises(IndexError):
        table[len(texts)]
