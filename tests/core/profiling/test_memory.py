"""The Memory view's model (issue #19): memory_record curves, peaks, operator_memory, npu_module_mem and the
peak-keeping downsample — against values computed here from the real sample with the csv module; msprof's KB
files, missing columns and empty cells."""

from __future__ import annotations

import csv
import math
import shutil
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.core.profiling.build import open_report
from workbench.core.profiling.memory import KINDS, downsample, memory_view
from workbench.core.profiling.report import Report
from workbench.core.profiling.tables import read_table

SAMPLE = "torch_npu-910B-rank0-comm-mem"


def rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        return header, [dict(zip(header, (v.strip() for v in r))) for r in reader if r]


def ns(text: str) -> int:
    return int((Decimal(text) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


def mb(text: str, per_mb: float = 1.0) -> float:
    return float(text) / per_mb if text else math.nan


def write(path: Path, header: list[str], body: list[list[str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\r\n")
        w.writerow(header)
        w.writerows(body)
    return path


@pytest.fixture
def sample(samples) -> Path:
    return samples / SAMPLE


@pytest.fixture
def view(sample):
    got = memory_view(open_report(sample, use_cache=False))
    assert got is not None
    return got


def expected_curves(path: Path, per_mb: float = 1.0) -> dict[tuple[str, str], list[tuple[int, float]]]:
    header, body = rows(path)
    unit = "(KB)" if per_mb != 1.0 else "(MB)"
    out: dict = {}
    for r in body:
        for kind in KINDS:
            column = f"Total {kind.title()}{unit}"
            value = mb(r[column], per_mb) if column in header else math.nan
            out.setdefault((r["Component"], kind), []).append((ns(r["Timestamp(us)"]), value))
    return {k: sorted(v, key=lambda p: p[0]) for k, v in out.items()}


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def test_sample_curves_components_and_peaks(sample, view):
    want = expected_curves(sample / "memory_record.csv")
    _, body = rows(sample / "memory_record.csv")
    assert view.components == list(dict.fromkeys(r["Component"] for r in body)) == ["APP", "PTA", "PTA+GE", "GE"]
    for (component, kind), points in want.items():
        ts, values = view.curve(component, kind)
        assert ts.dtype == np.int64 and values.dtype == np.float64
        assert ts.tolist() == [p[0] for p in points], (component, kind)  # exact epoch ns (trailing TAB and all)
        assert all(same(a, b) for a, b in zip(values.tolist(), [p[1] for p in points])), (component, kind)
    ts, values = view.curve("APP", "allocated")
    assert len(ts) == 14 and np.isnan(values).all(), "APP rows leave Total Allocated empty: NaN, not 0"
    expected_peaks = {}
    for (component, kind), points in want.items():
        finite = [p for p in points if not math.isnan(p[1])]
        if finite:
            top = max(p[1] for p in finite)
            expected_peaks[(component, kind)] = (next(p[0] for p in finite if p[1] == top), top)
    assert {(p.component, p.kind): (p.ts_ns, p.value_mb) for p in view.peaks} == expected_peaks
    assert view.peak("PTA", "allocated").value_mb == 1187.9814453125
    assert view.warnings == [] and view.notes == []


def test_sample_operators_and_alive_at_the_peak(sample, view):
    _, body = rows(sample / "operator_memory.csv")
    ops = view.operators
    assert list(ops.columns[:15]) == [
        "name", "size_kb", "alloc_ns", "release_ns", "active_release_ns", "duration_us", "active_duration_us",
        "alloc_total_allocated_mb", "alloc_total_reserved_mb", "alloc_total_active_mb",
        "release_total_allocated_mb", "release_total_reserved_mb", "release_total_active_mb", "stream", "device",
    ]  # fmt: skip
    assert len(ops) == len(body) == 184
    for (_, got), r in zip(ops.iterrows(), body):
        assert got["name"] == r["Name"] and got["size_kb"] == float(r["Size(KB)"])
        assert int(got["alloc_ns"]) == ns(r["Allocation Time(us)"])
        for key, header in (("release_ns", "Release Time(us)"), ("active_release_ns", "Active Release Time(us)")):
            assert (pd.isna(got[key]) and not r[header]) or int(got[key]) == ns(r[header])
        assert same(got["duration_us"], mb(r["Duration(us)"]))
        assert same(got["release_total_allocated_mb"], mb(r["Release Total Allocated(MB)"]))
        assert (pd.isna(got["stream"]) and not r["Stream Ptr"]) or int(got["stream"]) == int(r["Stream Ptr"])
        assert got["device"] == 0 and got["device_type"] == "NPU:0"
    peak = view.peak("PTA", "allocated")
    alive = view.alive_at(peak.ts_ns)
    expected = [
        r
        for r in body
        if ns(r["Allocation Time(us)"]) <= peak.ts_ns
        and (not r["Release Time(us)"] or ns(r["Release Time(us)"]) >= peak.ts_ns)
    ]
    assert len(alive) == len(expected) == 41
    assert sorted(alive["alloc_ns"].astype(int)) == sorted(ns(r["Allocation Time(us)"]) for r in expected)
    assert alive["size_kb"].is_monotonic_decreasing


def test_sample_modules(sample, view):
    _, body = rows(sample / "npu_module_mem.csv")
    assert view.modules == list(dict.fromkeys(r["Component"] for r in body)) and len(view.modules) == 77
    ts, reserved = view.module_curve("HCCL")
    points = sorted((ns(r["Timestamp(us)"]), float(r["Total Reserved(MB)"])) for r in body if r["Component"] == "HCCL")
    assert ts.tolist() == [p[0] for p in points] and reserved.tolist() == [p[1] for p in points]
    assert view.module_curve("NOT A MODULE")[0].size == 0


def test_msprof_kb_memory_record_is_mb_and_says_what_it_lacks(sample, tmp_path):
    """msprof's memory_record: (KB), no Total Active, a Device column: the same MB curves as the MB file."""
    _, body = rows(sample / "memory_record.csv")
    kb = lambda v: repr(float(v) * 1024) if v else ""  # noqa: E731
    folder = tmp_path / "copied"
    write(
        folder / "memory_record.csv",
        ["Component", "Timestamp(us)", "Total Allocated(KB)", "Total Reserved(KB)", "Device"],
        [
            [r["Component"], r["Timestamp(us)"] + "\t", kb(r["Total Allocated(MB)"]), kb(r["Total Reserved(MB)"]), "0"]
            for r in body
        ],
    )
    got = memory_view(open_report(folder, use_cache=False))
    want = memory_view(open_report(sample, use_cache=False))
    for component in want.components:
        for kind in ("allocated", "reserved"):
            a, b = got.curve(component, kind), want.curve(component, kind)
            assert a[0].tolist() == b[0].tolist()
            np.testing.assert_allclose(a[1], b[1], rtol=1e-15)
        assert np.isnan(got.curve(component, "active")[1]).all()
    assert got.warnings == ["memory_record: no column 'Total Active(MB)' (its values are left empty)"]
    assert "memory_record: Total Allocated(KB) converted to MB" in got.notes


def test_missing_columns_and_cells(sample, tmp_path):
    header, body = rows(sample / "operator_memory.csv")
    drop = ("Release Time(us)", "Active Release Time(us)", "Stream Ptr", "Release Total Active(MB)")
    keep = [h for h in header if h not in drop]
    folder = tmp_path / "older"
    write(folder / "operator_memory.csv", keep, [[r[h] for h in keep] for r in body])
    view = memory_view(open_report(folder, use_cache=False))
    assert view.warnings == [
        "operator_memory: no column 'Active Release Time(us)', 'Release Total Active(MB)', 'Stream Ptr' "
        "(its values are left empty)"
    ]
    assert any("release times are allocation time + Duration(us)" in n for n in view.notes)
    ops = view.operators
    released = [r for r in body if r["Duration(us)"]]
    got = ops[ops["release_ns"].notna()]
    assert len(got) == len(released)
    assert got["release_ns"].astype(int).tolist() == [
        ns(r["Allocation Time(us)"]) + ns(r["Duration(us)"]) for r in released
    ]
    assert ops["stream"].isna().all() and view.components == [] and view.modules == []


def test_time_columns_empty_in_the_sampled_rows_stay_exact(sample, tmp_path):
    """The first allocations of a run are never released: 100 rows without a Release Time before any has
    one. The column is still exact int64 ns (it was read as float64 µs: 1736408883736793.940 -> .94x)."""
    header, body = rows(sample / "operator_memory.csv")
    unreleased = [r for r in body if not r["Release Time(us)"]]
    released = [r for r in body if r["Release Time(us)"]]
    path = write(
        tmp_path / "operator_memory.csv",
        header,
        [[r[h] + ("\t" if "Time(us)" in h and r[h] else "") for h in header] for r in unreleased * 5 + released],
    )
    table = read_table(path)
    assert "Release Time(ns)" in table.columns and str(table["Release Time(ns)"].dtype) == "Int64"
    got = table["Release Time(ns)"].dropna().astype(int).tolist()
    assert got == [ns(r["Release Time(us)"]) for r in released]
    view = memory_view(Report(tmp_path, "torch_npu", tables={"operator_memory": table}))
    assert view.operators["release_ns"].dropna().astype(int).tolist() == got


def test_several_devices_name_their_components(sample, tmp_path):
    header, body = rows(sample / "memory_record.csv")
    twice = [[r[h] for h in header] for r in body] + [
        [r[h] if h != "Device Type" else "NPU:1" for h in header] for r in body
    ]
    write(tmp_path / "two" / "memory_record.csv", header, twice)
    view = memory_view(open_report(tmp_path / "two", use_cache=False))
    assert view.components == ["APP (NPU:0)", "PTA (NPU:0)", "PTA+GE (NPU:0)", "GE (NPU:0)"] + [
        f"{c} (NPU:1)" for c in ("APP", "PTA", "PTA+GE", "GE")
    ]
    a, b = view.curve("PTA (NPU:0)", "allocated"), view.curve("PTA (NPU:1)", "allocated")
    assert a[0].tolist() == b[0].tolist() and len(a[0]) == 381


def test_no_memory_tables_no_view(tmp_path):
    assert memory_view(Report(tmp_path, "torch_npu")) is None


def test_downsample_keeps_the_peaks_and_time_order():
    rng = np.random.default_rng(19)
    n = 1_000_000
    ts = 1736408883573957920 + np.cumsum(rng.integers(1, 2000, n)).astype(np.int64)
    values = np.cumsum(rng.normal(0, 1, n))
    values[777_777] = values.max() + 50.0  # one narrow spike
    values[123_456] = values.min() - 50.0
    keep = downsample(ts, values, 2000)
    assert keep.dtype == np.int64 and np.all(np.diff(keep) > 0)
    assert 1500 <= len(keep) <= 2010
    assert {0, n - 1, 777_777, 123_456} <= set(keep.tolist())
    assert values[keep].max() == values.max() and values[keep].min() == values.min()
    # with gaps (empty cells): the NaN-aware sampler; the highest finite point is kept
    values[::10] = np.nan
    keep = downsample(ts, values, 2000)
    assert 777_777 in set(keep.tolist()) and np.all(np.diff(keep) > 0)
    # up to the threshold every point is kept
    assert downsample(ts[:100], values[:100], 2000).tolist() == list(range(100))
    assert len(downsample(ts, values, 2000, threshold=n)) == n


def test_downsample_of_a_curve_of_the_view(view):
    ts, values = view.curve("PTA+GE", "allocated")
    keep = downsample(ts, values, 40)
    assert len(keep) < len(ts)
    assert values[keep].max() == view.peak("PTA+GE", "allocated").value_mb


def test_sample_copied_into_a_plain_folder_is_a_torch_npu_report(sample, tmp_path):
    folder = tmp_path / "just_the_files"
    shutil.copytree(sample, folder)
    report = open_report(folder, use_cache=False)
    assert report.kind == "torch_npu"
    assert {"memory_record", "operator_memory", "npu_module_mem", "step_trace_time", "communication"} <= set(
        report.tables
    )


def test_merged_reports_name_their_components(sample, tmp_path):
    from workbench.core.profiling.merge import merge_opened

    a, b = tmp_path / "rank0_ascend_pt", tmp_path / "rank1_ascend_pt"
    for folder in (a, b):
        shutil.copytree(sample, folder / "ASCEND_PROFILER_OUTPUT")
    merged = merge_opened([open_report(a, use_cache=False), open_report(b, use_cache=False)])
    view = memory_view(merged)
    assert view.components == [f"{c} (rank{r}_ascend_pt)" for r in (0, 1) for c in ("APP", "PTA", "PTA+GE", "GE")]
    assert len(view.curve("PTA (rank1_ascend_pt)", "allocated")[0]) == 381


def test_a_15_digit_stream_pointer_is_not_read_as_an_epoch_time(tmp_path):
    # an aarch64 stream address has the magnitude of epoch µs; it must stay the number written
    from workbench.core.profiling import tables

    path = tmp_path / "memory_record.csv"
    path.write_text(
        "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n"
        "PTA,1736408883573957.920\t,1.5,2.0,1.5,281470681743360,NPU:0\n"
        "PTA,1736408883593933.920\t,2.5,3.0,2.5,281470681743360,NPU:0\n",
        encoding="utf-8",
    )
    frame = tables.read_table(path)
    assert "Stream Ptr(ns)" not in frame.columns
    assert frame["Stream Ptr"].tolist() == [281470681743360, 281470681743360]
    assert frame["Timestamp(ns)"].tolist() == [1736408883573957920, 1736408883593933920]
