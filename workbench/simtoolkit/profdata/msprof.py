"""``write_msprof_prof``: a complete PROF_* folder in the layout of the chosen CANN version.

CANN 7.x/8.x (reference §1.3)::

    PROF_000001_{YYYYMMDDhhmmssfff}_{16 letters}/
      host/{info.json,start_info,end_info,data/}           raw host data (opaque, ignored by readers)
      device_{id}/{info.json.{id},start_info.{id},end_info.{id},sample.json,data/}
      mindstudio_profiler_log/msprof_{ts}.log
      mindstudio_profiler_output/
        msprof_{ts}.json, op_summary_{ts}.csv, op_statistic_{ts}.csv, task_time_{ts}.csv,
        api_statistic_{ts}.csv, npu_mem_{ts}.csv, README.txt
        (+ step_trace_{ts}.json and step_trace_{ts}.csv for offline-model runs)

CANN 5.x/6.x::

    PROF_.../device_{id}/summary/{name}_{dev}_{model}_{iter}.csv  op_summary, op_statistic, task_time,
                                                                   acl, acl_statistic, runtime_api (+ step_trace)
    PROF_.../device_{id}/timeline/{name}_{dev}_{model}_{iter}.json msprof, task_time, acl, runtime_api
    (single-op runs use the two-index form ``{name}_{dev}_{iter}``)

The msprof_{timestamp}.db of 8.x is not written (UNVERIFIED schema).
"""

from __future__ import annotations

import datetime as _dt
import json
import random
import struct
from pathlib import Path

from . import tables
from .chips import Cann, cann, chip, pmu_columns
from .fmt import StagedDir, csv_text, dur_text, r3, ts_us, write_json_array, write_text
from .schedule import DEFAULT_PID, DEFAULT_START_NS, Run, simulate
from .stats import aggregate, api_statistic, op_statistic
from .timeline import counter_series, iteration_bounds, legacy_events, msprof_events, step_trace_events
from .workload import Workload


def stamp(ns: int, millis: bool = False) -> str:
    t = _dt.datetime.fromtimestamp(ns // 1_000_000_000, tz=_dt.timezone.utc)
    s = t.strftime("%Y%m%d%H%M%S")
    return s + f"{(ns // 1_000_000) % 1000:03d}" if millis else s


def prof_name(run: Run, seed: int, index: int = 1) -> str:
    rng = random.Random(f"prof/{seed}/{run.start_ns}")
    letters = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(16))
    return f"PROF_{index:06d}_{stamp(run.start_ns, millis=True)}_{letters}"


def write_msprof_prof(
    out_dir,
    workload: Workload,
    cann_version: str = "8.0.RC1",
    soc: str = "Ascend910B2",
    devices: list[int] | tuple[int, ...] = (0,),
    iterations: int = 2,
    aic_metrics: str | None = "PipeUtilization",
    seed: int = 0,
    *,
    start_ns: int = DEFAULT_START_NS,
    pid: int = DEFAULT_PID,
    prof_index: int = 1,
    connection_base: int = 0,
    export_type: str = "text",
    db_schema: str = "new",
) -> Path:
    """Write one PROF_* folder under ``out_dir`` and return its path.

    ``aic_metrics=None`` = task-time without PMU columns (``--ai-core=off``). The folder appears
    atomically; an existing folder of the same name is an error (pass another ``start_ns`` or
    ``prof_index``)."""
    cv, c = cann(cann_version), chip(soc)
    pmu_cols = pmu_columns(c, aic_metrics)
    style = "model" if workload.kind == "model" else "ops"
    run = simulate(
        workload,
        c,
        style=style,
        devices=list(devices),
        iterations=iterations,
        seed=seed,
        start_ns=start_ns,
        pid=pid,
        connection_base=connection_base,
    )
    target = Path(out_dir) / prof_name(run, seed, prof_index)
    with StagedDir(target) as root:
        write_raw(root, run, cv)
        if cv.legacy:
            _write_legacy(root, run, cv, aic_metrics, pmu_cols)
        else:
            if "text" in export_type:
                _write_modern(root, run, cv, aic_metrics, pmu_cols)
            if "db" in export_type:
                from .dbexport import write_msprof_db

                write_msprof_db(root / f"msprof_{export_stamp(run)}.db", run, pmu_cols, schema=db_schema)
    return target


