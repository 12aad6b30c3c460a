"""Memory and communication comparison (issue 19) on the real torch_npu 910B sample against changed
copies of it, checked against independent readings of the files (csv / json + Decimal): the
engine's rows, the xlsx sheets read back with openpyxl, and the `compare` verb's JSON and gate."""

from __future__ import annotations

import json
import math

import openpyxl
import pytest
from memcomm import (
    cli,
    communication,
    drop_rows,
    make_report,
    memory_peaks,
    operator_memory,
    output,
    pct,
    rename_rows,
    scale_column,
    scale_elapse,
    sheet_rows,
)

from workbench.core.compare import compare_paths, compare_reports, write_xlsx
from workbench.core.compare.commdiff import comm_type
from workbench.core.compare.model import records
from workbench.core.profiling.build import open_report
from workbench.core.tasks import run_inline

US = 1e-3  # µs: the elapse (ms, float) is summed to the ns, as every OP duration is


def compare(base, current, **kw):
    return run_inline(compare_paths, base, current, **kw)


@pytest.fixture
def base(samples, tmp_path):
    return make_report(samples, tmp_path / "base")


@pytest.fixture
def changed(samples, tmp_path):
    """The sample with aten::mm allocations twice as big, aten::topk gone, aten::ones renamed,
    PTA's allocated memory 25 % higher, and the first allReduce 1.5 times as long."""
    cur = make_report(samples, tmp_path / "cur")
    out = output(cur)
    scale_column(out / "operator_memory.csv", "Size(KB)", lambda r: r["Name"] == "aten::mm", "2")
    drop_rows(out / "operator_memory.csv", lambda r: r["Name"] == "aten::topk")
    rename_rows(out / "operator_memory.csv", "aten::ones", "aten::brand_new_alloc")
    scale_column(out / "memory_record.csv", "Total Allocated(MB)", lambda r: r["Component"] == "PTA", "1.25")
    scale_elapse(out / "communication.json", lambda n: n.startswith("hcom_allReduce__586_0_1@"), 1.5)
    return cur


def test_comm_type_groups_as_msprof_analyze():
    assert comm_type("hcom_allReduce__586_0_1@17522688603477080586") == "allreduce"
    assert comm_type("hcom_broadcast__1_2_3") == "broadcast"
    assert comm_type("hcom_reduceScatter__7_0") == "reducescatter"
    assert comm_type("allGather_12_0@group") == "allgather"
    assert comm_type("send") == "send"


def test_self_comparison_of_the_sample_is_all_same(base):
    c = compare(base, base)
    assert c.warnings == []
    for frame, diff in ((c.memory_peaks, "diff"), (c.memory_ops, "diff_size_kb"), (c.communication, "diff_us")):
        assert len(frame) and set(frame["status"]) == {"same"}
        assert (frame[diff] == 0).all() and (frame["diff_pct"] == 0).all() and (frame["diff_ratio"] == 1).all()
    assert (c.memory_ops["diff_duration_us"] == 0).all()
    assert c.regressions(0) == []


