"""The Arrow CSV reader (issue #18) against the frozen pandas reader it replaced (legacy_csvread /
legacy_schemas): identical frames on real and generated files, the exactness rules one by one, the
same errors naming file, line and column; plus what the old reader got wrong or did slowly."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

import legacy_schemas  # noqa: E402

from workbench.core.profiling import tables  # noqa: E402
from workbench.core.profiling.errors import ProfilingDataError  # noqa: E402
from workbench.core.profiling.tables import csvread  # noqa: E402
from workbench.core.profiling.tables.decimals import DecimalArray  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "samples"


def _readers(path: Path):
    """(new, old) reader of ``path`` as build.py picks it by name."""
    name = path.name
    if name.startswith(("kernel_details", "op_summary", "task_time")):
        return tables.read_ops, legacy_schemas.read_ops
    if name.startswith("op_statistic"):
        return (lambda p: tables.read_table(p, tables.OP_STATISTIC)), (
            lambda p: legacy_schemas.read_table(p, legacy_schemas.OP_STATISTIC)
        )
    if name.startswith("api_statistic"):
        return tables.read_api_statistic, legacy_schemas.read_api_statistic
    return tables.read_table, legacy_schemas.read_table


def assert_same(path: Path) -> pd.DataFrame:
    new, old = _readers(path)
    try:
        expected = old(path)
    except ProfilingDataError as exc:
        with pytest.raises(ProfilingDataError) as err:
            new(path)
        assert str(err.value) == str(exc)
        return pd.DataFrame()
    got = new(path)
    expected = _fixed_since(expected, got)
    pd.testing.assert_frame_equal(_floats(got), _object_categories(expected), check_categorical=True, check_exact=True)
    return got


def _fixed_since(expected: pd.DataFrame, got: pd.DataFrame) -> pd.DataFrame:
    """What the old reader got wrong on purpose-fixed columns, put right for the comparison: it read
    a pointer column of epoch magnitude (``Stream Ptr``, 9-15 digits) as an epoch time in ns."""
    if "Stream Ptr(ns)" in expected.columns and "Stream Ptr" in got.columns:
        ns = expected["Stream Ptr(ns)"]
        assert (ns.dropna() % 1000 == 0).all()
        expected = expected.rename(columns={"Stream Ptr(ns)": "Stream Ptr"})
        expected["Stream Ptr"] = (ns // 1000).astype(got["Stream Ptr"].dtype)
    return expected


def _floats(frame: pd.DataFrame) -> pd.DataFrame:
    """The new reader's compact decimal columns (PMU metrics) as the float64 the old reader gave:
    their values are compared bit for bit."""
    frame = frame.copy()
    for name in frame.columns:
        if isinstance(frame[name].array, DecimalArray):
            frame[name] = np.asarray(frame[name])
    return frame


def _object_categories(frame: pd.DataFrame) -> pd.DataFrame:
    """The old reader's categories were ``object`` unless a value needed cleaning (then ``str``);
    the new one's are always ``object``: the values and their order are what is compared."""
    frame = frame.copy()
    for name in frame.columns:
        if isinstance(frame[name].dtype, pd.CategoricalDtype):
            cats = frame[name].cat.categories
            if cats.dtype != object and not pd.api.types.is_numeric_dtype(cats.dtype):
                frame[name] = frame[name].cat.set_categories(pd.Index(list(cats), dtype=object))
    return frame


def real_csvs() -> list[Path]:
    found = sorted(SHARED.glob("*/*.csv")) + sorted((REPO / "resources" / "samples").rglob("*.csv"))
    return [p for p in found if "cluster" not in p.name]


