"""Traces whose events nest deeper than any tool writes, or whose args hold bytes that are not
UTF-8, give one clear error or a readable placeholder, never a RecursionError or DecodeError."""

from __future__ import annotations

import pytest

from workbench.core.dump.omjson import OmJsonError, read_om_json
from workbench.core.profiling.timeline import TimelineError, load_timeline

DEEP = "[" * 100000 + "]" * 100000


def _event(args: str) -> str:
    return '{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1.0","dur":"1.0","args":' + args + "}"


@pytest.mark.parametrize("fast", ["1", "0"])
def test_a_deeply_nested_event_is_one_clear_error_or_a_placeholder(tmp_path, monkeypatch, fast):
    monkeypatch.setenv("ASCEND_WORKBENCH_TRACE_FASTSCAN", fast)
    trace = tmp_path / "deep.json"
    trace.write_text("[" + _event('{"x":' + DEEP + "}") + "]")
    try:
        tl = load_timeline(trace)
    except TimelineError as exc:
        assert str(exc).startswith(f"{trace}: ")
        return
    assert list(tl.args(0)) == ["args (not decodable)"]  # loaded with raw args: shown, not raised


def test_args_with_bytes_that_are_not_utf8_are_shown_not_raised(tmp_path):
    trace = tmp_path / "gbk.json"
    trace.write_bytes(
        b"["
        + _event('{"Task Type":"AI_CORE"}').encode()
        + b","
        + _event('{"k":"').encode()
        + "昇腾".encode("gbk")
        + b'"}'
        + b"]"
    )
    try:
        tl = load_timeline(trace)
    except TimelineError as exc:
        assert str(exc).startswith(f"{trace}: ")
        return
    shown = [tl.args(i) for i in range(len(tl))]
    assert {"Task Type": "AI_CORE"} in shown


def test_a_deeply_nested_om_json_is_one_clear_error(tmp_path):
    om = tmp_path / "deep.json"
    om.write_text('{"name": "m", "graph": ' + DEEP + "}")
    with pytest.raises(OmJsonError, match="nested too deeply"):
        read_om_json(om)
