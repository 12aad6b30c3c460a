"""Benchmark: whole-process start-up of the command line, side by side with ``python3 -c pass``.

Run: ``python benchmarks/bench_startup.py [--runs N] [--report PATH]``. Each case is a fresh
process (what a user or a script pays per call); the best of ``--runs`` is the code's own cost on
a shared machine, the median is shown beside it. ``--report`` adds ``report info`` on that report
(opened once first so its cache is warm). Targets (issue #18): ``--version``, ``--help`` and every
``<verb> --help`` ≤ 0.15 s, ``report info`` on a cached 1 GB report ≤ 0.3 s, the window's first paint
≤ 2× a bare PySide6 window with docks.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

BARE_WINDOW = """
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QPlainTextEdit, QTabWidget, QTreeView
app = QApplication([])
w = QMainWindow()
w.setCentralWidget(QTabWidget())
for title, area in (("Explorer", Qt.DockWidgetArea.LeftDockWidgetArea),
                    ("Properties", Qt.DockWidgetArea.RightDockWidgetArea),
                    ("Output", Qt.DockWidgetArea.BottomDockWidgetArea)):
    d = QDockWidget(title, w)
    d.setWidget(QTreeView() if title == "Explorer" else QPlainTextEdit())
    w.addDockWidget(area, d)
for m in ("File", "Edit", "View", "Ascend", "Help"):
    w.menuBar().addMenu(m).addAction("Item")
class Probe(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            print("painted", flush=True)
            QTimer.singleShot(0, app.quit)
            obj.removeEventFilter(self)
        return False
probe = Probe()
w.installEventFilter(probe)
w.resize(1400, 900)
w.show()
app.exec()
"""


def until_painted(cmd: list[str], runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Seconds from spawning ``cmd`` until it prints "painted" (its first paint of the window)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.strip() == "painted":
                times.append(time.perf_counter() - start)
                break
        proc.wait(timeout=60)
    if not times:
        raise SystemExit(f"{cmd}: never painted")
    return min(times), statistics.median(times)


def whole_process(cmd: list[str], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def _verbs() -> list[str]:
    """Every verb, the simulated toolkit's too (the registry imports nothing heavy)."""
    from workbench import wiring
    from workbench.core.verbs import VERB_HOMES

    wiring.install()
    return sorted(VERB_HOMES)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--report", help="a report to time `report info` on (cache warmed first)")
    ap.add_argument("--no-gui", action="store_true", help="skip the window cases")
    args = ap.parse_args()
    py = sys.executable
    cases = [
        ("python3 -c pass", [py, "-c", "pass"]),
        ("python3 -c 'import numpy'", [py, "-c", "import numpy"]),
        ("ascend-workbench --version", [py, "-m", "workbench", "--version"]),
        ("ascend-workbench --help", [py, "-m", "workbench", "--help"]),
    ]
    cases += [(f"ascend-workbench {verb} --help", [py, "-m", "workbench", verb, "--help"]) for verb in _verbs()]
    if args.report:
        subprocess.run([py, "-m", "workbench", "report", "info", args.report], capture_output=True, check=False)
        cases.append(("report info (cached)", [py, "-m", "workbench", "report", "info", args.report]))
    base = None
    print(f"{'case':<38} {'best':>8} {'median':>8}  vs python3 -c pass")
    for label, cmd in cases:
        best, median = whole_process(cmd, args.runs)
        base = base or best
        print(f"{label:<38} {best:7.3f}s {median:7.3f}s  {best / base:5.1f}x")
    if args.no_gui:
        return 0
    home = tempfile.mkdtemp(prefix="wb-startup-home-")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "WORKBENCH_STARTUP_PROBE": "1", "ASCEND_WORKBENCH_HOME": home}
    gui = [
        ("bare PySide6 window with docks", [py, "-c", BARE_WINDOW]),
        ("workbench window (--no-demo)", [py, "-m", "workbench", "--no-demo"]),
        ("workbench first start (demo)", [py, "-m", "workbench"]),
    ]
    bare = None
    print(f"{'first paint of the window':<38} {'best':>8} {'median':>8}  vs the bare window")
    for label, cmd in gui:
        best, median = until_painted(cmd, args.runs, env)
        bare = bare or best
        print(f"{label:<38} {best:7.3f}s {median:7.3f}s  {best / bare:5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
