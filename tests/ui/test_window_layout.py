"""The window's layout as a user meets it: names in a narrow Project Explorer stay readable, no
document makes the main window (or its docks) change size, and a project's ``dump/`` folder opens
the dump data view with tab titles that name the model and iteration."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from workbench.core.dump.aclconfig import DumpSettings
from workbench.core.dump.omjson import read_om_json
from workbench.core.project import create_project
from workbench.simtoolkit.dumpwriter import model_dump_dir, write_model_dump

RESOURCES = Path(__file__).resolve().parents[2] / "resources" / "samples"
MODEL = "atc-om2json-310-cann5.1/model.json"


def _write_dump(samples: Path, dump_path: Path, model_name: str, iteration: int = 0, when: float = 1.7e9) -> Path:
    model = read_om_json(samples / MODEL)
    leaf = model_dump_dir(dump_path, model_name, iteration=iteration, when=when)
    write_model_dump(model, DumpSettings(option="all", model_name=model_name, dump_mode="output"), leaf)
    return leaf


def _row_centre(qtbot, window, path: Path) -> QPoint:
    """Where ``path``'s row is, scrolled into sight (as a user scrolls to it)."""
    view = window.explorer.view
    qtbot.waitUntil(lambda: window.explorer.index_of(path).isValid(), timeout=10000)
    view.scrollTo(window.explorer.index_of(path))
    qtbot.waitUntil(lambda: not view.visualRect(window.explorer.index_of(path)).isEmpty(), timeout=10000)
    return view.visualRect(window.explorer.index_of(path)).center()


def _double_click(qtbot, window, path: Path) -> None:
    """Double-click ``path``'s row as a platform delivers it: press + release, then the double click."""
    pos = _row_centre(qtbot, window, path)
    viewport = window.explorer.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=pos)


def _expand(qtbot, window, path: Path) -> None:
    """Select ``path``'s row and press Right: the tree opens it."""
    view = window.explorer.view
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=_row_centre(qtbot, window, path))
    qtbot.keyClick(view, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: view.isExpanded(window.explorer.index_of(path)), timeout=5000)


