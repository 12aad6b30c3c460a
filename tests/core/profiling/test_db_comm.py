"""The communication of a db-only export (docs/cann-formats.md §4.2, §11): analysis.db's CommAnalyzerTime,
CommAnalyzerBandwidth and CommAnalyzerMatrix read into the four tables the Text export's communication.json
and communication_matrix.json give, so the Communication view and ``report communication`` show the same
numbers for the Text and the Db export of one run."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.cli import main
from workbench.core.profiling.build import open_report
from workbench.core.profiling.comm import communication_view
from workbench.core.profiling.dbread import read_db
from workbench.core.profiling.detect import detect
from workbench.core.profiling.tables.commread import read_communication, read_communication_matrix
from workbench.simtoolkit.profdata import mixed_parallel, resnet50_workload, write_torch_npu_job
from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

TABLES = ("communication", "communication_bandwidth", "communication_sizes", "communication_matrix")
RANKS = [0, 3]  # two ranks of a 4-rank job: two planes, links to several ranks


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    """Ranks 0 and 3 of a 4-rank mixed-parallel job (collective and p2p ops), exported as Text and as Db."""
    root = tmp_path_factory.mktemp("job")
    w = mixed_parallel(resnet50_workload())
    kw = dict(steps=2, ranks=RANKS)
    text = write_torch_npu_job(root / "text", w, 4, export_type="Text", **kw)
    db = write_torch_npu_job(root / "db", w, 4, export_type="Db", **kw)
    return root / "text", root / "db", text, db


def _same(b: pd.DataFrame, t: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(b, t, check_exact=True)


def test_a_db_only_job_has_the_communication_tables_of_its_text_export(job):
    text_root, db_root, _, db_runs = job
    for run in db_runs:
        out = run / "ASCEND_PROFILER_OUTPUT"
        assert not list(out.glob("communication*.json")) and (out / "analysis.db").is_file()
    rt, rb = open_report(text_root, use_cache=False), open_report(db_root, use_cache=False)
    assert rb.warnings == []
    for name in TABLES:
        _same(rb.table(name), rt.table(name))
    ops = rb.table("communication")
    assert sorted(set(ops["rank"].tolist())) == RANKS and set(ops["kind"]) == {"p2p", "collective"}
    # torch_npu's Total Op Info (its Db export has none): one per rank, step and kind, after its ops
    totals = ops[ops["total"]]
    assert len(totals) == len(RANKS) * 2 * 2 and totals["start_ns"].isna().all()
    assert set(rb.table("communication_sizes")["total"]) == {True, False}
    matrix = rb.table("communication_matrix")
    assert {"top1", "middle", "bottom1", "bottom2", "total"} <= set(matrix["statistic"])
    assert matrix.loc[matrix["statistic"] == "total", "op_name"].isna().all()


def test_start_timestamps_are_the_operators_exact_ns(job):
    *_, db_runs = job
    for run in db_runs:
        out = run / "ASCEND_PROFILER_OUTPUT"
        main_db = next(out.glob("ascend_pytorch_profiler_*.db"))
        ops = read_db(main_db, out / "analysis.db").tables["communication"]
        with sqlite3.connect(main_db) as con:
            starts = sorted(r[0] for r in con.execute("SELECT startNs FROM COMMUNICATION_OP"))
        con.close()
        got = ops.loc[~ops["total"], "start_ns"]
        assert got.dtype == "Int64" and sorted(got.tolist()) == starts
        assert any(s % 1000 for s in starts)  # µs with a fraction (…241.5 µs): exact, not through a float


def test_the_communication_view_is_the_same_for_both_exports(job):
    text_root, db_root, *_ = job
    vt = communication_view(open_report(text_root, use_cache=False))
    vb = communication_view(open_report(db_root, use_cache=False))
    assert vt is not None and vb is not None and len(vb.ops) and len(vb.totals) and len(vb.matrix)
    for part in ("ops", "totals", "bandwidth", "sizes", "matrix", "bandwidth_totals", "sizes_totals"):
        _same(getattr(vb, part), getattr(vt, part))
    _same(vb.transports(), vt.transports())
    _same(vb.transports(step=2, kind="p2p"), vt.transports(step=2, kind="p2p"))
    ranks_b, bw_b, kinds_b = vb.matrix_grid()
    ranks_t, bw_t, kinds_t = vt.matrix_grid()
    assert ranks_b == ranks_t and len(ranks_b) > 1
    np.testing.assert_array_equal(bw_b, bw_t)
    assert kinds_b.tolist() == kinds_t.tolist()


def _cli(capsys, path) -> dict:
    code = main(["report", "communication", str(path), "--json", "--cache", "off"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def test_report_communication_json_is_the_same_for_both_exports(job, capsys):
    text_root, db_root, *_ = job
    got, want = _cli(capsys, db_root), _cli(capsys, text_root)
    assert got["ops"] and got["totals"] and got["transports"] and got["matrix"]["links"]
    assert got == want


# ---- the producers' own spellings and the other variant -----------------------------------------------


def _copy_run(run, tmp_path):
    dst = tmp_path / run.name
    shutil.copytree(run, dst)
    return dst


def _analysis_sql(run, *statements) -> None:
    con = sqlite3.connect(run / "ASCEND_PROFILER_OUTPUT" / "analysis.db")
    try:
        with con:
            for s in statements:
                con.execute(s)
    finally:
        con.close()


# torch_npu 2.1.0.post8 TableColumnsManager: src_rank / dst_rank TEXT (the link's "0-1" split), and its
# _communication_db_parser writes an empty text as the op_name of a -total entry (which names no op)
TORCH_NPU_MATRIX = (
    "CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, dst_rank TEXT, "
    "transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, step TEXT, type TEXT, "
    "op_name TEXT)"
)


def test_torch_npus_text_ranks_and_empty_op_names_read_the_same(job, tmp_path):
    _, _, text_runs, db_runs = job
    run = _copy_run(db_runs[1], tmp_path)
    _analysis_sql(
        run,
        "ALTER TABLE CommAnalyzerMatrix RENAME TO m",
        TORCH_NPU_MATRIX,
        "INSERT INTO CommAnalyzerMatrix SELECT hccl_op_name, group_name, CAST(src_rank AS TEXT), "
        "CAST(dst_rank AS TEXT), transport_type, transit_size, transit_time, bandwidth, step, type, "
        "ifnull(op_name, '') FROM m",
        "DROP TABLE m",
    )
    with sqlite3.connect(run / "ASCEND_PROFILER_OUTPUT" / "analysis.db") as con:
        assert {r[0] for r in con.execute("SELECT typeof(src_rank) FROM CommAnalyzerMatrix")} == {"text"}
        assert con.execute("SELECT count(*) FROM CommAnalyzerMatrix WHERE op_name = ''").fetchone()[0] > 0
    con.close()
    rt, rb = open_report(text_runs[1], use_cache=False), open_report(run, use_cache=False)
    assert rb.warnings == []
    for name in TABLES:
        _same(rb.table(name), rt.table(name))
    assert set(rb.table("communication_matrix")["src"].tolist()) == {3}


# msprof's communication_analyzer.db (PROF_*/analyze/; MindSpore copies it to ASCEND_PROFILER_OUTPUT): no
# step / type columns, one matrix entry per op, and (msprof's CommunicationAnalyzerModel) the time info
# without the ratios, no row for a transport whose numbers are all 0, ``0, 0, 0`` as the packet of a
# transport without a size distribution, the link's ranks as text.
MSPROF_COMM = {
    "hcom_send__7_0_1@g7": {  # p2p first: this layout keeps the file's order
        "Communication Time Info": {
            "Start Timestamp(us)": 1736408883732300.25,  # a float whose shortest text is …300.2
            "Elapse Time(ms)": 0.08,
            "Transit Time(ms)": 0.06,
            "Wait Time(ms)": 0.015,
            "Synchronization Time(ms)": 0.005,
            "Idle Time(ms)": 0.005,
            "Wait Time Ratio": 0.2,
            "Synchronization Time Ratio": 0.0769,
        },
        "Communication Bandwidth Info": {
            "RDMA": {
                "Transit Size(MB)": 0,
                "Transit Time(ms)": 0,
                "Bandwidth(GB/s)": 0,
                "Large Packet Ratio": 0,
                "Size Distribution": {},
            },
            "HCCS": {
                "Transit Size(MB)": 0.524288,
                "Transit Time(ms)": 0.06,
                "Bandwidth(GB/s)": 8.7381,
                "Large Packet Ratio": 0.0,
                "Size Distribution": {"0.524288": [1, 0.06]},
            },
            "SDMA": {
                "Transit Size(MB)": 0.524288,
                "Transit Time(ms)": 0.06,
                "Bandwidth(GB/s)": 8.7381,
                "Large Packet Ratio": 0,
                "Size Distribution": {},
            },
        },
    },
    "hcom_allReduce__7_1_1@g7": {
        "Communication Time Info": {
            "Start Timestamp(us)": 1736408883732241.5,
            "Elapse Time(ms)": 0.9,
            "Transit Time(ms)": 0.6,
            "Wait Time(ms)": 0.25,
            "Synchronization Time(ms)": 0.125,
            "Idle Time(ms)": 0.05,
            "Wait Time Ratio": 0.2941,
            "Synchronization Time Ratio": 0.1724,
        },
        "Communication Bandwidth Info": {
            "HCCS": {
                "Transit Size(MB)": 8.388608,
                "Transit Time(ms)": 0.6,
                "Bandwidth(GB/s)": 13.9810,
                "Large Packet Ratio": 0.0,
                "Size Distribution": {"4.194304": [1, 0.35], "2.097152": [2, 0.25]},
            },
            "PCIE": {
                "Transit Size(MB)": 0,
                "Transit Time(ms)": 0,
                "Bandwidth(GB/s)": 0,
                "Large Packet Ratio": 0,
                "Size Distribution": {},
            },
        },
    },
}
MSPROF_MATRIX = {
    "hcom_send__7_0_1@g7": {
        "0-1": {
            "Transport Type": "HCCS",
            "Transit Size(MB)": 0.524288,
            "Transit Time(ms)": 0.06,
            "Bandwidth(GB/s)": 8.7381,
        }
    },
    "hcom_allReduce__7_1_1@g7": {
        "0-0": {
            "Transport Type": "LOCAL",
            "Transit Size(MB)": 8.388608,
            "Transit Time(ms)": 0.014,
            "Bandwidth(GB/s)": 599.1863,
        },
        "0-1": {
            "Transport Type": "HCCS",
            "Transit Size(MB)": 8.388608,
            "Transit Time(ms)": 0.6,
            "Bandwidth(GB/s)": 13.981,
        },
    },
}


def _msprof_db(path) -> None:
    """What msprof writes for MSPROF_COMM / MSPROF_MATRIX (the rules in the comment above)."""
    time_rows, band_rows, matrix_rows = [], [], []
    for key, info in MSPROF_COMM.items():
        name, group = key.split("@")
        t = info["Communication Time Info"]
        time_rows.append((name, group, *(v for k, v in t.items() if "Ratio" not in k)))
        for transport, b in info["Communication Bandwidth Info"].items():
            values = [b["Transit Size(MB)"], b["Transit Time(ms)"], b["Bandwidth(GB/s)"], b["Large Packet Ratio"]]
            if sum(values) == 0:
                continue
            packets = b["Size Distribution"] or {0: [0, 0]}
            for size, (count, ms) in packets.items():
                band_rows.append((name, group, transport, *values, float(size), count, ms))
    for key, links in MSPROF_MATRIX.items():
        name, group = key.split("@")
        for link, e in links.items():
            matrix_rows.append((name, group, *link.split("-"), *e.values()))
    con = sqlite3.connect(path)
    with con:
        con.execute(
            "CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
            "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, "
            "idle_time NUMERIC)"
        )
        con.execute(
            "CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type TEXT, "
            "transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio NUMERIC, "
            "package_size NUMERIC, count NUMERIC, total_duration NUMERIC)"
        )
        con.execute(
            "CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, dst_rank TEXT, "
            "transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC)"
        )
        con.executemany("INSERT INTO CommAnalyzerTime VALUES (?, ?, ?, ?, ?, ?, ?, ?)", time_rows)
        con.executemany("INSERT INTO CommAnalyzerBandwidth VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", band_rows)
        con.executemany("INSERT INTO CommAnalyzerMatrix VALUES (?, ?, ?, ?, ?, ?, ?, ?)", matrix_rows)
    con.close()


def _with_rank(frame: pd.DataFrame, rank: int | None) -> pd.DataFrame:
    frame = frame.copy()
    frame.insert(0, "rank", pd.array([rank] * len(frame), dtype="Int64"))
    return frame


def _nonzero(frame: pd.DataFrame, text: pd.DataFrame) -> pd.DataFrame:
    """``frame``'s rows of the (op, transport) pairs msprof writes to the db (not all numbers 0)."""
    keys = ["op", "transport"]
    numbers = text[["size_mb", "time_ms", "bandwidth_gbs", "large_packet_ratio"]].abs().sum(axis=1)
    kept = set(map(tuple, text.loc[numbers.to_numpy() != 0, keys].astype(object).to_numpy().tolist()))
    rows = [tuple(r) in kept for r in frame[keys].astype(object).to_numpy().tolist()]
    out = frame[rows].reset_index(drop=True)
    for c in out.columns:
        if isinstance(out[c].dtype, pd.CategoricalDtype):
            out[c] = out[c].cat.remove_unused_categories()
    return out


