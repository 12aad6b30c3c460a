"""The Model Converter wizard, driven end to end with the demo host (simulated CANN): inputs read
from a real ONNX model, the live command preview, validation shown on the page with ATC's codes,
a run that downloads the .om into the project and records it, the error panel on failure."""

from __future__ import annotations

import sys
from pathlib import Path

import onnx
import pytest
from PySide6.QtCore import Qt

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core" / "atc"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (no __init__.py)
from atc_models import CAFFE_PROTOTXT, small_cnn  # noqa: E402
from sshd import SshServer, ssh_home, sshd_server  # noqa: E402,F401

from workbench.core.atc import ConversionJob, InputSpec, command_line, explain  # noqa: E402
from workbench.core.atc.run import last_job  # noqa: E402
from workbench.core.project import create_project, open_project  # noqa: E402
from workbench.ui.converter import open_model_converter  # noqa: E402
from workbench.ui.converter.page_inputs import NAME, SHAPE  # noqa: E402
from workbench.ui.converter.wizard import CONVERT, STOP  # noqa: E402

SOC = "Ascend310P3"
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shot(widget, name: str, tmp_path: Path) -> None:
    """Render ``widget``; with WB_SCREENSHOTS=1 into docs/screenshots/converter-<name>.png."""
    import os

    target = SHOTS if os.environ.get("WB_SCREENSHOTS") else tmp_path
    assert widget.grab().save(str(target / f"converter-{name}.png"))


def ready(wizard) -> bool:
    """The model was read and npu-smi answered."""
    return (
        wizard.inspect_task is None or wizard.inspect_task.state.finished
    ) and "npu-smi" in wizard.model_page.soc_status.text()


def start(qtbot, window, tmp_path, model_name="smallcnn.onnx"):
    root = tmp_path / "proj"
    root.mkdir()
    window.create_project(root)
    model = small_cnn(root / model_name)
    wizard = open_model_converter(window.context, window, str(model))
    qtbot.waitUntil(lambda: ready(wizard) and wizard.model_info is not None, timeout=20000)
    return wizard, model


def press(qtbot, wizard, which) -> None:
    """Click the wizard's own Convert / Stop button, as a user does."""
    button = wizard.button(which)
    assert button.isVisible(), f"{button.text()} is not shown"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def output_log(window, title: str) -> str:
    """The text of the Output dock's tab ``title`` ("" while it has none)."""
    tabs = window.output.tabs
    return "\n".join(tabs.widget(i).toPlainText() for i in range(tabs.count()) if tabs.tabText(i) == title)


def convert_and_wait(qtbot, wizard, om: Path | None = None) -> str:
    """Press Convert, wait for the result panel (and the .om on disk when expected); its text."""
    press(qtbot, wizard, CONVERT)
    panel = wizard.summary_page.result
    qtbot.waitUntil(lambda: panel.isVisible() and "Conversion" in panel.toPlainText(), timeout=60000)
    qtbot.waitUntil(lambda: not wizard.button(STOP).isEnabled(), timeout=10000)  # the run is over
    if om is not None:
        qtbot.waitUntil(om.is_file, timeout=10000)
    return panel.toPlainText()


def graph_inputs(path: Path) -> list[tuple[str, str]]:
    """(name, dims) of the ONNX graph's inputs, read with onnx directly (-1 for symbolic axes)."""
    g = onnx.load(str(path)).graph
    init = {i.name for i in g.initializer}
    out = []
    for vi in g.input:
        if vi.name not in init:
            dims = [str(d.dim_value) if d.dim_value > 0 else "-1" for d in vi.type.tensor_type.shape.dim]
            out.append((vi.name, ",".join(dims)))
    return out


