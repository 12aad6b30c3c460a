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


def make_dialog(qtbot, window, folder):
    window.create_project(folder)
    dialog = window.run_configurations_dialog()
    qtbot.addWidget(dialog)
    dialog.add_config()
    return dialog


def test_name_rules_and_local_run(qtbot, window, tmp_path):
    dialog = make_dialog(qtbot, window, tmp_path / "p")
    dialog.name.setText("1bad name")
    assert not dialog.save()
    assert "letter first" in dialog.status.text()
    dialog.name.setText("hello_local")
    dialog.mode.setCurrentIndex(dialog.mode.findData("Local"))
    dialog.executable.setText(sys.executable)
    dialog.args.setText(
        "-c 'import os,sys; print(\"昇腾\", sys.argv[1:], os.environ[\"ASCEND_RT_VISIBLE_DEVICES\"])' 'a b' '$(x)'"
    )
    dialog.devices.setText("0,3")
    assert dialog.save()
    assert load_run_configurations(window.project)[0].name == "hello_local"
    task = dialog.run()
    qtbot.waitUntil(lambda: task.state.finished, timeout=30000)
    assert task.handle.result.exit_status == 0
    text = window.output.view_for(task.handle.task_id).toPlainText()
    assert "昇腾 ['a b', '$(x)'] 0,3" in text


def test_remote_run_stop_kills_process_group(qtbot, window, sshd_server, ssh_home, tmp_path):
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
    dialog = make_dialog(qtbot, window, tmp_path / "q")
    dialog.name.setText("sleepy")
    dialog.host.setCurrentIndex(dialog.host.findData("loop"))
    dialog.executable.setText("bash")
    marker = f"300.{time.time_ns() % 10**9}"  # a unique sleep length to find the process with ps
    dialog.args.setText(f"-c 'echo started; sleep {marker}; echo never'")
    dialog.deploy_first.setChecked(False)
    dialog.cwd.setText(str(tmp_path))
    task = dialog.run()
    qtbot.waitUntil(lambda: "started" in window.output.view_for(task.handle.task_id).toPlainText(), timeout=30000)
    import subprocess

    assert marker in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    dialog.stop()
    qtbot.waitUntil(lambda: dialog.status.text() == "Stopped.", timeout=30000)
    assert task.state.value == "cancelled"
    deadline = time.time() + 10
    while (
        time.time() < deadline
        and marker in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    ):
        time.sleep(0.2)
    assert marker not in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
