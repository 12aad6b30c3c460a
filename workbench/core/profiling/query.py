"""SQL over an open report: DuckDB in process, over the report's own columns.

A :class:`QuerySession` exposes a :class:`~workbench.core.profiling.report.Report` as SQL tables
(documented in docs/report-format.md, "SQL tables"): ``slices``, ``lanes``, ``flows``,
``instants``, ``counters``, ``steps``, ``ops``, ``op_statistic``, ``api_statistic``,
``ai_core_metrics`` and every other summary table under its snake_case name. Column names are
snake_case; times are exact int64 epoch nanoseconds (``*_ns``), the tools' durations keep their
µs (``*_us``).

Nothing is copied: the timeline's numpy arrays and the tables' pandas columns are wrapped as Arrow
arrays over the same buffers (strings as dictionaries over the existing codes: a slice's name is
its ``name_id``), registered with DuckDB, and views add the derived columns (absolute times,
``end_ns``) as expressions evaluated per query.

Once registered the connection is locked: no file access (``enable_external_access=false``, so
``read_csv``, ``COPY``, ``ATTACH``, ``INSTALL`` and ``LOAD`` are refused), no configuration change
(``lock_configuration``), and only ``SELECT`` / ``EXPLAIN`` statements run (checked with DuckDB's
own parser). :func:`run_query` is a work function; a cancel interrupts DuckDB from the cancelling
thread. Errors are :class:`QueryError`: one line naming the line and column of the SQL.

A SQLite export (``.db``) can be queried as it is (:class:`QuerySession` with ``db=``): through
DuckDB's sqlite scanner when that extension is installed, else each table is read once with
Python's sqlite3 (read-only).
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.tables.decimals import DecimalArray
from workbench.core.tasks import Cancelled, CancelToken, NullProgress, Progress

if TYPE_CHECKING:
    import pyarrow as pa

    from workbench.core.profiling.report import Report
    from workbench.core.profiling.timeline import Timeline

TIMELINE_TABLES = ("slices", "lanes", "flows", "instants", "counters", "steps")
MAIN_TABLES = ("ops", "op_statistic", "api_statistic", "ai_core_metrics")
READ_STATEMENTS = ("SELECT", "EXPLAIN")
_INTERNAL = "__wb_"

# The few questions the UI offers as examples (title, SQL); ``{stream}`` / ``{step}`` are filled
# with values the report holds (see :func:`example_queries`).
EXAMPLES = (
    (
        "Slowest 20 OPs",
        "SELECT name, type, task_type, stream, start_ns, dur_ns\nFROM ops\nORDER BY dur_ns DESC\nLIMIT 20",
    ),
    (
        "OPs on stream {stream} after step {step} slower than 10 µs",
        "SELECT o.name, o.type, o.stream, o.start_ns, o.dur_ns\nFROM ops o\n"
        "WHERE o.stream = {stream}\n"
        "  AND o.start_ns >= (SELECT coalesce(max(end_ns), 0) FROM steps WHERE step = {step})\n"
        "  AND o.dur_ns > 10000\nORDER BY o.dur_ns DESC",
    ),
    (
        "Time per task type",
        "SELECT task_type, count(*) AS tasks, sum(dur_ns) / 1000.0 AS total_us,\n"
        "       avg(dur_ns) / 1000.0 AS avg_us\nFROM ops\nGROUP BY task_type\nORDER BY total_us DESC",
    ),
    (
        "Longest slices per lane",
        "SELECT lane, process, thread, name, start_ns, dur_ns\nFROM slices\n"
        "QUALIFY row_number() OVER (PARTITION BY lane ORDER BY dur_ns DESC) <= 3\nORDER BY lane, dur_ns DESC",
    ),
    (
        "Busiest slice names",
        "SELECT name, count(*) AS n, sum(dur_ns)::BIGINT AS total_ns, max(dur_ns) AS max_ns\nFROM slices\n"
        "GROUP BY name\nORDER BY total_ns DESC\nLIMIT 50",
    ),
)


class QueryError(ProfilingDataError):
    """A query that cannot run: one line, naming the line and column of the SQL where known.
    ``template`` / ``fields``: the workbench's own sentence (one of :data:`ERROR_TEMPLATES`), for the
    UI to translate; DuckDB's messages have none."""

    def __init__(
        self,
        detail: str,
        line: int | None = None,
        column: int | None = None,
        template: str | None = None,
        fields: tuple[str, ...] = (),
    ) -> None:
        self.detail, self.line, self.column, self.template, self.fields = detail, line, column, template, fields
        where = f"SQL line {line}, column {column}: " if line is not None and column is not None else "SQL: "
        super().__init__(where + detail)