def test_onnx_model_converts_and_the_om_lands_in_the_project(qtbot, window, tmp_path):
    wizard, model = start(qtbot, window, tmp_path)
    page = wizard.inputs_page
    assert page.rows() == graph_inputs(model)
    assert page.table.item(0, 1).text() == "float32"
    assert wizard.model_page.detected.text().endswith("(--framework=5)")
    # npu-smi of the demo host proposed a SoC; choose another from the list.
    assert wizard.model_page.soc.currentText()
    wizard.model_page.soc.setEditText(SOC)
    page.set_cell(0, SHAPE, "1,3,32,32")

    expected = ConversionJob(
        host="demo", model=str(model), soc_version=SOC, inputs=[InputSpec("images", [1, 3, 32, 32])]
    )
    line = command_line(expected)
    assert line == (
        "atc --model=smallcnn.onnx --framework=5 --output=smallcnn --soc_version=Ascend310P3 "
        "--input_shape=images:1,3,32,32"
    )
    assert wizard.command_line() == line
    for p in wizard.pages[:-1]:
        assert p.preview.text() == line
    assert wizard.summary_page.command.toPlainText() == line
    assert wizard.summary_page.copy_command() == line
    uploads = [wizard.summary_page.uploads.item(0, c).text() for c in range(3)]
    assert uploads[1] == str(model) and uploads[2].endswith("/smallcnn.onnx")
    assert wizard.errors() == []
    assert wizard.button(CONVERT).isEnabled()

    om = Path(window.project.root) / "smallcnn.om"
    text = convert_and_wait(qtbot, wizard, om)
    assert "Conversion succeeded" in text and str(om) in text and "on demo" in text
    assert om.stat().st_size > 0
    assert wizard.currentPage() is wizard.summary_page
    qtbot.waitUntil(lambda: "ATC run success" in output_log(window, "Convert smallcnn.onnx"), timeout=10000)
    assert wizard.structure_button.isVisible()
    qtbot.waitUntil(lambda: window.explorer.index_of(om).isValid(), timeout=10000)
    history = open_project(window.project.root).conversions
    assert history[-1]["result"] == "success" and history[-1]["command"] == line
    assert history[-1]["om"] == "smallcnn.om"
    assert wizard.button(CONVERT).isEnabled()

    # The values are remembered per project: a new wizard starts from them.
    assert last_job(open_project(window.project.root)).soc_version == SOC
    wizard.close()
    again = open_model_converter(window.context, window)
    qtbot.waitUntil(lambda: ready(again) and again.model_info is not None, timeout=20000)
    assert again.model_page.soc.currentText() == SOC
    assert again.inputs_page.rows() == [("images", "1,3,32,32")]
    assert again.command_line() == line


def test_wrong_input_name_shows_e10016_before_running(qtbot, window, tmp_path):
    wizard, _model = start(qtbot, window, tmp_path)
    page = wizard.inputs_page
    page.set_cell(0, NAME, "image")
    assert "E10016" in page.codes()
    assert "E10016" in page.issue_box.text()
    assert explain("E10016").text.split(".")[0] in page.issue_box.text()
    assert "Opname [image] specified in [--input_shape] is not found" in page.issue_box.text()
    assert page.table.styleSheet()  # the field is outlined
    assert "E10016" not in wizard.model_page.codes()
    assert "Inputs (E10016)" in wizard.model_page.elsewhere.text()
    assert not wizard.button(CONVERT).isEnabled()
    press(qtbot, wizard, CONVERT)  # a disabled Convert does nothing
    assert not wizard.summary_page.result.isVisible() and output_log(window, "Convert smallcnn.onnx") == ""
    page.set_cell(0, NAME, "images")
    assert "E10016" not in page.codes() and wizard.button(CONVERT).isEnabled()