def test_memory_rows_against_the_files(base, changed):
    c = compare(base, changed)
    b_ops, c_ops = (
        operator_memory(output(base) / "operator_memory.csv"),
        operator_memory(output(changed) / "operator_memory.csv"),
    )
    rows = c.memory_ops.set_index("name")
    assert set(rows.index) == set(b_ops) | set(c_ops)
    for name in rows.index:
        b, a = b_ops.get(name), c_ops.get(name)
        row = rows.loc[name]
        assert row["base_count"] == (b["count"] if b else 0) and row["current_count"] == (a["count"] if a else 0)
        if b:
            assert row["base_size_kb"] == float(b["size"]) and row["base_duration_us"] == float(b["duration"])
        if a:
            assert row["current_size_kb"] == float(a["size"])
        if a and b:
            assert row["diff_size_kb"] == float(a["size"] - b["size"])
            assert row["diff_duration_us"] == float(a["duration"] - b["duration"])
            assert row["diff_pct"] == pytest.approx(pct(b["size"], a["size"]), abs=0.006)
    assert rows.loc["aten::mm", "status"] == "higher" and rows.loc["aten::mm", "diff_ratio"] == 2.0
    assert rows.loc["aten::topk", "status"] == "removed" and rows.loc["aten::topk", "current_count"] == 0
    assert rows.loc["aten::ones", "status"] == "removed"
    assert rows.loc["aten::brand_new_alloc", "status"] == "added"
    assert math.isnan(rows.loc["aten::brand_new_alloc", "diff_ratio"])  # no baseline: n/a
    others = rows.drop(index=["aten::mm", "aten::topk", "aten::ones", "aten::brand_new_alloc"])
    assert set(others["status"]) == {"same"} and (others["diff_size_kb"] == 0).all()
    # regressions first (as the OP rows: added, then higher), the removed ones last
    assert list(c.memory_ops["name"].iloc[:2]) == ["aten::brand_new_alloc", "aten::mm"]
    assert set(c.memory_ops["status"].iloc[-2:]) == {"removed"}
    # peaks per component
    b_pk, c_pk = memory_peaks(output(base) / "memory_record.csv"), memory_peaks(output(changed) / "memory_record.csv")
    peaks = c.memory_peaks.set_index(["component", "metric"])
    names = {"allocated": "Peak allocated", "reserved": "Peak reserved"}
    assert set(peaks.index) == {(comp, names[kind]) for comp, kind in b_pk}
    for (comp, kind), value in b_pk.items():
        row = peaks.loc[(comp, names[kind])]
        assert row["base"] == pytest.approx(float(value), abs=1e-9)
        assert row["current"] == pytest.approx(float(c_pk[(comp, kind)]), abs=1e-9)
        assert row["diff_pct"] == pytest.approx(pct(value, c_pk[(comp, kind)]), abs=0.006)
    assert peaks.loc[("PTA", "Peak allocated"), "status"] == "higher"
    assert peaks.loc[("PTA", "Peak allocated"), "diff_pct"] == pytest.approx(25.0, abs=0.006)
    assert set(peaks.drop(index=[("PTA", "Peak allocated")])["status"]) == {"same"}
    assert c.memory_peaks.iloc[0]["component"] == "PTA"  # regressions first
    assert c.memory_peaks["base_peak_ns"].notna().all()


def test_communication_rows_against_the_file(base, changed):
    c = compare(base, changed)
    b_comm = communication(output(base) / "communication.json")
    c_comm = communication(output(changed) / "communication.json")
    assert set(b_comm) == {"allreduce"}  # hcom_allReduce__586_{0..3}_1@...
    rows = c.communication.set_index("comm_op")
    assert set(rows.index) == set(b_comm)
    for key, b in b_comm.items():
        a, row = c_comm[key], rows.loc[key]
        assert row["base_calls"] == len(b) and row["current_calls"] == len(a)
        assert row["base_total_us"] == pytest.approx(float(sum(b)), abs=len(b) * US)
        assert row["current_total_us"] == pytest.approx(float(sum(a)), abs=len(a) * US)
        assert row["base_avg_us"] == pytest.approx(float(sum(b) / len(b)), abs=US)
        assert row["base_max_us"] == pytest.approx(float(max(b)), abs=US)
        assert row["current_max_us"] == pytest.approx(float(max(a)), abs=US)
        assert row["base_min_us"] == pytest.approx(float(min(b)), abs=US)
        assert row["diff_us"] == pytest.approx(float(sum(a) - sum(b)), abs=2 * len(a) * US)
        assert row["diff_pct"] == pytest.approx(pct(sum(b), sum(a)), abs=0.006)
        assert row["diff_ratio"] == pytest.approx(round(float(sum(a) / sum(b)), 4), abs=1e-4)
    assert rows.loc["allreduce", "status"] == "slower"
    # the gate counts the slower op type and the grown peak, each by its own percentage
    hits = c.regressions(30)
    assert [h for h in hits if h.startswith("communication allreduce:")] and not any("memory" in h for h in hits)
    hits = c.regressions(20)
    assert any(h.startswith("memory peak allocated PTA:") and "+25.00 %" in h for h in hits)
    assert c.regressions(40) == []


