"""`ascend-workbench migrate`: run on the demo host (the simulated toolkit on this machine) and over
the suite's real sshd, end to end; read a report folder; dry run; bad input in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from workbench.core.migration.run import run_migration
from workbench.core.services.toolkit import detect_toolkit
from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress

ROOT = Path(__file__).resolve().parents[3]


def _cli(isolated_home: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    e = dict(os.environ, ASCEND_WORKBENCH_HOME=str(isolated_home), PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args],
        capture_output=True,
        text=True,
        env=e,
        stdin=subprocess.DEVNULL,
        timeout=180,
    )


def test_migrate_run_demo_pytorch_end_to_end(isolated_home, pt_project, tmp_path):
    out = tmp_path / "migrated"
    r = _cli(isolated_home, "migrate", "run", "demo", "--framework", "pytorch", "--input", str(pt_project),
             "--out", str(out), "--json")  # fmt: skip
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["ok"] and data["simulated"] and data["host"] == "demo"
    assert data["command"].split()[0].endswith("/tools/ms_fmk_transplt/pytorch_gpu2npu.sh")
    assert " -v 2.1.0" in data["command"]
    migrated = Path(data["output_dir"])
    assert migrated == out / "output" / "gpu_pytorch_trainer_msft"
    assert "MsFmkTransplt run success" in r.stderr  # the tool's lines streamed
    rep = data["report"]
    assert rep["tool"] == "msFmkTransplt" and rep["log_status"] == "success"
    assert {a["api"] for a in rep["apis"] if a["category"] == "unsupported"} == {
        "apex.optimizers.FusedAdam", "torch.nn.SyncBatchNorm"
    }  # fmt: skip
    for ch in rep["changes"]:  # every change names a real line of the fetched migrated file
        assert (migrated / ch["file"]).read_text().splitlines()[ch["line"] - 1].strip()
    assert data["counts"]["changes"] == len(rep["changes"]) > 5
    # the same folder read again with `migrate report`
    again = _cli(isolated_home, "migrate", "report", str(out), "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["changes"] == rep["changes"]


def test_migrate_run_demo_tf_with_main_and_text_summary(isolated_home, tf_project, tmp_path):
    out = tmp_path / "tfmig"
    r = _cli(isolated_home, "migrate", "run", "demo", "--framework", "tf1", "--input", str(tf_project),
             "--main", "train.py", "--out", str(out))  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "unsupported  train.py:37  hvd.allreduce" in r.stdout
    assert "Finish conver, output file:" in r.stderr
    (report_dir,) = (out / "report").iterdir()
    (migrated,) = (out / "output").iterdir()
    assert report_dir.name.startswith("report_npu_") and migrated.name.startswith("gpu_tf_trainer_npu_")
    assert f"migrated project: {migrated}" in r.stdout
    # file paths in the reports are the host's input paths; read through the verb they are project paths
    listed = _cli(isolated_home, "migrate", "report", str(out / "report"), "--json")
    files = {a["file"] for a in json.loads(listed.stdout)["apis"]}
    assert any(f.endswith("/gpu_tf_trainer/train.py") for f in files)


def test_migrate_run_refuses_an_out_inside_the_input_before_running(isolated_home, tf_project):
    r = _cli(isolated_home, "migrate", "run", "demo", "--framework", "tf2", "--input", str(tf_project),
             "--out", str(tf_project / "npu"))  # fmt: skip
    assert r.returncode == 2
    assert r.stderr.strip() == (
        f"ascend-workbench: --out {tf_project / 'npu'}: must not be inside the input folder {tf_project} "
        "(the tool refuses it)"
    )
    assert not (tf_project / "npu").exists()


def test_migrate_run_refuses_an_out_folder_with_files(isolated_home, pt_project, tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "keep.txt").write_text("mine")
    r = _cli(isolated_home, "migrate", "run", "demo", "--framework", "pytorch", "--input", str(pt_project),
             "--out", str(tmp_path / "busy"))  # fmt: skip
    assert r.returncode == 2 and "already holds files; choose another --out or pass --force" in r.stderr
    assert (tmp_path / "busy" / "keep.txt").read_text() == "mine"


def test_migrate_dry_run_prints_the_command(isolated_home, pt_project, tmp_path):
    r = _cli(isolated_home, "migrate", "run", "demo", "--framework", "pytorch", "--input", str(pt_project),
             "--main", "train.py", "--distributed", "--out", str(tmp_path / "o"), "--dry-run")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == (
        "/usr/local/Ascend/ascend-toolkit/latest/tools/ms_fmk_transplt/pytorch_gpu2npu.sh "
        f"-i {pt_project} -o {tmp_path / 'o'} -v 2.1.0 "
        f"distributed -m {pt_project / 'train.py'} -t model"
    )


def test_migrate_host_without_the_word_run_is_a_run(isolated_home, pt_project, tmp_path):
    """The issue's form, ``migrate HOST --framework …``: the same as ``migrate run HOST …``."""
    r = _cli(isolated_home, "migrate", "demo", "--framework", "pytorch", "--input", str(pt_project),
             "--out", str(tmp_path / "o"), "--dry-run")  # fmt: skip
    assert r.returncode == 0, r.stderr
    tool = "/usr/local/Ascend/ascend-toolkit/latest/tools/ms_fmk_transplt/pytorch_gpu2npu.sh"
    assert r.stdout.strip().startswith(f"{tool} -i {pt_project} ")
    help_text = _cli(isolated_home, "migrate", "--help").stdout
    assert "migrate [run] HOST --framework" in help_text


