"""HCCL communication of a simulated multi-rank run (docs/cann-formats.md §11).

Every op of core ``HCCL`` in the workload is one communication operator (the schedule's :class:`Task`
gives its span, stream and connection id). It runs as small tasks on one or two planes (links to the
ring neighbours): ``Notify_Wait``, ``Memcpy``, ``Reduce_Inline``, ``Notify_Record`` cover the
operator's span on each plane. Both exports show the same thing (facts from msprof's timeline
assembler, Ascend/msprof ``hccl_assembler``):

- the Text export (trace_view.json): a ``Communication`` process with a thread ``Group {group}
  Communication`` holding the operators (args ``connection_id, model id, data_type, alg_type, count``)
  followed by one thread ``Plane {id}`` per plane holding the small tasks named by their type; the
  small tasks are also Ascend Hardware slices on their streams, named by the operator;
- the Db export: ``COMMUNICATION_OP`` (one row per operator), ``TASK`` + ``COMMUNICATION_TASK_INFO``
  (one row per small task) and the ``ENUM_HCCL_*`` tables.

Chosen where the sources are silent (UNVERIFIED): the task types on the hardware (``NOTIFY_WAIT``,
``SDMA``, ``NOTIFY_RECORD``), the split of the span, stream ids of the second plane, the enum ids,
the group name, thread ids (a group at ``t``, its plane ``p`` at ``t + p + 1``, the next group after
its last plane: msprof's metadata and events disagree for planes above 0).
"""

from __future__ import annotations

from dataclasses import dataclass

from .schedule import MODEL_ID_NONE, Run, Task

# (task type in COMMUNICATION_TASK_INFO and on the plane lane, task type on the hardware, share of the span)
STEPS = (
    ("Notify_Wait", "NOTIFY_WAIT", 3),
    ("Memcpy", "SDMA", 4),
    ("Reduce_Inline", "SDMA", 2),
    ("Notify_Record", "NOTIFY_RECORD", 1),
)
# HcclDataType ids (hccl_types.h); names as msprof's ENUM_HCCL_DATA_TYPE spells them (UNVERIFIED spelling)
DATA_TYPES = {
    "INT8": 0,
    "INT16": 1,
    "INT32": 2,
    "FP16": 3,
    "FP32": 4,
    "INT64": 5,
    "UINT64": 6,
    "UINT8": 7,
    "UINT16": 8,
    "UINT32": 9,
    "FP64": 10,
    "BFP16": 11,
}
TRANSPORT_TYPES = {"SDMA": 0, "RDMA": 1, "LOCAL": 2}
LINK_TYPES = {"ON_CHIP": 0, "HCCS": 1, "PCIE": 2, "ROCE": 3, "SIO": 4}
RDMA_TYPES = {"RDMA_SEND_NOTIFY": 0, "RDMA_SEND_PAYLOAD": 1}
_DTYPES = {"FLOAT16": "FP16", "FLOAT": "FP32", "DT_BF16": "BFP16", "INT32": "INT32", "INT64": "INT64", "INT8": "INT8"}
PLANE_STREAM_OFFSET = 40  # plane p > 0 runs on stream op.stream_id + 40 * p


@dataclass(frozen=True, slots=True)
class CommTask:
    """One small task of a communication operator (a TASK + COMMUNICATION_TASK_INFO row)."""

    plane: int
    kind: str  # Notify_Wait, Memcpy, ...
    hw_type: str  # the Task Type on the hardware
    stream_id: int
    task_id: int
    start_ns: int
    dur_ns: int
    src_rank: int
    dst_rank: int
    size: int  # bytes moved (0 for notifies)
    notify_id: int

    @property
    def end_ns(self) -> int:
        return self.start_ns + self.dur_ns


@dataclass(frozen=True, slots=True)
class CommOp:
    """One communication operator (a COMMUNICATION_OP row) and its small tasks."""

    task: Task
    op_id: int
    group: str
    data_type: str
    alg_type: str
    count: int
    tasks: tuple[CommTask, ...]

    @property
    def model_id(self) -> int:
        return MODEL_ID_NONE


def group_name(world_size: int) -> str:
    """The communicator's hash id (the group every rank's operators belong to; chosen)."""
    return str(17522688603477080000 + 586 + world_size)


def planes(world_size: int) -> int:
    return 1 if world_size <= 2 else 2


def comm_ops(run: Run, dev: int, rank: int, world_size: int) -> list[CommOp]:
    """The communication operators of one device, in task order."""
    out: list[CommOp] = []
    n_planes = planes(world_size)
    group = group_name(world_size)
    for t in run.tasks[dev]:
        if t.op.core != "HCCL":
            continue
        dtype = _DTYPES.get(t.op.outputs[0].dtype, "FP16") if t.op.outputs else "FP16"
        nbytes = sum(x.nbytes for x in t.op.outputs)
        count = sum(x.elements for x in t.op.outputs)
        tasks: list[CommTask] = []
        total = sum(share for _, _, share in STEPS)
        for p in range(n_planes):
            dst = (rank + 1) % world_size if p == 0 else (rank - 1) % world_size
            stream = t.stream_id + PLANE_STREAM_OFFSET * p
            at = t.start_ns
            done = 0
            for k, (kind, hw, share) in enumerate(STEPS):
                done += share
                end = t.start_ns + t.dur_ns * done // total
                tasks.append(
                    CommTask(
                        p,
                        kind,
                        hw,
                        stream,
                        (t.task_id * 8 + p * 4 + k) % 65536,
                        at,
                        max(1, end - at),
                        rank,
                        dst,
                        nbytes // n_planes if kind in ("Memcpy", "Reduce_Inline") else 0,
                        (t.index * 16 + p * 4 + k) % 1024,
                    )
                )
                at = end
        out.append(CommOp(t, len(out), group, dtype, "MESH" if world_size <= 8 else "RING", count, tuple(tasks)))
    return out


def thread_layout(ops: list[CommOp]) -> dict[str, tuple[int, dict[int, int]]]:
    """Thread id of each group and of its planes: ``{group: (tid, {plane: tid})}`` (groups sorted)."""
    planes_of: dict[str, set[int]] = {}
    for op in ops:
        planes_of.setdefault(op.group, set()).update(t.plane for t in op.tasks)
    out: dict[str, tuple[int, dict[int, int]]] = {}
    at = 0
    for group in sorted(planes_of):
        ps = sorted(planes_of[group]) or [0]
        out[group] = (at, {p: at + p + 1 for p in ps})
        at += ps[-1] + 2
    return out


__all__ = ["CommOp", "CommTask", "comm_ops", "group_name", "thread_layout"]
