"""What the db reader holds: the tables it read are let go before the timeline's merge (its peak), and
integer columns are read into their result in place (issue #18: the peak memory of a 1M-task db)."""

from __future__ import annotations

import sqlite3
import weakref

import numpy as np
import pytest
from profhelpers import altered_copy, torch_npu_db

from workbench.core.profiling import dbread
from workbench.core.profiling.dbread import read_db


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return torch_npu_db(tmp_path_factory.mktemp("dbmem"))


def test_the_tables_read_are_released_before_the_timeline_merge(sample, monkeypatch):
    held: dict[str, list[weakref.ref]] = {}
    alive_at_merge: list[str] = []
    for name in ("_tasks", "_cann_api", "_pytorch_api", "_compute_info", "_comm_tasks"):
        real = getattr(dbread, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            got = _real(*args, **kwargs)
            held[_name] = [weakref.ref(v) for v in got.values() if isinstance(v, np.ndarray)]
            return got

        monkeypatch.setattr(dbread, name, spy)
    real_merge = dbread.merge_parts

    def merge(*args, **kwargs):
        alive_at_merge.extend(name for name, refs in held.items() if any(r() is not None for r in refs))
        return real_merge(*args, **kwargs)

    monkeypatch.setattr(dbread, "merge_parts", merge)
    data = read_db(sample)
    assert {"_tasks", "_cann_api", "_pytorch_api", "_compute_info"} <= held.keys()
    assert data.timeline is not None and data.timeline.event_count > 0
    assert alive_at_merge == []


def test_rows_written_into_gaps_during_a_read_are_read_in_rowid_order(sample, tmp_path, monkeypatch):
    """The result is sized by the count taken first; rows a writer adds meanwhile still fit."""
    path = altered_copy(
        sample,
        tmp_path,
        "CREATE TABLE T_BAK AS SELECT rowid AS rid, startNs, globalTaskId FROM TASK WHERE rowid BETWEEN 30 AND 40",
        "DELETE FROM TASK WHERE rowid BETWEEN 30 AND 40",
    )
    real = dbread._plain_ints
    calls = []

    def plain_ints(text, count):
        if not calls:  # after the first range was read: another program fills the gaps
            with sqlite3.connect(path) as con:
                con.execute(
                    "INSERT INTO TASK (rowid, startNs, globalTaskId) SELECT rid, startNs, globalTaskId FROM T_BAK"
                )
            con.close()
        calls.append(count)
        return real(text, count)

    monkeypatch.setattr(dbread, "READERS", 1)
    monkeypatch.setattr(dbread, "CONCAT_ROWS", 8)
    monkeypatch.setattr(dbread, "_plain_ints", plain_ints)
    db = dbread._Db(path)
    try:
        got = db.ints("TASK", {"start": ("startNs",), "gid": ("globalTaskId",)})
    finally:
        db.close()
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
        rows = con.execute("SELECT startNs, globalTaskId FROM TASK ORDER BY rowid").fetchall()
    con.close()
    assert len(rows) == len(got["start"]) and len(calls) > 2
    np.testing.assert_array_equal(got["start"], [r[0] for r in rows])
    np.testing.assert_array_equal(got["gid"], [r[1] for r in rows])
