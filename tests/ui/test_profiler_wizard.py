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


def label(combo, value: str) -> str:
    """The label a user reads for the item holding ``value``."""
    index = combo.findData(value)
    assert index >= 0, f"no item for {value!r}"
    return combo.itemText(index)


def click_next(user, w, to) -> None:
    """Click Next; the wizard shows the page ``to``."""
    page = w.currentPage()
    user.click(w.button(QWizard.WizardButton.NextButton))
    assert w.currentPage() is to, page.error.text()


def click_back(user, w, to) -> None:
    """Click Back; the wizard shows the page ``to``."""
    user.click(w.button(QWizard.WizardButton.BackButton))
    assert w.currentPage() is to


def test_options_map_to_the_exact_msprof_command(qtbot, user, wizard, tmp_path):
    w = wizard
    assert w.exec_page.host.currentData() == "demo"
    assert w.exec_page.host.currentText() == "Demo host (simulated CANN)"
    assert w.probe.version == DEMO_CANN and w.probe.soc == DEMO_SOC and w.probe.simulated
    assert w.exec_page.toolkit.text() == str(ensure_demo_toolkit())  # filled from the host
    shot(w, "1-project")
    e = w.exec_page
    click_next(user, w, e)
    assert not e.python_note.isVisibleTo(w)
    user.choose(e.executable_type, label(e.executable_type, "python"))
    assert e.executable_type.currentData() == "python"
    assert e.python_note.isVisibleTo(w) and "absolute paths" in e.python_note.text()
    script = tmp_path / "infer.py"
    script.write_text("print('ok')\n")
    user.retype(e.executable, str(script))
    user.retype(e.python, sys.executable)  # shown for a Python script only: typing needs it visible
    user.retype(e.args, "--loops 3 'a b'")
    user.retype(e.env, "MY_FLAG=1")
    user.retype(e.devices, "1,3")
    shot(w, "2-executable")
    o = w.options_page
    click_next(user, w, o)
    offered = [o.aic_metrics.itemData(i) for i in range(o.aic_metrics.count())]
    assert offered == list(metric_groups(DEMO_SOC)) and "L2Cache" in offered  # the chip's groups only
    assert not o.aic_freq.isEnabled()  # task-based: no sampling frequency
    user.set_checked(o.sample_based, True)
    user.choose(o.aic_metrics, "MemoryAccess")
    user.retype(o.aic_freq, "50")  # typing needs it enabled: Sample-based enables it
    assert o.aic_freq.value() == 50
    user.step_to(o.task_time, label(o.task_time, "l2"))  # every label starts with "Level"
    for box in (o.runtime_api, o.aicpu, o.msproftx, o.sys_hardware_mem, o.host_sys["network"], o.host_sys["cpu"]):
        user.set_checked(box, True)
    user.retype(o.sys_hardware_mem_freq, "20")  # enabled by Device memory
    assert o.sys_hardware_mem_freq.value() == 20
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
    user.set_checked(o.runtime_api, False)
    assert "--runtime-api=off" in o.preview.command()
    user.set_checked(o.runtime_api, True)
    assert shlex.split(o.preview.command()) == preview
    go_to_checks(qtbot, w)
    result = w.check_page.result
    argv = msprof_command(expected, DEMO_CANN, output=result.remote_base + "/RUN_ID", msprof=demo_msprof())
    assert result.argv == argv
    assert shlex.split(w.check_page.command.command()) == argv
    assert w.check_page.command.copy() == shlex.join(argv)
    assert QGuiApplication.clipboard().text() == shlex.join(argv)
    assert w.check_page.isComplete() and w.button(QWizard.WizardButton.FinishButton).isEnabled()
    shot(w, "4-checks")


def test_missing_os_runtime_tools_block_the_start(qtbot, user, wizard, fake_path):
    bare, full = fake_path
    w = wizard
    e, o = w.exec_page, w.options_page
    click_next(user, w, e)
    user.retype(e.executable, "/bin/true")
    user.retype(e.env, f"PATH={bare}")
    click_next(user, w, o)
    user.set_checked(o.os_runtime_api, True)
    user.set_checked(o.host_sys["disk"], True)
    assert "--host-sys=disk,osrt" in o.preview.command()
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
    click_back(user, w, o)
    user.set_checked(o.host_sys["disk"], False)
    assert "--host-sys=osrt" in o.preview.command()
    click_back(user, w, e)
    user.retype(e.env, f"PATH={full}")
    go_to_checks(qtbot, w)
    assert w.check_page.blocking() == [] and w.check_page.isComplete()
    assert w.button(QWizard.WizardButton.FinishButton).isEnabled()


def test_bad_fields_are_named_on_their_page(qtbot, user, wizard):
    w = wizard
    p, e = w.project_page, w.exec_page
    next_button = w.button(QWizard.WizardButton.NextButton)
    user.retype(p.name, "bad name!")
    user.click(next_button)
    assert w.currentPage() is p and "'name'" in p.error.text()
    user.retype(p.name, "ok_name")
    click_next(user, w, e)
    user.retype(e.executable, "")
    user.click(next_button)
    assert w.currentPage() is e and "'executable'" in e.error.text()
    user.retype(e.executable, "./main")
    user.retype(e.env, "1BAD=x")
    user.click(next_button)
    assert w.currentPage() is e and "1BAD" in e.error.text()


def _processes(needle: str) -> list[str]:
    import subprocess

    out = subprocess.run(["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if needle in line and "ps -ww" not in line]


def test_cancel_stops_msprof_and_the_app(qtbot, user, wizard, window, tmp_path):
    from PySide6.QtCore import Qt

    app = tmp_path / "sleepy_ui_4c1.py"
    app.write_text("import time\nprint('sleepy started', flush=True)\ntime.sleep(300)\n")
    w = wizard
    e = w.exec_page
    first = w.currentPage()
    user.click(w.button(QWizard.WizardButton.NextButton))
    assert w.currentPage() is e is not first, w.project_page.error.text()
    user.choose(e.executable_type, label(e.executable_type, "python"))
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
    # the Tasks dock (tabbed behind Output): its tab, then Cancel on the run's row
    user.dock_tab(window, "Tasks")
    tasks = window.tasks
    rows = tasks.tree.findItems(task.title, Qt.MatchFlag.MatchExactly, tasks.COL_TITLE)
    assert len(rows) == 1, [tasks.tree.topLevelItem(i).text(0) for i in range(tasks.tree.topLevelItemCount())]
    tasks.tree.scrollToItem(rows[0])
    cancel = tasks.tree.itemWidget(rows[0], tasks.COL_ACTION)
    assert cancel.text() == "Cancel"
    user.click(cancel)
    qtbot.waitUntil(lambda: rows[0].text(tasks.COL_STATUS) == "Cancelled", timeout=60000)
    assert task.state.value == "cancelled"
    assert not cancel.isVisible()
    qtbot.waitUntil(lambda: _processes(app.name) == [], timeout=10000)
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
    from workbench.core.services.hosts import HostStore

    HostStore().add(sshd_server.host("loop"))
    project = create_project(tmp_path / "onloop")
    project.remote.host = "loop"
    project.save()
    window.open_project(project.root)
    w = open_from_menu(qtbot, window)
    assert w.exec_page.host.currentData() == "loop", w.exec_page.host.currentText()
    probed(qtbot, w)
    assert w.probe is not None and w.probe.host == "loop", w.exec_page.host_info.text()
    w.reject()


def test_host_and_field_errors_move_nothing(qtbot, user, window, tmp_path):
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
    user.focus(e.host)
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
