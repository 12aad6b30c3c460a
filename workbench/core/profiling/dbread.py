"""The database exports read into the same tables and timeline as the Text export (docs/cann-formats.md §11).

``msprof_{timestamp}.db`` (msprof 8.x), ``ascend_pytorch_profiler[_{rank}].db`` + ``analysis.db``
(torch_npu ``export_type=Db``), ``ascend_mindspore_profiler[_{rank}].db`` (MindSpore). SQLite from the
stdlib, opened READ-ONLY (``file:...?mode=ro`` URI, query_only): nothing is ever written into the user's
file, no journal appears next to it. Tables and columns are found by name (old ``blockDim`` and new
``blockNum`` spellings alike); a missing optional table is a warning naming the file and the table; a
damaged, foreign, locked or unknown-schema file is one :class:`ProfilingDataError` naming the file and the table.

What the db holds becomes what the Text export holds:

- ``ops``: TASK joined with COMPUTE_TASK_INFO (+ TASK_PMU_INFO pivoted into the PMU columns), the
  kernel_details / op_summary columns (no ``Wait Time``: the db has none); ``step`` from STEP_TIME by the
  launching framework op;
- ``api_statistic``: CANN_API aggregated by (level, name) as the tools do (µs, 3 decimals);
- ``memory_record`` / ``operator_memory`` (MEMORY_RECORD / OP_MEMORY, bytes -> MB/KB with 3 decimals),
  ``step_trace_time`` (analysis.db StepTraceTime);
- the timeline: Python (PYTORCH_API), CANN (CANN_API), Ascend Hardware (TASK) slices and the
  HostToDevice, torch_to_npu, enqueue_to_dequeue flows, built through the Chrome-trace loader so lanes,
  nesting and flows follow the very same rules. Not in the db, so not shown: Overlap Analysis lanes and counters.
"""

from __future__ import annotations

import io
import re
import sqlite3
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
import numpy as np
import pandas as pd

from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.timeline import Timeline
from workbench.core.profiling.timeline.assemble import merge_parts
from workbench.core.profiling.timeline.part import Part
from workbench.core.profiling.timeline.scan import ScanError, locate_events, scan_events

INVALID = 4294967295
DB_NAME = re.compile(
    r"^(?:msprof_\d+|ascend_pytorch_profiler(?:_\d+)?|ascend_mindspore_profiler(?:_\d+)?)\.db$", re.IGNORECASE
)
LEVELS = {20000: "acl", 15000: "model", 10000: "node", 5500: "communication", 5000: "runtime"}
PREFIX = {"acl": "AscendCL", "node": "Node", "runtime": "Runtime", "model": "Model", "communication": "HCCL"}
FWK = {50001: "op", 50002: "queue", 50003: "trace", 50004: "mstx"}
# Same rule as the CSV reader: PMU columns named like counters are integers.
INTEGER_HEADER = re.compile(r"(cycles?|count|calls|\bid\b|_id$|\bnum\b|pid|tid|iteration|step)", re.IGNORECASE)
REQUIRED = {"TASK": ("startNs", "endNs", "globalTaskId"), "STRING_IDS": ("id", "value")}
TENSORS = (
    ("input_shapes", "inputShapes"),
    ("input_dtypes", "inputDataTypes"),
    ("input_formats", "inputFormats"),
    ("output_shapes", "outputShapes"),
    ("output_dtypes", "outputDataTypes"),
    ("output_formats", "outputFormats"),
)
MISSING_TEXT = ("", "N/A", "NA", "None")


def is_db_name(name: str) -> bool:
    return bool(DB_NAME.match(name))


@dataclass
class DbData:
    """What one profiler database (plus its analysis.db) holds, as the Report's parts."""

    ops: pd.DataFrame = field(default_factory=pd.DataFrame)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    timeline: Timeline | None = None
    info: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    devices: list[int] = field(default_factory=list)


