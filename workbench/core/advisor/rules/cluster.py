"""Advisor rules: cluster (see the package docstring). Each rule: a RuleText in TEXTS and a check
registered with @rule.

Slow ranks and slow links are the cluster analysis' own findings (``core/cluster/findings.py``: a rank
computing more than 5 % above its peers' median, a link under 70 % of its transport's median), told as
advisor findings with their evidence; nothing is recomputed here.

- ``cluster.pipeline_bubble``: per pipeline stage (a job with two stages or more), the ranks' ``Bubble``
  (the time they wait in ``hcom_receive*``) against their Stage + Bubble, summed over the steps of
  cluster_step_trace_time's rank rows; from 20 % (chosen).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from workbench.core.advisor.model import Evidence, Fact, Finding, RuleText, Severity, ms, pct, rule

BUBBLE_SHARE = 0.20

TEXTS: dict[str, RuleText] = {
    "cluster.slow_rank": RuleText(
        title="Rank {rank} computes {excess} longer than its peers (step {step})",
        advice=(
            "The other ranks wait for this one at every collective. Look at its own report: a slower or "
            "throttled device (npu-smi: temperature, frequency, errors), more work on it (uneven data or "
            "pipeline split), host contention on its server, or operators that run on AI CPU only there."
        ),
        facts={
            "computing": "Its computing time",
            "median": "Median of its peers {peers}",
            "ratio": "Ratio to the median",
            "steps": "Slow in steps",
            "others_wait": "Mean wait of the ranks sharing its groups",
            "own_wait": "Its own wait",
        },
    ),
    "cluster.slow_link": RuleText(
        title="Link {src} -> {dst} ({transport}) reaches {bandwidth}, {ratio} of its transport's median",
        advice=(
            "One link is slower than the others of its kind. Check the link's hardware and configuration "
            "(hccn_tool for RDMA: link state, errors, PFC / DSCP settings; HCCS: the board), whether other "
            "traffic shares it, and the ranks' placement."
        ),
        facts={
            "bandwidth": "Bandwidth",
            "median": "Median of the {transport} links",
            "size": "Transit size",
            "time": "Transit time",
        },
    ),
    "cluster.pipeline_bubble": RuleText(
        title="Pipeline stage {stage} waits {share} of its time in bubbles",
        advice=(
            "The pipeline stages wait for each other. Use more micro-batches per step (gradient accumulation), "
            "an interleaved (virtual pipeline) schedule, and balance the layers between the stages so that "
            "no stage computes much longer than the others."
        ),
        facts={
            "bubble": "Bubble time",
            "stage_time": "Stage time (without bubbles)",
            "share": "Bubble share",
            "ranks": "Ranks of the stage",
        },
    ),
}


def _findings(subject: Any) -> Any:
    return getattr(subject.cluster, "findings", None)


@rule("cluster.slow_rank", "cluster", TEXTS["cluster.slow_rank"], target="cluster")
def slow_rank(subject: Any) -> Iterable[Finding]:
    found = _findings(subject)
    for s in getattr(found, "slow_ranks", None) or ():
        ratio = s.ratio
        facts = [
            Fact("computing", ms(s.computing_us * 1000)),
            Fact("median", ms(s.median_us * 1000), {"peers": ", ".join(str(p) for p in s.peers)}),
            Fact("ratio", f"{ratio:.2f}"),
            Fact("steps", f"{s.slow_steps} / {s.steps}"),
        ]
        if s.others_wait_ms is not None:
            facts.append(Fact("others_wait", f"{s.others_wait_ms:.3f} ms"))
        if s.own_wait_ms is not None:
            facts.append(Fact("own_wait", f"{s.own_wait_ms:.3f} ms"))
        yield Finding(
            rule="cluster.slow_rank",
            category="cluster",
            severity=Severity.HIGH if ratio >= 1.2 else Severity.MEDIUM if ratio >= 1.1 else Severity.LOW,
            args={"rank": str(s.rank), "excess": ms(s.excess_us * 1000), "step": str(s.step)},
            facts=tuple(facts),
            evidence=(
                Evidence(
                    kind="rank",
                    label=f"rank {s.rank}",
                    rank=s.rank,
                    values={"computing_us": s.computing_us, "median_us": s.median_us, "peers": list(s.peers)},
                ),
                Evidence(kind="step", label=f"step {s.step}", rank=s.rank, values={"step": str(s.step)}),
            ),
        )


@rule("cluster.slow_link", "cluster", TEXTS["cluster.slow_link"], target="cluster")
def slow_link(subject: Any) -> Iterable[Finding]:
    found = _findings(subject)
    for s in getattr(found, "slow_links", None) or ():
        ratio = s.ratio
        yield Finding(
            rule="cluster.slow_link",
            category="cluster",
            severity=Severity.HIGH if ratio < 0.4 else Severity.MEDIUM if ratio < 0.6 else Severity.LOW,
            args={
                "src": str(s.src),
                "dst": str(s.dst),
                "transport": s.transport,
                "bandwidth": f"{s.bandwidth:.2f} GB/s",
                "ratio": pct(ratio),
            },
            facts=(
                Fact("bandwidth", f"{s.bandwidth:.2f} GB/s"),
                Fact("median", f"{s.median:.2f} GB/s", {"transport": s.transport}),
                Fact("size", f"{s.size_mb:.3f} MB"),
                Fact("time", f"{s.time_ms:.3f} ms"),
            ),
            evidence=(
                Evidence(
                    kind="link",
                    label=f"{s.src} -> {s.dst} {s.transport}",
                    rank=s.src,
                    values={
                        "src": s.src,
                        "dst": s.dst,
                        "transport": s.transport,
                        "bandwidth_gbs": s.bandwidth,
                        "median_gbs": s.median,
                        "ops": list(s.ops),
                    },
                ),
            ),
        )


def _num(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(str(value))
    except ValueError:
        return None


@rule("cluster.pipeline_bubble", "cluster", TEXTS["cluster.pipeline_bubble"], target="cluster")
def pipeline_bubble(subject: Any) -> Iterable[Finding]:
    tables = getattr(subject.cluster, "tables", None)
    if tables is None or len(tables.stages) < 2:
        return
    header = list(tables.step_header)
    if "Bubble" not in header or "Stage" not in header or "Index" not in header or "Type" not in header:
        return
    at_b, at_s, at_i, at_t = header.index("Bubble"), header.index("Stage"), header.index("Index"), header.index("Type")
    per_rank: dict[int, list[float]] = {}
    for row in tables.step_rows:
        if len(row) <= max(at_b, at_s, at_i, at_t) or row[at_t] != "rank":
            continue
        try:
            rank = int(row[at_i])
        except (TypeError, ValueError):
            continue
        bubble, stage = _num(row[at_b]), _num(row[at_s])
        if bubble is None or stage is None:
            continue
        acc = per_rank.setdefault(rank, [0.0, 0.0])
        acc[0] += bubble
        acc[1] += stage
    for number, ranks in enumerate(tables.stages):
        have = [r for r in ranks if r in per_rank]
        if not have:
            continue
        bubble = sum(per_rank[r][0] for r in have)
        stage = sum(per_rank[r][1] for r in have)
        whole = bubble + stage
        share = bubble / whole if whole > 0 else 0.0
        if share < BUBBLE_SHARE:
            continue
        worst = sorted(have, key=lambda r: -per_rank[r][0])
        yield Finding(
            rule="cluster.pipeline_bubble",
            category="cluster",
            severity=Severity.HIGH if share >= 0.5 else Severity.MEDIUM if share >= 0.3 else Severity.LOW,
            args={"stage": str(number), "share": pct(share)},
            facts=(
                Fact("bubble", ms(bubble * 1000)),
                Fact("stage_time", ms(stage * 1000)),
                Fact("share", pct(share)),
                Fact("ranks", ", ".join(str(r) for r in ranks)),
            ),
            evidence=tuple(
                Evidence(
                    kind="rank",
                    label=f"rank {r}",
                    rank=r,
                    values={
                        "stage": number,
                        "bubble_us": per_rank[r][0],
                        "stage_us": per_rank[r][1],
                        "share": per_rank[r][0] / sum(per_rank[r]) if sum(per_rank[r]) > 0 else 0.0,
                    },
                )
                for r in worst
            ),
            evidence_total=len(have),
        )
