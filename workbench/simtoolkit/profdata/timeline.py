"""Chrome-trace events of a simulated run, in the three dialects the tools write.

- msprof 8.x/7.x ``msprof_*.json``: pids packed ``(pid << 10) | (sort_index << 5) | device``,
  device 31 = host (reference §3), CANN / Ascend Hardware / counters, HostToDevice flows.
- msprof 5/6 ``device_N/timeline/*.json``: per-component processes (AscendCL, Runtime,
  Task Scheduler) and ``acl_to_npu`` flows (pid values UNVERIFIED: small component numbers).
- torch_npu ``trace_view.json``: Python / CANN / Ascend Hardware / Overlap Analysis with the pid
  scheme and the key order of the real sample, async_task_queue / HostToDevice / async_npu flows.

Key order inside each event follows the real trace_view.json sample, section by section.
"""

from __future__ import annotations

from collections.abc import Iterator

from .fmt import dur_us, ts_us
from .hccl import CommOp, CommTask, thread_layout
from .overlap import LANES, lane_slices
from .schedule import MODEL_ID_NONE, HostEvent, PyEvent, Run, Task

SORT = {
    "CANN": 7,
    "Ascend Hardware": 14,
    "AI Core Freq": 15,
    "NPU MEM": 19,
    "HBM": 20,
    "Step Trace": 21,
    "Overlap Analysis": 22,
}  # 7/14/15 from reference §3; 19+ ("others from 19") assignment UNVERIFIED
HOST_DEVICE = 31
SUBTASK_NONE = 4294967295


def format_pid(pid: int, sort_index: int, device: int) -> int:
    """msprof's packed pid: (pid << 10) | (sort_index << 5) | device (31 = host)."""
    return (pid << 10) | (sort_index << 5) | device


def h2d_flow_id(connection_id: int) -> str:
    """HostToDevice flow id as in the real sample: (connection_id << 32) | 0xFFFFFFFF, as a string.

    Above connection id 2**21 these exceed 2**53: readers must keep them as strings."""
    return str((connection_id << 32) | 0xFFFFFFFF)


def _meta(name: str, pid: int, tid: int, args: dict) -> dict:
    return {"name": name, "pid": pid, "tid": tid, "args": args, "ph": "M"}


def process_meta(pid: int, name: str, label: str, sort_index: int) -> list[dict]:
    return [
        _meta("process_name", pid, 0, {"name": name}),
        _meta("process_labels", pid, 0, {"labels": label}),
        _meta("process_sort_index", pid, 0, {"sort_index": sort_index}),
    ]


def thread_meta(pid: int, tid: int, name: str, sort_index: int) -> list[dict]:
    return [
        _meta("thread_name", pid, tid, {"name": name}),
        _meta("thread_sort_index", pid, tid, {"sort_index": sort_index}),
    ]


def device_event(t: Task, pid: int, model_id: int, op_type: bool = False) -> dict:
    """An Ascend Hardware / Task Scheduler slice; ``op_type`` adds the kernel's ``OP Type`` arg."""
    event = {
        "name": t.op.name,
        "pid": pid,
        "tid": t.stream_id,
        "ts": ts_us(t.start_ns),
        "dur": dur_us(t.dur_ns),
        "args": {
            "Model Id": model_id,
            "Task Type": t.task_type,
            "Stream Id": t.stream_id,
            "Task Id": t.task_id,
            "Batch Id": 0,
            "Subtask Id": SUBTASK_NONE,
            "connection_id": t.connection_id,
        },
        "ph": "X",
    }
    if op_type:
        event["args"]["OP Type"] = t.op.type
    return event


def host_event(e: HostEvent, pid: int) -> dict:
    api_id = e.name if e.level != "node" else "launch"
    return {
        "name": e.label,
        "pid": pid,
        "tid": e.tid,
        "ts": ts_us(e.start_ns),
        "dur": dur_us(e.dur_ns),
        "args": {
            "Thread Id": e.tid,
            "Mode": e.mode,
            "level": e.level,
            "id": api_id,
            "item_id": e.item_id,
            "connection_id": e.connection_id,
        },
        "ph": "X",
    }


