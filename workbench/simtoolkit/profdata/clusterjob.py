"""``write_cluster_job``: every rank of a simulated N-rank torch_npu training job (Megatron-style tensor,
data and pipeline parallelism) with its HCCL communication groups, a deliberately slow rank and a
deliberately slow link: the input of cluster analysis (msprof-analyze ``cluster``, the workbench's own)
for tests, the demo and benchmarks.

The job (``tp * dp * pp`` ranks; Megatron's order: tp fastest-varying, then dp, then pp, so rank
``r = t + tp * (d + dp * p)``; 8 ranks = 8 NPUs per server, rank ``r`` on device ``r % 8`` of server
``r // 8``). Its groups: tp, dp, pp, the model-parallel group ``mp`` (tp x pp ranks of one dp index) and
the default (world) group. Every profiler step runs ``max(MICROBATCHES, pp)`` micro-batches through the
rank's pipeline stage, GPipe order: per micro-batch a forward (receive the activations from the previous
stage, the stage's kernels, tp allReduce, send to the next stage), then per micro-batch a backward
(receive the gradients from the next stage, MLP grads, tp allReduce, attention grads, send to the previous
stage); in the last backward the first dp allReduce bucket of the gradients overlaps the attention grads,
the second follows them; then the gradients' norm over the mp group (allReduce) and the optimizer, which
waits for every communication. tp / mp allReduce and receive block the compute after them; send and the
first dp bucket do not. (As many micro-batches as stages keeps the first stage's Stage positive:
torch_npu's Bubble counts every ``hcom_receive`` slice of the trace, the operator and its hardware tasks,
see :mod:`.overlap` and :func:`.torchnpu.write_torch_npu`; a rank is larger the deeper the pipeline.)

How the time is made (integer ns, deterministic for the same arguments):

1. each rank's host side is :func:`.schedule.simulate` of the rank's op sequence (its own seed, pid and
   device as :func:`.torchnpu.write_torch_npu_job` uses): Python / CANN events, launches, the kernels'
   durations (the slow rank's computing ones ``SLOW_COMPUTE`` times longer) and the earliest start of
   every device task;
2. the device tasks of all ranks are then re-timed together, in program order: a kernel starts after the
   one before it on its stream, after what it depends on and not before simulate placed it (after its
   launch); a communication operator starts when its
   rank arrives at it (a multiple of 500 ns, see :mod:`.schedule`) and ends when the whole group is
   done: the ranks that arrive early wait for the last one in their first ``Notify_Wait`` (the
   Synchronization), then every algorithm step lasts as long as the slowest transfer of the group in that
   step (the ranks with faster links wait for it). The transfers run at ``HCCS_BYTES_PER_NS`` per link
   (each directed link its own rate, 0.9-1.1 of it; the slow link ``SLOW_LINK_FACTOR`` times slower),
   the local copies at ``LOCAL_BYTES_PER_NS``;
3. each rank's files are written from its re-timed run exactly as :mod:`.torchnpu` writes a rank:
   step_trace_time from the Overlap Analysis lanes (:mod:`.overlap`), communication.json /
   communication_matrix.json from the small tasks (:mod:`.commfiles`).

The small tasks follow :mod:`.hccl`'s shapes: a collective runs on one plane for 2 ranks and on two
planes otherwise (plane 0 to the next rank, plane 1 to the previous one), as a ring for groups of up to
8 ranks (``n - 1`` steps per phase) and as halving-doubling steps beyond (``ceil(log2 n)`` steps per
phase, peers at distance ``2**k``); send / receive move the bytes between pipeline neighbours. The links
in communication_matrix.json are group-local ranks (``src-dst``), which msprof-analyze maps to global
ranks through ``parallel_group_info``.

Facts (torch_npu's profiler ``_add_group_info_to_metadata`` / ``_dump_profiler_info``, msprof-analyze
26.2.0 ``cluster_analyse``): profiler_metadata.json's ``parallel_group_info`` is keyed by the HCCL
communicator name (``get_hccl_comm_name``) with ``group_name`` (the name in the process group's
``hccl_config``), ``group_rank`` and ``global_ranks``, and the default process group is written as
``"default_group"``; only a communicator already initialised is written; profiler_info_{rank}.json holds
``rank_id``; an operator's key ends in ``@`` + msprof-analyze's ``double_hash`` of its communicator name;
msprof-analyze finds the pipeline stages from the p2p groups whose ``group_name`` starts with ``pp``.

Chosen (UNVERIFIED): the communicator name's form (``{ip}%{interface}_{port}_{device}_{µs}``, the server of
the group's first rank), the group names ``tp`` / ``dp`` / ``pp`` / ``mp`` (Megatron's process group names;
what a given Megatron / MindSpeed version puts into ``hccl_config`` is not checked), that the default group
is initialised (by the usual start-up barrier; no operator of the profiled steps runs on it) while a group
of one rank (tp, dp or pp of size 1) never is, so it is left out, that send / receive use the pp group's
communicator (not one per pair), the operator names' numbers (``hcom_allReduce__{n}_{i}_1``: ``n`` from the
group's hash, ``i`` the rank's i-th call on that communicator, counted over the steps), the algorithm names,
the sizes and durations, every link HCCS (no RDMA between servers, as in :mod:`.hccl`).

``full=True``: the rest of the folder is what :func:`.torchnpu.write_torch_npu` writes, made from the same
re-timed run, so its trace_view shows exactly these tasks; the host side keeps :func:`.schedule.simulate`'s
times inside a step, each step moved later by what the device was late, its end-of-step synchronisation (and
its ProfilerStep) lasting until the device is done.

``layout="msprof"``: the same job profiled by msprof (acl / msprof processes, no framework profiler), one
``PROF_{n}_{timestamp}_{letters}`` folder per rank, as msprof-analyze 26.2's ``MsprofDataPreprocessor`` and its
msprof adapters read it: ``host/``, ``device_{id}/`` with ``info.json.{id}`` (its ``rank_id`` the rank: msprof
writes the job's rank there, msprof-analyze takes it), ``mindstudio_profiler_output/msprof_{timestamp}.json``
(the device side of the timeline: Ascend Hardware, the Communication process with the operators and their
small tasks, and the Overlap Analysis lanes of the whole run, the events torch_npu copies into its trace_view)
and ``analyze/communication.json`` / ``communication_matrix.json`` in msprof's own form: the operators at the
top level (no steps, no p2p / collective split, no Total Op Info), per operator its time and bandwidth info
and its links (docs/cann-formats.md §4.2). msprof writes no profiler_metadata.json: the groups have no names.
UNVERIFIED: which other keys a real info.json.{id} has, whether msprof's analyze files hold a Total entry.

Everything written is simulated: profiler_info's ``"simulated": true`` and the log line, as
:func:`.torchnpu.write_torch_npu` labels its output; no file of our own goes into the job folder.
"""

from __future__ import annotations

