"""End to end through the real sshd and simulated toolkits of an old (6.0.1, summary/timeline)
and a new (8.0.RC1, mindstudio_profiler_output) CANN: deploy, profile a Python app, export,
download, open; op statistics equal what the host's msprof wrote; history, re-run, delete."""

from __future__ import annotations

import csv
import io
import sys
from collections import defaultdict

import pytest
from conftest import NEW, OLD

from workbench.core.profiler.history import delete_run, list_runs, rerun
from workbench.core.profiler.options import ProfilingJob
from workbench.core.profiler.run import profile, run_profiling
from workbench.core.profiling import stats
from workbench.core.profiling.build import open_report
from workbench.core.project import create_project, open_project
from workbench.core.tasks import RecordingProgress


def remote_op_totals(transport, prof: str, device: int, legacy: bool) -> dict[str, tuple[int, float]]:
    """OP type -> (count, total µs) straight from the op_summary CSV the host's msprof wrote."""
    folder = f"{prof}/device_{device}/summary" if legacy else f"{prof}/mindstudio_profiler_output"
    names = [n for n in transport.listdir(folder) if n.startswith("op_summary_") and n.endswith(".csv")]
    assert len(names) == 1, names
    out: dict[str, list] = defaultdict(lambda: [0, 0.0])
    for row in csv.DictReader(io.StringIO(transport.read_text(f"{folder}/{names[0]}"))):
        key = row["OP Type"] if row["OP Type"] not in ("", "N/A") else row["Op Name"]
        out[key][0] += 1
        out[key][1] += float(row["Task Duration(us)"])
    return {k: (n, t) for k, (n, t) in out.items()}


def report_op_totals(report) -> dict[str, tuple[int, float]]:
    table = stats.op_statistics(report.ops, "type")
    out: dict[str, list] = defaultdict(lambda: [0, 0.0])
    for key, count, total in zip(table["key"], table["count"], table["total_us"]):
        out[str(key)][0] += int(count)
        out[str(key)][1] += float(total)
    return {k: (n, t) for k, (n, t) in out.items()}


@pytest.fixture
def project(app_project, tmp_path):
    p = create_project(app_project, name="demoapp")
    p.remote.remote_path = str(tmp_path / "remote" / "demoapp")  # absolute: never the server user's home
    p.save()
    return p


@pytest.mark.parametrize("version", [NEW, OLD])
def test_profile_deploys_runs_fetches_and_records(version, sim_toolkits, project, ssh_transport, ssh_host, tmp_path):
    job = ProfilingJob(
        host=ssh_host.name,
        project_path=str(project.root),
        executable="main.py",
        executable_type="python",
        python=sys.executable,
        args=["x1"],
        toolkit=str(sim_toolkits[version]),
        devices=[1],
        env={"MY_VAR": "1"},
    )
    progress = RecordingProgress()
    run = profile(job, ssh_transport, progress=progress)
    lines = [item for kind, item in progress.events if kind == "partial"]
    assert ("stdout", "app says hello x1\n") in lines and ("stderr", "app warns\n") in lines
    assert any(s == "stdout" and "Profiling finished" in text for s, text in lines)

    # deployed, ran there, output kept under the remote project folder
    remote_root = project.remote.remote_path
    assert ssh_transport.exists(f"{remote_root}/main.py")
    assert not ssh_transport.exists(f"{remote_root}/.ascend-workbench/project.json")  # excluded from deploy
    assert run.remote_dir == f"{remote_root}/.ascend-workbench/msprof-output/{run.id}"
    assert len(run.prof_dirs) == 1 and run.prof_dirs[0].startswith(run.remote_dir + "/PROF_")
    assert run.cann_version == version and run.command[0].endswith("/tools/profiler/bin/msprof")

    # only what the views need came back, into the project's results, and it opens
    local = run.report(project.root)
    assert local.parent == project.root / ".ascend-workbench" / "profiling" / run.id
    assert local.name.startswith("PROF_")
    files = {p.relative_to(local).as_posix() for p in local.rglob("*") if p.is_file()}
    assert not any("/data/" in f or f.startswith(("host/data", "mindstudio_profiler_log")) for f in files)
    legacy = version == OLD
    if legacy:
        assert any(f.startswith("device_1/summary/op_summary_") for f in files)
        assert any(f.startswith("device_1/timeline/") for f in files)
    else:
        assert any(f.startswith("mindstudio_profiler_output/op_summary_") for f in files)
    assert "host/info.json" in files and "device_1/info.json.1" in files
    report = open_report(local)
    assert report.kind == run.report_kind == ("msprof-legacy" if legacy else "msprof")
    assert report.devices == [1]
    expected = remote_op_totals(ssh_transport, run.prof_dirs[0], 1, legacy)
    got = report_op_totals(report)
    assert set(got) == set(expected)
    for key, (count, total) in expected.items():
        assert got[key][0] == count and got[key][1] == pytest.approx(total, abs=1e-6), key

    # recorded in the project's history, with the options to re-run
    reopened = open_project(project.root)
    [entry] = list_runs(reopened)
    assert entry.id == run.id and entry.job() == job and entry.remote_dir == run.remote_dir
    assert entry.report_path == local.relative_to(project.root).as_posix()

    # re-run with the same options, then delete: the first locally only, the second also on the host
    second = rerun(reopened, run.id, ssh_transport)
    assert second.id != run.id and second.options == entry.options
    assert [r.id for r in list_runs(open_project(project.root))] == [run.id, second.id]
    delete_run(reopened, run.id)
    assert not local.parent.exists() and ssh_transport.exists(run.remote_dir)
    delete_run(reopened, second.id, on_host=True, transport=ssh_transport)
    assert not second.local_path(project.root).exists() and not ssh_transport.exists(second.remote_dir)
    assert ssh_transport.exists(run.remote_dir)
    assert list_runs(open_project(project.root)) == []


