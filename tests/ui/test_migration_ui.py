"""GPU → Ascend migration (issue #22), driven as a user does: Ascend ▸ Framework Trans ▸ PyTorch /
TensorFlow GPU2Ascend…, the project folder chosen in Qt's own file dialog, the main script typed,
core's checks on the page (Next disabled), the exact command line, Run on the demo host (simulated
msFmkTransplt / convert_tf2npu), and the Migration Report document that opens at the end: its tables
hold exactly the rows of the tools' files (read here with csv / openpyxl), the support filter, a
double-click opens the side-by-side diff at that line on both sides (every row of the PyTorch change
list); a report folder re-opened through Open Migration Report…; the zh_CN window's headers."""

from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QWizard

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (no __init__.py)
from sshd import SshServer, ssh_home, sshd_server  # noqa: E402,F401

from workbench.ui.migration.diff_view import CURRENT  # noqa: E402
from workbench.ui.migration.document import MigrationReportDocument  # noqa: E402
from workbench.ui.migration.wizard import RUN, STOP, MigrationWizard  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"
NEXT = QWizard.WizardButton.NextButton


@pytest.fixture
def pt_project(tmp_path) -> Path:
    return Path(shutil.copytree(SAMPLES / "gpu_pytorch_trainer", tmp_path / "src" / "gpu_pytorch_trainer"))


@pytest.fixture
def tf_project(tmp_path) -> Path:
    return Path(shutil.copytree(SAMPLES / "gpu_tf_trainer", tmp_path / "src" / "gpu_tf_trainer"))


def the_wizard(qtbot) -> MigrationWizard:
    found: list[MigrationWizard] = []

    def visible() -> bool:
        found[:] = [w for w in QApplication.topLevelWidgets() if isinstance(w, MigrationWizard) and w.isVisible()]
        return len(found) == 1

    qtbot.waitUntil(visible, timeout=5000)
    return found[0]


def fill_and_run(
    qtbot, user, window, entry: str, project: Path, main: str
) -> tuple[MigrationWizard, MigrationReportDocument]:
    user.trigger(window, entry)
    wizard = the_wizard(qtbot)
    page = wizard.project_page
    assert not wizard.button(NEXT).isEnabled(), "no project chosen yet: Next is disabled"
    assert "folder of the GPU project to migrate is missing" in page.checks.text()
    with user.answering(QFileDialog, user.typing_path(project)):
        user.click(page.input_browse)
    qtbot.waitUntil(lambda: page.input.text() == str(project), timeout=5000)
    user.retype(page.main, "nope.py")
    qtbot.waitUntil(lambda: "--main nope.py: no such file" in page.checks.text(), timeout=5000)
    assert not wizard.button(NEXT).isEnabled()
    user.retype(page.main, main)
    qtbot.waitUntil(lambda: wizard.button(NEXT).isEnabled(), timeout=5000)
    assert not page.checks.isVisible()
    user.click(wizard.button(NEXT))
    qtbot.waitUntil(lambda: wizard.currentPage() is wizard.run_page, timeout=5000)
    user.click(wizard.button(RUN))
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), MigrationReportDocument), timeout=60000)
    doc = window.documents.currentWidget()
    qtbot.waitUntil(lambda: doc.report is not None, timeout=10000)
    qtbot.waitUntil(lambda: not wizard.button(STOP).isEnabled(), timeout=10000)
    assert wizard.last_result is not None and wizard.last_result.ok, wizard.run_page.result.text()
    return wizard, doc


def output_text(window) -> str:
    tabs = window.output.tabs
    return "\n".join(
        tabs.widget(i).toPlainText() for i in range(tabs.count()) if hasattr(tabs.widget(i), "toPlainText")
    )


def table(view) -> list[list[str]]:
    model = view.model()
    return [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]


