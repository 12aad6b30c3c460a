"""SQL over a report (workbench.core.profiling.query): every table against the Report's own
frames and arrays, read-only, cancellable, errors with line:column, no copy of the columns."""

from __future__ import annotations

import sqlite3
import threading
import time

import numpy as np
import pandas as pd
import pytest

from workbench.core.demo import sample_reports
from workbench.core.profiling import query
from workbench.core.profiling.build import open_report
from workbench.core.profiling.report import Report
from workbench.core.profiling.steps import report_steps
from workbench.core.profiling.timeline.model import Flows, Instants, Lane, Timeline
from workbench.core.tasks import Cancelled, TaskRunner, TaskState, run_inline


@pytest.fixture(scope="module", params=["msprof", "torch_npu"])
def report(request) -> Report:
    found = {("msprof" if p.name.startswith("PROF_") else "torch_npu"): p for p in sample_reports()}
    return run_inline(open_report, found[request.param], use_cache=False)


@pytest.fixture(scope="module")
def session(report):
    s = query.QuerySession(report)
    yield s
    s.close()


def rows(session, sql: str) -> list[dict]:
    return session.execute(sql).table.to_pylist()


def test_slices_equal_the_timeline_arrays(report, session):
    tl = report.timeline
    got = session.execute("SELECT * FROM slices ORDER BY id").table
    assert got.num_rows == len(tl.start_ns) > 0
    assert got.column("id").to_pylist() == list(range(len(tl.start_ns)))
    assert np.array_equal(got.column("start_ns").to_numpy(), np.asarray(tl.start_ns) + tl.origin_ns)
    assert np.array_equal(got.column("dur_ns").to_numpy(), np.asarray(tl.dur_ns))
    assert np.array_equal(got.column("end_ns").to_numpy(), np.asarray(tl.end_ns) + tl.origin_ns)
    assert np.array_equal(got.column("lane").to_numpy(), np.asarray(tl.lane))
    assert np.array_equal(got.column("depth").to_numpy(), np.asarray(tl.depth))
    assert got.column("name").to_pylist() == [tl.names[int(i)] for i in tl.name_id]
    lanes = tl.lanes
    assert got.column("process").to_pylist() == [lanes[int(i)].process_name for i in tl.lane]
    assert got.column("device").to_pylist() == [lanes[int(i)].device for i in tl.lane]
    parents = got.column("parent").to_pylist()
    assert parents == [None if int(p) < 0 else int(p) for p in tl.parent]
    # a lane's slices, filtered in SQL, are the timeline's own range of that lane
    lane = int(tl.lane[-1])
    count = rows(session, f"SELECT count(*) AS n FROM slices WHERE lane = {lane}")[0]["n"]
    span = tl.lane_slices(lane)
    assert count == span.stop - span.start
    assert rows(session, "SELECT count(*) AS n FROM lanes")[0]["n"] == len(lanes)


def test_flows_counters_instants_steps(report, session):
    tl = report.timeline
    fl = tl.flows
    got = session.execute("SELECT * FROM flows").table
    assert got.num_rows == len(fl) > 0
    assert got.column("src_ns").to_pylist() == [int(v) + tl.origin_ns for v in fl.src_ns]
    assert got.column("dst_slice").to_pylist() == [None if int(v) < 0 else int(v) for v in fl.dst_slice]
    assert got.column("name").to_pylist() == list(fl.name)
    assert got.column("id").to_pylist() == list(fl.id)
    counters = session.execute("SELECT * FROM counters").table
    assert counters.num_rows == sum(len(c.ts_ns) * len(c.series) for c in tl.counters)
    for k, c in enumerate(tl.counters):
        for key, values in c.series.items():
            sel = rows(session, f"SELECT ts_ns, value FROM counters WHERE lane = {k} AND series = '{key}'")
            assert [r["ts_ns"] for r in sel] == [int(t) + tl.origin_ns for t in c.ts_ns]
            assert [r["value"] for r in sel] == [float(v) for v in values]
            assert {r["name"] for r in rows(session, f"SELECT name FROM counters WHERE lane = {k}")} == {c.name}
    assert rows(session, "SELECT count(*) AS n FROM instants")[0]["n"] == len(tl.instants)
    steps = report_steps(report)
    got_steps = rows(session, "SELECT * FROM steps ORDER BY step")
    assert [r["step"] for r in got_steps] == list(steps.ids)
    spans = {s.id: s for s in steps.spans}
    for r in got_steps:
        if r["step"] in spans:
            assert (r["start_ns"], r["end_ns"]) == (spans[r["step"]].start_ns, spans[r["step"]].end_ns)