def h2d_flow(t: Task, cann_pid: int, hw_pid: int) -> tuple[dict, dict]:
    fid = h2d_flow_id(t.connection_id)
    name = f"HostToDevice{fid}"
    s = {
        "name": name,
        "ph": "s",
        "cat": "HostToDevice",
        "id": fid,
        "pid": cann_pid,
        "tid": t.launch_tid,
        "ts": ts_us(t.launch_ns),
    }
    f = {
        "name": name,
        "ph": "f",
        "id": fid,
        "ts": ts_us(t.start_ns),
        "cat": "HostToDevice",
        "pid": hw_pid,
        "tid": t.stream_id,
        "bp": "e",
    }
    return s, f


def _sorted(events: list[tuple[int, int, dict]]) -> Iterator[dict]:
    events.sort(key=lambda x: (x[0], x[1]))
    return (e for _, _, e in events)


# ---- msprof 8.x / 7.x --------------------------------------------------------------------------


def msprof_events(run: Run) -> Iterator[dict]:
    """Events of ``msprof_{timestamp}.json``: metadata first, then everything by time."""
    cann = format_pid(run.pid, SORT["CANN"], HOST_DEVICE)
    meta = process_meta(cann, "CANN", "CPU", SORT["CANN"])
    tids = sorted({e.tid for d in run.devices for e in run.host[d]})
    for tid in tids:
        meta += thread_meta(cann, tid, f"Thread {tid}", tid)
    timed: list[tuple[int, int, dict]] = []
    seq = 0
    for dev in run.devices:
        hw = format_pid(run.pid, SORT["Ascend Hardware"], dev)
        meta += process_meta(hw, "Ascend Hardware", "NPU", SORT["Ascend Hardware"])
        for stream in sorted({t.stream_id for t in run.tasks[dev]}):
            meta += thread_meta(hw, stream, f"Stream {stream}", stream)
        for e in run.host[dev]:
            timed.append((e.start_ns, seq, host_event(e, cann)))
            seq += 1
        for t in run.tasks[dev]:
            s, f = h2d_flow(t, cann, hw)
            timed.append((t.launch_ns, seq, s))
            timed.append((t.start_ns, seq + 1, device_event(t, hw, run.model_id)))
            timed.append((t.start_ns, seq + 2, f))
            seq += 3
        for name, series in counter_series(run, dev).items():
            cpid = format_pid(run.pid, SORT[name], dev)
            meta += process_meta(cpid, name, "NPU", SORT[name])
            for ts, args in series:
                timed.append((ts, seq, {"name": name, "pid": cpid, "tid": 0, "ts": ts_us(ts), "args": args, "ph": "C"}))
                seq += 1
    yield from meta
    yield from _sorted(timed)


