"""Model Accuracy Analyzer: a generated NPU dump vs ground truth shows the rows in model order, the first
op below the threshold highlighted with the guidance, numeric sorting, msaccucmp CSV and xlsx exports,
and the same comparison through the demo host's msaccucmp.py."""

from __future__ import annotations

import csv
import json
import math
import re

import numpy as np
import pytest
from PySide6.QtCore import Qt

from workbench.core.dump import compare, metrics
from workbench.core.dump.aclconfig import DumpSettings
from workbench.core.dump.omjson import read_om_json
from workbench.simtoolkit.dumpwriter import write_golden, write_model_dump
from workbench.ui.dump import accuracy, open_accuracy_analyzer

MODEL = "atc-om2json-310-cann5.1/model.json"
DRIFTED = ("Concat_1211", "BatchMultiClassNMS_1203_Output0TransposeAfter")


@pytest.fixture
def data(samples, tmp_path):
    model = read_om_json(samples / MODEL)
    files = write_model_dump(
        model, DumpSettings(option="all", model_name=model.name, dump_mode="output"), tmp_path / "npu"
    )
    write_golden(files, tmp_path / "golden", drift=dict.fromkeys(DRIFTED, 3.0))
    return tmp_path / "npu", tmp_path / "golden", files


def _first_drifted(samples) -> str:
    order = [op["name"] for g in json.loads((samples / MODEL).read_text())["graph"] for op in g["op"]]
    return min(DRIFTED, key=order.index)


def _cosine(samples, files, tmp_path, op) -> float:
    """cos(npu, golden) in float32 from the raw file tail (one float16 output) and the golden .npy."""
    file = next(f for f in files if f".{op}." in f.name)
    golden = np.load(next((tmp_path / "golden").glob(f"{op}.0.*.npy"))).astype(np.float32).reshape(-1)
    npu = np.frombuffer(file.read_bytes()[-2 * golden.size :], dtype="<f2").astype(np.float32)
    return float(np.dot(npu, golden) / (np.linalg.norm(npu) * np.linalg.norm(golden)))


def _run(view, qtbot):
    """Click Compare; wait for the table the comparison shows (the button back on)."""
    assert view.report is None
    qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.status.text() != "", timeout=5000)
    qtbot.waitUntil(lambda: view.run_button.isEnabled() and view.status.text() != "Comparing…", timeout=60000)
    assert view.report is not None, view.status.text()
    assert view.table.view.model().rowCount() == len(view.report.rows), "the rows are shown"
    return view.report


def test_local_comparison_table_highlight_and_exports(window, qtbot, samples, data, tmp_path):
    npu, golden, files = data
    view = open_accuracy_analyzer(window.context, str(npu), str(golden), str(samples / MODEL))
    assert [a for a, cb in view.algs.items() if cb.isChecked()] == [
        "CosineSimilarity",
        "MaxAbsoluteError",
        "AccumulatedRelativeError",
        "RelativeEuclideanDistance",
        "MeanAbsoluteError",
        "RootMeanSquareError",
        "MaxRelativeError",
        "MeanRelativeError",
    ]
    assert view.threshold.value() == 0.99
    report = _run(view, qtbot)
    model = view.table.model
    doc = json.loads((samples / MODEL).read_text())
    expected_rows = [
        (op["name"], i)
        for g in doc["graph"]
        for op in g["op"]
        if op["type"] not in ("Data", "Const", "NetOutput")
        for i in range(len(op["output_desc"]))
    ]
    assert model.rowCount() == len(report.rows) == len(expected_rows)
    ops = [model.raw(r, 2) for r in range(model.rowCount())]
    assert [(o, int(model.raw(r, 7).rsplit(":", 1)[1])) for r, o in enumerate(ops)] == expected_rows  # model order
    order = [o for o, _i in expected_rows]
    first = _first_drifted(samples)
    row = ops.index(first)
    assert model.highlight.tolist() == [r == row for r in range(len(ops))]
    cos_col = report.header().index("CosineSimilarity")
    expected = _cosine(samples, files, tmp_path, first)
    assert expected < 0.99
    shown = model.data(model.index(row, cos_col), Qt.ItemDataRole.DisplayRole)
    assert re.fullmatch(r"-?\d+\.\d{6}", shown) and abs(float(shown) - expected) <= 2e-6
    assert first in view.guidance.text() and shown in view.guidance.text()
    for step in compare.NEXT_STEPS:
        assert step in view.guidance.text().replace("&amp;", "&")
    assert model.data(model.index(row, 2), Qt.ItemDataRole.ForegroundRole) is not None

    # Sorting by cosine is numeric: the smallest value first.
    view.table.view.sortByColumn(cos_col, Qt.SortOrder.AscendingOrder)
    values = [model.raw(r, cos_col) for r in range(model.rowCount())]
    finite = [v for v in values if not math.isnan(v)]
    assert finite == sorted(finite) and finite[0] == min(float(s) for s in finite)

    # A threshold of 0 leaves nothing below it: no highlight, and the guidance says so.
    view.threshold.setValue(0.0)
    assert "reaches cosine similarity" in view.guidance.text() and not model.highlight.any()
    view.threshold.setValue(0.99)

    view.export_csv(str(tmp_path / "r.csv"))
    with open(tmp_path / "r.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == [
        "Index",
        "OpType",
        "NPUDump",
        "DataType",
        "Address",
        "GroundTruth",
        "DataType",
        "TensorIndex",
        "Shape",
        *metrics.DEFAULT_ALGORITHMS,
        "CompareFailReason",
    ]
    assert [r[2] for r in rows[1:]] == order and [r[7] for r in rows[1:]] == [
        f"{o}:output:{i}" for o, i in expected_rows
    ]
    assert rows[1 + row][cos_col] == shown
    assert all(re.fullmatch(r"-?\d+\.\d{6}|NaN|1\.0", v) for r in rows[1:] for v in r[9:-1])

    view.export_xlsx(str(tmp_path / "r.xlsx"))
    from openpyxl import load_workbook

    ws = load_workbook(tmp_path / "r.xlsx").active
    sheet = list(ws.values)
    assert list(sheet[0]) == rows[0] and len(sheet) == len(rows)
    assert ws.cell(row=row + 2, column=1).fill.fgColor.rgb.endswith("FFD966")


