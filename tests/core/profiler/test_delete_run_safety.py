"""Deleting a profiling run removes only the folders the workbench made for it: a hand-edited
history entry can never make it delete the project, a folder outside it, or a host folder."""

from __future__ import annotations

import pytest

from workbench.core.profiler.history import delete_run
from workbench.core.profiler.run import new_run_id
from workbench.core.project import create_project


class Recorder:
    """A transport that records what would run on the host and runs nothing."""

    label = "recorder"

    def __init__(self) -> None:
        self.commands: list[list[str]] = []

    def run(self, argv, **_kw):
        self.commands.append(list(argv))
        raise AssertionError(f"a command reached the host: {argv}")


@pytest.fixture
def project(tmp_path):
    proj = create_project(tmp_path / "proj", name="p")
    (proj.root / "src").mkdir()
    (proj.root / "src" / "main.py").write_text("print(1)\n")
    return proj


def _entry(project, **fields):
    base = {"id": new_run_id(), "kind": "collected", "host": "h", "remote_dir": "", "local_dir": "", "report_path": ""}
    base.update(fields)
    project.profiling_runs = [*project.profiling_runs, base]
    project.save()
    return base["id"]


def _everything(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


def test_a_run_named_dot_dot_cannot_empty_the_project(project):
    before = _everything(project.root)
    _entry(project, id="..", local_dir="src/..")
    with pytest.raises(ValueError, match="not one this workbench gives"):
        delete_run(project, "..")
    assert _everything(project.root) == before


def test_a_local_folder_outside_the_project_is_refused(project, tmp_path):
    run_id = new_run_id()
    outside = tmp_path / "elsewhere" / run_id
    outside.mkdir(parents=True)
    (outside / "keep.txt").write_text("mine")
    _entry(project, id=run_id, local_dir=str(outside))
    with pytest.raises(ValueError, match="not inside the project"):
        delete_run(project, run_id)
    assert (outside / "keep.txt").read_text() == "mine"


def test_a_symlink_in_the_project_pointing_out_is_not_followed(project, tmp_path):
    run_id = new_run_id()
    target = tmp_path / "precious"
    target.mkdir()
    (target / "data.bin").write_bytes(b"x")
    runs = project.root / ".ascend-workbench" / "p"
    runs.mkdir(parents=True)
    (runs / run_id).symlink_to(target)
    _entry(project, id=run_id, local_dir=f".ascend-workbench/p/{run_id}")
    with pytest.raises(ValueError, match="symbolic link"):
        delete_run(project, run_id)
    assert (target / "data.bin").exists()


@pytest.mark.parametrize(
    "remote",
    ["/", "relative/{id}", "/{id}", "/home/u/../../{id}", "/home/u/other", "/home/u/{id}/../.."],
)
def test_a_host_folder_that_is_not_the_runs_own_is_never_removed(project, remote):
    run_id = new_run_id()
    _entry(project, id=run_id, remote_dir=remote.format(id=run_id))
    host = Recorder()
    with pytest.raises(ValueError, match="not this run's own folder"):
        delete_run(project, run_id, on_host=True, transport=host)
    assert host.commands == []


def test_the_runs_own_folders_are_removed(project):
    run_id = new_run_id()
    local = project.root / ".ascend-workbench" / "p" / run_id
    (local / "PROF_1").mkdir(parents=True)
    _entry(project, id=run_id, local_dir=f".ascend-workbench/p/{run_id}")
    delete_run(project, run_id)
    assert not local.exists() and (project.root / "src" / "main.py").exists()
    assert project.profiling_runs == []
