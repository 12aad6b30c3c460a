"""Opening reports the way a MindStudio Insight user does: File ▸ Open Report… on a report folder,
File ▸ Open Report Folder… on a folder holding several reports (the picker: one, merged, as a
cluster), a folder dropped on the window, ``--open`` of a folder, Recent Reports — all through the
real menu actions, Qt's own (non-native) file dialog, the picker's buttons and a real drop event."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QMimeData, QPoint, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QMessageBox, QPushButton

from workbench.simtoolkit.profdata import resnet50_workload, transformer_workload, write_msprof_prof, write_torch_npu
from workbench.ui.dialogs.report_picker import ReportPickerDialog
from workbench.ui.report.document import ReportDocument

# offscreen QPA: the file dialog's completion popup raises itself and grabs the keyboard, which that
# platform cannot do (real platforms can); the warnings say so and are harmless here.


def menu_action(window, path: str):
    entries = window.menu_entries()
    assert path in entries, f"{path!r} not in the menus"
    return entries[path]


def choose_in_file_dialog(qtbot, action, path: Path) -> list[str]:
    """Trigger the menu ``action``; in the (Qt, non-native) file dialog it opens, type ``path`` into
    the file name field and press Enter. Returns what went wrong (empty when the dialog took it)."""
    problems: list[str] = []
    done: list[bool] = []

    def answer(tries: int = 400) -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            if tries:
                QTimer.singleShot(25, lambda: answer(tries - 1))
            else:
                problems.append("no file dialog opened")
                done.append(True)
            return
        try:
            assert dialog.testOption(QFileDialog.Option.DontUseNativeDialog), "Qt's own dialog"
            dialog.activateWindow()  # as the window manager does with a new dialog
            edit = dialog.findChild(QLineEdit, "fileNameEdit")
            qtbot.waitUntil(edit.hasFocus, timeout=5000)
            qtbot.mouseClick(edit, Qt.MouseButton.LeftButton, pos=QPoint(4, edit.height() // 2))
            qtbot.keyClicks(edit, str(path))
            popup = QApplication.activePopupWidget()
            if popup is not None:  # the completion list: keep what was typed
                qtbot.keyClick(popup, Qt.Key.Key_Escape)
            qtbot.keyClick(edit, Qt.Key.Key_Return)
            if dialog.isVisible():
                problems.append(f"Enter did not open {path.name}: the dialog shows {dialog.directory().absolutePath()}")
                dialog.reject()
        except Exception as exc:  # noqa: BLE001 - reported by the waiting test, not lost in Qt's event loop
            problems.append(repr(exc))
            dialog.reject()
        finally:
            done.append(True)

    QTimer.singleShot(0, answer)
    action.trigger()
    qtbot.waitUntil(lambda: bool(done), timeout=20000)
    return problems


def current_document(window):
    doc = window.documents.currentWidget()
    return doc if isinstance(doc, ReportDocument) and doc.ready else None


def wait_document(qtbot, window, timeout: int = 60000) -> ReportDocument:
    qtbot.waitUntil(lambda: current_document(window) is not None, timeout=timeout)
    return current_document(window)


def wait_picker(qtbot, window) -> ReportPickerDialog:
    """The report picker ``window`` shows."""

    def shown():
        pickers = [w for w in window.findChildren(ReportPickerDialog) if w.isVisible()]
        return pickers[0] if pickers else None

    qtbot.waitUntil(lambda: shown() is not None, timeout=30000)
    return shown()


def rows(picker: ReportPickerDialog) -> list[str]:
    return [picker.tree.topLevelItem(i).text(0) for i in range(picker.tree.topLevelItemCount())]


def click_row(qtbot, picker: ReportPickerDialog, text: str, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    item = next(
        picker.tree.topLevelItem(i)
        for i in range(picker.tree.topLevelItemCount())
        if picker.tree.topLevelItem(i).text(0) == text
    )
    rect = picker.tree.visualItemRect(item)
    qtbot.mouseClick(picker.tree.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def click(qtbot, button: QPushButton) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def drop(window, path: Path) -> None:
    """Drop ``path`` from a file manager onto the document area, as the platform delivers it."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    pos = window.documents.geometry().center()
    enter = QDragEnterEvent(
        pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted(), "the window takes dropped files"
    event = QDropEvent(
        QPointF(pos), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(window, event)


@pytest.fixture
def msprof_out(tmp_path) -> tuple[Path, list[Path]]:
    """msprof's output folder after two runs: PROF_000001 (devices 0, 1) and PROF_000002 (device 2)."""
    out = tmp_path / "msprof_out"
    profs = [
        write_msprof_prof(out, resnet50_workload(kind="model"), devices=(0, 1), prof_index=1),
        write_msprof_prof(out, resnet50_workload(kind="model"), devices=(2,), prof_index=2, seed=1),
    ]
    return out, profs


@pytest.fixture
def ranks(tmp_path, samples) -> tuple[Path, list[Path]]:
    """A training job's profiler output: four torch_npu ranks and msprof-analyze's cluster output."""
    job = tmp_path / "llama_job"
    paths = [write_torch_npu(job, transformer_workload(), rank=r, device=r, pid=700 + r, seed=r) for r in range(4)]
    shutil.copytree(samples / "msprof-analyze-cluster", job / "cluster_analysis_output")
    return job, paths


def test_open_report_opens_a_report_folder_typed_in_the_dialog(qtbot, window, msprof_out):
    """File ▸ Open Report…, a PROF_* folder typed in Qt's dialog, Enter: the report opens (before,
    the dialog entered the folder and Open greyed out)."""
    _out, profs = msprof_out
    problems = choose_in_file_dialog(qtbot, menu_action(window, "File/Open Report…"), profs[0])
    assert problems == []
    doc = wait_document(qtbot, window)
    assert Path(doc.report.source) == profs[0] and doc.report.devices == [0, 1]
    assert window.documents.tabText(window.documents.currentIndex()) == profs[0].name


def test_open_report_still_opens_a_file(qtbot, window, samples):
    trace = samples / "torch_npu-trace_view" / "trace_view.json"
    assert choose_in_file_dialog(qtbot, menu_action(window, "File/Open Report…"), trace) == []
    doc = wait_document(qtbot, window)
    assert Path(doc.report.source) == trace and doc.report.timeline.event_count > 0


def test_open_report_folder_lists_the_reports_and_merges_the_selected(qtbot, window, msprof_out):
    """File ▸ Open Report Folder… on msprof's output folder: the picker lists both PROF_* (kind,
    devices); both selected and Open as One Report: one merged report of devices 0, 1 and 2."""
    out, profs = msprof_out
    assert choose_in_file_dialog(qtbot, menu_action(window, "File/Open Report Folder…"), out) == []
    picker = wait_picker(qtbot, window)
    assert rows(picker) == [p.name for p in profs]
    first = picker.tree.topLevelItem(0)
    assert [first.text(c) for c in (1, 2, 3)] == ["msprof (CANN 7/8)", "0, 1", "—"]
    assert first.text(4).endswith("KB") and first.text(5) == "2024-06-03 09:30:00"
    # two devices of one output folder: they come selected, as one job
    assert picker.selected_paths() == profs and picker.merge_button.isEnabled()
    click_row(qtbot, picker, profs[0].name)  # a plain click selects only it
    assert picker.selected_paths() == [profs[0]]
    assert not picker.merge_button.isEnabled(), "one report selected: nothing to merge"
    click_row(qtbot, picker, profs[1].name, Qt.KeyboardModifier.ControlModifier)
    assert picker.selected_paths() == profs
    click(qtbot, picker.merge_button)
    qtbot.waitUntil(lambda: not picker.isVisible(), timeout=5000)
    doc = wait_document(qtbot, window)
    assert doc.report.devices == [0, 1, 2]
    assert set(doc.report.info) == {str(p) for p in profs}
    assert window.documents.tabText(window.documents.currentIndex()) == "Merged msprof_out (2 reports)"


def test_picker_open_opens_each_selected_report_in_its_own_tab(qtbot, window, msprof_out):
    out, profs = msprof_out
    window.open_path(out)  # what --open and a drop do
    picker = wait_picker(qtbot, window)
    click_row(qtbot, picker, profs[0].name)
    click_row(qtbot, picker, profs[1].name, Qt.KeyboardModifier.ShiftModifier)  # both
    assert picker.selected_paths() == profs
    click(qtbot, picker.open_button)
    qtbot.waitUntil(
        lambda: (
            sorted(
                Path(window.documents.widget(i).report.source)
                for i in range(window.documents.count())
                if isinstance(window.documents.widget(i), ReportDocument) and window.documents.widget(i).ready
            )
            == sorted(profs)
        ),
        timeout=60000,
    )


def test_a_dropped_folder_of_ranks_opens_as_a_cluster(qtbot, window, ranks):
    """A job folder dropped on the window: the picker lists the four ranks and the cluster analysis,
    the ranks come selected; Open Ranks Together opens them as one report of devices 0-3."""
    job, paths = ranks
    drop(window, job)
    picker = wait_picker(qtbot, window)
    assert rows(picker) == ["cluster_analysis_output", *(p.name for p in paths)]
    cluster = picker.tree.topLevelItem(0)
    assert cluster.text(1) == "Cluster analysis (msprof-analyze)" and cluster.text(3) == "0–7"
    assert [picker.tree.topLevelItem(i).text(3) for i in range(1, 5)] == ["0", "1", "2", "3"]
    assert picker.selected_paths() == paths, "the ranks of the job come selected"
    assert picker.cluster_button.isEnabled()
    click(qtbot, picker.cluster_button)
    doc = wait_document(qtbot, window)
    assert doc.report.devices == [0, 1, 2, 3] and set(doc.report.info) == {str(p) for p in paths}
    assert window.documents.tabText(window.documents.currentIndex()) == "Cluster llama_job (4 ranks)"


def test_cluster_needs_ranks_of_one_job(qtbot, window, ranks):
    job, paths = ranks
    drop(window, job)
    picker = wait_picker(qtbot, window)
    click_row(qtbot, picker, "cluster_analysis_output")  # a plain click: only it
    assert picker.selected_paths() == [job / "cluster_analysis_output"]
    assert not picker.cluster_button.isEnabled() and not picker.merge_button.isEnabled()
    assert "ranks of one job" in picker.cluster_button.toolTip()
    click_row(qtbot, picker, paths[0].name, Qt.KeyboardModifier.ControlModifier)
    assert picker.merge_button.isEnabled() and not picker.cluster_button.isEnabled()
    qtbot.mouseClick(picker.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not picker.isVisible(), timeout=5000)
    assert window.documents.count() == 1 and not isinstance(window.documents.widget(0), ReportDocument)


def test_open_of_a_folder_holding_one_report_opens_it(qtbot, tmp_path):
    """``ascend-workbench --open out/`` where out/ holds one PROF_*: it opens, no picker."""
    from workbench.ui.app import build_window, create_app

    prof = write_msprof_prof(tmp_path / "out", resnet50_workload(kind="model"))
    _app, settings, problems = create_app("en")
    win = build_window(settings, problems, [str(tmp_path / "out")], restore=False, demo=False)
    try:
        win.show()
        doc = wait_document(qtbot, win)
        assert Path(doc.report.source) == prof
        assert not win.findChildren(ReportPickerDialog)
    finally:
        win._quitting = True
        win.close()


def test_a_folder_without_reports_says_what_was_looked_for(qtbot, window, tmp_path):
    empty = tmp_path / "logs"
    (empty / "2024").mkdir(parents=True)
    (empty / "train.log").write_text("loss 0.1\n")
    drop(window, empty)

    def box():
        return next((b for b in window.findChildren(QMessageBox) if b.isVisible()), None)

    qtbot.waitUntil(lambda: box() is not None, timeout=20000)
    text = box().text()
    assert text.startswith(f"{empty}: no profiling report in this folder or up to 4 levels below")
    assert "PROF_*/mindstudio_profiler_output/" in text and "*_ascend_pt" in text and "\n" not in text
    assert window.statusBar().currentMessage() == text
    task_id = max(window.output._views)
    assert text in window.output.view_for(task_id).toPlainText(), "the search's Output tab says it too"
    qtbot.mouseClick(box().button(QMessageBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: box() is None, timeout=5000)


def test_the_search_can_be_cancelled_from_the_tasks_dock(qtbot, window, tmp_path, monkeypatch):
    from workbench.core.profiling import discover

    for n in range(3):
        write_msprof_prof(tmp_path / "big" / f"run{n}", resnet50_workload(kind="model"))
    started = threading.Event()
    real = discover.describe

    def slow_describe(path, cancel=None):  # a slow disk: each report takes until it is cancelled
        started.set()
        while not cancel.cancelled:
            time.sleep(0.01)
        return real(path, cancel)

    monkeypatch.setattr(discover, "describe", slow_describe)
    window.open_path(tmp_path / "big")
    qtbot.waitUntil(started.is_set, timeout=10000)
    tree = window.tasks.tree
    item = tree.topLevelItem(tree.topLevelItemCount() - 1)
    assert item.text(0) == "Find reports in big"
    click(qtbot, tree.itemWidget(item, window.tasks.COL_ACTION))
    qtbot.waitUntil(
        lambda: window.statusBar().currentMessage() == f"Search of {tmp_path / 'big'} cancelled", timeout=10000
    )
    assert item.text(window.tasks.COL_STATUS) == "Cancelled"
    assert not window.findChildren(ReportPickerDialog)


def test_recent_reports_hold_absolute_paths_of_reports_that_opened(qtbot, window, tmp_path, monkeypatch):
    """A report opened by a relative path is remembered by its absolute one; one that fails to load
    is not remembered; File ▸ Recent Reports reopens from anywhere."""
    from workbench.core import settings as core_settings

    prof = write_msprof_prof(tmp_path / "runs", resnet50_workload(kind="model"))
    monkeypatch.chdir(tmp_path)
    window.open_path(Path("runs") / prof.name)  # --open runs/PROF_...
    wait_document(qtbot, window)
    assert window.settings.recent_reports[0] == str(prof)
    bad = tmp_path / "broken" / "trace_view.json"
    bad.parent.mkdir()
    bad.write_bytes(b"\x00\x01 not a trace")
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a[2]))
    window.open_path(Path("broken") / "trace_view.json")
    qtbot.waitUntil(lambda: bool(warned), timeout=20000)
    assert window.settings.recent_reports == [str(prof)], "a failed open is not a recent report"
    assert core_settings.load()[0].recent_reports == [str(prof)]
    # from another folder, the Recent Reports entry still opens it
    monkeypatch.chdir(tmp_path / "broken")
    window.close_document(window.documents.currentIndex())
    menu = window.recent_reports_menu
    menu.popup(window.mapToGlobal(QPoint(40, 40)))  # File ▸ Recent Reports, as it opens
    qtbot.waitUntil(menu.isVisible, timeout=5000)
    entry = next(a for a in menu.actions() if a.text() == str(prof))
    entry.trigger()
    menu.close()
    doc = wait_document(qtbot, window)
    assert Path(doc.report.source) == prof


def test_closing_a_report_tab_the_moment_it_appears_leaves_no_step_behind(qtbot, window, msprof_out):
    """The report document fills its tables over a few event-loop turns. Its tab closed (the close
    button clicked) as soon as it shows: the remaining steps must not run on the deleted document
    (before, they did: "Internal C++ object (QTableView) already deleted", the flake seen in a
    combined run, where a previous test's window was deleted with steps still pending)."""
    _out, profs = msprof_out
    closed: list[ReportDocument] = []
    destroyed: list[bool] = []

    def close_when_shown(_index: int) -> None:
        doc = window.documents.currentWidget()
        if isinstance(doc, ReportDocument) and not closed:
            assert not doc.ready, "still filling its tables"
            closed.append(doc)
            doc.destroyed.connect(lambda *_: destroyed.append(True))
            QTimer.singleShot(0, window, close_tab)  # once the tab is in place: a click on its ✕

    def close_tab() -> None:
        bar = window.documents.tabBar()
        index = window.documents.indexOf(closed[0])
        button = bar.tabButton(index, bar.ButtonPosition.RightSide) or bar.tabButton(index, bar.ButtonPosition.LeftSide)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        # deleted now, as a nested event loop (any modal box) deletes it, before the next step's turn
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)

    window.documents.currentChanged.connect(close_when_shown)
    try:
        assert choose_in_file_dialog(qtbot, menu_action(window, "File/Open Report…"), profs[0]) == []
        qtbot.waitUntil(lambda: bool(destroyed), timeout=60000)
        qtbot.waitUntil(lambda: not window.bridge.running(), timeout=30000)
    finally:
        window.documents.currentChanged.disconnect(close_when_shown)
    assert not any(isinstance(window.documents.widget(i), ReportDocument) for i in range(window.documents.count()))
