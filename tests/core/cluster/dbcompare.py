"""Our cluster_analysis.db against msprof-analyze's own: its tables read as multisets of typed cells, the real
``msprof-analyze cluster`` run on a job folder, the two dbs compared table by table."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from workbench.core.cluster import files_db

Tables = dict[str, tuple[str, Counter]]


def db_tables(path: Path) -> Tables:
    """Each table's CREATE statement and its rows as a multiset of (storage type, value) cells."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        out = {}
        for name, sql in con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"):
            cols = [c[1] for c in con.execute(f'PRAGMA table_info("{name}")')]
            listed = ", ".join(f'typeof("{c}"), "{c}"' for c in cols)
            out[name] = (sql, Counter(con.execute(f'SELECT {listed} FROM "{name}"')))
        return out
    finally:
        con.close()


def msprof_analyze() -> str:
    """The msprof-analyze command; the test is skipped where it is not installed."""
    exe = shutil.which("msprof-analyze")
    if exe is None:
        pytest.skip("msprof-analyze is not installed (pip install msprof-analyze)")
    return exe


def run_cluster(exe: str, folder: Path) -> str:
    """``msprof-analyze cluster -d folder`` (it writes cluster_analysis_output/ into the folder): its output."""
    done = subprocess.run([exe, "cluster", "-d", str(folder)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout + done.stderr


def assert_same_db(ours_db: Path, folder: Path) -> tuple[Tables, Tables]:
    """Our db at ``ours_db`` and msprof-analyze's of ``folder`` hold the same tables, each with the same CREATE
    statement (columns, declared types) and the same rows, values and storage types (none empty): (ours,
    theirs)."""
    theirs = db_tables(folder / "cluster_analysis_output" / files_db.DB_NAME)
    ours = db_tables(ours_db)
    assert set(ours) == set(theirs)
    for name in sorted(theirs):
        (sql_o, rows_o), (sql_t, rows_t) = ours[name], theirs[name]
        assert sql_o == sql_t, name  # the same columns and declared types
        assert sum(rows_o.values()) > 0 and rows_o == rows_t, name  # every row, value and storage type
    return ours, theirs
