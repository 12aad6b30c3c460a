"""Cross-links into the model graph (issue #23) as a user clicks them: File ▸ Open Model Graph…, the
accuracy comparison's Show in Graph (first divergent op, clicked row), Statistics ▸ Op Info's context
menu in a profiling report, the ATC wizard's input list and output-node picker, the dump
configuration's op tree; one document per model (raised, never a second copy); the Properties dock
follows the current document tab."""

from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QMenu, QWizard
from uikit import click_menu_entry

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "core" / "atc"))
from atc_models import small_cnn  # noqa: E402

from workbench.ui.graph.document import GraphDocument  # noqa: E402

MODEL = "atc-om2json-310-cann5.1/model.json"
LEFT = Qt.MouseButton.LeftButton


def _graph_documents(window) -> list[GraphDocument]:
    tabs = window.documents
    return [tabs.widget(i) for i in range(tabs.count()) if isinstance(tabs.widget(i), GraphDocument)]


def _details(window) -> dict[str, str]:
    tree = window.details.tree
    return {tree.topLevelItem(i).text(0): tree.topLevelItem(i).text(1) for i in range(tree.topLevelItemCount())}


def _centred(pane, node: int) -> bool:
    """``node``'s box is in the middle of the window (or as near as the scroll range lets it be)."""
    canvas = pane.canvas
    k = pane.item_of(node)
    if k is None:
        return False
    target = pane.data.centre(k)
    view = canvas.visible_rect()
    if not view.contains(target):
        return False
    for bar, delta in (
        (canvas.horizontalScrollBar(), target.x() - view.center().x()),
        (canvas.verticalScrollBar(), target.y() - view.center().y()),
    ):
        at_end = bar.value() == (bar.maximum() if delta > 0 else bar.minimum())
        if abs(delta) >= 2 and not at_end:
            return False
    return True


def _shown(qtbot, window, name: str, timeout: int = 60000) -> GraphDocument:
    """Wait until the current tab is a graph document with op ``name`` selected, centred and in Properties."""

    def ok() -> bool:
        doc = window.documents.currentWidget()
        if not isinstance(doc, GraphDocument) or doc.pane.graph is None:
            return False
        graph = doc.pane.graph
        i = graph.index(name)
        nodes = [i] if i is not None else graph.by_original_name(name)
        return bool(nodes) and doc.pane.selected == nodes and _centred(doc.pane, nodes[0])

    qtbot.waitUntil(ok, timeout=timeout)
    doc = window.documents.currentWidget()
    qtbot.waitUntil(lambda: _details(window).get("Name") == name, timeout=5000)
    return doc


@pytest.fixture
def om_json(samples, tmp_path) -> Path:
    path = tmp_path / "model.json"
    shutil.copyfile(samples / MODEL, path)
    path.chmod(0o644)
    return path


def _menu_entry(window, label: str) -> str:
    text = QCoreApplication.translate("MainWindow", label)
    return next(p for p in window.menu_entries() if p.count("/") == 1 and p.endswith("/" + text))


# --- File ▸ Open Model Graph…, one document per model -------------------------------------------------
def test_file_open_model_graph_opens_once_and_raises_it_again(qtbot, window, user, om_json, tmp_path):
    entries = [p.split("/", 1)[1] for p in window.menu_entries() if p.startswith("File/")]
    assert entries.index("Open Model Graph…") == entries.index("Open Cluster…") + 1
    with user.answering(QFileDialog, user.typing_path(om_json)) as seen:
        user.trigger(window, "File/Open Model Graph…")
    assert seen == ["Open Model Graph"]
    qtbot.waitUntil(lambda: len(_graph_documents(window)) == 1, timeout=10000)
    doc = _graph_documents(window)[0]
    qtbot.waitUntil(lambda: doc.pane.graph is not None, timeout=60000)
    assert window.documents.currentWidget() is doc and len(doc.pane.graph.nodes) == 19

    # another document in front, then the same model again: the open one comes back, no second copy
    onnx = small_cnn(tmp_path / "m.onnx")
    with user.answering(QFileDialog, user.typing_path(onnx)):
        user.trigger(window, "File/Open Model Graph…")
    qtbot.waitUntil(lambda: len(_graph_documents(window)) == 2, timeout=10000)
    assert window.documents.currentWidget() is _graph_documents(window)[1]
    with user.answering(QFileDialog, user.typing_path(om_json)):
        user.trigger(window, "File/Open Model Graph…")
    qtbot.waitUntil(lambda: window.documents.currentWidget() is doc, timeout=10000)
    assert len(_graph_documents(window)) == 2


