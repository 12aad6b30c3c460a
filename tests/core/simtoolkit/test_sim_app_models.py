"""The simulated toolkit runs what the user built: an application's .om (from the simulated atc) is
what msprof profiles and what the runtime dumps, as a user gets there (atc, acl.json, msprof).

Outputs are read with the csv/json modules only (not the workbench's readers)."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from workbench.core.dump.dumpfile import read_dump
from workbench.simtoolkit.appmodels import model_files
from workbench.simtoolkit.dumpwriter import dump_after_app
from workbench.simtoolkit.omfile import read_om

BANNER = "[simulated CANN toolkit]"


def _bash(prefix: Path, script: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("ASCEND_SIM_CONFIG", "PYTHONPATH")}
    return subprocess.run(
        ["bash", "-c", f"source {prefix}/ascend-toolkit/set_env.sh && {script}"],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
        cwd=cwd,
        check=False,
    )


def _w(name: str, *shape: int) -> onnx.TensorProto:
    return numpy_helper.from_array(np.full(shape, 0.1, np.float32), name)


def conv_net(path: Path, batch: int | str = 1) -> list[onnx.NodeProto]:
    """A small residual conv net (ONNX opset 13); returns its nodes in execution order."""
    x = helper.make_tensor_value_info("image", TensorProto.FLOAT, [batch, 3, 32, 32])
    y = helper.make_tensor_value_info("prob", TensorProto.FLOAT, None)
    nodes = [
        helper.make_node("Conv", ["image", "c1.w", "c1.b"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c1", "bn.s", "bn.b", "bn.m", "bn.v"], ["b1"], name="bn1"),
        helper.make_node("Relu", ["b1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "c2.w"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("Add", ["r2", "p1"], ["a1"], name="res_add"),
        helper.make_node("GlobalAveragePool", ["a1"], ["g1"], name="gap"),
        helper.make_node("Conv", ["g1", "fc.w"], ["logits"], name="classifier"),
        helper.make_node("Softmax", ["logits"], ["prob"], name="softmax", axis=1),
    ]
    inits = [
        _w("c1.w", 8, 3, 3, 3),
        _w("c1.b", 8),
        _w("bn.s", 8),
        _w("bn.b", 8),
        _w("bn.m", 8),
        _w("bn.v", 8),
        _w("c2.w", 8, 8, 3, 3),
        _w("fc.w", 10, 8, 1, 1),
    ]
    graph = helper.make_graph(nodes, "convnet", [x], [y], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    return nodes


# ONNX op type -> the CANN op type the simulated atc gives it (what om JSON and profiles show).
CANN = {
    "Conv": "Conv2D",
    "BatchNormalization": "BNInferenceD",
    "Relu": "Relu",
    "MaxPool": "MaxPoolV3",
    "Add": "Add",
    "GlobalAveragePool": "ReduceMeanD",
    "Softmax": "SoftmaxV2",
}


def _prof_dir(stdout: str) -> Path:
    last = stdout.splitlines()[-1]
    assert last.startswith("[INFO] Process profiling data complete. Data is saved in "), stdout
    return Path(last.rsplit(" ", 1)[1])


def _csv_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _one(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, (pattern, found)
    return found[0]


def test_msprof_profiles_an_app_running_a_dynamic_batch_om_with_dump_enabled(sim_prefixes, tmp_path):
    """Issue: msprof crashed (ValueError: Value out of range: -1) for a dynamic-batch .om with dump on."""
    nodes = conv_net(tmp_path / "convnet.onnx", batch="batch")
    (tmp_path / "dump").mkdir()
    (tmp_path / "acl.json").write_text(
        json.dumps(
            {"dump": {"dump_list": [{"model_name": "convnet_dyn"}], "dump_path": "dump", "dump_mode": "output"}},
            indent="\t",
        )
    )
    (tmp_path / "infer.py").write_text(
        "import argparse\np = argparse.ArgumentParser()\np.add_argument('--model')\np.add_argument('--acl_json')\n"
        "a = p.parse_args()\nprint('loaded', a.model, 'with', a.acl_json, 'batch 4')\n"
    )
    r = _bash(
        sim_prefixes["8.0.RC1"],
        "atc --framework=5 --model=convnet.onnx --output=convnet_dyn --soc_version=Ascend910B2 "
        "--input_format=NCHW --input_shape=image:-1,3,32,32 --dynamic_batch_size=1,2,4 && "
        f"msprof --output=out {sys.executable} infer.py --model=convnet_dyn.om --acl_json=acl.json",
        tmp_path,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and "loaded convnet_dyn.om with acl.json batch 4" in r.stdout

    # the om is a multi-gear model: the biggest gear's shapes, the -1 dims and the gears kept on the Data op
    doc = read_om(tmp_path / "convnet_dyn.om")["om_json"]
    ops = {o["name"]: o for o in doc["graph"][0]["op"]}
    attrs = {a["key"]: a["value"] for a in ops["image"]["attr"]}
    assert attrs["_mbatch_origin_input_dims"]["list"]["i"] == [-1, 3, 32, 32]
    assert [g.rsplit(":", 1)[1] for g in attrs["_all_origin_gears_inputs"]["list"]["s"]] == [
        "1,3,32,32",
        "2,3,32,32",
        "4,3,32,32",
    ]
    assert ops["ascend_mbatch_shape_data"]["type"] == "Data"
    assert doc["graph"][0]["input"] == ["image:0", "ascend_mbatch_shape_data:0"]
    assert ops["conv1"]["output_desc"][0]["shape"] == {"dim": [4, 8, 32, 32]}

    # the runtime dumped every computing op, with real (never negative) shapes
    files = sorted((tmp_path / "dump").rglob("*.*.*.*.*"))
    dumped = {f.name.split(".")[1] for f in files}
    assert {n.name for n in nodes} <= dumped
    conv1 = read_dump(next(f for f in files if f.name.split(".")[1] == "conv1"))
    assert conv1.outputs[0].original_shape == (4, 8, 32, 32)
    for f in files:
        for t in read_dump(f).tensors():
            assert all(d > 0 for d in t.shape) and all(d >= 0 for d in t.original_shape), (f.name, t)

    # and the profile is that model's, at the gear's batch
    out = _prof_dir(r.stdout) / "mindstudio_profiler_output"
    rows = _csv_rows(_one(out, "op_summary_*.csv"))
    assert {row["OP Type"] for row in rows} == set(CANN.values())
    conv_rows = [row for row in rows if row["Op Name"] == "conv1"]
    assert conv_rows and conv_rows[0]["Input Shapes"].startswith('"4,3,32,32')


def test_msprof_profiles_the_conv_net_the_app_runs_not_a_canned_workload(sim_prefixes, tmp_path):
    """Issue: the profile of a small conv net showed transformer ops (FlashAttention)."""
    nodes = conv_net(tmp_path / "convnet.onnx")
    (tmp_path / "model").mkdir()
    # the acl Python sample style: the model path is in the script, the app takes no arguments
    (tmp_path / "infer.py").write_text(
        'import os\n\nMODEL_PATH = "./model/convnet.om"\n\n'
        'def main():\n    print("running", MODEL_PATH, os.path.exists(MODEL_PATH))\n\n\nmain()\n'
    )
    r = _bash(
        sim_prefixes["8.0.RC1"],
        "atc --framework=5 --model=convnet.onnx --output=model/convnet --soc_version=Ascend910B2 "
        f"--input_shape=image:1,3,32,32 && msprof --output=out --aic-metrics=PipeUtilization "
        f"{sys.executable} infer.py",
        tmp_path,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "running ./model/convnet.om True" in r.stdout
    assert f"{BANNER} profiling the ops of {tmp_path}/model/convnet.om (10 ops of model convnet)" in r.stderr
    out = _prof_dir(r.stdout) / "mindstudio_profiler_output"

    expected_types = {CANN[n.op_type] for n in nodes}
    rows = _csv_rows(_one(out, "op_summary_*.csv"))
    assert {row["OP Type"] for row in rows} == expected_types
    assert not any("FlashAttention" in row["OP Type"] or "FlashAttention" in row["Op Name"] for row in rows)
    # each iteration runs the model's ops in execution order
    names = [n.name for n in nodes]
    assert len(rows) % len(names) == 0 and len(rows) >= len(names)
    for k in range(0, len(rows), len(names)):
        assert [row["Op Name"] for row in rows[k : k + len(names)]] == names
        assert [row["OP Type"] for row in rows[k : k + len(names)]] == [CANN[n.op_type] for n in nodes]
    iterations = len(rows) // len(names)

    stats = {row["OP Type"]: row for row in _csv_rows(_one(out, "op_statistic_*.csv"))}
    assert set(stats) == expected_types
    for typ in expected_types:
        assert int(stats[typ]["Count"]) == iterations * sum(CANN[n.op_type] == typ for n in nodes), typ

    with open(_one(out, "msprof_*.json"), encoding="utf-8") as fh:
        events = json.load(fh)
    task_names = {e["name"] for e in events if e.get("ph") == "X"}
    assert set(names) <= task_names
    assert not any("FlashAttention" in e.get("name", "") for e in events)
    for f in out.iterdir():
        assert "FlashAttention" not in f.read_text(encoding="utf-8", errors="replace"), f.name


def test_msprof_says_when_it_falls_back_to_a_canned_workload(sim_prefixes, tmp_path):
    (tmp_path / "train.py").write_text("print('no model here')\n")
    (tmp_path / "broken.om").write_bytes(b"not an om")
    r = _bash(
        sim_prefixes["8.0.RC1"],
        f"msprof --output=out {sys.executable} train.py && msprof --output=out2 {sys.executable} train.py broken.om",
        tmp_path,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    notes = [line for line in r.stderr.splitlines() if line.startswith(f"{BANNER} ")]
    assert notes[0] == (
        f"{BANNER} the application runs no .om or .onnx model the simulator can find; "
        "profiling a canned transformer workload (torch_npu eager ops)"
    )
    assert notes[1].startswith(f"{BANNER} not a model the simulator knows: {tmp_path}/broken.om: too short")
    assert notes[1].endswith("; profiling a canned transformer workload (torch_npu eager ops)")


def test_model_files_finds_the_models_an_app_names(tmp_path):
    (tmp_path / "model").mkdir()
    for name in ("a.om", "b.om", "model/c.om", "model/d.onnx", "model/e.om"):
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "infer.py").write_text(
        'MODEL = "../model/c.om"\nOTHER = "./model/d.onnx"\nMISSING = "/nowhere/m.om"\n'
    )
    (tmp_path / "out").mkdir()
    binary = tmp_path / "out" / "main"
    binary.write_bytes(b"\x7fELF\x00\x00../model/e.om\x00acl.json\x00")
    binary.chmod(0o755)
    app = ["python3", "src/infer.py", "--model=a.om", "-i", "b.om", "missing.om"]
    assert model_files(app, tmp_path) == [
        tmp_path / "a.om",
        tmp_path / "b.om",
        tmp_path / "model" / "c.om",
        tmp_path / "model" / "d.onnx",
    ]
    assert model_files(app, tmp_path, suffixes=(".om",))[2:] == [tmp_path / "model" / "c.om"]
    # a C++ sample's binary run from its folder: the path compiled into it (relative to the working dir)
    assert model_files(["./main"], tmp_path / "out") == [tmp_path / "model" / "e.om"]
    assert model_files([sys.executable, "-c", "pass"], tmp_path) == []


def test_runtime_dumps_real_shapes_of_a_dynamic_shape_om(sim_prefixes, tmp_path, monkeypatch):
    """An om with unknown dims (ONNX batch 'N', no --input_shape) dumps the shapes that ran, not -1."""
    from workbench.simtoolkit import atc
    from workbench.simtoolkit.config import CONFIG_NAME, ENV_CONFIG

    monkeypatch.setenv(ENV_CONFIG, str(sim_prefixes["8.0.RC1"] / "ascend-toolkit" / "latest" / CONFIG_NAME))
    conv_net(tmp_path / "convnet.onnx", batch="N")
    assert (
        atc.main(
            [
                "--framework=5",
                "--model=" + str(tmp_path / "convnet.onnx"),
                f"--output={tmp_path}/convnet",
                "--soc_version=Ascend910B2",
            ]
        )
        == 0
    )
    ops = read_om(tmp_path / "convnet.om")["om_json"]["graph"][0]["op"]
    assert next(o for o in ops if o["name"] == "conv1")["output_desc"][0]["shape"]["dim"][0] == -1
    (tmp_path / "dump").mkdir()
    (tmp_path / "acl.json").write_text(
        json.dumps({"dump": {"dump_list": [{"model_name": "convnet"}], "dump_path": "dump", "dump_mode": "all"}})
    )
    files = dump_after_app(["./main", str(tmp_path / "convnet.om")], tmp_path)
    assert len(files) >= 10
    for f in files:
        for t in read_dump(f).tensors():
            assert all(d >= 0 for d in t.shape + t.original_shape), (f.name, t)


@pytest.mark.parametrize(
    "flags, gears, values",
    [
        (["--input_shape=image:-1,3,32,32", "--dynamic_batch_size=2,8"], ["2,3,32,32", "8,3,32,32"], 1),
        (["--input_shape=image:1,3,-1,-1", "--dynamic_image_size=32,32;64,48"], ["1,3,32,32", "1,3,64,48"], 2),
        (["--input_shape=image:-1,3,-1,32", "--dynamic_dims=1,32;2,64"], ["1,3,32,32", "2,3,64,32"], 2),
    ],
)
def test_atc_builds_every_gear_of_a_dynamic_model(sim_prefixes, tmp_path, monkeypatch, capsys, flags, gears, values):
    from workbench.simtoolkit import atc
    from workbench.simtoolkit.config import CONFIG_NAME, ENV_CONFIG

    monkeypatch.setenv(ENV_CONFIG, str(sim_prefixes["8.0.RC1"] / "ascend-toolkit" / "latest" / CONFIG_NAME))
    conv_net(tmp_path / "convnet.onnx", batch="N")
    assert (
        atc.main(
            [
                "--framework=5",
                f"--model={tmp_path}/convnet.onnx",
                f"--output={tmp_path}/m",
                "--soc_version=Ascend910B2",
                *flags,
            ]
        )
        == 0
    ), capsys.readouterr().out
    ops = {o["name"]: o for o in read_om(tmp_path / "m.om")["om_json"]["graph"][0]["op"]}
    attrs = {a["key"]: a["value"] for a in ops["image"]["attr"]}
    assert [g.rsplit(":", 1)[1] for g in attrs["_all_origin_gears_inputs"]["list"]["s"]] == gears
    assert ops["image"]["output_desc"][0]["shape"]["dim"] == [int(d) for d in gears[-1].split(",")]
    assert ops["ascend_mbatch_shape_data"]["output_desc"][0]["shape"]["dim"] == [values]


def test_atc_refuses_gears_that_do_not_fit_the_dynamic_dims(sim_prefixes, tmp_path, monkeypatch, capsys):
    from workbench.simtoolkit import atc
    from workbench.simtoolkit.config import CONFIG_NAME, ENV_CONFIG

    monkeypatch.setenv(ENV_CONFIG, str(sim_prefixes["8.0.RC1"] / "ascend-toolkit" / "latest" / CONFIG_NAME))
    conv_net(tmp_path / "convnet.onnx", batch="N")
    code = atc.main(
        [
            "--framework=5",
            f"--model={tmp_path}/convnet.onnx",
            f"--output={tmp_path}/m",
            "--soc_version=Ascend910B2",
            "--input_shape=image:-1,3,-1,32",
            "--dynamic_dims=1;2",
        ]
    )
    out = capsys.readouterr().out
    assert code == atc.EXIT_FAILED and "E10001" in out and "one for each -1 in --input_shape" in out
    assert not (tmp_path / "m.om").exists()
