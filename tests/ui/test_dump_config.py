"""Dump Configuration dialog: real acl.json samples keep their keys, Several writes the ticked layers,
an invalid acl.json is reported with line/column and not overwritten without consent, an .om is read
with atc --mode=1 on the demo host."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from workbench.ui.dump import open_dump_configuration

MODEL = "atc-om2json-310-cann5.1/model.json"


def _open(window, qtbot, samples, acl):
    """The dialog opened on the sample om JSON (as "Dump Configuration…" on it does), its model read."""
    dialog = open_dump_configuration(window.context, window, str(samples / MODEL), str(acl))
    name = _model_doc(samples)["name"]
    qtbot.waitUntil(lambda: dialog.model_name.text() == name and dialog.load_button.isEnabled(), timeout=20000)
    return dialog


def _model_doc(samples):
    return json.loads((samples / MODEL).read_text())


def _save(qtbot, user, dialog, expect: str = "Saved") -> None:
    """Click Save; wait for the status line it leaves."""
    dialog.status.clear()
    user.click(dialog.buttons.button(QDialogButtonBox.StandardButton.Save))
    qtbot.waitUntil(lambda: dialog.status.text().startswith(expect), timeout=10000)


def _select_ops(qtbot, dialog, names):
    """Click the first op's row in the tree, Ctrl+click the others (a multi-selection)."""
    tree = dialog.tree.tree
    for i, name in enumerate(names):
        item = dialog.tree._items[name]
        assert not item.isHidden(), f"{name} is not shown in the tree"
        tree.scrollToItem(item)
        rect = tree.visualItemRect(item)
        modifier = Qt.KeyboardModifier.ControlModifier if i else Qt.KeyboardModifier.NoModifier
        qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())
    selectable = [n for n in names if dialog.tree._items[n].flags() & Qt.ItemFlag.ItemIsSelectable]
    assert sorted(dialog.tree.selected_ops()) == sorted(selectable)


def test_sample_acl_json_keeps_keys_and_writes_the_schema(window, qtbot, user, samples, tmp_path):
    acl = tmp_path / "src" / "acl.json"
    acl.parent.mkdir()
    shutil.copy(samples / "acl-json-dump-samples" / "acl.json", acl)
    acl.chmod(0o644)  # the samples are read-only
    original = json.loads(acl.read_text())
    dialog = _open(window, qtbot, samples, acl)
    # The sample has an empty dump_list: nothing dumped for this model yet -> "None", its dump_path shown.
    assert dialog.options["none"].isChecked()
    assert dialog.dump_path.text() == original["dump"]["dump_path"]
    user.toggle(dialog.options["all"])
    assert dialog.options["all"].isChecked()
    user.choose(dialog.mode, "All")
    assert dialog.mode.currentData() == "all"
    live = json.loads(dialog.preview.toPlainText())
    _save(qtbot, user, dialog)
    text = acl.read_text()
    assert json.loads(text) == live
    name = _model_doc(samples)["name"]
    assert json.loads(text) == {
        "dump": {
            "dump_list": [{"model_name": name}],
            "dump_path": original["dump"]["dump_path"],
            "dump_mode": "all",
            "dump_op_switch": "off",
            "dump_data": "tensor",
        }
    }
    assert '\n\t"dump"' in text  # the sample's tab indentation is kept

    # The torch_npu sample: a dump section with only dump_scene (unknown to the editor) stays as it was,
    # and a profiler section is kept untouched, with the dump + profiling warning shown.
    doc = json.loads((samples / "acl-json-torch_npu-exception" / "acl.json").read_text())
    doc["profiler"] = {"switch": "on", "output": "/tmp/prof", "aic_metrics": "PipeUtilization"}
    other = tmp_path / "torch" / "acl.json"
    other.parent.mkdir()
    other.write_text(json.dumps(doc))
    user.retype(dialog.acl_path.edit, str(other), finish="tab")  # leaving the field reads the file
    qtbot.waitUntil(lambda: dialog.acl_status.text().startswith(f"Editing {other}"))
    assert dialog.scene.currentData() == "lite_exception"
    user.toggle(dialog.options["all"])
    user.retype(dialog.dump_path.edit, str(tmp_path / "dump"))
    user.choose(dialog.data, "Statistics")
    assert dialog.data.currentData() == "stats"
    user.toggle(dialog.stats["Nan"])
    assert not dialog.stats["Nan"].isChecked()
    assert "dump and profiling are both on" in dialog.issues.text() and dialog.issues.isVisibleTo(dialog)
    _save(qtbot, user, dialog)
    data = json.loads(other.read_text())
    assert data["profiler"] == doc["profiler"]
    assert list(data["dump"]) == [
        "dump_scene",
        "dump_list",
        "dump_path",
        "dump_mode",
        "dump_op_switch",
        "dump_data",
        "dump_stats",
    ]
    assert data["dump"]["dump_scene"] == "lite_exception"
    assert data["dump"]["dump_stats"] == ["Max", "Min", "Avg", "L2norm", "Negative Inf", "Positive Inf"]
    assert json.loads(acl.read_text()) == live, "the first file is left as saved"
    dialog.close()


