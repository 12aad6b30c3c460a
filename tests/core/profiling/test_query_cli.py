"""`ascend-workbench report query PATH SQL` as a user runs it (a subprocess): text, --json, --csv,
--xlsx, --force, errors in one line with exit 2, a .db export, Ctrl-C."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workbench.core.demo import sample_reports
from workbench.core.profiling.build import open_report
from workbench.core.tasks import run_inline

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def prof() -> Path:
    return next(p for p in sample_reports() if p.name.startswith("PROF_"))


@pytest.fixture(scope="module")
def ops(prof):
    return run_inline(open_report, prof, use_cache=False).ops


@pytest.fixture
def env(isolated_home) -> dict[str, str]:
    return dict(os.environ, ASCEND_WORKBENCH_HOME=str(isolated_home), PYTHONPATH=str(ROOT))


def cli(env, *args: str, code: int = 0, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "workbench", "report", "query", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert proc.returncode == code, proc.stderr
    return proc


def test_text_table_with_a_row_limit_note(env, prof, ops):
    out = cli(env, str(prof), "SELECT name, stream, dur_ns FROM ops ORDER BY dur_ns DESC, name", "--limit", "3").stdout
    lines = out.splitlines()
    assert lines[0].split() == ["name", "stream", "dur_ns"]
    assert len(lines) == 2 + 3 + 1
    top = ops.sort_values(["duration_us", "name"], ascending=[False, True]).iloc[0]
    assert lines[2].split()[0] == top["name"] and int(lines[2].split()[-1]) == round(top["duration_us"] * 1000)
    assert lines[-1] == f"(3 of {len(ops):,} rows shown; --limit N, or --csv / --json / --xlsx OUT for every row)"
    # columns line up: numbers end where their header ends
    stream = str(int(top["stream_id"]))
    assert lines[2][: lines[0].index("stream") + len("stream")].endswith(" " + stream)
    assert lines[2].endswith(" " + str(round(top["duration_us"] * 1000))) and len(lines[2]) == len(lines[0])


def test_json_rows_equal_the_ops_table(env, prof, ops):
    doc = json.loads(cli(env, str(prof), "SELECT name, start_ns, duration_us FROM ops", "--json").stdout)
    assert doc["columns"] == ["name", "start_ns", "duration_us"]
    assert len(doc["rows"]) == len(ops)
    assert [r[0] for r in doc["rows"]] == ops["name"].astype(object).tolist()
    assert [r[1] for r in doc["rows"]] == [int(v) for v in ops["start_ns"]]  # exact epoch ns
    assert [r[2] for r in doc["rows"]] == ops["duration_us"].tolist()


def test_csv_and_force(env, prof, ops, tmp_path):
    out = tmp_path / "slow.csv"
    sql = "SELECT name, start_ns, dur_ns, NULL::BIGINT AS missing FROM ops ORDER BY start_ns"
    info = json.loads(cli(env, str(prof), sql, "--csv", str(out)).stdout)
    assert info == {"out": str(out), "rows": len(ops), "columns": ["name", "start_ns", "dur_ns", "missing"]}
    with out.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    expected = ops.sort_values("start_ns", kind="stable")
    assert [r["start_ns"] for r in rows] == [str(int(v)) for v in expected["start_ns"]]
    assert {r["missing"] for r in rows} == {"N/A"}
    before = out.read_bytes()
    err = cli(env, str(prof), "SELECT 1 AS x", "--csv", str(out), code=2).stderr
    assert err == f"error: {out}: exists; pass --force to replace it\n"
    assert out.read_bytes() == before
    cli(env, str(prof), "SELECT 1 AS x", "--csv", str(out), "--force")
    assert out.read_text() == "x\n1\n"


def test_xlsx(env, prof, ops, tmp_path):
    from openpyxl import load_workbook

    out = tmp_path / "q.xlsx"
    cli(
        env,
        str(prof),
        "SELECT type, count(*) AS n, min(start_ns) AS first_ns FROM ops GROUP BY type ORDER BY type",
        "--xlsx",
        str(out),
    )
    sheet = load_workbook(out).active
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[0] == ["type", "n", "first_ns"]
    expected = ops.groupby(ops["type"].astype(str))["start_ns"].agg(["count", "min"]).sort_index()
    assert [(r[0], r[1], r[2]) for r in values[1:]] == [(t, int(c), str(int(m))) for t, (c, m) in expected.iterrows()]


def test_errors_are_one_line_exit_2(env, prof, tmp_path):
    err = cli(env, str(prof), "SELECT name,\n  nope\nFROM ops", code=2).stderr
    assert err.startswith("error: SQL line 2, column 3: Binder Error: ") and err.count("\n") == 1
    err = cli(env, str(prof), "DELETE FROM ops", code=2).stderr
    assert err == (
        "error: SQL line 1, column 1: only SELECT queries run over a report; this is a DELETE statement "
        "(the report is read-only)\n"
    )
    err = cli(env, str(prof), "SELECT * FROM read_csv('/etc/passwd')", code=2).stderr
    assert "reading or writing files is not allowed" in err and err.count("\n") == 1
    err = cli(env, str(prof), "SELECT 1", "--csv", str(tmp_path / "x.txt"), code=2).stderr
    assert err == f"error: --csv {tmp_path / 'x.txt'}: expected a file name ending in .csv\n"
    inputs = list((prof / "mindstudio_profiler_output").glob("op_summary_*.csv"))
    err = cli(env, str(prof), "SELECT 1", "--csv", str(inputs[0]), "--force", code=2).stderr
    assert "is an input of this command" in err and "Traceback" not in err


def test_a_db_export_is_queried_as_it_is(env, tmp_path):
    path = tmp_path / "msprof_20240603093000.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER)")
    db.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (?, ?)", [(7, 1), (8, 2), (7, 3)])
    db.commit()
    db.close()
    before = path.read_bytes()
    doc = json.loads(
        cli(
            env, str(path), "SELECT name, count(*) AS n FROM COMPUTE_TASK_INFO GROUP BY name ORDER BY name", "--json"
        ).stdout
    )
    assert doc["rows"] == [[7, 2], [8, 1]]
    cli(env, str(path), "DROP TABLE COMPUTE_TASK_INFO", code=2)
    assert path.read_bytes() == before


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the CPU time from /proc")
def test_ctrl_c_cancels_the_query(env, prof):
    sql = (
        "SELECT count(*) FROM slices a, slices b, slices c, slices d "
        "WHERE (a.dur_ns + 3 * b.dur_ns + 7 * c.id + d.id) % 1000003 = -1"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", "report", "query", str(prof), sql],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while _cpu_seconds(proc.pid) < 3.0:  # the report is open and DuckDB is at work
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the query never got going"
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(0.1)
        asked = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        assert time.monotonic() - asked < 5
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 1
    assert err == "cancelled\n" and out == ""
