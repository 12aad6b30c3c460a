"""The compiled scanner path of the timeline loader gives exactly what the msgspec path gives.

Every file is loaded twice, with the compiled scanner (``_fastscan``, threads included) and with
``ASCEND_WORKBENCH_TRACE_FASTSCAN=0`` (the pure-Python path, tested on its own elsewhere), and
every array, table, lane, flow, counter, warning, ``args()`` result and error message is compared.
"""

from __future__ import annotations

import json
import shutil
import sysconfig
from decimal import ROUND_FLOOR, Decimal, localcontext
from pathlib import Path

import numpy as np
import pytest

from workbench.core.profiling.timeline import TimelineError, load_timeline
from workbench.core.profiling.timeline import fast as _trace_fast
from workbench.simtoolkit.profdata import write_big_timeline

fastscan = _trace_fast._fastscan


@pytest.fixture(autouse=True)
def _needs_extension(request):
    if fastscan is None and request.node.originalname != "test_extension_is_built_where_it_can_be":
        pytest.skip("the C extension workbench.core.profiling.timeline._fastscan is not built")


def test_extension_is_built_where_it_can_be():
    """``pip install -e .`` compiles ``_fastscan`` wherever a C compiler and Python's headers exist."""
    cc = (sysconfig.get_config_var("CC") or "").split()
    if not (cc and shutil.which(cc[0]) and Path(sysconfig.get_paths()["include"], "Python.h").exists()):
        pytest.skip("no C compiler or Python headers here: the loader uses its pure-Python path")
    assert fastscan is not None, "workbench.core.profiling.timeline._fastscan is not built: run pip install -e ."


def _load(monkeypatch, path, fast: bool, **kw):
    monkeypatch.setenv(_trace_fast.ENV_SWITCH, "1" if fast else "0")
    try:
        return load_timeline(path, **kw), None
    except TimelineError as e:
        return None, str(e)


def assert_same(a, b) -> None:
    """Two timelines hold identical data (arrays bit for bit, dtypes included)."""
    ma, aa = a.to_arrays()
    mb, ab = b.to_arrays()
    assert ma == mb
    assert aa.keys() == ab.keys()
    for k in aa:
        assert aa[k].dtype == ab[k].dtype, k
        assert np.array_equal(aa[k], ab[k]), k
    assert [vars(x) for x in a.lanes] == [vars(x) for x in b.lanes]
    for name in ("cat", "id", "name"):
        assert list(getattr(a.flows, name)) == list(getattr(b.flows, name))
    assert [
        (c.process_name, c.name, c.device, c.ts_ns.tolist(), {k: v.tolist() for k, v in c.series.items()})
        for c in a.counters
    ] == [
        (c.process_name, c.name, c.device, c.ts_ns.tolist(), {k: v.tolist() for k, v in c.series.items()})
        for c in b.counters
    ]
    assert a.warnings == b.warnings
    for i in range(len(a)):
        assert a.args(i) == b.args(i)


def both(monkeypatch, path, **kw):
    """Load with both paths; they must agree (same timeline or same error). Returns the fast one."""
    fast, fast_err = _load(monkeypatch, path, True, **kw)
    # the Python path reads with one process (its worker processes are tested elsewhere)
    slow, slow_err = _load(monkeypatch, path, False, **{k: v for k, v in kw.items() if k != "workers"})
    assert fast_err == slow_err
    if fast is not None:
        assert_same(fast, slow)
    return fast, fast_err


@pytest.fixture
def threads_everywhere(monkeypatch):
    """Split even small files between threads."""
    monkeypatch.setattr(_trace_fast, "THREADS_MIN_BYTES", 0)


@pytest.fixture
def no_python_rest(monkeypatch):
    """Fail if the compiled path hands anything to the Python path."""

    def refuse(*a, **k):
        raise AssertionError("the compiled scanner fell back to the Python path")

    monkeypatch.setattr(_trace_fast.FastReader, "_python_rest", refuse)


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("gen")
    return {form: _gen(out / f"{form}.json", form) for form in ("msprof", "torch_npu")}


