"""The converter's Preprocessing page: the edited AIPP configuration is written as the real
protobuf-text file, read back identically by the core parser, checked live, and uploaded with
the conversion; plus screenshots of every wizard page (WB_SCREENSHOTS=1 writes docs/screenshots)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QFileDialog,
    QGroupBox,
    QLineEdit,
    QListView,
    QStyle,
    QStyleOptionButton,
    QStyleOptionGroupBox,
    QWidget,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_converter import convert_and_wait, ready, start  # noqa: E402

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


# --- driving the page as a user does ----------------------------------------------------------------


def click(qtbot, widget: QWidget) -> None:
    """Click a button, check box or radio button where a user clicks it (on its indicator)."""
    assert widget.isVisible() and widget.isEnabled(), f"{widget!r} cannot be clicked"
    pos = widget.rect().center()
    if isinstance(widget, QAbstractButton) and not type(widget).__name__.endswith("PushButton"):
        opt = QStyleOptionButton()
        widget.initStyleOption(opt)
        element = (
            QStyle.SubElement.SE_CheckBoxIndicator
            if isinstance(widget, QCheckBox)
            else QStyle.SubElement.SE_RadioButtonIndicator
        )
        pos = widget.style().subElementRect(element, opt, widget).center()
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=pos)


def toggle_group(qtbot, box: QGroupBox) -> None:
    """Click the check box in a checkable group box's title."""
    assert box.isVisible() and box.isCheckable()
    opt = QStyleOptionGroupBox()
    box.initStyleOption(opt)
    rect = box.style().subControlRect(
        QStyle.ComplexControl.CC_GroupBox, opt, QStyle.SubControl.SC_GroupBoxCheckBox, box
    )
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=rect.center())


def type_into(qtbot, widget: QWidget, text: str) -> None:
    """Replace a field's text by typing (a spin box or a line edit)."""
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(4, widget.height() // 2))
    qtbot.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(widget, text)


def choose_in_file_dialog(qtbot, button: QWidget, path: Path, listed: str | None = None) -> None:
    """Click ``button``; in the (Qt, non-native) file dialog it opens — which must start in
    ``path``'s folder — wait until the folder is listed (``listed``: a file shown there, default
    ``path`` itself), type ``path``'s name and press Enter."""
    answered: list[str] = []
    problems: list[str] = []

    def shown(dialog: QFileDialog, name: str) -> bool:
        view = dialog.findChild(QListView, "listView")
        model, root = view.model(), view.rootIndex()
        return any(model.index(r, 0, root).data() == name for r in range(model.rowCount(root)))

    def answer(tries: int = 200) -> None:
        dialog = next((w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog) and w.isVisible()), None)
        if dialog is None:
            if tries:
                QTimer.singleShot(50, lambda: answer(tries - 1))
            return
        try:
            if Path(dialog.directory().absolutePath()) != path.parent:
                problems.append(f"the dialog opened in {dialog.directory().absolutePath()}")
                return
            qtbot.waitUntil(lambda: shown(dialog, listed or path.name), timeout=10000)
            edit = dialog.findChild(QLineEdit, "fileNameEdit")
            type_into(qtbot, edit, path.name)
            popup = QApplication.activePopupWidget()
            if popup is not None:  # the completion list: keep what was typed
                qtbot.keyClick(popup, Qt.Key.Key_Escape)
            qtbot.keyClick(edit, Qt.Key.Key_Return)
        except Exception as exc:  # noqa: BLE001 - reported by the waiting test, not lost in Qt's event loop
            problems.append(repr(exc))
        finally:
            if dialog.isVisible():
                dialog.reject()
            else:
                answered.append(str(path))

    QTimer.singleShot(0, answer)
    click(qtbot, button)
    qtbot.waitUntil(lambda: bool(answered or problems), timeout=20000)
    assert answered == [str(path)], problems


def to_aipp_page(qtbot, wizard):
    """Next ▸ Next: from the Model page to the Preprocessing page."""
    while wizard.currentPage() is not wizard.aipp_page:
        click(qtbot, wizard.button(wizard.WizardButton.NextButton))
    page = wizard.aipp_page
    qtbot.waitUntil(page.enabled.isVisible, timeout=5000)
    return page


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