@pytest.mark.parametrize("path", real_csvs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_files_read_exactly_as_before(path):
    assert_same(path)


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> list[Path]:
    """Every summary CSV the simulated toolkit writes: msprof of each CANN era and PMU group,
    torch_npu in both kernel_details styles, Level0 (N/A types)."""
    from workbench.simtoolkit.profdata import (
        AIC_METRICS,
        CANN_VERSIONS,
        resnet50_workload,
        transformer_workload,
        write_msprof_prof,
        write_torch_npu,
    )

    out = tmp_path_factory.mktemp("generated")
    work = resnet50_workload()
    for n, version in enumerate(CANN_VERSIONS):
        write_msprof_prof(out / f"m{n}", work, cann_version=version, iterations=1, devices=(0, 1))
    for n, metrics in enumerate(AIC_METRICS):
        write_msprof_prof(out / f"g{n}", work, aic_metrics=metrics, iterations=1, seed=n)
    write_msprof_prof(out / "off", work, aic_metrics=None, iterations=1)
    big = transformer_workload()
    write_torch_npu(out / "t25", big, steps=2, style="2025")
    write_torch_npu(out / "t23", big, steps=1, style="2023", aic_metrics="ArithmeticUtilization")
    write_torch_npu(out / "l0", big, steps=1, profiler_level="Level0")
    return sorted(out.rglob("*.csv"))


def test_generated_files_read_exactly_as_before(generated):
    assert len(generated) > 40
    for path in generated:
        assert_same(path)


def _write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


KD = (
    "Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Device_id,"
    "aic_total_cycles,aic_mac_ratio,note\n"
)


@pytest.mark.parametrize(
    "rows",
    [
        # µs decimals at epoch magnitude with 0..5 fraction digits, rounding at the 4th, signs
        [
            "a,A,AI_CORE,1736413971558972.912,1.5,0,1,0,10,0.5,x",
            "b,A,AI_CORE,1736413971558972,2,0,1,0,10,0.5,x",
            "c,A,AI_CORE,1736413971558972.9,2,0,1,0,10,0.5,x",
            "d,A,AI_CORE,1736413971558972.91249,2,0,1,0,10,0.5,x",
            "e,A,AI_CORE,1736413971558972.91250,2,0,1,0,10,0.5,x",
            "f,A,AI_CORE,-12.5,2,0,1,0,10,0.5,x",
            "g,A,AI_CORE,+.5,2,0,1,0,10,0.5,x",
            "h,A,AI_CORE,7.,2,0,1,0,10,0.5,x",
        ],
        # 18+ digits: already ns ('auto'), with its fraction rounded
        ["a,A,AI_CORE,173641397155897291,1,0,1,0,1,0.1,x", "b,A,AI_CORE,173641397155897291.5,1,0,1,0,1,0.1,x"],
        # N/A, empty, spaces and quotes around N/A, every missing spelling
        [
            "a,N/A,,N/A,N/A,,N/A,N/A,N/A,N/A,N/A",
            'b," N/A ",NA, , nan ,NaN,None,null,,"N/A",n/a',
            "c,A,AI_CORE,1.5,2,3,4,1,5,0.5,y",
        ],
        # torch_npu's trailing TABs, quoted values, tripled quotes
        [
            'a,A,AI_CORE,"1736413971558972.912\t",185.504,1.087,16,0,5295467,0.824,"""81920,4096;8192,512"""',
            'b,A,"AI_CORE\t","1736413971560588.764\t","501.17\t",2.2,"20",1,17233251,0.744,"""4096,512"""',
        ],
        # integers written as 12.0, a counter with a fraction, text in a PMU column, host rows
        [
            "a,A,AI_CORE,1,2,0,16.0,host,12.0,0.5,1",
            "b,A,AI_CORE,2,2,0,8,1,12.5,fast,2.5",
            "c,A,AI_CORE,3,2,0,N/A,2,N/A,N/A,N/A",
        ],
        # all missing in auto columns, big ids
        ["a,A,AI_CORE,1,2,0,1,0,9223372036854775807,N/A,N/A", "b,A,AI_CORE,1,2,0,1,0,1,N/A,N/A"],
    ],
    ids=["us-decimals", "ns-digits", "missing", "tabs-quotes", "loose-types", "big-and-missing"],
)
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", [False, True])
def test_exactness_rules_match_the_old_reader(tmp_path, rows, newline, bom):
    text = (KD + "\n".join(rows) + "\n").replace("\n", newline)
    path = _write(tmp_path / "kernel_details.csv", text, "utf-8-sig" if bom else "utf-8")
    got = assert_same(path)
    assert len(got) == len(rows)


def test_timestamps_are_exact_int64_ns(tmp_path):
    path = _write(
        tmp_path / "kernel_details.csv",
        KD
        + 'a,A,AI_CORE,"1736413971558972.912\t",1,0,1,0,1,0.1,x\nb,A,AI_CORE,1736413971558972.9125,1,0,1,0,1,0.1,x\n',
    )
    ops = tables.read_ops(path)
    assert ops["start_ns"].dtype == "Int64"
    assert ops["start_ns"].tolist() == [1736413971558972912, 1736413971558972913]
    assert int(float("1736413971558972.912") * 1000) != 1736413971558972912


def test_aliases_by_header_and_unknown_columns_kept(tmp_path):
    a = _write(
        tmp_path / "op_summary_1.csv",
        "Device_id,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),Block Num,x y\n"
        "3,n,Add,AI_CORE,10.5,2,8,z\n",
    )
    b = _write(
        tmp_path / "op_summary_2.csv",
        "Op Name,OP Type,Task Type,Task Start Time,Task Duration(us),Block Dim,x y\nn,Add,AI_CORE,10.5,2,8,z\n",
    )
    for path in (a, b):
        assert_same(path)
    assert tables.read_ops(a)["block_dim"].tolist() == tables.read_ops(b)["block_dim"].tolist() == [8]


@pytest.mark.parametrize(
    "text",
    [
        KD + "a,A,AI_CORE,1,2,0,1,0,10,0.5,x\nb,A,AI_CORE,12:30,2,0,1,0,10,0.5,x\n",
        KD + "a,A,AI_CORE,1,2,0,1,0,10,0.5,x\nb,A,AI_CORE,1,fast,0,1,0,10,0.5,x\n",
        KD + "a,A,AI_CORE,1,2,0,1.5,0,10,0.5,x\n",
        KD + "a,A,AI_CORE,1,2,0,99999999999999999999,0,10,0.5,x\n",
        KD + "a,A,AI_CORE,1,2,0,1,gpu,10,0.5,x\n",
        KD + "a,A,AI_CORE,1,2,0,1,0,10,0.5,x\nb,A,AI_CORE,1,2,0,1,0,10,0.5\n",
        KD + "a,A,AI_CORE,1,2,0,1,0,10,0.5,x\nb,A,AI_CORE,1,2",
        KD + '"multi\nline",A,AI_CORE,1,2,0,1,0,10,0.5,x\n\nb,A,AI_CORE,1,x,0,1,0,10,0.5,x\n',
        KD + "a,A,AI_CORE,1234567890123456789012,2,0,1,0,10,0.5,x\n",
    ],
    ids=[
        "bad-time",
        "bad-float",
        "bad-int",
        "int-overflow",
        "bad-device",
        "short-row",
        "truncated",
        "quoted-nl",
        "time-overflow",
    ],
)
def test_errors_name_file_line_and_column_as_before(tmp_path, text):
    path = _write(tmp_path / "kernel_details.csv", text)
    with pytest.raises(ProfilingDataError) as err:
        legacy_schemas.read_ops(path)
    with pytest.raises(ProfilingDataError) as new:
        tables.read_ops(path)
    assert str(new.value) == str(err.value).replace("np.float64(1.5)", "'1.5'")
    assert str(path) in str(new.value) and "line " in str(new.value)


def test_an_error_shows_the_value_as_written_not_a_numpy_repr(tmp_path):
    # the old reader said "got np.float64(1.5)" for a fraction in an integer column
    path = _write(tmp_path / "kernel_details.csv", KD + "a,A,AI_CORE,1,2,0,1.5,0,10,0.5,x\n")
    with pytest.raises(ProfilingDataError, match=r"line 2, column 'Block Dim': expected an integer or N/A, got '1.5'$"):
        tables.read_ops(path)


def test_a_valid_file_is_read_without_the_line_number_pass(tmp_path, monkeypatch):
    # the old reader counted every record's line (two cumsums over every byte) before parsing
    path = _write(tmp_path / "kernel_details.csv", KD + "a,A,AI_CORE,1.5,2,0,1,0,10,0.5,x\n" * 50)
    expected = legacy_schemas.read_ops(path)

    def no_pass(*args, **kwargs):
        raise AssertionError("record_lines ran on a valid file")

    monkeypatch.setattr(csvread, "record_lines", no_pass)
    got = tables.read_ops(path)
    pd.testing.assert_frame_equal(_floats(got), _object_categories(expected), check_exact=True)


def test_big_files_are_read_in_pieces_split_outside_quotes(tmp_path, monkeypatch):
    rows = [
        f'op{i % 7},"T\n{i % 3}",AI_CORE,"{1736413971558972 + i}.{i % 1000:03d}\t",{i}.5,0,{i % 5},0,{i},'
        f'0.{i % 9},"""{i},1"""'
        for i in range(3000)
    ]
    rows[2500] = rows[2500].replace(f",{2500}.5,", ",fast,")
    text = KD + "\n".join(rows) + "\n"
    path = _write(tmp_path / "kernel_details.csv", text)
    (tmp_path / "ok").mkdir()
    ok = _write(tmp_path / "ok" / "kernel_details.csv", text.replace(",fast,", ",1.5,"))
    whole = tables.read_ops(ok)
    monkeypatch.setattr(csvread, "PIECE", 997)  # records (and their quoted newlines) straddle piece borders
    assert len(csvread.split_pieces(ok)) > 100
    pd.testing.assert_frame_equal(tables.read_ops(ok), whole, check_exact=True)
    assert whole["type"].cat.categories.tolist() == ["T\n0", "T\n1", "T\n2"]
    assert whole["start_ns"].tolist()[2999] == (1736413971558972 + 2999) * 1000 + 999
    with pytest.raises(
        ProfilingDataError, match=r"line 5002, column 'Duration\(us\)': expected a number or N/A, got 'fast'"
    ):
        tables.read_ops(path)  # row 2500 of a late piece: its line counts the quoted newlines


@pytest.mark.parametrize("trailing_newline", [True, False])
def test_a_bad_timestamp_in_a_late_piece_names_its_line_in_the_file(tmp_path, monkeypatch, trailing_newline):
    # the timestamps are converted in the parse threads, piece by piece: the row is counted in the file
    rows = [
        f'op{i % 7},"T\n{i % 3}",AI_CORE,"{1736413971558972 + i}.{i % 1000:03d}\t",{i}.5,0,1,0,{i},0.5,x'
        for i in range(3000)
    ]
    rows[2700] = rows[2700].replace(f'"{1736413971558972 + 2700}.700\t"', "1736413971558x72.700")
    text = KD + "\n".join(rows) + ("\n" if trailing_newline else "")
    path = _write(tmp_path / "kernel_details.csv", text)
    monkeypatch.setattr(csvread, "PIECE", 997)
    pieces = csvread.split_pieces(path)
    assert len(pieces) > 100 and pieces[-1][1] == len(text.encode()) and pieces[0][0] == len(KD.encode())
    assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))
    with pytest.raises(ProfilingDataError, match=r"line 5402, column 'Start Time\(us\)': expected a decimal timestamp"):
        tables.read_ops(path)