def csv_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def double_click_row(qtbot, view, row: int) -> None:
    index = view.model().index(row, 0)
    view.scrollTo(index)
    pos = view.visualRect(index).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def assert_diff_at(qtbot, doc, side: str, line: int) -> None:
    diff = doc.diff_view

    def shown() -> bool:
        row = diff.current_row
        return row >= 0 and diff.block_text(side, row).startswith(f"{line:>5}  ")

    qtbot.waitUntil(shown, timeout=5000)
    row = diff.current_row
    assert diff.highlighted("left").get(row) == CURRENT and diff.highlighted("right").get(row) == CURRENT
    assert diff.left.textCursor().blockNumber() == row == diff.right.textCursor().blockNumber()
    assert diff.left.verticalScrollBar().value() == diff.right.verticalScrollBar().value()


def test_pytorch_sample_migrated_on_the_demo_host(qtbot, user, window, pt_project, tmp_path):
    wizard, doc = fill_and_run(
        qtbot, user, window, "Ascend/Framework Trans/PyTorch GPU2Ascend…", pt_project, "train.py"
    )
    command = wizard.run_page.command.toPlainText()
    assert command == wizard.last_result.command and "pytorch_gpu2npu.sh -i " in command and " -v 2.1.0" in command
    out = Path(wizard.last_result.output_dir)
    assert out.name == "gpu_pytorch_trainer_msft" and out.parent.parent == pt_project.with_name(
        "gpu_pytorch_trainer_npu"
    )
    # the Output dock got the tool's lines
    qtbot.waitUntil(lambda: "MsFmkTransplt run success" in output_text(window), timeout=5000)

    # the change list: exactly change_list.csv's rows, in order
    changes = [
        [r["File"], r["Start Line"], r["End Line"], r["Operation Type"], r["Message"]]
        for r in csv_rows(out / "change_list.csv")
    ]
    assert changes and table(doc.change_view) == changes
    # the API table: exactly the rows of the API files, the unsupported ones first
    files = {
        "unsupported_api.csv": "Unsupported",
        "unknown_api.csv": "Unknown",
        "api_precision_advice.csv": "Precision advice",
        "api_performance_advice.csv": "Performance advice",
    }
    expected = [
        [r["File"], r["Start Line"], r["OP"].split(".")[0], r["OP"], support, r["Tips"]]
        for name, support in files.items()
        for r in csv_rows(out / name)
    ]
    rows = table(doc.api_view)
    assert sorted(rows) == sorted(expected) and len(rows) == len(expected) == 2
    assert all(r[4] == "Unsupported" for r in rows[: len(csv_rows(out / "unsupported_api.csv"))])
    # the summary: numbers and the chart
    assert doc.summary_values["Changes"] == len(changes) and doc.summary_values["Unsupported"] == 2
    assert dict(doc.chart_bars)["unsupported"] == 2

    # filter by support: Unsupported only
    user.step_to(doc.filter, "Unsupported (2)")
    qtbot.waitUntil(lambda: doc.api_view.model().rowCount() == 2, timeout=5000)
    assert {r[4] for r in table(doc.api_view)} == {"Unsupported"}

    # an API row: the input line, highlighted on both sides
    unsupported = table(doc.api_view)
    double_click_row(qtbot, doc.api_view, 0)
    assert_diff_at(qtbot, doc, "left", int(unsupported[0][1]))
    assert unsupported[0][3].split(".")[-1] in doc.diff_view.block_text("left", doc.diff_view.current_row)

    # a change: the migrated line, highlighted on both sides, the GPU line beside it
    qtbot.mouseClick(doc.tabs.tabBar(), Qt.MouseButton.LeftButton, pos=doc.tabs.tabBar().tabRect(1).center())
    qtbot.waitUntil(lambda: doc.tabs.currentIndex() == 1, timeout=5000)
    # every change of the list, one after the other: its migrated line on the right, highlighted on both
    # sides, the GPU line it replaced (a modify) or nothing (an insert) beside it
    diff = doc.diff_view
    assert len(changes) == 11, "models/resnet.py: 3 changes, train.py: 8"
    for row, (file, start, _end, kind, message) in enumerate(changes):
        line = int(start)
        double_click_row(qtbot, doc.change_view, row)
        qtbot.waitUntil(lambda f=file, n=line: diff.title.text().startswith(f"{f}:{n}  "), timeout=5000)
        assert_diff_at(qtbot, doc, "right", line)
        assert diff.right_label.text().endswith(str(out / file)), diff.right_label.text()
        migrated = (out / file).read_text().splitlines()[line - 1]
        right = diff.block_text("right", diff.current_row)
        assert right == f"{line:>5}  {migrated}", f"change {row} ({file}:{line} {message})"
        left = diff.block_text("left", diff.current_row)
        original = (pt_project / file).read_text().splitlines()
        if kind == "insert":
            assert left.strip() == "" and migrated == "import torch_npu", f"change {row}: an added line"
        else:
            number = int(left[:5])
            assert left[7:] == original[number - 1] != migrated, f"change {row}: the GPU line beside it"
            if "torch.cuda to torch.npu" in message:
                assert "torch.cuda" in left and "torch.npu" in migrated

    # Open Migrated Project: the migrated copy becomes the workbench project
    user.click(doc.open_project_button)
    qtbot.waitUntil(lambda: window.project is not None and Path(window.project.root) == out.resolve(), timeout=5000)


