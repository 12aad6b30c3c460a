"""The database exports (docs/cann-formats.md §11) open to the same numbers as the Text export of the same run."""

from __future__ import annotations

import hashlib
import sqlite3

import numpy as np
import pandas as pd
import pytest

from workbench.core.profiling import stats
from workbench.core.profiling.build import open_report
from workbench.core.profiling.detect import detect
from workbench.core.profiling.errors import ProfilingDataError
from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof, write_torch_npu

NOT_IN_DB = ("Overlap Analysis",)  # lanes torch_npu derives for trace_view.json only


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("db")
    w = resnet50_workload()
    text = write_torch_npu(root / "text", w, steps=2, rank=0, export_type="Text")
    db = write_torch_npu(root / "db", w, steps=2, rank=0, export_type="Db")
    return text, db


def _norm(frame: pd.DataFrame) -> pd.DataFrame:
    """Categories as object Index (the CSV reader gives str or object by whether it cleaned a value)."""
    out = frame.copy()
    for c in out.columns:
        if isinstance(out[c].dtype, pd.CategoricalDtype):
            out[c] = out[c].cat.set_categories(pd.Index(list(out[c].cat.categories), dtype=object))
    return out


def _equal(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(_norm(a), _norm(b))


def _events(report):
    tl = report.timeline
    keep = {ln.index for ln in tl.lanes if ln.process_name not in NOT_IN_DB}
    lane = np.asarray(tl.lane)
    idx = np.flatnonzero(np.isin(lane, list(keep)))
    names = [tl.names[int(i)] for i in np.asarray(tl.name_id)[idx]]
    lanes = [(tl.lanes[int(x)].process_name, tl.lanes[int(x)].thread_name) for x in lane[idx]]
    starts = (np.asarray(tl.start_ns)[idx].astype(np.int64) + int(tl.origin_ns)).tolist()
    durs = np.asarray(tl.dur_ns)[idx].astype(np.int64).tolist()
    return sorted(zip(lanes, starts, durs, names))


def test_a_db_only_folder_opens_with_the_numbers_of_the_text_export(runs):
    text, db = runs
    assert not (db / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv").exists()
    rt, rb = open_report(text, use_cache=False), open_report(db, use_cache=False)
    assert rb.kind == "torch_npu" and rb.devices == rt.devices == [0]
    assert rb.warnings == []
    expected = rt.ops.drop(columns=["wait_us"])  # the db has no wait time
    _equal(rb.ops, expected)
    _equal(rb.table("op_statistic"), stats.op_statistics(rt.ops, "type"))
    _equal(rb.api_statistic, rt.api_statistic)
    _equal(rb.ai_core_metrics, rt.ai_core_metrics.drop(columns=[], errors="ignore"))
    step_t, step_b = rt.table("step_trace_time"), rb.table("step_trace_time")
    _equal(step_b, step_t)
    mem_t, mem_b = rt.table("memory_record"), rb.table("memory_record")
    assert mem_b["Timestamp(ns)"].tolist() == mem_t["Timestamp(ns)"].tolist()
    # (APP rows leave Total Allocated empty, as the real file does: NaN on both sides)
    pd.testing.assert_series_equal(mem_b["Total Allocated(MB)"], mem_t["Total Allocated(MB)"], check_exact=True)
    # timeline: every event of the lanes the db holds, same lane, name, start and duration (int ns)
    assert _events(rb) == _events(rt)
    assert rb.flow_count == rt.flow_count
    assert (rb.start_ns, rb.end_ns) == (rt.start_ns, rt.end_ns)


def test_text_and_db_in_one_folder_reads_the_text_export(tmp_path):
    both = write_torch_npu(tmp_path, resnet50_workload(), steps=1, export_type="Text+Db")
    layout = detect(both)
    assert layout.units[0].dbs == [] and layout.units[0].timelines


def test_the_database_file_itself_and_an_msprof_db_open(tmp_path):
    prof_t = write_msprof_prof(tmp_path / "t", resnet50_workload(), export_type="text")
    prof_b = write_msprof_prof(tmp_path / "b", resnet50_workload(), export_type="db")
    (db_file,) = prof_b.glob("msprof_*.db")
    for source in (prof_b, db_file):
        rb = open_report(source, use_cache=False)
        rt = open_report(prof_t, use_cache=False)
        assert rb.kind == "msprof"
        common = ["device", "task_id", "stream_id", "name", "type", "task_type", "start_ns", "duration_us"]
        _equal(rb.ops[common], rt.ops[common])


def test_old_schema_block_dim_reads_by_column_name(tmp_path):
    old = write_torch_npu(tmp_path, resnet50_workload(), steps=1, export_type="Db", db_schema="old")
    new = write_torch_npu(tmp_path / "n", resnet50_workload(), steps=1, export_type="Db")
    _equal(open_report(old, use_cache=False).ops, open_report(new, use_cache=False).ops)


def _db(folder):
    return next((folder / "ASCEND_PROFILER_OUTPUT").glob("ascend_pytorch_profiler*.db"))


def _copy(runs, tmp_path):
    import shutil

    target = tmp_path / "copy_ascend_pt"
    shutil.copytree(runs[1], target)
    return target


def test_a_missing_table_is_a_warning_naming_file_and_table(runs, tmp_path):
    folder = _copy(runs, tmp_path)
    with sqlite3.connect(_db(folder)) as con:
        con.execute("DROP TABLE CANN_API")
    report = open_report(folder, use_cache=False)
    assert any("table CANN_API missing" in w and str(_db(folder)) in w for w in report.warnings)
    assert len(report.ops)


@pytest.mark.parametrize(
    "damage, table",
    [
        (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x07" * 300), "sqlite_master"),
        (lambda p: p.write_bytes(b"this is a text file, not a database\n" * 40), "sqlite_master"),
        (lambda p: _sql(p, "ALTER TABLE TASK RENAME COLUMN startNs TO startTimeNs"), "TASK"),
        (lambda p: _sql(p, "DROP TABLE STRING_IDS"), "STRING_IDS"),
    ],
)
def test_bad_databases_are_one_clear_error_naming_file_and_table(runs, tmp_path, damage, table):
    folder = _copy(runs, tmp_path)
    path = _db(folder)
    damage(path)
    with pytest.raises(ProfilingDataError) as err:
        open_report(path, use_cache=False)
    msg = str(err.value)
    assert str(path) in msg and f"table {table}" in msg and "Error" not in msg and "\n" not in msg


def _sql(path, statement):
    with sqlite3.connect(path) as con:
        con.execute(statement)


def test_a_locked_database_is_a_clear_error(runs, tmp_path):
    folder = _copy(runs, tmp_path)
    path = _db(folder)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(ProfilingDataError, match="is locked by another program"):
            open_report(path, use_cache=False)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_nothing_is_written_into_or_beside_the_database(runs, tmp_path):
    folder = _copy(runs, tmp_path)
    out = folder / "ASCEND_PROFILER_OUTPUT"
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.iterdir()}
    open_report(folder, use_cache=False)
    open_report(_db(folder), use_cache=False)
    after = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.iterdir()}
    assert after == before  # same files (no -journal, -wal, -shm), same bytes


def test_folder_search_finds_db_only_reports_and_loose_databases(tmp_path):
    from workbench.core.profiling.discover import find_reports

    write_torch_npu(tmp_path / "runs", resnet50_workload(), steps=1, rank=1, export_type="Db")
    prof = write_msprof_prof(tmp_path / "prof", resnet50_workload(), export_type="db")
    loose = tmp_path / "loose"
    loose.mkdir()
    (db_file,) = prof.glob("msprof_*.db")
    (loose / db_file.name).write_bytes(db_file.read_bytes())
    found = find_reports(tmp_path)
    kinds = sorted((r.kind, r.path.name.endswith(".db") or r.path.name.endswith("_ascend_pt")) for r in found.reports)
    assert ("torch_npu", True) in kinds and ("msprof", True) in kinds
    assert any(r.path == loose / db_file.name for r in found.reports)
