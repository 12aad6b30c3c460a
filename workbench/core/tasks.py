"""One mechanism for every long job: a cancel token, a progress protocol and a thread runner.

Work functions have the signature ``fn(*args, progress: Progress, cancel: CancelToken)`` and
report through ``progress``; they call ``cancel.raise_if_cancelled()`` at safe points. The
runner executes them on worker threads and hands back a :class:`TaskHandle` whose listeners
receive every event *in order* (on the worker thread: the Qt bridge in ``workbench.ui.bridge``
re-emits them on the GUI thread).
"""

from __future__ import annotations

import enum
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger(__name__)


class Cancelled(Exception):
    """Raised inside a work function when its task was cancelled."""


class CancelToken:
    """A thread-safe flag a work function polls; callbacks run once when it is set."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []

    def cancel(self) -> None:
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for cb in callbacks:
            try:
                cb()
            except Exception:  # noqa: BLE001 - a failing kill hook must not hide the cancel
                log.exception("cancel callback %r failed", cb)

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled()

    def wait(self, timeout: float | None = None) -> bool:
        """Sleep until cancelled or ``timeout`` elapses; True when cancelled."""
        return self._event.wait(timeout)

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` when cancelled (at once if already cancelled): e.g. kill a process."""
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(callback)
                return
        callback()


class Progress(Protocol):
    """What a work function receives to report on itself."""

    def status(self, text: str) -> None: ...
    def fraction(self, value: float | None) -> None: ...
    def partial(self, item: Any) -> None: ...


class NullProgress:
    """Progress that goes nowhere (for headless calls that do not care)."""

    def status(self, text: str) -> None:
        pass

    def fraction(self, value: float | None) -> None:
        pass

    def partial(self, item: Any) -> None:
        pass


