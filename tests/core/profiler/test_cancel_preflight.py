"""Cancel stops msprof and the application on the host (checked with ps); checks before starting:
missing perf/ltrace/iotop, chip metric groups, devices, Python script warnings."""

from __future__ import annotations

import sys
import threading
import time

import pytest
from conftest import NEW, OLD

from workbench.core.profiler.options import ProfilingJob
from workbench.core.profiler.preflight import preflight, python_script_issues
from workbench.core.profiler.run import ProfilerError, profile
from workbench.core.services.toolkit import detect_toolkit
from workbench.core.tasks import Cancelled, CancelToken


class _WaitFor:
    """Progress that signals when a line containing ``text`` streams in."""

    def __init__(self, text: str) -> None:
        self.text, self.seen, self.lines = text, threading.Event(), []

    def status(self, text):
        pass

    def fraction(self, value):
        pass

    def partial(self, item):
        self.lines.append(item)
        if isinstance(item, tuple) and self.text in str(item[1]):
            self.seen.set()


def _processes(transport, needle: str) -> list[str]:
    out = transport.run(["ps", "-ww", "-eo", "pid,pgid,stat,args"]).check().stdout
    return [line for line in out.splitlines()[1:] if needle in line and " ps -ww" not in line]


def test_cancel_leaves_no_msprof_or_app_process(sim_toolkits, ssh_transport, ssh_host, tmp_path):
    app = tmp_path / "sleepy_app_7f3.py"
    app.write_text("import time\nprint('sleepy started', flush=True)\ntime.sleep(300)\n")
    job = ProfilingJob(
        host=ssh_host.name,
        executable=str(app),
        executable_type="python",
        python=sys.executable,
        toolkit=str(sim_toolkits[NEW]),
        remote_output=str(tmp_path / "ro"),
    )
    progress, cancel, errors = _WaitFor("sleepy started"), CancelToken(), []

    def work():
        try:
            profile(job, ssh_transport, results_dir=tmp_path / "results", progress=progress, cancel=cancel)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            errors.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    assert progress.seen.wait(120), progress.lines
    running = _processes(ssh_transport, app.name)
    assert any("msprof" in line for line in running) and len(running) >= 2, running  # msprof + the app
    cancel.cancel()
    worker.join(60)
    assert not worker.is_alive()
    assert len(errors) == 1 and isinstance(errors[0], Cancelled), errors
    # the transport's process-group kill stopped both: the sweep after it found nothing to kill
    assert not any("left after cancelling" in str(item) for item in progress.lines)
    left = _processes(ssh_transport, app.name)
    deadline = time.monotonic() + 10  # a killed process may take a moment to be reaped
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = _processes(ssh_transport, app.name)
    assert left == []
    assert not (tmp_path / "results").exists()


def test_missing_os_runtime_dependencies_are_reported_before_starting(
    sim_toolkits, ssh_transport, ssh_host, tmp_path, fake_path
):
    bare, full = fake_path
    job = ProfilingJob(
        host=ssh_host.name,
        executable="/bin/true",
        toolkit=str(sim_toolkits[NEW]),
        os_runtime_api=True,
        host_sys=["cpu", "disk"],
        env={"PATH": str(bare)},
        remote_output=str(tmp_path / "ro"),
    )
    toolkit = detect_toolkit(ssh_transport, job.toolkit)
    issues = {i.field: i for i in preflight(job, ssh_transport, toolkit) if i.blocking}
    osrt = issues["os_runtime_api"].message
    assert "perf and ltrace" in osrt and "apt-get install ltrace" in osrt and "linux-tools" in osrt
    assert "iotop" in issues["host_sys"].message and "apt-get install iotop" in issues["host_sys"].message
    with pytest.raises(ProfilerError) as info:
        profile(job, ssh_transport, toolkit, results_dir=tmp_path / "results")
    assert {i.field for i in info.value.issues} == {"os_runtime_api", "host_sys"}
    assert not (tmp_path / "ro").exists()  # msprof never started

    job.env = {"PATH": str(full)}
    job.host_sys = ["cpu"]
    assert [i for i in preflight(job, ssh_transport, toolkit) if i.blocking] == []