def test_migrate_report_on_a_bad_folder_is_one_line(isolated_home, tmp_path):
    (tmp_path / "change_list.csv").write_text("File,Start Line,End Line,Operation Type,Message\na.py,x,1,Insert,m\n")
    r = _cli(isolated_home, "migrate", "report", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.strip() == (
        f"ascend-workbench: {tmp_path / 'change_list.csv'}:2: Start Line: expected a line number, got 'x'"
    )


def test_migrate_over_the_real_sshd(ssh_transport, sim_prefix, pt_project, tf_project, tmp_path):
    toolkit = detect_toolkit(ssh_transport, str(sim_prefix))
    progress = RecordingProgress()
    res = run_migration("pytorch", pt_project, tmp_path / "pt", ssh_transport, toolkit, progress=progress)
    assert res.ok, res.error + res.log
    assert res.report is not None and {a.api for a in res.report.unsupported} == {
        "apex.optimizers.FusedAdam", "torch.nn.SyncBatchNorm"
    }  # fmt: skip
    migrated = Path(res.output_dir or "")
    assert ".npu(" in (migrated / "train.py").read_text()
    fractions = [v for kind, v in progress.events if kind == "fraction" and v is not None]
    assert any(0.2 < f < 0.8 for f in fractions), fractions  # msFmkTransplt's [Progress: n%] moved it
    tf = run_migration("tf2", tf_project, tmp_path / "tf", ssh_transport, toolkit, main="train.py")
    assert tf.ok, tf.error + tf.log
    assert tf.report is not None and [a.file for a in tf.report.unsupported] == ["train.py"]  # host paths cut


def _tool_processes(marker: str) -> list[str]:
    out = subprocess.run(["ps", "-ww", "-eo", "pid=,stat=,args="], capture_output=True, text=True, check=True).stdout
    return [
        ln
        for ln in out.splitlines()
        if "workbench.simtoolkit.migration" in ln and marker in ln and not ln.split()[1].startswith("Z")
    ]


def test_cancel_kills_the_tool_on_the_host(ssh_transport, sim_prefix, pt_project, tmp_path):
    from workbench.simtoolkit.migration.gpu2npu import ENV_DELAY

    toolkit = detect_toolkit(ssh_transport, str(sim_prefix))
    marker = f"proj_{uuid.uuid4().hex[:8]}"
    project = pt_project.rename(pt_project.with_name(marker))
    cancel = CancelToken()
    seen_running: list[list[str]] = []
    progress = RecordingProgress()
    original = progress.partial

    def partial(item):
        original(item)
        if isinstance(item, tuple) and "Start analysis" in item[1] and not seen_running:
            seen_running.append(_tool_processes(marker))
            cancel.cancel()

    progress.partial = partial  # type: ignore[method-assign]
    t0 = time.monotonic()
    with pytest.raises(Cancelled):
        run_migration("pytorch", project, tmp_path / "pt", ssh_transport, toolkit, env={ENV_DELAY: "300"},
                      progress=progress, cancel=cancel)  # fmt: skip
    assert seen_running and seen_running[0], "the tool was not running when Cancel was pressed"
    deadline = time.monotonic() + 10
    while _tool_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _tool_processes(marker) == []
    assert time.monotonic() - t0 < 60
    assert not (tmp_path / "pt").exists()  # nothing fetched


def test_a_failing_tool_is_one_line_naming_tool_host_and_reason(tmp_path, pt_project):
    from workbench.core.services.transport import LocalTransport
    from workbench.simtoolkit.install import install

    prefix = tmp_path / "Ascend"
    root = install(prefix, cann_version="8.0.RC1", soc_version="Ascend910B2", devices=1)
    (root / "tools" / "ms_fmk_transplt" / "pytorch_gpu2npu.sh").unlink()
    tr = LocalTransport("local", home=tmp_path / "home")
    (tmp_path / "home").mkdir()
    toolkit = detect_toolkit(tr, str(prefix))
    res = run_migration("pytorch", pt_project, tmp_path / "o", tr, toolkit)
    assert not res.ok and res.exit_status == 127 and res.report is None
    assert res.error.startswith("pytorch_gpu2npu.sh on local: exit status 127: ")
    assert "No such file or directory" in res.error and "\n" not in res.error
    assert not (tmp_path / "o").exists()
