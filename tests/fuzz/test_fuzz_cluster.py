"""Fuzz of the cluster readers (issue #20): a rank's step_trace_time.csv, communication.json,
communication_matrix.json and profiler_metadata.json, a db rank's analysis.db, and msprof-analyze's cluster
output files; a msprof PROF_* rank's msprof_<timestamp>.json (the Overlap Analysis events), analyze/
communication(_matrix).json and device_<id>/info.json.<id>; the profiler dbs and communication_analyzer.db of
MindSpore and msprof db ranks (damaged bytes, tables missing), through cluster_analysis.db's writer.

A rank's reduction never raises (what it cannot read becomes a warning naming the file); the merge,
the findings and the views take any reduction; ``read_output`` raises only ClusterFileError naming
the file."""

from __future__ import annotations

import itertools
import json
import shutil
import sqlite3
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


# ---- msprof PROF_* ranks and MindSpore / msprof db ranks ---------------------------------------------------


@pytest.fixture(scope="module")
def prof_job(tmp_path_factory) -> list[Path]:
    """A 2-rank pp 2 msprof job (PROF_* folders: mindstudio_profiler_output + analyze)."""
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    return list(write_cluster_job(tmp_path_factory.mktemp("profjob"), 2, pp=2, layout="msprof").rank_dirs)


@pytest.fixture(scope="module")
def db_jobs(tmp_path_factory) -> dict[str, list[Path]]:
    """2-rank pp 2 jobs: MindSpore's db export and msprof's (msprof_<timestamp>.db + analyze/)."""
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    root = tmp_path_factory.mktemp("dbjobs")
    ms = write_cluster_job(root / "ms", 2, pp=2, export="db", framework="mindspore").rank_dirs
    prof = write_cluster_job(root / "prof", 2, pp=2, export="db", layout="msprof").rank_dirs
    for rank, folder in enumerate(ms):  # a real MindSpore rank's PROF_* folder: its device for RankDeviceMap
        (folder / f"PROF_00000{rank}_20240101000000000_ABCDEFGH" / f"device_{rank}").mkdir(parents=True)
    return {"mindspore": list(ms), "msprof": list(prof)}


def _one_line(lines: list[str]) -> None:
    bad = [w for w in lines if not isinstance(w, str) or "\n" in w or "Traceback" in w]
    assert not bad, bad[:3]


def _cluster_of(rank_dirs: list[Path], db: bool = False) -> None:
    """Discovery, every rank's reduction, the merge, the findings, the views, msprof-analyze's files (and for
    db ranks cluster_analysis.db with the ranks' host facts) of the job ``rank_dirs[0].parent``: never raises,
    every warning one line."""
    found = ranks.discover(str(rank_dirs[0].parent))
    _one_line(found.warnings)
    reds = [reduce.reduce_source(s) for s in found.ranks]
    for red in reds:
        _one_line(red.warnings)
    tables = merge.merge(reds)
    _one_line(tables.warnings)
    findings.find(tables)
    views.breakdown(tables)
    views.link_rows(tables)
    views.group_rows(tables)
    files.step_csv_text(tables)
    json.dumps(tables.communication)
    json.dumps(tables.matrix)
    if db:
        hosts = [files_db.read_rank_host(s.rank, s.path, s.kind) for s in found.ranks]
        stepless = [s.rank for s in found.ranks if s.kind in files_db.STEPLESS_KINDS]
        facts = files_db.db_facts(hosts, [r.distributed_args for r in reds], stepless)
        _one_line(facts.warnings)
        out = rank_dirs[0].parent.parent / f"db{next(_n)}" / files_db.DB_NAME
        out.parent.mkdir(parents=True)
        files_db.build(tables, out, facts)


def _job_copy(tmp_path: Path, rank_dirs: list[Path]) -> list[Path]:
    job = tmp_path / f"j{next(_n)}" / "job"
    for folder in rank_dirs:
        shutil.copytree(folder, job / folder.name)
    return [job / folder.name for folder in rank_dirs]


def _timeline(rank: Path) -> Path:
    return next((rank / "mindstudio_profiler_output").glob("msprof_*.json"))


