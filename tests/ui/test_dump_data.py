"""Dump data view: dumpwriter's files open as a tree of ops with correct stats, export, convert."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from workbench.core.dump.aclconfig import DumpSettings
from workbench.core.dump.omjson import read_om_json
from workbench.simtoolkit.dumpwriter import model_dump_dir, write_model_dump
from workbench.ui.dump import open_dump_data
from workbench.ui.dump.data_view import TENSOR_ROLE

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

    task = view.export(str(tmp_path / "t.npy"))
    with qtbot.waitSignal(task.finished, timeout=10000):
        pass
    np.testing.assert_array_equal(np.load(tmp_path / "t.npy"), _expected_output(samples, file))
    task = view.export(str(tmp_path / "t.txt"))
    with qtbot.waitSignal(task.finished, timeout=10000):
        pass
    lines = (tmp_path / "t.txt").read_text().splitlines()
    assert len(lines) == arr.size + 1
    assert np.float16(float(lines[1])) == _expected_output(samples, file).reshape(-1)[0]  # %.9g of a float16


def test_convert_folder_and_damaged_file(window, qtbot, dump, tmp_path):
    root, files = dump
    bad = files[0].parent / "Add.broken.9.0.1700000000000000"
    bad.write_bytes(b"\xff" * 8 + b"x")
    view = _open(window, qtbot, root)
    assert "1 damaged" in view.title.text()
    task = view.convert(str(tmp_path / "npy"))
    with qtbot.waitSignal(task.finished, timeout=30000):
        pass
    written = sorted(p.name for p in (tmp_path / "npy").glob("*.npy"))
    assert [n for n in written if n.endswith(".output.0.npy")] == sorted(f.name + ".output.0.npy" for f in files)
    assert f"Converted {len(files)} files" in view.title.text() and "1 failed" in view.title.text()
    # One dump file opened alone.
    single = _open(window, qtbot, files[0])
    assert single.tree.topLevelItemCount() == 1 and single.tree.topLevelItem(0).child(0).data(0, TENSOR_ROLE)