def test_msprofs_communication_analyzer_db_reads_as_its_json(job, tmp_path):
    *_, db_runs = job
    out = db_runs[0] / "ASCEND_PROFILER_OUTPUT"
    (tmp_path / "communication.json").write_text(json.dumps(MSPROF_COMM))
    (tmp_path / "communication_matrix.json").write_text(json.dumps(MSPROF_MATRIX))
    _msprof_db(tmp_path / "communication_analyzer.db")
    got = read_db(next(out.glob("ascend_pytorch_profiler_*.db")), tmp_path / "communication_analyzer.db", rank=5)
    assert got.warnings == []
    text = read_communication(tmp_path / "communication.json").tables
    matrix = read_communication_matrix(tmp_path / "communication_matrix.json").tables["communication_matrix"]
    ops = got.tables["communication"]
    _same(ops, _with_rank(text["communication"], 5))
    assert ops["step"].isna().all() and ops["kind"].tolist() == ["p2p", "collective"] and not ops["total"].any()
    assert ops["start_ns"].tolist() == [1736408883732300200, 1736408883732241500]
    bandwidth = text["communication_bandwidth"]
    _same(got.tables["communication_bandwidth"], _nonzero(_with_rank(bandwidth, 5), bandwidth))
    _same(got.tables["communication_sizes"], _with_rank(text["communication_sizes"], 5))
    _same(got.tables["communication_matrix"], _with_rank(matrix, 5))
    assert set(got.tables["communication_matrix"]["statistic"]) == {"op"}


