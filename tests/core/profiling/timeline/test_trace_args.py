"""Task type / id / OP type of device tasks, picked from the raw args (compiled ``arg_values``
and the msgspec path), equal what a plain JSON decoder finds in every odd variant of args."""

from __future__ import annotations

import json

import numpy as np
import pytest

from workbench.core.profiling.build import ops_from_timeline
from workbench.core.profiling.timeline import args as _trace_args
from workbench.core.profiling.timeline import fast as _trace_fast
from workbench.core.profiling.timeline import load_timeline
from workbench.core.profiling.timeline import store as _trace_store

# raw args texts (the loader keeps them byte for byte): decoded with json.loads below
ARGS = [
    '{"Task Type":"AI_CORE","Task Id":12,"Stream Id":2}',
    '{"Task Id":"7","Task Type":"AI_VECTOR_CORE","nested":{"Task Id":99,"a":[1,{"b":null}]}}',
    '{"Task Id":"007","Task Type":"MIX_AIC"}',  # digits with leading zeros
    '{"Task Id":"-5","Task Type":"AI_CPU"}',  # not digits: missing
    '{"Task Id":-5,"Task Type":"AI_CPU"}',  # a negative number is an int
    '{"Task Id":1.5,"Task Type":"AI_CPU"}',  # a float: missing
    '{"Task Id":true,"Task Type":"AI_CPU"}',  # a bool: missing
    '{"Task Id":null,"Task Type":null}',
    '{"Task\\u0020Id":41,"Task Type":"HCCL"}',  # escaped key = "Task Id"
    '{"Task Id":1,"Task Id":2,"Task Type":"A","Task Type":"B"}',  # repeated keys: the last wins
    '{"Task Id":3,"OP Type":"MatMulV2","Task Type":"AI_CORE"}',
    '{"Task Id":4,"OP Type":"\\u77e9\\u9635","Task Type":"AI_CORE"}',  # escaped non-ASCII text
    '{"Task Id":5,"OP Type":"矩阵乘","Task Type":"AI_CORE"}',
    '{"Task Id":9223372036854775806,"Task Type":"AI_CORE"}',
    '{"Task Id":"12345678901234567890123","Task Type":"AI_CORE"}',  # digits beyond int64: missing
    '{ "Task Id" : 6 , "Task Type" : "SPACED" }',
    "{}",
    None,  # no args at all
    "[1,2]",  # not an object
    '{"Task Type":{"x":1},"Task Id":8}',  # object value: its text
]


def _expected(raw: str | None) -> tuple:
    obj = json.loads(raw) if raw is not None else {}
    if not isinstance(obj, dict):
        obj = {}
    tid = obj.get("Task Id")
    if isinstance(tid, bool) or not (isinstance(tid, int) or (isinstance(tid, str) and tid.isdigit())):
        tid = None
    else:
        tid = int(tid)
        if not -(2**63) <= tid < 2**63:
            tid = "overflow"
    tt, op = obj.get("Task Type"), obj.get("OP Type")
    return tid, None if tt is None else str(tt), None if op is None else str(op)


def _trace(tmp_path, n_copies: int = 1):
    events = [
        {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "Ascend Hardware"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "Stream 2"}},
    ]
    text = []
    ts = 1_700_000_000_000_000
    for _c in range(n_copies):
        for k, raw in enumerate(ARGS):
            ts += 10
            ev = {"ph": "X", "name": f"op{k}", "pid": 1, "tid": 2, "ts": f"{ts}.125", "dur": 1.5}
            body = json.dumps(ev)[:-1]
            text.append(body + (f', "args": {raw}' if raw is not None else "") + "}")
    path = tmp_path / "trace.json"
    path.write_text("[" + ",\n".join([json.dumps(e) for e in events] + text) + "]", encoding="utf-8")
    return path


def _rows(ops):
    out = []
    for r in ops.itertuples():
        tid = (
            None
            if r.task_id is None or (isinstance(r.task_id, float) or r.task_id is ops.task_id.dtype.na_value)
            else int(r.task_id)
        )
        tt = None if not isinstance(r.task_type, str) else r.task_type
        op = getattr(r, "type", None)
        out.append((tid, tt, op if isinstance(op, str) else None))
    return out


@pytest.mark.parametrize("fast", [True, False], ids=["compiled", "msgspec"])
@pytest.mark.parametrize(
    "window,spill",
    [(_trace_args.WINDOW, _trace_store.SPILL_BYTES), (200, 256)],
    ids=["one-window", "many-windows-mapped"],
)
def test_task_args_match_a_json_decoder(tmp_path, monkeypatch, fast, window, spill):
    if fast and _trace_fast._fastscan is None:
        pytest.skip("the C extension is not built")
    monkeypatch.setenv(_trace_fast.ENV_SWITCH, "1" if fast else "0")
    monkeypatch.setattr(_trace_args, "WINDOW", window)
    monkeypatch.setattr(_trace_store, "SPILL_BYTES", spill)
    copies = 40
    tl = load_timeline(_trace(tmp_path, copies))
    ops = ops_from_timeline(tl)
    assert len(ops) == len(ARGS) * copies
    order = np.argsort(ops["start_ns"].to_numpy(dtype=np.int64), kind="stable")
    got = _rows(ops.iloc[order])
    want = []
    for _ in range(copies):
        for raw in ARGS:
            tid, tt, op = _expected(raw)
            want.append((None if tid == "overflow" else tid, tt, op))
    assert got == want
    # the escaped non-ASCII OP type decodes to the same text as the literal one would
    assert want[11][2] == "矩阵"


def test_arg_values_reports_rows_it_leaves_to_python():
    fast = _trace_fast._fastscan
    if fast is None:
        pytest.skip("the C extension is not built")
    parts = [b'{"a":1,"b":"x"}', b"[1]", b'{"a\\u0031":2}', b'{"a":2', b'{"b":"y","a":-0}']
    blob = b"".join(parts)
    off = np.cumsum([0] + [len(p) for p in parts[:-1]]).astype(np.int64)
    length = np.array([len(p) for p in parts], dtype=np.int64)
    codes = (np.empty(5, np.int32), np.empty(5, np.int32))
    ints = (np.empty(5, np.int64), None)
    uniques, slow = fast.arg_values(blob, off, length, (b"a", b"b"), codes, ints)
    assert slow == [1, 2, 3]  # not an object, escaped key, cut short
    assert codes[0].tolist() == [-2, -1, -1, -1, 0] and ints[0][0] == 1  # "-0" is not canonical
    assert uniques[0] == [b"-0"] and uniques[1] == [b'"x"', b'"y"']
    assert codes[1].tolist() == [0, -1, -1, -1, 1]
    with pytest.raises(ValueError, match="outside the buffer"):
        fast.arg_values(blob[:10], off, length, (b"a",), (np.empty(5, np.int32),))
