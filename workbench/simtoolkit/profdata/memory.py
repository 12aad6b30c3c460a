"""Device memory of a simulated torch_npu run: what memory_record.csv, operator_memory.csv and
npu_module_mem.csv (and the db's MEMORY_RECORD / OP_MEMORY / NPU_MODULE_MEM) hold (docs/cann-formats.md
§4.3, §11; layout of samples/torch_npu-910B-rank0-comm-mem).

The model (sizes in bytes, times in ns; choices marked UNVERIFIED in the docs' sense):

- ``PTA`` (torch_npu's caching allocator): a persistent part (parameters: 512 MB + the workload's weights)
  allocated before the profile; every framework op that launches a compute kernel allocates its outputs
  (512-byte blocks) inside its own span on the Python thread (at 40 % of it), and the op consuming them
  (the one launched 1 to 3 ops later) frees them inside its span (at 80 %); cube kernels also take a
  workspace inside their op (45 % to 55 %). Outputs with no consumer left in the profile stay allocated
  (their release cells are empty). Reserved grows in 2 MB-rounded segments of at least 20 MB when the
  allocated bytes exceed it, and never shrinks. Active = allocated (a release's active time is a few
  hundred ns before it, as in the sample).
- ``GE`` (CANN's own allocator): cube and AI CPU kernels get a GE buffer (64 KB blocks) for the kernel's
  span on the device (``cann::<kernel name>`` in operator_memory), out of a fixed GE pool (reserved).
- ``PTA+GE``: at every PTA or GE record, the sums of both (active: PTA's), as torch_npu merges them.
- ``APP``: msprof's npu_mem ``APP`` samples: reserved only = every module's reserved + 64 MB.
- npu_module_mem: the 77 CANN modules (ENUM_MODULE order) sampled together at a fixed period: ``APP`` =
  PTA reserved, ``GE`` = the GE pool, ``HCCL`` = the CCL buffers of a multi-rank job, ``RUNTIME`` ~92 MB,
  the others 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .schedule import Run, Task

MB = 1 << 20
KB = 1 << 10
# ENUM_MODULE (the ids are the positions: SLOG 0, HCCL 3, RUNTIME 7, APP 33, GE 45; the sample's order)
MODULES = (
    "SLOG",
    "IDEDD",
    "IDEDH",
    "HCCL",
    "FMK",
    "HIAIENGINE",
    "DVPP",
    "RUNTIME",
    "CCE",
    "HDC",
    "DRV",
    "MDCFUSION",
    "MDCLOCATION",
    "MDCPERCEPTION",
    "MDCFSM",
    "MDCCOMMON",
    "MDCMONITOR",
    "MDCBSWP",
    "MDCDEFAULT",
    "MDCSC",
    "MDCPNC",
    "MLL",
    "DEVMM",
    "KERNEL",
    "LIBMEDIA",
    "CCECPU",
    "ASCENDDK",
    "ROS",
    "HCCP",
    "ROCE",
    "TEFUSION",
    "PROFILING",
    "DP",
    "APP",
    "TS",
    "TSDUMP",
    "AICPU",
    "LP",
    "TDT",
    "FE",
    "MD",
    "MB",
    "ME",
    "IMU",
    "IMP",
    "GE",
    "MDCFUSA",
    "CAMERA",
    "ASCENDCL",
    "TEEOS",
    "ISP",
    "SIS",
    "HSM",
    "DSS",
    "PROCMGR",
    "BBOX",
    "AIVECTOR",
    "TBE",
    "FV",
    "MDCMAP",
    "TUNE",
    "HSS",
    "FFTS",
    "OP",
    "UDF",
    "HICAID",
    "TSYNC",
    "AUDIO",
    "TPRT",
    "ASCENDCKERNEL",
    "ASYS",
    "ATRACE",
    "RTC",
    "SYSMONITOR",
    "AML",
    "ADETECT",
    "MBUFF",
)
MODULE_IDS = {name: i for i, name in enumerate(MODULES)}
STREAM_PTR = 897357296  # the compute stream's handle in the PTA records (a sample-like value; chosen)
APP_CONTEXT = 64 * MB
RUNTIME_BASE = 92 * MB + 192 * KB  # 92.1875 MB, as in the sample
CCL_BUFFERS = 2 * 200 * MB + 4 * MB + 64 * KB  # HCCL's in/out CCL buffers (404.0625 MB in the sample)
SAMPLES = 12  # npu_mem / npu_module_mem samples over the run


@dataclass(frozen=True, slots=True)
class Record:
    """One memory_record row (bytes; ``None`` = an empty cell)."""

    component: str
    ts_ns: int
    allocated: int | None
    reserved: int
    active: int | None
    stream_ptr: int | None


@dataclass(frozen=True, slots=True)
class Allocation:
    """One operator_memory row (bytes, ns; release fields ``None`` when not released in the profile)."""

    name: str
    size: int
    alloc_ns: int
    release_ns: int | None
    active_release_ns: int | None
    alloc_allocated: int
    alloc_reserved: int
    alloc_active: int | None
    release_allocated: int | None
    release_reserved: int | None
    release_active: int | None
    stream_ptr: int | None
    ge: bool = False


@dataclass
class Memory:
    records: list[Record] = field(default_factory=list)
    allocations: list[Allocation] = field(default_factory=list)
    modules: list[tuple[str, int, int]] = field(default_factory=list)  # (module, ts, reserved)


def _align(n: int, to: int) -> int:
    return max(to, -(-n // to) * to)


def _out_bytes(t: Task) -> int:
    return sum(x.nbytes for x in t.op.outputs)


def _ge_eligible(t: Task) -> bool:
    return t.op.core != "HCCL" and (t.op.is_cube or t.task_type == "AI_CPU")


class _Pool:
    """Allocated / reserved bytes of one allocator as its events are applied in time order."""

    def __init__(self, allocated: int, reserved: int, grow: bool) -> None:
        self.allocated, self.reserved, self.grow = allocated, reserved, grow

    def apply(self, delta: int) -> None:
        self.allocated += delta
        if self.grow and self.allocated > self.reserved:
            self.reserved += _align(max(self.allocated - self.reserved, 20 * MB), 2 * MB)


def simulate_memory(run: Run, dev: int, world_size: int = 1) -> Memory:
    """The memory files' content for device ``dev`` of ``run``."""
    tasks = run.tasks[dev]
    weights = sum(x.nbytes for t in tasks if t.step == 1 and t.op.is_cube for x in t.op.inputs[1:2])
    base = 512 * MB + _align(weights, 512)
    # (ts, order, allocator, delta, allocation id) events; ids index `alloc`
    events: list[tuple[int, int, str, int, int]] = []
    alloc: list[list] = []  # [name, size, alloc_ns, release_ns | None, ge]
    launching = [e for e in run.python[dev] if e.task is not None and e.task.op.core != "HCCL"]
    order = 0

    def add(name: str, size: int, at: int, release: int | None, ge: bool) -> None:
        nonlocal order
        i = len(alloc)
        alloc.append([name, size, at, release, ge])
        events.append((at, order, "GE" if ge else "PTA", size, i))
        order += 1
        if release is not None:
            events.append((release, order, "GE" if ge else "PTA", -size, i))
            order += 1

    frees: dict[int, int] = {}  # consumer position -> frees it made so far (each at its own ns)
    for p, e in enumerate(launching):
        t = e.task
        assert t is not None
        size = _align(_out_bytes(t), 512)
        c = p + 1 + t.index % 3
        consumer = launching[c] if c < len(launching) else None
        release = None
        if consumer is not None:
            frees[c] = frees.get(c, 0) + 1
            release = consumer.start_ns + consumer.dur_ns * 4 // 5 + 170 * frees[c]
        add(e.name, size, e.start_ns + e.dur_ns * 2 // 5, release, False)
        if t.op.is_cube:
            ws = _align(min(max(size // 4, 2 * MB), 32 * MB), 512)
            add(e.name, ws, e.start_ns + e.dur_ns * 9 // 20, e.start_ns + e.dur_ns * 11 // 20, False)
    for t in tasks:
        if _ge_eligible(t):
            size = _align(min(_out_bytes(t), 48 * MB), 64 * KB)
            start, end = -(-t.start_ns // 10) * 10, t.end_ns // 10 * 10  # inside the kernel's span
            add(f"cann::{t.op.name}", size, start, max(start, end), True)
    events.sort()
    # the GE pool: its peak (replayed once) + 16 MB, a multiple of 256 KB
    level = peak = 0
    for _ts, _o, kind, delta, _i in events:
        if kind == "GE":
            level += delta
            peak = max(peak, level)
    ge_reserved = _align(peak + 16 * MB, 256 * KB) if peak else 0
    pta = _Pool(base, _align(base + 64 * MB, 2 * MB), grow=True)
    ge = _Pool(0, ge_reserved, grow=False)
    seen_ge = False
    mem = Memory()
    at_alloc: dict[int, tuple[int, int]] = {}
    at_release: dict[int, tuple[int, int]] = {}
    pta_reserved: list[tuple[int, int]] = [(run.start_ns, pta.reserved)]
    for ts, _o, kind, delta, i in events:
        pool = ge if kind == "GE" else pta
        pool.apply(delta)
        (at_alloc if delta > 0 else at_release)[i] = (pool.allocated, pool.reserved)
        if kind == "GE":
            seen_ge = True
            mem.records.append(Record("GE", ts, ge.allocated, ge.reserved, None, None))
        else:
            mem.records.append(Record("PTA", ts, pta.allocated, pta.reserved, pta.allocated, STREAM_PTR))
            pta_reserved.append((ts, pta.reserved))
        ge_alloc, ge_res = (ge.allocated, ge.reserved) if seen_ge else (0, 0)
        mem.records.append(
            Record("PTA+GE", ts, pta.allocated + ge_alloc, pta.reserved + ge_res, pta.allocated, STREAM_PTR)
        )
    for i, (name, size, at, release, is_ge) in enumerate(alloc):
        a_alloc, a_res = at_alloc[i]
        r_alloc, r_res = at_release.get(i, (None, None))
        active_release = None if release is None or is_ge else release - (300 + (i * 7919) % 600)
        mem.allocations.append(
            Allocation(
                name,
                size,
                at,
                release,
                active_release,
                a_alloc,
                a_res,
                None if is_ge else a_alloc,
                r_alloc,
                r_res,
                None if is_ge else r_alloc,
                None if is_ge else STREAM_PTR,
                is_ge,
            )
        )
    mem.allocations.sort(key=lambda a: (a.ge, a.alloc_ns))  # PTA rows by time, then GE's (as the sample)
    # samples of the modules and of the APP (npu_mem) over the run
    first = min(t.start_ns for t in tasks) - 100_000
    last = max(t.end_ns for t in tasks) + 100_000
    period = max(10_000, (last - first) // SAMPLES // 10_000 * 10_000)

    def reserved_at(ts: int) -> int:
        value = pta_reserved[0][1]
        for at, res in pta_reserved:
            if at > ts:
                break
            value = res
        return value

    def module_values(ts: int, k: int) -> dict[str, int]:
        return {
            "APP": reserved_at(ts),
            "GE": ge_reserved,
            "HCCL": CCL_BUFFERS if world_size > 1 else 0,
            "RUNTIME": RUNTIME_BASE + (k % 3) * 24 * KB,
        }

    times = list(range(first + 7_220, last, period))
    values = [module_values(ts, k) for k, ts in enumerate(times)]
    mem.modules = [(m, ts, v.get(m, 0)) for m in MODULES for ts, v in zip(times, values)]
    app = [
        Record(
            "APP", ts - period // 3, None, sum(module_values(ts - period // 3, k).values()) + APP_CONTEXT, None, None
        )
        for k, ts in enumerate(times)
    ]
    mem.records = app + mem.records
    return mem


__all__ = ["MODULES", "MODULE_IDS", "Allocation", "Memory", "Record", "simulate_memory"]
