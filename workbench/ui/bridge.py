"""The single bridge from core tasks to Qt: events arrive as signals on the GUI thread.

``TaskBridge`` owns a core ``TaskRunner``. ``TaskBridge.start(fn, …)`` submits a work function
and returns a ``QtTask`` whose signals fire on the GUI thread, in the order the work function
reported. Every task also announces itself through ``task_started`` so the Tasks and Output
docks can follow it without the caller wiring anything — except one started with
``announce=False``: a step of a view that shows its own progress and errors (a report tab's model)
has no job for the docks to list.

Signals (QtTask):
    status_changed(str), progress_changed(object: float | None), partial_result(object),
    succeeded(object), failed(str, object), cancelled(), finished()
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject, Signal, Slot

from workbench.core.tasks import TaskEvent, TaskHandle, TaskRunner, TaskState
from workbench.ui.labels import tr_status


class QtTask(QObject):
    status_changed = Signal(str)
    progress_changed = Signal(object)
    partial_result = Signal(object)
    succeeded = Signal(object)
    failed = Signal(str, object)
    cancelled = Signal()
    finished = Signal()
    _relay = Signal(object)  # emitted on the worker thread; queued to the GUI thread

    def __init__(self, handle: TaskHandle, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.handle = handle
        self._relay.connect(self._dispatch)
        handle.add_listener(self._relay.emit)

    @property
    def title(self) -> str:
        return self.handle.title

    @property
    def state(self) -> TaskState:
        return self.handle.state

    def cancel(self) -> None:
        self.handle.cancel()

    @Slot(object)
    def _dispatch(self, event: TaskEvent) -> None:
        kind, value = event.kind, event.value
        if kind == "status":
            self.status_changed.emit(tr_status(value))  # core's status lines, translated
        elif kind == "fraction":
            self.progress_changed.emit(value)
        elif kind == "partial":
            self.partial_result.emit(value)
        elif kind == "succeeded":
            self.succeeded.emit(value)
            self.finished.emit()
        elif kind == "failed":
            self.failed.emit(self.handle.error_text or str(value), value)
            self.finished.emit()
        elif kind == "cancelled":
            self.cancelled.emit()
            self.finished.emit()


class TaskBridge(QObject):
    """Runs core work functions off the GUI thread and exposes them as ``QtTask`` objects."""

    task_started = Signal(object)  # QtTask

    def __init__(self, max_workers: int = 4, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # work runs a little nicer than the GUI thread: on a 2-core machine a 1 GB load's scanner
        # threads would otherwise take the cores the GUI needs to stay responsive
        self.runner = TaskRunner(max_workers=max_workers, background_nice=5)
        self._tasks: dict[int, QtTask] = {}

    def start(
        self,
        fn: Callable[..., Any],
        *args: Any,
        title: str,
        kind: str = "job",
        key: str | None = None,
        announce: bool = True,
        **kwargs: Any,
    ) -> QtTask:
        """Run ``fn(*args, progress, cancel, **kwargs)`` on a worker. ``announce=False``: no
        ``task_started`` (the docks neither list it nor give it an Output tab); the caller shows it."""
        holder: dict[str, QtTask] = {}

        def attach(handle: TaskHandle) -> None:
            # Runs before the worker starts, so no event can be missed.
            holder["task"] = QtTask(handle, self)

        self.runner.submit(fn, *args, title=title, kind=kind, key=key, on_created=attach, **kwargs)
        task = holder["task"]
        self._tasks[task.handle.task_id] = task
        task.finished.connect(lambda t=task: self._tasks.pop(t.handle.task_id, None))
        if announce:
            self.task_started.emit(task)
        return task

    def running(self) -> list[QtTask]:
        return [t for t in self._tasks.values() if not t.state.finished]

    def shutdown(self, timeout: float = 10.0) -> bool:
        """Cancel every job and join the worker threads (used when the window closes)."""
        return self.runner.shutdown(wait=True, timeout=timeout)
