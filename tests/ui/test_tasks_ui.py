"""The bridge delivers core task events on the GUI thread, feeding the Tasks and Output docks."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt, QThread
from PySide6.QtWidgets import QMessageBox, QPushButton


def streaming_job(n, *, progress, cancel):
    for i in range(n):
        cancel.raise_if_cancelled()
        progress.partial(("stderr" if i % 10 == 9 else "stdout", f"line {i}"))
        progress.fraction((i + 1) / n)
    progress.status("all lines sent")
    return n


def endless_job(started: threading.Event, *, progress, cancel):
    started.set()
    progress.status("working")
    while not cancel.wait(0.01):
        progress.partial("tick")


def test_progress_and_output_arrive_in_order_on_gui_thread(qtbot, window):
    seen = []
    threads = set()
    task = window.bridge.start(streaming_job, 300, title="stream 300")
    task.partial_result.connect(lambda item: (seen.append(item[1]), threads.add(QThread.currentThread())))
    with qtbot.waitSignal(task.succeeded, timeout=10000):
        pass
    assert seen == [f"line {i}" for i in range(300)]
    assert threads == {window.thread()}
    view = window.output.view_for(task.handle.task_id)
    text = view.toPlainText()
    assert text.index("line 0") < text.index("line 299") and "Finished." in text
    assert window.tasks.status_of(task.handle.task_id) == "Done"
    # search in the output tab
    window.output.tabs.setCurrentWidget(view)
    window.output.search.setText("line 29")
    assert window.output.match_count() == 11  # line 29, 290..299
    assert window.output.find_next()


def test_cancel_button_in_tasks_dock_stops_the_job(qtbot, user, window):
    started = threading.Event()
    task = window.bridge.start(endless_job, started, title="endless")
    assert started.wait(5)
    user.dock_tab(window, "Tasks")  # tabbed behind Output: its tab, then Cancel on the job's row
    tasks = window.tasks
    rows = tasks.tree.findItems("endless", Qt.MatchFlag.MatchExactly, tasks.COL_TITLE)
    assert len(rows) == 1
    tasks.tree.scrollToItem(rows[0])
    button = tasks.tree.itemWidget(rows[0], tasks.COL_ACTION)
    assert isinstance(button, QPushButton) and button.text() == "Cancel"
    with qtbot.waitSignal(task.cancelled, timeout=5000):
        user.click(button)
    qtbot.waitUntil(lambda: rows[0].text(tasks.COL_STATUS) == "Cancelled", timeout=5000)
    assert window.tasks.status_of(task.handle.task_id) == "Cancelled"
    assert "Cancelled." in window.output.view_for(task.handle.task_id).toPlainText()


def test_closing_with_jobs_running_asks_then_cancels(qtbot, window, monkeypatch):
    started = threading.Event()
    task = window.bridge.start(endless_job, started, title="long job")
    assert started.wait(5)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No)
    window.close()
    assert asked and "long job" in asked[0]
    assert window.isVisible() and not task.state.finished, "answering No keeps the window and the job"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.close()
    assert not window.isVisible()
    assert task.handle.state.value == "cancelled"


def test_save_output(qtbot, window, tmp_path):
    task = window.bridge.start(streaming_job, 5, title="short")
    with qtbot.waitSignal(task.succeeded, timeout=5000):
        pass
    window.output.tabs.setCurrentWidget(window.output.view_for(task.handle.task_id))
    out = tmp_path / "job.log"
    window.output.save_current(str(out))
    assert out.read_text().splitlines()[0] == "line 0"


def test_task_status_lines_are_translated_in_the_tasks_dock(qtbot):
    """A core work function's status line ("Reading x.json") reaches every dock in the UI language."""
    from PySide6.QtCore import QCoreApplication

    from workbench.ui import i18n
    from workbench.ui.app import create_app
    from workbench.ui.bridge import TaskBridge

    app, _settings, _problems = create_app("zh_CN")
    bridge = TaskBridge()
    try:
        seen = []

        def work(*, progress, cancel):
            progress.status("Reading trace_view.json")

        task = bridge.start(work, title="t")
        task.status_changed.connect(seen.append)
        qtbot.waitUntil(lambda: task.state.finished, timeout=10000)
        qtbot.waitUntil(lambda: bool(seen), timeout=10000)
        expected = QCoreApplication.translate("TaskStatus", "Reading {0}").format("trace_view.json")
        assert seen[-1] == expected and expected != "Reading trace_view.json"
    finally:
        bridge.shutdown()
        for tr in getattr(app, "_wb_translators", []):
            app.removeTranslator(tr)
        app._wb_translators = i18n.install_translators(app, "en")