def test_tensorflow_sample_rows_equal_the_xlsx(qtbot, user, window, tf_project):
    from openpyxl import load_workbook

    wizard, doc = fill_and_run(
        qtbot, user, window, "Ascend/Framework Trans/TensorFlow GPU2Ascend…", tf_project, "train.py"
    )
    result = wizard.last_result
    assert "npu_bridge/convert_tf2npu/main.py -i " in result.command and result.command.endswith("train.py")
    report = Path(result.report_dir)
    root = f"{result.remote_dir}/input/gpu_tf_trainer/"
    ws = load_workbook(report / "api_analysis_report.xlsx", read_only=True).worksheets[0]
    rows = list(ws.iter_rows(values_only=True))
    header = list(rows[0])
    col = {name: header.index(name) for name in ("脚本文件名", "代码行", "模块名", "API名", "支持度", "迁移建议")}
    expected = [
        [
            str(r[col["脚本文件名"]]).removeprefix(root),
            str(r[col["代码行"]]),
            str(r[col["模块名"]] or ""),
            str(r[col["API名"]]),
            str(r[col["支持度"]]),
            str(r[col["迁移建议"]] or ""),
        ]
        for r in rows[1:]
        if r and any(v is not None for v in r)
    ]
    got = table(doc.api_view)
    assert sorted(got) == sorted(expected) and len(got) == 25
    assert got[0][4] == "不支持", "the unsupported rows come first"
    success = [ln.split(" ", 1) for ln in (report / "success_report.txt").read_text().splitlines() if ln.strip()]
    assert [[c[0], c[1], c[4]] for c in table(doc.change_view)] == [
        [loc.removeprefix(root).rsplit(":", 1)[0], loc.rsplit(":", 1)[1], text] for loc, text in success
    ]
    # sort by Line (a click on its header): numbers, not text
    header_view = doc.api_view.horizontalHeader()
    at = QPoint(header_view.sectionViewportPosition(1) + 5, header_view.height() // 2)
    qtbot.mouseClick(header_view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    qtbot.waitUntil(lambda: header_view.sortIndicatorSection() == 1, timeout=5000)
    lines = [int(r[1]) for r in table(doc.api_view)]
    assert lines == sorted(lines)
    # the unsupported row's diff: its input line on the left
    user.step_to(doc.filter, "Unsupported (1)")
    qtbot.waitUntil(lambda: doc.api_view.model().rowCount() == 1, timeout=5000)
    only = table(doc.api_view)[0]
    double_click_row(qtbot, doc.api_view, 0)
    assert_diff_at(qtbot, doc, "left", int(only[1]))
    assert "hvd.allreduce" in doc.diff_view.block_text("left", doc.diff_view.current_row)


def test_report_folder_reopened_in_zh_cn(qtbot, user, zh_window, pt_project, tmp_path):
    """A report folder the user already has: Open Migration Report… in the zh_CN window, Chinese headers."""
    from workbench.core.migration.run import run_migration
    from workbench.core.services.demohost import resolve_host

    host = resolve_host("demo")
    transport = zh_window.context.host_transport("demo")
    result = run_migration("pytorch", pt_project, tmp_path / "out", transport, host.toolkit or None)
    assert result.ok, result.error
    entries = zh_window.menu_entries()
    path = next(p for p in entries if p.endswith("/打开迁移报告…"))
    with user.answering(QFileDialog, user.typing_path(result.report_dir)):
        entries[path].trigger()
    qtbot.waitUntil(lambda: isinstance(zh_window.documents.currentWidget(), MigrationReportDocument), timeout=10000)
    doc = zh_window.documents.currentWidget()
    qtbot.waitUntil(lambda: doc.report is not None, timeout=10000)
    model = doc.api_view.model()
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers == ["脚本", "行", "模块", "API", "支持度", "迁移建议"]
    assert {r[4] for r in table(doc.api_view)} == {"不支持"}
    # the input folder is not known here: the diff says so until the user chooses it
    with user.answering(QFileDialog, user.typing_path(pt_project)):
        user.click(doc.choose_input_button)
    qtbot.waitUntil(lambda: doc.files.input_dir == pt_project, timeout=5000)
    qtbot.mouseClick(doc.tabs.tabBar(), Qt.MouseButton.LeftButton, pos=doc.tabs.tabBar().tabRect(1).center())
    qtbot.waitUntil(lambda: doc.tabs.currentIndex() == 1, timeout=5000)
    change = result.report.changes[0]
    double_click_row(qtbot, doc.change_view, 0)
    assert_diff_at(qtbot, doc, "right", change.line)


def test_stop_kills_the_tool_and_a_second_run_needs_consent(qtbot, user, window, pt_project, monkeypatch):
    """Stop during the run: the tool's process group on the host is killed, no report opens; the
    output folder of a finished run is refused on the page until the user ticks the box."""
    monkeypatch.setenv("ASCEND_SIM_MIGRATION_SECONDS", "4")  # the simulated tool spends 4 s per file
    user.trigger(window, "Ascend/Framework Trans/PyTorch GPU2Ascend…")
    wizard = the_wizard(qtbot)
    page = wizard.project_page
    user.retype(page.input, str(pt_project))
    qtbot.waitUntil(lambda: wizard.button(NEXT).isEnabled(), timeout=5000)
    user.click(wizard.button(NEXT))
    user.click(wizard.button(RUN))
    status = wizard.run_page.status
    qtbot.waitUntil(lambda: status.text().startswith("Running pytorch_gpu2npu.sh"), timeout=20000)
    user.click(wizard.button(STOP))
    qtbot.waitUntil(lambda: wizard.run_page.result.text().startswith("Stopped"), timeout=20000)
    assert not any(
        isinstance(window.documents.widget(i), MigrationReportDocument) for i in range(window.documents.count())
    )
    qtbot.waitUntil(lambda: wizard.button(RUN).isEnabled(), timeout=5000)  # the run is over: Run again
    # the output folder holds the uploaded-then-stopped run? no: nothing was downloaded
    out = pt_project.with_name("gpu_pytorch_trainer_npu")
    assert not out.exists() or not any(out.iterdir())

    monkeypatch.setenv("ASCEND_SIM_MIGRATION_SECONDS", "0")
    user.click(wizard.button(RUN))
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), MigrationReportDocument), timeout=60000)
    qtbot.waitUntil(lambda: not wizard.button(STOP).isEnabled(), timeout=10000)
    checks = wizard.run_page.checks
    qtbot.waitUntil(lambda: checks.isVisible() and "already holds files" in checks.text(), timeout=5000)
    assert not wizard.button(RUN).isEnabled()
    user.click(wizard.button(QWizard.WizardButton.BackButton))
    user.set_checked(page.force, True)
    user.click(wizard.button(NEXT))
    qtbot.waitUntil(lambda: wizard.button(RUN).isEnabled() and not checks.isVisible(), timeout=5000)


