"""torch_npu output of the generator against the real samples in ../shared/samples."""

from __future__ import annotations

import collections
import csv
import re

import pytest
from _profdata_util import load_trace, process_names, read_csv, ts_ns

from workbench.simtoolkit.profdata import resnet50_workload, transformer_workload, write_torch_npu


@pytest.fixture(scope="module")
def pipe_report(tmp_path_factory):
    # The pipe sample is a 910B-class chip with 20 cube cores (Block Dim 20 / Mix 40).
    return write_torch_npu(
        tmp_path_factory.mktemp("pipe"),
        transformer_workload(),
        soc="Ascend910B3",
        steps=2,
        aic_metrics="PipeUtilization",
        style="2025",
    )


@pytest.fixture(scope="module")
def arith_report(tmp_path_factory):
    return write_torch_npu(
        tmp_path_factory.mktemp("arith"),
        resnet50_workload(kind="ops", blocks=(1, 1, 1, 1)),
        soc="Ascend910B2",
        steps=1,
        aic_metrics="ArithmeticUtilization",
        style="2023",
    )


def test_folder_layout(pipe_report):
    assert re.fullmatch(r"localhost_\d+_\d{17}_ascend_pt", pipe_report.name)
    out = pipe_report / "ASCEND_PROFILER_OUTPUT"
    expected = {
        "trace_view.json",
        "kernel_details.csv",
        "operator_details.csv",
        "op_statistic.csv",
        "step_trace_time.csv",
        "api_statistic.csv",
        "memory_record.csv",
        "operator_memory.csv",
        "npu_module_mem.csv",
    }
    assert expected <= {p.name for p in out.iterdir()}
    assert (pipe_report / "profiler_info.json").is_file()
    assert len(list(pipe_report.glob("PROF_*/device_0"))) == 1
    assert (pipe_report / "FRAMEWORK").is_dir()