def test_ops_and_statistics_equal_the_report_frames(report, session):
    ops = report.ops
    got = session.execute("SELECT * FROM ops").table
    assert got.num_rows == len(ops) > 0
    assert got.column("name").to_pylist() == ops["name"].astype(object).tolist()
    # HCCL rows have N/A stream and task ids (kernel_details writes N/A): NULL in SQL
    assert got.column("stream").to_pylist() == [None if pd.isna(v) else int(v) for v in ops["stream_id"]]
    assert got.column("task_id").to_pylist() == [None if pd.isna(v) else int(v) for v in ops["task_id"]]
    assert got.column("start_ns").to_pylist() == [int(v) for v in ops["start_ns"]]  # exact ns, no float
    assert got.column("dur_ns").to_pylist() == [int(np.rint(v * 1000)) for v in ops["duration_us"]]
    assert "aicore_time_us" in got.column_names and "cube_utilization_pct" in got.column_names
    # the slowest op, in SQL and in pandas
    top = rows(session, "SELECT name, duration_us FROM ops ORDER BY duration_us DESC, name LIMIT 1")[0]
    assert top["duration_us"] == ops["duration_us"].max()
    for name in ("op_statistic", "api_statistic", "ai_core_metrics"):
        frame = report.tables[name]
        table = session.execute(f"SELECT * FROM {name}").table
        assert table.num_rows == len(frame) > 0, name
        assert table.column_names[: len(frame.columns)] == query._unique(
            {"stream_id": "stream"}.get(query.snake(c), query.snake(c)) if name == "ai_core_metrics" else query.snake(c)
            for c in frame.columns
        )
    totals = rows(session, "SELECT sum(total_us) AS t, sum(count) AS n FROM op_statistic")[0]
    assert totals["t"] == pytest.approx(report.op_statistic["total_us"].sum())
    assert totals["n"] == int(report.op_statistic["count"].sum())
    # every summary table under its snake_case name, with its row count
    for key, frame in report.tables.items():
        assert rows(session, f"SELECT count(*) AS n FROM {query.snake(key)}")[0]["n"] == len(frame), key
    missing = rows(session, "SELECT count(*) AS n FROM ops WHERE duration_us IS NULL")[0]["n"]
    assert missing == int(ops["duration_us"].isna().sum())  # NaN (N/A in the file) is NULL


def test_snake_case_names():
    assert query.snake("aicore_time(us)") == "aicore_time_us"
    assert query.snake("cube_utilization(%)") == "cube_utilization_pct"
    assert query.snake("FP Start(ns)") == "fp_start_ns"
    assert query.snake("Communication(Not Overlapped)") == "communication_not_overlapped"
    assert query.snake("taskId") == "task_id"
    assert query.snake("3rd") == "c_3rd"
    assert query._unique(["a", "a", "b"]) == ["a", "a_2", "b"]


@pytest.mark.parametrize(
    "sql, words",
    [
        ("CREATE TABLE x AS SELECT 1", "CREATE statement"),
        ("INSERT INTO ops SELECT * FROM ops", "INSERT statement"),
        ("COPY ops TO 'out.csv'", "COPY statement"),
        ("ATTACH 'other.db' AS o", "ATTACH statement"),
        ("INSTALL httpfs", "statement"),
        ("LOAD httpfs", "LOAD statement"),
        ("SET enable_external_access = true", "SET statement"),
        ("DROP VIEW slices", "DROP statement"),
        ("SELECT * FROM read_csv('/etc/passwd')", "reading or writing files is not allowed"),
        ("SELECT * FROM read_text('/etc/hostname')", "reading or writing files is not allowed"),
        ("SELECT 1; DROP VIEW ops", "one statement at a time"),
    ],
)
def test_writes_and_file_access_are_refused(session, sql, words):
    with pytest.raises(query.QueryError) as err:
        session.execute(sql)
    message = str(err.value)
    assert words in message and "\n" not in message
    assert message.startswith("SQL line "), message
    assert "Exception" not in message and "Traceback" not in message
    assert rows(session, "SELECT count(*) AS n FROM ops")[0]["n"] > 0  # nothing was changed


