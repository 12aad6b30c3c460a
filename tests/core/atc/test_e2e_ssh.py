"""End to end through the real sshd and the simulated toolkit: upload, atc, parse, download, history."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from atc_models import SIM_SOC, small_cnn

from workbench.core.atc.job import ConversionJob, InputSpec, command_line
from workbench.core.atc.run import JobInvalid, last_job, propose_soc_version, run_conversion
from workbench.core.atc.structure import model_structure
from workbench.core.project import create_project, open_project
from workbench.core.services.toolkit import detect_toolkit
from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress
from workbench.simtoolkit.atc import ENV_DELAY
from workbench.simtoolkit.omfile import read_om

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def toolkit(ssh_transport, sim_prefix):
    return detect_toolkit(ssh_transport, str(sim_prefix))


def _job(model: Path, remote: Path, **kw) -> ConversionJob:
    return ConversionJob(
        host="loopback",
        model=str(model),
        soc_version=SIM_SOC,
        remote_dir=str(remote),
        inputs=[InputSpec("images", [1, 3, 32, 32])],
        **kw,
    )


def test_onnx_cnn_converts_and_the_om_is_downloaded(ssh_transport, toolkit, tmp_path):
    model = small_cnn(tmp_path / "cnn_argmax.onnx", argmax=True)
    project = create_project(tmp_path / "proj")
    remote = tmp_path / "host-work"
    job = _job(model, remote, out_dir="models", output_name="cnn_b1")
    progress = RecordingProgress()
    result = run_conversion(job, ssh_transport, toolkit, project=project, progress=progress)
    assert result.ok and result.exit_status == 0 and result.errors == []
    local = project.root / "models" / "cnn_b1.om"
    assert result.om_path == str(local) and local.is_file()
    assert local.read_bytes() == (remote / "cnn_b1.om").read_bytes()
    assert (remote / "cnn_argmax.onnx").read_bytes() == model.read_bytes()  # uploaded
    doc = read_om(local)["om_json"]
    names = {op["name"] for op in doc["graph"][0]["op"]}
    assert {"images", "conv1", "relu1", "pool1", "conv2", "fc", "argmax"} <= names
    attrs = {a["key"]: a["value"] for a in doc["attr"]}
    assert attrs["soc_version"] == {"s": SIM_SOC}
    assert attrs["atc_cmdline"]["s"].endswith(" ".join(command_line(job).split()[1:]))
    # the log streamed line by line; ArgMax on AI CPU gives the W11001 warning
    streamed = [item[1] for kind, item in progress.events if kind == "partial" and isinstance(item, tuple)]
    assert "ATC run success, welcome to the next use.\n" in streamed
    assert [(w.code, w.message.split("]")[0]) for w in result.warnings] == [("W11001", "Op [argmax")]
    # recorded in the project's history (saved to disk)
    again = open_project(project.root)
    [entry] = again.conversions
    assert entry["result"] == "success" and entry["command"] == command_line(job) and entry["om"] == "models/cnn_b1.om"
    assert entry["time"] == result.started and entry["host"] == "loopback"
    assert last_job(again) == job


def test_wrong_input_name_is_e10016_with_its_explanation(ssh_transport, toolkit, tmp_path, cnn):
    # Caught before running when the model is local ...
    job = _job(cnn, tmp_path / "w1")
    job.inputs = [InputSpec("data", [1, 3, 32, 32])]
    with pytest.raises(JobInvalid) as err:
        run_conversion(job, ssh_transport, toolkit)
    assert [(i.code, i.field) for i in err.value.issues] == [("E10016", "input_shape")]
    assert not (tmp_path / "w1").exists()
    # ... and reported by atc, parsed and explained, when the model is only on the host.
    remote = tmp_path / "w2"
    remote.mkdir()
    ssh_transport.put(str(cnn), str(remote / "smallcnn.onnx"))
    on_host = ConversionJob(
        host="loopback",
        model=str(remote / "smallcnn.onnx"),
        model_on_host=True,
        soc_version=SIM_SOC,
        remote_dir=str(remote),
        inputs=[InputSpec("data", [1, 3, 32, 32])],
        out_dir=str(tmp_path / "out"),
    )
    result = run_conversion(on_host, ssh_transport, toolkit)
    assert not result.ok and result.om_path is None and result.exit_status != 0
    [error] = result.errors
    assert error.code == "E10016"
    assert error.message.startswith("Opname [data] specified in [--input_shape] is not found in the model.")
    info = error.to_json()
    assert "ONNX input names" in info["explanation"] and "model inspect" in info["fix"]
    assert not (tmp_path / "out").exists()


def test_caffe_without_weight_and_dynamic_conflict_fail_before_running(ssh_transport, toolkit, tmp_path, caffe, cnn):
    with pytest.raises(JobInvalid) as err:
        run_conversion(
            ConversionJob(model=str(caffe), soc_version=SIM_SOC, remote_dir=str(tmp_path / "r")), ssh_transport, toolkit
        )
    assert [i.code for i in err.value.issues] == ["E10008"]
    job = _job(cnn, tmp_path / "r", dynamic_batch_sizes=[1, 2], dynamic_dims=[[1], [2]])
    job.inputs = [InputSpec("images", [-1, 3, 32, 32])]
    with pytest.raises(JobInvalid) as err:
        run_conversion(job, ssh_transport, toolkit)
    assert "E10009" in [i.code for i in err.value.issues]
    assert not (tmp_path / "r").exists()  # nothing reached the host


def _atc_processes(marker: str) -> list[str]:
    out = subprocess.run(["ps", "-ww", "-eo", "pid=,stat=,args="], capture_output=True, text=True, check=True).stdout
    return [
        ln
        for ln in out.splitlines()
        if "workbench.simtoolkit.atc" in ln and marker in ln and not ln.split()[1].startswith("Z")
    ]


def test_cancel_leaves_no_atc_process_on_the_server(ssh_transport, toolkit, tmp_path, cnn):
    marker = f"cancel_{uuid.uuid4().hex[:8]}"
    job = _job(cnn, tmp_path / "c", output_name=marker, env={ENV_DELAY: "300"})
    cancel = CancelToken()
    seen_running: list[list[str]] = []
    progress = RecordingProgress()
    original = progress.partial

    def partial(item):
        original(item)
        if isinstance(item, tuple) and item[1].startswith("ATC start working now"):
            seen_running.append(_atc_processes(marker))
            cancel.cancel()

    progress.partial = partial
    with pytest.raises(Cancelled):
        run_conversion(job, ssh_transport, toolkit, progress=progress, cancel=cancel)
    assert seen_running and seen_running[0], "atc was not running when Cancel was pressed"
    deadline = time.monotonic() + 10
    while _atc_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _atc_processes(marker) == []
    assert not (tmp_path / "c" / f"{marker}.om").exists()


def test_mode1_json_of_the_produced_om_lists_the_ops(ssh_transport, toolkit, tmp_path, cnn):
    result = run_conversion(_job(cnn, tmp_path / "m", out_dir=str(tmp_path / "out")), ssh_transport, toolkit)
    assert result.ok
    saved = tmp_path / "smallcnn.json"
    structure = model_structure(
        result.om_path, ssh_transport, toolkit, save_json=saved, remote_dir=str(tmp_path / "om2json")
    )
    doc = json.loads(saved.read_text())
    assert [op.name for op in structure.ops] == [op["name"] for op in doc["graph"][0]["op"]]
    by_name = {op.name: op for op in structure.ops}
    import onnx

    for node in onnx.load(str(cnn)).graph.node:
        if node.op_type != "Flatten":  # folded away by ATC
            assert node.name in by_name
    assert by_name["conv1"].type == "Conv2D" and by_name["conv1"].outputs[0].shape == [1, 8, 32, 32]
    assert [op.name for op in structure.search("CONV")] == [
        op["name"] for op in doc["graph"][0]["op"] if "conv" in op["name"].lower() or "conv" in op["type"].lower()
    ]


def test_soc_version_proposed_from_npu_smi(ssh_transport, toolkit):
    proposed, choices = propose_soc_version(ssh_transport, toolkit)
    assert proposed == SIM_SOC and choices[0] == SIM_SOC and "Ascend910B2" in choices


# --- the CLI, as a real process --------------------------------------------------------------------


@pytest.fixture
def cli(ssh_home, isolated_home, sshd_server, sim_prefix):
    from workbench.core.services.hosts import HostStore

    HostStore().add(sshd_server.host("lb", toolkit=str(sim_prefix)))
    env = dict(os.environ, HOME=str(ssh_home), ASCEND_WORKBENCH_HOME=str(isolated_home), PYTHONPATH=str(ROOT))
    env.pop("SSH_AUTH_SOCK", None)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "workbench", *args],
            capture_output=True,
            text=True,
            env=env,
            stdin=subprocess.DEVNULL,
            timeout=180,
        )

    return run


def test_cli_convert_over_ssh_into_a_project(cli, tmp_path, cnn):
    project = create_project(tmp_path / "proj")
    project.remote.host, project.remote.remote_path = "lb", str(tmp_path / "remote-proj")
    project.save()
    out = cli(
        "convert",
        "--host",
        "lb",
        "--model",
        str(cnn),
        "--soc-version",
        SIM_SOC,
        "--input-shape",
        "images:1,3,32,32",
        "--out",
        str(project.root / "om"),
        "--json",
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data == {
        "ok": True,
        "command": "atc --model=smallcnn.onnx --framework=5 --output=smallcnn "
        f"--soc_version={SIM_SOC} --input_shape=images:1,3,32,32",
        "om_path": str(project.root / "om" / "smallcnn.om"),
        "warnings": [],
        "errors": [],
    }
    assert (tmp_path / "remote-proj" / "atc" / "smallcnn.om").is_file()  # under the project's remote folder
    assert "ATC run success" in out.stderr  # the log streams to stderr with --json
    assert [c["result"] for c in open_project(project.root).conversions] == ["success"]


def test_cli_exit_codes_and_dry_run(cli, tmp_path, cnn, caffe):
    dry = cli(
        "convert",
        "--host",
        "lb",
        "--model",
        str(cnn),
        "--soc-version",
        SIM_SOC,
        "--input-shape",
        "images:-1,3,32,32",
        "--dynamic-batch-size",
        "1,2,4",
        "--precision-mode",
        "allow_mix_precision",
        "--extra",
        "log=info",
        "--out",
        str(tmp_path / "nothing"),
        "--dry-run",
    )
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.strip() == (
        "atc --model=smallcnn.onnx --framework=5 --output=smallcnn "
        f"--soc_version={SIM_SOC} --input_shape=images:-1,3,32,32 "
        "--dynamic_batch_size=1,2,4 --precision_mode=allow_mix_precision --log=info"
    )
    assert not (tmp_path / "nothing").exists()
    bad = cli("convert", "--host", "lb", "--model", str(caffe), "--soc-version", SIM_SOC, "--json")
    assert bad.returncode == 2
    assert [(e["code"], bool(e["explanation"])) for e in json.loads(bad.stdout)["errors"]] == [("E10008", True)]
    both = cli(
        "convert",
        "--host",
        "lb",
        "--model",
        str(cnn),
        "--soc-version",
        SIM_SOC,
        "--input-shape",
        "images:-1,3,32,32",
        "--dynamic-batch-size",
        "1,2",
        "--dynamic-dims",
        "1;2",
        "--json",
    )
    assert both.returncode == 2 and "E10009" in [e["code"] for e in json.loads(both.stdout)["errors"]]
    wrong = cli(
        "convert",
        "--host",
        "lb",
        "--model",
        str(cnn),
        "--soc-version",
        SIM_SOC,
        "--input-shape",
        "data:1,3,32,32",
        "--json",
    )
    assert wrong.returncode == 2
    [err] = json.loads(wrong.stdout)["errors"]
    assert err["code"] == "E10016" and "not found in the model" in err["message"] and err["explanation"]


def test_cli_atc_failure_exits_1(cli, tmp_path):
    model = tmp_path / "custom.onnx"
    import onnx
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    node = helper.make_node("FancyOp", ["x"], ["y"], name="fancy", domain="com.example")
    onnx.save(
        helper.make_model(
            helper.make_graph([node], "g", [x], [y]),
            opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.example", 1)],
        ),
        str(model),
    )
    project = create_project(tmp_path / "p")
    project.remote.host, project.remote.remote_path = "lb", str(tmp_path / "rp")
    project.save()
    out = cli(
        "convert", "--host", "lb", "--model", str(model), "--soc-version", SIM_SOC, "--out", str(project.root), "--json"
    )
    assert out.returncode == 1, out.stderr
    data = json.loads(out.stdout)
    assert data["ok"] is False and data["om_path"] is None
    assert [e["code"] for e in data["errors"]] == ["E19010"] and "opset" in data["errors"][0]["explanation"]
    assert [c["result"] for c in open_project(project.root).conversions] == ["failed"]


def test_cli_model_inspect_and_demo_host(cli, cnn, caffe, tmp_path):
    out = cli("model", "inspect", str(cnn), "--json")
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data["inputs"] == [{"name": "images", "dtype": "float32", "shape": [-1, 3, 32, 32]}]
    assert data["op_count"] == 8
    assert json.loads(cli("model", "inspect", str(caffe), "--json").stdout)["inputs"] == [
        {"name": "data", "dtype": "float32", "shape": [1, 3, 8, 8]}
    ]
    demo = cli(
        "convert",
        "--host",
        "demo",
        "--model",
        str(cnn),
        "--soc-version",
        "Ascend910B2",
        "--input-shape",
        "images:2,3,32,32",
        "--out",
        str(tmp_path / "demo-out"),
        "--json",
    )
    assert demo.returncode == 0, demo.stderr
    om = json.loads(demo.stdout)["om_path"]
    ops = json.loads(cli("model", "structure", om, "--host", "demo", "--search", "relu", "--json").stdout)["ops"]
    assert [op["name"] for op in ops] == ["relu1", "relu2"] and ops[0]["outputs"][0]["shape"] == [2, 8, 32, 32]
    assert cli("model", "inspect", str(tmp_path / "none.onnx")).returncode == 2
