"""One db rank's reduction: torch_npu's ``export_type=Db`` read into the same reduction as its Text export.

From ``ASCEND_PROFILER_OUTPUT/analysis.db`` (read only: ``file:...?mode=ro``, ``PRAGMA query_only``):

- ``StepTraceTime``: the columns msprof-analyze's db mode selects (``step, computing, ...,
  preparing``), under step_trace_time.csv's names (``Computing``, ``Communication(Not Overlapped)``,
  ...), every value ``float()`` like the text path (a NULL or a text that is no number: 0, with a warning);
- ``CommAnalyzerTime`` + ``CommAnalyzerBandwidth``: communication.json's shape, step -> ``p2p`` /
  ``collective`` -> ``{hccl_op_name}@{group_name}`` -> ``Communication Time Info`` (the six times; the two
  ratios, which no table holds, computed as msprof does: ``round(x / (x + transit), 4)``, 0 for a zero
  denominator) and ``Communication Bandwidth Info`` (per transport the first row's size, time, bandwidth and
  large-packet ratio, its ``package_size`` rows as ``Size Distribution`` ``{MB: [count, ms]}``; a ``0, 0, 0``
  row means no sizes). The kind is msprof-analyze's db rule (CommunicationGroupMap: ``send`` / ``receive`` /
  ``recv`` in the name is p2p); ``step`` absent (msprof's variant) is ``"step"``;
- ``CommAnalyzerMatrix``: communication_matrix.json's shape, step -> ``type`` column -> ``{hccl_op_name}@
  {group_name}`` -> ``"{src_rank}-{dst_rank}"`` -> transport, size, time, bandwidth, op name (the first row
  of a link, as msprof-analyze's adapter keeps it; ``''`` / NULL op name: none, like a ``-total`` entry);

and from the profiler db (``ascend_pytorch_profiler_{rank}.db``, else ``ascend_pytorch_profiler.db``) the
``parallel_group_info`` of ``META_DATA`` (msprof-analyze's db mode reads the groups there; the rank folder's
profiler_metadata.json when the db has none), from profiler_metadata.json the ``distributed_args`` (as
msprof-analyze's StepTraceTimeAnalysis reads them in db mode).

The db's NUMERIC columns keep a whole float as an integer; the text export's JSON writes floats for every
value msprof's arithmetic makes one. So a number read back is written as the JSON has it: a float, but an
untouched 0 (msprof's initial ``0``: a transport or time that saw no task), a packet count, and the
large-packet ratio of a transport without packets (or SDMA's, never computed); the transports msprof lists
for every operator (RDMA, HCCS, PCIE, SDMA, SIO) and the db leaves out when all zero are put back as zeros.
The result equals the Text export's reduction of the same run (operator and link order as the rows have them).

What is missing or damaged (no file, not a database, a missing table or column, a NULL or non-number cell)
is one warning naming the file, the table and the column; nothing raises.

A MindSpore db rank (``*_ascend_ms`` with ``ASCEND_PROFILER_OUTPUT/ascend_mindspore_profiler_{rank}.db`` and the
``communication_analyzer.db`` MindSpore copies there from msprof's ``PROF_*/analyze/``; ``kind="mindspore"``) is
read as msprof-analyze 26.2 reads it: its steps are *not* in a table but computed from the profiler db
(``MsprofStepTraceTimeDBAdapter``): one row, Step empty, from the compute tasks (``TASK`` joined with
``COMPUTE_TASK_INFO`` on ``globalTaskId``) and the communication operators (``COMMUNICATION_OP``, their names
through ``STRING_IDS``): each set's intervals merged, Communication(Not Overlapped) and Free by msprof-analyze's
pipeline overlap of the two merged sets (``RangeCaculator.compute_pipeline_overlap``, ported as it is), Bubble the
``hcom_receive*`` operators' intervals *as the merge left them* (the merge lengthens the first interval of a run in
place, and msprof-analyze sums the same objects), the rest as for a msprof timeline, every value ns / 1000;
the communication from communication_analyzer.db (no ``step`` / ``type`` columns: step ``"step"``, the kind by
``send`` / ``receive`` / ``recv`` in the name), its per-operator matrix integrated as msprof-analyze's
``CommMatrixSum._trans_msprof_matrix_data`` does (per kind, group, ``name.split("__")[0]`` and link, the operators
sorted by bandwidth *ascending*: ``top1`` the first, ``bottom1`` / ``bottom2`` / ``bottom3`` the last three,
``middle`` the ``n // 2``-th, each with its ``Op Name``; ``total`` the summed size and time, bandwidth size / time,
``Op Name`` None: NULL in cluster_analysis.db); ``parallel_group_info`` from the profiler db's ``META_DATA``.
A msprof db rank (a ``PROF_*`` folder with ``msprof_{timestamp}.db``; ``kind="msprof"``) is read the same way from
the newest ``msprof_{timestamp}.db`` and ``analyze/communication_analyzer.db``.

STDLIB ONLY (sqlite3, json): runs on Dask workers of the user's cluster, where workbench is not installed;
:mod:`.reduce` imports it and fills its ``RankReduction`` here (this module imports nothing of workbench, so
the two ship by value together without an import cycle).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

OUTPUT = "ASCEND_PROFILER_OUTPUT"
ANALYSIS_DB = "analysis.db"
METADATA_FILE = "profiler_metadata.json"
STEP_TABLE = "StepTraceTime"
TIME_TABLE = "CommAnalyzerTime"
BANDWIDTH_TABLE = "CommAnalyzerBandwidth"
MATRIX_TABLE = "CommAnalyzerMatrix"
META_TABLE = "META_DATA"
TOTAL = "Total"  # operators whose name starts with it are a rank's own totals (as the text reduction)
# StepTraceTime's columns (msprof-analyze's STEP_TRACE_TIME_SQL) and step_trace_time.csv's names for them
STEP_COLUMNS = {
    "computing": "Computing",
    "communication_not_overlapped": "Communication(Not Overlapped)",
    "overlapped": "Overlapped",
    "communication": "Communication",
    "free": "Free",
    "stage": "Stage",
    "bubble": "Bubble",
    "communication_not_overlapped_and_exclude_receive": "Communication(Not Overlapped and Exclude Receive)",
    "preparing": "Preparing",
}
TIME_INFO = "Communication Time Info"
BW_INFO = "Communication Bandwidth Info"
# CommAnalyzerTime column -> Communication Time Info key; True: always a float in the JSON
TIME_KEYS = {
    "start_timestamp": ("Start Timestamp(us)", True),
    "elapse_time": ("Elapse Time(ms)", True),
    "transit_time": ("Transit Time(ms)", False),
    "wait_time": ("Wait Time(ms)", False),
    "synchronization_time": ("Synchronization Time(ms)", False),
    "idle_time": ("Idle Time(ms)", True),
}
TIME_ALIASES = {"elapse_time": ("elapse_time", "elapsed_time")}
BAND_KEYS = {
    "transit_size": "Transit Size(MB)",
    "transit_time": "Transit Time(ms)",
    "bandwidth": "Bandwidth(GB/s)",
    "large_packet_ratio": "Large Packet Ratio",
}
MATRIX_KEYS = {"transit_size": "Transit Size(MB)", "transit_time": "Transit Time(ms)", "bandwidth": "Bandwidth(GB/s)"}
TRANSPORTS = ("RDMA", "HCCS", "PCIE", "SDMA", "SIO")  # what msprof lists for every operator, in its order
NO_PACKET_RATIO = ("SDMA",)  # msprof computes no large-packet ratio for these
KINDS = ("p2p", "collective")  # communication.json's order
_PROFILER_DB = re.compile(r"^ascend_pytorch_profiler(?:_(\d+))?\.db$")
MS_ANALYSIS_DB = "communication_analyzer.db"  # msprof's communication analysis, as MindSpore copies it
PROF_ANALYZE = "analyze"  # a PROF folder's communication analysis (msprof --analyze=on)
_MSPROF_DB = re.compile(r"^msprof_\d{14}\.db$")  # msprof-analyze get_msprof_profiler_db_path
PROFILER_PREFIX = {"pytorch": "ascend_pytorch_profiler", "mindspore": "ascend_mindspore_profiler"}
RECEIVE = "hcom_receive"
NS_TO_US = 1000
P2P_PREFIXES = ("hcom_send", "hcom_receive", "hcom_batchsendrecv")  # CommMatrixSum.P2P_HCOM
MATRIX_PICKS = ("top1", "bottom1", "bottom2", "bottom3", "middle")  # _trans_msprof_matrix_data's row order
_P2P_WORDS = ("send", "receive", "recv")  # msprof-analyze CommunicationGroupMap.get_comm_type_from_op_name
EPS = 1e-15


class _Cells:
    """Numbers out of one table's cells, with one warning per table for the first bad cell."""

    def __init__(self, red: Any, where: str) -> None:
        self.red, self.where, self.bad = red, where, 0

    def number(self, value: Any, column: str) -> int | float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
        self.bad += 1
        if self.bad == 1:
            shown = "NULL" if value is None else repr(value if not isinstance(value, bytes) else value[:20])
            self.red.warnings.append(f"{self.where}, column {column}: {shown} is not a number; taken as 0")
        return 0


