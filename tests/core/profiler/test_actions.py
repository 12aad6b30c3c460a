"""The System Profiler's work functions over a host name (what the wizard, the runs panel and Import
Result start), Qt-free: probing the demo host, the checks page's command, run / re-run / delete."""

from __future__ import annotations

import sys

from workbench.core.profiler import actions
from workbench.core.profiler.history import list_runs
from workbench.core.profiler.options import LOCAL, REMOTE, ProfilingJob
from workbench.core.project import create_project, open_project


def _job(project_root) -> ProfilingJob:
    return ProfilingJob(
        run_mode=REMOTE,
        host="demo",
        project_path=str(project_root),
        executable="main.py",
        executable_type="python",
        python=sys.executable,
    )


def test_probe_finds_the_demo_hosts_simulated_toolkit_and_devices():
    probe = actions.probe_host(REMOTE, "demo", "", None, None)
    assert probe.host == "demo" and probe.simulated and probe.version and probe.toolkit
    assert probe.msprof.endswith("msprof") and probe.devices and probe.soc


def test_probe_reports_a_missing_toolkit_as_a_problem(tmp_path):
    probe = actions.probe_host(LOCAL, "", str(tmp_path / "no-toolkit"), None, None)
    assert probe.toolkit == "" and probe.problems


def test_check_gives_the_command_with_the_run_id_placeholder(app_project):
    project = create_project(app_project, name="checkapp")
    check = actions.check_job(_job(project.root), str(project.root), None, None)
    assert check.version and check.argv[0].endswith("msprof")
    assert any(actions.RUN_ID in a for a in check.argv)
    assert not [i for i in check.issues if i.blocking], check.issues


def test_run_rerun_and_delete_by_project_path(app_project):
    project = create_project(app_project, name="runapp")
    report = actions.start_profiling(_job(project.root), str(project.root), None, None)
    assert report.exists()
    (first,) = list_runs(open_project(project.root))
    again = actions.rerun(str(project.root), first.id, None, None)
    assert again.exists() and len(list_runs(open_project(project.root))) == 2
    assert actions.delete(str(project.root), first.id, False, None, None) == first.id
    assert first.id not in [r.id for r in list_runs(open_project(project.root))]
