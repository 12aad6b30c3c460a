"""atc console output parsed into success, warnings and explained errors (real lines, §6.2)."""

from __future__ import annotations

from workbench.core.atc.explain import CATALOG, explain, parse_atc_output
from workbench.core.atc.flags import FAILED, MESSAGES, START, SUCCESS


def test_success_with_warning():
    out = (
        f"{START}\n{SUCCESS}\nW11001: Op [Slice_29] does not hit the high-priority operator information library, "
        "which might result in compromised performance.\n"
    )
    o = parse_atc_output(out, "", 0)
    assert o.ok and o.success_line and o.errors == []
    [w] = o.warnings
    assert w.code == "W11001" and w.message.startswith("Op [Slice_29]")
    assert w.to_json()["explanation"] == CATALOG["W11001"].text


def test_failure_with_pid_prefix_and_multiline_details():
    out = "\n".join(
        [
            START,
            FAILED,
            "E10007: [PID: 10490] 2025-03-18-09:02:18.501.341 [--framework] is required. The value must be "
            "[0(Caffe) or 1(MindSpore) or 3(TensorFlow) or 5(Onnx)].",
            "EZ3003: No supported Ops kernel and engine are found for [AddDsl], optype [AddDsl].",
            "        Possible Cause: The operator is not supported by the system.",
            "        Solution: 1. Check that the OPP component is installed properly.",
            "        TraceBack (most recent call last):",
            "        build graph failed, graph id:0, ret:-1[FUNC:BuildModel][FILE:ge_generator.cc][LINE:148]",
            "",
        ]
    )
    o = parse_atc_output(out, "", 255)
    assert not o.ok
    assert [e.code for e in o.errors] == ["E10007", "EZ3003"]
    assert o.errors[0].message.startswith("[--framework] is required.")
    assert o.errors[1].details[0].startswith("Possible Cause:") and len(o.errors[1].details) == 4
    assert "operator library" in o.errors[1].to_json()["explanation"]


def test_forum_cases_without_codes():
    o = parse_atc_output("", "bash: line 1: source: not found\nsh: 1: atc: not found\n", 127)
    assert [e.code for e in o.errors] == ["WB-DASH-SOURCE", "WB-ATC-NOT-FOUND"]
    assert "dash" in o.errors[0].to_json()["explanation"]
    o = parse_atc_output(f"{START}\n{FAILED}\n", "", 255)
    assert [e.code for e in o.errors] == ["WB-FAILED"] and "status 255" in o.errors[0].message
    msg = "E19999: Inner Error! [MaxPool] kernel on AI CPU does not support format NHWC"
    assert explain("E19999", msg) == CATALOG["WB-MAXPOOL-AICPU"]
    assert "protobuf" in explain("E19005").text and "Git LFS" in explain("E19005").text
    assert "out_nodes" in explain("E10016").text


def test_every_message_code_has_an_explanation():
    assert set(MESSAGES) <= set(CATALOG)


def test_success_line_without_exit_zero_is_not_success():
    assert not parse_atc_output(f"{START}\n{SUCCESS}\n", "", 1).ok
