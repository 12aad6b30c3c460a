"""The registry's cluster entries (issue #20): a ``cluster_analysis_output`` folder and a saved
``cluster.wbcluster`` open as the Cluster document, a job's folder of ranks offers "Analyse as Cluster"
(a plain folder otherwise); rank, PROF_ and single-report folders classify as before; the demo's first
start still shows the torch_npu report, not a rank of the shipped cluster."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from workbench.core import artefacts as a
from workbench.core.artefacts import Artefact, classify

CLUSTER_FILES = (
    "cluster_step_trace_time.csv",
    "communication_group.json",
    "cluster_communication.json",
    "cluster_communication_matrix.json",
    "cluster.wbcluster",
)


def _rank(parent: Path, name: str, rank: int | None, *, output: bool = True) -> Path:
    """A torch_npu rank folder ``parent/name`` with profiler_info_{rank}.json (none when rank is None)."""
    folder = parent / name
    folder.mkdir(parents=True)
    if rank is not None:
        (folder / f"profiler_info_{rank}.json").write_text(json.dumps({"rank_id": rank}))
    (folder / "profiler_metadata.json").write_text("{}")
    if output:
        (folder / "ASCEND_PROFILER_OUTPUT").mkdir()
        (folder / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv").write_text("Step,Computing\n")
    return folder


def test_the_names_agree_with_the_cluster_package():
    """core.cluster sits above the registry, so the registry repeats its names: they must agree."""
    from workbench.core.cluster import files, report

    assert a.CLUSTER_OUTPUT_DIR == files.OUTPUT_DIR
    assert a.CLUSTER_FILES == files.NAMES
    assert a.CLUSTER_REPORT_NAME == report.REPORT_NAME


@pytest.mark.parametrize("member", CLUSTER_FILES)
def test_a_cluster_analysis_output_opens_as_the_cluster_document(tmp_path, member):
    from workbench.core.cluster.analyze import output_folder

    out = tmp_path / "job" / "cluster_analysis_output"
    out.mkdir(parents=True)
    (out / member).write_text("{}")
    assert classify(out) is Artefact.CLUSTER_OUTPUT
    assert a.open_action(out) == a.OPEN_CLUSTER, "double-click opens it"
    assert a.context_actions(out) == (), "its menu: Open only"
    assert a.open_action(out, as_report=True) == a.OPEN_REPORT, "File ▸ Open Report… is unchanged"
    assert output_folder(out) == out, "what the Cluster document then reads"


def test_a_cluster_output_needs_its_name_and_one_of_its_files(tmp_path, samples):
    empty = tmp_path / "cluster_analysis_output"
    empty.mkdir()
    (empty / "notes.txt").write_text("")
    (empty / "cluster_step_trace_time.csv").mkdir()  # a folder of that name is not the file
    assert classify(empty) is None and a.open_action(empty) is None, "a plain folder: it expands"
    other = tmp_path / "my_results"
    other.mkdir()
    (other / "cluster_step_trace_time.csv").write_text("")
    assert classify(other) is None, "another name: the explorer stays cheap (no look-ups for every folder)"
    # msprof-analyze's real output, kept in a folder of another name, stays what it was
    real = samples / "msprof-analyze-cluster"
    assert (real / "cluster_step_trace_time.csv").is_file() and classify(real) is None
    assert classify(real / "cluster_step_trace_time.csv") is None


def test_a_saved_cluster_report_opens_as_the_cluster_document(tmp_path):
    saved = tmp_path / "cluster_analysis_output" / "cluster.wbcluster"
    saved.parent.mkdir()
    saved.write_text("{}")
    assert classify(saved) is Artefact.CLUSTER_REPORT
    assert a.open_action(saved) == a.OPEN_CLUSTER and a.context_actions(saved) == ()
    for name in ("other.wbcluster", "cluster.wbcluster.bak", "CLUSTER.WBCLUSTER"):
        (tmp_path / name).write_text("{}")
        assert classify(tmp_path / name) is None, name
        assert a.open_action(tmp_path / name) == a.OPEN_TEXT, name
    folder = tmp_path / "x" / "cluster.wbcluster"
    folder.mkdir(parents=True)
    assert classify(folder) is None, "a folder of that name is no saved report"


def test_a_job_folder_of_ranks_offers_analyse_as_cluster(tmp_path):
    job = tmp_path / "job"
    for r in range(3):
        _rank(job, f"node0_{100 + r}_20240101000000000_ascend_pt", r)
    (job / "run.log").write_text("")
    assert a.holds_ranks(job)
    assert classify(job) is None, "it stays a plain folder in the explorer"
    assert a.open_action(job) is None, "double-click expands it, as today"
    assert a.context_actions(job) == (a.OPEN_CLUSTER,)
    assert a.ACTION_LABELS[a.OPEN_CLUSTER] == "Analyse as Cluster"
    # MindSpore ranks too
    ms = tmp_path / "ms"
    _rank(ms, "w0_ascend_ms", 0)
    _rank(ms, "w1_ascend_ms", 1, output=False)
    assert a.context_actions(ms) == (a.OPEN_CLUSTER,)


def test_rank_prof_and_single_report_folders_are_unchanged(tmp_path, samples):
    from workbench.core.demo import samples_dir

    job = tmp_path / "job"
    ranks = [_rank(job, f"n_{r}_ascend_pt", r) for r in range(2)]
    for rank in ranks:  # a rank of the job: still a report folder of its own kind
        assert classify(rank) is Artefact.PROFILER_OUTPUT
        assert a.open_action(rank) == a.OPEN_REPORT and a.context_actions(rank) == ()
        assert a.is_job_rank(rank)
    prof = job / "PROF_000001_20240101000000000_ABCDEFGH"
    prof.mkdir()
    assert classify(prof) is Artefact.PROF_DIR and a.context_actions(prof) == ()
    output = ranks[0] / "ASCEND_PROFILER_OUTPUT"
    assert classify(output) is Artefact.PROFILER_OUTPUT and a.context_actions(output) == ()
    # a folder holding one report (the shipped torch_npu sample, the real rank-0 sample)
    single = samples_dir() / "resnet_torch_npu"
    (rank0,) = single.iterdir()
    assert classify(single) is None and a.context_actions(single) == () and not a.is_job_rank(rank0)
    real = samples / "torch_npu-910B-rank0-comm-mem"
    assert a.context_actions(real) == () and a.context_actions(samples) == ()


def test_what_is_not_a_job_of_ranks(tmp_path):
    def holds(*ranks: tuple[str, int | None]) -> bool:
        folder = tmp_path / f"case{len(list(tmp_path.iterdir()))}"
        folder.mkdir()
        for name, rank in ranks:
            _rank(folder, name, rank)
        return a.holds_ranks(folder) or a.context_actions(folder) != ()

    assert not holds(("a_ascend_pt", 0)), "one rank"
    assert not holds(("a_1_ascend_pt", 0), ("a_2_ascend_pt", 0)), "one rank profiled twice"
    assert not holds(("a_ascend_pt", None), ("b_ascend_pt", None)), "no profiler_info_{rank}.json"
    assert not holds(("a_ascend_pt", 0), ("b_ascend_ms", 1)), "two frameworks: not one job"
    assert not holds(("a_ascend_pt", 0), ("b_xyz", 1)), "not a rank folder's name"
    assert holds(("a_1_ascend_pt", 0), ("a_2_ascend_pt", 0), ("b_ascend_pt", 1)), "rank 0 twice and rank 1"
    # rank folders one level further down are not "directly held"
    deep = tmp_path / "deep"
    _rank(deep / "x", "a_ascend_pt", 0)
    _rank(deep / "y", "b_ascend_pt", 1)
    assert not a.holds_ranks(deep)


def test_a_symlinked_rank_is_not_counted(tmp_path):
    """The analysis does not follow symbolic links (ranks.discover), so neither does the offer."""
    elsewhere = tmp_path / "elsewhere"
    target = _rank(elsewhere, "b_ascend_pt", 1)
    job = tmp_path / "job"
    _rank(job, "a_ascend_pt", 0)
    os.symlink(target, job / "b_ascend_pt")
    assert not a.holds_ranks(job) and a.context_actions(job) == ()


def test_classify_never_looks_for_ranks(tmp_path, monkeypatch):
    """The explorer classifies every row: the rank look-up runs only for a context menu."""
    job = tmp_path / "job"
    for r in range(2):
        _rank(job, f"n_{r}_ascend_pt", r)

    def refuse(_path):
        raise AssertionError("classify read rank folders")

    monkeypatch.setattr(a, "rank_id", refuse)
    assert classify(job) is None and a.open_action(job) is None


def test_the_offer_reads_a_bounded_number_of_entries(tmp_path, monkeypatch):
    """A folder of many rank-named folders without profiler_info: few entries are read, not all."""
    job = tmp_path / "job"
    for i in range(300):
        (job / f"n_{i:03d}_ascend_pt").mkdir(parents=True)
        for j in range(3):
            (job / f"n_{i:03d}_ascend_pt" / f"f{j}").write_text("")
    read = []
    real = os.scandir

    class Counting:
        def __init__(self, path):
            self.it = real(path)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.it.close()

        def __iter__(self):
            for entry in self.it:
                read.append(entry.name)
                yield entry

    monkeypatch.setattr(a.os, "scandir", Counting)
    assert not a.holds_ranks(job)
    assert len(read) <= a._ENTRIES_READ * 5, len(read)  # 300 folders + 900 files below them


def test_the_shipped_cluster_sample_and_the_demo(tmp_path):
    """The samples hold an 8-rank cluster job: it offers "Analyse as Cluster", its ranks are no reports
    of their own, and the first start still shows the resnet torch_npu report."""
    from workbench.core import demo

    job = demo.samples_dir() / "llama_cluster_8ranks"
    ranks = sorted(p for p in job.iterdir() if p.name.endswith("_ascend_pt"))
    assert len(ranks) == 8 and [a.rank_id(p) for p in ranks] == list(range(8))
    assert a.context_actions(job) == (a.OPEN_CLUSTER,) and classify(job) is None
    assert all(a.is_job_rank(p) for p in ranks)
    assert job.name < "resnet_torch_npu", "by name, the cluster's ranks come first"
    assert not any(p.parent == job for p in demo.sample_reports())

    project, reports = demo.ensure_demo_project()
    copied = project.root / "reports" / "llama_cluster_8ranks"
    assert copied.is_dir() and a.context_actions(copied) == (a.OPEN_CLUSTER,)
    assert not any(p.parent == copied for p in reports), "the cluster's ranks are not listed as reports"
    first = demo.first_report(reports)
    assert first is not None and first.parent.name == "resnet_torch_npu" and first.name.endswith("_ascend_pt")
    # whatever list it gets: a rank of a job is never the one a first start shows
    cluster_ranks = sorted(p for p in copied.iterdir() if p.name.endswith("_ascend_pt"))
    assert demo.first_report([*cluster_ranks, *reports]) == first
    assert demo.first_report(cluster_ranks) is None
    # once analysed (the Explorer's "Analyse as Cluster" writes its output there), the next start
    # lists that output (it opens as the Cluster document) and still shows the torch_npu report
    out = copied / "cluster_analysis_output"
    out.mkdir()
    (out / "cluster_step_trace_time.csv").write_text("")
    _project, again = demo.ensure_demo_project()
    assert [p for p in again if p.parent == copied] == [out]
    assert demo.first_report(again) == first


def _prof(parent: Path, name: str, rank: int | None, *, device: int = 0, host: str = "h", db: bool = False) -> Path:
    """A msprof PROF_* folder: device_<id>/info.json.<id> (rank_id ``rank``, -1 when None), parsed as text
    (mindstudio_profiler_output + analyze) or as db (msprof_<timestamp>.db)."""
    prof = parent / name
    (prof / f"device_{device}").mkdir(parents=True)
    info = {"rank_id": -1 if rank is None else rank, "hostUid": host}
    (prof / f"device_{device}" / f"info.json.{device}").write_text(json.dumps(info))
    if db:
        (prof / "msprof_20240101000000.db").write_bytes(b"")
    else:
        (prof / "mindstudio_profiler_output").mkdir()
        (prof / "analyze").mkdir()
    return prof


def test_a_folder_of_msprof_prof_ranks_or_mindspore_db_ranks_offers_analyse_as_cluster(tmp_path):
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    for layout, export in (("msprof", "text"), ("msprof", "db")):
        job = write_cluster_job(tmp_path / f"{layout}-{export}", 4, tp=2, layout=layout, export=export)
        folder = job.rank_dirs[0].parent
        assert a.holds_ranks(folder) and a.context_actions(folder) == (a.OPEN_CLUSTER,), (layout, export)
        assert classify(folder) is None and a.open_action(folder) is None, "still a plain folder"
        for rank in job.rank_dirs:  # each rank: still a PROF report folder, and part of the job
            assert classify(rank) is Artefact.PROF_DIR and a.context_actions(rank) == ()
            assert a.is_job_rank(rank)
    ms = write_cluster_job(tmp_path / "ms", 2, tp=2, export="db", framework="mindspore")
    assert a.context_actions(ms.rank_dirs[0].parent) == (a.OPEN_CLUSTER,)
    # ranks without rank_id: two devices (or two hosts) are two ranks; text and db PROF folders alike
    for i, (first, second) in enumerate(
        [((None, 0, "h"), (None, 1, "h")), ((None, 0, "h0"), (None, 0, "h1")), ((3, 0, "h"), (4, 0, "h"))]
    ):
        folder = tmp_path / f"unranked{i}"
        _prof(folder, "PROF_000001_20240101000000000_AAAAAAAA", first[0], device=first[1], host=first[2])
        _prof(folder, "PROF_000002_20240101000000000_BBBBBBBB", second[0], device=second[1], host=second[2], db=True)
        assert a.context_actions(folder) == (a.OPEN_CLUSTER,), i


def test_what_is_not_a_job_of_prof_ranks(tmp_path):
    def offered(*profs: dict) -> bool:
        folder = tmp_path / f"case{len(list(tmp_path.iterdir()))}"
        folder.mkdir()
        for i, kw in enumerate(profs):
            _prof(folder, f"PROF_00000{i}_20240101000000000_ABCDEFGH", **kw)
        return a.holds_ranks(folder) or a.context_actions(folder) != ()

    assert not offered({"rank": 0}), "one rank"
    assert not offered({"rank": 2}, {"rank": 2, "db": True}), "one rank profiled twice"
    assert not offered({"rank": None}, {"rank": None}), "one device of one host profiled twice"
    unparsed = tmp_path / "unparsed"
    for i in range(2):
        (_prof(unparsed, f"PROF_00000{i}_20240101000000000_ABCDEFGH", i) / "analyze").rmdir()
    assert not a.holds_ranks(unparsed), "not parsed (msprof --analyze=on): the analysis skips them"
    broken = tmp_path / "broken"
    _prof(broken, "PROF_000001_20240101000000000_ABCDEFGH", 0)
    (_prof(broken, "PROF_000002_20240101000000000_ABCDEFGH", 1) / "device_0" / "info.json.0").write_text("[")
    assert not a.holds_ranks(broken), "an unreadable info.json names no rank"
    # the shipped msprof sample: one PROF folder, a report of its own
    from workbench.core.demo import samples_dir

    single = samples_dir() / "resnet50_msprof_cann8"
    (prof,) = single.iterdir()
    assert a.context_actions(single) == () and not a.is_job_rank(prof)
