"""The model graph document (issue #23) as a user drives it: opened from the project explorer,
searched, clicked, expanded, moved by its minimap, cancelled, compared side by side."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication
from uikit import click_menu_entry, explorer_menu, explorer_row_centre

from workbench.core.project import create_project

OM_JSON = "atc-om2json-large/test.om.json"
LEFT = Qt.MouseButton.LeftButton


def _double_click_in_explorer(qtbot, window, path: Path) -> None:
    viewport = window.explorer.view.viewport()
    pos = explorer_row_centre(qtbot, window, path)
    # a double click as a platform delivers it: press + release, then the double-click event
    qtbot.mouseClick(viewport, LEFT, pos=pos)
    qtbot.mouseDClick(viewport, LEFT, pos=pos)


def _graph_documents(window):
    from workbench.ui.graph.document import GraphDocument

    tabs = window.documents
    return [tabs.widget(i) for i in range(tabs.count()) if isinstance(tabs.widget(i), GraphDocument)]


def _open(qtbot, window, path: Path):
    """Double-click ``path`` in the explorer; the graph document once its graph shows."""
    _double_click_in_explorer(qtbot, window, path)
    qtbot.waitUntil(lambda: bool(_graph_documents(window)), timeout=10000)
    doc = _graph_documents(window)[-1]
    qtbot.waitUntil(lambda: doc.pane.data is not None and doc.pane.canvas.isVisible(), timeout=60000)
    return doc


def _details(window) -> dict[str, str]:
    tree = window.details.tree
    return {tree.topLevelItem(i).text(0): tree.topLevelItem(i).text(1) for i in range(tree.topLevelItemCount())}


def _click_item(qtbot, pane, k: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """Click item ``k``'s box on the viewport (where it is drawn now)."""
    pos = pane.canvas.view_pos_of(k)
    assert pane.canvas.viewport().rect().contains(pos), "the box is in the window"
    qtbot.mouseClick(pane.canvas.viewport(), LEFT, modifier, pos=pos)


