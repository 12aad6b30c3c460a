"""Streaming writer of very large timelines (1 M - 5 M events) for the loader benchmark.

The events have the same shape, key order and separators as :mod:`timeline` produces (a test
compares both), but are formatted from templates and written in chunks so that a 1 GB file costs
neither 5 M dicts nor json.dumps per event. Forms: ``"msprof"`` (packed pids, CANN + Ascend
Hardware over two devices, HostToDevice flows whose ids pass 2**53 after ~2 M connections) and
``"torch_npu"`` (Python / CANN / Ascend Hardware / Overlap Analysis, three flow kinds).
"""

from __future__ import annotations

import json
from pathlib import Path

from .fmt import dump_event
from .schedule import DEFAULT_PID, DEFAULT_START_NS
from .timeline import SORT, format_pid, h2d_flow_id, process_meta, thread_meta, torch_pids

_NAMES = [
    ("Conv2D", "aclnnConvolution", "aten::convolution", "AI_CORE"),
    ("MatMulV2", "aclnnMatmul", "aten::matmul", "AI_CORE"),
    ("Add", "aclnnAdd", "aten::add", "AI_VECTOR_CORE"),
    ("Relu", "aclnnRelu", "aten::relu", "AI_VECTOR_CORE"),
    ("LayerNormV3", "aclnnLayerNorm", "aten::layer_norm", "AI_VECTOR_CORE"),
    ("FlashAttentionScore", "aclnnFlashAttentionScore", "npu::npu_fusion_attention", "MIX_AIC"),
    ("Cast", "aclnnCast", "aten::to", "AI_VECTOR_CORE"),
    ("Transpose", "aclnnPermute", "aten::permute", "AI_VECTOR_CORE"),
]


# Connection ids start high (a process that ran a while before profiling), so that HostToDevice ids
# cross 2**53 (at connection id 2**21) early in every file: loaders must keep them as strings.
CONNECTION_BASE = 2_000_000


def _ts(ns: int) -> str:
    return f"{ns // 1000}.{ns % 1000:03d}"


class _Lcg:
    """Tiny deterministic generator (much faster than random.Random for millions of draws)."""

    def __init__(self, seed: int):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF

    def next(self, lo: int, hi: int) -> int:
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return lo + self.x % (hi - lo)


def _x(name: str, pid: int, tid: int, ts: int, dur: int, args: str) -> str:
    return (
        f'{{"name": "{name}", "pid": {pid}, "tid": {tid}, "ts": "{_ts(ts)}", "dur": {dur / 1000!r}, '
        f'"args": {args}, "ph": "X"}}'
    )


def _api_args(tid: int, mode: str, level: str, api_id: str, item: str, conn: int) -> str:
    return (
        f'{{"Thread Id": {tid}, "Mode": "{mode}", "level": "{level}", "id": "{api_id}", "item_id": "{item}", '
        f'"connection_id": {conn}}}'
    )


def _dev_args(model: int, ttype: str, stream: int, task: int, conn: int) -> str:
    return (
        f'{{"Model Id": {model}, "Task Type": "{ttype}", "Stream Id": {stream}, "Task Id": {task}, '
        f'"Batch Id": 0, "Subtask Id": 4294967295, "connection_id": {conn}}}'
    )


def _h2d(conn: int, cann: int, tid: int, launch: int, hw: int, stream: int, start: int) -> tuple[str, str]:
    fid = h2d_flow_id(conn)
    s = (
        f'{{"name": "HostToDevice{fid}", "ph": "s", "cat": "HostToDevice", "id": "{fid}", "pid": {cann}, '
        f'"tid": {tid}, "ts": "{_ts(launch)}"}}'
    )
    f = (
        f'{{"name": "HostToDevice{fid}", "ph": "f", "id": "{fid}", "ts": "{_ts(start)}", "cat": "HostToDevice", '
        f'"pid": {hw}, "tid": {stream}, "bp": "e"}}'
    )
    return s, f


def _pyx(name: str, pid: int, tid: int, ts: int, dur: int, cat: str, args: str) -> str:
    return (
        f'{{"ph": "X", "name": "{name}", "pid": {pid}, "tid": {tid}, "ts": "{_ts(ts)}", "dur": {dur / 1000!r}, '
        f'"cat": "{cat}", "args": {args}}}'
    )


def _pyflow(ph: str, name: str, fid: int, pid: int, tid: int, ts: int, cat: str) -> str:
    return (
        f'{{"ph": "{ph}", "bp": "e", "name": "{name}", "id": {fid}, "pid": {pid}, "tid": {tid}, '
        f'"ts": "{_ts(ts)}", "cat": "{cat}"}}'
    )


