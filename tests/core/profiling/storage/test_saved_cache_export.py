"""Saved report round-trip, columnar cache (beside the source / user cache dir), export formats."""

from __future__ import annotations

import csv
import json
import os
import zipfile

import numpy as np
import pandas as pd
import pytest
from openpyxl import load_workbook
from profhelpers import kd_path, read_rows

from workbench.cli import main
from workbench.core.profiling.build import open_report
from workbench.core.profiling.detect import detect
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.export import export_report
from workbench.core.profiling.storage import cache
from workbench.core.profiling.storage.saved import (
    FORMAT_VERSION,
    load_saved,
    save_report,
)


def assert_same_tables(a, b):
    assert list(a.tables) == list(b.tables)
    for name in a.tables:
        left, right = a.tables[name], b.tables[name]
        assert list(left.dtypes.astype(str)) == list(right.dtypes.astype(str)), name
        if not left.equals(right):  # equals(): same values, NaN in the same places, same dtypes
            pd.testing.assert_frame_equal(left, right, check_exact=True, obj=name)
            raise AssertionError(f"table {name} differs")


def is_mapped(array) -> bool:
    while array is not None:
        if isinstance(array, np.memmap):
            return True
        array = getattr(array, "base", None)
    return False


def test_saved_report_round_trips_identical_tables(prof8, tmp_path):
    original = open_report(prof8, use_cache=False)
    out = save_report(original, tmp_path / "shared" / "run1")
    assert out.name == "run1.wbreport" and out.is_file()
    with zipfile.ZipFile(out) as archive:
        meta = json.loads(archive.read("report.json"))
    assert meta["format"] == "ascend-workbench-report" and meta["version"] == FORMAT_VERSION
    reopened = open_report(out)
    assert reopened.kind == "workbench" and reopened.info["saved_kind"] == "msprof"
    assert reopened.devices == original.devices
    assert (reopened.start_ns, reopened.end_ns) == (original.start_ns, original.end_ns)
    assert reopened.pmu_group == original.pmu_group == "PipeUtilization"
    assert_same_tables(original, reopened)
    # exact ns survive (no float round trip)
    assert reopened.ops["start_ns"].dtype == "Int64"


def test_cli_save_then_info_on_saved(capsys, prof8, tmp_path):
    out = tmp_path / "r.wbreport"
    assert main(["report", "save", str(prof8), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["report", "info", str(prof8), "--json"]) == 0
    before = json.loads(capsys.readouterr().out)
    assert main(["report", "info", str(out), "--json"]) == 0
    after = json.loads(capsys.readouterr().out)
    for key in ("devices", "event_count", "flow_count", "span_us", "op_count", "tables", "warnings"):
        assert after[key] == before[key], key
    assert after["kind"] == "workbench"
    assert main(["report", "ops", str(out), "--json"]) == 0
    saved_ops = json.loads(capsys.readouterr().out)
    assert main(["report", "ops", str(prof8), "--json"]) == 0
    assert saved_ops == json.loads(capsys.readouterr().out)


def test_damaged_saved_reports_are_reported(tmp_path):
    bad = tmp_path / "bad.wbreport"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ProfilingDataError, match="not a zip"):
        load_saved(bad)
    newer = tmp_path / "newer.wbreport"
    with zipfile.ZipFile(newer, "w") as archive:
        archive.writestr("report.json", json.dumps({"format": "ascend-workbench-report", "version": 99}))
    with pytest.raises(ProfilingDataError, match="version 99 is newer"):
        load_saved(newer)


