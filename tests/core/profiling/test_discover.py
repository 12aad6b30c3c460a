"""Finding the reports below a folder (File ▸ Open Report Folder…, a dropped folder, --open): real
layouts written by the simulated toolkit and the shipped samples; bounded, cancellable, never
descending into a report."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pytest

from workbench.core.profiling.detect import LOOKED_FOR
from workbench.core.profiling.discover import describe, find_reports, ranks_of_one_job, report_root
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.tasks import Cancelled, CancelToken
from workbench.simtoolkit.profdata import resnet50_workload, transformer_workload, write_msprof_prof, write_torch_npu


def _tree_size(path) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


@pytest.fixture
def job(tmp_path, samples):
    """An output folder as users have them: msprof's output with two PROF_* (devices 0,1 and 2),
    four torch_npu ranks side by side, msprof-analyze's cluster_analysis_output beside them."""
    root = tmp_path / "job"
    msprof = root / "msprof_out"
    profs = [
        write_msprof_prof(msprof, resnet50_workload(kind="model"), devices=(0, 1), prof_index=1),
        write_msprof_prof(msprof, resnet50_workload(kind="model"), devices=(2,), prof_index=2),
    ]
    ranks = [write_torch_npu(root / "ranks", transformer_workload(), rank=r, device=r, pid=500 + r) for r in range(4)]
    shutil.copytree(samples / "msprof-analyze-cluster", root / "ranks" / "cluster_analysis_output")
    return root, profs, ranks


def test_every_report_below_a_folder_is_found_once_with_what_the_picker_lists(job):
    root, profs, ranks = job
    found = find_reports(root)
    by_path = {r.path: r for r in found.reports}
    cluster = root / "ranks" / "cluster_analysis_output"
    assert set(by_path) == {*profs, *ranks, cluster}, "each report once; nothing inside a report is listed"
    assert [by_path[p].kind for p in profs] == ["msprof", "msprof"]
    assert by_path[profs[0]].devices == (0, 1) and by_path[profs[1]].devices == (2,)
    for rank, path in enumerate(ranks):
        assert by_path[path].kind == "torch_npu" and by_path[path].ranks == (rank,) and by_path[path].devices == (rank,)
    # the cluster sample lists 8 ranks (its Type=rank rows, Index 0..7)
    assert by_path[cluster].kind == "cluster" and by_path[cluster].ranks == tuple(range(8))
    for report in found.reports:
        assert report.size == _tree_size(report.path)
    # the collection time written into the folder names (20240603093000000)
    stamp = dt.datetime(2024, 6, 3, 9, 30).timestamp()
    assert by_path[profs[0]].time == stamp and by_path[ranks[0]].time == stamp
    assert by_path[profs[0]].relative_to(root) == f"msprof_out/{profs[0].name}"
    assert not found.truncated and not found.skipped


def test_ranks_of_one_job(job):
    root, profs, ranks = job
    found = {r.path: r for r in find_reports(root).reports}
    assert ranks_of_one_job([found[p] for p in ranks])
    assert ranks_of_one_job([found[p] for p in ranks[:2]])
    assert not ranks_of_one_job([found[ranks[0]]]), "one rank is no job"
    assert not ranks_of_one_job([found[ranks[0]], found[profs[0]]]), "a rank and a PROF of another run"
    assert not ranks_of_one_job([found[ranks[0]], found[root / "ranks" / "cluster_analysis_output"]])
    # msprof records no rank: PROF folders of one output folder with their own devices are one job
    assert ranks_of_one_job([found[p] for p in profs])


def test_a_report_folder_is_the_one_report_found(job):
    root, profs, ranks = job
    for folder in (profs[0], ranks[1], root / "ranks" / "cluster_analysis_output"):
        assert report_root(folder)
        found = find_reports(folder)
        assert [r.path for r in found.reports] == [folder]
        assert found.reports[0].relative_to(folder) == "."


