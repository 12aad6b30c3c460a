"""Benchmark: whole-process start-up of the command line, side by side with ``python3 -c pass``.

Run: ``python benchmarks/bench_startup.py [--runs N] [--report PATH] [--baseline DIR]``. Each case is
a fresh process (what a user or a script pays per call); the best of ``--runs`` is the code's own cost
on a shared machine, the median is shown beside it. ``--report`` adds ``report info`` on that report
(opened once first so its cache is warm). ``--baseline DIR`` times every case a second time with the
``workbench`` package of another tree (e.g. ``mkdir /tmp/base && git archive HEAD | tar -x -C
/tmp/base``) first on the path, run for run interleaved with this tree's, so that a before/after pair
shares the machine's load. The window is timed on a first start (nothing saved) and on a start after
a session that saved its layout (every start after the first). Targets (issue #18): ``--version``,
``--help`` and every ``<verb> --help`` ≤ 0.15 s, ``report info`` on a cached 1 GB report ≤ 0.3 s,
the window's first paint ≤ 2× a bare PySide6 window with docks.

Byte code: every case runs once untimed first, with byte code written to a cache folder of this run
(``PYTHONPYCACHEPREFIX``), so that what is timed is the code, as an installed app (whose byte code is
compiled when installed) runs it, not the compiling of modules edited since their last ``.pyc``
(with ``PYTHONDONTWRITEBYTECODE`` set, a stale ``.pyc`` is compiled again on every start).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

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


# Every case runs in an empty folder: `python -m` and `-c` put the current folder first on the path,
# which would shadow --baseline's package when run from a checkout.
_TMP = tempfile.TemporaryDirectory(prefix="wb-startup-")  # removed at exit: byte code, homes, the folder below
CWD = os.path.join(_TMP.name, "cwd")
os.makedirs(CWD)


# Run once to leave a saved window layout (geometry, docks) in ASCEND_WORKBENCH_HOME, as a session the
# user closed does.
SAVE_LAYOUT = """
from workbench.ui.app import build_window, create_app
app, settings, problems = create_app()
window = build_window(settings, problems, [], demo=False)
window.show()
app.processEvents()
window._quitting = True
window.close()
"""


def until_painted(cmd: list[str], env: dict[str, str]) -> float:
    """Seconds from spawning ``cmd`` until it prints "painted" (its first paint of the window)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=CWD)
    assert proc.stdout is not None
    painted = None
    for line in proc.stdout:
        if line.strip() == "painted":
            painted = time.perf_counter() - start
            break
    proc.wait(timeout=60)
    if painted is None:
        raise SystemExit(f"{cmd}: never painted")
    return painted


def whole_process(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=CWD, check=False)
    return time.perf_counter() - start


def interleaved(
    measure: Callable[[list[str], dict[str, str]], float], cmd: list[str], envs: list[dict[str, str]], runs: int
) -> list[tuple[float, float]]:
    """(best, median) of ``runs`` timings of ``cmd`` in each of ``envs``: one untimed run each first
    (byte code written, files cached), then run for run alternating between the envs."""
    for env in envs:
        measure(cmd, env)
    times: list[list[float]] = [[] for _ in envs]
    for _ in range(runs):
        for i, env in enumerate(envs):
            times[i].append(measure(cmd, env))
    return [(min(t), statistics.median(t)) for t in times]


def _verbs() -> list[str]:
    """Every verb, the simulated toolkit's too (the registry imports nothing heavy)."""
    from workbench import wiring
    from workbench.core.verbs import VERB_HOMES

    wiring.install()
    return sorted(VERB_HOMES)


def _env(pycache: str, baseline: str | None = None) -> dict[str, str]:
    """This run's environment: byte code written to ``pycache``; ``baseline``'s package first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = pycache
    if baseline:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [baseline, os.environ.get("PYTHONPATH")]))
    return env


def _row(label: str, results: list[tuple[float, float]], base: float) -> str:
    (best, median), *others = results
    text = f"{label:<38} {best:7.3f}s {median:7.3f}s  {best / base:5.1f}x"
    for o_best, o_median in others:
        text += f"   {o_best:7.3f}s {o_median:7.3f}s  {o_best / base:5.1f}x"
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--report", help="a report to time `report info` on (cache warmed first)")
    ap.add_argument("--baseline", metavar="DIR", help="a checkout whose workbench package is timed beside this one")
    ap.add_argument("--no-gui", action="store_true", help="skip the window cases")
    ap.add_argument("--no-cli", action="store_true", help="skip the command-line cases")
    args = ap.parse_args()
    py = sys.executable
    pycache = os.path.join(_TMP.name, "pycache")
    envs = [_env(os.path.join(pycache, "this"))]
    if args.baseline:
        if not os.path.isfile(os.path.join(args.baseline, "workbench", "__init__.py")):
            raise SystemExit(f"--baseline {args.baseline}: expected a checkout holding workbench/__init__.py")
        envs.append(_env(os.path.join(pycache, "baseline"), os.path.abspath(args.baseline)))
    for env in envs:  # which package each column times
        where = subprocess.run(
            [py, "-c", "import workbench; print(workbench.__file__)"], env=env, cwd=CWD, capture_output=True, text=True
        )
        print(f"# timing {where.stdout.strip() or where.stderr.strip()}")
    header = f"{'best':>8} {'median':>8}  {'':6}" + (f"   {'baseline':>8} {'median':>8}" if args.baseline else "")
    if not args.no_cli:
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
        print(f"{'case (x: vs python3 -c pass)':<38} {header}")
        for label, cmd in cases:
            results = interleaved(whole_process, cmd, envs, args.runs)
            base = base or results[0][0]
            print(_row(label, results, base), flush=True)
    if args.no_gui:
        return 0
    gui_env = {"QT_QPA_PLATFORM": "offscreen", "WORKBENCH_STARTUP_PROBE": "1"}
    first = [{**env, **gui_env, "ASCEND_WORKBENCH_HOME": tempfile.mkdtemp(dir=_TMP.name)} for env in envs]
    saved = [{**env, **gui_env, "ASCEND_WORKBENCH_HOME": tempfile.mkdtemp(dir=_TMP.name)} for env in envs]
    for env in saved:  # a window layout saved by an earlier session, as on every start after the first
        subprocess.run([py, "-c", SAVE_LAYOUT], env=env, cwd=CWD, capture_output=True, check=True)
    gui = [
        ("bare PySide6 window with docks", [py, "-c", BARE_WINDOW], first),
        ("workbench window (--no-demo)", [py, "-m", "workbench", "--no-demo"], first),
        ("workbench first start (demo)", [py, "-m", "workbench"], first),
        ("workbench window (saved layout)", [py, "-m", "workbench", "--no-demo"], saved),
    ]
    bare = None
    print(f"{'first paint (x: vs the bare window)':<38} {header}")
    for label, cmd, genvs in gui:
        results = interleaved(until_painted, cmd, genvs, args.runs)
        bare = bare or results[0][0]
        print(_row(label, results, bare), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
