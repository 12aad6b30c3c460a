"""The advisor's cluster rules (issue #21) on generated cluster jobs: the slow rank, the slow link and
the pipeline bubble planted by the simulator are told with their evidence, and a job without them has
none of these findings."""

from __future__ import annotations

import pytest

from workbench.core.advisor.run import advise_cluster
from workbench.core.cluster.analyze import analyze
from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

RULES = ["cluster.slow_rank", "cluster.slow_link", "cluster.pipeline_bubble"]


@pytest.fixture(scope="module")
def slow_job(tmp_path_factory):
    out = tmp_path_factory.mktemp("slowjob")
    write_cluster_job(out, 8, pp=2, slow_rank=3, slow_link=(2, 6))
    return analyze(out, write=False).report


@pytest.fixture(scope="module")
def plain_job(tmp_path_factory):
    out = tmp_path_factory.mktemp("plainjob")
    write_cluster_job(out, 8)
    return analyze(out, write=False).report


def _by_rule(report):
    result = advise_cluster(report, only=RULES)
    assert not result.warnings, result.warnings
    assert set(result.rules_run) == set(RULES)
    found: dict[str, list] = {r: [] for r in RULES}
    for f in result.findings:
        found[f.rule].append(f)
    return found


def test_slow_rank_3_is_found(slow_job):
    (found,) = _by_rule(slow_job)["cluster.slow_rank"]
    (own,) = slow_job.findings.slow_ranks  # what the cluster analysis found, told, not recomputed
    assert found.args["rank"] == "3" and found.category == "cluster"
    rank = found.evidence[0]
    assert (rank.kind, rank.label, rank.rank) == ("rank", "rank 3", 3)
    assert rank.values["computing_us"] == own.computing_us and rank.values["peers"] == [0, 1, 2, 3]
    assert found.evidence[1].kind == "step"
    facts = {f.key: f.value for f in found.facts}
    assert facts["steps"] == "2 / 2" and float(facts["ratio"]) > 1.2
    assert found.severity.value == "high"


def test_slow_link_2_to_6_is_found(slow_job):
    (found,) = _by_rule(slow_job)["cluster.slow_link"]
    assert (found.args["src"], found.args["dst"], found.args["transport"]) == ("2", "6", "HCCS")
    (link,) = found.evidence
    assert link.kind == "link" and link.label == "2 -> 6 HCCS"
    assert (link.values["src"], link.values["dst"], link.values["transport"]) == (2, 6, "HCCS")
    assert link.values["bandwidth_gbs"] < 0.7 * link.values["median_gbs"]


def test_pipeline_bubble_per_stage(slow_job):
    found = _by_rule(slow_job)["cluster.pipeline_bubble"]
    assert [f.args["stage"] for f in found] == ["0", "1"]
    first = found[0]
    assert sorted(e.rank for e in first.evidence) == [0, 1, 2, 3]
    # the share is the stage's Bubble over Stage + Bubble of its rank rows
    header = slow_job.tables.step_header
    b, s = header.index("Bubble"), header.index("Stage")
    rows = [r for r in slow_job.tables.step_rows if r[1] == "rank" and r[2] in (0, 1, 2, 3)]
    bubble, stage = sum(r[b] for r in rows), sum(r[s] for r in rows)
    assert first.args["share"] == f"{bubble / (bubble + stage) * 100:.1f} %"


def test_plain_job_has_none(plain_job):
    assert plain_job.findings.slow_ranks == [] and plain_job.findings.slow_links == []
    assert plain_job.tables.stages == [] or len(plain_job.tables.stages) < 2
    assert all(v == [] for v in _by_rule(plain_job).values())
