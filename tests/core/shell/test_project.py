"""Projects: create / open / reopen, type detection, migrations, damaged or unwritable folders."""

from __future__ import annotations

import json
import os

import pytest

from workbench.core import project as p
from workbench.core.fsutil import atomic_write_text


def test_create_close_reopen_keeps_type(tmp_path):
    created = p.create_project(tmp_path / "demo", ptype=p.TRAINING)
    created.conversions.append({"model": "resnet50.onnx", "om": "resnet50.om"})
    created.save()
    reopened = p.open_project(tmp_path / "demo")
    assert reopened.type == p.TRAINING and reopened.name == "demo"
    assert reopened.conversions == [{"model": "resnet50.onnx", "om": "resnet50.om"}]
    raw = json.loads((tmp_path / "demo" / ".ascend-workbench" / "project.json").read_text())
    assert raw["schema_version"] == p.SCHEMA_VERSION and raw["type"] == "Ascend Training"


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"op_proto/add.cc": "", "CMakeLists.txt": ""}, p.OPERATOR),
        ({"train.py": "print(1)"}, p.TRAINING),
        ({"src/model.py": "import torch\nimport torch_npu\n"}, p.TRAINING),
        ({"src/main.cpp": '#include "acl/acl.h"', "src/acl.json": "{}", "model/resnet.om": ""}, p.APP),
    ],
)
def test_type_detected_from_existing_folder(tmp_path, files, expected):
    for rel, text in files.items():
        f = tmp_path / "proj" / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    made = p.create_project(tmp_path / "proj")
    assert made.type == expected
    assert (tmp_path / "proj" / next(iter(files))).exists(), "existing files are kept"


def test_refuses_to_overwrite_existing_project(tmp_path):
    p.create_project(tmp_path / "x")
    with pytest.raises(p.ProjectError, match="already exists"):
        p.create_project(tmp_path / "x")


def test_corrupt_project_file_named_with_line_and_not_overwritten(tmp_path):
    p.create_project(tmp_path / "x")
    f = tmp_path / "x" / ".ascend-workbench" / "project.json"
    f.write_text('{\n  "name": "x",\n  "type": \n}')
    with pytest.raises(p.ProjectError) as err:
        p.open_project(tmp_path / "x")
    assert str(f) in str(err.value) and "line 4" in str(err.value)
    assert f.read_text().startswith('{\n  "name"'), "the damaged file is untouched"
    repaired, kept = p.repair_project(tmp_path / "x")
    assert kept is not None and kept.read_text().startswith('{\n  "name"')
    assert p.open_project(tmp_path / "x").name == "x"


def test_bad_type_field_is_named(tmp_path):
    p.create_project(tmp_path / "x")
    f = tmp_path / "x" / ".ascend-workbench" / "project.json"
    data = json.loads(f.read_text())
    data["type"] = "Ascend Robot"
    f.write_text(json.dumps(data))
    with pytest.raises(p.ProjectError, match=r"field 'type' must be one of .*Ascend Robot"):
        p.open_project(tmp_path / "x")


def test_migrates_version_0_file(tmp_path):
    f = tmp_path / "old" / ".ascend-workbench" / "project.json"
    f.parent.mkdir(parents=True)
    f.write_text(
        json.dumps(
            {
                "name": "old",
                "project_type": "Ascend Operator",
                "remote_host": "atlas",
                "remote_path": "/home/u/old",
                "conversions": [{"om": "a.om"}],
            }
        )
    )
    proj = p.open_project(tmp_path / "old")
    assert proj.type == p.OPERATOR and proj.remote.host == "atlas" and proj.remote.remote_path == "/home/u/old"
    assert proj.conversions == [{"om": "a.om"}]


def test_newer_schema_refused_clearly(tmp_path):
    f = tmp_path / "new" / ".ascend-workbench" / "project.json"
    f.parent.mkdir(parents=True)
    f.write_text(json.dumps({"schema_version": 99, "name": "n"}))
    with pytest.raises(p.ProjectError, match="newer"):
        p.open_project(tmp_path / "new")


