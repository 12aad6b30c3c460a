"""Cluster analysis of torch_npu db exports (issue #20): a rank whose ASCEND_PROFILER_OUTPUT holds
``ascend_pytorch_profiler_{rank}.db`` + ``analysis.db`` reduces to the same reduction as its Text export,
``cluster analyze`` writes the same msprof-analyze text files for it, and also msprof-analyze's db output
``cluster_analysis.db`` with the real tool's tables and numbers; a damaged analysis.db is warnings."""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import pickle
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.cluster import files, files_db, merge, ranks, reduce
from workbench.core.fsutil import OutputRefused
from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

from .dbcompare import assert_same_db, db_tables, msprof_analyze, run_cluster

SHAPE = {"tp": 2, "pp": 2, "slow_rank": 5, "slow_link": (2, 3)}
OUT = "ASCEND_PROFILER_OUTPUT"
FIELDS = ("step_header", "steps", "communication", "matrix", "parallel_group_info", "distributed_args")


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    """The same 8-rank tp 2 / pp 2 job three times: Text export, Db export, both."""
    root = tmp_path_factory.mktemp("jobs")
    return {export: write_cluster_job(root / export, 8, export=export, **SHAPE) for export in ("text", "db", "both")}


def _job(jobs, export: str) -> Path:
    return jobs[export].rank_dirs[0].parent


def _reduce(job: Path, data: str | None = None) -> list[reduce.RankReduction]:
    found = ranks.discover(str(job))
    assert found.warnings == []
    sources = [s if data is None else dataclasses.replace(s, data=data) for s in found.ranks]
    return [reduce.reduce_source(s) for s in sources]


# ---- the simulator ------------------------------------------------------------------------------------


def test_the_db_export_writes_torch_npus_files_and_the_text_files_stay_byte_for_byte(jobs):
    for r, (text, db, both) in enumerate(zip(*(jobs[e].rank_dirs for e in ("text", "db", "both")))):
        out_db = sorted(p.name for p in (db / OUT).iterdir())
        assert out_db == ["analysis.db", f"ascend_pytorch_profiler_{r}.db"]
        for name in ("step_trace_time.csv", "communication.json", "communication_matrix.json"):
            assert (both / OUT / name).read_bytes() == (text / OUT / name).read_bytes(), name
        assert (db / "profiler_metadata.json").read_bytes() == (text / "profiler_metadata.json").read_bytes()
        assert (both / OUT / "analysis.db").read_bytes() == (db / OUT / "analysis.db").read_bytes()
    rank0 = jobs["db"].rank_dirs[0] / OUT
    con = sqlite3.connect(f"file:{rank0 / 'ascend_pytorch_profiler_0.db'}?mode=ro", uri=True)
    try:
        meta = dict(con.execute("SELECT name, value FROM META_DATA"))
        assert con.execute("SELECT rankId, deviceId FROM RANK_DEVICE_MAP").fetchall() == [(0, 0)]
    finally:
        con.close()
    saved = json.loads((jobs["db"].rank_dirs[0] / "profiler_metadata.json").read_text())
    assert json.loads(meta["parallel_group_info"]) == saved["parallel_group_info"]


def test_analysis_db_has_the_producers_layout(jobs):
    """What torch_npu / msprof write and msprof-analyze's db mode reads (docs/cann-formats.md §11): ranks as
    text, '' as a -total entry's op name, no row for a transport without traffic, 0, 0, 0 for no sizes."""
    path = jobs["db"].rank_dirs[1] / OUT / "analysis.db"
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert {r[0] for r in con.execute("SELECT DISTINCT typeof(src_rank) FROM CommAnalyzerMatrix")} == {"text"}
        assert con.execute("SELECT count(*) FROM CommAnalyzerMatrix WHERE op_name IS NULL").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM CommAnalyzerMatrix WHERE op_name = ''").fetchone()[0] > 0
        transports = {r[0] for r in con.execute("SELECT DISTINCT transport_type FROM CommAnalyzerBandwidth")}
        assert transports == {"HCCS", "SDMA"}  # RDMA, PCIE, SIO carry nothing in this job
        no_sizes = con.execute(
            "SELECT count(*) FROM CommAnalyzerBandwidth WHERE transport_type = 'SDMA' "
            "AND package_size = 0 AND count = 0 AND total_duration = 0"
        ).fetchone()[0]
        assert no_sizes > 0
        zero = "transit_size = 0 AND transit_time = 0 AND bandwidth = 0 AND large_packet_ratio = 0"
        assert con.execute(f"SELECT count(*) FROM CommAnalyzerBandwidth WHERE {zero}").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM CommAnalyzerBandwidth WHERE package_size IS NULL").fetchone() == (0,)
    finally:
        con.close()


