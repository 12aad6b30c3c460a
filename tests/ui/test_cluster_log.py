"""The Output tab of a cluster analysis reads as lines for a user: opening the real 2-rank job through
File ▸ Open Cluster… logs each rank and the merge, never the engine's per-rank result objects."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog

from workbench.ui.cluster.document import ClusterDocument

JOB = Path(__file__).resolve().parents[1] / "core" / "cluster" / "data" / "torch_npu-910B-2rank"


def test_the_cluster_log_shows_lines_not_result_objects(window, qtbot, user, tmp_path):
    job = tmp_path / "job"
    shutil.copytree(JOB, job)
    text = QCoreApplication.translate("MainWindow", "Open Cluster…")
    entry = next(p for p in window.menu_entries() if p.count("/") == 1 and p.endswith("/" + text))
    with user.answering(QFileDialog, user.typing_path(job)):
        user.trigger(window, entry)

    def doc():
        widgets = (window.documents.widget(i) for i in range(window.documents.count()))
        return next((w for w in widgets if isinstance(w, ClusterDocument)), None)

    qtbot.waitUntil(lambda: doc() is not None and doc().ready, timeout=60000)
    tabs = window.output.tabs
    view = next(tabs.widget(i) for i in range(tabs.count()) if "cluster" in tabs.tabText(i).lower())
    qtbot.waitUntil(lambda: "Finished." in view.toPlainText(), timeout=10000)
    log = view.toPlainText()
    assert "rank 1 done (2/2)" in log and "Merging 2 ranks" in log
    assert "Outcome(" not in log and "RankReduction(" not in log, log
