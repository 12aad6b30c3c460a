"""The simulated pyACL runtime: a Python app that ``import acl`` after sourcing set_env.sh gets the
acl.json model dump when its model executes — run directly, through msprof, or by ``remote run``.

Dump files are found with os/pathlib only and read with the dump-file reader."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from _toolkit_shell import in_toolkit_shell, toolkit_env
from onnx import TensorProto, helper, numpy_helper

from workbench.core.dump.dumpfile import read_dump

BANNER = "[simulated CANN toolkit]"
OPS = {"conv1", "relu1", "conv2", "gap"}  # the compute ops of tiny.om (names as in the ONNX graph), profiled
DUMPED = OPS | {"trans_Cast_0", "trans_Cast_8"}  # ... and the casts atc inserted: every task is dumped

APP = """\
import sys

import acl

def check(ret, what):
    if ret != 0:
        print("%s failed, ret=%d" % (what, ret), flush=True)
        sys.exit(1)

check(acl.init("./acl.json"), "acl.init")
check(acl.rt.set_device(0), "acl.rt.set_device")
model_id, ret = acl.mdl.load_from_file("./model/tiny.om")
check(ret, "acl.mdl.load_from_file")
ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
for _ in range(ITERATIONS):
    check(acl.mdl.execute(model_id, ds_in, ds_out), "acl.mdl.execute")
check(acl.mdl.unload(model_id), "acl.mdl.unload")
check(acl.rt.reset_device(0), "acl.rt.reset_device")
check(acl.finalize(), "acl.finalize")
print("app done, model id", model_id, flush=True)
"""


def _bash(prefix: Path, script: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess:
    return in_toolkit_shell(prefix, script, cwd, timeout=180, **extra)


def _tiny_onnx(path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    inits = [
        numpy_helper.from_array(np.full((4, 3, 3, 3), 0.1, np.float32), "w1"),
        numpy_helper.from_array(np.full((4, 4, 3, 3), 0.1, np.float32), "w2"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1", pads=[1] * 4),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2"], ["c2"], name="conv2", pads=[1] * 4),
        helper.make_node("GlobalAveragePool", ["c2"], ["y"], name="gap"),
    ]
    graph = helper.make_graph(nodes, "tiny", [x], [y], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))


@pytest.fixture(scope="module")
def tiny_om(sim_prefixes, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("tiny-om")
    _tiny_onnx(folder / "tiny.onnx")
    r = _bash(
        sim_prefixes["8.0.RC1"], "atc --framework=5 --model=tiny.onnx --output=tiny --soc_version=Ascend910B2", folder
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return folder / "tiny.om"


def _app_dir(
    root: Path, tiny_om: Path, *, dump_path: str = "dump", iterations: int = 1, make_dump: bool = True
) -> Path:
    (root / "model").mkdir(parents=True)
    (root / "model" / "tiny.om").write_bytes(tiny_om.read_bytes())
    (root / "main.py").write_text(APP.replace("ITERATIONS", str(iterations)))
    acl = {"dump": {"dump_list": [{"model_name": "tiny"}], "dump_path": dump_path, "dump_mode": "output"}}
    (root / "acl.json").write_text(json.dumps(acl, indent=4))
    if make_dump:
        (root / dump_path).mkdir()
    return root


def _dump_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def test_set_env_puts_the_simulated_acl_package_on_pythonpath(sim_prefixes, tmp_path):
    prefix = sim_prefixes["8.0.RC1"]
    r = _bash(prefix, "python3 -c 'import acl; print(acl.__file__); print(acl.__doc__.splitlines()[0])'", tmp_path)
    assert r.returncode == 0, r.stderr
    path, doc = r.stdout.splitlines()
    toolkit = prefix / "ascend-toolkit" / "latest"
    assert path == f"{toolkit}/python/site-packages/acl/__init__.py"
    assert "Simulated pyACL" in doc and "NOT Huawei's" in doc
    r = _bash(prefix, "echo $PYTHONPATH", tmp_path, PYTHONPATH="/keep/me")
    assert r.stdout.strip().split(":") == [
        f"{toolkit}/python/site-packages",
        f"{toolkit}/opp/built-in/op_impl/ai_core/tbe",
        "/keep/me",
    ]


def test_a_pyacl_app_dumps_at_execute_in_the_real_layout(sim_prefixes, tiny_om, tmp_path):
    app = _app_dir(tmp_path / "app", tiny_om, iterations=2)
    r = _bash(sim_prefixes["8.0.RC1"], "python3 main.py", app)  # no msprof: the app alone
    assert r.returncode == 0, r.stdout + r.stderr
    assert "app done, model id 1" in r.stdout
    files = _dump_files(app / "dump")
    layout = {p.relative_to(app / "dump").parts[:-1] for p in files}
    assert len(layout) == 2, layout  # one time folder, device 0, model tiny, model id 1, iterations 0 and 1
    (stamp, device, model, model_id, it0), (_, _, _, _, it1) = sorted(layout)
    assert re.fullmatch(r"\d{14}", stamp) and (device, model, model_id) == ("0", "tiny", "1")
    assert (it0, it1) == ("0", "1")
    names = {read_dump(p).op_name for p in files if p.parts[-2] == "0"}
    assert names == DUMPED
    for p in files:
        op_type, op_name, task, stream, stamp_us = p.name.split(".")
        assert op_type.isalnum() and op_name == read_dump(p).op_name and task.isdigit() and stream == "0"
        assert stamp_us.isdigit() and len(stamp_us) == 16


def test_the_dump_is_written_when_the_apps_python_has_no_numpy(sim_prefixes, tiny_om, tmp_path):
    """The app's interpreter may lack numpy: the toolkit's own interpreter writes the dump."""
    app = _app_dir(tmp_path / "app", tiny_om)
    (app / "main.py").write_text(
        "import sys\nsys.modules['numpy'] = None  # import numpy fails\n" + APP.replace("ITERATIONS", "1")
    )
    r = _bash(sim_prefixes["8.0.RC1"], "python3 main.py", app)
    assert r.returncode == 0, r.stdout + r.stderr
    assert {read_dump(p).op_name for p in _dump_files(app / "dump")} == DUMPED


def test_missing_dump_path_folder_is_the_runtime_warning_and_the_app_succeeds(sim_prefixes, tiny_om, tmp_path):
    app = _app_dir(tmp_path / "app", tiny_om, dump_path="nodump", make_dump=False)
    r = _bash(sim_prefixes["8.0.RC1"], "python3 main.py", app)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "app done" in r.stdout
    assert f"[WARNING] acl.json dump_path {app / 'nodump'} does not exist: nothing dumped" in r.stderr
    assert not (app / "nodump").exists()


WRONG_ORDER = """\
import acl

