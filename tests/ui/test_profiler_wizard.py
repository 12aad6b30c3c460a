"""New Profiling wizard on the demo host: the options map to the exact msprof command (checked
against core msprof_command for a job built independently), metric groups follow the host's chip,
missing perf/ltrace/iotop are reported before starting, and the Python-script note is shown.

Set PROFILER_SCREENSHOTS=<folder> to save a screenshot of every page there."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWizard

from workbench.core.profiler.chips import metric_groups
from workbench.core.profiler.command import msprof_command
from workbench.core.profiler.options import ProfilingJob
from workbench.core.services.toolkit import detect_toolkit
from workbench.core.services.transport import LocalTransport
from workbench.simtoolkit.demo import DEMO_CANN, DEMO_SOC, ensure_demo_toolkit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (no __init__.py)
from sshd import SshServer, ssh_home, sshd_server  # noqa: E402,F401

SHOTS = os.environ.get("PROFILER_SCREENSHOTS")


def shot(widget, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(SHOTS) / f"profiler-{name}.png"))


@pytest.fixture
def wizard(qtbot, user, window, tmp_path):
    """Ascend ▸ System Profiler ▸ New Profiling… (its menu action), the results folder typed in."""
    w = open_from_menu(qtbot, window)
    user.retype(w.project_page.location, str(tmp_path / "results"))  # no project open: results go here
    qtbot.waitUntil(lambda: w.probe is not None, timeout=60000)
    yield w
    w.reject()


def demo_msprof() -> str:
    return detect_toolkit(LocalTransport(), str(ensure_demo_toolkit())).tools["msprof"]


def go_to_checks(qtbot, w) -> None:
    """Click Next until the Checks page; wait for its result."""
    from PySide6.QtCore import Qt

    while w.currentPage() is not w.check_page:
        page = w.currentPage()
        next_button = w.button(QWizard.WizardButton.NextButton)
        qtbot.waitUntil(lambda b=next_button: b.isVisible() and b.isEnabled())
        qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)
        assert w.currentPage() is not page, page.error.text()
    qtbot.waitUntil(lambda: w.check_page.result is not None, timeout=60000)


def test_options_map_to_the_exact_msprof_command(qtbot, wizard, tmp_path):
    w = wizard
    assert w.exec_page.host.currentData() == "demo"
    assert w.exec_page.host.currentText() == "Demo host (simulated CANN)"
    assert w.probe.version == DEMO_CANN and w.probe.soc == DEMO_SOC and w.probe.simulated
    assert w.exec_page.toolkit.text() == str(ensure_demo_toolkit())  # filled from the host
    shot(w, "1-project")
    w.next()
    e = w.exec_page
    e.executable_type.setCurrentIndex(e.executable_type.findData("python"))
    assert e.python_note.isVisibleTo(w) and "absolute paths" in e.python_note.text()
    script = tmp_path / "infer.py"
    script.write_text("print('ok')\n")
    e.executable.setText(str(script))
    e.python.setText(sys.executable)
    e.args.setText("--loops 3 'a b'")
    e.env.setPlainText("MY_FLAG=1")
    e.devices.setText("1,3")
    shot(w, "2-executable")
    w.next()
    o = w.options_page
    offered = [o.aic_metrics.itemData(i) for i in range(o.aic_metrics.count())]
    assert offered == list(metric_groups(DEMO_SOC)) and "L2Cache" in offered  # the chip's groups only
    o.sample_based.setChecked(True)
    o.aic_metrics.setCurrentIndex(o.aic_metrics.findData("MemoryAccess"))
    o.aic_freq.setValue(50)
    o.task_time.setCurrentIndex(o.task_time.findData("l2"))
    o.runtime_api.setChecked(True)
    o.aicpu.setChecked(True)
    o.msproftx.setChecked(True)
    o.sys_hardware_mem.setChecked(True)
    o.sys_hardware_mem_freq.setValue(20)
    o.host_sys["network"].setChecked(True)
    o.host_sys["cpu"].setChecked(True)
    expected = ProfilingJob(
        host="demo",
        executable=str(script),
        executable_type="python",
        python=sys.executable,
        args=["--loops", "3", "a b"],
        env={"MY_FLAG": "1"},
        devices=[1, 3],
        aic_mode="sample-based",
        aic_metrics="MemoryAccess",
        aic_freq=50,
        task_time="l2",
        runtime_api=True,
        aicpu=True,
        msproftx=True,
        sys_hardware_mem=True,
        sys_hardware_mem_freq=20,
        host_sys=["cpu", "network"],
    )
    # the live preview follows every change
    preview = msprof_command(expected, DEMO_CANN, output="OUTPUT_DIR", msprof=demo_msprof())
    assert shlex.split(o.preview.command()) == preview
    assert "--aic-freq=50" in preview and "--sys-hardware-mem-freq=20" in preview
    assert "--host-sys=cpu,network" in preview
    shot(w, "3-options")
    o.runtime_api.setChecked(False)
    assert "--runtime-api=off" in o.preview.command()
    o.runtime_api.setChecked(True)
    go_to_checks(qtbot, w)
    result = w.check_page.result
    argv = msprof_command(expected, DEMO_CANN, output=result.remote_base + "/RUN_ID", msprof=demo_msprof())
    assert result.argv == argv
    assert shlex.split(w.check_page.command.command()) == argv
    assert w.check_page.command.copy() == shlex.join(argv)
    assert QGuiApplication.clipboard().text() == shlex.join(argv)
    assert w.check_page.isComplete() and w.button(QWizard.WizardButton.FinishButton).isEnabled()
    shot(w, "4-checks")


def test_missing_os_runtime_tools_block_the_start(qtbot, wizard, fake_path):
    bare, full = fake_path
    w = wizard
    w.next()
    w.exec_page.executable.setText("/bin/true")
    w.exec_page.env.setPlainText(f"PATH={bare}")
    w.next()
    w.options_page.os_runtime_api.setChecked(True)
    w.options_page.host_sys["disk"].setChecked(True)
    assert "--host-sys=disk,osrt" in w.options_page.preview.command()
    go_to_checks(qtbot, w)
    blocking = {i.field: i.message for i in w.check_page.blocking()}
    assert set(blocking) == {"os_runtime_api", "host_sys"}
    assert "perf and ltrace" in blocking["os_runtime_api"] and "apt-get install ltrace" in blocking["os_runtime_api"]
    assert "iotop" in blocking["host_sys"]
    shown = [w.check_page.issues.item(i).text() for i in range(w.check_page.issues.count())]
    assert any(t.startswith("Error: ") and "perf and ltrace" in t for t in shown)
    assert not w.check_page.isComplete()
    assert not w.button(QWizard.WizardButton.FinishButton).isEnabled()
    shot(w, "5-checks-missing-tools")
    # give the tools, drop disk sampling: the checks pass
    w.back()
    w.options_page.host_sys["disk"].setChecked(False)
    w.back()
    w.exec_page.env.setPlainText(f"PATH={full}")
    go_to_checks(qtbot, w)
    assert w.check_page.blocking() == [] and w.check_page.isComplete()


def test_bad_fields_are_named_on_their_page(qtbot, wizard):
    w = wizard
    w.project_page.name.setText("bad name!")
    w.next()
    assert w.currentPage() is w.project_page and "'name'" in w.project_page.error.text()
    w.project_page.name.setText("ok_name")
    w.next()
    assert w.currentPage() is w.exec_page
    w.exec_page.executable.setText("")
    w.next()
    assert w.currentPage() is w.exec_page and "'executable'" in w.exec_page.error.text()
    w.exec_page.executable.setText("./main")
    w.exec_page.env.setPlainText("1BAD=x")
    w.next()
    assert w.currentPage() is w.exec_page and "1BAD" in w.exec_page.error.text()


def _processes(needle: str) -> list[str]:
    import subprocess

    out = subprocess.run(["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if needle in line and "ps -ww" not in line]


def test_cancel_stops_msprof_and_the_app(qtbot, user, wizard, window, tmp_path):
    import time

    app = tmp_path / "sleepy_ui_4c1.py"
    app.write_text("import time\nprint('sleepy started', flush=True)\ntime.sleep(300)\n")
    w = wizard
    e = w.exec_page
    first = w.currentPage()
    user.click(w.button(QWizard.WizardButton.NextButton))
    assert w.currentPage() is e is not first, w.project_page.error.text()
    user.choose(e.executable_type, e.executable_type.itemText(e.executable_type.findData("python")))
    assert e.executable_type.currentData() == "python"
    user.retype(e.executable, str(app))
    user.retype(e.python, sys.executable)
    go_to_checks(qtbot, w)
    start = w.button(QWizard.WizardButton.FinishButton)
    with qtbot.waitSignal(window.context.bridge.task_started, timeout=60000) as started:
        user.click(start, timeout=60000)  # "Start", enabled once the checks passed
    task = started.args[0]
    assert task is w.task
    qtbot.waitUntil(
        lambda: "sleepy started" in window.output.view_for(task.handle.task_id).toPlainText(), timeout=60000
    )
    running = _processes(app.name)
    assert any("msprof" in line for line in running) and len(running) >= 2, running  # msprof + the app
    task.cancel()  # what the Tasks dock's Cancel does
    qtbot.waitUntil(lambda: task.state.finished, timeout=60000)
    assert task.state.value == "cancelled"
    deadline = time.monotonic() + 10
    while _processes(app.name) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes(app.name) == []
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").rglob("PROF_*"))


# --- as the user clicks it ---------------------------------------------------------------------------


def open_from_menu(qtbot, window):
    """Ascend ▸ System Profiler ▸ New Profiling… through its menu action; the wizard it opened."""
    from workbench.ui.profiler.wizard import NewProfilingWizard

    window.menu_entries()["Ascend/System Profiler/New Profiling…"].trigger()
    qtbot.waitUntil(lambda: any(w.isVisible() for w in window.findChildren(NewProfilingWizard)))
    w = next(w for w in window.findChildren(NewProfilingWizard) if w.isVisible())
    qtbot.addWidget(w)
    return w


def probed(qtbot, w) -> None:
    qtbot.waitUntil(lambda: w.probe_task is not None and w.probe_task.state.finished, timeout=60000)


def geometry(widget, top):
    """Where ``widget`` is inside its window, after pending layout changes are applied."""
    from PySide6.QtCore import QPoint, QRect
    from PySide6.QtWidgets import QApplication

    for _ in range(3):
        QApplication.processEvents()
    return QRect(widget.mapTo(top, QPoint(0, 0)), widget.size())


def test_wizard_preselects_the_projects_host(qtbot, window, sshd_server, ssh_home, tmp_path):
    from workbench.core.project import create_project
    from workbench.core.services.hosts import Host, HostStore

    HostStore().add(
        Host(
            name="loop",
            hostname="127.0.0.1",
            port=sshd_server.port,
            user=sshd_server.user,
            auth="key",
            key_file=str(sshd_server.client_key),
        )
    )
    project = create_project(tmp_path / "onloop")
    project.remote.host = "loop"
    project.save()
    window.open_project(project.root)
    w = open_from_menu(qtbot, window)
    assert w.exec_page.host.currentData() == "loop", w.exec_page.host.currentText()
    probed(qtbot, w)
    assert w.probe is not None and w.probe.host == "loop", w.exec_page.host_info.text()
    w.reject()


def test_host_and_field_errors_move_nothing(qtbot, window, tmp_path):
    import socket

    from PySide6.QtCore import Qt

    from workbench.core.services.hosts import Host, HostStore

    with socket.socket() as s:  # a port nobody listens on: the check fails at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    HostStore().add(Host(name="gone", hostname="127.0.0.1", port=port, user="nobody"))
    w = open_from_menu(qtbot, window)
    probed(qtbot, w)
    qtbot.keyClicks(w.project_page.name, "moves")
    qtbot.keyClicks(w.project_page.location, str(tmp_path / "results"))
    next_button = w.button(QWizard.WizardButton.NextButton)
    qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)
    e = w.exec_page
    assert w.currentPage() is e, w.project_page.error.text()
    watched = (next_button, e.project_path, e.executable, e.devices)
    before = [geometry(x, w) for x in watched]
    # the host check fails: its message appears under the host, the fields below stay put
    e.host.setFocus()
    qtbot.keyClicks(e.host, "gone")
    assert e.host.currentData() == "gone"
    qtbot.waitUntil(lambda: e.host_info.text().startswith("Could not check the host"), timeout=60000)
    assert "gone" in e.host_info.text() and "workbench." not in e.host_info.text(), e.host_info.text()
    assert [geometry(x, w) for x in watched] == before, "the host's error moved the fields below it"
    # a wrong field: the page's error appears, Next and the fields stay put
    qtbot.keyClicks(e.executable, "./main")
    qtbot.keyClicks(e.devices, "0,x")
    qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)
    assert w.currentPage() is e and "Devices" in e.error.text()
    assert [geometry(x, w) for x in watched] == before, "the page's error moved Next or a field"
    w.reject()