def test_configuration_is_locked(session):
    with pytest.raises(query.QueryError, match="SET statement"):
        session.execute("SET lock_configuration = false")
    assert rows(session, "SELECT current_setting('enable_external_access') AS v")[0]["v"] is False


@pytest.mark.parametrize(
    "sql, line, column",
    [
        ("SELECT nope FROM ops", 1, 8),
        ("SELECT name,\n       nope\nFROM ops", 2, 8),
        ("SELECT *\nFORM ops", 2, 6),
        ("SELECT '昇腾', nope FROM ops", 1, 14),
        ("SELECT name\nFROM ops\nWHERE stream = 'x'", 3, 16),
        ("SELECT *\nFROM no_such_table", 2, 6),
        ("SELECT\n  " + "x" * 150 + " + nope FROM ops", 2, 3),
        ("\n\n   SELECT 1 FROM ops WHERE " + "name = 'a' AND " * 20 + "nope = 1", 3, 3 + 24 + 15 * 20 + 1),
        ("SELECT 1;\n  SELECT 2", 2, 3),
        ("SELECT 1 +\tnope FROM ops", 1, 12),  # DuckDB's caret line counts a tab as no column
    ],
)
def test_error_names_line_and_column(session, sql, line, column):
    with pytest.raises(query.QueryError) as err:
        session.execute(sql)
    assert (err.value.line, err.value.column) == (line, column), str(err.value)
    assert str(err.value).startswith(f"SQL line {line}, column {column}: ")


def test_error_position_of_a_long_line_window():
    sql = "SELECT " + ", ".join(f"c{i}" for i in range(60)) + ", nope FROM t"
    message = (
        'Binder Error: Referenced column "nope" not found\n\nLINE 1: ...c55, c56, c57, c58, c59, nope FROM t\n'
        + " " * len("LINE 1: ...c55, c56, c57, c58, c59, ")
        + "^^^^"
    )
    assert query.error_position(sql, message) == (1, sql.index("nope") + 1)
    assert query.error_position(sql, "Catalog Error: no such table") is None


def test_empty_query(session):
    for sql in ("", "   \n ", "-- only a comment\n"):
        with pytest.raises(query.QueryError, match="the query is empty"):
            session.execute(sql)


def test_cancel_stops_a_cross_join_promptly(session):
    runner = TaskRunner(max_workers=1)
    running = threading.Event()

    class Progress:
        def status(self, text):
            pass

        def fraction(self, value):
            if value is None:  # the query has started in DuckDB
                running.set()

        def partial(self, item):
            pass

    sql = (  # 450^4 rows: minutes, unless interrupted
        "SELECT count(*) FROM slices a, slices b, slices c, slices d\n"
        "WHERE (a.dur_ns + 3 * b.dur_ns + 7 * c.id + d.id) % 1000003 = -1"
    )
    try:
        handle = runner.submit(
            lambda *a, progress, cancel: query.run_query(session, sql, cancel=cancel, progress=Progress())
        )
        assert running.wait(10)
        handle.wait(0.3)  # it is a long query: still running
        assert handle.state is TaskState.RUNNING
        asked = time.monotonic()
        handle.cancel()
        assert handle.wait(5), "the query did not stop"
        assert time.monotonic() - asked < 3
        assert handle.state is TaskState.CANCELLED
    finally:
        runner.shutdown()
    assert rows(session, "SELECT 1 AS one")[0]["one"] == 1  # the session is usable again


def test_cancel_before_it_starts():
    s = query.QuerySession(_report_of(_timeline(1000)))
    from workbench.core.tasks import CancelToken

    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        s.execute("SELECT count(*) FROM slices", cancel=token)
    s.close()


def test_max_rows_keeps_the_first_and_counts_all(session, report):
    result = session.execute("SELECT id FROM slices ORDER BY id", max_rows=7, batch_rows=3)
    assert result.num_rows == 7 and result.total_rows == len(report.timeline.start_ns) and result.truncated
    assert result.table.column("id").to_pylist() == list(range(7))


# ---- no copy, at scale --------------------------------------------------------------------------