import bisect
import json
import math
import shutil
import sqlite3
import struct
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from . import commfiles, dbexport, overlap
from .chips import cann, chip, pmu_columns
from .fmt import StagedDir, pycsv_text, write_json_array, write_text
from .hccl import HW_TYPES, PLANE_STREAM_OFFSET, CommOp, CommTask
from .memory import simulate_memory
from .msprof import prof_name, stamp, write_raw
from .schedule import DEFAULT_PID, DEFAULT_START_NS, FLOAT_EXACT_NS, HostEvent, PyEvent, Run, Task, simulate
from .timeline import torch_events, torch_pids
from .torchnpu import _receives, _step_cells, _step_header, _write_memory, _write_tables
from .workload import Op, Tensor, Workload

MAX_WORLD_SIZE = 1024
RANKS_PER_SERVER = 8
MICROBATCHES = 2  # at least; as many as pipeline stages when there are more
SLOW_COMPUTE = 1.3  # the slow rank's kernels take 30 % longer
SLOW_LINK_FACTOR = 4  # the slow link's transfers take 4 times longer
HCCS_BYTES_PER_NS = 18.0  # 18 GB/s per HCCS link (chosen; the real sample shows 13-18 GB/s)
LOCAL_BYTES_PER_NS = 450.0  # on-chip copies (the sample's LOCAL links: 430-500 GB/s)
NOTIFY_NS = 800  # a Notify_Record
GAP_NS = 300  # between two small tasks
WAIT_MIN_NS = 400  # the shortest Notify_Wait (the peer was already there)
SOC = "Ascend910B2"
CANN_VERSION = "8.0.RC1"
AIC_METRICS = "PipeUtilization"
STYLE = "2025"
PROFILER_LEVEL = "Level1"
INTERFACE = "enp189s0f0"
BASE_PORT = 60000
KINDS = ("tp", "dp", "pp", "mp")  # the parallel groups (mp: model parallel, tp x pp)
DEFAULT_GROUP = "default_group"
_MASK = (1 << 64) - 1
EXPORTS = ("text", "db", "both")  # write_cluster_job's export: torch_npu's Text, Db, or both exports
FRAMEWORKS = ("pytorch", "mindspore")  # write_cluster_job's framework of a torch_npu-layout job
LAYOUTS = ("torch_npu", "msprof")  # write_cluster_job's layout: *_ascend_pt folders, or msprof's PROF_* folders
_BF16 = "DT_BF16"


def double_hash(text: str) -> int:
    """msprof-analyze's hash of a communicator name (what an operator's key ends in after ``@``): two
    32-bit polynomial hashes of the characters (multipliers 29 and 131), the first the high word."""
    low = high = 0
    for ch in text:
        high = (high * 29 + ord(ch)) & 0xFFFFFFFF
        low = (low * 131 + ord(ch)) & 0xFFFFFFFF
    return (high << 32) | low


@dataclass(frozen=True)
class ClusterGroup:
    """One HCCL communication group of the job."""

    name: str  # the communicator name: parallel_group_info's key (msprof-analyze's group_id)
    kind: str  # "tp" | "dp" | "pp" | "mp" | "default_group": parallel_group_info's group_name
    ranks: tuple[int, ...]  # global ranks, ascending (a rank's group-local rank is its index)
    hash: str  # str(double_hash(name)): what the group's operator keys end in after "@"


@dataclass(frozen=True)
class ClusterJobPlan:
    """What :func:`write_cluster_job` wrote: the job's shape, its groups, the planted slow rank and link,
    and every rank's ``*_ascend_pt`` folder (``rank_dirs[r]`` is rank ``r``'s)."""

    world_size: int
    tp: int
    pp: int
    dp: int
    groups: tuple[ClusterGroup, ...]
    slow_rank: int | None
    slow_link: tuple[int, int] | None
    rank_dirs: tuple[Path, ...]
    steps: int = 2
    seed: int = 0

    def rank_of(self, t: int, d: int, p: int) -> int:
        """The global rank of tp index ``t``, dp index ``d`` and pipeline stage ``p``."""
        return t + self.tp * (d + self.dp * p)

    def stage_of(self, rank: int) -> int:
        return rank // (self.tp * self.dp)

    def group_of(self, kind: str, rank: int) -> ClusterGroup | None:
        """The group of that kind holding ``rank`` (None for a kind of one rank: such a group never runs)."""
        return next((g for g in self.groups if g.kind == kind and rank in g.ranks), None)

    def groups_of(self, rank: int) -> tuple[ClusterGroup, ...]:
        """The groups ``rank`` is in, in the order its parallel_group_info lists them."""
        return tuple(g for g in self.groups if rank in g.ranks)


# ---- the plan ----------------------------------------------------------------------------------