# --- the Properties dock follows the current tab --------------------------------------------------------
def test_properties_dock_shows_only_the_current_documents_selection(qtbot, window, user, om_json, tmp_path):
    from workbench.ui.graph.document import open_model_graph

    doc = open_model_graph(window.context, om_json)
    qtbot.waitUntil(lambda: doc.pane.graph is not None, timeout=60000)
    graph = doc.pane.graph
    qtbot.keyClicks(doc.pane.search, "Cast_1206")
    qtbot.keyClick(doc.pane.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: _details(window).get("Name") == "Cast_1206", timeout=5000)

    # a second graph in front: nothing of the first one's selection stays in the dock
    onnx = small_cnn(tmp_path / "m.onnx")
    with user.answering(QFileDialog, user.typing_path(onnx)):
        user.trigger(window, "File/Open Model Graph…")
    qtbot.waitUntil(lambda: len(_graph_documents(window)) == 2, timeout=10000)
    qtbot.waitUntil(lambda: _details(window) == {}, timeout=5000)
    assert window.details.title.toolTip() == ""

    # back to the first tab (a click on it): its selection is shown again
    bar = window.documents.tabBar()
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(window.documents.indexOf(doc)).center())
    qtbot.waitUntil(lambda: _details(window).get("Name") == "Cast_1206", timeout=5000)
    assert doc.pane.selected == [graph.index("Cast_1206")]


# --- accuracy comparison -----------------------------------------------------------------------------------
DRIFTED = ("Concat_1211", "BatchMultiClassNMS_1203_Output0TransposeAfter")


def test_accuracy_comparison_shows_the_first_divergent_op_and_a_clicked_row(
    qtbot, window, user, samples, om_json, tmp_path
):
    from workbench.core.dump.aclconfig import DumpSettings
    from workbench.core.dump.omjson import read_om_json
    from workbench.simtoolkit.dumpwriter import write_golden, write_model_dump
    from workbench.ui.dump import open_accuracy_analyzer

    model = read_om_json(om_json)
    files = write_model_dump(
        model, DumpSettings(option="all", model_name=model.name, dump_mode="output"), tmp_path / "npu"
    )
    write_golden(files, tmp_path / "golden", drift=dict.fromkeys(DRIFTED, 3.0))
    view = open_accuracy_analyzer(window.context, str(tmp_path / "npu"), str(tmp_path / "golden"), str(om_json))
    user.click(view.run_button)
    qtbot.waitUntil(lambda: view.report is not None and view.graph_button.isVisible(), timeout=60000)
    first = view.report.first_below_threshold
    assert first is not None and first.npu_op in DRIFTED

    user.click(view.graph_button)
    doc = _shown(qtbot, window, first.npu_op)
    assert doc.path == om_json

    # a clicked row of the table: the same document, raised, the row's op selected
    bar = window.documents.tabBar()
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(window.documents.indexOf(view)).center())
    qtbot.waitUntil(lambda: window.documents.currentWidget() is view, timeout=5000)
    assert not view.row_graph_button.isVisible(), "no row clicked yet"
    row = next(i for i, r in enumerate(view.report.rows) if r.npu_op == "Cast_1206")
    table = view.table.view
    index = table.model().index(row, 0)
    table.scrollTo(index)
    qtbot.mouseClick(table.viewport(), LEFT, pos=table.visualRect(index).center())
    user.click(view.row_graph_button)
    assert _shown(qtbot, window, "Cast_1206") is doc
    assert len(_graph_documents(window)) == 1


