"""Property-based fuzz of the profiling readers: trace JSON, every summary CSV, the saved report
(``.wbreport``) and the columnar cache. Each input parses, or raises ProfilingDataError naming the
file — never anything else."""

from __future__ import annotations

import io
import itertools
import json
import random
import shutil
import zipfile
from pathlib import Path

import hypothesis.strategies as st
import pytest
from fuzzkit import HUGE_INTS, deep_json, encodings, feed, json_values, mutated, write
from hypothesis import example, given

from workbench.core.profiling import tables
from workbench.core.profiling.build import open_report
from workbench.core.profiling.comm import communication_view
from workbench.core.profiling.detect import detect
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.memory import KINDS, downsample, memory_view
from workbench.core.profiling.steps import step_breakdown
from workbench.core.profiling.storage import cache
from workbench.core.profiling.storage.saved import META_MEMBER, load_saved, save_report

ROOT = Path(__file__).resolve().parents[2]
SIM_TORCH = next((ROOT / "resources/samples/resnet_torch_npu").glob("*_ascend_pt"))
_n = itertools.count()


def _scratch(tmp_path: Path) -> Path:
    """A fresh folder per hypothesis example (tmp_path is shared by the examples of one test)."""
    d = tmp_path / f"x{next(_n)}"
    d.mkdir()
    return d


def _touch_report(report) -> None:
    """What the views read first: tables, span and the args of a few slices; the models of the Memory,
    Communication and Steps views (issue #19)."""
    dict(report.tables)  # a cached report decodes each table on first use: damage shows here
    tl = report.timeline
    if tl is not None:
        for i in range(min(tl.event_count, 16)):
            tl.args(i)
            tl.name(i)
    memory = memory_view(report)
    if memory is not None:
        for component in memory.components:
            for kind in KINDS:
                ts, values = memory.curve(component, kind)
                downsample(ts, values, 8)
        for peak in memory.peaks[:4]:
            memory.alive_at(peak.ts_ns)
        for module in memory.modules[:4]:
            memory.module_curve(module)
    comm = communication_view(report)
    if comm is not None:
        comm.transports()
        comm.matrix_grid()
        for group_op in comm.group_ops()[:3]:
            comm.matrix_grid(group_op=group_op)
    step_breakdown(report)


def open_any(fmt: str, path: Path) -> None:
    def call() -> None:
        _touch_report(open_report(path, use_cache=False))

    feed(fmt, path, call, (ProfilingDataError,))


# ----- trace JSON (torch_npu trace_view.json, msprof msprof_*.json)

ts_values = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.sampled_from(["1717407000000256.466", "12.5", "", "abc", "1e400", "-0", "١٢", "²"]),
    st.sampled_from(HUGE_INTS),
)
ids = st.one_of(st.integers(-5, 5), st.sampled_from(HUGE_INTS), st.text(max_size=6), st.none(), st.floats())
arg_values = st.one_of(json_values(12), st.sampled_from(["中文参数", "²", "１２", "99999999999999999999999"]))
events = st.fixed_dictionaries(
    {"ph": st.sampled_from(["X", "B", "E", "M", "i", "I", "C", "s", "f", "t", "b", "e", "Z", 1, None])},
    optional={
        "name": st.one_of(st.sampled_from(["process_name", "thread_name", "thread_sort_index"]), st.text(max_size=8)),
        "ts": ts_values,
        "dur": ts_values,
        "pid": ids,
        "tid": ids,
        "cat": st.sampled_from(["HostToDevice", "async_npu", "", "x"]),
        "id": ids,
        "bp": st.just("e"),
        "args": st.one_of(
            st.dictionaries(
                st.sampled_from(["name", "Task Id", "Task Type", "OP Type", "Stream Id", "sort_index", "x"]),
                arg_values,
                max_size=4,
            ),
            json_values(6),
        ),
    },
)
HW = [
    {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "Ascend Hardware"}},
    {"ph": "M", "name": "thread_name", "pid": 1, "tid": 7, "args": {"name": "Stream 7"}},
]


@st.composite
def traces(draw: st.DrawFn) -> bytes:
    evs = draw(st.lists(events, max_size=12))
    if draw(st.booleans()):
        evs = HW + evs
    doc: object = (
        evs
        if draw(st.booleans())
        else {"traceEvents": evs, **draw(st.dictionaries(st.text(max_size=5), json_values(4), max_size=2))}
    )
    text = json.dumps(doc, ensure_ascii=False, allow_nan=True)
    return draw(encodings(text))


