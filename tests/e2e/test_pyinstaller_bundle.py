"""packaging/ builds a one-folder PyInstaller bundle whose --version and --screenshot work.

The slowest test of the suite (about 2 minutes on 2 cores); it runs in CI like every other.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from workbench import __version__

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bundle_builds_and_runs(tmp_path, isolated_home):
    pyinstaller = shutil.which("pyinstaller")
    assert pyinstaller, "pyinstaller is a test dependency (pip install -e .[test])"
    build = subprocess.run(
        [
            pyinstaller,
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(tmp_path / "dist"),
            "--workpath",
            str(tmp_path / "build"),
            str(ROOT / "packaging" / "ascend-workbench.spec"),
        ],
        capture_output=True,
        text=True,
        timeout=1500,
        cwd=tmp_path,
    )
    assert build.returncode == 0, build.stderr[-4000:]
    exe = tmp_path / "dist" / "ascend-workbench" / "ascend-workbench"
    assert exe.is_file()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "ASCEND_WORKBENCH_HOME": str(isolated_home)}
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=120, env=env)
    assert version.returncode == 0 and version.stdout.strip() == f"ascend-workbench {__version__}"
    shot = tmp_path / "bundle.png"
    run = subprocess.run(
        [str(exe), "--screenshot", str(shot), "--lang", "zh_CN", "--size", "1400x900"],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    img = QImage(str(shot))
    assert (img.width(), img.height()) == (1400, 900)
    # the bundle carries its resources: the zh_CN catalogue was found (menu text differs from English)
    assert (exe.parent / "_internal" / "workbench" / "resources" / "translations" / "workbench_zh_CN.qm").exists()
