"""The migration journey of issue #22, end to end, through clicks and keys only: a GPU PyTorch trainer
migrated on the CANN machine (Ascend ▸ Framework Trans ▸ PyTorch GPU2Ascend…), the Migration Report's
"Open Migrated Project", the migrated copy deployed to the machine, its train.py run by a run
configuration, profiled (New Profiling, test_journeys.journey_profile) and the report's Advisor tab read.

What the simulated machine does with the migrated train.py: the simulated toolkit ships a simulated
PyTorch + torch_npu (workbench.simtoolkit.torchsim, installed as ``torch`` / ``torch_npu`` beside the
simulated pyACL), so the script really trains there (``--dummy``: random CIFAR-sized images, no download)
and prints its epoch lines into the Output dock, exit status 0. Under msprof every op it runs on the NPU
is a kernel of the PROF_* folder: the report holds the script's own ResNet-18 ops (Conv2D, BNTrainingUpdate,
ApplyMomentum ...), not a canned workload. The sample computes its train accuracy every step from int64
tensors (``(output.argmax(1) == target).sum().item()``): on Ascend that compare runs on AI CPU, and the
journey ends on the Advisor tab showing that finding (compute.aicpu_dtype, "Equal runs on AI CPU with
INT64 data").
"""

from __future__ import annotations

import shutil
import sys
from collections import Counter
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
from test_journeys import button_named, journey_deploy, journey_profile, opened

DEFAULT = Budget()
SAMPLE = Path(__file__).resolve().parents[3] / "resources" / "samples" / "gpu_pytorch_trainer"
LEFT = Qt.MouseButton.LeftButton
TRAIN_ARGS = "--epochs 1 --batch-size 8 --dummy 16"  # two steps of the sample's ResNet-18 on random images


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
    """Ascend ▸ Run Configurations…: ``python train.py ARGS`` on the CANN machine, deployed first."""
    from workbench.core.services.runconfig import REMOTE
    from workbench.ui.hosts.runconfig_dialog import RunConfigurationsDialog

    trigger(window, "Ascend/Run Configurations…")
    dialog = opened(qtbot, window, RunConfigurationsDialog, "the Run Configurations dialog", budget)
    click(qtbot, button_named(dialog, "Add"), budget)
    type_text(qtbot, dialog.name, "train")
    type_text(qtbot, dialog.executable, sys.executable)
    type_text(qtbot, dialog.args, f"train.py {TRAIN_ARGS}")
    choose(qtbot, dialog.mode, REMOTE, budget, "Run mode")
    choose(qtbot, dialog.host, HOST, budget, "CANN machine")
    if not dialog.deploy_first.isChecked():
        click(qtbot, dialog.deploy_first, budget)
    click(qtbot, dialog.save_button, budget)
    wait_for(qtbot, lambda: dialog.status.text() == "Saved.", "Saved.", budget)
    click(qtbot, dialog.run_button, budget)
    wait_for(qtbot, lambda: dialog.status.text().startswith("Exited with status"), "the script's exit", budget)
    return dialog


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

    # 3. a run configuration runs train.py on the machine: the simulated torch_npu runs it to the end
    dialog = journey_run_train(qtbot, window)
    log = window.output.view_for(dialog.task.handle.task_id).toPlainText()
    assert dialog.status.text() == "Exited with status 0.", log
    assert "epoch 0 step 0 loss " in log and "epoch 0 done: 16 images, train accuracy " in log, log
    assert "[simulated] torch/torch_npu runtime" in log, "the runtime says it is simulated"
    assert (remote / "resnet18_cifar10.pth").is_file(), "the script saved its checkpoint on the host"
    click(qtbot, dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close), DEFAULT, "Close")

    # 4. profile it: msprof runs the script again; the report holds the script's own kernels
    report = journey_profile(qtbot, window, name="migrated_prof", script="train.py", args=TRAIN_ARGS)
    wait_for(qtbot, lambda: "ran on the simulated torch_npu runtime" in output_text(window), "msprof's note", DEFAULT)
    assert "canned" not in output_text(window)
    ops = report.report.ops
    types = Counter(ops["type"].astype(str))
    assert types["Conv2D"] == 2 * 20 and types["ApplyMomentum"] == 2 * 62, types  # ResNet-18, two steps
    assert not {"MatMulV3", "FlashAttentionScore"} & set(types), "no canned transformer op"
    equal = ops[ops["type"].astype(str) == "Equal"]
    assert len(equal) == 2 and set(equal["task_type"].astype(str)) == {"AI_CPU"}

    # 5. the report's Advisor tab: the finding about the script's accuracy compare, shown
    wait_for(qtbot, lambda: report.advisor_result is not None, "the advisor's result", DEFAULT)
    findings = report.advisor_result.sorted()
    click_tab(qtbot, report.tabs, f"Advisor ({len(findings)})")
    pane = report.advisor
    wait_for(qtbot, lambda: pane.summary.text().startswith(f"Findings: {len(findings)} ("), "the summary", DEFAULT)
    items = [
        pane.tree.topLevelItem(g).child(k)
        for g in range(pane.tree.topLevelItemCount())
        for k in range(pane.tree.topLevelItem(g).childCount())
    ]
    assert len(items) == len(findings)
    assert "compute.no_aicore" not in {f.rule for f in findings}, "the script's convolutions run on the AI Core"
    title = "Equal runs on AI CPU with INT64 data (2 tasks, "
    item = next((i for i in items if i.text(0).startswith(title)), None)
    assert item is not None, [i.text(0) for i in items]
    pane.tree.scrollToItem(item)
    rect = pane.tree.visualItemRect(item)
    qtbot.mouseClick(pane.tree.viewport(), LEFT, pos=rect.center())
    wait_for(qtbot, lambda: title in pane.title.text(), "the finding shown", DEFAULT)
    assert pane.rule_label.text().endswith("rule compute.aicpu_dtype"), pane.rule_label.text()
    assert "Convert them to a supported type before the call (int64 to int32" in pane.advice.text()
    end_state(qtbot, window, "13-migration-journey")
