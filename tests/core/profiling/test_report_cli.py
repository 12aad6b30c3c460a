"""`report info/ops/api` on the real samples and on layout variants, against independent values."""

from __future__ import annotations

import json
import math
import shutil

import pytest
from profhelpers import KD_TO_OP_SUMMARY, kd_path, op_stats, read_rows, rewrite, span_ns

from workbench.cli import main


def run(capsys, *argv: str) -> tuple[int, object, str]:
    code = main(["report", *argv])
    captured = capsys.readouterr()
    data = json.loads(captured.out) if code == 0 and captured.out.strip().startswith(("{", "[")) else None
    return code, data, captured.err


def check_ops(rows_out: list[dict], raw_rows: list[dict], by: str = "type") -> None:
    expected = op_stats(raw_rows, by)
    assert {(r["key"], r["task_type"]) for r in rows_out} == set(expected)
    grand = sum(s["total_us"] for s in expected.values())
    for r in rows_out:
        e = expected[(r["key"], r["task_type"])]
        assert r["count"] == e["count"]
        assert math.isclose(r["total_us"], e["total_us"], rel_tol=1e-9)
        assert math.isclose(r["min_us"], e["min_us"]) and math.isclose(r["max_us"], e["max_us"])
        assert math.isclose(r["avg_us"], e["total_us"] / e["count"], rel_tol=1e-9)
        assert math.isclose(r["ratio_pct"], e["total_us"] * 100 / grand, rel_tol=1e-9)
    totals = [r["total_us"] for r in rows_out]
    assert totals == sorted(totals, reverse=True)


@pytest.mark.parametrize("which", ["arith", "pipe"])
def test_kernel_details_samples(capsys, samples, which):
    path = kd_path(samples, which)
    _, raw = read_rows(path)
    code, info, err = run(capsys, "info", str(path), "--json")
    assert code == 0, err
    assert info["kind"] == "torch_npu"
    assert info["op_count"] == len(raw)
    assert info["event_count"] == 0 and info["flow_count"] == 0
    assert info["devices"] == [0]
    assert round(info["span_us"] * 1000) == span_ns(raw)
    assert info["warnings"] == []
    for by in ("type", "name"):
        code, rows, err = run(capsys, "ops", str(path), "--json", "--by", by)
        assert code == 0, err
        check_ops(rows, raw, by)
    code, top, _ = run(capsys, "ops", str(path), "--json", "--top", "3")
    assert len(top) == 3 and top == rows_by_type(capsys, path)[:3]


def rows_by_type(capsys, path):
    return run(capsys, "ops", str(path), "--json")[1]


def test_cann8_prof_layout(capsys, samples, prof8):
    _, raw = read_rows(kd_path(samples, "pipe"))
    code, info, err = run(capsys, "info", str(prof8), "--json")
    assert code == 0, err
    assert info["kind"] == "msprof" and info["devices"] == [2]
    assert info["op_count"] == len(raw)
    assert round(info["span_us"] * 1000) == span_ns(raw)
    code, rows, _ = run(capsys, "ops", str(prof8), "--json")
    check_ops(rows, raw)
    code, api, _ = run(capsys, "api", str(prof8), "--json")
    assert code == 0
    assert api == [
        {
            "level": "acl",
            "name": "aclrtSynchronizeStream",
            "count": 3,
            "total_us": 120.5,
            "avg_us": 120.5 / 3,
            "min_us": 10.5,
            "max_us": 70.0,
        },
        {
            "level": "runtime",
            "name": "rtKernelLaunch",
            "count": 6,
            "total_us": 30.0,
            "avg_us": 5.0,
            "min_us": 1.0,
            "max_us": 9.0,
        },
        {
            "level": "osrt",
            "name": "pthread_mutex_lock",
            "count": 2,
            "total_us": 8.5,
            "avg_us": 4.25,
            "min_us": 2.5,
            "max_us": 6.0,
        },
    ]  # the N/A row is missing data, not a zero-time API; OS runtime API rows have level osrt
    # Pointing at mindstudio_profiler_output or at the parent folder gives the same report.
    for path in (prof8 / "mindstudio_profiler_output", prof8.parent):
        code, other, _ = run(capsys, "info", str(path), "--json")
        assert (other["kind"], other["devices"], other["op_count"]) == ("msprof", [2], len(raw))