def test_a_side_without_memory_or_communication_is_a_warning(samples, base, tmp_path):
    bare = make_report(samples, tmp_path / "bare", with_files=("step_trace_time.csv",))
    c = compare(base, bare)
    assert len(c.memory_peaks) == len(c.memory_ops) == len(c.communication) == 0
    assert "current has no memory_record (memory per component): memory peaks are not compared" in c.warnings
    assert "current has no operator_memory (memory per operator): operator memory is not compared" in c.warnings
    assert "current has no communication.json (communication operators): communication is not compared" in c.warnings
    assert c.regressions(0) == []
    c = compare(bare, base)
    assert "base has no communication.json (communication operators): communication is not compared" in c.warnings
    # neither side has them (kernel_details only): nothing to say, nothing compared
    lone = samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv"
    c = compare(lone, lone)
    assert c.warnings == [] and len(c.communication) == 0 and len(c.memory_ops) == 0


def test_xlsx_memory_and_communication_sheets_read_back(base, changed, tmp_path):
    c = compare(base, changed)
    out = run_inline(write_xlsx, c, tmp_path / "cmp.xlsx")
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == [
        "Overall",
        "OpType",
        "OpName",
        "AICoreMetrics",
        "MemoryPeaks",
        "MemoryCompareStatistic",
        "CommunicationCompare",
        "Warnings",
    ]
    # MemoryCompareStatistic: msprof-analyze's headers and units (ms, MB)
    header, rows = sheet_rows(book, "MemoryCompareStatistic")
    assert header == (
        "Top",
        "Operator Name",
        "Status",
        "Base Allocated Duration(ms)",
        "Base Allocated Memory(MB)",
        "Base Operator Number",
        "Comparison Allocated Duration(ms)",
        "Comparison Allocated Memory(MB)",
        "Comparison Operator Number",
        "Diff Memory(MB)",
        "Diff Ratio",
        "Diff(%)",
    )
    b_ops, c_ops = (
        operator_memory(output(base) / "operator_memory.csv"),
        operator_memory(output(changed) / "operator_memory.csv"),
    )
    assert [r["Top"] for r in rows] == list(range(1, len(b_ops.keys() | c_ops.keys()) + 1))
    by_name = {r["Operator Name"]: r for r in rows}
    assert set(by_name) == b_ops.keys() | c_ops.keys()
    mm_b, mm_c = b_ops["aten::mm"], c_ops["aten::mm"]
    mm = by_name["aten::mm"]
    assert mm["Status"] == "higher" and mm["Base Operator Number"] == mm_b["count"]
    assert mm["Base Allocated Memory(MB)"] == pytest.approx(float(mm_b["size"] / 1024), rel=1e-12)
    assert mm["Comparison Allocated Memory(MB)"] == pytest.approx(float(mm_c["size"] / 1024), rel=1e-12)
    assert mm["Diff Memory(MB)"] == pytest.approx(float((mm_c["size"] - mm_b["size"]) / 1024), rel=1e-12)
    assert mm["Base Allocated Duration(ms)"] == pytest.approx(float(mm_b["duration"] / 1000), rel=1e-12)
    assert mm["Diff Ratio"] == 2.0 and mm["Diff(%)"] == 100.0
    assert by_name["aten::brand_new_alloc"]["Diff Ratio"] == "n/a"
    sheet = book["MemoryCompareStatistic"]
    cells = {
        h.value: v for h, v in zip(sheet[1], next(r for r in sheet.iter_rows(min_row=2) if r[1].value == "aten::mm"))
    }
    assert cells["Status"].fill.fgColor.rgb.endswith("FFC7CE")  # more memory: red
    assert cells["Diff Ratio"].number_format == "0.00%"
    # MemoryPeaks
    header, rows = sheet_rows(book, "MemoryPeaks")
    assert header[:3] == ("Component", "Metric", "Status")
    b_pk, c_pk = memory_peaks(output(base) / "memory_record.csv"), memory_peaks(output(changed) / "memory_record.csv")
    pta = next(r for r in rows if r["Component"] == "PTA" and r["Metric"] == "Peak allocated")
    assert pta["Base Peak(MB)"] == pytest.approx(float(b_pk[("PTA", "allocated")]), abs=1e-9)
    assert pta["Comparison Peak(MB)"] == pytest.approx(float(c_pk[("PTA", "allocated")]), abs=1e-9)
    assert pta["Status"] == "higher" and pta["Diff(%)"] == pytest.approx(25.0, abs=0.006)
    assert pta["Base Peak Time(ns)"] == str(c.memory_peaks.iloc[0]["base_peak_ns"])  # exact epoch ns as text
    assert len(rows) == len(b_pk)
    # CommunicationCompare: msprof-analyze's headers, Base / Comparison prefixed
    header, rows = sheet_rows(book, "CommunicationCompare")
    assert header[:4] == ("Order Id", "Communication OP Name", "Status", "Base Calls")
    assert {"Base Total Duration(us)", "Comparison Max Duration(us)", "Diff Duration(us)", "Diff Ratio"} <= set(header)
    b, a = (
        communication(output(base) / "communication.json")["allreduce"],
        communication(output(changed) / "communication.json")["allreduce"],
    )
    (row,) = rows
    assert row["Communication OP Name"] == "allreduce" and row["Status"] == "slower"
    assert row["Base Calls"] == len(b) and row["Comparison Calls"] == len(a)
    assert row["Base Total Duration(us)"] == pytest.approx(float(sum(b)), abs=len(b) * US)
    assert row["Comparison Total Duration(us)"] == pytest.approx(float(sum(a)), abs=len(a) * US)
    assert row["Comparison Min Duration(us)"] == pytest.approx(float(min(a)), abs=US)
    assert row["Diff Duration(us)"] == pytest.approx(float(sum(a) - sum(b)), abs=2 * len(a) * US)
    assert row["Diff Ratio"] == pytest.approx(float(sum(a) / sum(b)), abs=1e-4)