def test_dynamic_batch_with_dynamic_dims_shows_e10009_and_blocks_convert(qtbot, window, tmp_path):
    wizard, _model = start(qtbot, window, tmp_path)
    page = wizard.inputs_page
    page.set_cell(0, SHAPE, "-1,3,32,32")
    page.dyn_checks["dynamic_batch_size"].setChecked(True)
    page.dyn_edits["dynamic_batch_size"].setText("1,2,4")
    assert page.codes() == [] and wizard.button(CONVERT).isEnabled()
    assert "--dynamic_batch_size=1,2,4" in wizard.command_line()
    page.dyn_checks["dynamic_dims"].setChecked(True)
    page.dyn_edits["dynamic_dims"].setText("1;2")
    assert "E10009" in page.codes()
    assert "mutually exclusive" in page.issue_box.text()
    assert not wizard.button(CONVERT).isEnabled()
    press(qtbot, wizard, CONVERT)
    assert not wizard.summary_page.result.isVisible() and output_log(window, "Convert smallcnn.onnx") == ""
    page.dyn_checks["dynamic_dims"].setChecked(False)
    assert "E10009" not in page.codes() and wizard.button(CONVERT).isEnabled()


def test_caffe_model_without_weight_shows_e10008_on_the_model_page(qtbot, window, tmp_path):
    wizard, _model = start(qtbot, window, tmp_path)
    prototxt = Path(window.project.root) / "tiny.prototxt"
    prototxt.write_text(CAFFE_PROTOTXT)
    wizard.model_page.set_model_path(str(prototxt))
    qtbot.waitUntil(
        lambda: ready(wizard) and wizard.model_info is not None and wizard.model_info.framework == 0, timeout=20000
    )
    assert wizard.inputs_page.rows() == [("data", "1,3,8,8")]
    assert "E10008" in wizard.model_page.codes()
    assert wizard.model_page.weight.isEnabled()
    assert not wizard.button(CONVERT).isEnabled()
    prototxt.with_suffix(".caffemodel").write_bytes(b"\x0a\x04tiny")  # the weight beside it is taken
    wizard.model_page.set_model_path(str(prototxt))
    assert wizard.model_page.weight.text() == str(prototxt.with_suffix(".caffemodel"))
    assert "E10008" not in wizard.model_page.codes()
    assert " --weight=tiny.caffemodel --framework=0 " in wizard.command_line()


def test_failed_conversion_lists_every_error_with_explanation(qtbot, window, tmp_path):
    from onnx import TensorProto, helper

    wizard, _model = start(qtbot, window, tmp_path)
    wizard.model_page.soc.setEditText(SOC)
    fancy = Path(window.project.root) / "fancy.onnx"
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    node = helper.make_node("FancyOp", ["x"], ["y"], name="fancy", domain="com.example")
    onnx.save(
        helper.make_model(
            helper.make_graph([node], "g", [x], [y]),
            opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.example", 1)],
        ),
        str(fancy),
    )
    wizard.model_page.set_model_path(str(fancy))
    qtbot.waitUntil(lambda: ready(wizard) and wizard.inputs_page.rows() == [("x", "1,4")], timeout=20000)
    text = convert_and_wait(qtbot, wizard)
    result = wizard.last_result
    assert result is not None and not result.ok and result.errors
    panel = wizard.summary_page.result
    assert "Conversion failed" in text
    assert panel.codes == [d.code for d in result.errors + result.warnings]
    for d in result.errors:
        assert d.code in text and d.message[:40] in text and d.explanation.fix[:40] in text
    qtbot.waitUntil(lambda: "ATC run failed" in output_log(window, "Convert fancy.onnx"), timeout=10000)
    assert not (Path(window.project.root) / "fancy.om").exists()
    shot(wizard, "error", tmp_path)
    assert open_project(window.project.root).conversions[-1]["result"] == "failed"