def test_single_op_summary_csv_with_device_column(capsys, samples, tmp_path):
    path = rewrite(
        kd_path(samples, "arith"), tmp_path / "op_summary_20231109.csv", KD_TO_OP_SUMMARY, drop=("Step Id",), device="6"
    )
    _, raw = read_rows(kd_path(samples, "arith"))
    code, info, _ = run(capsys, "info", str(path), "--json")
    assert (info["kind"], info["devices"], info["op_count"]) == ("msprof", [6], len(raw))
    code, rows, _ = run(capsys, "ops", str(path), "--json", "--by", "name")
    check_ops(rows, raw, "name")


def test_legacy_prof_layout(capsys, samples, prof_legacy):
    _, raw = read_rows(kd_path(samples, "arith"))
    code, info, err = run(capsys, "info", str(prof_legacy), "--json")
    assert code == 0, err
    assert info["kind"] == "msprof-legacy" and info["devices"] == [5]
    assert info["op_count"] == len(raw)
    assert round(info["span_us"] * 1000) == span_ns(raw)
    code, rows, _ = run(capsys, "ops", str(prof_legacy), "--json")
    check_ops(rows, raw)
    code, api, _ = run(capsys, "api", str(prof_legacy), "--json")
    assert api == [
        {
            "level": "acl",
            "name": "aclrtMemcpy",
            "count": 3,
            "total_us": 600.0,
            "avg_us": 200.0,
            "min_us": 100.0,
            "max_us": 300.0,
        },
        {
            "level": "runtime",
            "name": "rtKernelLaunch",
            "count": 8,
            "total_us": 400.0,
            "avg_us": 50.0,
            "min_us": 20.0,
            "max_us": 90.0,
        },
    ]  # runtime_api is in ns in CANN 5/6


def test_framework_output_and_multi_device_folder(capsys, samples, tmp_path, ascend_pt, prof8, prof_legacy):
    _, pipe = read_rows(kd_path(samples, "pipe"))
    _, arith = read_rows(kd_path(samples, "arith"))
    code, info, _ = run(capsys, "info", str(ascend_pt), "--json")
    assert (info["kind"], info["devices"], info["op_count"]) == ("torch_npu", [3], len(pipe))
    code, info, _ = run(capsys, "info", str(ascend_pt / "ASCEND_PROFILER_OUTPUT"), "--json")
    assert info["op_count"] == len(pipe)
    # Two PROF folders side by side: one report, two devices, every task once.
    both = tmp_path / "runs"
    both.mkdir()
    shutil.move(str(prof8), both / prof8.name)
    shutil.move(str(prof_legacy), both / prof_legacy.name)
    code, info, err = run(capsys, "info", str(both), "--json")
    assert code == 0, err
    assert info["devices"] == [2, 5]
    assert info["op_count"] == len(pipe) + len(arith)
    code, rows, _ = run(capsys, "ops", str(both), "--json")
    check_ops(rows, pipe + arith)


def test_bad_input_exit_2_with_message(capsys, tmp_path, samples):
    code, _, err = run(capsys, "info", str(tmp_path / "missing"), "--json")
    assert code == 2 and "no such file" in err and "Traceback" not in err
    code, _, err = run(capsys, "info", str(samples / "npu-smi"), "--json")
    assert code == 2 and "Looked for:" in err and "PROF_*" in err and "kernel_details.csv" in err
    bad = tmp_path / "kernel_details.csv"
    bad.write_text("Name,Type,Accelerator Core,Start Time(us),Duration(us)\na,Add,AI_CORE,1,2\nb,Add,AI_CORE,3,x\n")
    code, _, err = run(capsys, "ops", str(bad), "--json")
    assert code == 2 and "line 3" in err and "Duration(us)" in err and "Traceback" not in err
    code, _, err = run(capsys, "ops", str(bad.with_name("x.wbreport")), "--json")
    assert code == 2


def test_cluster_sample(capsys, samples):
    path = samples / "msprof-analyze-cluster"
    _, raw = read_rows(path / "cluster_step_trace_time.csv")
    ranks = sorted(int(r["Index"]) for r in raw if r["Type"] == "rank")
    code, info, err = run(capsys, "info", str(path), "--json")
    assert code == 0, err
    assert info["kind"] == "cluster" and info["devices"] == ranks
    assert info["op_count"] == 0 and info["tables"]["cluster_step_trace_time"] == len(raw)


# ---- report steps | memory | communication (issue #19) -------------------------------------------------------

COMM_MEM = "torch_npu-910B-rank0-comm-mem"


