"""One test per workflow, from the menu to the result a user sees, through clicks and keys only,
against a real sshd with the simulated CANN toolkit (see conftest.py for the machine and for the
preconditions each journey starts from).

A journey is a function ``journey_x(qtbot, window, ..., budget)`` and its test calls it with the
default budget; ``test_a_disconnected_primary_button_fails_its_journey`` calls some of them with
the primary button's signal disconnected and a short budget, and expects the journey to fail.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import pytest
from journey_data import ACL_SAMPLES, CANN, DEVICES, HOST, MODEL, SOC
from journey_kit import (
    Budget,
    WaitTimeout,
    answering,
    choose,
    click,
    edit_cell,
    end_state,
    file_dialog_answer,
    press,
    trigger,
    type_text,
    wait_for,
)
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

DEFAULT = Budget()


def top_level(kind, window):
    """The visible dialog or wizard of type ``kind`` that ``window`` opened."""
    for w in QApplication.topLevelWidgets():
        if isinstance(w, kind) and w.isVisible() and w.parentWidget() is window:
            return w
    return None


def opened(qtbot, window, kind, what: str, budget: Budget):
    wait_for(qtbot, lambda: top_level(kind, window), what, budget)
    widget = top_level(kind, window)
    budget.opened(what, widget)
    return widget


def button_named(parent, text: str):
    from PySide6.QtWidgets import QPushButton

    found = [b for b in parent.findChildren(QPushButton) if b.text().replace("&", "") == text and b.isVisible()]
    assert len(found) == 1, f"{len(found)} visible buttons {text!r} in {parent.windowTitle()!r}"
    return found[0]


# --- 1. create a project -----------------------------------------------------------------------------
def journey_create_project(qtbot, window, location: Path, budget: Budget = DEFAULT) -> Path:
    from workbench.ui.dialogs.new_project import NewProjectDialog

    def fill(dialog: NewProjectDialog) -> None:
        budget.opened("new-project", dialog)
        type_text(qtbot, dialog.name, "resnet_app")
        type_text(qtbot, dialog.location, str(location))
        wait_for(qtbot, lambda: dialog.folder_label.text() == str(location / "resnet_app"), "project folder", budget)
        click(qtbot, dialog.ok_button, budget)

    with answering(qtbot, NewProjectDialog, fill, budget, "File ▸ New Project"):
        trigger(window, "File/New Project…")
    folder = location / "resnet_app"
    wait_for(qtbot, lambda: "resnet_app" in window.explorer.header.text(), "the project in the explorer", budget)
    assert window.windowTitle().startswith("resnet_app — ")
    assert (folder / ".ascend-workbench" / "project.json").is_file()
    return folder


def test_create_project(qtbot, window, tmp_path):
    folder = journey_create_project(qtbot, window, tmp_path)
    assert json.loads((folder / ".ascend-workbench" / "project.json").read_text())["name"] == "resnet_app"
    end_state(qtbot, window, "01-create-project")


# --- 2. add a CANN machine, accept its key -------------------------------------------------------------
def journey_add_machine(qtbot, window, sshd_server, toolkit_root: Path, budget: Budget = DEFAULT):
    from workbench.ui.hosts.machines_dialog import CannMachinesDialog

    trigger(window, "Ascend/CANN Machines…")
    dialog = opened(qtbot, window, CannMachinesDialog, "the CANN Machines dialog", budget)
    click(qtbot, button_named(dialog, "Add"), budget)
    wait_for(qtbot, lambda: dialog.name.isEnabled(), "an editable new host", budget)
    type_text(qtbot, dialog.name, HOST)
    type_text(qtbot, dialog.hostname, "127.0.0.1")
    type_text(qtbot, dialog.port, str(sshd_server.port))
    type_text(qtbot, dialog.user, sshd_server.user)
    choose(qtbot, dialog.auth, "key", budget, "Authentication")
    type_text(qtbot, dialog.key_file, str(sshd_server.client_key))
    type_text(qtbot, dialog.toolkit, str(toolkit_root))

    def trust(box: QMessageBox) -> None:
        assert "SHA256:" in box.text(), f"the key's fingerprint is shown: {box.text()}"
        press(qtbot, box, QMessageBox.StandardButton.Yes)

    with answering(qtbot, QMessageBox, trust, budget, "the Unknown Host Key question"):
        click(qtbot, dialog.test_button, budget)
    wait_for(qtbot, lambda: "(simulated)" in dialog.status.text(), "the toolkit found on the host", budget)
    return dialog


def test_add_cann_machine_and_accept_its_key(qtbot, window, ssh_home, sshd_server, toolkit_root):
    from workbench.core.services.hosts import HostStore
    from workbench.core.services.knownhosts import app_known_hosts

    dialog = journey_add_machine(qtbot, window, sshd_server, toolkit_root)
    assert f"CANN {CANN} (simulated)" in dialog.status.text()
    wait_for(qtbot, lambda: dialog.devices.rowCount() == DEVICES, "the NPUs of the host", DEFAULT)
    assert [dialog.devices.item(r, 2).text() for r in range(DEVICES)] == [SOC] * DEVICES
    stored = HostStore().get(HOST)
    assert (stored.hostname, stored.port, stored.auth, stored.toolkit) == (
        "127.0.0.1",
        sshd_server.port,
        "key",
        str(toolkit_root),
    )
    assert sshd_server.host_key_line.split()[-1] in app_known_hosts().read_text(), "the accepted key is kept"
    end_state(qtbot, dialog, "02-cann-machine")
    click(qtbot, dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close), DEFAULT)


# --- 3. deploy -----------------------------------------------------------------------------------------
def journey_deploy(qtbot, window, remote_dir: Path, budget: Budget = DEFAULT):
    from workbench.ui.hosts.deployment_dialog import DeploymentDialog

    trigger(window, "Ascend/Deployment…")
    dialog = opened(qtbot, window, DeploymentDialog, "the Deployment dialog", budget)
    choose(qtbot, dialog.host, HOST, budget, "CANN machine")
    edit_cell(qtbot, dialog.mappings, 0, 1, str(remote_dir))
    click(qtbot, dialog.plan_button, budget)
    wait_for(qtbot, lambda: "new," in dialog.summary.text(), "the sync plan", budget)
    click(qtbot, dialog.sync_button, budget)
    wait_for(qtbot, lambda: dialog.summary.text().startswith("Synced"), "the sync result", budget)
    return dialog


def test_deploy(qtbot, window, new_project, remote_dir):
    (remote_dir / "data").mkdir(parents=True)
    (remote_dir / "data" / "dataset.bin").write_bytes(b"only on the host")
    dialog = journey_deploy(qtbot, window, remote_dir)
    root = Path(new_project.root)
    for rel in ("main.py", f"{MODEL}.onnx"):
        assert (remote_dir / rel).read_bytes() == (root / rel).read_bytes(), rel
    assert (remote_dir / "data" / "dataset.bin").read_bytes() == b"only on the host", "remote-only files are kept"
    assert (remote_dir / "dump").is_dir(), "the empty dump/ folder (acl.json's dump_path) exists on the host"
    assert "{" not in dialog.summary.text(), f"the result is a sentence, not a dict: {dialog.summary.text()}"
    from workbench.core.project import open_project
    from workbench.core.services import deploy

    saved = open_project(root)
    assert saved.remote.host == HOST
    assert deploy.project_mappings(saved)[0].remote == str(remote_dir)
    end_state(qtbot, dialog, "03-deploy")


# --- 4. run configuration: save, run, stop, the remote group gone ------------------------------------------------
def processes_with(marker: str) -> list[int]:
    """Pids whose command line holds ``marker`` (sshd runs here: the host's processes are ours to see)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    out.append(int(entry.name))
            except OSError:
                continue
    return out


def journey_run_configuration(qtbot, window, budget: Budget = DEFAULT):
    from workbench.core.services.runconfig import REMOTE
    from workbench.ui.hosts.runconfig_dialog import RunConfigurationsDialog

    trigger(window, "Ascend/Run Configurations…")
    dialog = opened(qtbot, window, RunConfigurationsDialog, "the Run Configurations dialog", budget)
    click(qtbot, button_named(dialog, "Add"), budget)
    marker = f"300.{time.time_ns() % 10**9}"  # a sleep length no other process has
    type_text(qtbot, dialog.name, "sleepy")
    type_text(qtbot, dialog.executable, "bash")
    type_text(qtbot, dialog.args, f"-c 'echo started; sleep {marker}; echo never'")
    choose(qtbot, dialog.mode, REMOTE, budget, "Run mode")
    choose(qtbot, dialog.host, HOST, budget, "CANN machine")
    click(qtbot, dialog.save_button, budget)
    wait_for(qtbot, lambda: dialog.status.text() == "Saved.", "Saved.", budget)
    assert (dialog.name.text(), dialog.executable.text()) == ("sleepy", "bash"), "Save kept the typed values"
    click(qtbot, dialog.run_button, budget)
    output = window.output
    wait_for(
        qtbot,
        lambda: dialog.task is not None and "started" in output.view_for(dialog.task.handle.task_id).toPlainText(),
        "'started' in the Output dock",
        budget,
    )
    assert processes_with(marker), "the command runs on the host"
    click(qtbot, dialog.stop_button, budget)
    wait_for(qtbot, lambda: dialog.status.text() == "Stopped.", "Stopped.", budget)
    wait_for(qtbot, lambda: not processes_with(marker), "the remote process group gone", budget)
    return dialog


def test_run_configuration_save_run_stop(qtbot, window, project):
    dialog = journey_run_configuration(qtbot, window)
    from workbench.core.project import open_project
    from workbench.core.services.runconfig import load_run_configurations

    saved = load_run_configurations(open_project(project.root))
    assert [(c.name, c.executable, c.host) for c in saved] == [("sleepy", "bash", HOST)]
    end_state(qtbot, dialog, "04-run-configuration")


# --- 5. convert an ONNX model ---------------------------------------------------------------------------------------
def journey_convert(qtbot, window, onnx_path: Path, budget: Budget = DEFAULT):
    from PySide6.QtWidgets import QFileDialog, QWizard

    from workbench.ui.converter.wizard import CONVERT, ConverterWizard

    trigger(window, "Ascend/Model Converter…")
    wizard = opened(qtbot, window, ConverterWizard, "the Model Converter wizard", budget)
    page = wizard.model_page
    assert page.host.currentData() == HOST, f"the project's CANN machine is preselected, not {page.host.currentText()}"
    with answering(qtbot, QFileDialog, file_dialog_answer(qtbot, onnx_path), budget, "Model File dialog"):
        click(qtbot, page.model_browse, budget, "Browse… (model)")
    wait_for(qtbot, lambda: page.model_path() == str(onnx_path), "the chosen model in the field", budget)
    wait_for(qtbot, lambda: wizard.inputs_page.table.rowCount() == 1, "the model's input read", budget)
    wait_for(qtbot, lambda: f"reports {SOC}" in page.soc_status.text(), "the SoC npu-smi reports", budget)
    assert page.soc.currentText() == SOC
    next_button = wizard.button(QWizard.WizardButton.NextButton)
    while wizard.currentPage() is not wizard.summary_page:
        before = wizard.currentPage()
        click(qtbot, next_button, budget, "Next")
        wait_for(qtbot, lambda b=before: wizard.currentPage() is not b, "the next page", budget)
    result = wizard.summary_page.result
    click(qtbot, wizard.button(CONVERT), budget, "Convert")
    wait_for(
        qtbot,
        lambda: result.isVisible() and "Conversion succeeded" in result.toPlainText(),
        "'Conversion succeeded' on the Summary page",
        budget,
    )
    return wizard


def test_convert_an_onnx_model(qtbot, window, project):
    root = Path(project.root)
    wizard = journey_convert(qtbot, window, root / f"{MODEL}.onnx")
    om = root / f"{MODEL}.om"
    assert om.is_file() and om.stat().st_size > 0
    assert str(om) in wizard.summary_page.result.toPlainText()
    assert f"--soc_version={SOC}" in wizard.summary_page.command.toPlainText()
    wait_for(qtbot, lambda: window.explorer.index_of(om).isValid(), "the .om in the Project Explorer", DEFAULT)
    end_state(qtbot, wizard, "05-convert")
    click(qtbot, wizard.button(type(wizard).WizardButton.CancelButton), DEFAULT, "Close")


# --- 6. configure the dump of the converted model; real acl.json samples saved unchanged ------------------------------
def journey_dump_configuration(qtbot, window, om: Path, budget: Budget = DEFAULT):
    from PySide6.QtWidgets import QDialogButtonBox

    from workbench.ui.dump.config_dialog import DumpConfigDialog

    trigger(window, "Ascend/Dump Configuration…")
    dialog = opened(qtbot, window, DumpConfigDialog, "the Dump Configuration dialog", budget)
    choose(qtbot, dialog.host, HOST, budget, "CANN machine")
    type_text(qtbot, dialog.model_path.edit, str(om))
    wait_for(qtbot, lambda: " ops (" in dialog.model_status.text(), "the model's ops read with atc --mode=1", budget)
    wait_for(qtbot, lambda: dialog.tree.tree.topLevelItemCount() > 0, "the op tree", budget)
    choose(qtbot, dialog.mode, "output", budget, "Dump mode")
    click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Save), budget, "Save")
    wait_for(qtbot, lambda: dialog.status.text().startswith("Saved "), "Saved <acl.json>", budget)
    return dialog


