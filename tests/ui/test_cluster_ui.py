"""The Cluster document as a user drives it: File ▸ Open Cluster… (Qt's own folder dialog) on a
generated 8-rank job with a planted slow rank and slow link, the findings, the heatmap and the bars,
the Matrix tab, a rank's report opened from a finding / a context menu, Cancel during a 64-rank
analysis, the saved report re-opened, Re-analyse asking before it replaces files, msprof-analyze's own
cluster_analysis_output, the report picker's "Analyse as Cluster", and the document in Chinese."""

from __future__ import annotations

import json
import shutil
from itertools import count
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QPoint, Qt, QTimer
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QMessageBox,
    QPlainTextEdit,
)
from reportkit import choose_in_menu, click_row, click_tab, right_click, tab_titles, table

from workbench.core.cluster import views
from workbench.simtoolkit.profdata.clusterjob import write_cluster_job
from workbench.ui.cluster.document import ClusterDocument
from workbench.ui.dialogs.report_picker import ReportPickerDialog
from workbench.ui.report.document import ReportDocument

SLOW_RANK, SLOW_LINK = 5, (2, 3)
OUTPUT = "cluster_analysis_output"


@pytest.fixture
def job(tmp_path) -> Path:
    """An 8-rank job (tp 2, pp 2, dp 2): rank 5 computes slowly, the link 2 → 3 is slow; every rank a
    whole torch_npu folder (it opens as a report)."""
    out = tmp_path / "llama8"
    write_cluster_job(out, 8, tp=2, pp=2, slow_rank=SLOW_RANK, slow_link=SLOW_LINK, full=True)
    return out


def menu_entry(window, label: str) -> str:
    """The File menu's entry ``label`` (source text) in the window's language."""
    text = QCoreApplication.translate("MainWindow", label)
    return next(p for p in window.menu_entries() if p.count("/") == 1 and p.endswith("/" + text))


def open_cluster(qtbot, user, window, path: Path, timeout: int = 120000) -> ClusterDocument:
    """File ▸ Open Cluster…, ``path`` typed into Qt's own folder dialog, Enter; the document once it
    shows the cluster."""
    before = set(cluster_docs(window))
    with user.answering(QFileDialog, user.typing_path(path)):
        user.trigger(window, menu_entry(window, "Open Cluster…"))
    qtbot.waitUntil(lambda: bool(set(cluster_docs(window)) - before), timeout=10000)
    doc = next(d for d in cluster_docs(window) if d not in before)
    qtbot.waitUntil(lambda: doc.ready, timeout=timeout)
    return doc


def cluster_docs(window) -> list[ClusterDocument]:
    widgets = (window.documents.widget(i) for i in range(window.documents.count()))
    return [w for w in widgets if isinstance(w, ClusterDocument)]


def report_docs(window) -> list[ReportDocument]:
    widgets = (window.documents.widget(i) for i in range(window.documents.count()))
    return [w for w in widgets if isinstance(w, ReportDocument) and w.ready]


def finding_rows(doc) -> list[str]:
    return [item.text() for item in doc.overview.finding_items()]


def finding_point(doc, starts: str) -> QPoint:
    view = doc.overview.findings
    item = next(i for i in doc.overview.finding_items() if i.text().startswith(starts))
    view.scrollToItem(item)
    return view.visualItemRect(item).center()


def double_click(qtbot, viewport, pos: QPoint) -> None:
    """What a double-click sends: press and release, then the double-click."""
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=pos)


def wait_report_of(qtbot, window, folder: Path) -> ReportDocument:
    def opened():
        return next((d for d in report_docs(window) if Path(d.report.source) == folder), None)

    qtbot.waitUntil(lambda: opened() is not None, timeout=60000)
    return opened()


def hover_tip(qtbot, view, point, starts: str) -> str:
    """Move the mouse onto ``point()`` (a viewport position, taken again each try while the plot
    settles) until the view's tooltip starts with ``starts``."""
    jiggle = count()

    def there() -> bool:
        qtbot.mouseMove(view.viewport(), point() + QPoint(next(jiggle) % 2, 0))
        return view.toolTip().startswith(starts)

    qtbot.waitUntil(there, timeout=10000)
    return view.toolTip()


