"""Simulated ATC: flags, exact console lines, error codes, the .om it writes and --mode=1 JSON."""

from __future__ import annotations

import json
import re
import subprocess

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from workbench.simtoolkit import atc
from workbench.simtoolkit.config import CONFIG_NAME, ENV_CONFIG
from workbench.simtoolkit.omfile import OmError, read_om


@pytest.fixture
def tiny_onnx(tmp_path):
    x = helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 16, 16])
    y = helper.make_tensor_value_info("output", TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "conv.weight")
    nodes = [
        helper.make_node("Conv", ["input", "conv.weight"], ["c1"], name="Conv_0", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="Relu_1"),
        helper.make_node("GlobalAveragePool", ["r1"], ["output"], name="GlobalAveragePool_2"),
    ]
    model = helper.make_model(
        helper.make_graph(nodes, "tiny", [x], [y], [w]), opset_imports=[helper.make_opsetid("", 13)]
    )
    path = tmp_path / "tiny.onnx"
    onnx.save(model, str(path))
    return path


@pytest.fixture
def cann(sim_prefixes, monkeypatch):
    def use(version):
        monkeypatch.setenv(ENV_CONFIG, str(sim_prefixes[version] / "ascend-toolkit" / "latest" / CONFIG_NAME))

    use("8.0.RC1")
    return use


def run(capsys, *args):
    code = atc.main(list(args))
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


def test_success_writes_om_with_real_inputs_and_ops(cann, capsys, tiny_onnx, tmp_path):
    code, lines, err = run(
        capsys,
        "--framework=5",
        f"--model={tiny_onnx}",
        f"--output={tmp_path}/tiny",
        "--input_shape=input:1,3,16,16",
        "--soc_version=Ascend310",
    )
    assert code == 0
    assert lines == [atc.START, atc.SUCCESS]
    assert err.startswith("[simulated CANN toolkit]")
    doc = read_om(tmp_path / "tiny.om")["om_json"]
    assert sorted(doc) == ["attr", "custom_version", "graph", "name", "version"]
    assert doc["name"] == "tiny" and doc["version"] == 2
    attrs = {a["key"]: a["value"] for a in doc["attr"]}
    assert attrs["soc_version"] == {"s": "Ascend310"} and attrs["framework_type"] == {"s": "Onnx"}
    assert attrs["atc_cmdline"]["s"].endswith(
        "-linux/bin/atc.bin "
        + " ".join(
            [
                "--framework=5",
                f"--model={tiny_onnx}",
                f"--output={tmp_path}/tiny",
                "--input_shape=input:1,3,16,16",
                "--soc_version=Ascend310",
            ]
        )
    )
    assert attrs["weight_size"] == {"i": 4 * 3 * 3 * 3 * 4}
    graph = doc["graph"][0]
    assert graph["name"] == "tiny_NPU_0" and graph["input"] == ["input:0"]
    ops = {o["name"]: o for o in graph["op"]}
    assert ops["input"]["type"] == "Data"
    assert ops["input"]["output_desc"][0]["shape"] == {"dim": [1, 3, 16, 16]}
    assert ops["Conv_0"]["type"] == "Conv2D" and ops["Relu_1"]["type"] == "Relu"
    assert ops["Conv_0"]["output_desc"][0]["shape"] == {"dim": [1, 4, 16, 16]}
    assert ops["Conv_0"]["output_desc"][0]["dtype"] == "DT_FLOAT16"  # force_fp16 default
    assert graph["op"][-1]["type"] == "NetOutput"
    for op in graph["op"]:  # every consumer link points back at a producer
        for ref in filter(None, op["input"]):
            src = ops[ref.rpartition(":")[0]]
            assert op["name"] in src["dst_name"]


