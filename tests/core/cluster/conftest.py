"""Fixtures for the cluster tests: the real sshd of tests/sshd.py (the Dask cluster started over SSH)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/ (it has no __init__.py)

from sshd import SshServer, ssh_home, ssh_host, sshd_server  # noqa: E402,F401
