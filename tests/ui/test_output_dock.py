"""Output dock: lines are coloured by the level they state (msaccucmp's logging lines, ATC's error
codes, plog levels), not by their stream; a line that states none keeps its stream's colour."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit

from workbench.core.dump.aclconfig import DumpSettings
from workbench.core.dump.omjson import read_om_json
from workbench.simtoolkit.dumpwriter import write_golden, write_model_dump

MODEL = "atc-om2json-310-cann5.1/model.json"
PLAIN = None
ERROR_COLOUR, WARNING_COLOUR, DEBUG_COLOUR = "#c0392b", "#b9770e", "#7f8c8d"  # the dock's red, amber, grey


def _colours(view: QPlainTextEdit) -> list[tuple[str, str | None]]:
    """(text, foreground colour or None for the default) of every line of ``view``."""
    out = []
    block = view.document().begin()
    while block.isValid():
        it = block.begin()
        brush = it.fragment().charFormat().foreground() if not it.atEnd() else None
        colour = brush.color().name() if brush is not None and brush.style() != Qt.BrushStyle.NoBrush else None
        out.append((block.text(), colour))
        block = block.next()
    return out


def _tab(window, qtbot, title_part: str) -> QPlainTextEdit:
    tabs = window.output.tabs

    def found():
        return next((tabs.widget(i) for i in range(tabs.count()) if title_part in tabs.tabText(i)), None)

    qtbot.waitUntil(lambda: found() is not None, timeout=10000)
    return found()


# Real formats: msaccucmp's logging.Formatter("%(asctime)s (pid) - [%(levelname)s] %(message)s"),
# ATC's console (docs/cann-formats.md §6.2) and plog lines (§8.4).
LINES = [
    ("stderr", "2025-03-18 09:02:18 (10490) - [INFO] Start to compare the dump data.", PLAIN),
    ("stderr", "2025-03-18 09:02:19 (10490) - [WARNING] The -v argument will be deprecated.", WARNING_COLOUR),
    ("stderr", "2025-03-18 09:02:19 (10490) - [ERROR] The path /data/npu does not exist.", ERROR_COLOUR),
    ("stderr", "2025-03-18 09:02:20 (10490) - [INFO] The command was completed and took 2 seconds.", PLAIN),
    ("stdout", "ATC start working now, please wait for a moment.", PLAIN),
    ("stdout", "ATC run failed, Please check the detail log, Try 'atc --help' for more information", ERROR_COLOUR),
    ("stdout", "EZ3003: No supported Ops kernel and engine are found for [AddDsl], optype [AddDsl].", ERROR_COLOUR),
    ("stdout", "        Possible Cause: The operator is not supported by the system.", ERROR_COLOUR),
    ("stdout", "        TraceBack (most recent call last):", ERROR_COLOUR),
    ("stderr", "E10007: [PID: 10490] 2025-03-18-09:02:18.501.341 [--framework] is required.", ERROR_COLOUR),
    ("stdout", "W11001: Op [Slice_29] does not hit the high-priority operator information library.", WARNING_COLOUR),
    ("stderr", "[INFO] RUNTIME(901649,app):2026-06-13-17:00:33.663.068 [runtime.cc:120]902058 init ok", PLAIN),
    ("stderr", "[DEBUG] GE(901649,app):2026-06-13-17:00:33.663.070 [graph.cc:12]902058 built", DEBUG_COLOUR),
    ("stdout", "[ERROR] RUNTIME(901649,app):2026-06-13-17:00:33.663.068 [engine.cc:15]9020 Task failed", ERROR_COLOUR),
    ("stderr", "Traceback (most recent call last):", ERROR_COLOUR),  # no level stated: stderr stays red
    ("stdout", "result_20250318090220.csv written", PLAIN),  # no level stated: stdout stays plain
]  # fmt: skip


def test_lines_are_coloured_by_the_level_they_state(window, qtbot):
    def emit(*, progress, cancel):
        for stream, line, _colour in LINES:
            progress.partial((stream, line))

    task = window.context.bridge.start(emit, title="Levels check", kind="job")
    with qtbot.waitSignal(task.finished, timeout=10000):
        pass
    view = _tab(window, qtbot, "Levels check")
    qtbot.waitUntil(lambda: any(t == LINES[-1][1] for t, _c in _colours(view)), timeout=5000)
    shown = {t: c for t, c in _colours(view)}
    assert [(line, shown[line]) for _s, line, _c in LINES] == [(line, colour) for _s, line, colour in LINES]


@pytest.fixture
def dump_data(samples, tmp_path):
    model = read_om_json(samples / MODEL)
    files = write_model_dump(
        model, DumpSettings(option="all", model_name=model.name, dump_mode="output"), tmp_path / "npu"
    )
    write_golden(files, tmp_path / "golden")
    return tmp_path / "npu", tmp_path / "golden"


def test_msaccucmp_info_lines_of_a_comparison_on_the_demo_host_are_not_red(window, qtbot, samples, dump_data):
    from workbench.ui.dump.accuracy import AccuracyAnalyzer

    npu, golden = dump_data
    window.menu_entries()["Ascend/Model Accuracy Analyzer…"].trigger()
    view = window.documents.currentWidget()
    assert isinstance(view, AccuracyAnalyzer)
    for edit, text in ((view.npu.edit, npu), (view.golden.edit, golden), (view.rule.edit, samples / MODEL)):
        edit.setFocus()
        qtbot.keyClicks(edit, str(text))
    # Run on: the demo host's msaccucmp.py, chosen with the keyboard.
    index = view.where.findData("demo")
    assert index > 0
    view.where.setFocus()
    qtbot.keyClick(view.where, Qt.Key.Key_Home)
    for _ in range(index):
        qtbot.keyClick(view.where, Qt.Key.Key_Down)
    assert view.where.currentData() == "demo"
    qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "compared" in view.status.text() and view.run_button.isEnabled(), timeout=120000)
    lines = _colours(_tab(window, qtbot, "on demo"))
    info = [(t, c) for t, c in lines if " - [INFO] " in t]
    assert any("The command was completed" in t for t, _c in info), lines
    assert all(c is None for _t, c in info), info
