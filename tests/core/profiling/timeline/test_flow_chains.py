"""Flow chains with ``t`` (step) points: one arrow per hop, named by the chain's ``s``; a chain
ending in a step (msprof's Data_aug Bound: ``s``, ``t``) ends there. Compiled and pure-Python
paths give the same flows."""

from __future__ import annotations

import json

import pytest

from workbench.core.profiling.timeline import load_timeline

EVENTS = [
    {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "Runtime"}},
    {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "10", "dur": 5},
    {"ph": "X", "name": "b", "pid": 1, "tid": 2, "ts": "20", "dur": 5},
    {"ph": "X", "name": "c", "pid": 1, "tid": 3, "ts": "30", "dur": 5},
    {"ph": "s", "name": "chain", "cat": "k", "id": 7, "pid": 1, "tid": 1, "ts": "11"},
    {"ph": "t", "name": "chain", "cat": "k", "id": 7, "pid": 1, "tid": 2, "ts": "21"},
    {"ph": "t", "name": "chain", "cat": "k", "id": 7, "pid": 1, "tid": 2, "ts": "22"},
    {"ph": "f", "name": "chain", "cat": "k", "id": 7, "pid": 1, "tid": 3, "ts": "30", "bp": "e"},
    {"ph": "s", "name": "Data_aug Bound 1", "cat": "D", "id": "Data_aug Bound 1", "pid": 1, "tid": 1, "ts": "12"},
    {"ph": "t", "name": "Data_aug Bound 1", "cat": "D", "id": "Data_aug Bound 1", "pid": 1, "tid": 1, "ts": "14"},
    {"ph": "s", "name": "plain", "cat": "k", "id": 8, "pid": 1, "tid": 1, "ts": "13"},
    {"ph": "f", "name": "plain", "cat": "k", "id": 8, "pid": 1, "tid": 3, "ts": "31", "bp": "e"},
    {"ph": "t", "name": "", "cat": "k", "id": 9, "pid": 1, "tid": 3, "ts": "32"},  # a step of no chain
]


@pytest.mark.parametrize("fast", ["1", "0"])
def test_chains_pair_hop_by_hop(tmp_path, monkeypatch, fast):
    monkeypatch.setenv("ASCEND_WORKBENCH_TRACE_FASTSCAN", fast)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(EVENTS), encoding="utf-8")
    tl = load_timeline(path)
    f = tl.flows
    got = sorted(
        (f.name[i], tl.names[int(tl.name_id[f.src_slice[i]])], tl.names[int(tl.name_id[f.dst_slice[i]])], f.src_ns[i])
        for i in range(tl.flow_count)
    )
    o = tl.origin_ns
    us = 1000
    assert got == [
        ("Data_aug Bound 1", "a", "a", 12 * us - o),
        ("chain", "a", "b", 11 * us - o),
        ("chain", "b", "b", 21 * us - o),
        ("chain", "b", "c", 22 * us - o),
        ("plain", "a", "c", 13 * us - o),
    ]
    assert tl.warnings == ["1 flow events without a partner (same cat and id) were ignored"]