def _gen(path: Path, form: str) -> Path:
    write_big_timeline(path, form, 20_000)
    return path


def write(path: Path, text: str | bytes) -> Path:
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


# -- real and generated files ---------------------------------------------------------------------
@pytest.mark.parametrize("block", [1 << 20, 16384, 4096])
def test_sample_identical(samples, monkeypatch, block):
    path = samples / "torch_npu-trace_view" / "trace_view.json"
    tl, _ = both(monkeypatch, path, block=block)
    assert tl.event_count == sum(1 for e in json.loads(path.read_text()) if e["ph"] == "X")


def test_sample_uses_only_the_compiled_path(samples, monkeypatch, no_python_rest):
    monkeypatch.setenv(_trace_fast.ENV_SWITCH, "1")
    tl = load_timeline(samples / "torch_npu-trace_view" / "trace_view.json", block=8192)
    assert tl.flow_count > 0


@pytest.mark.parametrize("form", ["msprof", "torch_npu"])
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_generated_identical(generated, monkeypatch, threads_everywhere, form, workers):
    tl, _ = both(monkeypatch, generated[form], workers=workers, block=65536)
    events = json.loads(generated[form].read_text())
    assert tl.event_count == sum(1 for e in events if e["ph"] == "X")


@pytest.mark.parametrize("form", ["msprof", "torch_npu"])
def test_generated_threads_stay_compiled(generated, monkeypatch, threads_everywhere, no_python_rest, form):
    monkeypatch.setenv(_trace_fast.ENV_SWITCH, "1")
    one = load_timeline(generated[form], workers=1)
    two = load_timeline(generated[form], workers=2, block=32768)
    assert_same(one, two)


@pytest.mark.parametrize("fraction", [0.0, 0.001, 0.31, 0.5, 0.77, 0.9999])
@pytest.mark.parametrize("workers", [1, 2])
def test_truncated_identical(generated, samples, tmp_path, monkeypatch, threads_everywhere, fraction, workers):
    for src in (generated["msprof"], samples / "torch_npu-trace_view" / "trace_view.json"):
        data = src.read_bytes()
        path = write(tmp_path / "cut.json", data[: max(1, int(len(data) * fraction))])
        tl, err = both(monkeypatch, path, workers=workers, block=16384)
        assert err is None
        assert any("file ends" in w for w in tl.warnings)


# -- synthetic shapes ---------------------------------------------------------------------------
def _meta(pid, name):
    return {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}}