def test_a_timestamp_beyond_int64_is_an_error_not_a_wrapped_number(tmp_path):
    # the old reader turned 12345678901234567.5 µs into -6101065172474984116 ns
    path = _write(tmp_path / "kernel_details.csv", KD + "a,A,AI_CORE,12345678901234567.5,2,0,1,0,10,0.5,x\n")
    with pytest.raises(ProfilingDataError, match=r"line 2, column 'Start Time\(us\)': expected a timestamp that fits"):
        tables.read_ops(path)


@pytest.mark.parametrize("cells", ["1²,2,0,1,0", "1,2,0,1,²"], ids=["time", "device"])
def test_unicode_digits_are_a_clear_error_not_a_crash(tmp_path, cells):
    # the old reader raised a bare ValueError ("invalid literal for int() ... np.str_('1²')")
    path = _write(tmp_path / "kernel_details.csv", KD + f"a,A,AI_CORE,{cells},10,0.5,x\n")
    with pytest.raises(ProfilingDataError, match=r"kernel_details.csv: line 2, column '(Start Time\(us\)|Device_id)'"):
        tables.read_ops(path)


def test_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "kernel_details.csv"
    # beyond the first 64 KB (the sniffed head): found by the parser, its line counted
    path.write_bytes(
        KD.encode() + b"a,A,AI_CORE,1,2,0,1,0,10,0.5,x\n" * 3000 + b"b,\xff\xfe,AI_CORE,1,2,0,1,0,10,0.5,x\n"
    )
    with pytest.raises(ProfilingDataError, match=r"kernel_details.csv: line 3002: not UTF-8 text"):
        tables.read_ops(path)