def test_report_folder_opens_from_the_project_explorer(qtbot, window, tf_project, tmp_path):
    """A convert_tf2npu report_npu_* folder in the project is a "Migration report" (core artefacts):
    a double-click on its row opens the Migration Report document."""
    from workbench.core.migration.run import run_migration
    from workbench.core.services.demohost import resolve_host

    root = tmp_path / "proj"
    root.mkdir()
    result = run_migration(
        "tf1", tf_project, root / "mig", window.context.host_transport("demo"), resolve_host("demo").toolkit or None
    )
    assert result.ok, result.error
    window.create_project(root)
    report = Path(result.report_dir)
    view, explorer = window.explorer.view, window.explorer

    def row(path: Path) -> QPoint:
        def shown() -> bool:
            index = explorer.index_of(path)
            if not index.isValid():
                return False
            view.scrollTo(index)
            return view.viewport().rect().contains(view.visualRect(index))

        qtbot.waitUntil(shown, timeout=10000)
        return view.visualRect(explorer.index_of(path)).center()

    def double_click(path: Path) -> None:
        pos = row(path)
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)

    for folder in (root / "mig", root / "mig" / "report"):
        double_click(folder)
        qtbot.waitUntil(lambda f=folder: view.isExpanded(explorer.index_of(f)), timeout=5000)
    double_click(report)
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), MigrationReportDocument), timeout=10000)
    doc = window.documents.currentWidget()
    qtbot.waitUntil(lambda: doc.report is not None, timeout=10000)
    assert doc.path == report and len(table(doc.api_view)) == 25
    assert {r[0] for r in table(doc.api_view)} <= {"train.py", "data.py"}
    assert all(not r[0].startswith("/") for r in table(doc.api_view)), "the host's input folder is cut off"
    assert doc.files.output_dir == Path(result.output_dir)


