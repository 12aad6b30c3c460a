"""Report document over real and generated reports: timeline interaction, data pane, summary,
colour rule, export — numbers checked against independent computations."""

from __future__ import annotations

import json
import re
import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QLabel, QMessageBox
from uikit import User

from workbench.core.demo import sample_reports
from workbench.core.tasks import TaskState
from workbench.ui.report.document import ReportDocument
from workbench.ui.report.slices_item import RULE_INDEX


def open_doc(qtbot, window, path) -> ReportDocument:
    before = window.documents.count()
    window.open_path(path)
    qtbot.waitUntil(
        lambda: isinstance(window.documents.currentWidget(), ReportDocument) and window.documents.currentWidget().ready,
        timeout=30000,
    )
    assert window.documents.count() >= before
    return window.documents.currentWidget()


@pytest.fixture
def msprof_sample():
    found = [p for p in sample_reports() if p.name.startswith("PROF_")]
    assert found, "the shipped msprof sample report is missing"
    return found[0]


def test_trace_view_sample_timeline_details_flows(qtbot, window, samples):
    doc = open_doc(qtbot, window, samples / "torch_npu-trace_view" / "trace_view.json")
    tv = doc.timeline_view
    assert tv is not None
    raw = json.loads((samples / "torch_npu-trace_view" / "trace_view.json").read_text())
    processes = {e["args"]["name"] for e in raw if e.get("ph") == "M" and e.get("name") == "process_name"}
    lane_processes = {ln.process_name for ln in tv.timeline.lanes}
    assert lane_processes <= processes and "Ascend Hardware" in lane_processes
    # pick a device slice with a flow and check the Details dock
    flows = tv.timeline.flows
    dst = int(np.asarray(flows.dst_slice)[np.asarray(flows.dst_slice) >= 0][0])
    tv.select_slice(dst, center=True)
    props = window.details.properties()
    assert props["Name"] == tv.timeline.names[int(tv.timeline.name_id[dst])]
    assert any(k.startswith("Flow ") for k in props), "flows of the slice are listed"
    assert any(k.startswith("args.") for k in props)
    assert tv.item.flows, "flow arrows are drawn for the selected slice"


def test_search_keys_and_neighbours(qtbot, window, msprof_sample):
    doc = open_doc(qtbot, window, msprof_sample)
    tv = doc.timeline_view
    tl = tv.timeline
    tv.search.setText("conv")
    expected = sum(1 for i in range(len(tl.name_id)) if "conv" in tl.names[int(tl.name_id[i])].lower())
    assert tv.match_label.text() == f"{expected} matches" and expected > 0
    first = tv.find(+1)
    assert "conv" in tl.names[int(tl.name_id[first])].lower()
    assert tv.match_label.text() == f"1 of {expected}"
    # '.' moves to the next slice of the same row, ',' back
    row = tv.layout_.row_of(first)
    qtbot.keyClick(tv.plot, Qt.Key.Key_Period)
    nxt = tv.selected
    assert nxt != first and tv.layout_.row_of(nxt) == row
    assert tl.start_ns[nxt] >= tl.start_ns[first]
    qtbot.keyClick(tv.plot, Qt.Key.Key_Comma)
    assert tv.selected == first
    # W zooms in, Backspace undoes, 0 resets
    a0, a1 = tv.x_range()
    qtbot.keyClick(tv.plot, Qt.Key.Key_W)
    b0, b1 = tv.x_range()
    assert (b1 - b0) == pytest.approx((a1 - a0) / 2, rel=1e-3)
    qtbot.keyClick(tv.plot, Qt.Key.Key_Backspace)
    assert tv.x_range() == pytest.approx((a0, a1), rel=1e-6)
    qtbot.keyClick(tv.plot, Qt.Key.Key_D)
    c0, _ = tv.x_range()
    assert c0 > a0


