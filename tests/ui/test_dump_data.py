"""Dump data view: dumpwriter's files open as a tree of ops with correct stats, export, convert."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from uikit import User

from workbench.core.dump.aclconfig import DumpSettings
from workbench.core.dump.omjson import read_om_json
from workbench.core.project import create_project
from workbench.simtoolkit.dumpwriter import model_dump_dir, write_model_dump
from workbench.ui.dump import open_dump_data
from workbench.ui.dump.data_view import TENSOR_ROLE, DumpDataView

# offscreen QPA: the file dialog's completion popup raises itself and grabs the keyboard, which that
# platform cannot do (real platforms can); the warnings say so and are harmless here.

MODEL = "atc-om2json-310-cann5.1/model.json"
OP = "trans_Cast_0"


@pytest.fixture
def dump(samples, tmp_path):
    model = read_om_json(samples / MODEL)
    leaf = model_dump_dir(tmp_path / "dump", model.name)
    files = write_model_dump(model, DumpSettings(option="all", model_name=model.name, dump_mode="output"), leaf)
    return tmp_path / "dump", files


def _expected_output(samples, file: Path) -> np.ndarray:
    """The op's only output, straight from the file's tail (outputs are written last), dtype and
    shape from the om JSON: independent of the dump reader."""
    doc = json.loads((samples / MODEL).read_text())
    op = next(o for g in doc["graph"] for o in g["op"] if o["name"] == OP)
    desc = op["output_desc"][0]
    assert desc["dtype"] == "DT_FLOAT16"
    shape = tuple(desc["shape"]["dim"])
    n = math.prod(shape)
    return np.frombuffer(file.read_bytes()[-2 * n :], dtype="<f2").reshape(shape)


def _open(window, qtbot, path):
    view = open_dump_data(window.context, path)
    qtbot.waitUntil(lambda: view.scan is not None, timeout=20000)
    return view


def test_tree_stats_histogram_and_exports(window, qtbot, samples, dump, tmp_path):
    root, files = dump
    view = _open(window, qtbot, root)
    assert window.documents.currentWidget() is view
    folder = view.tree.topLevelItem(0)
    assert view.tree.topLevelItemCount() == 1
    parts, levels = folder.text(0).split("  (")
    assert parts.split(" / ")[1:] == ["0", "sub_model", "1", "0"] and len(parts.split(" / ")[0]) == 14
    assert levels == "Timestamp / Device / Model / Model ID / Iteration)"
    assert [folder.child(i).text(0) for i in range(folder.childCount())] == [
        read_om_json(samples / MODEL).op(f.name.split(".")[1]).name for f in files
    ]
    file = next(f for f in files if f".{OP}." in f.name)
    assert view.select_tensor(str(file), "output", 0)
    item = view.tree.currentItem()
    assert (item.text(1), item.text(2), item.text(3)) == ("FLOAT16", "[1000,80,4]", "NCHW")
    qtbot.waitUntil(lambda: view.summary is not None, timeout=10000)
    arr = _expected_output(samples, file).astype(np.float64)
    s = view.summary.stats
    assert s["count"] == arr.size and s["min"] == arr.min() and s["max"] == arr.max()
    assert s["mean"] == pytest.approx(arr.mean(), rel=1e-9) and s["std"] == pytest.approx(arr.std(), rel=1e-9)
    shown = {view.stats.item(r, 0).text(): view.stats.item(r, 1).text() for r in range(view.stats.rowCount())}
    assert shown["Min"] == f"{arr.min():.6g}" and shown["Elements"] == str(arr.size)
    assert shown["Shape"] == "[1000,80,4]" and shown["Data type"] == "float16"
    assert view.summary.counts.sum() == arr.size
    assert len(view.plot.getPlotItem().items) == 1 and view.npy_button.isEnabled()

    with User(qtbot).answering(QFileDialog, User(qtbot).typing_path(tmp_path / "t.npy")):
        qtbot.mouseClick(view.npy_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.status.text() == f"Saved {tmp_path / 't.npy'}", timeout=10000)
    np.testing.assert_array_equal(np.load(tmp_path / "t.npy"), _expected_output(samples, file))
    with User(qtbot).answering(QFileDialog, User(qtbot).typing_path(tmp_path / "t.txt")):
        qtbot.mouseClick(view.txt_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.status.text() == f"Saved {tmp_path / 't.txt'}", timeout=10000)
    lines = (tmp_path / "t.txt").read_text().splitlines()
    assert len(lines) == arr.size + 1
    assert np.float16(float(lines[1])) == _expected_output(samples, file).reshape(-1)[0]  # %.9g of a float16


def test_convert_folder_and_damaged_file(window, qtbot, dump, tmp_path):
    root, files = dump
    bad = files[0].parent / "Add.broken.9.0.1700000000000000"
    bad.write_bytes(b"\xff" * 8 + b"x")
    view = _open(window, qtbot, root)
    assert "1 damaged" in view.title.text()
    (tmp_path / "npy").mkdir()
    with User(qtbot).answering(QFileDialog, User(qtbot).typing_path(tmp_path / "npy")):
        qtbot.mouseClick(view.convert_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.title.text().startswith("Converted"), timeout=30000)
    qtbot.waitUntil(view.convert_button.isEnabled, timeout=10000)
    written = sorted(p.name for p in (tmp_path / "npy").glob("*.npy"))
    assert [n for n in written if n.endswith(".output.0.npy")] == sorted(f.name + ".output.0.npy" for f in files)
    assert f"Converted {len(files)} files" in view.title.text() and "1 failed" in view.title.text()
    # One dump file opened alone.
    single = _open(window, qtbot, files[0])
    assert single.tree.topLevelItemCount() == 1 and single.tree.topLevelItem(0).child(0).data(0, TENSOR_ROLE)


def _double_click_in_explorer(qtbot, window, path: Path) -> None:
    """Double-click ``path``'s row in the Project Explorer as a platform delivers it (press and
    release, then the double-click: QTest's mouseDClick alone is not enough for an item view)."""
    view = window.explorer.view
    qtbot.waitUntil(lambda: not view.visualRect(window.explorer.index_of(path)).isEmpty(), timeout=10000)
    pos = view.visualRect(window.explorer.index_of(path)).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def _shown_stats(view) -> dict[str, str]:
    return {view.stats.item(r, 0).text(): view.stats.item(r, 1).text() for r in range(view.stats.rowCount())}