def test_open_cluster_shows_the_planted_slow_rank_and_link(qtbot, user, window, job):
    doc = open_cluster(qtbot, user, window, job)
    assert window.documents.tabText(window.documents.currentIndex()) == "Cluster llama8 (8 ranks)"
    assert tab_titles(doc) == ["Overview", "Communication", "Matrix"]
    assert doc.source.text() == str(job)
    header = doc.header.text()
    assert header.startswith("ranks: 8 · steps: 2 · stages: 2 · engine: ") and "files written to" in header
    written = sorted(p.name for p in (job / OUTPUT).iterdir())
    assert written == sorted(
        [
            "cluster.wbcluster",
            "cluster_communication.json",
            "cluster_communication_matrix.json",
            "cluster_step_trace_time.csv",
            "communication_group.json",
        ]
    )
    # the findings: the planted rank and link, each with its evidence, numbers with units
    rows = finding_rows(doc)
    assert len(rows) == 2, rows
    assert rows[0].startswith(f"Slow rank · Rank {SLOW_RANK}: Computing ") and "µs" in rows[0]
    assert "its stage (ranks 4–7)" in rows[0]
    assert rows[1].startswith(f"Slow link · Link {SLOW_LINK[0]} → {SLOW_LINK[1]} (HCCS): ") and "GB/s" in rows[1]
    # one heatmap row and one bar per rank; the slow rank's Computing is the heatmap's hottest row
    heat, bars = doc.overview.heatmap, doc.overview.bars
    assert heat.ranks == list(range(8)) and heat.values.shape == (8, 2)
    assert bars.ranks == list(range(8)) and len(bars.totals) == 8 and (bars.totals > 0).all()
    assert int(np.nanargmax(heat.values.mean(axis=1))) == SLOW_RANK
    tip = hover_tip(qtbot, heat.view, lambda: heat.cell_point(SLOW_RANK, 0), f"Rank {SLOW_RANK} · step 1")
    assert "Computing: " in tip and tip.endswith("µs")
    tip = hover_tip(qtbot, bars.plot_widget, lambda: bars.row_point(3), "Rank 3 (mean of the steps)")
    assert "Bubble: " in tip and "Total: " in tip
    # the heatmap of another column, the bars of one step
    user.choose(doc.overview.column, "Bubble")
    qtbot.waitUntil(lambda: heat.name == "Bubble", timeout=5000)
    user.step_to(doc.overview.step, "Step 2")
    qtbot.waitUntil(lambda: bars.caption == "step 2", timeout=5000)
    # the Matrix tab: for HCCS, the lowest cell is the slow link (outlined), its tooltip the evidence
    click_tab(qtbot, doc, "Matrix")
    matrix = doc.matrix
    user.choose(matrix.transport, "HCCS")
    grid = matrix.heatmap.bandwidth
    assert grid.shape == (8, 8) and np.isfinite(grid).sum() == len(matrix.cells) > 8
    i, j = np.unravel_index(np.nanargmin(grid), grid.shape)
    assert (matrix.ranks[i], matrix.ranks[j]) == SLOW_LINK
    assert len(matrix.outlines) == 1 and "slow links outlined: 2 → 3 (HCCS)" in matrix.note.text()
    heatmap = matrix.heatmap
    tip = hover_tip(
        qtbot, heatmap.view, lambda: heatmap.view.mapFromScene(heatmap.cell_center(int(i), int(j))), "2 → 3 · HCCS"
    )
    assert "Bandwidth: " in tip and " GB/s" in tip and " MB · Time: " in tip and tip.endswith(" ms")
    # the Communication tab: groups, operators (widest wait spread first), a selected op's ranks
    click_tab(qtbot, doc, "Communication")
    groups = table(doc.comm.groups)
    assert {"tp", "dp", "pp"} <= {g["Parallel Group"] for g in groups}
    assert {g["Ranks"] for g in groups if g["Parallel Group"] == "tp"} == {"0, 1", "2, 3", "4, 5", "6, 7"}
    ops = table(doc.comm.summary)
    spreads = [float(o["Wait Spread (ms)"]) for o in ops]
    assert spreads == sorted(spreads, reverse=True)
    assert list(ops[0]) == [
        "Group",
        "Step",
        "Operator",
        "Ranks",
        "Max Elapse (ms)",
        "Waited-for Rank",
        "Wait Spread (ms)",
    ]
    click_row(qtbot, doc.comm.summary.view, 1)
    qtbot.waitUntil(lambda: doc.comm.per_rank.note.text().startswith(ops[1]["Operator"]), timeout=5000)
    per_rank = table(doc.comm.per_rank)
    assert len(per_rank) == int(ops[1]["Ranks"]) and per_rank[0]["Rank"] in ops[1]["Group"]