def _timeline(n: int, lanes: int = 8) -> Timeline:
    per = n // lanes
    lane = np.repeat(np.arange(lanes, dtype=np.int32), per)
    n = len(lane)
    start = np.tile(np.arange(per, dtype=np.int64) * 1000, lanes)
    empty = np.zeros(0, dtype=np.int64)
    return Timeline(
        source=["big.json"],
        origin_ns=1_700_000_000_000_000_000,
        lanes=[Lane(i, "1", str(i), "Ascend Hardware", f"Stream {i}", 0, i, True) for i in range(lanes)],
        lane=lane,
        start_ns=start,
        dur_ns=np.full(n, 500, dtype=np.int64),
        name_id=(np.arange(n) % 1000).astype(np.int32),
        cat_id=np.zeros(n, dtype=np.int32),
        depth=np.zeros(n, dtype=np.int16),
        parent=np.full(n, -1, dtype=np.int32),
        names=[f"op{i}" for i in range(1000)],
        cats=["kernel"],
        flows=Flows([], [], [], empty, empty, empty, empty, empty, empty),
        instants=Instants(empty, empty, empty, empty),
        counters=[],
        event_count=n,
        flow_count=0,
        span_ns=int(start.max()) + 500,
        warnings=[],
        devices=[0],
        args_off=np.zeros(n, dtype=np.int64),
        args_len=np.zeros(n, dtype=np.int64),
    )


def _report_of(tl: Timeline, ops: pd.DataFrame | None = None) -> Report:
    return Report(source="big.json", kind="timeline", timeline=tl, tables={"ops": ops} if ops is not None else {})


def test_registered_columns_are_the_numpy_buffers():
    tl = _timeline(10_000)
    table = query.slices_table(tl)
    assert table.column("rel_ns").chunk(0).buffers()[1].address == tl.start_ns.ctypes.data
    assert table.column("dur_ns").chunk(0).buffers()[1].address == tl.dur_ns.ctypes.data
    assert table.column("lane").chunk(0).buffers()[1].address == tl.lane.ctypes.data
    assert table.column("name").chunk(0).indices.buffers()[1].address == tl.name_id.ctypes.data
    assert table.column("process").chunk(0).indices.buffers()[1].address == tl.lane.ctypes.data
    ops = pd.DataFrame(
        {
            "name": pd.Categorical(["a", "b", None]),
            "task_id": pd.array([1, None, 3], dtype="Int64"),
            "duration_us": [1.5, np.nan, 2.0],
        }
    )
    frame = query.frame_table(ops)
    assert frame.column("name").chunk(0).indices.buffers()[1].address == ops["name"].array.codes.ctypes.data
    assert frame.column("task_id").chunk(0).buffers()[1].address == ops["task_id"].array._data.ctypes.data
    assert frame.column("duration_us").chunk(0).buffers()[1].address == ops["duration_us"].to_numpy().ctypes.data
    assert frame.column("duration_us").null_count == 1 and frame.column("name").null_count == 1


def test_five_million_slices_register_fast_without_copies():
    import pyarrow as pa

    tl = _timeline(5_000_000)
    report = _report_of(tl)
    held = sum(getattr(tl, k).nbytes for k in ("lane", "start_ns", "dur_ns", "name_id", "cat_id", "depth", "parent"))
    query.QuerySession(_report_of(_timeline(8))).close()  # DuckDB loaded: time the registration alone
    arrow_before = pa.total_allocated_bytes()
    started = time.perf_counter()
    s = query.QuerySession(report)
    took = time.perf_counter() - started
    arrow_grew = pa.total_allocated_bytes() - arrow_before
    try:
        assert took < 1.0, f"registering 5 M slices took {took:.2f} s"
        # Arrow allocated only dictionaries and the id column's wrapper, not the columns themselves
        assert arrow_grew < 0.05 * held, f"Arrow allocated {arrow_grew / 1e6:.1f} MB for {held / 1e6:.0f} MB of columns"
        got = rows(s, "SELECT count(*) AS n, sum(dur_ns)::BIGINT AS d FROM slices WHERE name = 'op7'")[0]
        assert got == {"n": 5000, "d": 5000 * 500}
    finally:
        s.close()


# ---- rows that hold a slice -----------------------------------------------------------------------