def _wheel(canvas, pos: QPoint, delta: int) -> None:
    """The mouse wheel turned by ``delta`` (120 = one notch away from the user) over ``pos`` of the canvas."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent

    event = QWheelEvent(
        QPointF(pos),
        QPointF(canvas.viewport().mapToGlobal(pos)),
        QPoint(0, 0),
        QPoint(0, delta),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(canvas.viewport(), event)


@pytest.fixture
def project(window, samples, tmp_path):
    root = tmp_path / "proj"
    create_project(root)
    shutil.copyfile(samples / OM_JSON, root / "test.om.json")
    window.open_project(root)
    return root


def test_om_json_opens_as_a_graph_and_is_searched_by_typing(qtbot, window, project):
    doc = _open(qtbot, window, project / "test.om.json")
    pane = doc.pane
    graph = pane.graph
    assert len(graph.nodes) == 132 and pane.summary.text() == "132 ops, 132 shown"
    assert window.documents.tabText(window.documents.currentIndex()) == "test.om.json — Graph"

    # Ctrl+F (anywhere in the document) puts the cursor into the search field
    pane.canvas.setFocus()
    qtbot.waitUntil(pane.canvas.hasFocus, timeout=5000)
    qtbot.keyClick(pane.canvas, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(pane.search.hasFocus, timeout=5000)
    qtbot.keyClicks(pane.search, "conv2d")
    convs = [i for i, n in enumerate(graph.nodes) if "conv2d" in n.name.lower() or n.op_type == "Conv2D"]
    assert len(convs) >= 5
    qtbot.keyClick(pane.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: pane.count_label.text() == f"1 of {len(convs)}", timeout=5000)
    assert pane.selected == [convs[0]]
    assert window.details.title.toolTip() == graph.nodes[convs[0]].name
    qtbot.mouseClick(pane.next_button, LEFT)
    qtbot.waitUntil(lambda: pane.count_label.text() == f"2 of {len(convs)}", timeout=5000)
    assert pane.selected == [convs[1]] and _details(window)["Name"] == graph.nodes[convs[1]].name
    # the hit is centred
    centre = pane.canvas.visible_rect().center()
    k = pane.item_of(convs[1])
    assert abs(centre.x() - pane.data.layout.x[k]) < 2 and abs(centre.y() - pane.data.layout.y[k]) < 2
    qtbot.mouseClick(pane.prev_button, LEFT)
    qtbot.mouseClick(pane.prev_button, LEFT)
    qtbot.waitUntil(lambda: pane.count_label.text() == f"{len(convs)} of {len(convs)}", timeout=5000)
    assert pane.selected == [convs[-1]]

    qtbot.keyClick(pane.search, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(pane.search, "no such op at all")
    qtbot.waitUntil(lambda: pane.count_label.text() == "no match", timeout=5000)


def test_clicking_a_box_shows_its_properties_and_follows_an_input(qtbot, window, project):
    doc = _open(qtbot, window, project / "test.om.json")
    pane = doc.pane
    graph = pane.graph
    conv = next(i for i, n in enumerate(graph.nodes) if n.op_type == "Conv2D")
    pane.canvas.centre_on_item(pane.item_of(conv), min_scale=1.0)
    _click_item(qtbot, pane, pane.item_of(conv))
    qtbot.waitUntil(lambda: _details(window).get("Name") == graph.nodes[conv].name, timeout=5000)
    rows = _details(window)
    assert rows["Type"] == "Conv2D" and pane.selected == [conv]
    assert rows["Input 0"].startswith(graph.nodes[conv].inputs[0].name)
    # its long attribute names ("Attribute PartitionedCall_Conv_52_Conv2D_12_kernelname") leave the values in sight
    tree = window.details.tree
    assert max(len(k) for k in rows) > 50
    assert tree.columnWidth(0) <= tree.viewport().width() // 2

    # the input row's action (double-click in the Properties dock) goes to the producer
    producer = pane.producer_of(graph.nodes[conv].inputs[0].name)
    assert producer is not None
    tree = window.details.tree
    row = next(
        tree.topLevelItem(i) for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).text(0) == "Input 0"
    )
    rect = tree.visualItemRect(row)
    qtbot.mouseClick(tree.viewport(), LEFT, pos=rect.center())
    qtbot.mouseDClick(tree.viewport(), LEFT, pos=rect.center())
    qtbot.waitUntil(lambda: pane.selected == [producer], timeout=5000)
    assert _details(window)["Name"] == graph.nodes[producer].name

    # Shift+click on the conv again: the path between them
    k = pane.item_of(conv)
    pane.canvas.centerOn(pane.data.centre(k))
    _click_item(qtbot, pane, k, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: pane.path_nodes == graph.path(producer, conv), timeout=5000)
    assert pane.path_nodes[0] == producer and pane.path_nodes[-1] == conv
    assert pane.summary.text() == f"Path: {len(pane.path_nodes)} ops"


def test_the_minimap_moves_the_view(qtbot, window, project):
    doc = _open(qtbot, window, project / "test.om.json")
    pane = doc.pane
    pane.canvas.set_scale(1.0)
    minimap = pane.minimap
    assert minimap.isVisible()
    target = QPoint(minimap.width() // 2, minimap.height() - 20)
    scene = minimap.scene_point(target.toPointF())
    qtbot.mouseClick(minimap, LEFT, pos=target)
    qtbot.waitUntil(lambda: (pane.canvas.visible_rect().center() - scene).manhattanLength() < 20, timeout=5000)
    # a drag moves it on
    other = QPoint(minimap.width() // 2, 20)
    qtbot.mousePress(minimap, LEFT, pos=other)
    qtbot.mouseRelease(minimap, LEFT, pos=other)
    qtbot.waitUntil(
        lambda: (pane.canvas.visible_rect().center() - minimap.scene_point(other.toPointF())).manhattanLength() < 40,
        timeout=5000,
    )


def test_the_minimap_of_a_long_chain_shows_the_stretch_around_the_view(qtbot, window, tmp_path):
    """A graph ~100x taller than wide (a long chain of layers): fitted whole into the minimap it would be a
    hair-thin line; the minimap shows it wide enough to read and scrolls with the view instead."""
    from workbench.core.graph.synth import synth_onnx
    from workbench.ui.graph.canvas import MIN_FILL

    root = tmp_path / "long"
    create_project(root)
    synth_onnx(1500, root / "long.onnx")
    window.open_project(root)
    doc = _open(qtbot, window, root / "long.onnx")
    pane, minimap = doc.pane, doc.pane.minimap
    b = pane.data.bounds
    assert b.height() > 50 * b.width(), "the model is a long chain"
    image = minimap.grab().toImage()
    background = image.pixel(2, 2)
    inked = {
        x
        for x in range(3, image.width() - 3)
        for y in range(3, image.height() - 3, 3)
        if image.pixel(x, y) != background
    }
    assert len(inked) >= MIN_FILL * minimap.width() * 0.8, "the graph is drawn wide enough to see its boxes"
    before = pane.canvas.visible_rect().center()
    target = QPoint(minimap.width() // 2, minimap.height() - 10)
    qtbot.mouseClick(minimap, LEFT, pos=target)
    qtbot.waitUntil(lambda: pane.canvas.visible_rect().center().y() > before.y() + 10, timeout=5000)
    moved = pane.canvas.visible_rect().center().y() - before.y()
    assert moved < b.height() / 10, "a click moves within the stretch shown, not across the whole model"


def test_wheel_zooms_at_the_cursor_and_fit_shows_everything(qtbot, window, project):

    doc = _open(qtbot, window, project / "test.om.json")
    canvas = doc.pane.canvas
    canvas.set_scale(0.5)
    pos = QPoint(canvas.viewport().width() // 3, canvas.viewport().height() // 3)
    under = canvas.mapToScene(pos)
    before = canvas.scale_now()
    _wheel(canvas, pos, 240)
    qtbot.waitUntil(lambda: canvas.scale_now() > before * 1.2, timeout=5000)
    assert (canvas.mapToScene(pos) - under).manhattanLength() < 3, "the point under the cursor stays"
    qtbot.mouseClick(doc.pane.fit_button, LEFT)
    qtbot.waitUntil(lambda: canvas.visible_rect().contains(canvas.data.bounds.adjusted(5, 5, -5, -5)), timeout=5000)


def test_a_large_graph_opens_collapsed_and_a_double_click_expands_a_group(qtbot, window, tmp_path):
    from workbench.core.graph.synth import synth_onnx

    root = tmp_path / "big"
    create_project(root)
    synth_onnx(2500, root / "big.onnx")
    window.open_project(root)
    doc = _open(qtbot, window, root / "big.onnx")
    pane = doc.pane
    data = pane.data
    graph = pane.graph
    assert data.layout.collapsed, "more than 2000 nodes: the top-level scopes start collapsed"
    assert data.n < len(graph.nodes) / 2
    groups = [k for k in range(data.n) if data.items[k] < 0]
    k = groups[len(groups) // 2]
    g = -int(data.items[k]) - 1
    pane.canvas.centre_on_item(k, min_scale=1.0)
    pos = pane.canvas.view_pos_of(k)
    viewport = pane.canvas.viewport()
    qtbot.mouseClick(viewport, LEFT, pos=pos)
    qtbot.waitUntil(lambda: _details(window).get("Group") == graph.groups[g].name, timeout=5000)
    qtbot.mouseDClick(viewport, LEFT, pos=pos)
    qtbot.waitUntil(lambda: pane.data is not data and pane.task is None, timeout=60000)
    assert g not in pane.data.layout.collapsed and len(pane.data.layout.collapsed) == len(data.layout.collapsed) - 1
    members = [i for i, n in enumerate(graph.nodes) if g in graph.group_path(n.group)]
    shown = [pane.item_of(i) for i in members]
    assert all(pane.data.items[s] >= 0 for s in shown), "its ops are boxes of their own now"
    view = pane.canvas.visible_rect()
    assert any(view.contains(pane.data.centre(s)) for s in shown), "the expanded group stays in view"

    # reveal() of an op inside another collapsed group expands that group and selects the op
    hidden = next(
        i for i, n in enumerate(graph.nodes) if any(h in pane.data.layout.collapsed for h in graph.group_path(n.group))
    )
    before = pane.data
    assert doc.reveal(graph.nodes[hidden].name)
    qtbot.waitUntil(lambda: pane.data is not before and pane.selected == [hidden], timeout=60000)
    assert pane.data.items[pane.item_of(hidden)] == hidden
    assert _details(window)["Name"] == graph.nodes[hidden].name

    # the context menu of one of its ops collapses the op's innermost group
    innermost = graph.nodes[members[0]].group
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QMenu

    k0 = pane.item_of(members[0])
    pane.canvas.centre_on_item(k0, min_scale=1.0)
    at = pane.canvas.view_pos_of(k0)
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, viewport.mapToGlobal(at)))
    menus = [m for m in pane.findChildren(QMenu) if m.isVisible()]
    assert len(menus) == 1, "right-click on the box pops up its menu"
    label = f"Collapse Group “{graph.groups[innermost].name}”"
    expanded = pane.data
    click_menu_entry(qtbot, menus[0], label)
    qtbot.waitUntil(lambda: pane.data is not expanded and pane.task is None, timeout=60000)
    assert innermost in pane.data.layout.collapsed
    assert pane.data.items[pane.item_of(members[0])] == -innermost - 1


def test_cancel_during_layout_leaves_no_document(qtbot, window, project, monkeypatch):
    import workbench.core.graph.layout as layout_module

    real = layout_module.layout_graph
    started = []

    def slow_layout(graph, collapsed=frozenset(), *, progress, cancel):
        started.append(True)
        progress.fraction(0.5)
        cancel.wait(30)  # a layout that runs until the user cancels it
        cancel.raise_if_cancelled()
        return real(graph, collapsed, progress=progress, cancel=cancel)

    monkeypatch.setattr(layout_module, "layout_graph", slow_layout)
    _double_click_in_explorer(qtbot, window, project / "test.om.json")
    qtbot.waitUntil(lambda: bool(_graph_documents(window)) and bool(started), timeout=10000)
    doc = _graph_documents(window)[0]
    assert doc.pane.status.text().startswith("Reading and laying out test.om.json")
    qtbot.waitUntil(lambda: doc.pane.cancel_button.isVisible(), timeout=5000)
    qtbot.mouseClick(doc.pane.cancel_button, LEFT)
    qtbot.waitUntil(lambda: not _graph_documents(window), timeout=10000)
    assert window.statusBar().currentMessage() == "Opening test.om.json cancelled"


def test_compare_with_selects_the_mapped_ops(qtbot, window, user, tmp_path):
    """An ONNX model beside its om JSON (converted by the simulated atc): selecting an om op selects
    its original ONNX op, and back."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "core" / "atc"))
    from atc_models import small_cnn
    from PySide6.QtWidgets import QFileDialog

    from workbench.simtoolkit import atc

    root = tmp_path / "cmp"
    create_project(root)
    small_cnn(root / "m.onnx")
    assert (
        atc.main([f"--model={root / 'm.onnx'}", "--framework=5", f"--output={root / 'm'}", "--soc_version=Ascend310P3"])
        == 0
    )
    assert atc.main(["--mode=1", f"--om={root / 'm.om'}", f"--json={root / 'm.json'}"]) == 0
    window.open_project(root)
    doc = _open(qtbot, window, root / "m.json")
    with user.answering(QFileDialog, user.typing_path(root / "m.onnx")):
        user.click(doc.compare_button)
    qtbot.waitUntil(lambda: doc.other is not None and doc.other.data is not None and bool(doc.mapping), timeout=60000)
    om, onnx = doc.pane, doc.other
    fused = next(i for i, n in enumerate(om.graph.nodes) if n.op_type == "MaxPoolV3")
    om.canvas.centre_on_item(om.item_of(fused), min_scale=1.0)
    _click_item(qtbot, om, om.item_of(fused))
    want = [onnx.graph.index(name) for name in om.graph.nodes[fused].original_names]
    qtbot.waitUntil(lambda: onnx.selected == want, timeout=5000)
    assert onnx.graph.nodes[want[0]].op_type == "MaxPool"
    relu = onnx.graph.index("relu2")
    onnx.canvas.centre_on_item(onnx.item_of(relu), min_scale=1.0)
    _click_item(qtbot, onnx, onnx.item_of(relu))
    qtbot.waitUntil(lambda: [om.graph.nodes[i].name for i in om.selected] == ["relu2"], timeout=5000)


