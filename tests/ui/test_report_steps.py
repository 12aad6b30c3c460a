"""The Steps tab of a report document, driven as a user does: File ▸ Open Report… on the real torch_npu
sample (step_trace_time.csv) and on the real trace_view sample (no CSV: computed from its Overlap
Analysis lanes), click the Steps tab, read the bars and the table, hover and click a bar. Numbers are
checked against the files read here with csv / json."""

from __future__ import annotations

import csv
import json
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QPoint, QPointF, Qt
from reportkit import (  # tests/ui is on sys.path
    click_tab,
    open_report,
    open_tab,
    sample_run,
    tab_titles,
    table,
)

# step_trace_time.csv header -> the table's header
HEADERS = {
    "Step": "Step",
    "Computing": "Computing (µs)",
    "Communication(Not Overlapped)": "Communication (Not Overlapped) (µs)",
    "Overlapped": "Overlapped (µs)",
    "Communication": "Communication (µs)",
    "Free": "Free (µs)",
    "Stage": "Stage (µs)",
    "Bubble": "Bubble (µs)",
    "Communication(Not Overlapped and Exclude Receive)": "Communication (Not Overlapped, Exclude Receive) (µs)",
    "Preparing": "Preparing (µs)",
}
SEGMENTS = ("Computing", "Communication(Not Overlapped)", "Free")


@pytest.fixture
def run(tmp_path, samples) -> Path:
    return sample_run(tmp_path, samples)


def open_steps(qtbot, user, window, path: Path, title: str = "Steps"):
    return open_tab(qtbot, user, window, path, title, "steps_tab")


def fmt(value: float) -> str:
    """A number as the tables write it (FrameTable: integers plain, else 3 decimals)."""
    return f"{int(value)}" if float(value).is_integer() else f"{value:.3f}"


def bar_point(chart, i: int, y_ms: float):
    vb = chart.plot.getPlotItem().getViewBox()
    return chart.plot.mapFromScene(vb.mapViewToScene(QPointF(float(i), y_ms)))


