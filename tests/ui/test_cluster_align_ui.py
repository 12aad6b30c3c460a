"""Open Timelines Aligned… as a user drives it: a 4-rank job opened by File ▸ Open Cluster… (Qt's own folder
dialog), a rank selected, its context menu's entry, the dialog's ranks, reference and step (or operator), OK;
the merged report opens in a document tab with each rank's lanes in its own groups and both ranks' step-2
slices at the same x; an operator no rank ran is one clear line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QMessageBox
from reportkit import choose_in_menu, right_click

from workbench.core.profiling import align
from workbench.simtoolkit.profdata.clusterjob import write_cluster_job
from workbench.ui.cluster.align import ALIGNMENT_LABELS, AlignDialog
from workbench.ui.cluster.document import ClusterDocument
from workbench.ui.report.document import ReportDocument

ENTRY = "Open Timelines Aligned…"


@pytest.fixture
def job(tmp_path) -> Path:
    """A 4-rank job (tp 2, dp 2), every rank a whole torch_npu folder (it opens as a report)."""
    out = tmp_path / "job4"
    write_cluster_job(out, 4, tp=2, full=True)
    return out


def open_cluster(qtbot, user, window, path: Path) -> ClusterDocument:
    """File ▸ Open Cluster…, ``path`` typed into Qt's own folder dialog, Enter; the document once ready."""
    label = QCoreApplication.translate("MainWindow", "Open Cluster…")
    entry = next(p for p in window.menu_entries() if p.count("/") == 1 and p.endswith("/" + label))
    with user.answering(QFileDialog, user.typing_path(path)):
        user.trigger(window, entry)
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), ClusterDocument), timeout=10000)
    doc = window.documents.currentWidget()
    qtbot.waitUntil(lambda: doc.ready, timeout=120000)
    return doc


def align_dialog(qtbot, user, doc, rank: int) -> AlignDialog:
    """Select ``rank`` by a click on its bar, then its heatmap row's context menu ▸ Open Timelines Aligned…"""
    bars, heat = doc.overview.bars, doc.overview.heatmap
    qtbot.waitUntil(lambda: bars.isVisible() and heat.isVisible(), timeout=5000)
    qtbot.mouseClick(bars.plot_widget.viewport(), Qt.MouseButton.LeftButton, pos=bars.row_point(rank))
    qtbot.waitUntil(lambda: doc.selected_rank == rank and heat.selected == rank, timeout=5000)
    menus: list = []
    QTimer.singleShot(0, lambda: choose_in_menu(qtbot, ENTRY, menus))
    right_click(qtbot, heat.view.viewport(), heat.row_point(rank))
    qtbot.waitUntil(lambda: doc.findChild(AlignDialog) is not None, timeout=5000)
    dialog = doc.findChild(AlignDialog)
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    assert menus == [[f"Open Rank {rank} Report", ENTRY]]
    return dialog


def rank_items(dialog) -> dict[str, object]:
    items = (dialog.ranks.item(i) for i in range(dialog.ranks.count()))
    return {it.text(): it for it in items}


def ticked(dialog) -> list[str]:
    return [text for text, it in rank_items(dialog).items() if it.checkState() == Qt.CheckState.Checked]


def toggle_rank(qtbot, dialog, text: str) -> None:
    """A click on the rank's row, then Space (what ticks or unticks the current row of a list)."""
    item = rank_items(dialog)[text]
    view = dialog.ranks
    before = item.checkState()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualItemRect(item).center())
    qtbot.waitUntil(lambda: view.currentItem() is item, timeout=5000)
    qtbot.keyClick(view, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: item.checkState() != before, timeout=5000)


def ok_button(dialog):
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)


def report_docs(window) -> list[ReportDocument]:
    widgets = (window.documents.widget(i) for i in range(window.documents.count()))
    return [w for w in widgets if isinstance(w, ReportDocument) and w.ready]


