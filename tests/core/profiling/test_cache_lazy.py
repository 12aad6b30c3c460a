"""A cached re-open decodes nothing it does not need (issue #18): tables are checked at open and
decoded on first use, `report info` answers from the cache's report.json without pandas, and every
verb and table is the same as without the cache (torch_npu, msprof, MindSpore, .db exports)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.cli import main
from workbench.core.profiling import cli as report_cli
from workbench.core.profiling import stats
from workbench.core.profiling.build import open_report
from workbench.core.profiling.detect import detect
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.report import LazyTables
from workbench.core.profiling.storage import cache, columnar, saved
from workbench.core.profiling.tables.decimals import DecimalArray
from workbench.simtoolkit.profdata import resnet50_workload, write_mindspore_prof, write_msprof_prof, write_torch_npu

BENCH = Path(__file__).resolve().parents[3] / "benchmarks"


def _pmu_run(root: Path) -> Path:
    """A torch_npu folder with a 20 000-row kernel_details in the real 2025 layout (PMU columns)."""
    sys.path.insert(0, str(BENCH))
    import bench_csv

    return bench_csv.write_torch_npu_folder(root, 20_000)


CASES = {
    "torch_npu-pmu": _pmu_run,
    "torch_npu-text": lambda root: write_torch_npu(root, resnet50_workload(), steps=2, rank=0),
    "torch_npu-level0": lambda root: write_torch_npu(root, resnet50_workload(), steps=2, profiler_level="Level0"),
    "torch_npu-db": lambda root: write_torch_npu(root, resnet50_workload(), steps=2, rank=0, export_type="Db"),
    "msprof": lambda root: write_msprof_prof(root, resnet50_workload()),
    "msprof-db": lambda root: write_msprof_prof(root, resnet50_workload(), export_type="db"),
    "mindspore": lambda root: write_mindspore_prof(root, resnet50_workload(), iterations_count=2),
    "mindspore-db": lambda root: write_torch_npu(
        root, resnet50_workload(), steps=2, rank=0, export_type="Db", framework="mindspore"
    ),
}


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("lazy")
    return {name: make(root / name) for name, make in CASES.items()}


@pytest.fixture
def source(request, sources, tmp_path) -> Path:
    """A fresh copy of one case (its cache is written beside it)."""
    original = sources[request.param]
    copy = tmp_path / original.name
    shutil.copytree(original, copy, ignore=shutil.ignore_patterns(".wbcache"))
    return copy


@pytest.fixture
def pmu(sources, tmp_path) -> Path:
    copy = tmp_path / sources["torch_npu-pmu"].name
    shutil.copytree(sources["torch_npu-pmu"], copy, ignore=shutil.ignore_patterns(".wbcache"))
    return copy


def _cached(path: Path):
    open_report(path, use_cache=True)  # writes the cache
    report = open_report(path, use_cache=True)
    assert "cache" in report.info, "the second open did not come from the cache"
    return report


def _mapped(array) -> bool:
    while array is not None:
        if isinstance(array, np.memmap):
            return True
        array = getattr(array, "base", None)
    return False


def _counting_decodes(monkeypatch) -> list[int]:
    """Count the scaled (compact) columns decoded from now on."""
    calls: list[int] = []
    real = columnar._decode_scaled

    def counted(ints, scale):
        calls.append(len(ints))
        return real(ints, scale)

    monkeypatch.setattr(columnar, "_decode_scaled", counted)
    return calls


def _scaled_columns(place: Path, table: str, decimal: bool = False) -> int:
    """Columns stored as scaled integers: decoded to float64 (``decimal=False``) or kept as the
    compact decimal column (``decimal=True``, the PMU metrics)."""
    meta = json.loads((place / cache.META).read_text(encoding="utf-8"))
    columns = meta["tables"][table]["columns"]
    return sum(1 for c in columns if c.get("scale") is not None and bool(c.get("decimal")) == decimal)


# ---- the same data, cached or not -----------------------------------------------------------------


@pytest.mark.parametrize("source", list(CASES), indirect=True)
def test_a_cached_report_has_the_tables_and_facts_of_the_uncached_one(source):
    off = open_report(source, use_cache=False)
    cached = _cached(source)
    assert isinstance(cached.tables, LazyTables)
    assert not [n for n in cached.tables if cached.tables.decoded(n)], "a table was decoded at open"
    assert cached.table_rows == off.table_rows  # known without decoding
    assert not [n for n in cached.tables if cached.tables.decoded(n)]
    assert list(cached.tables) == list(off.tables) and len(off.tables)
    for name, frame in off.tables.items():
        pd.testing.assert_frame_equal(cached.tables[name], frame, check_exact=True, obj=name)
    for attr in ("kind", "devices", "warnings", "pmu_group", "pmu_split", "start_ns", "end_ns", "table_sources"):
        assert getattr(cached, attr) == getattr(off, attr), attr
    assert (cached.event_count, cached.flow_count) == (off.event_count, off.flow_count)


def _out(capsys, *argv: str) -> str:
    code = main(["report", *argv])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


@pytest.mark.parametrize("source", list(CASES), indirect=True)
def test_every_report_verb_prints_the_same_from_the_cache(capsys, source, tmp_path):
    path = str(source)
    verbs = [
        ["info"],
        ["info", "--json"],
        ["ops", "--json"],
        ["ops", "--by", "name", "--top", "5"],
        ["ops", "--top", "20"],
        ["api", "--json"],
        [
            "query",
            "SELECT name, count(*) AS n, sum(dur_ns) AS t FROM ops GROUP BY name ORDER BY t DESC, name",
            "--json",
        ],
    ]
    off = {tuple(v): _out(capsys, *v[:1], path, *v[1:], "--cache", "off") for v in verbs}
    _out(capsys, "export", path, "--out", str(tmp_path / "off.json"), "--cache", "off")
    _out(capsys, "info", path, "--cache", "on")  # writes the cache
    assert cache.facts(path, True) is not None  # `report info` is answered from report.json
    for verb in verbs:
        assert _out(capsys, *verb[:1], path, *verb[1:], "--cache", "on") == off[tuple(verb)], verb
    _out(capsys, "export", path, "--out", str(tmp_path / "on.json"), "--cache", "on")
    assert (tmp_path / "on.json").read_bytes() == (tmp_path / "off.json").read_bytes()


# ---- decoded on first use -----------------------------------------------------------------------


def test_opening_from_the_cache_decodes_no_table_until_it_is_used(pmu, monkeypatch):
    open_report(pmu, use_cache=True)
    place = pmu / ".wbcache"
    calls = _counting_decodes(monkeypatch)
    report = open_report(pmu, use_cache=True)
    assert report.info["cache"] == str(place)
    assert calls == [], "compact columns were decoded at open"
    ops = report.ops
    assert len(calls) == _scaled_columns(place, "ops") and report.tables.decoded("ops")
    assert _mapped(np.asarray(ops["duration_us"]))  # the float64 columns stay memory-mapped
    # the PMU metrics are never decoded: their scaled integers stay memory-mapped as they are
    held = [c for c in ops.columns if isinstance(ops[c].array, DecimalArray)]
    assert len(held) == _scaled_columns(place, "ops", decimal=True) > 20
    assert all(_mapped(ops[c].array.ints) for c in held)
    assert not report.tables.decoded("ai_core_metrics")
    metrics = report.ai_core_metrics
    assert len(calls) == _scaled_columns(place, "ops") + _scaled_columns(place, "ai_core_metrics")
    assert report.ai_core_metrics is metrics and report.ops is ops  # decoded once, then kept


def test_the_ops_statistics_decode_only_the_columns_they_read(pmu, monkeypatch):
    off = open_report(pmu, use_cache=False)
    open_report(pmu, use_cache=True)
    calls = _counting_decodes(monkeypatch)
    report = open_report(pmu, use_cache=True)
    part = report.table_columns("ops", report_cli.OP_STATISTICS_READS)
    assert calls == [] and not report.tables.decoded("ops")
    assert set(part.columns) == set(report_cli.OP_STATISTICS_READS) and len(part) == len(off.ops)
    for by in ("type", "name"):
        pd.testing.assert_frame_equal(stats.op_statistics(part, by), stats.op_statistics(off.ops, by))
    assert report.table_columns("absent", ["x"]).empty


def test_lazy_tables_behave_as_a_dict_of_frames():
    made: list[str] = []

    def loader(name: str, rows: int):
        def load(only=None):
            made.append(name)
            frame = pd.DataFrame({"a": np.arange(rows), "b": np.arange(rows) * 2.0})
            return frame if only is None else frame[[c for c in frame.columns if c in only]]

        return load

    tables = LazyTables()
    tables.add_pending("x", 3, loader("x", 3))
    tables.add_pending("y", 2, loader("y", 2))
    tables["z"] = pd.DataFrame({"c": [1]})
    assert list(tables) == ["x", "y", "z"] and len(tables) == 3 and "x" in tables
    assert tables.rows("x") == 3 and tables.rows("z") == 1
    assert "decoded on first use" in repr(tables) and made == []
    assert list(tables.columns("x", ["b"]).columns) == ["b"] and not tables.decoded("x")
    made.clear()
    assert all(isinstance(v, pd.DataFrame) for v in dict(tables).values())
    assert made == ["x", "y"] and tables.decoded("x") and tables.decoded("y")
    assert all(isinstance(v, pd.DataFrame) for v in {**tables}.values())
    assert [len(v) for v in tables.values()] == [3, 2, 1] and [k for k, _ in tables.items()] == ["x", "y", "z"]
    assert made == ["x", "y"]  # decoded once
    other = LazyTables()
    other.add_pending("p", 4, loader("p", 4))
    assert isinstance(other.get("p"), pd.DataFrame) and other.get("q") is None
    other.add_pending("q", 1, loader("q", 1))
    assert isinstance(other.pop("q"), pd.DataFrame) and "q" not in other
    other.add_pending("r", 1, loader("r", 1))
    assert isinstance(other.copy()["r"], pd.DataFrame) and isinstance(other.setdefault("r"), pd.DataFrame)
    assert isinstance(({} | other)["p"], pd.DataFrame) and isinstance((other | {})["p"], pd.DataFrame)

    def broken(only=None):
        raise ProfilingDataError("/x/.wbcache: table 't' is damaged")

    failing = LazyTables()
    failing.add_pending("t", 5, broken)
    for _ in range(2):  # raised every time it is asked for, never a half-decoded table
        with pytest.raises(ProfilingDataError, match="damaged"):
            failing["t"]
    assert not failing.decoded("t") and failing.rows("t") == 5


# ---- damaged members ----------------------------------------------------------------------------


def _member(place: Path, table: str, column: str) -> Path:
    meta = json.loads((place / cache.META).read_text(encoding="utf-8"))
    t = meta["tables"][table]
    i = next(n for n, c in enumerate(t["columns"]) if c["name"] == column)
    return place / f"{t['prefix']}/{i}.npy"


def test_values_damaged_in_place_give_one_clear_error_when_used_then_a_rebuild(pmu, capsys):
    off = open_report(pmu, use_cache=False)
    report = _cached(pmu)
    place = pmu / ".wbcache"
    member = _member(place, "ops", "name")  # category codes, same size after the damage
    array = np.load(member, mmap_mode="r+")
    array[:] = np.iinfo(array.dtype).max  # codes past the categories
    array.flush()
    del array
    report = open_report(pmu, use_cache=True)
    assert report.info["cache"] == str(place)  # nothing in it was decoded yet
    for _ in range(2):
        with pytest.raises(ProfilingDataError) as err:
            report.ops  # noqa: B018 - the first use decodes
        message = str(err.value)
        assert message.startswith(f"{place}: table 'ops' is damaged") and "\n" not in message
        assert "rebuilt when the report is opened again" in message
    assert not cache.present(detect(pmu))  # discarded
    again = open_report(pmu, use_cache=True)
    assert "cache" not in again.info  # rebuilt from the source
    pd.testing.assert_frame_equal(again.ops, off.ops, check_exact=True)
    assert open_report(pmu, use_cache=True).info["cache"] == str(place)


def test_the_cli_names_a_cache_damaged_in_place_once_then_rebuilds_it(pmu, capsys):
    path = str(pmu)
    expected = _out(capsys, "ops", path, "--json", "--cache", "off")
    _out(capsys, "info", path, "--cache", "on")
    member = _member(pmu / ".wbcache", "ops", "type")
    array = np.load(member, mmap_mode="r+")
    array[:] = np.iinfo(array.dtype).max
    array.flush()
    del array
    assert main(["report", "ops", path, "--json", "--cache", "on"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {pmu / '.wbcache'}: table 'ops' is damaged") and err.count("\n") == 1
    assert "Traceback" not in err and "ValueError" not in err
    assert _out(capsys, "ops", path, "--json", "--cache", "on") == expected  # rebuilt


@pytest.mark.parametrize("change", ["cut", "grown", "removed"])
def test_a_member_of_another_size_is_found_at_open_and_the_cache_rebuilt(pmu, capsys, change):
    path = str(pmu)
    expected = {v: _out(capsys, "info", path, *v, "--cache", "off") for v in ((), ("--json",))}
    _out(capsys, "info", path, "--cache", "on")
    place = pmu / ".wbcache"
    member = _member(place, "ai_core_metrics", "aic_mac_ratio")
    data = member.read_bytes()
    if change == "removed":
        member.unlink()
    else:
        member.write_bytes(data[:-8] if change == "cut" else data + b"\0" * 8)
    layout = detect(pmu)
    assert not cache.present(layout) and cache.facts(path, True) is None and cache.load(layout) is None
    assert _out(capsys, "info", path, "--cache", "on") == expected[()]  # read from the source again
    assert cache.present(layout)  # and the cache rewritten
    assert _out(capsys, "info", path, "--json", "--cache", "on") == expected[("--json",)]


def test_a_member_header_damaged_in_place_is_found_at_open(pmu):
    off = open_report(pmu, use_cache=False)
    _cached(pmu)
    member = _member(pmu / ".wbcache", "ops", "duration_us")
    data = bytearray(member.read_bytes())
    data[:6] = b"\x00NUMPX"  # same size, not a .npy any more
    member.write_bytes(bytes(data))
    again = open_report(pmu, use_cache=True)
    assert "cache" not in again.info  # rebuilt at open, as before issue #18
    pd.testing.assert_frame_equal(again.ops, off.ops, check_exact=True)


def test_a_cache_of_the_previous_version_is_rebuilt_never_read(pmu, capsys):
    """What the workbench before this change wrote: cache version 3, no member sizes."""
    path = str(pmu)
    expected = _out(capsys, "info", path, "--json", "--cache", "off")
    _out(capsys, "info", path, "--cache", "on")
    meta_path = pmu / ".wbcache" / cache.META
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["cache_version"] = 3
    del meta["members"]
    meta["tables"]["ops"]["rows"] += 1  # a misread would show
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    layout = detect(pmu)
    assert cache.load(layout) is None and not cache.present(layout) and cache.facts(path, True) is None
    assert _out(capsys, "info", path, "--json", "--cache", "on") == expected
    assert json.loads(meta_path.read_text(encoding="utf-8"))["cache_version"] == cache.CACHE_VERSION == 7


@pytest.mark.parametrize("members", [None, "x", {"../../etc/passwd": 1}, {"/etc/passwd": 1}])
def test_a_cache_whose_member_list_is_not_ours_is_not_trusted(pmu, members):
    _cached(pmu)
    meta_path = pmu / ".wbcache" / cache.META
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if members is None:
        del meta["members"]
    else:
        meta["members"] = members
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    assert not cache.present(detect(pmu)) and "cache" not in open_report(pmu, use_cache=True).info


def test_the_cache_knows_the_saved_report_format_it_is_written_in():
    assert cache.SAVED_FORMAT == (saved.FORMAT_NAME, saved.FORMAT_VERSION)


# ---- `report info` without pandas ---------------------------------------------------------------

PROBE = """
import sys
from workbench.cli import main
code = main(["report", "info", *sys.argv[1:]])
heavy = ("pandas", "numpy", "pyarrow", "workbench.core.profiling.timeline", "workbench.core.profiling.stats")
sys.stderr.write("loaded: " + repr([m for m in heavy if m in sys.modules]) + "\\n")
sys.exit(code)
"""


@pytest.mark.parametrize("source", ["torch_npu-pmu", "torch_npu-text"], indirect=True)
def test_cached_report_info_imports_neither_pandas_nor_the_timeline(source):
    def run(*argv: str) -> tuple[str, str]:
        proc = subprocess.run(
            [sys.executable, "-c", PROBE, str(source), *argv], capture_output=True, text=True, check=False
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout, proc.stderr.strip().splitlines()[-1]

    for as_json in ((), ("--json",)):
        off, _ = run(*as_json, "--cache", "off")
        run("--cache", "on")  # writes the cache (this one loads everything)
        out, loaded = run(*as_json, "--cache", "on")  # `auto` caches sources of 32 MB and more only
        assert loaded == "loaded: []", f"a cached report info imported {loaded}"
        assert out == off  # byte-identical to the report read from its source


@pytest.mark.parametrize("source", ["torch_npu-text"], indirect=True)
def test_any_damaged_member_is_rebuilt_or_named_when_its_table_is_used(source):
    """A seeded campaign over every member: bytes flipped in place (same size, found only when the
    values are decoded), cut or replaced. Opening then using every table and the timeline either
    works (rebuilt, or the damage is in values no check can see) or raises one ProfilingDataError
    naming the cache; never another exception."""
    import random

    off = open_report(source, use_cache=False)
    _cached(source)
    place = source / ".wbcache"
    members = sorted(place.rglob("*.npy"))
    rnd = random.Random(18)
    named = 0
    for member in rnd.sample(members, min(40, len(members))):
        original = member.read_bytes()
        how = rnd.choice(["poke", "poke", "cut", "garbage"])
        data = bytearray(original)
        if how == "poke":  # values past any code, header left alone
            header = 128 if len(data) > 128 else 0
            for _ in range(8):
                if len(data) > header:
                    data[rnd.randrange(header, len(data))] = 0x7F
        elif how == "cut":
            data = data[: rnd.randrange(len(data))]
        else:
            data = bytearray(b"garbage")
        member.write_bytes(bytes(data))
        try:
            report = open_report(source, use_cache=True)
            try:
                frames = dict(report.tables)
                assert list(frames) == list(off.tables)
                tl = report.timeline
                for i in range(min(tl.event_count, 16) if tl is not None else 0):
                    tl.args(i)
                    tl.name(i)
            except ProfilingDataError as exc:
                assert str(place) in str(exc) and "\n" not in str(exc), str(exc)
                named += 1
        finally:  # the next case starts from a fresh cache
            shutil.rmtree(place, ignore_errors=True)
            open_report(source, use_cache=True)
            assert cache.present(detect(source))
    print(f"{named} of 40 damaged members named when their table was used")
    assert named, "no damage reached the decode on first use: the campaign tests nothing new"


def test_the_report_document_gets_its_main_tables_decoded_on_the_worker(pmu, monkeypatch):
    # the document fills OPs, statistics and AI Core metrics on the GUI thread: a cached report
    # must arrive with them decoded (the work function runs on the worker), else the GUI stalls
    from workbench.core.profiling import views
    from workbench.core.profiling.report import MAIN_TABLES

    _cached(pmu)
    monkeypatch.setattr(cache, "AUTO_CACHE_BYTES", 0)  # the document uses the cache of a big source
    report, _prepared = views.open_for_view(pmu)
    assert isinstance(report.tables, LazyTables)
    present = [n for n in MAIN_TABLES if n in report.tables]
    assert "ai_core_metrics" in present and all(report.tables.decoded(n) for n in present)
