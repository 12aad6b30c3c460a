"""``write_mindspore_prof``: the PROF_* folder a MindSpore (or CANN 5/6 msprof) training run leaves
when only timelines were exported (docs/cann-formats.md §1.3, §3.1)::

    PROF_{n}_{YYYYMMDDhhmmssfff}_{16 letters}/
      host/{info.json,start_info,end_info,data/}
      device_{id}/info.json.{id}, start_info.{id}, end_info.{id}, sample.json, data/
      device_{id}/timeline/msprof_{dev}_{model}_{iter}.json       one file per iteration
      device_{id}/timeline/step_trace_{dev}_{model}_{iter}.json   the iteration's step markers
      (no summary/ folder)

Each iteration's msprof file holds AscendCL (pid 0), Runtime (pid 1) and Task Scheduler (pid 2,
one ``Stream N`` thread per stream) as the CANN 5/6 timelines of :mod:`.timeline`, plus the
iteration's step-trace markers on the Task Scheduler process, thread ``Model ID:{model}`` with tid
= pid + model index (the step-trace viewer of that era writes every component with the one pid of
info.json; that the merged file keeps them there is UNVERIFIED): ``Iteration N`` (from the previous
iteration's end), ``FP_BP Time N``, ``Iteration Refresh N``, ``Reduce_N_M`` (one per gradient
all-reduce) and the ``Data_aug Bound N`` flow, an ``s`` at the iteration end and a ``t`` after the
data-augmentation gap with no ``f`` (names, args and phases from the step-trace viewer, §3.1).
``acl_to_npu`` flows are ``s`` (AscendCL) -> ``t`` (Runtime launch) -> ``f`` (the task) chains
(UNVERIFIED: which hops a real file writes). Device tasks carry no ``OP Type`` arg; their names are
MindSpore full names ``Default/network/{Type}-op{N}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .chips import cann, chip
from .fmt import StagedDir, dur_us, ts_us, write_json_array, write_text
from .msprof import prof_name, write_raw
from .schedule import DEFAULT_PID, DEFAULT_START_NS, Run, Task, simulate
from .timeline import LEGACY_PIDS, device_event, host_event, process_meta, thread_meta
from .workload import Workload

STEP_PID = LEGACY_PIDS["Task Scheduler"]


@dataclass(frozen=True)
class Marker:
    """One step-trace marker slice (ground truth for tests)."""

    name: str
    iteration: int
    start_ns: int
    dur_ns: int


@dataclass(frozen=True)
class Iteration:
    """When one iteration ran on a device: FP start, BP end, iteration end, the previous end,
    its all-reduce spans and the data-augmentation gap that follows it."""

    id: int
    fp_ns: int
    bp_ns: int
    end_ns: int
    prev_end_ns: int | None
    reduces: tuple[tuple[int, int], ...]
    data_aug_ns: int


def mindspore_name(t: Task) -> str:
    """A MindSpore kernel's full name: scope, then ``{OP type}-op{N}``."""
    return f"Default/network-TrainOneStepCell/{t.op.name.replace('/', '_')}/{t.op.type}-op{100 + t.index}"


def iterations(run: Run, dev: int) -> list[Iteration]:
    """The step trace of a device: BP ends with the task at 85 % of the iteration; the last two
    tasks before BP end are its gradient all-reduce (one Reduce span)."""
    out: list[Iteration] = []
    prev: int | None = None
    per_step = [[t for t in run.tasks[dev] if t.step == s] for s in range(1, run.iterations + 1)]
    for n, ts in enumerate(per_step, start=1):
        k = max(1, int(len(ts) * 0.85))
        bp = ts[k - 1].end_ns
        reduce = (ts[max(0, k - 2)].start_ns, bp)
        nxt = per_step[n][0].start_ns if n < len(per_step) else None
        end = ts[-1].end_ns
        out.append(Iteration(n, ts[0].start_ns, bp, end, prev, (reduce,), (nxt - end) if nxt else 0))
        prev = end
    return out


def step_markers(run: Run, dev: int) -> list[Marker]:
    """Every step-trace marker slice of a device, in the order the files hold them."""
    out: list[Marker] = []
    for it in iterations(run, dev):
        start = it.prev_end_ns if it.prev_end_ns is not None else it.fp_ns
        out.append(Marker(f"Iteration {it.id}", it.id, start, it.end_ns - start))
        out.append(Marker(f"FP_BP Time {it.id}", it.id, it.fp_ns, it.bp_ns - it.fp_ns))
        out.append(Marker(f"Iteration Refresh {it.id}", it.id, it.bp_ns, it.end_ns - it.bp_ns))
        for m, (a, b) in enumerate(it.reduces):
            out.append(Marker(f"Reduce_{it.id}_{m}", it.id, a, b - a))
    return out


