"""communication.json / communication_matrix.json (issue #19): the reader, the Communication view's model,
the layouts that hold them, the cache and SQL — against values computed here from the real sample with the
json module (numbers as Decimal, never float64)."""

from __future__ import annotations

import copy
import json
import math
import shutil
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.core.profiling.build import open_report
from workbench.core.profiling.comm import communication_view
from workbench.core.profiling.detect import detect
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.query import QuerySession, run_query
from workbench.core.profiling.storage.saved import load_saved, save_report
from workbench.core.profiling.tables import read_communication, read_communication_matrix

SAMPLE = "torch_npu-910B-rank0-comm-mem"
P2P = ("hcom_send", "hcom_receive", "hcom_batchsendrecv")


def raw(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"), parse_float=Decimal)


def ns(us: Decimal) -> int:
    return int((Decimal(us) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


@pytest.fixture
def sample(samples) -> Path:
    return samples / SAMPLE


@pytest.fixture
def ascend_pt(sample, tmp_path) -> Path:
    """The real sample as a torch_npu output (rank 0)."""
    top = tmp_path / "host_1_20250109_ascend_pt"
    out = top / "ASCEND_PROFILER_OUTPUT"
    out.mkdir(parents=True)
    for f in sample.iterdir():
        shutil.copyfile(f, out / f.name)
    (top / "profiler_info_0.json").write_text(json.dumps({"rank_id": 0}))
    return top


def expected_ops(doc: dict) -> list[dict]:
    """Every op of a torch_npu communication.json, plainly."""
    out = []
    for step_key, kinds in doc.items():
        step = int(step_key[4:]) if step_key[4:] else None
        for kind, ops in kinds.items():
            for op, entry in ops.items():
                out.append({"step": step, "kind": kind, "op": op, **entry})
    return out


def test_sample_ops_and_totals_match_the_file(sample):
    doc = raw(sample / "communication.json")
    got = read_communication(sample / "communication.json")
    assert got.warnings == []
    table = got.tables["communication"]
    want = expected_ops(doc)
    assert len(table) == len(want) == 5
    fields = {
        "elapse_ms": "Elapse Time(ms)",
        "transit_ms": "Transit Time(ms)",
        "wait_ms": "Wait Time(ms)",
        "sync_ms": "Synchronization Time(ms)",
        "idle_ms": "Idle Time(ms)",
        "wait_ratio": "Wait Time Ratio",
        "sync_ratio": "Synchronization Time Ratio",
    }
    for (_, row), w in zip(table.iterrows(), want):
        info = w["Communication Time Info"]
        assert (row["step"], row["kind"], row["op"]) == (w["step"], w["kind"], w["op"])
        assert row["name"] == w["op"].split("@")[0]
        assert bool(row["total"]) == (w["op"] == "Total Op Info")
        for key, header in fields.items():
            assert row[key] == float(info[header]), key
        if "Start Timestamp(us)" in info:
            assert int(row["start_ns"]) == ns(info["Start Timestamp(us)"])  # exact: 1736408883732241500
        else:
            assert pd.isna(row["start_ns"])
    assert int(table["start_ns"].iloc[0]) == 1736408883732241500

    view = communication_view(open_report(sample, use_cache=False))
    assert view is not None
    assert list(view.ops["op"]) == [w["op"] for w in want if w["op"] != "Total Op Info"]
    assert list(view.totals["op"]) == ["Total Op Info"]
    total = doc["step50"]["collective"]["Total Op Info"]["Communication Time Info"]
    assert view.totals["elapse_ms"].iloc[0] == float(total["Elapse Time(ms)"])
    assert list(view.ops.columns[:13]) == [
        "step", "kind", "op", "name", "group", "start_ns", "elapse_ms", "transit_ms", "wait_ms", "sync_ms",
        "idle_ms", "wait_ratio", "sync_ratio",
    ]  # fmt: skip
    assert set(view.ops["group"]) == {"17522688603477080586"}


def test_sample_bandwidth_sizes_and_transports(sample):
    doc = raw(sample / "communication.json")
    view = communication_view(open_report(sample, use_cache=False))
    ops = [w for w in expected_ops(doc) if w["op"] != "Total Op Info"]
    bw_rows = [(w["op"], t, v) for w in ops for t, v in w["Communication Bandwidth Info"].items()]
    assert len(view.bandwidth) == len(bw_rows) == 20
    for (_, row), (op, transport, v) in zip(view.bandwidth.iterrows(), bw_rows):
        assert (row["op"], row["transport"]) == (op, transport)
        assert row["size_mb"] == float(v["Transit Size(MB)"]) and row["time_ms"] == float(v["Transit Time(ms)"])
        assert row["bandwidth_gbs"] == float(v["Bandwidth(GB/s)"])
        assert row["large_packet_ratio"] == float(v["Large Packet Ratio"])
    sizes = [(op, t, Decimal(p), c, ms) for op, t, v in bw_rows for p, (c, ms) in v["Size Distribution"].items()]
    assert len(view.sizes) == len(sizes) == 8
    for (_, row), (op, t, p, c, ms) in zip(view.sizes.iterrows(), sizes):
        assert (row["op"], row["transport"], row["count"]) == (op, t, c)
        assert row["packet_mb"] == float(p) and row["time_ms"] == float(ms)
    # per transport over the ops: total size / total time, as msprof-analyze's bandwidth (MB / ms = GB/s)
    transports = view.transports().set_index("transport")
    for t in ("RDMA", "HCCS", "PCIE", "SDMA", "SIO"):
        size = sum(v["Transit Size(MB)"] for _, tt, v in bw_rows if tt == t)
        time = sum(v["Transit Time(ms)"] for _, tt, v in bw_rows if tt == t)
        assert math.isclose(transports.loc[t, "size_mb"], float(size), rel_tol=1e-12)
        assert math.isclose(transports.loc[t, "bandwidth_gbs"], float(size / time) if time else 0.0, rel_tol=1e-12)
    # Total Op Info of the file sums the ops the same way (its bandwidth is computed: the file has none)
    total = doc["step50"]["collective"]["Total Op Info"]["Communication Bandwidth Info"]["HCCS"]
    hccs = view.bandwidth_totals.set_index("transport").loc["HCCS"]
    assert math.isclose(hccs["size_mb"], transports.loc["HCCS", "size_mb"], rel_tol=1e-12)
    assert math.isclose(hccs["bandwidth_gbs"], float(total["Transit Size(MB)"] / total["Transit Time(ms)"]))


def expected_links(doc: dict, group_op: str | None) -> dict[tuple[int, int], tuple[str, Decimal, Decimal, Decimal]]:
    """(src, dst) -> (transport, size, time, file bandwidth) of one entry, or summed over the ``-total`` ones."""
    out: dict = {}
    for kinds in doc.values():
        for groups in kinds.values():
            for name, links in groups.items():
                if (group_op is None and "-total@" not in name) or (group_op is not None and name != group_op):
                    continue
                for link, v in links.items():
                    s, d = (int(x) for x in link.split("-"))
                    t, size, time, _ = out.get((s, d), (v["Transport Type"], 0, 0, None))
                    out[(s, d)] = (t, size + v["Transit Size(MB)"], time + v["Transit Time(ms)"], v["Bandwidth(GB/s)"])
    return out


@pytest.mark.parametrize("group_op", [None, "allreduce-top1@17522688603477080586"])
def test_sample_matrix_grid(sample, group_op):
    doc = raw(sample / "communication_matrix.json")
    view = communication_view(open_report(sample, use_cache=False))
    links = expected_links(doc, group_op)
    ranks, bandwidth, transports = view.matrix_grid(group_op=group_op)
    assert ranks == sorted({r for link in links for r in link}) == list(range(8))
    assert bandwidth.shape == transports.shape == (8, 8) and transports.dtype == object
    for i, s in enumerate(ranks):
        for j, d in enumerate(ranks):
            if (s, d) not in links:
                assert np.isnan(bandwidth[i, j]) and transports[i, j] is None
                continue
            t, _size, _time, rate = links[(s, d)]
            assert transports[i, j] == t
            assert bandwidth[i, j] == float(rate)  # one entry per link: the file's figure
    assert transports[0, 0] == "LOCAL" and transports[0, 1] == "HCCS"
    # the link grid: the same ranks, bandwidth and transports, with the link's size and time
    grid = view.link_grid(group_op=group_op)
    assert grid.ranks == ranks and grid.transport.tolist() == transports.tolist()
    np.testing.assert_array_equal(grid.bandwidth_gbs, bandwidth)
    for i, s in enumerate(ranks):
        for j, d in enumerate(ranks):
            if (s, d) not in links:
                assert np.isnan(grid.size_mb[i, j]) and np.isnan(grid.time_ms[i, j]) and grid.entries[i, j] == 0
                continue
            _t, size, time, _rate = links[(s, d)]
            assert grid.entries[i, j] == 1  # the -total entry stands for the op type's others (nothing twice)
            assert grid.size_mb[i, j] == float(size) and grid.time_ms[i, j] == float(time)
            # the file's bandwidth is size / time rounded to 4 decimals
            assert math.isclose(grid.bandwidth_gbs[i, j], float(size / time), rel_tol=0, abs_tol=5e-5)
    # the matrix table keeps every entry: 6 per op type (top1, middle, bottom1..3, total) x 8 links
    assert len(view.matrix) == sum(len(v) for k in doc.values() for g in k.values() for v in g.values()) == 48
    assert set(view.matrix["statistic"]) == {"top1", "middle", "bottom1", "bottom2", "bottom3", "total"}


def test_aggregating_several_entries_of_a_link_is_total_size_over_total_time(tmp_path):
    """msprof's per-op matrix (no ``-total`` entries): two ops on one link -> (s1 + s2) / (t1 + t2)."""
    path = tmp_path / "communication_matrix.json"
    path.write_text(
        json.dumps(
            {
                "hcom_allReduce__1_0_1@g": {
                    "0-1": {
                        "Transport Type": "HCCS",
                        "Transit Size(MB)": 10.0,
                        "Transit Time(ms)": 1.0,
                        "Bandwidth(GB/s)": 10.0,
                    }
                },  # noqa: E501
                "hcom_allReduce__1_1_1@g": {
                    "0-1": {
                        "Transport Type": "HCCS",
                        "Transit Size(MB)": 30.0,
                        "Transit Time(ms)": 1.0,
                        "Bandwidth(GB/s)": 30.0,
                    }
                },  # noqa: E501
                "hcom_send__2_0_1@p": {
                    "1-0": {
                        "Transport Type": "NEWLINK",
                        "Transit Size(MB)": 4.0,
                        "Transit Time(ms)": 2.0,
                        "Bandwidth(GB/s)": 2.0,
                    }
                },  # noqa: E501
            }
        )
    )
    got = read_communication_matrix(path)
    table = got.tables["communication_matrix"]
    assert list(table["kind"]) == ["collective", "collective", "p2p"]
    assert list(table["statistic"]) == ["op"] * 3 and list(table["op_type"]) == ["allreduce", "allreduce", "send"]
    from workbench.core.profiling.comm import CommView

    view = CommView(pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), table)
    ranks, bw, transports = view.matrix_grid()
    assert ranks == [0, 1]
    assert bw[0, 1] == 20.0 and bw[1, 0] == 2.0 and np.isnan(bw[0, 0])
    assert transports[1, 0] == "NEWLINK", "an unknown transport is kept"
    grid = view.link_grid()
    assert grid.size_mb[0, 1] == 40.0 and grid.time_ms[0, 1] == 2.0 and grid.entries[0, 1] == 2
    assert grid.size_mb[1, 0] == 4.0 and grid.time_ms[1, 0] == 2.0 and grid.entries[1, 0] == 1
    assert np.isnan(grid.size_mb[0, 0]) and np.isnan(grid.time_ms[0, 0]) and grid.entries[0, 0] == 0


def test_aggregated_link_size_and_time_sum_the_links_entries_over_steps(sample, tmp_path):
    """The real sample's step50 and a second step (step51: the same entries, sizes doubled): the
    aggregate over all steps sums each link's ``-total`` entries of both steps, its bandwidth is
    that size / that time; one step alone is that step's entry."""
    doc = raw(sample / "communication_matrix.json")
    second = copy.deepcopy(doc["step50"])
    for links in second["collective"].values():
        for v in links.values():
            v["Transit Size(MB)"] *= 2
    folder = tmp_path / "run"
    shutil.copytree(sample, folder)
    with_two = {"step50": doc["step50"], "step51": second}
    (folder / "communication_matrix.json").write_text(json.dumps(with_two, default=float))
    view = communication_view(open_report(folder, use_cache=False))
    steps = {key: expected_links({key: with_two[key]}, None) for key in with_two}
    grid = view.link_grid()
    assert grid.ranks == list(range(8))
    for (s, d), (transport, size, time, _rate) in steps["step50"].items():
        _t, size2, time2, _rate2 = steps["step51"][(s, d)]
        assert grid.entries[s, d] == 2 and grid.transport[s, d] == transport
        assert math.isclose(grid.size_mb[s, d], float(size + size2), rel_tol=1e-12)
        assert math.isclose(grid.time_ms[s, d], float(time + time2), rel_tol=1e-12)
        assert math.isclose(grid.bandwidth_gbs[s, d], float((size + size2) / (time + time2)), rel_tol=1e-12)
    one = view.link_grid(step=51)
    for (s, d), (_t, size, time, _rate) in steps["step51"].items():
        assert one.entries[s, d] == 1
        assert math.isclose(one.size_mb[s, d], float(size), rel_tol=1e-12) and one.time_ms[s, d] == float(time)


def test_msprof_analyze_layout_p2p_and_collective_unknown_transport(sample, tmp_path):
    """msprof --analyze=on: PROF_*/analyze/communication.json by op (no step, no kind), read into the report."""
    doc = json.loads((sample / "communication.json").read_text())  # floats print back as written (repr)
    ops = {op: entry for op, entry in doc["step50"]["collective"].items() if op != "Total Op Info"}
    send = json.loads(json.dumps(next(iter(ops.values()))))
    send["Communication Bandwidth Info"]["UB"] = {
        "Transit Size(MB)": 1.5,
        "Transit Time(ms)": 0.5,
        "Bandwidth(GB/s)": 3.0,
        "Large Packet Ratio": 1.0,
        "Size Distribution": {"0.5": [3, 0.5]},
    }  # noqa: E501
    flat = {**ops, "hcom_send__9_0_1@77": send}
    prof = tmp_path / "PROF_000001_20250109101435646_ABCDEFGHIJKLMNOP"
    (prof / "analyze").mkdir(parents=True)
    (prof / "analyze" / "communication.json").write_text(json.dumps(flat))
    out = prof / "mindstudio_profiler_output"
    out.mkdir()
    (out / "step_trace_20250109101435.csv").write_text("Iteration ID,Iteration Time(us)\n1,10\n")
    layout = detect(prof)
    assert prof / "analyze" / "communication.json" in layout.files
    report = open_report(prof, use_cache=False)
    view = communication_view(report)
    assert view is not None and view.totals.empty
    assert list(view.ops["kind"]) == ["collective"] * 4 + ["p2p"]
    assert view.ops["step"].isna().all()
    assert list(view.ops["op"]) == list(flat)
    assert int(view.ops["start_ns"].iloc[0]) == 1736408883732241500
    ub = view.bandwidth[view.bandwidth["transport"] == "UB"]
    assert len(ub) == 1 and ub["bandwidth_gbs"].iloc[0] == 3.0, "an unknown transport is kept"
    assert "UB" in set(view.transports()["transport"])
    assert view.sizes[view.sizes["transport"] == "UB"]["count"].tolist() == [3]


def test_start_timestamp_is_exact_int64_ns_from_the_numbers_text(tmp_path):
    """float64 holds µs at epoch magnitude to 0.25 µs only: .567 µs must not become .5 (or .75)."""
    path = tmp_path / "communication.json"
    path.write_text(
        '{"step3": {"p2p": {"hcom_receive__1_0_1@g": {"Communication Time Info": {"Start Timestamp(us)": '
        '1736408883732241.567, "Elapse Time(ms)": 1}, "Communication Bandwidth Info": {}}}, "collective": {}}}'
    )
    assert float("1736408883732241.567") * 1000 != 1736408883732241567
    table = read_communication(path).tables["communication"]
    assert int(table["start_ns"].iloc[0]) == 1736408883732241567
    assert table["kind"].iloc[0] == "p2p" and table["step"].iloc[0] == 3


@pytest.mark.parametrize(
    "text,expected",
    [
        ("[1, 2]", "expected a JSON object"),
        ('{"step1": {"collective": {"op@g": {"Communication Time Info": {', "not valid JSON at line 1"),
        ('{"step1": {"collective": {"op@g": {"Communication Time Info": {"Elapse Time(ms)": "abc"}}}}}',
         '"step1" / "collective" / "op@g" / "Communication Time Info" / "Elapse Time(ms)": expected a number'),
        ('{"step1": {"collective": {"op@g": [1]}}}', '"step1" / "collective" / "op@g": expected an object'),
        ('{"step1": {"alltogether": {}}}', "expected 'p2p' or 'collective'"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)  # fmt: skip
def test_bad_communication_json_raises_one_line_naming_file_and_key(tmp_path, text, expected):
    path = tmp_path / "communication.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ProfilingDataError) as info:
        read_communication(path)
    message = str(info.value)
    assert str(path) in message and expected in message and "\n" not in message and "Traceback" not in message


def test_missing_keys_are_warnings_naming_the_file_and_key(tmp_path):
    path = tmp_path / "communication.json"
    path.write_text(
        json.dumps(
            {
                "step": {
                    "collective": {
                        "a@g": {"Communication Time Info": {"Elapse Time(ms)": 2.0}},
                        "b@g": {"Communication Time Info": {"Start Timestamp(us)": 5, "Elapse Time(ms)": 1}},
                    }
                }
            }
        )
    )
    got = read_communication(path)
    text = "\n".join(got.warnings)
    assert f"{path}: 1 of 2 communication ops have no 'Start Timestamp(us)'" in text
    assert f"{path}: 2 of 2 communication ops have no 'Communication Bandwidth Info'" in text
    assert f"{path}: 2 of 2 communication ops have no 'Transit Time(ms)'" in text
    table = got.tables["communication"]
    assert table["step"].isna().all(), "the key 'step': a run without steps"
    assert pd.isna(table["start_ns"].iloc[0]) and int(table["start_ns"].iloc[1]) == 5000
    assert np.isnan(table["transit_ms"]).all()


def test_bad_matrix_raises_and_odd_links_warn(tmp_path):
    path = tmp_path / "communication_matrix.json"
    path.write_text('{"step1": {"p2p": {"send-top1@g": {"0-1": {"Transport Type": 5}}}}}')
    with pytest.raises(ProfilingDataError, match=r"\"Transport Type\": expected a transport name, found the number 5"):
        read_communication_matrix(path)
    path.write_text('{"step1": {"p2p": {"send-top1@g": {"zero to one": {"Transport Type": "RDMA"}}}}}')
    got = read_communication_matrix(path)
    assert any(str(path) in w and "'zero to one'" in w for w in got.warnings)
    assert any("no 'Transit Size(MB)'" in w for w in got.warnings)
    assert got.tables["communication_matrix"]["src"].isna().all()


def test_torch_npu_layout_reads_the_json_files(ascend_pt):
    out = ascend_pt / "ASCEND_PROFILER_OUTPUT"
    layout = detect(ascend_pt)
    assert {out / "communication.json", out / "communication_matrix.json"} <= set(layout.files)
    report = open_report(ascend_pt, use_cache=False)
    assert report.kind == "torch_npu"
    for name in ("communication", "communication_bandwidth", "communication_sizes", "communication_matrix"):
        assert name in report.tables
        assert report.tables[name]["rank"].tolist() == [0] * len(report.tables[name]), "the rank of the file"
        assert "device" not in report.tables[name].columns


def test_tables_survive_the_cache_and_the_saved_report(ascend_pt, tmp_path):
    plain = open_report(ascend_pt, use_cache=False)
    open_report(ascend_pt, use_cache=True)  # writes the cache
    cached = open_report(ascend_pt, use_cache=True)
    assert cached.info.get("cache")
    saved = load_saved(save_report(plain, tmp_path / "r.wbreport"))
    for name in ("communication", "communication_bandwidth", "communication_sizes", "communication_matrix"):
        pd.testing.assert_frame_equal(plain.tables[name], cached.tables[name])
        pd.testing.assert_frame_equal(plain.tables[name], saved.tables[name])
    a, b = communication_view(plain), communication_view(cached)
    pd.testing.assert_frame_equal(a.ops, b.ops)
    (ra, bwa, ta), (rb, bwb, tb) = a.matrix_grid(), b.matrix_grid()
    assert ra == rb and ta.tolist() == tb.tolist()
    np.testing.assert_array_equal(bwa, bwb)


def test_query_exposes_the_communication_tables(ascend_pt, sample):
    session = QuerySession(open_report(ascend_pt, use_cache=False))
    try:
        result = run_query(session, "SELECT op, start_ns FROM communication WHERE NOT total ORDER BY start_ns")
        rows = result.table.to_pylist()
        doc = raw(sample / "communication.json")
        want = sorted(
            ns(v["Communication Time Info"]["Start Timestamp(us)"])
            for k, v in doc["step50"]["collective"].items()
            if k != "Total Op Info"
        )
        assert [r["start_ns"] for r in rows] == want
        links = run_query(session, "SELECT count(*) AS n FROM communication_matrix WHERE statistic = 'total'")
        assert links.table.to_pylist() == [{"n": 8}]
    finally:
        session.close()