# --- profiling report: Statistics ▸ Op Info ------------------------------------------------------------------
def _report_with_ops(samples, tmp_path, names: list[str]) -> Path:
    """The real kernel_details sample with its first rows renamed to ops of the model."""
    src = samples / "torch_npu-kernel_details-arith" / "kernel_details.csv"
    with src.open(newline="") as f:
        rows = list(csv.reader(f))
    col = rows[0].index("Name")
    for row, name in zip(rows[1:], names, strict=False):
        row[col] = name
    out = tmp_path / "run" / "kernel_details.csv"
    out.parent.mkdir()
    with out.open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    return out


def _stats_menu(qtbot, doc, row: int) -> QMenu:
    """Right-click view row ``row`` of the Statistics table: the menu it pops up."""
    view = doc.stats.view
    index = view.model().index(row, 0)
    view.scrollTo(index)
    pos = view.visualRect(index).center()
    viewport = view.viewport()
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, viewport.mapToGlobal(pos)))
    shown = [m for m in doc.findChildren(QMenu) if m.isVisible()]
    assert len(shown) == 1, "right-click pops up one menu"
    return shown[0]


def test_op_info_row_shows_in_an_open_graph_or_the_chosen_model(qtbot, window, user, samples, om_json, tmp_path):
    import reportkit

    path = _report_with_ops(samples, tmp_path, ["Cast_1206", "BatchMultiClassNMS_1203"])
    doc = reportkit.open_report(qtbot, user, window, path)
    bar = doc.data_tabs.tabBar()
    tab = next(i for i in range(bar.count()) if bar.tabText(i) == "Statistics")
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(tab).center())
    qtbot.waitUntil(lambda: doc.data_tabs.currentWidget() is doc.stats, timeout=5000)
    user.choose(doc.stats_selector, "Op Info")
    qtbot.waitUntil(lambda: doc.stats_op_name(0) != "", timeout=5000)
    rows = {doc.stats_op_name(r): r for r in range(doc.stats.model.rowCount())}

    # no graph open: the model is asked for in Qt's own file dialog
    menu = _stats_menu(qtbot, doc, rows["Cast_1206"])
    with user.answering(QFileDialog, user.typing_path(om_json)):
        click_menu_entry(qtbot, menu, "Show in Graph")
    graph_doc = _shown(qtbot, window, "Cast_1206")

    # the report again, another op: the open graph holding it comes to the front, no dialog
    bar = window.documents.tabBar()
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(window.documents.indexOf(doc)).center())
    qtbot.waitUntil(lambda: window.documents.currentWidget() is doc, timeout=5000)
    asked: list[str] = []  # a file dialog here would be wrong: closed (so the test cannot hang) and noted

    def no_dialog() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QFileDialog):
            asked.append(dialog.windowTitle())
            dialog.reject()

    guard = QTimer()
    guard.timeout.connect(no_dialog)
    guard.start(50)
    try:
        click_menu_entry(qtbot, _stats_menu(qtbot, doc, rows["BatchMultiClassNMS_1203"]), "Show in Graph")
    finally:
        guard.stop()
    assert not asked, "the open graph holding the op is used"
    assert _shown(qtbot, window, "BatchMultiClassNMS_1203") is graph_doc
    assert len(_graph_documents(window)) == 1