def _step_events(run: Run, dev: int, it: Iteration, pid: int, tid: int) -> list[tuple[int, dict]]:
    cats = {"Iteration": "Iteration Time", "FP_BP Time": "FP_BP Time", "Iteration Refresh": "Iteration Refresh"}
    out: list[tuple[int, dict]] = []
    for mk in (m for m in step_markers(run, dev) if m.iteration == it.id):
        kind = mk.name.rsplit(" ", 1)[0] if not mk.name.startswith("Reduce_") else "Reduce"
        if kind == "Iteration":
            args = {
                "Iteration ID": it.id,
                "FP Start": ts_us(it.fp_ns),
                "BP End": ts_us(it.bp_ns),
                "Iteration End": ts_us(it.end_ns),
                "Iteration Time(ns)": mk.dur_ns,
            }
        elif kind == "FP_BP Time":
            args = {"Iteration ID": it.id, "FP Start": ts_us(it.fp_ns), "BP End": ts_us(it.bp_ns)}
            args["FP_BP Time(ns)"] = mk.dur_ns
        elif kind == "Iteration Refresh":
            args = {"Iteration ID": it.id, "BP End": ts_us(it.bp_ns), "Iteration End": ts_us(it.end_ns)}
            args["Iteration Refresh(ns)"] = mk.dur_ns
        else:
            m = int(mk.name.rsplit("_", 1)[1])
            args = {
                "Iteration ID": it.id,
                f"Reduce Start {m}": ts_us(mk.start_ns),
                f"Reduce End {m}": ts_us(mk.start_ns + mk.dur_ns),
            }
        event = {
            "name": mk.name,
            "pid": pid,
            "tid": tid,
            "ts": ts_us(mk.start_ns),
            "dur": dur_us(mk.dur_ns),
            "args": args,
            "ph": "X",
            "cat": cats.get(kind, "Reduce"),
        }
        out.append((mk.start_ns, event))
    name = f"Data_aug Bound {it.id}"
    points: tuple[tuple[str, int, dict[str, Any]], ...] = (
        ("s", it.end_ns, {"Iteration ID": it.id}),
        ("t", it.end_ns + it.data_aug_ns, {"Data_aug Bound(us)": round(it.data_aug_ns / 1000, 2)}),
    )
    for ph, ts, flow_args in points:
        flow: dict[str, Any] = {"name": name, "cat": "Data_aug Bound", "ph": ph, "ts": ts_us(ts), "pid": pid}
        flow.update({"tid": tid, "id": name, "args": flow_args})
        out.append((ts, flow))
    return out


def _flow_chain(t: Task, seq: int) -> list[tuple[int, int, dict]]:
    """acl_to_npu: AscendCL (launch) -> Runtime (kernel launch) -> the device task."""
    points: tuple[tuple[str, int, int, int, dict[str, str]], ...] = (
        ("s", LEGACY_PIDS["AscendCL"], t.launch_tid, t.launch_ns, {}),
        ("t", LEGACY_PIDS["Runtime"], t.launch_tid, t.launch_ns + 1_000, {}),
        ("f", LEGACY_PIDS["Task Scheduler"], t.stream_id, t.start_ns, {"bp": "e"}),
    )
    out = []
    for k, (ph, pid, tid, ts, extra) in enumerate(points):
        ev = {"name": "acl_to_npu", "ph": ph, "cat": "async_acl_npu", "id": t.connection_id}
        ev.update({"pid": pid, "tid": tid, "ts": ts_us(ts), **extra})
        out.append((ts, seq + k, ev))
    return out


def _device_tasks(run: Run, dev: int, step: int) -> list[Task]:
    return [t for t in run.tasks[dev] if t.step == step]


def _iteration_of(its: list[Iteration], ns: int) -> int:
    """The iteration a host call belongs to: the first that ends at or after it (else the last)."""
    return next((it.id for it in its if ns <= it.end_ns), its[-1].id)