PROF_FILES = ["timeline", "analyze/communication.json", "analyze/communication_matrix.json", "info"]


def _prof_member(rank: Path, name: str) -> Path:
    if name == "timeline":
        return _timeline(rank)
    if name == "info":
        return next(rank.glob("device_*/info.json.*"))
    return rank / name


@given(name=st.sampled_from(PROF_FILES), data=st.data())
def test_prof_rank_files_mutated(prof_job: list[Path], tmp_path: Path, name: str, data: st.DataObject) -> None:
    job = _job_copy(tmp_path, prof_job)
    target = _prof_member(job[0], name)
    write(target, data.draw(mutated(target.read_bytes(), _prof_member(job[1], name).read_bytes())))
    feed(f"cluster-prof/{name.rsplit('/', 1)[-1]}", target, lambda: _cluster_of(job), ())


@given(name=st.sampled_from(PROF_FILES), value=json_values())
def test_prof_rank_json_of_any_shape(prof_job: list[Path], tmp_path: Path, name: str, value: object) -> None:
    job = _job_copy(tmp_path, prof_job)
    target = _prof_member(job[0], name)
    write(target, json.dumps(value).encode())
    feed(f"cluster-prof/{name.rsplit('/', 1)[-1]}", target, lambda: _cluster_of(job), ())


@given(
    events=st.lists(st.dictionaries(st.sampled_from(["name", "ph", "dur", "ts", "args"]), json_values(4)), max_size=8)
)
def test_prof_timeline_events_of_any_shape(prof_job: list[Path], tmp_path: Path, events: list) -> None:
    """The Overlap Analysis events msprof-analyze sums: a name, a dur of any type."""
    job = _job_copy(tmp_path, prof_job)
    named = [dict(e, name=n) for e, n in zip(events, itertools.cycle(["Computing", "Free", "hcom_receive_1", "x"]))]
    write(_timeline(job[0]), json.dumps(named).encode())
    feed("cluster-prof/events", _timeline(job[0]), lambda: _cluster_of(job), ())


def _dbs(rank: Path, kind: str) -> list[Path]:
    if kind == "mindspore":
        out = rank / "ASCEND_PROFILER_OUTPUT"
        return [next(out.glob("ascend_mindspore_profiler_*.db")), out / "communication_analyzer.db"]
    return [next(rank.glob("msprof_*.db")), rank / "analyze" / "communication_analyzer.db"]


@given(kind=st.sampled_from(["mindspore", "msprof"]), which=st.integers(0, 1), data=st.data())
def test_mindspore_and_msprof_dbs_mutated(
    db_jobs: dict[str, list[Path]], tmp_path: Path, kind: str, which: int, data: st.DataObject
) -> None:
    job = _job_copy(tmp_path, db_jobs[kind])
    target = _dbs(job[0], kind)[which]
    write(target, data.draw(mutated(target.read_bytes())))
    feed(f"cluster-{kind}-db/{target.name.split('_')[0]}", target, lambda: _cluster_of(job, db=True), ())


def _tables_of(path: Path) -> list[str]:
    con = sqlite3.connect(path)
    try:
        return sorted(name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    finally:
        con.close()


@given(kind=st.sampled_from(["mindspore", "msprof"]), which=st.integers(0, 1), data=st.data())
def test_mindspore_and_msprof_dbs_with_tables_missing(
    db_jobs: dict[str, list[Path]], tmp_path: Path, kind: str, which: int, data: st.DataObject
) -> None:
    """Tables dropped (or emptied) from the profiler db or communication_analyzer.db: warnings, no exception."""
    job = _job_copy(tmp_path, db_jobs[kind])
    target = _dbs(job[0], kind)[which]
    names = _tables_of(target)
    dropped = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=len(names), unique=True))
    emptied = data.draw(st.booleans())
    con = sqlite3.connect(target)
    with con:
        for name in dropped:
            con.execute(f'DELETE FROM "{name}"' if emptied else f'DROP TABLE "{name}"')
    con.close()
    feed(f"cluster-{kind}-db/tables", target, lambda: _cluster_of(job, db=True), ())
