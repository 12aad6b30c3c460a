"""The per-step breakdown (issue #19): from step_trace_time, and computed from the timeline's Overlap
Analysis lanes the way torch_npu computes that file — against values computed here with the csv / json
modules, and the two sources against each other on a report that has both."""

from __future__ import annotations

import csv
import json
import math
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pandas as pd
import pytest

from workbench.core.profiling.build import open_report
from workbench.core.profiling.report import Report
from workbench.core.profiling.steps import (
    BREAKDOWN_COLUMNS,
    STEP_TRACE_HEADERS,
    step_breakdown,
    step_breakdown_from_timeline,
)

ROOT = Path(__file__).resolve().parents[3]
SIM_TORCH = next((ROOT / "resources/samples/resnet_torch_npu").glob("*_ascend_pt"))
SAMPLE = "torch_npu-910B-rank0-comm-mem"


def csv_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8-sig") as fh:
        return list(csv.DictReader(fh))


def test_real_step_trace_time(samples):
    path = samples / SAMPLE / "step_trace_time.csv"
    want = csv_rows(path)
    frame = step_breakdown(open_report(samples / SAMPLE, use_cache=False))
    assert list(frame.columns) == ["device", *BREAKDOWN_COLUMNS, "source"]
    assert len(frame) == len(want) == 1 and frame.attrs["warnings"] == []
    row = frame.iloc[0]
    assert row["step"] == int(want[0]["Step"]) == 50 and pd.isna(row["device"]) and row["source"] == "step_trace_time"
    for column, header in STEP_TRACE_HEADERS.items():
        assert row[column] == float(want[0][header]), column
    # the parts of a step add up to its stage (computing + not overlapped communication + free)
    assert math.isclose(
        row["computing_us"] + row["communication_not_overlapped_us"] + row["free_us"], row["stage_us"], abs_tol=0.01
    )  # noqa: E501


def test_older_step_trace_time_without_preparing_or_device(samples, tmp_path):
    rows = csv_rows(samples / SAMPLE / "step_trace_time.csv")
    header = [h for h in rows[0] if h != "Preparing"]
    path = tmp_path / "step_trace_time.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerow([rows[0][h] for h in header])
    from workbench.core.profiling.tables import read_table

    frame = step_breakdown(Report(tmp_path, "torch_npu", tables={"step_trace_time": read_table(path)}))
    assert frame.attrs["warnings"] == ["step_trace_time: no column 'Preparing' (older torch_npu); left empty"]
    assert math.isnan(frame["preparing_us"].iloc[0]) and frame["computing_us"].iloc[0] == float(rows[0]["Computing"])


def test_device_rows_of_the_2025_style(tmp_path):
    path = tmp_path / "step_trace_time.csv"
    header = ["Device_id", "Step", *STEP_TRACE_HEADERS.values()]
    path.write_text(
        ",".join(header) + "\n" + "3,2," + ",".join(["1.5"] * 9) + "\n" + "3,1," + ",".join(["2"] * 9) + "\n"
    )
    from workbench.core.profiling.tables import read_table

    frame = step_breakdown(Report(tmp_path, "torch_npu", tables={"step_trace_time": read_table(path)}))
    assert frame["device"].tolist() == [3, 3] and frame["step"].tolist() == [1, 2]
    assert frame["free_us"].tolist() == [2.0, 1.5]


# ---- from the timeline --------------------------------------------------------------------------------------

KINDS = ("Computing", "Communication", "Communication(Not Overlapped)", "Free")