@pytest.mark.parametrize("suffix", [".onnx", ".om"])
def test_model_structure_document_lists_the_ops(qtbot, window, tmp_path, suffix):
    from workbench.ui.converter import open_model_structure
    from workbench.ui.converter.structure_view import ModelStructureView

    root = tmp_path / "proj"
    root.mkdir()
    window.create_project(root)
    model = small_cnn(root / "smallcnn.onnx")
    path = model
    if suffix == ".om":
        wizard = open_model_converter(window.context, window, str(model))
        qtbot.waitUntil(lambda: ready(wizard) and wizard.model_info is not None, timeout=20000)
        wizard.model_page.soc.setEditText(SOC)
        path = root / "smallcnn.om"
        assert "Conversion succeeded" in convert_and_wait(qtbot, wizard, path)
    task = open_model_structure(window.context, path, host="demo")
    assert task is not None
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), ModelStructureView), timeout=30000)
    view = window.documents.currentWidget()
    names = {n.name for n in onnx.load(str(model)).graph.node}
    shown = {view.table.model.raw(r, 0) for r in range(view.table.model.rowCount())}
    assert names <= shown
    convs = {
        n.name for n in onnx.load(str(model)).graph.node if "conv" in n.name.lower() or "conv" in n.op_type.lower()
    }
    assert view.search("conv") >= len(convs)
    assert convs <= {view.table.model.raw(r, 0) for r in range(view.table.model.rowCount())}
    view.search("")
    relu = view.type_filter.findData("Relu")
    view.type_filter.setCurrentIndex(relu)
    assert {view.table.model.raw(r, 1) for r in range(view.table.model.rowCount())} == {"Relu"}


def test_advanced_flags_are_validated_on_their_page(qtbot, window, tmp_path):
    wizard, _model = start(qtbot, window, tmp_path)
    page = wizard.advanced_page
    wizard.inputs_page.set_cell(0, SHAPE, "1,3,32,32")
    page.out_nodes.setText("fc:0;nosuchnode:0")
    assert "E10016" in page.codes() and not wizard.button(CONVERT).isEnabled()
    page.out_nodes.setText("fc:0")
    page.output_mode.setCurrentIndex(1)  # a type per output
    page.per_output.cellWidget(0, 0).setEditText("fc:0")
    page.per_output.cellWidget(0, 1).setCurrentText("FP16")
    page.log.setCurrentIndex(page.log.findData("info"))
    page.extra.setPlainText("op_debug_level=1")
    assert page.codes() == [] and wizard.button(CONVERT).isEnabled()
    assert wizard.command_line().endswith(
        "--input_shape=images:1,3,32,32 --out_nodes=fc:0 --output_type=fc:0:FP16 --log=info --op_debug_level=1"
    )
    page.extra.setPlainText("op_debug_level=1\nfusion_swich_file=x.cfg\nprecision_mode=force_fp16\nnot a flag")
    assert page.codes().count("WB-UNKNOWN-FLAG") == 2 and "WB-DUPLICATE-FLAG" in page.codes()
    assert any(i.message == "ERROR: unknown command line flag 'fusion_swich_file'" for i in page.issues)
    assert "fusion_swich_file" in page.issue_box.text()
    assert not wizard.button(CONVERT).isEnabled()


def test_model_on_the_host_is_not_uploaded(qtbot, window, tmp_path):
    wizard, _model = start(qtbot, window, tmp_path)
    wizard.model_page.on_host.setChecked(True)
    wizard.model_page.set_model_path("/data/models/resnet50.onnx")
    wizard.inputs_page.set_cell(0, SHAPE, "1,3,224,224")
    assert wizard.model_info is None and "by hand" in wizard.inputs_page.status.text()
    assert wizard.command_line().startswith("atc --model=/data/models/resnet50.onnx --framework=5 --output=resnet50 ")
    assert wizard.summary_page.uploads.rowCount() == 0
    assert wizard.summary_page.produced.item(0, 0).text().endswith("/resnet50.om")


def test_without_a_project_the_om_lands_beside_the_model(qtbot, window, tmp_path):
    model = small_cnn(tmp_path / "loose.onnx")
    assert window.project is None
    wizard = open_model_converter(window.context, window, str(model))
    qtbot.waitUntil(lambda: ready(wizard) and wizard.model_info is not None, timeout=20000)
    wizard.model_page.soc.setEditText(SOC)
    wizard.model_page.output.setText("loose_b1")
    wizard.inputs_page.set_cell(0, SHAPE, "1,3,32,32")
    assert "--output=loose_b1 " in wizard.command_line()
    assert wizard.summary_page.produced.item(0, 1).text() == str(tmp_path / "loose_b1.om")
    assert "Conversion succeeded" in convert_and_wait(qtbot, wizard, tmp_path / "loose_b1.om")