# msprof-analyze looks for the analysis db of a db export where its producer puts it
# (BaseRecipeAnalysis._get_analysis_db_path): torch_npu ASCEND_PROFILER_OUTPUT/analysis.db, msprof
# PROF_*/analyze/communication_analyzer.db, MindSpore ASCEND_PROFILER_OUTPUT/communication_analyzer.db (copied
# from msprof's analyze folder). The layout finds it beside the profiler db, for the folder and the db file.


def _comm_rows(frame: pd.DataFrame) -> list[tuple]:
    ops = frame[~frame["total"]]
    return sorted(zip(ops["op"].astype(str), ops["start_ns"].tolist(), ops["elapse_ms"], ops["wait_ratio"]))


@pytest.mark.parametrize("layout, framework", [("msprof", "pytorch"), ("torch_npu", "mindspore")])
def test_a_communication_analyzer_db_is_found_beside_its_profiler_db_and_read(tmp_path, layout, framework):
    write_cluster_job(tmp_path / "db", 2, export="db", layout=layout, framework=framework)
    write_cluster_job(tmp_path / "text", 2, export="text", layout=layout, framework=framework)
    folders = sorted((tmp_path / "db").iterdir())
    assert len(folders) == 2
    for folder in folders:
        (analyzer,) = folder.rglob("communication_analyzer.db")
        assert not list(folder.rglob("analysis.db"))
        (unit,) = detect(folder).units
        assert unit.dbs[1:] == [analyzer]
        (alone,) = detect(unit.dbs[0]).units  # the profiler db opened as a file
        assert alone.dbs == unit.dbs
        got = read_db(unit.dbs[0], analyzer, rank=unit.rank)
        assert got.warnings == [] and all(len(got.tables[name]) for name in TABLES)
        text = tmp_path / "text" / folder.name
        if layout == "msprof":  # analyze/communication*.json: msprof's own form, the db's rows one for one
            times = read_communication(text / "analyze" / "communication.json").tables
            matrix = read_communication_matrix(text / "analyze" / "communication_matrix.json").tables
            assert got.tables["communication"]["rank"].isna().all()  # neither the layout nor the db names one
            bandwidth = times["communication_bandwidth"]
            _same(got.tables["communication"], _with_rank(times["communication"], None))
            _same(got.tables["communication_bandwidth"], _nonzero(_with_rank(bandwidth, None), bandwidth))
            _same(got.tables["communication_sizes"], _with_rank(times["communication_sizes"], None))
            _same(got.tables["communication_matrix"], _with_rank(matrix["communication_matrix"], None))
        else:  # MindSpore's Text export files its ops by step; the copied msprof db has no step
            text_ops = read_communication(text / "ASCEND_PROFILER_OUTPUT" / "communication.json").tables
            assert got.tables["communication"]["step"].isna().all()
            assert _comm_rows(got.tables["communication"]) == _comm_rows(text_ops["communication"])


