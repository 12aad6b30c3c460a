"""A bad database is one clear error naming the file, the table and (where one is to blame) the column."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from profhelpers import altered_copy, torch_npu_db

from workbench.core.profiling.dbread import read_db
from workbench.core.profiling.errors import ProfilingDataError


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return torch_npu_db(tmp_path_factory.mktemp("e"))


def _copy(sample, tmp_path, *statements):
    return altered_copy(sample, tmp_path, *statements)


def _error(path) -> str:
    with pytest.raises(ProfilingDataError) as err:
        read_db(path)
    msg = str(err.value)
    assert str(path) in msg and "\n" not in msg and "Error" not in msg and "Traceback" not in msg
    return msg


def test_a_value_that_is_no_integer_names_the_table_and_the_column_as_spelled_in_the_file(sample, tmp_path):
    path = _copy(sample, tmp_path, "UPDATE TASK SET startNs = 'soon' WHERE rowid = 7")
    assert "table TASK: column startNs holds a value that is not an integer" in _error(path)


def test_a_communication_table_of_an_unknown_schema_names_the_table(sample, tmp_path):
    path = _copy(sample, tmp_path, "ALTER TABLE COMMUNICATION_OP RENAME COLUMN opName TO name")
    msg = _error(path)
    assert "table COMMUNICATION_OP: no column opName (an unknown or newer schema)" in msg


def test_reversed_times_of_a_communication_operator_name_the_table_and_row(sample, tmp_path):
    path = _copy(sample, tmp_path, "UPDATE COMMUNICATION_OP SET endNs = startNs - 1 WHERE rowid = 2")
    assert "table COMMUNICATION_OP: row 2: endNs before startNs" in _error(path)


def test_a_page_damaged_inside_a_table_names_that_table(sample, tmp_path):
    path = tmp_path / sample.name
    shutil.copy(sample, path)
    with sqlite3.connect(path) as con:
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'TASK'").fetchone()[0]
        page = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page : root * page] = b"\xa5" * page  # the TASK b-tree's root page
    path.write_bytes(bytes(data))
    msg = _error(path)
    assert "table TASK: not a readable SQLite database (damaged or not a profiler export)" in msg


def test_a_text_in_place_of_a_string_id_reads_as_that_text(sample, tmp_path):
    path = _copy(sample, tmp_path, "UPDATE COMPUTE_TASK_INFO SET opType = 'MyConv' WHERE rowid = 1")
    data = read_db(path)
    assert data.ops["type"].iloc[0] == "MyConv" and data.ops["type"].iloc[1] != "MyConv"
