"""The log file (core.logs, Qt-free): where it lives, how it rotates, that setting it up twice
changes nothing and that a folder that cannot be made never stops anything; and the two places
that used to print tracebacks (task listeners, the CLI's internal-error branch) log them instead."""

from __future__ import annotations

import argparse
import logging
import logging.handlers
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.core import logs, tasks, verbs


@pytest.fixture(autouse=True)
def no_log_file_left():
    logs.stop_logging()
    yield
    logs.stop_logging()


def _file_handlers() -> list[logging.Handler]:
    return [h for h in logging.getLogger("workbench").handlers if isinstance(h, logging.FileHandler)]


def _unwritable_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home whose parent is a regular file: no folder can be made there, even as root."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    monkeypatch.setenv("ASCEND_WORKBENCH_HOME", str(blocker / "home"))
    return blocker / "home"


def test_log_file_is_a_rotating_utf8_file_in_the_state_folder(isolated_home: Path):
    path = logs.setup_logging("cli")
    assert path == isolated_home / "state" / "logs" / "cli.log" == logs.log_dir() / "cli.log"
    assert path.is_file() and logs.log_file() == path
    [handler] = _file_handlers()
    assert isinstance(handler, logging.handlers.RotatingFileHandler)
    assert (handler.maxBytes, handler.backupCount, handler.encoding) == (1024 * 1024, 5, "utf-8")

    logging.getLogger("workbench.core.somewhere").info("已打开 %s", "报告")
    handler.flush()
    line = path.read_text(encoding="utf-8").splitlines()[-1]
    # timestamp, level, logger, thread, message
    assert line[:4].isdigit() and " INFO " in line and " workbench.core.somewhere " in line
    assert "[MainThread]" in line and line.endswith("已打开 报告")


def test_the_file_rotates(isolated_home: Path):
    path = logs.setup_logging("cli")
    log = logging.getLogger("workbench.test")
    for i in range(1200):  # ~1.2 MB
        log.info("%04d %s", i, "x" * 1000)
    assert path.with_name("cli.log.1").is_file()
    assert path.stat().st_size < logs.MAX_BYTES and path.with_name("cli.log.1").stat().st_size <= logs.MAX_BYTES


def test_setup_is_idempotent_and_follows_the_home(isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    first = logs.setup_logging("gui")
    [handler] = _file_handlers()
    assert logs.setup_logging("gui") == first
    assert _file_handlers() == [handler]  # the same handler, not a second one
    # another home (as between tests): the one handler moves there
    monkeypatch.setenv("ASCEND_WORKBENCH_HOME", str(tmp_path / "other"))
    moved = logs.setup_logging("gui")
    assert moved == tmp_path / "other" / "state" / "logs" / "gui.log"
    assert len(_file_handlers()) == 1 and _file_handlers()[0] is not handler
    assert handler.stream is None  # the old file was closed


def test_a_folder_that_cannot_be_made_does_not_raise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    assert logs.setup_logging("gui") is not None
    home = _unwritable_home(tmp_path, monkeypatch)
    assert logs.setup_logging("gui") is None
    assert _file_handlers() == [] and logs.log_file() is None  # falls back to no file at all
    assert logs.log_dir() == home / "state" / "logs" and not home.exists()
    logging.getLogger("workbench.test").info("still fine")  # logging on without a file is harmless


def test_importing_logs_stays_cheap():
    code = "import sys, workbench.core.logs; print('logging.handlers' in sys.modules, 'platformdirs' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


# --- the CLI's internal error: one line on stderr, the traceback in the log file -----------------
def _boom(args: argparse.Namespace) -> int:
    raise RuntimeError("boom")


def test_internal_error_prints_one_line_and_logs_the_traceback(isolated_home: Path, capsys):
    assert verbs.run_guarded(_boom, argparse.Namespace()) == 1
    err = capsys.readouterr().err
    log_path = isolated_home / "state" / "logs" / "cli.log"
    assert err == f"internal error: RuntimeError: boom (details in {log_path})\n"
    for handler in _file_handlers():
        handler.flush()
    text = log_path.read_text(encoding="utf-8")
    assert "ERROR" in text and "internal error in _boom" in text
    assert "Traceback (most recent call last)" in text and 'raise RuntimeError("boom")' in text


def test_internal_error_without_a_log_folder_still_prints_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
):
    home = _unwritable_home(tmp_path, monkeypatch)
    assert verbs.run_guarded(_boom, argparse.Namespace()) == 1
    err = capsys.readouterr().err
    assert (
        err
        == f"internal error: RuntimeError: boom (no details: cannot write a log file in {home / 'state' / 'logs'})\n"
    )


def test_bad_input_does_not_touch_the_log_folder(isolated_home: Path, capsys):
    def bad(args):
        raise ValueError("no such op")

    assert verbs.run_guarded(bad, argparse.Namespace(), bad_input=(ValueError,)) == 2
    assert capsys.readouterr().err == "error: no such op\n"
    assert not (isolated_home / "state" / "logs").exists()


# --- task listeners and cancel hooks: logged, not printed ---------------------------------------
def test_a_broken_listener_and_a_broken_cancel_hook_are_logged(caplog, capsys):
    def broken_listener(event):
        raise ValueError("listener bug")

    def work(*, progress, cancel):
        progress.status("working")
        return 42

    runner = tasks.TaskRunner(max_workers=1)
    try:
        with caplog.at_level(logging.ERROR, logger="workbench.core.tasks"):
            handle = runner.submit(work, title="the job", listeners=[broken_listener])
            assert handle.wait(10) and handle.result == 42  # the job still ran to the end
            token = tasks.CancelToken()
            token.on_cancel(lambda: (_ for _ in ()).throw(OSError("kill failed")))
            token.cancel()
            assert token.cancelled
    finally:
        runner.shutdown()
    listener_records = [r for r in caplog.records if "listener" in r.getMessage()]
    assert listener_records and all(r.name == "workbench.core.tasks" for r in listener_records)
    assert "(the job)" in listener_records[0].getMessage() and "'started' event" in listener_records[0].getMessage()
    assert listener_records[0].exc_info[0] is ValueError
    [cancel_record] = [r for r in caplog.records if "cancel callback" in r.getMessage()]
    assert cancel_record.exc_info[0] is OSError
    assert "Traceback" not in capsys.readouterr().err
