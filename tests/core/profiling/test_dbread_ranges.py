"""Rowid ranges read on several threads give exactly what one connection reading them in turn gives."""

from __future__ import annotations

import shutil
import sqlite3
import warnings

import numpy as np
import pandas as pd
import pytest
from profhelpers import altered_copy, torch_npu_db

from workbench.core.profiling import dbread
from workbench.core.profiling.dbread import read_db
from workbench.core.profiling.errors import ProfilingDataError

SMALL = 7  # rowids per range (ints and reals): every bulk table of the sample spans many ranges


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return torch_npu_db(tmp_path_factory.mktemp("ranges"), aic_metrics="PipeUtilization")


def _copy(sample, tmp_path, *statements):
    return altered_copy(sample, tmp_path, *statements)


def _serial(monkeypatch, path):
    """One connection, the default ranges (the reader as it was)."""
    with monkeypatch.context() as m:
        m.setattr(dbread, "READERS", 1)
        return read_db(path)


def _parallel(monkeypatch, path, readers=2):
    with monkeypatch.context() as m:
        m.setattr(dbread, "READERS", readers)
        m.setattr(dbread, "CONCAT_ROWS", SMALL)
        m.setattr(dbread, "CHUNK", SMALL)
        return read_db(path)


def _same(a: dbread.DbData, b: dbread.DbData) -> None:
    pd.testing.assert_frame_equal(a.ops, b.ops)
    assert a.tables.keys() == b.tables.keys()
    for name in a.tables:
        pd.testing.assert_frame_equal(a.tables[name], b.tables[name])
    assert a.warnings == b.warnings and a.devices == b.devices and a.info == b.info
    ta, tb = a.timeline, b.timeline
    assert ta is not None and tb is not None
    assert ta.names == tb.names and ta.cats == tb.cats and ta.origin_ns == tb.origin_ns
    assert [(ln.process_name, ln.thread_name) for ln in ta.lanes] == [
        (ln.process_name, ln.thread_name) for ln in tb.lanes
    ]
    for col in ("lane", "start_ns", "dur_ns", "name_id", "cat_id", "depth", "parent"):
        np.testing.assert_array_equal(getattr(ta, col), getattr(tb, col), err_msg=col)
    np.testing.assert_array_equal(ta.flows.src_ns, tb.flows.src_ns)
    np.testing.assert_array_equal(ta.flows.dst_slice, tb.flows.dst_slice)
    assert [ta.args(i) for i in range(0, len(ta), 97)] == [tb.args(i) for i in range(0, len(tb), 97)]


def test_the_sample_spans_many_ranges_of_every_bulk_table(sample):
    with sqlite3.connect(f"file:{sample}?mode=ro", uri=True) as con:
        for table in ("TASK", "COMPUTE_TASK_INFO", "CANN_API", "TASK_PMU_INFO"):
            assert con.execute(f"SELECT count(*) FROM {table}").fetchone()[0] > 10 * SMALL, table
    con.close()


def test_ranges_on_two_threads_read_what_one_connection_reads(sample, monkeypatch):
    serial = _serial(monkeypatch, sample)
    assert len(serial.ops) and serial.ops["aic_mac_ratio"].notna().any()  # the PMU values (reals) are there
    _same(_parallel(monkeypatch, sample), serial)


def test_a_read_leaves_the_warning_filters_as_they_were(sample, monkeypatch):
    # numpy's text parse is checked under catch_warnings, which is not thread-safe: it must stay on one thread
    before = list(warnings.filters)
    for _ in range(3):
        _parallel(monkeypatch, sample, readers=4)
        assert warnings.filters == before


def test_more_threads_than_cores_keep_the_order_of_rows(sample, monkeypatch):
    _same(_parallel(monkeypatch, sample, readers=5), _serial(monkeypatch, sample))


def test_texts_and_reals_in_some_ranges_only_are_read_row_by_row_there(sample, tmp_path, monkeypatch):
    path = _copy(
        sample,
        tmp_path,
        "UPDATE COMPUTE_TASK_INFO SET opType = 'MyConv' WHERE rowid = 23",  # an inline text in the 4th range
        "UPDATE TASK SET startNs = CAST(startNs AS TEXT) WHERE rowid = 40",  # integer text: still that integer
        "UPDATE TASK_PMU_INFO SET value = 'x' WHERE rowid = 50",  # no number: NaN
        "UPDATE TASK_PMU_INFO SET value = '2.5' WHERE rowid = 51",
    )
    parallel = _parallel(monkeypatch, path)
    _same(parallel, _serial(monkeypatch, path))
    assert (parallel.ops["type"] == "MyConv").sum() == 1


def test_a_value_that_is_no_integer_in_a_late_range_names_the_column(sample, tmp_path, monkeypatch):
    path = _copy(sample, tmp_path, "UPDATE TASK SET endNs = 'later' WHERE rowid = 90")
    with pytest.raises(ProfilingDataError) as err:
        _parallel(monkeypatch, path)
    assert str(err.value) == f"{path}: table TASK: column endNs holds a value that is not an integer"


@pytest.mark.parametrize("table", ["TASK", "TASK_PMU_INFO"])
def test_a_damaged_page_inside_a_table_is_the_same_one_line_error(sample, tmp_path, monkeypatch, table):
    path = tmp_path / sample.name
    shutil.copy(sample, path)
    with sqlite3.connect(path) as con:
        leaves = [r[0] for r in con.execute("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf'", (table,))]
        page = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    assert len(leaves) >= 2
    leaf = leaves[len(leaves) // 2]  # a page in the middle of the table
    data = bytearray(path.read_bytes())
    data[(leaf - 1) * page : leaf * page] = b"\xa5" * page
    path.write_bytes(bytes(data))
    messages = []
    for read in (_serial, _parallel):
        with pytest.raises(ProfilingDataError) as err:
            read(monkeypatch, path)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert messages[1].startswith(f"{path}: table {table}: not a readable SQLite database"), messages[1]


def test_a_locked_database_is_the_same_one_line_error(sample, tmp_path, monkeypatch):
    path = _copy(sample, tmp_path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(ProfilingDataError, match="is locked by another program"):
            _parallel(monkeypatch, path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
