"""acl.json round trips keep every key the editor does not manage (real samples), validation, errors."""

from __future__ import annotations

import json
import shutil

import pytest

from workbench.core.dump.aclconfig import AclConfig, AclConfigError, DumpSettings


def _copy(samples, name, tmp_path):
    target = tmp_path / "acl.json"
    shutil.copy(samples / name / "acl.json", target)
    target.chmod(0o644)
    return target


def test_real_sample_round_trip_keeps_keys_and_tabs(samples, tmp_path):
    path = _copy(samples, "acl-json-dump-samples", tmp_path)
    original = json.loads(path.read_text())
    cfg = AclConfig.load(path)
    s = cfg.dump_settings("resnet50")
    assert s.option == "none" and s.dump_path == original["dump"]["dump_path"]
    s.option, s.layers, s.dump_mode = "several", ["conv1", "pool1"], "all"
    cfg.apply_dump(s)
    cfg.save()
    text = path.read_text()
    assert '\n\t"dump"' in text  # the sample's tab indentation is kept
    data = json.loads(text)
    assert data["dump"]["dump_path"] == original["dump"]["dump_path"]
    assert data["dump"]["dump_list"] == [{"model_name": "resnet50", "layer": ["conv1", "pool1"]}]
    assert data["dump"]["dump_mode"] == "all" and data["dump"]["dump_data"] == "tensor"
    assert AclConfig.load(path).dump_settings("resnet50").layers == ["conv1", "pool1"]


def test_torch_npu_exception_sample_keeps_dump_scene(samples, tmp_path):
    path = _copy(samples, "acl-json-torch_npu-exception", tmp_path)
    cfg = AclConfig.load(path)
    assert cfg.validate() == []  # dump_scene alone is valid
    cfg.apply_dump(DumpSettings(option="all", model_name="m", dump_path="/d"))
    cfg.save()
    data = json.loads(path.read_text())
    assert data["dump"]["dump_scene"] == "lite_exception"
    assert data["dump"]["dump_list"] == [{"model_name": "m"}]


def test_unknown_keys_profiler_and_other_models_survive(tmp_path):
    path = tmp_path / "acl.json"
    doc = {
        "err_msg_mode": "1",
        "profiler": {"switch": "on", "aic_metrics": "PipeUtilization"},
        "dump": {
            "dump_list": [
                {"model_name": "other", "layer": ["a"]},
                {"model_name": "net", "opname_blacklist": ["x"], "layer": ["b"]},
            ],
            "dump_path": "/out",
            "dump_step": "0|5",
            "dump_data": "stats",
            "dump_stats": ["Max"],
        },
    }
    path.write_text(json.dumps(doc, indent=2))
    cfg = AclConfig.load(path)
    s = cfg.dump_settings("net")
    assert (s.option, s.layers, s.dump_data, s.dump_stats) == ("several", ["b"], "stats", ["Max"])
    s.option, s.dump_data = "all", "tensor"
    cfg.apply_dump(s)
    issues = cfg.validate()
    assert [(i.level, i.field) for i in issues] == [("warning", "profiler")]
    cfg.save()
    data = json.loads(path.read_text())
    assert data["err_msg_mode"] == "1" and data["profiler"] == doc["profiler"]
    assert data["dump"]["dump_list"] == [
        {"model_name": "other", "layer": ["a"]},
        {"model_name": "net", "opname_blacklist": ["x"]},
    ]
    assert data["dump"]["dump_step"] == "0|5" and "dump_stats" not in data["dump"]
    assert list(data) == ["err_msg_mode", "profiler", "dump"]
    assert path.read_text().startswith('{\n  "err_msg_mode"')  # 2-space indentation kept


def test_option_none_removes_the_model_and_an_empty_dump_section(tmp_path):
    cfg = AclConfig({"profiler": {"switch": "off"}})
    cfg.apply_dump(DumpSettings(option="all", model_name="m", dump_path="/d"))
    assert cfg.dump_enabled
    cfg.apply_dump(DumpSettings(option="none", model_name="m", dump_path="/d"))
    assert cfg.data == {"profiler": {"switch": "off"}}


def test_invalid_json_names_line_and_column_and_keeps_the_file(tmp_path):
    path = tmp_path / "acl.json"
    text = '{\n  "dump": {\n    "dump_path": "/x",,\n  }\n}\n'
    path.write_text(text)
    with pytest.raises(AclConfigError) as info:
        AclConfig.load(path)
    assert (info.value.line, info.value.column) == (3, 23)
    assert "line 3, column 23" in str(info.value) and str(path) in str(info.value)
    assert path.read_text() == text


