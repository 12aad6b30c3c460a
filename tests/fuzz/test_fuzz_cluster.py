"""Fuzz of the cluster readers (issue #20): a rank's step_trace_time.csv, communication.json,
communication_matrix.json and profiler_metadata.json, a db rank's analysis.db, and msprof-analyze's cluster
output files.

A rank's reduction never raises (what it cannot read becomes a warning naming the file); the merge,
the findings and the views take any reduction; ``read_output`` raises only ClusterFileError naming
the file."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import hypothesis.strategies as st
import pytest
from fuzzkit import deep_json, feed, json_values, mutated, write
from hypothesis import given

from workbench.core.cluster import files, files_db, findings, merge, ranks, reduce, views

ROOT = Path(__file__).resolve().parents[2]
SIM_TORCH = next((ROOT / "resources/samples/resnet_torch_npu").glob("*_ascend_pt"))
OUT = SIM_TORCH / "ASCEND_PROFILER_OUTPUT"
_n = itertools.count()


def _rank_copy(tmp_path: Path, name: str, data: bytes) -> Path:
    rank = tmp_path / f"x{next(_n)}" / "w_1_20240101000000000_ascend_pt"
    out = rank / "ASCEND_PROFILER_OUTPUT"
    for f in ("step_trace_time.csv", "communication.json", "communication_matrix.json"):
        src = OUT / f
        if src.is_file():
            write(out / f, src.read_bytes())
    write(rank / "profiler_info_0.json", b"{}")
    write((rank if name == "profiler_metadata.json" else out) / name, data)
    return rank


def _everything(rank: Path) -> None:
    red = reduce.reduce_rank(0, str(rank))
    other = reduce.reduce_rank(1, str(rank))
    tables = merge.merge([red, other])
    findings.find(tables)
    for column in ("Computing", "Free"):
        views.step_grid(tables, column)
    views.breakdown(tables)
    views.op_summary(tables)
    views.link_rows(tables)
    views.group_rows(tables)
    files.step_csv_text(tables)
    json.dumps(tables.communication)
    json.dumps(tables.matrix)


NAMES = ["step_trace_time.csv", "communication.json", "communication_matrix.json"]


@given(name=st.sampled_from(NAMES), data=st.data())
def test_rank_files_mutated(tmp_path: Path, name: str, data: st.DataObject) -> None:
    blob = data.draw(mutated((OUT / name).read_bytes()))
    rank = _rank_copy(tmp_path, name, blob)
    feed(f"cluster-rank/{name}", rank, lambda: _everything(rank), ())


@given(name=st.sampled_from([*NAMES[1:], "profiler_metadata.json"]), value=json_values())
def test_rank_json_of_any_shape(tmp_path: Path, name: str, value: object) -> None:
    rank = _rank_copy(tmp_path, name, json.dumps(value).encode())
    feed(f"cluster-rank/{name}", rank, lambda: _everything(rank), ())


@given(
    info=st.dictionaries(
        st.sampled_from(["Communication Time Info", "Communication Bandwidth Info", "x"]), json_values(12)
    )
)
def test_comm_op_info_of_any_shape(tmp_path: Path, info: dict) -> None:
    doc = {"step1": {"collective": {"hcom_allReduce__1_0_1@5": info}, "p2p": {"hcom_send__1_0_1@6": info}}}
    matrix = {"step1": {"collective": {"allReduce-total@5": {"0-1": info, "0-0": info, "x": info}}}}
    rank = _rank_copy(tmp_path, "communication.json", json.dumps(doc).encode())
    write(rank / "ASCEND_PROFILER_OUTPUT" / "communication_matrix.json", json.dumps(matrix).encode())
    feed("cluster-rank/op-info", rank, lambda: _everything(rank), ())


def test_deep_json_is_a_warning(tmp_path: Path) -> None:
    rank = _rank_copy(tmp_path, "communication.json", deep_json(100_000))
    feed("cluster-rank/deep", rank, lambda: _everything(rank), ())
    red = reduce.reduce_rank(0, str(rank))
    assert any("communication.json" in w for w in red.warnings)


def _cluster_output(tmp_path: Path) -> Path:
    out = tmp_path / "ref" / "cluster_analysis_output"
    if not out.is_dir():
        red = reduce.reduce_rank(0, str(SIM_TORCH))
        files.write_output(merge.merge([red, reduce.reduce_rank(1, str(SIM_TORCH))]), out)
    return out


@given(name=st.sampled_from(list(files.NAMES)), data=st.data())
def test_cluster_output_mutated(tmp_path: Path, name: str, data: st.DataObject) -> None:
    ref = _cluster_output(tmp_path)
    if not (ref / name).is_file():
        return
    folder = tmp_path / f"o{next(_n)}"
    for f in files.NAMES:
        if (ref / f).is_file():
            write(folder / f, (ref / f).read_bytes())
    write(folder / name, data.draw(mutated((ref / name).read_bytes())))

    def read() -> None:
        tables = files.read_output(folder)
        findings.find(tables)
        views.op_summary(tables)
        views.link_rows(tables)
        views.breakdown(tables)

    feed(f"cluster-output/{name}", folder / name, read, (files.ClusterFileError,), names=(str(folder),))


@pytest.fixture(scope="module")
def db_job(tmp_path_factory) -> list[Path]:
    """A 2-rank pp 2 job exported as torch_npu's Db (ascend_pytorch_profiler_{rank}.db + analysis.db)."""
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    return list(write_cluster_job(tmp_path_factory.mktemp("dbjob"), 2, pp=2, export="db").rank_dirs)


@given(data=st.data())
def test_analysis_db_mutated(db_job: list[Path], tmp_path: Path, data: st.DataObject) -> None:
    analysis = db_job[0] / "ASCEND_PROFILER_OUTPUT" / "analysis.db"
    rank = tmp_path / f"x{next(_n)}" / db_job[0].name
    shutil.copytree(db_job[0], rank)
    write(rank / "ASCEND_PROFILER_OUTPUT" / "analysis.db", data.draw(mutated(analysis.read_bytes())))

    def run() -> None:
        red = reduce.reduce_source(ranks.RankSource(0, str(rank), "pytorch", data="db"))
        other = reduce.reduce_source(ranks.RankSource(1, str(db_job[1]), "pytorch", data="db"))
        tables = merge.merge([red, other])
        findings.find(tables)
        views.breakdown(tables)
        views.link_rows(tables)
        files.step_csv_text(tables)
        json.dumps(tables.communication)
        files_db.build(tables, rank.parent / "cluster_analysis.db")

    feed("cluster-rank/analysis.db", rank, run, ())
