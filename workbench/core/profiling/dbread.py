"""The database exports read into the same tables and timeline as the Text export (docs/cann-formats.md §11).

``msprof_{timestamp}.db`` (msprof 8.x), ``ascend_pytorch_profiler[_{rank}].db`` + ``analysis.db``
(torch_npu ``export_type=Db``), ``ascend_mindspore_profiler[_{rank}].db`` (MindSpore). SQLite from the
stdlib, opened READ-ONLY (``file:...?mode=ro`` URI, query_only): nothing is ever written into the user's
file, no journal appears next to it. Tables and columns are found by name (old ``blockDim`` and new
``blockNum`` spellings alike); a missing optional table is a warning naming the file and the table; a
damaged, foreign, locked or unknown-schema file is one :class:`ProfilingDataError` naming the file and the table.

What the db holds becomes what the Text export holds:

- ``ops``: TASK joined with COMPUTE_TASK_INFO (+ TASK_PMU_INFO pivoted into the PMU columns), the
  kernel_details / op_summary columns (no ``Wait Time``: the db has none), and one row per
  COMMUNICATION_OP (task type ``HCCL``, block dim 0, no stream / task id, as kernel_details lists
  them); ``step`` from STEP_TIME by the launching framework op;
- ``api_statistic``: CANN_API aggregated by (level, name) as the tools do (µs, 3 decimals);
- ``memory_record`` / ``operator_memory`` / ``npu_module_mem`` (MEMORY_RECORD / OP_MEMORY /
  NPU_MODULE_MEM: bytes -> MB or KB as torch_npu writes them, ns times under ``(ns)`` names as the CSV
  reader gives them), ``step_trace_time`` (analysis.db StepTraceTime);
- ``communication`` / ``communication_bandwidth`` / ``communication_sizes`` / ``communication_matrix``
  (analysis.db CommAnalyzerTime / CommAnalyzerBandwidth / CommAnalyzerMatrix, or msprof's
  communication_analyzer.db): the columns :mod:`~workbench.core.profiling.tables.commread` gives
  communication.json / communication_matrix.json, a ``rank`` column first, the ratios and torch_npu's
  ``Total Op Info`` computed as the tools compute them for the JSON (the db holds neither);
- the timeline: Python (PYTORCH_API), CANN (CANN_API), Ascend Hardware (every TASK), Communication
  (COMMUNICATION_OP on ``Group {group} Communication``, COMMUNICATION_TASK_INFO on ``Plane {id}``)
  slices and the HostToDevice, torch_to_npu, enqueue_to_dequeue flows, handed to the Chrome-trace
  loader's merge as columns (a :class:`~workbench.core.profiling.timeline.part.Part` filled from
  arrays), so lanes, nesting and flows follow the very same rules. Not in the db, so not shown:
  Overlap Analysis lanes and counters.

Bulk paths are columnar: rows come from SQLite in chunks straight into int64 / float64 arrays (NULL
as a sentinel), string ids are resolved with one vectorised lookup into STRING_IDS (dense take where
the ids are dense, else a binary search: torch_npu starts its own ids at 1<<28 and 2<<28), text is
cleaned once per distinct string, statistics are numpy group-bys, and slice args are built row-wise
by pyarrow. Only a value that is no integer where one is expected takes a per-value path (to name
it, or to read a text written in place of a string id).
"""

from __future__ import annotations

import re
import sqlite3
import threading
import urllib.parse
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from workbench.core.memtrim import release_freed
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.tables.commread import (
    HCCL_TYPES,
    KINDS,
    MATRIX_TABLE,
    P2P_PREFIXES,
    STATISTICS,
    TOTAL_OP,
    comm_frame,
)
from workbench.core.profiling.tables.decimals import compact_frame
from workbench.core.profiling.tables.schemas import OPS
from workbench.core.profiling.timeline import Timeline
from workbench.core.profiling.timeline.assemble import merge_parts
from workbench.core.profiling.timeline.part import Part
from workbench.core.profiling.timeline.scan import ScanError

INVALID = 4294967295
NULL = -(2**63)  # SQL NULL in a fetched integer column
_NULL_SQL = "(-9223372036854775807 - 1)"
INLINE = -(2**62)  # codes <= INLINE: a text stored in place of a string id (INLINE - k = inline text k)
CHUNK = 1 << 16
CONCAT_ROWS = 1 << 17  # rowids per group_concat range
READERS = 2  # threads reading rowid ranges, each with its own read-only connection (SQLite steps without the GIL)
_I64_MAX = np.iinfo(np.int64).max
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
# The task type kernel_details gives a communication operator (samples/torch_npu-kernel_details-arith;
# the db holds none: msprof-analyze's db export writes COMMUNICATION).
COMM_TASK_TYPE = "HCCL"
MB = float(1 << 20)
# Timeline pids (one Part, small numbers; lanes are named by their metadata)
PY_PID, CANN_PID = 1, 2


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


# ---- the database ------------------------------------------------------------------------------------


class _Db:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._uri = "file:" + urllib.parse.quote(str(Path(path).resolve())) + "?mode=ro"
        self._pool: ThreadPoolExecutor | None = None
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        try:
            self.con = self._connect()
            names = [r[0] for r in self.con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")]
        except sqlite3.Error as exc:
            raise self.fail("sqlite_master", exc) from None
        self.tables = {str(n).upper(): str(n) for n in names}
        self.columns: dict[str, list[str]] = {}

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self._uri, uri=True, timeout=0.2, check_same_thread=False)
        con.execute("PRAGMA query_only = ON")
        return con

    def _reader(self) -> sqlite3.Connection:
        """This thread's own read-only connection (a reader thread's; made on its first range)."""
        con = getattr(self._local, "con", None)
        if con is None:
            con = self._local.con = self._connect()
            with self._readers_lock:
                self._readers.append(con)
        return con

    def _ranges(self, table: str, read: Callable[[sqlite3.Connection, int, int], Any], starts: range) -> Iterator:
        """``read(connection, start, start + starts.step)`` of every start, in order, on :data:`READERS`
        threads (a few ranges ahead of the consumer); an SQLite error names the table (the first failing
        range's, as one thread reading them in turn would). ``read`` runs on a reader thread: it must not
        touch process state (``warnings.catch_warnings`` is not thread-safe: parse such things in the caller)."""

        def one(start: int, con: sqlite3.Connection | None = None) -> Any:
            try:
                return read(con or self._reader(), start, start + starts.step)
            except sqlite3.Error as exc:
                raise self.fail(table, exc) from None

        if READERS < 2 or len(starts) < 2:
            yield from (one(start, self.con) for start in starts)
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(READERS, thread_name_prefix="db-read")
        pending = iter(starts)
        futures: deque[Future] = deque(self._pool.submit(one, s) for _, s in zip(range(2 * READERS), pending))
        try:
            while futures:
                got = futures.popleft().result()
                start = next(pending, None)
                if start is not None:
                    futures.append(self._pool.submit(one, start))
                yield got
        finally:
            for f in futures:
                f.cancel()

    def fail(self, table: str, exc: Exception) -> ProfilingDataError:
        text = str(exc)
        if "locked" in text or "busy" in text:
            why = "the database is locked by another program (wait until the profiler has finished writing it)"
        elif "not a database" in text or "malformed" in text or "disk image" in text or "encrypted" in text:
            why = "not a readable SQLite database (damaged or not a profiler export)"
        else:
            why = f"cannot be read ({text.splitlines()[0] if text else 'SQLite error'})"
        return ProfilingDataError(f"{self.path}: table {table}: {why}")

    def has(self, table: str) -> bool:
        return table.upper() in self.tables

    def _quoted(self, table: str) -> str:
        return '"' + self.tables[table.upper()].replace('"', '""') + '"'

    def cols(self, table: str) -> list[str]:
        if table not in self.columns:
            try:
                rows = self.con.execute(f"PRAGMA table_info({self._quoted(table)})").fetchall()
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

    def _found(self, table: str, columns: Mapping[str, Sequence[str]]) -> dict[str, str]:
        found = {k: self.col(table, *names) for k, names in columns.items()}
        return {k: c for k, c in found.items() if c is not None}

    def _rows(self, table: str, sql: str):
        """Chunks of rows of ``sql``; SQLite errors (damage found mid-read, a lock) name the table."""
        try:
            cur = self.con.execute(sql)
            while True:
                rows = cur.fetchmany(CHUNK)
                if not rows:
                    return
                yield rows
        except sqlite3.Error as exc:
            raise self.fail(table, exc) from None

    def ints(
        self,
        table: str,
        columns: Mapping[str, Sequence[str]],
        strings: _Strings | None = None,
        texts: tuple[str, ...] = (),
    ) -> dict[str, np.ndarray]:
        """``{key: int64 array}`` of the columns found (absent ones left out); SQL NULL is :data:`NULL`.

        Integer text (torch_npu declares PYTORCH_API times TEXT) reads as the integer. A value that is
        no integer is an error naming the column, except in the ``texts`` columns (string ids), where
        a text stands for itself (kept in ``strings`` as an inline code) and anything else is missing."""
        found = self._found(table, columns)
        if not found:
            return {}
        keys = list(found)
        exprs = [f'ifnull("{found[k]}", {_NULL_SQL})' for k in keys]
        out = self._concat_ints(table, keys, exprs)
        if out is not None:
            # ranges SQLite could not render as plain integers: read row by row (named or inline texts)
            for at, (lo, hi) in self._redo:
                sql = "SELECT " + ", ".join(exprs) + f" FROM {self._quoted(table)} WHERE rowid >= {lo} AND rowid < {hi}"
                rows = [r for chunk in self._rows(table, sql) for r in chunk]
                block = self._chunk_ints(table, rows, keys, found, strings, texts)
                for i, k in enumerate(keys):
                    out[k][at : at + len(rows)] = block[:, i]
            return out
        pieces = [
            self._chunk_ints(table, rows, keys, found, strings, texts)
            for rows in self._rows(table, "SELECT " + ", ".join(exprs) + f" FROM {self._quoted(table)}")
        ]
        return {
            k: np.concatenate([p[:, i] for p in pieces]) if pieces else np.zeros(0, dtype=np.int64)
            for i, k in enumerate(keys)
        }

    def _chunk_ints(self, table, rows, keys, found, strings, texts) -> np.ndarray:
        try:
            return np.array(rows, dtype=np.int64).reshape(len(rows), len(keys))
        except (TypeError, ValueError, OverflowError):
            return self._slow_ints(table, rows, keys, found, strings, texts)

    def _concat_ints(self, table: str, keys: list[str], exprs: list[str]) -> dict[str, np.ndarray] | None:
        """The columns in rowid ranges, each range one ``group_concat`` per column parsed by numpy (the
        sqlite3 module makes a Python object of every value otherwise: 2x slower) straight into the
        result (sized by the row count: no pieces kept, no concatenation). None where the table has no
        dense rowid. Ranges holding anything but plain integers are listed in ``self._redo``."""
        self._redo: list[tuple[int, tuple[int, int]]] = []
        try:
            lo, hi, n = self.con.execute(
                f"SELECT min(rowid), max(rowid), count(*) FROM {self._quoted(table)}"
            ).fetchone()
        except sqlite3.Error:
            return None  # a view or a WITHOUT ROWID table
        if not n:
            return {k: np.zeros(0, dtype=np.int64) for k in keys}
        if not (isinstance(lo, int) and isinstance(hi, int)) or hi - lo + 1 > 4 * n + CONCAT_ROWS:
            return None
        sql = (
            "SELECT count(*), "
            + ", ".join(f"group_concat({e}, ',')" for e in exprs)
            + f" FROM {self._quoted(table)} WHERE rowid >= ? AND rowid < ?"
        )

        def read(con: sqlite3.Connection, start: int, stop: int) -> tuple:
            return con.execute(sql, (start, stop)).fetchone()

        out = {k: np.empty(n, dtype=np.int64) for k in keys}
        at = 0
        starts = range(lo, hi + 1, CONCAT_ROWS)
        for start, row in zip(starts, self._ranges(table, read, starts)):
            count = row[0]
            if not count:
                continue
            if at + count > len(out[keys[0]]):  # rows written since the count (by another program)
                out = {k: np.concatenate([v[:at], np.empty(max(at, count), dtype=np.int64)]) for k, v in out.items()}
            for k, text in zip(keys, row[1:]):
                values = _plain_ints(text, count)  # here: it sets the warning filters
                if values is None:
                    for k2 in keys:
                        out[k2][at : at + count] = 0
                    self._redo.append((at, (start, start + CONCAT_ROWS)))
                    break
                out[k][at : at + count] = values
            at += count
        return out if at == len(out[keys[0]]) else {k: v[:at].copy() for k, v in out.items()}

    def _slow_ints(self, table, rows, keys, found, strings, texts) -> np.ndarray:
        out = np.empty((len(rows), len(keys)), dtype=np.int64)
        for i, k in enumerate(keys):
            values = [r[i] for r in rows]
            try:
                out[:, i] = np.array(values, dtype=np.int64)
                continue
            except (TypeError, ValueError, OverflowError):
                if k not in texts or strings is None:
                    raise ProfilingDataError(
                        f"{self.path}: table {table}: column {found[k]} holds a value that is not an integer"
                    ) from None
            for j, v in enumerate(values):
                if isinstance(v, int) and -(2**62) < v < 2**63:
                    out[j, i] = v
                elif isinstance(v, str):
                    out[j, i] = strings.inline(v)
                else:
                    out[j, i] = NULL
        return out

    def reals(self, table: str, columns: Mapping[str, Sequence[str]]) -> dict[str, np.ndarray]:
        """``{key: float64 array}``; NULL and anything that is no number are NaN."""
        found = self._found(table, columns)
        if not found:
            return {}
        keys = list(found)
        sql = "SELECT " + ", ".join(f"ifnull(\"{found[k]}\", 'nan')" for k in keys) + f" FROM {self._quoted(table)}"
        first = self._first_rowid(table)
        if first is None:
            parts = [_real_rows(rows, len(keys)) for rows in self._rows(table, sql)]
        else:
            ranged = sql + " WHERE rowid >= ? AND rowid < ?"

            def read(con: sqlite3.Connection, start: int, stop: int) -> np.ndarray:
                return _real_rows(con.execute(ranged, (start, stop)).fetchall(), len(keys))

            parts = list(self._ranges(table, read, range(first[0], first[0] + first[1], CHUNK)))
        block = np.concatenate(parts) if parts else np.zeros((0, len(keys)), dtype=np.float64)
        return {k: np.ascontiguousarray(block[:, i]) for i, k in enumerate(keys)}

    def _first_rowid(self, table: str) -> tuple[int, int] | None:
        """The first rowid and the row count where the rowids run without a gap and a scan of the table goes
        by rowid (no index): ranges of :data:`CHUNK` rowids then are the chunks of :meth:`_rows`. Else None."""
        try:
            if self.con.execute(f"PRAGMA index_list({self._quoted(table)})").fetchone() is not None:
                return None
            lo, hi, n = self.con.execute(
                f"SELECT min(rowid), max(rowid), count(*) FROM {self._quoted(table)}"
            ).fetchone()
        except sqlite3.Error:
            return None  # a view or a WITHOUT ROWID table (or damage: the scan names it)
        if not n or not (isinstance(lo, int) and isinstance(hi, int)) or hi - lo + 1 != n:
            return None
        return lo, n

    def select(self, table: str, columns: Mapping[str, Sequence[str]]) -> dict[str, list]:
        """``{key: values}`` as Python values, for the small tables (META_DATA, NPU_INFO, StepTraceTime)."""
        found = self._found(table, columns)
        if not found:
            return {}
        sql = "SELECT " + ", ".join(f'"{c}"' for c in found.values()) + f" FROM {self._quoted(table)}"
        rows = [r for chunk in self._rows(table, sql) for r in chunk]
        return {k: [r[i] for r in rows] for i, k in enumerate(found)}

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        for con in self._readers:
            con.close()
        self._readers.clear()
        self.con.close()


