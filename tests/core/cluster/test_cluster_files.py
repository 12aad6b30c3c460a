"""Rank discovery, the msprof-analyze files written and read back, the saved cluster report and the
slow rank / slow link findings."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from workbench.core.cluster import files, findings, merge, ranks, report
from workbench.core.cluster.merge import ClusterTables
from workbench.core.fsutil import OutputRefused

SAMPLE = Path("/work/shared/samples/msprof-analyze-cluster")
if not SAMPLE.is_dir():
    SAMPLE = Path(__file__).resolve().parents[3].parent / "shared" / "samples" / "msprof-analyze-cluster"


def _rank_folder(root: Path, name: str, rank: int | str, output: bool = True) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / f"profiler_info_{rank}.json").write_text("{}")
    if output:
        (folder / "ASCEND_PROFILER_OUTPUT").mkdir()
    return folder


def test_discover_finds_ranks_takes_the_newest_of_a_rank_and_says_why_one_is_skipped(tmp_path: Path) -> None:
    _rank_folder(tmp_path / "node1", "w_1_20240101000000000_ascend_pt", 1)
    old = _rank_folder(tmp_path, "w_2_20240101000000000_ascend_pt", 0)
    new = _rank_folder(tmp_path, "w_2_20240202000000000_ascend_pt", 0)
    _rank_folder(tmp_path, "w_3_20240101000000000_ascend_ms", 2)
    _rank_folder(tmp_path, "w_4_20240101000000000_ascend_pt", "x")
    _rank_folder(tmp_path, "w_5_20240101000000000_ascend_pt", 5, output=False)
    found = ranks.discover(str(tmp_path))
    assert [(s.rank, Path(s.path).name, s.kind) for s in found.ranks] == [
        (0, new.name, "pytorch"),
        (1, "w_1_20240101000000000_ascend_pt", "pytorch"),
        (2, "w_3_20240101000000000_ascend_ms", "mindspore"),
    ]
    text = "\n".join(found.warnings)
    assert f"the newest, {new}, is taken (not {old})" in text
    assert "profiler_info_x.json does not name a rank number" in text
    assert "no ASCEND_PROFILER_OUTPUT folder" in text


def test_discover_never_follows_a_symlink_out_of_the_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    _rank_folder(outside, "w_1_20240101000000000_ascend_pt", 7)
    job = tmp_path / "job"
    job.mkdir()
    os.symlink(outside, job / "link")
    os.symlink(outside / "w_1_20240101000000000_ascend_pt", job / "w_9_20240101000000000_ascend_pt")
    assert ranks.discover(str(job)).ranks == []


def _tables() -> ClusterTables:
    t = ClusterTables(ranks=[0, 1, 2, 3])
    t.step_header = ["Step", "Type", "Index", "Computing", "Communication(Not Overlapped)", "Free"]
    for rank in range(4):
        for step in ("1", "2"):
            t.step_rows.append([step, "rank", rank, 100.0 + (40.0 if rank == 2 else rank), 10.0, 5.0])
    t.step_rows.append(["1", "stage", "(0, 1, 2, 3)", 140.0, 10.0, 5.0])
    t.stages = [[0, 1, 2, 3]]
    t.groups = {"collective": [[0, 1, 2, 3]], "p2p": [], "comm_group_parallel_info": []}
    t.communication = {
        "(0, 1, 2, 3)": {
            "step1": {
                "Total Op Info@9": {
                    str(r): {"Communication Time Info": {"Wait Time(ms)": 0.1 if r == 2 else 3.0}} for r in range(4)
                }
            }
        }
    }
    links = {}
    for s in range(4):
        for d in range(4):
            if s != d:
                slow = (s, d) == (1, 3)
                links[f"{s}-{d}"] = {
                    "Transport Type": "HCCS",
                    "Transit Time(ms)": 10.0 if slow else 1.0,
                    "Transit Size(MB)": 10.0,
                    "Op Name": "hcom_allReduce__1_0_1",
                    "Bandwidth(GB/s)": 1.0 if slow else 10.0,
                }
    t.matrix = {"(0, 1, 2, 3)": {"step1": {"Total Op Info@9": links}}}
    return t


def test_findings_name_the_slow_rank_with_its_evidence_and_the_slow_link() -> None:
    found = findings.find(_tables())
    assert [s.rank for s in found.slow_ranks] == [2]
    slow = found.slow_ranks[0]
    assert slow.computing_us == 140.0 and slow.median_us == 102.0 and slow.slow_steps == 2 and slow.steps == 2
    assert slow.own_wait_ms == pytest.approx(0.1) and slow.others_wait_ms == pytest.approx(3.0)
    assert [(s.src, s.dst, s.transport) for s in found.slow_links] == [(1, 3, "HCCS")]
    assert found.slow_links[0].bandwidth == 1.0 and found.slow_links[0].median == 10.0


def test_two_ranks_make_no_slow_rank_finding() -> None:
    t = _tables()
    t.step_rows = [r for r in t.step_rows if r[1] == "rank" and r[2] in (0, 2)]
    assert findings.slow_ranks(t) == []


def test_files_are_written_atomically_never_over_existing_ones_and_read_back(tmp_path: Path) -> None:
    t = _tables()
    out = tmp_path / "cluster_analysis_output"
    written = files.write_output(t, out)
    assert [p.name for p in written] == [files.STEP_CSV, files.GROUP_JSON, files.COMM_JSON, files.MATRIX_JSON]
    raw = (out / files.STEP_CSV).read_bytes()
    assert raw.startswith(b"Step,Type,Index,Computing,") and b"\r\n1,rank,0,100.0,10.0,5.0\r\n" in raw
    with pytest.raises(OutputRefused, match="cluster_step_trace_time.csv: exists; pass --force"):
        files.write_output(t, out)
    back = files.read_output(out)
    assert back.step_rows == t.step_rows and back.ranks == [0, 1, 2, 3] and back.stages == [[0, 1, 2, 3]]
    assert back.matrix == t.matrix and back.groups == t.groups
    files.write_output(t, out, force=True)
    assert not [p for p in out.iterdir() if p.name not in files.NAMES]  # no temporary left behind


def test_msprof_analyzes_own_output_reads_with_its_ranks_and_stage(tmp_path: Path) -> None:
    if not SAMPLE.is_dir():
        pytest.skip("the shared samples are not here")
    out = tmp_path / "cluster_analysis_output"
    shutil.copytree(SAMPLE, out)
    for p in out.iterdir():
        p.chmod(stat.S_IRUSR | stat.S_IWUSR | stat.S_IRGRP | stat.S_IROTH)
    t = files.read_output(out)
    assert t.ranks == list(range(8))
    assert t.stages == [list(range(8))]
    assert t.step_header[3:5] == ["Computing", "Communication(Not Overlapped)"]
    assert "(0, 1)" in t.communication


def test_a_bad_cluster_csv_names_the_file_and_line(tmp_path: Path) -> None:
    (tmp_path / files.STEP_CSV).write_text("Step,Type,Index,Computing\n1,node,0,5\n")
    with pytest.raises(files.ClusterFileError, match=r"cluster_step_trace_time.csv: line 2: expected Step,rank\|stage"):
        files.read_output(tmp_path)
    (tmp_path / files.STEP_CSV).write_text("Rank,Computing\n")
    with pytest.raises(files.ClusterFileError, match="line 1 should start with Step,Type,Index"):
        files.read_output(tmp_path)
    with pytest.raises(files.ClusterFileError, match="none of"):
        files.read_output(tmp_path / "nothing")


def test_the_saved_report_round_trips_and_refuses_another_version(tmp_path: Path) -> None:
    t = _tables()
    rep = report.ClusterReport(
        "/job", t, findings.find(t), [report.RankInfo(2, "/job/r2", None, "tcp://w:1", True)], "local 2 workers"
    )
    path = report.save(rep, tmp_path)
    back = report.load(path)
    assert back.tables.step_rows == t.step_rows and back.tables.stages == t.stages
    assert back.findings == rep.findings
    assert back.ranks == rep.ranks and back.engine == "local 2 workers"
    with pytest.raises(OutputRefused):
        report.save(rep, tmp_path)
    path.write_bytes(path.read_bytes().replace(b'"version":1', b'"version":99'))
    with pytest.raises(report.ClusterReportError, match="version 99"):
        report.load(path)
    path.write_text("{")
    with pytest.raises(report.ClusterReportError, match="not a cluster report"):
        report.load(path)


def test_merge_of_no_ranks_is_empty() -> None:
    t = merge.merge([])
    assert t.ranks == [] and t.step_rows == [] and files.planned(t) == []
