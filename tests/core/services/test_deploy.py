"""Deployment: the plan, sending only new/changed files, never deleting remote-only files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.core.project import create_project, open_project
from workbench.core.services import deploy
from workbench.core.services.deploy import (
    CHANGED,
    NEW,
    NEW_FOLDER,
    REMOTE_ONLY,
    UNCHANGED,
    DeployError,
    Mapping,
    SyncFailed,
    is_excluded,
    project_mappings,
    pull,
    set_project_mappings,
    sync,
)
from workbench.core.services.transport import LocalTransport
from workbench.core.tasks import RecordingProgress


def compute_plan(transport, mappings, project_root=None, **kw):
    """deploy.compute_plan with the project root these tests use: the folder their local trees
    sit in (every mapping stays inside it)."""
    root = project_root or Path(os.path.commonpath([str(Path(m.local).parent) for m in mappings]))
    return deploy.compute_plan(transport, mappings, root, **kw)


@pytest.fixture(params=["ssh", "local"])
def transport(request):
    if request.param == "ssh":
        return request.getfixturevalue("ssh_transport")
    return LocalTransport()


def _actions(plan):
    return {item.rel: item.action for item in plan.items}


def _setup(tmp_path: Path):
    local, remote = tmp_path / "local", tmp_path / "remote"
    (local / "src").mkdir(parents=True)
    (local / "src" / "main.py").write_text("print('hi')\n")
    (local / "model 模型.onnx").write_bytes(os.urandom(5000))
    (local / "__pycache__").mkdir()
    (local / "__pycache__" / "x.pyc").write_bytes(b"junk")
    (local / "notes.tmp").write_text("scratch")
    (remote / "datasets").mkdir(parents=True)
    (remote / "datasets" / "imagenet.bin").write_bytes(b"precious remote data")
    (remote / "out.log").write_text("a remote log\n")
    return local, remote


def test_remote_only_files_survive_every_sync(transport, tmp_path):
    local, remote = _setup(tmp_path)
    mapping = Mapping(str(local), str(remote), excludes=["__pycache__", "*.tmp"])
    plan = compute_plan(transport, [mapping])
    assert _actions(plan) == {
        "src/main.py": NEW,
        "model 模型.onnx": NEW,
        "datasets/imagenet.bin": REMOTE_ONLY,
        "out.log": REMOTE_ONLY,
    }
    progress = RecordingProgress()
    report = sync(transport, plan, progress=progress)
    assert sorted(report.sent) == ["model 模型.onnx", "src/main.py"]
    assert (remote / "datasets" / "imagenet.bin").read_bytes() == b"precious remote data"
    assert (remote / "out.log").read_text() == "a remote log\n"
    assert (remote / "src" / "main.py").read_text() == "print('hi')\n"
    assert not (remote / "__pycache__").exists() and not (remote / "notes.tmp").exists()

    # Second round: nothing changed -> nothing sent; change one file -> only it is sent.
    again = compute_plan(transport, [mapping])
    assert {r: a for r, a in _actions(again).items() if a != REMOTE_ONLY} == {
        "src/main.py": UNCHANGED,
        "model 模型.onnx": UNCHANGED,
    }
    (local / "src" / "main.py").write_text("print('changed')\n")
    os.utime(local / "src" / "main.py", (2_000_000_000, 2_000_000_000))
    third = compute_plan(transport, [mapping])
    assert _actions(third)["src/main.py"] == CHANGED
    assert [i.rel for i in third.to_send] == ["src/main.py"]
    sync(transport, third)
    assert (remote / "src" / "main.py").read_text() == "print('changed')\n"
    assert (remote / "datasets" / "imagenet.bin").exists() and (remote / "out.log").exists()


def test_remote_only_deleted_only_when_ticked(transport, tmp_path):
    local, remote = _setup(tmp_path)
    plan = compute_plan(transport, [Mapping(str(local), str(remote))])
    ticked = [i for i in plan.of(REMOTE_ONLY) if i.rel == "out.log"]
    report = sync(transport, plan, delete=ticked)
    assert report.deleted == ["out.log"] and report.kept_remote_only == ["datasets/imagenet.bin"]
    assert not (remote / "out.log").exists() and (remote / "datasets" / "imagenet.bin").exists()
    new_item = plan.of(NEW)[0]
    with pytest.raises(DeployError):
        sync(transport, plan, delete=[new_item])


def test_plan_to_dict_counts(transport, tmp_path):
    local, remote = _setup(tmp_path)
    data = compute_plan(transport, [Mapping(str(local), str(remote))]).to_dict()
    assert data["counts"] == {
        "new": 3,
        "changed": 0,
        "remote-only": 2,
        "unchanged": 0,
        "new-folder": 0,
        "skipped-link": 0,
        "conflict": 0,
        "changed-on-host": 0,
    }  # notes.tmp is not excluded here
    assert data["bytes_to_send"] == sum(
        p.stat().st_size for p in [local / "src" / "main.py", local / "model 模型.onnx", local / "notes.tmp"]
    )


def test_missing_remote_folder_means_all_new(transport, tmp_path):
    local, _ = _setup(tmp_path)
    plan = compute_plan(transport, [Mapping(str(local), str(tmp_path / "fresh" / "deep"))])
    assert set(_actions(plan).values()) == {NEW}
    sync(transport, plan)
    assert (tmp_path / "fresh" / "deep" / "src" / "main.py").exists()


def test_pull_artefacts_back(transport, tmp_path):
    local, remote = _setup(tmp_path)
    (remote / "PROF_000001" / "device_0").mkdir(parents=True)
    (remote / "PROF_000001" / "device_0" / "data.json").write_text("{}")
    mapping = Mapping(str(local), str(remote))
    out = pull(transport, mapping, "PROF_000001")
    assert (out / "device_0" / "data.json").read_text() == "{}"
    assert pull(transport, mapping, "out.log").read_text() == "a remote log\n"
    with pytest.raises(DeployError):
        pull(transport, mapping, "../escape")


def test_excludes():
    assert is_excluded("a/__pycache__/x.pyc", ["__pycache__"])
    assert is_excluded("build/out/x", ["build/out"])
    assert not is_excluded("src/build/out/x", ["build/out"])
    assert is_excluded("x.pyc", ["*.pyc"]) and not is_excluded("x.py", ["*.pyc"])
    assert is_excluded("logs/a.log", ["logs/"])


def test_mappings_stored_in_the_project(tmp_path):
    project = create_project(tmp_path / "p", name="demo")
    assert [m.remote for m in project_mappings(project)] == ["ascend-workbench/demo"]
    set_project_mappings(project, [Mapping("src", "/data/p", ["*.o"])])
    project.save()
    again = open_project(tmp_path / "p")
    assert [m.to_dict() for m in project_mappings(again)] == [
        {"local": "src", "remote": "/data/p", "excludes": ["*.o"]}
    ]
    again.extra["deployment"] = {"mappings": [{"local": "src"}]}
    with pytest.raises(DeployError) as err:
        project_mappings(again)
    assert "deployment.mappings[0]" in str(err.value)


def test_empty_local_folders_are_created_on_the_host(transport, tmp_path):
    local, remote = _setup(tmp_path)
    (local / "dump").mkdir()  # the runtime's dump_path: empty locally, needed on the host
    (local / "models" / "om" / "deep").mkdir(parents=True)  # only the innermost one needs creating
    (local / "cache").mkdir()
    (local / "cache" / "x.pyc").write_bytes(b"excluded")  # holds only excluded files: empty for the host
    (remote / "kept").mkdir()
    (local / "kept").mkdir()  # already on the host: nothing to do
    mapping = Mapping(str(local), str(remote), excludes=["__pycache__", "*.pyc"])
    plan = compute_plan(transport, [mapping])
    assert sorted(i.rel for i in plan.of(NEW_FOLDER)) == ["cache", "dump", "models/om/deep"]
    assert plan.to_dict()["counts"][NEW_FOLDER] == 3
    assert {"path": "dump", "action": NEW_FOLDER}.items() <= next(
        i for i in plan.to_dict()["items"] if i["path"] == "dump"
    ).items()
    result = sync(transport, plan)
    assert sorted(result.folders_created) == ["cache", "dump", "models/om/deep"]
    assert (remote / "dump").is_dir() and (remote / "models" / "om" / "deep").is_dir()
    assert list((remote / "dump").iterdir()) == []
    assert compute_plan(transport, [mapping]).of(NEW_FOLDER) == []  # created: nothing left to do


def test_an_empty_project_creates_its_remote_folder(transport, tmp_path):
    (tmp_path / "empty").mkdir()
    plan = compute_plan(transport, [Mapping(str(tmp_path / "empty"), str(tmp_path / "far" / "away"))])
    assert [(i.rel, i.action) for i in plan.folders] == [("", NEW_FOLDER)]
    sync(transport, plan)
    assert (tmp_path / "far" / "away").is_dir()


def test_sync_result_summary_and_failed_files(transport, tmp_path):
    local, remote = _setup(tmp_path)
    (local / "dump").mkdir()
    (local / "blocked").mkdir()
    (local / "blocked" / "a.txt").write_text("cannot go there")
    (remote / "blocked").write_text("a file where the folder should be")
    mapping = Mapping(str(local), str(remote), excludes=["__pycache__", "*.tmp"])
    plan = compute_plan(transport, [mapping])
    with pytest.raises(SyncFailed) as err:
        sync(transport, plan)
    result = err.value.result
    assert sorted(result.sent) == ["model 模型.onnx", "src/main.py"], "one failed file does not stop the others"
    assert [path for path, _ in result.failed] == ["blocked/a.txt"]
    assert result.summary().startswith("2 sent, 1 folder created, 3 kept (only on the host), 1 failed: blocked/a.txt: ")
    assert "Errno" not in result.summary() and "Error" not in result.summary()
    assert str(err.value) == f"{transport.label}: deployment incomplete: {result.summary()}"
    (remote / "blocked").unlink()
    ok = sync(transport, compute_plan(transport, [mapping]))
    assert str(ok) == ok.summary() == "1 sent, 0 folders created, 2 kept (only on the host), 0 failed"
    assert ok.to_dict()["summary"] == ok.summary() and ok.counts()["sent"] == 1


def test_a_mapping_outside_the_project_is_refused(transport, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    secrets = tmp_path / "fake_ssh"
    secrets.mkdir()
    (secrets / "id_rsa").write_text("PRIVATE KEY")
    remote = tmp_path / "remote"
    for local in ("../fake_ssh", str(secrets)):
        with pytest.raises(DeployError, match="outside the project"):
            deploy.compute_plan(transport, [Mapping(local, str(remote))], project)
    assert not remote.exists()


def test_symlinks_are_listed_as_skipped_and_never_followed(transport, tmp_path):
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "src" / "main.py").write_text("print(1)\n")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "id_rsa").write_text("PRIVATE KEY")
    (project / "src" / "key").symlink_to(outside / "id_rsa")
    (project / "src" / "home").symlink_to(outside, target_is_directory=True)
    remote = tmp_path / "remote"
    plan = deploy.compute_plan(transport, [Mapping(".", str(remote))], project)
    assert sorted(i.rel for i in plan.of(deploy.SKIPPED_LINK)) == ["src/home", "src/key"]
    assert [i.rel for i in plan.to_send] == ["src/main.py"]
    sync(transport, plan)
    assert (remote / "src" / "main.py").exists()
    assert not (remote / "src" / "key").exists() and not (remote / "src" / "home").exists()
    assert "PRIVATE KEY" not in "".join(p.read_text() for p in remote.rglob("*") if p.is_file())