def test_a_npy_written_by_dump_convert_opens_as_its_array(window, qtbot, samples, dump, tmp_path):
    from workbench.cli import main

    root, files = dump
    file = next(f for f in files if f".{OP}." in f.name)
    project = tmp_path / "proj"
    create_project(project)
    assert main(["dump", "convert", str(file), "--out", str(project / "npy")]) == 0
    npy = project / "npy" / f"{file.name}.output.0.npy"
    expected = _expected_output(samples, file)
    window.open_project(project)
    window.explorer.view.expand(window.explorer.index_of(project / "npy"))
    _double_click_in_explorer(qtbot, window, npy)
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), DumpDataView), timeout=10000)
    view = window.documents.currentWidget()
    assert view.path == npy and window.documents.tabText(window.documents.currentIndex()) == npy.name
    qtbot.waitUntil(lambda: _shown_stats(view).get("Elements") == str(expected.size), timeout=10000)
    shown, arr = _shown_stats(view), expected.astype(np.float64)
    assert shown["Shape"] == "[1000,80,4]" and shown["Data type"] == "float16"
    assert shown["Min"] == f"{arr.min():.6g}" and shown["Max"] == f"{arr.max():.6g}"
    assert shown["Mean"] == f"{arr.mean():.6g}" and shown["Std deviation"] == f"{arr.std():.6g}"
    item = view.tree.currentItem()
    assert (item.text(0), item.text(1), item.text(2)) == ("array 0", "float16", "[1000,80,4]")
    assert item.parent().text(1) == "NumPy array" and view.title.text() == f"{npy}: NumPy array"
    assert "damaged" not in view.title.text() and view.status.text() == ""
    assert view.npy_button.isEnabled() and len(view.plot.getPlotItem().items) == 1
    assert not view.convert_button.isEnabled()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty file (0 bytes), expected a .npy array"),
        (
            b"\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }",
            "damaged .npy header",
        ),
        (b"PK\x03\x04not an array", "not a .npy file"),
    ],
    ids=["empty", "cut-header", "not-npy"],
)
def test_a_damaged_npy_shows_one_error_line_naming_the_file(window, qtbot, tmp_path, content, reason):
    project = tmp_path / "proj"
    create_project(project)
    npy = project / "golden.npy"
    npy.write_bytes(content)
    window.open_project(project)
    _double_click_in_explorer(qtbot, window, npy)
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), DumpDataView), timeout=10000)
    view = window.documents.currentWidget()
    qtbot.waitUntil(lambda: view.status.text() != "", timeout=10000)
    line = view.status.text()
    assert line.startswith(f"{npy}: {reason}") and "\n" not in line, line
    assert "Error" not in line and "Traceback" not in line and "header length" not in line
    assert view.title.text() == f"{npy}: not a readable .npy file"
    assert view.stats.rowCount() == 0 and not view.npy_button.isEnabled()


def test_a_truncated_npy_says_how_much_data_is_missing(window, qtbot, tmp_path):
    npy = tmp_path / "cut.npy"
    np.save(npy, np.ones((64, 64), dtype=np.float32))
    npy.write_bytes(npy.read_bytes()[:-100])
    view = _open(window, qtbot, npy)
    qtbot.waitUntil(lambda: view.status.text() != "", timeout=10000)
    assert view.status.text() == (
        f"{npy}: truncated: shape [64, 64] of float32 needs 16384 data bytes, the file holds 16284"
    )