def export_stamp(run: Run) -> str:
    return stamp(run.end_ns + 2_000_000_000)


def _write_modern(root: Path, run: Run, cv: Cann, metrics: str | None, pmu_cols: list[str]) -> None:
    ts = export_stamp(run)
    out = root / "mindstudio_profiler_output"
    out.mkdir()
    tasks = sorted(run.all_tasks(), key=lambda t: (t.device, t.start_ns))
    files = {}
    files[f"op_summary_{ts}.csv"] = csv_text(
        tables.op_summary_header(cv, run.chip, metrics), (tables.op_summary_row(run, t, cv, pmu_cols) for t in tasks)
    )
    stat_rows = []
    for dev in run.devices:
        stat_rows += [[str(dev), *r] for r in tables.op_statistic_rows(op_statistic(run.tasks[dev]))]
    files[f"op_statistic_{ts}.csv"] = csv_text(["Device_id", *tables.OP_STATISTIC_COLS], stat_rows)
    files[f"task_time_{ts}.csv"] = csv_text(
        ["Device_id", *tables.TASK_TIME_COLS], ([str(t.device), *tables.task_time_row(t)] for t in tasks)
    )
    host = [e for d in run.devices for e in run.host[d]]
    files[f"api_statistic_{ts}.csv"] = csv_text(
        ["Device_id", *tables.API_STATISTIC_COLS],
        (["host", *r] for r in tables.api_statistic_rows(api_statistic(host))),
    )
    files[f"npu_mem_{ts}.csv"] = csv_text(
        ["Device_id", "event", "ddr(KB)", "hbm(KB)", "memory(KB)", "timestamp(us)"], _npu_mem_rows(run)
    )
    if run.style == "model":
        files[f"step_trace_{ts}.csv"] = csv_text(
            [
                "Device_id",
                "Iteration ID",
                "FP Start(us)",
                "BP End(us)",
                "Iteration End(us)",
                "Iteration Time(us)",
                "FP to BP Time(us)",
                "Iteration Refresh(us)",
                "Data Aug Bound(us)",
                "Model ID",
            ],
            _step_rows(run, True),
        )
        write_json_array(out / f"step_trace_{ts}.json", step_trace_events(run))
    for name, text in files.items():
        write_text(out / name, text)
    write_json_array(out / f"msprof_{ts}.json", msprof_events(run))
    listing = sorted([*files, f"msprof_{ts}.json"] + ([f"step_trace_{ts}.json"] if run.style == "model" else []))
    write_text(
        out / "README.txt",
        "Profiling data exported by msprof (Ascend Workbench simulated toolkit).\n"
        + "".join(f"{n}\n" for n in listing),
    )
    write_text(
        root / "mindstudio_profiler_log" / f"msprof_{ts}.log",
        f"[INFO] simulated CANN {cv.version}: export finished, {len(listing)} files\n",
    )


def _npu_mem_rows(run: Run):

    for dev in run.devices:
        for ts, args in counter_series(run, dev)["NPU MEM"]:
            for event in ("app", "device"):
                extra = 0 if event == "app" else 2_097_152
                yield [
                    str(dev),
                    event,
                    str(args["APP/DDR"]),
                    str(args["APP/HBM"] + extra),
                    str(args["APP/Memory"] + extra),
                    ts_us(ts),
                ]


def _step_rows(run: Run, modern: bool):
    for dev in run.devices:
        for step, fp, bp, end, prev in iteration_bounds(run, dev):
            row = [
                str(step),
                ts_us(fp),
                ts_us(bp),
                ts_us(end),
                dur_text(end - (prev if prev else fp)),
                dur_text(bp - fp),
                dur_text(end - bp),
                dur_text(fp - prev) if prev else "N/A",
            ]
            yield ([str(dev)] + row + [str(run.model_id)]) if modern else row