def _trace() -> list[dict]:
    """Two profiler steps launching kernels (async_npu flows), one of them through the task queue after its
    step's host end; overlap lanes with communication partly hidden behind compute; an hcom_receive (the
    bubble); slices after a step's host end but inside its device window; slices outside every window."""
    py, hw, ov, comm = 11, 22, 33, 44
    ev: list[dict] = [
        {"ph": "M", "name": "process_name", "pid": py, "args": {"name": "Python"}},
        {"ph": "M", "name": "process_name", "pid": hw, "args": {"name": "Ascend Hardware"}},
        {"ph": "M", "name": "thread_name", "pid": hw, "tid": 5, "args": {"name": "Stream 5"}},
        {"ph": "M", "name": "process_name", "pid": ov, "args": {"name": "Overlap Analysis"}},
        {"ph": "M", "name": "process_name", "pid": comm, "args": {"name": "Communication"}},
        {"ph": "M", "name": "thread_name", "pid": comm, "tid": 9, "args": {"name": "Group g Communication"}},
    ]
    ev += [{"ph": "M", "name": "thread_name", "pid": ov, "tid": i, "args": {"name": k}} for i, k in enumerate(KINDS)]
    base = 1736408883000000

    def x(pid, tid, name, ts, dur, **args):
        ev.append({"ph": "X", "pid": pid, "tid": tid, "name": name, "ts": f"{base + ts:.3f}", "dur": dur, "args": args})

    def flow(cat, n, src, dst):  # src / dst: (pid, tid, ts)
        for ph, (pid, tid, ts) in (("s", src), ("f", dst)):
            ev.append({"ph": ph, "id": n, "pid": pid, "tid": tid, "ts": f"{base + ts:.3f}", "cat": cat, "bp": "e"})

    x(py, 1, "ProfilerStep#7", 100, 500)
    x(py, 1, "ProfilerStep#8", 650, 450)
    # (launching thread, launch time, kernel start, kernel duration); thread 2 is the task queue's dequeue
    launches = [(1, 120, 150, 60), (1, 400, 520, 60.5), (2, 606, 610, 35), (1, 700, 720, 100), (1, 900, 1000, 40.25)]
    for n, (tid, launch, start, dur) in enumerate(launches):
        x(py, tid, "aten::op" if tid == 1 else "Dequeue@op", launch - 1, 3)
        x(hw, 5, f"kernel{n}", start, dur, **{"Task Type": "AI_CORE"})
        flow("async_npu", n, (py, tid, launch), (hw, 5, start))
    # enqueued at 590, inside step 7; dequeued (and launched) at 605..608, after the step's host end (600)
    x(py, 1, "Enqueue", 589, 2)
    flow("async_task_queue", 2, (py, 1, 590), (py, 2, 605.5))
    lanes = [
        (0, 50, 10),  # before every step: dropped
        (0, 150, 60), (1, 180, 100), (2, 210, 70), (3, 280, 240.125), (0, 520, 60.5),
        (3, 620, 20),  # after step 7's host end, inside its device window (to 645: the queued kernel)
        (0, 610, 35),
        (3, 660, 9),  # between step 7's device window and step 8's (from 720): dropped
        (0, 720, 100), (1, 820, 150), (2, 820, 80), (3, 970, 30), (0, 1000, 40.25),
    ]  # fmt: skip
    for tid, ts, dur in lanes:
        x(ov, tid, KINDS[tid], ts, dur)
    x(comm, 9, "hcom_receive__5_0_1", 830, 40)
    x(comm, 9, "hcom_allReduce__5_1_1", 880, 60)
    return ev