def _json_float(value: int | float, untouched_zero: bool = True) -> int | float:
    """A number as the text export's JSON has it: a float, but an integer 0 that msprof never touched."""
    if untouched_zero and value == 0 and isinstance(value, int):
        return 0
    return float(value)


def _ratio(part: float, transit: float) -> float:
    total = part + transit
    return 0 if abs(total) < EPS else round(part / total, 4)


def _connect(path: str, red: Any) -> sqlite3.Connection | None:
    try:
        size = os.path.getsize(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        red.warnings.append(f"{path}: cannot be read ({exc.strerror or exc})")
        return None
    try:
        con = sqlite3.connect(Path(os.path.abspath(path)).as_uri() + "?mode=ro", uri=True)
        con.text_factory = lambda b: b.decode("utf-8", "replace")
        con.execute("PRAGMA query_only = ON")
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        red.warnings.append(f"{path}: not a readable SQLite database ({exc})")
        return None
    red.read_bytes += size
    return con


def _columns(con: sqlite3.Connection, table: str) -> list[str] | None:
    """The table's columns; None when there is no such table."""
    found = con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
    if found is None:
        return None
    return [str(row[1]) for row in con.execute(f'PRAGMA table_info("{table}")')]


def _rows(con: sqlite3.Connection, table: str, columns: list[str]) -> Any:
    listed = ", ".join(f'"{c}"' for c in columns)
    return con.execute(f'SELECT {listed} FROM "{table}"')


def _pick(have: list[str], name: str) -> str | None:
    for alias in TIME_ALIASES.get(name, (name,)):
        if alias in have:
            return alias
    return None


def _kind_of(name: str) -> str:
    lower = name.lower()
    return "p2p" if any(word in lower for word in _P2P_WORDS) else "collective"


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _read_steps(con: sqlite3.Connection, path: str, red: Any) -> None:
    where = f"{path}: table {STEP_TABLE}"
    have = _columns(con, STEP_TABLE)
    if have is None:
        red.warnings.append(f"{path}: no table {STEP_TABLE}; the rank's steps are left out")
        return
    missing = [c for c in ("step", *STEP_COLUMNS) if c not in have]
    if missing:
        red.warnings.append(f"{where} has no column {', '.join(missing)}; the rank's steps are left out")
        return
    cells = _Cells(red, where)
    steps: list[tuple[str, list[float]]] = []
    for row in _rows(con, STEP_TABLE, ["step", *STEP_COLUMNS]):
        values = [float(cells.number(v, c)) for v, c in zip(row[1:], STEP_COLUMNS)]
        steps.append((_text(row[0]) or "", values))
    red.step_header = list(STEP_COLUMNS.values())
    red.steps = steps


def _step_doc(doc: dict[str, dict[str, dict[str, Any]]], step: str) -> dict[str, dict[str, Any]]:
    by_kind = doc.get(step)
    if by_kind is None:
        by_kind = doc[step] = {kind: {} for kind in KINDS}
    return by_kind


Ops = dict[tuple[str, str], dict[str, Any]]  # (step, name@group) -> kind, Time / Bandwidth Info


def _read_times(con: sqlite3.Connection, path: str, red: Any) -> Ops:
    """CommAnalyzerTime: per step and ``name@group`` its kind and Communication Time Info (row order)."""
    where = f"{path}: table {TIME_TABLE}"
    have = _columns(con, TIME_TABLE)
    ops: Ops = {}
    if have is None:
        red.warnings.append(f"{path}: no table {TIME_TABLE}; the rank's communication times are left out")
        return ops
    if "hccl_op_name" not in have or "group_name" not in have:
        lost = "hccl_op_name" if "hccl_op_name" not in have else "group_name"
        red.warnings.append(f"{where} has no column {lost}; the rank's communication times are left out")
        return ops
    picked = {key: _pick(have, key) for key in TIME_KEYS}
    absent = [key for key, col in picked.items() if col is None]
    if absent:
        red.warnings.append(f"{where} has no column {', '.join(absent)}; taken as 0")
    step_col = "step" if "step" in have else None
    wanted = ["hccl_op_name", "group_name", *(c for c in picked.values() if c), *([step_col] if step_col else [])]
    cells = _Cells(red, where)
    for row in _rows(con, TIME_TABLE, wanted):
        cell = dict(zip(wanted, row))
        name, group = _text(cell["hccl_op_name"]), _text(cell["group_name"])
        if name is None or group is None or name.startswith(TOTAL):
            continue
        info: dict[str, Any] = {}
        for key, (label, always_float) in TIME_KEYS.items():
            col = picked[key]
            value = cells.number(cell[col], col) if col else 0
            info[label] = _json_float(value, not always_float)
        transit = info["Transit Time(ms)"]
        info["Wait Time Ratio"] = _ratio(info["Wait Time(ms)"], transit)
        info["Synchronization Time Ratio"] = _ratio(info["Synchronization Time(ms)"], transit)
        step = (_text(cell[step_col]) if step_col else None) or "step"
        ops.setdefault((step, f"{name}@{group}"), {"kind": _kind_of(name), TIME_INFO: info})
    return ops


def _read_bands(con: sqlite3.Connection, path: str, red: Any, ops: Ops) -> None:
    """CommAnalyzerBandwidth into each operator's Communication Bandwidth Info."""
    where = f"{path}: table {BANDWIDTH_TABLE}"
    have = _columns(con, BANDWIDTH_TABLE)
    if have is None:
        red.warnings.append(f"{path}: no table {BANDWIDTH_TABLE}; the rank's bandwidths are left out")
        return
    transport_col = next((c for c in ("transport_type", "band_type") if c in have), "transport_type")
    lost = [c for c in ("hccl_op_name", "group_name", transport_col) if c not in have]
    if lost:
        red.warnings.append(f"{where} has no column {', '.join(lost)}; the rank's bandwidths are left out")
        return
    numbers = [c for c in (*BAND_KEYS, "package_size", "count", "total_duration") if c in have]
    absent = [c for c in (*BAND_KEYS, "package_size", "count", "total_duration") if c not in have]
    if absent:
        red.warnings.append(f"{where} has no column {', '.join(absent)}; taken as 0")
    step_col = "step" if "step" in have else None
    wanted = ["hccl_op_name", "group_name", transport_col, *numbers, *([step_col] if step_col else [])]
    cells = _Cells(red, where)
    bands: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for row in _rows(con, BANDWIDTH_TABLE, wanted):
        cell = dict(zip(wanted, row))
        name, group, transport = _text(cell["hccl_op_name"]), _text(cell["group_name"]), _text(cell[transport_col])
        if name is None or group is None or transport is None or name.startswith(TOTAL):
            continue
        key = ((_text(cell[step_col]) if step_col else None) or "step", f"{name}@{group}")
        if key not in ops:  # an operator with bandwidth rows but no time row
            ops[key] = {"kind": _kind_of(name)}
        num = {c: cells.number(cell[c], c) if c in cell else 0 for c in (*BAND_KEYS, "package_size", "count")}
        num["total_duration"] = (
            cells.number(cell["total_duration"], "total_duration") if "total_duration" in cell else 0
        )
        by_transport = bands.setdefault(key, {})
        part = by_transport.get(transport)
        if part is None:
            part = by_transport[transport] = {label: num[c] for c, label in BAND_KEYS.items()}
            part["Size Distribution"] = {}
        if num["package_size"] == 0 and num["count"] == 0 and num["total_duration"] == 0:
            continue  # msprof's row for a transport without packet sizes
        count = num["count"]
        part["Size Distribution"][repr(float(num["package_size"]))] = [
            int(count) if float(count).is_integer() else count,
            float(num["total_duration"]),
        ]
    for key, op in ops.items():
        got = bands.get(key, {})
        info: dict[str, dict[str, Any]] = {}
        for transport in (*TRANSPORTS, *(t for t in got if t not in TRANSPORTS)):
            part = got.get(transport)
            if part is None:
                info[transport] = {label: 0 for label in BAND_KEYS.values()} | {"Size Distribution": {}}
                continue
            packets = bool(part["Size Distribution"])
            out = {label: _json_float(part[label]) for label in BAND_KEYS.values()}
            if packets and transport not in NO_PACKET_RATIO:
                out["Large Packet Ratio"] = float(part["Large Packet Ratio"])
            out["Size Distribution"] = part["Size Distribution"]
            info[transport] = out
        op[BW_INFO] = info


def _guarded(red: Any, path: str, table: str, read: Any, *args: Any) -> Any:
    """``read(*args)``; a database error (a damaged file) becomes one warning naming the table."""
    try:
        return read(*args)
    except sqlite3.Error as exc:
        red.warnings.append(f"{path}: table {table} cannot be read ({exc}); left out")
        return None


def _read_communication(con: sqlite3.Connection, path: str, red: Any) -> None:
    ops = _guarded(red, path, TIME_TABLE, _read_times, con, path, red) or {}
    _guarded(red, path, BANDWIDTH_TABLE, _read_bands, con, path, red, ops)
    doc: dict[str, dict[str, dict[str, Any]]] = {}
    for (step, key), op in ops.items():
        entry = {part: op[part] for part in (TIME_INFO, BW_INFO) if part in op}
        _step_doc(doc, step)[op["kind"]][key] = entry
    red.communication = doc


_MatrixRow = tuple[str, str, str, str, dict[str, Any], dict[str, Any]]


def _matrix_rows(
    con: sqlite3.Connection, path: str, red: Any, extra: tuple[str, ...] = (), totals: bool = True
) -> Iterator[_MatrixRow] | None:
    """The rows of MATRIX_TABLE that name their operator, group and both ranks (``totals`` False: not the
    TOTAL rows), as (op name, group, src rank, dst rank, the row's cells by column (also the ``extra``
    columns it has), its link: Transport Type and the MATRIX_KEYS numbers). None (a warning) when the table
    or a key column is missing; a missing number column is one warning and 0."""
    where = f"{path}: table {MATRIX_TABLE}"
    have = _columns(con, MATRIX_TABLE)
    if have is None:
        red.warnings.append(f"{path}: no table {MATRIX_TABLE}; the rank's links are left out")
        return None
    lost = [c for c in ("hccl_op_name", "group_name", "src_rank", "dst_rank") if c not in have]
    if lost:
        red.warnings.append(f"{where} has no column {', '.join(lost)}; the rank's links are left out")
        return None
    absent = [c for c in (*MATRIX_KEYS, "transport_type") if c not in have]
    if absent:
        red.warnings.append(f"{where} has no column {', '.join(absent)}; taken as 0")
    optional = [c for c in ("transport_type", *MATRIX_KEYS, *extra) if c in have]
    wanted = ["hccl_op_name", "group_name", "src_rank", "dst_rank", *optional]
    cells = _Cells(red, where)

    def rows() -> Iterator[_MatrixRow]:
        for row in _rows(con, MATRIX_TABLE, wanted):
            cell = dict(zip(wanted, row))
            name, group = _text(cell["hccl_op_name"]), _text(cell["group_name"])
            src, dst = _text(cell["src_rank"]), _text(cell["dst_rank"])
            if name is None or group is None or src is None or dst is None or (not totals and name.startswith(TOTAL)):
                continue
            link: dict[str, Any] = {"Transport Type": _text(cell.get("transport_type")) or ""}
            for col, label in MATRIX_KEYS.items():
                link[label] = _json_float(cells.number(cell[col], col)) if col in cell else 0
            yield name, group, src, dst, cell, link

    return rows()


def _read_matrix(con: sqlite3.Connection, path: str, red: Any) -> None:
    found = _matrix_rows(con, path, red, ("step", "type", "op_name"), totals=False)
    if found is None:
        return
    doc: dict[str, dict[str, dict[str, Any]]] = {}
    for name, group, src, dst, cell, link in found:
        step = _text(cell.get("step")) or "step"
        kind = _text(cell.get("type"))
        kind = kind if kind in KINDS else _kind_of(name)
        op_name = _text(cell.get("op_name"))
        if op_name:
            link["Op Name"] = op_name
        _step_doc(doc, step)[kind].setdefault(f"{name}@{group}", {}).setdefault(f"{src}-{dst}", link)
    red.matrix = doc


def _profiler_db(output: str, rank: int, prefix: str = PROFILER_PREFIX["pytorch"]) -> str | None:
    try:
        names = sorted(os.listdir(output))
    except OSError:
        return None
    for wanted in (f"{prefix}_{rank}.db", f"{prefix}.db"):
        if wanted in names:
            return os.path.join(output, wanted)
    pattern = re.compile(rf"^{prefix}(?:_\d+)?\.db$")
    return next((os.path.join(output, n) for n in names if pattern.match(n)), None)


def _read_meta(path: str, red: Any) -> Any:
    """``parallel_group_info`` of the profiler db's META_DATA (None when it has none)."""
    con = _connect(path, red)
    if con is None:
        return None
    try:
        have = _columns(con, META_TABLE)
        if have is None or "name" not in have or "value" not in have:
            return None
        row = con.execute(f'SELECT value FROM "{META_TABLE}" WHERE name = ?', ("parallel_group_info",)).fetchone()
    except sqlite3.Error as exc:
        red.warnings.append(f"{path}: table {META_TABLE} cannot be read ({exc}); no parallel_group_info from it")
        return None
    finally:
        con.close()
    if row is None or row[0] is None:
        return None
    try:
        return json.loads(row[0])
    except (TypeError, ValueError, RecursionError) as exc:
        red.warnings.append(f"{path}: table {META_TABLE}, parallel_group_info: not valid JSON ({str(exc)[:200]})")
        return None


def read_json(path: str, red: Any) -> Any:
    """A JSON file of a rank (``None`` when absent); what cannot be read is a warning on ``red``."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        red.warnings.append(f"{path}: cannot be read ({exc.strerror or exc})")
        return None
    red.read_bytes += len(raw)
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        red.warnings.append(f"{path}: not valid JSON ({str(exc)[:200]})")
        return None


class _Range:
    """One interval of msprof-analyze's RangeCaculator (``comm``: a CommunicationTimeRange)."""

    __slots__ = ("start_ts", "end_ts", "comm")

    def __init__(self, start: float, end: float, comm: bool = False) -> None:
        self.start_ts, self.end_ts, self.comm = start, end, comm


def _merge(ranges: list[_Range]) -> list[_Range]:
    """``merge_continuous_intervals``: sorts ``ranges`` in place and lengthens the first range of every run of
    overlapping ones in place (msprof-analyze's own objects, which its Bubble sums afterwards)."""
    result: list[_Range] = []
    if not ranges:
        return result
    ranges.sort(key=lambda r: r.start_ts)
    current = ranges[0]
    for r in ranges:
        if r.start_ts <= current.end_ts:
            current.end_ts = max(current.end_ts, r.end_ts)
        else:
            result.append(current)
            current = r
    result.append(current)
    return result


def _pipeline_overlap(communication: list[_Range], compute: list[_Range]) -> tuple[list[_Range], list[_Range]]:
    """``compute_pipeline_overlap``, step for step: (pure communication, free)."""
    free: list[_Range] = []
    pure: list[_Range] = []
    ranges = sorted(communication + compute, key=lambda r: r.start_ts)
    if not ranges:
        return pure, free
    low = ranges.pop(0)
    for r in ranges:
        if low.end_ts - r.start_ts < 0:
            free.append(_Range(low.end_ts, r.start_ts))
            if low.comm:
                pure.append(_Range(low.start_ts, low.end_ts))
            low = r
            continue
        if low.end_ts - r.end_ts < 0:
            if low.comm:
                pure.append(_Range(low.start_ts, r.start_ts))
                low = _Range(low.end_ts, r.end_ts)
            if r.comm:
                low = _Range(low.end_ts, r.end_ts, comm=True)
        else:
            if low.comm:
                pure.append(_Range(low.start_ts, r.start_ts))
                low = _Range(r.end_ts, low.end_ts, comm=True)
            if r.comm:
                low = _Range(r.end_ts, low.end_ts)
    if low.comm:
        pure.append(low)
    return pure, free


COMPUTE_SQL = (
    "select TASK.startNs, TASK.endNs from COMPUTE_TASK_INFO JOIN TASK on TASK.globalTaskId = "
    "COMPUTE_TASK_INFO.globalTaskId"
)  # msprof-analyze's query: the same rows in the same order
COMM_SQL = "select opName, startNs, endNs from COMMUNICATION_OP"


def _interval(row: Any, cells: _Cells, comm: bool = False) -> _Range | None:
    """A task's (start, end) in ns; a NULL or text cell is one warning per table and the row is left out."""
    start, end = row[-2], row[-1]
    for value in (start, end):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            cells.number(value, "startNs / endNs")  # the warning
            return None
    return _Range(start, end, comm)


def _steps_from_tasks(con: sqlite3.Connection, path: str, red: Any) -> None:
    """msprof-analyze's step row of a MindSpore (or msprof) profiler db (see the module docstring)."""
    for table in ("TASK", "COMPUTE_TASK_INFO", "COMMUNICATION_OP"):
        if _columns(con, table) is None:
            red.warnings.append(f"{path}: no table {table}; the rank's steps are left out")
            return
    names: dict[Any, str] = {}
    if _columns(con, "STRING_IDS") is not None:
        names = {i: str(v) for i, v in con.execute("select id, value from STRING_IDS")}
    cells = _Cells(red, f"{path}: table TASK")
    compute = [r for r in (_interval(row, cells) for row in con.execute(COMPUTE_SQL)) if r is not None]
    cells = _Cells(red, f"{path}: table COMMUNICATION_OP")
    communication: list[_Range] = []
    bubble: list[_Range] = []
    for row in con.execute(COMM_SQL):
        r = _interval(row, cells, comm=True)
        if r is None:
            continue
        communication.append(r)
        if names.get(row[0], "").startswith(RECEIVE):
            bubble.append(r)
    compute = _merge(compute)
    communication = _merge(communication)
    pure, free = _pipeline_overlap(communication, compute)
    total = {
        "computing": sum(r.end_ts - r.start_ts for r in compute),
        "communication": sum(r.end_ts - r.start_ts for r in communication),
        "not_ov": sum(r.end_ts - r.start_ts for r in pure),
        "free": sum(r.end_ts - r.start_ts for r in free),
        "bubble": sum(r.end_ts - r.start_ts for r in bubble),  # as the merges left them
    }
    not_ov, bubble_ns = total["not_ov"], total["bubble"]
    stage = total["free"] + total["computing"] + not_ov - bubble_ns
    values = [total["computing"], not_ov, total["communication"] - not_ov, total["communication"], total["free"]]
    values += [stage, bubble_ns, not_ov - bubble_ns, 0]
    red.step_header = list(STEP_COLUMNS.values())
    red.steps = [("", [v / NS_TO_US for v in values])]


def _group_sum(values: Any) -> float:
    """pandas' groupby sum of one group, as msprof-analyze's recipes sum (Kahan-compensated, in row order)."""
    total = compensation = 0.0
    for value in values:
        y = value - compensation
        t = total + y
        compensation = t - total - y
        if compensation != compensation:  # an infinite value: pandas drops the compensation
            compensation = 0.0
        total = t
    return total


def _read_msprof_matrix(con: sqlite3.Connection, path: str, red: Any) -> None:
    """msprof's per-operator CommAnalyzerMatrix integrated as msprof-analyze's db mode does (module docstring)."""
    found = _matrix_rows(con, path, red)
    if found is None:
        return
    grouped: dict[tuple[str, str, str, str, str], list[dict[str, Any]]] = {}
    for name, group, src, dst, _cell, link in found:
        kind = "p2p" if name.lower().startswith(P2P_PREFIXES) else "collective"
        link["Op Name"] = name
        grouped.setdefault((kind, group, name.split("__")[0], src, dst), []).append(link)
    doc: dict[str, dict[str, dict[str, Any]]] = {}
    totals: list[tuple[str, str, str, dict[str, Any]]] = []
    for (kind, group, op_type, src, dst), links in sorted(grouped.items()):
        ordered = sorted(links, key=lambda x: x["Bandwidth(GB/s)"])
        picks = {"top1": ordered[0], "bottom1": ordered[-1], "middle": ordered[len(ordered) // 2]}
        if len(ordered) > 1:
            picks["bottom2"] = ordered[-2]
        if len(ordered) > 2:
            picks["bottom3"] = ordered[-3]
        for stat in MATRIX_PICKS:
            if stat in picks:
                _step_doc(doc, "step")[kind].setdefault(f"{op_type}-{stat}@{group}", {})[f"{src}-{dst}"] = dict(
                    picks[stat]
                )
        size = _group_sum(x["Transit Size(MB)"] for x in links)
        time = _group_sum(x["Transit Time(ms)"] for x in links)
        total = {"Transport Type": links[0]["Transport Type"], "Transit Size(MB)": float(size)}
        total["Transit Time(ms)"] = float(time)
        total["Bandwidth(GB/s)"] = size / time if time else 0  # msprof-analyze divides by 0 there (inf / nan)
        total["Op Name"] = None  # msprof-analyze's total rows have a NULL op_name
        totals.append((kind, f"{op_type}-total@{group}", f"{src}-{dst}", total))
    for kind, key, link_key, total in totals:
        _step_doc(doc, "step")[kind].setdefault(key, {})[link_key] = total
    red.matrix = doc


def msprof_db(folder: str) -> str | None:
    """msprof-analyze's profiler db of a PROF folder: the ``msprof_{timestamp}.db`` of the newest timestamp."""
    try:
        names = [n for n in os.listdir(folder) if _MSPROF_DB.match(n)]
    except OSError:
        return None
    return os.path.join(folder, max(names, key=lambda n: n.split(".")[0].split("_")[-1])) if names else None


def _reduce_from_tasks(red: Any, profiler: str | None, wanted: str, analysis: str) -> Any:
    """A MindSpore or msprof db rank: the steps from ``profiler`` (its tasks), the communication from ``analysis``
    (msprof's communication_analyzer.db), the groups from the profiler db's META_DATA."""
    info = None
    folder = os.path.dirname(analysis) if profiler is None else os.path.dirname(profiler)
    if profiler is None:
        red.warnings.append(f"rank {red.rank}: no {wanted} in {folder}; no steps or parallel_group_info")
    else:
        con = _connect(profiler, red)
        if con is not None:
            try:
                _guarded(red, profiler, "TASK", _steps_from_tasks, con, profiler, red)
            finally:
                con.close()
        info = _read_meta(profiler, red)
    con = _connect(analysis, red)
    if con is None:
        if not os.path.exists(analysis):
            red.warnings.append(
                f"rank {red.rank}: no {MS_ANALYSIS_DB} in {os.path.dirname(analysis)}; no communication"
            )
    else:
        try:
            _read_communication(con, analysis, red)
            _guarded(red, analysis, MATRIX_TABLE, _read_msprof_matrix, con, analysis, red)
        finally:
            con.close()
    meta = read_json(os.path.join(red.path, METADATA_FILE), red)
    if not isinstance(info, dict) and isinstance(meta, dict):
        info = meta.get("parallel_group_info")
    if isinstance(info, dict):
        red.parallel_group_info = info
    if isinstance(meta, dict) and isinstance(meta.get("distributed_args"), dict):
        red.distributed_args = meta["distributed_args"]
    return red


def reduce_db_rank(red: Any, kind: str = "pytorch") -> Any:
    """Fill ``red`` (a :class:`~workbench.core.cluster.reduce.RankReduction` with its rank, path and host)
    from the rank's db export, on the machine this runs on; returns it. ``kind``: the rank's
    :attr:`~workbench.core.cluster.ranks.RankSource.kind` (``"mindspore"``: see the module docstring)."""
    if kind == "mindspore":
        output = os.path.join(red.path, OUTPUT)
        profiler = _profiler_db(output, red.rank, PROFILER_PREFIX["mindspore"])
        wanted = f"{PROFILER_PREFIX['mindspore']}_{red.rank}.db"
        return _reduce_from_tasks(red, profiler, wanted, os.path.join(output, MS_ANALYSIS_DB))
    if kind == "msprof":
        analysis = os.path.join(red.path, PROF_ANALYZE, MS_ANALYSIS_DB)
        return _reduce_from_tasks(red, msprof_db(red.path), "msprof_<timestamp>.db", analysis)
    output = os.path.join(red.path, OUTPUT)
    analysis = os.path.join(output, ANALYSIS_DB)
    con = _connect(analysis, red)
    if con is None:
        if not os.path.exists(analysis):
            red.warnings.append(f"rank {red.rank}: no {ANALYSIS_DB} in {output}; no steps or communication")
    else:
        try:
            _guarded(red, analysis, STEP_TABLE, _read_steps, con, analysis, red)
            _read_communication(con, analysis, red)
            _guarded(red, analysis, MATRIX_TABLE, _read_matrix, con, analysis, red)
        finally:
            con.close()
    meta_path = os.path.join(red.path, METADATA_FILE)
    meta = read_json(meta_path, red)
    profiler = _profiler_db(output, red.rank)
    info = _read_meta(profiler, red) if profiler else None
    if profiler is None:
        red.warnings.append(
            f"rank {red.rank}: no ascend_pytorch_profiler_{red.rank}.db in {output}; "
            f"parallel_group_info taken from {METADATA_FILE}"
        )
    if not isinstance(info, dict) and isinstance(meta, dict):
        info = meta.get("parallel_group_info")
    if isinstance(info, dict):
        red.parallel_group_info = info
    if isinstance(meta, dict) and isinstance(meta.get("distributed_args"), dict):
        red.distributed_args = meta["distributed_args"]
    return red


__all__ = ["reduce_db_rank"]