def test_the_total_op_info_of_a_long_run_has_every_steps_transports(job, tmp_path):
    # 3000 steps x 2 ops x 4 transports with a packet size each: each (step, kind)'s Total Op Info sizes in
    # its transports' order (the order is built once per step and kind: it was looked up over every op of the
    # run, quadratic; the time is benchmarks/bench_db.py's, no timed test)
    *_, db_runs = job
    out = db_runs[0] / "ASCEND_PROFILER_OUTPUT"
    path = tmp_path / "analysis.db"
    steps, transports = 3000, ("HCCS", "SDMA", "RDMA", "PCIE")
    rows = [
        (
            f"hcom_allReduce__{s}_{k}_1",
            "g1",
            t,
            1.0 + k,
            0.5,
            2.0,
            0.0,
            0.25 * (1 + n),
            3,
            0.1,
            f"step{s}",
            "collective",
        )
        for s in range(1, steps + 1)
        for k in range(2)
        for n, t in enumerate(transports)
    ]
    con = sqlite3.connect(path)
    with con:
        con.execute(
            "CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type TEXT, "
            "transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio NUMERIC, "
            "package_size NUMERIC, count NUMERIC, total_duration NUMERIC, step TEXT, type TEXT)"
        )
        con.executemany(f"INSERT INTO CommAnalyzerBandwidth VALUES ({', '.join('?' * 12)})", rows)
    con.close()
    got = read_db(next(out.glob("ascend_pytorch_profiler_*.db")), path)
    sizes = got.tables["communication_sizes"]
    totals = sizes[sizes["total"]]
    assert len(sizes) == len(rows) + len(totals) and len(totals) == steps * len(transports)
    last = totals[totals["step"] == steps]
    assert last["transport"].tolist() == list(transports) and last["count"].tolist() == [6] * 4
    assert last["time_ms"].tolist() == pytest.approx([0.2] * 4)