def expected_breakdown(events: list[dict]) -> dict[int, dict[str, float]]:
    """torch_npu's rules over the raw events (Decimal µs)."""
    procs = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    xs = [e for e in events if e["ph"] == "X"]
    # times to the ns, as a timeline holds them (the real file writes durations with up to 14 decimals)
    dur = lambda e: Decimal(str(e["dur"])).quantize(Decimal("0.001"), ROUND_HALF_UP)  # noqa: E731
    ts = lambda e: Decimal(e["ts"]).quantize(Decimal("0.001"), ROUND_HALF_UP)  # noqa: E731
    end = lambda e: ts(e) + dur(e)  # noqa: E731
    hardware = {e["pid"] for e in events if e["ph"] == "M" and e["args"].get("name") == "Ascend Hardware"}
    kernels = {(e["pid"], e["tid"], Decimal(e["ts"])): e for e in xs if e["pid"] in hardware}
    starts = {(e["cat"], e["id"]): e for e in events if e["ph"] == "s"}
    pairs = [(starts[(e["cat"], e["id"])], e) for e in events if e["ph"] == "f"]

    def slice_at(pid, tid, t):  # the innermost host slice holding a flow's end
        holding = [e for e in xs if e["pid"] == pid and e["tid"] == tid and ts(e) <= t <= end(e)]
        return min(holding, key=dur) if holding else None

    windows = []
    for step in sorted((e for e in xs if e["name"].startswith("ProfilerStep#")), key=ts):
        spans = [(ts(step), end(step))]
        for s_, f in pairs:  # one hop on the host (the task queue: enqueue in the step -> its dequeue)
            if f["pid"] not in hardware and ts(step) <= Decimal(s_["ts"]) <= end(step):
                hop = slice_at(f["pid"], f["tid"], Decimal(f["ts"]))
                if hop is not None:
                    spans.append((ts(hop), end(hop)))
        launched = [
            kernels[(f["pid"], f["tid"], Decimal(f["ts"]))]
            for s_, f in pairs
            if f["pid"] in hardware and any(a <= Decimal(s_["ts"]) <= b for a, b in spans)
        ]
        lo = min(ts(k) for k in launched)
        hi = max(end(step), max(end(k) for k in launched))
        windows.append((int(step["name"].split("#")[1]), lo, hi, ts(step)))
    counted = [
        e
        for e in xs
        if (procs[e["pid"]] == "Overlap Analysis" and e["name"] in KINDS) or e["name"].startswith("hcom_receive")
    ]  # noqa: E501
    out: dict[int, dict] = {}
    for e in counted:
        step = next((w for w in windows if w[1] <= ts(e) < w[2]), None)
        if step is None:
            continue
        acc = out.setdefault(
            step[0],
            {k: Decimal(0) for k in (*KINDS, "bubble")} | {"first": None, "lo": None, "hi": None, "fw": step[3]},
        )  # noqa: E501
        acc["bubble" if e["name"].startswith("hcom_receive") else e["name"]] += dur(e)
        acc["lo"] = ts(e) if acc["lo"] is None else min(acc["lo"], ts(e))
        acc["hi"] = end(e) if acc["hi"] is None else max(acc["hi"], end(e))
        if e["name"] in ("Computing", "Communication"):
            acc["first"] = ts(e) if acc["first"] is None else min(acc["first"], ts(e))
    result = {}
    for step, a in out.items():
        result[step] = {
            "computing_us": a["Computing"],
            "communication_us": a["Communication"],
            "communication_not_overlapped_us": a["Communication(Not Overlapped)"],
            "overlapped_us": a["Communication"] - a["Communication(Not Overlapped)"],
            "free_us": a["Free"],
            "bubble_us": a["bubble"],
            "communication_not_overlapped_exclude_receive_us": a["Communication(Not Overlapped)"] - a["bubble"],
            "stage_us": a["hi"] - a["lo"] - a["bubble"],
            "preparing_us": a["first"] - a["fw"],
        }
    return result


def test_breakdown_from_the_overlap_lanes(tmp_path):
    events = _trace()
    path = tmp_path / "trace_view.json"
    path.write_text(json.dumps(events))
    want = expected_breakdown(events)
    assert sorted(want) == [7, 8]
    assert want[7]["free_us"] == Decimal("260.125"), "the Free slice after step 7's host end counts for step 7"
    assert want[7]["computing_us"] == Decimal("155.5"), "so does the kernel launched from the task queue"
    assert want[8]["bubble_us"] == 40 and want[8]["overlapped_us"] == 70
    report = open_report(path, use_cache=False)
    frame = step_breakdown(report)
    assert frame is not None and list(frame["source"]) == ["timeline", "timeline"]
    assert frame["step"].tolist() == [7, 8]
    for _, row in frame.iterrows():
        for column, value in want[int(row["step"])].items():
            assert math.isclose(row[column], float(value), abs_tol=1e-9), (row["step"], column)


def test_breakdown_of_the_real_trace(samples):
    """The real torch_npu trace_view (2024): one ProfilerStep, launches through the task queue, Computing and
    Free lanes; no step_trace_time came with it, so the numbers are checked against the rules here."""
    path = samples / "torch_npu-trace_view" / "trace_view.json"
    events = json.loads(path.read_text())
    want = expected_breakdown(events)
    assert list(want) == [1]
    frame = step_breakdown(open_report(path, use_cache=False))
    assert frame["step"].tolist() == [1] and frame["source"].tolist() == ["timeline"]
    for column, value in want[1].items():
        assert math.isclose(frame[column].iloc[0], float(value), abs_tol=1e-6), column
    assert frame["computing_us"].iloc[0] > 0 and frame["free_us"].iloc[0] > 0 and frame["communication_us"].iloc[0] == 0