TRACE_TASK_ID_GBK = (
    json.dumps(
        HW
        + [
            {"ph": "X", "name": "k", "ts": 1, "dur": 2, "pid": 1, "tid": 7, "args": {"Task Id": "7", "OP Type": "中文"}}
        ],
        ensure_ascii=False,
    )
).encode("gbk")


@given(data=st.one_of(traces(), st.builds(deep_json, st.integers(1, 60000))))
@example(data=TRACE_TASK_ID_GBK)
@example(
    data=json.dumps(
        HW + [{"ph": "X", "name": "k", "ts": 1, "dur": 2, "pid": 1, "tid": 7, "args": {"Task Id": "²"}}]
    ).encode()
)
def test_trace_json(tmp_path: Path, data: bytes) -> None:
    open_any("trace-json", write(_scratch(tmp_path) / "trace_view.json", data))


@given(data=mutated((SIM_TORCH / "ASCEND_PROFILER_OUTPUT/trace_view.json").read_bytes()[:6000]))
def test_trace_json_mutated(tmp_path: Path, data: bytes) -> None:
    open_any("trace-json", write(_scratch(tmp_path) / "msprof_0.json", data))


# ----- summary CSVs


def _aliases(schema) -> list[str]:
    return sorted({a for col in schema for a, _ in col.aliases})


HEADERS = sorted(
    set(
        _aliases(tables.OPS)
        + _aliases(tables.OP_STATISTIC)
        + _aliases(tables.API_STATISTIC)
        + _aliases(tables.API_CALLS)
    )
    | {
        "Step",
        "Computing",
        "Communication(Not Overlapped)",
        "Total Allocated(MB)",
        "Timestamp(us)",
        "Component",
        "Size(KB)",
        "Allocation Time(us)",
        "Release Time(us)",
        "aic_mac_ratio",
        "",
    }
)
CELLS = st.one_of(
    st.sampled_from(
        [
            "",
            "N/A",
            "NaN",
            "nan",
            "inf",
            "-inf",
            "-1",
            "0",
            "7",
            "1.5",
            "1e400",
            "99999999999999999999999",
            "9223372036854775808",
            "-9223372036854775809",
            "1717407000000256.466",
            "1717407000000256.466\t",
            "abc",
            "中文",
            '"a,b"',
            '"x""y"',
            "²",
            "１２",
            "0x10",
            "1_000",
            " 3 ",
            "True",
            '"multi\nline"',
        ]
    ),
    st.integers().map(str),
    st.text(max_size=6),
)


@st.composite
def csv_files(draw: st.DrawFn) -> bytes:
    header = draw(st.lists(st.sampled_from(HEADERS), min_size=1, max_size=8))
    rows = draw(st.lists(st.lists(CELLS, min_size=max(0, len(header) - 1), max_size=len(header) + 1), max_size=6))
    sep = draw(st.sampled_from([",", ",", "\t"]))
    text = "\n".join(sep.join(r) for r in [header, *rows]) + draw(st.sampled_from(["", "\n", "\r\n"]))
    return draw(encodings(text))


CSV_READERS = {
    "kernel_details.csv": ("csv-ops", tables.read_ops),
    "op_summary_20250101.csv": ("csv-ops", tables.read_ops),
    "op_statistic.csv": ("csv-op_statistic", lambda p: tables.read_table(p, tables.OP_STATISTIC)),
    "api_statistic.csv": ("csv-api_statistic", tables.read_api_statistic),
    "acl_0_1_1.csv": ("csv-acl-calls", lambda p: tables.aggregate_api_calls(p, "acl")),
    "step_trace_time.csv": ("csv-step_trace_time", tables.read_table),
    "memory_record.csv": ("csv-memory", tables.read_table),
    "operator_memory.csv": ("csv-memory", tables.read_table),
    "npu_module_mem.csv": ("csv-memory", tables.read_table),
    "cluster_step_trace_time.csv": ("csv-cluster", tables.read_table),
}


@pytest.mark.parametrize("name", sorted(CSV_READERS))
@given(data=csv_files())
@example(data=b"Name,Duration(us),Task ID\nk,1.0,99999999999999999999999\n")
@example(data=b"Name,Duration(us),Task ID\nk,1.0,\xef\xbc\x91\xef\xbc\x92\n")
@example(data=b"\xef\xbb\xbfName,Duration(us),Start Time(us)\n\xd6\xd0,1,1e400\n")
def test_csv_table(tmp_path: Path, name: str, data: bytes) -> None:
    fmt, reader = CSV_READERS[name]
    path = write(_scratch(tmp_path) / name, data)
    feed(fmt, path, lambda: reader(path), (ProfilingDataError,))


