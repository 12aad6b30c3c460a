"""Two ranks of a generated job merged with their timelines aligned (issue #20): on the start of step 2 or
of a communication operator, by exact int64 ns offsets (timeline and tables), a rank without the event left
where it was and named in the warnings."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.core.profiling.align import Alignment, shift_frame
from workbench.core.profiling.build import open_report
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.merge import merge_reports
from workbench.core.profiling.steps import report_steps
from workbench.core.profiling.timeline_ops import lane_parts
from workbench.simtoolkit.profdata.clusterjob import write_cluster_job


@pytest.fixture(scope="module")
def ranks(tmp_path_factory) -> list[Path]:
    """The rank folders of a 4-rank job (tp 2, dp 2): ranks 0 and 1 share the tp group, 0 and 2 a dp group."""
    plan = write_cluster_job(tmp_path_factory.mktemp("align") / "job", 4, tp=2, full=True)
    return list(plan.rank_dirs)


@pytest.fixture(scope="module")
def alone(ranks) -> dict[int, object]:
    """Ranks 0 and 1 opened one by one (the times before any alignment)."""
    return {r: open_report(ranks[r]) for r in (0, 1)}


def step_start(report, step: int) -> int:
    return next(sp.start_ns for sp in report_steps(report).spans if sp.id == step)


def part_of_slices(tl) -> np.ndarray:
    return np.asarray(lane_parts(tl))[np.asarray(tl.lane)]


def absolute(tl, idx) -> np.ndarray:
    """Absolute epoch ns of slices ``idx``, in int64 (never through float)."""
    return np.asarray(tl.start_ns, dtype=np.int64)[idx] + np.int64(tl.origin_ns)


def starts_named(tl, name: str, part: int | None = None) -> list[int]:
    """Absolute starts of the slices called ``name`` on the communication operator lanes (of ``part``)."""
    nid = tl.names.index(name) if name in tl.names else -1
    lanes = [ln.index for ln in tl.lanes if ln.process_name == "Communication" and ln.thread_name.startswith("Group")]
    mask = (np.asarray(tl.name_id) == nid) & np.isin(np.asarray(tl.lane), lanes)
    if part is not None:
        mask &= part_of_slices(tl) == part
    return sorted(int(v) for v in absolute(tl, np.flatnonzero(mask)))


def op_names(report) -> set[str]:
    tl = report.timeline
    lanes = [ln.index for ln in tl.lanes if ln.process_name == "Communication" and ln.thread_name.startswith("Group")]
    ids = np.unique(np.asarray(tl.name_id)[np.isin(np.asarray(tl.lane), lanes)])
    return {tl.names[int(i)] for i in ids}


def test_aligned_on_step_2_both_ranks_start_it_at_the_same_ns(ranks, alone):
    ref, other = step_start(alone[0], 2), step_start(alone[1], 2)
    assert ref != other
    # these epoch ns are not float64 values: a float on the way would move them by up to 128 ns
    assert int(float(ref)) != ref or int(float(other)) != other
    merged = merge_reports([ranks[0], ranks[1]], align=Alignment.step_start(2))
    tl = merged.timeline
    parts = part_of_slices(tl)
    step2 = np.asarray(tl.name_id) == tl.names.index("ProfilerStep#2")
    starts = [absolute(tl, np.flatnonzero(step2 & (parts == p))) for p in (0, 1)]
    assert [len(s) for s in starts] == [1, 1]
    assert starts[0].dtype == starts[1].dtype == np.int64
    assert int(starts[0][0]) == int(starts[1][0]) == ref  # exactly the reference's start
    offset = ref - other
    assert merged.info["alignment"]["offsets_ns"] == [["rank 0", 0], ["rank 1", offset]]
    assert type(merged.info["alignment"]["offsets_ns"][1][1]) is int
    assert merged.warnings[:2] == [
        "Timelines aligned on the start of step 2; the reference is rank 0",
        f"rank 1: shifted by {offset:+,} ns",
    ]
    # every slice of rank 1 moved by exactly the offset, rank 0's not at all
    before = {r: absolute(alone[r].timeline, np.arange(len(alone[r].timeline))) for r in (0, 1)}
    after = {p: np.sort(absolute(tl, np.flatnonzero(parts == p))) for p in (0, 1)}
    assert np.array_equal(after[0], np.sort(before[0]))
    assert np.array_equal(after[1], np.sort(before[1]) + np.int64(offset))
    # the tables' time points too, as Int64, exactly; durations are no time points
    ops = merged.tables["ops"]
    assert isinstance(ops["start_ns"].dtype, pd.Int64Dtype)
    one = ops[ops["device"] == 1]["start_ns"].to_numpy(dtype=np.int64)
    assert np.array_equal(one, alone[1].tables["ops"]["start_ns"].to_numpy(dtype=np.int64) + offset)
    assert np.allclose(ops[ops["device"] == 1]["duration_us"], alone[1].tables["ops"]["duration_us"])
    memory = merged.tables["memory_record"]
    mine = memory[memory["source"].astype(str) == str(alone[1].source)]["Timestamp(ns)"].to_numpy(dtype=np.int64)
    assert np.array_equal(mine, alone[1].tables["memory_record"]["Timestamp(ns)"].to_numpy(dtype=np.int64) + offset)
    # the merged report's own step spans now start step 2 at the reference's time
    assert step_start(merged, 2) == ref
    # the inputs were not changed
    assert step_start(alone[1], 2) == other


def test_aligned_on_a_communication_op(ranks, alone):
    shared = sorted(op_names(alone[0]) & op_names(alone[1]))
    name = shared[-1]
    ref, other = starts_named(alone[0].timeline, name)[0], starts_named(alone[1].timeline, name)[0]
    merged = merge_reports([ranks[0], ranks[1]], align=Alignment.op_start(name))
    tl = merged.timeline
    assert starts_named(tl, name, part=0) == [ref]
    assert starts_named(tl, name, part=1) == [ref]
    assert merged.info["alignment"]["offsets_ns"] == [["rank 0", 0], ["rank 1", ref - other]]
    assert merged.warnings[0] == f"Timelines aligned on the start of {name} (occurrence 1); the reference is rank 0"
    # the second start of an operator that starts once: nowhere, which is one clear error
    with pytest.raises(ProfilingDataError) as err:
        merge_reports([ranks[0], ranks[1]], align=Alignment.op_start(name, occurrence=2))
    assert str(err.value) == f"align: the start of {name} (occurrence 2) is in none of rank 0, rank 1"


def test_a_rank_without_the_op_stays_unshifted_and_is_named(ranks, alone):
    only_rank0 = sorted(op_names(alone[0]) - op_names(alone[1]))[0]  # its dp group's (0, 2) operator
    ref = starts_named(alone[0].timeline, only_rank0)[0]
    # rank 1 first: it lacks the operator, so rank 0 is the reference
    merged = merge_reports([ranks[1], ranks[0]], align=Alignment.op_start(only_rank0))
    assert merged.warnings[:2] == [
        f"Timelines aligned on the start of {only_rank0} (occurrence 1); the reference is rank 0",
        f"rank 1: occurrence 1 of {only_rank0} is not on its communication lanes (it starts there 0 times); "
        "left unshifted",
    ]
    assert merged.info["alignment"]["offsets_ns"] == [["rank 1", None], ["rank 0", 0]]
    tl = merged.timeline
    parts = part_of_slices(tl)
    for part, rank in ((0, 1), (1, 0)):
        before = absolute(alone[rank].timeline, np.arange(len(alone[rank].timeline)))
        assert np.array_equal(np.sort(absolute(tl, np.flatnonzero(parts == part))), np.sort(before))
    assert starts_named(tl, only_rank0, part=1) == [ref]


def test_a_step_no_rank_has_is_one_clear_error(ranks):
    with pytest.raises(ProfilingDataError) as err:
        merge_reports([ranks[0], ranks[1]], align=Alignment.step_start(9))
    assert str(err.value) == "align: the start of step 9 is in none of rank 0, rank 1"


def test_shift_frame_moves_only_epoch_ns_time_points_exactly():
    big = 1_717_407_000_011_074_477  # not a float64 value
    frame = pd.DataFrame(
        {
            "start_ns": pd.array([big, None, 0], dtype="Int64"),
            "Duration(ns)": pd.array([1500, 2, 3], dtype="Int64"),
            "Release Time(ns)": np.array([big + 1, big + 2, big + 3], dtype=np.int64),
            "end_ns": np.array([1.0, 2.0, 3.0]),  # floats are never taken for exact times
            "name": ["a", "b", "c"],
        }
    )
    moved = shift_frame(frame, -14_069)
    assert moved["start_ns"].tolist() == [big - 14_069, pd.NA, 0]  # a placeholder 0 is no time point
    assert isinstance(moved["start_ns"].dtype, pd.Int64Dtype)
    assert moved["Duration(ns)"].tolist() == [1500, 2, 3]
    assert moved["Release Time(ns)"].tolist() == [big + 1 - 14_069, big + 2 - 14_069, big + 3 - 14_069]
    assert moved["Release Time(ns)"].dtype == np.int64
    assert moved["end_ns"].tolist() == [1.0, 2.0, 3.0]
    assert frame["start_ns"].tolist() == [big, pd.NA, 0]  # the input is not changed


def test_an_alignment_names_what_is_wrong_with_it():
    with pytest.raises(ProfilingDataError, match=r"^align: no communication operator name given"):
        Alignment.op_start("  ")
    with pytest.raises(ProfilingDataError, match=r"^align: occurrence 0 of hcom_x \(expected 1 or more\)$"):
        Alignment.op_start("hcom_x", 0)