def test_several_writes_ticked_layers_and_model_name(window, qtbot, user, samples, tmp_path):
    acl = tmp_path / "acl.json"
    dialog = _open(window, qtbot, samples, acl)
    assert dialog.options["all"].isChecked()  # a new file: MindStudio's default
    doc = _model_doc(samples)
    ops = [op for g in doc["graph"] for op in g["op"]]
    dumped = [op["name"] for op in ops if op["type"] not in ("Data", "Const", "NetOutput")]
    # Ticking is impossible until "Several" is chosen: Enable Dump is off.
    _select_ops(qtbot, dialog, dumped[:2])
    assert not dialog.tree.act_enable.isEnabled()
    dialog.tree.act_enable.trigger()
    assert dialog.tree.checked() == []
    user.toggle(dialog.options["several"])
    assert dialog.options["several"].isChecked()
    assert "tick the ops" in dialog.issues.text()
    # Search narrows the tree; multi-select + Enable Dump (the context menu's action) ticks them.
    user.retype(dialog.tree.search, "cast")
    visible = [n for n, it in dialog.tree._items.items() if not it.isHidden()]
    assert visible == [op["name"] for op in ops if "cast" in op["name"].lower() or "cast" in op["type"].lower()]
    user.retype(dialog.tree.search, "")
    wanted = [dumped[-1], dumped[3], dumped[1]]
    _select_ops(qtbot, dialog, wanted + ["boxes_all"])  # a Data op cannot be ticked
    dialog.tree.act_enable.trigger()
    _select_ops(qtbot, dialog, [dumped[3]])
    dialog.tree.act_disable.trigger()
    item = dialog.tree._items[dumped[1]]
    assert item.checkState(0) == Qt.CheckState.Checked
    expected_layers = [n for n in dumped if n in (dumped[-1], dumped[1])]  # model order
    assert json.loads(dialog.preview.toPlainText())["dump"]["dump_list"] == [
        {"model_name": doc["name"], "layer": expected_layers}
    ]
    user.retype(dialog.dump_path.edit, str(tmp_path / "d"))
    _save(qtbot, user, dialog)
    data = json.loads(acl.read_text())
    assert data["dump"]["dump_list"] == [{"model_name": doc["name"], "layer": expected_layers}]
    assert data["dump"]["dump_path"] == str(tmp_path / "d")
    dialog.close()


def test_invalid_acl_json_is_reported_and_kept_without_consent(window, qtbot, user, samples, tmp_path):
    acl = tmp_path / "acl.json"
    broken = '{\n  "dump": {\n    "dump_path": "/x"\n    "dump_mode": "all"}\n}\n'
    acl.write_text(broken)
    dialog = _open(window, qtbot, samples, acl)
    assert "line 4, column 5" in dialog.acl_status.text()
    no, yes = QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes
    with user.answering(QMessageBox, lambda box: user.press(box, no)) as asked:
        _save(qtbot, user, dialog, expect="Not saved")
    assert acl.read_text() == broken and len(asked) == 1 and "line 4, column 5" in asked[0]
    assert "left unchanged" in dialog.status.text()
    with user.answering(QMessageBox, lambda box: user.press(box, yes)):
        _save(qtbot, user, dialog)
    assert (tmp_path / "acl.json.corrupt").read_text() == broken
    assert json.loads(acl.read_text())["dump"]["dump_list"] == [{"model_name": _model_doc(samples)["name"]}]
    dialog.close()