def _plain_ints(text, count: int) -> np.ndarray | None:
    """``count`` comma-separated plain integers as int64, else None (text, reals, out of range)."""
    if not isinstance(text, str) or not text.isascii():
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            values = np.fromstring(text, dtype=np.int64, sep=",")  # noqa: NPY201 - text mode
        except (ValueError, DeprecationWarning):
            return None
    if len(values) != count or (len(values) and values.max() == _I64_MAX):
        return None  # fromstring saturates out-of-range text (too low a text reads as NULL: missing)
    return values


def _real_rows(rows: list, width: int) -> np.ndarray:
    """Fetched rows as a float64 block; anything that is no number is NaN."""
    try:
        return np.array(rows, dtype=np.float64).reshape(len(rows), width)
    except (TypeError, ValueError, OverflowError):
        return np.array(
            [
                [
                    float(v)
                    if isinstance(v, (int, float)) and abs(v) < 1.8e308
                    else (np.nan if not isinstance(v, str) else _float(v))
                    for v in r
                ]
                for r in rows
            ],
            dtype=np.float64,
        ).reshape(len(rows), width)


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return np.nan


def _invalid(a: np.ndarray) -> np.ndarray:
    """NULL read as the tools' invalid id (what a missing id/number means in these files)."""
    return np.where(a == NULL, INVALID, a) if len(a) and (a == NULL).any() else a


# ---- STRING_IDS --------------------------------------------------------------------------------------


class _Strings:
    """STRING_IDS as arrays: ``rows(ids)`` -> index into :attr:`raw` (-1: unknown), texts cleaned once each."""

    def __init__(self, ids: np.ndarray, raw: list[str | None]) -> None:
        self.raw = raw  # per STRING_IDS row, then the inline texts
        self._inline: dict[str, int] = {}
        order = np.argsort(ids, kind="stable")
        sids = ids[order]
        last = np.ones(len(sids), dtype=bool)  # of equal ids the last row wins (as a dict would)
        last[:-1] = sids[1:] != sids[:-1]
        self._ids, self._row = sids[last], order[last]
        self._dense: np.ndarray | None = None
        if len(self._ids) and self._ids[0] >= 0 and self._ids[-1] < 4 * len(self._ids) + (1 << 20):
            self._dense = np.full(int(self._ids[-1]) + 1, -1, dtype=np.int64)
            self._dense[self._ids] = self._row
        self._clean: tuple[int, list[str], np.ndarray] | None = None

    def inline(self, text: str) -> int:
        """The code of a text found where a string id was expected."""
        k = self._inline.get(text)
        if k is None:
            k = self._inline[text] = len(self._inline)
            self.raw.append(text)
        return INLINE - k

    def intern(self, text: str) -> int:
        """A row index of ``text`` (for values the reader supplies, e.g. a communication task type)."""
        return self.rows(np.array([self.inline(text)], dtype=np.int64))[0]

    def rows(self, codes: np.ndarray) -> np.ndarray:
        codes = np.asarray(codes, dtype=np.int64)
        out = np.full(len(codes), -1, dtype=np.int64)
        n_base = len(self.raw) - len(self._inline)
        inl = codes <= INLINE
        if inl.any():
            out[inl] = n_base + (INLINE - codes[inl])
        norm = ~inl & (codes != NULL)
        if self._dense is not None:
            ok = norm & (codes >= 0) & (codes < len(self._dense))
            out[ok] = self._dense[codes[ok]]
        elif len(self._ids):
            pos = np.clip(np.searchsorted(self._ids, codes), 0, len(self._ids) - 1)
            ok = norm & (self._ids[pos] == codes)
            out[ok] = self._row[pos[ok]]
        return out

    def _cleaned(self) -> tuple[list[str], np.ndarray]:
        """Sorted distinct cleaned texts and, per raw row, its position there (-1: missing)."""
        if self._clean is None or self._clean[0] != len(self.raw):
            clean = [None if s is None or s.strip() in MISSING_TEXT else s.strip() for s in self.raw]
            uniq = sorted({c for c in clean if c is not None})
            at = {c: i for i, c in enumerate(uniq)}
            pos = np.fromiter((at[c] if c is not None else -1 for c in clean), dtype=np.int64, count=len(clean))
            self._clean = (len(self.raw), uniq, pos)
        return self._clean[1], self._clean[2]

    def categorical(self, rows: np.ndarray) -> pd.Categorical:
        """Cleaned texts of ``rows`` as a categorical with sorted object categories (as the CSV reader)."""
        uniq, pos = self._cleaned()
        rows = np.asarray(rows, dtype=np.int64)
        codes = np.where(rows >= 0, pos[np.maximum(rows, 0)], -1) if len(pos) else np.full(len(rows), -1)
        return _categorical(codes, uniq)

    def clean_texts(self, rows: np.ndarray) -> list[str | None]:
        uniq, pos = self._cleaned()
        return [uniq[p] if p >= 0 else None for p in (pos[r] if r >= 0 else -1 for r in rows.tolist())]

    def raw_text(self, row: int) -> str | None:
        return self.raw[row] if row >= 0 else None


def _categorical(codes: np.ndarray, texts: list[str]) -> pd.Categorical:
    """Codes into ``texts`` (sorted) as a categorical of the texts used only."""
    used = np.unique(codes[codes >= 0])
    remap = np.full(len(texts) + 1, -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    return pd.Categorical.from_codes(
        remap[codes], categories=pd.Index([texts[i] for i in used.tolist()], dtype=object), validate=False
    )


def _text_categorical(values: list[str | None]) -> pd.Categorical:
    uniq = sorted({v for v in values if v is not None})
    at = {v: i for i, v in enumerate(uniq)}
    codes = np.fromiter((at[v] if v is not None else -1 for v in values), dtype=np.int64, count=len(values))
    return pd.Categorical.from_codes(codes, categories=pd.Index(uniq, dtype=object), validate=False)


def _nullable(values: np.ndarray, missing: np.ndarray) -> pd.arrays.IntegerArray:
    return pd.arrays.IntegerArray(
        np.where(missing, 0, values).astype(np.int64, copy=False), np.asarray(missing, dtype=bool)
    )


def _last_lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray, default: int) -> np.ndarray:
    """``{key: value}[query]`` with the last of equal keys winning, ``default`` where absent."""
    out = np.full(len(query), default, dtype=np.int64)
    if not len(keys) or not len(query):
        return out
    order = np.argsort(keys, kind="stable")
    k, v = keys[order], values[order]
    last = np.ones(len(k), dtype=bool)
    last[:-1] = k[1:] != k[:-1]
    k, v = k[last], v[last]
    pos = np.clip(np.searchsorted(k, query), 0, len(k) - 1)
    hit = k[pos] == query
    out[hit] = v[pos[hit]]
    return out


