"""Fixtures for the remote-host services: the real sshd from tests/sshd.py, and the CLI run as a
real process (``cli``) with a host ``lb`` added on that sshd (``added``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/ (it has no __init__.py)

from sshd import SshServer, ssh_home, ssh_host, ssh_transport, sshd_server  # noqa: E402,F401

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def cli_env(ssh_home, isolated_home) -> dict[str, str]:
    """The environment `ascend-workbench` runs in: this checkout, the test's HOME and app folders."""
    env = dict(os.environ, HOME=str(ssh_home), ASCEND_WORKBENCH_HOME=str(isolated_home), PYTHONPATH=str(ROOT))
    env.pop("SSH_AUTH_SOCK", None)
    return env


@pytest.fixture
def cli(cli_env):
    def run(*args: str, check: int | None = 0, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
        proc = subprocess.run(
            [sys.executable, "-m", "workbench", *args],
            capture_output=True,
            env=cli_env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
        if check is not None:
            assert proc.returncode == check, proc.stderr.decode(errors="replace")
        return proc

    return run


@pytest.fixture
def added(cli, sshd_server):
    from workbench.core.services.knownhosts import app_known_hosts

    app_known_hosts().unlink()  # `host add --accept-new-host-key` must learn it
    out = cli(
        "host",
        "add",
        "lb",
        "--hostname",
        "127.0.0.1",
        "--port",
        str(sshd_server.port),
        "--user",
        sshd_server.user,
        "--key",
        str(sshd_server.client_key),
        "--accept-new-host-key",
        "--json",
    )
    assert json.loads(out.stdout)["added"]["name"] == "lb"
    assert "SHA256:" in out.stderr.decode()
    assert app_known_hosts().read_text().split() == sshd_server.host_key_line.split()
    return "lb"