EMPTY = "the query is empty: write a SELECT statement"
ONE_STATEMENT = "one statement at a time: remove what follows the first ';'"
READ_ONLY = "only SELECT queries run over a report; this is a {0} statement (the report is read-only)"
NO_FILES = "reading or writing files is not allowed in a report query (the report is read-only)"
ERROR_TEMPLATES = (EMPTY, ONE_STATEMENT, READ_ONLY, NO_FILES)


def _own(template: str, *args: str, line: int | None = None, column: int | None = None) -> QueryError:
    return QueryError(template.format(*args), line, column, template, args)


@dataclass
class QueryResult:
    """The rows of one query (``table``; at most ``max_rows`` of the ``total_rows`` it returned)."""

    table: pa.Table
    total_rows: int
    elapsed_s: float
    sql: str = ""

    @property
    def columns(self) -> list[str]:
        return list(self.table.column_names)

    @property
    def num_rows(self) -> int:
        return int(self.table.num_rows)

    @property
    def truncated(self) -> bool:
        return self.total_rows > self.num_rows


# ---- names ---------------------------------------------------------------------------------------


def snake(name: object) -> str:
    """A column or table name as an SQL identifier: ``aicore_time(us)`` -> ``aicore_time_us``,
    ``cube_utilization(%)`` -> ``cube_utilization_pct``, ``FP Start(ns)`` -> ``fp_start_ns``."""
    text = str(name).strip().replace("%", " pct ")
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)
    text = re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_").lower()
    if not text:
        return "column"
    return "c_" + text if text[0].isdigit() else text


