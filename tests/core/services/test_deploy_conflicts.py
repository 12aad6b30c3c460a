"""Deployment never overwrites a host edit unless the user ticks it; the sync history it keeps in
the project; the ``deploy`` verb's conflicts; stale ``.wbpart-*`` parts of a killed upload."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from workbench.core.project import create_project
from workbench.core.services import deploy
from workbench.core.services.deploy import (
    CHANGED,
    CHANGED_ON_HOST,
    CONFLICT,
    UNCHANGED,
    DeployError,
    Mapping,
    compute_plan,
    set_project_mappings,
    sync,
)

T0 = 1_700_000_000  # whole seconds: the host keeps whole-second mtimes


def _edit(path: Path, text: str, mtime: int) -> None:
    path.write_text(text)
    os.utime(path, (mtime, mtime))


def _project(tmp_path: Path, remote: Path):
    project = create_project(tmp_path / "proj", name="proj")
    (project.root / "src").mkdir()
    _edit(project.root / "src" / "main.py", "print('v1')\n", T0)
    _edit(project.root / "src" / "util.py", "X = 1\n", T0)
    _edit(project.root / "run.sh", "python src/main.py\n", T0)
    set_project_mappings(project, [Mapping(".", str(remote))])
    project.save()
    return project


def _actions(plan):
    return {i.rel: i.action for i in plan.items if i.action != UNCHANGED}


def test_a_host_edit_is_a_conflict_and_is_not_overwritten_unless_ticked(ssh_transport, tmp_path):
    remote = tmp_path / "remote"
    project = _project(tmp_path, remote)
    mappings = deploy.project_mappings(project)
    first = sync(ssh_transport, compute_plan(ssh_transport, mappings, project.root))
    assert sorted(first.sent) == ["run.sh", "src/main.py", "src/util.py"]
    history = json.loads(deploy.state_file(project.root).read_text())
    assert history["schema_version"] == deploy.STATE_SCHEMA
    entry = next(t for t in history["targets"] if t["remote"] == str(remote))
    assert entry["host"] == ssh_transport.label
    assert entry["files"]["src/main.py"] == {"size": 12, "mtime": T0, "remote_size": 12, "remote_mtime": T0}

    # on the host (through the sshd's file system: it is localhost): someone fixes main.py and util.py
    _edit(remote / "src" / "main.py", "print('fixed on the host')\n", T0 + 100)
    _edit(remote / "src" / "util.py", "X = 2  # host\n", T0 + 100)
    # locally: main.py is edited too (a conflict); util.py is not (changed on the host); run.sh only locally
    _edit(project.root / "src" / "main.py", "print('v2')\n", T0 + 200)
    _edit(project.root / "run.sh", "python3 src/main.py\n", T0 + 200)
    plan = compute_plan(ssh_transport, mappings, project.root)
    assert _actions(plan) == {"src/main.py": CONFLICT, "src/util.py": CHANGED_ON_HOST, "run.sh": CHANGED}
    assert [i.rel for i in plan.to_send] == ["run.sh"]
    counts = plan.to_dict()["counts"]
    assert counts[CONFLICT] == 1 and counts[CHANGED_ON_HOST] == 1 and counts[CHANGED] == 1

    result = sync(ssh_transport, plan)
    assert result.sent == ["run.sh"]
    assert sorted(result.conflicts_not_sent) == ["src/main.py", "src/util.py"]
    assert result.summary() == "1 sent, 0 folders created, 0 kept (only on the host), 2 conflicts not sent, 0 failed"
    assert (remote / "src" / "main.py").read_text() == "print('fixed on the host')\n"
    assert (remote / "src" / "util.py").read_text() == "X = 2  # host\n"
    assert (remote / "run.sh").read_text() == "python3 src/main.py\n"

    # the next plan still holds them back: a sync that did not send them does not forget the edit
    again = compute_plan(ssh_transport, mappings, project.root)
    assert _actions(again) == {"src/main.py": CONFLICT, "src/util.py": CHANGED_ON_HOST}
    # ticked: only that one is overwritten
    ticked = [i for i in again.items if i.rel == "src/main.py"]
    done = sync(ssh_transport, again, overwrite=ticked)
    assert done.sent == ["src/main.py"] and done.conflicts_not_sent == ["src/util.py"]
    assert (remote / "src" / "main.py").read_text() == "print('v2')\n"
    assert (remote / "src" / "util.py").read_text() == "X = 2  # host\n"
    assert _actions(compute_plan(ssh_transport, mappings, project.root)) == {"src/util.py": CHANGED_ON_HOST}
    with pytest.raises(DeployError, match="only conflicts"):
        sync(ssh_transport, again, overwrite=[i for i in again.items if i.rel == "run.sh"])


def test_an_edit_made_after_the_plan_is_held_back_too(ssh_transport, tmp_path):
    remote = tmp_path / "remote"
    project = _project(tmp_path, remote)
    mappings = deploy.project_mappings(project)
    sync(ssh_transport, compute_plan(ssh_transport, mappings, project.root))
    _edit(project.root / "run.sh", "python3 src/main.py\n", T0 + 200)
    plan = compute_plan(ssh_transport, mappings, project.root)
    assert _actions(plan) == {"run.sh": CHANGED}
    _edit(remote / "run.sh", "edited on the host meanwhile\n", T0 + 300)  # between plan and sync
    result = sync(ssh_transport, plan)
    assert result.sent == [] and result.conflicts_not_sent == ["run.sh"]
    assert (remote / "run.sh").read_text() == "edited on the host meanwhile\n"
    assert _actions(compute_plan(ssh_transport, mappings, project.root)) == {"run.sh": CONFLICT}


def test_without_history_a_newer_host_copy_is_not_replaced(ssh_transport, tmp_path):
    """No record (the first deploy onto an existing folder): rsync --update's rule."""
    remote = tmp_path / "remote"
    (remote / "src").mkdir(parents=True)
    _edit(remote / "src" / "main.py", "newer on the host\n", T0 + 500)
    _edit(remote / "src" / "util.py", "older on the host\n", T0 - 500)
    project = _project(tmp_path, remote)
    plan = compute_plan(ssh_transport, deploy.project_mappings(project), project.root)
    assert _actions(plan)["src/main.py"] == CONFLICT and _actions(plan)["src/util.py"] == CHANGED
    sync(ssh_transport, plan)
    assert (remote / "src" / "main.py").read_text() == "newer on the host\n"
    assert (remote / "src" / "util.py").read_text() == "X = 1\n"