def _msprof_units(pid: int, rng: _Lcg, start: int):
    cann = format_pid(pid, SORT["CANN"], 31)
    hws = [format_pid(pid, SORT["Ascend Hardware"], d) for d in (0, 1)]
    host = [start, start + 3_000]
    dev_free = [start + 20_000, start + 23_000]
    task_ids = [100, 100]
    conn = CONNECTION_BASE
    k = 0
    while True:
        d = k & 1
        typ, acl, _torch, ttype = _NAMES[rng.next(0, len(_NAMES))]
        tid, stream, hw = pid + d, 2 + d, hws[d]
        h = host[d]
        acl_dur = rng.next(9_000, 16_000)
        launch = h + rng.next(1_000, 2_000)
        node_dur = acl_dur - rng.next(2_500, 4_000)
        dur = rng.next(2_000, 60_000)
        begin = max(dev_free[d] + rng.next(300, 1_500), launch + rng.next(12_000, 20_000))
        name = f"{acl}_{typ}_{typ}"
        yield [
            _x(f"AscendCL@{acl}", cann, tid, h, acl_dur, _api_args(tid, "ACL_NN", "acl", acl, "0", conn)),
            _x("Node@launch", cann, tid, launch, node_dur, _api_args(tid, "ACL_OP", "node", "launch", name, conn + 1)),
            *_pair_around(
                _h2d(conn + 1, cann, tid, launch, hw, stream, begin),
                _x(name, hw, stream, begin, dur, _dev_args(4294967295, ttype, stream, task_ids[d], conn + 1)),
            ),
        ]
        conn += 2
        task_ids[d] = task_ids[d] + 1 if task_ids[d] < 65535 else 0
        host[d] = h + acl_dur + rng.next(2_000, 9_000)
        dev_free[d] = begin + dur
        k += 1


def _pair_around(flow: tuple[str, str], middle: str) -> list[str]:
    return [flow[0], middle, flow[1]]


def _torch_units(pid: int, rng: _Lcg, start: int):
    pids = torch_pids(_Pid(pid))
    py, cann, hw, ov = pids["Python"], pids["CANN"], pids["Ascend Hardware"], pids["Overlap Analysis"]
    main, queue, stream = pid, pid + 1409, 3
    h, qfree, dev_free, conn, task_id = start, start, start + 30_000, CONNECTION_BASE, 100
    seq_args = '{"Sequence number": -1, "Fwd thread id": 0}'
    while True:
        typ, acl, torch, ttype = _NAMES[rng.next(0, len(_NAMES))]
        op_dur = rng.next(15_000, 40_000)
        enq = h + op_dur * 3 // 5
        enq_dur = rng.next(900, 2_000)
        deq = max(enq + rng.next(4_000, 12_000), qfree)
        acl_start = deq + rng.next(1_500, 3_000)
        launch = acl_start + rng.next(1_500, 3_000)
        node_dur = rng.next(6_000, 12_000)
        acl_end = launch + node_dur + rng.next(800, 1_600)
        deq_end = acl_end + rng.next(1_000, 2_500)
        dur = rng.next(2_000, 60_000)
        begin = max(dev_free + rng.next(300, 1_500), launch + rng.next(12_000, 20_000))
        name = f"{acl}_{typ}_{typ}"
        qid = conn
        s, f = _h2d(conn + 1, cann, queue, launch, hw, stream, begin)
        fid = int(_ts(begin).replace(".", ""))
        yield [
            _pyx(torch, py, main, h, op_dur, "cpu_op", seq_args),
            _pyx("Enqueue", py, main, enq, enq_dur, "enqueue", f'{{"correlation_id": {qid}}}'),
            _pyflow("s", "enqueue_to_dequeue", qid, py, main, enq, "async_task_queue"),
            _pyx(f"Dequeue@{acl}", py, queue, deq, deq_end - deq, "dequeue", f'{{"correlation_id": {qid}}}'),
            _pyflow("f", "enqueue_to_dequeue", qid, py, queue, deq, "async_task_queue"),
            _x(
                f"AscendCL@{acl}",
                cann,
                queue,
                acl_start,
                acl_end - acl_start,
                _api_args(queue, "ACL_NN", "acl", acl, "0", conn + 2),
            ),
            _x(
                "Node@launch",
                cann,
                queue,
                launch,
                node_dur,
                _api_args(queue, "ACL_OP", "node", "launch", name, conn + 1),
            ),
            s,
            _x(name, hw, stream, begin, dur, _dev_args(4294967295, ttype, stream, task_id, conn + 1)),
            f,
            f'{{"name": "Computing", "pid": {ov}, "tid": 0, "ts": "{_ts(begin)}", "dur": {dur / 1000!r}, "ph": "X"}}',
            _pyflow("s", "torch_to_npu", fid, py, main, h, "async_npu"),
            _pyflow("f", "torch_to_npu", fid, hw, stream, begin, "async_npu"),
        ]
        conn += 3
        task_id = task_id + 1 if task_id < 65535 else 0
        h += op_dur + rng.next(2_000, 6_000)
        qfree = deq_end + rng.next(300, 900)
        dev_free = begin + dur