def _write_legacy(root: Path, run: Run, cv: Cann, metrics: str | None, pmu_cols: list[str]) -> None:
    header = tables.op_summary_header(cv, run.chip, metrics)
    for dev in run.devices:
        suffix = f"{dev}_{run.model_id}_1" if run.style == "model" else f"{dev}_1"
        summary, timeline = root / f"device_{dev}" / "summary", root / f"device_{dev}" / "timeline"
        tasks = run.tasks[dev]
        pid, tid = run.pid, run.main_tid(dev)
        write_text(
            summary / f"op_summary_{suffix}.csv",
            csv_text(header, (tables.op_summary_row(run, t, cv, pmu_cols) for t in tasks)),
        )
        model = run.workload.model_name if run.style == "model" else "N/A"
        write_text(
            summary / f"op_statistic_{suffix}.csv",
            csv_text(
                ["Model Name", *tables.OP_STATISTIC_COLS],
                ([model, *r] for r in tables.op_statistic_rows(op_statistic(tasks))),
            ),
        )
        write_text(
            summary / f"task_time_{suffix}.csv",
            csv_text(
                [
                    "Time(%)",
                    "Time(us)",
                    "Count",
                    "Avg(us)",
                    "Min(us)",
                    "Max(us)",
                    "Waiting(us)",
                    "Running(us)",
                    "Pending(us)",
                    "Type",
                    "API",
                    "Task ID",
                    "Op Name",
                    "Stream ID",
                ],
                _legacy_task_rows(tasks),
            ),
        )
        acl = [e for e in run.host[dev] if e.level == "acl"]
        write_text(
            summary / f"acl_{suffix}.csv",
            csv_text(
                ["Name", "Type", "Start Time", "Duration(us)", "Process ID", "Thread ID"],
                ([e.name, e.mode, ts_us(e.start_ns), dur_text(e.dur_ns), str(pid), str(e.tid)] for e in acl),
            ),
        )
        aggs = aggregate(acl, lambda e: (e.name, e.mode), lambda e: e.dur_ns)
        total = sum(a.total_ns for a in aggs) or 1
        write_text(
            summary / f"acl_statistic_{suffix}.csv",
            csv_text(
                [
                    "Name",
                    "Type",
                    "Time(%)",
                    "Time(us)",
                    "Count",
                    "Avg(us)",
                    "Min(us)",
                    "Max(us)",
                    "Process ID",
                    "Thread ID",
                ],
                (
                    [
                        a.key[0],
                        a.key[1],
                        r3(100 * a.total_ns / total),
                        dur_text(a.total_ns),
                        str(a.count),
                        r3(a.avg_us),
                        dur_text(a.min_ns),
                        dur_text(a.max_ns),
                        str(pid),
                        str(tid),
                    ]
                    for a in aggs
                ),
            ),
        )
        rt = [e for e in run.host[dev] if e.level == "runtime"]
        stream = tasks[0].stream_id
        aggs = aggregate(rt, lambda e: ("rt" + e.name,), lambda e: e.dur_ns)
        total = sum(a.total_ns for a in aggs) or 1
        write_text(
            summary / f"runtime_api_{suffix}.csv",
            csv_text(  # ns units in this old file
                [
                    "Name",
                    "Stream ID",
                    "Time(%)",
                    "Time(ns)",
                    "Calls",
                    "Avg(ns)",
                    "Min(ns)",
                    "Max(ns)",
                    "Process ID",
                    "Thread ID",
                ],
                (
                    [
                        a.key[0],
                        str(stream),
                        r3(100 * a.total_ns / total),
                        str(a.total_ns),
                        str(a.count),
                        r3(a.total_ns / a.count),
                        str(a.min_ns),
                        str(a.max_ns),
                        str(pid),
                        str(tid),
                    ]
                    for a in aggs
                ),
            ),
        )
        if run.style == "model":
            write_text(
                summary / f"step_trace_{suffix}.csv",
                csv_text(
                    [
                        "Iteration ID",
                        "FP Start",
                        "BP End",
                        "Iteration End",
                        "Iteration Time(us)",
                        "FP to BP Time(us)",
                        "Iteration Refresh(us)",
                        "Data Aug Bound(us)",
                    ],
                    (r for r in _step_rows(_one_device(run, dev), False)),
                ),
            )
        for name, parts in (
            ("msprof", ("acl", "runtime", "task")),
            ("task_time", ("task",)),
            ("acl", ("acl",)),
            ("runtime_api", ("runtime",)),
        ):
            write_json_array(timeline / f"{name}_{suffix}.json", legacy_events(run, dev, parts))