def test_configure_dump_on_the_converted_model(qtbot, window, om_in_project):
    from journey_data import om_model

    dialog = journey_dump_configuration(qtbot, window, om_in_project)
    acl = Path(window.project.root) / "src" / "acl.json"
    data = json.loads(acl.read_text())
    dump = data["dump"]
    assert dump["dump_list"] == [{"model_name": om_model(om_in_project).name}]
    assert dump["dump_mode"] == "output"
    local = str(Path(window.project.root))
    assert dump["dump_path"] and not dump["dump_path"].startswith(local), (
        f"dump_path {dump['dump_path']!r} must be valid on the host where the app runs, not this machine's project"
    )
    assert json.loads(dialog.preview.toPlainText()) == data, "the file is what the preview showed"
    end_state(qtbot, dialog, "06-dump-configuration")
    dialog.close()


@pytest.mark.parametrize("sample", ACL_SAMPLES, ids=[p.parent.name for p in ACL_SAMPLES])
def test_real_acl_json_opened_and_saved_unchanged(qtbot, window, new_project, sample):
    from PySide6.QtWidgets import QDialogButtonBox

    from workbench.ui.dump.config_dialog import DumpConfigDialog

    acl = Path(new_project.root) / "src" / "acl.json"
    shutil.copyfile(sample, acl)  # the user's own (writable) copy
    trigger(window, "Ascend/Dump Configuration…")
    dialog = opened(qtbot, window, DumpConfigDialog, "the Dump Configuration dialog", DEFAULT)
    wait_for(qtbot, lambda: dialog.acl_path.text() == str(acl), "the project's acl.json chosen", DEFAULT)
    click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Save), DEFAULT, "Save")
    wait_for(qtbot, lambda: dialog.status.text().startswith("Saved "), "Saved <acl.json>", DEFAULT)
    assert json.loads(acl.read_text()) == json.loads(sample.read_text()), "Save without a change keeps the meaning"
    dialog.close()


