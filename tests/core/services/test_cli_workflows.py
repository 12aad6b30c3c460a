"""The `host`, `remote` and `deploy` workflows as a user runs them on a fresh install: real
`ascend-workbench` processes against the test sshd (which runs on this machine, so the "remote"
processes and files can be checked here) and against the built-in `demo` host."""

from __future__ import annotations

import json
import os
import pwd
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from workbench.core import paths
from workbench.core.project import create_project
from workbench.core.services.deploy import Mapping, set_project_mappings
from workbench.core.services.hosts import HostStore


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie (a zombie is dead, only waiting to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _wait_for(condition, timeout: float = 20.0) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds have passed (bounded wait)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def _read_line(proc: subprocess.Popen[bytes], timeout: float = 60.0) -> bytes:
    """The first stdout line of a running process, waiting at most ``timeout`` seconds."""
    assert proc.stdout is not None
    buf = b""
    end = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while b"\n" not in buf and time.monotonic() < end:
            if sel.select(timeout=0.2):
                chunk = os.read(proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                buf += chunk
    assert b"\n" in buf, f"no line from {proc.args} in {timeout} s (got {buf!r})"
    return buf.split(b"\n", 1)[0]


def _add(cli, name: str, sshd_server, *extra: str, check: int | None = 0, cwd: Path | None = None):
    return cli(
        "host",
        "add",
        name,
        "--hostname",
        "127.0.0.1",
        "--port",
        str(sshd_server.port),
        "--user",
        sshd_server.user,
        *extra,
        check=check,
        cwd=cwd,
    )


def _hosts(cli) -> dict[str, dict]:
    return {h["name"]: h for h in json.loads(cli("host", "list", "--json").stdout)}


# --- 1. Ctrl-C / SIGTERM of `remote run` kills the remote process group ------------------------


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_to_remote_run_kills_the_remote_process(cli_env, added, sig):
    script = "echo $$; exec sleep 300"
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", "remote", "run", added, "--", "bash", "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=cli_env,
    )
    pid = None
    try:
        pid = int(_read_line(proc))  # the remote command runs (and the CLI knows its process group)
        assert _alive(pid)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 128 + sig
        assert err.decode().splitlines() == [
            f"ascend-workbench: lb: bash -c '{script}': cancelled by {sig.name}; "
            "its process group on the host was killed"
        ]
        assert _wait_for(lambda: not _alive(pid)), "the remote process outlived the cancelled `remote run`"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if pid is not None and _alive(pid):
            os.kill(pid, signal.SIGKILL)


# --- 2. tools run with the host's toolkit sourced, also when it was only detected -------------


@pytest.fixture
def toolkit_in_host_home(cli, sshd_server):
    """A simulated toolkit where detection looks on the host: ``$HOME/Ascend`` of the sshd user
    (the login folder of the host, this machine). Removed afterwards; never over a real one."""
    prefix = Path(pwd.getpwnam(sshd_server.user).pw_dir) / "Ascend"
    if prefix.exists() or Path("/usr/local/Ascend").exists():
        pytest.skip(f"{prefix} or /usr/local/Ascend already exists on this machine: not touching it")
    try:
        cli("sim", "install", "--prefix", str(prefix), "--devices", "2")
        yield prefix
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


def test_readme_example_runs_npu_smi_with_the_detected_toolkit(cli, added, toolkit_in_host_home):
    latest = str(toolkit_in_host_home / "ascend-toolkit" / "latest")
    assert _hosts(cli)["lb"]["toolkit"] == ""  # no --toolkit given
    out = cli("remote", "run", added, "--", "npu-smi", "info")  # the README's example
    assert b"npu-smi" in out.stdout and b"Health" in out.stdout
    # what was detected is kept in the host (an optional field: older files load without it)
    assert _hosts(cli)["lb"]["detected_toolkit"] == latest
    assert f"\t{latest} (detected)" in cli("host", "list").stdout.decode()
    assert json.loads(cli("host", "check", added, "--json").stdout)["toolkit_path"] == latest
    # a stale cache (toolkit moved) is detected again, not sourced blindly
    store = HostStore()
    host = store.get("lb")
    host.detected_toolkit = "/nonexistent/Ascend/ascend-toolkit/latest"
    store.update(host)
    out = cli("remote", "run", added, "--", "bash", "-c", 'command -v atc && echo "$ASCEND_TOOLKIT_HOME"')
    assert out.stdout.decode().split() == [f"{latest}/bin/atc", latest]
    assert _hosts(cli)["lb"]["detected_toolkit"] == latest


def test_command_not_found_without_a_toolkit_says_why(cli, added):
    if Path("/usr/local/Ascend").exists() or (Path(pwd.getpwuid(os.getuid()).pw_dir) / "Ascend").exists():
        pytest.skip("a toolkit is installed on this machine")
    out = cli("remote", "run", added, "--", "npu-smi", "info", check=127)
    last = out.stderr.decode().splitlines()[-1]
    assert last.startswith("ascend-workbench: set_env.sh was not sourced: ") and "no CANN toolkit found" in last


# --- 3. `demo` in every verb ------------------------------------------------------------------


def test_every_verb_accepts_the_demo_host(cli, tmp_path):
    demo_home = paths.data_dir() / "demo-host"
    check = json.loads(cli("host", "check", "demo", "--json").stdout)
    assert check["reachable"] is True and check["simulated"] is True and check["devices"]
    assert b"Health" in cli("remote", "run", "demo", "--", "npu-smi", "info").stdout
    (tmp_path / "a.txt").write_text("to the demo host\n")
    cli("remote", "put", "demo", str(tmp_path / "a.txt"), "inbox/a.txt")  # relative: the demo host's home
    assert (demo_home / "inbox" / "a.txt").read_text() == "to the demo host\n"
    cli("remote", "get", "demo", "inbox/a.txt", str(tmp_path / "back.txt"))
    assert (tmp_path / "back.txt").read_text() == "to the demo host\n"

    project = create_project(tmp_path / "proj", name="proj")
    (project.root / "main.py").write_text("print('ran on the demo host')\n")
    done = json.loads(cli("deploy", "demo", "--project", str(project.root), "--json").stdout)
    assert done["result"]["sent"] == ["main.py"]
    assert (demo_home / "ascend-workbench" / "proj" / "main.py").exists()
    out = cli("remote", "run", "demo", "--cwd", "ascend-workbench/proj", "--", sys.executable, "main.py")
    assert out.stdout == b"ran on the demo host\n"


# --- 4. `host add --key` and `--toolkit` store what they mean ---------------------------------


def test_host_add_stores_the_key_path_absolute(cli, sshd_server, ssh_home, tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir()
    shutil.copy(sshd_server.client_key, keys / "id_test")
    shutil.copy(sshd_server.client_key, ssh_home / ".ssh" / "id_home")
    _add(cli, "rel", sshd_server, "--key", "id_test", cwd=keys)
    _add(cli, "tilde", sshd_server, "--key", "~/.ssh/id_home")
    hosts = _hosts(cli)
    assert hosts["rel"]["key_file"] == str(keys / "id_test")
    assert hosts["tilde"]["key_file"] == str(ssh_home / ".ssh" / "id_home")
    # the stored path works from any folder
    assert cli("remote", "run", "rel", "--", "echo", "ok", cwd=tmp_path).stdout == b"ok\n"
    bad = _add(cli, "missing", sshd_server, "--key", "nope", check=2, cwd=keys)
    assert bad.stderr.decode().splitlines() == [f"ascend-workbench: --key nope: no such key file ({keys / 'nope'})"]


def test_host_add_toolkit_accepts_the_install_root_and_its_folders(cli, sshd_server, tmp_path):
    prefix = tmp_path / "Ascend"
    cli("sim", "install", "--prefix", str(prefix), "--cann-version", "7.0.0", "--devices", "2")
    latest, versioned = prefix / "ascend-toolkit" / "latest", prefix / "ascend-toolkit" / "7.0.0"
    forms = {
        "root": (prefix, latest),
        "toolkit-dir": (prefix / "ascend-toolkit", latest),
        "latest": (latest, latest),
        "versioned": (versioned, versioned),
    }
    key = str(sshd_server.client_key)
    for name, (given, _) in forms.items():
        _add(cli, name, sshd_server, "--key", key, "--toolkit", f"{given}/")
    hosts = _hosts(cli)
    assert {n: hosts[n]["toolkit"] for n in forms} == {n: str(stored) for n, (_, stored) in forms.items()}
    for name in forms:
        assert b"Health" in cli("remote", "run", name, "--", "npu-smi", "info").stdout
    nothing = tmp_path / "nothing"
    bad = _add(cli, "bad", sshd_server, "--key", key, "--toolkit", str(nothing), check=2)
    lines = bad.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"ascend-workbench: --toolkit {nothing}: no CANN toolkit there")
    assert "looked for a set_env.sh" in lines[0] and f"{nothing}/ascend-toolkit/latest" in lines[0]
    assert "bad" not in _hosts(cli)


def test_host_add_toolkit_on_an_unreachable_host_is_kept_as_typed(cli, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    out = cli("host", "add", "off", "--hostname", "127.0.0.1", "--port", str(port), "--toolkit", "/usr/local/Ascend")
    assert _hosts(cli)["off"]["toolkit"] == "/usr/local/Ascend"
    note = out.stderr.decode().splitlines()
    assert len(note) == 1 and "was not checked" in note[0] and "connection refused" in note[0]


# --- 5. + 6. deployment creates empty folders and says what it did ----------------------------


def test_deploy_creates_empty_folders_and_summarises(cli, added, tmp_path):
    project = create_project(tmp_path / "proj", name="proj")
    (project.root / "main.py").write_text("print(1)\n")
    (project.root / "dump").mkdir()  # where the runtime writes its dump: must exist on the host
    remote = tmp_path / "remote"
    (remote / "data").mkdir(parents=True)
    (remote / "data" / "set.bin").write_bytes(b"remote only")
    set_project_mappings(project, [Mapping(".", str(remote))])
    project.save()
    dry = cli("deploy", added, "--project", str(project.root), "--dry-run")
    assert dry.stdout.decode().strip() == (
        "plan: 1 new, 0 changed, 0 unchanged, 1 folder to create, 1 remote-only (kept), "
        "0 symbolic links skipped (never followed)"
    )
    plan = json.loads(cli("deploy", added, "--project", str(project.root), "--dry-run", "--json").stdout)["plan"]
    assert plan["counts"]["new-folder"] == 1 and {"mapping": 0, "path": "dump", "action": "new-folder"}.items() <= (
        next(i for i in plan["items"] if i["action"] == "new-folder").items()
    )
    assert not (remote / "dump").exists()
    done = cli("deploy", added, "--project", str(project.root))
    assert (
        done.stdout.decode().strip() == "deployed to lb: 1 sent, 1 folder created, 1 kept (only on the host), 0 failed"
    )
    assert (remote / "dump").is_dir() and (remote / "main.py").read_text() == "print(1)\n"
    again = cli("deploy", added, "--project", str(project.root), "--dry-run")
    assert "0 folders to create" in again.stdout.decode()


def test_deploy_reports_failed_files_in_one_line(cli, added, tmp_path):
    project = create_project(tmp_path / "proj", name="proj")
    (project.root / "ok.txt").write_text("fine\n")
    (project.root / "sub").mkdir()
    (project.root / "sub" / "a.txt").write_text("blocked\n")
    remote = tmp_path / "remote"
    remote.mkdir()
    (remote / "sub").write_text("a file where the folder should be")
    set_project_mappings(project, [Mapping(".", str(remote))])
    project.save()
    out = cli("deploy", added, "--project", str(project.root), check=1)
    lines = out.stderr.decode().splitlines()
    assert (
        len(lines) == 1
        and "deployment incomplete: 1 sent, 0 folders created, 1 kept (only on the host), 1 failed: sub/a.txt: "
        in lines[0]
    )
    assert (remote / "ok.txt").read_text() == "fine\n", "the other files are still sent"


# --- errors are one line, never a traceback ---------------------------------------------------


def test_a_host_that_is_no_ssh_server_gives_one_line(cli, tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    stop = threading.Event()

    def refuse() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            conn.close()

    thread = threading.Thread(target=refuse)
    thread.start()
    try:
        cli("host", "add", "nossh", "--hostname", "127.0.0.1", "--port", str(server.getsockname()[1]))
        out = cli("remote", "run", "nossh", "--", "true", check=1)
    finally:
        stop.set()
        thread.join()
        server.close()
    lines = out.stderr.decode().splitlines()
    assert len(lines) == 1 and "SSH handshake failed" in lines[0], out.stderr.decode()
