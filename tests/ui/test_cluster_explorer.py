"""The cluster in the demo and in the Project Explorer (issue #20): a first start still shows the resnet
torch_npu report; the shipped 8-rank job's row offers "Analyse as Cluster" in its context menu (a
double-click still just expands it), which opens the Cluster document with the planted slow rank; the
cluster_analysis_output that analysis wrote appears in the tree and a double-click re-opens it. A project's
folder of msprof PROF_* ranks offers it too."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from workbench.ui.cluster.document import ClusterDocument
from workbench.ui.report.document import ReportDocument

JOB = "llama_cluster_8ranks"
SLOW_RANK = 5


@pytest.fixture
def demo_window(qtbot):
    """The window of a first start (nothing configured: the demo project opens), closed afterwards."""
    from workbench.ui.app import build_window, create_app

    _app, settings, problems = create_app("en")
    win = build_window(settings, problems, [], restore=True, demo=True)
    win.resize(1200, 900)
    win.show()
    yield win
    win._quitting = True
    win.close()
    win.deleteLater()


def documents(window, kind) -> list:
    widgets = (window.documents.widget(i) for i in range(window.documents.count()))
    return [w for w in widgets if isinstance(w, kind)]


def row_centre(qtbot, window, path: Path) -> QPoint:
    """Where ``path``'s row is in the explorer, once the tree shows it (scrolled into view)."""
    view, explorer = window.explorer.view, window.explorer

    def shown() -> bool:
        index = explorer.index_of(path)
        if not index.isValid():
            return False
        view.scrollTo(index)
        return not view.visualRect(index).isEmpty() and view.viewport().rect().contains(view.visualRect(index))

    qtbot.waitUntil(shown, timeout=10000)
    return view.visualRect(explorer.index_of(path)).center()


def double_click_row(qtbot, window, path: Path) -> None:
    """A double-click as a platform delivers it: press + release, then the double-click event."""
    viewport = window.explorer.view.viewport()
    pos = row_centre(qtbot, window, path)
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=pos)


def expand(qtbot, window, path: Path) -> None:
    double_click_row(qtbot, window, path)
    qtbot.waitUntil(lambda: window.explorer.view.isExpanded(window.explorer.index_of(path)), timeout=5000)


def context_menu(qtbot, window, path: Path) -> QMenu:
    """Right-click ``path``'s row: the menu the explorer pops up."""
    viewport = window.explorer.view.viewport()
    pos = row_centre(qtbot, window, path)
    qtbot.mouseClick(viewport, Qt.MouseButton.RightButton, pos=pos)
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, viewport.mapToGlobal(pos)))
    shown = [m for m in window.explorer.findChildren(QMenu) if m.isVisible()]
    assert len(shown) == 1, "right-click pops up one menu"
    return shown[0]


def click_entry(qtbot, menu: QMenu, text: str) -> None:
    """Click the entry ``text`` of the popped-up ``menu`` with the mouse."""
    action = next((a for a in menu.actions() if a.text() == text), None)
    assert action is not None, f"{text!r} not in {[a.text() for a in menu.actions()]}"
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())
    qtbot.waitUntil(lambda: not menu.isVisible(), timeout=5000)


def finding_rows(doc: ClusterDocument) -> list[str]:
    return [item.text() for item in doc.overview.finding_items()]