def test_the_matrix_shows_all_transports_summed_and_an_unnamed_transport_on_its_own(qtbot, user, window, tmp_path):
    """Rank 0's links to rank 1 name no transport (the "—" entry): choosing it shows those links only, not
    every transport; "All transports" is each pair's sizes over its times, summed over its transports."""
    job = tmp_path / "job4"
    made = write_cluster_job(job, 4, tp=2)
    matrix_json = made.rank_dirs[0] / "ASCEND_PROFILER_OUTPUT" / "communication_matrix.json"
    doc = json.loads(matrix_json.read_text())
    for by_type in doc.values():
        for ops in by_type.values():
            for links in ops.values():
                if "0-1" in links:
                    links["0-1"]["Transport Type"] = ""
    matrix_json.write_text(json.dumps(doc))
    cluster = open_cluster(qtbot, user, window, job)
    click_tab(qtbot, cluster, "Matrix")
    matrix = cluster.matrix
    links = views.link_rows(cluster.report.tables)
    unnamed = {(r.src, r.dst) for r in links if r.transport == ""}
    assert unnamed and {r.transport for r in links} == {"", "HCCS"}

    def shown() -> set[tuple[int, int]]:
        grid = matrix.heatmap.bandwidth
        return {(matrix.ranks[i], matrix.ranks[j]) for i, j in zip(*np.nonzero(np.isfinite(grid)))}

    user.step_to(matrix.transport, "—")  # (the keyboard search cannot type "—")
    qtbot.waitUntil(lambda: shown() == unnamed, timeout=5000)
    assert {r.transport for cell in matrix.cells.values() for r in cell} == {""}
    user.choose(matrix.transport, "HCCS")
    qtbot.waitUntil(lambda: shown() == {(r.src, r.dst) for r in links if r.transport == "HCCS"}, timeout=5000)
    user.step_to(matrix.transport, "All transports")  # (typing right after "HCCS" extends its search)
    qtbot.waitUntil(lambda: shown() == {(r.src, r.dst) for r in links}, timeout=5000)
    grid, at = matrix.heatmap.bandwidth, {rank: i for i, rank in enumerate(matrix.ranks)}
    for src, dst in {(r.src, r.dst) for r in links}:
        pair = [r for r in links if (r.src, r.dst) == (src, dst)]
        total = sum(r.size_mb for r in pair) / sum(r.time_ms for r in pair)
        assert grid[at[src], at[dst]] == pytest.approx(total, abs=1e-4), (src, dst)


