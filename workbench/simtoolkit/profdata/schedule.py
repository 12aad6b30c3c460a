"""Deterministic simulation of one profiled run: host API calls, launches and device tasks.

Everything is integer nanoseconds since the epoch. The writers only format what is decided here,
so the timeline, op_summary, kernel_details and statistics all describe the very same tasks with
the very same start times and durations.

Host styles:
- ``"model"``: an offline model (aclmdlExecute per iteration; Node@launch per kernel inside),
- ``"ops"``: single-operator launches from C++ (aclnnXxxGetWorkspaceSize + aclnnXxx per kernel),
- ``"torch"``: torch_npu eager mode (Python cpu_op -> Enqueue -> Dequeue thread -> aclnnXxx).
"""

from __future__ import annotations

import datetime as _dt
import math
import random
from dataclasses import dataclass, field

from .chips import Chip
from .workload import Op, Workload

# 2024-06-03 09:30:00 UTC: fixed so that two runs with the same inputs are byte-identical.
DEFAULT_START_NS = int(_dt.datetime(2024, 6, 3, 9, 30, tzinfo=_dt.timezone.utc).timestamp()) * 1_000_000_000
DEFAULT_PID = 437675
MODEL_ID_NONE = 4294967295
US = 1000


@dataclass(slots=True)
class Task:
    """One device task (a row of op_summary / kernel_details, an X event under Ascend Hardware)."""

    device: int
    step: int  # 1-based iteration / step
    index: int  # position of the op in the iteration
    op: Op
    task_type: str
    stream_id: int
    task_id: int
    start_ns: int
    dur_ns: int
    wait_ns: int
    block_dim: int
    mix_block_dim: int
    context_id: str
    connection_id: int
    launch_ns: int  # ts of the HostToDevice flow start (inside Node@launch)
    launch_tid: int
    rnd: tuple[float, ...]  # per-task random draws for PMU values

    @property
    def end_ns(self) -> int:
        return self.start_ns + self.dur_ns


@dataclass(slots=True)
class HostEvent:
    """One CANN-layer API call (AscendCL / Node / Runtime / Model level)."""

    device: int
    tid: int
    level: str  # acl, node, runtime, model
    name: str  # API name without the component prefix
    mode: str
    start_ns: int
    dur_ns: int
    connection_id: int
    item_id: str = "0"

    @property
    def label(self) -> str:
        return f"{_PREFIX[self.level]}@{self.name}"


_PREFIX = {"acl": "AscendCL", "node": "Node", "runtime": "Runtime", "model": "Model"}


@dataclass(slots=True)
class PyEvent:
    """One torch_npu Python-layer event (cpu_op, Enqueue, Dequeue)."""

    device: int
    tid: int
    name: str
    cat: str
    start_ns: int
    dur_ns: int
    args: dict
    task: Task | None = None  # set on the cpu_op whose kernel it launched (torch_to_npu flow)
    queue_id: int | None = None  # enqueue/dequeue correlation


@dataclass
class Run:
    chip: Chip
    workload: Workload
    style: str
    devices: list[int]
    iterations: int
    pid: int
    start_ns: int
    tasks: dict[int, list[Task]] = field(default_factory=dict)
    host: dict[int, list[HostEvent]] = field(default_factory=dict)
    python: dict[int, list[PyEvent]] = field(default_factory=dict)
    end_ns: int = 0

    def main_tid(self, device: int) -> int:
        return self.pid + 7 * device

    def queue_tid(self, device: int) -> int:
        return self.pid + 1409 + device

    @property
    def model_id(self) -> int:
        return 1 if self.style == "model" else MODEL_ID_NONE

    def all_tasks(self) -> list[Task]:
        return [t for d in self.devices for t in self.tasks[d]]


HCCS_BYTES_PER_S = 20e9  # the link rate a communication operator's duration is derived from (chosen)
COMM_STREAM_OFFSET = 4  # communication operators run on their own stream: the compute stream + 4 (chosen)
# a communication operator starts on a multiple of 500 ns: its µs start is a float whose shortest text (what
# json writes) is exact (a .25 / .75 µs float prints as .2 / .8, as in the real communication.json)
FLOAT_EXACT_NS = 500


def op_duration_ns(op: Op, chip: Chip) -> int:
    """Kernel time from the op's rough duration, or from its work and the chip's peak rates (a
    communication operator: twice its bytes over an HCCS link plus a fixed latency)."""
    if op.duration_us is not None:
        return max(1000, int(op.duration_us * 1000))
    if op.core == "HCCL":
        return 30_000 + int(2 * sum(t.nbytes for t in op.outputs) / HCCS_BYTES_PER_S * 1e9)
    if op.core == "AI_CPU":
        return 40_000 + op.nbytes // 200
    compute = op.flops / (chip.cube_flops * 0.3 if op.is_cube else chip.vec_flops * 0.4)
    memory = op.nbytes / (chip.mem_bw * 0.5)
    return max(2_500, int((compute + memory) * 1e9) + 1_800)


