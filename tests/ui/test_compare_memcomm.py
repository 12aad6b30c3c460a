"""The comparison window's Memory and Communication tabs (issue 19): the real torch_npu 910B sample
against a copy with bigger operator allocations, a higher PTA peak and a slower allReduce, opened
through Ascend ▸ Baseline Comparison…; the tabs clicked; the numbers shown checked against the files
(csv / json + Decimal); zh_CN shows them in Chinese."""

from __future__ import annotations

import csv
import json
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog
from uikit import User

from workbench.ui.compare.view import GREEN, RED, CompareView

SAMPLE = "torch_npu-910B-rank0-comm-mem"
CJK = re.compile(r"[\u4e00-\u9fff]")


def _report(samples: Path, dst: Path) -> Path:
    out = dst / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    out.mkdir(parents=True)
    for src in (samples / SAMPLE).iterdir():
        shutil.copy(src, out / src.name)
    return out.parent


def _rewrite_csv(path: Path, change) -> None:
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    header = rows[0]
    for row in rows[1:]:
        change(dict(zip(header, (c.strip() for c in row))), row, header)
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\r\n").writerows(rows)


def _sizes(path: Path, name: str) -> tuple[int, Decimal]:
    with path.open(newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["Name"].strip() == name]
    return len(rows), sum((Decimal(r["Size(KB)"].strip()) for r in rows), Decimal(0))


def _elapses(path: Path) -> list[Decimal]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [
        Decimal(repr(info["Communication Time Info"]["Elapse Time(ms)"])) * 1000
        for step in doc.values()
        for ops in step.values()
        for name, info in ops.items()
        if name.lower().startswith("hcom_allreduce")
    ]


@pytest.fixture
def pair(samples, tmp_path):
    base = _report(samples, tmp_path / "base")
    cur = _report(samples, tmp_path / "cur")
    out = cur / "ASCEND_PROFILER_OUTPUT"

    def bigger_mm(r, row, header):
        if r["Name"] == "aten::mm":
            row[header.index("Size(KB)")] = str(Decimal(r["Size(KB)"]) * 3)

    def higher_pta(r, row, header):
        if r["Component"] == "PTA" and r["Total Allocated(MB)"]:
            row[header.index("Total Allocated(MB)")] = str(Decimal(r["Total Allocated(MB)"]) * Decimal("1.5"))

    _rewrite_csv(out / "operator_memory.csv", bigger_mm)
    _rewrite_csv(out / "memory_record.csv", higher_pta)
    doc = json.loads((out / "communication.json").read_text(encoding="utf-8"))
    for step in doc.values():
        for ops in step.values():
            for name, info in ops.items():
                if name.startswith("hcom_allReduce__586_1_1@"):
                    info["Communication Time Info"]["Elapse Time(ms)"] *= 4
    (out / "communication.json").write_text(json.dumps(doc), encoding="utf-8")
    return base, cur


def open_comparison(qtbot, window, base, cur) -> CompareView:
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
    return window.documents.currentWidget()


def click_tab(qtbot, view: CompareView, page) -> None:
    bar = view.tabs.tabBar()
    index = view.tabs.indexOf(page)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(page.isVisible, timeout=5000)


def cells(table) -> tuple[list[str], list[list[str]]]:
    """What a FrameTable shows: its header texts and its rows' texts."""
    model = table.model
    headers = [str(model.headerData(c, Qt.Orientation.Horizontal)) for c in range(model.columnCount())]
    rows = [[str(model.data(model.index(r, c))) for c in range(model.columnCount())] for r in range(model.rowCount())]
    return headers, rows


def shown(value) -> str:
    """A number as the tables show it: integral values without decimals, else three."""
    v = float(value)
    return str(int(v)) if v.is_integer() else f"{v:.3f}"


def row_of(table, first: str, column: int = 0) -> int:
    model = table.model
    return next(r for r in range(model.rowCount()) if model.data(model.index(r, column)) == first)


