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
from PySide6.QtWidgets import QDialogButtonBox

from workbench.core.profiler.history import list_runs
from workbench.core.profiling.build import open_report
from workbench.core.project import create_project, open_project
from workbench.simtoolkit.profdata.msprof import write_msprof_prof
from workbench.simtoolkit.profdata.workload import resnet50_workload
from workbench.ui.profiler import open_import_result, open_merge_reports, open_new_profiling, open_profiling_runs
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


@pytest.fixture
def project(window, tmp_path):
    root = tmp_path / "app"
    root.mkdir()
    (root / "main.py").write_text("import sys\nprint('app says hello', *sys.argv[1:], flush=True)\n")
    create_project(root, name="demoapp")
    window.open_project(root)
    return root


def test_profile_a_python_app_end_to_end_then_runs_view(qtbot, window, project):
    w = open_new_profiling(window.context, window)
    qtbot.waitUntil(lambda: w.probe is not None, timeout=60000)
    assert w.exec_page.project_path.text() == str(project)  # the open project is the app project
    assert w.exec_page.project_type.text().startswith("Ascend App")
    w.next()
    e = w.exec_page
    e.executable_type.setCurrentIndex(e.executable_type.findData("python"))
    e.executable.setText("main.py")
    e.python.setText(sys.executable)
    e.args.setText("x1")
    while w.currentPage() is not w.check_page:
        w.next()
    qtbot.waitUntil(w.check_page.isComplete, timeout=60000)
    w.accept()
    task = w.task
    doc = wait_report(qtbot, window, 0)
    assert task.state.value == "succeeded"
    out = window.output.view_for(task.handle.task_id).toPlainText()
    assert "app says hello x1" in out  # the app's output streamed
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
    again = open_new_profiling(window.context, window)  # the options are remembered
    qtbot.addWidget(again)
    qtbot.waitUntil(lambda: again.probe is not None, timeout=60000)
    assert again.job().to_dict() | {"project_type": ""} == {**run.options, "project_type": ""}
    again.reject()

    dialog = open_profiling_runs(window.context, window)
    qtbot.addWidget(dialog)
    panel = dialog.panel
    assert [r.id for r in panel.runs] == [run.id]
    assert panel.table.model.rowCount() == 1
    assert "main.py x1" in panel.table.model.raw(0, 3) and "PipeUtilization" in panel.table.model.raw(0, 4)
    shot(dialog, "6-runs")
    assert panel.select(run.id)
    panel.reopen()
    wait_report(qtbot, window, 1)

    rerun = panel.rerun()  # same options, a new run
    qtbot.waitUntil(lambda: len(panel.runs) == 2, timeout=60000)
    wait_report(qtbot, window, 2)
    assert rerun.state.value == "succeeded"
    new = next(r for r in panel.runs if r.id != run.id)
    assert new.options == run.options and new.command[1:] != [] and new.remote_dir != run.remote_dir

    panel.delete(run.id)  # locally only
    qtbot.waitUntil(lambda: [r.id for r in panel.runs] == [new.id], timeout=30000)
    assert not run.local_path(project).exists() and remote_dir.is_dir()
    assert [r.id for r in list_runs(open_project(project))] == [new.id]

    panel.select(new.id)
    panel.on_host.setChecked(True)
    task = panel.delete(new.id, on_host=True)  # and on the host
    qtbot.waitUntil(lambda: panel.runs == [], timeout=30000)
    assert task.state.value == "succeeded"
    assert not new.local_path(project).exists() and not Path(new.remote_dir).exists()
    assert panel.table.model.rowCount() == 0


def _prof(parent: Path, device: int, index: int) -> Path:
    return write_msprof_prof(
        parent, resnet50_workload(), cann_version="8.0.RC1", soc="Ascend910B2", devices=[device], prof_index=index
    )


def test_merge_two_prof_folders_opens_the_result(qtbot, window, tmp_path):
    a = _prof(tmp_path / "in" / "rank0", 0, 1)
    b = _prof(tmp_path / "in" / "rank1", 1, 2)
    dialog = open_merge_reports(window.context, window)
    qtbot.addWidget(dialog)
    dialog.input_dir.setText(str(tmp_path / "in"))
    dialog.show_inputs()
    assert dialog.found.text() == "2 report(s) to merge" and str(a) in dialog.found.toolTip()
    assert dialog.output_dir.text() == "" and dialog.output_dir.placeholderText() == str(tmp_path / "in")
    dialog.output_dir.setText(str(tmp_path / "out"))
    dialog.output_name.setText("both")
    shot(dialog, "8-merge")
    task = dialog.start()
    doc = wait_report(qtbot, window, 0)
    assert task.handle.result == tmp_path / "out" / "both.wbreport" and task.handle.result.is_file()
    assert doc.report.devices == [0, 1]
    assert len(doc.report.ops) == len(open_report(a).ops) + len(open_report(b).ops)
    # a second merge under the same name is refused unless overwriting is ticked
    again = open_merge_reports(window.context, window)
    qtbot.addWidget(again)
    again.input_dir.setText(str(tmp_path / "in"))
    again.output_dir.setText(str(tmp_path / "out"))
    again.output_name.setText("both")
    again.start()
    qtbot.waitUntil(lambda: "already exists" in again.status.text(), timeout=30000)
    assert again.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_import_a_local_prof_folder_into_the_project(qtbot, window, project, tmp_path):
    prof = _prof(tmp_path / "elsewhere", 0, 1)
    dialog = open_import_result(window.context, window)
    qtbot.addWidget(dialog)
    dialog.on_local.setChecked(True)
    assert not dialog.host.isEnabled()
    dialog.source.setText(str(prof.parent))  # the parent of a PROF_ folder
    shot(dialog, "7-import")
    task = dialog.start()
    doc = wait_report(qtbot, window, 0)
    runs = list_runs(open_project(project))
    assert len(runs) == 1 and runs[0].kind == "imported" and runs[0].remote_dir == str(prof.parent)
    assert task.handle.result == runs[0].report(project) and task.handle.result.name == prof.name
    assert len(doc.report.ops) == len(open_report(prof).ops)
    assert not any(p.name == "data" for p in task.handle.result.rglob("*"))  # raw data is not copied
    assert prof.is_dir()