def test_chip_metric_groups_and_devices_are_checked_on_the_host(sim_toolkits, ssh_transport, ssh_host):
    old = detect_toolkit(ssh_transport, str(sim_toolkits[OLD]))  # Ascend910: no L2Cache
    new = detect_toolkit(ssh_transport, str(sim_toolkits[NEW]))  # Ascend910B2 (A2): L2Cache
    job = ProfilingJob(host=ssh_host.name, executable="/bin/true", aic_metrics="L2Cache", devices=[1, 5])
    by_field = {i.field: i for i in preflight(job, ssh_transport, old)}
    assert by_field["aic_metrics"].blocking and "not available on Ascend910A" in by_field["aic_metrics"].message
    assert by_field["devices"].blocking and "device(s) 5 not on" in by_field["devices"].message
    job.devices = [1]
    assert [i for i in preflight(job, ssh_transport, new) if i.blocking] == []


def test_option_combinations_are_explained(sim_toolkits, ssh_transport, ssh_host):
    old = detect_toolkit(ssh_transport, str(sim_toolkits[OLD]))
    new = detect_toolkit(ssh_transport, str(sim_toolkits[NEW]))
    job = ProfilingJob(host=ssh_host.name, executable="/bin/true", task_time="l0", graph_engine=True)
    new_msgs = [i.message for i in preflight(job, ssh_transport, new)]
    assert any("no PMU columns" in m for m in new_msgs) and any("Graph Engine" in m for m in new_msgs)
    old_msgs = [i.message for i in preflight(job, ssh_transport, old)]
    assert any("CANN 6.0.1 has no task-time levels; l0 runs as --task-time=on" in m for m in old_msgs)


def test_python_script_warnings():
    text = (
        "import acl\nimport numpy as np\n\nMODEL = './model/resnet50.om'\nLABELS = '/data/labels.txt'\n"
        "ret = acl.rt.memcpy_async(dst, 8, src, 8, kind, stream)\nacl.mdl.execute_async(m, i, o, s)\n"
    )
    issues = python_script_issues("main.py", text)
    messages = " | ".join(i.message for i in issues)
    assert "line 6: acl.rt.memcpy_async" in messages and "line 7: acl.mdl.execute_async" in messages
    assert "line 4: './model/resnet50.om'" in messages and "labels.txt" not in messages
    assert "absolute paths" in messages
    plain = python_script_issues("x.py", "print('no acl here')\n")
    assert plain == []
    clean_acl = python_script_issues("x.py", "import acl\nMODEL = '/opt/m.om'\n")
    assert [i.level for i in clean_acl] == ["info"] and "absolute paths" in clean_acl[0].message


def test_preflight_reads_the_projects_python_script(sim_toolkits, ssh_transport, ssh_host, tmp_path):
    (tmp_path / "infer.py").write_text("import acl\nacl.rt.launch_callback(fn, 0, 1, s)\nM = 'm.om'\n")
    toolkit = detect_toolkit(ssh_transport, str(sim_toolkits[NEW]))
    job = ProfilingJob(host=ssh_host.name, project_path=str(tmp_path), executable="infer.py", executable_type="python")
    warnings = [i for i in preflight(job, ssh_transport, toolkit) if i.field == "executable"]
    assert len(warnings) == 2 and all(i.level == "warning" for i in warnings)
    assert str(tmp_path / "infer.py") in warnings[0].message


def test_leftover_process_groups_are_found_and_killed(tmp_path):
    """The sweep after a cancel: finds every process of a group whose member names the marker."""
    import subprocess

    from workbench.core.profiler.run import kill_leftovers, leftover_processes
    from workbench.core.services.transport import LocalTransport

    marker = str(tmp_path / "run-marker-91c")
    proc = subprocess.Popen(
        ["bash", "-c", f"sleep 300 & exec {sys.executable} -c 'import time; time.sleep(300)' {marker}"],
        start_new_session=True,
    )
    try:
        tr = LocalTransport()
        deadline = time.monotonic() + 10
        found = leftover_processes(tr, marker)
        while len(found) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            found = leftover_processes(tr, marker)
        assert {pgid for _, pgid, _ in found} == {proc.pid} and len(found) >= 2  # both sleeps of the group
        assert [pid for pid, _, _ in kill_leftovers(tr, marker)]
        proc.wait(10)
        deadline = time.monotonic() + 10
        while leftover_processes(tr, marker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert leftover_processes(tr, marker) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
