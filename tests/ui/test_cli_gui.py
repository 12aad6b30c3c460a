"""The installed entry points: --version agrees, --screenshot renders the real window (en, zh_CN),
offscreen and in a real X server (Xvfb)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage

from workbench import __version__


def _run(args, env=None, timeout=120):
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=full_env)


def test_version_from_both_entry_points():
    exe = shutil.which("ascend-workbench")
    assert exe, "the console script is installed with the package"
    a = _run([exe, "--version"])
    b = _run([sys.executable, "-m", "workbench", "--version"])
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout == f"ascend-workbench {__version__}\n"


def _image_stats(path):
    img = QImage(str(path))
    assert not img.isNull()
    colors = {img.pixel(x, y) for x in range(0, img.width(), 7) for y in range(0, img.height(), 7)}
    return img.width(), img.height(), len(colors)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_screenshot_offscreen(tmp_path, lang, isolated_home):
    out = tmp_path / f"main_{lang}.png"
    env = {"QT_QPA_PLATFORM": "offscreen", "ASCEND_WORKBENCH_HOME": str(isolated_home)}
    res = _run([sys.executable, "-m", "workbench", "--screenshot", str(out), "--lang", lang, "--size", "1400x900"], env)
    assert res.returncode == 0, res.stderr
    w, h, ncolors = _image_stats(out)
    assert (w, h) == (1400, 900)
    assert ncolors > 20, "the picture has real content, not a blank window"


def test_screenshot_in_real_x_server(tmp_path, isolated_home):
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        pytest.fail("xvfb-run is missing: install the 'xvfb' package (tests/run-all.sh does)")
    out = tmp_path / "xcb.png"
    env = {"QT_QPA_PLATFORM": "xcb", "ASCEND_WORKBENCH_HOME": str(isolated_home)}
    env_args = [f"{k}={v}" for k, v in env.items()]
    res = _run(
        [
            xvfb,
            "-a",
            "-s",
            "-screen 0 1600x1000x24",
            "env",
            *env_args,
            sys.executable,
            "-m",
            "workbench",
            "--screenshot",
            str(out),
            "--size",
            "1400x900",
        ],
        timeout=180,
    )
    assert res.returncode == 0, res.stderr
    w, h, ncolors = _image_stats(out)
    assert (w, h) == (1400, 900) and ncolors > 20


def test_screenshot_opens_a_given_project(tmp_path, isolated_home):
    from workbench.core.project import create_project

    create_project(tmp_path / "proj")
    (tmp_path / "proj" / "acl.json").write_text("{}")
    out = tmp_path / "p.png"
    res = _run(
        [sys.executable, "-m", "workbench", "--screenshot", str(out), "--open", str(tmp_path / "proj")],
        {"QT_QPA_PLATFORM": "offscreen", "ASCEND_WORKBENCH_HOME": str(isolated_home)},
    )
    assert res.returncode == 0, res.stderr
    from workbench.core import settings

    os.environ["ASCEND_WORKBENCH_HOME"] = str(isolated_home)
    saved, _ = settings.load()
    assert saved.last_project == str((tmp_path / "proj").resolve())


def test_no_display_says_how_to_start(isolated_home):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["ASCEND_WORKBENCH_HOME"] = str(isolated_home)
    res = subprocess.run([sys.executable, "-m", "workbench"], capture_output=True, text=True, timeout=60, env=env)
    assert res.returncode == 2
    assert "no display found" in res.stderr and "xvfb-run" in res.stderr
