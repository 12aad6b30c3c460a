"""Fuzz the profiler-database reader: mutated db bytes and random schema variants (docs/cann-formats.md §11).

Every input either opens or is one ProfilingDataError naming the file; nothing is written next to it."""

from __future__ import annotations

import random
import shutil
import sqlite3

import pytest
from fuzzkit import feed, mutate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.core.profiling.dbread import read_db
from workbench.core.profiling.errors import ProfilingDataError
from workbench.simtoolkit.profdata import transformer_workload, write_torch_npu

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
TABLES = (
    "TASK",
    "COMPUTE_TASK_INFO",
    "TASK_PMU_INFO",
    "CANN_API",
    "PYTORCH_API",
    "CONNECTION_IDS",
    "STEP_TIME",
    "MEMORY_RECORD",
    "STRING_IDS",
    "ENUM_API_TYPE",
)


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    root = write_torch_npu(tmp_path_factory.mktemp("fdb"), transformer_workload(layers=1), steps=1, export_type="Db")
    return next((root / "ASCEND_PROFILER_OUTPUT").glob("ascend_pytorch_profiler*.db"))


def _check(path):
    before = sorted(p.name for p in path.parent.iterdir())
    feed("profiler-db", path, lambda: read_db(path), (ProfilingDataError,))
    assert sorted(p.name for p in path.parent.iterdir()) == before  # no -journal / -wal / -shm


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_database_bytes(sample, tmp_path_factory, seed):
    rnd = random.Random(seed)
    data = sample.read_bytes()
    _, mutated = mutate(data, rnd)
    folder = tmp_path_factory.mktemp("m")
    path = folder / "ascend_pytorch_profiler_0.db"
    path.write_bytes(mutated)
    _check(path)


@SETTINGS
@given(
    drop=st.lists(st.sampled_from(TABLES), max_size=3, unique=True),
    rename=st.lists(st.tuples(st.sampled_from(TABLES), st.integers(0, 10)), max_size=3),
    junk=st.sampled_from([None, "'x'", "-1", "9.5e300", "x'00ff'", "NULL", "99999999999999999999"]),
)
def test_random_schema_variants(sample, tmp_path_factory, drop, rename, junk):
    folder = tmp_path_factory.mktemp("s")
    path = folder / "ascend_pytorch_profiler_0.db"
    shutil.copy(sample, path)
    con = sqlite3.connect(path)
    try:
        for table, k in rename:
            cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
            if cols:
                col = cols[k % len(cols)]
                con.execute(f'ALTER TABLE {table} RENAME COLUMN "{col}" TO "{col}_v2"')
                if junk is not None:
                    con.execute(f'UPDATE {table} SET "{col}_v2" = {junk} WHERE rowid % 3 = 0')
        for table in drop:
            con.execute(f"DROP TABLE IF EXISTS {table}")
        con.commit()
    finally:
        con.close()
    _check(path)