def _first_by_start(conn: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct connection ids and, for each, the row with the earliest start."""
    if not len(conn):
        return conn, conn
    order = np.lexsort((np.arange(len(conn)), start, conn))
    c = conn[order]
    first = np.ones(len(c), dtype=bool)
    first[1:] = c[1:] != c[:-1]
    return c[first], order[first]


# ---- reading -----------------------------------------------------------------------------------------


def read_db(path: Path, analysis: Path | None = None, default_device: int = 0, rank: int | None = None) -> DbData:
    """Read one profiler database (and the torch_npu ``analysis.db`` beside it) into a :class:`DbData`.

    ``rank``: the rank the layout names (``profiler_info_{rank}.json``) for the ``rank`` column of the
    communication tables; None: the database's RANK_DEVICE_MAP, else the ``_{rank}`` of its name."""
    db = _Db(path)
    try:
        return _read(db, analysis, default_device, rank)
    except sqlite3.Error as exc:
        raise db.fail("?", exc) from None
    finally:
        db.close()


def _read(db: _Db, analysis: Path | None, default_device: int, rank: int | None = None) -> DbData:
    out = DbData()
    if not db.tables:
        raise ProfilingDataError(
            f"{db.path}: table STRING_IDS: missing; the file holds no tables (not a profiler export)"
        )
    db.require("STRING_IDS", REQUIRED["STRING_IDS"])
    strings = _string_ids(db)
    if not any(db.has(t) for t in ("TASK", "CANN_API", "PYTORCH_API")):
        raise ProfilingDataError(f"{db.path}: table TASK: missing; not a profiler database of a known schema")
    for table in ("TASK", "COMPUTE_TASK_INFO", "CANN_API"):
        if not db.has(table):
            out.warnings.append(f"{db.path}: table {table} missing; what it holds is not shown")
    tasks = _tasks(db, strings) if db.has("TASK") else None
    apis = _cann_api(db, strings) if db.has("CANN_API") else None
    fwk = _pytorch_api(db, strings) if db.has("PYTORCH_API") else None
    steps = _steps(db) if db.has("STEP_TIME") else None
    info = _compute_info(db, strings, tasks, out) if tasks is not None and db.has("COMPUTE_TASK_INFO") else None
    comm = _comm_ops(db, strings, tasks, default_device) if db.has("COMMUNICATION_OP") else None
    comm_tasks = _comm_tasks(db, strings, tasks) if tasks is not None and db.has("COMMUNICATION_TASK_INFO") else None
    if info is not None or (comm is not None and len(comm["start"])):
        out.ops = _ops(db, strings, tasks, info, comm, fwk, steps)
    if apis is not None and len(apis["start"]):
        out.tables["api_statistic"] = _api_statistic(apis, strings)
    release_freed()  # the pages the reads freed (~0.8 GB on 1M tasks) go back before the next big step
    _memory(db, strings, out, msprof=db.path.name.lower().startswith("msprof_"))
    release_freed()
    if tasks is not None:
        out.devices = sorted(int(d) for d in np.unique(tasks["device"]) if d != INVALID)
    if analysis is not None:
        _analysis(analysis, out, rank if rank is not None else _rank(db))
    # the columns no CSV schema knows (PMU metrics, memory sizes, step times) held as the CSV reader
    # holds them: exact thousandths as a compact decimal column
    if out.ops is not None:
        compact_frame(out.ops, keep={c.key for c in OPS})
    for name in ("memory_record", "operator_memory", "npu_module_mem", "step_trace_time"):
        if name in out.tables:
            compact_frame(out.tables[name])
    if db.has("META_DATA"):
        meta = db.select("META_DATA", {"name": ("name",), "value": ("value",)})
        out.info["db_meta_data"] = {str(k): str(v) for k, v in zip(meta.get("name", []), meta.get("value", []))}
    if db.has("NPU_INFO"):
        npu = db.select("NPU_INFO", {"id": ("id", "deviceId"), "name": ("name", "chip")})
        out.info["db_npu_info"] = [{"id": i, "name": n} for i, n in zip(npu.get("id", []), npu.get("name", []))]
    part = _timeline_part(db, strings, tasks, info, apis, fwk, comm, comm_tasks, default_device)
    # the tables read are in the Part (copies) or the ops frame now: released before the merge, whose peak this is
    del tasks, info, apis, fwk, comm, comm_tasks, steps
    release_freed()
    out.timeline = _merge_timeline(db, part, default_device) if part is not None else None
    return out


def _string_ids(db: _Db) -> _Strings:
    """STRING_IDS in one pass (ids and texts of the same rows); rows without an integer id or a text are left out."""
    got = db.select("STRING_IDS", {"id": ("id",), "value": ("value",)})
    pairs = [(k, str(v)) for k, v in zip(got["id"], got["value"]) if isinstance(k, int) and v is not None]
    ids = np.fromiter((k for k, _ in pairs), dtype=np.int64, count=len(pairs)) if pairs else np.zeros(0, np.int64)
    keep = (ids > INLINE) & (ids != NULL)
    return _Strings(ids[keep], [v for (_, v), ok in zip(pairs, keep.tolist()) if ok])


def _tasks(db: _Db, strings: _Strings) -> dict[str, np.ndarray]:
    db.require("TASK", REQUIRED["TASK"])
    keys = ("start", "end", "gid", "device", "conn", "stream", "task", "model", "context", "batch")
    names = ("startNs", "endNs", "globalTaskId", "deviceId", "connectionId", "streamId", "taskId", "modelId")
    got = db.ints(
        "TASK",
        {
            **{k: (n,) for k, n in zip(keys, names)},
            "context": ("contextId",),
            "batch": ("batchId",),
            "type": ("taskType",),
        },
        strings,
        texts=("type",),
    )
    n = len(got["start"])
    tasks = {k: _invalid(got[k]) if k in got else np.full(n, INVALID, dtype=np.int64) for k in keys}
    tasks["type"] = strings.rows(got["type"]) if "type" in got else np.full(n, -1, dtype=np.int64)
    bad = tasks["end"] < tasks["start"]
    if bad.any():
        raise ProfilingDataError(f"{db.path}: table TASK: row {int(np.flatnonzero(bad)[0]) + 1}: endNs before startNs")
    return tasks


def _cann_api(db: _Db, strings: _Strings) -> dict[str, Any]:
    db.require("CANN_API", ("startNs", "endNs", "name"))
    spec = {"start": ("startNs",), "end": ("endNs",), "type": ("type",), "tid": ("globalTid",)}
    got = db.ints("CANN_API", {**spec, "conn": ("connectionId",), "name": ("name",)}, strings, texts=("name",))
    n = len(got["start"])
    api: dict[str, Any] = {
        k: _invalid(got[k]) if k in got else np.full(n, INVALID, dtype=np.int64) for k in (*spec, "conn")
    }
    api["name"] = strings.rows(got["name"])
    types, inverse = np.unique(api["type"], return_inverse=True)
    labels = [LEVELS.get(int(t), str(int(t))) for t in types.tolist()]
    api["level_codes"], api["level_texts"] = inverse.reshape(-1), labels
    return api


def _pytorch_api(db: _Db, strings: _Strings) -> dict[str, np.ndarray]:
    db.require("PYTORCH_API", ("startNs", "endNs", "name"))
    spec = {"start": ("startNs",), "end": ("endNs",), "tid": ("globalTid",), "conn": ("connectionId",)}
    got = db.ints("PYTORCH_API", {**spec, "type": ("type",), "name": ("name",)}, strings, texts=("name",))
    n = len(got["start"])
    api = {k: _invalid(got[k]) if k in got else np.full(n, INVALID, dtype=np.int64) for k in (*spec, "type")}
    api["name"] = strings.rows(got["name"])
    links = {}
    if db.has("CONNECTION_IDS"):
        links = db.ints("CONNECTION_IDS", {"id": ("id",), "conn": ("connectionId",)})
    if set(links) == {"id", "conn"}:
        ok = (links["id"] != NULL) & (links["conn"] != NULL)
        api["link"] = _last_lookup(links["id"][ok], links["conn"][ok], api["conn"], -1)
    else:
        api["link"] = np.full(n, -1, dtype=np.int64)
    types, inverse = np.unique(api["type"], return_inverse=True)
    api["kind"] = np.array([FWK.get(int(t), "op") for t in types.tolist()], dtype=object)[inverse.reshape(-1)]
    return api


def _steps(db: _Db) -> dict[str, np.ndarray] | None:
    got = db.ints("STEP_TIME", {"id": ("id",), "start": ("startNs",), "end": ("endNs",)})
    if set(got) != {"id", "start", "end"}:
        return None
    return {k: _invalid(v) for k, v in got.items()}


def _compute_info(db: _Db, strings: _Strings, tasks, out: DbData) -> dict[str, np.ndarray]:
    """COMPUTE_TASK_INFO rows matched to their TASK row (``row``), in the info table's order."""
    text_keys = ("name", "task_type", "type", "op_state", "hf32", *(k for k, _ in TENSORS))
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
    info = db.ints("COMPUTE_TASK_INFO", cols, strings, texts=text_keys)
    gid = _invalid(info["gid"])
    order = np.argsort(tasks["gid"], kind="stable")
    sorted_gid = tasks["gid"][order]
    pos = np.clip(np.searchsorted(sorted_gid, gid), 0, max(len(order) - 1, 0))
    found = (sorted_gid[pos] == gid) if len(order) else np.zeros(len(gid), dtype=bool)
    if (~found).any():
        out.warnings.append(
            f"{db.path}: table COMPUTE_TASK_INFO: {int((~found).sum())} rows name a globalTaskId "
            "that TASK does not hold; left out"
        )
    keep = np.flatnonzero(found)
    res = {k: (strings.rows(v[keep]) if k in text_keys else _invalid(v[keep])) for k, v in info.items() if k != "gid"}
    res["row"] = order[pos[keep]]
    res["present"] = set(info)  # type: ignore[assignment]
    return res


def _comm_ops(db: _Db, strings: _Strings, tasks, default_device: int) -> dict[str, np.ndarray] | None:
    """COMMUNICATION_OP: one communication operator per row (device and model of its TASK rows)."""
    db.require("COMMUNICATION_OP", ("opName", "startNs", "endNs"))
    spec = {
        "name": ("opName",),
        "start": ("startNs",),
        "end": ("endNs",),
        "conn": ("connectionId",),
        "group": ("groupName",),
        "op_id": ("opId",),
        "data_type": ("dataType",),
        "alg_type": ("algType",),
        "count": ("count",),
        "type": ("opType",),
        "device": ("deviceId",),
    }
    got = db.ints("COMMUNICATION_OP", spec, strings, texts=("name", "group", "alg_type", "type"))
    n = len(got["start"])
    op = {k: _invalid(got[k]) if k in got else np.full(n, INVALID, dtype=np.int64) for k in spec}
    for k in ("name", "group", "alg_type", "type"):
        op[k] = strings.rows(got[k]) if k in got else np.full(n, -1, dtype=np.int64)
    if (op["end"] < op["start"]).any():
        row = int(np.flatnonzero(op["end"] < op["start"])[0]) + 1
        raise ProfilingDataError(f"{db.path}: table COMMUNICATION_OP: row {row}: endNs before startNs")
    model = np.full(n, INVALID, dtype=np.int64)
    if tasks is not None and len(tasks["conn"]):
        conns, first = _first_by_start(tasks["conn"], tasks["start"])
        at = _last_lookup(conns, first, op["conn"], -1)
        hit = at >= 0
        model[hit] = tasks["model"][at[hit]]
        if "device" not in got:
            op["device"][hit] = tasks["device"][at[hit]]
    op["model"] = model
    op["device"] = (
        np.where(op["device"] == INVALID, default_device, op["device"]) if "device" not in got else op["device"]
    )
    return op


def _comm_tasks(db: _Db, strings: _Strings, tasks) -> dict[str, np.ndarray] | None:
    """COMMUNICATION_TASK_INFO matched to TASK (its times, stream, device)."""
    db.require("COMMUNICATION_TASK_INFO", ("globalTaskId",))
    spec = {
        "gid": ("globalTaskId",),
        "name": ("name",),
        "type": ("taskType",),
        "plane": ("planeId",),
        "group": ("groupName",),
        "notify": ("notifyId",),
        "src": ("srcRank",),
        "dst": ("dstRank",),
        "transport": ("transportType",),
        "size": ("size",),
        "data_type": ("dataType",),
        "link": ("linkType",),
    }
    got = db.ints("COMMUNICATION_TASK_INFO", spec, strings, texts=("name", "type", "group"))
    gid = _invalid(got["gid"])
    row = _last_lookup(tasks["gid"], np.arange(len(tasks["gid"])), gid, -1)
    keep = np.flatnonzero(row >= 0)
    n = len(keep)
    res = {k: (_invalid(got[k][keep]) if k in got else np.full(n, INVALID, dtype=np.int64)) for k in spec}
    for k in ("name", "type", "group"):
        res[k] = strings.rows(got[k][keep]) if k in got else np.full(n, -1, dtype=np.int64)
    res["row"] = row[keep]
    return res


def _ops(db: _Db, strings: _Strings, tasks, info, comm, fwk, steps) -> pd.DataFrame:
    """kernel_details / op_summary rows: the compute tasks and the communication operators, by start."""
    parts: list[dict[str, np.ndarray]] = []
    text_keys = ("name", "type", "op_state", "task_type", "hf32", *(k for k, _ in TENSORS))
    if info is not None:
        row = info["row"]
        n = len(row)
        part = {
            k: tasks[k][row] for k in ("device", "model", "task", "stream", "start", "end", "conn", "gid", "context")
        }
        for k in text_keys:
            part[k] = info[k] if k in info else np.full(n, -1, dtype=np.int64)
        for k in ("block", "mix"):
            part[k] = info[k] if k in info else np.full(n, INVALID, dtype=np.int64)
        part["task_row"] = row
        parts.append(part)
    if comm is not None:
        n = len(comm["start"])
        none = np.full(n, -1, dtype=np.int64)
        inv = np.full(n, INVALID, dtype=np.int64)
        part = {"device": comm["device"], "model": comm["model"], "task": inv, "stream": inv}
        part.update(
            {"start": comm["start"], "end": comm["end"], "conn": comm["conn"], "gid": np.full(n, NULL), "context": inv}
        )
        part.update({k: none for k in text_keys})
        part.update({"name": comm["name"], "type": comm["type"]})
        part["task_type"] = np.full(n, strings.intern(COMM_TASK_TYPE), dtype=np.int64)
        part["block"], part["mix"] = np.zeros(n, dtype=np.int64), inv
        part["task_row"] = np.full(n, len(tasks["start"]) if tasks is not None else 0, dtype=np.int64)
        parts.append(part)
    cols = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    # in task order (the Text export lists the tasks by start)
    order = np.lexsort((np.arange(len(cols["start"])), cols["task_row"], cols["start"]))
    cols = {k: v[order] for k, v in cols.items()}
    n = len(order)

    def ints(values: np.ndarray, invalid_missing: bool = True) -> pd.arrays.IntegerArray:
        return _nullable(values, values == INVALID if invalid_missing else np.zeros(len(values), dtype=bool))

    present = info["present"] if info is not None else set()
    frame: dict[str, object] = {}
    frame["device"] = ints(cols["device"])
    frame["step"] = _step_of(cols["conn"], cols["start"], fwk, steps)
    frame["model_id"] = ints(cols["model"], invalid_missing=False)
    frame["task_id"] = ints(cols["task"])
    frame["stream_id"] = ints(cols["stream"])
    for k in ("name", "type", "op_state", "task_type"):
        frame[k] = strings.categorical(cols[k])
    frame["start_ns"] = pd.array(cols["start"], dtype="Int64")
    frame["duration_us"] = (cols["end"] - cols["start"]).astype(np.float64) / 1000.0
    for key, src in (("block_dim", "block"), ("mix_block_dim", "mix")):
        if src in present or (comm is not None and src == "block"):
            frame[key] = ints(cols[src])
    frame["hf32"] = strings.categorical(cols["hf32"])
    for key, _ in TENSORS:
        frame[key] = strings.categorical(cols[key])
    frame["context_id"] = _context_ids(cols["context"])
    frame = {
        k: v
        for k, v in frame.items()
        if not (isinstance(v, pd.Categorical) and k in ("op_state", "hf32") and v.isna().all() and k not in present)
    }
    if steps is None:
        frame.pop("step")
    if db.has("TASK_PMU_INFO") and info is not None:
        frame.update(_pmu(db, strings, cols["gid"]))
    return pd.DataFrame(frame, index=pd.RangeIndex(n))


def _context_ids(ctx: np.ndarray) -> pd.Categorical:
    """Context ids as the CSV reader reads the Context ID column: text, missing where invalid."""
    valid = ctx != INVALID
    uniq = np.unique(ctx[valid])
    labels = [str(int(u)) for u in uniq.tolist()]
    order = sorted(range(len(labels)), key=labels.__getitem__)
    rank = np.empty(len(labels), dtype=np.int64)
    rank[order] = np.arange(len(labels))
    codes = np.full(len(ctx), -1, dtype=np.int64)
    if len(uniq):
        codes[valid] = rank[np.searchsorted(uniq, ctx[valid])]
    return pd.Categorical.from_codes(codes, categories=pd.Index(sorted(labels), dtype=object), validate=False)


def _step_of(conn: np.ndarray, start: np.ndarray, fwk, steps) -> pd.arrays.IntegerArray:
    """The step of each row: the STEP_TIME range holding the framework op that launched it (else its start)."""
    n = len(conn)
    if steps is None or not len(steps["id"]):
        return _nullable(np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool))
    when = start.copy()
    if fwk is not None:
        ops = (fwk["link"] >= 0) & (fwk["kind"] == "op")
        launched = _last_lookup(fwk["link"][ops], fwk["start"][ops], conn, NULL)
        when = np.where(launched != NULL, launched, when)
    order = np.argsort(steps["start"], kind="stable")
    s, e, ids = steps["start"][order], steps["end"][order], steps["id"][order]
    at = np.searchsorted(s, when, side="right") - 1
    ok = (at >= 0) & (when <= e[np.clip(at, 0, None)])
    return _nullable(np.where(ok, ids[np.clip(at, 0, None)], 0), ~ok)