@given(data=csv_files())
@example(data=b"Name,Duration(us),Task ID\nk,1.0,99999999999999999999999\n")
def test_ops_csv_report(tmp_path: Path, data: bytes) -> None:
    """A lone kernel_details.csv opened as a report (stats, span, views' first reads)."""
    open_any("csv-ops-report", write(_scratch(tmp_path) / "kernel_details.csv", data))


# ----- communication.json / communication_matrix.json (torch_npu per step, msprof per op)

COMM_NUMBERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**70), 2**70),
    st.sampled_from(HUGE_INTS),
    st.sampled_from(["1.5", "abc", "", "1736408883732241.567", "1e400", "-0", "１２"]),
    st.none(),
    st.booleans(),
)
TIME_KEYS = [
    "Start Timestamp(us)",
    "Elapse Time(ms)",
    "Transit Time(ms)",
    "Wait Time(ms)",
    "Synchronization Time(ms)",
    "Idle Time(ms)",
    "Wait Time Ratio",
    "Synchronization Time Ratio",
    "start timestamp(us)",
]
LINK_KEYS = ["Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)", "Large Packet Ratio", "Bandwidth(Utilization)"]
OP_NAMES = [
    "hcom_allReduce__586_0_1@1752",
    "hcom_send__1_0_1@9",
    "hcom_receive__2@9",
    "Total Op Info",
    "total",
    "",
    "x",
]
SIZES = st.dictionaries(
    st.sampled_from(["2.064384", "0", "x", "1e400", "", "-1"]),
    st.one_of(st.lists(COMM_NUMBERS, max_size=3), COMM_NUMBERS),
    max_size=3,
)
TRANSPORT = st.dictionaries(
    st.sampled_from([*LINK_KEYS, "Size Distribution"]), st.one_of(COMM_NUMBERS, SIZES), max_size=6
)
OP = st.fixed_dictionaries(
    {},
    optional={
        "Communication Time Info": st.one_of(
            st.dictionaries(st.sampled_from(TIME_KEYS), COMM_NUMBERS, max_size=8), json_values(3)
        ),  # noqa: E501
        "Communication Bandwidth Info": st.one_of(
            st.dictionaries(
                st.sampled_from(["HCCS", "RDMA", "SDMA", "UB", ""]), st.one_of(TRANSPORT, json_values(3)), max_size=3
            ),  # noqa: E501
            json_values(3),
        ),
    },
)
LINK = st.dictionaries(
    st.sampled_from([*LINK_KEYS, "Transport Type", "Op Name"]),
    st.one_of(COMM_NUMBERS, st.sampled_from(["HCCS", "LOCAL", "NEWLINK"]), json_values(2)),
    max_size=6,
)
MATRIX_ENTRY = st.dictionaries(
    st.sampled_from(["0-1", "1-0", "0-0", "7-99999999999999999999", "a-b", ""]),
    st.one_of(LINK, json_values(2)),
    max_size=3,
)  # noqa: E501
MATRIX_NAMES = ["allreduce-top1@1752", "allreduce-total@1752", "send-middle@9", "Total Op Info", *OP_NAMES]


def _comm_docs(entry: st.SearchStrategy, names: list[str]) -> st.SearchStrategy[bytes]:
    """Either layout (steps of p2p / collective, or entries by name at the top), or any JSON at all."""
    kinds = st.dictionaries(
        st.sampled_from(["p2p", "collective", "Collective", "other"]),
        st.one_of(
            st.dictionaries(st.sampled_from(names), st.one_of(entry, json_values(3)), max_size=3), json_values(3)
        ),
        max_size=2,
    )  # noqa: E501
    top = st.dictionaries(
        st.sampled_from(["step50", "step", "step99999999999999999999999", "stepx", *names]),
        st.one_of(kinds, entry, json_values(3)),
        max_size=3,
    )
    return st.one_of(top, json_values(6)).map(lambda doc: json.dumps(doc, allow_nan=True).encode())


COMM_FILES = {
    "communication.json": ("json-communication", tables.read_communication, _comm_docs(OP, OP_NAMES)),
    "communication_matrix.json": (
        "json-communication_matrix",
        tables.read_communication_matrix,
        _comm_docs(MATRIX_ENTRY, MATRIX_NAMES),
    ),
}