def test_om_is_read_with_atc_on_the_demo_host(window, qtbot, samples, tmp_path):
    from workbench.simtoolkit.omfile import write_om

    doc = _model_doc(samples)
    om = tmp_path / "net.om"
    write_om(om, doc, [])
    dialog = open_dump_configuration(window.context, window, str(om), str(tmp_path / "acl.json"))
    assert dialog.host.currentData() == "demo"
    qtbot.waitUntil(lambda: dialog.load_button.isEnabled(), timeout=60000)  # disabled while atc reads it
    assert dialog.model is not None, dialog.model_status.text()
    assert dialog.model.name == doc["name"]
    assert [op.name for op in dialog.model.ops] == [op["name"] for g in doc["graph"] for op in g["op"]]
    assert dialog.model_name.text() == doc["name"]
    dialog.close()


# ----- opening real acl.json files as a user does, and saving them unchanged
def _acl_samples(samples):
    found = sorted(p for p in samples.rglob("*.json") if p.name == "acl.json")
    assert len(found) >= 2, found  # the Ascend/samples one and torch_npu's
    return found


ACL_SAMPLES = [
    "acl-json-dump-samples/acl.json",
    "acl-json-torch_npu-exception/acl.json",
]


def test_every_real_acl_json_sample_is_listed(samples):
    assert [str(p.relative_to(samples)) for p in _acl_samples(samples)] == ACL_SAMPLES


def _project_with(window, tmp_path, sample=None):
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    acl = root / "src" / "acl.json"
    if sample is not None:
        shutil.copy(sample, acl)
        acl.chmod(0o644)
    assert window.create_project(root) is not None
    return root, acl


def _shown_dialog(window, qtbot):
    from workbench.ui.dump.config_dialog import DumpConfigDialog

    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(DumpConfigDialog)), timeout=10000)
    return [d for d in window.findChildren(DumpConfigDialog) if d.isVisible()][-1]


def _open_from_explorer(window, qtbot, path):
    """The explorer's context menu of the acl.json: its first entry, Open (the Dump Configuration)."""
    open_entry = window.explorer.menu_for(path).actions()[0]
    assert open_entry.text() == "Open"
    open_entry.trigger()
    return _shown_dialog(window, qtbot)


def _open_from_menu(window, qtbot):
    """Ascend ▸ Dump Configuration… (with a project open it edits the project's src/acl.json)."""
    window.menu_entries()["Ascend/Dump Configuration…"].trigger()
    return _shown_dialog(window, qtbot)


def _click_save(qtbot, dialog):
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)


def _load_model_by_typing(qtbot, dialog, path):
    dialog.model_path.edit.clear()
    qtbot.keyClicks(dialog.model_path.edit, str(path))
    qtbot.mouseClick(dialog.load_button, Qt.MouseButton.LeftButton)
    name = json.loads(Path(path).read_text())["name"]
    qtbot.waitUntil(lambda: dialog.model_name.text() == name and dialog.load_button.isEnabled(), timeout=20000)


def _expected_option(dump, model_name=None):
    entries = [e for e in dump.get("dump_list") or [] if isinstance(e, dict) and "model_name" in e]
    entry = next((e for e in entries if model_name in (None, e["model_name"])), None)
    return "none" if entry is None else "several" if entry.get("layer") else "all"


def _assert_fields_show(dialog, doc, model_name=None):
    d = doc.get("dump", {})
    assert dialog.options[_expected_option(d, model_name)].isChecked()
    assert dialog.dump_path.text() == d.get("dump_path", "")
    assert dialog.mode.currentData() == d.get("dump_mode", "output")
    assert dialog.data.currentData() == d.get("dump_data", "tensor")
    assert dialog.op_switch.isChecked() == (d.get("dump_op_switch") == "on")
    assert dialog.level.currentData() == d.get("dump_level")
    assert dialog.scene.currentData() == d.get("dump_scene")
    assert dialog.step.text() == d.get("dump_step", "")
    assert dialog.debug.isChecked() == (d.get("dump_debug") == "on")