# --- 7. run with dump (and bring the dump back) ---------------------------------------------------------------------
def dump_files(folder: Path) -> list[Path]:
    """Dump files (``{op_type}.{op_name}.{task}.{stream}.{timestamp}``) anywhere below ``folder``."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name.rsplit(".", 1)[-1].isdigit())


def journey_run_with_dump(qtbot, window, remote_dir: Path, budget: Budget = DEFAULT):
    from PySide6.QtWidgets import QInputDialog

    from workbench.core.services.runconfig import REMOTE
    from workbench.ui.hosts.deployment_dialog import DeploymentDialog
    from workbench.ui.hosts.runconfig_dialog import RunConfigurationsDialog

    trigger(window, "Ascend/Run Configurations…")
    dialog = opened(qtbot, window, RunConfigurationsDialog, "the Run Configurations dialog", budget)
    click(qtbot, button_named(dialog, "Add"), budget)
    type_text(qtbot, dialog.name, "infer")
    type_text(qtbot, dialog.executable, sys.executable)
    type_text(qtbot, dialog.args, "main.py")
    choose(qtbot, dialog.mode, REMOTE, budget, "Run mode")
    choose(qtbot, dialog.host, HOST, budget, "CANN machine")
    if not dialog.deploy_first.isChecked():
        click(qtbot, dialog.deploy_first, budget)
    click(qtbot, dialog.save_button, budget)
    wait_for(qtbot, lambda: dialog.status.text() == "Saved.", "Saved.", budget)
    click(qtbot, dialog.run_button, budget)
    wait_for(qtbot, lambda: dialog.status.text() == "Exited with status 0.", "the app's exit status 0", budget)
    log = window.output.view_for(dialog.task.handle.task_id).toPlainText()
    assert "inference app: done" in log, log
    assert (remote_dir / "dump").is_dir(), "the run deployed the empty dump/ folder (acl.json's dump_path)"
    # the runtime writes the dump while the app runs: once it has exited, the files are there or never come
    after_exit = Budget(wait_ms=min(budget.wait_ms, 10_000))
    wait_for(qtbot, lambda: dump_files(remote_dir / "dump"), "dump files in the deployed dump/ folder", after_exit)
    click(qtbot, dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close), budget, "Close")

    trigger(window, "Ascend/Deployment…")
    deployment = opened(qtbot, window, DeploymentDialog, "the Deployment dialog", budget)

    def pull(box: QInputDialog) -> None:
        type_text(qtbot, box.findChild(type(dialog.name)), "dump", finish="")
        click(qtbot, box.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok), budget, "OK")

    with answering(qtbot, QInputDialog, pull, budget, "Pull Back"):
        click(qtbot, button_named(deployment, "Pull Back…"), budget)
    wait_for(qtbot, lambda: deployment.summary.text().startswith("Pulled"), "Pulled to <project>", budget)
    return deployment


def test_run_with_dump(qtbot, window, om_in_project, remote_dir):
    from journey_data import om_model

    root = om_in_project.parent
    name = om_model(om_in_project).name
    acl = {"dump": {"dump_list": [{"model_name": name}], "dump_path": "dump", "dump_mode": "output"}}
    (root / "src" / "acl.json").write_text(json.dumps(acl, indent=4))  # what Dump Configuration wrote
    deployment = journey_run_with_dump(qtbot, window, remote_dir)
    pulled = dump_files(root / "dump")
    assert {p.name for p in pulled} == {p.name for p in dump_files(remote_dir / "dump")}
    assert any(f".{name}." in str(p) or f"/{name}/" in str(p) for p in pulled)
    end_state(qtbot, deployment, "07-run-with-dump")


# --- 8. convert the dump to .npy ------------------------------------------------------------------------------------
def journey_convert_dump(qtbot, window, dump_dir: Path, out_dir: Path, budget: Budget = DEFAULT):
    from journey_kit import activate_in_tree, expand_in_tree
    from PySide6.QtWidgets import QFileDialog

    from workbench.ui.dump.data_view import DumpDataView

    explorer = window.explorer
    leaf = next(p.parent for p in sorted(dump_dir.rglob("*")) if p.is_file())  # .../<model id>/<iteration>
    chain = [dump_dir, *reversed(leaf.relative_to(dump_dir).parents[:-1]), leaf]
    for folder in chain[:-1]:  # expand dump/ down to the iteration folder, as a user clicks down
        expand_in_tree(qtbot, explorer.view, explorer.index_of(dump_dir / folder), budget)
    activate_in_tree(qtbot, explorer.view, explorer.index_of(leaf), budget)
    wait_for(qtbot, lambda: isinstance(window.documents.currentWidget(), DumpDataView), "the dump data view", budget)
    view = window.documents.currentWidget()
    wait_for(qtbot, lambda: " dump files" in view.title.text(), "the dump files listed", budget)
    with answering(qtbot, QFileDialog, file_dialog_answer(qtbot, out_dir), budget, "Convert to .npy folder"):
        click(qtbot, view.convert_button, budget)
    wait_for(qtbot, lambda: view.title.text().startswith("Converted "), "Converted … .npy files written", budget)
    return view


def test_convert_dump(qtbot, window, dump_in_project):
    dump_dir, _golden, files, _drifted = dump_in_project
    out = dump_dir.parent / "npy"
    out.mkdir()
    view = journey_convert_dump(qtbot, window, dump_dir, out)
    written = sorted(out.rglob("*.npy"))
    assert written and f"Converted {len(files)} files" in view.title.text()
    assert f"{len(written)} .npy files written" in view.title.text()
    end_state(qtbot, window, "08-convert-dump")


# --- 9. accuracy comparison on the host (msaccucmp.py) -----------------------------------------------------------
def journey_accuracy(qtbot, window, golden: Path, budget: Budget = DEFAULT):
    from workbench.ui.dump.accuracy import AccuracyAnalyzer

    trigger(window, "Ascend/Model Accuracy Analyzer…")
    wait_for(
        qtbot, lambda: isinstance(window.documents.currentWidget(), AccuracyAnalyzer), "the accuracy analyzer", budget
    )
    view = window.documents.currentWidget()
    budget.opened("accuracy", view)
    assert view.npu.text() == str(Path(window.project.root) / "dump"), "the project's dump/ is proposed"
    type_text(qtbot, view.golden.edit, str(golden))
    choose(qtbot, view.where, HOST, budget, "Run on")
    click(qtbot, view.run_button, budget, "Compare")
    wait_for(qtbot, lambda: view.table.model.rowCount() > 0, "the comparison rows", budget)
    return view


def test_accuracy_compare(qtbot, window, dump_in_project):
    _dump, golden, files, drifted = dump_in_project
    view = journey_accuracy(qtbot, window, golden)
    assert "compared" in view.status.text()
    assert "First op below the threshold" in view.guidance.text()
    assert drifted in view.guidance.text(), view.guidance.text()
    end_state(qtbot, window, "09-accuracy-compare")


# --- 10. profile the app on the host -------------------------------------------------------------------------------
def report_documents(window):
    from workbench.ui.report.document import ReportDocument

    docs = [window.documents.widget(i) for i in range(window.documents.count())]
    return [d for d in docs if isinstance(d, ReportDocument)]


def journey_profile(
    qtbot, window, budget: Budget = DEFAULT, *, name: str = "tinynet_prof", script: str = "main.py", args: str = ""
):
    """Ascend ▸ System Profiler ▸ New Profiling…: the project's Python ``script`` (with ``args``) under
    msprof on the CANN machine, deployed first; the report document that opens."""
    from PySide6.QtWidgets import QWizard

    from workbench.ui.profiler.wizard import NewProfilingWizard

    trigger(window, "Ascend/System Profiler/New Profiling…")
    wizard = opened(qtbot, window, NewProfilingWizard, "the New Profiling wizard", budget)
    e = wizard.exec_page
    type_text(qtbot, wizard.project_page.name, name)
    click(qtbot, wizard.button(QWizard.WizardButton.NextButton), budget, "Next")
    wait_for(qtbot, lambda: wizard.currentPage() is e, "Executable Properties", budget)
    assert e.host.currentData() == HOST, f"the project's CANN machine is preselected, not {e.host.currentText()}"
    assert e.project_path.text() == str(window.project.root)
    choose(qtbot, e.executable_type, "python", budget, "Executable type")
    type_text(qtbot, e.executable, script)
    type_text(qtbot, e.python, sys.executable)
    if args:
        type_text(qtbot, e.args, args)
    if not e.deploy.isChecked():
        click(qtbot, e.deploy, budget)
    wait_for(qtbot, lambda: "simulated toolkit" in e.host_info.text(), "the host's toolkit found", budget)
    while wizard.currentPage() is not wizard.check_page:
        before = wizard.currentPage()
        click(qtbot, wizard.button(QWizard.WizardButton.NextButton), budget, "Next")
        wait_for(qtbot, lambda b=before: wizard.currentPage() is not b, f"the page after {before.title()}", budget)
    before = len(report_documents(window))
    click(qtbot, wizard.button(QWizard.WizardButton.FinishButton), budget, "Start")
    wait_for(
        qtbot,
        lambda: len(report_documents(window)) > before and report_documents(window)[-1].ready,
        "the profiling report opened",
        budget,
    )
    return report_documents(window)[-1]


def test_profile_the_app(qtbot, window, om_in_project):
    from journey_data import om_model

    doc = journey_profile(qtbot, window)
    model_ops = {op.name for op in om_model(om_in_project).ops}
    profiled = set(doc.report.ops["name"])
    assert profiled and profiled <= model_ops, (
        f"only the ops of {MODEL}.om are profiled: {sorted(profiled - model_ops)}"
    )
    assert {"conv1", "relu1", "conv2", "relu2"} <= profiled
    end_state(qtbot, window, "10-profile")


# --- 11. open a report ---------------------------------------------------------------------------------------------
def journey_open_report(qtbot, window, prof: Path, budget: Budget = DEFAULT):
    from PySide6.QtWidgets import QFileDialog

    before = len(report_documents(window))
    with answering(qtbot, QFileDialog, file_dialog_answer(qtbot, prof), budget, "Open Report dialog"):
        trigger(window, "File/Open Report…")
    wait_for(
        qtbot,
        lambda: len(report_documents(window)) > before and report_documents(window)[-1].ready,
        "the report document",
        budget,
    )
    return report_documents(window)[-1]


def test_open_the_report(qtbot, window, two_runs):
    prof = two_runs[0]
    doc = journey_open_report(qtbot, window, prof)
    assert Path(doc.report.source) == prof
    assert doc.timeline_view is not None and len(doc.report.ops) > 0
    end_state(qtbot, window, "11-open-report")


# --- 12. baseline comparison of two runs --------------------------------------------------------------------------
def journey_baseline_comparison(qtbot, window, base: Path, current: Path, budget: Budget = DEFAULT):
    from workbench.ui.compare.dialog import CompareDialog
    from workbench.ui.compare.view import CompareView

    def fill(dialog: CompareDialog) -> None:
        budget.opened("compare", dialog)
        type_text(qtbot, dialog.base.edit, str(base))
        type_text(qtbot, dialog.current.edit, str(current))
        click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), budget, "Compare")

    with answering(qtbot, CompareDialog, fill, budget, "Baseline Comparison dialog"):
        trigger(window, "Ascend/Baseline Comparison…")
    wait_for(qtbot, lambda: isinstance(window.documents.currentWidget(), CompareView), "the comparison", budget)
    return window.documents.currentWidget()


def test_baseline_comparison_of_two_runs(qtbot, window, two_runs):
    base, current = two_runs
    view = journey_baseline_comparison(qtbot, window, base, current)
    assert window.documents.tabText(window.documents.currentIndex()) == f"{base.name} vs {current.name}"
    assert view.total_label.text().startswith("Total device time:")
    assert view.ops.model.rowCount() > 0, "the operators of both runs are listed"
    end_state(qtbot, window, "12-baseline-comparison")


# --- the journeys depend on the real buttons ---------------------------------------------------------------------
def _disconnect_convert(what: str, widget) -> None:
    if what == "the Model Converter wizard":
        widget.customButtonClicked.disconnect()  # Convert (and Stop) now reach nothing


def _disconnect_sync(what: str, widget) -> None:
    if what == "the Deployment dialog":
        widget.sync_button.clicked.disconnect()


def _disconnect_compare(what: str, widget) -> None:
    if what == "compare":
        widget.buttons.accepted.disconnect()  # the dialog's Compare (OK) button


@pytest.mark.parametrize(
    ("journey", "tamper", "stuck_at"),
    [
        ("convert", _disconnect_convert, "'Conversion succeeded' on the Summary page"),
        ("deploy", _disconnect_sync, "the sync result"),
        ("baseline", _disconnect_compare, "Baseline Comparison dialog: still open after it was answered"),
    ],
    ids=["convert-Convert", "deploy-Sync", "baseline-Compare"],
)
def test_a_disconnected_primary_button_fails_its_journey(qtbot, window, project, two_runs, journey, tamper, stuck_at):
    """The same journeys with the primary button of their wizard or dialog disconnected, and a short
    budget: each must fail where it waits for that button's result (so the journeys prove the buttons)."""
    budget = Budget(wait_ms=3000, tamper=tamper)
    root = Path(project.root)
    with pytest.raises(WaitTimeout) as failure:
        if journey == "convert":
            journey_convert(qtbot, window, root / f"{MODEL}.onnx", budget)
        elif journey == "deploy":
            journey_deploy(qtbot, window, Path(project.remote.remote_path), budget)
        else:
            journey_baseline_comparison(qtbot, window, two_runs[0], two_runs[1], budget)
    assert stuck_at in str(failure.value)
