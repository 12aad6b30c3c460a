"""Fixtures for the cluster tests: the real sshd of tests/sshd.py (the Dask cluster started over SSH)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/ (it has no __init__.py)

import pytest  # noqa: E402
from sshd import SshServer, ssh_home, ssh_host, sshd_server  # noqa: E402,F401


@pytest.fixture
def no_workbench_python(tmp_path) -> str:
    """A remote Python that cannot import workbench (nor these tests): a CANN host as it really is."""
    folder = tmp_path / "remote-site"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(
        "import sys\n"
        "class _NotInstalled:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('workbench', 'cluster'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}')\n"
        "        return None\n"
        "sys.meta_path.insert(0, _NotInstalled())\n"
    )
    return f"PYTHONPATH={folder} {sys.executable}"
