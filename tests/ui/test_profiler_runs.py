"""A small Python app profiled end to end on the demo host from the wizard: the output streams into
the Output dock, the report document opens with the ops the host's msprof wrote, the run is listed
in the Profiling Runs view, re-runs with the same options and is deleted (locally, then also on the
host). Import Result and Merge Reports open what they produce.

Set PROFILER_SCREENSHOTS=<folder> to save screenshots of the views there."""

from __future__ import annotations

import csv
import os
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox, QWizard

from workbench.core.profiler.history import list_runs
from workbench.core.profiling.build import open_report
from workbench.core.project import create_project, open_project
from workbench.simtoolkit.profdata.msprof import write_msprof_prof
from workbench.simtoolkit.profdata.workload import resnet50_workload
from workbench.ui.report.document import ReportDocument

SHOTS = os.environ.get("PROFILER_SCREENSHOTS")


def shot(widget, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(SHOTS) / f"profiler-{name}.png"))


def reports(window) -> list[ReportDocument]:
    return [
        window.documents.widget(i)
        for i in range(window.documents.count())
        if isinstance(window.documents.widget(i), ReportDocument)
    ]


def wait_report(qtbot, window, before: int) -> ReportDocument:
    qtbot.waitUntil(lambda: len(reports(window)) > before and reports(window)[-1].ready, timeout=60000)
    return reports(window)[-1]


def op_rows(prof: Path) -> int:
    """Rows of the op_summary CSV(s) the host's msprof wrote (read with the csv module)."""
    files = sorted((prof / "mindstudio_profiler_output").glob("op_summary_*.csv"))
    assert files, prof
    total = 0
    for f in files:
        with f.open(newline="", encoding="utf-8") as fh:
            total += sum(1 for _ in csv.DictReader(fh))
    return total


def opened(qtbot, user, window, menu_path: str, cls):
    """Trigger the menu entry; the visible dialog of class ``cls`` it opened."""
    user.trigger(window, menu_path)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(cls)), timeout=10000)
    dialog = [d for d in window.findChildren(cls) if d.isVisible()][-1]
    qtbot.addWidget(dialog)
    return dialog


def next_page(qtbot, user, w) -> None:
    """Click Next; the wizard moves on (else the page's error says why)."""
    page = w.currentPage()
    user.click(w.button(QWizard.WizardButton.NextButton))
    assert w.currentPage() is not page, page.error.text()


