"""``write_torch_npu``: a torch_npu profiler result folder (reference §4)::

    {hostname}_{pid}_{YYYYMMDDhhmmssfff}_ascend_pt/
      profiler_info.json (profiler_info_{rank}.json with a rank), profiler_metadata.json
      ASCEND_PROFILER_OUTPUT/ trace_view.json, kernel_details.csv, operator_details.csv, op_statistic.csv,
                              step_trace_time.csv, api_statistic.csv, memory_record.csv,
                              operator_memory.csv, npu_module_mem.csv,
                              communication.json, communication_matrix.json (a run with HCCL ops, Level1/2)
      FRAMEWORK/  logs/  PROF_*/ (raw CANN data: host/, device_N/)

The memory files follow the model of :mod:`.memory`, step_trace_time is what torch_npu computes from the
trace's Overlap Analysis lanes (:mod:`.overlap`), the communication files what msprof's analysis and
torch_npu make of the rank's small HCCL tasks (:mod:`.hccl`, :mod:`.commfiles`); all in the layout, line
ends and cell quirks of samples/torch_npu-910B-rank0-comm-mem (a TAB after every time point, empty cells,
MB = bytes / 2**20). :func:`write_torch_npu_job` writes every rank of a multi-rank job.

``style="2025"`` follows samples/torch_npu-kernel_details-pipe (OP State, HF32 Eligible, start time
quoted with a trailing TAB); ``style="2023"`` follows samples/torch_npu-kernel_details-arith (no
OP State/HF32, float start time, FORMAT_ND formats).

``profiler_level="Level0"`` (the level many users collect; no PMU columns) writes kernel_details
with ``Type`` and ``Accelerator Core`` = ``N/A`` for every kernel but the AI CPU ones, op_statistic
grouped by those ``N/A`` values, and a trace_view whose Ascend Hardware slices carry each kernel's
``Task Type`` and ``OP Type`` args (docs/cann-formats.md §4.1; which rows keep a type is UNVERIFIED).
"""

from __future__ import annotations

import bisect
import json
import struct
from collections.abc import Collection
from pathlib import Path

from . import commfiles, dbexport, hccl, overlap, problems, problems_compute, problems_host, tables  # noqa: F401
from .chips import cann, chip, pmu_columns
from .fmt import NA, StagedDir, csv_text, dur_text, pycsv_text, ts_us, write_json_array, write_text
from .memory import Allocation, Memory, simulate_memory
from .msprof import prof_name, stamp, write_raw
from .schedule import DEFAULT_PID, DEFAULT_START_NS, Run, simulate
from .stats import aggregate, api_statistic, op_statistic
from .timeline import torch_events
from .workload import Workload

STYLES = ("2025", "2023")
EXPORT_TYPES = ("Text", "Db", "Text+Db")
FRAMEWORKS = ("torch_npu", "mindspore")
LEVELS = ("Level0", "Level1", "Level2")


