"""A report that holds tables only (a kernel_details.csv, no trace): the note about the missing
timeline is one line and the tables get the room, the Statistics table first."""

from __future__ import annotations

import csv
import shutil

from reportkit import open_report, table


def test_a_tables_only_report_opens_on_its_statistics_with_the_room_for_them(qtbot, user, window, tmp_path, samples):
    path = tmp_path / "kernel_details.csv"
    shutil.copyfile(samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv", path)
    with path.open(encoding="utf-8-sig", newline="") as fh:
        types = {row["Type"].strip() for row in csv.DictReader(fh)}
    window.resize(1400, 900)
    window.show()
    doc = open_report(qtbot, user, window, path)
    assert doc.timeline_view is None
    qtbot.waitUntil(lambda: doc.data_tabs.isVisible(), timeout=5000)
    assert doc.data_tabs.currentWidget() is doc.stats
    note = doc.tabs.currentWidget().widget(0)
    assert "no timeline to draw" in note.text()
    assert doc.data_tabs.height() > 4 * note.height()
    qtbot.waitUntil(lambda: doc.stats.model.rowCount() == len(types), timeout=10000)
    assert {r["OP Type"] for r in table(doc.stats)} == types