def test_a_rank_from_the_findings_the_charts_and_the_tables_opens_its_report(qtbot, user, window, job):
    doc = open_cluster(qtbot, user, window, job)
    overview = doc.overview
    assert not doc.act_open_rank.isEnabled()
    # a click on the slow rank's finding selects it in the heatmap and the bars
    view = overview.findings
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=finding_point(doc, "Slow rank"))
    qtbot.waitUntil(lambda: overview.heatmap.selected == SLOW_RANK, timeout=5000)
    assert overview.bars.selected == SLOW_RANK and overview.heatmap.outline is not None
    assert doc.act_open_rank.isEnabled() and doc.act_open_rank.text() == f"Open Rank {SLOW_RANK} Report"
    # a double-click on it opens that rank's folder as a report
    rank_dirs = {r.rank: Path(r.path) for r in doc.report.ranks}
    double_click(qtbot, view.viewport(), finding_point(doc, "Slow rank"))
    report = wait_report_of(qtbot, window, rank_dirs[SLOW_RANK])
    assert window.documents.tabText(window.documents.indexOf(report)) == rank_dirs[SLOW_RANK].name
    # back on the cluster: a click on rank 3's bar selects it, the toolbar opens its report
    window.documents.setCurrentWidget(doc)
    bars = overview.bars
    qtbot.waitUntil(lambda: bars.isVisible(), timeout=5000)
    qtbot.mouseClick(bars.plot_widget.viewport(), Qt.MouseButton.LeftButton, pos=bars.row_point(3))
    qtbot.waitUntil(lambda: overview.heatmap.selected == 3 and bars.selected == 3, timeout=5000)
    assert doc.act_open_rank.text() == "Open Rank 3 Report"
    user.click(doc.toolbar.widgetForAction(doc.act_open_rank))
    wait_report_of(qtbot, window, rank_dirs[3])
    # the heatmap's context menu: Open Rank 2 Report
    window.documents.setCurrentWidget(doc)
    heat = overview.heatmap
    qtbot.waitUntil(lambda: heat.isVisible(), timeout=5000)
    menus: list = []
    QTimer.singleShot(0, lambda: choose_in_menu(qtbot, "Open Rank 2 Report", menus))
    right_click(qtbot, heat.view.viewport(), heat.row_point(2))
    wait_report_of(qtbot, window, rank_dirs[2])
    assert menus == [["Open Rank 2 Report", "Open Timelines Aligned…"]] and heat.selected == 2
    # the slow link's finding offers both of its ranks and the matrix
    window.documents.setCurrentWidget(doc)
    qtbot.waitUntil(lambda: view.isVisible(), timeout=5000)
    menus.clear()
    QTimer.singleShot(0, lambda: choose_in_menu(qtbot, "Show in Matrix", menus))
    right_click(qtbot, view.viewport(), finding_point(doc, "Slow link"))
    qtbot.waitUntil(lambda: doc.tabs.currentWidget() is doc.matrix, timeout=5000)
    assert menus == [["Open Rank 2 Report", "Open Rank 3 Report", "Show in Matrix"]]
    assert doc.matrix.transport.currentText() == "HCCS"
    # the Communication tab: a double-click on a rank of the selected operator opens its report
    click_tab(qtbot, doc, "Communication")
    per_rank = doc.comm.per_rank.view
    qtbot.waitUntil(lambda: per_rank.isVisible() and per_rank.model().rowCount() > 1, timeout=5000)
    shown = [int(row["Rank"]) for row in table(doc.comm.per_rank)]
    row = next(i for i, r in enumerate(shown) if r not in (SLOW_RANK, 2, 3))  # a rank not open yet
    rank = shown[row]
    index = per_rank.model().index(row, 0)
    double_click(qtbot, per_rank.viewport(), per_rank.visualRect(index).center())
    wait_report_of(qtbot, window, rank_dirs[rank])


def test_a_remote_rank_says_it_is_remote(qtbot, user, window, job):
    """A rank reduced on another host (an SSH engine) cannot be opened here: one clear line says so."""
    first = open_cluster(qtbot, user, window, job)
    saved = job / OUTPUT / "cluster.wbcluster"
    doc = json.loads(saved.read_text(encoding="utf-8"))
    for rank in doc["report"]["ranks"]:
        if rank["rank"] == SLOW_RANK:
            rank["host"] = "node-b"
            rank["path"] = "/data/llama8/rank5_ascend_pt"
    saved.write_text(json.dumps(doc), encoding="utf-8")
    second = open_cluster(qtbot, user, window, job)
    assert second is not first
    view = second.overview.findings
    with user.answering(QMessageBox, lambda box: user.press(box, QMessageBox.StandardButton.Ok)) as seen:
        double_click(qtbot, view.viewport(), finding_point(second, "Slow rank"))
    assert seen == [
        f"Rank {SLOW_RANK} is on the remote host node-b (/data/llama8/rank5_ascend_pt): opening a remote rank's "
        "report is not supported; copy its folder to this machine and open it there."
    ]
    assert not report_docs(window)


