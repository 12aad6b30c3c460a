"""Layout variants built from the real samples (re-headered, moved into PROF / framework folders)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import profhelpers  # noqa: E402
from profhelpers import kd_path, rewrite, write_csv  # noqa: E402


@pytest.fixture
def prof8(samples, tmp_path) -> Path:
    """CANN 8.x PROF folder: op_summary re-headered from the pipe sample, Device_id 2."""
    prof = tmp_path / "PROF_000001_20250109101435646_FKFLNPEPPRRCFCBA"
    out = prof / "mindstudio_profiler_output"
    rewrite(
        kd_path(samples, "pipe"),
        out / "op_summary_20250109101435.csv",
        profhelpers.KD_TO_OP_SUMMARY,
        drop=("Step Id",),
        device="2",
    )
    write_csv(
        out / "api_statistic_20250109101435.csv",
        ["Device_id", "Level", "API Name", "Time(us)", "Count", "Avg(us)", "Min(us)", "Max(us)", "Variance"],
        [
            ["host", "acl", "aclrtSynchronizeStream", "120.5", "3", "40.167", "10.5", "70", "1.0"],
            ["host", "runtime", "rtKernelLaunch", "30", "6", "5", "1", "9", "0.5"],
            ["host", "node", "launch", "N/A", "N/A", "N/A", "N/A", "N/A", "N/A"],
        ],
    )
    write_csv(
        out / "os_runtime_statistic_20250109101435.csv",
        [
            "Device_id",
            "Process ID",
            "Thread ID",
            "Name",
            "Time(%)",
            "Time(us)",
            "Count",
            "Avg(us)",
            "Max(us)",
            "Min(us)",
        ],
        [["host", "11", "12", "pthread_mutex_lock", "100", "8.5", "2", "4.25", "6", "2.5"]],
    )
    write_csv(
        out / "step_trace_20250109101435.csv",
        ["Device_id", "Iteration ID", "FP Start(us)", "BP End(us)", "Iteration End(us)", "Iteration Time(us)"],
        [["2", "1", "1736413971411629.128", "1736413971511629.128", "1736413971611629.128", "200000"]],
    )
    return prof


@pytest.fixture
def prof_legacy(samples, tmp_path) -> Path:
    """CANN 5/6 PROF folder: device_5/summary/op_summary_5_1_1.csv with old headers + host API data."""
    prof = tmp_path / "PROF_000001_20220601101435646_ABCDEFGHIJKLMNOP"
    rewrite(
        kd_path(samples, "arith"),
        prof / "device_5" / "summary" / "op_summary_5_1_1.csv",
        profhelpers.KD_TO_LEGACY,
        drop=("Step Id",),
    )
    write_csv(
        prof / "device_5" / "summary" / "acl_statistic_5_1_1.csv",
        ["Name", "Type", "Time(%)", "Time(us)", "Count", "Avg(us)", "Min(us)", "Max(us)", "Process ID", "Thread ID"],
        [["aclrtMemcpy", "ACL_RTS", "60", "600", "3", "200", "100", "300", "11", "12"]],
    )
    write_csv(
        prof / "device_5" / "summary" / "runtime_api_5_1_1.csv",
        [
            "Name",
            "Stream ID",
            "Time(%)",
            "Time(ns)",
            "Calls",
            "Avg(ns)",
            "Min(ns)",
            "Max(ns)",
            "Process ID",
            "Thread ID",
        ],
        [["rtKernelLaunch", "3", "40", "400000", "8", "50000", "20000", "90000", "11", "12"]],
    )
    return prof


@pytest.fixture
def ascend_pt(samples, tmp_path) -> Path:
    """torch_npu output folder holding the real pipe kernel_details.csv unchanged."""
    top = tmp_path / "host_123_20250109_ascend_pt"
    out = top / "ASCEND_PROFILER_OUTPUT"
    out.mkdir(parents=True)
    (out / "kernel_details.csv").write_bytes(kd_path(samples, "pipe").read_bytes())
    (top / "profiler_info_3.json").write_text(json.dumps({"config": {"common_config": {}}, "rank_id": 3}))
    return top