def test_cli_json_and_gate_count_communication_and_memory(base, changed, tmp_path, isolated_home):
    doc_of = lambda r: json.loads(r.stdout)  # noqa: E731
    above = cli(base, changed, "--json", "--fail-on-regression", "30", env_home=isolated_home)
    assert above.returncode == 3, above.stderr
    doc = doc_of(above)
    comm = {r["comm_op"]: r for r in doc["communication"]}
    b, a = (
        communication(output(base) / "communication.json")["allreduce"],
        communication(output(changed) / "communication.json")["allreduce"],
    )
    assert comm["allreduce"]["status"] == "slower" and comm["allreduce"]["base_calls"] == len(b)
    assert comm["allreduce"]["diff_pct"] == pytest.approx(pct(sum(b), sum(a)), abs=0.006)
    assert [r for r in doc["regressions"] if r.startswith("communication allreduce:")]
    assert all(r["status"] == "same" for r in doc["rows"])  # the OPs did not change: communication tripped it
    peaks = {(r["component"], r["metric"]): r for r in doc["memory"]["peaks"]}
    assert peaks[("PTA", "Peak allocated")]["status"] == "higher"
    assert isinstance(peaks[("PTA", "Peak allocated")]["base_peak_ns"], int)
    ops = {r["name"]: r for r in doc["memory"]["operators"]}
    mm = operator_memory(output(base) / "operator_memory.csv")["aten::mm"]
    assert ops["aten::mm"]["base_size_kb"] == float(mm["size"]) and ops["aten::mm"]["diff_ratio"] == 2.0
    assert ops["aten::brand_new_alloc"]["diff_ratio"] is None
    # a memory peak alone trips the gate: below its +25 % (and above the 37 % of communication: no)
    below = cli(base, changed, "--json", "--fail-on-regression", "40", env_home=isolated_home)
    assert below.returncode == 0 and doc_of(below)["regressions"] == []
    memory_only = make_report_like(base, tmp_path / "memonly", changed, "memory_record.csv")
    gate = cli(base, memory_only, "--json", "--fail-on-regression", "20", env_home=isolated_home)
    assert gate.returncode == 3 and [
        r for r in doc_of(gate)["regressions"] if r.startswith("memory peak allocated PTA")
    ]
    text = cli(base, changed, env_home=isolated_home)
    assert text.returncode == 0 and "allreduce" in text.stdout and "PTA peak allocated" in text.stdout