def test_the_analysis_warnings_are_one_click_away(qtbot, user, window, job):
    """A folder that looks like a rank but is none: the analysis goes on, the header offers its warning."""
    broken = job / "node009_1_20240603093000000_ascend_pt"
    (broken / "ASCEND_PROFILER_OUTPUT").mkdir(parents=True)
    doc = open_cluster(qtbot, user, window, job)
    assert doc.warnings_button.isVisible() and doc.warnings_button.text() == "Warnings (1)…"
    user.click(doc.warnings_button)
    qtbot.waitUntil(lambda: doc.findChild(QDialog, "clusterWarningsDialog") is not None, timeout=5000)
    dialog = doc.findChild(QDialog, "clusterWarningsDialog")
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    text = dialog.findChild(QPlainTextEdit).toPlainText()
    assert text == f"{broken}: no profiler_info_<rank>.json, so its rank is unknown; skipped"
    user.press(dialog.findChild(QDialogButtonBox), QDialogButtonBox.StandardButton.Close)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)


def test_opening_the_same_folder_again_reads_the_saved_report(qtbot, user, window, job):
    first = open_cluster(qtbot, user, window, job)
    saved = job / OUTPUT / "cluster.wbcluster"
    stamp = saved.stat().st_mtime_ns
    second = open_cluster(qtbot, user, window, job, timeout=10000)
    assert second is not first and second.analysis.written == []
    assert second.report.created == first.report.created and second.report.engine == first.report.engine
    assert "re-opened from cluster.wbcluster (analysed " in second.header.text()
    assert saved.stat().st_mtime_ns == stamp, "nothing was analysed or written again"
    assert finding_rows(second) == finding_rows(first)


def test_reanalyse_asks_before_it_replaces_the_files(qtbot, user, window, job):
    doc = open_cluster(qtbot, user, window, job)
    saved = job / OUTPUT / "cluster.wbcluster"
    stamp = saved.stat().st_mtime_ns
    button = doc.toolbar.widgetForAction(doc.act_reanalyse)
    with user.answering(QMessageBox, lambda box: user.press(box, QMessageBox.StandardButton.No)) as seen:
        user.click(button)
    assert seen[0].startswith(f"{job / OUTPUT} holds the files of an earlier analysis (") and "Replace them?" in seen[0]
    assert doc.ready and saved.stat().st_mtime_ns == stamp, "No: nothing replaced"
    created = doc.report.created
    with user.answering(QMessageBox, lambda box: user.press(box, QMessageBox.StandardButton.Yes)):
        user.click(button)
    qtbot.waitUntil(lambda: doc.ready and doc.report.created > created, timeout=120000)
    assert saved.stat().st_mtime_ns > stamp and "files written to" in doc.header.text()
    assert finding_rows(doc)[0].startswith(f"Slow rank · Rank {SLOW_RANK}")


def test_cancel_stops_the_analysis(qtbot, user, window, tmp_path):
    big = tmp_path / "big64"
    write_cluster_job(big, 64, tp=2, pp=2, slow_rank=9, full=False)
    with user.answering(QFileDialog, user.typing_path(big)):
        user.trigger(window, "File/Open Cluster…")
    qtbot.waitUntil(lambda: bool(cluster_docs(window)), timeout=10000)
    doc = cluster_docs(window)[0]
    assert doc.stack.currentWidget() is doc.progress_page
    user.click(doc.cancel_button)
    qtbot.waitUntil(lambda: doc.stack.currentWidget() is doc.message_page, timeout=60000)
    assert doc.message.text() == f"The analysis of {big} was cancelled. No file was written."
    assert doc.report is None and not (big / OUTPUT).exists()
    assert doc.act_reanalyse.isEnabled(), "it can be analysed again"