def test_the_history_file_keeps_unknown_keys_and_names_itself_when_damaged(ssh_transport, tmp_path):
    remote = tmp_path / "remote"
    project = _project(tmp_path, remote)
    mappings = deploy.project_mappings(project)
    file = deploy.state_file(project.root)
    assert not file.exists()  # no history yet: a missing file is no error
    sync(ssh_transport, compute_plan(ssh_transport, mappings, project.root))
    data = json.loads(file.read_text())
    data["future"] = {"kept": True}
    data["targets"][0]["note"] = "kept too"
    file.write_text(json.dumps(data))
    _edit(project.root / "run.sh", "python3 src/main.py\n", T0 + 200)
    sync(ssh_transport, compute_plan(ssh_transport, mappings, project.root))
    again = json.loads(file.read_text())
    assert again["future"] == {"kept": True} and again["targets"][0]["note"] == "kept too"
    assert again["targets"][0]["files"]["run.sh"]["mtime"] == T0 + 200
    for text, expected in (
        ("{not json", rf"^{file}: line 1, column 2: not valid JSON"),
        ('{"schema_version": 1, "targets": 5}', rf"^{file}: field 'targets' must be a list, got int"),
        (
            '{"schema_version": 1, "targets": [{"host": "h", "remote": "r", "files": {"a": {"size": "x"}}}]}',
            rf"^{file}: field 'targets\[0\].files\['a'\].size' must be a number",
        ),
        ('{"schema_version": -1}', rf"^{file}: field 'schema_version' must be a whole number >= 1, got -1"),
        ('{"schema_version": 99, "targets": []}', rf"^{file}: written by a newer Ascend Workbench \(schema 99"),
        ("[" * 50000 + "]" * 50000, rf"^{file}: nested too deeply"),
    ):
        file.write_text(text)
        with pytest.raises(DeployError, match=expected) as err:
            compute_plan(ssh_transport, mappings, project.root)
        assert "\n" not in str(err.value)
        assert file.read_text() == text, "a damaged history is never rewritten"


