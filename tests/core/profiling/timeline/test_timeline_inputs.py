"""Timeline loader on crafted inputs: truncation, bad files, B/E, msprof pid packing, shapes."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from workbench.core.profiling.timeline import Timeline, TimelineError, load_timeline


def write(path: Path, obj_or_text) -> Path:
    text = obj_or_text if isinstance(obj_or_text, (str, bytes)) else json.dumps(obj_or_text)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def meta(pid, name, sort=None, tid=0, thread=None, labels=None):
    out = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}}]
    if sort is not None:
        out.append({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0, "args": {"sort_index": sort}})
    if labels is not None:
        out.append({"ph": "M", "name": "process_labels", "pid": pid, "tid": 0, "args": {"labels": labels}})
    if thread is not None:
        out.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": thread}})
    return out


def complete_events(prefix: bytes) -> list[dict]:
    """Every complete event at the start of a cut-off JSON array (independent: json.raw_decode)."""
    text = prefix.decode("utf-8", "ignore")
    dec = json.JSONDecoder()
    i = text.index("[") + 1
    out = []
    while True:
        while i < len(text) and text[i] in " \t\r\n,":
            i += 1
        try:
            obj, i = dec.raw_decode(text, i)
        except json.JSONDecodeError:
            return out
        out.append(obj)


# -- truncated files ----------------------------------------------------------------------------
@pytest.mark.parametrize("fraction", [0.013, 0.25, 0.5, 0.77, 0.999])
def test_truncated_sample_loads_every_complete_event_and_warns(samples, tmp_path, fraction):
    data = (samples / "torch_npu-trace_view" / "trace_view.json").read_bytes()
    cut = int(len(data) * fraction)
    path = write(tmp_path / "cut.json", data[:cut])
    tl = load_timeline(path, block=16384)
    complete = complete_events(data[:cut])
    assert tl.event_count == sum(1 for e in complete if e["ph"] == "X")
    notes = [w for w in tl.warnings if "file ends" in w]
    assert len(notes) == 1
    assert notes[0].startswith(str(path))
    assert (
        f"file ends inside event {len(complete)} " in notes[0] or f"file ends after event {len(complete)} " in notes[0]
    )


def test_truncated_right_after_an_event(tmp_path):
    path = write(tmp_path / "t.json", '[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "1.5", "dur": 1}, ')
    tl = load_timeline(path)
    assert tl.event_count == 1
    assert "file ends after event 1" in tl.warnings[0]


# -- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "content, expect",
    [
        (b"", "empty"),
        (b"   \n", "empty"),
        (b"\x00\x01\x02\x89PNG binary", "binary"),
        (b"hello world", "expected '[' or '{'"),
        (b'{"foo": 1}', "traceEvents"),
        (b"[1, 2, 3]", "expected '{' or ']'"),
        (b'[{"ph": "X", "name": 5, "pid": 1, "tid": 1, "ts": "1", "dur": 1}]', "name"),
        (b'[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "soon", "dur": 1}]', "'ts'"),
        (b'[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "dur": 1}]', "'ts'"),
        (b'[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "1", "dur": 1} {"ph": "X"}]', "malformed"),
    ],
)
def test_bad_files_raise_timeline_error_naming_file_and_position(tmp_path, content, expect):
    path = write(tmp_path / "bad.json", content)
    with pytest.raises(TimelineError) as info:
        load_timeline(path)
    msg = str(info.value)
    assert str(path) in msg
    assert expect in msg
    if content.strip():
        assert "byte " in msg and "line " in msg


def test_error_in_a_later_chunk_names_its_event_and_byte(tmp_path):
    good = [{"ph": "X", "name": f"op{i}", "pid": 1, "tid": 1, "ts": f"{1000 + i}.5", "dur": 0.5} for i in range(2000)]
    text = json.dumps(good)
    bad_at = text.index('"op1500"')
    text = text[:bad_at] + '"op1500", "oops"' + text[bad_at + len('"op1500"') :]
    path = write(tmp_path / "bad.json", text)
    with pytest.raises(TimelineError) as info:
        load_timeline(path, block=4096)
    msg = str(info.value)
    assert "event 1500" in msg
    byte = int(msg.split("byte ")[1].split(" ")[0])
    assert abs(byte - bad_at) < 200


def test_missing_file_is_a_timeline_error(tmp_path):
    with pytest.raises(TimelineError, match="cannot read"):
        load_timeline(tmp_path / "nope.json")


# -- shapes and phases --------------------------------------------------------------------------
def test_trace_events_object_and_numeric_ts_are_exact(tmp_path):
    text = (
        '{"displayTimeUnit": "ns", "otherData": {"a": [1, {"b": 2}]}, "traceEvents": ['
        '{"ph": "X", "name": "a", "pid": 1, "tid": 2, "ts": 1704161511420306.491, "dur": 2.0005},'
        '{"ph": "X", "name": "b", "pid": 1, "tid": 2, "ts": 1704161511420306.492, "dur": 1}'
        '], "metadata": {"x": [{"y": 1}]}}'
    )
    tl = load_timeline(write(tmp_path / "o.json", text))
    assert tl.origin_ns == 1704161511420306491
    assert tl.start_ns.tolist() == [0, 1]
    assert tl.dur_ns.tolist() == [2001, 1000]  # 2000.5 ns rounds half up
    assert tl.warnings == []


def test_b_e_pairs_become_slices(tmp_path):
    ev = meta(7, "Step Trace", thread="Step Trace(Model ID:1)", tid=70001) + [
        {"ph": "B", "name": "Reduce_1", "pid": 7, "tid": 70001, "ts": "100.000", "args": {"k": 1}},
        {"ph": "B", "name": "inner", "pid": 7, "tid": 70001, "ts": "100.500"},
        {"ph": "E", "pid": 7, "tid": 70001, "ts": "101.250"},
        {"ph": "E", "pid": 7, "tid": 70001, "ts": "103.000"},
        {"ph": "X", "name": "x", "pid": 7, "tid": 70001, "ts": "104", "dur": 1},
    ]
    tl = load_timeline(write(tmp_path / "be.json", ev))
    rows = sorted((tl.name(i), int(tl.start_ns[i]), int(tl.dur_ns[i]), int(tl.depth[i])) for i in range(len(tl)))
    assert rows == [("Reduce_1", 0, 3000, 0), ("inner", 500, 750, 1), ("x", 4000, 1000, 0)]
    assert tl.event_count == 1  # only X events count as complete events
    i = [tl.name(k) for k in range(len(tl))].index("Reduce_1")
    assert tl.args(i) == {"k": 1}


def test_msprof_packed_pids_give_the_device(tmp_path):
    app = 1059056

    def packed(sort, dev):
        return (app << 10) | (sort << 5) | dev

    hw, cann, freq = packed(14, 2), packed(7, 31), packed(15, 2)
    ev = (
        meta(hw, "Ascend Hardware", sort=14, tid=3, thread="Stream 3")
        + meta(cann, "CANN", sort=7)
        + meta(freq, "AI Core Freq", sort=15)
        + [
            {"ph": "X", "name": "MatMul", "pid": hw, "tid": 3, "ts": "10.000", "dur": 5},
            {"ph": "X", "name": "AscendCL@aclnnMatmul", "pid": cann, "tid": 99, "ts": "9.000", "dur": 1},
            {"ph": "C", "name": "AI Core Freq", "pid": freq, "tid": 0, "ts": "9.5", "args": {"MHz": 1800}},
            {"ph": "C", "name": "AI Core Freq", "pid": freq, "tid": 0, "ts": "12.5", "args": {"MHz": 1650.5}},
        ]
    )
    tl = load_timeline(write(tmp_path / "msprof_1.json", ev))
    by_name = {ln.process_name: ln for ln in tl.lanes}
    assert by_name["Ascend Hardware"].device == 2 and by_name["Ascend Hardware"].is_stream
    assert by_name["CANN"].device is None
    assert tl.devices == [2]
    assert [ln.process_name for ln in tl.lanes] == ["CANN", "Ascend Hardware"]  # by process_sort_index
    (c,) = tl.counters
    assert (c.process_name, c.name, c.device) == ("AI Core Freq", "AI Core Freq", 2)
    assert c.ts_ns.tolist() == [500, 3500]
    assert c.series["MHz"].tolist() == [1800.0, 1650.5]


def test_pid_values_never_decide_the_process(tmp_path):
    """Same pid numbers, different names: lanes follow process_name metadata."""
    ev = (
        meta(800, "CANN")
        + meta(4376751100, "Ascend Hardware", tid=3, thread="Stream 3")
        + [
            {"ph": "X", "name": "a", "pid": 800, "tid": 1, "ts": "1", "dur": 1},
            {"ph": "X", "name": "b", "pid": 4376751100, "tid": 3, "ts": "1", "dur": 1},
        ]
    )
    tl = load_timeline(write(tmp_path / "p.json", ev))
    names = {tl.name(i): tl.lanes[int(tl.lane[i])] for i in range(len(tl))}
    assert names["a"].process_name == "CANN" and names["a"].device is None
    assert names["b"].process_name == "Ascend Hardware" and names["b"].pid == "4376751100"


def test_instants_and_flow_binding_rules(tmp_path):
    ev = [
        {"ph": "X", "name": "host", "pid": 1, "tid": 1, "ts": "10", "dur": 10},
        {"ph": "X", "name": "k1", "pid": 2, "tid": 3, "ts": "30", "dur": 2},
        {"ph": "X", "name": "k2", "pid": 2, "tid": 3, "ts": "40", "dur": 2},
        {"ph": "s", "name": "h2d", "cat": "HostToDevice", "id": "98765432109876543210", "pid": 1, "tid": 1, "ts": "15"},
        {
            "ph": "f",
            "name": "h2d",
            "cat": "HostToDevice",
            "id": "98765432109876543210",
            "pid": 2,
            "tid": 3,
            "ts": "30",
            "bp": "e",
        },
        {"ph": "s", "name": "n", "cat": "c", "id": 5, "pid": 1, "tid": 1, "ts": "12"},
        {"ph": "f", "name": "n", "cat": "c", "id": 5, "pid": 2, "tid": 3, "ts": "35"},  # next slice: k2
        {"ph": "s", "name": "lost", "cat": "c", "id": 6, "pid": 1, "tid": 1, "ts": "12"},
        {"ph": "i", "name": "mark", "pid": 1, "tid": 1, "ts": "11.5", "s": "t"},
    ]
    tl = load_timeline(write(tmp_path / "f.json", ev))
    fl = tl.flows
    got = {fl.id[k]: (tl.name(int(fl.src_slice[k])), tl.name(int(fl.dst_slice[k]))) for k in range(len(fl))}
    assert got == {"98765432109876543210": ("host", "k1"), "5": ("host", "k2")}
    assert tl.flow_count == 2
    assert any("without a partner" in w for w in tl.warnings)
    assert tl.instants.ts_ns.tolist() == [1500]
    assert tl.names[int(tl.instants.name_id[0])] == "mark"


def test_args_with_boundary_lookalikes_inside(tmp_path):
    """`}, {"name":` inside strings and nested lists of objects must not cut an event."""
    tricky = {
        "s": 'x}, {"name": "fake", "ph": "X"}',
        "list": [{"name": "n1"}, {"name": "n2", "ph": "X"}],
        "deep": {"a": {"name": {"ph": "X"}}},
    }
    ev = [
        {"ph": "X", "name": f"op{i}", "pid": 1, "tid": 1, "ts": f"{i * 10}.25", "dur": 1, "args": tricky}
        for i in range(400)
    ]
    path = write(tmp_path / "tricky.json", ev)
    for block in (300, 1000, 4096, 1 << 20):
        tl = load_timeline(path, block=block)
        assert tl.event_count == 400
        assert [tl.name(i) for i in range(len(tl))] == [f"op{i}" for i in range(400)]
        assert tl.args(123) == tricky


def test_pretty_printed_and_crlf_files(tmp_path):
    ev = [
        {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "1.5", "dur": 1},
        {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": "1.75", "dur": 0.5},
    ]
    text = json.dumps(ev, indent=4).replace("\n", "\r\n")
    tl = load_timeline(write(tmp_path / "pretty.json", "\ufeff" + text), block=64)
    assert [tl.name(i) for i in range(len(tl))] == ["a", "b"]
    assert tl.depth.tolist() == [0, 1]


def test_empty_array_is_an_empty_timeline(tmp_path):
    tl = load_timeline(write(tmp_path / "e.json", "[]"))
    assert (tl.event_count, tl.flow_count, tl.span_ns, len(tl.lanes)) == (0, 0, 0, 0)


# -- several files, round trip ------------------------------------------------------------------
def test_several_files_merge_into_one_timeline(samples, tmp_path):
    src = samples / "torch_npu-trace_view" / "trace_view.json"
    a = tmp_path / "rank0_ascend_pt" / "trace_view.json"
    b = tmp_path / "rank1_ascend_pt" / "trace_view.json"
    for p in (a, b):
        p.parent.mkdir()
        p.write_bytes(src.read_bytes())
    one = load_timeline(a)
    two = load_timeline([a, b])
    assert two.event_count == 2 * one.event_count
    assert two.flow_count == 2 * one.flow_count
    assert len(two.lanes) == 2 * len(one.lanes)  # same pids in two folders stay apart
    assert two.source == [str(a), str(b)]


def test_same_folder_slices_share_lanes(tmp_path):
    d = tmp_path / "mindstudio_profiler_output"
    d.mkdir()
    pid = (1000 << 10) | (14 << 5) | 1
    write(
        d / "msprof_slice_0.json",
        meta(pid, "Ascend Hardware", sort=14, tid=2, thread="Stream 2")
        + [{"ph": "X", "name": "a", "pid": pid, "tid": 2, "ts": "5", "dur": 1}],
    )
    write(d / "msprof_slice_1.json", [{"ph": "X", "name": "b", "pid": pid, "tid": 2, "ts": "7", "dur": 1}])
    tl = load_timeline(sorted(d.glob("*.json")))
    assert len(tl.lanes) == 1 and tl.lanes[0].device == 1
    assert tl.start_ns.tolist() == [0, 2000]


def test_round_trip_through_arrays_and_memory_maps(samples, tmp_path):
    tl = load_timeline(samples / "torch_npu-trace_view" / "trace_view.json")
    meta_, arrays = tl.to_arrays()
    json.dumps(meta_)  # JSON-able
    for k, v in arrays.items():
        np.save(tmp_path / f"{k}.npy", v)
    loaded = {k: np.load(tmp_path / f"{k}.npy", mmap_mode="r") for k in arrays}
    back = Timeline.from_arrays(json.loads(json.dumps(meta_)), loaded)
    assert back.origin_ns == tl.origin_ns and back.span_ns == tl.span_ns
    assert back.lanes == tl.lanes and back.names == tl.names and back.cats == tl.cats
    for k in ("lane", "start_ns", "dur_ns", "name_id", "cat_id", "depth", "parent"):
        assert np.array_equal(getattr(back, k), getattr(tl, k))
    assert list(back.flows.id) == list(tl.flows.id) and list(back.flows.cat) == list(tl.flows.cat)
    assert np.array_equal(back.flows.dst_slice, tl.flows.dst_slice)
    assert [back.args(i) for i in range(0, len(tl), 50)] == [tl.args(i) for i in range(0, len(tl), 50)]
    assert (back.event_count, back.flow_count, back.devices, back.warnings) == (
        tl.event_count,
        tl.flow_count,
        tl.devices,
        tl.warnings,
    )


def test_progress_and_cancel(samples):
    from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress

    progress = RecordingProgress()
    load_timeline(samples / "torch_npu-trace_view" / "trace_view.json", progress, block=65536)
    fractions = [v for kind, v in progress.events if kind == "fraction"]
    assert fractions and fractions[-1] == 1.0 and fractions == sorted(fractions)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        load_timeline(samples / "torch_npu-trace_view" / "trace_view.json", cancel=token, block=65536)


def test_decimal_helper_matches_python_decimal():
    from workbench.core.profiling.timeline.num import us_texts_to_ns

    texts = [
        "0",
        "0.0005",
        "0.0004999",
        "12.77012757357446",
        "1704161511420306.491",
        "-3.0005",
        "7",
        "1e3",
        "2.5E-1",
        "123456789012345.6789",
        "9.9999999",
        "0.001",
        "00012.5",
    ]
    got = us_texts_to_ns([t.encode() for t in texts]).tolist()
    from decimal import ROUND_FLOOR

    want = [int((Decimal(t) * 1000 + Decimal("0.5")).to_integral_value(rounding=ROUND_FLOOR)) for t in texts]
    assert got == want
    assert us_texts_to_ns(texts).tolist() == want  # str items too


def _row(tl: Timeline, i: int):
    ln = tl.lanes[int(tl.lane[i])]
    return (
        (ln.pid, ln.tid, ln.process_name, ln.device),
        tl.origin_ns + int(tl.start_ns[i]),
        int(tl.dur_ns[i]),
        tl.name(i),
        tl.cats[int(tl.cat_id[i])],
        int(tl.depth[i]),
    )


def _rows(tl: Timeline):
    return sorted(_row(tl, i) for i in range(len(tl)))


def _flow_rows(tl: Timeline):
    def where(i):
        return None if i < 0 else (tl.name(int(i)), tl.origin_ns + int(tl.start_ns[int(i)]))

    fl = tl.flows
    return sorted(
        (fl.cat[k], fl.id[k], fl.name[k], where(fl.src_slice[k]), where(fl.dst_slice[k])) for k in range(len(fl))
    )


def test_merge_timelines_equals_loading_together(samples, tmp_path):
    from workbench.core.profiling.timeline import merge_timelines

    src = samples / "torch_npu-trace_view" / "trace_view.json"
    a = tmp_path / "r0" / "trace_view.json"
    b = tmp_path / "r1" / "trace_view.json"
    for p in (a, b):
        p.parent.mkdir()
        p.write_bytes(src.read_bytes())
    together = load_timeline([a, b])
    merged = merge_timelines([load_timeline(a), load_timeline(b, default_device=1)])
    assert len(merged.lanes) == len(together.lanes) and merged.event_count == together.event_count
    assert merged.devices == [0, 1]
    assert sorted(r[1:] for r in _rows(merged)) == sorted(r[1:] for r in _rows(together))
    assert _flow_rows(merged) == _flow_rows(together)
    for k in range(len(merged.lanes)):  # parents stay inside their lane after the shift
        sl = merged.lane_slices(k)
        par = merged.parent[sl]
        assert ((par == -1) | ((par >= sl.start) & (par < sl.stop))).all()
    i = len(merged) - 1
    assert merged.args(i) == load_timeline(b).args(len(load_timeline(b)) - 1)
    meta_, arrays = merged.to_arrays()
    back = Timeline.from_arrays(meta_, arrays)
    assert _flow_rows(back) == _flow_rows(merged)


def test_parallel_read_gives_the_same_timeline(samples):
    path = samples / "torch_npu-trace_view" / "trace_view.json"
    one = load_timeline(path, workers=1)
    two = load_timeline(path, workers=2, block=8192)
    assert _rows(two) == _rows(one)
    assert _flow_rows(two) == _flow_rows(one)
    assert (two.event_count, two.flow_count, two.warnings) == (one.event_count, one.flow_count, one.warnings)

    def with_args(tl):
        return sorted((_row(tl, i), json.dumps(tl.args(i), sort_keys=True)) for i in range(len(tl)))

    assert with_args(two) == with_args(one)


def test_parallel_read_of_a_truncated_file_warns_like_one_process(samples, tmp_path):
    data = (samples / "torch_npu-trace_view" / "trace_view.json").read_bytes()
    path = write(tmp_path / "cut.json", data[: int(len(data) * 0.9)])
    one = load_timeline(path, workers=1)
    two = load_timeline(path, workers=2, block=8192)
    assert two.event_count == one.event_count
    assert [w for w in two.warnings if "file ends" in w] == [w for w in one.warnings if "file ends" in w]


def test_event_bigger_than_the_buffer_full_of_false_boundaries(tmp_path):
    big = {
        "ph": "X",
        "name": "big",
        "pid": 1,
        "tid": 1,
        "ts": "5",
        "dur": 100,
        "args": {"list": [{"name": f"n{i}", "ph": "X"} for i in range(3000)]},
    }
    small = [{"ph": "X", "name": f"s{i}", "pid": 1, "tid": 1, "ts": f"{10 + i}", "dur": 1} for i in range(50)]
    path = write(tmp_path / "big.json", [small[0], big] + small[1:])
    tl = load_timeline(path, block=1024)
    assert tl.event_count == 51
    i = [tl.name(k) for k in range(len(tl))].index("big")
    assert tl.args(i) == big["args"]
    assert tl.warnings == []