def test_cache_beside_source_is_reused_and_invalidated(prof8):
    first = open_report(prof8, use_cache=True)
    place = prof8 / ".wbcache"
    assert (place / "report.json").is_file()
    assert "cache" not in first.info
    second = open_report(prof8, use_cache=True)
    assert second.info["cache"] == str(place)
    assert_same_tables(first, second)
    duration = second.ops["duration_us"].to_numpy()
    assert is_mapped(duration)  # columns are memory-mapped, not read into memory
    # Touching a source file makes the cache stale.
    op_file = next((prof8 / "mindstudio_profiler_output").glob("op_summary_*.csv"))
    st = op_file.stat()
    os.utime(op_file, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    third = open_report(prof8, use_cache=True)
    assert "cache" not in third.info
    assert open_report(prof8, use_cache=True).info["cache"] == str(place)


def test_cache_of_read_only_source_goes_to_user_cache_dir(samples, isolated_home):
    source = kd_path(samples, "pipe")
    assert not source.parent.stat().st_mode & 0o222  # the samples folder is read-only
    open_report(source, use_cache=True)
    again = open_report(source, use_cache=True)
    assert again.info["cache"].startswith(str(isolated_home / "cache"))
    assert not (source.parent / f".{source.name}.wbcache").exists()
    assert cache.locations(detect(source))[1] == type(source)(again.info["cache"])


def test_cache_falls_back_when_beside_is_not_creatable(prof8, tmp_path, monkeypatch, isolated_home):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setattr(cache, "_beside", lambda layout: blocker / ".wbcache")  # mkdir fails there
    open_report(prof8, use_cache=True)
    assert open_report(prof8, use_cache=True).info["cache"].startswith(str(isolated_home / "cache"))


def test_export_xlsx_csv_json(prof8, tmp_path, samples):
    report = open_report(prof8, use_cache=False)
    xlsx = export_report(report, tmp_path / "r.xlsx")
    book = load_workbook(xlsx, read_only=True)
    assert book.sheetnames == list(report.tables)
    ops_sheet = list(book["ops"].iter_rows(values_only=True))
    assert list(ops_sheet[0]) == [str(c) for c in report.ops.columns]
    assert len(ops_sheet) == len(report.ops) + 1
    _, raw = read_rows(kd_path(samples, "pipe"))
    start_col = ops_sheet[0].index("start_ns")
    assert ops_sheet[1][start_col] == "1736413971558972912"  # kept exact as text
    book.close()

    out_csv = tmp_path / "ops.csv"
    assert main(["report", "export", str(prof8), "--out", str(out_csv), "--table", "ops"]) == 0
    with open(out_csv, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(raw)
    assert [r["name"] for r in rows] == [r["Name"] for r in raw]
    assert [r["duration_us"] for r in rows] == [str(float(r["Duration(us)"])) for r in raw]

    out_json = tmp_path / "r.json"
    export_report(report, out_json)
    doc = json.loads(out_json.read_text())
    assert set(doc["tables"]) == set(report.tables)
    assert len(doc["tables"]["ops"]["rows"]) == len(raw)
    with pytest.raises(ProfilingDataError, match="--table"):
        export_report(report, tmp_path / "x.csv")
    with pytest.raises(ProfilingDataError, match="no table 'nope'"):
        export_report(report, tmp_path / "x.csv", table="nope")


def test_damaged_cache_is_rebuilt(prof8):
    first = open_report(prof8, use_cache=True)
    place = prof8 / ".wbcache"
    victim = next(place.rglob("*.npy"))
    victim.write_bytes(b"garbage")
    again = open_report(prof8, use_cache=True)
    assert "cache" not in again.info  # read from the source, cache rewritten
    assert_same_tables(first, again)
    assert open_report(prof8, use_cache=True).info["cache"] == str(place)


def test_a_same_size_edit_with_the_mtime_put_back_is_not_served_from_the_cache(tmp_path):
    import os
    import shutil
    from pathlib import Path

    from workbench.core.profiling.build import open_report
    from workbench.core.profiling.storage import cache

    src = Path(__file__).resolve().parents[4].parent / "shared" / "samples" / "torch_npu-trace_view" / "trace_view.json"
    trace = tmp_path / "trace_view.json"
    shutil.copyfile(src, trace)
    first = open_report(trace, use_cache=True)
    from workbench.core.profiling.detect import detect

    assert cache.present(detect(trace))  # the first open wrote the cache
    text = trace.read_text(encoding="utf-8")
    name = first.timeline.names[0]
    renamed = name[:-1] + ("X" if name[-1] != "X" else "Y")  # same length: the size stays
    stat = trace.stat()
    trace.write_text(
        text.replace(f'"name": "{name}"', f'"name": "{renamed}"').replace(f'"name":"{name}"', f'"name":"{renamed}"'),
        encoding="utf-8",
    )
    assert trace.stat().st_size == stat.st_size
    os.utime(trace, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the mtime put back, as an editor may
    again = open_report(trace, use_cache=True)
    assert renamed in again.timeline.names and name not in again.timeline.names


def test_an_integer_excel_cannot_hold_exactly_goes_to_the_sheet_as_its_digits(tmp_path):
    from workbench.core.profiling.tableio import write_table

    frame = pd.DataFrame(
        {
            "connection_id": pd.array([12, 2**60 + 1, None, -(10**16) - 3], dtype="Int64"),
            "start_ns": pd.array([1736413971558972912, 5, None, 7], dtype="Int64"),
            "count": np.array([1, 2, 3, 999_999_999_999_999], dtype=np.int64),
        }
    )
    out = write_table(frame, tmp_path / "t.xlsx", sheet="ops")
    rows = list(load_workbook(out, read_only=True)["ops"].iter_rows(values_only=True))
    assert rows[0] == ("connection_id", "start_ns", "count")
    assert [r[0] for r in rows[1:]] == [12, str(2**60 + 1), None, str(-(10**16) - 3)]  # small ones stay numbers
    assert [r[1] for r in rows[1:]] == ["1736413971558972912", "5", None, "7"]  # a stamp column is text throughout
    assert [r[2] for r in rows[1:]] == [1, 2, 3, 999_999_999_999_999]