class _Db:
    def __init__(self, path: Path) -> None:
        self.path = path
        uri = "file:" + urllib.parse.quote(str(Path(path).resolve())) + "?mode=ro"
        try:
            self.con = sqlite3.connect(uri, uri=True, timeout=0.2, check_same_thread=False)
            self.con.execute("PRAGMA query_only = ON")
            names = [r[0] for r in self.con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")]
        except sqlite3.Error as exc:
            raise self.fail("sqlite_master", exc) from None
        self.tables = {n.upper(): n for n in names}
        self.columns: dict[str, list[str]] = {}

    def fail(self, table: str, exc: Exception) -> ProfilingDataError:
        text = str(exc)
        if "locked" in text or "busy" in text:
            why = "the database is locked by another program (wait until the profiler has finished writing it)"
        elif "not a database" in text or "malformed" in text or "disk image" in text:
            why = "not a readable SQLite database (damaged or not a profiler export)"
        else:
            why = text
        return ProfilingDataError(f"{self.path}: table {table}: {why}")

    def has(self, table: str) -> bool:
        return table.upper() in self.tables

    def cols(self, table: str) -> list[str]:
        if table not in self.columns:
            try:
                rows = self.con.execute(f'PRAGMA table_info("{self.tables[table.upper()]}")').fetchall()
            except sqlite3.Error as exc:
                raise self.fail(table, exc) from None
            self.columns[table] = [str(r[1]) for r in rows]
        return self.columns[table]

    def col(self, table: str, *names: str) -> str | None:
        """The first of ``names`` the table has (case-insensitive), as spelled in the file."""
        have = {c.lower(): c for c in self.cols(table)}
        return next((have[n.lower()] for n in names if n.lower() in have), None)

    def require(self, table: str, columns: tuple[str, ...]) -> None:
        if not self.has(table):
            raise ProfilingDataError(f"{self.path}: table {table}: missing; not a profiler database of a known schema")
        lacking = [c for c in columns if self.col(table, c) is None]
        if lacking:
            raise ProfilingDataError(
                f"{self.path}: table {table}: no column {', '.join(lacking)} (an unknown or newer schema); "
                f"found {', '.join(self.cols(table)) or 'no columns'}"
            )

    def select(self, table: str, columns: dict[str, tuple[str, ...]]) -> dict[str, list]:
        """``{key: values}`` of the columns found (by any of their names); absent ones are left out."""
        found = {k: self.col(table, *names) for k, names in columns.items()}
        found = {k: c for k, c in found.items() if c is not None}
        if not found:
            return {}
        sql = (
            f'SELECT {", ".join(f"{chr(34)}{c}{chr(34)}" for c in found.values())} FROM "{self.tables[table.upper()]}"'
        )
        try:
            rows = self.con.execute(sql).fetchall()
        except sqlite3.Error as exc:
            raise self.fail(table, exc) from None
        return {k: [r[i] for r in rows] for i, k in enumerate(found)}

    def close(self) -> None:
        self.con.close()


def _ints(values: list, table: str, db: _Db, column: str) -> np.ndarray:
    try:
        return np.asarray([int(v) if v is not None else INVALID for v in values], dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise ProfilingDataError(
            f"{db.path}: table {table}: column {column} holds a value that is not an integer"
        ) from None


def _texts(ids: list, strings: dict[int, str]) -> list[str | None]:
    out: list[str | None] = []
    for v in ids:
        s = strings.get(v) if isinstance(v, int) else (v if isinstance(v, str) else None)
        out.append(None if s is None or s.strip() in MISSING_TEXT else s.strip())
    return out


def _cat(values: list) -> pd.Categorical:
    """Strings as a categorical with sorted object categories (as the CSV reader gives them)."""
    uniq = sorted({v for v in values if v is not None})
    at = {v: i for i, v in enumerate(uniq)}
    codes = np.asarray([at[v] if v is not None else -1 for v in values], dtype=np.int64)
    return pd.Categorical.from_codes(codes, categories=pd.Index(uniq, dtype=object))


def _nullable(values: np.ndarray, missing: np.ndarray) -> pd.arrays.IntegerArray:
    return pd.arrays.IntegerArray(np.where(missing, 0, values), missing)


def read_db(path: Path, analysis: Path | None = None, default_device: int = 0) -> DbData:
    """Read one profiler database (and the torch_npu ``analysis.db`` beside it) into a :class:`DbData`."""
    db = _Db(path)
    try:
        return _read(db, analysis, default_device)
    except sqlite3.Error as exc:
        raise db.fail("?", exc) from None
    finally:
        db.close()


def _read(db: _Db, analysis: Path | None, default_device: int) -> DbData:
    out = DbData()
    if not db.tables:
        raise ProfilingDataError(
            f"{db.path}: table STRING_IDS: missing; the file holds no tables (not a profiler export)"
        )
    db.require("STRING_IDS", REQUIRED["STRING_IDS"])
    got = db.select("STRING_IDS", {"id": ("id",), "value": ("value",)})
    strings = {int(i): str(v) for i, v in zip(got["id"], got["value"]) if isinstance(i, int) and v is not None}
    if not any(db.has(t) for t in ("TASK", "CANN_API", "PYTORCH_API")):
        raise ProfilingDataError(f"{db.path}: table TASK: missing; not a profiler database of a known schema")
    for table in ("TASK", "COMPUTE_TASK_INFO", "CANN_API"):
        if not db.has(table):
            out.warnings.append(f"{db.path}: table {table} missing; what it holds is not shown")
    tasks = _tasks(db, strings, out) if db.has("TASK") else None
    apis = _cann_api(db, strings) if db.has("CANN_API") else None
    fwk = _pytorch_api(db, strings) if db.has("PYTORCH_API") else None
    steps = _steps(db) if db.has("STEP_TIME") else None
    if tasks is not None and db.has("COMPUTE_TASK_INFO"):
        out.ops = _ops(db, strings, tasks, fwk, steps, out)
    if apis is not None and len(apis["start"]):
        out.tables["api_statistic"] = _api_statistic(apis)
    _memory(db, strings, out)
    if analysis is not None:
        _analysis(analysis, out, default_device)
    if db.has("META_DATA"):
        meta = db.select("META_DATA", {"name": ("name",), "value": ("value",)})
        out.info["db_meta_data"] = {str(k): str(v) for k, v in zip(meta.get("name", []), meta.get("value", []))}
    if db.has("NPU_INFO"):
        npu = db.select("NPU_INFO", {"id": ("id", "deviceId"), "name": ("name", "chip")})
        out.info["db_npu_info"] = [{"id": i, "name": n} for i, n in zip(npu.get("id", []), npu.get("name", []))]
    if tasks is not None:
        out.devices = sorted({int(d) for d in tasks["device"] if d != INVALID})
    out.timeline = _timeline(db, tasks, apis, fwk, default_device)
    return out


def _tasks(db: _Db, strings: dict[int, str], out: DbData) -> dict[str, np.ndarray]:
    db.require("TASK", REQUIRED["TASK"])
    got = db.select(
        "TASK",
        {
            "start": ("startNs",),
            "end": ("endNs",),
            "gid": ("globalTaskId",),
            "device": ("deviceId",),
            "conn": ("connectionId",),
            "stream": ("streamId",),
            "task": ("taskId",),
            "model": ("modelId",),
            "context": ("contextId",),
            "batch": ("batchId",),
            "type": ("taskType",),
        },
    )
    n = len(got["start"])
    tasks = {}
    for key in ("start", "end", "gid", "device", "conn", "stream", "task", "model", "context", "batch"):
        tasks[key] = _ints(got[key], "TASK", db, key) if key in got else np.full(n, INVALID, dtype=np.int64)
    tasks["type"] = np.asarray(_texts(got.get("type", [None] * n), strings), dtype=object)
    bad = tasks["end"] < tasks["start"]
    if bad.any():
        raise ProfilingDataError(f"{db.path}: table TASK: row {int(np.flatnonzero(bad)[0]) + 1}: endNs before startNs")
    return tasks


def _cann_api(db: _Db, strings: dict[int, str]) -> dict[str, np.ndarray]:
    db.require("CANN_API", ("startNs", "endNs", "name"))
    got = db.select(
        "CANN_API",
        {
            "start": ("startNs",),
            "end": ("endNs",),
            "type": ("type",),
            "tid": ("globalTid",),
            "conn": ("connectionId",),
            "name": ("name",),
        },
    )
    n = len(got["start"])
    api = {
        k: _ints(got[k], "CANN_API", db, k) if k in got else np.full(n, INVALID, dtype=np.int64)
        for k in ("start", "end", "type", "tid", "conn")
    }
    api["name"] = np.asarray(_texts(got["name"], strings), dtype=object)
    api["level"] = np.asarray([LEVELS.get(int(t), str(t)) for t in api["type"]], dtype=object)
    return api


def _pytorch_api(db: _Db, strings: dict[int, str]) -> dict[str, np.ndarray]:
    db.require("PYTORCH_API", ("startNs", "endNs", "name"))
    got = db.select(
        "PYTORCH_API",
        {
            "start": ("startNs",),
            "end": ("endNs",),
            "tid": ("globalTid",),
            "conn": ("connectionId",),
            "name": ("name",),
            "type": ("type",),
        },
    )
    n = len(got["start"])
    api = {
        k: _ints(got[k], "PYTORCH_API", db, k) if k in got else np.full(n, INVALID, dtype=np.int64)
        for k in ("start", "end", "tid", "conn", "type")
    }
    api["name"] = np.asarray(_texts(got["name"], strings), dtype=object)
    links: dict[int, int] = {}
    if db.has("CONNECTION_IDS"):
        c = db.select("CONNECTION_IDS", {"id": ("id",), "conn": ("connectionId",)})
        links = {
            int(i): int(v)
            for i, v in zip(c.get("id", []), c.get("conn", []))
            if isinstance(i, int) and isinstance(v, int)
        }
    api["link"] = np.asarray([links.get(int(c), -1) for c in api["conn"]], dtype=np.int64)
    return api


def _steps(db: _Db) -> dict[str, np.ndarray] | None:
    got = db.select("STEP_TIME", {"id": ("id",), "start": ("startNs",), "end": ("endNs",)})
    if set(got) != {"id", "start", "end"}:
        return None
    return {k: _ints(v, "STEP_TIME", db, k) for k, v in got.items()}


def _ops(db: _Db, strings, tasks, fwk, steps, out: DbData) -> pd.DataFrame:
    cols = {
        "gid": ("globalTaskId",),
        "name": ("name", "opName"),
        "block": ("blockNum", "blockDim"),
        "mix": ("mixBlockNum", "mixBlockDim"),
        "task_type": ("taskType",),
        "type": ("opType",),
        "op_state": ("opState",),
        "hf32": ("hf32Eligible",),
        **{k: (c,) for k, c in TENSORS},
    }
    db.require("COMPUTE_TASK_INFO", ("globalTaskId", "name"))
    info = db.select("COMPUTE_TASK_INFO", cols)
    gid = _ints(info["gid"], "COMPUTE_TASK_INFO", db, "globalTaskId")
    order = np.argsort(tasks["gid"], kind="stable")
    pos = np.searchsorted(tasks["gid"][order], gid)
    pos = np.clip(pos, 0, max(len(order) - 1, 0))
    found = (len(order) > 0) & (tasks["gid"][order][pos] == gid) if len(order) else np.zeros(len(gid), dtype=bool)
    if (~found).any():
        out.warnings.append(
            f"{db.path}: table COMPUTE_TASK_INFO: {int((~found).sum())} rows name a globalTaskId "
            "that TASK does not hold; left out"
        )
    row = order[pos[found]]
    keep = np.flatnonzero(found)
    # in task order (the Text export lists the tasks by start)
    by_start = np.lexsort((row, tasks["start"][row]))
    row, keep = row[by_start], keep[by_start]
    n = len(row)

    def text(key: str) -> pd.Categorical:
        values = info.get(key)
        return _cat(_texts([values[i] for i in keep], strings) if values is not None else [None] * n)

    def ints(values: np.ndarray, invalid_missing: bool = True) -> pd.arrays.IntegerArray:
        return _nullable(values, values == INVALID if invalid_missing else np.zeros(len(values), dtype=bool))

    frame: dict[str, object] = {}
    frame["device"] = ints(tasks["device"][row])
    frame["step"] = _step_of(tasks, row, fwk, steps)
    frame["model_id"] = ints(tasks["model"][row], invalid_missing=False)
    frame["task_id"] = ints(tasks["task"][row])
    frame["stream_id"] = ints(tasks["stream"][row])
    frame["name"] = text("name")
    frame["type"] = text("type")
    frame["op_state"] = text("op_state")
    frame["task_type"] = text("task_type")
    frame["start_ns"] = pd.array(tasks["start"][row], dtype="Int64")
    frame["duration_us"] = (tasks["end"][row] - tasks["start"][row]).astype(np.float64) / 1000.0
    for key, src in (("block_dim", "block"), ("mix_block_dim", "mix")):
        if src in info:
            frame[key] = ints(_ints([info[src][i] for i in keep], "COMPUTE_TASK_INFO", db, src))
    frame["hf32"] = text("hf32")
    for key, _ in TENSORS:
        frame[key] = text(key)
    ctx = tasks["context"][row]
    frame["context_id"] = _cat([None if c == INVALID else str(int(c)) for c in ctx])
    frame = {
        k: v
        for k, v in frame.items()
        if not (isinstance(v, pd.Categorical) and k in ("op_state", "hf32") and v.isna().all() and k not in info)
    }
    if steps is None:
        frame.pop("step")
    if db.has("TASK_PMU_INFO"):
        frame.update(_pmu(db, strings, tasks["gid"][row]))
    return pd.DataFrame(frame, index=pd.RangeIndex(n))


def _step_of(tasks, row, fwk, steps) -> pd.arrays.IntegerArray:
    """The step of each task: the STEP_TIME range holding the framework op that launched it (else its start)."""
    n = len(row)
    if steps is None or not len(steps["id"]):
        return _nullable(np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool))
    when = tasks["start"][row].copy()
    if fwk is not None:
        linked = {
            int(c): int(s)
            for c, s, t in zip(fwk["link"], fwk["start"], fwk["type"])
            if c >= 0 and FWK.get(int(t)) == "op"
        }
        conn = tasks["conn"][row]
        when = np.asarray([linked.get(int(c), int(w)) for c, w in zip(conn, when)], dtype=np.int64)
    order = np.argsort(steps["start"], kind="stable")
    s, e, ids = steps["start"][order], steps["end"][order], steps["id"][order]
    at = np.searchsorted(s, when, side="right") - 1
    ok = (at >= 0) & (when <= e[np.clip(at, 0, None)])
    return _nullable(np.where(ok, ids[np.clip(at, 0, None)], 0), ~ok)


def _pmu(db: _Db, strings, gids: np.ndarray) -> dict[str, object]:
    got = db.select("TASK_PMU_INFO", {"gid": ("globalTaskId",), "name": ("name",), "value": ("value",)})
    if set(got) != {"gid", "name", "value"}:
        return {}
    at = {int(g): i for i, g in enumerate(gids)}
    names: dict[str, list] = {}
    for g, name, value in zip(got["gid"], got["name"], got["value"]):
        i = at.get(g) if isinstance(g, int) else None
        label = strings.get(name) if isinstance(name, int) else None
        if i is None or label is None:
            continue
        names.setdefault(label, [None] * len(gids))[i] = value
    out: dict[str, object] = {}
    for label, values in names.items():
        nums = [v if isinstance(v, (int, float)) and not isinstance(v, bool) else None for v in values]
        if INTEGER_HEADER.search(label) and all(v is None or float(v).is_integer() for v in nums):
            missing = np.asarray([v is None for v in nums])
            out[label] = _nullable(np.asarray([int(v) if v is not None else 0 for v in nums], dtype=np.int64), missing)
        else:
            out[label] = np.asarray([float(v) if v is not None else np.nan for v in nums], dtype=np.float64)
    return out


def _r3(x: float) -> float:
    return round(x, 3)


def _api_statistic(api) -> pd.DataFrame:
    """By (level, name), sorted by total time then key, in µs (3 decimals) like api_statistic.csv."""
    groups: dict[tuple, list] = {}
    for level, name, s, e in zip(api["level"], api["name"], api["start"], api["end"]):
        d = int(e - s)
        g = groups.get((level, name))
        if g is None:
            groups[(level, name)] = [1, d, d, d, (d / 1000) ** 2]
        else:
            g[0] += 1
            g[1] += d
            g[2] = min(g[2], d)
            g[3] = max(g[3], d)
            g[4] += (d / 1000) ** 2
    rows = sorted(groups.items(), key=lambda kv: (-kv[1][1], tuple("" if k is None else k for k in kv[0])))
    count = np.asarray([g[0] for _, g in rows], dtype=np.int64)
    avg = [g[1] / g[0] / 1000 for _, g in rows]
    return pd.DataFrame(
        {
            "level": _cat([k[0] for k, _ in rows]),
            "name": _cat([k[1] for k, _ in rows]),
            "total_us": np.asarray([g[1] / 1000 for _, g in rows]),
            "count": pd.array(count, dtype="Int64"),
            "avg_us": np.asarray([_r3(a) for a in avg]),
            "min_us": np.asarray([g[2] / 1000 for _, g in rows]),
            "max_us": np.asarray([g[3] / 1000 for _, g in rows]),
            "variance": np.asarray([_r3(max(0.0, g[4] / g[0] - a * a)) for (_, g), a in zip(rows, avg)]),
        }
    )


MB = float(1 << 20)


def _memory(db: _Db, strings, out: DbData) -> None:
    if db.has("MEMORY_RECORD"):
        got = db.select(
            "MEMORY_RECORD",
            {
                "component": ("component",),
                "ts": ("timestamp",),
                "alloc": ("totalAllocated",),
                "res": ("totalReserved",),
                "active": ("totalActive",),
                "ptr": ("streamPtr",),
                "dev": ("deviceId",),
            },
        )
        if {"component", "ts", "alloc"} <= set(got):
            n = len(got["ts"])
            mb = {
                k: np.asarray(
                    [_r3(int(v) / MB) if isinstance(v, (int, float)) else np.nan for v in got.get(k, [None] * n)]
                )
                for k in ("alloc", "res", "active")
            }
            out.tables["memory_record"] = pd.DataFrame(
                {
                    "Component": _cat(_texts(got["component"], strings)),
                    "Timestamp(ns)": pd.array(_ints(got["ts"], "MEMORY_RECORD", db, "timestamp"), dtype="Int64"),
                    "Total Allocated(MB)": mb["alloc"],
                    "Total Reserved(MB)": mb["res"],
                    "Total Active(MB)": mb["active"],
                    "Stream Ptr": pd.array(
                        _ints(got.get("ptr", [None] * n), "MEMORY_RECORD", db, "streamPtr"), dtype="Int64"
                    ),
                    "Device Type": _cat(
                        [f"NPU:{d}" if isinstance(d, int) else None for d in got.get("dev", [None] * n)]
                    ),
                }
            )


def _analysis(path: Path, out: DbData, device: int) -> None:
    try:
        db = _Db(path)
    except ProfilingDataError as exc:
        out.warnings.append(f"{exc}; ignored")
        return
    try:
        if not db.has("StepTraceTime"):
            out.warnings.append(f"{path}: table StepTraceTime missing; no step trace shown")
            return
        keys: dict[str, tuple[str, ...]] = {
            "Step": ("step",),
            "Computing": ("computing",),
            "Communication(Not Overlapped)": ("communication_not_overlapped",),
            "Overlapped": ("overlapped",),
            "Communication": ("communication",),
            "Free": ("free",),
            "Stage": ("stage",),
            "Bubble": ("bubble",),
            "Communication(Not Overlapped and Exclude Receive)": ("communication_not_overlapped_and_exclude_receive",),
            "Preparing": ("preparing",),
        }
        got = db.select("StepTraceTime", keys)
        if "Step" not in got:
            out.warnings.append(f"{path}: table StepTraceTime: no column step; no step trace shown")
            return
        n = len(got["Step"])
        frame: dict[str, object] = {"Device_id": pd.array([device] * n, dtype="Int64")}
        steps = [int(s) if str(s).strip().isdigit() else None for s in got["Step"]]
        frame["Step"] = _nullable(
            np.asarray([s or 0 for s in steps], dtype=np.int64), np.asarray([s is None for s in steps])
        )
        for k in keys:
            if k != "Step" and k in got:
                frame[k] = np.asarray(
                    [float(v) if isinstance(v, (int, float)) else np.nan for v in got[k]], dtype=np.float64
                )
        out.tables["step_trace_time"] = pd.DataFrame(frame)
    finally:
        db.close()


# ---- timeline ---------------------------------------------------------------------------------------


def _us(ns: int) -> msgspec.Raw:
    ns = int(ns)
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    return msgspec.Raw(f"{sign}{ns // 1000}.{ns % 1000:03d}".encode())


def _meta(name: str, pid: int, tid: int, args: dict) -> dict:
    return {"ph": "M", "name": name, "pid": pid, "tid": tid, "args": args}


def _events(tasks, apis, fwk) -> Iterator[dict]:
    py_pid, cann_pid, hw_pid = 1, 2, 3
    if fwk is not None and len(fwk["start"]):
        yield _meta("process_name", py_pid, 0, {"name": "Python"})
        yield _meta("process_labels", py_pid, 0, {"labels": "CPU"})
        yield _meta("process_sort_index", py_pid, 0, {"sort_index": 0})
        for tid in sorted({int(t) & 0xFFFFFFFF for t in fwk["tid"]}):
            yield _meta("thread_name", py_pid, tid, {"name": f"Thread {tid}"})
            yield _meta("thread_sort_index", py_pid, tid, {"sort_index": tid})
    if apis is not None and len(apis["start"]):
        yield _meta("process_name", cann_pid, 0, {"name": "CANN"})
        yield _meta("process_labels", cann_pid, 0, {"labels": "CPU"})
        yield _meta("process_sort_index", cann_pid, 0, {"sort_index": 2})
        for tid in sorted({int(t) & 0xFFFFFFFF for t in apis["tid"]}):
            yield _meta("thread_name", cann_pid, tid, {"name": f"Thread {tid}"})
            yield _meta("thread_sort_index", cann_pid, tid, {"sort_index": tid})
    devices = sorted({int(d) for d in tasks["device"]}) if tasks is not None else []
    for dev in devices:
        pid = hw_pid + 10 * (dev + 1)
        yield _meta("process_name", pid, 0, {"name": "Ascend Hardware"})
        yield _meta("process_labels", pid, 0, {"labels": "NPU"})
        yield _meta("process_sort_index", pid, 0, {"sort_index": 8})
        yield _meta("device_id", pid, 0, {"device_id": dev})
        for s in sorted({int(x) for x, d in zip(tasks["stream"], tasks["device"]) if d == dev}):
            yield _meta("thread_name", pid, s, {"name": f"Stream {s}"})
            yield _meta("thread_sort_index", pid, s, {"sort_index": s})
    task_by_conn: dict[int, int] = {}
    if fwk is not None:
        for i in range(len(fwk["start"])):
            kind = FWK.get(int(fwk["type"][i]), "op")
            name = fwk["name"][i] or ""
            cat = name.lower() if kind == "queue" else "cpu_op"
            tid = int(fwk["tid"][i]) & 0xFFFFFFFF
            s, e = int(fwk["start"][i]), int(fwk["end"][i])
            yield {"ph": "X", "name": name, "pid": py_pid, "tid": tid, "ts": _us(s), "dur": _us(e - s), "cat": cat}
            if kind == "queue" and fwk["link"][i] >= 0:
                ph = "s" if cat == "enqueue" else "f"
                yield {
                    "ph": ph,
                    "bp": "e",
                    "name": "enqueue_to_dequeue",
                    "id": int(fwk["link"][i]),
                    "pid": py_pid,
                    "tid": tid,
                    "ts": _us(s),
                    "cat": "async_task_queue",
                }
    if apis is not None:
        for i in range(len(apis["start"])):
            level, name = apis["level"][i], apis["name"][i] or ""
            label = f"{PREFIX.get(level, level)}@{name}"
            s, e = int(apis["start"][i]), int(apis["end"][i])
            tid = int(apis["tid"][i]) & 0xFFFFFFFF
            args = {"level": level, "connection_id": int(apis["conn"][i])}
            yield {"ph": "X", "name": label, "pid": cann_pid, "tid": tid, "ts": _us(s), "dur": _us(e - s), "args": args}
            if level == "node" and apis["conn"][i] != INVALID:
                task_by_conn.setdefault(int(apis["conn"][i]), -1)
                yield {
                    "ph": "s",
                    "name": "HostToDevice",
                    "cat": "HostToDevice",
                    "id": f"h2d_{int(apis['conn'][i])}",
                    "pid": cann_pid,
                    "tid": tid,
                    "ts": _us(s),
                }
    if tasks is None:
        return
    names = tasks.get("names")
    for i in range(len(tasks["start"])):
        dev, stream = int(tasks["device"][i]), int(tasks["stream"][i])
        pid = hw_pid + 10 * (dev + 1)
        s, e = int(tasks["start"][i]), int(tasks["end"][i])
        name = (names[i] if names is not None else None) or tasks["type"][i] or "task"
        args = {
            "Model Id": int(tasks["model"][i]),
            "Task Type": tasks["task_type"][i] if "task_type" in tasks else tasks["type"][i],
            "Stream Id": stream,
            "Task Id": int(tasks["task"][i]),
            "connection_id": int(tasks["conn"][i]),
        }
        if tasks.get("op_type") is not None and tasks["op_type"][i] is not None:
            args["OP Type"] = tasks["op_type"][i]
        yield {"ph": "X", "name": name, "pid": pid, "tid": stream, "ts": _us(s), "dur": _us(e - s), "args": args}
        conn = int(tasks["conn"][i])
        if conn in task_by_conn:
            yield {
                "ph": "f",
                "bp": "e",
                "name": "HostToDevice",
                "cat": "HostToDevice",
                "id": f"h2d_{conn}",
                "pid": pid,
                "tid": stream,
                "ts": _us(s),
            }
    if fwk is not None:
        first_task: dict[int, int] = {}
        for i in range(len(tasks["start"])):
            first_task.setdefault(int(tasks["conn"][i]), i)
        for i in range(len(fwk["start"])):
            if FWK.get(int(fwk["type"][i]), "op") != "op" or fwk["link"][i] < 0:
                continue
            t = first_task.get(int(fwk["link"][i]))
            if t is None:
                continue
            fid = int(tasks["start"][t])
            tid = int(fwk["tid"][i]) & 0xFFFFFFFF
            pid = hw_pid + 10 * (int(tasks["device"][t]) + 1)
            yield {
                "ph": "s",
                "bp": "e",
                "name": "torch_to_npu",
                "id": fid,
                "pid": py_pid,
                "tid": tid,
                "ts": _us(int(fwk["start"][i])),
                "cat": "async_npu",
            }
            yield {
                "ph": "f",
                "bp": "e",
                "name": "torch_to_npu",
                "id": fid,
                "pid": pid,
                "tid": int(tasks["stream"][t]),
                "ts": _us(fid),
                "cat": "async_npu",
            }


def _timeline(db: _Db, tasks, apis, fwk, default_device: int) -> Timeline | None:
    if tasks is not None and db.has("COMPUTE_TASK_INFO"):
        strings = {}
        got = db.select("STRING_IDS", {"id": ("id",), "value": ("value",)})
        strings = {int(i): str(v) for i, v in zip(got["id"], got["value"]) if isinstance(i, int) and v is not None}
        info = db.select(
            "COMPUTE_TASK_INFO",
            {"gid": ("globalTaskId",), "name": ("name", "opName"), "type": ("taskType",), "op": ("opType",)},
        )
        at = {int(g): i for i, g in enumerate(tasks["gid"])}
        names: list = [None] * len(tasks["gid"])
        types: list = list(tasks["type"])
        for g, nm, ty in zip(
            info.get("gid", []), info.get("name", []), info.get("type", [None] * len(info.get("gid", [])))
        ):
            i = at.get(g) if isinstance(g, int) else None
            if i is not None:
                names[i] = strings.get(nm) if isinstance(nm, int) else None
                if isinstance(ty, int) and ty in strings:
                    types[i] = strings[ty]
        tasks = {**tasks, "names": names, "task_type": types}
    if tasks is None and apis is None and fwk is None:
        return None
    enc = msgspec.json.Encoder()
    buf = io.BytesIO()
    buf.write(b"[")
    first = True
    for event in _events(tasks, apis, fwk):
        if not first:
            buf.write(b",\n")
        buf.write(enc.encode(event))
        first = False
    buf.write(b"]")
    size = buf.tell()
    buf.seek(0)
    part = Part()
    try:
        start = locate_events(buf, size)
        scan_events(buf, start, size, part.add_chunk, block=1 << 20)
        part.store.finish()
        built = merge_parts([(str(db.path.parent), part)], default_device=default_device)
    except (ScanError, ValueError) as exc:
        raise ProfilingDataError(f"{db.path}: table TASK: the times do not form a timeline ({exc})") from None
    warnings = built.pop("warnings")
    return Timeline(source=[str(db.path)], warnings=warnings, **built)