def test_memory_and_communication_tabs_show_the_diffs(qtbot, window, pair, tmp_path):
    base, cur = pair
    view = open_comparison(qtbot, window, base, cur)
    tab_names = [view.tabs.tabText(i) for i in range(view.tabs.count())]
    assert "Memory" in tab_names and "Communication" in tab_names
    # Memory: the operators' allocations
    click_tab(qtbot, view, view.memory)
    qtbot.waitUntil(view.memory_ops.isVisible)
    headers, rows = cells(view.memory_ops)
    assert headers[:4] == ["Operator Name", "Status", "Base Count", "Current Count"]
    n, kb = _sizes(base / "ASCEND_PROFILER_OUTPUT" / "operator_memory.csv", "aten::mm")
    n2, kb2 = _sizes(cur / "ASCEND_PROFILER_OUTPUT" / "operator_memory.csv", "aten::mm")
    assert rows[0][0] == "aten::mm", "regressions first"
    mm = dict(zip(headers, rows[0]))
    assert mm["Status"] == "higher" and mm["Base Count"] == str(n) == mm["Current Count"] == str(n2)
    assert mm["Base Size(KB)"] == shown(kb) and mm["Current Size(KB)"] == shown(kb2)
    assert mm["Diff Size(KB)"] == shown(kb2 - kb) and mm["Diff(%)"] == "200"
    model = view.memory_ops.model
    assert model.data(model.index(0, 0), Qt.ItemDataRole.ForegroundRole) == RED
    assert {r[1] for r in rows[1:]} == {"same"}
    # Memory: the peaks per component
    headers, rows = cells(view.memory_peaks)
    assert headers[:4] == ["Component", "Metric", "Unit", "Status"]
    pta = dict(zip(headers, rows[row_of(view.memory_peaks, "PTA")]))
    assert pta["Metric"] == "Peak allocated" and pta["Status"] == "higher" and pta["Diff(%)"] == "50"
    assert pta["Unit"] == "MB" and pta["Base"] == "1187.981"  # memory_record.csv: PTA 1187.9814453125 MB
    # Communication: per op type
    click_tab(qtbot, view, view.communication)
    headers, rows = cells(view.communication)
    assert headers[:4] == ["Communication OP Name", "Status", "Base Calls", "Current Calls"]
    (allreduce,) = rows
    got = dict(zip(headers, allreduce))
    b = _elapses(base / "ASCEND_PROFILER_OUTPUT" / "communication.json")
    c = _elapses(cur / "ASCEND_PROFILER_OUTPUT" / "communication.json")
    assert got["Communication OP Name"] == "allreduce" and got["Status"] == "slower"
    assert got["Base Calls"] == str(len(b)) == got["Current Calls"]
    assert float(got["Base Total(us)"]) == pytest.approx(float(sum(b)), abs=0.005)
    assert float(got["Current Total(us)"]) == pytest.approx(float(sum(c)), abs=0.005)
    assert float(got["Diff(us)"]) == pytest.approx(float(sum(c) - sum(b)), abs=0.01)
    assert float(got["Current Max(us)"]) == pytest.approx(float(max(c)), abs=0.005)
    assert float(got["Base Min(us)"]) == pytest.approx(float(min(b)), abs=0.005)
    assert view.communication.model.data(view.communication.model.index(0, 0), Qt.ItemDataRole.ForegroundRole) == RED
    # the export has the new sheets, with the numbers shown
    from openpyxl import load_workbook

    out = tmp_path / "cmp.xlsx"
    with User(qtbot).answering(QFileDialog, User(qtbot).typing_path(out)):
        qtbot.mouseClick(view.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(out.exists, timeout=10000)
    book = load_workbook(out)
    sheet = book["CommunicationCompare"]
    header = [x.value for x in sheet[1]]
    (row,) = list(sheet.iter_rows(min_row=2, values_only=True))
    assert row[header.index("Communication OP Name")] == "allreduce"
    assert row[header.index("Comparison Calls")] == len(c)
    assert {"MemoryPeaks", "MemoryCompareStatistic"} <= set(book.sheetnames)


def test_a_report_without_them_says_so_in_the_tabs(qtbot, window, samples):
    kernels = samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv"
    view = open_comparison(qtbot, window, kernels, kernels)
    click_tab(qtbot, view, view.communication)
    assert view.communication.model.rowCount() == 0
    assert "communication.json is not in both reports" in view.communication.note.text()
    click_tab(qtbot, view, view.memory)
    assert "operator_memory is not in both reports" in view.memory_ops.note.text()
    assert "memory_record is not in both reports" in view.memory_peaks.note.text()


def test_faster_communication_is_green(qtbot, window, pair):
    base, cur = pair
    view = open_comparison(qtbot, window, cur, base)  # the slow copy as the baseline
    click_tab(qtbot, view, view.communication)
    model = view.communication.model
    assert model.data(model.index(0, 1)) == "faster"
    assert model.data(model.index(0, 0), Qt.ItemDataRole.ForegroundRole) == GREEN


def test_every_memory_and_communication_warning_is_translatable(samples, tmp_path):
    """Core's one-sided memory / communication warnings, driven into each branch, match a template
    of the view (so zh_CN shows them in Chinese)."""
    from workbench.core.compare import compare_paths
    from workbench.core.profiling import views
    from workbench.core.tasks import run_inline
    from workbench.ui.compare.view import WARNINGS

    full = _report(samples, tmp_path / "full")
    bare = tmp_path / "bare" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    bare.mkdir(parents=True)
    shutil.copy(samples / SAMPLE / "step_trace_time.csv", bare)
    out: list[str] = []
    for a, b in ((full, bare.parent), (bare.parent, full)):
        out += run_inline(compare_paths, a, b).warnings
    wanted = [w for w in out if "memory" in w or "communication" in w]
    assert len(wanted) == 6, out
    assert not [w for w in wanted if views.match_template(w, WARNINGS) is None]


def test_labels_of_the_new_columns_are_marked_for_translation():
    from workbench.core.compare.model import LABELS
    from workbench.ui.compare.labels import COLUMN_LABELS

    assert set(LABELS.values()) == set(COLUMN_LABELS)


def test_zh_cn_memory_and_communication_tabs_are_chinese(qtbot, zh_window, pair):
    base, cur = pair
    view = open_comparison(qtbot, zh_window, base, cur)
    names = [view.tabs.tabText(i) for i in range(view.tabs.count())]
    assert all(CJK.search(n) for n in names), names
    click_tab(qtbot, view, view.memory)
    for table in (view.memory_peaks, view.memory_ops):
        headers, rows = cells(table)
        assert rows and all(CJK.search(h) for h in headers), headers
    headers, rows = cells(view.memory_peaks)
    metric = headers.index(QCoreApplication.translate("Compare", "Metric"))
    assert all(CJK.search(r[metric]) for r in rows), [r[metric] for r in rows]
    status = headers.index(QCoreApplication.translate("Compare", "Status"))
    assert all(CJK.search(r[status]) for r in rows)
    click_tab(qtbot, view, view.communication)
    headers, rows = cells(view.communication)
    assert all(CJK.search(h) for h in headers), headers
    assert CJK.search(rows[0][headers.index(QCoreApplication.translate("Compare", "Status"))])
