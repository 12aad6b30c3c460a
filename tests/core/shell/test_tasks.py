"""The task mechanism: ordered progress, cancellation, failures, no leaked threads."""

from __future__ import annotations

import threading
import time

import pytest

from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress, TaskRunner, TaskState, run_inline


def counting_job(n: int, *, progress, cancel):
    for i in range(n):
        cancel.raise_if_cancelled()
        progress.status(f"step {i}")
        progress.partial(i)
        progress.fraction((i + 1) / n)
    return n * 2


def test_progress_arrives_in_order_and_result_is_returned():
    runner = TaskRunner(max_workers=2)
    events = []
    handle = runner.submit(counting_job, 200, title="count", listeners=[events.append])
    assert handle.wait(10)
    runner.shutdown()
    assert handle.state is TaskState.SUCCEEDED and handle.result == 400
    seqs = [e.seq for e in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert events[0].kind == "started" and events[-1].kind == "succeeded"
    partials = [e.value for e in events if e.kind == "partial"]
    assert partials == list(range(200))
    statuses = [e.value for e in events if e.kind == "status"]
    assert statuses == [f"step {i}" for i in range(200)]
    fractions = [e.value for e in events if e.kind == "fraction"]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


def test_cancel_stops_a_running_job():
    started = threading.Event()
    iterations = []

    def endless(*, progress, cancel):
        started.set()
        while True:
            iterations.append(1)
            cancel.raise_if_cancelled()
            time.sleep(0.005)

    runner = TaskRunner()
    handle = runner.submit(endless, title="endless")
    assert started.wait(5)
    handle.cancel()
    assert handle.wait(5)
    count = len(iterations)
    time.sleep(0.05)
    assert len(iterations) == count, "the job kept running after cancel"
    assert handle.state is TaskState.CANCELLED
    runner.shutdown()


def test_cancel_runs_kill_hooks_once():
    token = CancelToken()
    calls = []
    token.on_cancel(lambda: calls.append("kill"))
    token.cancel()
    token.cancel()
    assert calls == ["kill"]
    late = []
    token.on_cancel(lambda: late.append(1))  # registered after cancel: runs at once
    assert late == [1]
    with pytest.raises(Cancelled):
        token.raise_if_cancelled()


def test_failure_is_reported_with_message():
    def broken(*, progress, cancel):
        raise ValueError("op_summary_0_1.csv: line 3, column 'Task Duration(us)': expected a number, got 'abc'")

    runner = TaskRunner()
    events = []
    handle = runner.submit(broken, title="broken", listeners=[events.append])
    handle.wait(5)
    runner.shutdown()
    assert handle.state is TaskState.FAILED
    # the message and the job, never the exception's class name (the traceback goes to the log)
    assert "line 3" in handle.error_text and "ValueError" not in handle.error_text
    assert handle.error_text.startswith("broken failed: ")
    assert events[-1].kind == "failed"


def test_same_key_cancels_previous():
    gate = threading.Event()

    def slow(tag, *, progress, cancel):
        while not gate.is_set():
            cancel.raise_if_cancelled()
            time.sleep(0.002)
        return tag

    runner = TaskRunner(max_workers=2)
    first = runner.submit(slow, "a", key="slice")
    second = runner.submit(slow, "b", key="slice")
    first.wait(5)
    assert first.state is TaskState.CANCELLED
    gate.set()
    second.wait(5)
    assert second.result == "b"
    runner.shutdown()


def test_shutdown_cancels_everything_and_joins_threads():
    before = {t.name for t in threading.enumerate()}

    def endless(*, progress, cancel):
        while not cancel.wait(0.01):
            pass

    runner = TaskRunner(max_workers=3)
    handles = [runner.submit(endless, title=f"j{i}") for i in range(5)]
    time.sleep(0.05)
    assert runner.shutdown(timeout=5)
    assert all(h.state is TaskState.CANCELLED for h in handles)
    leftover = [t for t in threading.enumerate() if t.name not in before and t.name.startswith("wb-task")]
    assert not leftover


def test_pending_task_cancelled_before_start_reports_cancelled():
    gate = threading.Event()

    def blocker(*, progress, cancel):
        gate.wait(5)

    runner = TaskRunner(max_workers=1)
    runner.submit(blocker)
    queued_events = []
    queued = runner.submit(counting_job, 3, listeners=[queued_events.append])
    queued.cancel()
    gate.set()
    assert queued.wait(5)
    runner.shutdown()
    assert queued.state is TaskState.CANCELLED
    assert [e.kind for e in queued_events] == ["cancelled"]


def test_run_inline_records():
    progress = RecordingProgress()
    assert run_inline(counting_job, 3, progress=progress) == 6
    assert ("partial", 2) in progress.events


def test_background_workers_run_nicer_than_the_caller():
    """With ``background_nice`` the worker threads (and threads they start) get a higher nice
    value than the submitting thread, so a GUI thread wins the CPU on a small machine."""
    import os
    import sys
    import threading

    if not sys.platform.startswith("linux"):
        pytest.skip("per-thread nice is a Linux feature")
    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    if mine >= 19:
        pytest.skip("already as nice as it gets")

    def nice_of_worker_and_child(progress, cancel):
        got = {}

        def child():
            got["child"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

        t = threading.Thread(target=child)
        t.start()
        t.join()
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id()), got["child"]

    runner = TaskRunner(max_workers=1, background_nice=5)
    plain = TaskRunner(max_workers=1)
    try:
        handle = runner.submit(nice_of_worker_and_child, title="nice")
        assert handle.wait(10)
        assert handle.result == (min(19, mine + 5), min(19, mine + 5))
        other = plain.submit(nice_of_worker_and_child, title="plain")
        assert other.wait(10) and other.result == (mine, mine)
    finally:
        runner.shutdown()
        plain.shutdown()
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine  # the caller is untouched


def test_a_failed_job_shows_the_message_of_our_errors_as_it_is(caplog):
    from workbench.core.profiling.errors import ProfilingDataError
    from workbench.core.services.knownhosts import HostKeyChanged
    from workbench.core.tasks import user_message

    bad = ProfilingDataError("/r/op_summary.csv: line 3, column 'Task Duration(us)': expected a number")
    assert user_message("Open report", bad) == str(bad)
    changed = HostKeyChanged.__new__(HostKeyChanged)
    Exception.__init__(changed, "the host key of 'loop' differs from ~/.ssh/known_hosts line 1")
    assert user_message("Test connection", changed) == "the host key of 'loop' differs from ~/.ssh/known_hosts line 1"
    missing = FileNotFoundError(2, "No such file or directory", "/x/acl.json")
    assert user_message("Save", missing) == "/x/acl.json: No such file or directory"
    assert user_message("Convert", KeyError("input")) == "Convert failed: 'input'"
    assert user_message("Convert", RuntimeError()) == "Convert failed unexpectedly (details in the log)"

    def broken(*, progress, cancel):
        raise bad

    runner = TaskRunner()
    with caplog.at_level("WARNING", logger="workbench.core.tasks"):
        handle = runner.submit(broken, title="Open report")
        handle.wait(5)
    runner.shutdown()
    assert handle.error_text == str(bad)
    record = next(r for r in caplog.records if "Open report" in r.getMessage())
    assert record.exc_info is not None  # the traceback is in the log, not in front of the user


def test_a_runner_says_it_is_closed_once_shutdown_began():
    """What a view checks before it starts follow-up work while the window closes (a report that got ready
    as the window shut the runner down started the advisor and raised 'the task runner is shut down')."""
    runner = TaskRunner(max_workers=1)
    assert runner.closed is False
    runner.shutdown(wait=True)
    assert runner.closed is True
    with pytest.raises(RuntimeError, match="shut down"):
        runner.submit(lambda progress, cancel: None)
