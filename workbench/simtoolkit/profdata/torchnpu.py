"""``write_torch_npu``: a torch_npu profiler result folder (reference §4)::

    {hostname}_{pid}_{YYYYMMDDhhmmssfff}_ascend_pt/
      profiler_info.json (profiler_info_{rank}.json with a rank), profiler_metadata.json
      ASCEND_PROFILER_OUTPUT/ trace_view.json, kernel_details.csv, operator_details.csv, op_statistic.csv,
                              step_trace_time.csv, api_statistic.csv, memory_record.csv,
                              operator_memory.csv, npu_module_mem.csv
      FRAMEWORK/  logs/  PROF_*/ (raw CANN data: host/, device_N/)

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
from pathlib import Path

from . import dbexport, hccl, tables
from .chips import cann, chip, pmu_columns
from .fmt import NA, StagedDir, csv_text, dur_text, r3, ts_us, write_json_array, write_text
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
) -> Path:
    """Write one ``*_ascend_pt`` folder under ``out_dir`` (eager torch_npu run of ``workload`` for
    ``steps`` profiler steps on one device) and return its path. ``profiler_level="Level0"``
    collects no PMU metrics (``aic_metrics`` is ignored) and leaves kernel types to the timeline.
    ``export_type``: ``"Text"`` (CSV + trace_view.json), ``"Db"`` (only ``ascend_pytorch_profiler[_{rank}].db``
    and ``analysis.db``) or ``"Text+Db"`` (both, same values). ``framework="mindspore"`` names the folder
    ``*_ascend_ms`` and the database ``ascend_mindspore_profiler[_{rank}].db``. ``db_schema="old"``:
    COMPUTE_TASK_INFO with ``blockDim/mixBlockDim`` (see :mod:`.dbexport`). The workload's HCCL ops
    (:func:`.workload.data_parallel`) are communication operators of a ``world_size``-rank job: their
    small tasks, ``Communication`` lanes and COMMUNICATION_OP / COMMUNICATION_TASK_INFO rows (:mod:`.hccl`)."""
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
    comm = hccl.comm_ops(run, device, rank or 0, max(world_size, (rank or 0) + 1))
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
        write_text(
            root / "profiler_metadata.json",
            json.dumps({"ENV_VARIABLES": {"ASCEND_RT_VISIBLE_DEVICES": str(device)}}, indent=4),
        )
        out = root / "ASCEND_PROFILER_OUTPUT"
        if "Text" in export_type:
            write_json_array(out / "trace_view.json", torch_events(run, device, op_types=level0, comm=comm))
            _write_tables(out, run, style, aic_metrics, pmu_cols, level0)
        if "Db" in export_type:
            out.mkdir(exist_ok=True)
            mem = list(_memory(run, device))
            prefix = "ascend_mindspore_profiler" if framework == "mindspore" else "ascend_pytorch_profiler"
            dbexport.write_framework_db(
                out / (f"{prefix}.db" if rank is None else f"{prefix}_{rank}.db"),
                run,
                pmu_cols,
                rank=rank,
                memory=mem,
                module_memory=_module_memory(mem),
                meta={"ENV_VARIABLES": json.dumps({"ASCEND_RT_VISIBLE_DEVICES": str(device)})},
                schema=db_schema,
                comm=comm,
            )
            dbexport.write_analysis_db(out / "analysis.db", list(_step_rows(run, device, "2025")))
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
    write_text(out / "step_trace_time.csv", csv_text(_step_header(style), _step_rows(run, dev, style)))
    mem = list(_memory(run, dev))
    write_text(
        out / "memory_record.csv",
        csv_text(
            [
                "Component",
                "Timestamp(us)",
                "Total Allocated(MB)",
                "Total Reserved(MB)",
                "Total Active(MB)",
                "Stream Ptr",
                "Device Type",
            ],
            (_memory_record_row(m, dev) for m in mem),
        ),
    )
    write_text(
        out / "operator_memory.csv",
        csv_text(
            [
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
            ],
            (_operator_memory_row(m, dev) for m in mem if m[4]),
        ),
    )
    write_text(
        out / "npu_module_mem.csv",
        csv_text(
            ["Component", "Timestamp(us)", "Total Reserved(MB)", "Device"],  # torch_npu NpuModuleMemoryBean
            ([module, ts_us(ts), _mb(res), f"NPU:{dev}"] for module, ts, res in _module_memory(mem)),
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
    return ["Device_id", *cols, "Preparing"] if style == "2025" else cols


def _step_rows(run: Run, dev: int, style: str):
    """Per step (µs): computing = compute tasks, communication = HCCL operators (none overlapped)."""
    by_step: dict[int, list] = {}
    for t in run.tasks[dev]:
        by_step.setdefault(t.step, []).append(t)
    for e in run.python[dev]:
        if not e.name.startswith("ProfilerStep#"):
            continue
        step = int(e.name.split("#")[1])
        ts = by_step[step]
        computing = sum(t.dur_ns for t in ts if t.op.core != "HCCL")
        comm = sum(t.dur_ns for t in ts if t.op.core == "HCCL")
        span = ts[-1].end_ns - ts[0].start_ns
        c = r3(comm / 1000)
        row = [str(step), r3(computing / 1000), c, "0", c, r3((span - computing - comm) / 1000), "0", "0", c]
        yield [str(dev), *row, r3((ts[0].start_ns - e.start_ns) / 1000)] if style == "2025" else row


MB = 1 << 20
PTR = 187651245490688  # an aarch64 heap address (15 digits)
MODULES = (("APP", 0), ("HCCL", 200 * MB), ("RUNTIME", 16 * MB), ("SLOG", 0))  # APP: the reserved pool


def _mb(nbytes: int) -> str:
    """Bytes as torch_npu writes MB: ``str(bytes / 2**20)`` (exact binary fraction, e.g. ``954.3701171875``)."""
    return str(nbytes / MB)


def _memory(run: Run, dev: int):
    """(component, ts, allocated B, reserved B, op name, size B, release ts) per kernel output."""
    base = 512 * MB
    reserved = 1024 * MB
    for t in run.tasks[dev]:
        size = sum(x.nbytes for x in t.op.outputs)
        yield ("PTA", t.launch_ns, base + size, reserved, t.op.torch_op, size, t.end_ns + 50_000)


def _module_memory(mem: list) -> list[tuple[str, int, int]]:
    """npu_module_mem rows (module, ts, reserved B): every module at a few sample times, as the tool does."""
    return [
        (module, ts, res if module == "APP" else fixed)
        for _c, ts, _a, res, *_ in mem[:: max(1, len(mem) // 6)]
        for module, fixed in MODULES
    ]


def _memory_record_row(m, dev: int) -> list[str]:
    comp, ts, alloc, res, *_ = m
    return [comp, ts_us(ts), _mb(alloc), _mb(res), _mb(alloc), str(PTR), f"NPU:{dev}"]


def _operator_memory_row(m, dev: int) -> list[str]:
    _, ts, alloc, res, name, size, rel = m
    return [
        name,
        str(size / 1024),
        ts_us(ts),
        ts_us(rel),
        ts_us(rel),
        dur_text(rel - ts),
        dur_text(rel - ts),
        _mb(alloc),
        _mb(res),
        _mb(alloc),
        _mb(alloc - size),
        _mb(res),
        _mb(alloc - size),
        str(PTR),
        f"NPU:{dev}",
    ]
