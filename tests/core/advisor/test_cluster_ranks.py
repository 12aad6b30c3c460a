"""The advisor on a cluster also runs the report rules over the ranks msprof-analyze advisor analyses in
cluster mode (issue #21): the same ranks as its AnalyzerController picks (checked against msprof-analyze's own
SlowRankAnalyzer / SlowLinkAnalyzer when it is installed), the findings marked with their rank in the result,
the CLI and the exports; a rank without data on this machine is one warning line. The simulated cluster job's
MatMul rows carry both input shapes, as real kernel_details do."""

from __future__ import annotations

import csv
import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from openpyxl import load_workbook

from workbench.core.advisor import export
from workbench.core.advisor.run import advise_cluster, analysed_ranks
from workbench.core.cluster.analyze import analyze, open_cluster
from workbench.simtoolkit.profdata.clusterjob import write_cluster_job


@pytest.fixture(scope="module")
def job(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rankjob") / "job"
    write_cluster_job(out, 8, pp=2, slow_rank=3, slow_link=(2, 6), full=True)  # full: ranks open as reports
    return out


@pytest.fixture(scope="module")
def cluster(job):
    return analyze(job, write=False).report


@pytest.fixture(scope="module")
def result(cluster):
    return advise_cluster(cluster)


def test_the_ranks_are_msprof_analyze_s(cluster):
    picked = analysed_ranks(cluster)
    # pp stage 0 holds the slow rank: its computation is analysed; stage 1's ranks do not differ by 5 %
    assert picked["computation"] == [3]
    assert picked["communication"][0] == 2  # the lowest SDMA bandwidth: the slow link's source
    assert picked["communication"][1] == 0  # no RDMA in a one-node job: the default (lowest) rank
    assert picked["schedule"] == picked["memory"] and len(picked["schedule"]) == 1


def test_the_ranks_match_msprof_analyze_itself(job, tmp_path):
    """msprof-analyze's analysers over the same job's cluster files pick the same ranks."""
    pytest.importorskip("msprof_analyze")
    from msprof_analyze.advisor.analyzer.cluster.slow_link_analyzer import SlowLinkAnalyzer
    from msprof_analyze.advisor.analyzer.cluster.slow_rank_analyzer import SlowRankAnalyzer

    copy = tmp_path / "job"
    shutil.copytree(job, copy)
    report = analyze(copy, write=True).report  # msprof-analyze's four files, as it writes them
    picked = analysed_ranks(report)
    slow = SlowRankAnalyzer(str(copy))
    stages = slow.get_stage_step_rank(SlowRankAnalyzer.COMPUTE)
    assert picked["computation"] == [s["maximum"]["rank_id"] for s in stages.values()]
    assert picked["schedule"] == [slow.get_global_step_rank(SlowRankAnalyzer.FREE)["maximum"]["rank_id"]]
    links = SlowLinkAnalyzer(str(copy))
    assert picked["communication"][0] == links.get_global_step_rank("SDMA")["minimum"]["rank_id"]
    assert links.get_global_step_rank("RDMA") == {}  # no rank stands out: msprof-analyze's default rank


def test_report_rules_run_on_those_ranks_marked_with_the_rank(result):
    assert not result.warnings, result.warnings
    by_rule: dict[str, set] = {}
    for f in result.findings:
        by_rule.setdefault(f.rule, set()).add(f.rank)
    assert by_rule["cluster.slow_rank"] == {None}  # the cluster's own findings carry no rank
    assert by_rule["compute.dynamic_shape"] == {3}  # msprof-analyze: "3号卡动态shape算子"
    assert 3 in by_rule["compute.vector_bound"]
    assert 2 in by_rule["communication.small_packets"]  # 包分析, on the rank of the lowest SDMA bandwidth
    assert "compute.dynamic_shape" in result.rules_run and "cluster.slow_link" in result.rules_run
    dyn = next(f for f in result.findings if f.rule == "compute.dynamic_shape")
    assert dyn.evidence and all(e.kind == "op" and e.table == "ops" for e in dyn.evidence)  # into rank 3's OPs


def test_only_narrows_the_rank_rules_too(cluster):
    got = advise_cluster(cluster, only=["compute"])
    assert {f.rule.split(".")[0] for f in got.findings} == {"compute"} and {f.rank for f in got.findings} == {3}
    assert advise_cluster(cluster, rank_rules=False).findings == [
        f for f in advise_cluster(cluster, only=["cluster"]).findings
    ]


def test_a_rank_without_data_here_is_one_warning(job, tmp_path, cluster):
    # msprof-analyze's own output without the ranks' folders: the cluster rules run, each rank is a warning
    copy, out = tmp_path / "job", tmp_path / "only_output"
    shutil.copytree(job, copy)
    analyze(copy, write=True)
    shutil.copytree(copy / "cluster_analysis_output", out / "cluster_analysis_output")
    shutil.rmtree(copy)
    from_files = open_cluster(out, write=False).report
    got = advise_cluster(from_files)
    assert "cluster.slow_rank" in {f.rule for f in got.findings}
    assert all(f.rank is None for f in got.findings)
    assert got.warnings and all(w.startswith("rank ") and "its rules did not run: " in w for w in got.warnings)
    assert all("Error" not in w and "Traceback" not in w for w in got.warnings)
    # a rank folder that is gone: named in its line
    gone = replace(
        cluster, ranks=[replace(r, path=str(tmp_path / "gone")) if r.rank == 3 else r for r in cluster.ranks]
    )
    lines = advise_cluster(gone, only=["compute"]).warnings
    assert lines == [f"rank 3: its rules did not run: its folder {tmp_path / 'gone'} is not on this machine"]


def test_the_rank_in_the_cli_and_the_exports(job, result, tmp_path, capsys, advise_verb):
    from workbench.cli import main

    assert main(["advise", str(job)]) == 0
    text = capsys.readouterr().out
    assert "[MEDIUM] rank 3 · All " in text and "(compute.dynamic_shape)" in text
    assert main(["advise", str(job), "--json", "--only", "compute"]) == 0  # a report category on a cluster
    doc = json.loads(capsys.readouterr().out)
    assert {f["rank"] for f in doc["findings"]} == {3}
    assert {f["rank"] for f in json.loads(export.to_json(result))["findings"]} >= {None, 2, 3}
    page = export.to_html(result)
    assert '<span class="rank">rank 3</span> All ' in page
    book = load_workbook(export.write_xlsx(result, tmp_path / "a.xlsx"))
    rows = list(book["Findings"].values)
    assert rows[0][-1] == "Rank"
    dyn = next(r for r in rows[1:] if r[3] == "compute.dynamic_shape")
    assert dyn[-1] == 3
    evidence = [r for r in list(book["Evidence"].values)[1:] if r[0] == dyn[0]]
    assert evidence and {r[-1] for r in evidence} == {3}


def test_the_simulated_matmuls_have_both_input_shapes(job):
    rank0 = next(p for p in job.iterdir() if p.name.endswith("_ascend_pt"))
    with open(rank0 / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if "MatMul" in r["Type"]]
    shapes = {(r["Input Shapes"].strip('"'), r["Output Shapes"].strip('"')) for r in rows}
    assert ("2048,1024;1024,3072", "2048,3072") in shapes and ("2048,1024;1024,1024", "2048,1024") in shapes
    for shape_in, shape_out in shapes:
        a, b = (list(map(int, s.split(","))) for s in shape_in.split(";"))
        assert a[1] == b[0] and [a[0], b[1]] == list(map(int, shape_out.split(",")))  # (M,K) @ (K,N) -> (M,N)