def _drag_separator(qtbot, window, dock, dx: int, until) -> None:
    """Drag the separator at the right edge of a left dock by ``dx`` px with the mouse (the
    window applies a separator move on its next event-loop turn: wait for ``until``)."""
    start = QPoint(dock.geometry().right() + 2, dock.geometry().center().y())
    end = start + QPoint(dx, 0)

    def send(kind, pos, buttons):
        global_pos = QPointF(window.mapToGlobal(pos))
        event = QMouseEvent(
            kind, QPointF(pos), global_pos, Qt.MouseButton.LeftButton, buttons, Qt.KeyboardModifier.NoModifier
        )
        QApplication.sendEvent(window, event)

    send(QEvent.Type.MouseButtonPress, start, Qt.MouseButton.LeftButton)
    send(QEvent.Type.MouseMove, end, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(until, timeout=5000)
    send(QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.NoButton)


def _name_readable(window, path: Path) -> bool:
    """The Name column shows ``path``'s whole (short) name and has most of the tree's width."""
    view = window.explorer.view
    rect = view.visualRect(window.explorer.index_of(path))
    needed = view.fontMetrics().horizontalAdvance(path.name) + view.iconSize().width() + 12
    return rect.width() >= needed and view.columnWidth(0) >= view.viewport().width() * 0.55


def test_explorer_names_stay_readable_in_a_narrow_dock(qtbot, window, tmp_path):
    root = tmp_path / "app"
    create_project(root)
    (root / "model").mkdir()
    (root / "model" / "resnet50.onnx").write_bytes(b"\x08\x07")
    (root / "PROF_000001_20240101000000000_ABCDEFGHIJKLMNOP").mkdir()
    (root / "ascend_pt_ascend_pt").mkdir()  # "Framework profiling output": the longest type label
    window.open_project(root)
    explorer = window.explorer
    qtbot.waitUntil(lambda: explorer.type_text(root / "model") == "Folder", timeout=10000)
    dock = window.docks["ProjectExplorerDock"]
    # the first-start width
    qtbot.waitUntil(lambda: _name_readable(window, root / "model"), timeout=5000)
    # the user narrows the dock as far as it goes
    _drag_separator(qtbot, window, dock, -dock.width(), lambda: dock.width() <= dock.minimumWidth() + 2)
    assert dock.width() < 200
    qtbot.waitUntil(lambda: _name_readable(window, root / "model"), timeout=5000)
    # a long type label is elided, its whole text is the tooltip
    index = explorer.index_of(root / "ascend_pt_ascend_pt").siblingAtColumn(1)
    assert explorer.model.data(index, Qt.ItemDataRole.ToolTipRole) == "Framework profiling output"
    # and widening it again gives the Type column its room back
    _drag_separator(qtbot, window, dock, 300, lambda: dock.width() >= 400)
    fm = explorer.view.fontMetrics()
    qtbot.waitUntil(
        lambda: explorer.view.columnWidth(1) >= fm.horizontalAdvance("Framework profiling output"), timeout=5000
    )


@pytest.fixture
def every_kind(window, samples, tmp_path):
    """A project holding one artefact of every kind that opens as a document (long names, a deep dump)."""
    root = tmp_path / "a_project_folder_with_a_rather_long_name_to_show_in_titles"
    create_project(root)
    for src, name in (
        ("atc-om2json-310-cann5.1/model.json", "model.json"),
        ("atc-om2json-large/test.om.json", "test.om.json"),
        ("torch_npu-kernel_details-arith/kernel_details.csv", "kernel_details.csv"),
        ("torch_npu-trace_view/trace_view.json", "trace_view.json"),
        ("atc-aipp-config/aipp.config", "aipp.config"),
    ):
        shutil.copyfile(samples / src, root / name)
    shutil.copytree(RESOURCES / "resnet50_msprof_cann8", root / "msprof")
    prof = next((root / "msprof").iterdir())
    shutil.copytree(RESOURCES / "resnet_torch_npu", root / "torch")
    ascend_pt = next((root / "torch").iterdir())
    np.save(root / "golden.npy", np.arange(12, dtype=np.float32).reshape(3, 4))
    from workbench.core.graph.synth import synth_onnx

    synth_onnx(300, root / "resnet50.onnx")
    (root / "net.pb").write_bytes(b"\x0a\x00")
    leaf = _write_dump(samples, root / "dump", "a_model_with_a_long_name_as_real_ones_have")
    dump_file = max(leaf.iterdir(), key=lambda f: len(f.name))
    shutil.copyfile(dump_file, root / dump_file.name)
    window.open_project(root)
    return root, prof, ascend_pt, root / dump_file.name


def _doc_ready(window, kind: str, path: Path | None = None) -> bool:
    """The current tab is a ``kind`` document (of ``path``) with its content in place."""
    doc = window.documents.currentWidget()
    if type(doc).__name__ != kind:
        return False
    if path is not None and window.documents.tabToolTip(window.documents.currentIndex()) != str(path):
        return False
    if kind == "ReportDocument":
        return doc.ready
    if kind == "GraphDocument":
        return doc.pane.data is not None
    if kind == "DumpDataView":
        return "dump files" in doc.title.text() or doc.title.text().endswith(": NumPy array")
    return True


def test_no_document_changes_the_size_of_the_window(qtbot, window, every_kind):
    """At 1200x800, open every kind of document through the explorer (and the Accuracy Analyzer
    through its menu): the window and its docks keep their size, each document fits its area."""
    root, prof, ascend_pt, dump_file = every_kind
    _expand(qtbot, window, root / "msprof")
    _expand(qtbot, window, root / "torch")
    qtbot.waitUntil(lambda: window.size().width() == 1200 and window.isVisible(), timeout=5000)
    docks = {n: window.docks[n].width() for n in ("ProjectExplorerDock", "DetailsDock")}
    opened = [
        (root / "model.json", "GraphDocument"),
        (root / "test.om.json", "GraphDocument"),
        (root / "resnet50.onnx", "GraphDocument"),
        (root / "kernel_details.csv", "ReportDocument"),
        (root / "trace_view.json", "ReportDocument"),
        (prof, "ReportDocument"),
        (ascend_pt, "ReportDocument"),
        (root / "aipp.config", "TextView"),
        (root / "net.pb", "TextView"),
        (root / "golden.npy", "DumpDataView"),
        (dump_file, "DumpDataView"),
        (root / "dump", "DumpDataView"),
    ]
    for path, kind in opened:
        _double_click(qtbot, window, path)
        qtbot.waitUntil(lambda k=kind, p=path: _doc_ready(window, k, p), timeout=60000)
        qtbot.waitUntil(lambda: window.documents.currentWidget().isVisible(), timeout=5000)
        doc = window.documents.currentWidget()
        QApplication.processEvents()
        sizes = (window.width(), {n: window.docks[n].width() for n in docks})
        assert sizes == (1200, docks), f"{path.name} ({kind}): window/docks became {sizes}"
        hint = doc.minimumSizeHint().width()
        assert hint <= window.documents.width(), f"{path.name}: needs {hint} px, has {window.documents.width()}"
    window.menu_entries()["Ascend/Model Accuracy Analyzer…"].trigger()
    qtbot.waitUntil(lambda: _doc_ready(window, "AccuracyAnalyzer"), timeout=5000)
    QApplication.processEvents()
    assert (window.width(), {n: window.docks[n].width() for n in docks}) == (1200, docks)
    assert window.documents.currentWidget().minimumSizeHint().width() <= window.documents.width()


def test_dump_folder_opens_the_dump_data_view_with_meaningful_titles(qtbot, window, samples, tmp_path):
    """``dump/`` with two models (one dumped for two iterations) opens as one view showing every dump folder
    grouped; an iteration folder's tab names its model and iteration, never "Dump: 0"."""
    from workbench.ui.dump.data_view import DumpDataView

    root = tmp_path / "app"
    create_project(root)
    first = _write_dump(samples, root / "dump", "resnet50", when=1.7e9)
    _write_dump(samples, root / "dump", "resnet50", iteration=1, when=1.7e9)  # the same run's next iteration
    _write_dump(samples, root / "dump", "yolov5", when=1.7e9 + 120)
    window.open_project(root)
    explorer = window.explorer
    qtbot.waitUntil(lambda: explorer.type_text(root / "dump") == "Dump data folder", timeout=10000)

    _double_click(qtbot, window, root / "dump")
    qtbot.waitUntil(lambda: _doc_ready(window, "DumpDataView"), timeout=30000)
    view = window.documents.currentWidget()
    assert isinstance(view, DumpDataView) and view.path == root / "dump"
    tabs = window.documents
    assert tabs.tabText(tabs.currentIndex()) == "Dump: dump"
    labels = [view.tree.topLevelItem(i).text(0) for i in range(view.tree.topLevelItemCount())]
    assert (
        len(labels) == 3 and sum(" resnet50 " in t for t in labels) == 2 and sum(" yolov5 " in t for t in labels) == 1
    )
    assert all(t.endswith("(Timestamp / Device / Model / Model ID / Iteration)") for t in labels)

    # down to resnet50's first iteration folder: its tab names the model and iteration
    for folder in (first.parents[3], first.parents[2], first.parents[1], first.parents[0]):
        assert explorer.type_text(folder) == "Dump data folder"
        _expand(qtbot, window, folder)
    _double_click(qtbot, window, first)
    qtbot.waitUntil(lambda: _doc_ready(window, "DumpDataView") and tabs.currentWidget() is not view, timeout=30000)
    assert tabs.currentWidget().path == first
    assert tabs.tabText(tabs.currentIndex()) == "Dump: resnet50, iteration 0"
    # the model folder (both iterations): named after the model; a device folder after its parent
    _double_click(qtbot, window, first.parents[2])
    qtbot.waitUntil(lambda: tabs.currentWidget().path == first.parents[2] and _doc_ready(window, "DumpDataView"))
    assert tabs.tabText(tabs.currentIndex()) == f"Dump: {first.parents[3].name}/0 (resnet50)"
    _double_click(qtbot, window, first.parents[1])
    qtbot.waitUntil(lambda: tabs.currentWidget().path == first.parents[1] and _doc_ready(window, "DumpDataView"))
    assert tabs.tabText(tabs.currentIndex()) == "Dump: resnet50"