def test_steps_from_step_trace_time_bars_table_and_tooltip(qtbot, user, window, run):
    with (run / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv").open(newline="") as fh:
        steps = list(csv.DictReader(fh))
    doc, pane = open_steps(qtbot, user, window, run)
    # the table: every column of the file, in µs as written
    shown = table(pane.table)
    assert len(shown) == len(steps)
    for got, want in zip(shown, steps):
        assert set(got) == set(HEADERS.values())
        for column, header in HEADERS.items():
            assert got[header] == fmt(float(want[column])), header
    assert pane.note.text().startswith(f"Steps: {len(steps)} (read from step_trace_time.csv).")
    # the bars: Computing, Communication (Not Overlapped), Free stacked, in ms; they add up to Stage
    chart = pane.chart
    assert chart.ids == [int(s["Step"]) for s in steps]
    assert [name for name, _h in chart.parts] == ["Computing", "Communication (Not Overlapped)", "Free"]
    assert [chart.legend.items[k][1].text for k in range(len(chart.legend.items))] == [n for n, _h in chart.parts]
    for k, column in enumerate(SEGMENTS):
        assert list(chart.parts[k][1]) == pytest.approx([float(s[column]) / 1000 for s in steps])
    for i, s in enumerate(steps):
        assert chart.totals[i] == pytest.approx(float(s["Stage"]) / 1000, abs=0.001)
    # hover over the Computing segment of the first step: its value in the tooltip
    computing_ms = float(steps[0]["Computing"]) / 1000
    jiggle = [0]

    def hovered() -> (
        bool
    ):  # the mouse moved onto the segment (a pixel apart each time: a move to where it is sends nothing)
        jiggle[0] ^= 1
        qtbot.mouseMove(chart.plot.viewport(), bar_point(chart, 0, computing_ms / 2) + QPoint(jiggle[0], 0))
        return chart.plot.toolTip().startswith(f"Step {steps[0]['Step']}")

    qtbot.waitUntil(hovered, timeout=5000)
    assert f"▶ Computing: {computing_ms:,.3f} ms" in chart.plot.toolTip().split("\n")
    # a click on the bar: this report does not say when the step ran (no timeline): the pane says so
    qtbot.mouseClick(chart.plot.viewport(), Qt.MouseButton.LeftButton, pos=bar_point(chart, 0, computing_ms * 3))
    qtbot.waitUntil(lambda: chart.selected == 0, timeout=5000)
    assert pane.status.text() == (
        f"The report does not record when step {steps[0]['Step']} ran: there is no span to select on the timeline."
    )
    assert doc.tabs.currentWidget() is doc.steps_tab


def test_a_click_on_a_step_selects_its_span_on_the_timeline(qtbot, user, window, run):
    """With a trace beside the files (ProfilerStep#50 as torch_npu writes it), a click on the step's bar
    selects the step's span on the timeline: the Timeline tab, the Selection table of that range."""
    out = run / "ASCEND_PROFILER_OUTPUT"
    start = Decimal("1736408883694000.125")
    events = [
        {"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "Python"}},
        {"ph": "X", "name": "ProfilerStep#50", "pid": 7, "tid": 7, "ts": str(start), "dur": 136581.0, "cat": "cpu_op"},
        {"ph": "X", "name": "aten::mm", "pid": 7, "tid": 7, "ts": str(start + 10), "dur": 50.0, "cat": "cpu_op"},
    ]
    (out / "trace_view.json").write_text(json.dumps(events), encoding="utf-8")
    doc, pane = open_steps(qtbot, user, window, run)
    tl = doc.report.timeline
    chart = pane.chart
    qtbot.mouseClick(chart.plot.viewport(), Qt.MouseButton.LeftButton, pos=bar_point(chart, 0, chart.totals[0] / 2))
    qtbot.waitUntil(lambda: doc.tabs.currentIndex() == 0, timeout=5000)
    tv = doc.timeline_view
    t0 = int(start * 1000) - tl.origin_ns
    t1 = t0 + 136_581_000
    assert tv.selection_range is not None and tv.selection_range[:2] == (t0, t1)
    assert doc.data_tabs.currentWidget() is doc.selection
    names = {r["Name"] for r in table(doc.selection)}
    assert {"ProfilerStep#50", "aten::mm"} <= names
    a, b = tv.x_range()
    assert a <= t0 and t1 <= b  # zoomed to the step
    assert pane.status.text() == "Step 50 selected on the timeline."


def test_steps_computed_from_the_overlap_analysis_lanes(qtbot, user, window, samples, tmp_path):
    """The real trace_view sample has no step_trace_time.csv: the steps come from its Overlap Analysis
    lanes (Computing, Communication, Communication(Not Overlapped), Free) within ProfilerStep#1."""
    trace = tmp_path / "trace_view.json"
    shutil.copy(samples / "torch_npu-trace_view" / "trace_view.json", trace)
    events = json.loads(trace.read_text())
    overlap = next(e["pid"] for e in events if e.get("ph") == "M" and e["args"].get("name") == "Overlap Analysis")
    lanes = {
        e["tid"]: e["args"]["name"]
        for e in events
        if e.get("ph") == "M" and e.get("pid") == overlap and e["name"] == "thread_name"
    }
    totals = {name: 0.0 for name in lanes.values()}
    for e in events:
        if e.get("ph") == "X" and e.get("pid") == overlap:
            totals[lanes[e["tid"]]] += float(e["dur"])
    steps = [e for e in events if str(e.get("name", "")).startswith("ProfilerStep#")]
    doc, pane = open_steps(qtbot, user, window, trace)
    assert pane.note.text().startswith("Steps: 1 (computed from the timeline's Overlap Analysis lanes).")
    (row,) = table(pane.table)
    assert row["Step"] == steps[0]["name"].split("#")[1]
    # summed per slice in ns by the timeline, in floating µs here: equal to a few ns
    assert float(row["Computing (µs)"]) == pytest.approx(totals["Computing"], abs=0.05)
    assert float(row["Free (µs)"]) == pytest.approx(totals["Free"], abs=0.05)
    assert float(row["Communication (µs)"]) == pytest.approx(totals.get("Communication", 0.0), abs=0.05)
    assert pane.chart.ids == [int(row["Step"])]
    assert "Memory" not in tab_titles(doc) and "Communication" not in tab_titles(doc)


def test_the_analysis_tabs_prepare_their_views_without_an_output_tab(qtbot, user, window, run):
    """Opening the report and clicking Steps, Memory and Communication builds each view off the GUI
    thread with its progress on the tab itself: no Output tab ("Prepare the … view", "Finished.") and
    no Tasks row is added for it."""
    doc = open_report(qtbot, user, window, run)
    output = window.docks["OutputDock"].widget().tabs
    tasks = window.docks["TasksDock"].widget().tree
    before = [output.tabText(i) for i in range(output.count())]
    rows = tasks.topLevelItemCount()
    for title, tab in (("Steps", doc.steps_tab), ("Memory", doc.memory_tab), ("Communication", doc.comm_tab)):
        click_tab(qtbot, doc, title)
        qtbot.waitUntil(lambda tab=tab: tab.widget is not None and tab.widget.isVisible(), timeout=20000)
    assert [output.tabText(i) for i in range(output.count())] == before
    assert tasks.topLevelItemCount() == rows


def test_zh_cn_steps_tab_and_headers_are_chinese(qtbot, user, zh_window, run):
    title = QCoreApplication.translate("ReportDocument", "Steps")
    assert re.search(r"[\u4e00-\u9fff]", title)
    doc, pane = open_steps(qtbot, user, zh_window, run, title)
    assert title in tab_titles(doc)
    cjk = re.compile(r"[\u4e00-\u9fff]")
    model = pane.table.model
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers and all(cjk.search(h) for h in headers), headers
    assert all(cjk.search(name) for name, _h in pane.chart.parts)
    assert cjk.search(pane.note.text())