@pytest.mark.parametrize(
    "sample,fixture",
    [("torch_npu-kernel_details-pipe", "pipe_report"), ("torch_npu-kernel_details-arith", "arith_report")],
)
def test_kernel_details_header_equals_real(samples, request, sample, fixture):
    real_header, _ = read_csv(samples / sample / "kernel_details.csv")
    ours, _ = read_csv(request.getfixturevalue(fixture) / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv")
    assert ours == real_header


def _raw_lines(path):
    return path.read_bytes().decode("utf-8").split("\n")


def test_pipe_quoting_quirks_like_real(samples, pipe_report):
    tab_start = re.compile(r',"\d{16}\.\d{3}\t",')
    shapes = re.compile(r',"""[0-9,;]*""",')
    for path in (
        samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv",
        pipe_report / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv",
    ):
        lines = [line for line in _raw_lines(path)[1:] if line]
        assert lines and all(tab_start.search(line) for line in lines), path
        assert all(shapes.search(line) for line in lines), path
        assert "\r" not in path.read_text(encoding="utf-8")
    _, rows = read_csv(pipe_report / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv")
    for r in rows:
        assert (
            r["Start Time(us)"].endswith("\t") and r["Input Shapes"].startswith('"') and r["Input Shapes"].endswith('"')
        )
        assert r["OP State"] in ("dynamic", "static") and r["HF32 Eligible"] in ("YES", "NO")


def test_arith_2023_style_like_real(samples, arith_report):
    for path in (
        samples / "torch_npu-kernel_details-arith" / "kernel_details.csv",
        arith_report / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv",
    ):
        header, rows = read_csv(path)
        starts = [r["Start Time(us)"] for r in rows]
        assert all(re.fullmatch(r"\d{16}(\.\d{1,2})?", s) for s in starts), path  # a float, not quoted
        cpu = [r for r in rows if r["Accelerator Core"] == "AI_CPU"]
        assert cpu and all(r[c] == "N/A" for r in cpu for c in header[header.index("aicore_time(us)") :]), path


def test_cube_utilization_formula_holds_on_real_and_generated(samples, pipe_report):
    """cube_utilization(%) = aic_total_cycles / (freq * core_num * duration), 1800 MHz, 20 cores."""
    for path in (
        samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv",
        pipe_report / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv",
    ):
        _, rows = read_csv(path)
        checked = 0
        for r in rows:
            if r["Accelerator Core"] in ("AI_CORE", "MIX_AIC"):
                expect = int(r["aic_total_cycles"]) / (1800 * 20 * float(r["Duration(us)"])) * 100
                assert abs(float(r["cube_utilization(%)"]) - expect) < 0.01, (path, r["Name"])
                checked += 1
        assert checked


def _category_keys(events):
    names = process_names(events)
    out = collections.defaultdict(set)
    for e in events:
        out[(names.get(e["pid"]), e["ph"], e.get("cat"))].add(tuple(e))
    return out


def test_trace_view_keys_and_metadata_match_real(samples, pipe_report):
    real = load_trace(samples / "torch_npu-trace_view" / "trace_view.json")
    ours = load_trace(pipe_report / "ASCEND_PROFILER_OUTPUT" / "trace_view.json")
    real_keys, our_keys = _category_keys(real), _category_keys(ours)
    shared = set(real_keys) & set(our_keys)
    # every kind of event the real file has for an op pipeline exists in ours, with the same key order
    for cat in [
        ("Python", "X", "cpu_op"),
        ("Python", "X", "enqueue"),
        ("Python", "X", "dequeue"),
        ("Python", "s", "async_task_queue"),
        ("Python", "f", "async_task_queue"),
        ("Python", "s", "async_npu"),
        ("Ascend Hardware", "f", "async_npu"),
        ("CANN", "X", None),
        ("CANN", "s", "HostToDevice"),
        ("Ascend Hardware", "f", "HostToDevice"),
        ("Ascend Hardware", "X", None),
        ("Overlap Analysis", "X", None),
        ("Python", "M", None),
        ("CANN", "M", None),
    ]:
        assert cat in shared, cat
        assert our_keys[cat] == real_keys[cat], cat
    assert {e["ph"] for e in ours} <= {e["ph"] for e in real}
    meta = lambda evs: {e["name"] for e in evs if e["ph"] == "M"}  # noqa: E731
    assert meta(ours) == meta(real)
    assert set(process_names(ours).values()) == set(process_names(real).values())
    # device args keys identical to the real device events
    real_args = {
        tuple(e["args"]) for e in real if process_names(real).get(e["pid"]) == "Ascend Hardware" and e["ph"] == "X"
    }
    our_args = {
        tuple(e["args"]) for e in ours if process_names(ours).get(e["pid"]) == "Ascend Hardware" and e["ph"] == "X"
    }
    assert our_args == real_args
    # same serialisation: one line, ", " / ": " separators, string ts with 3 decimals
    raw = (pipe_report / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").read_text(encoding="utf-8")
    assert raw.startswith('[{"ph": "X", "name": ') and "\n" not in raw
    assert all(isinstance(e["ts"], str) and re.fullmatch(r"\d{16}\.\d{3}", e["ts"]) for e in ours if "ts" in e)


def test_flows_connect_ops_to_device_tasks(pipe_report):
    events = load_trace(pipe_report / "ASCEND_PROFILER_OUTPUT" / "trace_view.json")
    names = process_names(events)
    device = {(e["pid"], e["tid"], e["ts"]) for e in events if e["ph"] == "X" and names[e["pid"]] == "Ascend Hardware"}
    pairs = collections.defaultdict(dict)
    for e in events:
        if e["ph"] in "sf":
            assert e["ph"] not in pairs[(e["cat"], str(e["id"]))], "duplicate flow end"
            pairs[(e["cat"], str(e["id"]))][e["ph"]] = e
    assert all(set(p) == {"s", "f"} for p in pairs.values())
    by_cat = collections.Counter(cat for cat, _ in pairs)
    assert by_cat["HostToDevice"] == len(device) == by_cat["async_npu"]
    assert by_cat["async_task_queue"] == len(device)
    for (cat, fid), p in pairs.items():
        if cat in ("HostToDevice", "async_npu"):
            f = p["f"]
            assert (f["pid"], f["tid"], f["ts"]) in device
            assert ts_ns(p["s"]["ts"]) < ts_ns(f["ts"])
        if cat == "HostToDevice":
            assert isinstance(p["s"]["id"], str) and names[p["s"]["pid"]] == "CANN"
        if cat == "async_npu":
            assert fid == p["f"]["ts"].replace(".", "")  # torch_npu id = device start in ns


def test_kernel_details_are_the_timeline_device_tasks(pipe_report):
    out = pipe_report / "ASCEND_PROFILER_OUTPUT"
    events = load_trace(out / "trace_view.json")
    names = process_names(events)
    device = sorted(
        (e["ts"], e["dur"], e["name"]) for e in events if e["ph"] == "X" and names[e["pid"]] == "Ascend Hardware"
    )
    _, rows = read_csv(out / "kernel_details.csv")
    table = sorted((r["Start Time(us)"].rstrip("\t"), float(r["Duration(us)"]), r["Name"]) for r in rows)
    assert device == table


def test_op_statistic_and_step_trace_agree_with_kernel_details(pipe_report):
    out = pipe_report / "ASCEND_PROFILER_OUTPUT"
    _, rows = read_csv(out / "kernel_details.csv")
    agg = collections.defaultdict(list)
    for r in rows:
        agg[(r["Type"], r["Accelerator Core"])].append(float(r["Duration(us)"]))
    _, stats = read_csv(out / "op_statistic.csv")
    assert {(s["OP Type"], s["Core Type"]) for s in stats} == set(agg)
    for s in stats:
        d = agg[(s["OP Type"], s["Core Type"])]
        assert int(s["Count"]) == len(d)
        assert float(s["Total Time(us)"]) == pytest.approx(sum(d), abs=1e-6)
        assert float(s["Min Time(us)"]) == min(d) and float(s["Max Time(us)"]) == max(d)
    _, steps = read_csv(out / "step_trace_time.csv")
    for s in steps:
        comp = sum(float(r["Duration(us)"]) for r in rows if r["Step Id"] == s["Step"])
        assert float(s["Computing"]) == pytest.approx(comp, abs=0.002)


def test_quoting_round_trips_through_csv_module(pipe_report):
    path = pipe_report / "ASCEND_PROFILER_OUTPUT" / "operator_details.csv"
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert all(len(r) == len(rows[0]) for r in rows)