_STAMP_TEXT = st.one_of(
    st.from_regex(r"\A[0-9]{1,17}(\.[0-9]{0,6})?\Z", fullmatch=True),
    st.sampled_from(["9223372036854775.807", "9223372036854776.000", "1736413971558972.9125", "-1.5", "+2"]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    width_values=st.lists(_STAMP_TEXT, min_size=1, max_size=40),
    same_width=st.booleans(),
    tab=st.booleans(),
    lead=st.sampled_from(["", " ", "\t "]),
    unit=st.sampled_from(["us", "auto"]),
)
def test_the_fixed_width_timestamp_fast_path_gives_what_the_general_path_gives(
    width_values, same_width, tab, lead, unit
):
    # the byte-matrix fast path must never differ from the digit-by-digit path it short-cuts
    if same_width:  # the usual file: every value of the first value's width
        w = len(width_values[0])
        width_values = [v.rjust(w, "1")[:w] if "." not in v else v for v in width_values]
        width_values = [v for v in width_values if len(v) == w] or width_values[:1]
    # the blanks around every value (torch_npu's trailing TAB) are skipped by the fast path itself
    cells = pa.chunked_array([pa.array([lead + v + ("\t" if tab else "") for v in width_values])])
    fast = csvread._ns_piece(cells, unit, 0)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(csvread, "_fixed_width_ns", lambda chunk, unit: None)
        slow = csvread._ns_piece(cells, unit, 0)
    assert fast.error == slow.error
    if slow.error is None:
        assert fast.values.tolist() == slow.values.tolist()
        assert fast.missing.tolist() == slow.missing.tolist()


def test_the_fast_path_reads_the_usual_torch_npu_stamps(tmp_path):
    # 16.3-digit epoch µs with the trailing TAB: read by the byte-matrix path, exactly
    path = _write(
        tmp_path / "kernel_details.csv",
        KD + "".join(f'a,A,AI_CORE,"1736413971558{i:03d}.{i:03d}\t",2,0,1,0,10,0.5,x\n' for i in range(500)),
    )
    calls = []
    real = csvread._fixed_width_ns

    def spy(chunk, unit):
        calls.append(out := real(chunk, unit))
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(csvread, "_fixed_width_ns", spy)
        got = tables.read_ops(path)
    assert calls and all(c is not None for c in calls)
    assert got["start_ns"].tolist()[:2] == [1736413971558000000, 1736413971558001001]
    pd.testing.assert_frame_equal(_floats(got), _object_categories(legacy_schemas.read_ops(path)), check_exact=True)


def test_a_cancel_stops_the_read_between_pieces(tmp_path, monkeypatch):
    path = _write(tmp_path / "kernel_details.csv", KD + "a,A,AI_CORE,1,2,0,1,0,10,0.5,x\n" * 4000)
    monkeypatch.setattr(csvread, "PIECE", 4096)
    pieces = len(csvread.split_pieces(path))
    parsed = []
    real = csvread.pacsv.read_csv
    monkeypatch.setattr(csvread.pacsv, "read_csv", lambda *a, **k: parsed.append(1) or real(*a, **k))

    class Cancelled(Exception):
        pass

    checks = []

    def cancel_check():
        checks.append(1)
        if len(checks) > 3:
            raise Cancelled

    with pytest.raises(Cancelled):
        tables.read_ops(path, cancel_check=cancel_check)
    assert pieces > 20 and len(parsed) <= 4 + csvread.AHEAD  # a few pieces converted, AHEAD parsed ahead


def test_text_codes_widen_when_a_late_piece_brings_more_names_than_int16_holds(tmp_path, monkeypatch):
    # codes are kept as int16 while they fit; piece 1 has few names, later pieces 40,000 new ones
    tail = ",A,AI_CORE,1,2,0,1,0,10,0.5,x\n"
    rows = ["same" + tail] * 2000 + [f"op{i}{tail}" for i in range(40000)]
    path = _write(tmp_path / "kernel_details.csv", KD + "".join(rows))
    monkeypatch.setattr(csvread, "PIECE", 64 << 10)
    got = tables.read_ops(path)
    names = got["name"].astype(str).tolist()
    assert names[0] == "same" and names[1999] == "same"
    assert names[2000] == "op0" and names[-1] == "op39999" and len(set(names)) == 40001
    pd.testing.assert_frame_equal(_floats(got), _object_categories(legacy_schemas.read_ops(path)), check_exact=True)


def test_text_of_many_pieces_is_resolved_batch_by_batch_as_the_old_reader_reads_it(tmp_path, monkeypatch):
    # each piece has its own dictionary; the codes are mapped to the file's a few pieces at a time: names
    # that first appear in later batches, spellings that clean to one value (' op3', 'op3<TAB>'), N/A and
    # empty cells, one word in several pieces of a batch, N/A in int and float columns
    rnd = random.Random(7)
    rows = []
    for i in range(6000):
        name = rnd.choice(["op{k}", " op{k}", "op{k}\t", '"op{k} "', "N/A", ""]).format(
            k=i // 400 * 3 + rnd.randrange(5)
        )
        kind = rnd.choice(["Add", " Add", "N/A", "Mul", f"T{i % 50}"])
        block = i % 5 if i % 11 else "N/A"
        cycles = i if i % 13 else "N/A"
        ratio = f"0.{i % 9}" if i % 17 else "N/A"
        rows.append(f"{name},{kind},AI_CORE,{i}.5,{i % 7}.25,0,{block},0,{cycles},{ratio},{rnd.choice('xy')}")
    path = _write(tmp_path / "kernel_details.csv", KD + "\n".join(rows) + "\n")
    expected = _object_categories(legacy_schemas.read_ops(path))
    monkeypatch.setattr(csvread, "PIECE", 2000)
    monkeypatch.setattr(csvread, "TRIM", 7000)
    batches = []
    real = csvread._Growing.resolve

    def resolve(self):
        if self.pending:
            batches.append(len(self.pending))
        real(self)

    monkeypatch.setattr(csvread._Growing, "resolve", resolve)
    got = tables.read_ops(path)
    assert len(batches) > 3 * 30 and max(batches) > 1  # 3 text columns, many batches of several pieces
    pd.testing.assert_frame_equal(_floats(got), expected, check_exact=True)
    assert got["name"].isna().sum() == expected["name"].isna().sum() > 0


def test_numbers_come_from_arrows_buffers_with_their_nulls():
    values, missing = csvread._numbers(pa.chunked_array([pa.array([1.5, None, 3.0, None, 5.0]).slice(1)]))
    assert missing.tolist() == [True, False, True, False] and values[~missing].tolist() == [3.0, 5.0]
    values, missing = csvread._numbers(pa.chunked_array([pa.array([7, 8]), pa.array([None, 10])]))
    assert values.dtype == np.int64 and missing.tolist() == [False, False, True, False]
    assert values[~missing].tolist() == [7, 8, 10]
    values, missing = csvread._numbers(pa.chunked_array([pa.array([2**62, -1])]))
    assert missing is None and values.tolist() == [2**62, -1]


@pytest.mark.skipif(not Path("/proc/self/statm").is_file(), reason="reads the resident set from /proc")
def test_result_buffers_hold_only_the_pages_written():
    # a column's buffer is sized for the whole file from the first piece; what is never written is never
    # resident (numpy's huge-page advice made each buffer hold up to 2 MB beyond its last write: +40 %)
    def resident() -> int:
        return int(Path("/proc/self/statm").read_text().split()[1]) * 4096

    piece = csvread.Column("float", np.ones(300_000))  # 2.4 MB
    columns = [csvread._Growing("float") for _ in range(40)]
    before = resident()
    for column in columns:
        column.add(piece, 4_000_000)  # room for 32 MB
    written = 40 * piece.values.nbytes
    grown = resident() - before
    assert grown < written * 1.1, f"{grown / 2**20:.0f} MB resident for {written / 2**20:.0f} MB written"
    assert columns[0].values[: columns[0].rows].sum() == 300_000
