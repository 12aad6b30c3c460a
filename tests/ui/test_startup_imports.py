"""The interactive start (``ascend-workbench``, ``ascend-workbench --open PATH``) paints its window
before it imports the heavy modules (pandas, numpy, pyqtgraph, paramiko), then still opens the demo
report or the given report; after a session that saved the window layout, it also paints before the
CANN Machine dock's panel is built. Each case is a fresh process driving the real entry point
(``workbench.cli.main``); an application-wide event filter notes ``sys.modules`` at the main
window's first paint and waits until the report document is ready. No timing here: the start-up
figures live in benchmarks/bench_startup.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("pandas", "numpy", "pyqtgraph", "paramiko", "pyarrow", "duckdb")

# Runs `ascend-workbench ARGS…` in this process, watching it from outside the app's code.
DRIVER = """
import gc, json, os, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

HEAVY = %(heavy)r
app = QApplication([sys.argv[0]])  # create_app() takes this one over
seen = {}

def loaded():
    return sorted(m for m in HEAVY if m in sys.modules)

def report_ready():
    doc = seen["window"].documents.currentWidget()
    if type(doc).__name__ == "ReportDocument" and doc.ready:
        print("RESULT " + json.dumps({"at_first_paint": seen["at_first_paint"], "opened": str(doc.report.source),
                                      "at_open": loaded(), "hosts_at_first_paint": seen["hosts_at_first_paint"],
                                      "host_dock": type(seen["window"].docks["HostDock"].widget()).__name__,
                                      "gc": [seen["gc_at_first_paint"], gc.isenabled()]}),
              flush=True)
        os._exit(0)

class Watch(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and obj.objectName() == "MainWindow" and "window" not in seen:
            seen["at_first_paint"] = loaded()
            seen["hosts_at_first_paint"] = sorted(m for m in sys.modules if m.startswith("workbench.ui.hosts."))
            seen["gc_at_first_paint"] = gc.isenabled()
            seen["window"] = obj
            poll = QTimer(app)
            poll.timeout.connect(report_ready)
            poll.start(20)
        return False

watch = Watch()
app.installEventFilter(watch)
def give_up():
    print("RESULT " + json.dumps({"error": "no report document within 90 s", "seen": sorted(seen)}), flush=True)
    os._exit(3)
QTimer.singleShot(90000, give_up)
from workbench import cli
sys.exit(cli.main(%(argv)r))
"""


def _start(argv: list[str], home: Path) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "ASCEND_WORKBENCH_HOME": str(home)}
    env.pop("WORKBENCH_STARTUP_PROBE", None)
    code = DRIVER % {"heavy": HEAVY, "argv": argv}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, env=env)
    lines = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
    assert lines, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    result = json.loads(lines[-1][len("RESULT ") :])
    assert "error" not in result, (result, proc.stderr)
    return result


@pytest.fixture(scope="module")
def first_start(tmp_path_factory) -> tuple[dict, Path]:
    """``ascend-workbench`` on a first start: the demo project and its sample report open."""
    home = tmp_path_factory.mktemp("first-start-home")
    return _start([], home), home


@pytest.fixture(scope="module")
def open_report(tmp_path_factory) -> tuple[dict, Path]:
    """``ascend-workbench --no-demo --open PROF_…``."""
    from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof

    tmp = tmp_path_factory.mktemp("open-report")
    prof = write_msprof_prof(tmp / "out", resnet50_workload(kind="model"))
    return _start(["--no-demo", "--open", str(prof)], tmp / "home"), prof


# A session the user closed: its window layout (and the dock panels' sizes) saved in the home.
SAVE_LAYOUT = """
from workbench.ui.app import build_window, create_app
app, settings, problems = create_app()
window = build_window(settings, problems, [], demo=False)
window.show()
app.processEvents()
window.close()
"""


@pytest.fixture(scope="module")
def saved_layout(tmp_path_factory) -> tuple[dict, Path]:
    """``ascend-workbench --no-demo --open PROF_…`` after a session that saved its window layout."""
    from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof

    tmp = tmp_path_factory.mktemp("saved-layout")
    prof = write_msprof_prof(tmp / "out", resnet50_workload(kind="model"))
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "ASCEND_WORKBENCH_HOME": str(tmp / "home")}
    subprocess.run([sys.executable, "-c", SAVE_LAYOUT], env=env, capture_output=True, check=True, timeout=180)
    return _start(["--no-demo", "--open", str(prof)], tmp / "home"), prof


def test_first_start_paints_before_pandas_numpy_pyqtgraph_then_opens_the_demo_report(first_start):
    result, home = first_start
    assert not {"pandas", "numpy", "pyqtgraph", "pyarrow", "duckdb"} & set(result["at_first_paint"]), result
    assert Path(result["opened"]).resolve().is_relative_to(home.resolve()), result  # the demo project's report
    assert {"pandas", "numpy", "pyqtgraph"} <= set(result["at_open"]), "warmed up before the report opened"


def test_open_path_paints_before_pandas_numpy_pyqtgraph_then_opens_it(open_report):
    result, prof = open_report
    assert not {"pandas", "numpy", "pyqtgraph", "pyarrow", "duckdb"} & set(result["at_first_paint"]), result
    assert Path(result["opened"]).resolve() == prof.resolve()


def test_the_collector_waits_for_the_first_paint_and_runs_again_after_it(first_start, saved_layout):
    """No garbage-collector passes over the start-up's modules and widgets (they live as long as the
    app) until the window is painted; from then on it collects again."""
    assert first_start[0]["gc"] == [False, True], first_start[0]
    assert saved_layout[0]["gc"] == [False, True], saved_layout[0]


def test_first_paint_comes_before_paramiko(first_start, open_report):
    assert "paramiko" not in first_start[0]["at_first_paint"], first_start[0]
    assert "paramiko" not in open_report[0]["at_first_paint"], open_report[0]


def test_a_saved_layout_paints_before_the_cann_machine_panel_then_builds_it(saved_layout, first_start):
    """The CANN Machine dock (behind Properties) gets its panel after the first paint when the last
    session saved the panel's size (~25 ms of host, run-configuration and toolkit modules); a first
    start builds it before the paint (nothing tells its size)."""
    result, prof = saved_layout
    assert not {"pandas", "numpy", "pyqtgraph", "paramiko"} & set(result["at_first_paint"]), result
    assert not {"workbench.ui.hosts.host_panel", "workbench.ui.hosts.machines_dialog"} & set(
        result["hosts_at_first_paint"]
    ), result
    assert result["host_dock"] == "HostPanel", result  # built before the report opened
    assert Path(result["opened"]).resolve() == prof.resolve()
    assert "workbench.ui.hosts.host_panel" in first_start[0]["hosts_at_first_paint"], first_start[0]