def _shapes() -> list:
    """Events exercising escapes, nesting, odd numbers and every phase."""
    ev = [_meta(1, "Python"), _meta("dev\\1", "Ascend Hardware"), _meta(2, '进程 "two"')]
    names = [
        "plain",
        'quote " inside',
        "back \\ slash",
        "tab\tnew\nline",
        "é ü 中文",
        "emoji 😀",
        '}, {"name": "fake"',
        "",
    ]
    for k in range(60):
        nm = names[k % len(names)]
        ev.append(
            {
                "ph": "X",
                "name": nm,
                "cat": ["op", 'c"at', "类"][k % 3],
                "pid": [1, "dev\\1", 2][k % 3],
                "tid": [7, "t\u00e9", 0][k % 3],
                "ts": [
                    "1704161511420306.491",
                    1704161511420307.5,
                    "1704161511420308.0005",
                    "1704161511420309.0015",
                    "1704161511420310.9999995",
                    "17041615114203.1e2",
                ][k % 6],
                "dur": [13.08, "2.5", 0, "0.0005", 1e-3][k % 5],
                "args": {
                    "nested": {"list": [1, {"deep": [[], {}]}, "x}]"], "s": nm},
                    "n": None,
                    "b": True,
                    "f": -1.5e-7,
                },
            }
        )
    for k in range(20):
        flow_id = [
            "5",
            6,
            "HostToDevice8589943181934591",
            "-7",
            "007",
            "a\\u0031",
            "9223372036854775807",
            "-9223372036854775808",
            1.5,
            "\u0031\u0032",
            "-0",
            0,
            "00",
            "ü",
            'x"y',
            2**64,
            "",
            3.0,
            "1e3",
            1e3,
        ][k]
        ev.append(
            {
                "ph": "s",
                "name": f'flow {k} "q"',
                "cat": "HostToDevice",
                "id": flow_id,
                "pid": 1,
                "tid": 7,
                "ts": f"1704161511420306.{k:03d}",
            }
        )
        ev.append(
            {
                "ph": "f",
                "name": "",
                "cat": "HostToDevice",
                "id": flow_id,
                "pid": 2,
                "tid": 0,
                "bp": "e",
                "ts": f"1704161511420310.{k:03d}",
            }
        )
    ev += [
        {"ph": "t", "cat": "x", "id": 1, "pid": 1, "tid": 7, "ts": "1704161511420306.5"},
        {"ph": "B", "name": "b\\e", "pid": 1, "tid": 7, "ts": "1704161511420400", "args": {"a": [1]}},
        {"ph": "E", "pid": 1, "tid": 7, "ts": "1704161511420500"},
        {"ph": "i", "name": "mark", "s": "t", "pid": 1, "tid": 7, "ts": 1704161511420401},
        {"ph": "C", "name": "mem", "pid": 2, "ts": "1704161511420402", "args": {"used": 5, "free": 1.5}},
        {"ph": "P", "pid": 1, "tid": 7, "ts": "1"},
        {"ph": "b", "id": 3, "pid": 1, "tid": 7, "ts": "1"},
        {"ph": "XX", "pid": 1, "tid": 7, "ts": "1"},
        {"name": "no phase", "pid": 1, "tid": 7},
        {
            "ph": "X",
            "name": "unknown keys",
            "pid": 1,
            "tid": 7,
            "ts": "1704161511420306",
            "tts": 5,
            "sf": [1, 2],
            "stack": {"a": "b"},
            "id2": {"local": "0x1"},
            "dur": 1,
        },
    ]
    return ev


@pytest.mark.parametrize("layout", ["array", "object", "crlf_bom", "compact"])
def test_escapes_nesting_and_phases_identical(tmp_path, monkeypatch, threads_everywhere, layout):
    events = _shapes()
    if layout == "compact":
        text = json.dumps(events, ensure_ascii=False, separators=(",", ":"))
    elif layout == "object":
        text = json.dumps({"otherData": {"a": [{"b": 1}]}, "traceEvents": events, "displayTimeUnit": "ns"})
    elif layout == "crlf_bom":
        text = "\ufeff[\r\n" + ",\r\n\t".join(json.dumps(e, ensure_ascii=False) for e in events) + "\r\n]\r\n"
    else:
        text = json.dumps(events)
    path = write(tmp_path / "shapes.json", text)
    for block in (1 << 20, 4096):
        for workers in (1, 2):
            tl, err = both(monkeypatch, path, block=block, workers=workers)
            assert err is None, err
    assert tl.event_count == 61 and tl.flow_count == 20
    assert sorted(set(tl.names) & {'quote " inside', "back \\ slash", "emoji 😀", "é ü 中文"}) == sorted(
        {'quote " inside', "back \\ slash", "emoji 😀", "é ü 中文"}
    )


def test_rounding_is_exact(tmp_path, monkeypatch, no_python_rest):
    """ts/dur texts with many decimals: round(x * 1000) with halves up, computed here with Decimal."""
    texts = [
        "1511420306.4915",
        "1511420306.4914999",
        "1511420306.0005",
        "0.0005",
        "-0.0005",
        "-0.0006",
        "-1.2345",
        "1511420306",
        "99.9999999999999999999",
        "12.5",
        "1511420306.0004999999999999999",
    ]
    events = [
        {"ph": "X", "name": str(k), "pid": 1, "tid": 1, "ts": t, "dur": t.lstrip("-")} for k, t in enumerate(texts)
    ]
    path = write(tmp_path / "round.json", json.dumps(events))
    monkeypatch.setenv(_trace_fast.ENV_SWITCH, "1")
    tl = load_timeline(path)

    def ns(t):
        with localcontext() as ctx:
            ctx.prec = 60
            return int((Decimal(t) * 1000 + Decimal("0.5")).to_integral_value(rounding=ROUND_FLOOR))

    got = {tl.name(i): (int(tl.start_ns[i]) + tl.origin_ns, int(tl.dur_ns[i])) for i in range(len(tl))}
    assert got == {str(k): (ns(t), ns(t.lstrip("-"))) for k, t in enumerate(texts)}
    monkeypatch.setenv(_trace_fast.ENV_SWITCH, "0")
    assert_same(tl, load_timeline(path))


