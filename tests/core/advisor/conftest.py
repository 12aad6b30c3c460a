"""Fixtures of the advisor tests: rules registered by the test itself (ids ``test.d3_*``), so the
tests of the verb, the exports and the views do not depend on the real rules, which land apart."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.core.advisor import model
from workbench.core.advisor import run as _run  # noqa: F401  (registers the real rules first)
from workbench.core.advisor.model import Evidence, Fact, Finding, RuleText, Severity

SLOW_OP = "test.d3_slow_op"
TEXT = RuleText(
    title="{op} takes {share} of the device time",
    advice="Look at <{op}> & its inputs",  # markup and an ampersand: the HTML page must escape them
    facts={"time": "Time of {op}", "count": "Operators"},
)


def slow_op_findings(subject) -> list[Finding]:
    """The longest op of the OPs table, as an "op" item, its slice of the timeline, and step 1."""
    ops = subject.report.ops
    if not len(ops):
        return []
    dur = ops["duration_us"].to_numpy(dtype=float)
    row = int(np.argmax(dur))
    name = str(ops["name"].iloc[row])
    start = int(ops["start_ns"].iloc[row])
    evidence = [Evidence("op", name, table="ops", row=row, start_ns=start, dur_ns=int(round(dur[row] * 1000)))]
    tl = subject.report.timeline
    if tl is not None:
        from workbench.core.profiling.timeline_ops import slice_named_at

        index = slice_named_at(tl, name, start)
        if index is not None:
            lane = tl.lanes[int(tl.lane[index])]
            evidence.insert(
                0,
                Evidence(
                    "slice",
                    name,
                    lane=lane.thread_name,
                    device=lane.device,
                    start_ns=int(tl.origin_ns) + int(tl.start_ns[index]),
                    dur_ns=int(tl.dur_ns[index]),
                    values={"index": int(index)},
                ),
            )
    evidence.append(Evidence("step", "step 1", values={"step": 1}))
    share = float(dur[row] / dur.sum())
    return [
        Finding(
            SLOW_OP,
            "compute",
            Severity.HIGH,
            args={"op": name, "share": model.pct(share)},
            facts=(Fact("time", model.us(float(dur[row])), {"op": name}), Fact("count", model.count(len(ops)))),
            evidence=tuple(evidence),
            evidence_total=len(evidence) + 7,
        ),
        Finding("test.d3_note", "schedule", Severity.LOW, args={}, facts=(), evidence=()),
    ]


def _register(rule_id: str, category: str, text: RuleText, target: str, check) -> None:
    model.rule(rule_id, category, text, target)(check)


@pytest.fixture
def test_rules():
    """Two report rules (a HIGH finding with op/slice/step evidence, a LOW one without) and a cluster
    rule; removed again afterwards."""
    _register(SLOW_OP, "compute", TEXT, "report", slow_op_findings)
    _register("test.d3_note", "schedule", RuleText(title="A note", advice=""), "report", lambda s: [])
    _register(
        "test.d3_cluster",
        "cluster",
        RuleText(title="{n} ranks analysed", advice="Nothing to do"),
        "cluster",
        lambda s: [
            Finding(
                "test.d3_cluster",
                "cluster",
                Severity.MEDIUM,
                args={"n": str(len(s.cluster.tables.ranks))},
                evidence=tuple(Evidence("rank", f"rank {r}", rank=r) for r in s.cluster.tables.ranks),
            )
        ],
    )
    yield SLOW_OP
    for rule_id in (SLOW_OP, "test.d3_note", "test.d3_cluster"):
        model._RULES.pop(rule_id, None)


@pytest.fixture
def advise_verb():
    """``ascend-workbench advise`` reachable through ``workbench.cli.main`` while workbench.core.verbs
    does not list the advisor's module yet (its VERB_HOMES entry is outside this change); a no-op
    once it does."""
    import sys

    from workbench.core import verbs

    module = "workbench.core.advisor.cli"
    added = "advise" not in verbs.VERB_HOMES
    if added:
        verbs.add_verb_module(module, ["advise"])
    yield
    if added:
        verbs.VERB_HOMES.pop("advise", None)
        if module in verbs.VERB_MODULES:
            verbs.VERB_MODULES.remove(module)
        verbs.VERBS.pop("advise", None)
        sys.modules.pop(module, None)