def _us_to_ns(text) -> int:
    from decimal import ROUND_HALF_UP, Decimal

    return int((Decimal(str(text).strip()) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


def test_report_steps_json(capsys, samples):
    path = samples / COMM_MEM
    _, raw = read_rows(path / "step_trace_time.csv")
    code, out, err = run(capsys, "steps", str(path), "--json")
    assert code == 0, err
    assert out["source"] == "step_trace_time" and out["warnings"] == []
    assert [s["step"] for s in out["steps"]] == [int(r["Step"]) for r in raw]
    headers = {
        "computing_us": "Computing",
        "communication_not_overlapped_us": "Communication(Not Overlapped)",
        "overlapped_us": "Overlapped",
        "communication_us": "Communication",
        "free_us": "Free",
        "stage_us": "Stage",
        "bubble_us": "Bubble",
        "communication_not_overlapped_exclude_receive_us": "Communication(Not Overlapped and Exclude Receive)",
        "preparing_us": "Preparing",
    }
    for got, want in zip(out["steps"], raw):
        assert {k: got[k] for k in headers} == {k: float(want[h]) for k, h in headers.items()}
    code, _, err = run(capsys, "steps", str(path))
    assert code == 0 and err == ""


def test_report_memory_json(capsys, samples):
    path = samples / COMM_MEM
    _, raw = read_rows(path / "memory_record.csv")
    code, out, err = run(capsys, "memory", str(path), "--json")
    assert code == 0, err
    assert [c["component"] for c in out["components"]] == list(dict.fromkeys(r["Component"] for r in raw))
    for comp in out["components"]:
        for kind, header in (("allocated", "Total Allocated(MB)"), ("reserved", "Total Reserved(MB)")):
            points = [
                (float(r[header]), _us_to_ns(r["Timestamp(us)"]))
                for r in raw
                if r["Component"] == comp["component"] and r[header]
            ]  # noqa: E501
            if not points:
                assert comp[f"peak_{kind}_mb"] is None and comp[f"peak_{kind}_ns"] is None
                continue
            top = max(v for v, _ in points)
            assert comp[f"peak_{kind}_mb"] == top
            assert comp[f"peak_{kind}_ns"] == min(t for v, t in points if v == top)
    pta = next(c for c in out["components"] if c["component"] == "PTA")
    assert pta["peak_allocated_mb"] == 1187.9814453125 and pta["peak_allocated_ns"] == 1736408883743242970
    _, ops = read_rows(path / "operator_memory.csv")
    assert out["operators"] == len(ops) and len(out["modules"]) == 77


def test_report_communication_json(capsys, samples):
    path = samples / COMM_MEM
    doc = json.loads((path / "communication.json").read_text(), parse_float=__import__("decimal").Decimal)
    ops = doc["step50"]["collective"]
    code, out, err = run(capsys, "communication", str(path), "--json")
    assert code == 0, err
    assert [o["op"] for o in out["ops"]] == [k for k in ops if k != "Total Op Info"]
    keys = {
        "elapse_ms": "Elapse Time(ms)",
        "transit_ms": "Transit Time(ms)",
        "wait_ms": "Wait Time(ms)",
        "sync_ms": "Synchronization Time(ms)",
        "idle_ms": "Idle Time(ms)",
    }
    for got in out["ops"] + out["totals"]:
        info = ops[got["op"]]["Communication Time Info"]
        assert {k: got[k] for k in keys} == {k: float(info[h]) for k, h in keys.items()}
        assert got["start_ns"] == (_us_to_ns(info["Start Timestamp(us)"]) if "Start Timestamp(us)" in info else None)
    assert [t["op"] for t in out["totals"]] == ["Total Op Info"]
    for t in out["transports"]:
        size = sum(
            v["Communication Bandwidth Info"][t["transport"]]["Transit Size(MB)"]
            for k, v in ops.items()
            if k != "Total Op Info"
        )  # noqa: E501
        time = sum(
            v["Communication Bandwidth Info"][t["transport"]]["Transit Time(ms)"]
            for k, v in ops.items()
            if k != "Total Op Info"
        )  # noqa: E501
        assert math.isclose(t["bandwidth_gbs"], float(size / time) if time else 0.0, rel_tol=1e-12)
    assert {t["transport"] for t in out["transports"]} == {"RDMA", "HCCS", "PCIE", "SDMA", "SIO"}
    assert out["matrix"]["ranks"] == list(range(8)) and len(out["matrix"]["links"]) == 8


@pytest.mark.parametrize(
    "action,missing",
    [
        ("steps", "no step data"),
        ("memory", "no memory data"),
        ("communication", "no communication data"),
    ],
)
def test_report_views_without_the_data_exit_2(capsys, samples, action, missing):
    path = kd_path(samples, "pipe")
    code, out, err = run(capsys, action, str(path), "--json")
    assert code == 2 and out is None
    assert err.startswith(f"error: {path}: {missing}") and err.count("\n") == 1 and "Traceback" not in err