class RecordingProgress:
    """Progress that keeps every event, in order: for tests and the CLI."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []
        self._lock = threading.Lock()

    def status(self, text: str) -> None:
        with self._lock:
            self.events.append(("status", text))

    def fraction(self, value: float | None) -> None:
        with self._lock:
            self.events.append(("fraction", value))

    def partial(self, item: Any) -> None:
        with self._lock:
            self.events.append(("partial", item))


class ScaledProgress:
    """Forwards a sub-task's 0..1 fractions into [lo, hi] of the whole job.

    Status texts and partial items pass through unchanged; a fraction of ``None``
    (indeterminate) is passed on as ``None``.
    """

    def __init__(self, progress: Progress, lo: float, hi: float) -> None:
        self.progress, self.lo, self.hi = progress, lo, hi

    def status(self, text: str) -> None:
        self.progress.status(text)

    def fraction(self, value: float | None) -> None:
        self.progress.fraction(None if value is None else self.lo + (self.hi - self.lo) * value)

    def partial(self, item: Any) -> None:
        self.progress.partial(item)


def user_message(title: str, exc: BaseException) -> str:
    """What a failed job shows the user: the message of the workbench's own errors (they name the
    file, field or host) and of OS errors, as they are; anything else, the job's title and the
    message. Never a class name or a traceback (that goes to the log)."""
    text = str(exc).strip()
    if isinstance(exc, OSError) and not text.startswith("[Errno"):
        return text or f"{title}: {exc.strerror or 'system error'}"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or text}"
    if type(exc).__module__.startswith("workbench.") and text:
        return text
    return f"{title} failed: {text}" if text else f"{title} failed unexpectedly (details in the log)"


class TaskState(enum.Enum):
    PENDING = "pending"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def finished(self) -> bool:
        return self in (TaskState.SUCCEEDED, TaskState.FAILED, TaskState.CANCELLED)


@dataclass(frozen=True)
class TaskEvent:
    """One thing that happened to a task. ``kind`` is one of: started, status, fraction,
    partial, succeeded, failed, cancelled. ``seq`` increases strictly per task."""

    task_id: int
    seq: int
    kind: str
    value: Any = None


Listener = Callable[[TaskEvent], None]
_ids = itertools.count(1)


@dataclass
class TaskHandle:
    """A submitted task: its state, its last status and fraction, and its listeners."""

    title: str
    kind: str = "job"
    task_id: int = field(default_factory=lambda: next(_ids))
    token: CancelToken = field(default_factory=CancelToken)
    state: TaskState = TaskState.PENDING
    status_text: str = ""
    fraction_value: float | None = None
    result: Any = None
    error: BaseException | None = None
    error_text: str = ""
    future: Future[Any] | None = None
    started_at: float | None = None
    finished_at: float | None = None
    _listeners: list[Listener] = field(default_factory=list)
    _seq: int = 0
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _min_fraction_step: float = 0.002
    _last_sent_fraction: float | None = None

    # --- listeners -----------------------------------------------------------------------
    def add_listener(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def _emit(self, kind: str, value: Any = None) -> None:
        # The lock makes seq order equal delivery order even if several threads report.
        with self._lock:
            self._seq += 1
            event = TaskEvent(self.task_id, self._seq, kind, value)
            listeners = list(self._listeners)
            for listener in listeners:
                try:
                    listener(event)
                except Exception:  # noqa: BLE001 - a broken listener must not kill the job
                    log.exception(
                        "listener %r of task %d (%s) failed on its %r event", listener, self.task_id, self.title, kind
                    )

    # --- Progress protocol (called from the work function) ----------------------------------
    def status(self, text: str) -> None:
        self.status_text = text
        self._emit("status", text)

    def fraction(self, value: float | None) -> None:
        if value is not None:
            value = min(1.0, max(0.0, float(value)))
            last = self._last_sent_fraction
            # Rate-limit at the source: tiny steps are dropped, but 0 and 1 always go through.
            if last is not None and abs(value - last) < self._min_fraction_step and value not in (0.0, 1.0):
                self.fraction_value = value
                return
        self._last_sent_fraction = value
        self.fraction_value = value
        self._emit("fraction", value)

    def partial(self, item: Any) -> None:
        self._emit("partial", item)

    # --- control ----------------------------------------------------------------------------
    def cancel(self) -> None:
        self.token.cancel()
        fut = self.future
        if fut is not None and fut.cancel():
            # It never started: report the cancellation ourselves.
            self._finish(TaskState.CANCELLED)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until finished; True if it finished within ``timeout``."""
        fut = self.future
        if fut is None:
            return self.state.finished
        try:
            fut.exception(timeout=timeout)
        except TimeoutError:
            return False
        except Exception:  # noqa: BLE001 - CancelledError and friends
            pass
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.state.finished:
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.001)
        return True

    def _finish(self, state: TaskState, value: Any = None) -> None:
        with self._lock:
            if self.state.finished:
                return
            self.state = state
            self.finished_at = time.monotonic()
        self._emit(state.value, value)


def _lower_priority(step: int) -> None:
    """Make the calling thread ``step`` nicer (Linux: nice is per thread); ignored where unsupported."""
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + step))
    except (AttributeError, OSError):
        pass