def test_two_ranks_aligned_on_step_2_open_with_their_step_2_at_the_same_x(qtbot, user, window, job):
    doc = open_cluster(qtbot, user, window, job)
    rank_dirs = {r.rank: Path(r.path) for r in doc.report.ranks}
    dialog = align_dialog(qtbot, user, doc, 1)
    # rank 1 and its peers are ticked (no stages: the whole job), rank 1 is the reference
    assert ticked(dialog) == ["Rank 0", "Rank 1", "Rank 2", "Rank 3"]
    assert dialog.reference.currentText() == "Rank 1"
    assert [dialog.step.itemText(i) for i in range(dialog.step.count())] == ["Step 1", "Step 2"]
    assert dialog.on_step.isChecked() and ok_button(dialog).isEnabled()
    # untick ranks 2 and 3: with rank 1 alone OK waits for a second rank
    toggle_rank(qtbot, dialog, "Rank 2")
    toggle_rank(qtbot, dialog, "Rank 3")
    toggle_rank(qtbot, dialog, "Rank 0")
    assert ticked(dialog) == ["Rank 1"]
    qtbot.waitUntil(lambda: not ok_button(dialog).isEnabled(), timeout=5000)
    assert dialog.note.text() == "Tick at least two ranks to align."
    toggle_rank(qtbot, dialog, "Rank 0")
    qtbot.waitUntil(lambda: ok_button(dialog).isEnabled(), timeout=5000)
    assert [dialog.reference.itemText(i) for i in range(dialog.reference.count())] == ["Rank 0", "Rank 1"]
    assert dialog.reference.currentText() == "Rank 1" and dialog.note.text() == ""
    user.step_to(dialog.step, "Step 2")
    user.click(ok_button(dialog))
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)
    # the loading tab, then the report document in its place
    title = "Ranks 1, 0 aligned on step 2"
    qtbot.waitUntil(lambda: bool(report_docs(window)), timeout=60000)
    (report,) = report_docs(window)
    index = window.documents.indexOf(report)
    assert window.documents.tabText(index) == title and window.documents.currentIndex() == index
    assert window.documents.tabToolTip(index) == f"{rank_dirs[1]}\n{rank_dirs[0]}"
    assert report.report.info["alignment"]["reference"] == "rank 1"
    ((_, shift),) = [pair for pair in report.report.info["alignment"]["offsets_ns"] if pair[0] == "rank 0"]
    assert window.statusBar().currentMessage() == (
        f"Timelines aligned on the start of step 2; the reference is rank 1 · rank 0: shifted by {shift:+,} ns"
    )
    # one block of lane groups per rank: the reference's (device 1) first, then rank 0's (device 0)
    view = report.timeline_view
    tree = view.tree
    groups = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    devices = [1 if "Device 1" in g else 0 if "Device 0" in g else None for g in groups if g != "Counters"]
    assert None not in devices and devices == sorted(devices, reverse=True) and set(devices) == {0, 1}
    assert "Rank 1 · Host of Device 1 · Python" in groups and "Rank 0 · Host of Device 0 · Python" in groups
    # the search finds both ranks' step 2; each at the same x of the plot, in its own rank's group
    user.retype(view.search, "ProfilerStep#2")
    qtbot.waitUntil(lambda: view.match_label.text() == "2 matches", timeout=5000)
    found = []
    for n in range(2):
        qtbot.keyClick(view.search, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda n=n: view.selected is not None and view.match_pos == n, timeout=5000)
        found.append(view.selected)
    tl = view.timeline
    assert {view.group_label(int(tl.lane[i])) for i in found} == {
        "Rank 1 · Host of Device 1 · Python",
        "Rank 0 · Host of Device 0 · Python",
    }
    xs = {int(tl.start_ns[i]) for i in found}
    assert len(xs) == 1  # exactly the same ns
    # ... which is where the reference rank ran its step 2 (absolute epoch ns, exact)
    from workbench.core.profiling.build import open_report
    from workbench.core.profiling.steps import report_steps

    alone = open_report(rank_dirs[1])
    own = next(sp.start_ns for sp in report_steps(alone).spans if sp.id == 2)
    assert xs.pop() + tl.origin_ns == own


def test_an_operator_no_rank_ran_is_one_clear_line(qtbot, user, window, job):
    doc = open_cluster(qtbot, user, window, job)
    gone = next(Path(r.path) for r in doc.report.ranks if r.rank == 3)
    shutil.rmtree(gone)  # rank 3's folder was deleted since the analysis: it cannot be ticked
    dialog = align_dialog(qtbot, user, doc, 0)
    items = rank_items(dialog)
    assert list(items) == ["Rank 0", "Rank 1", "Rank 2", "Rank 3 (no folder on this machine)"]
    assert not items["Rank 3 (no folder on this machine)"].flags() & Qt.ItemFlag.ItemIsEnabled
    assert ticked(dialog) == ["Rank 0", "Rank 1", "Rank 2"]
    toggle_rank(qtbot, dialog, "Rank 2")
    user.click(dialog.on_op)
    qtbot.waitUntil(lambda: dialog.op.isEnabled() and not dialog.step.isEnabled(), timeout=5000)
    # the operators rank 0 ran are offered, the widest wait spread first, named as the timeline shows them
    offered = [dialog.op.itemText(i) for i in range(dialog.op.count())]
    assert offered and all(name.startswith("hcom_") and "@" not in name for name in offered)
    assert dialog.op.currentText() == offered[0]
    user.retype(dialog.op.lineEdit(), "")
    qtbot.waitUntil(lambda: not ok_button(dialog).isEnabled(), timeout=5000)
    assert dialog.note.text() == "Name the communication operator to align on (as the timeline shows it)."
    user.type(dialog.op.lineEdit(), "hcom_allReduce__999_0_1")
    qtbot.waitUntil(lambda: ok_button(dialog).isEnabled(), timeout=5000)
    with user.answering(QMessageBox, lambda box: user.press(box, QMessageBox.StandardButton.Ok), timeout=60000) as seen:
        user.click(ok_button(dialog))
    assert seen == ["align: the start of hcom_allReduce__999_0_1 (occurrence 1) is in none of rank 0, rank 1"]
    qtbot.waitUntil(lambda: window.documents.currentWidget() is doc, timeout=5000)
    assert not report_docs(window)


def test_the_alignment_lines_are_marked_for_translation():
    assert set(align.TEMPLATES) == set(ALIGNMENT_LABELS)