def _unique(names: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for name in names:
        candidate, n = name, 1
        while candidate in seen:
            n += 1
            candidate = f"{name}_{n}"
        seen.add(candidate)
        out.append(candidate)
    return out


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


# ---- columns as Arrow, over the same buffers ------------------------------------------------------


def _pa():
    import pyarrow as pa

    return pa


def _strings(values: Any) -> pa.Array:
    """A string (or bytes) table as an Arrow array, zero-copy for a blob + offsets table."""
    pa = _pa()
    from workbench.core.profiling.timeline.model import TextTable

    if isinstance(values, TextTable):
        offsets = np.ascontiguousarray(values.offsets, dtype=np.int64)
        return pa.LargeStringArray.from_buffers(
            len(values), pa.py_buffer(offsets), pa.py_buffer(np.ascontiguousarray(values.blob))
        )
    return pa.array(list(values), type=pa.string())


def _coded(codes: np.ndarray, table: Any) -> pa.Array:
    """A dictionary array: ``codes`` (kept as they are) into ``table``; a negative code is NULL."""
    pa = _pa()
    codes = np.asarray(codes)
    dictionary = _strings(table) if not isinstance(table, pa.Array) else table
    if len(dictionary) == 0:
        dictionary = pa.array([None], type=pa.string())
    negative = codes < 0
    indices = pa.array(codes, mask=negative) if negative.any() else pa.array(codes)
    return pa.DictionaryArray.from_arrays(indices, dictionary)


def _text_column(column: Any) -> pa.Array:
    """A timeline string column (codes into a table, fixed-width bytes, or a plain list)."""
    pa = _pa()
    from workbench.core.profiling.timeline.model import BytesColumn, CodeColumn

    if isinstance(column, CodeColumn):
        return _coded(column.codes, column.table)
    if isinstance(column, BytesColumn):
        return pa.array(column.data).cast(pa.string())
    return pa.array(list(column), type=pa.string())


def arrow_column(series: pd.Series) -> pa.Array:
    """One pandas column as an Arrow array over the same buffers where the dtype allows it:
    categoricals keep their codes, nullable integers their data (the mask becomes a bitmap),
    floats their values (NaN is NULL); other columns are converted."""
    pa = _pa()
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        categories = dtype.categories
        try:
            dictionary = pa.array(np.asarray(categories, dtype=object), from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            dictionary = pa.array([str(c) for c in categories], type=pa.string())
        return _coded(series.array.codes, dictionary)
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):
        try:
            return pa.array(series.array)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError):
            return pa.array(series.astype(object), from_pandas=True)
    if dtype.kind in "biuf":
        return pa.array(series.to_numpy(), from_pandas=True)
    try:
        return pa.array(series, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return pa.array([None if v is None or v is pd.NA or v != v else str(v) for v in series], type=pa.string())


def frame_table(frame: pd.DataFrame, rename: dict[str, str] | None = None) -> pa.Table:
    """:func:`frame_source`'s table alone."""
    return frame_source(frame, rename)[0]


def frame_source(frame: pd.DataFrame, rename: dict[str, str] | None = None) -> tuple[pa.Table, dict[str, int]]:
    """A DataFrame as an Arrow table with snake_case column names (``rename`` after that). A compact
    decimal column (PMU metrics) goes in as its scaled integers (the same buffer, no float64 copy),
    named with its scale in the dict returned, for the view to divide (``CAST(x AS DOUBLE) / scale``:
    the same correctly rounded float64 as the table's)."""
    pa = _pa()
    names = _unique((rename or {}).get(snake(c), snake(c)) for c in frame.columns)
    arrays, scaled = [], {}
    for i, name in enumerate(names):
        held = frame.iloc[:, i].array
        if isinstance(held, DecimalArray):
            missing = held.isna()
            arrays.append(pa.array(held.ints, mask=missing if missing.any() else None))
            scaled[name] = held.scale
        else:
            arrays.append(arrow_column(frame.iloc[:, i]))
    return (pa.Table.from_arrays(arrays, names=names) if arrays else pa.table({})), scaled


def slices_table(tl: Timeline) -> pa.Table:
    """The timeline's slices: the numpy columns themselves; names, categories and each lane's
    process / thread / device as dictionaries over ``name_id`` / ``cat_id`` / ``lane``."""
    pa = _pa()
    n = len(tl.start_ns)
    lane = pa.array(np.asarray(tl.lane))
    lanes = tl.lanes
    process = pa.array([ln.process_name for ln in lanes], type=pa.string())
    thread = pa.array([ln.thread_name or ln.tid for ln in lanes], type=pa.string())
    device = pa.array([ln.device for ln in lanes], type=pa.int64())
    if not lanes:
        process, thread, device = (pa.array([None], type=t) for t in (pa.string(), pa.string(), pa.int64()))
    columns = {
        "id": pa.array(np.arange(n, dtype=np.int32 if n < 2**31 else np.int64)),  # the one new column
        "lane": lane,
        "name": _coded(tl.name_id, tl.names),
        "category": _coded(tl.cat_id, tl.cats),
        "process": pa.DictionaryArray.from_arrays(lane, process),
        "thread": pa.DictionaryArray.from_arrays(lane, thread),
        "device": pa.DictionaryArray.from_arrays(lane, device),
        "rel_ns": pa.array(np.asarray(tl.start_ns)),
        "dur_ns": pa.array(np.asarray(tl.dur_ns)),
        "depth": pa.array(np.asarray(tl.depth)),
        "parent": pa.array(np.asarray(tl.parent)),
    }
    return pa.table(columns)


def lanes_table(tl: Timeline) -> pa.Table:
    pa = _pa()
    counts = np.bincount(np.asarray(tl.lane, dtype=np.int64), minlength=len(tl.lanes)) if len(tl.lane) else None
    return pa.table(
        {
            "lane": pa.array([ln.index for ln in tl.lanes], type=pa.int32()),
            "process": pa.array([ln.process_name for ln in tl.lanes], type=pa.string()),
            "thread": pa.array([ln.thread_name or ln.tid for ln in tl.lanes], type=pa.string()),
            "pid": pa.array([ln.pid for ln in tl.lanes], type=pa.string()),
            "tid": pa.array([ln.tid for ln in tl.lanes], type=pa.string()),
            "device": pa.array([ln.device for ln in tl.lanes], type=pa.int64()),
            "is_stream": pa.array([bool(ln.is_stream) for ln in tl.lanes], type=pa.bool_()),
            "sort_index": pa.array([ln.sort_index for ln in tl.lanes], type=pa.int64()),
            "slice_count": pa.array(
                [int(counts[ln.index]) if counts is not None and ln.index < len(counts) else 0 for ln in tl.lanes],
                type=pa.int64(),
            ),
        }
    )


def flows_table(tl: Timeline) -> pa.Table:
    pa = _pa()
    fl = tl.flows
    return pa.table(
        {
            "id": _text_column(fl.id),
            "name": _text_column(fl.name),
            "category": _text_column(fl.cat),
            "src_slice": pa.array(np.asarray(fl.src_slice)),
            "dst_slice": pa.array(np.asarray(fl.dst_slice)),
            "src_lane": pa.array(np.asarray(fl.src_lane)),
            "dst_lane": pa.array(np.asarray(fl.dst_lane)),
            "src_rel": pa.array(np.asarray(fl.src_ns)),
            "dst_rel": pa.array(np.asarray(fl.dst_ns)),
        }
    )


def instants_table(tl: Timeline) -> pa.Table:
    pa = _pa()
    ins = tl.instants
    return pa.table(
        {
            "lane": pa.array(np.asarray(ins.lane)),
            "name": _coded(ins.name_id, tl.names),
            "category": _coded(ins.cat_id, tl.cats),
            "rel_ns": pa.array(np.asarray(ins.ts_ns)),
        }
    )


def counters_table(tl: Timeline) -> pa.Table:
    """One row per sample and series: each series is a chunk over its own numpy arrays."""
    pa = _pa()
    schema = pa.schema(
        [
            ("lane", pa.int32()),
            ("name", pa.string()),
            ("series", pa.string()),
            ("process", pa.string()),
            ("device", pa.int64()),
            ("rel_ns", pa.int64()),
            ("value", pa.float64()),
        ]
    )
    longest = max((len(c.ts_ns) for c in tl.counters), default=0)
    zeros = np.zeros(longest, dtype=np.int32)
    batches = []
    for k, counter in enumerate(tl.counters):
        m = len(counter.ts_ns)
        const = zeros[:m]

        def one(value: Any, kind: Any, const: np.ndarray = const) -> Any:
            return pa.DictionaryArray.from_arrays(pa.array(const), pa.array([value], type=kind)).cast(kind)

        for key, values in counter.series.items():
            batches.append(
                pa.record_batch(
                    [
                        pa.array(np.full(m, k, dtype=np.int32)),
                        one(counter.name, pa.string()),
                        one(key, pa.string()),
                        one(counter.process_name, pa.string()),
                        one(counter.device, pa.int64()),
                        pa.array(np.asarray(counter.ts_ns, dtype=np.int64)),
                        pa.array(np.asarray(values, dtype=np.float64), from_pandas=True),
                    ],
                    schema=schema,
                )
            )
    return pa.Table.from_batches(batches, schema=schema)


def steps_table(report: Report) -> pa.Table:
    pa = _pa()
    from workbench.core.profiling.steps import report_steps

    steps = report_steps(report)
    spans = {s.id: s for s in (steps.spans if steps is not None else ())}
    ids = list(steps.ids) if steps is not None else []
    ids += [i for i in spans if i not in set(ids)]
    return pa.table(
        {
            "step": pa.array(ids, type=pa.int64()),
            "start_ns": pa.array([spans[i].start_ns if i in spans else None for i in ids], type=pa.int64()),
            "end_ns": pa.array([spans[i].end_ns if i in spans else None for i in ids], type=pa.int64()),
            "dur_ns": pa.array([spans[i].end_ns - spans[i].start_ns if i in spans else None for i in ids], pa.int64()),
        }
    )


# ---- error positions ------------------------------------------------------------------------------

_LINE_MARK = re.compile(r"LINE (\d+): ?")


def _width(ch: str) -> int:
    """Display columns of ``ch`` as DuckDB's caret line counts them (CJK: 2; combining marks and
    control characters such as a tab: 0)."""
    if unicodedata.combining(ch) or unicodedata.category(ch) == "Cc":
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _char_at_width(text: str, width: int) -> int:
    """The index of the character of ``text`` that starts at display column ``width``."""
    used = 0
    for i, ch in enumerate(text):
        step = _width(ch)
        if used >= width and step:  # a zero-width character (a tab) shares the column of the next
            return i
        used += step
    return len(text)


def error_position(sql: str, message: str) -> tuple[int, int] | None:
    """(line, column), both from 1, that DuckDB's error ``message`` points at in ``sql`` (its
    ``LINE n: <snippet>`` line and the ``^`` under it), or None when it names no position."""
    lines = message.split("\n")
    source = sql.split("\n")
    for i, text in enumerate(lines[:-1]):
        mark = _LINE_MARK.match(text)
        caret = lines[i + 1].find("^")
        if mark is None or caret < 0:
            continue
        line = min(max(int(mark.group(1)), 1), max(len(source), 1))
        src = source[line - 1].rstrip("\r") if source else ""
        snippet = text[mark.end() :]
        width = max(caret - mark.end(), 0)
        start = 0
        if snippet.startswith("..."):  # a long line: DuckDB shows a window around the position
            snippet = snippet[3:]
            width = max(width - 3, 0)
            body = snippet[:-3] if snippet.endswith("...") else snippet
            found = src.find(body) if body else -1
            start = found if found >= 0 else 0
        column = start + _char_at_width(snippet, width) + 1
        return line, min(max(column, 1), len(src) + 1)
    return None


def _position_of(sql: str, offset: int) -> tuple[int, int]:
    before = sql[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def query_error(sql: str, exc: BaseException) -> QueryError:
    """DuckDB's error as one line: where (line, column) and what, with its hint if it has one."""
    message = str(exc)
    position = error_position(sql, message)
    parts = [p.strip() for p in message.split("\n") if p.strip() and not _LINE_MARK.match(p.strip())]
    parts = [p for p in parts if set(p) != {"^"}]
    first = parts[0] if parts else type(exc).__name__.replace("Exception", " error")
    line, column = position or (None, None)
    if first.startswith("Permission Error"):
        return _own(NO_FILES, line=line, column=column)
    hint = next((p for p in parts[1:] if p.startswith(("Candidate bindings", "Did you mean"))), None)
    detail = f"{first} ({hint.rstrip('.')})" if hint else first
    return QueryError(detail, line, column)


# ---- the session ----------------------------------------------------------------------------------


@dataclass
class TableInfo:
    name: str
    columns: list[tuple[str, str]] = field(default_factory=list)  # (column, SQL type)


class QuerySession:
    """One DuckDB connection over one report (or one SQLite ``db``), locked read-only; queries
    run one at a time (:meth:`execute`, or the work function :func:`run_query`)."""

    def __init__(self, report: Report | None = None, db: str | Path | None = None) -> None:
        import duckdb

        self.report = report
        self._lock = threading.Lock()
        self._con = duckdb.connect(":memory:")
        self._keep: list[Any] = []  # the registered Arrow tables (the views read them)
        self.tables: dict[str, TableInfo] = {}
        self.notes: list[str] = []
        if report is not None:
            self._register_report(report)
        if db is not None:
            self._register_db(Path(db))
        for name in list(self.tables):
            rows = self._con.execute(f"DESCRIBE {_ident(name)}").fetchall()
            self.tables[name].columns = [(str(r[0]), str(r[1])) for r in rows]
        self._con.execute("SET enable_external_access = false")
        self._con.execute("SET lock_configuration = true")

    # -- registration -----------------------------------------------------------------------------
    def _register(self, name: str, table: pa.Table, view: str | None = None) -> None:
        internal = _INTERNAL + name
        self._keep.append(table)
        self._con.register(internal, table)
        self._con.execute(f"CREATE VIEW {_ident(name)} AS {view or 'SELECT * FROM {src}'}".format(src=_ident(internal)))
        self.tables[name] = TableInfo(name)

    def _register_report(self, report: Report) -> None:
        tl = report.timeline
        if tl is not None:
            origin = int(tl.origin_ns)
            self._register(
                "slices",
                slices_table(tl),
                "SELECT id, name, category, lane, process, thread, device, "
                f"rel_ns + {origin} AS start_ns, dur_ns, rel_ns + dur_ns + {origin} AS end_ns, depth, "
                "nullif(parent, -1) AS parent, rel_ns FROM {src}",
            )
            self._register("lanes", lanes_table(tl))
            self._register(
                "flows",
                flows_table(tl),
                "SELECT id, name, category, nullif(src_slice, -1) AS src_slice, nullif(dst_slice, -1) AS dst_slice, "
                f"src_lane, dst_lane, src_rel + {origin} AS src_ns, dst_rel + {origin} AS dst_ns FROM {{src}}",
            )
            self._register(
                "instants", instants_table(tl), f"SELECT lane, name, category, rel_ns + {origin} AS ts_ns FROM {{src}}"
            )
            self._register(
                "counters",
                counters_table(tl),
                f"SELECT lane, name, series, process, device, rel_ns + {origin} AS ts_ns, value FROM {{src}}",
            )
        self._register("steps", steps_table(report))
        taken = set(self.tables)
        for key, frame in report.tables.items():
            name = snake(key)
            while name in taken:
                name += "_table"
            taken.add(name)
            renames = {"stream_id": "stream"} if key in ("ops", "ai_core_metrics") else {}
            table, scaled = frame_source(frame, renames)
            view = None
            cols = set(table.column_names)
            star = "*"
            if scaled:  # the compact decimal columns as float64, in their place
                star += " REPLACE ({})".format(
                    ", ".join(f"CAST({_ident(c)} AS DOUBLE) / {scale} AS {_ident(c)}" for c, scale in scaled.items())
                )
                view = f"SELECT {star} FROM {{src}}"
            if {"duration_us", "start_ns"} <= cols and "dur_ns" not in cols and "end_ns" not in cols:
                dur = "CAST(round(duration_us * 1000) AS BIGINT)"
                view = f"SELECT {star}, {dur} AS dur_ns, start_ns + {dur} AS end_ns FROM {{src}}"
            self._register(name, table, view)

    def _register_db(self, path: Path) -> None:
        """The tables of a SQLite file, read-only: DuckDB's sqlite scanner if it loads, else one
        read through Python's sqlite3 (``mode=ro``)."""
        if not path.is_file():
            raise QueryError(f"{path}: no such database file")
        try:
            self._con.execute("LOAD sqlite")
            self._con.execute(f"ATTACH {_quote(str(path))} AS db (TYPE sqlite, READ_ONLY)")
            listed = self._con.execute("SELECT table_name FROM duckdb_tables() WHERE database_name = 'db'")
            names = [r[0] for r in listed.fetchall()]
            for name in names:
                self._con.execute(f"CREATE VIEW {_ident(name)} AS SELECT * FROM db.{_ident(name)}")
                self.tables[name] = TableInfo(name)
            return
        except Exception:  # noqa: BLE001 - the extension is not installed here (offline): read it ourselves
            self.notes.append("the DuckDB sqlite extension is not installed: the database's tables were read once")
        pa = _pa()
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise QueryError(f"{path}: cannot open the database read-only ({exc})") from None
        try:
            names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")]
            for name in names:
                if name.startswith("sqlite_"):
                    continue
                frame = pd.read_sql_query(f"SELECT * FROM {_ident(name)}", db)
                table = pa.Table.from_pandas(frame, preserve_index=False)
                self._register(name, table)
        except (sqlite3.Error, pd.errors.DatabaseError) as exc:
            raise QueryError(f"{path}: not a readable SQLite database ({exc})") from None
        finally:
            db.close()

    # -- queries ------------------------------------------------------------------------------------
    def completions(self) -> list[str]:
        """Table and column names, for an editor's completer."""
        words = set(self.tables)
        for info in self.tables.values():
            words.update(c for c, _t in info.columns)
        return sorted(words)

    def check(self, sql: str) -> str:
        """The one read-only statement ``sql`` holds, or :class:`QueryError`."""
        import duckdb

        try:
            statements = self._con.extract_statements(sql)
        except duckdb.Error as exc:
            raise query_error(sql, exc) from None
        if not statements:
            raise _own(EMPTY)
        offsets, cursor = [], 0
        for st in statements:
            found = sql.find(st.query.strip(), cursor)
            offsets.append(found if found >= 0 else cursor)
            cursor = offsets[-1] + len(st.query.strip())
        if len(statements) > 1:
            raise QueryError(
                "one statement at a time: remove what follows the first ';'", *_position_of(sql, offsets[1])
            )
        kind = statements[0].type.name
        if kind not in READ_STATEMENTS:
            line, column = _position_of(sql, offsets[0])
            raise _own(READ_ONLY, kind.replace("_", " "), line=line, column=column)
        return statements[0].query

    def execute(
        self,
        sql: str,
        max_rows: int | None = None,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
        batch_rows: int = 65536,
    ) -> QueryResult:
        """Run ``sql``; keep at most ``max_rows`` rows (all are counted). Cancelling ``cancel``
        interrupts DuckDB at once."""
        import duckdb

        pa = _pa()
        progress = progress or NullProgress()
        cancel = cancel or CancelToken()
        started = time.monotonic()
        with self._lock:
            self.check(sql)
            cancel.raise_if_cancelled()
            running = threading.Event()
            running.set()
            con = self._con

            def interrupt() -> None:
                if running.is_set():
                    con.interrupt()

            cancel.on_cancel(interrupt)
            watcher = threading.Thread(target=_watch, args=(con, cancel, running), name="wb-query-watch", daemon=True)
            watcher.start()
            progress.fraction(None)  # running, for as long as DuckDB takes
            try:
                try:
                    relation = con.sql(sql)
                except duckdb.Error as exc:
                    raise _positioned(con, sql, exc) from None
                reader = relation.to_arrow_reader(batch_rows)
                kept: list[Any] = []
                rows = total = 0
                for batch in reader:
                    cancel.raise_if_cancelled()
                    total += batch.num_rows
                    if max_rows is None or rows < max_rows:
                        if max_rows is not None and rows + batch.num_rows > max_rows:
                            batch = batch.slice(0, max_rows - rows)
                        kept.append(batch)
                        rows += batch.num_rows
                table = pa.Table.from_batches(kept, schema=reader.schema)
            except duckdb.InterruptException:
                raise Cancelled() from None
            except duckdb.Error as exc:
                if cancel.cancelled:
                    raise Cancelled() from None
                raise query_error(sql, exc) from None
            finally:
                running.clear()
                watcher.join()
        if cancel.cancelled:
            raise Cancelled()
        progress.fraction(1.0)
        return QueryResult(table, total, time.monotonic() - started, sql)

    def close(self) -> None:
        with self._lock:
            self._con.close()
            self._keep.clear()


def _positioned(con: Any, sql: str, exc: Exception) -> Exception:
    """``sql()`` reports a binding error (an unknown table or column) without its position;
    ``execute()`` fails the same way at once, saying where."""
    import duckdb

    if "LINE " in str(exc):
        return exc
    try:
        con.execute(sql).fetchall()
    except duckdb.Error as again:
        return again
    return exc


def _watch(con: Any, cancel: CancelToken, running: threading.Event) -> None:
    """Interrupt the running query once ``cancel`` is set (closes the gap between the last
    check and DuckDB starting)."""
    while running.is_set():
        if cancel.wait(0.05):
            if running.is_set():
                con.interrupt()
            time.sleep(0.05)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def open_session(report: Report, progress: Progress | None = None, cancel: CancelToken | None = None) -> QuerySession:
    """Work function: the SQL tables of ``report``."""
    (cancel or CancelToken()).raise_if_cancelled()
    return QuerySession(report)


def run_query(
    session: QuerySession,
    sql: str,
    max_rows: int | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> QueryResult:
    """Work function: ``session.execute(sql)``."""
    return session.execute(sql, max_rows=max_rows, progress=progress, cancel=cancel)


def result_frame(result: QueryResult) -> pd.DataFrame:
    """The rows as a DataFrame that keeps exact integers (Arrow-backed columns, NULL as <NA>);
    nested values (lists, structs) and bytes as their text."""
    pa = _pa()
    table = result.table
    for i, f in enumerate(table.schema):
        if pa.types.is_nested(f.type) or pa.types.is_binary(f.type) or pa.types.is_large_binary(f.type):
            text = [None if v is None else str(v) for v in table.column(i).to_pylist()]
            table = table.set_column(i, f.name, pa.array(text, type=pa.string()))
    if not table.num_rows:
        return pd.DataFrame({c: pd.Series([], dtype=object) for c in table.column_names})
    frame = table.to_pandas(types_mapper=pd.ArrowDtype)
    frame.columns = _unique(str(c) for c in table.column_names)
    return frame


def export_result(
    result: QueryResult,
    out: str | Path,
    source: str | Path,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Path:
    """Work function: write the rows to ``out`` (.csv or .xlsx) with the report exporter's rules
    (atomic, exact ns, N/A for missing; never over the inputs of the report at ``source``)."""
    from workbench.core.profiling.export import export_report
    from workbench.core.profiling.report import Report

    out = Path(out)
    if out.suffix.lower() not in (".csv", ".xlsx"):
        raise ProfilingDataError(f"{out}: query rows export to .csv or .xlsx, not {out.suffix or '(no extension)'!r}")
    holder = Report(source=Path(source), kind="workbench", tables={"query": result_frame(result)})
    return export_report(holder, out, table="query", progress=progress, cancel=cancel)


# ---- rows that hold a slice -----------------------------------------------------------------------


def _int(value: Any) -> int | None:
    if value is None or isinstance(value, (bool, str, bytes)):
        return None
    try:
        if isinstance(value, float) and not value.is_integer():
            return None
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return None


def slice_of_row(report: Report, row: dict[str, Any]) -> int | None:
    """The timeline slice a result row points at, or None: its ``slice_id`` / ``id`` (a slices
    row), else the slice starting at its ``start_ns`` (narrowed by ``lane``, ``stream``,
    ``device`` and ``name`` where the row has them), else the slice of ``lane`` covering it."""
    tl = report.timeline
    if tl is None or not len(tl.start_ns):
        return None
    n = len(tl.start_ns)
    for key in ("slice_id", "id", "src_slice", "dst_slice"):
        index = _int(row.get(key))
        if index is not None:
            return index if 0 <= index < n else None
    start = _int(row.get("start_ns", row.get("ts_ns")))
    if start is None:
        return None
    rel = start - int(tl.origin_ns)
    starts = np.asarray(tl.start_ns)
    lane = _int(row.get("lane"))
    stream = _int(row.get("stream", row.get("stream_id")))
    device = _int(row.get("device"))
    if lane is not None:
        if not 0 <= lane < len(tl.lanes):
            return None
        lanes = [lane]
    else:
        lanes = [
            ln.index
            for ln in tl.lanes
            if (stream is None or (ln.is_stream and (ln.tid == str(stream) or ln.thread_name.endswith(f" {stream}"))))
            and (device is None or ln.device is None or ln.device == device)
        ]
    name = row.get("name")
    for li in lanes:
        span = tl.lane_slices(li)
        lo = span.start + int(np.searchsorted(starts[span], rel, side="left"))
        hits = [i for i in range(lo, span.stop) if starts[i] == rel]
        if name is not None:
            hits = [i for i in hits if tl.names[int(tl.name_id[i])] == str(name)] or hits
        if hits:
            return hits[0]
    if lane is not None:  # the slice of that lane covering the time, the deepest one
        span = tl.lane_slices(lane)
        ends = starts[span] + np.asarray(tl.dur_ns)[span]
        covering = np.flatnonzero((starts[span] <= rel) & (ends > rel))
        if covering.size:
            depth = np.asarray(tl.depth)[span][covering]
            return span.start + int(covering[int(np.argmax(depth))])
    return None


def example_queries(report: Report | None) -> list[tuple[str, dict[str, int], str]]:
    """:data:`EXAMPLES` as (title template, its fields, SQL) with the stream that has the most
    OPs and the first step of the report (0 where it has none)."""
    stream, step = 0, 0
    if report is not None:
        ops = report.tables.get("ops")
        if ops is not None and "stream_id" in ops.columns and len(ops):
            values = pd.to_numeric(ops["stream_id"].astype(object), errors="coerce").dropna()
            if len(values):
                stream = int(values.mode().iloc[0])
        try:
            from workbench.core.profiling.steps import report_steps

            steps = report_steps(report)
            if steps is not None and steps.ids:
                step = int(steps.ids[0])
        except (ValueError, KeyError):  # a table without the expected columns: the default step
            pass
    fields = {"stream": stream, "step": step}
    return [(title, fields, sql.format(**fields)) for title, sql in EXAMPLES]