@pytest.mark.parametrize("name", ACL_SAMPLES)
def test_real_sample_opened_from_the_explorer_saves_unchanged(window, qtbot, samples, tmp_path, name):
    _root, acl = _project_with(window, tmp_path, samples / name)
    original = json.loads((samples / name).read_text())
    dialog = _open_from_explorer(window, qtbot, acl)
    assert dialog.acl_path.text() == str(acl)
    _click_save(qtbot, dialog)
    assert json.loads(acl.read_text()) == original, dialog.status.text()
    assert acl.read_bytes() == (samples / name).read_bytes(), "nothing changed: not even rewritten"
    assert dialog.status.text() == f"Saved {acl} (nothing changed: the file was left as it is)"
    _assert_fields_show(dialog, original)
    dialog.close()


@pytest.mark.parametrize("name", ACL_SAMPLES)
def test_real_sample_with_a_model_loaded_saves_unchanged(window, qtbot, samples, tmp_path, name):
    _root, acl = _project_with(window, tmp_path, samples / name)
    original = json.loads((samples / name).read_text())
    dialog = _open_from_menu(window, qtbot)
    assert dialog.acl_path.text() == str(acl)
    _load_model_by_typing(qtbot, dialog, samples / MODEL)
    _click_save(qtbot, dialog)
    assert json.loads(acl.read_text()) == original, dialog.status.text()
    _assert_fields_show(dialog, original, _model_doc(samples)["name"])
    assert dialog.options["none"].isChecked()  # neither sample lists this model
    dialog.close()


def test_every_field_the_file_has_is_shown_and_kept(window, qtbot, samples, tmp_path):
    doc = _model_doc(samples)
    dumped = [op["name"] for g in doc["graph"] for op in g["op"] if op["type"] not in ("Data", "Const", "NetOutput")]
    layers = [dumped[5], dumped[1], "framework/conv1"]  # the file's order; one name the model does not have
    acl_doc = {
        "err_msg_mode": "1",
        "dump": {
            "dump_list": [
                {"model_name": "other_net"},
                {"model_name": doc["name"], "layer": layers, "opname_blacklist": ["x"]},
            ],
            "dump_path": "/data/dumps",
            "dump_mode": "input",
            "dump_data": "stats",
            "dump_stats": ["Min", "Max"],
            "dump_level": "kernel",
            "dump_step": "0|5",
            "dump_debug": "off",
            "dump_scene": "normal",
            "max_opqueue_num": 20000,
        },
    }
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    acl = root / "src" / "acl.json"
    acl.write_text(json.dumps(acl_doc, indent=2))
    assert window.create_project(root) is not None
    dialog = _open_from_explorer(window, qtbot, acl)
    # Without the model: the first model listed ("all"), and the file's ops named for the other one later.
    _assert_fields_show(dialog, acl_doc)
    assert [k for k, cb in dialog.stats.items() if cb.isChecked()] == ["Max", "Min"]
    kept = dialog.kept.text()
    for where in ("err_msg_mode", "dump.max_opqueue_num", "dump.dump_list[1]"):
        assert where in kept, kept
    _click_save(qtbot, dialog)
    assert json.loads(acl.read_text()) == acl_doc
    _load_model_by_typing(qtbot, dialog, samples / MODEL)
    _assert_fields_show(dialog, acl_doc, doc["name"])
    assert dialog.tree.checked() == [dumped[1], dumped[5]]
    assert "dump.dump_list[0]" in dialog.kept.text() and "opname_blacklist" in dialog.kept.text()
    _click_save(qtbot, dialog)
    assert json.loads(acl.read_text()) == acl_doc, dialog.status.text()
    # Unticking one op changes only the layer list (the file's order and the unknown name stay).
    dialog.tree.select([dumped[5]])
    dialog.tree.act_disable.trigger()
    _click_save(qtbot, dialog)
    acl_doc["dump"]["dump_list"][1]["layer"] = [dumped[1], "framework/conv1"]
    assert json.loads(acl.read_text()) == acl_doc
    dialog.close()