def test_a_folder_with_no_report_says_what_was_looked_for(qtbot, user, window, tmp_path):
    empty = tmp_path / "nothing_here"
    empty.mkdir()
    with user.answering(QFileDialog, user.typing_path(empty)):
        user.trigger(window, "Ascend/Framework Trans/Open Migration Report…")
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), MigrationReportDocument), timeout=10000)
    doc = window.documents.currentWidget()
    qtbot.waitUntil(lambda: "no migration report here" in doc.status.text(), timeout=10000)
    text = doc.status.text()
    assert text.startswith(str(empty)) and "success_report.txt" in text and "\n" not in text
    assert "Error" not in text and "Traceback" not in text


@pytest.fixture
def loop_host(ssh_home, sshd_server, tmp_path):
    """A configured CANN machine ``loop``: the real sshd with a simulated CANN toolkit."""
    from workbench.core.services.hosts import HostStore
    from workbench.simtoolkit.install import install

    prefix = tmp_path / "Ascend"
    install(prefix, cann_version="8.0.RC1", soc_version="Ascend910B2", devices=2)
    HostStore().add(sshd_server.host("loop", toolkit=str(prefix)))
    return "loop"


def test_tf2_over_ssh_on_a_configured_machine(qtbot, user, window, tf_project, loop_host):
    """The TF2 tool (npu_device's convert_tf2npu) over the real sshd: uploaded, run, fetched, the report opens."""
    user.trigger(window, "Ascend/Framework Trans/TensorFlow GPU2Ascend…")
    wizard = the_wizard(qtbot)
    page = wizard.project_page
    user.step_to(page.framework, "TensorFlow 2.x (convert_tf2npu, npu_device)")
    user.step_to(page.host, page.host.itemText(page.host.findData(loop_host)))
    assert not page.host_note.isVisible(), "no 'simulated demo host' note for a configured machine"
    user.retype(page.input, str(tf_project))
    user.retype(page.main, "train.py")
    qtbot.waitUntil(lambda: wizard.button(NEXT).isEnabled(), timeout=5000)
    assert "npu_device/convert_tf2npu/main.py" in page.command.toPlainText()
    user.click(wizard.button(NEXT))
    user.click(wizard.button(RUN))
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), MigrationReportDocument), timeout=90000)
    doc = window.documents.currentWidget()
    result = wizard.last_result
    assert result is not None and result.ok and result.host == loop_host, result and result.error
    assert "npu_device/convert_tf2npu/main.py -i " in result.command
    assert table(doc.change_view) and table(doc.api_view)
    change = doc.change_rows[0]
    qtbot.mouseClick(doc.tabs.tabBar(), Qt.MouseButton.LeftButton, pos=doc.tabs.tabBar().tabRect(1).center())
    qtbot.waitUntil(lambda: doc.tabs.currentIndex() == 1, timeout=5000)
    double_click_row(qtbot, doc.change_view, 0)
    assert_diff_at(qtbot, doc, "right", change.line)


