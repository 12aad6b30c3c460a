"""The simulated migration tools as `sim install` lays them out: where the real toolkit has them, run
through their launchers with the real command lines, refusals, console lines and exit codes."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "resources" / "samples"


@pytest.fixture(scope="module")
def prefix(tmp_path_factory) -> Path:
    from workbench.simtoolkit.install import install

    p = tmp_path_factory.mktemp("mig") / "Ascend"
    install(p, cann_version="8.0.RC1", soc_version="Ascend910B2", devices=2)
    return p


def _bash(prefix: Path, cmd: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    script = f"source {prefix}/ascend-toolkit/set_env.sh && {cmd}"
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def test_installed_where_the_real_toolkit_has_them_and_labelled_simulated(prefix):
    pt = prefix / "ascend-toolkit" / "latest" / "tools" / "ms_fmk_transplt" / "pytorch_gpu2npu.sh"
    site = prefix / "tfplugin" / "latest" / "python" / "site-packages"
    for tool in (pt, site / "npu_bridge/convert_tf2npu/main.py", site / "npu_device/convert_tf2npu/main.py"):
        assert tool.is_file() and os.access(tool, os.X_OK), tool
        assert "Simulated CANN toolkit" in tool.read_text()


def test_pytorch_tool_migrates_a_copy_and_writes_the_result_folder(prefix, tmp_path):
    src = shutil.copytree(SAMPLES / "gpu_pytorch_trainer", tmp_path / "gpu_pytorch_trainer")
    (tmp_path / "out").mkdir()
    r = _bash(
        prefix, f"$ASCEND_TOOLKIT_HOME/tools/ms_fmk_transplt/pytorch_gpu2npu.sh -i {src} -o out -v 2.1.0", tmp_path
    )
    assert r.returncode == 0, r.stderr
    assert "simulated msFmkTransplt" in r.stderr
    assert "[INFO]    MsFmkTransplt start working now, please wait for a moment." in r.stderr
    assert "[Progress: 50.00%]" in r.stderr
    assert r.stderr.rstrip().endswith("MsFmkTransplt run success, welcome to the next use.")
    res = tmp_path / "out" / "gpu_pytorch_trainer_msft"
    names = {p.name for p in res.iterdir()}
    assert {"msFmkTranspltlog.txt", "change_list.csv", "unsupported_api.csv", "unknown_api.csv",
            "api_precision_advice.csv", "api_performance_advice.csv", "train.py", "models"} <= names  # fmt: skip
    assert "run_distributed_npu.sh" not in names
    assert (src / "train.py").read_text() == (SAMPLES / "gpu_pytorch_trainer" / "train.py").read_text()  # input kept
    assert "MsFmkTransplt run success" in (res / "msFmkTranspltlog.txt").read_text()


def test_pytorch_distributed_writes_msft_multi_and_the_launch_script(prefix, tmp_path):
    src = shutil.copytree(SAMPLES / "gpu_pytorch_trainer", tmp_path / "p")
    (tmp_path / "out").mkdir()
    tool = "$ASCEND_TOOLKIT_HOME/tools/ms_fmk_transplt/pytorch_gpu2npu.sh"
    r = _bash(prefix, f"{tool} -i {src} -o out -v 2.1.0 distributed -m {src}/train.py -t model", tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "p_msft_multi" / "run_distributed_npu.sh").read_text().startswith("export MASTER_ADDR=")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ("-i {src} -o {src}/sub -v 2.1.0", "Output {src}/sub should not be a subdirectory of Input {src}"),
        ("-i {src} -o {tmp}/missing -v 2.1.0", "Output {tmp}/missing is not a valid directory!"),
        ("-i {tmp}/nope -o {tmp}/out -v 2.1.0", "Input {tmp}/nope does not exist!"),
        ("-i {src} -o {tmp}/out -v 1.5.0", "Pytorch version only support"),
        ("-i {src} -o {tmp}/out -v 2.1.0 distributed -m {tmp}/x.py", "Main file {tmp}/x.py does not exist!"),
    ],
)
def test_pytorch_refusals_log_the_reason_and_exit_1(prefix, tmp_path, args, message):
    src = shutil.copytree(SAMPLES / "gpu_pytorch_trainer", tmp_path / "p")
    (src / "sub").mkdir()
    (tmp_path / "out").mkdir()
    fmt = {"src": src, "tmp": tmp_path}
    r = _bash(prefix, "$ASCEND_TOOLKIT_HOME/tools/ms_fmk_transplt/pytorch_gpu2npu.sh " + args.format(**fmt), tmp_path)
    assert r.returncode == 1
    assert f"[ERROR]   {message.format(**fmt)}" in r.stderr
    assert r.stderr.rstrip().endswith("MsFmkTransplt run fail!")


def test_pytorch_existing_result_asks_and_eof_fails(prefix, tmp_path):
    src = shutil.copytree(SAMPLES / "gpu_pytorch_trainer", tmp_path / "p")
    (tmp_path / "out" / "p_msft").mkdir(parents=True)
    tool = "$ASCEND_TOOLKIT_HOME/tools/ms_fmk_transplt/pytorch_gpu2npu.sh"
    r = _bash(prefix, f"{tool} -i {src} -o out -v 2.1.0 </dev/null", tmp_path)
    assert r.returncode == 1
    assert "The output directory already exists. Do you want to overwrite?" in r.stdout + r.stderr
    assert "EOF when reading a line" in r.stderr


def test_pytorch_missing_version_is_an_argparse_error(prefix, tmp_path):
    r = _bash(prefix, "$ASCEND_TOOLKIT_HOME/tools/ms_fmk_transplt/pytorch_gpu2npu.sh -i a -o b", tmp_path)
    assert r.returncode == 2 and "the following arguments are required: -v/--version" in r.stderr


TF1 = "python3 {prefix}/tfplugin/latest/python/site-packages/npu_bridge/convert_tf2npu/main.py"


def test_tf_tool_console_lines_and_layout(prefix, tmp_path):
    src = shutil.copytree(SAMPLES / "gpu_tf_trainer", tmp_path / "gpu_tf_trainer")
    r = _bash(prefix, TF1.format(prefix=prefix) + f" -i {src} -o {tmp_path}/out -r {tmp_path}/rep", tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == f"Begin conver, input file: {src}"
    assert f"Begin conver file: {src}/train.py" in lines
    assert f"Finish conver file: {src}/train.py" in lines
    report = next((tmp_path / "rep").iterdir())
    assert lines[-1] == f"Finish conver, output file: {tmp_path}/out; report file: {report}"
    assert report.name.startswith("report_npu_")
    assert {p.name for p in report.iterdir()} == {
        "success_report.txt", "failed_report.txt", "api_analysis_report.xlsx", "api_brief_report.txt"
    }  # fmt: skip
    (migrated,) = (tmp_path / "out").iterdir()
    assert migrated.name == "gpu_tf_trainer" + report.name[len("report") :]
    assert (migrated / "README.md").read_text() == (src / "README.md").read_text()
    text = (migrated / "train.py").read_text()
    assert "from npu_bridge.npu_init import *" in text and "npu_config_proto(config_proto=config)" in text
    assert "hvd.allreduce(accuracy)" in text  # unsupported: left as it was
    assert f"{src}/train.py:" in (report / "failed_report.txt").read_text()


@pytest.mark.parametrize(
    ("args", "code", "stream", "words"),
    [
        ("-i {src} -o {src}/out", 2, "stdout",
         "<output> or <report> could not be the subdirectory of <input>, please try another option."),
        ("-i {src} -o {tmp}/out -r {src}/rep", 2, "stdout", "could not be the subdirectory of <input>"),
        ("-x", 2, "stdout", "Parameter error, please check."),
        ("-o {tmp}/out", 1, "stderr", "ValueError: Please check -i or --input."),
        ("-i {src} -m {tmp}/none.py", 1, "stderr", "ValueError: --main args must be existing files"),
        ("-i {src} -d mpi", 1, "stderr", "--distributed_mode or -d must be one of ['horovod', 'tf_strategy']"),
    ],
)  # fmt: skip
def test_tf_tool_refusals(prefix, tmp_path, args, code, stream, words):
    src = shutil.copytree(SAMPLES / "gpu_tf_trainer", tmp_path / "t")
    fmt = {"src": src, "tmp": tmp_path}
    r = _bash(prefix, TF1.format(prefix=prefix) + " " + args.format(**fmt), tmp_path)
    assert r.returncode == code
    assert words in getattr(r, stream)
    assert not (src / "out").exists()


def test_tf2_tool_is_the_npu_device_one(prefix, tmp_path):
    src = shutil.copytree(SAMPLES / "gpu_tf_trainer", tmp_path / "t")
    tool = f"python3 {prefix}/tfplugin/latest/python/site-packages/npu_device/convert_tf2npu/main.py"
    r = _bash(prefix, f"{tool} -i {src} -o {tmp_path}/out -r {tmp_path}/rep -c", tmp_path)
    assert r.returncode == 0, r.stderr
    (migrated,) = (tmp_path / "out").iterdir()
    assert "import npu_device as npu\nnpu.open().as_default()" in (migrated / "train.py").read_text()