def _blocks(op: Op, chip: Chip, task_type: str) -> tuple[int, int]:
    if task_type == "HCCL":  # communication ops have no block dim: 0 (samples/torch_npu-kernel_details-arith)
        return 0, 0
    if task_type == "MIX_AIC":
        return min(chip.aic_num, 20), 2 * min(chip.aic_num, 20)
    elements = sum(t.elements for t in op.outputs) or 1
    if task_type in ("AI_VECTOR_CORE", "MIX_AIV"):
        return min(chip.aiv_num or chip.aic_num, max(1, math.ceil(elements / 16384))), 0
    if task_type == "AI_CORE":
        if op.is_cube:
            return min(chip.aic_num, max(1, math.ceil(op.flops / 50e6))), 0
        return min(chip.aic_num, max(1, math.ceil(elements / 16384))), 0
    return 1, 0


def simulate(
    workload: Workload,
    chip: Chip,
    *,
    style: str,
    devices: list[int],
    iterations: int,
    seed: int,
    start_ns: int = DEFAULT_START_NS,
    pid: int = DEFAULT_PID,
    connection_base: int = 0,
) -> Run:
    """Play the run: the same draws in the same order for the same inputs, hence deterministic.

    ``connection_base`` offsets connection ids (a long-running process); from 2**21 on, the
    HostToDevice flow ids exceed 2**53."""
    if iterations < 1:
        raise ValueError(f"iterations must be >= 1, got {iterations}")
    if not devices or any(not 0 <= d < 31 for d in devices) or len(set(devices)) != len(devices):
        raise ValueError(f"devices must be distinct ids in 0..30, got {devices!r}")
    run = Run(chip, workload, style, list(devices), iterations, pid, start_ns)
    rng = random.Random(f"{seed}/{workload.name}/{chip.soc}/{style}")
    base = [op_duration_ns(op, chip) for op in workload.ops]
    conn = connection_base
    for dev in run.devices:
        tasks: list[Task] = []
        host: list[HostEvent] = []
        py: list[PyEvent] = []
        run.tasks[dev], run.host[dev], run.python[dev] = tasks, host, py
        main, queue = run.main_tid(dev), run.queue_tid(dev)
        stream = {"model": 5, "ops": 2, "torch": 3}[style] + (dev % 2)
        comm_stream = stream + COMM_STREAM_OFFSET
        task_id = rng.randrange(2, 300)
        h = start_ns + 180_000 + dev * 3_100 + rng.randrange(0, 2_000)  # host clock
        dev_free = h
        comm_free = h
        queue_free = h
        last_end: dict[int, int] = {}  # stream -> end of its last task (Wait Time)
        for step in range(1, iterations + 1):
            step_start = h
            if style == "model":
                cp = rng.randrange(25_000, 45_000)
                host.append(HostEvent(dev, main, "acl", "aclrtMemcpy", "ACL_RTS", h, cp, conn))
                conn += 1
                h += cp + rng.randrange(3_000, 6_000)
                exec_event = HostEvent(dev, main, "acl", "aclmdlExecute", "ACL_MODEL", h, 0, conn)
                host.append(exec_event)
                conn += 1
                h += rng.randrange(4_000, 8_000)
            elif style == "torch":
                step_event = PyEvent(
                    dev, main, f"ProfilerStep#{step}", "cpu_op", h, 0, {"Sequence number": -1, "Fwd thread id": 0}
                )
                py.append(step_event)
                h += rng.randrange(8_000, 15_000)
            for index, op in enumerate(workload.ops):
                task_type = chip.task_type(op.core)
                comm = op.core == "HCCL"
                if style == "model":
                    launch_tid, launch = main, h
                elif style == "ops":
                    ws = rng.randrange(3_000, 8_000)
                    host.append(HostEvent(dev, main, "acl", f"{op.acl_api}GetWorkspaceSize", "ACL_NN", h, ws, conn))
                    conn += 1
                    h += ws + rng.randrange(500, 1_500)
                    launch_tid, launch = main, h + rng.randrange(1_500, 3_000)
                else:  # torch: cpu_op on the main thread enqueues; the dequeue thread launches
                    op_dur = rng.randrange(18_000, 40_000)
                    cpu = PyEvent(
                        dev, main, op.torch_op, "cpu_op", h, op_dur, {"Sequence number": -1, "Fwd thread id": 0}
                    )
                    enq = h + op_dur * 3 // 5
                    qid = conn
                    py.append(cpu)
                    py.append(
                        PyEvent(
                            dev,
                            main,
                            "Enqueue",
                            "enqueue",
                            enq,
                            rng.randrange(900, 2_000),
                            {"correlation_id": qid},
                            queue_id=qid,
                        )
                    )
                    deq = max(enq + rng.randrange(4_000, 12_000), queue_free)
                    launch_tid = queue
                    acl_start = deq + rng.randrange(1_500, 3_000)
                    launch = acl_start + rng.randrange(1_500, 3_000)
                    h += op_dur + rng.randrange(2_000, 6_000)
                node_dur = rng.randrange(6_000, 14_000)
                latency = rng.randrange(14_000, 26_000)
                jitter = 0.97 + 0.06 * rng.random()
                dur = max(1_000, int(base[index] * jitter))
                gap = rng.randrange(500, 1_800)
                if comm:  # its own stream: it overlaps the compute launched after it
                    start = max(comm_free + gap, launch + latency)
                    start = -(-start // FLOAT_EXACT_NS) * FLOAT_EXACT_NS
                else:
                    start = max(dev_free + gap, launch + latency)
                task_stream = comm_stream if comm else stream
                blocks, mix = _blocks(op, chip, task_type)
                launch_conn = conn
                conn += 1
                task = Task(
                    dev,
                    step,
                    index,
                    op,
                    task_type,
                    task_stream,
                    task_id,
                    start,
                    dur,
                    start - last_end[task_stream] if task_stream in last_end else 0,
                    blocks,
                    mix,
                    "0" if task_type.startswith("MIX") else "N/A",
                    launch_conn,
                    launch,
                    launch_tid,
                    tuple(rng.random() for _ in range(8)),
                )
                tasks.append(task)
                task_id = task_id + 1 if task_id < 65535 else 0
                last_end[task_stream] = task.end_ns
                if comm:
                    comm_free = task.end_ns
                else:
                    dev_free = task.end_ns
                if style == "ops":
                    api_start = launch - rng.randrange(800, 1_400)
                    host.append(
                        HostEvent(
                            dev,
                            main,
                            "acl",
                            op.acl_api,
                            "ACL_NN",
                            api_start,
                            launch + node_dur + rng.randrange(800, 1_600) - api_start,
                            conn,
                        )
                    )
                    conn += 1
                    h = launch + node_dur + rng.randrange(2_000, 4_000)
                elif style == "torch":
                    acl_end = launch + node_dur + rng.randrange(800, 1_600)
                    host.append(
                        HostEvent(dev, launch_tid, "acl", op.acl_api, "ACL_NN", acl_start, acl_end - acl_start, conn)
                    )
                    conn += 1
                    deq_end = acl_end + rng.randrange(1_000, 2_500)
                    py.append(
                        PyEvent(
                            dev,
                            queue,
                            f"Dequeue@{op.acl_api}",
                            "dequeue",
                            deq,
                            deq_end - deq,
                            {"correlation_id": qid},
                            queue_id=qid,
                        )
                    )
                    queue_free = deq_end + rng.randrange(300, 900)
                    cpu.task = task
                else:
                    h = launch + node_dur + rng.randrange(1_000, 3_000)
                host.append(
                    HostEvent(dev, launch_tid, "node", "launch", "ACL_OP", launch, node_dur, launch_conn, op.name)
                )
                kl = node_dur - rng.randrange(2_000, 3_500)
                host.append(HostEvent(dev, launch_tid, "runtime", "KernelLaunch", "ACL_OP", launch + 1_000, kl, conn))
                conn += 1
            # end of the iteration: the host waits for the device (compute and communication)
            done = max(dev_free, comm_free) + rng.randrange(4_000, 9_000)
            if style == "model":
                exec_event.dur_ns = max(h, done) - exec_event.start_ns
                h = exec_event.start_ns + exec_event.dur_ns + rng.randrange(2_000, 5_000)
                cp = rng.randrange(20_000, 40_000)
                host.append(HostEvent(dev, main, "acl", "aclrtMemcpy", "ACL_RTS", h, cp, conn))
                conn += 1
                h += cp
            else:
                sync_start = max(h, queue_free) + rng.randrange(1_000, 3_000)
                sync_end = max(sync_start + rng.randrange(3_000, 6_000), done)
                if style == "torch":
                    py.append(
                        PyEvent(
                            dev,
                            main,
                            "aten::item",
                            "cpu_op",
                            sync_start - 1_500,
                            sync_end - sync_start + 3_000,
                            {"Sequence number": -1, "Fwd thread id": 0},
                        )
                    )
                host.append(
                    HostEvent(
                        dev, main, "acl", "aclrtSynchronizeStream", "ACL_RTS", sync_start, sync_end - sync_start, conn
                    )
                )
                conn += 1
                h = sync_end + 1_500
                if style == "torch":
                    step_event.dur_ns = h + 2_000 - step_start
                    h += 2_000
            h += rng.randrange(40_000, 90_000)
            dev_free = max(dev_free, h - 20_000)
            comm_free = max(comm_free, h - 20_000)
        host.sort(key=lambda e: (e.start_ns, -e.dur_ns))
        py.sort(key=lambda e: (e.tid, e.start_ns, -e.dur_ns))
        tasks.sort(key=lambda t: (t.start_ns, t.stream_id))  # communication overlaps compute: by start
        run.end_ns = max(run.end_ns, h, max(t.end_ns for t in tasks))
    return run
