"""Dump Configuration dialog: real acl.json samples keep their keys, Several writes the ticked layers,
an invalid acl.json is reported with line/column and not overwritten without consent, an .om is read
with atc --mode=1 on the demo host."""

from __future__ import annotations

import json
import shutil

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from workbench.ui.dump import open_dump_configuration

MODEL = "atc-om2json-310-cann5.1/model.json"


def _open(window, qtbot, samples, acl):
    dialog = open_dump_configuration(window.context, window, str(samples / MODEL), str(acl))
    qtbot.waitUntil(lambda: dialog.model is not None and dialog.task is None, timeout=20000)
    return dialog


def _model_doc(samples):
    return json.loads((samples / MODEL).read_text())


def test_sample_acl_json_keeps_keys_and_writes_the_schema(window, qtbot, samples, tmp_path):
    acl = tmp_path / "src" / "acl.json"
    acl.parent.mkdir()
    shutil.copy(samples / "acl-json-dump-samples" / "acl.json", acl)
    original = json.loads(acl.read_text())
    dialog = _open(window, qtbot, samples, acl)
    # The sample has an empty dump_list: nothing dumped for this model yet -> "None", its dump_path shown.
    assert dialog.options["none"].isChecked()
    assert dialog.dump_path.text() == original["dump"]["dump_path"]
    dialog.options["all"].setChecked(True)
    dialog.mode.setCurrentIndex(dialog.mode.findData("all"))
    live = json.loads(dialog.preview.toPlainText())
    assert dialog.save()
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
    acl.write_text(json.dumps(doc))
    dialog.acl_path.setText(str(acl))
    dialog.load_acl()
    dialog.options["all"].setChecked(True)
    dialog.dump_path.setText(str(tmp_path / "dump"))
    dialog.data.setCurrentIndex(dialog.data.findData("stats"))
    dialog.stats["Nan"].setChecked(False)
    assert "dump and profiling are both on" in dialog.issues.text() and dialog.issues.isVisibleTo(dialog)
    assert dialog.save()
    data = json.loads(acl.read_text())
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
    dialog.close()


def test_several_writes_ticked_layers_and_model_name(window, qtbot, samples, tmp_path):
    acl = tmp_path / "acl.json"
    dialog = _open(window, qtbot, samples, acl)
    assert dialog.options["all"].isChecked()  # a new file: MindStudio's default
    doc = _model_doc(samples)
    ops = [op for g in doc["graph"] for op in g["op"]]
    dumped = [op["name"] for op in ops if op["type"] not in ("Data", "Const", "NetOutput")]
    # Ticking is impossible until "Several" is chosen.
    dialog.tree.select(dumped[:2])
    dialog.tree.enable_selected()
    assert dialog.tree.checked() == []
    dialog.options["several"].setChecked(True)
    assert "tick the ops" in dialog.issues.text()
    # Search narrows the tree; multi-select + Enable Dump (the context menu's action) ticks them.
    dialog.tree.search.setText("cast")
    visible = [n for n, it in dialog.tree._items.items() if not it.isHidden()]
    assert visible == [op["name"] for op in ops if "cast" in op["name"].lower() or "cast" in op["type"].lower()]
    wanted = [dumped[-1], dumped[3], dumped[1]]
    dialog.tree.select(wanted + ["boxes_all"])  # a Data op cannot be ticked
    dialog.tree.act_enable.trigger()
    dialog.tree.select([dumped[3]])
    dialog.tree.act_disable.trigger()
    item = dialog.tree._items[dumped[1]]
    assert item.checkState(0) == Qt.CheckState.Checked
    expected_layers = [n for n in dumped if n in (dumped[-1], dumped[1])]  # model order
    assert json.loads(dialog.preview.toPlainText())["dump"]["dump_list"] == [
        {"model_name": doc["name"], "layer": expected_layers}
    ]
    dialog.dump_path.setText(str(tmp_path / "d"))
    assert dialog.save()
    data = json.loads(acl.read_text())
    assert data["dump"]["dump_list"] == [{"model_name": doc["name"], "layer": expected_layers}]
    assert data["dump"]["dump_path"] == str(tmp_path / "d")
    dialog.close()


def test_invalid_acl_json_is_reported_and_kept_without_consent(window, qtbot, samples, tmp_path, monkeypatch):
    acl = tmp_path / "acl.json"
    broken = '{\n  "dump": {\n    "dump_path": "/x"\n    "dump_mode": "all"}\n}\n'
    acl.write_text(broken)
    dialog = _open(window, qtbot, samples, acl)
    assert "line 4, column 5" in dialog.acl_status.text()
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or QMessageBox.StandardButton.No)
    assert not dialog.save()
    assert acl.read_text() == broken and len(asked) == 1 and "line 4, column 5" in asked[0][2]
    assert "left unchanged" in dialog.status.text()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    assert dialog.save()
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
    qtbot.waitUntil(lambda: dialog.task is None, timeout=60000)
    assert dialog.model is not None, dialog.model_status.text()
    assert dialog.model.name == doc["name"]
    assert [op.name for op in dialog.model.ops] == [op["name"] for g in doc["graph"] for op in g["op"]]
    assert dialog.model_name.text() == doc["name"]
    dialog.close()