def write_torch_npu(
    out_dir,
    workload: Workload,
    soc: str = "Ascend910B2",
    steps: int = 2,
    aic_metrics: str | None = "PipeUtilization",
    seed: int = 0,
    *,
    style: str = "2025",
    device: int = 0,
    rank: int | None = None,
    cann_version: str = "8.0.RC1",
    hostname: str = "localhost",
    start_ns: int = DEFAULT_START_NS,
    pid: int = DEFAULT_PID,
    connection_base: int = 0,
    profiler_level: str = "Level1",
    export_type: str = "Text",
    framework: str = "torch_npu",
    db_schema: str = "new",
    world_size: int = 1,
    plants: Collection[str] = (),
) -> Path:
    """Write one ``*_ascend_pt`` folder under ``out_dir`` (eager torch_npu run of ``workload`` for
    ``steps`` profiler steps on one device) and return its path. ``profiler_level="Level0"``
    collects no PMU metrics (``aic_metrics`` is ignored) and leaves kernel types to the timeline.
    ``export_type``: ``"Text"`` (CSV + trace_view.json), ``"Db"`` (only ``ascend_pytorch_profiler[_{rank}].db``
    and ``analysis.db``) or ``"Text+Db"`` (both, same values). ``framework="mindspore"`` names the folder
    ``*_ascend_ms`` and the database ``ascend_mindspore_profiler[_{rank}].db``. ``db_schema="old"``:
    COMPUTE_TASK_INFO with ``blockDim/mixBlockDim`` (see :mod:`.dbexport`). The workload's HCCL ops
    (:func:`.workload.data_parallel`) are communication operators of a ``world_size``-rank job: their
    small tasks, ``Communication`` lanes and COMMUNICATION_OP / COMMUNICATION_TASK_INFO rows (:mod:`.hccl`),
    communication.json / communication_matrix.json and analysis.db's CommAnalyzer* (:mod:`.commfiles`).
    ``plants``: problems put in on purpose for the advisor (:mod:`.problems`)."""
    if export_type not in EXPORT_TYPES:
        raise ValueError(f"export_type: {export_type!r} is not one of {', '.join(EXPORT_TYPES)}")
    if framework not in FRAMEWORKS:
        raise ValueError(f"framework: {framework!r} is not one of {', '.join(FRAMEWORKS)}")
    if style not in STYLES:
        raise ValueError(f"style: {style!r} is not one of {', '.join(STYLES)}")
    if profiler_level not in LEVELS:
        raise ValueError(f"profiler_level: {profiler_level!r} is not one of {', '.join(LEVELS)}")
    if world_size < 1:
        raise ValueError(f"world_size: {world_size!r} must be >= 1")
    problems.check(plants)
    workload = problems.apply("workload", plants, workload)
    level0 = profiler_level == "Level0"
    if level0:
        aic_metrics = None
    c, cv = chip(soc), cann(cann_version)
    pmu_cols = pmu_columns(c, aic_metrics)
    run = simulate(
        workload,
        c,
        style="torch",
        devices=[device],
        iterations=steps,
        seed=seed,
        start_ns=start_ns,
        pid=pid,
        connection_base=connection_base,
    )
    problems.apply("run", plants, run)
    world = max(world_size, (rank or 0) + 1)
    comm = problems.apply("comm", plants, hccl.comm_ops(run, device, rank or 0, world))
    windows = overlap.step_windows(run, device)
    steps_rows = overlap.step_rows(
        overlap.lane_slices(run.tasks[device], {id(op.task) for op in comm}), _receives(comm), windows
    )
    mem = simulate_memory(run, device, world)
    comm_doc = matrix_doc = None
    if comm and not level0:  # communication.json / communication_matrix.json: Level1 and Level2 only
        comm_doc, matrix_doc = commfiles.communication(comm, windows), commfiles.matrix(comm, windows)
    suffix = "ascend_ms" if framework == "mindspore" else "ascend_pt"
    target = Path(out_dir) / f"{hostname}_{pid}_{stamp(start_ns, millis=True)}_{suffix}"
    with StagedDir(target) as root:
        info = {
            "config": {
                "common_config": {
                    "activities": ["ProfilerActivity.CPU", "ProfilerActivity.NPU"],
                    "schedule": {"wait": 0, "warmup": 0, "active": steps, "repeat": 1},
                },
                "experimental_config": {
                    "_aic_metrics": aic_metrics or "ACL_AICORE_NONE",
                    "_profiler_level": profiler_level,
                },
            },
            "start_info": {"syscnt_enable": False, "freq": 100.0, "start_cnt": 0, "start_monotonic": 0},
            "end_info": {"collectionTimeEnd": str(run.end_ns // 1000)},
            "torch_npu_version": "2.1.0",
            "cann_version": cv.version,
            "simulated": True,
        }
        info_name = "profiler_info.json" if rank is None else f"profiler_info_{rank}.json"
        write_text(root / info_name, json.dumps(info, indent=4))
        metadata: dict = {"ENV_VARIABLES": {"ASCEND_RT_VISIBLE_DEVICES": str(device)}}
        problems.apply("meta", plants, metadata)
        write_text(root / "profiler_metadata.json", json.dumps(metadata, indent=4))
        out = root / "ASCEND_PROFILER_OUTPUT"
        if "Text" in export_type:
            write_json_array(out / "trace_view.json", torch_events(run, device, op_types=level0, comm=comm))
            _write_tables(out, run, style, aic_metrics, pmu_cols, level0)
            write_text(out / "step_trace_time.csv", pycsv_text(_step_header(style), _step_cells(steps_rows, style)))
            _write_memory(out, mem, device)
            if comm_doc is not None and matrix_doc is not None:
                write_text(out / "communication.json", commfiles.dumps(comm_doc))
                write_text(out / "communication_matrix.json", commfiles.dumps(matrix_doc))
        if "Db" in export_type:
            out.mkdir(exist_ok=True)
            prefix = "ascend_mindspore_profiler" if framework == "mindspore" else "ascend_pytorch_profiler"
            dbexport.write_framework_db(
                out / (f"{prefix}.db" if rank is None else f"{prefix}_{rank}.db"),
                run,
                pmu_cols,
                rank=rank,
                memory=mem,
                meta={"ENV_VARIABLES": json.dumps(metadata["ENV_VARIABLES"])},  # the same settings as the Text export
                schema=db_schema,
                comm=comm,
            )
            dbexport.write_analysis_db(
                out / "analysis.db",
                steps_rows,
                commfiles.analysis_rows(comm_doc, matrix_doc) if comm_doc is not None and matrix_doc else None,
            )
        fw = root / "FRAMEWORK"
        fw.mkdir()
        (fw / "torch.op_range").write_bytes(
            b"".join(struct.pack("<QQI", e.start_ns, e.start_ns + e.dur_ns, e.tid) for e in run.python[device])
        )
        write_text(
            root / "logs" / f"profiler_{stamp(start_ns)}.log", "[INFO] simulated torch_npu profiler: parse finished\n"
        )
        prof = root / prof_name(run, seed)
        prof.mkdir()
        write_raw(prof, run, cv)
    return target


def write_torch_npu_job(
    out_dir,
    workload: Workload,
    world_size: int,
    soc: str = "Ascend910B2",
    steps: int = 2,
    aic_metrics: str | None = "PipeUtilization",
    seed: int = 0,
    *,
    ranks: list[int] | None = None,
    pid: int = DEFAULT_PID,
    **kwargs,
) -> list[Path]:
    """Every rank of a ``world_size``-rank job (or the ``ranks`` given): one ``*_ascend_pt`` folder each
    under ``out_dir``, as a real multi-rank run leaves them. Rank ``r`` runs on device ``r % 8`` with its
    own process id (``pid + 13 r``) and timings (seed ``seed + 7919 r``: rank 0 is
    ``write_torch_npu(..., seed=seed, rank=0)``); other keywords go to :func:`write_torch_npu`."""
    if world_size < 1:
        raise ValueError(f"world_size: {world_size!r} must be >= 1")
    chosen = list(range(world_size)) if ranks is None else list(ranks)
    bad = [r for r in chosen if not 0 <= r < world_size]
    if bad:
        raise ValueError(f"ranks: {bad!r} are not ranks of a {world_size}-rank job")
    return [
        write_torch_npu(
            out_dir,
            workload,
            soc,
            steps,
            aic_metrics,
            seed + 7919 * r,
            rank=r,
            world_size=world_size,
            device=r % 8,
            pid=pid + 13 * r,
            **kwargs,
        )
        for r in chosen
    ]


def level0_known(t) -> bool:
    """Does a Level0 kernel_details row keep its Type / Accelerator Core? Only AI CPU kernels here."""
    return t.task_type == "AI_CPU"


def _write_tables(
    out: Path, run: Run, style: str, metrics: str | None, pmu_cols: list[str], level0: bool = False
) -> None:
    dev = run.devices[0]
    tasks = run.tasks[dev]
    rows = []
    for t in tasks:
        row = tables.kernel_details_row(run, t, style, pmu_cols)
        if level0 and not level0_known(t):
            header = tables.kernel_details_header(style, run.chip, metrics)
            row[header.index("Type")] = row[header.index("Accelerator Core")] = NA
        rows.append(row)
    write_text(out / "kernel_details.csv", csv_text(tables.kernel_details_header(style, run.chip, metrics), rows))
    aggs = op_statistic(tasks)
    if level0:
        aggs = aggregate(
            tasks,
            lambda t: (t.op.type, t.task_type) if level0_known(t) else (NA, NA),
            lambda t: t.dur_ns,
        )
    write_text(out / "op_statistic.csv", csv_text(tables.OP_STATISTIC_COLS, tables.op_statistic_rows(aggs)))
    write_text(
        out / "api_statistic.csv",
        csv_text(tables.API_STATISTIC_COLS, tables.api_statistic_rows(api_statistic(run.host[dev]))),
    )
    write_text(
        out / "operator_details.csv",
        csv_text(
            [
                "Name",
                "Input Shapes",
                "Call Stack",
                "Host Self Duration(us)",
                "Host Total Duration(us)",
                "Device Self Duration(us)",
                "Device Total Duration(us)",
                "Device Self Duration With AICore(us)",
                "Device Total Duration With AICore(us)",
            ],
            _operator_rows(run, dev),
        ),
    )


def _shape_text(op) -> str:
    return "; ".join("[" + ", ".join(str(d) for d in t.shape) + "]" for t in op.inputs)


def _operator_rows(run: Run, dev: int):
    # the Enqueue inside each op (the first in event order: threads ascending, then by start), by bisection
    enqueues: dict[int, tuple[list[int], list[int]]] = {}
    for x in run.python[dev]:
        if x.cat == "enqueue":
            starts, durs = enqueues.setdefault(x.tid, ([], []))
            starts.append(x.start_ns)
            durs.append(x.dur_ns)
    for e in run.python[dev]:
        if e.task is None:
            continue
        t = e.task
        enq = 0
        for starts, durs in (enqueues[tid] for tid in sorted(enqueues)):
            i = bisect.bisect_left(starts, e.start_ns)
            if i < len(starts) and starts[i] < e.start_ns + e.dur_ns:
                enq = durs[i]
                break
        aicore = t.dur_ns if t.task_type in ("AI_CORE", "MIX_AIC") else 0
        yield [
            e.name,
            _shape_text(t.op),
            "",
            dur_text(e.dur_ns - enq),
            dur_text(e.dur_ns),
            dur_text(t.dur_ns),
            dur_text(t.dur_ns),
            dur_text(aicore),
            dur_text(aicore),
        ]


def _step_header(style: str) -> list[str]:
    """step_trace_time's header: ``"2025"`` that of samples/torch_npu-910B-rank0-comm-mem (no Device_id,
    with Preparing; newer torch_npu adds Device_id first), ``"2023"`` the older one without Preparing."""
    cols = [
        "Step",
        "Computing",
        "Communication(Not Overlapped)",
        "Overlapped",
        "Communication",
        "Free",
        "Stage",
        "Bubble",
        "Communication(Not Overlapped and Exclude Receive)",
    ]
    return [*cols, "Preparing"] if style == "2025" else cols


def _us(ns: int) -> str:
    """A sum of µs as torch_npu writes it (``136581.0``; zero ``0``)."""
    return "0" if ns == 0 else repr(ns / 1000)


def _step_cells(rows: list[overlap.StepRow], style: str) -> list[list[str]]:
    out = []
    for r in rows:
        values = r.values() if style == "2025" else r.values()[:-1]
        out.append(["" if r.step is None else str(r.step), *(_us(v) for v in values)])
    return out


def _receives(comm: list[hccl.CommOp]) -> list[tuple[int, int]]:
    """Spans of the slices named ``hcom_receive*`` on the device processes: the operator on its group lane
    and its small tasks on the hardware streams (torch_npu counts each as bubble)."""
    out = []
    for op in comm:
        if op.name.startswith(overlap.RECEIVE):
            out.append((op.task.start_ns, op.task.end_ns))
            out += [(c.start_ns, c.end_ns) for c in op.tasks]
    return out


def _mb(nbytes: int | None) -> str:
    """Bytes as torch_npu writes MB: ``str(bytes / 2**20)`` (exact binary fraction, e.g. ``954.3701171875``)."""
    return "" if nbytes is None else str(nbytes / MB)


def _tab(ns: int | None) -> str:
    """A time point as torch_npu writes it: µs with 3 decimals and a TAB (empty when there is none)."""
    return "" if ns is None else ts_us(ns) + "\t"


MEMORY_RECORD_COLS = [
    "Component",
    "Timestamp(us)",
    "Total Allocated(MB)",
    "Total Reserved(MB)",
    "Total Active(MB)",
    "Stream Ptr",
    "Device Type",
]
OPERATOR_MEMORY_COLS = [
    "Name",
    "Size(KB)",
    "Allocation Time(us)",
    "Release Time(us)",
    "Active Release Time(us)",
    "Duration(us)",
    "Active Duration(us)",
    "Allocation Total Allocated(MB)",
    "Allocation Total Reserved(MB)",
    "Allocation Total Active(MB)",
    "Release Total Allocated(MB)",
    "Release Total Reserved(MB)",
    "Release Total Active(MB)",
    "Stream Ptr",
    "Device Type",
]
NPU_MODULE_MEM_COLS = ["Component", "Timestamp(us)", "Total Reserved(MB)", "Device"]  # torch_npu's bean


def _operator_memory_row(a: Allocation, dev: int) -> list[str]:
    released = a.release_ns is not None
    if a.ge:  # CANN's GE records: no active, no stream, the duration a plain number (samples)
        dur = "" if a.release_ns is None else repr(round((a.release_ns - a.alloc_ns) / 1000, 2))
        active_dur = ""
    else:
        dur = _tab(a.release_ns - a.alloc_ns) if a.release_ns is not None else ""
        active_dur = _tab(a.active_release_ns - a.alloc_ns) if a.active_release_ns is not None else ""
    return [
        a.name,
        str(a.size / 1024),
        _tab(a.alloc_ns),
        _tab(a.release_ns),
        _tab(a.active_release_ns),
        dur,
        active_dur,
        _mb(a.alloc_allocated),
        _mb(a.alloc_reserved),
        _mb(a.alloc_active),
        _mb(a.release_allocated) if released else "",
        _mb(a.release_reserved) if released else "",
        _mb(a.release_active) if released else "",
        "" if a.stream_ptr is None else str(a.stream_ptr),
        f"NPU:{dev}",
    ]


def _write_memory(out: Path, mem: Memory, dev: int) -> None:
    records = (
        [r.component, _tab(r.ts_ns), _mb(r.allocated), _mb(r.reserved), _mb(r.active)]
        + ["" if r.stream_ptr is None else str(r.stream_ptr), f"NPU:{dev}"]
        for r in mem.records
    )
    write_text(out / "memory_record.csv", pycsv_text(MEMORY_RECORD_COLS, records))
    write_text(
        out / "operator_memory.csv",
        pycsv_text(OPERATOR_MEMORY_COLS, (_operator_memory_row(a, dev) for a in mem.allocations)),
    )
    write_text(
        out / "npu_module_mem.csv",
        pycsv_text(NPU_MODULE_MEM_COLS, ([m, _tab(ts), _mb(res), f"NPU:{dev}"] for m, ts, res in mem.modules), "\n"),
    )


MB = 1 << 20
