"""open_report / merge / save / export are work functions: progress is reported, cancel is honoured."""
from __future__ import annotations

import pytest

from workbench.core.profiling.export import export_report
from workbench.core.profiling.merge import merge_reports
from workbench.core.profiling.report import open_report
from workbench.core.profiling.saved import save_report
from workbench.core.tasks import CancelToken, Cancelled, RecordingProgress, TaskRunner, TaskState


def test_open_report_reports_progress(prof8):
    progress = RecordingProgress()
    report = open_report(prof8, progress=progress, cancel=CancelToken(), use_cache=False)
    statuses = [v for k, v in progress.events if k == "status"]
    fractions = [v for k, v in progress.events if k == "fraction" and v is not None]
    assert any("op_summary" in s for s in statuses)
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert len(report.ops)


def test_cancelled_open_stops(prof8):
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        open_report(prof8, cancel=token, use_cache=False)


def test_work_functions_on_the_task_runner(prof8, prof_legacy, tmp_path):
    runner = TaskRunner(max_workers=1)
    try:
        merged = runner.submit(merge_reports, [prof8, prof_legacy], title="merge")
        assert merged.wait(60) and merged.state is TaskState.SUCCEEDED, merged.error_text
        assert merged.result.devices == [2, 5]
        saved = runner.submit(save_report, merged.result, tmp_path / "m.wbreport")
        exported = runner.submit(export_report, merged.result, tmp_path / "m.xlsx")
        for handle in (saved, exported):
            assert handle.wait(60) and handle.state is TaskState.SUCCEEDED, handle.error_text
        assert (tmp_path / "m.wbreport").is_file() and (tmp_path / "m.xlsx").is_file()
    finally:
        runner.shutdown()
