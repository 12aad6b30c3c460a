"""PMU metrics held as exact scaled integers (DecimalArray): the values are float64's, bit for bit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.profiling import tables
from workbench.core.profiling.storage import columnar
from workbench.core.profiling.tables import csvread
from workbench.core.profiling.tables.decimals import DecimalArray, compact, decode, encode

SAMPLES = Path(__file__).resolve().parents[4].parent / "shared" / "samples"
PIPE = SAMPLES / "torch_npu-kernel_details-pipe" / "kernel_details.csv"


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ---- the encoding --------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-(2**31) + 2, 2**31 - 2)), max_size=60))
def test_every_three_decimal_text_comes_back_as_its_float(thousandths):
    # what a CSV cell says (e.g. "-12.034"), parsed by float(): the held value is that very double
    texts = [None if t is None else f"{'-' if t < 0 else ''}{abs(t) // 1000}.{abs(t) % 1000:03d}" for t in thousandths]
    values = np.array([np.nan if t is None else float(t) for t in texts], dtype=np.float64)
    if any(t is not None and t == 0 and v == 0 and np.signbit(v) for t, v in zip(thousandths, values)):
        return  # "-0.000" is float -0.0: not held (below)
    held = compact(values)
    assert isinstance(held, DecimalArray)
    got = held.floats()
    assert np.array_equal(np.isnan(got), np.isnan(values))
    assert got[~np.isnan(got)].tobytes() == values[~np.isnan(values)].tobytes()


@pytest.mark.parametrize(
    "values",
    [[0.1234], [2.0**31], [-0.0], [np.inf], [1e-4], [0.5, 3e9]],
    ids=["four-decimals", "too-big", "minus-zero", "inf", "tiny", "one-out-of-range"],
)
def test_values_thousandths_cannot_hold_stay_float64(values):
    values = np.array(values, dtype=np.float64)
    assert encode(values) is None
    assert compact(values) is values


def test_ratios_take_two_bytes_times_four():
    assert encode(np.array([0.824, np.nan, 32.767])).dtype == np.int16
    assert encode(np.array([185.504, np.nan])).dtype == np.int32
    assert encode(np.array([-32.768])).dtype == np.int32  # int16's minimum is the missing sentinel


# ---- as a pandas column ----------------------------------------------------------------------


VALUES = np.array([0.824, 0.479, np.nan, 185.504, 0.0, 1.5, 0.031])
GROUPS = ["a", "b", "a", "b", "a", "b", "a"]


@pytest.fixture
def frames():
    held = pd.DataFrame({"g": GROUPS, "x": compact(VALUES)})
    plain = pd.DataFrame({"g": GROUPS, "x": VALUES})
    assert isinstance(held["x"].array, DecimalArray)
    return held, plain


def test_numpy_arithmetic_and_comparisons_see_the_float64_values(frames):
    held, plain = frames
    h, p = held["x"], plain["x"]
    assert np.asarray(h).tobytes() == np.asarray(p).tobytes()
    for got, want in [
        (h > 0.5, p > 0.5),
        (h == 0.824, p == 0.824),
        (h * 2 + 1, p * 2 + 1),
        (1 - h, 1 - p),
        (h / p, p / p),
        (np.maximum(h, 1.0), np.maximum(p, 1.0)),
        (h.fillna(0), p.fillna(0)),
        (h.where(h > 0.5, 0), p.where(p > 0.5, 0)),
    ]:
        pd.testing.assert_series_equal(pd.Series(np.asarray(got)), pd.Series(np.asarray(want)), check_exact=True)
    for name in ("sum", "mean", "max", "min", "std", "median"):
        assert getattr(h, name)() == getattr(p, name)(), name
    assert h.to_numpy(float, na_value=0.0).tolist() == p.to_numpy(float, na_value=0.0).tolist()
    assert h.cumsum().tolist()[-1] == p.cumsum().tolist()[-1]
    assert pd.api.types.is_float_dtype(h) and pd.api.types.is_numeric_dtype(h)


def test_grouping_gives_what_the_float64_column_gives(frames):
    held, plain = frames
    for how in ("mean", "sum", "max", "min", "count", "first", "std"):
        got = held.groupby("g")["x"].agg(how)
        want = plain.groupby("g")["x"].agg(how)
        assert np.asarray(got).tolist() == np.asarray(want).tolist(), how


def test_selecting_rows_stays_compact_and_mixing_with_float64_gives_float64(frames):
    held, plain = frames
    for part in (held[held["x"] > 0.1], held.iloc[[4, 0, 2]], held.sort_values("x"), held.head(3), held.copy()):
        assert isinstance(part["x"].array, DecimalArray)
    assert held.sort_values("x")["x"].tolist()[:3] == plain.sort_values("x")["x"].tolist()[:3]
    both = pd.concat([held, held], ignore_index=True)
    assert isinstance(both["x"].array, DecimalArray) and len(both) == 2 * len(held)
    mixed = pd.concat([held, plain], ignore_index=True)
    assert mixed["x"].dtype == np.float64
    assert np.asarray(mixed["x"]).tobytes() == np.concatenate([VALUES, VALUES]).tobytes()
    # int16 and int32 held columns concatenate to int32, missing kept
    wide = pd.concat([pd.Series(compact(np.array([0.5, np.nan]))), pd.Series(compact(np.array([185.504])))])
    assert wide.array.ints.dtype == np.int32 and np.isnan(wide.iloc[1]) and wide.iloc[2] == 185.504


def test_arrow_csv_and_text_see_the_values(frames):
    held, _ = frames
    arrow = pa.array(held["x"], from_pandas=True)
    assert arrow.type == pa.float64() and arrow.null_count == 1 and arrow.to_pylist()[3] == 185.504
    assert held.to_csv(index=False).splitlines()[1:5] == ["a,0.824", "b,0.479", "a,", "b,185.504"]
    assert held["x"].iloc[3] == 185.504 and isinstance(held["x"].iloc[3], float)


# ---- read from CSV ---------------------------------------------------------------------------------


KD = (
    "Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),aic_total_cycles,aic_mac_ratio,aic_time(us)\n"
)


def test_a_real_kernel_details_holds_its_pmu_metrics_compact():
    ops = tables.read_ops(PIPE)
    held = [c for c in ops.columns if isinstance(ops[c].array, DecimalArray)]
    assert len(held) == 23 and "aic_mac_ratio" in held and "cube_utilization(%)" in held
    assert ops["aic_mac_ratio"].array.ints.dtype == np.int16 and ops["aicore_time(us)"].array.ints.dtype == np.int32
    assert ops["duration_us"].dtype == np.float64  # a schema column stays float64
    assert str(ops["aic_total_cycles"].dtype) == "Int64"  # counters are integers
    assert ops["aic_mac_ratio"].iloc[0] == float("0.824") and ops["aicore_time(us)"].iloc[0] == float("183.87")


def test_a_late_piece_with_four_decimals_turns_the_column_float64_exactly(tmp_path, monkeypatch):
    rows = [f"op{i},T,AI_CORE,{1736413971558972 + i}.5,1.5,0,{i},0.{i % 1000:03d},{i}.125" for i in range(4000)]
    rows[3900] = rows[3900].replace(",0.900,", ",0.1234,")
    path = _write(tmp_path / "kernel_details.csv", KD + "\n".join(rows) + "\n")
    monkeypatch.setattr(csvread, "PIECE", 4096)
    assert len(csvread.split_pieces(path)) > 20
    ops = tables.read_ops(path)
    assert ops["aic_mac_ratio"].dtype == np.float64 and isinstance(ops["aic_time(us)"].array, DecimalArray)
    want = [float(r.split(",")[7]) for r in rows]
    assert ops["aic_mac_ratio"].to_numpy().tobytes() == np.array(want).tobytes()


def test_a_late_piece_beyond_int16_widens_the_column_and_keeps_its_missing(tmp_path, monkeypatch):
    rows = [
        f"op{i},T,AI_CORE,{1736413971558972 + i}.5,1.5,0,{i},{'N/A' if i % 7 == 0 else '0.5'},1" for i in range(4000)
    ]
    rows[3950] = rows[3950].replace(",0.5,1", ",40.5,1")
    path = _write(tmp_path / "kernel_details.csv", KD + "\n".join(rows) + "\n")
    monkeypatch.setattr(csvread, "PIECE", 4096)
    ops = tables.read_ops(path)
    ratio = ops["aic_mac_ratio"]
    assert isinstance(ratio.array, DecimalArray) and ratio.array.ints.dtype == np.int32
    assert ratio.isna().tolist() == [i % 7 == 0 for i in range(4000)]
    assert ratio.iloc[3950] == 40.5 and ratio.iloc[1] == 0.5


# ---- stored ---------------------------------------------------------------------------------------


def test_a_saved_report_writes_what_an_older_reader_reads_as_the_same_float64(tmp_path):
    frame = pd.DataFrame({"r": compact(np.array([0.824, np.nan, 0.031])), "t": compact(np.array([185.504, 1.0, 2.5]))})
    assert frame["r"].array.ints.dtype == np.int16
    for compact_store in (False, True):
        store = columnar.DirStore(tmp_path / f"s{compact_store}")
        meta = columnar.put_frame(store, "f", frame, compact=compact_store)
        back = columnar.get_frame(store, "f", meta)
        pd.testing.assert_frame_equal(back, frame, check_exact=True)
        assert all(c["scale"] == 1000 and c["decimal"] is True for c in meta["columns"])
        ints = np.asarray(store.get("f/0"))
        if not compact_store:  # int32 with its sentinel: what a reader of "scale" columns decodes
            assert ints.dtype == np.int32
            old = columnar._decode_scaled(ints, 1000)
            assert old.tobytes() == np.asarray(frame["r"]).tobytes() or np.array_equal(old, frame["r"], equal_nan=True)
        else:
            assert ints.dtype == np.int16
    assert decode(np.array([1, -32768], np.int16)).tolist()[0] == 0.001