class TaskRunner:
    """Runs work functions on a pool of worker threads.

    ``submit(fn, *args, title=..., key=...)``: a newer task with the same ``key`` cancels the
    older one ("latest request wins"). ``shutdown()`` cancels everything and joins the threads.
    """

    def __init__(self, max_workers: int = 4, name: str = "wb-task", background_nice: int = 0) -> None:
        """``background_nice``: raise the OS nice value of the worker threads (and of the threads
        they start, which inherit it on Linux) by this much, so that a GUI thread on a machine
        with few cores is scheduled first while heavy work runs (0: leave it)."""
        self._pool = ThreadPoolExecutor(
            max_workers=max_workers,
            thread_name_prefix=name,
            initializer=_lower_priority if background_nice > 0 else None,
            initargs=(background_nice,) if background_nice > 0 else (),
        )
        self._lock = threading.Lock()
        self._by_key: dict[str, TaskHandle] = {}
        self._active: dict[int, TaskHandle] = {}
        self._new_task_listeners: list[Callable[[TaskHandle], None]] = []
        self._closed = False

    def add_new_task_listener(self, listener: Callable[[TaskHandle], None]) -> None:
        """Called (on the submitting thread) for every new task before it starts."""
        self._new_task_listeners.append(listener)

    def submit(
        self,
        fn: Callable[..., Any],
        *args: Any,
        title: str = "",
        kind: str = "job",
        key: str | None = None,
        listeners: list[Listener] | None = None,
        on_created: Callable[[TaskHandle], None] | None = None,
        **kwargs: Any,
    ) -> TaskHandle:
        """Start ``fn(*args, progress=, cancel=, **kwargs)`` on a worker thread.

        ``on_created(handle)`` runs on this thread before the work starts, so a caller that
        attaches listeners there misses no event.
        """
        handle = TaskHandle(title=title or getattr(fn, "__name__", "task"), kind=kind)
        for listener in listeners or []:
            handle.add_listener(listener)
        with self._lock:
            if self._closed:
                raise RuntimeError("the task runner is shut down")
            previous = self._by_key.get(key) if key else None
            if key:
                self._by_key[key] = handle
            self._active[handle.task_id] = handle
        if previous is not None:
            previous.cancel()
        if on_created is not None:
            on_created(handle)
        for listener in self._new_task_listeners:
            listener(handle)
        handle.future = self._pool.submit(self._run, handle, fn, args, kwargs, key)
        return handle

    def _run(
        self, handle: TaskHandle, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], key: str | None
    ) -> Any:
        try:
            if handle.token.cancelled:
                handle._finish(TaskState.CANCELLED)
                return None
            handle.state = TaskState.RUNNING
            handle.started_at = time.monotonic()
            handle._emit("started", handle.title)
            try:
                result = fn(*args, progress=handle, cancel=handle.token, **kwargs)
            except Cancelled:
                handle._finish(TaskState.CANCELLED)
                return None
            except BaseException as exc:  # noqa: BLE001 - reported, never swallowed silently
                if handle.token.cancelled:
                    handle._finish(TaskState.CANCELLED)
                    return None
                handle.error = exc
                handle.error_text = user_message(handle.title, exc)
                log.warning("task %r failed: %s", handle.title, handle.error_text, exc_info=exc)
                handle._finish(TaskState.FAILED, exc)
                return None
            if handle.token.cancelled:
                handle._finish(TaskState.CANCELLED)
                return None
            handle.result = result
            handle._finish(TaskState.SUCCEEDED, result)
            return result
        finally:
            with self._lock:
                self._active.pop(handle.task_id, None)
                if key and self._by_key.get(key) is handle:
                    del self._by_key[key]

    def active(self) -> list[TaskHandle]:
        with self._lock:
            return [h for h in self._active.values() if not h.state.finished]

    def cancel_all(self) -> None:
        for handle in self.active():
            handle.cancel()

    @property
    def closed(self) -> bool:
        """True once :meth:`shutdown` began: :meth:`submit` refuses new work from then on."""
        with self._lock:
            return self._closed

    def shutdown(self, wait: bool = True, timeout: float | None = 10.0) -> bool:
        """Cancel every task and stop the threads. True if all threads ended in time."""
        with self._lock:
            self._closed = True
        handles = list(self._active.values())
        self.cancel_all()
        ok = True
        if wait:
            for handle in handles:
                ok = handle.wait(timeout) and ok
        self._pool.shutdown(wait=wait and ok, cancel_futures=True)
        return ok


def run_inline(
    fn: Callable[..., Any],
    *args: Any,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    **kwargs: Any,
) -> Any:
    """Run a work function on this thread (CLI, tests)."""
    return fn(*args, progress=progress or NullProgress(), cancel=cancel or CancelToken(), **kwargs)
