"""``ascend-workbench cluster analyze|show`` as a user runs it: files written beside the ranks (never
over existing ones without --force), one-line errors, msprof-analyze's own output shown."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.cluster import files, report

SAMPLE = Path(__file__).resolve().parents[3].parent / "shared" / "samples" / "msprof-analyze-cluster"


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from workbench.simtoolkit.profdata.torchnpu import write_torch_npu_job
    from workbench.simtoolkit.profdata.workload import mixed_parallel, resnet50_workload

    root = tmp_path_factory.mktemp("cluster") / "job"
    write_torch_npu_job(root, mixed_parallel(resnet50_workload(kind="ops")), 2)
    return root


def test_analyze_writes_msprof_analyzes_files_and_the_report_beside_the_ranks(
    job: Path, tmp_path: Path, capsys
) -> None:
    work = tmp_path / "job"
    shutil.copytree(job, work)
    assert main(["cluster", "analyze", str(work), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    out = work / "cluster_analysis_output"
    assert doc["ranks"] == [0, 1] and doc["steps"] == ["1", "2"] and doc["engine"] == "in-process"
    assert sorted(Path(p).name for p in doc["written"]) == sorted([*files.NAMES, report.REPORT_NAME])
    assert all((out / n).is_file() for n in files.NAMES)
    before = {n: (out / n).read_bytes() for n in files.NAMES}

    assert main(["cluster", "analyze", str(work)]) == 2
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if line.startswith("error:")] == [err.splitlines()[-1]]
    assert "exists; pass --force to replace it" in err and "Traceback" not in err
    assert {n: (out / n).read_bytes() for n in files.NAMES} == before

    assert main(["cluster", "analyze", str(work), "--force", "--workers", "1"]) == 0
    assert {n: (out / n).read_bytes() for n in files.NAMES} == before
    capsys.readouterr()

    assert main(["cluster", "show", str(work), "--json"]) == 0  # re-opens the saved report
    shown = json.loads(capsys.readouterr().out)
    assert shown["ranks"] == [0, 1] and shown["written"] == []


def test_analyze_with_two_local_workers_gives_the_same_files(job: Path, tmp_path: Path, capsys) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert main(["cluster", "analyze", str(job), "--out", str(one), "--workers", "1"]) == 0
    assert main(["cluster", "analyze", str(job), "--out", str(two), "--workers", "2", "--json"]) == 0
    for name in files.NAMES:
        assert (one / name).read_bytes() == (two / name).read_bytes(), name
    saved = report.load(two / report.REPORT_NAME)
    assert saved.engine == "local, 2 workers"
    assert {r.worker for r in saved.ranks} and all(r.worker.startswith("tcp://") for r in saved.ranks)


def test_show_reads_msprof_analyzes_own_output(tmp_path: Path, capsys) -> None:
    if not SAMPLE.is_dir():
        pytest.skip("the shared samples are not here")
    out = tmp_path / "cluster_analysis_output"
    shutil.copytree(SAMPLE, out)
    for p in out.iterdir():
        p.chmod(stat.S_IRUSR | stat.S_IWUSR | stat.S_IRGRP | stat.S_IROTH)
    assert main(["cluster", "show", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "8 ranks, 1 steps, 1 stages" in text and "engine: msprof-analyze" in text


def test_bad_paths_are_one_line_errors(tmp_path: Path, capsys) -> None:
    assert main(["cluster", "analyze", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith(f"error: {tmp_path}: no rank folders") and "Traceback" not in err
    assert main(["cluster", "analyze", str(tmp_path / "missing")]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main(["cluster", "analyze", str(tmp_path), "--workers", "0"]) == 2
    assert "--workers 0: expected 1 or more" in capsys.readouterr().err


def test_the_output_never_goes_inside_a_rank_folder(job: Path, tmp_path: Path, capsys) -> None:
    work = tmp_path / "job"
    shutil.copytree(job, work)
    rank = next(work.glob("*_ascend_pt"))
    assert main(["cluster", "analyze", str(work), "--out", str(rank / "out")]) == 2
    assert "is inside the rank folder" in capsys.readouterr().err
    assert not (rank / "out").exists()


def test_analyze_on_a_running_scheduler(job: Path, tmp_path: Path, capsys) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:  # the user's own cluster
        out = tmp_path / "out"
        assert main(["cluster", "analyze", str(job), "--out", str(out), "--scheduler", cluster.scheduler_address]) == 0
        assert cluster.scheduler.address  # still running: the analysis never stops the user's cluster
    saved = report.load(out / report.REPORT_NAME)
    assert saved.engine == cluster.scheduler_address and saved.tables.ranks == [0, 1]
    assert (out / files.STEP_CSV).is_file()


def test_analyze_help_names_every_kind_of_rank_it_reads(capsys) -> None:
    """torch_npu / MindSpore rank folders (text or db) and msprof PROF_* folders (text or msprof_*.db)."""
    try:
        code = main(["cluster", "analyze", "--help"])
    except SystemExit as done:
        code = done.code
    assert code == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps to the terminal's width
    for words in (
        "*_ascend_pt / *_ascend_ms rank folders (text or .db export)",
        "msprof PROF_* folders (with device_<id>/info.json.<id>; text or msprof_*.db)",
        "db ranks also get cluster_analysis.db",
    ):
        assert words in text, words
