"""Fixtures for the System Profiler: the real sshd (tests/sshd.py), simulated toolkits of an old
(summary/timeline) and a new (mindstudio_profiler_output) CANN, a small Python application."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/ (it has no __init__.py)

from sshd import SshServer, ssh_home, ssh_host, ssh_transport, sshd_server  # noqa: E402,F401

from workbench.simtoolkit.install import install  # noqa: E402

OLD, NEW = "6.0.1", "8.0.RC1"
SOCS = {OLD: "Ascend910", NEW: "Ascend910B2"}


@pytest.fixture(scope="session")
def sim_toolkits(tmp_path_factory) -> dict[str, Path]:
    """CANN version -> toolkit root (``<prefix>/ascend-toolkit/latest``) of a simulated install."""
    out = {}
    for version, soc in SOCS.items():
        prefix = tmp_path_factory.mktemp(f"profsim-{version}") / "Ascend"
        out[version] = install(prefix, cann_version=version, soc_version=soc, devices=2)
    return out


@pytest.fixture
def app_project(tmp_path) -> Path:
    """A small acl-free Python application in a folder (the app project)."""
    root = tmp_path / "app-project"
    root.mkdir()
    (root / "main.py").write_text(
        "import sys\nprint('app says hello', *sys.argv[1:], flush=True)\n"
        "print('app warns', file=sys.stderr, flush=True)\n"
    )
    return root