def test_om_json_matches_the_real_structure(cann, capsys, tiny_onnx, tmp_path, samples):
    run(capsys, "--framework=5", f"--model={tiny_onnx}", f"--output={tmp_path}/tiny", "--soc_version=Ascend310")
    code, lines, _ = run(capsys, "--mode=1", f"--om={tmp_path}/tiny.om", f"--json={tmp_path}/tiny.json")
    assert code == 0 and lines == [atc.START, atc.SUCCESS]
    ours = json.loads((tmp_path / "tiny.json").read_text())
    real = json.loads((samples / "atc-om2json-310-cann5.1" / "model.json").read_text())
    assert sorted(ours) == sorted(real)
    assert set(ours["graph"][0]) == set(real["graph"][0])
    real_keys = {a["key"] for a in real["attr"]}
    for key in (
        "atc_cmdline",
        "soc_version",
        "framework_type",
        "opp_version",
        "atc_version",
        "memory_size",
        "weight_size",
        "stream_num",
        "om_info_list",
        "task_index_op_name",
        "attr_model_out_nodes_name",
    ):
        assert key in real_keys and key in {a["key"] for a in ours["attr"]}
    real_op = next(o for o in real["graph"][0]["op"] if o["type"] == "Cast")
    our_op = next(o for o in ours["graph"][0]["op"] if o["type"] == "Cast")
    for key in ("name", "type", "attr", "input", "input_desc", "output_desc", "dst_name", "dst_index", "id"):
        assert key in real_op and key in our_op
    assert set(our_op["output_desc"][0]) == set(real_op["output_desc"][0])


@pytest.mark.parametrize(
    "args, code, text",
    [
        ([], "E10054", "parameter [--model] for ATC is empty"),
        (
            ["--model={m}", "--output=o", "--soc_version=Ascend310"],
            "E10007",
            "[--framework] is required. The value must be [0(Caffe) or 1(MindSpore) or 3(TensorFlow) or 5(Onnx)].",
        ),
        (
            ["--model={m}", "--framework=4", "--output=o", "--soc_version=Ascend310"],
            "E10007",
            "[--framework] is required",
        ),
        (
            ["--model={m}", "--framework=0", "--output=o", "--soc_version=Ascend310"],
            "E10008",
            "[--weight] must not be empty when [--framework] is set to 0 (Caffe).",
        ),
        (
            [
                "--model={m}",
                "--framework=5",
                "--output=o",
                "--soc_version=Ascend310",
                "--input_shape=input:1,3,-1,16",
                "--dynamic_batch_size=1,2",
                "--dynamic_dims=1;2",
            ],
            "E10009",
            "mutually exclusive",
        ),
        (
            ["--model={m}", "--framework=5", "--output=o", "--soc_version=Ascend310", "--log=loud"],
            "E10010",
            "Value [loud] for parameter [--log] is invalid.",
        ),
        (
            ["--model={m}", "--framework=5", "--output=o", "--soc_version=Ascend310", "--input_shape=data:1,3,16,16"],
            "E10016",
            "Opname [data] specified in [--input_shape] is not found in the model.",
        ),
        (
            ["--model={m}", "--framework=5", "--output=o", "--soc_version=Ascend310", "--out_nodes=Nope:0"],
            "E10016",
            "Opname [Nope:0] specified in [--out_nodes]",
        ),
        (
            ["--model={m}", "--framework=5", "--output=o", "--soc_version=Ascend310", "--input_format=NWHC"],
            "E10001",
            "Value [NWHC] for parameter [--input_format] is invalid.",
        ),
        (
            ["--model={m}", "--framework=5", "--output=o", "--soc_version=Ascend310", "--input_shape=input:1,0,16,16"],
            "E10011",
            "The error value in the shape is [0].",
        ),
        (
            ["--model={m}", "--framework=5", "--output=o", "--soc_version=Ascend310", "--disable_reuse_memory=2"],
            "E10006",
            "either 1 or 0",
        ),
        (["--model={m}", "--framework=5", "--output=o", "--soc_version=Ascend999"], "E10001", "[--soc_version]"),
        (
            ["--model={bad}", "--framework=5", "--output=o", "--soc_version=Ascend310"],
            "E19005",
            "Failed to parse the protobuf file",
        ),
        (["--model={m}", "--framework=5", "--output=o"], "E10054", "parameter [--soc_version] for ATC is empty"),
    ],
)
def test_errors_have_code_exact_lines_and_exit_status(cann, capsys, tiny_onnx, tmp_path, args, code, text):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x0a\xff\xff not protobuf")
    argv = [a.format(m=tiny_onnx, bad=bad) for a in args]
    status, lines, _ = run(capsys, *argv)
    assert status == atc.EXIT_FAILED
    assert lines[:2] == [atc.START, atc.FAILED]
    assert re.match(rf"^{code}: \[PID: \d+\] \d{{4}}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{{3}}\.\d{{3}} ", lines[2]), lines[2]
    assert text in lines[2]
    assert not list(tmp_path.glob("*.om"))