def test_slice_of_a_row(report, session):
    tl = report.timeline
    row = rows(session, "SELECT * FROM slices ORDER BY dur_ns DESC LIMIT 1")[0]
    assert query.slice_of_row(report, row) == row["id"]
    assert query.slice_of_row(report, {"lane": row["lane"], "start_ns": row["start_ns"]}) == row["id"]
    inside = {"lane": row["lane"], "start_ns": row["start_ns"] + 1}  # covered by it (or a child)
    hit = query.slice_of_row(report, inside)
    assert hit is not None and tl.start_ns[hit] <= row["start_ns"] + 1 - tl.origin_ns < tl.end_ns[hit]
    op = rows(session, "SELECT name, stream, device, start_ns FROM ops ORDER BY dur_ns DESC LIMIT 1")[0]
    hit = query.slice_of_row(report, op)
    assert hit is not None
    assert int(tl.start_ns[hit]) + tl.origin_ns == op["start_ns"]
    assert tl.lanes[int(tl.lane[hit])].is_stream
    assert query.slice_of_row(report, {"count": 3}) is None
    assert query.slice_of_row(report, {"id": "12884901887"}) is None  # a flow id is text, not a slice


# ---- a SQLite export --------------------------------------------------------------------------------


def test_a_db_file_is_queried_read_only(tmp_path):
    path = tmp_path / "ascend_pytorch_profiler_0.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE STRING_IDS (id INTEGER, value TEXT)")
    db.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", [(1, "MatMul"), (2, "Add")])
    db.execute("CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, name INTEGER)")
    db.execute("INSERT INTO TASK VALUES (1717407000000000001, 1717407000000000501, 1)")
    db.commit()
    db.close()
    before = path.read_bytes()
    s = query.QuerySession(db=path)
    try:
        got = rows(s, "SELECT s.value, t.endNs - t.startNs AS dur FROM TASK t JOIN STRING_IDS s ON s.id = t.name")
        assert got == [{"value": "MatMul", "dur": 500}]
        assert rows(s, "SELECT startNs FROM TASK")[0]["startNs"] == 1717407000000000001
        with pytest.raises(query.QueryError, match="DELETE statement"):
            s.execute("DELETE FROM TASK")
    finally:
        s.close()
    assert path.read_bytes() == before


def test_a_damaged_db_file_is_one_clear_line(tmp_path):
    path = tmp_path / "broken.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(query.QueryError) as err:
        query.QuerySession(db=path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_pmu_columns_go_to_sql_as_their_scaled_integers_and_come_back_as_the_tables_doubles(tmp_path):
    """A compact decimal column (PMU metric) is registered as its integers (the same buffer) and the
    view divides: every value equals the table's float64 bit for bit, missing is NULL."""
    from workbench.core.profiling.tables.decimals import DecimalArray

    header = "Name,Type,Accelerator Core,Start Time(us),Duration(us),aic_mac_ratio,aicore_time(us)\n"
    body = "".join(
        f"op{i},T,AI_CORE,{1736413971558972 + i}.5,1.5,{'N/A' if i % 5 == 0 else f'0.{i % 1000:03d}'},{i}.125\n"
        for i in range(400)
    )
    path = tmp_path / "kernel_details.csv"
    path.write_text(header + body, encoding="utf-8")
    report = open_report(path, use_cache=False)
    held = report.ops["aic_mac_ratio"].array
    assert isinstance(held, DecimalArray)
    table, scaled = query.frame_source(report.ops, {"stream_id": "stream"})
    assert scaled == {"aic_mac_ratio": 1000, "aicore_time_us": 1000}
    arrow = table.column("aic_mac_ratio").chunk(0)
    assert np.shares_memory(np.frombuffer(arrow.buffers()[1], dtype=held.ints.dtype), held.ints)
    session = query.open_session(report)
    try:
        got = query.result_frame(
            session.execute("SELECT aic_mac_ratio, aicore_time_us, typeof(aic_mac_ratio) AS t FROM ops")
        )
    finally:
        session.close()
    assert set(got["t"]) == {"DOUBLE"}
    for column, key in (("aic_mac_ratio", "aic_mac_ratio"), ("aicore_time_us", "aicore_time(us)")):
        want = np.asarray(report.ops[key])
        values = got[column].to_numpy(dtype=np.float64, na_value=np.nan)
        assert np.array_equal(np.isnan(values), np.isnan(want)) and values.tobytes() == want.tobytes()
