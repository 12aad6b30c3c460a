"""An Atlas A3 CANN machine (the real sshd with ``sim install --soc Ascend910_9392 --devices 16``):
the converter wizard preselects the SoC the chip's board query names, or — when the chip does not
say — lists the A3 candidates and lets the user choose; the CANN Machine dock shows the 16 chips."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core" / "atc"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (no __init__.py)
from atc_models import small_cnn  # noqa: E402
from sshd import SshServer, ssh_home, sshd_server  # noqa: E402,F401

from workbench.core.project import create_project, open_project  # noqa: E402
from workbench.core.services.npusmi import A3_SOC_VERSIONS  # noqa: E402
from workbench.ui.converter import open_model_converter  # noqa: E402
from workbench.ui.converter.page_inputs import SHAPE  # noqa: E402
from workbench.ui.converter.wizard import CONVERT, STOP  # noqa: E402


def _a3_host(tmp_path, sshd_server, name: str, *, npu_name: bool) -> str:
    from workbench.core.services.hosts import HostStore
    from workbench.simtoolkit import config as simconfig
    from workbench.simtoolkit.install import install

    prefix = tmp_path / name / "Ascend"
    root = install(prefix, cann_version="8.0.RC1", soc_version="Ascend910_9392", devices=16)
    if not npu_name:  # a driver whose board query prints no NPU Name line
        cfg = next(Path(root).rglob(simconfig.CONFIG_NAME))
        data = json.loads(cfg.read_text())
        data["extra"][simconfig.EXTRA_BOARD_WITHOUT_NPU_NAME] = True
        cfg.write_text(json.dumps(data))
    HostStore().add(sshd_server.host(name, toolkit=str(prefix)))
    return name


@pytest.fixture
def a3_host(ssh_home, sshd_server, tmp_path):
    return _a3_host(tmp_path, sshd_server, "a3", npu_name=True)


@pytest.fixture
def a3_unsure_host(ssh_home, sshd_server, tmp_path):
    return _a3_host(tmp_path, sshd_server, "a3old", npu_name=False)


def _project_on(window, tmp_path, host: str) -> Path:
    root = tmp_path / "proj"
    project = create_project(root)
    project.remote.host, project.remote.remote_path = host, str(tmp_path / "on-the-host")
    project.save()
    window.open_project(root)
    window.host_panel.reload_hosts()
    return root


def _dock_rows(qtbot, window) -> list[str]:
    panel = window.host_panel
    qtbot.mouseClick(panel.check_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.devices.count() == 16, timeout=60000)
    return [panel.devices.item(i).text() for i in range(panel.devices.count())]


def _soc_answered(wizard) -> bool:
    return "npu-smi" in wizard.model_page.soc_status.text() and wizard.soc_task.state.finished


def test_an_a3_machine_gets_the_soc_its_board_query_names(qtbot, window, tmp_path, a3_host):
    root = _project_on(window, tmp_path, a3_host)
    rows = _dock_rows(qtbot, window)
    assert rows[3].startswith("NPU 1 chip 1 (device 3) · Ascend910_9392 · OK · HBM ")
    assert all("Ascend910_9392" in r for r in rows)

    wizard = open_model_converter(window.context, window, str(small_cnn(root / "smallcnn.onnx")))
    page = wizard.model_page
    qtbot.waitUntil(lambda: _soc_answered(wizard) and wizard.model_info is not None, timeout=60000)
    assert page.soc.currentText() == "Ascend910_9392"
    assert page.soc_status.text() == (
        f"npu-smi on {page.host.currentText()} reports Ascend910_9392 "
        "(Chip Name and NPU Name of npu-smi info -t board)."
    )
    assert "--soc_version=Ascend910_9392" in wizard.command_line()
    wizard.inputs_page.set_cell(0, SHAPE, "1,3,32,32")
    qtbot.mouseClick(wizard.button(CONVERT), Qt.MouseButton.LeftButton)
    panel = wizard.summary_page.result
    qtbot.waitUntil(lambda: panel.isVisible() and "Conversion" in panel.toPlainText(), timeout=60000)
    qtbot.waitUntil(lambda: not wizard.button(STOP).isEnabled(), timeout=10000)
    assert "Conversion succeeded" in panel.toPlainText()  # the simulated atc knows the A3 SoC
    command = open_project(root).conversions[-1]["command"]
    assert command.endswith("--soc_version=Ascend910_9392 --input_shape=images:1,3,32,32")


def test_an_a3_chip_that_does_not_say_leaves_the_choice_to_the_user(qtbot, window, tmp_path, a3_unsure_host):
    root = _project_on(window, tmp_path, a3_unsure_host)
    rows = _dock_rows(qtbot, window)
    assert rows[0].startswith("NPU 0 chip 0 (device 0) · Ascend910, SoC version ambiguous: Ascend910_9391 / ")
    assert window.host_panel.devices.item(15).data(Qt.ItemDataRole.UserRole) == 15

    wizard = open_model_converter(window.context, window, str(small_cnn(root / "smallcnn.onnx")))
    page = wizard.model_page
    qtbot.waitUntil(lambda: _soc_answered(wizard) and wizard.model_info is not None, timeout=60000)
    status = page.soc_status.text()
    assert "reports Ascend910, which does not tell the exact SoC version: choose the one of this machine" in status
    assert ", ".join(A3_SOC_VERSIONS) in status
    assert "expected the NPU Name of NPU 0 chip 0" in status  # why the chip could not tell
    assert page.soc.currentText() == ""  # nothing guessed
    assert [page.soc.itemText(i) for i in range(len(A3_SOC_VERSIONS))] == list(A3_SOC_VERSIONS)
    assert "soc_version" in {i.field for i in wizard.errors()}
    assert not wizard.button(CONVERT).isEnabled()

    # the user picks the SoC from the list with the keyboard
    page.soc.setFocus()
    qtbot.keyClicks(page.soc.lineEdit(), "Ascend910_9382")
    qtbot.waitUntil(lambda: "--soc_version=Ascend910_9382" in wizard.summary_page.command.toPlainText(), timeout=5000)
    assert "soc_version" not in {i.field for i in wizard.errors()}


def test_the_cann_machines_dialog_shows_an_ambiguous_soc_as_its_candidates(qtbot, user, window, a3_unsure_host):
    """CANN Machines ▸ Test Connection on an A3 whose board query names no NPU: the --soc_version
    column says which SoCs it can be (it was empty), never a guess."""
    from test_hosts_ui import machines, run_check, select_host

    dialog = machines(qtbot, window)
    select_host(qtbot, user, dialog, a3_unsure_host)
    run_check(qtbot, user, dialog)
    assert dialog.devices.rowCount() == 16
    cells = {dialog.devices.item(r, 2).text() for r in range(16)}
    assert cells == {f"ambiguous: one of {', '.join(A3_SOC_VERSIONS)}"}
    assert "Model Converter" in dialog.devices.item(0, 2).toolTip()