def _meta(form: str, pid: int) -> list[dict]:
    if form == "msprof":
        cann = format_pid(pid, SORT["CANN"], 31)
        meta = process_meta(cann, "CANN", "CPU", SORT["CANN"])
        meta += thread_meta(cann, pid, f"Thread {pid}", pid) + thread_meta(cann, pid + 1, f"Thread {pid + 1}", pid + 1)
        for d in (0, 1):
            hw = format_pid(pid, SORT["Ascend Hardware"], d)
            meta += process_meta(hw, "Ascend Hardware", "NPU", SORT["Ascend Hardware"])
            meta += thread_meta(hw, 2 + d, f"Stream {2 + d}", 2 + d)
        ov = _pad_pid(form, pid)
        return (
            meta + process_meta(ov, "Overlap Analysis", "NPU", SORT["Overlap Analysis"]) + thread_meta(ov, 3, "Free", 3)
        )
    p = torch_pids(_Pid(pid))
    meta = process_meta(p["Python"], "Python", "CPU", 0)
    meta += thread_meta(p["Python"], pid, f"Thread {pid}", pid) + thread_meta(
        p["Python"], pid + 1409, f"Thread {pid + 1409}", pid + 1409
    )
    meta += process_meta(p["CANN"], "CANN", "CPU", 2) + thread_meta(
        p["CANN"], pid + 1409, f"Thread {pid + 1409}", pid + 1409
    )
    meta += process_meta(p["Ascend Hardware"], "Ascend Hardware", "NPU", 8) + thread_meta(
        p["Ascend Hardware"], 3, "Stream 3", 3
    )
    meta += process_meta(p["Overlap Analysis"], "Overlap Analysis", "NPU", 11)
    meta += thread_meta(p["Overlap Analysis"], 0, "Computing", 0) + thread_meta(p["Overlap Analysis"], 3, "Free", 3)
    return meta


def write_big_timeline(
    path,
    form: str,
    n_events: int,
    seed: int = 0,
    *,
    pid: int = DEFAULT_PID,
    start_ns: int = DEFAULT_START_NS,
    progress=None,
) -> dict:
    """Write exactly ``n_events`` events (metadata included) to ``path``, streaming.

    Returns ``{"events", "x_events", "flows", "bytes"}`` (flows = s/f pairs) so a benchmark or a
    test knows what a loader must find. ``progress(fraction)`` is called now and then."""
    if form not in FORMS:
        raise ValueError(f"form: {form!r} is not one of {', '.join(FORMS)}")
    meta = [dump_event(e) for e in _meta(form, pid)]
    if n_events < len(meta):
        raise ValueError(f"n_events must be >= {len(meta)} (the metadata alone), got {n_events}")
    units = (_msprof_units if form == "msprof" else _torch_units)(pid, _Lcg(seed), start_ns)
    x_per, flows_per = FORMS[form]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    written, n_units, last = len(meta), 0, None
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write("[" + ", ".join(meta))
        buf: list[str] = []
        for unit in units:
            if written + len(unit) > n_events:
                break
            buf.extend(unit)
            written += len(unit)
            n_units += 1
            last = unit
            if len(buf) >= 20_000:
                fh.write(", " + ", ".join(buf))
                buf.clear()
                if progress:
                    progress(written / n_events)
        last_ts = max((_parse_ts(ev) for ev in last), default=start_ns) if last else start_ns
        pads = n_events - written
        for i in range(pads):  # pad to the exact count with self-contained X events
            buf.append(
                f'{{"name": "Free", "pid": {_pad_pid(form, pid)}, "tid": 3, "ts": "{_ts(last_ts + 1_000 * (i + 1))}", '
                f'"dur": 1.0, "ph": "X"}}'
            )
        if buf:
            fh.write(", " + ", ".join(buf))
        fh.write("]")
        size = fh.tell()
    return {"events": n_events, "x_events": n_units * x_per + pads, "flows": n_units * flows_per, "bytes": size}


FORMS = {"msprof": (3, 1), "torch_npu": (7, 3)}  # X events and s/f pairs per kernel unit


def _pad_pid(form: str, pid: int) -> int:
    if form == "msprof":
        return format_pid(pid, SORT["Overlap Analysis"], 0)
    return torch_pids(_Pid(pid))["Overlap Analysis"]


class _Pid:
    def __init__(self, pid: int):
        self.pid = pid


def _parse_ts(ev: str) -> int:
    i = ev.index('"ts": "') + 7
    us, frac = ev[i : ev.index('"', i)].split(".")
    return int(us) * 1000 + int(frac)


def verify_template(form: str) -> list[tuple[str, str]]:
    """(template text, json.dumps of the parsed event) for one unit; equal when formats agree."""
    units = (_msprof_units if form == "msprof" else _torch_units)(DEFAULT_PID, _Lcg(1), DEFAULT_START_NS)
    return [(ev, dump_event(json.loads(ev))) for ev in next(units)]