def demo_migration(window, project: Path, out: Path):
    """The simulated msFmkTransplt run on the demo host, as core runs it (a report folder the user has)."""
    from workbench.core.migration.run import run_migration
    from workbench.core.services.demohost import resolve_host

    result = run_migration("pytorch", project, out, window.context.host_transport("demo"), resolve_host("demo").toolkit)
    assert result.ok, result.error
    return result


def test_open_report_opens_a_migration_report_folder(qtbot, user, window, pt_project, tmp_path):
    """File ▸ Open Report… with a migration report folder typed in Qt's dialog, Enter: the Migration Report
    document opens through the registry (before, the dialog went into the folder and stayed open)."""
    result = demo_migration(window, pt_project, tmp_path / "out")
    with user.answering(QFileDialog, user.typing_path(result.report_dir)) as answered:
        user.trigger(window, "File/Open Report…")
    assert answered == ["Open Report"]
    qtbot.waitUntil(lambda: isinstance(window.documents.currentWidget(), MigrationReportDocument), timeout=10000)
    doc = window.documents.currentWidget()
    qtbot.waitUntil(lambda: doc.report is not None, timeout=10000)
    assert doc.path == Path(result.report_dir) and len(doc.report.changes) == len(result.report.changes) > 0


def test_open_migrated_project_through_the_context(qtbot, user, window, pt_project, tmp_path):
    """The document opens the migrated project with its AppContext's open_project (no main window as its
    parent: a context built of fakes)."""
    from dataclasses import replace

    from workbench.ui.migration.document import open_migration_report

    result = demo_migration(window, pt_project, tmp_path / "out")
    opened: list[str] = []
    shown: list = []
    context = replace(
        window.context,
        open_project=opened.append,
        add_document=lambda widget, title, tip="": shown.append(widget) or 0,
    )
    doc = open_migration_report(context, result.report_dir, result.report, output_dir=result.output_dir)
    qtbot.addWidget(doc)
    assert shown == [doc]
    doc.show()
    user.click(doc.open_project_button)
    qtbot.waitUntil(lambda: opened == [result.output_dir], timeout=5000)
    assert (Path(result.output_dir) / ".ascend-workbench" / "project.json").is_file()
    assert window.project is None, "the context's open_project, not the main window's"


def test_run_status_lines_in_the_output_dock_in_zh_cn(qtbot, user, zh_window, pt_project):
    """The zh_CN window: core's status lines of the run (upload, run, download, finished) show in Chinese in
    the Output dock, as the report's do (before, they stayed English there)."""
    from workbench.core.migration import run
    from workbench.ui.migration import texts

    assert texts.STATUS_TEMPLATES == run.STATUS_TEMPLATES  # the translations' list is core's
    entries = zh_window.menu_entries()
    entries[next(p for p in entries if p.endswith("/PyTorch GPU2Ascend…"))].trigger()
    wizard = the_wizard(qtbot)
    user.retype(wizard.project_page.input, str(pt_project))
    qtbot.waitUntil(lambda: wizard.button(NEXT).isEnabled(), timeout=5000)
    user.click(wizard.button(NEXT))
    user.click(wizard.button(RUN))
    qtbot.waitUntil(lambda: "迁移完成" in output_text(zh_window), timeout=60000)
    text = output_text(zh_window)
    assert "正在将 gpu_pytorch_trainer 上传到 " in text and "pytorch_gpu2npu.sh" in text
    for english in ("Uploading ", "Running pytorch_gpu2npu.sh", "Downloading the migrated", "Migration finished"):
        assert english not in text, english
    qtbot.waitUntil(lambda: not wizard.button(STOP).isEnabled(), timeout=10000)