def test_older_versions_have_no_pid_prefix_and_the_old_typo(cann, capsys):
    cann("5.1.RC2")
    status, lines, _ = run(capsys)
    assert status == atc.EXIT_FAILED
    assert lines[2].startswith("E10054: The requied parameter [--model] for ATC is empty.")


def test_unknown_flag_is_refused_before_starting(cann, capsys):
    status, lines, err = run(capsys, "--model=x", "--bogus=1")
    assert status == 1 and lines == [] and "ERROR: unknown command line flag 'bogus'" in err


def test_caffe_prototxt(cann, capsys, tmp_path):
    proto = tmp_path / "net.prototxt"
    proto.write_text(
        'name: "net"\ninput: "data"\ninput_shape { dim: 1 dim: 3 dim: 8 dim: 8 }\n'
        'layer { name: "conv1" type: "Convolution" bottom: "data" top: "conv1" '
        "convolution_param { num_output: 4 kernel_size: 3 } }\n"
        'layer { name: "relu1" type: "ReLU" bottom: "conv1" top: "conv1" }\n'
    )
    weight = tmp_path / "net.caffemodel"
    weight.write_bytes(b"")
    status, lines, _ = run(
        capsys,
        "--framework=0",
        f"--model={proto}",
        f"--weight={weight}",
        f"--output={tmp_path}/net",
        "--soc_version=Ascend310",
    )
    assert status == 0, lines
    ops = read_om(tmp_path / "net.om")["om_json"]["graph"][0]["op"]
    assert [(o["name"], o["type"]) for o in ops if o["type"] not in ("Cast", "NetOutput")] == [
        ("data", "Data"),
        ("conv1", "Conv2D"),
        ("relu1", "Relu"),
    ]
    assert ops[0]["output_desc"][0]["shape"] == {"dim": [1, 3, 8, 8]}


def test_deterministic_om(cann, capsys, tiny_onnx, tmp_path):
    for n in (1, 2):
        run(capsys, "--framework=5", f"--model={tiny_onnx}", f"--output={tmp_path}/m", "--soc_version=Ascend310")
        (tmp_path / f"m{n}.bin").write_bytes((tmp_path / "m.om").read_bytes())
    assert (tmp_path / "m1.bin").read_bytes() == (tmp_path / "m2.bin").read_bytes()


def test_read_om_refuses_other_files(tmp_path):
    f = tmp_path / "x.om"
    f.write_bytes(b"\0" * 300)
    with pytest.raises(OmError, match=str(f)):
        read_om(f)


def test_atc_through_bash_and_set_env(sim_prefixes, tiny_onnx, tmp_path):
    prefix = sim_prefixes["7.0.0"]
    r = subprocess.run(
        [
            "bash",
            "-c",
            f"source {prefix}/ascend-toolkit/set_env.sh && cd {tmp_path} && "
            f"atc --framework=5 --model={tiny_onnx} --output=out --soc_version=Ascend310P3",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and r.stdout.splitlines() == [atc.START, atc.SUCCESS]
    attrs = {a["key"]: a["value"] for a in read_om(tmp_path / "out.om")["om_json"]["attr"]}
    assert attrs["atc_version"] == {"s": "7.0.0.5.242"}
