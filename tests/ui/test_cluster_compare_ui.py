"""The Cluster document's comparisons as a user drives them: File ▸ Open Cluster… on a generated 8-rank
job whose rank 5 computes slowly (and whose link 2 → 3 is slow), then the toolbar's Compare with
Baseline… with the same job generated without them typed into Qt's own folder dialog: the Comparison
tab shows rank 5 on top and the planted rank and link as new problems, nothing written into the
baseline; a folder that is no cluster says so in one line; Compare Ranks… on the selected rank 5
against rank 4 shows the two ranks side by side; a re-analysis compares again."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QMessageBox
from reportkit import tab_titles, table
from test_cluster_ui import finding_point, open_cluster

from workbench.simtoolkit.profdata.clusterjob import write_cluster_job
from workbench.ui.cluster.compare import CompareRanksDialog

SLOW_RANK, SLOW_LINK, SEED = 5, (2, 3), 4


@pytest.fixture
def jobs(tmp_path) -> tuple[Path, Path]:
    """(the baseline, the current job): the same 8-rank job, the current one with a slow rank and link."""
    base, current = tmp_path / "baseline" / "llama8", tmp_path / "llama8"
    write_cluster_job(base, 8, tp=2, pp=2, seed=SEED)
    write_cluster_job(current, 8, tp=2, pp=2, slow_rank=SLOW_RANK, slow_link=SLOW_LINK, seed=SEED)
    return base, current


def step_values(report, column: str) -> dict[tuple[int, str], float]:
    """(rank, step) -> the cluster_step_trace_time value of ``column`` the document's report holds."""
    at = report.tables.step_header.index(column)
    return {(r[2], r[0]): r[at] for r in report.tables.step_rows if r[1] == "rank"}


def compare_with_baseline(qtbot, user, doc, folder: Path):
    """The toolbar's Compare with Baseline…, ``folder`` typed into Qt's folder dialog; the tab."""
    button = doc.toolbar.widgetForAction(doc.comparisons.act_baseline)
    with user.answering(QFileDialog, user.typing_path(folder)) as seen:
        user.click(button)
    assert seen == ["Compare with Baseline"]
    qtbot.waitUntil(lambda: "Comparison" in tab_titles(doc), timeout=5000)
    return doc.tabs.widget(tab_titles(doc).index("Comparison"))


def test_compare_with_a_baseline_shows_the_slow_rank_on_top(qtbot, user, window, jobs):
    base, current = jobs
    doc = open_cluster(qtbot, user, window, current)
    assert doc.comparisons.act_baseline.isEnabled() and doc.comparisons.act_ranks.isEnabled()
    tab = compare_with_baseline(qtbot, user, doc, base)
    qtbot.waitUntil(lambda: tab.pane is not None and tab.pane.isVisible(), timeout=120000)
    assert doc.tabs.currentWidget() is tab
    assert tab_titles(doc) == ["Overview", "Communication", "Matrix", "Comparison"]
    pane = tab.pane
    assert pane.note.text().startswith(
        f"{current} against the baseline {base}: 8 ranks × 2 steps compared (16 rows), times in µs."
    )
    # the planted slow rank and link are new problems
    rows = pane.finding_rows()
    assert len(rows) == 2, rows
    assert rows[0].startswith(f"New · Slow rank · Rank {SLOW_RANK}: Computing ")
    assert rows[1].startswith(f"New · Slow link · Link {SLOW_LINK[0]} → {SLOW_LINK[1]} (HCCS): ")
    # rank 5 regressed, in Computing, by what the two clusters' cells say; on top of the ranks too
    regressed = table(pane.regressions)
    assert [(r["Rank"], r["Column"]) for r in regressed] == [(str(SLOW_RANK), "Computing")]
    ranks = table(pane.ranks)
    assert ranks[0]["Rank"] == str(SLOW_RANK) and len(ranks) == 8
    now = step_values(doc.report, "Computing")
    was = step_values(_base_report(base), "Computing")
    b = (was[(SLOW_RANK, "1")] + was[(SLOW_RANK, "2")]) / 2
    c = (now[(SLOW_RANK, "1")] + now[(SLOW_RANK, "2")]) / 2
    assert regressed[0]["Baseline (µs)"] == f"{b:.3f}" and regressed[0]["Current (µs)"] == f"{c:.3f}"
    assert ranks[0]["Δ Computing (µs)"] == f"{c - b:.3f}"
    # the rows of one column: each (rank, step) with both cells and the change
    user.choose(pane.column, "Computing")
    qtbot.waitUntil(lambda: len(table(pane.rows)) == 16, timeout=5000)
    five = next(r for r in table(pane.rows) if r["Rank"] == str(SLOW_RANK) and r["Step"] == "1")
    cell_b, cell_c = was[(SLOW_RANK, "1")], now[(SLOW_RANK, "1")]
    assert (five["Baseline (µs)"], five["Current (µs)"], five["Change (µs)"]) == (
        f"{cell_b:.3f}",
        f"{cell_c:.3f}",
        f"{cell_c - cell_b:.3f}",
    )
    assert [t["Column"] for t in table(pane.totals)][0] == "Computing"
    assert not (base / "cluster_analysis_output").exists(), "nothing is written into the baseline"


def _base_report(folder: Path):
    from workbench.core.cluster import analyze

    return analyze.open_cluster(folder, write=False).report


