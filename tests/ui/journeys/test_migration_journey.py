"""The migration journey of issue #22, end to end, through clicks and keys only: a GPU PyTorch trainer
migrated on the CANN machine (Ascend ▸ Framework Trans ▸ PyTorch GPU2Ascend…), the Migration Report's
"Open Migrated Project", the migrated copy deployed to the machine, its train.py run by a run
configuration, profiled (New Profiling) and the report's Advisor tab read.

What the simulated machine does with the migrated train.py: it has no PyTorch (the simulated toolkit
plays CANN, not torch / torch_npu), so the script really starts on the host and stops at ``import torch``
(the traceback is in the Output dock, exit status 1); msprof runs it the same way and then profiles its
canned torch_npu-style transformer workload (it says so on stderr), whose AI Core work the advisor
reviews. The sample's model is a ResNet-18, not the forum's LSTM, so the journey cannot end on
"no AI Core used" (compute.no_aicore; tests/core/advisor/test_rules_compute.py plants it).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from journey_data import HOST
from journey_kit import (
    Budget,
    answering,
    choose,
    click,
    end_state,
    file_dialog_answer,
    trigger,
    type_text,
    wait_for,
)
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QWizard
from test_journeys import button_named, journey_deploy, opened, report_documents

DEFAULT = Budget()
SAMPLE = Path(__file__).resolve().parents[3] / "resources" / "samples" / "gpu_pytorch_trainer"
LEFT = Qt.MouseButton.LeftButton


def journey_migrate(qtbot, window, project: Path, budget: Budget = DEFAULT):
    """Ascend ▸ Framework Trans ▸ PyTorch GPU2Ascend… on ``project`` (chosen in Qt's dialog), run on the
    CANN machine; the Migration Report document that opens."""
    from workbench.ui.migration.document import MigrationReportDocument
    from workbench.ui.migration.wizard import RUN, STOP, MigrationWizard

    trigger(window, "Ascend/Framework Trans/PyTorch GPU2Ascend…")
    wizard = opened(qtbot, window, MigrationWizard, "the PyTorch GPU2Ascend wizard", budget)
    page = wizard.project_page
    with answering(qtbot, QFileDialog, file_dialog_answer(qtbot, project), budget, "the project folder dialog"):
        click(qtbot, page.input_browse, budget, "Browse… (project)")
    wait_for(qtbot, lambda: page.input.text() == str(project), "the chosen project in the field", budget)
    type_text(qtbot, page.main, "train.py")
    choose(qtbot, page.host, HOST, budget, "CANN machine")
    click(qtbot, wizard.button(QWizard.WizardButton.NextButton), budget, "Next")
    wait_for(qtbot, lambda: wizard.currentPage() is wizard.run_page, "the Run page", budget)
    click(qtbot, wizard.button(RUN), budget, "Run")
    wait_for(
        qtbot,
        lambda: (
            isinstance(window.documents.currentWidget(), MigrationReportDocument)
            and window.documents.currentWidget().report is not None
        ),
        "the Migration Report document",
        budget,
    )
    wait_for(qtbot, lambda: not wizard.button(STOP).isEnabled(), "the run over", budget)
    doc = window.documents.currentWidget()
    click(qtbot, wizard.button(QWizard.WizardButton.CancelButton), budget, "Close")
    return wizard, doc


def journey_run_train(qtbot, window, budget: Budget = DEFAULT):
    """Ascend ▸ Run Configurations…: ``python train.py --epochs 1`` on the CANN machine, deployed first."""
    from workbench.core.services.runconfig import REMOTE
    from workbench.ui.hosts.runconfig_dialog import RunConfigurationsDialog

    trigger(window, "Ascend/Run Configurations…")
    dialog = opened(qtbot, window, RunConfigurationsDialog, "the Run Configurations dialog", budget)
    click(qtbot, button_named(dialog, "Add"), budget)
    type_text(qtbot, dialog.name, "train")
    type_text(qtbot, dialog.executable, sys.executable)
    type_text(qtbot, dialog.args, "train.py --epochs 1")
    choose(qtbot, dialog.mode, REMOTE, budget, "Run mode")
    choose(qtbot, dialog.host, HOST, budget, "CANN machine")
    if not dialog.deploy_first.isChecked():
        click(qtbot, dialog.deploy_first, budget)
    click(qtbot, dialog.save_button, budget)
    wait_for(qtbot, lambda: dialog.status.text() == "Saved.", "Saved.", budget)
    click(qtbot, dialog.run_button, budget)
    wait_for(qtbot, lambda: dialog.status.text().startswith("Exited with status"), "the script's exit", budget)
    return dialog


def journey_profile_train(qtbot, window, budget: Budget = DEFAULT):
    """Ascend ▸ System Profiler ▸ New Profiling…: train.py under msprof on the CANN machine; the report."""
    from workbench.ui.profiler.wizard import NewProfilingWizard

    trigger(window, "Ascend/System Profiler/New Profiling…")
    wizard = opened(qtbot, window, NewProfilingWizard, "the New Profiling wizard", budget)
    e = wizard.exec_page
    type_text(qtbot, wizard.project_page.name, "migrated_prof")
    click(qtbot, wizard.button(QWizard.WizardButton.NextButton), budget, "Next")
    wait_for(qtbot, lambda: wizard.currentPage() is e, "Executable Properties", budget)
    assert e.host.currentData() == HOST, f"the project's CANN machine is preselected, not {e.host.currentText()}"
    assert e.project_path.text() == str(window.project.root)
    choose(qtbot, e.executable_type, "python", budget, "Executable type")
    type_text(qtbot, e.executable, "train.py")
    type_text(qtbot, e.python, sys.executable)
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


def click_tab(qtbot, tabs, prefix: str, budget: Budget = DEFAULT) -> None:
    """A click on the tab whose title starts with ``prefix``."""
    bar = tabs.tabBar()

    def index() -> int:
        return next((i for i in range(tabs.count()) if tabs.tabText(i).startswith(prefix)), -1)

    wait_for(qtbot, lambda: index() >= 0, f"the tab {prefix!r}", budget)
    i = index()
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(i).center())
    wait_for(qtbot, lambda: tabs.currentIndex() == i, f"the tab {prefix!r} shown", budget)


def output_text(window) -> str:
    tabs = window.output.tabs
    return "\n".join(
        tabs.widget(i).toPlainText() for i in range(tabs.count()) if hasattr(tabs.widget(i), "toPlainText")
    )


def test_migrated_project_deployed_run_and_profiled(qtbot, window, machine, sshd_server, tmp_path):
    gpu = Path(shutil.copytree(SAMPLE, tmp_path / "src" / "gpu_pytorch_trainer"))

    # 1. migrate on the CANN machine; the report; Open Migrated Project
    wizard, doc = journey_migrate(qtbot, window, gpu)
    result = wizard.last_result
    assert result is not None and result.ok and result.host == HOST, result and result.error
    out = Path(result.output_dir)
    assert len(doc.report.changes) == 11 and "import torch_npu" in (out / "train.py").read_text()
    click(qtbot, doc.open_project_button, DEFAULT)
    wait_for(
        qtbot,
        lambda: window.project is not None and Path(window.project.root) == out.resolve(),
        "the migrated project open",
        DEFAULT,
    )
    assert window.windowTitle().startswith(f"{out.name} — ")
    wait_for(qtbot, lambda: out.name in window.explorer.header.text(), "the project in the explorer", DEFAULT)

    # 2. deploy it to the machine
    remote = sshd_server.home / "deploy" / tmp_path.name / out.name
    deployment = journey_deploy(qtbot, window, remote)
    for rel in ("train.py", "data.py", "models/resnet.py"):
        assert (remote / rel).read_bytes() == (out / rel).read_bytes(), rel
    click(qtbot, deployment.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close), DEFAULT)

    # 3. a run configuration runs train.py on the machine: it starts there and, with no PyTorch on the
    # simulated machine, stops at its first import; the Output dock shows the host's traceback
    dialog = journey_run_train(qtbot, window)
    log = window.output.view_for(dialog.task.handle.task_id).toPlainText()
    assert dialog.status.text() == "Exited with status 1.", dialog.status.text()
    assert f'File "{remote / "train.py"}"' in log and "ModuleNotFoundError: No module named 'torch'" in log, log
    click(qtbot, dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close), DEFAULT, "Close")

    # 4. profile it: msprof runs the script the same way, then profiles its canned torch_npu workload
    report = journey_profile_train(qtbot, window)
    wait_for(qtbot, lambda: "canned transformer workload" in output_text(window), "msprof's note", DEFAULT)
    assert len(report.report.ops) > 0 and "MatMulV3" in set(report.report.ops["type"].astype(str))

    # 5. the report's Advisor tab: its findings listed
    wait_for(qtbot, lambda: report.advisor_result is not None, "the advisor's result", DEFAULT)
    findings = report.advisor_result.sorted()
    assert findings, "the advisor finds something in the profiled run"
    click_tab(qtbot, report.tabs, f"Advisor ({len(findings)})")
    pane = report.advisor
    wait_for(qtbot, lambda: pane.summary.text().startswith(f"Findings: {len(findings)} ("), "the summary", DEFAULT)
    titles = [
        pane.tree.topLevelItem(g).child(k).text(0)
        for g in range(pane.tree.topLevelItemCount())
        for k in range(pane.tree.topLevelItem(g).childCount())
    ]
    assert len(titles) == len(findings)
    rules = {f.rule for f in findings}
    assert "compute.no_aicore" not in rules, "the canned workload runs on the AI Core"
    assert "compute.aicpu_has_aicore" in rules, rules  # its ArgMaxV2 on AI CPU
    wait_for(qtbot, lambda: pane.title.text() != "", "the first finding shown", DEFAULT)
    end_state(qtbot, window, "13-migration-journey")