def test_the_demo_cluster_opens_from_the_explorer(qtbot, demo_window):
    window = demo_window
    # a first start still shows the resnet torch_npu report, not a rank of the cluster
    qtbot.waitUntil(lambda: any(d.ready for d in documents(window, ReportDocument)), timeout=60000)
    (first,) = documents(window, ReportDocument)
    assert first.report.kind == "torch_npu" and Path(first.report.source).parent.name == "resnet_torch_npu"

    reports = window.project.root / "reports"
    job = reports / JOB
    expand(qtbot, window, reports)
    assert window.explorer.type_text(job) == "Folder", "the job's folder is a folder in the tree"
    # a double-click on the job's row expands it, as on any folder: nothing opens
    tabs = window.documents.count()
    expand(qtbot, window, job)
    assert not documents(window, ClusterDocument) and window.documents.count() == tabs
    ranks = sorted(p for p in job.iterdir() if p.name.endswith("_ascend_pt"))
    assert len(ranks) == 8
    assert window.explorer.type_text(ranks[0]) == "Framework profiling output"

    # its context menu: Open, Analyse as Cluster (through the real menu, by the mouse)
    menu = context_menu(qtbot, window, job)
    assert [a.text() for a in menu.actions()] == ["Open", "Analyse as Cluster"]
    click_entry(qtbot, menu, "Analyse as Cluster")
    qtbot.waitUntil(lambda: bool(documents(window, ClusterDocument)), timeout=10000)
    (doc,) = documents(window, ClusterDocument)
    qtbot.waitUntil(lambda: doc.ready, timeout=120000)
    assert window.documents.currentWidget() is doc
    assert window.documents.tabText(window.documents.indexOf(doc)) == f"Cluster {JOB} (8 ranks)"
    assert doc.source.text() == str(job)
    assert (
        doc.header.text().startswith("ranks: 8 · steps: 2 · stages: 2 · ") and "files written to" in doc.header.text()
    )
    rows = finding_rows(doc)
    assert len(rows) == 2 and rows[0].startswith(f"Slow rank · Rank {SLOW_RANK}: Computing "), rows
    assert rows[1].startswith("Slow link · Link 2 → 3 (HCCS): "), rows
    assert doc.overview.heatmap.ranks == list(range(8))

    # the analysis wrote cluster_analysis_output into the job's folder: the tree shows it, with its type
    out = job / "cluster_analysis_output"
    assert (out / "cluster.wbcluster").is_file()
    row_centre(qtbot, window, out)
    qtbot.waitUntil(lambda: window.explorer.type_text(out) == "Cluster analysis output", timeout=10000)
    menu = context_menu(qtbot, window, out)
    assert [a.text() for a in menu.actions()] == ["Open"]
    qtbot.keyClick(menu, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not menu.isVisible(), timeout=5000)
    # a double-click on it re-opens the saved analysis as a second Cluster document
    double_click_row(qtbot, window, out)
    qtbot.waitUntil(lambda: len(documents(window, ClusterDocument)) == 2, timeout=10000)
    again = next(d for d in documents(window, ClusterDocument) if d is not doc)
    qtbot.waitUntil(lambda: again.ready, timeout=60000)
    assert again.path == out
    assert window.documents.tabText(window.documents.indexOf(again)) == f"Cluster {JOB} (8 ranks)"
    assert "re-opened from cluster.wbcluster" in again.header.text()
    assert finding_rows(again) == rows

    # the saved report in it opens the same way (the double-click also expanded the folder's row)
    qtbot.waitUntil(lambda: window.explorer.view.isExpanded(window.explorer.index_of(out)), timeout=5000)
    saved = out / "cluster.wbcluster"
    qtbot.waitUntil(lambda: window.explorer.type_text(saved) == "Workbench cluster report", timeout=10000)
    double_click_row(qtbot, window, saved)
    qtbot.waitUntil(lambda: len(documents(window, ClusterDocument)) == 3, timeout=10000)
    third = next(d for d in documents(window, ClusterDocument) if d not in (doc, again))
    qtbot.waitUntil(lambda: third.ready, timeout=60000)
    assert "re-opened from cluster.wbcluster" in third.header.text() and finding_rows(third) == rows


def test_a_folder_of_msprof_prof_ranks_analyses_as_a_cluster_from_the_explorer(qtbot, demo_window):
    """A generated 4-rank msprof job (PROF_* folders, no framework profiler) copied into the project: the tree
    shows it, its row offers "Analyse as Cluster", the Cluster document shows its 4 ranks."""
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    window = demo_window
    reports = window.project.root / "reports"
    job = reports / "prof_job"
    generated = write_cluster_job(job, 4, tp=2, slow_rank=3, layout="msprof")
    assert all(p.name.startswith("PROF_") and p.parent == job for p in generated.rank_dirs)
    expand(qtbot, window, reports)
    qtbot.waitUntil(lambda: window.explorer.type_text(job) == "Folder", timeout=10000)
    tabs = window.documents.count()
    expand(qtbot, window, job)  # a double-click expands it, as any folder: nothing opens
    assert not documents(window, ClusterDocument) and window.documents.count() == tabs
    rank = generated.rank_dirs[0]
    row_centre(qtbot, window, rank)
    qtbot.waitUntil(lambda: window.explorer.type_text(rank) == "Profiling data (PROF)", timeout=10000)

    menu = context_menu(qtbot, window, job)
    assert [a.text() for a in menu.actions()] == ["Open", "Analyse as Cluster"]
    click_entry(qtbot, menu, "Analyse as Cluster")
    qtbot.waitUntil(lambda: bool(documents(window, ClusterDocument)), timeout=10000)
    (doc,) = documents(window, ClusterDocument)
    qtbot.waitUntil(lambda: doc.ready, timeout=120000)
    assert window.documents.tabText(window.documents.indexOf(doc)) == "Cluster prof_job (4 ranks)"
    assert doc.source.text() == str(job) and doc.header.text().startswith("ranks: 4 · ")
    assert doc.overview.heatmap.ranks == [0, 1, 2, 3]
    assert (job / "cluster_analysis_output" / "cluster.wbcluster").is_file()