# ----- the default dump_path is valid where the application runs (the deployed project folder)
def test_default_dump_path_is_relative_to_the_deployed_folder(window, qtbot, samples, tmp_path):
    from workbench.simtoolkit.dumpwriter import dump_after_app
    from workbench.simtoolkit.omfile import write_om

    root, acl = _project_with(window, tmp_path)
    dialog = _open_from_menu(window, qtbot)
    assert dialog.acl_path.text() == str(acl) and dialog.options["all"].isChecked()
    _load_model_by_typing(qtbot, dialog, samples / MODEL)
    _click_save(qtbot, dialog)
    dump = json.loads(acl.read_text())["dump"]
    assert dump["dump_path"] == "dump", "relative to the app's working folder, not this machine's project path"
    dialog.close()
    # The project as deployed to a CANN machine (another absolute path, dump/ created by deploy), the app
    # run in the deployed folder: the (simulated) runtime dumps into that folder's dump/.
    deployed = tmp_path / "host" / "home" / "ascend" / "proj"
    shutil.copytree(root, deployed, ignore=shutil.ignore_patterns(".workbench"))
    (deployed / "dump").mkdir()
    (deployed / "model").mkdir()
    write_om(deployed / "model" / "net.om", _model_doc(samples), [])
    written = dump_after_app(["./main", "model/net.om"], deployed)
    assert written and all(deployed / "dump" in p.parents for p in written)


# ----- a symlinked acl.json stays a link
def test_symlinked_acl_json_is_written_through_the_link(window, qtbot, samples, tmp_path):
    shared = tmp_path / "shared" / "acl.json"
    shared.parent.mkdir()
    shutil.copy(samples / "acl-json-dump-samples" / "acl.json", shared)
    shared.chmod(0o640)
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    link = root / "src" / "acl.json"
    link.symlink_to(shared)
    assert window.create_project(root) is not None
    dialog = _open_from_explorer(window, qtbot, link)
    edit = dialog.dump_path.edit
    edit.setFocus()
    qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(edit, "dump/run1")
    _click_save(qtbot, dialog)
    assert "Saved" in dialog.status.text(), dialog.status.text()
    assert link.is_symlink() and link.resolve() == shared.resolve()
    expected = json.loads((samples / "acl-json-dump-samples" / "acl.json").read_text())
    expected["dump"]["dump_path"] = "dump/run1"
    assert json.loads(shared.read_text()) == expected
    assert stat.S_IMODE(shared.stat().st_mode) == 0o640
    assert sorted(p.name for p in link.parent.iterdir()) == ["acl.json"]
    dialog.close()


def test_all_then_none_saved_in_turn_adds_and_removes_the_model(window, qtbot, samples, tmp_path):
    _root, acl = _project_with(window, tmp_path, samples / ACL_SAMPLES[0])
    original = json.loads(acl.read_text())
    dialog = _open_from_explorer(window, qtbot, acl)
    _load_model_by_typing(qtbot, dialog, samples / MODEL)
    name = _model_doc(samples)["name"]
    qtbot.mouseClick(dialog.options["all"], Qt.MouseButton.LeftButton)
    assert dialog.options["all"].isChecked()
    _click_save(qtbot, dialog)
    dump = json.loads(acl.read_text())["dump"]
    assert dump["dump_list"] == [{"model_name": name}] and dump["dump_path"] == original["dump"]["dump_path"]
    qtbot.mouseClick(dialog.options["none"], Qt.MouseButton.LeftButton)
    _click_save(qtbot, dialog)
    dump = json.loads(acl.read_text())["dump"]
    assert dump["dump_list"] == [] and dump["dump_path"] == original["dump"]["dump_path"]
    dialog.close()


def test_enter_in_the_model_field_loads_the_model_and_saves_nothing(window, qtbot, samples, tmp_path):
    """Typing a model path and pressing Enter loads it; it must not press Save (the default
    button of a dialog) and write a half acl.json before the model is known."""
    _root, acl = _project_with(window, tmp_path)
    dialog = _open_from_menu(window, qtbot)
    dialog.model_path.edit.clear()
    qtbot.keyClicks(dialog.model_path.edit, str(samples / MODEL))
    qtbot.keyClick(dialog.model_path.edit, Qt.Key.Key_Return)
    name = _model_doc(samples)["name"]
    qtbot.waitUntil(lambda: dialog.model_name.text() == name and dialog.load_button.isEnabled(), timeout=20000)
    assert not acl.exists(), acl.read_text()
    dialog.close()