def test_explorer_actions_open_the_wizard_and_the_structure(qtbot, window, tmp_path):
    from workbench.ui.converter.structure_view import ModelStructureView
    from workbench.ui.converter.wizard import ConverterWizard

    def model_actions(path):  # the explorer's context menu after its "Open"
        return window.explorer.menu_for(path).actions()[1:]

    model = small_cnn(tmp_path / "m.onnx")
    (tmp_path / "notes.txt").write_text("x")
    assert model_actions(tmp_path / "notes.txt") == []
    convert, structure = model_actions(model)
    assert (convert.text(), structure.text()) == ("Convert Model…", "Show Model Structure")
    convert.trigger()
    wizard = next(w for w in window.findChildren(ConverterWizard) if w.isVisible())
    qtbot.waitUntil(lambda: ready(wizard) and wizard.model_info is not None, timeout=20000)
    assert wizard.model_page.model_path() == str(model)
    structure.trigger()
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), ModelStructureView), timeout=30000)


def test_stop_button_stops_atc_on_the_host(qtbot, window, tmp_path, monkeypatch):
    from workbench.simtoolkit.atc import ENV_DELAY

    monkeypatch.setenv(ENV_DELAY, "300")  # the simulated atc of the demo host takes five minutes
    wizard, _model = start(qtbot, window, tmp_path)
    wizard.model_page.soc.setEditText(SOC)
    assert not wizard.button(STOP).isEnabled()
    press(qtbot, wizard, CONVERT)
    assert wizard.button(STOP).isEnabled() and not wizard.button(CONVERT).isEnabled()
    qtbot.waitUntil(lambda: "ATC start working now" in output_log(window, "Convert smallcnn.onnx"), timeout=30000)
    press(qtbot, wizard, STOP)
    panel = wizard.summary_page.result
    qtbot.waitUntil(lambda: panel.isVisible() and "Conversion stopped" in panel.toPlainText(), timeout=20000)
    assert "atc was stopped on the host; nothing was downloaded." in panel.toPlainText()
    qtbot.waitUntil(lambda: wizard.button(CONVERT).isEnabled() and not wizard.button(STOP).isEnabled(), timeout=10000)
    qtbot.waitUntil(lambda: "Cancelled." in output_log(window, "Convert smallcnn.onnx"), timeout=10000)
    assert not (Path(window.project.root) / "smallcnn.om").exists()


@pytest.fixture
def loop_host(ssh_home, sshd_server, tmp_path):
    """A configured CANN machine ``loop``: the real sshd with a simulated CANN toolkit (2 x 310P3)."""
    from workbench.core.services.hosts import HostStore
    from workbench.simtoolkit.install import install

    prefix = tmp_path / "Ascend"
    install(prefix, cann_version="8.0.RC1", soc_version=SOC, devices=2)
    HostStore().add(sshd_server.host("loop", toolkit=str(prefix)))
    return "loop"