def _pmu(db: _Db, strings: _Strings, gids: np.ndarray) -> dict[str, object]:
    got = db.reals("TASK_PMU_INFO", {"gid": ("globalTaskId",), "name": ("name",), "value": ("value",)})
    if set(got) != {"gid", "name", "value"} or not len(gids):
        return {}
    g, nm, value = got["gid"], got["name"], got["value"]
    ok = np.isfinite(g) & np.isfinite(nm) & (g == np.round(g)) & (nm == np.round(nm)) & (np.abs(g) < 2**53)
    ok &= np.abs(nm) < 2**53
    g, nm, value = g[ok].astype(np.int64), nm[ok].astype(np.int64), value[ok]
    at = _last_lookup(gids, np.arange(len(gids)), g, -1)
    label_row = strings.rows(nm)
    ok = (at >= 0) & (label_row >= 0)
    at, label_row, value = at[ok], label_row[ok], value[ok]
    uniq_rows, first, inverse = np.unique(label_row, return_index=True, return_inverse=True)
    by_first = np.argsort(first, kind="stable")  # columns in the order the table first names them
    table = np.full((len(uniq_rows), len(gids)), np.nan)
    table[inverse.reshape(-1), at] = value
    out: dict[str, object] = {}
    for k in by_first.tolist():
        label = strings.raw_text(int(uniq_rows[k]))
        if label is None:
            continue
        col = table[k]
        present = ~np.isnan(col)
        if INTEGER_HEADER.search(label) and bool(np.all(col[present] == np.round(col[present]))):
            out[label] = _nullable(np.where(present, col, 0).astype(np.int64), ~present)
        else:
            out[label] = col
    return out


def _r3(x: np.ndarray) -> np.ndarray:
    """Python's round (correctly rounded, as the tools' 3 decimals), per value (one per group)."""
    return np.array([round(float(v), 3) for v in x.tolist()], dtype=np.float64)