def counter_series(run: Run, dev: int) -> dict[str, list[tuple[int, dict]]]:
    """Counter tracks (AI Core Freq in MHz, NPU MEM in KB, HBM in MB/s on HBM chips); arg names UNVERIFIED."""
    tasks = run.tasks[dev]
    first, last = tasks[0].start_ns - 50_000, max(t.end_ns for t in tasks) + 50_000
    freq = [(first, {"MHz": run.chip.freq_mhz}), (last, {"MHz": run.chip.freq_mhz})]
    weights = sum(op.nbytes for op in run.workload.ops) // 1024
    mem, hbm = [], []
    step = max(1, len(tasks) // 8)
    for i in range(0, len(tasks), step):
        t = tasks[i]
        used = 1_048_576 + weights + (t.index * 37) % 4096 * 16
        mem.append((t.start_ns, {"APP/DDR": 0, "APP/HBM": used, "APP/Memory": used}))
        bw = round(t.op.nbytes / max(t.dur_ns, 1) * 1000 / (1 << 20), 3)
        hbm.append((t.start_ns, {"Read(MB/s)": bw, "Write(MB/s)": round(bw / 3, 3)}))
    out = {"AI Core Freq": freq, "NPU MEM": mem}
    if run.chip.hbm_kb >= 32 * 1024 * 1024:
        out["HBM"] = hbm
    return out


def step_trace_events(run: Run) -> Iterator[dict]:
    """``step_trace_{timestamp}.json`` (model runs): one Iteration slice per iteration and device."""
    meta, timed = [], []
    for dev in run.devices:
        pid = format_pid(run.pid, SORT["Step Trace"], dev)
        meta += process_meta(pid, "Step Trace", "NPU", SORT["Step Trace"])
        meta += thread_meta(pid, 70001, f"Step Trace(Model ID:{run.model_id})", 70001)
        for it in iteration_bounds(run, dev):
            step, fp, bp, end, prev_end = it
            timed.append(
                (
                    fp,
                    step,
                    {
                        "name": f"Iteration {step}",
                        "pid": pid,
                        "tid": 70001,
                        "ts": ts_us(fp),
                        "dur": dur_us(end - fp),
                        "args": {
                            "Iteration ID": step,
                            "FP Start": ts_us(fp),
                            "BP End": ts_us(bp),
                            "Iteration End": ts_us(end),
                            "Iteration Time(us)": dur_us(end - (prev_end or fp)),
                        },
                        "ph": "X",
                    },
                )
            )
    yield from meta
    yield from _sorted(timed)


def iteration_bounds(run: Run, dev: int) -> list[tuple[int, int, int, int, int | None]]:
    """(iteration, FP start, BP end, iteration end, previous iteration end) per iteration of a device."""
    out, prev = [], None
    for step in range(1, run.iterations + 1):
        ts = [t for t in run.tasks[dev] if t.step == step]
        fp, end = ts[0].start_ns, max(t.end_ns for t in ts)
        out.append((step, fp, end, end, prev))
        prev = end
    return out


# ---- msprof 5 / 6 ------------------------------------------------------------------------------

LEGACY_PIDS = {"AscendCL": 0, "Runtime": 1, "Task Scheduler": 2}


def legacy_events(run: Run, dev: int, parts: tuple[str, ...]) -> Iterator[dict]:
    """Old per-device timeline: ``parts`` picks components (msprof = all, task_time, acl, runtime_api)."""
    meta, timed, seq = [], [], 0
    tid = run.main_tid(dev)
    if "acl" in parts:
        meta += process_meta(LEGACY_PIDS["AscendCL"], "AscendCL", "CPU", 0) + thread_meta(0, tid, f"Thread {tid}", tid)
        for e in run.host[dev]:
            if e.level == "acl":
                ev = host_event(e, LEGACY_PIDS["AscendCL"])
                ev["name"] = e.name
                timed.append((e.start_ns, seq, ev))
                seq += 1
    if "runtime" in parts:
        meta += process_meta(LEGACY_PIDS["Runtime"], "Runtime", "CPU", 1) + thread_meta(1, tid, f"Thread {tid}", tid)
        for e in run.host[dev]:
            if e.level == "runtime":
                ev = host_event(e, LEGACY_PIDS["Runtime"])
                ev["name"] = "rt" + e.name
                timed.append((e.start_ns, seq, ev))
                seq += 1
    if "task" in parts:
        pid = LEGACY_PIDS["Task Scheduler"]
        meta += process_meta(pid, "Task Scheduler", "NPU", 2)
        for stream in sorted({t.stream_id for t in run.tasks[dev]}):
            meta += thread_meta(pid, stream, f"Stream {stream}", stream)
        for t in run.tasks[dev]:
            timed.append((t.start_ns, seq, device_event(t, pid, run.model_id)))
            seq += 1
            if "runtime" in parts:
                s = {
                    "name": "acl_to_npu",
                    "ph": "s",
                    "cat": "async_acl_npu",
                    "id": t.connection_id,
                    "pid": LEGACY_PIDS["Runtime"],
                    "tid": t.launch_tid,
                    "ts": ts_us(t.launch_ns + 1_000),
                }
                f = {
                    "name": "acl_to_npu",
                    "ph": "f",
                    "id": t.connection_id,
                    "ts": ts_us(t.start_ns),
                    "cat": "async_acl_npu",
                    "pid": pid,
                    "tid": t.stream_id,
                    "bp": "e",
                }
                timed.append((t.launch_ns + 1_000, seq, s))
                timed.append((t.start_ns, seq + 1, f))
                seq += 2
    yield from meta
    yield from _sorted(timed)


# ---- torch_npu ---------------------------------------------------------------------------------


def torch_pids(run: Run) -> dict[str, int]:
    """The pid scheme of the real torch_npu sample (Python = OS pid, CANN = pid*100+2, ...)."""
    return {
        "Python": run.pid,
        "CANN": run.pid * 100 + 2,
        "Ascend Hardware": 800,
        "Overlap Analysis": run.pid * 10000 + 1100,
        "Communication": 832,  # UNVERIFIED (the msprof pid packing of sort index 26, device 0)
    }


def _py_event(e: PyEvent, pid: int) -> dict:
    return {
        "ph": "X",
        "name": e.name,
        "pid": pid,
        "tid": e.tid,
        "ts": ts_us(e.start_ns),
        "dur": dur_us(e.dur_ns),
        "cat": e.cat,
        "args": e.args,
    }


def _py_flow(ph: str, name: str, fid, pid: int, tid: int, ts: int, cat: str) -> dict:
    return {"ph": ph, "bp": "e", "name": name, "id": fid, "pid": pid, "tid": tid, "ts": ts_us(ts), "cat": cat}


def _py_meta(name: str, pid: int, tid: int, args: dict) -> dict:
    return {"ph": "M", "name": name, "pid": pid, "tid": tid, "args": args}


def comm_op_event(op: CommOp, pid: int, tid: int) -> dict:
    """A communication operator on its ``Group ... Communication`` thread (msprof's HcclOpTraceEvent args)."""
    t = op.task
    args = {"connection_id": t.connection_id, "model id": op.model_id, "data_type": op.data_type}
    args.update({"alg_type": op.alg_type, "count": op.count})
    return {
        "name": t.op.name,
        "pid": pid,
        "tid": tid,
        "ts": ts_us(t.start_ns),
        "dur": dur_us(t.dur_ns),
        "args": args,
        "ph": "X",
    }


def comm_task_event(op: CommOp, c: CommTask, pid: int, tid: int) -> dict:
    """A small communication task on its ``Plane N`` thread (a subset of msprof's HcclTaskTraceEvent args)."""
    args = {
        "notify_id": c.notify_id,
        "stream id": c.stream_id,
        "task id": c.task_id,
        "task type": c.kind,
        "src rank": c.src_rank,
        "dst rank": c.dst_rank,
        "transport type": c.transport,
        "size(Byte)": c.size,
        "data type": op.data_type,
        "link type": c.link,
    }
    return {
        "name": c.kind,
        "pid": pid,
        "tid": tid,
        "ts": ts_us(c.start_ns),
        "dur": dur_us(c.dur_ns),
        "args": args,
        "ph": "X",
    }


def comm_hw_event(op: CommOp, c: CommTask, pid: int) -> dict:
    """A small communication task on the Ascend Hardware stream it ran on, named by its operator."""
    return {
        "name": op.task.op.name,
        "pid": pid,
        "tid": c.stream_id,
        "ts": ts_us(c.start_ns),
        "dur": dur_us(c.dur_ns),
        "args": {
            "Model Id": op.model_id,
            "Task Type": c.hw_type,
            "Stream Id": c.stream_id,
            "Task Id": c.task_id,
            "Batch Id": 0,
            "Subtask Id": SUBTASK_NONE,
            "connection_id": op.task.connection_id,
        },
        "ph": "X",
    }


def torch_events(run: Run, dev: int, op_types: bool = False, comm: list[CommOp] | None = None) -> Iterator[dict]:
    """Events of one rank's ``trace_view.json``, in the section order of the real sample. ``comm``:
    the rank's communication operators (:mod:`.hccl`), shown as their small tasks on the hardware
    streams and on a ``Communication`` process (instead of one slice per operator)."""
    comm = comm or []
    by_task = {id(op.task): op for op in comm}
    pids = torch_pids(run)
    py, cann, hw, ov = pids["Python"], pids["CANN"], pids["Ascend Hardware"], pids["Overlap Analysis"]
    pyev = run.python[dev]
    for tid in sorted({e.tid for e in pyev}):  # Python layer, thread by thread
        for e in (x for x in pyev if x.tid == tid):
            yield _py_event(e, py)
            if e.queue_id is not None:
                yield _py_flow(
                    "s" if e.cat == "enqueue" else "f",
                    "enqueue_to_dequeue",
                    e.queue_id,
                    py,
                    e.tid,
                    e.start_ns,
                    "async_task_queue",
                )
    py_tids = sorted({e.tid for e in pyev})
    yield _py_meta("process_name", py, 0, {"name": "Python"})
    yield _py_meta("process_labels", py, 0, {"labels": "CPU"})
    yield _py_meta("process_sort_index", py, 0, {"sort_index": 0})
    for tid in py_tids:
        yield _py_meta("thread_name", py, tid, {"name": f"Thread {tid}"})
        yield _py_meta("thread_sort_index", py, tid, {"sort_index": tid})
    tasks = run.tasks[dev]
    streams = sorted(
        {t.stream_id for t in tasks if id(t) not in by_task} | {c.stream_id for op in comm for c in op.tasks}
    )
    meta = [_meta("process_name", hw, 0, {"name": "Ascend Hardware"})]
    for s in streams:
        meta += thread_meta(hw, s, f"Stream {s}", s)
    meta += [_meta("process_labels", hw, 0, {"labels": "NPU"}), _meta("process_sort_index", hw, 0, {"sort_index": 8})]
    cann_tids = sorted({e.tid for e in run.host[dev]})
    meta.append(_meta("process_name", cann, 0, {"name": "CANN"}))
    meta += [_meta("thread_name", cann, t, {"name": f"Thread {t}"}) for t in cann_tids]
    meta += [_meta("thread_sort_index", cann, t, {"sort_index": t}) for t in cann_tids]
    meta += [
        _meta("process_labels", cann, 0, {"labels": "CPU"}),
        _meta("process_sort_index", cann, 0, {"sort_index": 2}),
    ]
    meta.append(_meta("process_name", ov, 0, {"name": "Overlap Analysis"}))
    for tid, name in enumerate(LANES):
        meta.append(_meta("thread_name", ov, tid, {"name": name}))
    meta += [_meta("process_labels", ov, 0, {"labels": "NPU"}), _meta("process_sort_index", ov, 0, {"sort_index": 11})]
    layout = thread_layout(comm)
    if comm:
        cp = pids["Communication"]
        meta += process_meta(cp, "Communication", "NPU", 9)  # sort index UNVERIFIED
        for group, (gtid, plane_tids) in layout.items():
            meta += thread_meta(cp, gtid, f"Group {group} Communication", gtid)
            for plane, ptid in plane_tids.items():
                meta += thread_meta(cp, ptid, f"Plane {plane}", ptid)
    yield from meta
    timed, seq = [], 0
    for e in run.host[dev]:
        timed.append((e.start_ns, seq, host_event(e, cann)))
        seq += 1
    for t in tasks:
        s, f = h2d_flow(t, cann, hw)
        timed.append((t.launch_ns, seq, s))
        op = by_task.get(id(t))
        if op is None:
            timed.append((t.start_ns, seq + 1, device_event(t, hw, MODEL_ID_NONE, op_types)))
        else:
            cp = pids["Communication"]
            gtid, plane_tids = layout[op.group]
            timed.append((t.start_ns, seq + 1, comm_op_event(op, cp, gtid)))
            for c in op.tasks:
                timed.append((c.start_ns, seq + 1, comm_hw_event(op, c, hw)))
                timed.append((c.start_ns, seq + 1, comm_task_event(op, c, cp, plane_tids[c.plane])))
        timed.append((t.start_ns, seq + 2, f))
        seq += 3
    for x in lane_slices(tasks, {id(op.task) for op in comm}):  # Overlap Analysis (reference §3)
        event = {"name": x.name, "pid": ov, "tid": x.tid, "ts": ts_us(x.start_ns), "dur": dur_us(x.dur_ns), "ph": "X"}
        timed.append((x.start_ns, seq, event))
        seq += 1
    yield from _sorted(timed)
    for e in pyev:  # torch_to_npu: framework op -> NPU kernel; id = device start in ns
        if e.task is not None:
            fid = int(ts_us(e.task.start_ns).replace(".", ""))
            yield _py_flow("s", "torch_to_npu", fid, py, e.tid, e.start_ns, "async_npu")
            yield _py_flow("f", "torch_to_npu", fid, hw, e.task.stream_id, e.task.start_ns, "async_npu")