def click_row(qtbot, panel, run_id: str) -> None:
    """Click the run's row in the Profiling Runs table."""
    view, model = panel.table.view, panel.table.model
    row = next(r for r in range(model.rowCount()) if panel.runs[model.source_row(r)].id == run_id)
    rect = view.visualRect(model.index(row, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: panel.selected() is not None and panel.selected().id == run_id)


@pytest.fixture
def project(window, tmp_path):
    root = tmp_path / "app"
    root.mkdir()
    (root / "main.py").write_text("import sys\nprint('app says hello', *sys.argv[1:], flush=True)\n")
    create_project(root, name="demoapp")
    window.open_project(root)
    return root


def test_profile_a_python_app_end_to_end_then_runs_view(qtbot, user, window, project):
    from workbench.ui.profiler.runs import ProfilingRunsDialog
    from workbench.ui.profiler.wizard import NewProfilingWizard

    w = opened(qtbot, user, window, "Ascend/System Profiler/New Profiling…", NewProfilingWizard)
    qtbot.waitUntil(lambda: w.probe is not None, timeout=60000)
    assert w.exec_page.project_path.text() == str(project)  # the open project is the app project
    assert w.exec_page.project_type.text().startswith("Ascend App")
    next_page(qtbot, user, w)
    e = w.exec_page
    user.choose(e.executable_type, e.executable_type.itemText(e.executable_type.findData("python")))
    assert e.executable_type.currentData() == "python"
    user.retype(e.executable, "main.py")
    user.retype(e.python, sys.executable)
    user.retype(e.args, "x1")
    while w.currentPage() is not w.check_page:
        next_page(qtbot, user, w)
    start = w.button(QWizard.WizardButton.FinishButton)
    assert start.text() == "Start"
    with qtbot.waitSignal(window.context.bridge.task_started, timeout=60000) as started:
        user.click(start, timeout=60000)  # enabled once the checks passed
    task = started.args[0]
    assert task is w.task
    doc = wait_report(qtbot, window, 0)
    qtbot.waitUntil(lambda: "app says hello x1" in window.output.view_for(task.handle.task_id).toPlainText())
    assert task.state.value == "succeeded"  # the app's output streamed, and the task succeeded
    runs = list_runs(open_project(project))
    assert len(runs) == 1
    run = runs[0]
    local = run.report(project)
    assert local == task.handle.result and local.name.startswith("PROF_")
    assert local.parent == project / ".ascend-workbench" / "profiling" / run.id
    assert len(doc.report.ops) == op_rows(local)  # the report holds what msprof wrote
    assert run.options["executable"] == "main.py" and run.options["args"] == ["x1"]
    remote_dir = Path(run.remote_dir)
    assert remote_dir.is_dir()  # the demo host's copy
    again = opened(qtbot, user, window, "Ascend/System Profiler/New Profiling…", NewProfilingWizard)
    assert again is not w
    qtbot.waitUntil(lambda: again.probe is not None, timeout=60000)  # the options are remembered
    assert again.job().to_dict() | {"project_type": ""} == {**run.options, "project_type": ""}
    user.click(again.button(QWizard.WizardButton.CancelButton))
    qtbot.waitUntil(lambda: not again.isVisible())

    dialog = opened(qtbot, user, window, "Ascend/System Profiler/Profiling Runs…", ProfilingRunsDialog)
    panel = dialog.panel
    assert [r.id for r in panel.runs] == [run.id]
    assert panel.table.model.rowCount() == 1
    assert "main.py x1" in panel.table.model.raw(0, 3) and "PipeUtilization" in panel.table.model.raw(0, 4)
    shot(dialog, "6-runs")
    click_row(qtbot, panel, run.id)
    user.click(panel.reopen_button)
    wait_report(qtbot, window, 1)

    with qtbot.waitSignal(window.context.bridge.task_started, timeout=10000) as started:
        user.click(panel.rerun_button)  # same options, a new run
    rerun = started.args[0]
    qtbot.waitUntil(lambda: len(panel.runs) == 2, timeout=60000)
    wait_report(qtbot, window, 2)
    assert rerun.state.value == "succeeded"
    new = next(r for r in panel.runs if r.id != run.id)
    assert new.options == run.options and new.command[1:] != [] and new.remote_dir != run.remote_dir

    click_row(qtbot, panel, run.id)
    yes = QMessageBox.StandardButton.Yes
    with user.answering(QMessageBox, lambda box: user.press(box, yes)) as asked:
        user.click(panel.delete_button)  # locally only
    assert "the data on the host is kept" in asked[0], asked
    qtbot.waitUntil(lambda: [r.id for r in panel.runs] == [new.id], timeout=30000)
    assert not run.local_path(project).exists() and remote_dir.is_dir()
    assert [r.id for r in list_runs(open_project(project))] == [new.id]

    click_row(qtbot, panel, new.id)
    user.toggle(panel.on_host)
    assert panel.on_host.isChecked()
    with (
        qtbot.waitSignal(window.context.bridge.task_started, timeout=10000) as started,
        user.answering(QMessageBox, lambda box: user.press(box, yes)) as asked,
    ):
        user.click(panel.delete_button)  # and on the host
    task = started.args[0]
    assert new.remote_dir in asked[0], asked
    qtbot.waitUntil(lambda: panel.runs == [], timeout=30000)
    assert task.state.value == "succeeded"
    assert not new.local_path(project).exists() and not Path(new.remote_dir).exists()
    assert panel.table.model.rowCount() == 0


def _prof(parent: Path, device: int, index: int) -> Path:
    return write_msprof_prof(
        parent, resnet50_workload(), cann_version="8.0.RC1", soc="Ascend910B2", devices=[device], prof_index=index
    )


def test_merge_two_prof_folders_opens_the_result(qtbot, user, window, tmp_path):
    from workbench.ui.profiler.dialogs import MergeReportsDialog

    a = _prof(tmp_path / "in" / "rank0", 0, 1)
    b = _prof(tmp_path / "in" / "rank1", 1, 2)
    dialog = opened(qtbot, user, window, "Ascend/System Profiler/Merge Reports…", MergeReportsDialog)
    user.retype(dialog.input_dir, str(tmp_path / "in"), finish="tab")  # leaving the field lists the inputs
    qtbot.waitUntil(lambda: dialog.found.text() == "2 report(s) to merge")
    assert str(a) in dialog.found.toolTip()
    assert dialog.output_dir.text() == "" and dialog.output_dir.placeholderText() == str(tmp_path / "in")
    user.retype(dialog.output_dir, str(tmp_path / "out"))
    user.retype(dialog.output_name, "both")
    shot(dialog, "8-merge")
    with qtbot.waitSignal(window.context.bridge.task_started, timeout=10000) as started:
        user.click(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))
    task = started.args[0]
    doc = wait_report(qtbot, window, 0)
    assert task.handle.result == tmp_path / "out" / "both.wbreport" and task.handle.result.is_file()
    assert doc.report.devices == [0, 1]
    assert len(doc.report.ops) == len(open_report(a).ops) + len(open_report(b).ops)
    qtbot.waitUntil(lambda: not dialog.isVisible())  # it closes when the merge succeeded
    # a second merge under the same name is refused unless overwriting is ticked
    again = opened(qtbot, user, window, "Ascend/System Profiler/Merge Reports…", MergeReportsDialog)
    user.retype(again.input_dir, str(tmp_path / "in"))
    user.retype(again.output_dir, str(tmp_path / "out"))
    user.retype(again.output_name, "both")
    user.click(again.buttons.button(QDialogButtonBox.StandardButton.Ok))
    qtbot.waitUntil(lambda: "already exists" in again.status.text(), timeout=30000)
    assert again.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_import_a_local_prof_folder_into_the_project(qtbot, user, window, project, tmp_path):
    from workbench.ui.profiler.dialogs import ImportResultDialog

    prof = _prof(tmp_path / "elsewhere", 0, 1)
    dialog = opened(qtbot, user, window, "Ascend/System Profiler/Import Result…", ImportResultDialog)
    user.toggle(dialog.on_local)
    assert dialog.on_local.isChecked()
    assert not dialog.host.isEnabled()
    user.retype(dialog.source, str(prof.parent))  # the parent of a PROF_ folder
    shot(dialog, "7-import")
    with qtbot.waitSignal(window.context.bridge.task_started, timeout=10000) as started:
        user.click(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))
    task = started.args[0]
    doc = wait_report(qtbot, window, 0)
    runs = list_runs(open_project(project))
    assert len(runs) == 1 and runs[0].kind == "imported" and runs[0].remote_dir == str(prof.parent)
    assert task.handle.result == runs[0].report(project) and task.handle.result.name == prof.name
    assert len(doc.report.ops) == len(open_report(prof).ops)
    assert not any(p.name == "data" for p in task.handle.result.rglob("*"))  # raw data is not copied
    assert prof.is_dir()