def _api_statistic(api, strings: _Strings) -> pd.DataFrame:
    """By (level, name), sorted by total time then key, in µs (3 decimals) like api_statistic.csv."""
    names = strings.clean_texts(np.unique(api["name"]))
    name_rows = np.unique(api["name"])
    name_code = np.searchsorted(name_rows, api["name"])
    key = api["level_codes"].astype(np.int64) * (len(name_rows) + 1) + name_code
    keys, group = np.unique(key, return_inverse=True)
    group = group.reshape(-1)
    d = api["end"] - api["start"]
    count = np.bincount(group, minlength=len(keys)).astype(np.int64)
    total = np.zeros(len(keys), dtype=np.int64)
    np.add.at(total, group, d)
    lo = np.full(len(keys), np.iinfo(np.int64).max, dtype=np.int64)
    hi = np.full(len(keys), np.iinfo(np.int64).min, dtype=np.int64)
    np.minimum.at(lo, group, d)
    np.maximum.at(hi, group, d)
    sq = np.bincount(group, weights=(d / 1000) ** 2, minlength=len(keys))  # in row order, as the tools add
    level_of = [api["level_texts"][int(k // (len(name_rows) + 1))] for k in keys.tolist()]
    name_of = [names[int(k % (len(name_rows) + 1))] for k in keys.tolist()]
    rows = sorted(
        range(len(keys)), key=lambda i: (-int(total[i]), "" if level_of[i] is None else level_of[i], name_of[i] or "")
    )
    idx = np.array(rows, dtype=np.int64)
    avg = total[idx] / count[idx] / 1000
    return pd.DataFrame(
        {
            "level": _text_categorical([level_of[i] for i in rows]),
            "name": _text_categorical([name_of[i] for i in rows]),
            "total_us": total[idx] / 1000,
            "count": pd.array(count[idx], dtype="Int64"),
            "avg_us": _r3(avg),
            "min_us": lo[idx] / 1000,
            "max_us": hi[idx] / 1000,
            "variance": _r3(np.maximum(0.0, sq[idx] / count[idx] - avg * avg)),
        }
    )


# ---- memory ------------------------------------------------------------------------------------------


def _ns(a: np.ndarray) -> pd.arrays.IntegerArray:
    """A time column in ns (NULL missing) as the CSV reader's ``(ns)`` columns."""
    return _nullable(a, a == NULL)


def _per(a: np.ndarray, unit: float) -> np.ndarray:
    """Bytes (or ns) per ``unit`` as float, NaN where NULL: torch_npu's ``bytes / 2**20`` MB, exact."""
    return np.where(a == NULL, np.nan, a / unit)


def _devices(dev: np.ndarray) -> pd.Categorical:
    """Device ids as the tools' ``NPU:{id}`` text."""
    ok = dev != NULL
    uniq = np.unique(dev[ok])
    labels = [f"NPU:{int(d)}" for d in uniq.tolist()]
    order = sorted(range(len(labels)), key=labels.__getitem__)
    rank = np.empty(len(labels), dtype=np.int64)
    rank[order] = np.arange(len(labels))
    codes = np.full(len(dev), -1, dtype=np.int64)
    if len(uniq):
        codes[ok] = rank[np.searchsorted(uniq, dev[ok])]
    return pd.Categorical.from_codes(codes, categories=pd.Index(sorted(labels), dtype=object), validate=False)


def _taker(got: dict[str, np.ndarray]) -> Callable[[str], np.ndarray]:
    """``take(key)``: the column read, removed from ``got`` (NULLs where the table lacks it)."""
    n = len(next(iter(got.values())))

    def take(key: str) -> np.ndarray:
        return got.pop(key) if key in got else np.full(n, NULL, dtype=np.int64)

    return take


def _memory(db: _Db, strings: _Strings, out: DbData, msprof: bool) -> None:
    """memory_record / operator_memory / npu_module_mem with the columns the CSV reader gives those files."""
    if db.has("MEMORY_RECORD"):
        got = db.ints(
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
            strings,
            texts=("component",),
        )
        if {"component", "ts", "alloc"} <= set(got):
            take = _taker(got)  # each read column released as its frame column is made
            out.tables["memory_record"] = pd.DataFrame(
                {
                    "Component": strings.categorical(strings.rows(take("component"))),
                    "Timestamp(ns)": _ns(take("ts")),
                    "Total Allocated(MB)": _per(take("alloc"), MB),
                    "Total Reserved(MB)": _per(take("res"), MB),
                    "Total Active(MB)": _per(take("active"), MB),
                    "Stream Ptr": _ns(take("ptr")),
                    "Device Type": _devices(take("dev")),
                },
                copy=False,  # the columns made here, not copied into one float block
            )
    if db.has("OP_MEMORY"):
        keys = {
            "name": ("name",),
            "size": ("size",),
            "alloc_t": ("allocationTime",),
            "release_t": ("releaseTime",),
            "active_t": ("activeReleaseTime",),
            "dur": ("duration",),
            "active_dur": ("activeDuration",),
            "a_alloc": ("allocationTotalAllocated",),
            "a_res": ("allocationTotalReserved",),
            "a_active": ("allocationTotalActive",),
            "r_alloc": ("releaseTotalAllocated",),
            "r_res": ("releaseTotalReserved",),
            "r_active": ("releaseTotalActive",),
            "ptr": ("streamPtr",),
            "dev": ("deviceId",),
        }
        got = db.ints("OP_MEMORY", keys, strings, texts=("name",))
        if {"name", "size", "alloc_t"} <= set(got):
            take = _taker(got)
            out.tables["operator_memory"] = pd.DataFrame(
                {
                    "Name": strings.categorical(strings.rows(take("name"))),
                    "Size(KB)": _per(take("size"), 1024.0),
                    "Allocation Time(ns)": _ns(take("alloc_t")),
                    "Release Time(ns)": _ns(take("release_t")),
                    "Active Release Time(ns)": _ns(take("active_t")),
                    "Duration(us)": _per(take("dur"), 1000.0),
                    "Active Duration(us)": _per(take("active_dur"), 1000.0),
                    "Allocation Total Allocated(MB)": _per(take("a_alloc"), MB),
                    "Allocation Total Reserved(MB)": _per(take("a_res"), MB),
                    "Allocation Total Active(MB)": _per(take("a_active"), MB),
                    "Release Total Allocated(MB)": _per(take("r_alloc"), MB),
                    "Release Total Reserved(MB)": _per(take("r_res"), MB),
                    "Release Total Active(MB)": _per(take("r_active"), MB),
                    "Stream Ptr": _ns(take("ptr")),
                    "Device Type": _devices(take("dev")),
                },
                copy=False,
            )
    if db.has("NPU_MODULE_MEM"):
        got = db.ints(
            "NPU_MODULE_MEM",
            {"module": ("moduleId",), "ts": ("timestampNs",), "res": ("totalReserved",), "dev": ("deviceId",)},
        )
        if {"module", "ts", "res"} <= set(got):
            modules = _enum(db, "ENUM_MODULE")
            null = np.full(len(got["ts"]), NULL, dtype=np.int64)
            names = [modules.get(int(m), str(int(m))) if m != NULL else None for m in got["module"].tolist()]
            dev = got.get("dev", null)
            frame: dict[str, object] = {}
            if msprof:  # msprof's npu_module_mem_*.csv: Device_id first, KB
                frame["Device_id"] = _nullable(dev, dev == NULL)
            frame["Component"] = _text_categorical(names)
            frame["Timestamp(ns)"] = _ns(got["ts"])
            if msprof:
                frame["Total Reserved(KB)"] = _per(got["res"], 1024.0)
            else:  # torch_npu's npu_module_mem.csv (NpuModuleMemoryBean): MB
                frame["Total Reserved(MB)"] = _per(got["res"], MB)
            frame["Device"] = _devices(dev)
            out.tables["npu_module_mem"] = pd.DataFrame(frame)


def _enum(db: _Db, table: str) -> dict[int, str]:
    if not db.has(table):
        return {}
    got = db.select(table, {"id": ("id",), "name": ("name",)})
    return {
        int(i): str(n) for i, n in zip(got.get("id", []), got.get("name", [])) if isinstance(i, int) and n is not None
    }


def _rank(db: _Db) -> int | None:
    """The rank of a framework database: RANK_DEVICE_MAP's rankId (torch_npu writes it with a rank),
    else the ``_{rank}`` of its name (``ascend_pytorch_profiler_3.db``; msprof's number is a time)."""
    if db.has("RANK_DEVICE_MAP"):
        try:
            got = db.select("RANK_DEVICE_MAP", {"rank": ("rankId",)})
        except ProfilingDataError:  # only the rank column is at stake: the name says it, or nothing
            got = {}
        ranks = {v for v in got.get("rank", []) if isinstance(v, int) and 0 <= v <= _I64_MAX}
        if len(ranks) == 1:
            return ranks.pop()
    m = re.search(r"_(\d+)\.db$", db.path.name)
    if m and not db.path.name.lower().startswith("msprof_") and len(m.group(1)) < 10:
        return int(m.group(1))
    return None


MSPROF_ANALYSIS = "communication_analyzer.db"  # msprof's PROF_*/analyze/ (MindSpore copies it to its output)


def _analysis(path: Path, out: DbData, rank: int | None) -> None:
    """torch_npu's analysis.db: StepTraceTime and the communication analysis (CommAnalyzer*); or msprof's
    communication_analyzer.db (the CommAnalyzer* tables only)."""
    try:
        db = _Db(path)
    except ProfilingDataError as exc:
        out.warnings.append(f"{exc}; ignored")
        return
    try:
        _step_trace(db, out)
        try:
            _communication(db, out, rank)
        except ProfilingDataError as exc:
            out.warnings.append(f"{exc}; no communication shown")
    finally:
        db.close()


def _step_trace(db: _Db, out: DbData) -> None:
    path = db.path
    if not db.has("StepTraceTime"):
        if path.name.lower() != MSPROF_ANALYSIS:  # msprof's communication analysis holds no step trace
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
    try:
        got = db.select("StepTraceTime", keys)
    except ProfilingDataError as exc:
        out.warnings.append(f"{exc}; no step trace shown")
        return
    if "Step" not in got:
        out.warnings.append(f"{path}: table StepTraceTime: no column step; no step trace shown")
        return
    frame: dict[str, object] = {}  # torch_npu's step_trace_time.csv has no Device_id (the 2025 layout)
    steps = [int(s) if str(s).strip().isdigit() else None for s in got["Step"]]
    frame["Step"] = _nullable(
        np.asarray([s or 0 for s in steps], dtype=np.int64), np.asarray([s is None for s in steps], dtype=bool)
    )
    for k in keys:
        if k != "Step" and k in got:
            frame[k] = np.asarray(
                [float(v) if isinstance(v, (int, float)) else np.nan for v in got[k]], dtype=np.float64
            )
    out.tables["step_trace_time"] = pd.DataFrame(frame)


# ---- analysis.db: the communication analysis (CommAnalyzer*) ------------------------------------------
#
# The db form of communication.json / communication_matrix.json (docs/cann-formats.md §4.2, §11), read into
# the very tables commread gives the two files. Two variants: torch_npu's analysis.db (``step`` and ``type``
# columns, the matrix already integrated into top1 ... total with the picked op in ``op_name``) and msprof's
# / MindSpore's communication_analyzer.db (neither column, one matrix entry per op). Neither has the ratios
# nor torch_npu's ``Total Op Info``: both are computed as msprof / torch_npu compute them for the JSON.

COMM_TIME, COMM_BANDWIDTH, COMM_MATRIX = COMM_TABLES = (
    "CommAnalyzerTime",
    "CommAnalyzerBandwidth",
    "CommAnalyzerMatrix",
)
_OP_KEY = {"hccl": ("hccl_op_name",), "group": ("group_name",), "step": ("step",), "type": ("type",)}
# key -> the column's spellings (torch_npu's first; msprof-analyze's cluster tables: elapsed_time, band_type)
_TIME_COLUMNS: dict[str, tuple[str, ...]] = {
    "start": ("start_timestamp",),
    "elapse_ms": ("elapse_time", "elapsed_time"),
    "transit_ms": ("transit_time",),
    "wait_ms": ("wait_time",),
    "sync_ms": ("synchronization_time",),
    "idle_ms": ("idle_time",),
}
_TIME_RATIOS: dict[str, tuple[str, ...]] = {
    "wait_ratio": ("wait_time_ratio",),
    "sync_ratio": ("synchronization_time_ratio",),
}
_BAND_COLUMNS: dict[str, tuple[str, ...]] = {
    "transport": ("transport_type", "band_type"),
    "size_mb": ("transit_size",),
    "time_ms": ("transit_time",),
    "bandwidth_gbs": ("bandwidth",),
    "large_packet_ratio": ("large_packet_ratio",),
    "packet_mb": ("package_size",),
    "count": ("count",),
    "packet_ms": ("total_duration",),
}
_MATRIX_COLUMNS: dict[str, tuple[str, ...]] = {
    "src": ("src_rank",),
    "dst": ("dst_rank",),
    "transport": ("transport_type", "band_type"),
    "size_mb": ("transit_size",),
    "time_ms": ("transit_time",),
    "bandwidth_gbs": ("bandwidth",),
}
_COMM_SHOWS = {
    COMM_TIME: "the communication ops' times",
    COMM_BANDWIDTH: "the bandwidth per transport",
    COMM_MATRIX: "the rank-to-rank matrix",
}
_TIME_FIELDS = ("elapse_ms", "transit_ms", "wait_ms", "sync_ms", "idle_ms")
_STEP_TEXT = re.compile(r"^(?:step)?(\d*)$", re.IGNORECASE)
_EPS = 1e-15  # torch_npu / msprof: a ratio over less than this is 0


class _CommRead:
    """One CommAnalyzer* table as Python values by key, and what was missing or unreadable in it."""

    def __init__(
        self,
        db: _Db,
        table: str,
        columns: Mapping[str, Sequence[str]],
        out: DbData,
        optional: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        """``optional``: columns one variant has and the other not (no warning where absent)."""
        self.db, self.table, self.out = db, table, out
        self.bad: dict[str, int] = {}
        spec = {**_OP_KEY, **columns, **(optional or {})}
        found = db._found(table, spec)
        self.has_step, self.has_type = "step" in found, "type" in found
        self.torch_npu = self.has_step or self.has_type  # torch_npu's analysis.db (else msprof's variant)
        spelled = {k: v[0] for k, v in {**_OP_KEY, **columns}.items()}
        expected = [k for k in ("group", *columns) if k not in found]
        if self.torch_npu:  # torch_npu's variant has both
            expected += [k for k in ("step", "type") if k not in found]
        for k in expected:
            out.warnings.append(f"{db.path}: table {table}: no column {spelled[k]}; left empty")
        self.values = db.select(table, spec) if "hccl" in found else None
        self.columns = found
        self.n = len(self.values["hccl"]) if self.values is not None else 0

    def get(self, key: str) -> list:
        return self.values.get(key, [None] * self.n) if self.values is not None else []

    def texts(self, key: str) -> list[str | None]:
        return [_comm_text(v) for v in self.get(key)]

    def numbers(self, key: str) -> list[float]:
        out = []
        for v in self.get(key):
            x = _comm_number(v)
            if x is None:
                self.bad[key] = self.bad.get(key, 0) + 1
                x = np.nan
            out.append(x)
        return out

    def ints(self, key: str) -> list[int | None]:
        out: list[int | None] = []
        for v in self.get(key):
            x = _comm_int(v)
            if x is None and v is not None and v != "":
                self.bad[key] = self.bad.get(key, 0) + 1
            out.append(x)
        return out

    def epoch_ns(self, key: str) -> list[int | None]:
        out: list[int | None] = []
        for v in self.get(key):
            ns = _us_to_ns(v)
            if ns is None and v is not None:
                self.bad[key] = self.bad.get(key, 0) + 1
            out.append(ns)
        return out

    def say(self) -> None:
        if self.values is None:
            self.out.warnings.append(f"{self.db.path}: table {self.table}: no column hccl_op_name; table not read")
        for key, n in self.bad.items():
            self.out.warnings.append(
                f"{self.db.path}: table {self.table}: column {self.columns[key]}: {n} of {self.n} values are "
                "not numbers; left empty"
            )


def _comm_text(v: Any) -> str | None:
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return repr(v) if isinstance(v, float) else str(v)


def _comm_number(v: Any) -> float | None:
    """A number as float (NULL: NaN); None where it is none."""
    if v is None:
        return np.nan
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return None
    return None


def _comm_int(v: Any) -> int | None:
    """An integer (a rank, a count: TEXT ``'3'`` in torch_npu's matrix) or None."""
    if isinstance(v, int) and -_I64_MAX <= v <= _I64_MAX:
        return v
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**63:
        return int(v)
    if isinstance(v, str) and re.fullmatch(r"\s*[+-]?\d{1,18}\s*", v):
        return int(v)
    return None


def _us_to_ns(v: Any) -> int | None:
    """µs since the epoch -> exact int ns, as commread reads the JSON number the tool wrote from the same
    float: its shortest text (``repr``), half up beyond the ns digit; an integer or a numeric text exactly."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int):
        ns = v * 1000
    else:
        text = repr(v) if isinstance(v, float) else v if isinstance(v, str) else None
        if text is None:
            return None
        try:
            d = Decimal(text.strip())
            if not d.is_finite():
                return None
            ns = int((d * 1000).to_integral_value(rounding=ROUND_HALF_UP))
        except (ArithmeticError, ValueError):  # decimal's InvalidOperation, Overflow
            return None
    return ns if -_I64_MAX <= ns <= _I64_MAX else None


def _comm_step(v: Any) -> int | None:
    """``step12`` / ``12`` -> 12; ``step`` (a run without steps), empty, NULL -> None."""
    if isinstance(v, int) and 0 <= v <= _I64_MAX:
        return v
    m = _STEP_TEXT.match(str(v).strip()) if isinstance(v, str) else None
    if m and m.group(1) and int(m.group(1)) <= _I64_MAX:
        return int(m.group(1))
    return None


def _comm_kind(kind: str | None, op: str) -> str:
    """The ``type`` column's p2p / collective, else by the op's name as msprof-analyze splits them."""
    k = (kind or "").strip().lower()
    if k in KINDS:
        return k
    return "p2p" if op.lower().startswith(P2P_PREFIXES) else "collective"


def _op_key(name: str, group: str | None) -> str:
    return name if group is None else f"{name}@{group}"


def _split_key(op: str) -> tuple[str, str | None]:
    """(name before the first ``@``, group after the last), as commread splits a JSON key."""
    if "@" not in op:
        return op, None
    return op.split("@")[0], op.split("@")[-1]


def _is_total(name: str) -> bool:
    return name.strip().lower().startswith("total")


def _ratio(a: float, b: float) -> float:
    """msprof's / torch_npu's ratio: 0 below 1e-15, else rounded to 4 decimals."""
    return 0.0 if abs(b) < _EPS else round(a / b, 4)


def _bounded(n: int) -> int | None:
    return n if -_I64_MAX <= n <= _I64_MAX else None


def _sum(values: list[float]) -> float:
    """A running sum in row order (the tools' ``+=``; not pairwise, not compensated)."""
    acc = 0.0
    for v in values:
        acc += v
    return acc


def _matrix_statistic(group_op: str) -> tuple[str | None, str]:
    """(op type, statistic) of a matrix entry: ``allreduce-top1@g`` -> (allreduce, top1); an msprof
    per-op entry -> (its type word, ``op``); a total -> (None, ``all``)."""
    name = group_op.split("@")[0]
    if _is_total(group_op):
        return None, "all"
    head, _, tail = name.rpartition("-")
    if head and tail in STATISTICS:
        return head, tail
    m = HCCL_TYPES.search(name.lower())
    return (m.group() if m else name.split("__")[0]), "op"


def _ordered(rows: list[dict], read: _CommRead) -> list[dict]:
    """torch_npu's JSON order: by step, p2p before collective, the table's order within (msprof's
    variant: the table's order)."""
    if not read.torch_npu:
        return rows
    kind_rank = {"p2p": 0, "collective": 1}
    return sorted(
        rows,
        key=lambda r: (-1 if r["step"] is None else r["step"], kind_rank.get(r["kind"], 2) if read.has_type else 0),
    )


def _comm_frame(rows: list[dict], columns: list[str], rank: int | None) -> pd.DataFrame:
    """The columns commread gives, with the ``rank`` column first as the build adds it to the JSON's tables."""
    return comm_frame([{**r, "rank": rank} for r in rows], ["rank", *columns])


def _communication(db: _Db, out: DbData, rank: int | None) -> None:
    """CommAnalyzerTime / CommAnalyzerBandwidth / CommAnalyzerMatrix into the tables ``communication``,
    ``communication_bandwidth``, ``communication_sizes`` and ``communication_matrix`` (commread's columns).
    None of the three: no communication (a run without it); some: the missing ones named in the warnings."""
    present = [t for t in COMM_TABLES if db.has(t)]
    if not present:
        return
    for table in COMM_TABLES:
        if table not in present:
            out.warnings.append(f"{db.path}: table {table} missing; {_COMM_SHOWS[table]} not shown")
    if COMM_TIME in present:
        _comm_time(db, out, rank)
    if COMM_BANDWIDTH in present:
        _comm_bandwidth(db, out, rank)
    if COMM_MATRIX in present:
        _comm_matrix(db, out, rank)


def _op_rows(read: _CommRead) -> list[dict]:
    """step, kind, op, name, group, total of every row (the table's order), plus ``at`` (its row)."""
    names, groups, kinds = read.texts("hccl"), read.texts("group"), read.texts("type")
    steps = [_comm_step(v) for v in read.get("step")]
    rows = []
    for i in range(read.n):
        op = _op_key(names[i] or "", groups[i])
        name, group = _split_key(op)
        rows.append(
            {
                "at": i,
                "step": steps[i],
                "kind": _comm_kind(kinds[i], op),
                "op": op,
                "name": name,
                "group": group,
                "total": _is_total(op),
            }
        )
    return rows


def _with_totals(rows: list[dict], read: _CommRead, total_of) -> list[dict]:
    """torch_npu's ``Total Op Info`` after the ops of each (step, kind) that has none in the table:
    ``total_of((step, kind), ops) -> rows`` (torch_npu's Text export writes it; its Db export does not)."""
    if not read.torch_npu:
        return rows
    blocks: dict[tuple, list[dict]] = {}
    for r in rows:
        blocks.setdefault((r["step"], r["kind"]), []).append(r)
    out: list[dict] = []
    for (step, kind), block in blocks.items():
        out += block
        ops = [r for r in block if not r["total"]]
        if ops and len(ops) == len(block):
            base = {"step": step, "kind": kind, "op": TOTAL_OP, "name": TOTAL_OP, "group": None, "total": True}
            out += [{**base, **r} for r in total_of((step, kind), ops)]
    return out


def _comm_time(db: _Db, out: DbData, rank: int | None) -> None:
    # the ratios: msprof leaves them out of the db (cluster tables have them): computed as msprof does
    read = _CommRead(db, COMM_TIME, _TIME_COLUMNS, out, optional=_TIME_RATIOS)
    if read.values is None:
        read.say()
        return
    rows = _op_rows(read)
    starts = read.epoch_ns("start")
    numbers = {k: read.numbers(k) for k in _TIME_FIELDS}
    ratios = {k: read.numbers(k) for k in _TIME_RATIOS if k in read.columns}
    for r in rows:
        i = r["at"]
        r["start_ns"] = starts[i]
        for k in _TIME_FIELDS:
            r[k] = numbers[k][i]
        if "wait_ratio" in ratios:
            r["wait_ratio"] = ratios["wait_ratio"][i]
        else:
            r["wait_ratio"] = _ratio(r["wait_ms"], r["wait_ms"] + r["transit_ms"])
        if "sync_ratio" in ratios:
            r["sync_ratio"] = ratios["sync_ratio"][i]
        else:
            r["sync_ratio"] = _ratio(r["sync_ms"], r["sync_ms"] + r["transit_ms"])

    def total_of(_block: tuple, ops: list[dict]) -> list[dict]:
        t = {k: _sum([r[k] for r in ops]) for k in _TIME_FIELDS}
        t["wait_ratio"] = _ratio(t["wait_ms"], t["wait_ms"] + t["transit_ms"])
        t["sync_ratio"] = _ratio(t["sync_ms"], t["transit_ms"] + t["sync_ms"])
        return [{"start_ns": None, **t}]

    rows = _with_totals(_ordered(rows, read), read, total_of)
    read.say()
    columns = ["step", "kind", "op", "name", "group", "total", "start_ns", *_TIME_FIELDS, "wait_ratio", "sync_ratio"]
    out.tables["communication"] = _comm_frame(rows, columns, rank)


def _comm_bandwidth(db: _Db, out: DbData, rank: int | None) -> None:
    """One row per op, transport and packet size: the op x transport rows (its first row's values) and
    the packet sizes (``package_size, count, total_duration``; msprof writes 0, 0, 0 for none)."""
    read = _CommRead(db, COMM_BANDWIDTH, _BAND_COLUMNS, out)
    if read.values is None:
        read.say()
        return
    rows = _ordered(_op_rows(read), read)
    transports = read.texts("transport")
    num = {k: read.numbers(k) for k in ("size_mb", "time_ms", "bandwidth_gbs", "large_packet_ratio", "packet_mb")}
    num["packet_ms"] = read.numbers("packet_ms")
    counts = read.ints("count")
    bands: dict[tuple, dict] = {}  # (step, kind, op, transport) -> its row, in order
    sizes: list[dict] = []
    for r in rows:
        i = r["at"]
        base = {k: r[k] for k in ("step", "kind", "op", "total")}
        base["transport"] = transports[i]
        key = (r["step"], r["kind"], r["op"], transports[i])
        if key not in bands:
            bands[key] = {
                **base,
                **{k: num[k][i] for k in ("size_mb", "time_ms", "bandwidth_gbs", "large_packet_ratio")},
            }
        packet, count, ms = num["packet_mb"][i], counts[i], num["packet_ms"][i]
        if np.isnan(packet) or count is None or (packet == 0 and count == 0 and ms == 0):
            continue  # the transport has no packet sizes
        sizes.append({**base, "packet_mb": packet, "count": count, "time_ms": ms})

    def band_total(_block: tuple, ops: list[dict]) -> list[dict]:
        by: dict[str | None, list[dict]] = {}
        for r in ops:
            by.setdefault(r["transport"], []).append(r)
        return [
            {
                "transport": t,
                "size_mb": _sum([r["size_mb"] for r in rs]),
                "time_ms": _sum([r["time_ms"] for r in rs]),
                "bandwidth_gbs": np.nan,  # torch_npu writes none for Total Op Info
                "large_packet_ratio": np.nan,
            }
            for t, rs in by.items()
        ]

    listed: dict[tuple, list] = {}  # (step, kind) -> the transports its ops list, in order (once, not per block)
    for (step, kind, _op, t), r in bands.items():
        if not r["total"]:
            listed.setdefault((step, kind), []).append(t)

    def size_total(block: tuple, ops: list[dict]) -> list[dict]:
        by: dict[tuple, list[dict]] = {}
        for r in ops:
            by.setdefault((r["transport"], r["packet_mb"]), []).append(r)
        # torch_npu sums per transport in the order the ops list transports, then per packet size
        order = list(dict.fromkeys([*listed.get(block, []), *(t for t, _ in by)]))
        return [
            {
                "transport": t,
                "packet_mb": p,
                "count": _bounded(sum(r["count"] for r in rs)),
                "time_ms": _sum([r["time_ms"] for r in rs]),
            }
            for t in order
            for (tt, p), rs in by.items()
            if tt == t
        ]

    read.say()
    band_rows = _with_totals(list(bands.values()), read, band_total)
    columns = ["step", "kind", "op", "total", "transport", "size_mb", "time_ms", "bandwidth_gbs", "large_packet_ratio"]
    out.tables["communication_bandwidth"] = _comm_frame(band_rows, columns, rank)
    size_rows = _with_totals(sizes, read, size_total)
    columns = ["step", "kind", "op", "total", "transport", "packet_mb", "count", "time_ms"]
    out.tables["communication_sizes"] = _comm_frame(size_rows, columns, rank)


def _comm_matrix(db: _Db, out: DbData, rank: int | None) -> None:
    """One row per link of a matrix entry: torch_npu's ``<type>-<statistic>`` entries (``op_name`` the op
    picked, empty for ``-total``) or msprof's per-op entries (no ``op_name`` column)."""
    read = _CommRead(db, COMM_MATRIX, _MATRIX_COLUMNS, out, optional={"op_name": ("op_name",)})
    if read.values is None:
        read.say()
        return
    if read.torch_npu and "op_name" not in read.columns:
        out.warnings.append(f"{db.path}: table {COMM_MATRIX}: no column op_name; left empty")
    rows = _ordered(_op_rows(read), read)
    src, dst = read.ints("src"), read.ints("dst")
    transports, op_names = read.texts("transport"), read.texts("op_name")
    num = {k: read.numbers(k) for k in ("size_mb", "time_ms", "bandwidth_gbs")}
    links = []
    for r in rows:
        i = r["at"]
        op_type, statistic = _matrix_statistic(r["op"])
        links.append(
            {
                "step": r["step"],
                "kind": r["kind"],
                "group_op": r["op"],
                "op_type": op_type,
                "statistic": statistic,
                "group": r["group"],
                "src": src[i],
                "dst": dst[i],
                "transport": transports[i],
                **{k: num[k][i] for k in num},
                "op_name": op_names[i] or None,  # torch_npu writes '' for a -total entry
            }
        )
    read.say()
    columns = ["step", "kind", "group_op", "op_type", "statistic", "group", "src", "dst", "transport"]
    out.tables[MATRIX_TABLE] = _comm_frame(links, [*columns, "size_mb", "time_ms", "bandwidth_gbs", "op_name"], rank)


# ---- timeline: a Part filled from arrays -------------------------------------------------------------


class _PartBuilder:
    """Columns of one :class:`Part` as the trace loader's chunk intake fills them (no JSON in between)."""

    def __init__(self) -> None:
        self.part = Part()

    def meta(self, name: str, pid: int, tid: int, args: dict) -> None:
        self.part.meta.append((str(pid), str(tid), name, msgspec.json.encode(args)))

    def process(self, pid: int, name: str, label: str, sort: int, device: int | None = None) -> None:
        self.meta("process_name", pid, 0, {"name": name})
        self.meta("process_labels", pid, 0, {"labels": label})
        self.meta("process_sort_index", pid, 0, {"sort_index": sort})
        if device is not None:
            self.meta("device_id", pid, 0, {"device_id": device})

    def thread(self, pid: int, tid: int, name: str) -> None:
        self.meta("thread_name", pid, tid, {"name": name})
        self.meta("thread_sort_index", pid, tid, {"sort_index": tid})

    def lanes(self, pid: np.ndarray, tid: np.ndarray) -> np.ndarray:
        """Part-local lane of each (pid, tid)."""
        if not len(pid):
            return np.zeros(0, dtype=np.int32)
        pid, tid = np.asarray(pid, dtype=np.int64), np.asarray(tid, dtype=np.int64)
        if pid.min() >= 0 and pid.max() < 2**31 and tid.min() >= 0 and tid.max() < 2**32:
            keys, inverse = np.unique((pid << 32) | tid, return_inverse=True)
            pairs = [(k >> 32, k & 0xFFFFFFFF) for k in keys.tolist()]
        else:
            both, inverse = np.unique(np.stack([pid, tid], axis=1), axis=0, return_inverse=True)
            pairs = [(p, t) for p, t in both.tolist()]
        ids = np.array([self.part.lanes.setdefault((str(p), str(t)), len(self.part.lanes)) for p, t in pairs], np.int32)
        return ids[inverse.reshape(-1)]

    def names(self, texts: list[str]) -> np.ndarray:
        table = self.part.names
        return np.array([table.setdefault(t, len(table)) for t in texts], dtype=np.int32)

    def names_of(self, keys: np.ndarray, text_of) -> np.ndarray:
        """Name codes of per-row ``keys`` (int64), ``text_of(distinct keys) -> texts`` called once."""
        uniq, inverse = np.unique(keys, return_inverse=True)
        return self.names(text_of(uniq))[inverse.reshape(-1)]

    def cat(self, text: str) -> int:
        return self.part.cats.setdefault(text, len(self.part.cats))

    def slices(
        self, lane: np.ndarray, start: np.ndarray, dur: np.ndarray, name: np.ndarray, cat: int, args: pa.Array | None
    ) -> None:
        """``name``: codes from :meth:`names`; ``args``: one JSON text per slice (None: no args)."""
        n = len(lane)
        if not n:
            return
        p = self.part
        p.x_lane.append(lane.astype(np.int32))
        p.x_ts.append(start.astype(np.int64))
        p.x_dur.append(dur.astype(np.int64))
        p.x_name.append(name.astype(np.int32))
        p.x_cat.append(np.full(n, cat, dtype=np.int32))
        if args is None:
            p.x_alen.append(np.zeros(n, dtype=np.int64))
            p.x_aoff.append(np.full(n, p.store.size, dtype=np.int64))
        else:
            arr = args.cast(pa.large_string())
            bufs = arr.buffers()
            offs = np.frombuffer(bufs[1], dtype=np.int64)[arr.offset : arr.offset + n + 1]
            blob = bytes(memoryview(bufs[2])[int(offs[0]) : int(offs[-1])]) if bufs[2] is not None else b""
            base = p.store.append(blob)
            p.x_alen.append(np.diff(offs).astype(np.int64))
            p.x_aoff.append(offs[:-1] - offs[0] + base)
        p.events += n

    def flows(
        self, name: str, cat: int, kind: int, lane: np.ndarray, ts: np.ndarray, ident: np.ndarray, enclosing: bool
    ) -> None:
        """Flow points of one kind (0 start, 2 end) with numeric ids."""
        n = len(lane)
        if not n:
            return
        p = self.part
        p.f_kind.append(np.full(n, kind, dtype=np.uint8))
        p.f_lane.append(lane.astype(np.int32))
        p.f_ts.append(ts.astype(np.int64))
        p.f_enc.append(np.full(n, enclosing, dtype=bool))
        p.f_cat.append(np.full(n, cat, dtype=np.int32))
        p.f_idnum.append(ident.astype(np.int64))
        p.f_idcode.append(np.full(n, -1, dtype=np.int32))
        if kind == 0:
            p.f_sname.extend([name] * n)
        p.events += n


def _json_texts(texts: Sequence[str | None]) -> pa.Array:
    """Each text as a JSON value (``null`` for None)."""
    return pa.array([msgspec.json.encode(t).decode() for t in texts], type=pa.string())


def _args(*pieces) -> pa.Array:
    """Row-wise concatenation of literal strings and string arrays (one JSON object per row)."""
    return pc.binary_join_element_wise(*pieces, "")


def _num(a: np.ndarray) -> pa.Array:
    return pa.array(a, type=pa.int64()).cast(pa.string())


def _take_json(strings: _Strings, rows: np.ndarray, clean: bool) -> pa.Array:
    """JSON texts of the strings at ``rows`` (one encode per distinct string)."""
    uniq, inverse = np.unique(rows, return_inverse=True)
    texts = strings.clean_texts(uniq) if clean else [strings.raw_text(int(r)) for r in uniq.tolist()]
    return pc.take(_json_texts(texts), pa.array(inverse.reshape(-1).astype(np.int64)))


def _timeline_part(
    db: _Db, strings: _Strings, tasks, info, apis, fwk, comm, comm_tasks, default_device: int
) -> Part | None:
    """The timeline's slices and flows as one :class:`Part` (None: no table of a timeline)."""
    if tasks is None and apis is None and fwk is None:
        return None
    b = _PartBuilder()
    py_tids = (fwk["tid"] & 0xFFFFFFFF) if fwk is not None else np.zeros(0, dtype=np.int64)
    if fwk is not None and len(fwk["start"]):
        b.process(PY_PID, "Python", "CPU", 0)
        for tid in np.unique(py_tids).tolist():
            b.thread(PY_PID, tid, f"Thread {tid}")
    if apis is not None and len(apis["start"]):
        b.process(CANN_PID, "CANN", "CPU", 2)
        for tid in np.unique(apis["tid"] & 0xFFFFFFFF).tolist():
            b.thread(CANN_PID, tid, f"Thread {tid}")
    hw_pid = (tasks["device"] + 1) * 10 + 3 if tasks is not None else np.zeros(0, dtype=np.int64)
    if tasks is not None:
        for dev in np.unique(tasks["device"]).tolist():
            pid = 3 + 10 * (dev + 1)
            b.process(pid, "Ascend Hardware", "NPU", 8, dev)
            for s in np.unique(tasks["stream"][tasks["device"] == dev]).tolist():
                b.thread(pid, s, f"Stream {s}")
    if fwk is not None and len(fwk["start"]):
        _python_slices(b, strings, fwk, py_tids)
    if apis is not None and len(apis["start"]):
        _cann_slices(b, strings, apis)
    if tasks is not None and len(tasks["start"]):
        _task_slices(b, strings, tasks, info, comm_tasks, hw_pid)
        _task_flows(b, tasks, apis, fwk, py_tids, hw_pid)
    if (comm is not None and len(comm["start"])) or (comm_tasks is not None and len(comm_tasks["row"])):
        _comm_slices(db, b, strings, tasks, comm, comm_tasks, default_device)
    b.part.store.finish()
    return b.part


def _merge_timeline(db: _Db, part: Part, default_device: int) -> Timeline:
    try:
        built = merge_parts([(str(db.path.parent), part)], default_device=default_device)
    except (ScanError, ValueError) as exc:
        raise ProfilingDataError(f"{db.path}: table TASK: the times do not form a timeline ({exc})") from None
    warnings = built.pop("warnings")
    return Timeline(source=[str(db.path)], warnings=warnings, **built)


def _python_slices(b: _PartBuilder, strings: _Strings, fwk, py_tids: np.ndarray) -> None:
    queue = fwk["kind"] == "queue"
    uniq, inverse = np.unique(fwk["name"], return_inverse=True)
    inverse = inverse.reshape(-1)
    texts = [t or "" for t in strings.clean_texts(uniq)]
    codes = b.names(texts)[inverse]
    # a queue event's category is its name in lower case (enqueue / dequeue), every other one cpu_op
    cat_of_name = np.array([b.cat(t.lower()) for t in texts], dtype=np.int64)
    cpu_op, enqueue = b.cat("cpu_op"), b.cat("enqueue")
    cats = np.where(queue, cat_of_name[inverse] if len(texts) else cpu_op, cpu_op)
    lane = b.lanes(np.full(len(py_tids), PY_PID), py_tids)
    dur = fwk["end"] - fwk["start"]
    for cat in np.unique(cats).tolist():
        sel = np.flatnonzero(cats == cat)
        b.slices(lane[sel], fwk["start"][sel], dur[sel], codes[sel], int(cat), None)
    linked = queue & (fwk["link"] >= 0)
    qcat = b.cat("async_task_queue")
    for kind, is_enq in ((0, True), (2, False)):
        sel = np.flatnonzero(linked & ((cats == enqueue) == is_enq))
        b.flows("enqueue_to_dequeue", qcat, kind, lane[sel], fwk["start"][sel], fwk["link"][sel], True)


def _cann_slices(b: _PartBuilder, strings: _Strings, apis) -> None:
    levels = apis["level_texts"]
    lc = apis["level_codes"].astype(np.int64)
    width = len(strings.raw) + 2

    def labels(keys: np.ndarray) -> list[str]:
        names = strings.clean_texts(keys % width - 1)
        return [f"{PREFIX.get(levels[c], levels[c])}@{n or ''}" for c, n in zip((keys // width).tolist(), names)]

    codes = b.names_of(lc * width + apis["name"] + 1, labels)
    tids = apis["tid"] & 0xFFFFFFFF
    lane = b.lanes(np.full(len(tids), CANN_PID), tids)
    level_json = pc.take(_json_texts(list(levels)), pa.array(lc))
    args = _args('{"level":', level_json, ',"connection_id":', _num(apis["conn"]), "}")
    b.slices(lane, apis["start"], apis["end"] - apis["start"], codes, b.cat(""), args)
    node = np.flatnonzero(
        (lc == levels.index("node") if "node" in levels else np.zeros(len(lc), bool)) & (apis["conn"] != INVALID)
    )
    b.flows("HostToDevice", b.cat("HostToDevice"), 0, lane[node], apis["start"][node], apis["conn"][node], False)


def _task_slices(b: _PartBuilder, strings: _Strings, tasks, info, comm_tasks, hw_pid: np.ndarray) -> None:
    n = len(tasks["start"])
    name_rows = np.full(n, -1, dtype=np.int64)
    type_rows = tasks["type"].copy()
    if comm_tasks is not None and len(comm_tasks["row"]):
        name_rows[comm_tasks["row"]] = comm_tasks["name"]
    if info is not None and len(info["row"]):
        name_rows[info["row"]] = info["name"]
        if "task_type" in info:
            known = info["task_type"] >= 0
            type_rows[info["row"][known]] = info["task_type"][known]
            # a compute task whose info names no known task type keeps TASK's (cleaned) type
    # names: the op's name as written; else the (cleaned) task type; else "task"
    width = len(strings.raw) + 2

    def texts(keys: np.ndarray) -> list[str]:
        raw = [strings.raw_text(int(r)) for r in (keys // width - 1).tolist()]
        typed = strings.clean_texts(keys % width - 1)
        return [r or t or "task" for r, t in zip(raw, typed)]

    codes = b.names_of((name_rows + 1) * width + tasks["type"] + 1, texts)
    lane = b.lanes(hw_pid, tasks["stream"])
    # Task Type: COMPUTE_TASK_INFO's (as written) for compute tasks, TASK's (cleaned) otherwise
    is_info = np.zeros(n, dtype=bool)
    if info is not None and "task_type" in info:
        is_info[info["row"][info["task_type"] >= 0]] = True
    raw_json = _take_json(strings, type_rows, clean=False)
    clean_json = _take_json(strings, tasks["type"], clean=True)
    type_json = pc.if_else(pa.array(is_info), raw_json, clean_json)
    args = _args(
        '{"Model Id":',
        _num(tasks["model"]),
        ',"Task Type":',
        type_json,
        ',"Stream Id":',
        _num(tasks["stream"]),
        ',"Task Id":',
        _num(tasks["task"]),
        ',"connection_id":',
        _num(tasks["conn"]),
        "}",
    )
    b.slices(lane, tasks["start"], tasks["end"] - tasks["start"], codes, b.cat(""), args)


def _task_flows(b: _PartBuilder, tasks, apis, fwk, py_tids: np.ndarray, hw_pid: np.ndarray) -> None:
    """HostToDevice ends and torch_to_npu flows, at the first task (by start) of each connection id."""
    conns, first = _first_by_start(tasks["conn"], tasks["start"])
    lane_of = b.lanes(hw_pid[first], tasks["stream"][first])
    if apis is not None and len(apis["start"]):
        levels = apis["level_texts"]
        node = (apis["level_codes"] == levels.index("node")) if "node" in levels else np.zeros(len(apis["start"]), bool)
        launched = np.unique(apis["conn"][node & (apis["conn"] != INVALID)])
        sel = np.flatnonzero(np.isin(conns, launched))
        b.flows("HostToDevice", b.cat("HostToDevice"), 2, lane_of[sel], tasks["start"][first[sel]], conns[sel], True)
    if fwk is not None and len(fwk["start"]):
        ops = np.flatnonzero((fwk["kind"] == "op") & (fwk["link"] >= 0))
        at = _last_lookup(conns, np.arange(len(conns)), fwk["link"][ops], -1)
        hit = at >= 0
        ops, at = ops[hit], at[hit]
        fid = tasks["start"][first[at]]
        cat = b.cat("async_npu")
        py_lane = b.lanes(np.full(len(ops), PY_PID), py_tids[ops])
        b.flows("torch_to_npu", cat, 0, py_lane, fwk["start"][ops], fid, True)
        b.flows("torch_to_npu", cat, 2, lane_of[at], fid, fid, True)


def _comm_slices(db: _Db, b: _PartBuilder, strings: _Strings, tasks, comm, comm_tasks, default_device: int) -> None:
    """The Communication process of each device: operators on ``Group {group} Communication``, their
    small tasks on ``Plane {id}`` (a group at tid t, its plane p at t + p + 1, groups sorted by name)."""
    data_types = _enum(db, "ENUM_HCCL_DATA_TYPE")
    transports = _enum(db, "ENUM_HCCL_TRANSPORT_TYPE")
    link_types = _enum(db, "ENUM_HCCL_LINK_TYPE")
    op_dev = comm["device"] if comm is not None else np.zeros(0, dtype=np.int64)
    op_dev = np.where(op_dev == INVALID, default_device, op_dev)
    shown = np.zeros(0, dtype=np.int64)
    t_dev = np.zeros(0, dtype=np.int64)
    if comm_tasks is not None:
        plane = comm_tasks["plane"]
        shown = np.flatnonzero((plane != INVALID) & (plane >= 0) & (plane < 1 << 20))  # L0: no small tasks shown
        t_dev = tasks["device"][comm_tasks["row"]]
        t_dev = np.where(t_dev == INVALID, default_device, t_dev)
    for dev in sorted(set(op_dev.tolist()) | set(t_dev[shown].tolist())):
        pid = 5 + 10 * (dev + 1)
        ops = np.flatnonzero(op_dev == dev)
        tks = shown[t_dev[shown] == dev]
        groups: dict[str, set[int]] = {}
        op_group = [strings.raw_text(int(r)) or "" for r in (comm["group"][ops].tolist() if comm is not None else [])]
        for g in op_group:
            groups.setdefault(g, set())
        tk_group = [strings.raw_text(int(r)) or "" for r in comm_tasks["group"][tks].tolist()] if len(tks) else []
        for g, p in zip(tk_group, comm_tasks["plane"][tks].tolist() if len(tks) else []):
            groups.setdefault(g, set()).add(int(p))
        b.process(pid, "Communication", "NPU", 9, dev)
        tid_of: dict[str, int] = {}
        plane_tid: dict[tuple[str, int], int] = {}
        at = 0
        for g in sorted(groups):
            planes = sorted(groups[g]) or [0]
            tid_of[g] = at
            b.thread(pid, at, f"Group {g} Communication")
            for p in planes:
                plane_tid[(g, p)] = at + p + 1
                b.thread(pid, at + p + 1, f"Plane {p}")
            at += planes[-1] + 2
        if len(ops):
            lane = b.lanes(np.full(len(ops), pid), np.array([tid_of[g] for g in op_group], dtype=np.int64))
            names = [strings.raw_text(int(r)) or "" for r in comm["name"][ops].tolist()]
            dtypes = [data_types.get(int(d), str(int(d))) for d in comm["data_type"][ops].tolist()]
            args = _args(
                '{"connection_id":',
                _num(comm["conn"][ops]),
                ',"model id":',
                _num(comm["model"][ops]),
                ',"data_type":',
                _json_texts(dtypes),
                ',"alg_type":',
                _take_json(strings, comm["alg_type"][ops], clean=False),
                ',"count":',
                _num(comm["count"][ops]),
                "}",
            )
            start, end = comm["start"][ops], comm["end"][ops]
            b.slices(lane, start, end - start, b.names(names), b.cat(""), args)
        if len(tks):
            row = comm_tasks["row"][tks]
            lane = b.lanes(
                np.full(len(tks), pid),
                np.array([plane_tid[(g, int(p))] for g, p in zip(tk_group, comm_tasks["plane"][tks].tolist())]),
            )
            kinds = strings.clean_texts(comm_tasks["type"][tks])
            ct = {k: comm_tasks[k][tks] for k in ("notify", "src", "dst", "size", "transport", "data_type", "link")}
            args = _args(
                '{"notify_id":',
                _num(ct["notify"]),
                ',"stream id":',
                _num(tasks["stream"][row]),
                ',"task id":',
                _num(tasks["task"][row]),
                ',"task type":',
                _json_texts(kinds),
                ',"src rank":',
                _num(ct["src"]),
                ',"dst rank":',
                _num(ct["dst"]),
                ',"transport type":',
                _json_texts([transports.get(int(v), str(int(v))) for v in ct["transport"].tolist()]),
                ',"size(Byte)":',
                _num(ct["size"]),
                ',"data type":',
                _json_texts([data_types.get(int(v), str(int(v))) for v in ct["data_type"].tolist()]),
                ',"link type":',
                _json_texts([link_types.get(int(v), str(int(v))) for v in ct["link"].tolist()]),
                "}",
            )
            start, end = tasks["start"][row], tasks["end"][row]
            b.slices(lane, start, end - start, b.names([k or "" for k in kinds]), b.cat(""), args)