# ---- what is missing is said ----------------------------------------------------------------------------


def _open_pair(job, tmp_path, *statements):
    _, _, text_runs, db_runs = job
    run = _copy_run(db_runs[0], tmp_path)
    _analysis_sql(run, *statements)
    return open_report(text_runs[0], use_cache=False), open_report(run, use_cache=False), run


def test_a_missing_table_is_named_and_the_others_are_read(job, tmp_path):
    rt, rb, run = _open_pair(job, tmp_path, "DROP TABLE CommAnalyzerMatrix")
    analysis = run / "ASCEND_PROFILER_OUTPUT" / "analysis.db"
    assert rb.warnings == [f"{analysis}: table CommAnalyzerMatrix missing; the rank-to-rank matrix not shown"]
    assert "communication_matrix" not in rb.tables
    for name in TABLES[:3]:
        _same(rb.table(name), rt.table(name))


def test_a_missing_column_is_named_and_left_empty(job, tmp_path):
    rt, rb, run = _open_pair(job, tmp_path, "ALTER TABLE CommAnalyzerTime DROP COLUMN idle_time")
    analysis = run / "ASCEND_PROFILER_OUTPUT" / "analysis.db"
    assert rb.warnings == [f"{analysis}: table CommAnalyzerTime: no column idle_time; left empty"]
    assert communication_view(rb).warnings == rb.warnings  # the Communication tab says it too
    got, want = rb.table("communication"), rt.table("communication")
    assert got["idle_ms"].isna().all()
    _same(got.drop(columns=["idle_ms"]), want.drop(columns=["idle_ms"]))