def _comm_case(tmp_path: Path, name: str, blob: bytes) -> None:
    """One file read alone, then inside a torch_npu output (the report and the Communication view)."""
    fmt, reader, _docs = COMM_FILES[name]
    folder = _scratch(tmp_path) / "r_ascend_pt"
    out = folder / "ASCEND_PROFILER_OUTPUT"
    path = write(out / name, blob)
    feed(fmt, path, lambda: reader(path), (ProfilingDataError,))
    shutil.copy(SIM_TORCH / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv", out / "kernel_details.csv")
    open_any("comm-report", folder)


@pytest.mark.parametrize("name", sorted(COMM_FILES))
@given(data=st.data())
def test_communication_json(tmp_path: Path, name: str, data: st.DataObject) -> None:
    docs = COMM_FILES[name][2]
    _comm_case(tmp_path, name, data.draw(st.one_of(docs, docs.flatmap(encodings_of))))


@pytest.mark.parametrize("name", sorted(COMM_FILES))
def test_communication_json_nested_deep(tmp_path: Path, name: str) -> None:
    _comm_case(tmp_path, name, deep_json(30000))


def encodings_of(blob: bytes) -> st.SearchStrategy[bytes]:
    return encodings(blob.decode("utf-8"))


# ----- the saved report (.wbreport) and the cache


@pytest.fixture(scope="module")
def saved_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    out = tmp_path_factory.mktemp("saved") / "sim.wbreport"
    save_report(open_report(SIM_TORCH, use_cache=False), out)
    return out.read_bytes()


def _members(blob: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        return {n: z.read(n) for n in z.namelist()}


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def _perturb(node: object, rnd: random.Random, value: object) -> object:
    """``node`` with one randomly chosen descendant (or itself) replaced by ``value``."""
    if rnd.random() < 0.25 or not isinstance(node, (dict, list)) or not node:
        return value
    if isinstance(node, dict):
        key = rnd.choice(sorted(node))
        return {**node, key: _perturb(node[key], rnd, value)}
    i = rnd.randrange(len(node))
    return [*node[:i], _perturb(node[i], rnd, value), *node[i + 1 :]]


def load_wbreport(fmt: str, path: Path) -> None:
    feed(fmt, path, lambda: _touch_report(load_saved(path)), (ProfilingDataError,))


def test_wbreport_mutated_bytes(tmp_path: Path, saved_bytes: bytes) -> None:
    @given(data=mutated(saved_bytes))
    def run(data: bytes) -> None:
        load_wbreport("wbreport", write(_scratch(tmp_path) / "r.wbreport", data))

    run()


def test_wbreport_crafted_meta(tmp_path: Path, saved_bytes: bytes) -> None:
    """report.json of a valid archive with one field replaced by any JSON value."""
    members = _members(saved_bytes)
    meta = json.loads(members[META_MEMBER])

    @given(seed=st.integers(0, 2**32 - 1), value=json_values(8))
    @example(seed=0, value="tables")  # the whole description a string
    @example(seed=821, value=[None])  # CI found it: a list where the per-table facts were (TypeError)
    @example(
        seed=1, value={"prefix": "tables/0", "rows": 3, "columns": [{"name": "x", "kind": "object", "categories": []}]}
    )
    def run(seed: int, value: object) -> None:
        crafted = _perturb(meta, random.Random(seed), value)
        text = json.dumps(crafted, allow_nan=True).encode()
        load_wbreport("wbreport-meta", write(_scratch(tmp_path) / "r.wbreport", _zip({**members, META_MEMBER: text})))

    run()


def test_wbreport_member_mutated(tmp_path: Path, saved_bytes: bytes) -> None:
    """One .npy member (or report.json) damaged inside an archive with correct CRCs."""
    members = _members(saved_bytes)
    names = sorted(members)

    @given(which=st.sampled_from(names), seed=st.integers(0, 2**32 - 1))
    def run(which: str, seed: int) -> None:
        rnd = random.Random(seed)
        from fuzzkit import mutate

        damaged = {**members, which: mutate(members[which], rnd)[1]}
        load_wbreport("wbreport-member", write(_scratch(tmp_path) / "r.wbreport", _zip(damaged)))

    run()


@given(depth=st.integers(1000, 100000))
def test_wbreport_deep_meta(tmp_path: Path, depth: int) -> None:
    load_wbreport("wbreport-meta", write(_scratch(tmp_path) / "r.wbreport", _zip({META_MEMBER: deep_json(depth)})))


@pytest.fixture(scope="module")
def cached_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("cached") / SIM_TORCH.name
    shutil.copytree(SIM_TORCH, src)
    open_report(src, use_cache=True)
    assert cache.present(detect(src))
    return src


def test_cache_damaged(tmp_path: Path, cached_source: Path) -> None:
    """A damaged cache is rebuilt (or the error names a file): never an exception of another type."""
    place = next(p for p in cache.locations(detect(cached_source)) if p.is_dir())
    files = sorted(p for p in place.rglob("*") if p.is_file())
    originals = {p: p.read_bytes() for p in files}

    @given(which=st.sampled_from(files), data=st.data())
    @example(which=place / cache.META, data=None)
    def run(which: Path, data) -> None:
        if data is None:
            damaged = b"[" * 50000
        elif which.name == cache.META:
            damaged = data.draw(
                st.one_of(mutated(originals[which]), json_values(6).map(lambda v: json.dumps(v).encode()))
            )
        else:
            damaged = data.draw(mutated(originals[which]))
        try:
            which.write_bytes(damaged)
            feed(
                "wbcache",
                cached_source,
                lambda: _touch_report(open_report(cached_source, use_cache=True)),
                (ProfilingDataError,),
                names=(str(place),),
            )
        finally:
            which.write_bytes(originals[which])

    run()


# ----- regressions the fuzz found (plain tests: each failed before its fix)


def _meta_of(saved_bytes: bytes) -> tuple[dict[str, bytes], dict]:
    members = _members(saved_bytes)
    return members, json.loads(members[META_MEMBER])


@pytest.mark.parametrize(
    "change",
    [
        lambda m: "not an object",  # the whole description a string
        lambda m: {**m, "tables": "x"},  # 'str' object has no attribute 'items'
        lambda m: {**m, "tables": {"ops": "x"}},
        lambda m: {**m, "devices": [[1]]},
        lambda m: {**m, "timeline": {"meta": "x", "arrays": []}},
        lambda m: {**m, "info": [1, 2]},
    ],
)
def test_crafted_report_json_is_one_error(tmp_path: Path, saved_bytes: bytes, change) -> None:
    members, meta = _meta_of(saved_bytes)
    crafted = json.dumps(change(meta)).encode()
    load_wbreport("wbreport-meta", write(tmp_path / "r.wbreport", _zip({**members, META_MEMBER: crafted})))


def test_object_codes_out_of_range_is_one_error(tmp_path: Path, saved_bytes: bytes) -> None:
    """A string column whose codes point past its categories (IndexError in the columnar store before)."""
    members, meta = _meta_of(saved_bytes)
    col = next(c for c in meta["tables"]["ops"]["columns"] if c["kind"] == "category")
    col.update(kind="object", dtype="object", categories=[])
    crafted = json.dumps(meta).encode()
    load_wbreport("wbreport-meta", write(tmp_path / "r.wbreport", _zip({**members, META_MEMBER: crafted})))


@pytest.mark.parametrize("name", ["cluster_communication.json", "profiler_info.json"])
@given(
    data=st.one_of(
        json_values(10).map(lambda v: json.dumps(v, allow_nan=True).encode()),
        st.builds(deep_json, st.integers(1, 50000)),
    )
)
@example(data=deep_json(20000))
def test_info_json(tmp_path: Path, name: str, data: bytes) -> None:
    """The JSON files a report keeps as info (cluster communication, profiler_info)."""
    work = _scratch(tmp_path)
    if name.startswith("cluster"):
        folder = work / "cluster_analysis_output"
        write(folder / name, data)
        shutil.copy(SIM_TORCH / "ASCEND_PROFILER_OUTPUT/step_trace_time.csv", folder / "cluster_step_trace_time.csv")
    else:
        folder = work / "r_ascend_pt"
        write(folder / name, data)
        shutil.copy(
            SIM_TORCH / "ASCEND_PROFILER_OUTPUT/kernel_details.csv",
            write(folder / "ASCEND_PROFILER_OUTPUT/x", b"").parent / "kernel_details.csv",
        )
    open_any("info-json", folder)


@pytest.mark.parametrize("member", [META_MEMBER, "tables/0/0.values.npy"])
def test_unknown_compression_method_is_one_error(tmp_path: Path, saved_bytes: bytes, member: str) -> None:
    """A flipped bit in a member's compression method (NotImplementedError from zipfile before)."""
    blob = bytearray(saved_bytes)
    with zipfile.ZipFile(io.BytesIO(saved_bytes)) as z:
        info = z.getinfo(member)
    name = member.encode()
    at = 0
    while True:  # the central directory entry of ``member``
        at = blob.index(b"PK\x01\x02", at)
        if blob[at + 46 : at + 46 + len(name)] == name:
            break
        at += 4
    blob[at + 10 : at + 12] = (99).to_bytes(2, "little")
    blob[info.header_offset + 8 : info.header_offset + 10] = (99).to_bytes(2, "little")
    load_wbreport("wbreport", write(tmp_path / "r.wbreport", bytes(blob)))
