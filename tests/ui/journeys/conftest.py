"""Fixtures of the journeys: one CANN machine for the whole session (a real OpenSSH sshd on
127.0.0.1 with the simulated toolkit installed on it over ssh, the way a user installs it there),
and the preconditions a journey starts from (a project, a converted model, a dump, two profiling
runs), made without the GUI: each journey clicks through its own workflow only.

The machine's login folder is a temp folder (``sftp-server -d`` and ``SetEnv HOME``), so nothing
the app leaves on "the host" (deployed projects, atc and msaccucmp working folders) lands in the
real home of the user running the tests.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(TESTS))  # tests/ (no __init__.py): the sshd fixture module
from journey_data import APP, CANN, DEVICES, HOST, MODEL, SOC, om_model, tiny_conv_onnx  # noqa: E402
from sshd import SshServer  # noqa: E402


class JourneyServer(SshServer):
    """tests/sshd.py's server with its own login folder for the session user."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.home = root / "remote-home"
        self.home.mkdir()
        sftp = "/usr/lib/openssh/sftp-server"
        lines = [ln for ln in self.config.read_text().splitlines() if not ln.startswith("Subsystem")]
        lines += [f"Subsystem sftp {sftp} -d {self.home}" if Path(sftp).exists() else "Subsystem sftp internal-sftp"]
        lines += [f"SetEnv HOME={self.home}"]
        self.config.write_text("\n".join(lines) + "\n")

    def ssh(self, command: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run ``command`` on the host with the system ssh client (the user's terminal)."""
        argv = [
            "ssh",
            "-F",
            "/dev/null",
            "-i",
            str(self.client_key),
            "-p",
            str(self.port),
            "-o",
            "BatchMode=yes",
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "LogLevel=ERROR",
            f"{self.user}@127.0.0.1",
            shlex.join(command),
        ]
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(scope="session")
def sshd_server(tmp_path_factory: pytest.TempPathFactory):
    if not Path("/usr/sbin/sshd").exists() or shutil.which("ssh") is None:
        pytest.skip("openssh-server / openssh-client are not installed")
    server = JourneyServer(tmp_path_factory.mktemp("atlas"))
    server.start()
    yield server
    server.kill()


@pytest.fixture(scope="session")
def toolkit_root(sshd_server: JourneyServer) -> Path:
    """``python -m workbench sim install`` run on the host over ssh; the toolkit root it printed."""
    prefix = sshd_server.home / "Ascend"
    out = sshd_server.ssh(
        [
            "env",
            f"ASCEND_WORKBENCH_HOME={sshd_server.home / '.ascend-workbench-cli'}",
            sys.executable,
            "-m",
            "workbench",
            "sim",
            "install",
            "--prefix",
            str(prefix),
            "--cann-version",
            CANN,
            "--soc",
            SOC,
            "--devices",
            str(DEVICES),
            "--json",
        ]
    )
    assert out.returncode == 0, f"sim install on the host failed: {out.stderr}"
    return Path(json.loads(out.stdout)["toolkit_path"])


@pytest.fixture
def ssh_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sshd_server: JourneyServer, isolated_home: Path) -> Path:
    """HOME in a temp dir (no ~/.ssh, no agent); the app's known_hosts is empty: the host's key is
    unknown until a journey (or the ``machine`` fixture) accepts it."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    sshd_server.start()
    return home


@pytest.fixture
def machine(ssh_home: Path, sshd_server: JourneyServer, toolkit_root: Path):
    """The CANN machine 'atlas' as Ascend ▸ CANN Machines stores it, its key already accepted."""
    from workbench.core.services.hosts import HostStore
    from workbench.core.services.knownhosts import app_known_hosts

    app_known_hosts().parent.mkdir(parents=True, exist_ok=True)
    app_known_hosts().write_text(sshd_server.host_key_line + "\n")
    host = sshd_server.host(HOST, toolkit=str(toolkit_root))
    HostStore().add(host)
    return host


# --- models, dumps, reports ---------------------------------------------------------------------------
@pytest.fixture(scope="session")
def converted_om(tmp_path_factory: pytest.TempPathFactory, toolkit_root: Path) -> Path:
    """tinynet.om made once by the simulated atc (what the converter journey produces)."""
    folder = tmp_path_factory.mktemp("om")
    onnx_path = tiny_conv_onnx(folder / f"{MODEL}.onnx")
    script = (
        f"source {shlex.quote(str(toolkit_root.parent / 'set_env.sh'))} && "
        f"atc --model={onnx_path.name} --framework=5 --output={MODEL} --soc_version={SOC}"
    )
    out = subprocess.run(["bash", "-c", script], cwd=folder, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    return folder / f"{MODEL}.om"


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """An inference app's folder: the ONNX model, the app script naming the .om it loads, an
    empty dump/ folder for the acl.json dump."""
    root = tmp_path / "resnet_app"
    (root / "src").mkdir(parents=True)
    (root / "dump").mkdir()
    tiny_conv_onnx(root / f"{MODEL}.onnx")
    (root / "main.py").write_text(APP.format(model=MODEL))
    return root


@pytest.fixture
def remote_dir(sshd_server: JourneyServer, tmp_path: Path) -> Path:
    """Where the project is deployed on the host (absolute, under the host's login folder)."""
    return sshd_server.home / "deploy" / tmp_path.name / "resnet_app"


@pytest.fixture
def new_project(window, machine, project_dir: Path):
    """The project as File ▸ New Project leaves it (open, not deployed anywhere yet)."""
    from workbench.core.project import create_project

    create_project(project_dir, name="resnet_app")
    assert window.open_project(project_dir) is not None
    return window.project


@pytest.fixture
def project(window, machine, project_dir: Path, remote_dir: Path):
    """The project created and open, mapped to 'atlas' (as Deployment ▸ Save Mappings leaves it)."""
    from workbench.core.project import create_project
    from workbench.core.services import deploy

    proj = create_project(project_dir, name="resnet_app")
    deploy.set_project_mappings(proj, [deploy.Mapping(local=".", remote=str(remote_dir))])
    proj.remote.host = HOST
    proj.remote.remote_path = str(remote_dir)
    proj.save()
    assert window.open_project(project_dir) is not None
    return window.project


@pytest.fixture
def om_in_project(project, converted_om: Path) -> Path:
    target = Path(project.root) / converted_om.name
    shutil.copy(converted_om, target)
    return target


@pytest.fixture
def dump_in_project(om_in_project: Path):
    """What the simulated runtime dumps for tinynet (all ops, outputs) under the project's dump/,
    and ground truth .npy files beside it in golden/ (conv2 drifted below the cosine threshold)."""
    from workbench.core.dump.aclconfig import DumpSettings
    from workbench.simtoolkit.dumpwriter import model_dump_dir, write_golden, write_model_dump

    model = om_model(om_in_project)
    root = om_in_project.parent
    files = write_model_dump(
        model,
        DumpSettings(option="all", model_name=model.name, dump_mode="output"),
        model_dump_dir(root / "dump", model.name),
    )
    drifted = next(op.name for op in model.ops if op.type == "Conv2D" and op.name.startswith("conv2"))
    write_golden(files, root / "golden", drift={drifted: 3.0})
    return root / "dump", root / "golden", files, drifted


@pytest.fixture(scope="session")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two msprof collections of one model (different seeds: the second run is slower here and there)."""
    from workbench.simtoolkit.profdata.msprof import write_msprof_prof
    from workbench.simtoolkit.profdata.workload import resnet50_workload

    out = []
    for name, seed in (("baseline", 1), ("current", 2)):
        folder = tmp_path_factory.mktemp(f"run-{name}")
        out.append(write_msprof_prof(folder, resnet50_workload(), cann_version=CANN, seed=seed))
    return out[0], out[1]