def test_missing_folder_and_not_a_project(tmp_path):
    with pytest.raises(p.ProjectError, match="does not exist"):
        p.open_project(tmp_path / "nope")
    (tmp_path / "plain").mkdir()
    with pytest.raises(p.ProjectError, match="not an Ascend Workbench project"):
        p.open_project(tmp_path / "plain")


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere; see test_unwritable_folder_as_root")
def test_unwritable_folder(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    with pytest.raises(p.ProjectError, match="not writable"):
        p.create_project(ro)


def test_unwritable_folder_as_root(tmp_path, monkeypatch):
    # Root ignores permission bits, so simulate the OS refusing the write the way it does for users.
    ro = tmp_path / "ro"
    ro.mkdir()

    def refuse(*_a, **_k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("workbench.core.fsutil.tempfile.mkstemp", refuse)
    with pytest.raises(p.ProjectError) as err:
        p.create_project(ro)
    assert "Permission denied" in str(err.value) and str(ro) in str(err.value)


def test_atomic_write_leaves_no_partial_file(tmp_path):
    target = tmp_path / "f.json"
    atomic_write_text(target, "old")

    class Boom(Exception):
        pass

    from workbench.core.fsutil import atomic_open

    with pytest.raises(Boom), atomic_open(target) as fh:
        fh.write("new half")
        raise Boom
    assert target.read_text() == "old"
    assert [x.name for x in tmp_path.iterdir()] == ["f.json"]


def test_atomic_write_gives_normal_permissions(tmp_path):
    import stat

    target = tmp_path / "new.json"
    atomic_write_text(target, "{}")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask
    target.chmod(0o640)
    atomic_write_text(target, "{1}")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640, "replacing keeps the file's mode"


@pytest.mark.parametrize(
    "body, message",
    [
        ('{"schema_version": -1, "name": "p"}', "'schema_version' must be a whole number >= 0, got -1"),
        ('{"schema_version": 2, "name": "p", "history": {"profiling": 5}}', "'history.profiling' must be a list"),
        ('{"schema_version": 2, "x": ' + "[" * 100000 + "]" * 100000 + "}", "nested too deeply"),
    ],
)
def test_a_damaged_project_file_is_one_clear_error(tmp_path, body, message):
    from workbench.core.project import PROJECT_DIR, PROJECT_FILE, ProjectError, open_project

    (tmp_path / PROJECT_DIR).mkdir()
    (tmp_path / PROJECT_DIR / PROJECT_FILE).write_text(body)
    with pytest.raises(ProjectError, match="project.json") as err:
        open_project(tmp_path)
    assert message in str(err.value)


def test_a_project_file_with_a_bom_opens(tmp_path):
    from workbench.core.project import PROJECT_DIR, PROJECT_FILE, open_project

    (tmp_path / PROJECT_DIR).mkdir()
    (tmp_path / PROJECT_DIR / PROJECT_FILE).write_text('\ufeff{"schema_version": 2, "name": "bom"}', encoding="utf-8")
    assert open_project(tmp_path).name == "bom"


@pytest.mark.parametrize("value", [5, ["/a"], {"p": 1}, True])
def test_remote_fields_of_the_wrong_type_are_named(tmp_path, value):
    """remote.remote_path 5 became a folder named '5' on the host (str() of whatever was there)."""
    p.create_project(tmp_path / "x")
    f = tmp_path / "x" / ".ascend-workbench" / "project.json"
    data = json.loads(f.read_text())
    for key in ("remote_path", "host"):
        data["remote"] = {"host": "atlas", "remote_path": "/home/u/p", key: value}
        f.write_text(json.dumps(data))
        with pytest.raises(p.ProjectError) as err:
            p.open_project(tmp_path / "x")
        assert str(err.value).startswith(str(f)) and f"field 'remote.{key}' must be a string" in str(err.value)
    data["remote"] = {"host": None, "remote_path": None}
    f.write_text(json.dumps(data))
    assert p.open_project(tmp_path / "x").remote.remote_path == ""