def test_a_baseline_that_is_no_cluster_says_so_in_one_line(qtbot, user, window, jobs, tmp_path):
    _base, current = jobs
    doc = open_cluster(qtbot, user, window, current)
    empty = tmp_path / "empty"
    empty.mkdir()
    tab = compare_with_baseline(qtbot, user, doc, empty)
    qtbot.waitUntil(lambda: tab.currentWidget() is tab.message_page and tab.message.isVisible(), timeout=30000)
    text = tab.message.text()
    assert text.startswith(f"{empty}: no rank folders (") and "\n" not in text and "Error" not in text
    assert tab.pane is None and doc.ready


def test_cancel_stops_opening_the_baseline(qtbot, user, window, jobs, tmp_path):
    """A 64-rank baseline is still being analysed when the user clicks Cancel in the Comparison tab."""
    _base, current = jobs
    big = tmp_path / "big64"
    write_cluster_job(big, 64, tp=2, pp=2, slow_rank=9, full=False)
    doc = open_cluster(qtbot, user, window, current)
    tab = compare_with_baseline(qtbot, user, doc, big)
    assert tab.currentWidget() is tab.progress_page and tab.progress_title.text() == "Opening the baseline big64"
    user.click(tab.cancel_button)
    qtbot.waitUntil(lambda: tab.currentWidget() is tab.message_page and tab.message.isVisible(), timeout=60000)
    assert tab.message.text() == f"The comparison with the baseline {big} was cancelled."
    assert tab.pane is None and not (big / "cluster_analysis_output").exists()
    assert doc.comparisons.act_baseline.isEnabled(), "it can be compared again"


def test_compare_ranks_shows_two_ranks_side_by_side(qtbot, user, window, jobs):
    _base, current = jobs
    doc = open_cluster(qtbot, user, window, current)
    # select rank 5 (its finding), then Compare Ranks…: rank 5 against a rank of its stage, 4
    view = doc.overview.findings
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=finding_point(doc, "Slow rank"))
    qtbot.waitUntil(lambda: doc.act_open_rank.text() == f"Open Rank {SLOW_RANK} Report", timeout=5000)
    user.click(doc.toolbar.widgetForAction(doc.comparisons.act_ranks))
    qtbot.waitUntil(lambda: _dialog(doc) is not None, timeout=5000)
    dialog = _dialog(doc)
    assert dialog.windowTitle() == "Compare Ranks"
    assert (dialog.rank.currentText(), dialog.against.currentText()) == (f"Rank {SLOW_RANK}", "Rank 4")
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    user.step_to(dialog.against, f"Rank {SLOW_RANK}")  # the same rank twice: nothing to compare
    assert not ok.isEnabled() and dialog.hint.text() == "Choose two different ranks."
    user.step_to(dialog.against, "Rank 4")
    assert ok.isEnabled()
    user.press(dialog.buttons, QDialogButtonBox.StandardButton.Ok)
    qtbot.waitUntil(lambda: "Rank Comparison" in tab_titles(doc), timeout=5000)
    tab = doc.tabs.widget(tab_titles(doc).index("Rank Comparison"))
    qtbot.waitUntil(lambda: tab.pane is not None and tab.pane.isVisible(), timeout=5000)
    pane = tab.pane
    assert pane.note.text() == f"Rank {SLOW_RANK} against rank 4 of {current}: 2 steps compared, times in µs."
    assert pane.finding_rows()[0].startswith(f"Slow rank · Rank {SLOW_RANK}: Computing ")
    assert [(r["Rank"], r["Column"]) for r in table(pane.regressions)] == [(str(SLOW_RANK), "Computing")]
    # the two ranks' cells side by side, per step and column
    user.choose(pane.column, "Computing")
    qtbot.waitUntil(lambda: len(table(pane.rows)) == 2, timeout=5000)
    cells = step_values(doc.report, "Computing")
    for row in table(pane.rows):
        four, five = cells[(4, row["Step"])], cells[(SLOW_RANK, row["Step"])]
        assert list(row) == ["Step", "Column", "Rank 4 (µs)", f"Rank {SLOW_RANK} (µs)", "Change (µs)", "Change (%)"]
        assert (row["Rank 4 (µs)"], row[f"Rank {SLOW_RANK} (µs)"], row["Change (µs)"]) == (
            f"{four:.3f}",
            f"{five:.3f}",
            f"{five - four:.3f}",
        )
    # a re-analysis compares the same two ranks again
    note = pane.note.text()
    created = doc.report.created
    with user.answering(QMessageBox, lambda box: user.press(box, QMessageBox.StandardButton.Yes)):
        user.click(doc.toolbar.widgetForAction(doc.act_reanalyse))
    qtbot.waitUntil(lambda: doc.ready and doc.report.created > created, timeout=120000)
    assert tab_titles(doc) == ["Overview", "Communication", "Matrix", "Rank Comparison"]
    again = doc.comparisons.ranks_tab
    assert again is not tab
    qtbot.waitUntil(lambda: again.pane is not None, timeout=5000)
    assert again.pane.note.text() == note and [r["Column"] for r in table(again.pane.regressions)] == ["Computing"]


def _dialog(doc) -> CompareRanksDialog | None:
    found = [d for d in doc.findChildren(CompareRanksDialog) if d.isVisible()]
    return found[0] if found else None
