"""Fixtures for the remote-host services: the real sshd from tests/sshd.py."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/ (it has no __init__.py)

from sshd import SshServer, ssh_home, ssh_host, ssh_transport, sshd_server  # noqa: E402,F401
