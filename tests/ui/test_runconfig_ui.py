"""Run configurations: validated names, Local and Remote (real sshd) runs streamed to the Output
dock, Stop kills the remote process group."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sshd import SshServer, ssh_home, sshd_server  # noqa: E402,F401

from workbench.core.services.hosts import Host, HostStore  # noqa: E402
from workbench.core.services.runconfig import load_run_configurations  # noqa: E402


def make_dialog(qtbot, user, window, folder):
    """A project, Ascend ▸ Run Configurations… through its menu action, Add clicked."""
    window.create_project(folder)
    dialog = open_dialog(qtbot, window)
    user.click(dialog.add_button)
    qtbot.waitUntil(lambda: dialog.list.count() == 1 and dialog.executable.text() == "./main")
    return dialog


def output_of(window, task) -> str:
    view = window.output.view_for(task.handle.task_id)
    return "" if view is None else view.toPlainText()


def test_name_rules_and_local_run(qtbot, user, window, tmp_path):
    dialog = make_dialog(qtbot, user, window, tmp_path / "p")
    user.retype(dialog.name, "1bad name")
    user.click(dialog.save_button)
    qtbot.waitUntil(lambda: "letter first" in dialog.status.text())
    assert load_run_configurations(window.project) == [], "a bad name is not saved"
    user.retype(dialog.name, "hello_local")
    user.choose(dialog.mode, "Local")
    user.retype(dialog.executable, sys.executable)
    user.retype(
        dialog.args,
        "-c 'import os,sys; print(\"昇腾\", sys.argv[1:], os.environ[\"ASCEND_RT_VISIBLE_DEVICES\"])' 'a b' '$(x)'",
    )
    user.retype(dialog.devices, "0,3")
    user.click(dialog.save_button)
    qtbot.waitUntil(lambda: dialog.status.text() == "Saved.")
    assert load_run_configurations(window.project)[0].name == "hello_local"
    user.click(dialog.run_button)
    task = dialog.task
    assert task is not None, dialog.status.text()
    # the finished flag is set on the worker thread before the GUI has the output lines: wait for the text
    expected = "昇腾 ['a b', '$(x)'] 0,3"
    qtbot.waitUntil(lambda: expected in output_of(window, task), timeout=30000)
    qtbot.waitUntil(lambda: dialog.status.text() == "Exited with status 0.", timeout=30000)
    assert task.handle.result.exit_status == 0


def test_remote_run_stop_kills_process_group(qtbot, user, window, sshd_server, ssh_home, tmp_path):
    HostStore().add(sshd_server.host("loop"))
    dialog = make_dialog(qtbot, user, window, tmp_path / "q")
    user.retype(dialog.name, "sleepy")
    user.choose(dialog.host, dialog.host.itemText(dialog.host.findData("loop")))
    assert dialog.host.currentData() == "loop"
    user.retype(dialog.executable, "bash")
    marker = f"300.{time.time_ns() % 10**9}"  # a unique sleep length to find the process with ps
    user.retype(dialog.args, f"-c 'echo started; sleep {marker}; echo never'")
    if dialog.deploy_first.isChecked():
        user.toggle(dialog.deploy_first)
    assert not dialog.deploy_first.isChecked()
    user.retype(dialog.cwd, str(tmp_path))
    user.click(dialog.run_button)
    task = dialog.task
    assert task is not None, dialog.status.text()
    qtbot.waitUntil(lambda: "started" in output_of(window, task), timeout=30000)
    import subprocess

    assert marker in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    user.click(dialog.stop_button)
    qtbot.waitUntil(lambda: dialog.status.text() == "Stopped.", timeout=30000)
    assert task.state.value == "cancelled"
    qtbot.waitUntil(lambda: "Cancelled." in output_of(window, task), timeout=5000)
    deadline = time.time() + 10
    while (
        time.time() < deadline
        and marker in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    ):
        time.sleep(0.2)
    assert marker not in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout


# --- as the user clicks it ---------------------------------------------------------------------------


def open_dialog(qtbot, window):
    """Ascend ▸ Run Configurations… through its menu action; the dialog it opened."""
    from workbench.ui.hosts.runconfig_dialog import RunConfigurationsDialog

    window.menu_entries()["Ascend/Run Configurations…"].trigger()
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(RunConfigurationsDialog)))
    dialog = next(d for d in window.findChildren(RunConfigurationsDialog) if d.isVisible())
    qtbot.addWidget(dialog)
    return dialog


def retype(qtbot, field, text: str) -> None:
    """Select what the field holds and type over it, as a user does."""
    from PySide6.QtCore import Qt

    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(field, text)


def test_save_keeps_the_typed_fields_and_run_runs_them(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    window.create_project(tmp_path / "typed")
    dialog = open_dialog(qtbot, window)
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert dialog.executable.text() == "./main"
    retype(qtbot, dialog.name, "typed_run")
    retype(qtbot, dialog.executable, "sh")
    retype(qtbot, dialog.args, "-c 'echo typed $((6*7)) \"$0\"' from-the-form")
    dialog.mode.setFocus()
    qtbot.keyClicks(dialog.mode, "Local")  # keyboard search in the combo, as a user picks it
    assert dialog.mode.currentData() == "Local"
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.status.text() == "Saved.")
    # the form still shows what was typed, and that is what the project holds
    assert (dialog.name.text(), dialog.executable.text()) == ("typed_run", "sh")
    assert dialog.list.item(0).text() == "typed_run  (Local)"
    saved = load_run_configurations(window.project)
    assert [(c.name, c.executable, c.args, c.mode) for c in saved] == [
        ("typed_run", "sh", ["-c", 'echo typed $((6*7)) "$0"', "from-the-form"], "Local")
    ]
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    task = dialog.task
    assert task is not None, dialog.status.text()
    qtbot.waitUntil(lambda: "typed 42 from-the-form" in window.output.view_for(task.handle.task_id).toPlainText())
    qtbot.waitUntil(lambda: dialog.status.text() == "Exited with status 0.")
    assert "./main" not in window.output.view_for(task.handle.task_id).toPlainText()


def test_dialog_preselects_the_projects_host(qtbot, window, sshd_server, ssh_home, tmp_path):
    from PySide6.QtCore import Qt

    from workbench.core.project import create_project

    HostStore().add(Host(name="loop", hostname="127.0.0.1", port=sshd_server.port, user=sshd_server.user))
    project = create_project(tmp_path / "onloop")
    project.remote.host = "loop"  # as the CANN Machine dock and the Deployment dialog store it
    project.save()
    window.open_project(project.root)
    dialog = open_dialog(qtbot, window)
    assert dialog.host.currentData() == "loop", dialog.host.currentText()
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert dialog.configs[-1].host == "loop" and dialog.host.currentData() == "loop"


def test_run_configuration_list_is_translated(qtbot, zh_window, tmp_path):
    from workbench.core.project import create_project
    from workbench.core.services.runconfig import RunConfiguration, save_run_configurations

    project = create_project(tmp_path / "zh")
    save_run_configurations(
        project,
        [RunConfiguration("run1", "./main", host="demo"), RunConfiguration("run2", "./main", mode="Local")],
    )
    zh_window.open_project(project.root)
    from workbench.ui.hosts.runconfig_dialog import RunConfigurationsDialog

    zh_window.act_runconfigs.trigger()
    qtbot.waitUntil(lambda: any(d.isVisible() for d in zh_window.findChildren(RunConfigurationsDialog)))
    dialog = next(d for d in zh_window.findChildren(RunConfigurationsDialog) if d.isVisible())
    qtbot.addWidget(dialog)
    assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == ["run1  （远端）", "run2  （本地）"]


def test_closing_a_running_jobs_output_tab_loses_no_other_output(qtbot, user, window, tmp_path):
    """Close the Output tab of a run that still prints, Stop it, run again: the new run's output,
    to its last line, is in its own tab (before, the closed tab's next line failed the dock's
    batch insert on the deleted view, and every line queued with it was lost)."""
    from PySide6.QtWidgets import QTabBar

    dialog = make_dialog(qtbot, user, window, tmp_path / "tabs")
    user.retype(dialog.name, "chatty")
    user.choose(dialog.mode, "Local")
    user.retype(dialog.executable, "sh")
    user.retype(dialog.args, "-c 'echo first; while :; do echo tick; sleep 0.02; done'")
    user.click(dialog.run_button)
    chatty = dialog.task
    assert chatty is not None, dialog.status.text()
    qtbot.waitUntil(lambda: "tick" in output_of(window, chatty), timeout=30000)
    tabs = window.output.tabs
    index = tabs.indexOf(window.output.view_for(chatty.handle.task_id))
    user.click(tabs.tabBar().tabButton(index, QTabBar.ButtonPosition.RightSide))
    qtbot.waitUntil(lambda: window.output.view_for(chatty.handle.task_id) is None)
    assert all(tabs.tabText(i) != "Run chatty" for i in range(tabs.count()))
    user.click(dialog.stop_button)
    qtbot.waitUntil(lambda: dialog.status.text() == "Stopped.", timeout=30000)
    user.retype(dialog.args, "-c 'for i in 1 2 3; do echo line$i; done; echo last line'")
    user.click(dialog.run_button)
    quiet = dialog.task
    assert quiet is not None and quiet is not chatty, dialog.status.text()
    qtbot.waitUntil(lambda: "last line" in output_of(window, quiet), timeout=30000)
    qtbot.waitUntil(lambda: dialog.status.text() == "Exited with status 0.", timeout=30000)
    assert output_of(window, quiet).splitlines()[-4:-1] == ["line2", "line3", "last line"]