def test_saved_reports_and_timeline_files_are_found_by_name(tmp_path, samples):
    folder = tmp_path / "exports"
    (folder / "deep").mkdir(parents=True)
    shutil.copyfile(samples / "torch_npu-trace_view" / "trace_view.json", folder / "deep" / "trace_view.json")
    shutil.copyfile(samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv", folder / "kernel_details.csv")
    (folder / "notes.json").write_text('{"a": 1}')
    (folder / "readme.csv").write_text("a,b\n1,2\n")
    found = find_reports(folder)
    assert sorted(r.relative_to(folder) for r in found.reports) == ["deep/trace_view.json", "kernel_details.csv"]
    kinds = {r.path.name: r.kind for r in found.reports}
    assert kinds == {"trace_view.json": "timeline", "kernel_details.csv": "torch_npu"}


def test_the_search_is_bounded_in_depth_and_folders(tmp_path):
    deep = tmp_path / "a" / "b" / "c" / "d" / "e"
    prof = write_msprof_prof(deep, resnet50_workload(kind="model"))  # 6 levels below tmp_path
    assert find_reports(tmp_path).reports == [], "deeper than the default 4 levels"
    assert [r.path for r in find_reports(tmp_path, max_depth=6).reports] == [prof]
    found = find_reports(tmp_path, max_depth=6, max_folders=3)
    assert found.truncated and found.folders == 3 and found.reports == []


def test_nothing_found_says_where_and_what_was_looked_for(tmp_path):
    (tmp_path / "logs" / "old").mkdir(parents=True)
    (tmp_path / "logs" / "train.log").write_text("epoch 1\n")
    found = find_reports(tmp_path)
    assert found.reports == [] and found.folders == 3
    message = found.nothing_found()
    assert message.startswith(f"{tmp_path}: no profiling report in this folder or up to 4 levels below")
    assert "\n" not in message and all(item in message for item in LOOKED_FOR)


def test_a_folder_named_like_a_report_but_empty_is_reported_not_fatal(tmp_path):
    (tmp_path / "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA").mkdir()
    found = find_reports(tmp_path)
    assert found.reports == [] and len(found.skipped) == 1 and "PROF_000001" in found.skipped[0]
    with pytest.raises(ProfilingDataError, match="not a profiling report"):
        describe(tmp_path / "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA")


def test_symbolic_link_loops_and_hidden_folders_are_not_followed(tmp_path):
    prof = write_msprof_prof(tmp_path / "runs", resnet50_workload(kind="model"))
    (tmp_path / "runs" / "again").symlink_to(tmp_path)  # a loop
    write_msprof_prof(tmp_path / ".trash", resnet50_workload(kind="model"))
    assert [r.path for r in find_reports(tmp_path, max_depth=8).reports] == [prof]


def test_the_search_is_cancellable(tmp_path):
    for n in range(30):
        (tmp_path / f"d{n}" / "x").mkdir(parents=True)
    cancel = CancelToken()
    statuses: list[str] = []

    class Progress:
        def status(self, text):
            statuses.append(text)
            cancel.cancel()  # the user presses Cancel as soon as the search starts

        def fraction(self, value):
            pass

        def partial(self, item):
            pass

    with pytest.raises(Cancelled):
        find_reports(tmp_path, progress=Progress(), cancel=cancel)
    assert statuses == [f"Searching {tmp_path} for reports"]


def test_a_missing_folder_is_an_error(tmp_path):
    with pytest.raises(ProfilingDataError, match="no such folder"):
        find_reports(tmp_path / "gone")


def test_a_folder_of_torch_npu_memory_and_communication_files_is_found_as_one_report(tmp_path):
    # the files of ASCEND_PROFILER_OUTPUT copied into a plain folder (the real 910B sample's shape):
    # detect reads it, so the folder picker must offer it rather than "no profiling report"
    sample = Path(__file__).resolve().parents[3].parent / "shared" / "samples" / "torch_npu-910B-rank0-comm-mem"
    plain = tmp_path / "from_the_cluster"
    plain.mkdir()
    for f in sample.iterdir():
        (plain / f.name).write_bytes(f.read_bytes())
    found = find_reports(tmp_path)
    assert [r.path for r in found.reports] == [plain]
    assert [r.path for r in find_reports(plain).reports] == [plain]