def _check(world_size: int, tp: int, pp: int, steps: int, slow_rank: int | None) -> int:
    for label, value in (("world_size", world_size), ("tp", tp), ("pp", pp), ("steps", steps)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{label}: expected an integer, got {value!r}")
    if not 2 <= world_size <= MAX_WORLD_SIZE:
        raise ValueError(f"world_size: {world_size} is not between 2 and {MAX_WORLD_SIZE}")
    if tp < 1 or pp < 1:
        raise ValueError(f"tp and pp must be at least 1, got tp={tp}, pp={pp}")
    if world_size % (tp * pp):
        raise ValueError(f"world_size: {world_size} is not a multiple of tp * pp = {tp} * {pp} = {tp * pp}")
    if steps < 1:
        raise ValueError(f"steps: {steps} must be at least 1")
    if slow_rank is not None and (
        isinstance(slow_rank, bool) or not isinstance(slow_rank, int) or not 0 <= slow_rank < world_size
    ):
        raise ValueError(f"slow_rank: {slow_rank!r} is not a rank of this {world_size}-rank job (0..{world_size - 1})")
    return world_size // (tp * pp)


def _server_ip(server: int) -> str:
    return f"192.168.{server // 250}.{server % 250 + 1}"


def _comm_name(first_rank: int, index: int, start_ns: int) -> str:
    """A communicator name (chosen form): created by the group's first rank, ten minutes before profiling."""
    created_us = start_ns // 1000 - 600_000_000 + 1_031 * index
    server, device = divmod(first_rank, RANKS_PER_SERVER)
    return f"{_server_ip(server)}%{INTERFACE}_{BASE_PORT + index % 1000}_{device}_{created_us}"


def _groups(world: int, tp: int, dp: int, pp: int, start_ns: int) -> tuple[ClusterGroup, ...]:
    def rank(t: int, d: int, p: int) -> int:
        return t + tp * (d + dp * p)

    spans: list[tuple[str, tuple[int, ...]]] = [(DEFAULT_GROUP, tuple(range(world)))]
    if dp > 1:
        spans += [("dp", tuple(rank(t, d, p) for d in range(dp))) for p in range(pp) for t in range(tp)]
    if tp * pp > 1:
        spans += [("mp", tuple(sorted(rank(t, d, p) for p in range(pp) for t in range(tp)))) for d in range(dp)]
    if tp > 1:
        spans += [("tp", tuple(rank(t, d, p) for t in range(tp))) for p in range(pp) for d in range(dp)]
    if pp > 1:
        spans += [("pp", tuple(rank(t, d, p) for p in range(pp))) for d in range(dp) for t in range(tp)]
    out = []
    for i, (kind, ranks) in enumerate(spans):
        name = _comm_name(ranks[0], i, start_ns)
        out.append(ClusterGroup(name, kind, ranks, str(double_hash(name))))
    return tuple(out)


def _ring(n: int) -> bool:
    return n <= 8


def _phase_steps(n: int) -> int:
    return n - 1 if _ring(n) else math.ceil(math.log2(n))


def _planes(n: int) -> int:
    return 1 if n <= 2 else 2


def _peer(i: int, plane: int, k: int, n: int) -> int:
    """The group-local peer of local rank ``i`` in step ``k`` of a phase on ``plane``."""
    dist = 1 if _ring(n) else 1 << (k % _phase_steps(n))
    return (i + dist) % n if plane == 0 else (i - dist) % n


def _links(groups: tuple[ClusterGroup, ...]) -> set[tuple[int, int]]:
    """Every directed global link a transfer of the job uses."""
    out: set[tuple[int, int]] = set()
    for g in groups:
        n = len(g.ranks)
        if g.kind == DEFAULT_GROUP or n < 2:
            continue
        if g.kind == "pp":
            for a, b in zip(g.ranks, g.ranks[1:]):
                out |= {(a, b), (b, a)}
            continue
        for i, src in enumerate(g.ranks):
            for plane in range(_planes(n)):
                for k in range(_phase_steps(n)):
                    out.add((src, g.ranks[_peer(i, plane, k, n)]))
    return out


# ---- the program of a rank ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Ins:
    """One device task of a rank's step, in program order."""

    op: Op
    group: str | None = None  # "tp" | "dp" | "pp" | "mp" for a communication operator
    kind: str = ""  # allReduce | send | receive
    to: int = 0  # p2p: the peer's stage relative to this one (+1 next, -1 previous)
    blocking: bool = True  # the next kernel waits for it
    barrier: bool = False  # a kernel that waits for every outstanding communication (the optimizer)


_COMM_APIS = {
    "allReduce": ("c10d::allreduce_", "HcclAllReduce"),
    "send": ("c10d::send", "HcclSend"),
    "receive": ("c10d::recv_", "HcclRecv"),
}
TP_ELEMENTS = 1 << 21  # activations of a micro-batch, bf16 (4 MiB)
P2P_ELEMENTS = 1 << 21
DP_ELEMENTS = 1 << 22  # a gradient bucket, fp32 (16 MiB)
MP_ELEMENTS = 2048  # the norms of the model-parallel group, fp32
_T, _H = 2048, 1024  # tokens per micro-batch and hidden size of the kernels' shapes
# the kernels of a micro-batch on one stage: (name, OP type, core, µs, output shape)
FORWARD = (
    ("aclnnLayerNorm_LayerNormV3AiCore_LayerNormV3", "LayerNormV3", "AI_VECTOR_CORE", 62, (_T, _H)),
    ("aclnnMm_MatMulV3Common_MatMulV3", "MatMulV3", "AI_CORE", 423, (_T, 3 * _H)),
    (
        "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore",
        "FlashAttentionScore",
        "MIX_AIC",
        284,
        (_T, _H),
    ),
    ("aclnnMm_MatMulV3Common_MatMulV3", "MatMulV3", "AI_CORE", 711, (_T, _H)),
)
BACKWARD_MLP = (
    ("aclnnMm_MatMulV3Common_MatMulV3", "MatMulV3", "AI_CORE", 1270, (_T, 4 * _H)),
    ("aclnnGeluBackward_FastGeluGradAiCore_FastGeluGrad", "FastGeluGrad", "AI_VECTOR_CORE", 93, (_T, 4 * _H)),
)
BACKWARD_ATTENTION = (
    (
        "aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad",
        "FlashAttentionScoreGrad",
        "MIX_AIC",
        566,
        (_T, _H),
    ),
    ("aclnnMm_MatMulV3Common_MatMulV3", "MatMulV3", "AI_CORE", 603, (_T, _H)),
    (
        "aclnnLayerNormBackward_LayerNormGradV3AiCore_LayerNormGradV3",
        "LayerNormGradV3",
        "AI_VECTOR_CORE",
        118,
        (_T, _H),
    ),
)
OPTIMIZER = ("aclnnApplyAdamW_ApplyAdamWAiCore_ApplyAdamW", "ApplyAdamW", "AI_VECTOR_CORE", 412, (_T, _H))


def _kernel(name: str, typ: str, core: str, us: float, out: tuple[int, ...], slow: bool) -> _Ins:
    t = Tensor(out, _BF16, "ND")
    inputs: tuple[Tensor, ...] = (t,)
    if "matmul" in typ.lower():  # (M, K) @ (K, N) -> (M, N): both inputs, as real kernel_details give them
        m, n = out
        inputs = (Tensor((m, _H), _BF16, "ND"), Tensor((_H, n), _BF16, "ND"))
    return _Ins(Op(name, typ, inputs, (t,), core, us * (SLOW_COMPUTE if slow else 1.0), dynamic=True))


def _comm(kind: str, group: str, elements: int, dtype: str, **kw: Any) -> _Ins:
    torch_op, api = _COMM_APIS[kind]
    t = Tensor((elements,), dtype, "ND")
    op = Op(f"hcom_{kind}_", f"hcom_{kind}_", (t,), (t,), "HCCL", torch_op=torch_op, acl_api=api)
    return _Ins(op, group, kind, **kw)


_PROGRAMS: dict[tuple, tuple[_Ins, ...]] = {}


def _program(first: bool, last: bool, tp: bool, dp: bool, mp: bool, microbatches: int, slow: bool) -> tuple[_Ins, ...]:
    """The device tasks of one profiler step of a rank (its stage's position, which groups run, slow)."""
    key = (first, last, tp, dp, mp, microbatches, slow)
    if key in _PROGRAMS:
        return _PROGRAMS[key]
    out: list[_Ins] = []

    def tp_reduce() -> None:
        if tp:
            out.append(_comm("allReduce", "tp", TP_ELEMENTS, _BF16))

    for _mb in range(microbatches):
        if not first:
            out.append(_comm("receive", "pp", P2P_ELEMENTS, _BF16, to=-1))
        out += [_kernel(*k, slow) for k in FORWARD]
        tp_reduce()
        if not last:
            out.append(_comm("send", "pp", P2P_ELEMENTS, _BF16, to=1, blocking=False))
    for mb in range(microbatches):
        if not last:
            out.append(_comm("receive", "pp", P2P_ELEMENTS, _BF16, to=1))
        out += [_kernel(*k, slow) for k in BACKWARD_MLP]
        tp_reduce()
        if mb == microbatches - 1 and dp:  # the first gradient bucket is ready: it overlaps what follows
            out.append(_comm("allReduce", "dp", DP_ELEMENTS, "FLOAT", blocking=False))
        out += [_kernel(*k, slow) for k in BACKWARD_ATTENTION]
        if not first:
            out.append(_comm("send", "pp", P2P_ELEMENTS, _BF16, to=-1, blocking=False))
    if dp:
        out.append(_comm("allReduce", "dp", DP_ELEMENTS, "FLOAT"))
    if mp:  # the gradients' norm (and found-inf) over the model-parallel group, before the optimizer
        out.append(_comm("allReduce", "mp", MP_ELEMENTS, "FLOAT"))
    out.append(replace(_kernel(*OPTIMIZER, slow), barrier=True))
    _PROGRAMS[key] = tuple(out)
    return _PROGRAMS[key]


# ---- the synchronised schedule -----------------------------------------------------------------


def _mix(*xs: int) -> float:
    """A deterministic draw in [0, 1) from integers (splitmix-style mixing)."""
    h = 0x9E3779B97F4A7C15
    for x in xs:
        h = ((h ^ x) * 0xBF58476D1CE4E5B9) & _MASK
        h ^= h >> 29
    h = (h * 0x94D049BB133111EB) & _MASK
    return ((h ^ (h >> 32)) & 0xFFFFFFFFFFFFF) / float(1 << 52)


@dataclass(frozen=True)
class _Host:
    """What the schedule takes from a rank's simulated host side (per device task in program order)."""

    ready: list[int]  # the earliest start of the task (simulate's start: after its launch)
    durs: list[int]  # the kernel's duration
    sync_ends: list[int]  # per step: the end of the host's synchronisation with the device


Key = tuple[int, ...]  # (0, group index, call) for a collective; (1, pp group index, src stage, dst stage, n)


@dataclass(frozen=True)
class _Timing:
    """When a communication operator's group did what (shared by its members)."""

    t0: int  # the synchronization ends: every member has arrived
    bounds: tuple[int, ...]  # collective: start of every algorithm step, then the end; p2p: (data in, end)


class _Schedule:
    """Plays all ranks' programs together: every communication operator is a rendezvous of its group."""

    def __init__(self, job: _Job) -> None:
        self.job = job
        self.timing: dict[Key, _Timing] = {}
        self.members: dict[Key, tuple[int, ...]] = {}
        self.times: dict[int, list[tuple[int, int]]] = {}  # rank -> (start, end) per instruction
        self.keys: dict[int, dict[int, Key]] = {}  # rank -> instruction index -> its rendezvous
        self.shifts: dict[int, list[tuple[int, int]]] = {}  # rank -> per step: (host shift, sync longer by)

    def run(self, hosts: dict[int, _Host]) -> None:
        procs = {r: self._proc(r, hosts[r]) for r in range(self.job.world)}
        waiting: dict[Key, dict[int, int]] = {}
        runnable: deque[tuple[int, int | None]] = deque((r, None) for r in range(self.job.world))
        while runnable:
            r, value = runnable.popleft()
            try:
                key, arrival = next(procs[r]) if value is None else procs[r].send(value)
            except StopIteration:
                continue
            got = waiting.setdefault(key, {})
            got[r] = arrival
            members = self.members[key]
            if len(got) == len(members):
                del waiting[key]
                ends = self._complete(key, [got[m] for m in members])
                runnable.extend(zip(members, ends))
        if waiting or len(self.times) != self.job.world:
            raise RuntimeError(f"cluster schedule: {len(waiting)} operators never completed (a generator bug)")

    def _proc(self, r: int, host: _Host) -> Generator[tuple[Key, int], int, None]:
        job = self.job
        prog = job.program(r)
        cfree = dep = pending = shift = 0
        sfree = dict.fromkeys(KINDS, 0)
        calls: dict[tuple[str, int], int] = {}
        times: list[tuple[int, int]] = []
        keys: dict[int, Key] = {}
        shifts: list[tuple[int, int]] = []
        j = 0
        for step in range(job.steps):
            step_end = 0
            for ins in prog:
                ready = host.ready[j] + shift
                if ins.group is None:
                    gap = 500 + int(1300 * _mix(job.seed, 11, r, j))
                    start = max(ready, cfree + gap, dep, pending if ins.barrier else 0)
                    end = start + host.durs[j]
                    cfree = end
                    dep = max(dep, end)
                else:
                    start = max(ready, dep, sfree[ins.group])
                    start = -(-start // FLOAT_EXACT_NS) * FLOAT_EXACT_NS
                    key = self._key(r, ins, calls)
                    keys[j] = key
                    end = yield key, start
                    sfree[ins.group] = end
                    if ins.blocking:
                        dep = max(dep, end)
                    else:
                        pending = max(pending, end)
                times.append((start, end))
                step_end = max(step_end, end)
                j += 1
            # the host's synchronisation at the step's end waits for the device: what comes after it moves
            tail = 4_000 + int(5_000 * _mix(job.seed, 19, r, step))
            longer = max(0, step_end + tail - (host.sync_ends[step] + shift))
            shifts.append((shift, longer))
            shift += longer
        self.times[r] = times
        self.keys[r] = keys
        self.shifts[r] = shifts

    def _key(self, r: int, ins: _Ins, calls: dict[tuple[str, int], int]) -> Key:
        job = self.job
        assert ins.group is not None
        gi = job.group_index[(ins.group, r)]
        if ins.kind in ("send", "receive"):
            stage = job.stage(r)
            src, dst = (stage, stage + ins.to) if ins.kind == "send" else (stage + ins.to, stage)
            n = calls.get((ins.kind, ins.to), 0)
            calls[(ins.kind, ins.to)] = n + 1
            key: Key = (1, gi, src, dst, n)
            if key not in self.members:
                ranks = job.groups[gi].ranks
                self.members[key] = (ranks[src], ranks[dst])
        else:
            n = calls.get((ins.group, 0), 0)
            calls[(ins.group, 0)] = n + 1
            key = (0, gi, n)
            if key not in self.members:
                self.members[key] = job.groups[gi].ranks
        return key

    def _complete(self, key: Key, arrivals: list[int]) -> list[int]:
        """Time the operator from its members' arrivals; the end of each member's operator."""
        job = self.job
        t0 = max(arrivals) + NOTIFY_NS + GAP_NS + WAIT_MIN_NS
        if key[0] == 1:  # send / receive
            src, dst = self.members[key]
            data_in = t0 + GAP_NS + job.transfer_ns(key, src, 0, 0, P2P_BYTES, src, dst) + GAP_NS
            local = job.local_ns(key, dst, P2P_BYTES)
            end_send = data_in + NOTIFY_NS + GAP_NS + WAIT_MIN_NS
            end_receive = data_in + GAP_NS + local
            end = max(end_send, end_receive)
            self.timing[key] = _Timing(t0, (data_in, end))
            return [end, end_receive]
        members = self.members[key]
        n = len(members)
        nbytes = job.bytes_of(key)
        local = max(job.local_ns(key, m, nbytes) for m in members)
        at = t0 + GAP_NS + local + GAP_NS
        bounds = [at]
        for k, (_kind, size) in enumerate(_allreduce_steps(n, nbytes)):
            longest = 0
            for i, m in enumerate(members):
                for plane in range(_planes(n)):
                    peer = members[_peer(i, plane, k, n)]
                    longest = max(longest, job.transfer_ns(key, m, plane, k, size, m, peer))
            at += longest + GAP_NS + NOTIFY_NS + GAP_NS + WAIT_MIN_NS
            bounds.append(at)
        self.timing[key] = _Timing(t0, tuple(bounds))
        return [at] * n


P2P_BYTES = P2P_ELEMENTS * 2


def _chunks(total: int, parts: int) -> list[int]:
    size = -(-total // parts)
    return [c for c in (min(size, max(0, total - i * size)) for i in range(parts)) if c > 0]


def _allreduce_steps(n: int, nbytes: int) -> list[tuple[str, int]]:
    """The algorithm steps of an allReduce on one plane: (transfer kind, bytes): a reduce-scatter phase,
    then an all-gather phase (a chunk is the phase's share of this plane; the last takes the remainder)."""
    steps = _phase_steps(n)
    chunks = _chunks(nbytes * (n - 1) // n // _planes(n), steps)
    chunks += [0] * (steps - len(chunks))
    return [("Reduce_Inline", c) for c in chunks] + [("Memcpy", c) for c in chunks]


class _Job:
    """The fixed facts of one job: shape, groups, programs, rates."""

    def __init__(
        self,
        world: int,
        tp: int,
        pp: int,
        dp: int,
        steps: int,
        slow_rank: int | None,
        slow_link: tuple[int, int] | None,
        seed: int,
        start_ns: int,
    ) -> None:
        self.world, self.tp, self.pp, self.dp, self.steps = world, tp, pp, dp, steps
        self.slow_rank, self.slow_link, self.seed = slow_rank, slow_link, seed
        self.groups = _groups(world, tp, dp, pp, start_ns)
        self.group_index: dict[tuple[str, int], int] = {}
        for i, g in enumerate(self.groups):
            for r in g.ranks:
                self.group_index[(g.kind, r)] = i
        self.comm_bytes = {"tp": TP_ELEMENTS * 2, "dp": DP_ELEMENTS * 4, "mp": MP_ELEMENTS * 4}
        self.microbatches = max(MICROBATCHES, pp)
        self.rates: dict[tuple[int, int], float] = {}

    def stage(self, r: int) -> int:
        return r // (self.tp * self.dp)

    def program(self, r: int) -> tuple[_Ins, ...]:
        stage = self.stage(r)
        first, last = stage == 0, stage == self.pp - 1
        mp = self.tp * self.pp > 1
        return _program(first, last, self.tp > 1, self.dp > 1, mp, self.microbatches, r == self.slow_rank)

    def bytes_of(self, key: Key) -> int:
        return self.comm_bytes[self.groups[key[1]].kind]

    def rate(self, src: int, dst: int) -> float:
        """Bytes per ns of the directed link ``src -> dst`` (global ranks)."""
        got = self.rates.get((src, dst))
        if got is None:
            got = HCCS_BYTES_PER_NS * (0.9 + 0.2 * _mix(self.seed, 7, src, dst))
            if (src, dst) == self.slow_link:
                got /= SLOW_LINK_FACTOR
            self.rates[(src, dst)] = got
        return got

    def transfer_ns(self, key: Key, member: int, plane: int, k: int, size: int, src: int, dst: int) -> int:
        if size <= 0:
            return 0
        jitter = 0.97 + 0.06 * _mix(self.seed, 13, *key, member, plane, k)
        return max(1, round(size / self.rate(src, dst) * jitter))

    def local_ns(self, key: Key, member: int, size: int) -> int:
        jitter = 0.95 + 0.1 * _mix(self.seed, 17, *key, member)
        return max(1, round(size / LOCAL_BYTES_PER_NS * jitter))


# ---- one rank's run ----------------------------------------------------------------------------


def _rank_run(job: _Job, r: int, start_ns: int) -> Run:
    """The host side of rank ``r`` (its device tasks before the re-timing)."""
    prog = job.program(r)
    ops = tuple(ins.op for ins in prog)
    name = "cluster_" + "".join(str(int(x)) for x in (job.stage(r) == 0, job.stage(r) == job.pp - 1, job.tp > 1))
    workload = Workload(name + ("_slow" if r == job.slow_rank else ""), ops, "ops", model_name="cluster")
    return simulate(
        workload,
        chip(SOC),
        style="torch",
        devices=[r % RANKS_PER_SERVER],
        iterations=job.steps,
        seed=job.seed + 7919 * r,
        start_ns=start_ns,
        pid=DEFAULT_PID + 13 * r,
    )


def _in_order(run: Run) -> list[Task]:
    return sorted(run.tasks[run.devices[0]], key=lambda t: (t.step, t.index))


def _comm_tasks(job: _Job, sched: _Schedule, r: int, key: Key, t: Task, ins: _Ins) -> tuple[CommTask, ...]:
    """The small tasks of rank ``r``'s operator ``key`` (task ``t``, already re-timed)."""
    timing = sched.timing[key]
    members = sched.members[key]
    out: list[CommTask] = []
    arrival = t.start_ns

    def add(plane: int, kind: str, start: int, end: int, src: int, dst: int, size: int, link: str) -> None:
        k = len(out)
        out.append(
            CommTask(
                plane,
                kind,
                HW_TYPES[kind],
                t.stream_id + PLANE_STREAM_OFFSET * plane,
                (t.task_id * 256 + k) % 65536,
                start,
                max(1, end - start),
                src,
                dst,
                size,
                (t.index * 16 + plane * 4 + k) % 1024,
                link,
            )
        )

    sync_from = arrival + NOTIFY_NS + GAP_NS
    if key[0] == 1:  # send / receive between pipeline neighbours (group-local ranks = stages)
        src, dst = key[2], key[3]
        data_in, end = timing.bounds
        if ins.kind == "send":
            add(0, "Notify_Record", arrival, arrival + NOTIFY_NS, src, dst, 0, "HCCS")
            add(0, "Notify_Wait", sync_from, timing.t0, src, dst, 0, "HCCS")
            xfer = data_in - GAP_NS
            add(0, "Memcpy", timing.t0 + GAP_NS, xfer, src, dst, P2P_BYTES, "HCCS")
            add(0, "Notify_Record", xfer + GAP_NS, xfer + GAP_NS + NOTIFY_NS, src, dst, 0, "HCCS")
            add(0, "Notify_Wait", xfer + 2 * GAP_NS + NOTIFY_NS, end, src, dst, 0, "HCCS")
        else:
            add(0, "Notify_Record", arrival, arrival + NOTIFY_NS, dst, src, 0, "HCCS")
            add(0, "Notify_Wait", sync_from, data_in, dst, src, 0, "HCCS")
            local = job.local_ns(key, members[1], P2P_BYTES)
            add(0, "Memcpy", data_in + GAP_NS, data_in + GAP_NS + local, dst, dst, P2P_BYTES, "ON_CHIP")
        return tuple(out)
    n = len(members)
    i = members.index(r)
    nbytes = job.bytes_of(key)
    bounds = timing.bounds
    steps = _allreduce_steps(n, nbytes)
    for plane in range(_planes(n)):
        first_peer = _peer(i, plane, 0, n)
        add(plane, "Notify_Record", arrival, arrival + NOTIFY_NS, i, first_peer, 0, "HCCS")
        if plane == 0:
            add(plane, "Notify_Wait", sync_from, timing.t0, i, first_peer, 0, "HCCS")
            local = job.local_ns(key, r, nbytes)
            add(plane, "Memcpy", timing.t0 + GAP_NS, timing.t0 + GAP_NS + local, i, i, nbytes, "ON_CHIP")
        else:  # the second plane waits while the first copies into the CCL buffer
            add(plane, "Notify_Wait", sync_from, bounds[0] - GAP_NS, i, first_peer, 0, "HCCS")
        for k, (kind, size) in enumerate(steps):
            peer = _peer(i, plane, k, n)
            at = bounds[k]
            xfer = at + job.transfer_ns(key, r, plane, k, size, r, members[peer])
            add(plane, kind, at, xfer, i, peer, size, "HCCS")
            add(plane, "Notify_Record", xfer + GAP_NS, xfer + GAP_NS + NOTIFY_NS, i, peer, 0, "HCCS")
            add(plane, "Notify_Wait", xfer + 2 * GAP_NS + NOTIFY_NS, bounds[k + 1], i, peer, 0, "HCCS")
    out.sort(key=lambda c: (c.start_ns, c.plane))
    return tuple(out)


_STREAM_OFFSET = {"tp": 0, "dp": 1, "pp": 2, "mp": 3}  # each communicator on its own stream (tp on simulate's)
_DATA_TYPES = {_BF16: "BFP16", "FLOAT": "FP32"}


def _retime(job: _Job, sched: _Schedule, r: int, run: Run) -> list[CommOp]:
    """Rank ``r``'s run with its device tasks at their scheduled times; its communication operators."""
    prog = job.program(r)
    times, keys = sched.times[r], sched.keys[r]
    tasks = _in_order(run)
    comm: list[CommOp] = []
    calls: dict[str, int] = {}
    for j, t in enumerate(tasks):
        ins = prog[j % len(prog)]
        start, end = times[j]
        t.start_ns, t.dur_ns = start, end - start
        if ins.group is None:
            continue
        g = job.groups[job.group_index[(ins.group, r)]]
        call = calls.get(g.kind, 0)
        calls[g.kind] = call + 1
        t.op = replace(t.op, name=f"hcom_{ins.kind}__{100 + int(g.hash) % 900}_{call}_1")
        t.stream_id += _STREAM_OFFSET[g.kind]
        small = _comm_tasks(job, sched, r, keys[j], t, ins)
        out = t.op.outputs[0]
        alg = "P2P" if ins.kind in ("send", "receive") else ("RING" if _ring(len(g.ranks)) else "HD")
        comm.append(CommOp(t, len(comm), g.hash, _DATA_TYPES[out.dtype], alg, out.elements, small, ins.kind))
    _shift_host(run, sched.shifts[r])
    last: dict[int, int] = {}
    for t in tasks:  # Wait Time: from the end of the task before on the same stream
        t.wait_ns = t.start_ns - last[t.stream_id] if t.stream_id in last else 0
        last[t.stream_id] = t.end_ns
    tasks.sort(key=lambda x: (x.start_ns, x.stream_id))
    run.tasks[run.devices[0]] = tasks
    run.end_ns = max(run.end_ns + sum(longer for _shift, longer in sched.shifts[r]), max(t.end_ns for t in tasks))
    return comm


SYNC_API = "aclrtSynchronizeStream"
SYNC_OP = "aten::item"


def _shift_host(run: Run, shifts: list[tuple[int, int]]) -> None:
    """Move the host side of every step by its shift and make its end-of-step synchronisation (and the
    ProfilerStep around it) last until the device is done, as the schedule decided."""
    dev = run.devices[0]
    starts = sorted(e.start_ns for e in run.python[dev] if e.name.startswith("ProfilerStep#"))

    def step_of(ns: int) -> int:
        return min(len(shifts) - 1, max(0, bisect.bisect_right(starts, ns) - 1))

    for t in run.tasks[dev]:
        t.launch_ns += shifts[t.step - 1][0]
    events: list[HostEvent | PyEvent] = [*run.host[dev], *run.python[dev]]
    for e in events:
        shift, longer = shifts[step_of(e.start_ns)]
        if e.name in (SYNC_API, SYNC_OP) or e.name.startswith("ProfilerStep#"):
            e.dur_ns += longer
        e.start_ns += shift


# ---- the files ---------------------------------------------------------------------------------


def _folder(r: int, start_ns: int, framework: str = "pytorch") -> str:
    suffix = "ascend_ms" if framework == "mindspore" else "ascend_pt"
    return f"node{r // RANKS_PER_SERVER:03d}_{DEFAULT_PID + 13 * r}_{stamp(start_ns, millis=True)}_{suffix}"


MS_ANALYZER_COLUMNS = {  # msprof's communication_analyzer.db: analysis.db's tables without step, type, op_name
    "CommAnalyzerTime": commfiles.TIME_COLUMNS[:-2],
    "CommAnalyzerBandwidth": commfiles.BANDWIDTH_COLUMNS[:-2],
    "CommAnalyzerMatrix": commfiles.MATRIX_COLUMNS[:-3],
}
_MS_TEXT = {"hccl_op_name", "group_name", "transport_type", "src_rank", "dst_rank"}


def _msprof_docs(comm: list[CommOp]) -> tuple[dict[str, Any], dict[str, Any]]:
    """msprof's own communication.json / communication_matrix.json of a rank: the operators at the top level."""
    ops = {commfiles.op_key(op): op for op in comm}
    doc = {
        key: {commfiles.TIME_INFO: commfiles.time_info(op), commfiles.BANDWIDTH_INFO: commfiles.bandwidth_info(op)}
        for key, op in ops.items()
    }
    return doc, {key: commfiles.op_links(op) for key, op in ops.items()}


def write_comm_analyzer_db(path: Path, comm: list[CommOp]) -> None:
    """msprof's ``communication_analyzer.db`` of one rank (docs/cann-formats.md §11): CommAnalyzerTime /
    Bandwidth / Matrix per operator in the producers' layout, without the ``step`` / ``type`` / ``op_name``
    columns torch_npu adds (the matrix per operator, not integrated)."""
    doc, links = _msprof_docs(comm)
    kinds: dict[str, dict[str, Any]] = {"p2p": {}, "collective": {}}
    for key, info in doc.items():
        kinds["p2p" if key.lower().startswith(commfiles.P2P_PREFIXES) else "collective"][key] = info
    per_op = {kind: {key: links[key] for key in entries} for kind, entries in kinds.items()}
    rows = commfiles.analysis_rows({"step": kinds}, {"step": per_op}, producer=True)
    if path.exists():
        raise FileExistsError(f"{path}: already exists; refusing to overwrite it")
    con = sqlite3.connect(path)
    try:
        with con:
            for table, columns in MS_ANALYZER_COLUMNS.items():
                types = ", ".join(f'"{c}" {"TEXT" if c in _MS_TEXT else "NUMERIC"}' for c in columns)
                con.execute(f'CREATE TABLE "{table}" ({types})')
                marks = ", ".join("?" * len(columns))
                con.executemany(f'INSERT INTO "{table}" VALUES ({marks})', (r[: len(columns)] for r in rows[table]))
    finally:
        con.close()


def _prof_folder(r: int, start_ns: int, seed: int) -> str:
    """Rank ``r``'s PROF folder: msprof's name (:func:`.msprof.prof_name`) for the rank's own seed."""
    return f"{prof_name(_Start(start_ns), seed + 7919 * r)}"  # type: ignore[arg-type]


@dataclass(frozen=True)
class _Start:
    start_ns: int  # all prof_name reads of a run


def _write_prof_rank(root: Path, r: int, run: Run, comm: list[CommOp], export: str = "text") -> None:
    """Rank ``r``'s PROF folder (see the module docstring)."""
    dev = run.devices[0]
    cv = cann(CANN_VERSION)
    write_raw(root, run, cv)
    info_path = root / f"device_{dev}" / f"info.json.{dev}"
    info = json.loads(info_path.read_text())
    info["rank_id"] = r
    write_text(info_path, json.dumps(info))
    ts = stamp(run.end_ns + 2_000_000_000)  # msprof's export time (:func:`.msprof.export_stamp`)
    write_text(
        root / "mindstudio_profiler_log" / f"msprof_{ts}.log",
        f"[INFO] simulated CANN {cv.version}: export and analyze finished\n",
    )
    if export in ("db", "both"):
        dbexport.write_framework_db(root / f"msprof_{ts}.db", run, pmu_columns(chip(SOC), AIC_METRICS), comm=comm)
        if comm:
            (root / "analyze").mkdir(exist_ok=True)
            write_comm_analyzer_db(root / "analyze" / "communication_analyzer.db", comm)
    if export == "db":
        return
    python = torch_pids(run)["Python"]
    out = root / "mindstudio_profiler_output"
    write_json_array(
        out / f"msprof_{ts}.json",
        (e for e in torch_events(run, dev, comm=comm) if e.get("pid") != python and e.get("cat") != "async_npu"),
    )
    write_text(out / "README.txt", "Profiling data exported by msprof (Ascend Workbench simulated toolkit).\n")
    if comm:
        analyze = root / "analyze"
        doc, links = _msprof_docs(comm)
        write_text(analyze / "communication.json", commfiles.dumps(doc))
        write_text(analyze / "communication_matrix.json", commfiles.dumps(links))


def _metadata(job: _Job, r: int, device: int) -> dict[str, Any]:
    info = {}
    for g in job.groups:
        if r in g.ranks:
            info[g.name] = {"group_name": g.kind, "group_rank": g.ranks.index(r), "global_ranks": list(g.ranks)}
    return {"ENV_VARIABLES": {"ASCEND_RT_VISIBLE_DEVICES": str(device)}, "parallel_group_info": info}


def _profiler_info(run: Run, steps: int, rank: int) -> dict[str, Any]:
    """write_torch_npu's profiler_info, with the ``rank_id`` torch_npu adds for a rank."""
    return {
        "config": {
            "common_config": {
                "activities": ["ProfilerActivity.CPU", "ProfilerActivity.NPU"],
                "schedule": {"wait": 0, "warmup": 0, "active": steps, "repeat": 1},
            },
            "experimental_config": {"_aic_metrics": AIC_METRICS, "_profiler_level": PROFILER_LEVEL},
        },
        "start_info": {"syscnt_enable": False, "freq": 100.0, "start_cnt": 0, "start_monotonic": 0},
        "end_info": {"collectionTimeEnd": str(run.end_ns // 1000)},
        "torch_npu_version": "2.1.0",
        "cann_version": cann(CANN_VERSION).version,
        "simulated": True,
        "rank_id": rank,
    }


def _write_rank(
    root: Path,
    job: _Job,
    r: int,
    run: Run,
    comm: list[CommOp],
    full: bool,
    start_ns: int,
    export: str = "text",
    framework: str = "pytorch",
) -> None:
    dev = run.devices[0]
    windows = overlap.step_windows(run, dev)
    rows = overlap.step_rows(
        overlap.lane_slices(run.tasks[dev], {id(op.task) for op in comm}), _receives(comm), windows
    )
    metadata = _metadata(job, r, dev)
    write_text(root / f"profiler_info_{r}.json", json.dumps(_profiler_info(run, job.steps, r), indent=4))
    write_text(root / "profiler_metadata.json", json.dumps(metadata, indent=4))
    out = root / "ASCEND_PROFILER_OUTPUT"
    comm_doc = commfiles.communication(comm, windows) if comm else None
    matrix_doc = commfiles.matrix(comm, windows) if comm else None
    c = chip(SOC)
    memory = simulate_memory(run, dev, job.world) if full else None
    if export in ("text", "both"):
        write_text(out / "step_trace_time.csv", pycsv_text(_step_header(STYLE), _step_cells(rows, STYLE)))
        if comm_doc is not None and matrix_doc is not None:
            write_text(out / "communication.json", commfiles.dumps(comm_doc))
            write_text(out / "communication_matrix.json", commfiles.dumps(matrix_doc))
    if export in ("db", "both") and framework == "mindspore":
        out.mkdir(parents=True, exist_ok=True)
        dbexport.write_framework_db(
            out / f"ascend_mindspore_profiler_{r}.db",
            run,
            pmu_columns(c, AIC_METRICS),
            rank=r,
            meta={key: json.dumps(value) for key, value in metadata.items()},
            comm=comm,
        )
        if comm:
            write_comm_analyzer_db(out / "communication_analyzer.db", comm)
    elif export in ("db", "both"):
        out.mkdir(parents=True, exist_ok=True)
        dbexport.write_framework_db(
            out / f"ascend_pytorch_profiler_{r}.db",
            run,
            pmu_columns(c, AIC_METRICS),
            rank=r,
            memory=memory,
            meta={key: json.dumps(value) for key, value in metadata.items()},
            comm=comm,
        )
        dbexport.write_analysis_db(
            out / "analysis.db",
            rows,
            None
            if comm_doc is None or matrix_doc is None
            else commfiles.analysis_rows(comm_doc, matrix_doc, producer=True),
            producer=True,
        )
    profiler = "MindSpore" if framework == "mindspore" else "torch_npu"
    write_text(
        root / "logs" / f"profiler_{stamp(start_ns)}.log", f"[INFO] simulated {profiler} profiler: parse finished\n"
    )
    if framework == "mindspore":
        # MindSpore keeps msprof's PROF_* of the rank inside the rank folder (host/, device_{id}/info.json.{id}, the
        # raw data): msprof-analyze's HostInfo / RankDeviceMap take the rank's device from its device_{id} folder
        # (MindsporeDataPreprocessor.get_msprof_dir, MsprofDataPreprocessor.get_device_id)
        prof = root / prof_name(run, job.seed + 7919 * r)
        write_raw(prof, run, cann(CANN_VERSION))
        info_path = prof / f"device_{dev}" / f"info.json.{dev}"
        info = json.loads(info_path.read_text())
        info["rank_id"] = r  # the job's rank, as msprof writes it for a framework's rank (UNVERIFIED for MindSpore)
        write_text(info_path, json.dumps(info))
    if not full:
        return
    if export in ("text", "both"):
        assert memory is not None
        write_json_array(out / "trace_view.json", torch_events(run, dev, comm=comm))
        _write_tables(out, run, STYLE, AIC_METRICS, pmu_columns(c, AIC_METRICS))
        _write_memory(out, memory, dev)
    fw = root / "FRAMEWORK"
    fw.mkdir()
    (fw / "torch.op_range").write_bytes(
        b"".join(struct.pack("<QQI", e.start_ns, e.start_ns + e.dur_ns, e.tid) for e in run.python[dev])
    )
    prof = root / prof_name(run, job.seed + 7919 * r)
    prof.mkdir()
    write_raw(prof, run, cann(CANN_VERSION))


def write_cluster_job(
    out_dir,
    world_size: int,
    *,
    tp: int = 1,
    pp: int = 1,
    steps: int = 2,
    slow_rank: int | None = None,
    slow_link: tuple[int, int] | None = None,
    seed: int = 0,
    full: bool = False,
    start_ns: int = DEFAULT_START_NS,
    export: str = "text",
    layout: str = "torch_npu",
    framework: str = "pytorch",
) -> ClusterJobPlan:
    """Write every rank's ``*_ascend_pt`` folder of a ``world_size``-rank job under ``out_dir`` (created
    if missing) and return its plan. ``tp`` / ``pp``: tensor / pipeline parallel sizes (``dp`` is the
    rest); ``slow_rank``: a rank whose kernels take ``SLOW_COMPUTE`` times longer; ``slow_link``: a
    directed link ``(src, dst)`` of global ranks that carries transfers of the job, ``SLOW_LINK_FACTOR``
    times slower. ``full=False`` writes what cluster analysis reads (profiler_info_{rank}.json,
    profiler_metadata.json, ASCEND_PROFILER_OUTPUT/ step_trace_time.csv, communication.json,
    communication_matrix.json) and the log; ``full=True`` also the rest of a torch_npu folder
    (trace_view.json, kernel_details.csv, memory files, FRAMEWORK/, PROF_*/) so a rank opens as a report.
    ``export``: ``"text"`` (the files above), ``"db"`` (torch_npu's ``export_type=Db``: instead of
    step_trace_time.csv and the communication JSONs, ``ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_{rank}.db``
    with profiler_metadata.json's keys in META_DATA, and ``analysis.db`` with the same numbers in StepTraceTime and
    CommAnalyzer*, in the producers' layout: :func:`.commfiles.analysis_rows` ``producer=True``; with ``full`` the
    memory goes into the db, trace_view.json and the CSV tables are not written) or ``"both"``.
    ``layout="msprof"``: every rank's ``PROF_*`` folder instead (the module docstring; not ``full``; ``export="db"``:
    ``msprof_{timestamp}.db`` with the CANN tables and ``analyze/communication_analyzer.db`` instead of
    mindstudio_profiler_output/ and the analyze JSONs, ``"both"`` both). ``framework="mindspore"``: MindSpore's
    ``*_ascend_ms`` folders (the same text files; its db export ``ascend_mindspore_profiler_{rank}.db`` with the CANN
    tables and META_DATA, plus the ``communication_analyzer.db`` MindSpore copies from msprof:
    :func:`write_comm_analyzer_db`, and the rank's own ``PROF_*`` folder with ``device_{id}/info.json.{id}`` as
    MindSpore keeps it there; not ``full``). Raises ValueError naming the bad argument; FileExistsError when a
    rank folder exists (nothing is written then)."""
    if export not in EXPORTS:
        raise ValueError(f"export: {export!r} is not one of {', '.join(EXPORTS)}")
    if layout not in LAYOUTS:
        raise ValueError(f"layout: {layout!r} is not one of {', '.join(LAYOUTS)}")
    if framework not in FRAMEWORKS:
        raise ValueError(f"framework: {framework!r} is not one of {', '.join(FRAMEWORKS)}")
    if framework == "mindspore" and (full or layout != "torch_npu"):
        raise ValueError("framework mindspore: only the *_ascend_ms folders of what cluster analysis reads (no full)")
    if layout == "msprof" and full:
        raise ValueError("layout msprof: only what cluster analysis reads (no full)")
    dp = _check(world_size, tp, pp, steps, slow_rank)
    job = _Job(world_size, tp, pp, dp, steps, slow_rank, None, seed, start_ns)
    if slow_link is not None:
        try:
            link = (int(slow_link[0]), int(slow_link[1]))
        except (TypeError, ValueError, IndexError):
            raise ValueError(f"slow_link: expected (src, dst) ranks, got {slow_link!r}") from None
        if link not in _links(job.groups):
            some = min(_links(job.groups))
            raise ValueError(
                f"slow_link: {link[0]}-{link[1]} is not a link of this job (transfers go between ring or"
                f" halving-doubling neighbours of a tp/dp group and between pipeline neighbours;"
                f" e.g. {some[0]}-{some[1]})"
            )
        job.slow_link = link
    out = Path(out_dir)
    if layout == "msprof":
        dirs = tuple(out / _prof_folder(r, start_ns, seed) for r in range(world_size))
    else:
        dirs = tuple(out / _folder(r, start_ns, framework) for r in range(world_size))
    existing = [d for d in dirs if d.exists()]
    if existing:
        raise FileExistsError(f"{existing[0]}: output folder already exists; refusing to overwrite it")
    out.mkdir(parents=True, exist_ok=True)
    hosts: dict[int, _Host] = {}
    kept: dict[int, Run] = {}
    for r in range(world_size):
        run = _rank_run(job, r, start_ns)
        tasks = _in_order(run)
        syncs = sorted(e.start_ns + e.dur_ns for e in run.host[run.devices[0]] if e.name == SYNC_API)
        hosts[r] = _Host([t.start_ns for t in tasks], [t.dur_ns for t in tasks], syncs)
        if not full:  # what the cluster files need: the device tasks and the steps (full: simulated again)
            dev = run.devices[0]
            run.host[dev] = []
            run.python[dev] = [e for e in run.python[dev] if e.name.startswith("ProfilerStep#")]
            kept[r] = run
    sched = _Schedule(job)
    sched.run(hosts)
    del hosts
    written: list[Path] = []
    try:
        for r in range(world_size):
            run = kept.pop(r) if r in kept else _rank_run(job, r, start_ns)  # deterministic: the same run
            comm = _retime(job, sched, r, run)
            with StagedDir(dirs[r]) as root:
                if layout == "msprof":
                    _write_prof_rank(root, r, run, comm, export)
                else:
                    _write_rank(root, job, r, run, comm, full, start_ns, export, framework)
            written.append(dirs[r])
    except BaseException:
        for d in written:
            shutil.rmtree(d, ignore_errors=True)
        raise
    return ClusterJobPlan(world_size, tp, pp, dp, job.groups, slow_rank, job.slow_link, dirs, steps, seed)


__all__ = ["ClusterGroup", "ClusterJobPlan", "double_hash", "write_cluster_job"]