def test_an_msprof_analyze_output_opens_with_its_ranks(qtbot, user, window, tmp_path, samples):
    """msprof-analyze's cluster_analysis_output (its real files) through File ▸ Open Report Folder…:
    it opens as a Cluster document of its 8 ranks, read as it is."""
    out = tmp_path / OUTPUT
    shutil.copytree(samples / "msprof-analyze-cluster", out)
    for path in out.iterdir():
        path.chmod(0o644)
    with user.answering(QFileDialog, user.typing_path(out)):
        user.trigger(window, "File/Open Report Folder…")
    qtbot.waitUntil(lambda: bool(cluster_docs(window)) and cluster_docs(window)[0].ready, timeout=30000)
    doc = cluster_docs(window)[0]
    assert doc.source.text() == str(tmp_path)
    assert doc.header.text() == (
        "ranks: 8 · steps: 1 · stages: 1 · engine: msprof-analyze · read from msprof-analyze's cluster_analysis_output"
    )
    assert doc.overview.heatmap.ranks == list(range(8)) and len(doc.overview.bars.totals) == 8
    assert doc.overview.heatmap.step_labels == ["—"], "msprof-analyze leaves Step empty: no steps"
    assert finding_rows(doc)[0].startswith("No slow rank")
    click_tab(qtbot, doc, "Communication")
    assert [o["Operator"] for o in table(doc.comm.summary)] == [
        "hcom_broadcast__501_0@6297232067196334501",
        "hcom_broadcast__501_1@6297232067196334501",
    ]
    assert not report_docs(window), "no empty report page"
    assert sorted(p.name for p in out.iterdir()) == ["cluster_communication.json", "cluster_step_trace_time.csv"]


def test_the_picker_analyses_a_folder_of_ranks_as_a_cluster(qtbot, user, window, job):
    """File ▸ Open Report Folder… on the job: the picker lists its 8 ranks and offers Analyse as
    Cluster; the Cluster document of the job opens. Once analysed, the picker lists the
    cluster_analysis_output too, and Open on it opens the Cluster document (not an empty report)."""

    def picker():
        shown = [w for w in window.findChildren(ReportPickerDialog) if w.isVisible()]
        return shown[0] if shown else None

    with user.answering(QFileDialog, user.typing_path(job)):
        user.trigger(window, "File/Open Report Folder…")
    qtbot.waitUntil(lambda: picker() is not None, timeout=30000)
    dialog = picker()
    assert dialog.tree.topLevelItemCount() == 8
    user.click(dialog.analyse_button)
    qtbot.waitUntil(lambda: bool(cluster_docs(window)) and cluster_docs(window)[0].ready, timeout=120000)
    doc = cluster_docs(window)[0]
    assert doc.source.text() == str(job) and finding_rows(doc)[0].startswith(f"Slow rank · Rank {SLOW_RANK}")
    with user.answering(QFileDialog, user.typing_path(job)):
        user.trigger(window, "File/Open Report Folder…")
    qtbot.waitUntil(lambda: picker() is not None and picker() is not dialog, timeout=30000)
    dialog = picker()
    names = [dialog.tree.topLevelItem(i).text(0) for i in range(dialog.tree.topLevelItemCount())]
    assert names[0] == OUTPUT and len(names) == 9
    rect = dialog.tree.visualItemRect(dialog.tree.topLevelItem(0))
    qtbot.mouseClick(dialog.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert dialog.selected_paths() == [job / OUTPUT]
    user.click(dialog.open_button)
    qtbot.waitUntil(lambda: len(cluster_docs(window)) == 2 and cluster_docs(window)[1].ready, timeout=30000)
    again = cluster_docs(window)[1]
    assert "re-opened from cluster.wbcluster" in again.header.text() and not report_docs(window)


def test_the_cluster_document_in_chinese(qtbot, user, zh_window, tmp_path, samples):
    out = tmp_path / OUTPUT
    shutil.copytree(samples / "msprof-analyze-cluster", out)
    for path in out.iterdir():
        path.chmod(0o644)
    doc = open_cluster(qtbot, user, zh_window, out, timeout=30000)
    assert tab_titles(doc) == ["概览", "通信", "矩阵"]
    assert doc.act_reanalyse.text() == "重新分析"
    assert doc.header.text().startswith("Rank 数：8 · 迭代数：1 · 阶段数：1 · 引擎：msprof-analyze · 读自")
    assert doc.overview.column.currentText() == "计算"
    click_tab(qtbot, doc, "通信")
    headers = ["通信域", "迭代", "算子", "Rank", "最大总耗时 (ms)", "被等待的 Rank", "等待差 (ms)"]
    assert list(table(doc.comm.summary)[0]) == headers
    assert zh_window.documents.tabText(zh_window.documents.currentIndex()) == f"集群 {tmp_path.name}（8 个 Rank）"