def test_range_selection_aggregates(qtbot, window, msprof_sample):
    doc = open_doc(qtbot, window, msprof_sample)
    tv = doc.timeline_view
    tl = tv.timeline
    stream = next(i for i, ln in enumerate(tl.lanes) if ln.is_stream)
    t0 = int(tl.start_ns.min())
    t1 = t0 + (int((tl.start_ns + tl.dur_ns).max()) - t0) // 2
    tv.select_range(t0, t1, [stream])
    frame = doc.selection.model.frame
    # independent: plain Python over the arrays
    expect: dict[str, list[int]] = {}
    for i in range(len(tl.lane)):
        s, d = int(tl.start_ns[i]), int(tl.dur_ns[i])
        if int(tl.lane[i]) == stream and s < t1 and s + d > t0:
            expect.setdefault(tl.names[int(tl.name_id[i])], []).append(d)
    assert len(frame) == len(expect)
    for _, row in frame.iterrows():
        durs = expect[row["Name"]]
        assert row["Count"] == len(durs)
        assert row["Total(us)"] == pytest.approx(sum(durs) / 1000)
        assert row["Max(us)"] == pytest.approx(max(durs) / 1000)
    assert doc.data_tabs.currentWidget() is doc.selection


def test_statistics_event_view_and_export(qtbot, window, msprof_sample, tmp_path):
    import csv

    from openpyxl import load_workbook

    doc = open_doc(qtbot, window, msprof_sample)
    doc.show_statistics("ACL API")
    summary_csv = next((msprof_sample / "mindstudio_profiler_output").glob("api_statistic_*.csv"))
    with summary_csv.open(newline="") as fh:
        acl_rows = [r for r in csv.DictReader(fh) if r["Level"].strip().lower() == "acl"]
    model = doc.stats.model
    assert model.rowCount() == len(acl_rows)
    names = {model.raw(r, model.columns.index("Name")) for r in range(model.rowCount())}
    assert names == {r["API Name"] for r in acl_rows}
    out = tmp_path / "acl.xlsx"
    out.write_text("an older export")  # replaced: the file dialog asks, the user says Yes
    user = User(qtbot)

    def save_over(dialog):
        with user.answering(QMessageBox, lambda box: user.press(box, QMessageBox.StandardButton.Yes)) as asked:
            user.typing_path(out)(dialog)
        assert "already exists" in asked[0], asked

    bar = doc.data_tabs.tabBar()  # the Statistics tab in front, as a user brings it
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(doc.data_tabs.indexOf(doc.stats)).center())
    with user.answering(QFileDialog, save_over):
        user.click(doc.stats.export_button)
    qtbot.waitUntil(lambda: out.read_bytes()[:2] == b"PK", timeout=10000)
    sheet = load_workbook(out).active
    rows = list(sheet.iter_rows(values_only=True))
    assert list(rows[0]) == model.columns and len(rows) == len(acl_rows) + 1
    by_name = {r[0]: r for r in rows[1:]}
    for r in acl_rows:
        assert by_name[r["API Name"]][model.columns.index("Time(us)")] == pytest.approx(float(r["Time(us)"]))
    # the report's own file is never written over, whatever the user answers: the dialog's
    # "already exists" is answered Yes, then the refusal (its own box, once the dialog closed) is read
    before = summary_csv.read_bytes()
    seen: list[str] = []

    def answer_boxes() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox) and box.isVisible() and box.text() not in seen:
            seen.append(box.text())
            yes = box.button(QMessageBox.StandardButton.Yes)
            user.press(box, QMessageBox.StandardButton.Yes if yes else QMessageBox.StandardButton.Ok)
        if len(seen) < 2:
            QTimer.singleShot(20, answer_boxes)

    QTimer.singleShot(0, answer_boxes)
    with user.answering(QFileDialog, user.typing_path(summary_csv)):
        user.click(doc.stats.export_button)
    qtbot.waitUntil(lambda: len(seen) == 2, timeout=10000)
    assert "already exists" in seen[0] and "is an input of this command" in seen[1], seen
    assert summary_csv.read_bytes() == before
    doc.show_statistics("OS Runtime API")
    assert "not collected" in doc.stats.note.text() and "msprof" in doc.stats.note.text()
    # Event View: activating a row selects that slice in the timeline
    ev = doc.events.model
    assert ev.rowCount() > 0
    doc.events.view.activated.emit(ev.index(3, 1))
    assert doc.timeline_view.selected == int(ev.raw(3, 0))


def test_aicore_metrics_header_and_highlight(qtbot, window, msprof_sample):
    doc = open_doc(qtbot, window, msprof_sample)
    assert "PipeUtilization" in doc.aicore.note.text()
    model = doc.aicore.model
    mb = model.columns.index("memory_bound")
    for r in range(model.rowCount()):
        highlighted = model.data(model.index(r, mb), Qt.ItemDataRole.BackgroundRole) is not None
        value = model.raw(r, mb)
        assert highlighted == (value == value and value > 1.0)


