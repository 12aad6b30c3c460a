"""The Advisor tab as a user meets it: open a generated report (File ▸ Open Report…), the advisor runs
as a task and the tab shows its count; click a finding, Show its evidence: the slice selected on the
Timeline tab, the op's row in Statistics ▸ Op Info, the step in the Steps tab; the evidence's lanes
and rows carry the advisor's badge; Export writes the page through Qt's own file dialog; zh_CN.

The findings come from rules the test registers (``test.d3_*``), not from the real rules."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from reportkit import click_tab, tab_titles
from reportkit import open_report as open_via_menu

from workbench.core.advisor import export, model
from workbench.core.advisor import run as _run  # noqa: F401  (the real rules registered first)
from workbench.core.advisor.model import Evidence, Fact, Finding, RuleText, Severity
from workbench.simtoolkit.profdata import resnet50_workload, write_torch_npu

RULE = "test.d3_ui_slow_op"


def _slow_op(subject):
    """The longest op: its slice (by name, lane and epoch start, as a rule gives it), its OPs row, step 2."""
    ops = subject.report.ops
    tl = subject.report.timeline
    row = int(np.argmax(ops["duration_us"].to_numpy(dtype=float)))
    name = str(ops["name"].iloc[row])
    start = int(ops["start_ns"].iloc[row])
    from workbench.core.profiling.timeline_ops import slice_named_at

    index = slice_named_at(tl, name, start)
    lane = tl.lanes[int(tl.lane[index])]
    return [
        Finding(
            RULE,
            "compute",
            Severity.HIGH,
            args={"op": name},
            facts=(Fact("count", model.count(len(ops))),),
            evidence=(
                Evidence(
                    "slice",
                    name,
                    lane=lane.thread_name,
                    device=lane.device,
                    start_ns=int(tl.origin_ns) + int(tl.start_ns[index]),
                    dur_ns=int(tl.dur_ns[index]),
                ),
                Evidence("op", name, table="ops", row=row, start_ns=start),
                Evidence("step", "step 2", values={"step": 2}),
            ),
            evidence_total=12,
        ),
        Finding("test.d3_ui_note", "schedule", Severity.LOW),
    ]


@pytest.fixture
def rules():
    model.rule(RULE, "compute", RuleText("{op} is the slowest op", "Look at {op}", {"count": "Operators"}))(_slow_op)
    model.rule("test.d3_ui_note", "schedule", RuleText("A note", ""))(lambda s: [])
    yield
    for rule_id in (RULE, "test.d3_ui_note"):
        model._RULES.pop(rule_id, None)


@pytest.fixture
def run_dir(tmp_path):
    return write_torch_npu(tmp_path / "run", resnet50_workload(), steps=2, rank=0)


def _click_item(qtbot, tree, item, double: bool = False) -> None:
    tree.scrollToItem(item)
    rect = tree.visualItemRect(item)
    pos = rect.center()
    pos.setX(min(pos.x(), rect.left() + 30))  # on the text, inside the viewport
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    if double:  # QTest's double click is the second press only: the first comes before it, as a user's
        qtbot.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def _advisor_tab(qtbot, doc, word: str = "Advisor") -> str:
    qtbot.waitUntil(lambda: doc.advisor_result is not None, timeout=30000)
    n = len(doc.advisor_result.findings)
    want = f"{word} ({n})"
    qtbot.waitUntil(lambda: want in tab_titles(doc), timeout=5000)
    return want


def test_advisor_tab_counts_and_shows_the_evidence(qtbot, user, window, rules, run_dir):
    doc = open_via_menu(qtbot, user, window, run_dir)
    title = _advisor_tab(qtbot, doc)
    assert int(title.split("(")[1].rstrip(")")) >= 2  # ours, and whatever real rules found
    click_tab(qtbot, doc, title)
    pane = doc.advisor
    ops = doc.report.ops
    row = int(np.argmax(ops["duration_us"].to_numpy(dtype=float)))
    name = str(ops["name"].iloc[row])
    item = pane.item_of(RULE)
    assert item.text(0) == f"{name} is the slowest op" and item.text(2) == "12"
    assert item.parent().text(0).startswith("High (")
    note = pane.item_of("test.d3_ui_note")
    _click_item(qtbot, pane.tree, note)
    qtbot.waitUntil(lambda: pane.title.text() == "Low · A note", timeout=5000)
    _click_item(qtbot, pane.tree, item)
    qtbot.waitUntil(lambda: pane.title.text() == f"High · {name} is the slowest op", timeout=5000)
    assert (pane.facts.item(0, 0).text(), pane.facts.item(0, 1).text()) == ("Operators", str(len(ops)))
    assert pane.advice.text() == f"What to try: Look at {name}"
    assert pane.evidence_label.text().startswith("Evidence: the top 3 of 12 items.")
    assert [pane.evidence.topLevelItem(i).text(0) for i in range(3)] == ["Slice", "Operator", "Step"]

    # Show on the slice: the Timeline tab, the slice selected and in view
    tl = doc.report.timeline
    from workbench.core.profiling.timeline_ops import slice_named_at

    want = slice_named_at(tl, name, int(ops["start_ns"].iloc[row]))
    _click_item(qtbot, pane.evidence, pane.evidence.topLevelItem(0))
    user.click(pane.show_button)
    qtbot.waitUntil(lambda: doc.tabs.currentIndex() == 0 and doc.timeline_view.selected == want, timeout=10000)
    t0, t1 = doc.timeline_view.x_range()
    assert t0 <= float(tl.start_ns[want]) <= t1
    assert window.details.properties()["Name"] == name

    # the marks: the slice outlined, its lane badged (axis and tree, with the finding's title)
    tv = doc.timeline_view
    lane = int(tl.lane[want])
    assert f"{name} is the slowest op" in tv.marks_at(want)
    assert tv.lane_label(lane).startswith("⚑ ")
    tips = [
        tv.tree.topLevelItem(g).child(k).toolTip(0)
        for g in range(tv.tree.topLevelItemCount())
        for k in range(tv.tree.topLevelItem(g).childCount())
    ]
    assert any(f"⚑ {name} is the slowest op" in t for t in tips)
    assert any(text.startswith("⚑ ") for text in tv.lane_axis.labels.values())

    # a double-click on the op: Statistics ▸ Op Info, its row selected and marked
    click_tab(qtbot, doc, title)
    _click_item(qtbot, pane.evidence, pane.evidence.topLevelItem(1), double=True)
    qtbot.waitUntil(
        lambda: (
            doc.tabs.currentIndex() == 0
            and doc.data_tabs.currentWidget() is doc.stats
            and doc.stats_selector.currentData() == "Op Info"
        ),
        timeout=10000,
    )
    view = doc.stats.view
    selected = {doc.stats.model.source_row(i.row()) for i in view.selectionModel().selectedRows()}
    assert selected == {row}
    shown = next(r for r in range(doc.stats.model.rowCount()) if doc.stats.model.source_row(r) == row)
    tip = doc.stats.model.index(shown, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith(f"⚑ {name} is the slowest op")
    assert doc.stats.model.index(shown, 0).data(Qt.ItemDataRole.DecorationRole) is not None
    other = next(r for r in range(doc.stats.model.rowCount()) if doc.stats.model.source_row(r) != row)
    assert doc.stats.model.index(other, 0).data(Qt.ItemDataRole.DecorationRole) is None

    # the step: the Steps tab, the step selected
    click_tab(qtbot, doc, title)
    _click_item(qtbot, pane.evidence, pane.evidence.topLevelItem(2))
    user.click(pane.show_button)
    qtbot.waitUntil(
        lambda: doc.tabs.currentWidget() is doc.steps_tab and doc.steps_tab.widget is not None, timeout=20000
    )
    steps = doc.steps_tab.widget
    qtbot.waitUntil(lambda: steps.chart.selected == steps.ids.index(2), timeout=5000)


GAP_RULE = "test.d3_ui_gap"


def _gap(subject):
    """The widest gap between two neighbouring slices of the lane of the longest op, as a stretch."""
    tl = subject.report.timeline
    lane = int(tl.lane[int(np.argmax(tl.dur_ns))])
    on = np.flatnonzero(np.asarray(tl.lane) == lane)
    on = on[np.argsort(np.asarray(tl.start_ns)[on])]
    ends = np.asarray(tl.start_ns)[on][:-1] + np.asarray(tl.dur_ns)[on][:-1]
    gaps = np.asarray(tl.start_ns)[on][1:] - ends
    k = int(np.argmax(gaps))
    info = tl.lanes[lane]
    return [
        Finding(
            GAP_RULE,
            "schedule",
            Severity.MEDIUM,
            evidence=(
                Evidence(
                    "lane",
                    "the gap",
                    lane=info.thread_name,
                    device=info.device,
                    start_ns=int(tl.origin_ns) + int(ends[k]),
                    dur_ns=int(gaps[k]),
                ),
            ),
        )
    ]


def test_showing_an_idle_stretch_replaces_the_selected_slice_in_properties(qtbot, user, window, run_dir):
    model.rule(GAP_RULE, "schedule", RuleText("A gap", ""))(_gap)
    try:
        doc = open_via_menu(qtbot, user, window, run_dir)
        title = _advisor_tab(qtbot, doc)
        tv = doc.timeline_view
        tl = doc.report.timeline
        first = int(np.argmax(tl.dur_ns))
        tv.select_slice(first, center=True)  # a slice selected before: its Properties shown
        qtbot.waitUntil(lambda: window.details.properties().get("Name") == tl.names[int(tl.name_id[first])])
        click_tab(qtbot, doc, title)
        pane = doc.advisor
        _click_item(qtbot, pane.tree, pane.item_of(GAP_RULE))
        qtbot.waitUntil(lambda: pane.evidence.topLevelItemCount() == 1, timeout=5000)
        _click_item(qtbot, pane.evidence, pane.evidence.topLevelItem(0))
        user.click(pane.show_button)
        qtbot.waitUntil(lambda: pane.status.text() == "the gap: the stretch is selected on the timeline.", timeout=5000)
        props = window.details.properties()
        assert "Name" not in props  # no longer the slice selected before
        t0, t1, lanes = tv.selection_range
        assert props["Duration"].endswith(f"({t1 - t0:,} ns)") and t1 > t0
        assert props["Lanes"]
    finally:
        model._RULES.pop(GAP_RULE, None)


def test_export_html_and_json_through_the_dialog(qtbot, user, window, rules, run_dir, tmp_path):
    doc = open_via_menu(qtbot, user, window, run_dir)
    title = _advisor_tab(qtbot, doc)
    click_tab(qtbot, doc, title)
    pane = doc.advisor
    out = tmp_path / "findings.html"
    with user.answering(QFileDialog, user.typing_path(out)):
        user.click(pane.export_buttons["html"])
    qtbot.waitUntil(lambda: pane.status.text() == f"Wrote {out}", timeout=10000)
    page = out.read_text(encoding="utf-8")
    assert "is the slowest op</h3>" in page and "High: " in page
    out = tmp_path / "findings.json"
    with user.answering(QFileDialog, user.typing_path(out)):
        user.click(pane.export_buttons["json"])
    qtbot.waitUntil(lambda: out.exists(), timeout=10000)
    doc_json = json.loads(out.read_text(encoding="utf-8"))
    assert len(doc_json["findings"]) == len(doc.advisor_result.findings)


def test_chinese_window(qtbot, user, zh_window, rules, run_dir, tmp_path):
    doc = open_via_menu(qtbot, user, zh_window, run_dir)
    title = _advisor_tab(qtbot, doc, "专家建议")
    click_tab(qtbot, doc, title)
    pane = doc.advisor
    assert pane.item_of(RULE).parent().text(0).startswith("高 (")
    assert pane.export_buttons["html"].text() == "导出 HTML…"
    out = tmp_path / "zh.html"
    with user.answering(QFileDialog, user.typing_path(out)):
        user.click(pane.export_buttons["html"])
    qtbot.waitUntil(lambda: out.exists(), timeout=10000)
    page = out.read_text(encoding="utf-8")
    assert "<h1>专家建议结果</h1>" in page and ">计算</h2>" in page


def test_export_labels_are_marked_for_translation():
    from workbench.ui.advisor.pane import EXPORT_LABELS

    assert set(EXPORT_LABELS) == set(export.LABELS)


@pytest.fixture
def cluster_rule():
    def check(subject):
        links = subject.cluster.findings.slow_links
        transport = links[0].transport if links else "HCCS"
        return [
            Finding(
                "test.d3_ui_cluster",
                "cluster",
                Severity.MEDIUM,
                args={"rank": "3"},
                evidence=(
                    Evidence("rank", "rank 3", rank=3),
                    Evidence("link", f"2 -> 3 {transport}", values={"src": 2, "dst": 3, "transport": transport}),
                ),
            )
        ]

    model.rule("test.d3_ui_cluster", "cluster", RuleText("Rank {rank} is slow", "Look at rank {rank}"), "cluster")(
        check
    )
    yield
    model._RULES.pop("test.d3_ui_cluster", None)


def test_the_cluster_document_lists_the_cluster_findings(qtbot, user, window, cluster_rule, tmp_path):
    from test_cluster_ui import open_cluster

    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    job = tmp_path / "job4"
    write_cluster_job(job, 4, tp=2, slow_rank=3, slow_link=(2, 3))
    doc = open_cluster(qtbot, user, window, job)
    assert tab_titles(doc)[0] == "Overview" and doc.tabs.currentWidget() is doc.overview
    pane = doc.advisor
    assert pane.isVisible() and pane.parent() is doc.overview.top  # in the Overview, beside the findings
    qtbot.waitUntil(lambda: pane.summary.text().startswith("Findings: "), timeout=30000)
    n = len(doc.advisor_result.findings)
    assert pane.summary.text().startswith(f"Findings: {n} (")
    item = pane.item_of("test.d3_ui_cluster")
    assert item.text(0) == "Rank 3 is slow" and item.parent().text(0).startswith("Medium (")
    _click_item(qtbot, pane.tree, item)
    qtbot.waitUntil(lambda: pane.title.text() == "Medium · Rank 3 is slow", timeout=5000)
    _click_item(qtbot, pane.evidence, pane.evidence.topLevelItem(0))
    user.click(pane.show_button)
    qtbot.waitUntil(lambda: doc.tabs.currentWidget() is doc.overview and doc.selected_rank == 3, timeout=5000)
    assert doc.act_open_rank.isEnabled()
    _click_item(qtbot, pane.evidence, pane.evidence.topLevelItem(1), double=True)
    qtbot.waitUntil(lambda: doc.tabs.currentWidget() is doc.matrix, timeout=5000)


@pytest.fixture
def comm_rule():
    def check(subject):
        comm = subject.report.tables["communication"]
        name = str(comm["name"].iloc[1])
        return [
            Finding(
                "test.d3_ui_comm",
                "communication",
                Severity.MEDIUM,
                args={"op": name},
                evidence=(Evidence("row", name, table="communication", row=1),),
            )
        ]

    model.rule("test.d3_ui_comm", "communication", RuleText("{op} is slow", ""))(check)
    yield
    model._RULES.pop("test.d3_ui_comm", None)


def test_a_communication_row_is_marked_and_shown_in_the_communication_tab(
    qtbot, user, window, comm_rule, tmp_path, samples
):
    from reportkit import sample_run

    doc = open_via_menu(qtbot, user, window, sample_run(tmp_path, samples))
    title = _advisor_tab(qtbot, doc)
    click_tab(qtbot, doc, title)
    pane = doc.advisor
    comm = doc.report.tables["communication"]
    name, start = str(comm["name"].iloc[1]), int(comm["start_ns"].iloc[1])
    _click_item(qtbot, pane.tree, pane.item_of("test.d3_ui_comm"))
    qtbot.waitUntil(lambda: pane.title.text() == f"Medium · {name} is slow", timeout=5000)
    _click_item(qtbot, pane.evidence, pane.evidence.topLevelItem(0), double=True)
    qtbot.waitUntil(lambda: doc.tabs.currentWidget() is doc.comm_tab and doc.comm_tab.widget is not None, timeout=20000)
    cp = doc.comm_tab.widget
    qtbot.waitUntil(lambda: pane.status.text() == f"{name} selected in the Communication tab.", timeout=5000)
    rows = {cp.ops.model.source_row(i.row()) for i in cp.ops.view.selectionModel().selectedRows()}
    assert [str(cp.shown["name"].iloc[r]) for r in rows] == [name]
    assert int(cp.shown["start_ns"].iloc[next(iter(rows))]) == start
    shown = next(r for r in range(cp.ops.model.rowCount()) if cp.ops.model.source_row(r) in rows)
    assert cp.ops.model.index(shown, 0).data(Qt.ItemDataRole.ToolTipRole).startswith(f"⚑ {name} is slow")
    assert cp.detail_title.text().startswith(f"{name} (step ")  # its details, as a click shows them


@pytest.fixture
def rank_rule():
    """A report rule: the longest op of the report it runs over (in a cluster: the ranks msprof-analyze picks)."""

    def check(subject):
        ops = subject.report.ops
        row = int(np.argmax(ops["duration_us"].to_numpy(dtype=float)))
        name = str(ops["name"].iloc[row])
        return [
            Finding(
                "test.d3_ui_rank_op",
                "compute",
                Severity.MEDIUM,
                args={"op": name},
                evidence=(Evidence("op", name, table="ops", row=row, start_ns=int(ops["start_ns"].iloc[row])),),
            )
        ]

    model.rule("test.d3_ui_rank_op", "compute", RuleText("{op} is the longest op", ""))(check)
    yield
    model._RULES.pop("test.d3_ui_rank_op", None)


def test_a_rank_s_finding_shows_its_rank_and_jumps_to_it(qtbot, user, window, rank_rule, tmp_path):
    """On a cluster the report rules run over the slow rank's own report: its finding says "rank 3" (the
    list's Rank column, the title), Show selects rank 3 and Open Rank 3 Report opens that rank's report with
    the finding's op selected in it."""
    from test_cluster_ui import open_cluster, report_docs

    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    job = tmp_path / "job4"
    write_cluster_job(job, 4, tp=2, slow_rank=3, full=True)
    doc = open_cluster(qtbot, user, window, job)
    pane = doc.advisor
    qtbot.waitUntil(lambda: pane.summary.text().startswith("Findings: "), timeout=60000)
    item = pane.item_of("test.d3_ui_rank_op")
    assert item is not None, "the report rule did not run over the slow rank"
    assert not pane.tree.isColumnHidden(3) and pane.tree.headerItem().text(3) == "Rank"
    assert item.text(3) == "rank 3"
    name = item.data(0, Qt.ItemDataRole.UserRole).args["op"]
    _click_item(qtbot, pane.tree, item)
    qtbot.waitUntil(lambda: pane.title.text() == f"Medium · rank 3 · {name} is the longest op", timeout=5000)
    assert doc.selected_rank != 3
    _click_item(qtbot, pane.evidence, pane.evidence.topLevelItem(0))
    user.click(pane.show_button)
    qtbot.waitUntil(lambda: doc.selected_rank == 3 and doc.tabs.currentWidget() is doc.overview, timeout=5000)
    assert pane.status.text() == "Rank 3 selected: Open Rank Report opens its timeline."
    assert doc.act_open_rank.text() == "Open Rank 3 Report"
    user.click(doc.toolbar.widgetForAction(doc.act_open_rank))
    rank3 = next(r.path for r in doc.report.ranks if r.rank == 3)
    qtbot.waitUntil(lambda: any(str(d.report.source) == rank3 for d in report_docs(window)), timeout=60000)
    # ... and there the finding's op: its Op Info row selected, its slice in Properties
    opened = next(d for d in report_docs(window) if str(d.report.source) == rank3)
    row = item.data(0, Qt.ItemDataRole.UserRole).evidence[0].row
    qtbot.waitUntil(
        lambda: (
            opened.data_tabs.currentWidget() is opened.stats
            and {opened.stats.model.source_row(i.row()) for i in opened.stats.view.selectionModel().selectedRows()}
            == {row}
        ),
        timeout=30000,
    )
    assert str(opened.report.ops["name"].iloc[row]) == name
    qtbot.waitUntil(lambda: window.details.properties().get("Name") == name, timeout=10000)
    assert opened.advisor.status.text().startswith(f"{name}: row {row + 1} of Statistics ▸ Op Info")


