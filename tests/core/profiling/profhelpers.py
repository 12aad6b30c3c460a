"""Independent reference computations for the profiling tests (csv module + plain Python only).

Nothing here uses the code under test: expected values come from the raw files.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

MISSING = {"", "N/A"}


def plain(value: str) -> str:
    return value.strip().strip('"').strip()


def read_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.reader(fh)
        header = [h.strip() for h in next(reader)]
        rows = [dict(zip(header, (plain(v) for v in row))) for row in reader if row]
    return header, rows


def us_to_ns(text: str) -> int:
    return int((Decimal(text) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


def first(row: dict[str, str], *names: str) -> str:
    for n in names:
        if n in row:
            return row[n]
    raise KeyError(names)


def op_stats(rows: list[dict[str, str]], by: str = "type") -> dict[tuple[str, str], dict[str, float]]:
    """{(key, task_type): {count, total_us, min_us, max_us}} from raw op_summary/kernel_details rows."""
    out: dict[tuple[str, str], dict[str, float]] = {}
    for row in rows:
        dur = first(row, "Duration(us)", "Task Duration(us)")
        if dur in MISSING:
            continue
        name = first(row, "Name", "Op Name")
        key = first(row, "Type", "OP Type") if by == "type" else name
        if key in MISSING:
            key = name
        tt = first(row, "Accelerator Core", "Task Type")
        d = float(dur)
        s = out.setdefault((key, tt), {"count": 0, "total_us": 0.0, "min_us": d, "max_us": d})
        s["count"] += 1
        s["total_us"] += d
        s["min_us"] = min(s["min_us"], d)
        s["max_us"] = max(s["max_us"], d)
    return out


def span_ns(rows: list[dict[str, str]]) -> int:
    starts = [us_to_ns(first(r, "Start Time(us)", "Task Start Time(us)", "Task Start Time")) for r in rows]
    ends = [
        us_to_ns(first(r, "Start Time(us)", "Task Start Time(us)", "Task Start Time"))
        + us_to_ns(first(r, "Duration(us)", "Task Duration(us)"))
        for r in rows
    ]
    return max(ends) - min(starts)


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
    return path


def grouped(values: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    return {k: {"count": len(v), "total_us": sum(v), "min_us": min(v), "max_us": max(v)} for k, v in values.items()}


def by_key(items) -> dict:
    acc: dict = defaultdict(list)
    for k, v in items:
        acc[k].append(v)
    return acc


KD_TO_OP_SUMMARY = {
    "Name": "Op Name",
    "Type": "OP Type",
    "Accelerator Core": "Task Type",
    "Start Time(us)": "Task Start Time(us)",
    "Duration(us)": "Task Duration(us)",
    "Wait Time(us)": "Task Wait Time(us)",
    "Block Dim": "Block Num",
    "Mix Block Dim": "Mix Block Num",
}
KD_TO_LEGACY = {
    **KD_TO_OP_SUMMARY,
    "Start Time(us)": "Task Start Time",
    "Block Dim": "Block Dim",
    "Mix Block Dim": "Mix Block Dim",
}


def kd_path(samples: Path, which: str) -> Path:
    return samples / f"torch_npu-kernel_details-{which}" / "kernel_details.csv"


def rewrite(
    src: Path, dst: Path, rename: dict[str, str], drop: tuple[str, ...] = (), device: str | None = None
) -> Path:
    """Copy kernel_details ``src`` to ``dst`` with renamed/dropped headers and an optional Device_id."""
    header, rows = read_rows(src)
    keep = [h for h in header if h not in drop]
    new_header = [rename.get(h, h) for h in keep]
    out_rows = []
    for r in rows:
        values = [r[h] for h in keep]
        # Shapes go back to the tool's tripled-quote form.
        values = [f'"{v}"' if h.endswith("Shapes") and v not in ("", "N/A") else v for h, v in zip(keep, values)]
        out_rows.append(([device] if device is not None else []) + values)
    return write_csv(dst, (["Device_id"] if device is not None else []) + new_header, out_rows)


# ---- timeline JSON, read independently with the json module ------------------------------------


def trace_events(path: Path) -> list[dict]:
    import json

    data = json.loads(path.read_text(encoding="utf-8"))
    return data["traceEvents"] if isinstance(data, dict) else data


def process_names(events: list[dict]) -> dict:
    return {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"}


def complete_events(events: list[dict]) -> list[dict]:
    return [e for e in events if e.get("ph") == "X"]


def paired_flows(events: list[dict]) -> int:
    starts = {(e.get("cat"), str(e["id"])) for e in events if e.get("ph") == "s"}
    ends = {(e.get("cat"), str(e["id"])) for e in events if e.get("ph") == "f"}
    return len(starts & ends)


def x_span_ns(events: list[dict]) -> int:
    xs = complete_events(events)
    starts = [us_to_ns(str(e["ts"])) for e in xs]
    ends = [us_to_ns(str(e["ts"])) + us_to_ns(repr(float(e.get("dur", 0)))) for e in xs]
    return max(ends) - min(starts)


def api_from_trace(events: list[dict], processes=("CANN", "AscendCL", "Runtime")) -> dict:
    """{(level, api name): [count, total_us]} from the API processes of a timeline."""
    names = process_names(events)
    out: dict = {}
    for e in complete_events(events):
        if names.get(e["pid"]) not in processes:
            continue
        level = (e.get("args") or {}).get("level", "")
        api = e["name"].split("@", 1)[-1]
        acc = out.setdefault((level, api), [0, 0.0])
        acc[0] += 1
        acc[1] += float(e["dur"])
    return out


def torch_npu_db(root: Path, **options) -> Path:
    """A simulated 2-rank resnet50 step of rank 0 exported as Db (``options`` go to write_torch_npu)."""
    from workbench.simtoolkit.profdata import data_parallel, resnet50_workload, write_torch_npu

    out = write_torch_npu(
        root, data_parallel(resnet50_workload()), steps=1, rank=0, world_size=2, export_type="Db", **options
    )
    return out / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db"


def altered_copy(db: Path, folder: Path, *statements: str) -> Path:
    """A copy of ``db`` in ``folder`` with the SQL ``statements`` run on it (the original never changes)."""
    import shutil
    import sqlite3

    path = folder / db.name
    shutil.copy(db, path)
    with sqlite3.connect(path) as con:
        for s in statements:
            con.execute(s)
    con.close()
    return path