def test_compare_with_selects_all_onnx_ops_of_a_fused_op_and_back(qtbot, window, user, tmp_path):
    """The simulated atc fuses MatMul + bias Add + LeakyRelu into one op (as real ATC does): selecting that
    om op selects every ONNX op it holds; selecting one of them selects the fused om op."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "core" / "atc"))
    from atc_fusion_models import FUSED, fusion_mlp
    from PySide6.QtWidgets import QFileDialog

    from workbench.simtoolkit import atc

    root = tmp_path / "fused"
    create_project(root)
    fusion_mlp(root / "mlp.onnx")
    argv = [f"--model={root / 'mlp.onnx'}", "--framework=5", f"--output={root / 'mlp'}", "--soc_version=Ascend310P3"]
    assert atc.main(argv) == 0
    assert atc.main(["--mode=1", f"--om={root / 'mlp.om'}", f"--json={root / 'mlp.json'}"]) == 0
    window.open_project(root)
    doc = _open(qtbot, window, root / "mlp.json")
    with user.answering(QFileDialog, user.typing_path(root / "mlp.onnx")):
        user.click(doc.compare_button)
    qtbot.waitUntil(lambda: doc.other is not None and doc.other.data is not None and bool(doc.mapping), timeout=60000)
    om, onnx = doc.pane, doc.other
    fused = om.graph.index("MatMul_344LeakyRelu_347")
    om.canvas.centre_on_item(om.item_of(fused), min_scale=1.0)
    _click_item(qtbot, om, om.item_of(fused))
    want = sorted(onnx.graph.index(name) for name in FUSED["MatMul_344LeakyRelu_347"][1])
    qtbot.waitUntil(lambda: onnx.selected == want, timeout=5000)
    assert {onnx.graph.nodes[i].name for i in onnx.selected} == {
        "Constant_345",
        "Add_346",
        "MatMul_344",
        "LeakyRelu_347",
    }
    for name in ("Add_346", "Sqrt_316"):
        k = onnx.graph.index(name)
        onnx.canvas.centre_on_item(onnx.item_of(k), min_scale=1.0)
        _click_item(qtbot, onnx, onnx.item_of(k))
        expected = "MatMul_344LeakyRelu_347" if name == "Add_346" else "Div_315Sqrt_316"
        qtbot.waitUntil(
            lambda expected=expected: [om.graph.nodes[i].name for i in om.selected] == [expected], timeout=5000
        )


def test_reveal_centres_and_selects_by_name_or_original_name(qtbot, window, project):
    doc = _open(qtbot, window, project / "test.om.json")
    graph = doc.pane.graph
    fused = next(i for i, n in enumerate(graph.nodes) if n.original_names and graph.index(n.original_names[0]) is None)
    assert doc.reveal(graph.nodes[5].name) and doc.pane.selected == [5]
    assert _details(window)["Name"] == graph.nodes[5].name
    original = graph.nodes[fused].original_names[0]  # a framework op's name: the om ops it went into
    assert doc.reveal(original)
    assert doc.pane.selected == graph.by_original_name(original) and fused in doc.pane.selected
    centre = doc.pane.canvas.visible_rect().center()
    k = doc.pane.item_of(doc.pane.selected[0])
    assert abs(centre.x() - doc.pane.data.layout.x[k]) < 2 and abs(centre.y() - doc.pane.data.layout.y[k]) < 2
    assert not doc.reveal("no such op")


def test_render_png_writes_the_whole_graph_atomically(qtbot, samples, tmp_path):
    from PySide6.QtGui import QImage

    from workbench.core.fsutil import OutputRefused
    from workbench.core.graph.layout import layout_graph
    from workbench.core.graph.load import load_graph
    from workbench.core.tasks import CancelToken, NullProgress
    from workbench.ui.graph.render import render_png

    source = tmp_path / "test.om.json"
    shutil.copyfile(samples / OM_JSON, source)
    graph = load_graph(source, progress=NullProgress(), cancel=CancelToken())
    layout = layout_graph(graph, progress=NullProgress(), cancel=CancelToken())
    out = render_png(graph, layout, tmp_path / "g.png", max_size=1024)
    image = QImage(str(out))
    assert not image.isNull() and max(image.width(), image.height()) <= 1024
    assert [p.name for p in tmp_path.iterdir()] == sorted(["test.om.json", "g.png"]) or set(
        p.name for p in tmp_path.iterdir()
    ) == {"test.om.json", "g.png"}
    with pytest.raises(OutputRefused):
        render_png(graph, layout, source)
    assert source.read_bytes() == (samples / OM_JSON).read_bytes()


PROTOTXT = """name: "tiny"
input: "data"
input_shape { dim: 1 dim: 3 dim: 8 dim: 8 }
layer { name: "conv1" type: "Convolution" bottom: "data" top: "conv1"
  convolution_param { num_output: 4 kernel_size: 3 } }
