"""open_report / merge / save / export are work functions: progress is reported, cancel is honoured."""

from __future__ import annotations

import pytest

from workbench.core.profiling.build import open_report
from workbench.core.profiling.export import export_report
from workbench.core.profiling.merge import merge_reports
from workbench.core.profiling.storage.saved import save_report
from workbench.core.tasks import (
    Cancelled,
    CancelToken,
    RecordingProgress,
    TaskRunner,
    TaskState,
)


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


def _big(tmp_path, n=30_000):
    from workbench.simtoolkit.profdata import write_big_timeline

    path = tmp_path / "trace_view.json"
    write_big_timeline(path, "torch_npu", n)
    return path


def test_open_for_view_previews_then_leaves_the_cache_for_later(tmp_path, monkeypatch):
    """The view's work function sends a preview of a big uncached trace first, returns without
    writing the cache (the document shows sooner), and write_cache writes it afterwards; the next
    open uses the cache and sends no preview."""
    from workbench.core.profiling import views
    from workbench.core.profiling.detect import detect
    from workbench.core.profiling.storage import cache

    path = _big(tmp_path)
    size = path.stat().st_size
    monkeypatch.setattr(cache, "AUTO_CACHE_BYTES", 1)
    monkeypatch.setattr(views, "PREVIEW_MIN_BYTES", size // 2)
    monkeypatch.setattr(views, "PREVIEW_BYTES", size // 5)
    progress = RecordingProgress()
    report, prepared = views.open_for_view(path, progress=progress, cancel=CancelToken())
    partials = [v for k, v in progress.events if k == "partial"]
    assert len(partials) == 1 and partials[0][0] == "preview"
    pv = partials[0][1]
    assert pv.preview_bytes == size // 5 and pv.source_bytes == size and pv.path == str(path)
    assert 0 < pv.timeline.event_count < report.timeline.event_count
    assert pv.layout is not None and len(pv.name_colors) == len(pv.timeline.names)
    assert "Preview: the first" in str(pv)
    # the preview's slices are the full report's first slices, at the same absolute times
    full_abs = set((report.timeline.start_ns.astype("int64") + report.timeline.origin_ns).tolist())
    assert set((pv.timeline.start_ns.astype("int64") + pv.timeline.origin_ns).tolist()) <= full_abs
    layout = detect(path)
    assert report.pending_cache is not None and not cache.present(layout)
    place = views.write_cache(report, progress=RecordingProgress(), cancel=CancelToken())
    assert place is not None and cache.present(layout) and report.pending_cache is None
    assert views.write_cache(report) is None  # nothing pending any more
    progress = RecordingProgress()
    again, _ = views.open_for_view(path, progress=progress)
    assert "cache" in again.info and not [v for k, v in progress.events if k == "partial"]
    assert again.pending_cache is None and again.timeline.event_count == report.timeline.event_count


def test_small_or_tables_only_sources_get_no_preview(tmp_path, prof8, monkeypatch):
    from workbench.core.profiling import views

    path = _big(tmp_path, 2_000)
    monkeypatch.setattr(views, "PREVIEW_MIN_BYTES", path.stat().st_size + 1)
    assert views.preview(path) is None
    monkeypatch.setattr(views, "PREVIEW_MIN_BYTES", 1)
    assert views.preview(tmp_path / "missing.json") is None
    assert views.preview(prof8) is None or views.preview(prof8).timeline.event_count > 0


def test_cancelled_cache_write_leaves_nothing(tmp_path, monkeypatch):
    from workbench.core.profiling import views
    from workbench.core.profiling.detect import detect
    from workbench.core.profiling.storage import cache

    path = _big(tmp_path, 3_000)
    monkeypatch.setattr(cache, "AUTO_CACHE_BYTES", 1)
    report, _ = views.open_for_view(path)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        views.write_cache(report, cancel=token)
    assert not cache.present(detect(path))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "a half cache was left behind"


def test_status_lines_of_opening_and_comparing_have_translatable_templates(tmp_path, prof8):
    """Every status line the report and comparison work functions send matches one of
    views.STATUS_TEMPLATES, so the UI can show it translated (arguments kept)."""
    from workbench.core.compare.engine import compare_paths
    from workbench.core.profiling import views

    lines = []
    for path in (_big(tmp_path, 2_000), prof8):
        progress = RecordingProgress()
        views.open_for_view(path, progress=progress, cancel=CancelToken())
        lines += [v for k, v in progress.events if k == "status"]
    progress = RecordingProgress()
    compare_paths(str(prof8), str(prof8), progress=progress, use_cache=False)
    lines += [v for k, v in progress.events if k == "status"]
    assert "Laying out the timeline" in lines and "Comparing" in lines
    assert any(line.startswith("Reading ") for line in lines)
    unmatched = [line for line in lines if views.match_template(line, views.STATUS_TEMPLATES) is None]
    assert not unmatched
    template, args = views.match_template(f"Opening base report {prof8.name}", views.STATUS_TEMPLATES)
    assert (template, args) == ("Opening base report {0}", (prof8.name,))