def test_validation_errors():
    cfg = AclConfig(
        {
            "dump": {
                "dump_list": [{"model_name": "m", "layer": "conv1"}],
                "dump_mode": "both",
                "dump_stats": ["Max", "Median"],
            }
        }
    )
    fields = {(i.level, i.field) for i in cfg.validate()}
    assert fields == {
        ("error", "dump.dump_mode"),
        ("error", "dump.dump_path"),
        ("error", "dump.dump_list[0].layer"),
        ("error", "dump.dump_stats"),
        ("warning", "dump.dump_stats"),
    }


def _acl_samples(samples):
    found = sorted(p for p in samples.rglob("*.json") if p.name == "acl.json")
    assert len(found) >= 2, found
    return found


def test_unchanged_settings_leave_every_real_sample_as_it_was(samples):
    for path in _acl_samples(samples):
        original = json.loads(path.read_text())
        cfg = AclConfig.load(path)
        for model in (None, "resnet50"):
            base = cfg.dump_settings(model)
            same = DumpSettings(**{**base.__dict__, "layers": list(base.layers), "dump_stats": list(base.dump_stats)})
            cfg.apply_dump(same, base)
            assert cfg.data == original, (path, model)


def test_changes_against_the_file_write_only_what_changed(samples, tmp_path):
    path = _copy(samples, "acl-json-torch_npu-exception", tmp_path)
    cfg = AclConfig.load(path)
    base = cfg.dump_settings("net")
    assert (base.option, base.dump_scene, base.dump_path) == ("none", "lite_exception", "")
    s = DumpSettings(**{**base.__dict__, "dump_step": "0|5"})
    cfg.apply_dump(s, base)
    assert cfg.data == {"dump": {"dump_scene": "lite_exception", "dump_step": "0|5"}}
    # Turning the model's dump on writes the schema; the default dump_path is relative (the app's
    # working folder on the machine it runs on), never an absolute path of this machine.
    cfg = AclConfig.load(path)
    cfg.apply_dump(DumpSettings(**{**base.__dict__, "option": "all"}), base)
    assert cfg.data == {
        "dump": {
            "dump_scene": "lite_exception",
            "dump_list": [{"model_name": "net"}],
            "dump_path": "dump",
            "dump_mode": "output",
            "dump_op_switch": "off",
            "dump_data": "tensor",
        }
    }
    # Single-operator dump switched on in a file without dump_list: the list and a path are written too.
    cfg = AclConfig({})
    base = cfg.dump_settings()
    cfg.apply_dump(DumpSettings(**{**base.__dict__, "dump_op_switch": "on"}), base)
    assert cfg.data["dump"]["dump_list"] == [] and cfg.data["dump"]["dump_path"] == "dump"
    assert cfg.validate() == []


def test_unshown_lists_what_has_no_field(tmp_path):
    cfg = AclConfig(
        {
            "profiler": {"switch": "off"},
            "dump": {
                "dump_list": [{"model_name": "a"}, {"model_name": "b", "layer": ["x"], "opname_blacklist": ["y"]}],
                "dump_path": "dump",
                "max_opqueue_num": 20000,
            },
        }
    )
    assert cfg.unshown("b") == [
        ("profiler", {"switch": "off"}),
        ("dump.max_opqueue_num", 20000),
        ("dump.dump_list[0]", {"model_name": "a"}),
        ("dump.dump_list[1].opname_blacklist", ["y"]),
    ]


def test_duplicate_keys_are_an_error_not_a_silent_drop():
    from workbench.core.dump.aclconfig import AclConfig, AclConfigError

    text = '{"dump": {"dump_path": "a"}, "dump": {"dump_path": "b"}}'
    with pytest.raises(AclConfigError, match="key 'dump' appears twice"):
        AclConfig.from_text(text, "acl.json")
    nested = '{"dump": {"dump_path": "a", "dump_path": "b"}}'
    with pytest.raises(AclConfigError, match="key 'dump_path' appears twice"):
        AclConfig.from_text(nested, "acl.json")


def test_a_bom_and_deep_nesting_are_handled():
    from workbench.core.dump.aclconfig import AclConfig, AclConfigError

    assert AclConfig.from_text('\ufeff{"dump": {"dump_path": "d"}}', "acl.json").data == {"dump": {"dump_path": "d"}}
    with pytest.raises(AclConfigError, match="nested too deeply"):
        AclConfig.from_text('{"x": ' + "[" * 100000 + "]" * 100000 + "}", "acl.json")
