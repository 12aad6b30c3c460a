"""The Query tab of a report document, driven as a user does: open a report, click the Query tab,
type SQL, click Run (or Ctrl+Enter), read the rows, Show on Timeline, Stop, errors, export."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from workbench.core.demo import sample_reports
from workbench.ui.report.document import ReportDocument

# offscreen: the completion list is a popup, and the offscreen platform cannot raise it or give it
# the keyboard (it still shows and completes); real platforms do both


@pytest.fixture
def msprof_sample():
    return next(p for p in sample_reports() if p.name.startswith("PROF_"))


def open_query(qtbot, user, window, path):
    window.open_path(path)
    qtbot.waitUntil(
        lambda: isinstance(window.documents.currentWidget(), ReportDocument) and window.documents.currentWidget().ready,
        timeout=30000,
    )
    doc = window.documents.currentWidget()
    bar = doc.tabs.tabBar()
    index = next(i for i in range(bar.count()) if bar.tabText(i) == "Query")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    pane = doc.query
    qtbot.waitUntil(lambda: pane.isVisible() and pane.message.text().startswith("Tables: slices, "), timeout=20000)
    return doc, pane


def type_sql(qtbot, user, pane, sql: str) -> None:
    user.focus(pane.editor)
    qtbot.keyClick(pane.editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(pane.editor, Qt.Key.Key_Delete)
    for n, line in enumerate(sql.split("\n")):
        if n:
            pane.editor.completer.popup().hide()  # as Escape does: the next Enter is a new line
            qtbot.keyClick(pane.editor, Qt.Key.Key_Return)
        qtbot.keyClicks(pane.editor, line)
    assert pane.editor.toPlainText() == sql


def click_row(qtbot, view, row: int) -> None:
    view.scrollTo(view.model().index(row, 0))
    rect = view.visualRect(view.model().index(row, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_run_a_query_and_show_a_slice_on_the_timeline(qtbot, user, window, msprof_sample):
    doc, pane = open_query(qtbot, user, window, msprof_sample)
    tl = doc.report.timeline
    assert "slices" in pane.editor.words.stringList() and "start_ns" in pane.editor.words.stringList()
    type_sql(qtbot, user, pane, "SELECT id, name, lane, start_ns, dur_ns FROM slices ORDER BY dur_ns DESC, id LIMIT 5")
    user.click(pane.run_button)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 5, timeout=20000)
    order = np.lexsort((np.arange(len(tl.dur_ns)), -np.asarray(tl.dur_ns)))[:5]
    ids = [int(pane.model.index(r, 0).data()) for r in range(5)]
    assert ids == [int(i) for i in order]
    assert pane.model.index(0, 1).data() == tl.names[int(tl.name_id[order[0]])]
    assert pane.message.text().startswith("5 rows (")
    click_row(qtbot, pane.view, 2)
    user.click(pane.show_button)
    want = int(order[2])
    qtbot.waitUntil(lambda: doc.tabs.currentIndex() == 0 and doc.timeline_view.selected == want, timeout=10000)
    t0, t1 = doc.timeline_view.x_range()
    assert t0 <= float(tl.start_ns[want]) <= t1  # the view moved there
    assert window.details.properties()["Name"] == tl.names[int(tl.name_id[want])]


def test_an_ops_row_shows_its_task_on_the_stream_lane(qtbot, user, window, msprof_sample):
    doc, pane = open_query(qtbot, user, window, msprof_sample)
    type_sql(qtbot, user, pane, "SELECT name, stream, start_ns, dur_ns FROM ops ORDER BY dur_ns DESC LIMIT 3")
    qtbot.keyClick(pane.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Enter runs
    qtbot.waitUntil(lambda: pane.model.rowCount() == 3, timeout=20000)
    ops = doc.report.ops
    top = ops.loc[ops["duration_us"].idxmax()]
    assert pane.model.index(0, 0).data() == top["name"]
    click_row(qtbot, pane.view, 0)
    user.click(pane.show_button)
    tl = doc.report.timeline
    qtbot.waitUntil(lambda: doc.tabs.currentIndex() == 0 and doc.timeline_view.selected is not None, timeout=10000)
    hit = doc.timeline_view.selected
    assert int(tl.start_ns[hit]) + tl.origin_ns == int(top["start_ns"])
    assert tl.lanes[int(tl.lane[hit])].is_stream and tl.names[int(tl.name_id[hit])] == top["name"]


def test_stop_a_long_query(qtbot, user, window, msprof_sample):
    _doc, pane = open_query(qtbot, user, window, msprof_sample)
    type_sql(
        qtbot,
        user,
        pane,
        "SELECT count(*) FROM slices a, slices b, slices c, slices d "
        "WHERE (a.dur_ns + 3 * b.dur_ns + 7 * c.id + d.id) % 1000003 = -1",
    )
    user.click(pane.run_button)
    qtbot.waitUntil(lambda: pane.stop_button.isEnabled() and pane.message.text() == "Running…", timeout=10000)
    assert not pane.run_button.isEnabled() and pane.progress.isVisible()
    user.click(pane.stop_button)
    qtbot.waitUntil(lambda: pane.message.text() == "Query stopped." and pane.run_button.isEnabled(), timeout=5000)
    assert not pane.stop_button.isEnabled() and pane.model.rowCount() == 0
    # the session works on: the next query runs
    type_sql(qtbot, user, pane, "SELECT count(*) AS n FROM slices")
    user.click(pane.run_button)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1, timeout=20000)
    assert pane.model.index(0, 0).data() == str(len(pane.report.timeline.start_ns))


def test_sql_errors_show_line_and_column(qtbot, user, window, msprof_sample):
    _doc, pane = open_query(qtbot, user, window, msprof_sample)
    height = pane.message.height()
    type_sql(qtbot, user, pane, "SELECT name,\n  nope\nFROM ops")
    user.click(pane.run_button)
    qtbot.waitUntil(lambda: pane.message.text().startswith("Line 2, column 3: Binder Error: "), timeout=20000)
    assert "\n" not in pane.message.text() and "Exception" not in pane.message.text()
    cursor = pane.editor.textCursor()
    assert (cursor.blockNumber(), cursor.positionInBlock()) == (1, 2)  # the editor points at it
    type_sql(qtbot, user, pane, "DROP VIEW ops")
    user.click(pane.run_button)
    refused = "only SELECT queries run over a report; this is a DROP statement (the report is read-only)"
    qtbot.waitUntil(lambda: pane.message.text() == "Line 1, column 1: " + refused, timeout=20000)
    assert pane.message.height() == height  # a fixed-height message area: the table does not jump


def test_example_query_and_export(qtbot, user, window, msprof_sample, tmp_path):
    doc, pane = open_query(qtbot, user, window, msprof_sample)
    user.choose(pane.examples, "Time per task type")
    assert pane.editor.toPlainText().startswith("SELECT task_type, count(*) AS tasks")
    user.click(pane.run_button)
    ops = doc.report.ops
    counts = ops["task_type"].astype(str).value_counts()
    qtbot.waitUntil(lambda: pane.model.rowCount() == len(counts), timeout=20000)
    got = {pane.model.index(r, 0).data(): int(pane.model.index(r, 1).data()) for r in range(pane.model.rowCount())}
    assert got == {k: int(v) for k, v in counts.items()}
    out = tmp_path / "per_task_type.csv"
    with user.answering(QFileDialog, user.typing_path(out)):
        user.click(pane.export_button)
    qtbot.waitUntil(lambda: pane.message.text().startswith("Exported "), timeout=20000)
    with out.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["task_type"]: int(r["tasks"]) for r in rows} == got


def test_a_million_rows_scroll_in_chunks(qtbot, user, window, msprof_sample):
    _doc, pane = open_query(qtbot, user, window, msprof_sample)
    type_sql(qtbot, user, pane, "SELECT range AS n, range * 2 AS twice FROM range(1000000)")
    user.click(pane.run_button)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1_000_000, timeout=30000)
    assert pane.message.text().startswith("1,000,000 rows (")
    click_row(qtbot, pane.view, 0)
    qtbot.keyClick(pane.view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)  # to the last row
    qtbot.waitUntil(lambda: pane.view.currentIndex().row() == 999_999, timeout=5000)
    last = pane.view.model().index(999_999, 1)
    assert last.data() == str(2 * 999_999)
    # only the rows shown were converted (a few chunks), not the million
    assert pane.model.converted <= 16 * 1024 * 2


def test_core_sentences_are_listed_for_translation():
    from workbench.core.profiling import query
    from workbench.ui.report.query.pane import CORE_TEXTS

    assert set(CORE_TEXTS) == {title for title, _sql in query.EXAMPLES} | set(query.ERROR_TEMPLATES)


def test_closing_the_report_tab_cancels_its_running_query(qtbot, user, window, msprof_sample):
    doc, pane = open_query(qtbot, user, window, msprof_sample)
    type_sql(qtbot, user, pane, "SELECT count(*) FROM slices a, slices b, slices c, slices d WHERE a.id + d.id = -1")
    user.click(pane.run_button)
    qtbot.waitUntil(lambda: pane.message.text() == "Running…", timeout=10000)
    task = pane.task
    bar = window.documents.tabBar()
    close = bar.tabButton(window.documents.indexOf(doc), bar.ButtonPosition.RightSide)
    user.click(close)  # the tab's own close button
    qtbot.waitUntil(lambda: task.state.finished, timeout=10000)
    assert task.state.value == "cancelled"


def test_queries_run_again_share_one_output_tab(qtbot, user, window, msprof_sample):
    """Twenty queries must not leave twenty 'SQL query' tabs in the Output dock: a job run again takes
    over the tab of its finished run (a running one is never taken over)."""
    _doc, pane = open_query(qtbot, user, window, msprof_sample)
    tabs = window.output.tabs
    for n in (1, 2, 3):
        type_sql(qtbot, user, pane, f"SELECT {n} AS n")
        user.click(pane.run_button)
        qtbot.waitUntil(
            lambda n=n: (
                pane.run_button.isEnabled() and pane.model.rowCount() == 1 and pane.model.index(0, 0).data() == str(n)
            ),
            timeout=20000,
        )
    runs = [i for i in range(tabs.count()) if tabs.tabText(i) == "SQL query"]
    assert len(runs) == 1, [tabs.tabText(i) for i in range(tabs.count())]
    qtbot.waitUntil(lambda: "Finished." in tabs.widget(runs[0]).toPlainText(), timeout=5000)
    assert tabs.widget(runs[0]).toPlainText().count("Finished.") == 1  # the last run's lines only
