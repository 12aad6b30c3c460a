"""HCCL communication of a simulated multi-rank run (docs/cann-formats.md §4.2, §11).

Every op of core ``HCCL`` in the workload is one communication operator (the schedule's :class:`Task`
gives its span, stream and connection id; it runs on its own stream, overlapping the compute launched
after it). Its kind comes from its OP type (``hcom_allReduce_``, ``hcom_allGather_``,
``hcom_reduceScatter_``, ``hcom_broadcast_``, ``hcom_send_``, ``hcom_receive_``). It runs as small tasks on
one or two planes (links to the ring neighbours: plane 0 to rank + 1, plane 1 to rank - 1; one plane for
2 ranks, for broadcast and for send / receive), each plane covering the operator's whole span:

- ``Notify_Record`` (tell the peer this rank is ready), ``Notify_Wait`` (the synchronization: waiting
  for the peer), then on plane 0 of a collective a local ``Memcpy`` (user buffer to the CCL buffer: link
  ``ON_CHIP``, src = dst = this rank), then per algorithm step a transfer (``Reduce_Inline`` where the
  step reduces, else ``Memcpy``; transport ``SDMA`` over an ``HCCS`` link, src this rank, dst the
  plane's peer), a ``Notify_Record`` and a ``Notify_Wait`` (the peer's step done), with short idle gaps
  between tasks;
- allReduce: a reduce-scatter then an all-gather phase, ``n - 1`` steps each; allGather / reduceScatter
  one phase of ``n - 1`` steps; a chunk is ``bytes / (n * planes)`` (the last of a phase takes the
  remainder); broadcast from rank 0 along the chain 0 -> 1 -> ... (the last rank only waits); send: one
  transfer of all the bytes to rank + 1; receive: waits for rank - 1, then a local copy out of the CCL
  buffer (no transfer of its own).

Both exports show the same small tasks (facts from msprof's timeline assembler, Ascend/msprof
``hccl_assembler``): the Text export (trace_view.json) a ``Communication`` process with a thread ``Group
{group} Communication`` holding the operators followed by one thread ``Plane {id}`` per plane holding the
small tasks named by their type, the small tasks also Ascend Hardware slices on their streams named by
the operator; the Db export ``COMMUNICATION_OP``, ``TASK`` + ``COMMUNICATION_TASK_INFO`` and the
``ENUM_HCCL_*`` tables. :mod:`.commfiles` derives communication.json / communication_matrix.json from
these tasks as msprof's analysis does.

Chosen where the sources are silent (UNVERIFIED): the task types on the hardware (``NOTIFY_WAIT``,
``SDMA``, ``NOTIFY_RECORD``), the split of the span (the synchronization share and the waits from the
task's random draws), stream ids of the second plane, the enum ids, the group name, thread ids (a group at
``t``, its plane ``p`` at ``t + p + 1``, the next group after its last plane: msprof's metadata and events
disagree for planes above 0), all links HCCS (one server; no RDMA between servers).
"""

from __future__ import annotations

from dataclasses import dataclass

from .schedule import MODEL_ID_NONE, Run, Task

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
HW_TYPES = {"Notify_Wait": "NOTIFY_WAIT", "Notify_Record": "NOTIFY_RECORD", "Memcpy": "SDMA", "Reduce_Inline": "SDMA"}
TRANSIT = ("Memcpy", "Reduce_Inline")  # msprof's SDMA transit items
# OP type -> kind (the operator's name carries the same word: hcom_allReduce__586_0_1)
KINDS = {
    "hcom_allReduce_": "allReduce",
    "hcom_allGather_": "allGather",
    "hcom_reduceScatter_": "reduceScatter",
    "hcom_broadcast_": "broadcast",
    "hcom_send_": "send",
    "hcom_receive_": "receive",
}
P2P = ("send", "receive")
# relative weights of the parts of a plane's span (scaled to the operator's duration)
_NOTIFY = 0.004
_GAP = 0.002
_LOCAL = 0.02


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
    link: str = "HCCS"  # ON_CHIP for a local copy
    transport: str = "SDMA"

    @property
    def end_ns(self) -> int:
        return self.start_ns + self.dur_ns

    @property
    def transit(self) -> bool:
        """A transfer to another rank (msprof: an SDMA Memcpy / Reduce_Inline not ON_CHIP)."""
        return self.kind in TRANSIT and self.transport == "SDMA" and self.link != "ON_CHIP"


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
    kind: str = "allReduce"

    @property
    def model_id(self) -> int:
        return MODEL_ID_NONE

    @property
    def name(self) -> str:
        return self.task.op.name

    @property
    def p2p(self) -> bool:
        return self.kind in P2P

    @property
    def start_ns(self) -> int:
        """msprof's Start Timestamp: the earliest small task."""
        return min(c.start_ns for c in self.tasks)


def group_name(world_size: int) -> str:
    """The communicator's hash id (the group every rank's operators belong to; chosen)."""
    return str(17522688603477080000 + 586 + world_size)


def planes(world_size: int) -> int:
    return 1 if world_size <= 2 else 2


def kind_of(op_type: str) -> str:
    return KINDS.get(op_type, "allReduce")