def test_the_cli_writes_a_db_job(tmp_path, capsys):
    from workbench.simtoolkit.profdata.__main__ import main as sim_main

    out = tmp_path / "job"
    assert sim_main(["cluster", str(out), "--world-size", "2", "--export", "db"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all((Path(p) / OUT / "analysis.db").is_file() for p in lines)
    assert not list(out.glob(f"*/{OUT}/step_trace_time.csv"))
    with pytest.raises(SystemExit):
        sim_main(["cluster", str(tmp_path / "x"), "--world-size", "2", "--export", "xml"])
    assert "invalid choice: 'xml'" in capsys.readouterr().err


# ---- (a) the reduction ------------------------------------------------------------------------------------


def test_discovery_tells_a_db_rank_from_a_text_rank(jobs):
    assert {s.data for s in ranks.discover(str(_job(jobs, "db"))).ranks} == {"db"}
    assert {s.data for s in ranks.discover(str(_job(jobs, "text"))).ranks} == {"text"}
    assert {s.data for s in ranks.discover(str(_job(jobs, "both"))).ranks} == {"text"}  # both: the text is read


def test_the_db_reduction_equals_the_text_reduction_rank_by_rank(jobs):
    both = _job(jobs, "both")
    text, db = _reduce(both, "text"), _reduce(both, "db")
    assert [r.rank for r in db] == list(range(8))
    for t, d in zip(text, db):
        assert d.warnings == [] and t.warnings == []
        for field in FIELDS:
            assert getattr(d, field) == getattr(t, field), (t.rank, field)
        # the same JSON text too: floats where the text export has floats, msprof's untouched 0 as 0
        assert json.dumps(d.communication) == json.dumps(t.communication)
        assert json.dumps(d.matrix) == json.dumps(t.matrix)
        assert repr(d.steps) == repr(t.steps)
        assert d.steps and d.communication and d.matrix and d.parallel_group_info
        rank = Path(d.path)
        read = [rank / OUT / "analysis.db", rank / OUT / f"ascend_pytorch_profiler_{d.rank}.db"]
        assert d.read_bytes == sum(p.stat().st_size for p in [*read, rank / "profiler_metadata.json"])  # the dbs


def _without_workbench(tmp_path: Path, fn, source, compute: str) -> object:
    """``compute`` (Python that sets ``out`` from ``fn`` and ``src``) run by a Python that cannot import workbench,
    ``fn`` and ``source`` shipped by value as the engine ships them to a worker of the user's cluster: ``out``."""
    import cloudpickle

    import workbench

    cloudpickle.register_pickle_by_value(workbench)
    try:
        blob = cloudpickle.dumps((fn, source))
    finally:
        cloudpickle.unregister_pickle_by_value(workbench)
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import sys\n"
        "class _NotInstalled:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'workbench':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}')\n"
        "sys.meta_path.insert(0, _NotInstalled())\n"
    )
    code = f"import pickle, sys\nfn, src = pickle.loads(sys.stdin.buffer.read())\n{compute}\n"
    code += "sys.stdout.buffer.write(pickle.dumps(out))\n"
    done = subprocess.run(
        [sys.executable, "-c", code], input=blob, capture_output=True, env={"PYTHONPATH": str(site)}, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return pickle.loads(done.stdout)


def test_a_db_rank_reduces_on_a_worker_without_workbench(jobs, tmp_path):
    """The engine ships reduce.reduce_source by value to hosts where workbench is not installed: the db
    reader must travel with it (an import inside the function would fail there)."""
    source = ranks.discover(str(_job(jobs, "db"))).ranks[3]
    there = _without_workbench(
        tmp_path,
        reduce.reduce_source,
        source,
        "red = fn(src)\nout = (red.steps, red.communication, red.matrix, red.warnings)",
    )
    here = reduce.reduce_source(source)
    assert there == (here.steps, here.communication, here.matrix, [])


# ---- (b) cluster analyze: the same text files --------------------------------------------------------------


@pytest.fixture(scope="module")
def analysed(jobs, tmp_path_factory):
    """``cluster analyze`` of the text job and of the db job, each into its own folder."""
    root = tmp_path_factory.mktemp("analysed")
    outs = {}
    for export in ("text", "db"):
        out = root / export
        assert main(["cluster", "analyze", str(_job(jobs, export)), "--out", str(out), "--json"]) == 0
        outs[export] = out
    return outs


def test_cluster_analyze_of_the_db_job_writes_the_text_jobs_files(analysed, capsys):
    capsys.readouterr()
    for name in files.NAMES:
        assert (analysed["db"] / name).read_bytes() == (analysed["text"] / name).read_bytes(), name
    assert (analysed["db"] / files_db.DB_NAME).is_file()
    assert not (analysed["text"] / files_db.DB_NAME).exists()  # msprof-analyze writes no db for text input


def test_the_db_output_is_never_written_over_without_force(jobs, analysed, tmp_path, capsys):
    out = analysed["db"]
    before = (out / files_db.DB_NAME).read_bytes()
    other = tmp_path / "other"
    other.mkdir()
    (other / files_db.DB_NAME).write_bytes(b"mine")
    assert main(["cluster", "analyze", str(_job(jobs, "db")), "--out", str(other)]) == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line == f"error: {other / files_db.DB_NAME}: exists; pass --force to replace it"
    assert (other / files_db.DB_NAME).read_bytes() == b"mine" and not (other / files.STEP_CSV).exists()
    reds = _reduce(_job(jobs, "db"))
    tables = merge.merge(reds)
    facts = files_db.db_facts(
        [files_db.read_rank_host(r.rank, r.path) for r in reds], [r.distributed_args for r in reds]
    )
    with pytest.raises(OutputRefused, match="exists; pass --force"):
        files_db.write_db(tables, out, facts=facts)
    assert files_db.write_db(tables, out, force=True, facts=facts) == out / files_db.DB_NAME
    assert (out / files_db.DB_NAME).read_bytes() == before  # the same tables, built the same way
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []  # no temp left behind


# ---- (c) against msprof-analyze's own db output --------------------------------------------------------------


def _stage_set(index: str) -> object:
    text = str(index)
    return frozenset(int(x) for x in text.strip("()").split(",") if x.strip()) if text.startswith("(") else int(text)


MEGATRON = {"tensor_model_parallel_size": 2, "pipeline_model_parallel_size": 2, "data_parallel_size": 2}


def test_msprof_analyzes_cluster_analysis_db_has_our_tables(jobs, tmp_path, capsys):
    """The db job with Megatron's distributed_args in its profiler_metadata.json (as torch_npu writes them
    for a Megatron run): msprof-analyze's cluster_analysis.db and ours hold the same eight tables, rows,
    values and storage types (ClusterBaseInfo, HostInfo, RankDeviceMap too)."""
    exe = msprof_analyze()
    copy = tmp_path / "job"  # msprof-analyze writes cluster_analysis_output/ into the folder it reads
    shutil.copytree(_job(jobs, "db"), copy)
    for rank, meta in enumerate(sorted(copy.glob("*/profiler_metadata.json"))):
        doc = json.loads(meta.read_text())
        doc["distributed_args"] = {**MEGATRON, "world_size": 8, "rank": rank, "sequence_parallel": False}
        meta.write_text(json.dumps(doc, indent=4))
    assert "data type: db" in run_cluster(exe, copy)
    out = tmp_path / "ours"
    assert main(["cluster", "analyze", str(copy), "--out", str(out)]) == 0
    capsys.readouterr()
    ours, _theirs = assert_same_db(out / files_db.DB_NAME, copy)
    assert set(ours) == set(files_db.TABLES)
    con = sqlite3.connect(f"file:{out / files_db.DB_NAME}?mode=ro", uri=True)
    try:
        base = con.execute(f"SELECT key, value FROM {files_db.BASE_TABLE}").fetchall()
        devices = con.execute(f"SELECT * FROM {files_db.DEVICE_TABLE}").fetchall()
        rows = con.execute(f"SELECT * FROM {files_db.STEP_TABLE}").fetchall()
    finally:
        con.close()
    assert base == [("distributed_args", json.dumps({**MEGATRON, "world_size": 8, "sequence_parallel": False}))]
    assert devices == [(r, r, "0", str(p)) for r, p in enumerate(sorted(copy.glob("*_ascend_pt")))]
    # and msprof-analyze's ClusterStepTraceTime holds our cluster_step_trace_time.csv's numbers
    with open(out / files.STEP_CSV, newline="", encoding="utf-8") as fh:
        header, *csv_rows = list(csv.reader(fh))
    assert header[-3:] == ["DP Index", "PP Index", "TP Index"]
    mine = Counter((r[0], r[1], _stage_set(r[2]), *map(float, r[3:-3])) for r in csv_rows)
    got = Counter((r[0], r[1], _stage_set(r[2]), *map(float, r[3:-3])) for r in rows)
    assert got == mine and any(r[1] == "stage" for r in rows)
    indices = {(r[1], int(r[2])): tuple(int(x) for x in r[-3:]) for r in csv_rows if r[1] == "rank"}
    assert {(r[1], int(r[2])): r[-3:] for r in rows if r[1] == "rank"} == indices


def test_a_job_without_distributed_args_has_no_cluster_base_info(analysed):
    tables = set(db_tables(analysed["db"] / files_db.DB_NAME))
    assert tables == set(files_db.TABLES) - {files_db.BASE_TABLE}


def test_a_rank_without_host_info_is_left_out_of_host_info_and_rank_device_map(jobs, tmp_path):
    rank = tmp_path / jobs["db"].rank_dirs[2].name
    shutil.copytree(jobs["db"].rank_dirs[2], rank)
    db = rank / OUT / "ascend_pytorch_profiler_2.db"
    assert files_db.read_rank_host(2, str(rank)) == (("0", "localhost"), [(2, 2, "0", str(rank))], None)
    con = sqlite3.connect(db)
    try:
        with con:
            con.execute("DELETE FROM HOST_INFO")
    finally:
        con.close()
    assert files_db.read_rank_host(2, str(rank)) == (
        None,
        [],
        f"{db}: no HOST_INFO rows; the rank is left out of HostInfo and RankDeviceMap",
    )
    db.write_bytes(b"no database\n" * 200)
    host, rows, warning = files_db.read_rank_host(2, str(rank))
    assert (host, rows) == (None, []) and warning.startswith(f"{db}: not a readable SQLite database (")
    db.unlink()
    assert files_db.read_rank_host(2, str(rank))[2] == (
        f"rank 2: no ascend_pytorch_profiler_2.db in {db.parent}; the rank is left out of HostInfo and RankDeviceMap"
    )
    facts = files_db.db_facts(
        [files_db.read_rank_host(2, str(rank)), (("u1", "node-b"), [(5, 1, "u1", "/b/5")], None),
         (("u0", "node-a"), [(1, 0, "u0", "/a/1")], None)],
        [None, {"world_size": 2, "rank": 1}, {"world_size": 2, "rank": 0}],
    )  # fmt: skip
    assert facts.hosts == [("u1", "node-b"), ("u0", "node-a")]
    assert facts.devices == [(1, 0, "u0", "/a/1"), (5, 1, "u1", "/b/5")]
    assert facts.distributed_args == {"world_size": 2} and len(facts.warnings) == 1


def test_the_db_ranks_host_facts_are_read_on_a_worker_without_workbench(jobs, tmp_path):
    """The engine ships analyze's db-rank function by value: the reduction and the host facts' reader must
    travel with it (a worker of the user's cluster has no workbench)."""
    from workbench.core.cluster import analyze

    source = ranks.discover(str(_job(jobs, "db"))).ranks[3]
    there = _without_workbench(
        tmp_path, analyze._reduce_db_rank, source, "red, host = fn(src)\nout = (red.steps, host)"
    )
    assert there == (
        reduce.reduce_source(source).steps,
        (("0", "localhost"), [(3, 3, "0", source.path)], None),
    )


def test_msprof_analyzes_sums_are_pandas():
    """The two summations of msprof-analyze's recipes, against the libraries themselves."""
    np = pytest.importorskip("numpy")
    pd = pytest.importorskip("pandas")
    import random

    rnd = random.Random(7)
    for n in (1, 2, 3, 7, 8, 9, 17, 130, 300):
        values = [rnd.random() * 10 ** rnd.randint(-4, 4) for _ in range(n)]
        frame = pd.DataFrame({"k": ["b", "a"] * n, "v": [x for v in values for x in (v, 1.0)]})
        grouped = frame.groupby("k")["v"].sum()["b"]  # not sorted by key: pandas' Kahan group sum
        assert files_db.kahan_sum(values) == grouped
        assert files_db.pairwise_sum(values) == pd.DataFrame({"v": values}).sum()["v"] == np.add.reduce(values)
        x = values[0]
        assert files_db.numpy_round4(x) == pd.Series([x]).round(4)[0]


# ---- (d) a damaged analysis.db ------------------------------------------------------------------------------


def _damaged(jobs, tmp_path: Path, *sql: str, data: bytes | None = None) -> tuple[Path, reduce.RankReduction]:
    rank = tmp_path / jobs["db"].rank_dirs[0].name
    shutil.copytree(jobs["db"].rank_dirs[0], rank)
    analysis = rank / OUT / "analysis.db"
    if data is not None:
        analysis.write_bytes(data)
    if sql:
        con = sqlite3.connect(analysis)
        try:
            with con:
                for statement in sql:
                    con.execute(statement)
        finally:
            con.close()
    red = reduce.reduce_source(ranks.RankSource(0, str(rank), "pytorch", data="db"))
    assert all("\n" not in w and "Traceback" not in w for w in red.warnings)
    return analysis, red


def test_a_missing_table_is_one_warning_naming_the_file_and_table(jobs, tmp_path):
    analysis, red = _damaged(jobs, tmp_path, "DROP TABLE CommAnalyzerMatrix")
    assert red.warnings == [f"{analysis}: no table CommAnalyzerMatrix; the rank's links are left out"]
    assert red.matrix == {} and red.steps and red.communication
    merge.merge([red])  # the rest merges


def test_a_missing_column_is_one_warning_naming_the_table_and_column(jobs, tmp_path):
    analysis, red = _damaged(jobs, tmp_path, "ALTER TABLE StepTraceTime DROP COLUMN bubble")
    assert red.warnings == [f"{analysis}: table StepTraceTime has no column bubble; the rank's steps are left out"]
    assert red.steps == [] and red.communication
    analysis, red = _damaged(jobs, tmp_path / "2", "ALTER TABLE CommAnalyzerTime DROP COLUMN wait_time")
    assert red.warnings == [f"{analysis}: table CommAnalyzerTime has no column wait_time; taken as 0"]
    info = next(iter(next(iter(red.communication.values()))["collective"].values()))
    assert info["Communication Time Info"]["Wait Time(ms)"] == 0


def test_a_ranks_own_total_rows_are_left_out_of_its_links(jobs, tmp_path):
    """A matrix row whose operator starts with "Total" is the rank's own total (as in the text reduction): it is
    no link, and its cells are not read (a bad number in it is no warning)."""
    _analysis, clean = _damaged(jobs, tmp_path / "clean")
    _analysis, red = _damaged(
        jobs,
        tmp_path / "total",
        "INSERT INTO CommAnalyzerMatrix VALUES ('Total Op Info', 'g', '0', '1', 'HCCS', 'lots', 1, 1, 'step1',"
        " 'collective', 'Total Op Info')",
    )
    assert red.warnings == [] and red.matrix == clean.matrix and red.matrix


def test_not_a_database_is_one_warning(jobs, tmp_path):
    analysis, red = _damaged(jobs, tmp_path, data=b"this is no SQLite file\n" * 100)
    assert len(red.warnings) == 1 and red.warnings[0].startswith(f"{analysis}: not a readable SQLite database (")
    assert red.steps == [] and red.communication == {} and red.matrix == {}
    assert red.parallel_group_info  # the profiler db is fine: the groups are still known


def test_a_null_cell_is_taken_as_0_with_a_warning(jobs, tmp_path):
    analysis, red = _damaged(
        jobs,
        tmp_path,
        "UPDATE StepTraceTime SET computing = NULL WHERE step = '1'",
        "UPDATE CommAnalyzerBandwidth SET transit_size = 'lots'",
    )
    assert red.warnings == [
        f"{analysis}: table StepTraceTime, column computing: NULL is not a number; taken as 0",
        f"{analysis}: table CommAnalyzerBandwidth, column transit_size: 'lots' is not a number; taken as 0",
    ]
    assert red.steps[0][0] == "1" and red.steps[0][1][0] == 0.0 and red.steps[1][1][0] > 0
    assert not any(math.isnan(v) for _s, values in red.steps for v in values)


def test_no_profiler_db_takes_the_groups_from_profiler_metadata(jobs, tmp_path):
    analysis, red = _damaged(jobs, tmp_path)
    (analysis.parent / "ascend_pytorch_profiler_0.db").unlink()
    red = reduce.reduce_source(ranks.RankSource(0, str(analysis.parents[1]), "pytorch", data="db"))
    assert red.warnings == [
        f"rank 0: no ascend_pytorch_profiler_0.db in {analysis.parent}; "
        "parallel_group_info taken from profiler_metadata.json"
    ]
    assert (
        red.parallel_group_info
        == json.loads((analysis.parents[1] / "profiler_metadata.json").read_text())["parallel_group_info"]
    )
