"""Import Result (a PROF_* folder, its parent, a folder of several; on the host or locally) and
Merge Reports."""

from __future__ import annotations

import shutil

import pytest
from conftest import NEW

from workbench.core.profiler.fetch import FetchError
from workbench.core.profiler.history import delete_run, list_runs
from workbench.core.profiler.importer import import_result
from workbench.core.profiler.mergejob import MergeError, merge_reports_to
from workbench.core.profiling.build import open_report
from workbench.core.project import create_project
from workbench.core.services.toolkit import detect_toolkit
from workbench.core.tasks import RecordingProgress
from workbench.simtoolkit import profdata


def _prof(parent, device: int, version: str = "8.0.RC1", index: int = 1):
    return profdata.write_msprof_prof(
        parent,
        profdata.resnet50_workload(),
        cann_version=version,
        soc="Ascend910B2",
        devices=[device],
        prof_index=index,
    )


@pytest.fixture
def cluster(tmp_path):
    """cluster/rank0/PROF_* (device 0, CANN 8) and cluster/rank1/PROF_* (device 1, CANN 6 layout)."""
    root = tmp_path / "cluster"
    a = _prof(root / "rank0", 0)
    b = _prof(root / "rank1", 1, version="6.0.1", index=2)
    return root, a, b


def test_import_a_folder_of_several_from_the_host(cluster, ssh_transport, tmp_path):
    root, a, b = cluster
    project = create_project(tmp_path / "proj", name="p")
    run = import_result(str(root), transport=ssh_transport, project=project, host="loopback")
    local = run.local_path(project.root)
    assert {p.relative_to(local).as_posix() for p in local.iterdir()} == {"rank0", "rank1"}
    assert (local / "rank0" / a.name / "mindstudio_profiler_output").is_dir()
    assert (local / "rank1" / b.name / "device_1" / "summary").is_dir()
    assert not any(p.name == "data" for p in local.rglob("*"))  # raw data is not copied
    assert run.report(project.root) == local and run.kind == "imported" and run.remote_dir == str(root)
    report = open_report(run.report(project.root))
    assert report.devices == [0, 1]
    expected = len(open_report(a).ops) + len(open_report(b).ops)
    assert len(report.ops) == expected
    assert [r.id for r in list_runs(project)] == [run.id]
    with pytest.raises(ValueError, match="never deleted"):
        delete_run(project, run.id, on_host=True, transport=ssh_transport)
    delete_run(project, run.id)
    assert not local.exists() and a.is_dir() and b.is_dir()  # the source is untouched


def test_import_one_prof_folder_locally(cluster, tmp_path):
    _root, a, _b = cluster
    run = import_result(a, results_dir=tmp_path / "results")
    assert run.report(None).name == a.name and run.host == "local"
    assert open_report(run.report(None)).devices == [0]


def test_import_finds_nothing_and_says_what_it_expected(tmp_path, ssh_transport):
    (tmp_path / "empty").mkdir()
    with pytest.raises(FetchError, match="no PROF_\\* folder there or up to two levels below"):
        import_result(str(tmp_path / "empty"), transport=ssh_transport, results_dir=tmp_path / "r")
    with pytest.raises(FetchError, match="no such folder"):
        import_result(str(tmp_path / "missing"), results_dir=tmp_path / "r")


def test_unexported_prof_needs_the_export_step(cluster, sim_toolkits, ssh_transport, tmp_path):
    _root, a, _b = cluster
    raw = tmp_path / "raw" / a.name
    shutil.copytree(a, raw)
    shutil.rmtree(raw / "mindstudio_profiler_output")
    with pytest.raises(FetchError, match="no exported data .* no CANN toolkit"):
        import_result(str(raw.parent), transport=ssh_transport, results_dir=tmp_path / "r")
    toolkit = detect_toolkit(ssh_transport, str(sim_toolkits[NEW]))
    progress = RecordingProgress()
    # the simulated msprof's export only reports (its collection is always exported), so the data stays missing
    with pytest.raises(FetchError, match="after the export step"):
        import_result(
            str(raw.parent), transport=ssh_transport, toolkit=toolkit, results_dir=tmp_path / "r", progress=progress
        )
    lines = [item[1] for kind, item in progress.events if kind == "partial"]
    assert f"[INFO] Start export data in {a.name}.\n" in lines
    assert not (tmp_path / "r").exists() or not any((tmp_path / "r").iterdir())


def test_merge_reports(tmp_path):
    inputs = tmp_path / "in"
    a = _prof(inputs, 0)
    b = _prof(inputs, 1, index=2)
    out = merge_reports_to(inputs, tmp_path / "out", "merged")
    assert out == tmp_path / "out" / "merged.wbreport"
    merged = open_report(out)
    assert merged.devices == [0, 1]
    assert len(merged.ops) == len(open_report(a).ops) + len(open_report(b).ops)
    with pytest.raises(MergeError, match="already exists"):
        merge_reports_to(inputs, tmp_path / "out", "merged")
    with pytest.raises(MergeError, match="Output name 'a/b'"):
        merge_reports_to(inputs, tmp_path / "out", "a/b")
    with pytest.raises(MergeError, match="no PROF_"):
        merge_reports_to(tmp_path / "out", tmp_path / "out2", "x")
