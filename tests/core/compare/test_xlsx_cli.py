"""Excel export read back with openpyxl, and the `compare` verb run as a subprocess (exit codes, JSON)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import openpyxl
import pytest
from cmphelpers import pct, read, scaled_copy, totals

from workbench.core.compare import CompareError, compare_paths, write_xlsx
from workbench.core.compare.model import records
from workbench.core.tasks import run_inline


@pytest.fixture
def slower(pipe_csv, tmp_path):
    """The pipe sample with MatMulV3 50 % slower."""
    return scaled_copy(pipe_csv, tmp_path / "cur" / "kernel_details.csv", lambda r: r["Type"] == "MatMulV3", "1.5")


def sheet_rows(book, title):
    rows = list(book[title].iter_rows(values_only=True))
    return rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]


def test_xlsx_reads_back_with_the_same_numbers(pipe_csv, slower, tmp_path):
    c = run_inline(compare_paths, pipe_csv, slower)
    c.warnings.append("a test warning")
    (tmp_path / "out").mkdir()
    out = run_inline(write_xlsx, c, tmp_path / "out" / "cmp.xlsx")
    assert [p.name for p in out.parent.iterdir()] == ["cmp.xlsx"]  # atomic: no temp file left
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == [
        "Overall",
        "OpType",
        "OpName",
        "AICoreMetrics",
        "MemoryPeaks",
        "MemoryCompareStatistic",
        "CommunicationCompare",
        "Warnings",
    ]
    assert all(book[s].freeze_panes == "A2" for s in book.sheetnames)
    for title, by in (("OpType", "type"), ("OpName", "name")):
        header, rows = sheet_rows(book, title)
        expected = records(c.op_rows(by))
        assert len(rows) == len(expected)
        for got, want in zip(rows, expected):
            assert got[header[0]] == want["key"] and got["Status"] == want["status"]
            assert got["Base Count"] == want["base_count"] and got["Current Count"] == want["current_count"]
            assert got["Base Total(us)"] == want["base_total_us"] and got["Diff(us)"] == want["diff_us"]
            assert got["Diff(%)"] == (want["diff_pct"] if want["diff_pct"] is not None else "n/a")
            assert got["Base First Start(ns)"] == str(want["base_first_ns"])  # exact epoch ns as text
    # the scaled type, independently: red (worse) cells, two-decimal percent, three-decimal µs
    _, raw = read(pipe_csv)
    b, a = totals(raw, "Type")["MatMulV3"]["total"], totals(read(slower)[1], "Type")["MatMulV3"]["total"]
    sheet = book["OpType"]
    row = next(r for r in sheet.iter_rows(min_row=2) if r[0].value == "MatMulV3")
    cells = dict(zip([h.value for h in sheet[1]], row))
    assert cells["Diff(us)"].value == float(a - b)
    assert cells["Diff(%)"].value == pytest.approx(pct(b, a), abs=0.006)
    assert cells["Diff(%)"].number_format == "0.00" and cells["Diff(us)"].number_format == "0.000"
    assert cells["Status"].fill.fgColor.rgb.endswith("FFC7CE")
    same = next(r for r in sheet.iter_rows(min_row=2) if r[2].value == "same")
    assert same[2].fill.fill_type is None
    _, overall = sheet_rows(book, "Overall")
    total = next(r for r in overall if r["Metric"] == "Total device time")
    assert total["Base"] == c.total()["base_total_us"] and total["Diff"] == c.total()["diff_us"]
    _, metrics = sheet_rows(book, "AICoreMetrics")
    assert len(metrics) == len(c.metrics)
    _, warnings = sheet_rows(book, "Warnings")
    assert [w["Warning"] for w in warnings] == c.warnings
    with pytest.raises(CompareError, match="xlsx"):
        write_xlsx(c, tmp_path / "cmp.csv")


def test_xlsx_faster_is_green(pipe_csv, tmp_path):
    cur = scaled_copy(pipe_csv, tmp_path / "cur" / "kernel_details.csv", lambda r: r["Type"] == "MatMulV3", "0.5")
    out = write_xlsx(run_inline(compare_paths, pipe_csv, cur), tmp_path / "cmp.xlsx")
    sheet = openpyxl.load_workbook(out)["OpType"]
    row = next(r for r in sheet.iter_rows(min_row=2) if r[0].value == "MatMulV3")
    assert row[2].value == "faster" and row[2].fill.fgColor.rgb.endswith("C6EFCE")


def cli(*args, env_home):
    env = dict(os.environ, ASCEND_WORKBENCH_HOME=str(env_home))
    return subprocess.run(
        [sys.executable, "-m", "workbench", "compare", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )


def test_cli_gate_json_and_xlsx(pipe_csv, slower, tmp_path, isolated_home):
    _, raw = read(pipe_csv)
    b, a = totals(raw, "Type")["MatMulV3"]["total"], totals(read(slower)[1], "Type")["MatMulV3"]["total"]
    row_pct = pct(b, a)
    assert 45 < row_pct <= 50
    above = cli(pipe_csv, slower, "--json", "--fail-on-regression", "40", env_home=isolated_home)
    assert above.returncode == 3, above.stderr
    doc = json.loads(above.stdout)
    assert doc["base"] == str(pipe_csv) and doc["current"] == str(slower)
    assert {"base_total_us", "current_total_us", "diff_us", "diff_pct"} <= set(doc["overall"])
    row = next(r for r in doc["rows"] if r["key"] == "MatMulV3")
    assert row["status"] == "slower" and row["diff_us"] == float(a - b)
    assert {
        "key",
        "status",
        "base_count",
        "current_count",
        "base_total_us",
        "current_total_us",
        "diff_us",
        "diff_pct",
    } <= set(row)
    assert any(r.startswith("MatMulV3:") for r in doc["regressions"])
    below = cli(
        pipe_csv, slower, "--json", "--fail-on-regression", "60", "--out", tmp_path / "c.xlsx", env_home=isolated_home
    )
    assert below.returncode == 0, below.stderr
    assert json.loads(below.stdout)["regressions"] == [] and (tmp_path / "c.xlsx").is_file()
    # total regression alone trips the gate: threshold between the total's and the row's percent
    total_pct = doc["overall"]["diff_pct"]
    assert 0 < total_pct < row_pct
    by_name = cli(
        pipe_csv, slower, "--json", "--by", "name", "--fail-on-regression", str(total_pct - 0.5), env_home=isolated_home
    )
    assert by_name.returncode == 3 and json.loads(by_name.stdout)["by"] == "name"
    text = cli(pipe_csv, slower, env_home=isolated_home)
    assert text.returncode == 0 and "MatMulV3" in text.stdout and "slower" in text.stdout


def test_cli_self_compare_and_bad_input(pipe_csv, tmp_path, isolated_home):
    same = cli(pipe_csv, pipe_csv, "--json", "--fail-on-regression", "0", env_home=isolated_home)
    assert same.returncode == 0, same.stderr
    doc = json.loads(same.stdout)
    assert doc["overall"]["diff_us"] == 0 and all(r["diff_us"] == 0 and r["status"] == "same" for r in doc["rows"])
    missing = cli(pipe_csv, tmp_path / "nope", "--json", env_home=isolated_home)
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.startswith("error: current report") and "nope" in missing.stderr
    assert "Traceback" not in missing.stderr
    bad_gate = cli(pipe_csv, pipe_csv, "--fail-on-regression", "-1", env_home=isolated_home)
    assert bad_gate.returncode == 2 and "--fail-on-regression" in bad_gate.stderr
    bad_out = cli(pipe_csv, pipe_csv, "--out", tmp_path / "x.csv", env_home=isolated_home)
    assert bad_out.returncode == 2 and ".xlsx" in bad_out.stderr
    bad_pair = cli(pipe_csv, pipe_csv, "--pair", "zero", env_home=isolated_home)
    assert bad_pair.returncode == 2 and "BASE_DEVICE:CURRENT_DEVICE" in bad_pair.stderr
