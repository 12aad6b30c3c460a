"""A report table's text columns (categorical: a million rows hold few distinct names) filtered and
sorted as typed and clicked: by the categories, with the same rows and order as row by row."""

from __future__ import annotations

import numpy as np
import pandas as pd
from PySide6.QtCore import QPoint, Qt
from reportkit import table

from workbench.ui.report.table import FrameTable


def click_header(qtbot, frame_table: FrameTable, column: int) -> None:
    header = frame_table.view.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))


NAME, ROW, START = "Name", "row", "Start Time(ns)"  # the headers shown: a canonical key's label, else the column


def test_a_text_column_is_filtered_and_sorted_as_its_rows_say(qtbot, user):
    rng = np.random.default_rng(7)
    names = rng.choice(["MatMul_12", "matmul_3", "Add_1", "Conv2D", "", "nan-op"], 600).tolist()
    names = [None if n == "" else n for n in names]
    frame = pd.DataFrame(
        {"name": pd.Categorical(names), "task_id": pd.array(np.arange(600) % 17, dtype="Int64"), "row": np.arange(600)}
    )
    widget = FrameTable()
    qtbot.addWidget(widget)
    widget.resize(900, 500)
    widget.show()
    widget.set_frame(frame)
    user.retype(widget.filter, "MATMUL")
    matmul = [i for i, n in enumerate(names) if n is not None and "matmul" in n.lower()]
    qtbot.waitUntil(lambda: widget.count.text() == f"{len(matmul)} of 600 rows", timeout=5000)
    assert [int(r[ROW]) for r in table(widget)] == matmul
    user.retype(widget.filter, "nan")  # a missing name (shown N/A) is no "nan": only the real name matches
    qtbot.waitUntil(lambda: widget.model.rowCount() == names.count("nan-op"), timeout=5000)
    assert {r[NAME] for r in table(widget)} == {"nan-op"}
    user.retype(widget.filter, "")
    qtbot.waitUntil(lambda: widget.model.rowCount() == 600, timeout=5000)

    click_header(qtbot, widget, 0)
    first = widget.view.horizontalHeader().sortIndicatorOrder()
    click_header(qtbot, widget, 0)
    assert widget.view.horizontalHeader().sortIndicatorOrder() != first
    for order in (first, widget.view.horizontalHeader().sortIndicatorOrder()):
        if order != widget.view.horizontalHeader().sortIndicatorOrder():
            click_header(qtbot, widget, 0)
        shown = [(r[NAME], int(r[ROW])) for r in table(widget)]
        present = [(n, i) for i, n in enumerate(names) if n is not None]
        descending = order == Qt.SortOrder.DescendingOrder
        # equal names keep their rows' order (Python's sort is stable in reverse too); missing ones last
        assert shown[: len(present)] == sorted(present, key=lambda p: p[0], reverse=descending)
        assert [r[NAME] for r in table(widget)[len(present) :]] == ["N/A"] * names.count(None)


def test_an_integer_column_with_a_missing_value_shows_every_digit(qtbot):
    # pandas gives float64 for a nullable int column with a missing value: ns stamps lost their last digits
    stamps = [1736413971558972912, None, 1736413971558972913, 5]
    frame = pd.DataFrame({"start_ns": pd.array(stamps, dtype="Int64"), "name": pd.Categorical(["a", "b", None, "a"])})
    widget = FrameTable()
    qtbot.addWidget(widget)
    widget.resize(700, 300)
    widget.show()
    widget.set_frame(frame)
    assert [r[START] for r in table(widget)] == ["1736413971558972912", "N/A", "1736413971558972913", "5"]
    assert [r["Name"] for r in table(widget)] == ["a", "b", "N/A", "a"]
    click_header(qtbot, widget, 0)
    descending = widget.view.horizontalHeader().sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    present = sorted((s for s in stamps if s is not None), reverse=descending)
    assert [r[START] for r in table(widget)] == [str(s) for s in present] + ["N/A"]


def test_pmu_ratios_show_the_files_text_and_sort_as_numbers_from_their_compact_cells(qtbot, window, samples):
    """The AI Core Metrics table of a real kernel_details: the PMU columns are indexed as the reader
    holds them (scaled integers, no float64 copy per column), show the file's text, sort by value."""
    import csv

    from PySide6.QtWidgets import QTabWidget

    from workbench.core.profiling.tables.decimals import DecimalArray
    from workbench.ui.report.document import ReportDocument

    path = samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv"
    with path.open(newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["Accelerator Core"] in {"AI_CORE", "AI_VECTOR_CORE", "MIX_AIC"}]
    window.open_path(path)
    qtbot.waitUntil(
        lambda: isinstance(doc := window.documents.currentWidget(), ReportDocument) and doc.ready, timeout=30000
    )
    doc = window.documents.currentWidget()
    tabs = doc.aicore.parentWidget()
    while not isinstance(tabs, QTabWidget):
        tabs = tabs.parentWidget()
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(tabs.indexOf(doc.aicore)).center())
    qtbot.waitUntil(lambda: tabs.currentWidget() is doc.aicore, timeout=5000)
    model = doc.aicore.model
    column = model.columns.index("aic_mac_ratio")
    assert isinstance(model._arrays[column], DecimalArray)  # what it indexes: the compact column itself
    header = model.headerData(column, Qt.Orientation.Horizontal)
    assert len(rows) == model.rowCount() > 3
    click_header(qtbot, doc.aicore, column)
    order = doc.aicore.view.horizontalHeader().sortIndicatorOrder()
    texts = [r[header] for r in table(doc.aicore)]
    want = sorted((r["aic_mac_ratio"] for r in rows), key=float, reverse=order == Qt.SortOrder.DescendingOrder)
    assert [float(t) for t in texts] == [float(t) for t in want]
    assert set(texts) <= {r["aic_mac_ratio"] for r in rows}  # each cell reads as the file wrote it


def test_a_ratio_bar_is_drawn_over_a_marked_rows_tint(qtbot):
    """Ratio columns draw a bar in the cell; on a row the advisor marked (tinted) it was painted over."""
    from workbench.ui.report.table import MARK_BACKGROUND

    frame = pd.DataFrame({"name": pd.Categorical(["a", "b"]), "aic_mac_ratio": [0.9, 0.9]})
    widget = FrameTable()
    qtbot.addWidget(widget)
    widget.resize(600, 300)
    widget.show()
    widget.set_frame(frame)
    widget.set_marks({1: ["a finding"]})
    view = widget.view
    qtbot.waitUntil(lambda: view.visualRect(widget.model.index(1, 1)).height() > 0, timeout=5000)
    image = view.viewport().grab().toImage()
    for row, tinted in ((0, False), (1, True)):
        rect = view.visualRect(widget.model.index(row, 1))
        bar = image.pixelColor(rect.left() + 6, rect.center().y())
        past = image.pixelColor(rect.right() - 2, rect.top() + 2)  # beyond the bar (90 %) and its text
        if tinted:
            assert past.rgb() == MARK_BACKGROUND.rgb()
        assert bar.rgb() != past.rgb(), f"row {row}: no bar drawn"
