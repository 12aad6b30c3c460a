"""workbench.core never imports Qt: the import-linter contract, and an import with Qt blocked."""

from __future__ import annotations

import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import workbench.core

ROOT = Path(__file__).resolve().parents[3]

BLOCKER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph'):
            raise ImportError('blocked ' + name)
sys.meta_path.insert(0, Block())
import importlib, pkgutil, workbench.core, workbench.cli
names = [m.name for m in pkgutil.walk_packages(workbench.core.__path__, 'workbench.core.')]
for n in names:
    importlib.import_module(n)
import workbench.simtoolkit
print(len(names))
"""


def test_every_core_module_imports_with_qt_blocked():
    out = subprocess.run([sys.executable, "-c", BLOCKER], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    expected = len(list(pkgutil.walk_packages(workbench.core.__path__, "workbench.core.")))
    assert int(out.stdout.strip()) == expected > 5


def test_import_linter_contract_holds():
    exe = shutil.which("lint-imports")
    assert exe, "import-linter is a test dependency (pip install -e .[test])"
    out = subprocess.run(
        [exe, "--config", str(ROOT / "pyproject.toml")], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "core is Qt-free KEPT" in out.stdout