def make_report_like(base, dst, changed, name):
    """A copy of ``base`` with one file taken from ``changed``."""
    import shutil

    shutil.copytree(base, dst / base.name)
    shutil.copy(output(changed) / name, output(dst / base.name) / name)
    return dst / base.name


def test_help_says_what_the_gate_counts(isolated_home):
    result = cli("--help", env_home=isolated_home)
    text = " ".join(result.stdout.split())
    assert "communication op type" in text and "memory peak" in text


def test_generated_torch_npu_runs_compare_memory(tmp_path):
    """Two runs of the simulator's torch_npu output (memory_record / operator_memory written by it)."""
    from workbench.simtoolkit.profdata import transformer_workload, write_torch_npu

    work = transformer_workload(layers=1, seq=256, hidden=512, heads=8)
    runs = [write_torch_npu(tmp_path / f"r{n}", work, seed=n) for n in (1, 2)]
    reports = [open_report(r) for r in runs]
    same = compare_reports(reports[0], reports[0])
    assert len(same.memory_ops) and set(same.memory_ops["status"]) == {"same"}
    assert len(same.memory_peaks) and set(same.memory_peaks["status"]) == {"same"}
    other = compare_reports(reports[0], reports[1])
    ops = [operator_memory(r / "ASCEND_PROFILER_OUTPUT" / "operator_memory.csv") for r in runs]
    rows = other.memory_ops.set_index("name")
    assert set(rows.index) == ops[0].keys() | ops[1].keys()
    for name, e in ops[0].items():
        assert rows.loc[name, "base_size_kb"] == pytest.approx(float(e["size"]), rel=1e-12)
        assert rows.loc[name, "base_count"] == e["count"]
    peaks = memory_peaks(runs[1] / "ASCEND_PROFILER_OUTPUT" / "memory_record.csv")
    got = {(r["component"], r["metric"]): r["current"] for r in records(other.memory_peaks)}
    names = {"allocated": "Peak allocated", "reserved": "Peak reserved"}
    assert got == {(comp, names[kind]): pytest.approx(float(v), abs=1e-9) for (comp, kind), v in peaks.items()}


def test_a_longer_run_allocating_as_much_per_step_is_no_regression():
    """The OP rows' rule: per step when both sides record steps, else the average per allocation."""
    import pandas as pd

    from workbench.core.compare.memdiff import memory_op_rows, peak_rows

    def ops(sizes: dict[str, list[float]]) -> pd.DataFrame:
        names = [n for n, s in sizes.items() for _ in s]
        return pd.DataFrame(
            {"name": pd.Categorical(names), "size_kb": [v for s in sizes.values() for v in s], "duration_us": 1.0}
        )

    base = ops({"a": [10.0], "b": [4.0]})
    twice = ops({"a": [10.0, 10.0], "b": [4.0, 8.0]})  # two steps: a as much per step, b more
    per_step = memory_op_rows(base, twice, 1.0, (1, 2)).set_index("name")
    assert per_step.loc["a", "status"] == "same" and per_step.loc["a", "diff_size_kb"] == 10.0
    assert per_step.loc["b", "status"] == "higher" and per_step.loc["b", "per_step_diff_pct"] == 50.0
    per_call = memory_op_rows(base, twice, 1.0).set_index("name")  # no steps: the average per allocation
    assert per_call.loc["a", "status"] == "same" and per_call.loc["b", "avg_diff_pct"] == 50.0
    assert per_call.loc["a", "diff_ratio"] == 2.0  # msprof-analyze's ratio of the totals
    peaks = pd.DataFrame(
        {"component": ["PTA", "GE"], "kind": ["allocated", "reserved"], "value_mb": [100.0, 5.0], "ts_ns": [1, 2]}
    )
    rows = peak_rows(peaks, peaks.iloc[:1].assign(value_mb=99.5), 1.0).set_index("component")
    assert rows.loc["PTA", "status"] == "same"  # -0.5 %: within the tolerance
    assert rows.loc["GE", "status"] == "removed" and math.isnan(rows.loc["GE", "current"])
