"""The advisor's communication rules over one rank's report (issue #21): the planted small packets and
unaligned transfers are found with their operators, not found without the plant; the real 910B rank's
communication files give the numbers read by hand from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.advisor.run import advise
from workbench.core.profiling.build import open_report
from workbench.simtoolkit.profdata import data_parallel, transformer_workload, write_torch_npu

SAMPLES = Path(__file__).resolve().parents[3].parent / "shared" / "samples"
COMM_SAMPLE = SAMPLES / "torch_npu-910B-rank0-comm-mem"
BUCKET = 16 << 20  # 32 MB gradient buckets of BF16: every SDMA transfer over msprof-analyze's 16 MB


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("comm")
    out = {}
    for name in ("none", "small-packets", "unaligned-comm"):
        workload = data_parallel(transformer_workload(), bucket_elements=BUCKET)
        out[name] = write_torch_npu(
            root / name, workload, world_size=2, rank=0, plants=[] if name == "none" else [name]
        )
    return out


def _findings(path: Path, rule_id: str):
    result = advise(open_report(path), only=[rule_id])
    assert not result.warnings, result.warnings
    assert rule_id in result.rules_run
    return [f for f in result.findings if f.rule == rule_id]


def _facts(finding) -> dict[str, str]:
    return {f.key: f.value for f in finding.facts}


def test_unplanted_run_has_no_small_packets_or_unaligned_sizes(runs):
    assert _findings(runs["none"], "communication.small_packets") == []
    assert _findings(runs["none"], "communication.byte_alignment") == []


def test_small_packets_are_found_with_their_operators(runs):
    report = open_report(runs["small-packets"])
    (found,) = [f for f in advise(report, only=["communication.small_packets"]).findings]
    assert found.args == {"share": "100.0 %", "transport": "SDMA", "limit": "16.000 MB"}
    facts = _facts(found)
    assert facts["ops"] == facts["small"] == "64"  # 2 buckets split in 16, 2 steps
    assert found.severity.value == "high" and found.evidence_total == 64
    rows = [e for e in found.evidence if e.kind == "row"]
    slices = [e for e in found.evidence if e.kind == "slice"]
    assert len(rows) == len(slices) == 5
    table = report.tables["communication_bandwidth"]
    for row in rows:
        hit = table.loc[row.row]
        assert hit["transport"] == "SDMA" and hit["size_mb"] < 16 and str(hit["op"]).startswith(row.label + "@")
    for s in slices:  # the operator on its Communication group lane, at its communication.json start
        assert s.lane.startswith("Communication · Group ") and s.label.startswith("hcom_allReduce__586_")


def test_unaligned_transfers_are_found_with_their_operators(runs):
    (found,) = _findings(runs["unaligned-comm"], "communication.byte_alignment")
    facts = _facts(found)
    assert found.args == {"count": "4"} and facts["ops"] == "4"  # 2 operators in each of 2 steps
    assert facts["share"] == "100.0 %"
    assert {e.label for e in found.evidence} == {"hcom_allReduce__586_0_1", "hcom_allReduce__586_1_1"}
    assert all(e.kind == "slice" and e.lane.startswith("Communication · Group ") for e in found.evidence)


def test_not_overlapped_communication_of_the_real_rank():
    """step_trace_time.csv of the sample: Not Overlapped 101963.203 us of Computing 8873.756 + Not
    Overlapped + Free 25744.05 = 136581.009 us: 74.7 %."""
    (found,) = _findings(COMM_SAMPLE, "communication.not_overlapped")
    assert found.severity.value == "high"
    assert found.args == {"share": "74.7 %", "time": "101.963 ms"}
    assert _facts(found)["communication"] == "105.992 ms"
    assert [(e.kind, e.label) for e in found.evidence] == [("step", "step 50")]


def test_not_overlapped_is_not_found_without_communication(tmp_path):
    run = write_torch_npu(tmp_path, transformer_workload())
    assert _findings(run, "communication.not_overlapped") == []


def test_real_rank_has_no_small_packets_but_two_slow_hccs_operators():
    """communication.json of the sample: SDMA transit 28.6, 117.4, 264.2 and 17.3 MB (none under 16 MB);
    HCCS bandwidth 15.7676, 12.9217, 17.3778 and 14.3343 GB/s: 586_1_1 and 586_3_1 under 80 % of 18 GB/s."""
    assert _findings(COMM_SAMPLE, "communication.small_packets") == []
    (slow,) = _findings(COMM_SAMPLE, "communication.slow_transport")
    assert slow.args == {"count": "2", "limit": "14.40 GB/s", "transport": "HCCS"}
    assert [(e.kind, e.label, e.values["bandwidth_gbs"]) for e in slow.evidence] == [
        ("row", "hcom_allReduce__586_1_1", 12.9217),
        ("row", "hcom_allReduce__586_3_1", 14.3343),
    ]
    assert _facts(slow)["slowest"] == "12.92 GB/s"


def test_bandwidth_contention_as_msprof_analyze_finds_it(runs):
    """msprof-analyze advisor on this very run lists one operator under Bandwidth Contention:
    hcom_allReduce__586_0_1, 13.56 GB/s, overlapping a MatMul task."""
    report = open_report(runs["none"])
    (found,) = [f for f in advise(report, only=["communication.bandwidth_contention"]).findings]
    assert found.args == {"count": "1", "limit": "14.40 GB/s"}
    comm, op = found.evidence
    assert (comm.kind, comm.label, round(comm.values["bandwidth_gbs"], 2)) == (
        "slice",
        "hcom_allReduce__586_0_1",
        13.56,
    )
    assert op.kind == "op" and op.table == "ops" and "MatMul" in op.label
    row = report.ops.iloc[op.row]
    assert row["name"] == op.label and int(row["start_ns"]) == op.start_ns
    assert op.start_ns <= comm.start_ns + comm.dur_ns and comm.start_ns <= op.start_ns + op.dur_ns  # side by side


def test_no_contention_without_communication(tmp_path):
    run = write_torch_npu(tmp_path, transformer_workload())
    assert _findings(run, "communication.bandwidth_contention") == []