ds = acl.mdl.create_dataset()
print("execute before init", acl.mdl.execute(1, ds, ds))
print("init", acl.init())
print("init again", acl.init())
model_id, ret = acl.mdl.load_from_file("./model/tiny.om")
print("load before set_device", model_id, ret)
print("set_device 5", acl.rt.set_device(5))
print("set_device 0", acl.rt.set_device(0))
print("load missing", acl.mdl.load_from_file("./model/missing.om"))
print("execute unknown id", acl.mdl.execute(7, ds, ds))
model_id, ret = acl.mdl.load_from_file("./model/tiny.om")
print("load", model_id, ret)
print("execute without datasets", acl.mdl.execute(model_id, 0, 0))
print("unload", acl.mdl.unload(model_id), "again", acl.mdl.unload(model_id))
print("finalize", acl.finalize(), "again", acl.finalize())
"""


def test_wrong_call_order_gets_the_real_acl_error_codes(sim_prefixes, tiny_om, tmp_path):
    app = _app_dir(tmp_path / "app", tiny_om)
    (app / "wrong.py").write_text(WRONG_ORDER)
    r = _bash(sim_prefixes["8.0.RC1"], "python3 wrong.py", app)  # devices=2 in this install
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == [
        "execute before init 100001",  # ACL_ERROR_UNINITIALIZE
        "init 0",
        "init again 100002",  # ACL_ERROR_REPEAT_INITIALIZE
        "load before set_device 0 107002",  # ACL_ERROR_RT_CONTEXT_NULL
        "set_device 5 107001",  # ACL_ERROR_RT_INVALID_DEVICEID
        "set_device 0 0",
        "load missing (0, 145000)",
        "execute unknown id 100011",  # ACL_ERROR_INVALID_MODEL_ID
        "load 1 0",
        "execute without datasets 100000",  # ACL_ERROR_INVALID_PARAM
        "unload 0 again 100011",
        "finalize 0 again 100001",
    ]
    assert f"{BANNER} [ERROR] aclmdlExecute: acl.init was not called (return code 100001 ACL_ERROR_UNINITIALIZE)" in (
        r.stderr
    )
    assert not _dump_files(app / "dump"), "acl.init() without acl.json: no dump"


def _prof_dir(stdout: str) -> Path:
    return Path(stdout.splitlines()[-1].rsplit(" ", 1)[1])


def test_msprof_profiles_the_model_the_runtime_loaded_and_does_not_dump_twice(sim_prefixes, tiny_om, tmp_path):
    app = _app_dir(tmp_path / "app", tiny_om)
    # a decoy the path heuristic would pick: an existing .om named in the script, never loaded
    (app / "model" / "decoy.om").write_bytes(b"not a model")
    (app / "main.py").write_text('# the old model was "./model/decoy.om"\n' + APP.replace("ITERATIONS", "1"))
    r = _bash(sim_prefixes["8.0.RC1"], f"msprof --output=out {sys.executable} main.py", app)
    assert r.returncode == 0, r.stdout + r.stderr
    note = f"{BANNER} profiling the ops of the models the application loaded: {app}/model/tiny.om (4 ops of model tiny)"
    assert note in r.stderr
    files = _dump_files(app / "dump")
    assert sorted(read_dump(p).op_name for p in files) == sorted(DUMPED), "one dump, by the runtime, not two"
    summaries = list((_prof_dir(r.stdout) / "mindstudio_profiler_output").glob("op_summary_*.csv"))
    with open(summaries[0], newline="") as fh:
        assert {row["Op Name"] for row in csv.DictReader(fh)} == OPS


def test_remote_run_on_the_demo_host_dumps(sim_prefixes, tiny_om, tmp_path):
    """``ascend-workbench remote run demo -- python3 main.py``: no msprof, the runtime dumps."""
    app = _app_dir(tmp_path / "app", tiny_om)
    r = subprocess.run(
        [sys.executable, "-m", "workbench", "remote", "run", "demo", "--cwd", str(app), "--", "python3", "main.py"],
        capture_output=True,
        text=True,
        env=toolkit_env(),
        timeout=300,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "app done, model id 1" in r.stdout
    files = _dump_files(app / "dump")
    assert {read_dump(p).op_name for p in files} == DUMPED
    assert {p.relative_to(app / "dump").parts[1:4] for p in files} == {("0", "tiny", "1")}
