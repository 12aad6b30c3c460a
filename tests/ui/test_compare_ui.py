"""Baseline comparison view: scaled operator durations show up as exactly that diff, regressions
first and red, status filter, xlsx export read back, a row opens both timelines, and the report's
Baseline Comparison sub-view."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from workbench.ui.compare.view import RED, CompareView


def scaled_copy(src: Path, dst: Path, op_type: str, factor: str) -> dict[str, Decimal]:
    """Copy a kernel_details.csv scaling one OP type's durations; return expected totals per type."""
    with src.open(newline="") as fh:
        rows = list(csv.reader(fh))
    head = rows[0]
    di, ti = head.index("Duration(us)"), head.index("Type")
    base: dict[str, Decimal] = {}
    cur: dict[str, Decimal] = {}
    for r in rows[1:]:
        d = Decimal(r[di].strip())
        base[r[ti]] = base.get(r[ti], Decimal(0)) + d
        if r[ti] == op_type:
            d = (d * Decimal(factor)).quantize(Decimal("0.001"))
            r[di] = str(d)
        cur[r[ti]] = cur.get(r[ti], Decimal(0)) + d
    dst.parent.mkdir(parents=True, exist_ok=True)
    with dst.open("w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    return {k: cur[k] - base[k] for k in base}


@pytest.fixture
def pair(tmp_path, samples):
    src = samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv"
    expected = scaled_copy(src, tmp_path / "cur" / "kernel_details.csv", "MatMulV2", "1.5")
    return src, tmp_path / "cur" / "kernel_details.csv", expected


def compare(qtbot, window, base, cur) -> CompareView:
    from workbench.ui.compare.dialog import start_comparison

    task = start_comparison(window.context, str(base), str(cur))
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), CompareView), timeout=30000)
    assert task.state.value == "succeeded"
    return window.documents.currentWidget()


def test_scaled_type_shows_its_exact_diff(qtbot, window, pair, tmp_path):
    base, cur, expected = pair
    view = compare(qtbot, window, base, cur)
    frame = view.frame
    assert frame.iloc[0]["key"] == "MatMulV2" and frame.iloc[0]["status"] == "slower", "regressions first"
    by_key = frame.set_index("key")
    for key, diff in expected.items():
        assert by_key.loc[key, "diff_us"] == pytest.approx(float(diff), abs=1e-6), key
        if diff == 0:
            assert by_key.loc[key, "status"] == "same"
    model = view.ops.model
    assert model.data(model.index(0, 0), Qt.ItemDataRole.ForegroundRole) == RED
    assert model.data(model.index(len(frame) - 1, 0), Qt.ItemDataRole.ForegroundRole) is None
    # status filter
    view.status_checks["same"].setChecked(False)
    assert set(view.frame["status"]) == {"slower"}
    # xlsx export read back
    from openpyxl import load_workbook

    out = tmp_path / "cmp.xlsx"
    view.export(str(out))
    book = load_workbook(out)
    assert {"Overall", "OpType", "OpName", "AICoreMetrics", "Warnings"} <= set(book.sheetnames)
    sheet = book["OpType"]
    header = [c.value for c in sheet[1]]
    rows = {r[0]: r for r in sheet.iter_rows(min_row=2, values_only=True)}  # first column: the OP type
    assert rows["MatMulV2"][header.index("Diff(us)")] == pytest.approx(float(expected["MatMulV2"]), abs=1e-6)


def test_identical_reports_compare_to_zero(qtbot, window, samples):
    src = samples / "torch_npu-kernel_details-arith" / "kernel_details.csv"
    view = compare(qtbot, window, src, src)
    assert set(view.frame["status"]) == {"same"}
    assert (view.frame["diff_us"] == 0).all()
    assert "+0.00%" in view.total_label.text()


def test_row_opens_both_timelines(qtbot, window):
    from workbench.core.demo import sample_reports
    from workbench.ui.report.document import ReportDocument

    prof = next(p for p in sample_reports() if p.name.startswith("PROF_"))
    view = compare(qtbot, window, prof, prof)
    row = view.frame[view.frame["key"] == "Conv2D"].iloc[0]
    window.open_comparison_row(view.comparison, row)
    docs = [window.documents.widget(i) for i in range(window.documents.count())]
    reports = [d for d in docs if isinstance(d, ReportDocument)]
    assert reports, "the report's timeline opened"
    tv = reports[0].timeline_view
    sel = tv.selected
    assert sel is not None
    assert int(tv.timeline.origin_ns) + int(tv.timeline.start_ns[sel]) == int(row["base_first_ns"])


def test_report_baseline_subview(qtbot, window, pair):
    from workbench.ui.report.document import ReportDocument

    base, cur, expected = pair
    window.open_path(cur)
    qtbot.waitUntil(
        lambda: isinstance(window.documents.currentWidget(), ReportDocument) and window.documents.currentWidget().ready,
        timeout=30000,
    )
    doc = window.documents.currentWidget()
    doc.show_view("baseline")
    doc.baseline.path.setText(str(base))
    task = doc.baseline.compare()
    qtbot.waitUntil(lambda: doc.baseline.view is not None, timeout=30000)
    frame = doc.baseline.view.frame.set_index("key")
    assert frame.loc["MatMulV2", "diff_us"] == pytest.approx(float(expected["MatMulV2"]), abs=1e-6)
    assert task.state.value == "succeeded"


def _menu_action(window, text: str):
    for menu_action in window.menuBar().actions():
        for action in menu_action.menu().actions():
            if action.text() == text:
                return action
    raise AssertionError(f"no menu action {text!r}")


def test_a_longer_run_compares_per_step_through_the_dialog(qtbot, window, tmp_path):
    """Ascend ▸ Baseline Comparison…, both paths typed, Compare clicked: a 4-iteration run of the
    same model against a 2-iteration one is not a regression, and the view says why."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QDialogButtonBox

    from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof
    from workbench.ui.compare.dialog import CompareDialog

    runs = [write_msprof_prof(tmp_path / f"i{n}", resnet50_workload(), iterations=n, seed=3) for n in (2, 4)]
    filled = []

    def fill() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, CompareDialog):
            QTimer.singleShot(20, fill)  # not open yet: look again
            return
        qtbot.keyClicks(dialog.base.edit.lineEdit(), str(runs[0]))
        qtbot.keyClicks(dialog.current.edit.lineEdit(), str(runs[1]))
        filled.append(True)
        qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, fill)
    _menu_action(window, "Baseline Comparison…").trigger()
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), CompareView), timeout=60000)
    view = window.documents.currentWidget()
    assert filled
    assert "time per step (2 base steps, 4 current steps)" in view.basis_label.text()
    assert "Device time per step" in view.basis_label.text()
    assert RED.name() not in view.total_label.styleSheet()  # the doubled total is not called slower
    assert not (view.frame["status"] == "slower").all()