def test_remote_comparison_on_the_demo_host(window, qtbot, samples, data):
    npu, golden, _files = data
    view = open_accuracy_analyzer(window.context, str(npu), str(golden), str(samples / MODEL))
    view.where.setCurrentIndex(view.where.findData("demo"))
    assert view.on_host.isEnabled()
    report = _run(view, qtbot)
    assert any("msaccucmp.py" in w for w in report.warnings)
    local = compare.compare_dirs(npu, golden, fusion_rule=samples / MODEL, algorithms=view.algorithms())
    assert [r.values for r in report.rows] == [r.values for r in local.rows]
    assert report.first_below_threshold.npu_op == _first_drifted(samples)


def test_bad_input_and_translations(window, qtbot, tmp_path):
    view = open_accuracy_analyzer(window.context)
    qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Choose the NPU dump folder" in view.status.text(), timeout=5000)
    _type_into(qtbot, view.npu.edit, str(tmp_path / "missing"))
    _type_into(qtbot, view.golden.edit, str(tmp_path))
    qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.status.text() == f"{tmp_path / 'missing'}: no such file or folder", timeout=5000)
    assert not window.bridge.running() and view.report is None
    assert accuracy.NEXT_STEPS == compare.NEXT_STEPS  # the marked copies match core's advice


def _type_into(qtbot, edit, text):
    edit.setFocus()
    qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(edit, text)


def test_metric_columns_are_in_sight_after_a_comparison(window, qtbot, samples, data):
    from PySide6.QtWidgets import QPushButton

    npu, golden, _files = data
    window.menu_entries()["Ascend/Model Accuracy Analyzer…"].trigger()
    view = window.documents.currentWidget()
    assert isinstance(view, accuracy.AccuracyAnalyzer)
    _type_into(qtbot, view.npu.edit, str(npu))
    _type_into(qtbot, view.golden.edit, str(golden))
    _type_into(qtbot, view.rule.edit, str(samples / MODEL))
    assert isinstance(view.run_button, QPushButton)
    qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "compared" in view.status.text() and view.run_button.isEnabled(), timeout=60000)
    table = view.table.view
    header = table.horizontalHeader()
    names = view.report.header()
    cos = names.index("CosineSimilarity")
    left = header.sectionViewportPosition(cos)
    assert table.horizontalScrollBar().value() == 0
    assert left >= 0 and left + header.sectionSize(cos) <= header.viewport().width(), (
        left,
        header.sectionSize(cos),
        header.viewport().width(),
    )
    # The op name comes right before the metrics (CosineSimilarity first), the other identifying
    # columns after them; the export keeps msaccucmp's column order.
    visual = [names[header.logicalIndex(v)] for v in range(header.count())]
    assert visual[: visual.index("CosineSimilarity")] == ["Index", "OpType", "NPUDump"]
    assert visual[3 : 3 + len(view.report.algorithms)] == view.report.algorithms
