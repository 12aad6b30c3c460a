"""The `profile` verb as a real process: --dry-run prints the exact command, --json runs end to end
through the test sshd, and `report info` opens the fetched folder."""

from __future__ import annotations

import csv
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import NEW, OLD

from workbench.core.services.hosts import HostStore

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def cli(ssh_home, isolated_home, ssh_host, tmp_path):
    HostStore().add(ssh_host)
    env = dict(os.environ, HOME=str(ssh_home), ASCEND_WORKBENCH_HOME=str(isolated_home), PYTHONPATH=str(ROOT))
    env.pop("SSH_AUTH_SOCK", None)

    def run(*args: str, check: int | None = 0) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            [sys.executable, "-m", "workbench", *args],
            capture_output=True,
            text=True,
            env=env,
            stdin=subprocess.DEVNULL,
            timeout=300,
            cwd=tmp_path,
        )
        if check is not None:
            assert proc.returncode == check, proc.stdout + proc.stderr
        return proc

    return run


def test_dry_run_prints_the_exact_command(cli, sim_toolkits, ssh_host, tmp_path):
    toolkit = sim_toolkits[OLD]
    out = cli(
        "profile",
        "--host",
        ssh_host.name,
        "--app",
        "python3 /srv/app/main.py --n 2",
        "--toolkit",
        str(toolkit),
        "--aic-mode",
        "sample-based",
        "--aic-metrics",
        "Memory",
        "--task-time",
        "l0",
        "--runtime-api",
        "on",
        "--aicpu",
        "on",
        "--sys-hardware-mem",
        "on",
        "--host-sys",
        "cpu,mem",
        "--msproftx",
        "on",
        "--remote-out",
        str(tmp_path / "ro"),
        "--dry-run",
    )
    argv = shlex.split(out.stdout.splitlines()[0])
    msprof = str(toolkit.resolve() / "tools" / "profiler" / "bin" / "msprof")
    assert argv[0] in (msprof, str(toolkit / "tools" / "profiler" / "bin" / "msprof"))
    assert argv[1].startswith(f"--output={tmp_path / 'ro'}/")
    assert argv[2:] == [
        "--ascendcl=on",
        "--runtime-api=on",
        "--task-time=on",
        "--ai-core=on",
        "--aic-mode=sample-based",
        "--aic-freq=100",
        "--aic-metrics=Memory",
        "--aicpu=on",
        "--msproftx=on",
        "--sys-hardware-mem=on",
        "--sys-hardware-mem-freq=50",
        "--host-sys=cpu,mem",
        "--application=python3 /srv/app/main.py --n 2",
    ]
    assert "warning: CANN 6.0.1 has no task-time levels" in out.stdout
    assert not (tmp_path / "ro").exists()


def test_dry_run_fails_a_blocking_check(cli, sim_toolkits, ssh_host):
    out = cli(
        "profile",
        "--host",
        ssh_host.name,
        "--app",
        "./main",
        "--toolkit",
        str(sim_toolkits[OLD]),
        "--aic-metrics",
        "MemoryAccess",
        "--dry-run",
        "--json",
        check=2,
    )
    data = json.loads(out.stdout)
    assert data["ok"] is False and data["issues"][0]["field"] == "aic_metrics"


def test_bad_options_exit_2(cli, ssh_host):
    assert (
        "--host-sys 'cpu,gpu'"
        in cli("profile", "--host", ssh_host.name, "--app", "x", "--host-sys", "cpu,gpu", check=2).stderr
    )
    assert "no host named 'nope'" in cli("profile", "--host", "nope", "--app", "x", check=2).stderr


def test_json_run_end_to_end_and_report_info_opens_it(cli, sim_toolkits, ssh_host, app_project, tmp_path):
    out = cli(
        "profile",
        "--host",
        ssh_host.name,
        "--app",
        f"{sys.executable} {app_project / 'main.py'} hi",
        "--toolkit",
        str(sim_toolkits[NEW]),
        "--devices",
        "1",
        "--remote-out",
        str(tmp_path / "ro"),
        "--out",
        str(tmp_path / "results"),
        "--json",
    )
    data = json.loads(out.stdout)
    assert data["ok"] is True and set(data) >= {"ok", "command", "remote_dir", "local_dir", "report_kind"}
    assert data["report_kind"] == "msprof" and data["remote_dir"].startswith(str(tmp_path / "ro") + "/")
    assert "app says hello hi" in out.stderr  # msprof's output streamed (to stderr with --json)
    assert shlex.split(data["command"])[-3:] == [sys.executable, str(app_project / "main.py"), "hi"]
    local = Path(data["local_dir"])
    assert local.parent.parent == tmp_path / "results"
    info = json.loads(cli("report", "info", str(local), "--json").stdout)
    [remote_csv] = (Path(data["prof_dirs"][0]) / "mindstudio_profiler_output").glob("op_summary_*.csv")
    with open(remote_csv, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert info["kind"] == "msprof" and info["devices"] == [1] and info["op_count"] == len(rows)


def test_demo_host_runs_locally(cli, app_project, isolated_home):
    out = cli("profile", "--host", "demo", "--app", f"python3 {app_project / 'main.py'}", "--json")
    data = json.loads(out.stdout)
    assert data["ok"] and data["report_kind"] == "msprof"
    # demo runs never write into the user's home: the "remote" side lives in the data folder
    assert data["remote_dir"].startswith(str(isolated_home))
    assert Path(data["local_dir"]).is_dir()