# -- odd and bad input: the Python path takes over, messages unchanged ---------------------------
GOOD = '{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "5", "dur": 1}'


@pytest.mark.parametrize(
    "bad",
    [
        '{"p\\u0068": "X", "name": "a", "pid": 1, "tid": 1, "ts": "5"}',  # escaped key
        '{"ph": "\\u0058", "name": "a", "pid": 1, "tid": 1, "ts": "5"}',  # escaped phase
        '{"ph": "X", "name": "a", "name": "b", "pid": 1, "tid": 1, "ts": "5"}',  # repeated field
        '{"ph": "X", "name": "a", "pid": -0, "tid": 1, "ts": "5"}',
        '{"ph": "X", "name": "a", "pid": 1.5, "tid": 1, "ts": "5"}',
        '{"ph": "X", "name": "a", "pid": null, "tid": 1, "ts": "5"}',
        '{"ph": "X", "name": "a", "tid": 1, "ts": "5"}',  # no pid
        '{"ph": "s", "name": "a", "pid": 1, "tid": 1, "ts": "5", "id": null}',
        '{"ph": "X", "name": 5, "pid": 1, "tid": 1, "ts": "5"}',  # name not a string
        '{"ph": "X", "name": "a", "pid": 1, "tid": 1}',  # no ts
        '{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "abc"}',
        '{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "5", "dur": null}',
        '{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "9999999999999999999999"}',
        '{"ph": "X", "name": "a\\ud800", "pid": 1, "tid": 1, "ts": "5"}',  # lone surrogate
        '{"ph": "X", "name": "a\x01", "pid": 1, "tid": 1, "ts": "5"}',  # raw control character
        '{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "5", "args": {"a": 01}}',
        '{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "5", "args": {"a": NaN}}',
        '{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "5", "args": {"a" 1}}',
        '{"ph": "B", "name": "a", "pid": 1, "tid": 1, "ts": "x"}',
        '{"ph": "X", "name": "\xff", "pid": 1, "tid": 1, "ts": "5"}',  # not UTF-8 (written as latin-1)
        "5",
        '{"ph": "X"} {"ph": "X"}',
        '{"ph": "X"},, {"ph": "X"}',
        '{"ph": "X"}, ]',
    ],
)
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_odd_events_identical(tmp_path, monkeypatch, threads_everywhere, bad, where):
    before = {"first": 0, "middle": 300, "last": 600}[where]
    after = 600 - before
    text = "[" + ", ".join([GOOD] * before + [bad] + [GOOD] * after) + "]"
    path = write(tmp_path / "odd.json", text.encode("latin-1") if "\xff" in bad else text.encode("utf-8"))
    for workers in (1, 2):
        both(monkeypatch, path, workers=workers, block=4096)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "[]",
        "[ ]",
        "[\n",
        "[{",
        '{"traceEvents": []}',
        "{}",
        "nope",
        '[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "5"}]  trailing',
    ],
)
def test_tiny_files_identical(tmp_path, monkeypatch, text):
    both(monkeypatch, write(tmp_path / "tiny.json", text))