def test_run_profiling_without_a_project_returns_the_report_path(
    sim_toolkits, app_project, ssh_transport, ssh_host, tmp_path
):
    job = ProfilingJob(
        host=ssh_host.name,
        executable=str(app_project / "main.py"),
        executable_type="python",
        python=sys.executable,
        toolkit=str(sim_toolkits[NEW]),
        remote_output=str(tmp_path / "ro"),
        aic_metrics="MemoryAccess",
        cwd=str(app_project),
    )
    path = run_profiling(job, ssh_transport, results_dir=tmp_path / "results")
    assert path.parent.parent == tmp_path / "results" and path.name.startswith("PROF_")
    report = open_report(path)
    assert report.pmu_group == "MemoryAccess" and report.devices == [0]
    assert not (app_project / ".ascend-workbench").exists()


def test_a_failing_msprof_is_reported_with_its_message(sim_toolkits, ssh_transport, ssh_host, tmp_path):
    job = ProfilingJob(
        host=ssh_host.name,
        executable=str(tmp_path / "missing_app"),
        toolkit=str(sim_toolkits[NEW]),
        remote_output=str(tmp_path / "ro"),
    )
    from workbench.core.profiler.run import ProfilerError

    expected = r"msprof exited with status 255: .*App path\(.*missing_app\) does not exist"
    with pytest.raises(ProfilerError, match=expected):
        profile(job, ssh_transport, results_dir=tmp_path / "results")
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").iterdir())


def test_local_run_mode_profiles_on_this_machine(sim_toolkits, app_project, tmp_path):
    from workbench.core.profiler.history import last_job
    from workbench.core.profiler.run import open_host

    project = create_project(app_project, name="localapp")
    job = ProfilingJob(
        run_mode="Local",
        project_path=str(app_project),
        executable="main.py",
        executable_type="python",
        python=sys.executable,
        toolkit=str(sim_toolkits[OLD]),
        aic_metrics="ArithmeticUtilization",
        task_time="l2",
    )
    assert last_job(project) is None
    transport, _ = open_host(job)
    assert transport.is_local
    run = profile(job, transport)
    assert run.host == "local" and run.command[2:5] == ["--ascendcl=on", "--runtime-api=off", "--task-time=on"]
    assert run.remote_dir == f"{project.root}/.ascend-workbench/msprof-output/{run.id}"
    report = open_report(run.report(project.root))
    assert report.kind == "msprof-legacy" and report.pmu_group == "ArithmeticUtilization"
    assert last_job(open_project(project.root)) == job
