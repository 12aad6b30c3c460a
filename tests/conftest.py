"""Shared fixtures. Nothing here imports Qt: tests/core must run with PySide6 blocked."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

if os.environ.get("WORKBENCH_BLOCK_QT") == "1":
    # The Qt-free pass: make Qt unimportable so any Qt import reachable from core fails loudly.
    import sys

    class _BlockQt:
        BLOCKED = ("PySide6", "shiboken6", "pyqtgraph", "PyQt5", "PyQt6")

        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in self.BLOCKED:
                raise ImportError(f"{name} is blocked: workbench.core must not import Qt")
            return None

    sys.meta_path.insert(0, _BlockQt())

ROOT = Path(__file__).resolve().parent.parent
# ../shared beside the project root (CI copies it there); SHARED_DIR overrides.
SHARED = Path(os.environ.get("ASCEND_WORKBENCH_SHARED", ROOT.parent / "shared"))
SAMPLES = SHARED / "samples"


@pytest.fixture(autouse=True, scope="session")
def wired() -> None:
    """The composition root the CLI and the GUI run (``workbench.wiring``): the demo host gets its
    simulated toolkit and ``sim`` is listed as a verb. Core does not know the simulated toolkit."""
    from workbench import wiring

    wiring.install()


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own config/state/cache dirs: never the real user's."""
    home = tmp_path_factory.mktemp("wbhome")
    monkeypatch.setenv("ASCEND_WORKBENCH_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def no_thread_leaks():
    """Fail a test that leaves a worker thread running."""
    before = set(threading.enumerate())
    yield
    deadline = 5.0
    import time

    start = time.monotonic()
    while True:
        leaked = [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
        if not leaked or time.monotonic() - start > deadline:
            break
        time.sleep(0.02)
    assert not leaked, f"threads outlived the test: {[t.name for t in leaked]}"


@pytest.fixture(scope="session")
def samples() -> Path:
    if not SAMPLES.is_dir():
        pytest.fail(f"real CANN samples not found at {SAMPLES} (expected ../shared/samples beside the repo)")
    return SAMPLES


@pytest.fixture
def fake_path(tmp_path: Path) -> tuple[Path, Path]:
    """Two PATH folders for preflight tests: one holding only bash (the run wrapper needs it), one
    also holding stand-in perf and ltrace."""
    bare, full = tmp_path / "bin-bare", tmp_path / "bin-full"
    for folder in (bare, full):
        folder.mkdir()
        os.symlink("/bin/bash", folder / "bash")
    for tool in ("perf", "ltrace"):
        (full / tool).write_text("#!/bin/bash\nexit 0\n")
        (full / tool).chmod(0o755)
    return bare, full