def test_event_bigger_than_the_buffer(tmp_path, monkeypatch, threads_everywhere, no_python_rest):
    big = {
        "ph": "X",
        "name": "big",
        "pid": 1,
        "tid": 1,
        "ts": "5",
        "dur": 1,
        "args": {"blob": "x" * 50_000, "list": list(range(5000))},
    }
    events = [
        big if k % 7 == 0 else {"ph": "X", "name": f"n{k}", "pid": 1, "tid": 2, "ts": str(k), "dur": 1}
        for k in range(200)
    ]
    path = write(tmp_path / "big.json", json.dumps(events))
    monkeypatch.setenv(_trace_fast.ENV_SWITCH, "1")
    tl = load_timeline(path, block=4096)
    assert tl.event_count == 200
    assert tl.args(int(np.flatnonzero(np.array([tl.name(i) for i in range(len(tl))]) == "big")[0])) == big["args"]


# -- the helpers in C -------------------------------------------------------------------------------
def test_first_codes_matches_dict_setdefault():
    items = ["b", "a", "é", "b", "", "a", "😀", "é"]
    index = np.array([3, 0, 1, 5, 2, 4, 6, 7, 2, 0], dtype=np.int64)
    out = np.empty(len(index), dtype=np.int32)
    uniq = fastscan.first_codes(items, index, out)
    table: dict[str, int] = {}
    expect = [table.setdefault(items[i], len(table)) for i in index.tolist()]
    assert out.tolist() == expect and uniq == list(table)


def test_decimal_texts_match_str():
    values = np.array([0, 5, -5, 10, 2**63 - 1, -(2**63), 123456789, -1000], dtype=np.int64)
    raw, width = fastscan.decimal_texts(values)
    assert np.frombuffer(raw, dtype=f"S{width}").tolist() == [str(v).encode() for v in values.tolist()]
    assert width == max(len(str(v)) for v in values.tolist())


def test_cancel_stops_the_scan_threads(generated, monkeypatch, threads_everywhere):
    import threading

    from workbench.core.tasks import Cancelled, CancelToken

    class CancelOnSecondTick:
        def __init__(self, token):
            self.token, self.ticks = token, 0

        def status(self, text):
            pass

        def fraction(self, value):
            self.ticks += 1
            if self.ticks == 2:
                self.token.cancel()

        def partial(self, item):
            pass

    monkeypatch.setenv(_trace_fast.ENV_SWITCH, "1")
    before = {t.name for t in threading.enumerate()}
    token = CancelToken()
    with pytest.raises(Cancelled):
        load_timeline(generated["msprof"], CancelOnSecondTick(token), token, workers=2, block=4096)
    assert not {t.name for t in threading.enumerate() if t.name.startswith("trace-scan")} - before


@pytest.mark.parametrize("seed", range(6))
def test_nesting_and_binding_match_the_numpy_code(monkeypatch, seed):
    """Random slices (overlapping, zero-length, equal starts, several lanes) and points."""
    from workbench.core.profiling.timeline import assemble as merge

    rng = np.random.default_rng(seed)
    n, m = 3000, 2000
    lane = rng.integers(0, 5, n).astype(np.int32)
    start = rng.integers(0, 400, n).astype(np.int64) * rng.choice([1, 10**6], n)
    dur = np.where(rng.random(n) < 0.2, 0, rng.integers(0, 300, n) * rng.choice([1, 10**5], n)).astype(np.int64)
    order = np.lexsort((-dur, start, lane))
    lane, start, dur = lane[order], start[order], dur[order]
    p_lane = rng.integers(0, 7, m).astype(np.int32)  # lanes 5 and 6 have no slices
    p_ts = rng.integers(-5, 4 * 10**8, m).astype(np.int64)
    enclosing = rng.random(m) < 0.7
    got = {}
    for fast in ("1", "0"):
        monkeypatch.setenv(_trace_fast.ENV_SWITCH, fast)
        depth, parent = merge._depth_parent(lane, start, dur)
        bound = merge.bind_points(lane, start, start + dur, parent, p_lane, p_ts, enclosing)
        got[fast] = (depth, parent, bound)
    for a, b in zip(got["1"], got["0"]):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert got["1"][0].max() > 2 and (got["1"][2] >= 0).any() and (got["1"][2] < 0).any()
