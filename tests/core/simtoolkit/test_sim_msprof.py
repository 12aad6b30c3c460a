"""Simulated msprof and msaccucmp through bash + set_env.sh, as a remote host runs them."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import pytest


def _bash(prefix, script, cwd, **env):
    full_env = {k: v for k, v in os.environ.items() if k not in ("ASCEND_SIM_CONFIG", "PYTHONPATH")}
    full_env.update(env)
    return subprocess.run(
        ["bash", "-c", f"source {prefix}/ascend-toolkit/set_env.sh && {script}"],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=120,
        cwd=cwd,
    )


@pytest.fixture
def app(tmp_path):
    script = tmp_path / "app.py"
    script.write_text(
        "import os, sys\nprint('hello from app', sys.argv[1:], os.environ.get('PYTHONPATH', '<unset>'))\n"
    )
    return script


def test_runs_the_app_streams_its_output_and_writes_a_modern_prof(sim_prefixes, app, tmp_path):
    r = _bash(
        sim_prefixes["8.0.RC1"],
        f"msprof --output={tmp_path}/out --aic-metrics=PipeUtilization {sys.executable} {app} arg1",
        tmp_path,
        PYTHONPATH="/keep/me",
    )
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "[INFO] Start profiling...."
    toolkit = sim_prefixes["8.0.RC1"] / "ascend-toolkit" / "latest"
    set_env_path = f"{toolkit}/python/site-packages:{toolkit}/opp/built-in/op_impl/ai_core/tbe:/keep/me"
    assert lines[1] == f"hello from app ['arg1'] {set_env_path}"  # real output, set_env.sh's PYTHONPATH intact
    assert lines[-2] == "[INFO] Profiling finished."
    prefix_text = "[INFO] Process profiling data complete. Data is saved in "
    assert lines[-1].startswith(prefix_text)
    prof = lines[-1][len(prefix_text) :]
    assert os.path.dirname(prof) == f"{tmp_path}/out" and os.path.basename(prof).startswith("PROF_000001_")
    out = os.path.join(prof, "mindstudio_profiler_output")
    summaries = [f for f in os.listdir(out) if f.startswith("op_summary_")]
    assert len(summaries) == 1
    with open(os.path.join(out, summaries[0]), newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and rows[0]["Device_id"] == "0"
    assert r.stderr.splitlines()[0] == "[simulated CANN toolkit]"


def test_profiles_the_om_the_app_used_on_visible_devices_legacy_layout(sim_prefixes, app, tmp_path):
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.ones((2, 3, 1, 1), np.float32), "w")
    g = helper.make_graph(
        [
            helper.make_node("Conv", ["x", "w"], ["c"], name="MyConv"),
            helper.make_node("Sigmoid", ["c"], ["y"], name="MySigmoid"),
        ],
        "g",
        [x],
        [y],
        [w],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), str(tmp_path / "m.onnx"))
    prefix = sim_prefixes["6.0.1"]
    r = _bash(
        prefix,
        f"atc --framework=5 --model=m.onnx --output=m --soc_version=Ascend910A && "
        f"msprof --output=out --application='{sys.executable} {app} m.om'",
        tmp_path,
        ASCEND_RT_VISIBLE_DEVICES="1",
    )
    assert r.returncode == 0, r.stdout + r.stderr
    prof = r.stdout.splitlines()[-1].rsplit(" ", 1)[1]
    summary_dir = os.path.join(prof, "device_1", "summary")
    files = os.listdir(summary_dir)
    op_summary = [f for f in files if f.startswith("op_summary_")]
    assert op_summary, files
    with open(os.path.join(summary_dir, op_summary[0]), newline="") as fh:
        names = {row["Op Name"] for row in csv.DictReader(fh)}
    assert {"MyConv", "MySigmoid"} <= names


@pytest.mark.parametrize(
    "args, stdout_has, stderr_has",
    [
        ("--output=o --bogus=1 true", "Usage:", "msprof: unrecognized option '--bogus'"),
        (
            "--output=o --ascendcl=maybe true",
            "[ERROR] Argument --ascendcl: invalid value: maybe. Please input 'on' or 'off'.",
            "",
        ),
        (
            "--output=o --aic-freq=500 true",
            "[ERROR] Argument --aic-freq: invalid int value: 500.Please input data is in 1 to 100.",
            "",
        ),
        ("--output=o ./missing_app", "[ERROR] App path(", ""),
    ],
)
def test_bad_command_lines(sim_prefixes, tmp_path, args, stdout_has, stderr_has):
    r = _bash(sim_prefixes["7.0.0"], f"msprof {args}", tmp_path)
    assert r.returncode == 255
    assert stdout_has in r.stdout and stderr_has in r.stderr
    assert not (tmp_path / "o").exists() or not list((tmp_path / "o").glob("PROF_*"))


def test_msaccucmp_cli_skeleton(sim_prefixes, tmp_path):
    prefix = sim_prefixes["8.0.RC1"]
    script = f"{prefix}/ascend-toolkit/latest/tools/operator_cmp/compare/msaccucmp.py"
    r = _bash(prefix, f"python3 {script} compare -m {tmp_path}/nope -g {tmp_path}", tmp_path)
    assert r.returncode == 3 and f"The path \"'{tmp_path}/nope'\" does not exist." in r.stderr
    assert "The command was completed and took" in r.stderr
    r = _bash(prefix, f"python3 {script} file_compare -m a.txt -g b.npy -out .", tmp_path)
    assert r.returncode == 24 and "Only support .npy file." in r.stderr
    r = _bash(prefix, f"python3 {script} compare -g x", tmp_path)
    assert r.returncode == 2 and "the following arguments are required: -m/--my_dump_path" in r.stderr


def test_every_simulated_soc_has_a_profiler_chip():
    from workbench.simtoolkit.msprof import profiler_soc
    from workbench.simtoolkit.platform import SOC_ALIASES, SOCS
    from workbench.simtoolkit.profdata.chips import CHIPS

    for soc in [*SOCS, *SOC_ALIASES]:
        assert profiler_soc(soc) in CHIPS
