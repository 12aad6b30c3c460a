"""Planted problems (host): see the ``problems`` module. Each plant is a function registered with
``@register(name, point, description)``.

- ``idle-device`` (run): the host is slow in every compute operator's dispatch (its Python ``cpu_op``
  lasts 200 us longer), so the device waits for its launches: large gaps between consecutive device
  tasks, the device mostly idle;
- ``getnext`` (run): every step starts with a slow ``enumerate(DataLoader)#...__next__`` on the main
  thread (data loading waits, longer than msprof-analyze's 10 ms threshold);
- ``recompile`` (run): an ``AscendCL@aclopCompileAndExecute`` (operator compiled at run time) before
  every aclnn launch of every step, more than msprof-analyze's 20 compilations;
- ``small-packets`` (workload): every gradient bucket split into 16 small AllReduce operators (each
  moving less than msprof-analyze's 16 MB SDMA threshold);
- ``unaligned-comm`` (comm): every transfer of the communication operators moves 100 bytes less (a size
  that is no multiple of 512 bytes: msprof-analyze's byte-alignment rule);
- ``env-task-queue`` (meta): ``TASK_QUEUE_ENABLE=0`` in profiler_metadata.json's ENV_VARIABLES.

The run plants make room for what they add by :func:`delay`: everything from a time point on moves
later, what runs across it lasts longer; the device tasks' Wait Time follows.
"""

from __future__ import annotations

import dataclasses

from .hccl import CommOp
from .problems import register
from .schedule import HostEvent, PyEvent, Run
from .workload import Op, Workload, _comm_op, _insert

HOST_GAP_NS = 200_000  # idle-device: extra host time before each compute operator
DATALOADER_NS = 12_000_000  # getnext: one step's data loading (msprof-analyze flags >= 10 ms)
DATALOADER_NAME = "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"
COMPILE_NS = 300_000  # recompile: one aclopCompileAndExecute
COMPILE_API = "aclopCompileAndExecute"
SMALL_SPLIT = 16  # small-packets: operators per original gradient bucket
UNALIGN_BYTES = 100  # unaligned-comm: bytes a transfer moves less


def delay(run: Run, dev: int, at_ns: int, delta_ns: int) -> None:
    """Make ``delta_ns`` of room at ``at_ns`` on device ``dev``'s host and device: events and tasks that
    start at or after it start ``delta_ns`` later, host events running across it last ``delta_ns`` longer
    (what they hold stays inside), launches after it happen later; Wait Time is recomputed."""
    for e in run.host[dev]:
        _move(e, at_ns, delta_ns)
    for p in run.python[dev]:
        _move(p, at_ns, delta_ns)
    for t in run.tasks[dev]:
        if t.start_ns >= at_ns:
            t.start_ns += delta_ns
        if t.launch_ns >= at_ns:
            t.launch_ns += delta_ns
    if run.end_ns >= at_ns:
        run.end_ns += delta_ns
    _rewait(run, dev)


def _move(e: HostEvent | PyEvent, at_ns: int, delta_ns: int) -> None:
    if e.start_ns >= at_ns:
        e.start_ns += delta_ns
    elif e.start_ns + e.dur_ns > at_ns:
        e.dur_ns += delta_ns


def _rewait(run: Run, dev: int) -> None:
    last_end: dict[int, int] = {}
    for t in sorted(run.tasks[dev], key=lambda t: (t.start_ns, t.stream_id)):
        t.wait_ns = t.start_ns - last_end[t.stream_id] if t.stream_id in last_end else 0
        last_end[t.stream_id] = t.end_ns
    run.tasks[dev].sort(key=lambda t: (t.start_ns, t.stream_id))


def _resort(run: Run, dev: int) -> None:
    run.host[dev].sort(key=lambda e: (e.start_ns, -e.dur_ns))
    run.python[dev].sort(key=lambda e: (e.tid, e.start_ns, -e.dur_ns))


@register(
    "idle-device", "run", "every compute operator's host dispatch takes 200 us longer: the device idles between tasks"
)
def idle_device(run: Run) -> None:
    for dev in run.devices:
        points = [p.start_ns + 1_000 for p in run.python[dev] if p.task is not None and p.task.task_type != "HCCL"]
        for at in sorted(points, reverse=True):  # the latest first: an earlier delay moves what a later one made
            delay(run, dev, at, HOST_GAP_NS)
        _resort(run, dev)


@register("getnext", "run", "every step waits 12 ms for its DataLoader (data loading dominates the step)")
def getnext(run: Run) -> None:
    for dev in run.devices:
        steps = [p for p in run.python[dev] if p.name.startswith("ProfilerStep#")]
        for step in sorted(steps, key=lambda p: p.start_ns, reverse=True):
            at = step.start_ns + 2_000
            delay(run, dev, at, DATALOADER_NS + 1_000)
            run.python[dev].append(
                PyEvent(dev, step.tid, DATALOADER_NAME, "cpu_op", at, DATALOADER_NS, {"Sequence number": -1})
            )
        _resort(run, dev)


@register("recompile", "run", "an aclopCompileAndExecute (operator compiled again) before every aclnn launch")
def recompile(run: Run) -> None:
    for dev in run.devices:
        queue = run.queue_tid(dev)
        calls = [
            e
            for e in run.host[dev]
            if e.level == "acl" and e.mode == "ACL_NN" and e.tid == queue and not e.name.startswith("Hccl")
        ]
        conn = max((e.connection_id for e in run.host[dev]), default=0) + 1
        for call in sorted(calls, key=lambda e: e.start_ns, reverse=True):
            at = call.start_ns
            delay(run, dev, at, COMPILE_NS + 1_000)
            run.host[dev].append(HostEvent(dev, queue, "acl", COMPILE_API, "ACL_OP", at, COMPILE_NS, conn))
            conn += 1
        _resort(run, dev)


@register("small-packets", "workload", "every gradient AllReduce split into 16 small ones (under 16 MB each)")
def small_packets(workload: Workload) -> Workload:
    ops: list[Op] = []
    index = 0
    for op in workload.ops:
        if op.core != "HCCL" or not op.type.startswith("hcom_"):
            ops.append(op)
            continue
        kind = op.type[len("hcom_") :].rstrip("_")
        elements = max(1, sum(t.elements for t in op.outputs) // SMALL_SPLIT)
        dtype = op.outputs[0].dtype if op.outputs else "FLOAT16"
        for _ in range(SMALL_SPLIT):
            ops.append(_comm_op(kind, index, elements, dtype))
            index += 1
    if index == 0:
        return workload
    return Workload(
        f"{workload.name}_small", _insert(tuple(ops), {}), workload.kind, workload.model_name, workload.inputs
    )


@register("env-task-queue", "meta", "TASK_QUEUE_ENABLE=0 in profiler_metadata.json (task queue switched off)")
def env_task_queue(metadata: dict) -> None:
    metadata.setdefault("ENV_VARIABLES", {})["TASK_QUEUE_ENABLE"] = "0"


@register("unaligned-comm", "comm", "every communication transfer moves 100 bytes less (not a multiple of 512 bytes)")
def unaligned_comm(ops: list[CommOp]) -> list[CommOp]:
    out = []
    for op in ops:
        tasks = tuple(
            dataclasses.replace(c, size=c.size - UNALIGN_BYTES) if c.transit and c.size > UNALIGN_BYTES else c
            for c in op.tasks
        )
        out.append(dataclasses.replace(op, tasks=tasks))
    return out