def test_an_aipp_file_opened_shows_its_values_and_saves_unchanged(qtbot, window, tmp_path, samples):
    """Open (a copy of) the real sample: the fields show what it holds; Save As… without a change
    writes the same configuration (same keys, same values)."""
    wizard, _model = start(qtbot, window, tmp_path)
    root = Path(window.project.root)
    sample = root / "preprocess.cfg"
    shutil.copyfile(samples / "atc-aipp-config" / "aipp.config", sample)
    page = to_aipp_page(qtbot, wizard)
    click(qtbot, page.enabled)
    click(qtbot, page.use_file)
    choose_in_file_dialog(qtbot, page.file_browse, sample)
    assert page.file.text() == str(sample)
    qtbot.waitUntil(lambda: "--insert_op_conf=preprocess.cfg" in page.preview.text(), timeout=5000)
    assert page.preview_file.toPlainText() == sample.read_text()
    click(qtbot, page.file_edit)  # Edit It Here
    qtbot.waitUntil(page.edit_here.isChecked, timeout=5000)
    assert page.editor.isEnabled()
    assert (page.mode.currentText(), page.input_format.currentText()) == ("static", "RGB888_U8")
    assert page.spins["src_image_size_w"].text() == "32" and page.spins["src_image_size_h"].text() == "32"
    assert not page.crop.isChecked() and not page.csc.isChecked()
    assert [e.text() for e in page.channels["min_chn"]] == ["123.675", "116.28", "103.53", ""]
    assert [e.text() for e in page.channels["var_reci_chn"]] == [
        "0.0171247538316637",
        "0.0175070028011204",
        "0.0174291938997821",
        "",
    ]
    assert [e.text() for e in page.channels["mean_chn"]] == ["", "", "", ""]
    assert page.rank.text() == "—" and page.issue_box.isHidden()
    out = root / "saved.cfg"
    choose_in_file_dialog(qtbot, page.save_button, out, listed=sample.name)
    qtbot.waitUntil(out.is_file, timeout=5000)
    assert read_aipp(out) == read_aipp(sample)
    assert key_values(out.read_text()) == key_values(sample.read_text())
    assert page.preview_file.toPlainText() == out.read_text()
    assert sample.read_text() == (samples / "atc-aipp-config" / "aipp.config").read_text(), "the input is untouched"


def test_crop_and_padding_fields_are_not_written_when_they_are_off(qtbot, window, tmp_path):
    wizard, _model = start(qtbot, window, tmp_path)
    root = Path(window.project.root)
    # an AIPP file with padding (and crop) switched off but their sizes set
    padded = root / "padded.cfg"
    padded.write_text(
        "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n src_image_size_w: 224\n"
        " src_image_size_h: 224\n crop: false\n crop_size_w: 100\n crop_size_h: 100\n padding: false\n"
        " left_padding_size: 4\n right_padding_size: 4\n top_padding_size: 2\n bottom_padding_size: 2\n"
        " var_reci_chn_0: 0.5\n}\n"
    )
    page = to_aipp_page(qtbot, wizard)
    click(qtbot, page.enabled)
    type_into(qtbot, page.spins["src_image_size_w"], "224")
    type_into(qtbot, page.spins["src_image_size_h"], "224")
    toggle_group(qtbot, page.crop)
    assert page.crop.isChecked()
    for key, value in (("load_start_pos_w", 16), ("load_start_pos_h", 16), ("crop_size_w", 192), ("crop_size_h", 192)):
        type_into(qtbot, page.spins[key], str(value))
    qtbot.waitUntil(lambda: "crop_size_h : 192" in page.preview_file.toPlainText(), timeout=5000)
    [block] = key_values(page.preview_file.toPlainText())
    assert block["crop"] == "true" and block["load_start_pos_w"] == "16" and block["crop_size_w"] == "192"

    toggle_group(qtbot, page.crop)  # crop off: its fields go
    assert not page.crop.isChecked()
    out = root / "no_crop.cfg"
    choose_in_file_dialog(qtbot, page.save_button, out, listed="padded.cfg")
    qtbot.waitUntil(out.is_file, timeout=5000)
    [block] = key_values(out.read_text())
    assert block["crop"] == "false" and block["src_image_size_w"] == "224"
    assert not [k for k in block if k.startswith(("load_start_pos_", "crop_size_"))], block
    assert page.preview_file.toPlainText() == out.read_text()

    toggle_group(qtbot, page.crop)  # on again: the values typed before are still there
    again = root / "crop_again.cfg"
    choose_in_file_dialog(qtbot, page.save_button, again, listed="padded.cfg")
    qtbot.waitUntil(again.is_file, timeout=5000)
    [block] = key_values(again.read_text())
    assert (block["crop"], block["load_start_pos_h"], block["crop_size_h"]) == ("true", "16", "192")

    # a file with padding (and crop) switched off but sizes set: saved without those sizes
    click(qtbot, page.use_file)
    choose_in_file_dialog(qtbot, page.file_browse, padded)
    click(qtbot, page.file_edit)
    qtbot.waitUntil(page.edit_here.isChecked, timeout=5000)
    assert not page.crop.isChecked()
    out = root / "no_padding.cfg"
    choose_in_file_dialog(qtbot, page.save_button, out, listed="padded.cfg")
    qtbot.waitUntil(out.is_file, timeout=5000)
    [block] = key_values(out.read_text())
    assert block == {
        "aipp_mode": "static",
        "input_format": "RGB888_U8",
        "src_image_size_w": "224",
        "src_image_size_h": "224",
        "crop": "false",
        "padding": "false",
        "var_reci_chn_0": "0.5",
    }


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
    assert "Conversion succeeded" in convert_and_wait(qtbot, wizard)
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