def _chunks(total: int, parts: int) -> list[int]:
    """``total`` bytes in ``parts`` chunks; the last takes the remainder (smaller, as in the real matrix)."""
    if parts <= 0:
        return []
    size = -(-total // parts)
    out = [min(size, max(0, total - i * size)) for i in range(parts)]
    return [c for c in out if c > 0]


def _plan(kind: str, plane: int, n_planes: int, rank: int, world: int, nbytes: int) -> list[tuple[str, int, int]]:
    """The small tasks of one plane as (kind, dst rank, bytes), before timing; notifies carry 0 bytes."""
    peer = (rank + 1) % world if plane == 0 else (rank - 1) % world
    steps: list[tuple[str, int]] = []  # (transfer kind, bytes)
    if world > 1:
        share = nbytes // n_planes if kind not in ("allReduce", "reduceScatter", "allGather") else 0
        if kind in ("allReduce", "reduceScatter"):
            steps += [("Reduce_Inline", c) for c in _chunks(nbytes * (world - 1) // world // n_planes, world - 1)]
        if kind in ("allReduce", "allGather"):
            steps += [("Memcpy", c) for c in _chunks(nbytes * (world - 1) // world // n_planes, world - 1)]
        if kind == "broadcast" and rank != world - 1:  # the chain 0 -> 1 -> ...: the last rank only waits
            steps.append(("Memcpy", share))
        if kind == "send":
            steps.append(("Memcpy", nbytes))
    if kind == "receive":
        peer = (rank - 1) % world
    out: list[tuple[str, int, int]] = [("Notify_Record", peer, 0), ("Notify_Wait", peer, 0)]
    if plane == 0 and kind not in P2P:
        out.append(("Memcpy", rank, nbytes))  # into the CCL buffer (ON_CHIP)
    for transfer, size in steps:
        out += [(transfer, peer, size), ("Notify_Record", peer, 0), ("Notify_Wait", peer, 0)]
    if kind == "receive":
        out.append(("Memcpy", rank, nbytes))  # out of the CCL buffer (ON_CHIP)
    return out


def _weights(plan: list[tuple[str, int, int]], rank: int, rnd: tuple[float, ...], nbytes: int) -> list[float]:
    """Relative durations: the first wait is the synchronization (a share drawn per task), transfers by
    size, later waits a drawn share of a step, notifies and local copies short."""
    sync = 0.04 + 0.3 * rnd[0]
    wait = 0.05 + 0.3 * rnd[1]
    transfers = [size for kind, dst, size in plan if kind in TRANSIT and dst != rank]
    per_byte = (1.0 - sync) / max(1, sum(transfers)) if transfers else 0.0
    out, first_wait = [], True
    for kind, dst, size in plan:
        if kind == "Notify_Wait":
            out.append(sync if first_wait else wait * per_byte * (transfers[0] if transfers else 0) + _NOTIFY)
            first_wait = False
        elif kind == "Notify_Record":
            out.append(_NOTIFY)
        elif dst == rank:  # local copy
            out.append(_LOCAL * (1.0 if nbytes else 0.1))
        else:
            out.append(per_byte * size)
    if not transfers:  # nothing to move (receive, the chain's end): the wait takes the time
        out = [w if kind != "Notify_Wait" else 1.0 for w, (kind, _d, _s) in zip(out, plan)]
    return out


def comm_ops(run: Run, dev: int, rank: int, world_size: int) -> list[CommOp]:
    """The communication operators of one device, in start order."""
    out: list[CommOp] = []
    group = group_name(world_size)
    for t in run.tasks[dev]:
        if t.op.core != "HCCL":
            continue
        kind = kind_of(t.op.type)
        n_planes = 1 if kind in ("broadcast", *P2P) else planes(world_size)
        dtype = _DTYPES.get(t.op.outputs[0].dtype, "FP16") if t.op.outputs else "FP16"
        nbytes = sum(x.nbytes for x in t.op.outputs)
        count = sum(x.elements for x in t.op.outputs)
        tasks: list[CommTask] = []
        for p in range(n_planes):
            plan = _plan(kind, p, n_planes, rank, world_size, nbytes)
            weights = _weights(plan, rank, t.rnd, nbytes)
            gaps = _GAP * (len(plan) - 1)
            scale = t.dur_ns / (sum(weights) + gaps)
            stream = t.stream_id + PLANE_STREAM_OFFSET * p
            at = 0.0  # offset from the operator's start (never float epoch ns: 256 ns apart at 1.7e18)
            for k, ((name, dst, size), w) in enumerate(zip(plan, weights)):
                start = t.start_ns + round(at)
                end = t.end_ns if k == len(plan) - 1 else max(start + 1, t.start_ns + round(at + w * scale))
                local = dst == rank and name in TRANSIT
                tasks.append(
                    CommTask(
                        p,
                        name,
                        HW_TYPES[name],
                        stream,
                        (t.task_id * 256 + len(tasks)) % 65536,
                        start,
                        end - start,
                        rank,
                        dst,
                        size,
                        (t.index * 16 + p * 4 + k) % 1024,
                        "ON_CHIP" if local else "HCCS",
                    )
                )
                at = at + w * scale + _GAP * scale
        tasks.sort(key=lambda c: (c.start_ns, c.plane))
        alg = "MESH" if world_size <= 8 else "RING"
        out.append(CommOp(t, len(out), group, dtype, alg, count, tuple(tasks), kind))
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


__all__ = ["CommOp", "CommTask", "comm_ops", "group_name", "kind_of", "thread_layout"]
