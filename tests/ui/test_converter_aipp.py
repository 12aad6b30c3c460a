"""The converter's Preprocessing page: the edited AIPP configuration is written as the real
protobuf-text file, read back identically by the core parser, checked live, and uploaded with
the conversion; plus screenshots of every wizard page (WB_SCREENSHOTS=1 writes docs/screenshots)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_converter import ready, start  # noqa: E402

from workbench.core.atc import read_aipp  # noqa: E402
from workbench.ui.converter.page_inputs import SHAPE  # noqa: E402
from workbench.ui.converter.wizard import CONVERT  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MEAN, MIN, VAR = [104, 117, 123], [0.5, 1.5, 2.5], [0.0171247538316637, 0.0175070028011204, 0.0174291938997821]


def fill_static(page) -> None:
    page.enabled.setChecked(True)
    page.input_format.setCurrentIndex(page.input_format.findData("RGB888_U8"))
    page.spins["src_image_size_w"].setValue(224)
    page.spins["src_image_size_h"].setValue(224)
    page.crop.setChecked(True)
    page.spins["load_start_pos_w"].setValue(16)
    page.spins["load_start_pos_h"].setValue(16)
    page.spins["crop_size_w"].setValue(192)
    page.spins["crop_size_h"].setValue(192)
    for i in range(3):
        page.channels["mean_chn"][i].setText(str(MEAN[i]))
        page.channels["min_chn"][i].setText(repr(MIN[i]))
        page.channels["var_reci_chn"][i].setText(repr(VAR[i]))


def key_values(text: str) -> list[dict[str, str]]:
    """The blocks of an AIPP file as {key: value}, parsed by hand (independent of the core parser)."""
    blocks, current = [], None
    for raw in text.splitlines():
        line = raw.strip()
        if line.replace(" ", "") == "aipp_op{":
            current = {}
        elif line == "}":
            blocks.append(current)
            current = None
        elif line:
            key, _, value = line.partition(":")
            current[key.strip()] = value.strip()
    return blocks


def test_aipp_page_writes_a_file_the_core_reads_back(qtbot, window, tmp_path):
    wizard, _model = start(qtbot, window, tmp_path)
    page = wizard.aipp_page
    fill_static(page)
    assert page.codes() == []
    out = tmp_path / "aipp.cfg"
    page.save_file(out)
    assert read_aipp(out) == page.config()
    [block] = key_values(out.read_text())
    assert block["aipp_mode"] == "static" and block["input_format"] == "RGB888_U8"
    assert block["src_image_size_w"] == "224" and block["crop"] == "true" and block["crop_size_h"] == "192"
    assert [int(block[f"mean_chn_{i}"]) for i in range(3)] == MEAN
    assert [float(block[f"min_chn_{i}"]) for i in range(3)] == MIN
    assert [float(block[f"var_reci_chn_{i}"]) for i in range(3)] == VAR
    assert "mean_chn_3" not in block and "csc_switch" not in block
    assert page.preview_file.toPlainText() == out.read_text()
    # the conversion uploads it under the name the command uses
    assert "--insert_op_conf=smallcnn_insert_op.cfg" in wizard.command_line()
    kinds = [wizard.summary_page.uploads.item(r, 0).text() for r in range(wizard.summary_page.uploads.rowCount())]
    assert kinds == ["model", "AIPP config"]

    # colour-space conversion: the preset fills the whole matrix
    page.preset_yuv_to_rgb()
    page.save_file(out)
    [block] = key_values(out.read_text())
    assert block["csc_switch"] == "true" and block["input_format"] == "YUV420SP_U8"
    assert all(f"matrix_r{r}c{c}" in block for r in range(3) for c in range(3))
    assert read_aipp(out) == page.config()

    # constraints are checked live, on this page
    page.spins["crop_size_w"].setValue(300)
    assert "E10052" in page.codes() and "exceeds src_image_size_w" in page.issue_box.text()
    assert not wizard.button(CONVERT).isEnabled()
    page.spins["crop_size_w"].setValue(192)
    page.channels["min_chn"][0].setText("abc")
    assert "E10052" in page.codes() and not wizard.button(CONVERT).isEnabled()
    page.channels["min_chn"][0].setText("0.5")
    assert page.codes() == [] and wizard.button(CONVERT).isEnabled()

    # dynamic mode keeps only the dynamic keys and needs max_src_image_size
    page.mode.setCurrentIndex(page.mode.findData("dynamic"))
    assert "E10052" in page.codes()
    page.max_src.setValue(260000)
    assert page.codes() == []
    page.save_file(out)
    [block] = key_values(out.read_text())
    assert block == {"aipp_mode": "dynamic", "max_src_image_size": "260000"}


def test_the_real_sample_round_trips_through_the_editor(qtbot, window, tmp_path, samples):
    wizard, _model = start(qtbot, window, tmp_path)
    page = wizard.aipp_page
    sample = samples / "atc-aipp-config" / "aipp.config"
    page.enabled.setChecked(True)
    page.use_file.setChecked(True)
    page.file.setText(str(sample))
    assert "--insert_op_conf=aipp.config" in wizard.command_line()
    assert page.load_file_into_editor()
    assert page.edit_here.isChecked()
    assert page.spins["src_image_size_w"].value() == 32
    out = tmp_path / "again.cfg"
    page.save_file(out)
    assert read_aipp(out) == read_aipp(sample)
    assert key_values(out.read_text()) == key_values(sample.read_text())


def test_screenshots_of_every_page(qtbot, window, tmp_path):
    """Renders each page in a realistic state (and the result after a run); with WB_SCREENSHOTS=1
    the images go to docs/screenshots/converter-*.png."""
    target = ROOT / "docs" / "screenshots" if os.environ.get("WB_SCREENSHOTS") else tmp_path
    wizard, _model = start(qtbot, window, tmp_path)
    wizard.resize(900, 780)
    wizard.model_page.soc.setEditText("Ascend310P3")
    wizard.inputs_page.set_cell(0, SHAPE, "-1,3,224,224")
    wizard.inputs_page.dyn_checks["dynamic_batch_size"].setChecked(True)
    wizard.inputs_page.dyn_edits["dynamic_batch_size"].setText("1,2,4,8")
    wizard.inputs_page.dyn_checks["dynamic_dims"].setChecked(True)
    wizard.inputs_page.dyn_edits["dynamic_dims"].setText("1;2")
    fill_static(wizard.aipp_page)
    wizard.aipp_page.preset_yuv_to_rgb()
    wizard.advanced_page.precision.setCurrentIndex(wizard.advanced_page.precision.findData("allow_mix_precision"))
    wizard.advanced_page.out_nodes.setText("fc:0")
    wizard.advanced_page.extra.setPlainText("op_debug_level=1\nfusion_swich_file=off.cfg")
    shots = {}
    for name in ("model", "inputs", "aipp", "advanced", "summary"):
        qtbot.wait(50)
        shots[name] = target / f"converter-{name}.png"
        assert wizard.grab().save(str(shots[name]))
        wizard.next()
    wizard.inputs_page.dyn_checks["dynamic_dims"].setChecked(False)
    wizard.advanced_page.extra.setPlainText("op_debug_level=1")
    assert wizard.convert() is not None
    qtbot.waitUntil(lambda: wizard.task is None, timeout=30000)
    assert wizard.last_result is not None and wizard.last_result.ok
    qtbot.wait(50)
    shots["result"] = target / "converter-result.png"
    assert wizard.grab().save(str(shots["result"]))
    from workbench.ui.converter import open_model_structure
    from workbench.ui.converter.structure_view import ModelStructureView

    task = open_model_structure(window.context, wizard.last_result.om_path, host="demo")
    assert task is not None and ready(wizard)
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), ModelStructureView), timeout=30000)
    wizard.hide()
    qtbot.wait(50)
    shots["structure"] = target / "converter-structure.png"
    assert window.grab().save(str(shots["structure"]))
    assert all(p.stat().st_size > 10_000 for p in shots.values())
