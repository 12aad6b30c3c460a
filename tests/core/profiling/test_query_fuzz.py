"""Fuzzing the SQL error-position parser (query.error_position) with hypothesis: any text never
breaks it, and for generated queries it finds the column DuckDB itself points at."""

from __future__ import annotations

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.core.profiling import query


@given(sql=st.text(max_size=300), message=st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_any_text_gives_a_position_inside_the_sql_or_none(sql, message):
    position = query.error_position(sql, message)
    if position is not None:
        line, column = position
        lines = sql.split("\n")
        assert 1 <= line <= max(len(lines), 1)
        assert 1 <= column <= len(lines[line - 1].rstrip("\r")) + 1 if lines else column == 1


@given(
    sql=st.text(max_size=200),
    line=st.integers(-3, 30),
    snippet=st.text(max_size=120),
    caret=st.integers(0, 200),
    window=st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_duckdb_shaped_messages_never_break_it(sql, line, snippet, caret, window):
    shown = ("..." + snippet + "...") if window else snippet
    message = f"Binder Error: x\n\nLINE {line}: {shown}\n" + " " * caret + "^^^"
    query.error_position(sql, message)  # no exception, whatever the numbers
    query.query_error(sql, Exception(message))


_WORDS = st.sampled_from(["a", "b", "'昇腾'", "'é'", "1", "a + 1", "'x' || 'y'", "a * 2.5"])


@pytest.fixture(scope="module")
def con():
    c = duckdb.connect()
    c.execute("CREATE TABLE t (a INTEGER, b VARCHAR)")
    yield c
    c.close()


@given(
    lead=st.text(alphabet=" \n\t", max_size=6),
    before=st.lists(_WORDS, max_size=12),
    breaks=st.lists(st.sampled_from([", ", ",\n  ", ",\t", " ,\t\t"]), min_size=12, max_size=12),
)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_position_is_where_duckdb_points(con, lead, before, breaks):
    parts = []
    for word, gap in zip(before, breaks):
        parts.append(word + gap)
    sql = lead + "SELECT " + "".join(parts) + "nope_column FROM t"
    offset = sql.index("nope_column")
    line = sql[:offset].count("\n") + 1
    column = offset - (sql.rfind("\n", 0, offset) + 1) + 1
    try:
        con.execute(sql)
    except duckdb.Error as exc:
        assert query.error_position(sql, str(exc)) == (line, column), str(exc)
    else:
        pytest.fail("the query should have failed")
