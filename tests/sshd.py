"""A real OpenSSH server on 127.0.0.1 for tests (no Qt, no network beyond loopback).

``SshServer`` starts ``/usr/sbin/sshd -D -e -f <tmp>/sshd_config`` on a free port with its own
ed25519 host key and an ``authorized_keys`` holding a generated client key; it runs as the
current user (root in CI, hence ``PermitRootLogin yes``), ``StrictModes no``, ``UsePAM no``.
``kill()`` SIGKILLs the listener *and* every per-connection sshd (an abrupt server death);
``start()`` brings it back on the same port with the same keys.

Fixtures (imported by tests/core/services/conftest.py):
``sshd_server`` (session), ``ssh_home`` (HOME and the app's config pointed at temp dirs, the server
key trusted in the app's known_hosts), ``ssh_host`` (a :class:`Host` using the client key) and
``ssh_transport`` (a connected ``SshTransport``, closed after the test).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

SSHD = "/usr/sbin/sshd"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


class SshServer:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.user = os.environ.get("USER") or __import__("getpass").getuser()
        self.port = _free_port()
        self.host_key = root / "ssh_host_ed25519_key"
        self.client_key = root / "client_ed25519"
        self.other_key = root / "other_ed25519"  # never authorised: the "wrong key"
        self.config = root / "sshd_config"
        self.log = root / "sshd.log"
        self.proc: subprocess.Popen[bytes] | None = None
        for key in (self.host_key, self.client_key, self.other_key):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", key.name, "-f", str(key)], check=True)
        (root / "authorized_keys").write_text(Path(f"{self.client_key}.pub").read_text())
        sftp = "/usr/lib/openssh/sftp-server" if Path("/usr/lib/openssh/sftp-server").exists() else "internal-sftp"
        self.config.write_text(
            "\n".join(
                [
                    f"Port {self.port}",
                    "ListenAddress 127.0.0.1",
                    f"HostKey {self.host_key}",
                    f"PidFile {root / 'sshd.pid'}",
                    f"AuthorizedKeysFile {root / 'authorized_keys'}",
                    "StrictModes no",
                    "PermitRootLogin yes",
                    "UsePAM no",
                    "PasswordAuthentication yes",
                    "KbdInteractiveAuthentication no",
                    "PubkeyAuthentication yes",
                    f"Subsystem sftp {sftp}",
                    "MaxSessions 100",
                    "MaxStartups 100",
                    "LogLevel ERROR",
                    "ClientAliveInterval 0",
                ]
            )
            + "\n"
        )

    @property
    def host_key_line(self) -> str:
        kind, b64 = Path(f"{self.host_key}.pub").read_text().split()[:2]
        return f"[127.0.0.1]:{self.port} {kind} {b64}"

    def host(self, name: str = "loop", **fields):
        """This server as a configured CANN machine (key login as the test user); ``fields`` adds
        e.g. ``toolkit``."""
        from workbench.core.services.hosts import Host

        return Host(
            name=name,
            hostname="127.0.0.1",
            port=self.port,
            user=self.user,
            auth="key",
            key_file=str(self.client_key),
            **fields,
        )

    def start(self) -> None:
        if self.running:
            return
        Path("/run/sshd").mkdir(parents=True, exist_ok=True)
        log = open(self.log, "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [SSHD, "-D", "-e", "-f", str(self.config)],
            stdout=log,
            stderr=log,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"sshd exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"sshd did not listen on port {self.port}: {self.log.read_text()[-2000:]}")

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Abrupt death: SIGKILL the listener and every per-connection sshd it spawned (the users'
        commands survive as orphans, as when a server's sshd crashes or the network drops)."""
        if self.proc is None:
            return
        victims = [self.proc.pid] + [p for p in _children(self.proc.pid) if _comm(p).startswith("sshd")]
        for pid in victims:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc = None

    stop = kill

    def session_pids(self) -> list[int]:
        return _children(self.proc.pid) if self.proc else []


@pytest.fixture(scope="session")
def sshd_server(tmp_path_factory: pytest.TempPathFactory):
    if not Path(SSHD).exists() or shutil.which("ssh-keygen") is None:
        pytest.skip("openssh-server is not installed (apt-get install openssh-server)")
    server = SshServer(tmp_path_factory.mktemp("sshd"))
    server.start()
    yield server
    server.kill()


@pytest.fixture
def ssh_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sshd_server: SshServer, isolated_home: Path) -> Path:
    """HOME in a temp dir (no real ~/.ssh, no agent), the server key trusted in the app's known_hosts."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    sshd_server.start()  # a previous test may have killed it
    from workbench.core.services.knownhosts import app_known_hosts

    app_known_hosts().parent.mkdir(parents=True, exist_ok=True)
    app_known_hosts().write_text(sshd_server.host_key_line + "\n")
    return home


@pytest.fixture
def ssh_host(ssh_home: Path, sshd_server: SshServer):
    return sshd_server.host("loopback")


@pytest.fixture
def ssh_transport(ssh_host):
    from workbench.core.services.ssh import SshTransport

    tr = SshTransport(ssh_host)
    yield tr
    tr.close()