def test_a_kernel_selected_on_the_timeline_shows_in_the_graph_from_properties(
    qtbot, window, user, samples, om_json, tmp_path
):
    """Find a kernel on the Timeline (its search field, Enter): its Properties offer "Show in Graph"; a
    double-click there opens the model asked for and selects the op."""
    import reportkit

    from workbench.simtoolkit.profdata import write_torch_npu
    from workbench.simtoolkit.profdata.workload import Op, Tensor, Workload

    t = Tensor((1, 100), "FLOAT16")
    ops = (Op("Cast_1206", "Cast", (t,), (t,), "AI_VECTOR_CORE"), Op("Concat_1211", "ConcatD", (t,), (t,)))
    path = write_torch_npu(tmp_path / "run", Workload("nms", ops), steps=1, rank=0)
    doc = reportkit.open_report(qtbot, user, window, path)
    tv = doc.timeline_view
    user.retype(tv.search, "Cast_1206")
    qtbot.keyClick(tv.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: _details(window).get("Name") == "Cast_1206", timeout=10000)
    tree = window.details.tree
    row = next(
        tree.topLevelItem(i) for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).text(0) == "Model graph"
    )
    rect = tree.visualItemRect(row)
    with user.answering(QFileDialog, user.typing_path(om_json)):
        qtbot.mouseClick(tree.viewport(), LEFT, pos=rect.center())
        qtbot.mouseDClick(tree.viewport(), LEFT, pos=rect.center())
    _shown(qtbot, window, "Cast_1206")


# --- the ATC wizard ------------------------------------------------------------------------------------------------
def test_converter_input_list_and_output_picker_show_their_node(qtbot, window, user, tmp_path):
    from workbench.ui.converter import open_model_converter
    from workbench.ui.converter.page_advanced import OutNodePicker

    model = small_cnn(tmp_path / "smallcnn.onnx")
    wizard = open_model_converter(window.context, window, str(model))
    qtbot.waitUntil(lambda: wizard.model_info is not None, timeout=20000)
    next_button = wizard.button(QWizard.WizardButton.NextButton)
    user.click(next_button)
    page = wizard.inputs_page
    qtbot.waitUntil(lambda: wizard.currentPage() is page, timeout=5000)
    assert not page.graph_button.isEnabled(), "no input selected yet"
    cell = page.table.visualItemRect(page.table.item(0, 0)).center()
    qtbot.mouseClick(page.table.viewport(), LEFT, pos=cell)
    user.click(page.graph_button)
    doc = _shown(qtbot, window, "images")
    assert doc.path == model

    # the output-node picker: its current entry ("relu1:0") shown in the same document
    while wizard.currentPage() is not wizard.advanced_page:
        user.click(next_button)
    assert len(_graph_documents(window)) == 1

    def pick(dialog: OutNodePicker) -> None:
        item = dialog.list.findItems("relu1:0", Qt.MatchFlag.MatchExactly)[0]
        dialog.list.scrollToItem(item)
        qtbot.mouseClick(dialog.list.viewport(), LEFT, pos=dialog.list.visualItemRect(item).center())
        qtbot.waitUntil(dialog.graph_button.isEnabled, timeout=5000)
        qtbot.mouseClick(dialog.graph_button, LEFT)
        _shown(qtbot, window, "relu1")
        box = dialog.findChild(QDialogButtonBox)
        qtbot.mouseClick(box.button(QDialogButtonBox.StandardButton.Cancel), LEFT)

    with user.answering(OutNodePicker, pick):
        user.click(wizard.advanced_page.pick_button)
    assert window.documents.currentWidget() is doc and len(_graph_documents(window)) == 1
    wizard.close()


# --- the dump configuration's op tree ---------------------------------------------------------------------------------
def test_dump_configuration_layer_shows_in_the_graph_of_its_model(qtbot, window, user, om_json, tmp_path):
    from workbench.ui.dump.config_dialog import open_dump_configuration

    dialog = open_dump_configuration(window.context, window, str(om_json), str(tmp_path / "acl.json"))
    qtbot.waitUntil(lambda: dialog.model is not None and "Cast_1206" in dialog.tree._items, timeout=20000)
    tree = dialog.tree.tree
    item = dialog.tree._items["Cast_1206"]
    tree.scrollToItem(item)
    pos = tree.visualItemRect(item).center()
    viewport = tree.viewport()
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, viewport.mapToGlobal(pos)))
    shown = [m for m in dialog.tree.findChildren(QMenu) if m.isVisible()]
    assert len(shown) == 1
    click_menu_entry(qtbot, shown[0], "Show in Graph")
    doc = _shown(qtbot, window, "Cast_1206")
    assert doc.path == om_json
    dialog.close()