def test_deploy_verb_lists_conflicts_and_overwrites_them_only_with_the_flag(cli, added, tmp_path):
    remote = tmp_path / "remote"
    project = _project(tmp_path, remote)
    args = ("deploy", added, "--project", str(project.root))
    cli(*args)
    assert (remote / "src" / "main.py").read_text() == "print('v1')\n"
    _edit(remote / "src" / "main.py", "fixed on the host\n", T0 + 100)
    _edit(project.root / "src" / "main.py", "print('v2')\n", T0 + 200)
    dry = cli(*args, "--dry-run").stdout.decode()
    assert "1 conflict (changed on the host since the last deploy; not sent without --overwrite-conflicts)" in dry
    assert "conflict: src/main.py" in dry
    plan = json.loads(cli(*args, "--dry-run", "--json").stdout)["plan"]
    assert plan["counts"]["conflict"] == 1
    assert {"path": "src/main.py", "action": "conflict"}.items() <= next(
        i for i in plan["items"] if i["path"] == "src/main.py"
    ).items()
    out = cli(*args).stdout.decode()
    assert "1 conflict not sent" in out and "--overwrite-conflicts" in out
    assert (remote / "src" / "main.py").read_text() == "fixed on the host\n"
    done = json.loads(cli(*args, "--overwrite-conflicts", "--json").stdout)
    assert done["result"]["sent"] == ["src/main.py"] and done["result"]["conflicts_not_sent"] == []
    assert (remote / "src" / "main.py").read_text() == "print('v2')\n"


def test_a_damaged_deployment_section_is_one_line(cli, tmp_path):
    project = create_project(tmp_path / "p", name="p")
    for value, expected in (
        ({"mappings": 5}, "field 'deployment.mappings': expected a list of mappings, got int"),
        ({"mappings": "abc"}, "field 'deployment.mappings': expected a list of mappings, got str"),
        (5, "field 'deployment': expected {\"mappings\": [...]}, got int"),
    ):
        project.extra["deployment"] = value
        project.save()
        proc = cli("deploy", "demo", "--project", str(project.root), "--dry-run", check=2)
        assert proc.stderr.decode() == f"ascend-workbench: {project.file}: {expected}\n"


def test_a_part_left_by_a_killed_upload_is_removed_by_the_next_deploy(cli, added, tmp_path):
    """A killed process cannot remember its ``.wbpart-*``: the next upload of that file, in a new
    process, removes the stale ones of exactly our naming beside it, and nothing else."""
    remote = tmp_path / "remote"
    project = _project(tmp_path, remote)
    (remote / "src").mkdir(parents=True)
    old = time.time() - 2 * 3600
    stale = remote / "src" / ".wbpart-0badc0de-main.py"  # what a killed upload of src/main.py leaves
    stale.write_bytes(b"\0" * 41_000)
    os.utime(stale, (old, old))
    keep = {
        remote / "src" / ".wbpart-1234abcd-main.py": "written a minute ago: an upload may still be running",
        remote / "src" / ".wbpart-0badc0de-other.py": "the part of a file this deploy does not send",
        remote / "src" / ".wbpart-xyz-main.py": "not our naming (8 hex digits)",
        remote / "src" / ".wbpart-0badc0de-main.py.bak": "not our naming (another name)",
        remote / "src" / "notes.txt": "a host file",
    }
    for path, text in keep.items():
        path.write_text(text)
        if "minute" not in text:
            os.utime(path, (old, old))
    recent = time.time() - 60
    os.utime(remote / "src" / ".wbpart-1234abcd-main.py", (recent, recent))
    cli("deploy", added, "--project", str(project.root))
    assert (remote / "src" / "main.py").read_text() == "print('v1')\n"
    assert not stale.exists(), "the stale part of the uploaded file is removed"
    for path, text in keep.items():
        assert path.read_text() == text, path.name
    left = sorted(p.name for p in (remote / "src").iterdir())
    assert left == sorted(["main.py", "util.py", *(p.name for p in keep)])


def test_remote_put_removes_a_stale_part_of_its_target(cli, added, tmp_path):
    (tmp_path / "model.om").write_bytes(b"\1" * 5000)
    (tmp_path / "host").mkdir()
    old = time.time() - 2 * 3600
    stale = tmp_path / "host" / ".wbpart-00ff00ff-model.om"
    stale.write_bytes(b"\0" * 1000)
    os.utime(stale, (old, old))
    cli("remote", "put", added, str(tmp_path / "model.om"), str(tmp_path / "host" / "model.om"))
    assert sorted(p.name for p in (tmp_path / "host").iterdir()) == ["model.om"]