layer { name: "relu1" type: "ReLU" bottom: "conv1" top: "conv1" }
layer { name: "pool1" type: "Pooling" bottom: "conv1" top: "pool1" }
"""


# offscreen QPA: a popup menu raises itself and grabs the keyboard, which that platform cannot do
def test_show_graph_in_the_context_menu_of_prototxt_and_om(qtbot, window, tmp_path):
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "core" / "atc"))
    from atc_models import small_cnn

    from workbench.simtoolkit import atc

    root = tmp_path / "models"
    create_project(root)
    (root / "tiny.prototxt").write_text(PROTOTXT)
    small_cnn(tmp_path / "m.onnx")
    convert = [f"--model={tmp_path / 'm.onnx'}", "--framework=5", f"--output={root / 'm'}", "--soc_version=Ascend310P3"]
    assert atc.main(convert) == 0
    window.open_project(root)

    menu = explorer_menu(qtbot, window, root / "tiny.prototxt")
    assert [a.text() for a in menu.actions()] == ["Open", "Convert Model…", "Show Graph"]
    click_menu_entry(qtbot, menu, "Show Graph")
    qtbot.waitUntil(
        lambda: bool(_graph_documents(window)) and _graph_documents(window)[0].pane.data is not None, timeout=30000
    )
    graph = _graph_documents(window)[0].pane.graph
    assert graph.format == "caffe" and {"conv1", "relu1", "pool1"} <= {n.name for n in graph.nodes}

    menu = explorer_menu(qtbot, window, root / "m.om")
    assert [a.text() for a in menu.actions()] == ["Open", "Show Model Structure", "Show Graph", "Dump Configuration…"]
    click_menu_entry(qtbot, menu, "Show Graph")  # atc --mode=1 on the CANN machine (the demo), then the graph
    qtbot.waitUntil(
        lambda: len(_graph_documents(window)) == 2 and _graph_documents(window)[1].pane.data is not None, timeout=60000
    )
    graph = _graph_documents(window)[1].pane.graph
    assert graph.format == "om" and graph.source == str(root / "m.om")
    assert any(n.op_type == "Conv2D" for n in graph.nodes)


def test_the_layout_s_status_lines_show_in_chinese(qtbot, zh_window, samples, tmp_path):
    """The zh_CN window: the layout's steps (core's status lines) in the Output dock are in Chinese."""
    from workbench.core.graph import layout
    from workbench.ui.graph import work

    assert work.STATUS_TEMPLATES == layout.STATUS_TEMPLATES  # the translations' list is core's
    root = tmp_path / "proj"
    create_project(root)
    shutil.copyfile(samples / OM_JSON, root / "test.om.json")
    zh_window.open_project(root)
    _open(qtbot, zh_window, root / "test.om.json")
    tabs = zh_window.output.tabs
    text = "\n".join(
        tabs.widget(i).toPlainText() for i in range(tabs.count()) if hasattr(tabs.widget(i), "toPlainText")
    )
    assert "布局分层" in text and "排序" in text and "放置" in text
    assert not any(word in text for word in layout.STATUS_TEMPLATES)
    # a large model opens with its scopes collapsed: their boxes say what they hold in Chinese
    from workbench.core.graph.synth import synth_onnx

    synth_onnx(2500, root / "big.onnx")
    doc = _open(qtbot, zh_window, root / "big.onnx")
    groups = [k for k, v in enumerate(doc.pane.data.items.tolist()) if v < 0]
    assert groups and all(doc.pane.data.names[k].startswith("作用域 · ") for k in groups)
    assert doc.pane.data.names[groups[0]].endswith(" 个节点")


def test_export_writes_the_graph_as_shown_as_svg_png_and_layout_json(qtbot, window, user, project, tmp_path):
    """Export… (Qt's own save dialog): SVG, PNG and the layout JSON of what is shown, written as a task."""
    import json
    import xml.etree.ElementTree as ET

    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QFileDialog

    doc = _open(qtbot, window, project / "test.om.json")
    qtbot.waitUntil(doc.export_button.isEnabled, timeout=5000)
    n = len(doc.pane.data.layout.items)
    out = tmp_path / "exports"
    out.mkdir()
    for name in ("g.svg", "g.png", "g.json"):
        with user.answering(QFileDialog, user.typing_path(out / name)):
            user.click(doc.export_button)
        qtbot.waitUntil(lambda name=name: (out / name).is_file(), timeout=30000)
    svg = ET.parse(out / "g.svg").getroot()
    assert len([e for e in svg.iter() if e.tag.endswith("rect")]) >= n
    image = QImage(str(out / "g.png"))
    assert not image.isNull() and image.width() > 100
    laid = json.loads((out / "g.json").read_text())
    assert len(laid["nodes"]) == n
    assert sorted(p.name for p in out.iterdir()) == ["g.json", "g.png", "g.svg"]  # nothing else left behind


def test_a_small_graph_fitted_to_the_window_shows_its_labels(qtbot, window, samples, tmp_path):
    """At a zoom where the boxes are big enough for text (a small model, zoomed in), the ops' labels are drawn
    (the overview image, which has none, only stands in where the labels would not be drawn anyway)."""
    from PySide6.QtGui import QColor

    from workbench.ui.graph.scene import TEXT_PX

    root = tmp_path / "small"
    create_project(root)
    shutil.copyfile(samples / "atc-om2json-310-cann5.1" / "model.json", root / "model.json")
    window.open_project(root)
    doc = _open(qtbot, window, root / "model.json")
    pane = doc.pane
    qtbot.mouseClick(pane.fit_button, LEFT)
    canvas = pane.canvas
    centre = canvas.viewport().rect().center()
    while canvas.scale_now() * pane.data.box_h < TEXT_PX:  # the wheel, a notch at a time, until labels fit
        before = canvas.scale_now()
        _wheel(canvas, centre, 120)
        qtbot.waitUntil(lambda before=before: canvas.scale_now() > before, timeout=5000)
    assert canvas.scale_now() <= 1.25, "still within the overview image's sharp range"
    image = canvas.viewport().grab().toImage()

    def dark(x: int, y: int) -> bool:  # text ink (#202020, antialiased): no box, edge or outline is this dark
        c = QColor(image.pixel(x, y))
        return max(c.red(), c.green(), c.blue()) < 90

    inked = sum(1 for x in range(image.width()) for y in range(image.height()) if dark(x, y))
    assert inked > 500, "the op types and names are written in the boxes"