def _one_device(run: Run, dev: int) -> Run:
    clone = Run(run.chip, run.workload, run.style, [dev], run.iterations, run.pid, run.start_ns)
    clone.tasks = {dev: run.tasks[dev]}
    return clone


def _legacy_task_rows(tasks):
    aggs = aggregate(tasks, lambda t: (t.task_id, t.stream_id, t.op.name, t.task_type), lambda t: t.dur_ns)
    waits: dict[tuple, int] = {}
    for t in tasks:
        k = (t.task_id, t.stream_id, t.op.name, t.task_type)
        waits[k] = waits.get(k, 0) + t.wait_ns
    total = sum(a.total_ns for a in aggs) or 1
    for a in aggs:
        task_id, stream, name, typ = a.key
        yield [
            r3(100 * a.total_ns / total),
            dur_text(a.total_ns),
            str(a.count),
            r3(a.avg_us),
            dur_text(a.min_ns),
            dur_text(a.max_ns),
            dur_text(waits[a.key]),
            dur_text(a.total_ns),
            "0",
            typ,
            "KernelLaunch",
            str(task_id),
            name,
            str(stream),
        ]


def write_raw(root: Path, run: Run, cv: Cann) -> None:
    """Raw-looking host/ and device_N/ files (the readers ignore them; they make the folder look real)."""
    c = run.chip
    start_us, end_us = run.start_ns // 1000, run.end_ns // 1000
    host_info = {
        "collectionTime": stamp(run.start_ns),
        "pid": str(run.pid),
        "hostname": "localhost",
        "OS": "Linux",
        "cpuCores": 2,
        "version": cv.version,
        "simulated": True,
    }
    write_text(root / "host" / "info.json", json.dumps(host_info))
    write_text(
        root / "host" / "start_info",
        json.dumps({"collectionTimeBegin": str(start_us), "clockMonotonicRaw": str(run.start_ns)}),
    )
    write_text(
        root / "host" / "end_info", json.dumps({"collectionTimeEnd": str(end_us), "clockMonotonicRaw": str(run.end_ns)})
    )
    host_api = b"".join(
        struct.pack("<IIQQ", e.tid, e.connection_id, e.start_ns, e.dur_ns) for d in run.devices for e in run.host[d]
    )
    (root / "host" / "data").mkdir(parents=True, exist_ok=True)
    (root / "host" / "data" / "api_event.data.slice_0").write_bytes(host_api)
    for dev in run.devices:
        d = root / f"device_{dev}"
        info = {
            "DeviceInfo": [
                {
                    "id": dev,
                    "ai_core_num": c.aic_num,
                    "aiv_num": c.aiv_num,
                    "aic_frequency": str(c.freq_mhz),
                    "hwts_frequency": "50",
                    "chip_name": c.chip_name,
                }
            ],
            "platform_version": c.platform_version,
            "devices": str(dev),
            "pid": str(run.pid),
        }
        write_text(d / f"info.json.{dev}", json.dumps(info))
        write_text(d / f"start_info.{dev}", json.dumps({"collectionTimeBegin": str(start_us)}))
        write_text(d / f"end_info.{dev}", json.dumps({"collectionTimeEnd": str(end_us)}))
        write_text(
            d / "sample.json", json.dumps({"ai_core_profiling": "on", "aic_mode": "task-based", "devices": str(dev)})
        )
        raw = b"".join(struct.pack("<HHQQ", t.stream_id, t.task_id, t.start_ns, t.end_ns) for t in run.tasks[dev])
        (d / "data").mkdir(parents=True, exist_ok=True)
        (d / "data" / f"stars_soc.data.{dev}.slice_0").write_bytes(raw)
