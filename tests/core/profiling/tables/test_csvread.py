"""CSV reading: aliases, N/A, CANN number tricks, exact timestamps, errors naming file/line/column."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.core.profiling import tables
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.tables import csvread


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_decimal_timestamps_are_exact_where_float64_is_not():
    text = "1736413971558972.912"
    assert csvread.decimal_us_to_ns(text) == 1736413971558972912
    assert int(float(text) * 1000) != 1736413971558972912  # why the digit-wise conversion exists
    assert csvread.decimal_us_to_ns("1699529622790614.8") == 1699529622790614800
    assert csvread.decimal_us_to_ns("12") == 12000
    assert csvread.decimal_us_to_ns("0.0005") == 1  # rounds half up at the ns digit
    with pytest.raises(ValueError):
        csvread.decimal_us_to_ns("12:30")


def test_tricks_na_tab_quotes_and_shapes(tmp_path):
    path = _write(
        tmp_path / "kernel_details.csv",
        "Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Num,Input Shapes,"
        "aic_mac_ratio\n"
        'MatMul_1,MatMul,AI_CORE,"1736413971558972.912\t",185.504,N/A,16,"""81920,4096;8192,512""",0.5\n'
        "hcom_1,hcom,HCCL,1736413971560000.001,N/A,3.5,N/A,N/A,N/A\n",
    )
    ops = tables.read_ops(path)
    assert list(ops["name"]) == ["MatMul_1", "hcom_1"]
    assert ops["start_ns"].tolist() == [1736413971558972912, 1736413971560000001]
    assert ops["duration_us"].iloc[0] == 185.504 and np.isnan(ops["duration_us"].iloc[1])
    assert np.isnan(ops["wait_us"].iloc[0]) and ops["wait_us"].iloc[1] == 3.5
    assert ops["block_dim"].iloc[0] == 16 and ops["block_dim"].iloc[1] is pd.NA
    assert ops["input_shapes"].iloc[0] == "81920,4096;8192,512"
    assert pd.isna(ops["input_shapes"].iloc[1])
    assert np.isnan(ops["aic_mac_ratio"].iloc[1])  # unknown PMU column kept, N/A is missing


def test_header_aliases_across_versions(tmp_path):
    new = _write(
        tmp_path / "a.csv",
        "Device_id,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),"
        "Block Num,Mix Block Num\n1,x,Add,AI_CORE,10.5,2,8,0\n",
    )
    old = _write(
        tmp_path / "b.csv",
        "Op Name,OP Type,Task Type,Task Start Time,Task Duration(us),Block Dim,"
        "Mix Block Dim\nx,Add,AI_CORE,10.5,2,8,0\n",
    )
    a, b = tables.read_ops(new), tables.read_ops(old)
    for key in ("name", "type", "task_type", "start_ns", "duration_us", "block_dim", "mix_block_dim"):
        assert a[key].tolist() == b[key].tolist(), key
    assert a["device"].tolist() == [1]
    assert a["start_ns"].tolist() == [10500]


def test_runtime_api_ns_columns_become_us(tmp_path):
    path = _write(
        tmp_path / "runtime_api_0_1_1.csv",
        "Name,Stream ID,Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Process ID,Thread ID\n"
        "rtKernelLaunch,3,50.0,12000,4,3000,1000,5000,11,12\n",
    )
    api = tables.read_api_statistic(path, "runtime")
    row = api.iloc[0]
    assert (row["level"], row["name"], row["count"]) == ("runtime", "rtKernelLaunch", 4)
    assert (row["total_us"], row["avg_us"], row["min_us"], row["max_us"]) == (12.0, 3.0, 1.0, 5.0)


def test_malformed_number_names_file_line_and_column(tmp_path):
    path = _write(
        tmp_path / "op_summary_1.csv",
        "Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us)\n"
        "a,Add,AI_CORE,1.0,2.0\n"
        "b,Add,AI_CORE,2.0,fast\n",
    )
    with pytest.raises(ProfilingDataError) as err:
        tables.read_ops(path)
    message = str(err.value)
    assert str(path) in message and "line 3" in message and "Task Duration(us)" in message and "'fast'" in message


def test_bad_timestamp_and_wrong_field_count(tmp_path):
    path = _write(tmp_path / "k.csv", "Name,Start Time(us),Duration(us)\na,12:00,1\n")
    with pytest.raises(ProfilingDataError, match=r"line 2, column 'Start Time\(us\)'"):
        tables.read_ops(path)
    path = _write(tmp_path / "k2.csv", "Name,Start Time(us),Duration(us)\na,1,1\nb,2\n")
    with pytest.raises(ProfilingDataError, match=r"k2.csv: line 3: expected 3 fields as in the header, got 2"):
        tables.read_ops(path)


def test_missing_required_column_empty_and_binary_files(tmp_path):
    with pytest.raises(ProfilingDataError, match="no column 'Task Duration\\(us\\)' or 'Duration\\(us\\)'"):
        tables.read_ops(_write(tmp_path / "a.csv", "Name,Start Time(us)\na,1\n"))
    with pytest.raises(ProfilingDataError, match="empty file"):
        tables.read_ops(_write(tmp_path / "b.csv", ""))
    binary = tmp_path / "c.csv"
    binary.write_bytes(b"\x00\x01\x02\xff\xfe" * 100)
    with pytest.raises(ProfilingDataError, match="not a text CSV"):
        tables.read_ops(binary)


def test_structure_crlf_blank_lines_quoted_newlines_and_line_numbers(tmp_path):
    text = (
        "Name,Start Time(us),Duration(us),Input Shapes\r\n"
        'a,1.000,2,"""1,2"""\r\n'
        "\r\n"
        '"multi\nline",3.5,4,N/A\r\n'
        "c,5,x,N/A"
    )  # no final newline; the quoted newline makes this line 6
    path = _write(tmp_path / "k.csv", text)
    with pytest.raises(ProfilingDataError, match=r"line 6, column 'Duration\(us\)': expected a number or N/A, got 'x'"):
        tables.read_ops(path)
    path = _write(tmp_path / "k2.csv", text.replace(",x,", ",6,"))
    ops = tables.read_ops(path)
    assert ops["name"].tolist() == ["a", "multi\nline", "c"]
    assert ops["start_ns"].tolist() == [1000, 3500, 5000]
    assert ops["input_shapes"].tolist()[0] == "1,2"


def test_truncated_last_record_is_reported(tmp_path):
    path = _write(tmp_path / "k.csv", "Name,Start Time(us),Duration(us)\na,1,2\nb,3")
    with pytest.raises(
        ProfilingDataError, match=r"line 3: expected 3 fields as in the header, got 2 \(the file may be truncated\)"
    ):
        tables.read_ops(path)


def test_record_lines_across_chunks(tmp_path, monkeypatch):
    rows = [f'op{i},"{i}.5\t",1,"""{i},{i}"""' for i in range(3000)]
    path = _write(tmp_path / "k.csv", "Name,Start Time(us),Duration(us),Input Shapes\n" + "\n".join(rows) + "\n")
    monkeypatch.setattr(csvread, "CHUNK", 97)  # records straddle chunk borders
    lines = csvread.record_lines(path, 4)
    assert lines.tolist() == list(range(2, 3002))
    ops = tables.read_ops(path)
    assert ops["start_ns"].tolist() == [i * 1000 + 500 for i in range(3000)]
    assert ops["input_shapes"].tolist()[7] == "7,7"
    bad = _write(
        tmp_path / "b.csv",
        "Name,Start Time(us),Duration(us),Input Shapes\n"
        + "\n".join(rows[:2000])
        + "\nx,1,2\n"
        + "\n".join(rows[2000:])
        + "\n",
    )
    with pytest.raises(ProfilingDataError, match="line 2002: expected 4 fields"):
        csvread.record_lines(bad, 4)
