"""Baseline comparison view: scaled operator durations show up as exactly that diff, regressions
first and red, status filter, xlsx export read back, a row opens both timelines, and the report's
Baseline Comparison sub-view."""

from __future__ import annotations

import csv
import re
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QPoint, QPointF, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLabel
from uikit import User

from workbench.ui.compare.view import RED, CompareView

# offscreen QPA: the file dialog's completion popup raises itself and grabs the keyboard, which that
# platform cannot do (real platforms can); the warnings say so and are harmless here.


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
    """Ascend ▸ Baseline Comparison…, both paths typed, Compare clicked: the comparison's tab."""
    from workbench.ui.compare.dialog import CompareDialog

    def fill(dialog: CompareDialog) -> None:
        qtbot.keyClicks(dialog.base.edit.lineEdit(), str(base))
        qtbot.keyClicks(dialog.current.edit.lineEdit(), str(cur))
        qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    names = {"Baseline Comparison…", QCoreApplication.translate("MainWindow", "Baseline Comparison…")}
    action = next(a for path, a in window.menu_entries().items() if path.split("/")[-1] in names)
    with User(qtbot).answering(CompareDialog, fill):
        action.trigger()
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), CompareView), timeout=60000)
    view = window.documents.currentWidget()
    assert str(view.comparison.base.source) == str(base) and str(view.comparison.current.source) == str(cur)
    return view


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
    with User(qtbot).answering(QFileDialog, User(qtbot).typing_path(out)):
        qtbot.mouseClick(view.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(out.exists, timeout=10000)
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
    bar = doc.tabs.tabBar()
    tab = next(i for i in range(doc.tabs.count()) if doc.tabs.widget(i) is doc.baseline)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(tab).center())
    qtbot.waitUntil(doc.baseline.isVisible, timeout=5000)
    qtbot.mouseClick(doc.baseline.path, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(doc.baseline.path, str(base))
    qtbot.mouseClick(doc.baseline.compare_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: doc.baseline.view is not None, timeout=30000)
    frame = doc.baseline.view.frame.set_index("key")
    assert frame.loc["MatMulV2", "diff_us"] == pytest.approx(float(expected["MatMulV2"]), abs=1e-6)
    assert doc.baseline.compare_button.isEnabled()


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


# --- issue 15: width, chart labels, zh_CN ----------------------------------------------------------------------

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def zh_window(zh_window):
    """The zh_CN main window of tests/ui/conftest.py at 1600×1000."""
    zh_window.resize(1600, 1000)
    return zh_window


def _runs_in_deep_folders(tmp_path) -> list[Path]:
    """Two msprof runs (2 and 4 iterations) under a long, realistic project path."""
    from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof

    deep = tmp_path / "home" / "developer" / "projects" / "resnet50-training-experiments" / "profiling"
    return [
        write_msprof_prof(deep / f"2024-06-03-baseline-run-{n}-iterations", resnet50_workload(), iterations=n, seed=3)
        for n in (2, 4)
    ]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_comparison_fits_a_1600_px_window(qtbot, window, zh_window, tmp_path, lang):
    win = zh_window if lang == "zh_CN" else window
    win.resize(1600, 1000)
    qtbot.waitUntil(lambda: win.width() == 1600)
    base, cur = _runs_in_deep_folders(tmp_path)
    view = compare(qtbot, win, base, cur)
    qtbot.waitUntil(view.isVisible)
    assert view.minimumSizeHint().width() < 1200
    assert win.width() <= 1600 and win.minimumSizeHint().width() <= 1600
    # the paths are whole in the tooltip
    sources = [w for w in view.findChildren(QLabel) if w.toolTip() == str(base)]
    assert sources and sources[0].width() <= view.width()


def test_the_top_chart_elides_long_op_names_and_tells_them_on_hover(qtbot, window, tmp_path, samples):
    src = samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv"
    scaled_copy(src, tmp_path / "cur" / "kernel_details.csv", "FlashAttentionScoreGrad", "1.5")
    view = compare(qtbot, window, src, tmp_path / "cur" / "kernel_details.csv")
    qtbot.waitUntil(view.isVisible)
    # By op name, chosen in the combo box as a user does
    qtbot.keyClick(view.by_box, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: view.by == "name")
    chart = view.chart
    full = "aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad"
    qtbot.waitUntil(lambda: full in chart.names)
    i = chart.names.index(full)
    label = chart.labels[i]
    assert label != full and "…" in label and label[:6] == full[:6] and label[-6:] == full[-6:]
    metrics = QFontMetrics(chart.font())
    assert all(metrics.horizontalAdvance(t) <= chart.label_px for t in chart.labels)
    assert chart.axis.width() >= chart.label_px  # the axis has room for every label
    # the title is shown whole (it wraps rather than clips)
    assert chart.title.text() == "Top regressions / improvements (µs)" and chart.title.isVisible()
    assert chart.title.wordWrap() and chart.title.height() >= chart.title.heightForWidth(chart.title.width())
    # hovering the bar shows the full name and its diff
    vb = chart.plot.getPlotItem().getViewBox()
    value = chart.values[i]
    moves = iter(range(10**6))

    def hovered() -> bool:
        # the bar's place on screen is taken each try (the chart may still be laying out its new
        # rows on a busy machine), the mouse moved off and back on as a user re-hovers
        at = chart.plot.mapFromScene(vb.mapViewToScene(QPointF(value / 2, i)))
        qtbot.mouseMove(chart.plot.viewport(), at + QPoint(next(moves) % 2, 0))
        return chart.plot.toolTip().startswith(full)

    qtbot.waitUntil(hovered, timeout=10000)
    assert f"{value:,.3f}" in chart.plot.toolTip()


def test_every_warning_core_writes_is_translatable():
    """Core's comparison warnings, driven into each of their branches, all match a template of
    the view, so a zh_CN window shows them in Chinese."""
    import pandas as pd

    from workbench.core.compare import facts, overall
    from workbench.core.profiling import views
    from workbench.core.profiling.report import Report
    from workbench.ui.compare.view import WARNINGS

    out: list[str] = []
    facts.pair_devices([0, 1], [2], None, out)
    facts.pair_devices([3], [0, 1], None, out)
    a, b = Report(Path("a"), "msprof"), Report(Path("b"), "torch_npu")
    b.tables["ops"] = pd.DataFrame()
    for base_facts, cur_facts in (
        ({"chip": "910B2", "cann_version": "8.0", "model_name": "m", "pmu_group": "P"}, {k: "x" for k in "abc"}),
        ({}, {"chip": "910B2", "cann_version": "8.0", "model_name": "m"}),
        (
            {"chip": "1", "cann_version": "1", "model_name": "1", "pmu_group": "1"},
            {"chip": "2", "cann_version": "2", "model_name": "2", "pmu_group": "2"},
        ),
    ):
        out += facts.fact_warnings(a, b, base_facts, cur_facts)
        out += facts.fact_warnings(b, a, cur_facts, base_facts)
    for table in ("ai_core_metrics", "step_trace_time"):
        a.tables[table] = pd.DataFrame()
        out += facts.fact_warnings(a, b, {}, {}) + facts.fact_warnings(b, a, {}, {})
        del a.tables[table]
    out += facts.fact_warnings(Report(Path("c"), "msprof"), Report(Path("d"), "msprof"), {}, {})
    m1 = pd.DataFrame({"type": ["A"], "x_ratio": [0.1], "y_ratio": [0.2]})
    m2 = pd.DataFrame({"type": ["A"], "x_ratio": [0.1], "z_ratio": [0.2]})
    overall.metric_rows(m1, m2, 1.0, out)
    ops = pd.DataFrame({"type": ["A"], "duration_us": [1.0], "start_ns": [1]})
    typed = ops.assign(task_type=["AI_CORE"])
    for first, second in ((ops, typed), (typed, ops)):
        overall.overall_rows(first, second, a, a, ([0], [0]), 1.0, out)
    out += [f"no OP {by} is present in both reports: every row is added or removed" for by in ("type", "name")]
    assert len(out) > 20
    unmatched = [w for w in out if views.match_template(w, WARNINGS) is None]
    assert not unmatched


def test_zh_cn_comparison_warnings_and_tables_are_chinese(qtbot, zh_window, samples):
    arith = samples / "torch_npu-kernel_details-arith" / "kernel_details.csv"
    pipe = samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv"
    view = compare(qtbot, zh_window, arith, pipe)
    assert view.comparison.warnings  # different PMU groups, metrics on one side only
    lines = view.warnings.text().split("\n")
    assert len(lines) == len(view.comparison.warnings)
    for english, shown in zip(view.comparison.warnings, lines):
        assert CJK.search(shown), shown
        assert english.split(":")[0] not in shown
    for table in (view.ops, view.overall, view.metrics):
        model = table.model
        hs = [str(model.headerData(c, Qt.Orientation.Horizontal)) for c in range(model.columnCount())]
        assert hs and all(CJK.search(h) or h in ("#",) for h in hs), hs
    model = view.overall.model
    overall_names = [str(model.data(model.index(r, 0))) for r in range(model.rowCount())]
    assert all(CJK.search(n) for n in overall_names), overall_names
