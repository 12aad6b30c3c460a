"""Canonical tables read from CANN summary CSVs, whatever the version's column spelling.

Each schema maps a canonical column key to the header aliases seen across CANN 5/6, 7/8 and
torch_npu (docs/cann-formats.md §2, §4), with a unit scale (e.g. ``Time(ns)`` -> µs). Columns a
schema does not know are kept under their original header, typed automatically, so PMU metrics
and future columns are never dropped. ``LABELS`` gives each canonical key its display name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from workbench.core.profiling.tables import csvread
from workbench.core.profiling.tables.csvread import CsvTable, ProfilingDataError


@dataclass(frozen=True)
class Col:
    key: str
    kind: str  # 'str' | 'int' | 'float' | 'ns' | 'device'
    aliases: tuple[tuple[str, float], ...]  # (header, scale to the canonical unit)
    label: str = ""


def _c(key: str, kind: str, label: str, *aliases: str | tuple[str, float]) -> Col:
    return Col(key, kind, tuple(a if isinstance(a, tuple) else (a, 1.0) for a in aliases), label)


OPS = (
    _c("device", "device", "Device", "Device_id", "Device ID"),
    _c("step", "int", "Step", "Step Id", "Step ID"),
    _c("model_name", "str", "Model Name", "Model Name"),
    _c("model_id", "int", "Model ID", "Model ID"),
    _c("task_id", "int", "Task ID", "Task ID"),
    _c("stream_id", "int", "Stream ID", "Stream ID"),
    _c("infer_id", "int", "Infer ID", "Infer ID"),
    _c("name", "str", "Name", "Op Name", "Name"),
    _c("type", "str", "OP Type", "OP Type", "Type"),
    _c("op_state", "str", "OP State", "OP State"),
    _c("task_type", "str", "Task Type", "Task Type", "Accelerator Core"),
    _c("start_ns", "ns", "Start Time(us)", "Task Start Time(us)", "Task Start Time", "Start Time(us)", "Start Time"),
    _c("duration_us", "float", "Duration(us)", "Task Duration(us)", "Duration(us)"),
    _c("wait_us", "float", "Wait Time(us)", "Task Wait Time(us)", "Wait Time(us)"),
    _c("block_dim", "int", "Block Dim", "Block Dim", "Block Num"),
    _c("mix_block_dim", "int", "Mix Block Dim", "Mix Block Dim", "Mix Block Num"),
    _c("hf32", "str", "HF32 Eligible", "HF32 Eligible"),
    _c("input_shapes", "str", "Input Shapes", "Input Shapes"),
    _c("input_dtypes", "str", "Input Data Types", "Input Data Types"),
    _c("input_formats", "str", "Input Formats", "Input Formats"),
    _c("output_shapes", "str", "Output Shapes", "Output Shapes"),
    _c("output_dtypes", "str", "Output Data Types", "Output Data Types"),
    _c("output_formats", "str", "Output Formats", "Output Formats"),
    _c("context_id", "str", "Context ID", "Context ID"),
)

OP_STATISTIC = (
    _c("device", "device", "Device", "Device_id"),
    _c("model_name", "str", "Model Name", "Model Name"),
    _c("type", "str", "OP Type", "OP Type"),
    _c("core_type", "str", "Core Type", "Core Type"),
    _c("count", "int", "Count", "Count"),
    _c("total_us", "float", "Total Time(us)", "Total Time(us)"),
    _c("min_us", "float", "Min Time(us)", "Min Time(us)"),
    _c("avg_us", "float", "Avg Time(us)", "Avg Time(us)"),
    _c("max_us", "float", "Max Time(us)", "Max Time(us)"),
    _c("ratio_pct", "float", "Ratio(%)", "Ratio(%)"),
)

API_STATISTIC = (
    _c("device", "str", "Device", "Device_id"),
    _c("level", "str", "Level", "Level"),
    _c("name", "str", "API Name", "API Name", "Name"),
    _c("api_type", "str", "Type", "Type"),
    _c("stream_id", "int", "Stream ID", "Stream ID"),
    _c("time_pct", "float", "Time(%)", "Time(%)"),
    _c("total_us", "float", "Time(us)", "Time(us)", ("Time(ns)", 1e-3)),
    _c("count", "int", "Count", "Count", "Calls"),
    _c("avg_us", "float", "Avg(us)", "Avg(us)", ("Avg(ns)", 1e-3)),
    _c("min_us", "float", "Min(us)", "Min(us)", ("Min(ns)", 1e-3)),
    _c("max_us", "float", "Max(us)", "Max(us)", ("Max(ns)", 1e-3)),
    _c("variance", "float", "Variance", "Variance"),
    _c("pid", "int", "Process ID", "Process ID", "PID"),
    _c("tid", "int", "Thread ID", "Thread ID", "TID"),
)

# Per-call API records of CANN 5/6 (acl_*.csv): aggregated into API statistics when no
# acl_statistic file exists.
API_CALLS = (
    _c("name", "str", "Name", "Name"),
    _c("api_type", "str", "Type", "Type"),
    _c("start_ns", "ns", "Start Time", "Start Time(us)", "Start Time"),
    _c("duration_us", "float", "Duration(us)", "Duration(us)", ("Duration(ns)", 1e-3)),
    _c("pid", "int", "Process ID", "Process ID"),
    _c("tid", "int", "Thread ID", "Thread ID"),
)

LABELS: dict[str, str] = {c.key: c.label for schema in (OPS, OP_STATISTIC, API_STATISTIC) for c in schema}
LABELS.update(
    {
        "count": "Count",
        "total_us": "Total Time(us)",
        "avg_us": "Avg Time(us)",
        "min_us": "Min Time(us)",
        "max_us": "Max Time(us)",
        "ratio_pct": "Ratio(%)",
        "key": "Key",
    }
)


def _device_column(table: CsvTable, index: int) -> pd.arrays.IntegerArray:
    """``Device_id`` as Int64; the literal ``host`` (host rows) becomes <NA>."""
    col = table.columns[index]
    if col.kind == "int":  # never: devices are read as text
        return csvread.to_int(table, index)
    lut = np.zeros(len(col.uniques) + 1, dtype=np.int64)
    hole = np.zeros(len(col.uniques) + 1, dtype=bool)
    hole[-1] = True
    for n, word in enumerate(col.uniques):
        if word.lower() == "host":
            hole[n] = True
        elif word.isascii() and word.isdigit() and int(word) <= csvread.INT64_MAX:
            lut[n] = int(word)
        else:
            row = int(np.flatnonzero(col.values == n)[0])
            raise table.fail(row, index, "a device id, 'host' or N/A", word)
    return pd.arrays.IntegerArray(lut[col.values], hole[col.values])


def _plan(header: list[str], schema: tuple[Col, ...]) -> dict[int, tuple[Col, float]]:
    """Which header index feeds which canonical column (first alias found wins)."""
    plan: dict[int, tuple[Col, float]] = {}
    for col in schema:
        for alias, scale in col.aliases:
            index = csvread.find_column(header, [alias])
            if index is not None and index not in plan:
                plan[index] = (col, scale)
                break
    return plan


def _epoch_us(sample: list[list[str]], index: int) -> bool:
    """Decimal µs values at epoch magnitude (e.g. 1717407000000256.466) in the sampled rows."""
    present = [r[index] for r in sample if index < len(r) and r[index] not in csvread.MISSING]
    return bool(present) and all(
        csvread.is_decimal(v) and 15 <= len(v.lstrip("+-").partition(".")[0]) <= 17 for v in present
    )


# Time points of the memory files (torch_npu operator_memory / memory_record / npu_module_mem, msprof's
# memory_record): epoch µs whenever a cell is set. Read as exact ns even when the sampled rows leave them
# empty (the first allocations of a run, never released, have no Release Time; issue #19), not as float64.
EPOCH_HEADERS = frozenset({"timestamp(us)", "allocationtime(us)", "releasetime(us)", "activereleasetime(us)"})


def _epoch_header(header: str, sample: list[list[str]], index: int) -> bool:
    """A known time-point header whose sampled cells are all empty or decimal (any magnitude)."""
    if re.sub(r"\s+", "", header).lower() not in EPOCH_HEADERS:
        return False
    present = [r[index] for r in sample if index < len(r) and r[index] not in csvread.MISSING]
    return all(csvread.is_decimal(v) for v in present)


# Headers that never hold a time point, whatever the magnitude of their values: a 15-digit
# ``Stream Ptr`` (an aarch64 address) is not epoch µs.
_NOT_A_TIME = re.compile(r"(ptr|pointer|addr|address|\bid\b|_id$|cycles?|count|size)", re.IGNORECASE)


# How a schema column is read by the CSV parser (see csvread.READ_KINDS).
_READ_KIND = {"str": "text", "device": "text", "ns": "ns", "int": "int", "float": "float"}


def read_table(
    path: Path,
    schema: tuple[Col, ...] = (),
    required: tuple[str, ...] = (),
    cancel_check: Callable[[], None] | None = None,
) -> pd.DataFrame:
    """Read ``path`` into a canonical frame: the schema's columns first (canonical keys, in
    schema order), then every other column as read. Epoch µs timestamps in other columns
    (npu_mem, step_trace, memory records ...) become exact int64 ns under a ``(ns)`` name.
    A missing ``required`` key raises naming the aliases looked for."""
    plan: dict[int, tuple[Col, float]] = {}
    epoch: set[int] = set()

    def read_kinds(header: list[str], sample: list[list[str]]) -> dict[int, str]:
        plan.update(_plan(header, schema))
        found = {col.key for col, _ in plan.values()}
        for key in required:
            if key not in found:
                col = next(c for c in schema if c.key == key)
                wanted = " or ".join(repr(a) for a, _ in col.aliases)
                raise ProfilingDataError(f"{path}: line 1: no column {wanted} in the header")
        epoch.update(
            i
            for i in range(len(header))
            if i not in plan
            and not _NOT_A_TIME.search(header[i])
            and (_epoch_us(sample, i) or _epoch_header(header[i], sample, i))
        )
        kinds = {i: _READ_KIND[col.kind] for i, (col, _) in plan.items()}
        kinds.update({i: "ns_us" for i in epoch})
        kinds.update({i: csvread.auto_read_kind(h) for i, h in enumerate(header) if i not in kinds})
        return kinds

    table = csvread.read_csv(path, read_kinds, cancel_check)
    columns: dict[str, object] = {}
    for col in schema:
        index = next((i for i, (c, _) in plan.items() if c.key == col.key), None)
        if index is not None:
            columns[col.key] = _convert(table, index, col.kind, plan[index][1])
            table.columns.pop(index)  # the read arrays go as soon as converted: never the table twice
    for index, header in enumerate(table.header):
        if index in plan or not header:
            continue
        if index in epoch:
            name = header.replace("(us)", "(ns)") if "(us)" in header else f"{header}(ns)"
            if name not in columns:
                columns[name] = csvread.to_ns(table, index, unit="us")
        elif header not in columns:
            columns[header] = csvread.auto_column(table, index)
        table.columns.pop(index)
    return pd.DataFrame(columns, index=pd.RangeIndex(len(table)), copy=False)  # no consolidation copy


_EMPTY = {
    "float": lambda: np.zeros(0, dtype=np.float64),
    "int": lambda: pd.array([], dtype="Int64"),
    "ns": lambda: pd.array([], dtype="Int64"),
    "device": lambda: pd.array([], dtype="Int64"),
}


def _convert(table: CsvTable, index: int, kind: str, scale: float) -> object:
    if not len(table):  # a file with its header only (a run that recorded no task): empty columns
        return _EMPTY[kind]() if kind in _EMPTY else pd.Categorical([])
    if kind == "float":
        return csvread.to_float(table, index, scale)
    if kind == "int":
        return csvread.to_int(table, index)
    if kind == "ns":
        return csvread.to_ns(table, index, unit="auto")
    if kind == "device":
        return _device_column(table, index)
    return csvread.to_str(table, index)


def read_ops(path: Path, cancel_check: Callable[[], None] | None = None) -> pd.DataFrame:
    """op_summary / kernel_details in any version: every task with canonical columns first."""
    return read_table(path, OPS, ("name", "duration_us"), cancel_check)


def read_api_statistic(path: Path, level: str | None = None) -> pd.DataFrame:
    """api_statistic (8.x) or acl_statistic / runtime_api (5/6, ns) as canonical API statistics."""
    frame = read_table(path, API_STATISTIC, ("name", "total_us"))
    if "level" not in frame.columns:
        frame.insert(0, "level", pd.Categorical([level or "acl"] * len(frame)))
    return frame


def aggregate_api_calls(path: Path, level: str) -> pd.DataFrame:
    """CANN 5/6 per-call API records (acl_*.csv) summed into API statistics rows."""
    calls = read_table(path, API_CALLS, ("name", "duration_us"))
    grouped = calls.groupby("name", observed=True, sort=True)["duration_us"]
    out = pd.DataFrame(
        {
            "level": level,
            "total_us": grouped.sum(),
            "count": grouped.count().astype("Int64"),
            "avg_us": grouped.mean(),
            "min_us": grouped.min(),
            "max_us": grouped.max(),
        }
    ).reset_index()
    out["name"] = pd.Categorical(out["name"].astype(str))
    out["level"] = pd.Categorical(out["level"])
    return out[["level", "name", "total_us", "count", "avg_us", "min_us", "max_us"]]