def test_the_wizard_preselects_the_projects_host_and_converts_there(qtbot, window, tmp_path, loop_host):
    root = tmp_path / "proj"
    project = create_project(root)
    project.remote.host, project.remote.remote_path = loop_host, str(tmp_path / "on-the-host")
    project.save()
    window.open_project(root)
    window.host_panel.reload_hosts()  # the dock lists the machine added after the window was built
    assert window.host_panel.host.currentData() == loop_host  # the CANN Machine dock shows the project's host
    model = small_cnn(root / "smallcnn.onnx")
    wizard = open_model_converter(window.context, window, str(model))
    page = wizard.model_page
    assert page.host_name() == loop_host and page.host.currentText().startswith("loop  (")
    assert not page.host_note.isVisible(), "no 'simulated demo host' note for a real machine"
    qtbot.waitUntil(lambda: ready(wizard) and wizard.model_info is not None, timeout=60000)
    jobs = [window.tasks.tree.topLevelItem(i).text(0) for i in range(window.tasks.row_count())]
    assert jobs.count("Detect SoC on loop") == 1, jobs  # one npu-smi probe (two at once hung on SFTP)
    assert "npu-smi on loop" in page.soc_status.text() and page.soc.currentText() == SOC
    wizard.inputs_page.set_cell(0, SHAPE, "1,3,32,32")
    om = root / "smallcnn.om"
    text = convert_and_wait(qtbot, wizard, om)
    assert "Conversion succeeded" in text and "on loop" in text
    assert (tmp_path / "on-the-host" / "atc" / "smallcnn.om").is_file(), "atc ran in the project's remote folder"
    assert open_project(root).conversions[-1]["host"] == loop_host


def test_the_wizard_falls_back_to_the_demo_host_only_when_the_project_names_none(qtbot, window, tmp_path):
    root = tmp_path / "proj"
    create_project(root)
    window.open_project(root)
    model = small_cnn(root / "m.onnx")
    wizard = open_model_converter(window.context, window, str(model))
    page = wizard.model_page
    assert page.host_name() == "demo" and page.host.currentText() == "Demo host (simulated CANN)"
    assert "simulated CANN toolkit" in page.host_note.text()
    qtbot.waitUntil(lambda: ready(wizard), timeout=20000)
    wizard.close()

    # a project naming a machine that is not configured says so (and does not pretend it is the demo)
    window.project.remote.host = "gone"
    window.project.save()
    wizard = open_model_converter(window.context, window, str(model))
    page = wizard.model_page
    assert page.host_note.isVisible()
    assert page.host_note.text().startswith("gone is not a configured CANN machine (Ascend ▸ CANN Machines adds it)")
    qtbot.waitUntil(lambda: ready(wizard), timeout=20000)


def test_an_om_json_of_any_name_opens_as_a_graph_and_its_menu_lists_its_ops(qtbot, window, tmp_path, samples):
    import shutil

    from uikit import click_menu_entry, explorer_menu

    from workbench.ui.converter.structure_view import ModelStructureView
    from workbench.ui.graph.document import GraphDocument

    root = tmp_path / "proj"
    create_project(root)
    graph = root / "sub_model_graph.json"  # atc --mode=1 --json=sub_model_graph.json
    shutil.copyfile(samples / "atc-om2json-310-cann5.1" / "model.json", graph)
    window.open_project(root)
    view = window.explorer.view
    qtbot.waitUntil(lambda: not view.visualRect(window.explorer.index_of(graph)).isEmpty(), timeout=10000)
    pos = view.visualRect(window.explorer.index_of(graph)).center()
    # a double click as a platform delivers it: press + release, then the double-click event
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.waitUntil(
        lambda: (
            isinstance(window.documents.currentWidget(), GraphDocument)
            and window.documents.currentWidget().pane.data is not None
        ),
        timeout=30000,
    )
    shown_graph = window.documents.currentWidget().pane.data.graph
    assert shown_graph.name == "sub_model" and len(shown_graph.nodes) >= 19
    # its op list: the explorer's Show Model Structure
    click_menu_entry(qtbot, explorer_menu(qtbot, window, graph), "Show Model Structure")
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), ModelStructureView), timeout=30000)
    doc = window.documents.currentWidget()
    assert window.documents.tabText(window.documents.currentIndex()) == "sub_model_graph.json — Structure"
    assert doc.structure.name == "sub_model" and len(doc.structure.ops) == 19
    shown = {doc.table.model.raw(r, 0) for r in range(doc.table.model.rowCount())}
    assert {"boxes_all", "scores_all", "Node_Output"} <= shown