def test_the_cluster_spellings_read_the_same(job, tmp_path):
    rt, rb, _ = _open_pair(
        job,
        tmp_path,
        "ALTER TABLE CommAnalyzerTime RENAME COLUMN elapse_time TO elapsed_time",
        "ALTER TABLE CommAnalyzerBandwidth RENAME COLUMN transport_type TO band_type",
    )
    assert rb.warnings == []
    for name in TABLES:
        _same(rb.table(name), rt.table(name))


def test_a_value_that_is_no_number_is_named_and_left_empty(job, tmp_path):
    rt, rb, run = _open_pair(job, tmp_path, "UPDATE CommAnalyzerTime SET start_timestamp = 'soon' WHERE rowid = 1")
    analysis = run / "ASCEND_PROFILER_OUTPUT" / "analysis.db"
    n = len(rt.table("communication")) - int(rt.table("communication")["total"].sum())
    assert rb.warnings == [
        f"{analysis}: table CommAnalyzerTime: column start_timestamp: 1 of {n} values are not numbers; left empty"
    ]
    got, want = rb.table("communication"), rt.table("communication")
    assert got["start_ns"].isna().sum() == want["start_ns"].isna().sum() + 1
    _same(got.drop(columns=["start_ns"]), want.drop(columns=["start_ns"]))


def test_a_table_without_op_names_is_not_read(job, tmp_path):
    rt, rb, run = _open_pair(job, tmp_path, "ALTER TABLE CommAnalyzerBandwidth RENAME COLUMN hccl_op_name TO x")
    analysis = run / "ASCEND_PROFILER_OUTPUT" / "analysis.db"
    assert rb.warnings == [f"{analysis}: table CommAnalyzerBandwidth: no column hccl_op_name; table not read"]
    assert "communication_bandwidth" not in rb.tables and "communication_sizes" not in rb.tables
    _same(rb.table("communication"), rt.table("communication"))