def test_timeline_color_rule_applied_and_persisted(qtbot, window, msprof_sample):
    """Ascend ▸ System Profiler ▸ Timeline Color…: the rule ticked, both thresholds typed, OK."""
    from workbench.core import settings as core_settings
    from workbench.ui.dialogs.timeline_color import TimelineColorDialog

    doc = open_doc(qtbot, window, msprof_sample)

    def retype(spin, text: str) -> None:
        qtbot.mouseClick(spin.lineEdit(), Qt.MouseButton.LeftButton)
        qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClicks(spin.lineEdit(), text)
        qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Tab)

    def answer(dialog: TimelineColorDialog) -> None:
        assert not dialog.enabled.isChecked()
        qtbot.mouseClick(dialog.enabled, Qt.MouseButton.LeftButton, pos=QPoint(6, dialog.enabled.height() // 2))
        retype(dialog.b, "50")  # red first: green may not exceed it
        retype(dialog.a, "3")
        qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    with User(qtbot).answering(TimelineColorDialog, answer):
        window.menu_entries()["Ascend/System Profiler/Timeline Color…"].trigger()
    qtbot.waitUntil(lambda: "3.00%" in doc.timeline_view.legend.text(), timeout=10000)
    saved, _ = core_settings.load()
    assert (saved.timeline_color_rule, saved.timeline_color_a, saved.timeline_color_b) == (True, 3.0, 50.0)
    tl = doc.timeline_view.timeline
    api = [i for i, ln in enumerate(tl.lanes) if ln.process_name == "CANN"]
    mask = np.isin(tl.lane, api)
    total = tl.dur_ns[mask].sum()
    colors = doc.timeline_view.item.color_of_name
    for name_id in np.unique(tl.name_id[mask]):
        share = tl.dur_ns[mask & (tl.name_id == name_id)].sum() * 100.0 / total
        level = "green" if round(share, 2) < 3 else ("yellow" if round(share, 2) < 50 else "red")
        assert colors[name_id] == RULE_INDEX[level], tl.names[name_id]
    assert "3.00%" in doc.timeline_view.legend.text()


def test_report_without_timeline_says_so(qtbot, window, samples):
    doc = open_doc(qtbot, window, samples / "torch_npu-kernel_details-arith" / "kernel_details.csv")
    assert doc.timeline_view is None
    assert len(doc.aicore.model.frame) > 0 and "ArithmeticUtilization" in doc.aicore.note.text()


def test_failed_load_keeps_previous_tabs(qtbot, window, msprof_sample, tmp_path, monkeypatch):
    open_doc(qtbot, window, msprof_sample)
    count = window.documents.count()
    bad = tmp_path / "trace_view.json"
    bad.write_bytes(b"\x00\x01garbage")
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warnings.append(a[2]))
    window.open_path(bad)
    qtbot.waitUntil(lambda: bool(warnings), timeout=20000)
    assert str(bad) in warnings[0] or "trace_view.json" in warnings[0]
    assert window.documents.count() == count


def test_summary_view(qtbot, window, msprof_sample):
    doc = open_doc(qtbot, window, msprof_sample)
    values = doc.summary.values()
    assert values["Profiling info/Kind"] == "msprof"
    assert values["Profiling info/Collected by"] == "simulated CANN toolkit"
    stat = next((msprof_sample / "mindstudio_profiler_output").glob("op_statistic_*.csv"))
    import csv

    with stat.open(newline="") as fh:
        totals: dict[str, float] = {}
        for r in csv.DictReader(fh):
            totals[r["OP Type"]] = totals.get(r["OP Type"], 0.0) + float(r["Total Time(us)"])
    top = sorted(totals.items(), key=lambda kv: -kv[1])[:10]
    assert [n for n, _ in doc.summary.top_ops] == [n for n, _ in top]
    # the time axis writes plain numbers, thousands grouped (pyqtgraph's own gives 1e+06 beside 500000)
    axis = doc.summary.chart.plot.getAxis("bottom")
    assert axis.tickStrings([0.0, 500000.0, 1000000.0], 1.0, 500000.0) == ["0", "500,000", "1,000,000"]
    assert axis.tickStrings([0.25, 0.5], 1.0, 0.25) == ["0.25", "0.50"]


def _big_trace(tmp_path, n: int = 60_000):
    from workbench.simtoolkit.profdata import write_big_timeline

    path = tmp_path / "msprof_20260101000000.json"
    write_big_timeline(path, "msprof", n)
    return path


def test_big_report_shows_a_preview_first_then_the_document_in_the_same_tab(qtbot, window, tmp_path, monkeypatch):
    """A big uncached trace: the tab appears at once with progress and a preview timeline of the
    file's first bytes; the finished document replaces it in the same tab, at the range the user
    was looking at in the preview."""
    from workbench.core.profiling import views
    from workbench.ui.report.loading import ReportLoadingPage

    path = _big_trace(tmp_path)
    size = path.stat().st_size
    monkeypatch.setattr(views, "PREVIEW_MIN_BYTES", 1 << 20)
    monkeypatch.setattr(views, "PREVIEW_BYTES", size // 4)
    from workbench.core.profiling.detect import detect
    from workbench.core.profiling.storage import cache

    monkeypatch.setattr(cache, "AUTO_CACHE_BYTES", 1)
    gate = threading.Event()
    from workbench.core.profiling import build as report_mod

    real = report_mod.open_report

    def slow_open(*a, **k):  # hold the full load until the test has looked at the preview
        gate.wait(30)
        return real(*a, **k)

    monkeypatch.setattr(report_mod, "open_report", slow_open)
    window.open_path(path)
    page = window.documents.currentWidget()
    assert isinstance(page, ReportLoadingPage)  # the tab is there before any loading happened
    index = window.documents.currentIndex()
    qtbot.waitUntil(lambda: page.preview_view is not None, timeout=30000)
    preview = page.preview.timeline
    assert 0 < preview.event_count < 60_000 and page.preview.preview_bytes == size // 4
    assert "Preview" in page.banner.text() and page.banner.isVisible()
    assert any("ends inside event" in w for w in preview.warnings)
    t0, t1 = page.preview_view.x_range()
    page.preview_view.set_x_range(t0 + (t1 - t0) * 0.25, t0 + (t1 - t0) * 0.5)  # the user zooms in
    looked = page.preview_view.x_range()
    gate.set()
    qtbot.waitUntil(
        lambda: isinstance(window.documents.widget(index), ReportDocument) and window.documents.widget(index).ready,
        timeout=60000,
    )
    doc = window.documents.widget(index)
    assert window.documents.currentWidget() is doc
    assert doc.report.timeline.event_count > preview.event_count
    shift = preview.origin_ns - doc.report.timeline.origin_ns
    got = doc.timeline_view.x_range()
    assert abs(got[0] - (looked[0] + shift)) < 1e-3 * (looked[1] - looked[0])
    assert abs(got[1] - (looked[1] + shift)) < 1e-3 * (looked[1] - looked[0])
    assert all(not isinstance(window.documents.widget(i), ReportLoadingPage) for i in range(window.documents.count()))
    # the cache is written by a task of its own once the document is on screen
    titles = lambda: [window.tasks.tree.topLevelItem(i).text(0) for i in range(window.tasks.row_count())]  # noqa: E731
    qtbot.waitUntil(lambda: any(t.startswith("Cache ") for t in titles()), timeout=30000)
    qtbot.waitUntil(lambda: not window.bridge.running(), timeout=60000)
    assert cache.present(detect(path))


def test_cancel_and_closing_a_loading_tab_stop_the_load(qtbot, window, tmp_path, monkeypatch):
    from workbench.core.profiling import build as report_mod
    from workbench.ui.report.loading import ReportLoadingPage

    path = _big_trace(tmp_path, 20_000)
    started = threading.Event()

    def wait_for_cancel(*a, cancel=None, **k):
        started.set()
        while True:
            cancel.raise_if_cancelled()
            time.sleep(0.01)

    monkeypatch.setattr(report_mod, "open_report", wait_for_cancel)
    for how in ("button", "close tab"):
        window.open_path(path)
        page = window.documents.currentWidget()
        assert isinstance(page, ReportLoadingPage)
        task = page.task
        qtbot.waitUntil(started.is_set, timeout=10000)
        started.clear()
        if how == "button":
            qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
        else:
            window.close_document(window.documents.indexOf(page))
        qtbot.waitUntil(lambda task=task: task.state.finished, timeout=10000)
        qtbot.waitUntil(
            lambda: (
                not any(
                    isinstance(window.documents.widget(i), ReportLoadingPage) for i in range(window.documents.count())
                )
            ),
            timeout=10000,
        )
        assert task.state is TaskState.CANCELLED
    assert not window.bridge.running()


# offscreen QPA: the file dialog's completion popup raises itself and grabs the keyboard, which that
# platform cannot do (real platforms can); the warnings say so and are harmless here.
def test_a_trace_opens_as_a_report_whatever_it_is_called(qtbot, window, samples, tmp_path):
    """Double-click / drop / Open Report on a timeline JSON named anything opens the timeline (not
    the text view); Open Report on a file that is no report shows the engine's message."""
    import shutil

    renamed = tmp_path / "my run.json"
    shutil.copyfile(samples / "torch_npu-trace_view" / "trace_view.json", renamed)
    doc = open_doc(qtbot, window, renamed)
    assert doc.timeline_view is not None and doc.report.timeline.event_count > 0
    other = tmp_path / "notes.json"
    other.write_text('{"hello": 1}')
    warnings: list[str] = []

    def press_ok(box: QMessageBox) -> None:
        warnings.append(box.text())
        qtbot.mouseClick(box.button(QMessageBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    with User(qtbot).answering(QFileDialog, User(qtbot).typing_path(other)):  # File ▸ Open Report…, the path typed
        window.menu_entries()["File/Open Report…"].trigger()
    with User(qtbot).answering(QMessageBox, press_ok):  # the engine's message, in a box
        pass
    assert len(warnings) == 1 and "notes.json" in warnings[0] and "\n" not in warnings[0]
    assert window.documents.currentWidget() is doc


# --- issue 15: headers in words, copying, zh_CN, AI Core Metrics, Merge dialog -------------------------------

CJK = re.compile(r"[\u4e00-\u9fff]")


def headers(view) -> list[str]:
    model = view.model()
    return [
        str(model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole))
        for c in range(model.columnCount())
    ]


def shown(model, row: int, column: int) -> str:
    """The text a cell shows."""
    return str(model.data(model.index(row, column), Qt.ItemDataRole.DisplayRole))


def cell_pos(view, row: int, column: int) -> QPoint:
    index = view.model().index(row, column)
    view.scrollTo(index)
    return view.visualRect(index).center()


def every_table(doc) -> dict[str, list[str]]:
    """The headers of every table of the report's data pane, Statistics one by one."""
    out = {"events": headers(doc.events.view), "aicore": headers(doc.aicore.view)}
    for key in ("ACL API", "OPs", "Op Info"):
        doc.show_statistics(key)
        out[key] = headers(doc.stats.view)
    tv = doc.timeline_view
    t0, t1 = tv.x_range()
    tv.select_range(int(t0), int(t1), sorted({r.lane for r in tv.rows if r.kind == "slices"}))
    out["selection"] = headers(doc.selection.view)
    if hasattr(doc, "slice_list"):
        out["slice list"] = headers(doc.slice_list.view)
    return out


def test_every_report_table_header_is_words(qtbot, window, msprof_sample):
    doc = open_doc(qtbot, window, msprof_sample)
    tables = every_table(doc)
    for name, hs in tables.items():
        assert hs, name
        assert not [h for h in hs if "_" in h], f"{name}: snake_case headers {hs}"
    assert tables["OPs"][:3] == ["Device", "OP Type", "Core Type"]
    assert "MTE2 Ratio (AIC)" in tables["aicore"] and "Memory Bound" in tables["aicore"]
    assert tables["Op Info"][tables["Op Info"].index("Task Type") + 1] == "Start Time(ns)"
    # the column key stays reachable: it is the header's tooltip (and the export's header)
    model = doc.aicore.model
    col = model.columns.index("aic_mte2_ratio")
    assert model.headerData(col, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole).startswith("aic_mte2_ratio\n")


def test_core_column_labels_and_messages_are_marked_for_translation():
    from workbench.core.profiling import views
    from workbench.ui import labels
    from workbench.ui.report import document, summary, table

    assert set(views.COLUMN_LABELS.values()) | set(views.PMU_LABELS.values()) | set(
        views.PMU_CORE_TEMPLATES.values()
    ) == set(table.COLUMN_LABELS)
    assert set(views.STATUS_TEMPLATES) == set(labels.STATUS_LABELS)
    sentences = set(views.AICORE_TEXT.values()) | {t for pair in views.PMU_GROUPS.values() for t in pair}
    assert sentences == set(document.AICORE_LABELS)
    assert set(views.SUMMARY_VALUES) == set(summary.SUMMARY_VALUE_LABELS)
    assert {name for _key, name in views.DEVICE_FIELDS} == set(summary.DEVICE_FIELD_LABELS)
    assert set(views.REPORT_WARNING_TEMPLATES) == set(labels.REPORT_WARNING_LABELS)


def test_a_level0_runs_derived_columns_note_is_translated(qtbot, zh_window, tmp_path):
    """The note saying which kernel_details columns came from the trace (a torch_npu Level0 run) is
    shown in the banner and the Summary's Warnings, in Chinese with its numbers kept."""
    from workbench.simtoolkit.profdata import resnet50_workload, write_torch_npu

    run = write_torch_npu(tmp_path, resnet50_workload(), profiler_level="Level0")
    doc = open_doc(qtbot, zh_window, run)
    english = [w for w in doc.report.warnings if " derived from " in w]
    assert len(english) == 1, doc.report.warnings
    banner = next(lbl for lbl in doc.findChildren(QLabel) if lbl.text().startswith("⚠ "))
    assert "推导" in banner.text() and " derived from " not in banner.text(), banner.text()
    numbers = [n for n in english[0].split() if n.isdigit()]
    assert numbers and all(n in banner.text() for n in numbers)


def test_ctrl_c_copies_exactly_the_selected_cells(qtbot, window, msprof_sample):
    from PySide6.QtGui import QGuiApplication

    doc = open_doc(qtbot, window, msprof_sample)
    table = doc.events
    view, model = table.view, table.model
    doc.data_tabs.setCurrentWidget(table)
    qtbot.waitUntil(view.isVisible)
    name, start = model.columns.index("Name"), model.columns.index("Start(us)")
    clipboard = QGuiApplication.clipboard()
    # one cell: that cell's text, nothing else
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=cell_pos(view, 2, name))
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert clipboard.text() == shown(model, 2, name)
    # a block (Shift+click): its rows and columns, tab/newline separated, no header
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, cell_pos(view, 3, start)
    )
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lo, hi = sorted((name, start))
    expected = "\n".join("\t".join(shown(model, r, c) for c in range(lo, hi + 1)) for r in (2, 3))
    assert clipboard.text() == expected
    # a whole column (Ctrl+click on its header; a plain click sorts): its header first
    header = view.horizontalHeader()
    x = header.sectionViewportPosition(name) + header.sectionSize(name) // 2
    order = model.view.copy()
    qtbot.mouseClick(
        header.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.ControlModifier,
        QPoint(x, header.height() // 2),
    )
    assert (model.view == order).all(), "Ctrl+click selects, it does not sort"
    qtbot.waitUntil(lambda: view.selectionModel().isColumnSelected(name))
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = clipboard.text().split("\n")
    assert lines[0] == "Name" and lines[1:] == [shown(model, r, name) for r in range(model.rowCount())]
    # everything (Ctrl+A): the header line and every cell
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = clipboard.text().split("\n")
    assert lines[0].split("\t") == headers(view) and len(lines) == model.rowCount() + 1
    assert lines[3].split("\t") == [shown(model, 2, c) for c in range(model.columnCount())]


def test_the_properties_pane_can_be_copied_from(qtbot, window, samples):
    from PySide6.QtGui import QGuiApplication

    doc = open_doc(qtbot, window, samples / "torch_npu-trace_view" / "trace_view.json")
    tv = doc.timeline_view
    tl = tv.timeline
    stream = next(i for i, ln in enumerate(tl.lanes) if ln.is_stream)
    first = int(np.flatnonzero(np.asarray(tl.lane) == stream)[0])
    tv.select_slice(first, center=True)
    tree = window.details.tree
    qtbot.waitUntil(lambda: tree.topLevelItemCount() > 3)
    rows = {tree.topLevelItem(i).text(0): tree.topLevelItem(i) for i in range(tree.topLevelItemCount())}
    clipboard = QGuiApplication.clipboard()
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(rows["Duration"]).center())
    qtbot.keyClick(tree, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert clipboard.text() == rows["Duration"].text(1) and f"{int(tl.dur_ns[first]):,} ns" in clipboard.text()
    qtbot.mouseClick(
        tree.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.ControlModifier,
        tree.visualItemRect(rows["Name"]).center(),
    )
    qtbot.keyClick(tree, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert clipboard.text() == rows["Name"].text(1) + "\n" + rows["Duration"].text(1)


def test_ai_core_metrics_of_arithmetic_utilization(qtbot, window, samples):
    """Only AI Core task rows; the description explains what ArithmeticUtilization has, not
    memory_bound, and names the task types left out (counted from the file)."""
    import csv

    path = samples / "torch_npu-kernel_details-arith" / "kernel_details.csv"
    with path.open(newline="") as fh:
        types = [r["Accelerator Core"] for r in csv.DictReader(fh)]
    ai_core = {"AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV"}
    doc = open_doc(qtbot, window, path)
    model = doc.aicore.model
    tt = model.columns.index("task_type")
    listed = {shown(model, r, tt) for r in range(model.rowCount())}
    assert model.rowCount() == sum(t in ai_core for t in types) and listed <= ai_core
    note = doc.aicore.note.text()
    assert "ArithmeticUtilization" in note and "Memory Bound" not in note and "memory_bound" not in note
    assert f"{sum(t not in ai_core for t in types)} tasks of other types" in note and "HCCL" in note


def test_zh_cn_report_texts_are_chinese(qtbot, zh_window, samples, msprof_sample, monkeypatch):
    """The AI Core Metrics description, the Summary's 'not present in this report', the loading
    page's status lines and the table headers are Chinese in a zh_CN window."""
    from workbench.core.profiling import views
    from workbench.ui.report.loading import ReportLoadingPage

    window = zh_window
    gate = threading.Event()
    real_prepare = views.prepare

    def held_prepare(report, progress=None, cancel=None):  # the status line stays up until the test saw it
        out = real_prepare(report, progress, cancel)
        gate.wait(30)
        return out

    monkeypatch.setattr(views, "prepare", held_prepare)
    trace = samples / "torch_npu-trace_view" / "trace_view.json"
    window.open_path(trace)
    page = window.documents.currentWidget()
    assert isinstance(page, ReportLoadingPage)
    qtbot.waitUntil(lambda: page.status.text() == "正在布局时间线", timeout=30000)
    gate.set()
    qtbot.waitUntil(
        lambda: isinstance(window.documents.currentWidget(), ReportDocument) and window.documents.currentWidget().ready,
        timeout=30000,
    )
    doc = window.documents.currentWidget()
    values = doc.summary.values()
    device = next(v for k, v in values.items() if k.endswith("/设备信息"))
    assert CJK.search(device) and "not present" not in device
    assert CJK.search(values[next(k for k in values if k.endswith("/DDR/HBM 读写"))])
    doc = open_doc(qtbot, window, msprof_sample)
    note = doc.aicore.note.text()
    assert "PipeUtilization" in note and CJK.search(note)
    for english in ("Metric group collected", "Time and ratio", "Columns are split", "means the MTE2"):
        assert english not in note
    for name, hs in every_table(doc).items():
        english = [h for h in hs if not CJK.search(h) and h not in ("ID", "Task ID")]
        assert not [h for h in english if re.search(r"[a-z]{3}", h)], f"{name}: English headers {english}"
    assert "任务 ID" in headers(doc.events.view) or "Task ID" in headers(doc.events.view)


def test_merge_dialog_output_starts_empty_so_typing_replaces_it(qtbot, window, tmp_path):
    from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof
    from workbench.ui.profiler import open_merge_reports

    for n in (0, 1):
        write_msprof_prof(tmp_path / "in" / f"rank{n}", resnet50_workload(), devices=[n], prof_index=n + 1)
    dialog = open_merge_reports(window.context, window)
    qtbot.addWidget(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)  # focus moves between its fields as on a desktop
    qtbot.mouseClick(dialog.input_dir, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.input_dir, str(tmp_path / "in"))
    qtbot.mouseClick(dialog.output_dir, Qt.MouseButton.LeftButton)  # on to the output field
    qtbot.waitUntil(lambda: dialog.found.text() == "2 report(s) to merge")
    assert dialog.output_dir.text() == "" and dialog.output_dir.placeholderText() == str(tmp_path / "in")
    qtbot.keyClicks(dialog.output_dir, str(tmp_path / "out"))
    assert dialog.output_dir.text() == str(tmp_path / "out")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: (tmp_path / "out" / "merged.wbreport").is_file() or "rror" in dialog.status.text(), timeout=60000
    )
    assert (tmp_path / "out" / "merged.wbreport").is_file(), dialog.status.text()
    assert not (tmp_path / "in" / "merged.wbreport").exists()
    qtbot.waitUntil(lambda: not window.bridge.running(), timeout=60000)