def iteration_events(run: Run, dev: int, it: Iteration) -> list[dict]:
    """Events of ``msprof_{dev}_{model}_{iter}.json``: metadata, then everything by time."""
    tid = run.main_tid(dev)
    tasks = _device_tasks(run, dev, it.id)
    its = iterations(run, dev)
    meta = process_meta(LEGACY_PIDS["AscendCL"], "AscendCL", "CPU", 0) + thread_meta(0, tid, f"Thread {tid}", tid)
    meta += process_meta(LEGACY_PIDS["Runtime"], "Runtime", "CPU", 1) + thread_meta(1, tid, f"Thread {tid}", tid)
    meta += process_meta(STEP_PID, "Task Scheduler", "NPU", 2)
    for stream in sorted({t.stream_id for t in tasks}):
        meta += thread_meta(STEP_PID, stream, f"Stream {stream}", stream)
    step_tid = STEP_PID + 0  # pid + model index (the one model of the run)
    meta += thread_meta(STEP_PID, step_tid, f"Model ID:{run.model_id}", run.model_id)
    timed: list[tuple[int, int, dict]] = []
    seq = 0
    for e in run.host[dev]:
        if e.level not in ("acl", "runtime") or _iteration_of(its, e.start_ns) != it.id:
            continue
        pid = LEGACY_PIDS["AscendCL" if e.level == "acl" else "Runtime"]
        ev = host_event(e, pid)
        ev["name"] = e.name if e.level == "acl" else "rt" + e.name
        timed.append((e.start_ns, seq, ev))
        seq += 1
    for t in tasks:
        ev = device_event(t, STEP_PID, run.model_id)
        ev["name"] = mindspore_name(t)
        timed.append((t.start_ns, seq, ev))
        timed += _flow_chain(t, seq + 1)
        seq += 4
    for ts, ev in _step_events(run, dev, it, STEP_PID, step_tid):
        timed.append((ts, seq, ev))
        seq += 1
    timed.sort(key=lambda x: (x[0], x[1]))
    return meta + [e for _, _, e in timed]


def step_trace_file_events(run: Run, dev: int, it: Iteration) -> list[dict]:
    """``step_trace_{dev}_{model}_{iter}.json``: the step trace viewer's own file (pid of info.json)."""
    pid = run.pid
    meta = process_meta(pid, "Step Trace", "NPU", 3)
    meta += thread_meta(pid, pid, f"Model ID:{run.model_id}", run.model_id)
    return meta + [e for _, e in sorted(_step_events(run, dev, it, pid, pid), key=lambda x: x[0])]


def write_mindspore_prof(
    out_dir,
    workload: Workload,
    soc: str = "Ascend910",
    iterations_count: int = 3,
    devices: list[int] | tuple[int, ...] = (0,),
    seed: int = 0,
    *,
    cann_version: str = "6.0.1",
    start_ns: int = DEFAULT_START_NS,
    pid: int = DEFAULT_PID,
    prof_index: int = 1,
) -> Path:
    """Write the PROF_* folder of a MindSpore-style offline-model training run (CANN 5/6 timelines
    only, one msprof file per iteration) under ``out_dir`` and return its path."""
    cv = cann(cann_version)
    chip(soc)  # an unknown soc is an error before anything is written
    if not cv.legacy:
        raise ValueError(f"cann_version: {cann_version!r} is not a CANN 5/6 version (this layout is theirs)")
    run = simulate_mindspore(workload, soc, iterations_count, devices, seed, start_ns=start_ns, pid=pid)
    target = Path(out_dir) / prof_name(run, seed, prof_index)
    with StagedDir(target) as root:
        write_raw(root, run, cv)
        for dev in run.devices:
            end_info = {"collectionTimeEnd": str(run.end_ns // 1000), "rankId": str(dev)}  # rankId: InfoConfReader
            write_text(root / f"device_{dev}" / f"end_info.{dev}", json.dumps(end_info))
            timeline = root / f"device_{dev}" / "timeline"
            for it in iterations(run, dev):
                suffix = f"{dev}_{run.model_id}_{it.id}"
                write_json_array(timeline / f"msprof_{suffix}.json", iteration_events(run, dev, it))
                write_json_array(timeline / f"step_trace_{suffix}.json", step_trace_file_events(run, dev, it))
    return target


def simulate_mindspore(
    workload: Workload,
    soc: str = "Ascend910",
    iterations_count: int = 3,
    devices: list[int] | tuple[int, ...] = (0,),
    seed: int = 0,
    *,
    start_ns: int = DEFAULT_START_NS,
    pid: int = DEFAULT_PID,
) -> Run:
    """The run :func:`write_mindspore_prof` writes (same arguments): the ground truth for tests."""
    model = Workload(workload.name, workload.ops, kind="model", model_name=workload.model_name)
    return simulate(
        model,
        chip(soc),
        style="model",
        devices=list(devices),
        iterations=iterations_count,
        seed=seed,
        start_ns=start_ns,
        pid=pid,
    )