COLUMNS = {
    "CommAnalyzerTime": ("hccl_op_name", "group_name", "start_timestamp", "elapse_time", "wait_time", "step", "type"),
    "CommAnalyzerBandwidth": ("hccl_op_name", "transport_type", "transit_size", "package_size", "count", "step"),
    "CommAnalyzerMatrix": ("hccl_op_name", "group_name", "src_rank", "dst_rank", "bandwidth", "op_name", "type"),
}
JUNK = [None, "'x'", "''", "-1", "1e400", "-9.5e300", "x'00ff'", "99999999999999999999", "'step'", "'P2P'", "'1-2'"]


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    changes=st.lists(
        st.tuples(
            st.sampled_from(sorted(COLUMNS)),
            st.integers(0, 6),
            st.sampled_from(["drop", "rename", "junk"]),
            st.sampled_from(JUNK),
        ),
        max_size=4,
    ),
    seed=st.integers(0, 2**16),
)
def test_damaged_communication_tables_open_with_warnings_naming_the_file(job, tmp_path_factory, changes, seed):
    """Columns dropped, renamed or holding junk: the report opens, every table that still names its ops is
    read (the columns commread gives), and what was lost is said naming the file."""
    *_, db_runs = job
    out = db_runs[0] / "ASCEND_PROFILER_OUTPUT"
    path = tmp_path_factory.mktemp("a") / "analysis.db"
    shutil.copy(out / "analysis.db", path)
    rnd = random.Random(seed)
    unnamed = set()  # tables whose hccl_op_name is gone
    con = sqlite3.connect(path)
    try:
        for table, k, what, junk in changes:
            cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
            col = [c for c in COLUMNS[table] if c in cols] or cols
            name = col[k % len(col)]
            if what == "drop" and len(cols) > 1:
                con.execute(f'ALTER TABLE {table} DROP COLUMN "{name}"')
            elif what == "rename":
                con.execute(f'ALTER TABLE {table} RENAME COLUMN "{name}" TO "{name}_v2"')
            elif what == "junk" and junk is not None:
                con.execute(f'UPDATE {table} SET "{name}" = {junk} WHERE rowid % {rnd.randint(1, 4)} = 0')
            unnamed |= {table} if name == "hccl_op_name" and what != "junk" and len(cols) > 1 else set()
        con.commit()
    finally:
        con.close()
    got = read_db(next(out.glob("ascend_pytorch_profiler_*.db")), path)
    assert all(str(path) in w for w in got.warnings)
    produced = {
        "CommAnalyzerTime": ("communication",),
        "CommAnalyzerBandwidth": ("communication_bandwidth", "communication_sizes"),
        "CommAnalyzerMatrix": ("communication_matrix",),
    }
    for table, names in produced.items():
        for name in names:
            assert (name in got.tables) == (table not in unnamed), (table, name, got.warnings)
        if table in unnamed:
            assert f"{path}: table {table}: no column hccl_op_name; table not read" in got.warnings
    for name in TABLES:
        frame = got.tables.get(name)
        if frame is not None:
            assert list(frame.columns[:3]) == ["rank", "step", "kind"] and frame["rank"].dtype == "Int64"
            assert set(frame["kind"].dropna()) <= {"p2p", "collective"}


@pytest.mark.parametrize("seed", range(12))
def test_a_damaged_analysis_db_never_stops_the_database_from_opening(job, tmp_path, seed):
    *_, db_runs = job
    out = db_runs[0] / "ASCEND_PROFILER_OUTPUT"
    data = bytearray((out / "analysis.db").read_bytes())
    rnd = random.Random(seed)
    for _ in range(rnd.choice([1, 8, 64])):
        data[rnd.randrange(100, len(data))] = rnd.randrange(256)
    path = tmp_path / "analysis.db"
    path.write_bytes(bytes(data))
    got = read_db(next(out.glob("ascend_pytorch_profiler_*.db")), path)
    assert len(got.ops) and all(str(path) in w for w in got.warnings)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["analysis.db"]  # read-only: no journal beside it


@pytest.mark.parametrize("layout,framework", [("msprof", "pytorch"), ("torch_npu", "mindspore")])
def test_a_db_only_msprof_or_mindspore_rank_opens_with_its_communication(tmp_path, layout, framework):
    """open_report (what File ▸ Open Report and `report` run) on a db-only rank: the communication tables come
    from its communication_analyzer.db (they stayed empty while build looked only for analysis.db)."""
    from workbench.core.profiling.build import open_report

    write_cluster_job(tmp_path / "db", 2, export="db", layout=layout, framework=framework)
    folder = sorted((tmp_path / "db").iterdir())[0]
    report = open_report(folder, use_cache=False)
    assert len(report.tables.get("communication", [])) > 0
    assert len(report.tables.get("communication_matrix", [])) > 0