def test_no_steps_one_row_over_the_whole_timeline(tmp_path):
    events = [e for e in _trace() if not str(e.get("name", "")).startswith("ProfilerStep")]
    path = tmp_path / "trace_view.json"
    path.write_text(json.dumps(events))
    frame = step_breakdown(open_report(path, use_cache=False))
    assert len(frame) == 1 and pd.isna(frame["step"].iloc[0])
    ov = [e for e in events if e.get("ph") == "X" and e["pid"] == 33]
    assert math.isclose(frame["computing_us"].iloc[0], sum(e["dur"] for e in ov if e["name"] == "Computing"))
    first_fw = min(Decimal(e["ts"]) for e in events if e.get("ph") == "X" and e["pid"] == 11)
    first_task = min(Decimal(e["ts"]) for e in ov if e["name"] in ("Computing", "Communication"))
    assert math.isclose(frame["preparing_us"].iloc[0], float(first_task - first_fw))


def test_no_step_data_is_none(samples):
    assert step_breakdown(open_report(samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv")) is None


SIM_AGREES = [c for c in BREAKDOWN_COLUMNS if c != "step"]


@pytest.mark.parametrize("column", SIM_AGREES)
def test_step_trace_time_and_the_timeline_agree_on_a_simulated_run(column):
    """The simulator's torch_npu run has both step_trace_time.csv and the Overlap Analysis lanes."""
    report = open_report(SIM_TORCH, use_cache=False)
    from_file = step_breakdown(report)
    computed = step_breakdown_from_timeline(report)
    assert from_file["source"].iloc[0] == "step_trace_time" and computed["source"].iloc[0] == "timeline"
    assert from_file["step"].tolist() == computed["step"].tolist() == [1]
    for a, b in zip(from_file[column], computed[column]):
        assert math.isclose(a, b, abs_tol=0.002), column  # the file rounds each value to 0.001 µs


def test_a_step_that_is_not_a_number_is_empty_and_said(tmp_path):
    """A damaged Step cell makes the column text (categorical): a warning, not a TypeError (found by the fuzz
    campaign)."""
    path = tmp_path / "step_trace_time.csv"
    path.write_text("Step,Computing,Free\n5,1.5,2\n5x,3,4\n")
    from workbench.core.profiling.tables import read_table

    table = read_table(path)
    assert isinstance(table["Step"].dtype, pd.CategoricalDtype)
    frame = step_breakdown(Report(tmp_path, "torch_npu", tables={"step_trace_time": table}))
    assert frame["step"].tolist()[0] == 5 and pd.isna(frame["step"].iloc[1])
    assert frame["computing_us"].tolist() == [1.5, 3.0]
    assert "step_trace_time: 1 rows have a 'Step' that is not a step number; left empty" in frame.attrs["warnings"]


def test_each_rank_of_a_job_keeps_its_own_steps(tmp_path):
    # torch_npu's 2025 step_trace_time.csv names no device: opened as one job of 8 ranks, every rank's
    # steps must stay apart (device = the rank's device), equal to that rank's own file
    from workbench.simtoolkit.profdata import mixed_parallel, resnet50_workload, write_torch_npu_job

    folders = write_torch_npu_job(tmp_path, mixed_parallel(resnet50_workload()), 8, steps=2)
    frame = step_breakdown(open_report(tmp_path, use_cache=False))
    assert sorted(zip(frame["device"].tolist(), frame["step"].tolist())) == [(d, s) for d in range(8) for s in (1, 2)]
    for rank, folder in enumerate(folders):  # rank r runs on device r % 8
        with open(folder / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", newline="") as fh:
            written = list(csv.DictReader(fh))
        device = rank % 8
        mine = frame[frame["device"] == device].sort_values("step")
        assert [float(Decimal(r["Computing"])) for r in written] == pytest.approx(mine["computing_us"].tolist(), abs=0)