def test_closing_the_report_while_the_advisor_runs_leaves_no_call_into_the_deleted_pane(qtbot, user, window, run_dir):
    """The tab's close button while the advisor is still working: the task is cancelled and ends after the pane
    is gone; its signals must not reach the deleted pane (a lambda connection did: "Internal C++ object already
    deleted", seen as an intermittent failure of other UI tests)."""
    import threading

    from PySide6.QtWidgets import QTabBar

    started, release = threading.Event(), threading.Event()

    def slow(subject):
        started.set()
        release.wait(30)
        return []

    model.rule("test.d3_ui_slow", "schedule", RuleText("slow", ""))(slow)
    try:
        doc = open_via_menu(qtbot, user, window, run_dir)
        qtbot.waitUntil(started.is_set, timeout=30000)
        task = doc.advisor_task
        ended = []
        task.finished.connect(lambda: ended.append(True))
        button = window.documents.tabBar().tabButton(window.documents.indexOf(doc), QTabBar.ButtonPosition.RightSide)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: window.documents.count() == 0, timeout=10000)
        release.set()
        # finished comes after cancelled: by then the cancelled slot has run (pytest-qt fails the test on an
        # exception raised in it)
        qtbot.waitUntil(lambda: bool(ended), timeout=30000)
    finally:
        release.set()
        model._RULES.pop("test.d3_ui_slow", None)
