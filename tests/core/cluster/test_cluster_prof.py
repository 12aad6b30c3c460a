"""Cluster analysis of the jobs msprof-analyze 26.2 reads beside torch_npu's (issue #20), each checked against
the real msprof-analyze on the simulator's job:

- msprof jobs: every rank a ``PROF_*`` folder (msprof / acl profiling, no framework profiler), found, reduced
  and merged as msprof-analyze does it (``MsprofDataPreprocessor``, ``MsprofStepTraceTimeAdapter``, the msprof
  communication adapters);
- MindSpore db ranks: ``*_ascend_ms`` with ``ascend_mindspore_profiler_{rank}.db`` + ``communication_analyzer.db``
  (the steps computed from the profiler db's tasks, ``MsprofStepTraceTimeDBAdapter``; the per-operator matrix
  integrated as ``CommMatrixSum`` does), giving msprof-analyze's ``cluster_analysis.db``."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from workbench.core.cluster import analyze, files, files_db, findings, merge, ranks, reduce, report
from workbench.core.cluster.texts import WARNING_TEMPLATES
from workbench.core.profiling.views import match_template
from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

from .dbcompare import assert_same_db, db_tables, msprof_analyze, run_cluster

SLOW_RANK = 5
SLOW_LINK = (2, 3)


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    """8 msprof ranks, tp=2, pp=2 (dp=2), a slow rank and a slow link."""
    root = tmp_path_factory.mktemp("prof") / "job"
    return write_cluster_job(root, 8, tp=2, pp=2, slow_rank=SLOW_RANK, slow_link=SLOW_LINK, layout="msprof")


def _ours(path: Path) -> merge.ClusterTables:
    found = ranks.discover(str(path))
    return merge.merge(reduce.reduce_source(s) for s in found.ranks)


def _unordered(doc: object) -> object:
    """Lists of ranks as sets: msprof-analyze lists them in its directory walk's order, this app in rank order."""
    if isinstance(doc, dict):
        return {k: _unordered(v) for k, v in doc.items()}
    if isinstance(doc, list):
        items = [_unordered(x) for x in doc]
        if all(isinstance(x, int) for x in items):
            return tuple(sorted(items))
        return sorted(items, key=repr)
    return doc


def _rank_tuple_keys(doc: dict) -> dict:
    return {frozenset(int(x) for x in k.strip("()").split(",") if x.strip()): v for k, v in doc.items()}


def _prof(root: Path, name: str, rank: int | None, device: int = 0, host_uid: str | None = None) -> Path:
    """A parsed PROF folder with the bare files discovery looks at."""
    prof = root / name
    (prof / "mindstudio_profiler_output").mkdir(parents=True)
    (prof / "analyze").mkdir()
    info: dict[str, object] = {"DeviceInfo": [{"id": device}]}
    if rank is not None:
        info["rank_id"] = rank
    if host_uid is not None:
        info["hostUid"] = host_uid
    (prof / f"device_{device}").mkdir()
    (prof / f"device_{device}" / f"info.json.{device}").write_text(json.dumps(info))
    (prof / "host").mkdir()
    (prof / "host" / "info.json").write_text("{}")
    return prof


# ---- discovery ------------------------------------------------------------------------------------


def test_every_prof_folder_is_the_rank_its_info_json_names(job) -> None:
    found = ranks.discover(str(job.rank_dirs[0].parent))
    assert found.warnings == []
    assert [(s.rank, s.kind, s.data) for s in found.ranks] == [(r, "msprof", "text") for r in range(8)]
    assert [Path(s.path) for s in found.ranks] == list(job.rank_dirs)


def test_without_rank_ids_the_folders_are_numbered_by_host_and_device_and_the_oldest_is_taken(tmp_path) -> None:
    old = _prof(tmp_path, "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA", -1, device=1, host_uid="h1")
    _prof(tmp_path, "PROF_000001_20240202000000000_BBBBBBBBBBBBBBBB", -1, device=1, host_uid="h1")
    first = _prof(tmp_path, "PROF_000001_20240303000000000_CCCCCCCCCCCCCCCC", -1, device=3, host_uid="h0")
    found = ranks.discover(str(tmp_path))
    assert [(s.rank, Path(s.path)) for s in found.ranks] == [(0, first), (1, old)]  # (h0, 3) < (h1, 1)
    assert len(found.warnings) == 1 and "the oldest, " + str(old) in found.warnings[0]


def test_ranked_folders_win_over_unranked_ones_and_of_one_rank_the_newest_is_taken(tmp_path) -> None:
    _prof(tmp_path, "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA", 4)
    new = _prof(tmp_path, "PROF_000002_20240202000000000_BBBBBBBBBBBBBBBB", 4)
    _prof(tmp_path, "PROF_000003_20240303000000000_CCCCCCCCCCCCCCCC", -1)
    found = ranks.discover(str(tmp_path))
    assert [(s.rank, Path(s.path)) for s in found.ranks] == [(4, new)]
    assert any("the newest, " + str(new) in w for w in found.warnings)
    assert any("1 PROF folders have no rank_id" in w for w in found.warnings)


def test_a_prof_folder_of_several_devices_is_one_rank_named_by_its_first_device(tmp_path) -> None:
    prof = _prof(tmp_path, "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA", 6, device=0)
    (prof / "device_1").mkdir()
    (prof / "device_1" / "info.json.1").write_text(json.dumps({"rank_id": 7}))
    found = ranks.discover(str(tmp_path))
    assert [(s.rank, Path(s.path)) for s in found.ranks] == [(6, prof)]
    assert found.warnings == [
        f"{prof}: 2 devices in one PROF folder; read as one rank, as msprof-analyze reads it "
        f"(the rank of {Path('device_0') / 'info.json.0'})"
    ]
    assert match_template(found.warnings[0], WARNING_TEMPLATES) is not None


def test_unparsed_or_incomplete_prof_folders_are_skipped_with_the_reason(tmp_path) -> None:
    unanalysed = _prof(tmp_path, "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA", 0)
    (unanalysed / "analyze").rmdir()
    no_info = _prof(tmp_path, "PROF_000002_20240101000000000_BBBBBBBBBBBBBBBB", 1)
    (no_info / "device_0" / "info.json.0").unlink()
    bad_rank = _prof(tmp_path, "PROF_000003_20240101000000000_CCCCCCCCCCCCCCCC", 2)
    (bad_rank / "device_0" / "info.json.0").write_text('{"rank_id": "two"}')
    found = ranks.discover(str(tmp_path))
    assert found.ranks == []
    text = "\n".join(found.warnings)
    assert (
        f"{unanalysed}: not parsed (no mindstudio_profiler_output and analyze folders: run msprof --analyze=on)" in text
    )
    assert f"{no_info}: no device_<id>/info.json.<id>" in text
    assert "rank_id 'two' is not a rank number" in text
    with pytest.raises(analyze.ClusterError) as raised:
        analyze.analyze(tmp_path, write=False)
    assert str(raised.value).startswith(
        f"{tmp_path}: no rank folders (*_ascend_pt / *_ascend_ms with profiler_info_{{rank}}.json and "
        "ASCEND_PROFILER_OUTPUT, or PROF_* folders with device_<id>/info.json.<id>) ("
    )


def test_prof_folders_beside_torch_npu_ranks_are_left_out_as_msprof_analyze_leaves_them(tmp_path) -> None:
    rank = tmp_path / "w_1_20240101000000000_ascend_pt"
    (rank / "ASCEND_PROFILER_OUTPUT").mkdir(parents=True)
    (rank / "profiler_info_0.json").write_text("{}")
    _prof(rank, "PROF_000001_20240101000000000_INSIDEINSIDEINSI", 0)  # the rank's own CANN data: not a rank
    _prof(tmp_path, "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA", 1)
    found = ranks.discover(str(tmp_path))
    assert [(s.rank, s.kind) for s in found.ranks] == [(0, "pytorch")]
    assert found.warnings == [
        f"1 PROF folders ({tmp_path / 'PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA'}, ...) are left out: "
        "the torch_npu / MindSpore ranks are analysed"
    ]


# ---- the reduction ------------------------------------------------------------------------------------


def _events(path: Path, events: list[dict]) -> None:
    path.write_text(json.dumps(events))


def test_the_step_row_is_msprof_analyzes_sums_of_the_newest_timeline(tmp_path) -> None:
    prof = _prof(tmp_path, "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA", 0)
    out = prof / "mindstudio_profiler_output"
    events = [
        {"name": "Computing", "ph": "X", "dur": 10.1},
        {"name": "Computing", "ph": "X", "dur": "0.2"},
        {"name": "Communication", "ph": "X", "dur": 7.3},
        {"name": "Communication(Not Overlapped)", "ph": "X", "dur": 3.3},
        {"name": "Free", "ph": "X", "dur": 1.7},
        {"name": "hcom_receive__1_0_1", "ph": "X", "dur": 2.05},
        {"name": "hcom_receive__1_0_1", "ph": "X", "dur": 0.5},
        {"name": "thread_name", "ph": "M", "args": {"name": "Computing"}},
        {"name": "Free", "ph": "X", "dur": "n/a"},
    ]
    _events(out / "msprof_20240101000000.json", [{"name": "Computing", "dur": 999}])  # older: not read
    _events(out / "msprof_20240101000002.json", events)
    red = reduce.reduce_source(ranks.discover(str(tmp_path)).ranks[0])
    assert red.step_header == reduce.PROF_STEP_HEADER
    computing, not_ov, comm, free, bubble = 10.1 + 0.2, 3.3, 7.3, 1.7 + 0.0, 2.05 + 0.5
    want = [computing, not_ov, comm - not_ov, comm, free, free + computing + not_ov - bubble, bubble, not_ov - bubble]
    assert red.steps == [("", [*want, 0.0])]
    assert any(
        "msprof_20240101000002.json: event Free, dur: 'n/a' is not a number; taken as 0" in w for w in red.warnings
    )
    analyse = pytest.importorskip("msprof_analyze.cluster_analyse.analysis.msprof_step_trace_time_adapter")
    (bean,) = analyse.MsprofStepTraceTimeAdapter(
        [str(out / "msprof_20240101000002.json")]
    ).generate_step_trace_time_data()
    assert bean.row == red.steps[0][1] and bean.all_headers == merge.COMPLEMENT + red.step_header


def test_timeline_slices_are_read_when_there_is_no_whole_timeline(tmp_path) -> None:
    prof = _prof(tmp_path, "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA", 0)
    out = prof / "mindstudio_profiler_output"
    _events(out / "msprof_slice_0_20240101000002.json", [{"name": "Computing", "dur": 1.5}])
    _events(out / "msprof_slice_1_20240101000002.json", [{"name": "Computing", "dur": 2.0}])
    _events(out / "msprof_slice_0_20240101000001.json", [{"name": "Computing", "dur": 100}])
    red = reduce.reduce_prof_rank(0, str(prof))
    assert red.steps[0][1][0] == 3.5
    assert len(reduce.input_files(ranks.discover(str(tmp_path)).ranks[0])) == 4  # two slices, two analyze files


def test_msprofs_operators_are_split_and_the_matrix_integrated_as_msprof_analyze_does(tmp_path) -> None:
    prof = _prof(tmp_path, "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA", 0)
    time = {"Communication Time Info": {"Elapse Time(ms)": 1.0}, "Communication Bandwidth Info": {}}
    (prof / "analyze" / "communication.json").write_text(
        json.dumps({"hcom_allReduce__1_0_1@7": time, "HCOM_Send__1_1_1@8": time, "total op info": time})
    )
    link = {"Transport Type": "HCCS", "Transit Size(MB)": 2.0, "Transit Time(ms)": 1.0, "Bandwidth(GB/s)": 2.0}
    slow = dict(link, **{"Transit Time(ms)": 4.0, "Bandwidth(GB/s)": 0.5})
    (prof / "analyze" / "communication_matrix.json").write_text(
        json.dumps({"hcom_allReduce__1_0_1@7": {"0-1": slow}, "hcom_allReduce__1_1_1@7": {"0-1": link}})
    )
    red = reduce.reduce_prof_rank(0, str(prof))
    assert red.communication == {
        "step": {"p2p": {"HCOM_Send__1_1_1@8": time}, "collective": {"hcom_allReduce__1_0_1@7": time}}
    }
    got = red.matrix["step"]["collective"]
    assert list(got) == [f"allreduce-{s}@7" for s in ("top1", "middle", "bottom1", "total", "bottom2")]
    assert got["allreduce-top1@7"]["0-1"] == dict(link, **{"Op Name": "hcom_allReduce__1_1_1"})
    assert got["allreduce-bottom1@7"]["0-1"]["Op Name"] == "hcom_allReduce__1_0_1"
    assert got["allreduce-total@7"]["0-1"] == {
        "Transport Type": "HCCS",
        "Transit Size(MB)": 4.0,
        "Transit Time(ms)": 5.0,
        "Bandwidth(GB/s)": 0.8,
    }
    assert red.matrix["step"]["p2p"] == {}
    assert [w for w in red.warnings if "msprof_<timestamp>.json" not in w] == []  # no timeline here: no steps


def test_what_cannot_be_read_is_a_warning_of_a_known_template(tmp_path) -> None:
    prof = _prof(tmp_path, "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA", 0)
    lines = reduce.reduce_prof_rank(0, str(prof)).warnings  # no timeline, no analyze files
    _events(prof / "mindstudio_profiler_output" / "msprof_20240101000002.json", {"traceEvents": 3})  # type: ignore[arg-type]
    (prof / "analyze" / "communication.json").write_text("[]")
    (prof / "analyze" / "communication_matrix.json").write_text('{"hcom_x@1": 5}')
    lines += reduce.reduce_prof_rank(0, str(prof)).warnings
    (prof / "analyze" / "communication.json").write_text("{")
    lines += reduce.reduce_prof_rank(0, str(prof)).warnings
    odd = tmp_path / "odd"
    _prof(odd, "PROF_000001_20240101000000000_AAAAAAAAAAAAAAAA", 0)
    _prof(odd, "PROF_000001_20240101000000000_BBBBBBBBBBBBBBBB", -1)
    (_prof(odd, "PROF_000001_20240101000000000_CCCCCCCCCCCCCCCC", 0) / "analyze").rmdir()
    (_prof(odd, "PROF_000001_20240101000000000_DDDDDDDDDDDDDDDD", 0) / "device_0" / "info.json.0").write_text("[]")
    (_prof(odd, "PROF_000001_20240101000000000_EEEEEEEEEEEEEEEE", 0) / "device_0" / "info.json.0").write_text("{")
    (_prof(odd, "PROF_000001_20240101000000000_FFFFFFFFFFFFFFFF", 0) / "device_0" / "info.json.0").unlink()
    lines += ranks.discover(str(odd)).warnings
    ms = tmp_path / "w_1_20240101000000000_ascend_ms"
    (ms / "ASCEND_PROFILER_OUTPUT").mkdir(parents=True)
    lines += reduce.reduce_db.reduce_db_rank(reduce.RankReduction(0, str(ms)), "mindspore").warnings  # no dbs
    con = sqlite3.connect(ms / "ASCEND_PROFILER_OUTPUT" / "ascend_mindspore_profiler_0.db")
    con.execute("CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, globalTaskId INTEGER)")
    con.close()
    lines += reduce.reduce_db.reduce_db_rank(reduce.RankReduction(0, str(ms)), "mindspore").warnings  # no tables
    _profiler_db(ms / "ASCEND_PROFILER_OUTPUT" / "ascend_mindspore_profiler_1.db", [(0, 1)], [("hcom_x", None, 2)])
    lines += reduce.reduce_db.reduce_db_rank(reduce.RankReduction(1, str(ms)), "mindspore").warnings  # a NULL
    assert any("no steps or parallel_group_info" in w for w in lines)
    assert any("COMMUNICATION_OP, column startNs / endNs: NULL is not a number" in w for w in lines)
    assert len(lines) >= 14
    assert [line for line in lines if match_template(line, WARNING_TEMPLATES) is None] == []


# ---- against msprof-analyze itself ------------------------------------------------------------------


def test_a_prof_job_gives_msprof_analyzes_numbers_and_the_planted_slow_rank_and_link(job, tmp_path) -> None:
    exe = shutil.which("msprof-analyze")
    if exe is None:
        pytest.skip("msprof-analyze is not installed (pip install msprof-analyze)")
    copy = tmp_path / "job"  # msprof-analyze writes cluster_analysis_output/ into the folder it reads
    shutil.copytree(job.rank_dirs[0].parent, copy)
    ours = _ours(copy)
    done = subprocess.run([exe, "cluster", "-d", str(copy)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    theirs = copy / "cluster_analysis_output"
    csv_ours = files.step_csv_text(ours).split("\r\n")
    csv_theirs = (theirs / files.STEP_CSV).read_bytes().decode().split("\r\n")
    assert csv_ours[0] == csv_theirs[0]
    assert sorted(csv_ours[1:]) == sorted(csv_theirs[1:]) and len(csv_ours) == 8 + 2  # every value, byte for byte
    assert _unordered(ours.groups) == _unordered(json.loads((theirs / files.GROUP_JSON).read_text()))
    for name, doc in ((files.COMM_JSON, ours.communication), (files.MATRIX_JSON, ours.matrix)):
        mine = json.loads(json.dumps(doc))
        assert mine and _rank_tuple_keys(mine) == _rank_tuple_keys(json.loads((theirs / name).read_text())), name
    found = findings.find(ours)
    assert [s.rank for s in found.slow_ranks] == [SLOW_RANK]
    assert [(s.src, s.dst) for s in found.slow_links][:1] == [SLOW_LINK]


def test_analysing_a_prof_job_writes_msprof_analyzes_files_and_the_report(job, tmp_path) -> None:
    result = analyze.analyze(job.rank_dirs[0].parent, out=tmp_path / "out")
    assert [p.name for p in result.written] == [*files.NAMES, "cluster.wbcluster"]
    assert result.warnings == []
    assert [r.rank for r in result.report.ranks] == list(range(8))
    saved = report.load(tmp_path / "out" / report.REPORT_NAME)  # the saved report re-opens with the PROF folders
    assert [(r.rank, r.path) for r in saved.ranks] == [(r, str(d)) for r, d in enumerate(job.rank_dirs)]
    assert saved.tables.step_rows == result.report.tables.step_rows


# ---- MindSpore db ranks --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ms_job(tmp_path_factory):
    """The same 8-rank job, MindSpore's db export."""
    root = tmp_path_factory.mktemp("ms") / "job"
    return write_cluster_job(
        root, 8, tp=2, pp=2, slow_rank=SLOW_RANK, slow_link=SLOW_LINK, export="db", framework="mindspore"
    )


def test_mindspore_db_ranks_are_found_and_reduced_from_their_two_dbs(ms_job) -> None:
    found = ranks.discover(str(ms_job.rank_dirs[0].parent))
    assert found.warnings == []
    assert [(s.rank, s.kind, s.data) for s in found.ranks] == [(r, "mindspore", "db") for r in range(8)]
    reds = [reduce.reduce_source(s) for s in found.ranks]
    assert all(red.warnings == [] for red in reds)
    assert all(len(red.steps) == 1 and red.steps[0][0] == "" for red in reds)  # msprof-analyze: one row, no step
    assert all(list(red.communication) == ["step"] and red.parallel_group_info for red in reds)
    assert {name.split("@")[0].rsplit("-", 1)[1] for name in reds[0].matrix["step"]["collective"]} == {
        "top1",
        "middle",
        "bottom1",
        "bottom2",
        "bottom3",
        "total",
    }
    found_slow = findings.find(merge.merge(reds))
    assert [s.rank for s in found_slow.slow_ranks] == [SLOW_RANK]
    assert [(s.src, s.dst) for s in found_slow.slow_links][:1] == [SLOW_LINK]


def _profiler_db(path: Path, compute: list[tuple[int, int]], comm: list[tuple[str, int, int]]) -> None:
    con = sqlite3.connect(path)
    with con:
        con.execute("CREATE TABLE STRING_IDS (id INTEGER, value TEXT)")
        con.execute("CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, globalTaskId INTEGER)")
        con.execute("CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER)")
        con.execute("CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER)")
        names = sorted({name for name, _s, _e in comm})
        con.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", list(enumerate(names)))
        for gid, (start, end) in enumerate(compute):
            con.execute("INSERT INTO TASK VALUES (?, ?, ?)", (start, end, gid))
            con.execute("INSERT INTO COMPUTE_TASK_INFO VALUES (0, ?)", (gid,))
        con.executemany("INSERT INTO COMMUNICATION_OP VALUES (?, ?, ?)", [(names.index(n), s, e) for n, s, e in comm])
    con.close()


def test_a_profiler_dbs_step_row_is_msprof_analyzes_with_the_bubble_its_merge_lengthens(tmp_path) -> None:
    rank = tmp_path / "w_1_20240101000000000_ascend_ms"
    out = rank / "ASCEND_PROFILER_OUTPUT"
    out.mkdir(parents=True)
    (rank / "profiler_info_3.json").write_text("{}")
    db = out / "ascend_mindspore_profiler_3.db"
    comm = [("hcom_receive__1_0_1", 15, 30), ("hcom_allReduce__2_0_1", 25, 45), ("hcom_receive__1_1_1", 60, 70)]
    comm += [("hcom_allReduce__2_1_1", 62, 66), ("hcom_send__1_2_1", 90, 95)]
    _profiler_db(db, [(0, 10), (5, 20), (40, 50), (64, 80)], comm)
    (source,) = ranks.discover(str(tmp_path)).ranks
    assert (source.rank, source.kind, source.data) == (3, "mindspore", "db")
    red = reduce.reduce_source(source)
    (row,) = red.steps
    assert red.step_header == reduce.PROF_STEP_HEADER
    bubble = row[1][reduce.PROF_STEP_HEADER.index("Bubble")]
    assert bubble == ((45 - 15) + (70 - 60)) / 1000  # the first receive as the merge lengthened it to 45
    analyse = pytest.importorskip("msprof_analyze.cluster_analyse.analysis.msprof_step_trace_time_adapter")
    (theirs,) = analyse.MsprofStepTraceTimeDBAdapter({"profiler_db_path": str(db)}).generate_step_trace_time_data()
    assert theirs[0] is None and list(theirs[1:]) == row[1]  # msprof-analyze's own row
    assert any("no communication_analyzer.db" in w for w in red.warnings)


@pytest.fixture(scope="module")
def prof_db_job(tmp_path_factory):
    """The same 8-rank job, msprof's db export (msprof_{timestamp}.db + analyze/communication_analyzer.db)."""
    root = tmp_path_factory.mktemp("profdb") / "job"
    return write_cluster_job(
        root, 8, tp=2, pp=2, slow_rank=SLOW_RANK, slow_link=SLOW_LINK, export="db", layout="msprof"
    )


def test_msprof_db_ranks_are_found_and_reduced_from_their_two_dbs(prof_db_job) -> None:
    found = ranks.discover(str(prof_db_job.rank_dirs[0].parent))
    assert found.warnings == []
    assert [(s.rank, s.kind, s.data) for s in found.ranks] == [(r, "msprof", "db") for r in range(8)]
    reds = [reduce.reduce_source(s) for s in found.ranks]
    assert all(red.warnings == [] and len(red.steps) == 1 and red.communication for red in reds)
    assert [Path(p).name for p in reduce.input_files(found.ranks[0])] == [
        next(prof_db_job.rank_dirs[0].glob("msprof_*.db")).name,
        "communication_analyzer.db",
    ]


def test_a_mindspore_rank_holds_its_prof_folder_with_the_ranks_device(ms_job) -> None:
    """The simulator writes what real MindSpore keeps in a rank folder beside ASCEND_PROFILER_OUTPUT: msprof's
    PROF_* of the rank, device_{id}/info.json.{id} of the rank's device (msprof-analyze's RankDeviceMap reads it)."""
    from workbench.core.cluster import files_db

    for r, rank in enumerate(ms_job.rank_dirs):
        (prof,) = rank.glob("PROF_*")
        (device,) = [p for p in prof.iterdir() if p.name.startswith("device_")]
        dev = int(device.name.split("_")[1])
        assert json.loads((device / f"info.json.{dev}").read_text())["rank_id"] == r
        assert (prof / "host" / "info.json").is_file()
        _host, rows, warning = files_db.read_rank_host(r, str(rank), "mindspore")
        assert warning is None and [row[1] for row in rows] == [dev], (r, rows, warning)


@pytest.mark.parametrize(("fixture", "kind"), [("ms_job", "mindspore"), ("prof_db_job", "msprof")])
def test_a_db_job_gives_msprof_analyzes_cluster_analysis_db(request, fixture, kind, tmp_path) -> None:
    """Every table msprof-analyze writes, and only those: the merged ones, ClusterStepTraceTime with its NULL
    Step, HostInfo and RankDeviceMap from the profiler dbs and the PROF folders' devices."""
    exe = msprof_analyze()
    job = request.getfixturevalue(fixture)
    copy = tmp_path / "job"  # both read the same folder: RankDeviceMap's profilePath is the rank's folder
    shutil.copytree(job.rank_dirs[0].parent, copy)
    result = analyze.analyze(copy, out=tmp_path / "ours")
    assert result.warnings == [] and files_db.DB_NAME in [p.name for p in result.written]
    said = run_cluster(exe, copy)
    assert f"profiling type: {kind}" in said and "data type: db" in said
    _ours, theirs = assert_same_db(tmp_path / "ours" / files_db.DB_NAME, copy)
    merged = {files_db.GROUP_TABLE, files_db.TIME_TABLE, files_db.BANDWIDTH_TABLE, files_db.MATRIX_TABLE}
    assert merged | {files_db.STEP_TABLE, files_db.HOST_TABLE, files_db.DEVICE_TABLE} <= set(theirs)
    assert {r[:2] for r in theirs[files_db.STEP_TABLE][1]} == {("null", None)}  # no Step: NULL, also for stages


def test_msprof_and_mindspore_ranks_host_facts_are_read_as_msprof_analyze_reads_them(prof_db_job, tmp_path) -> None:
    """HostInfoAnalysis for msprof / MindSpore db ranks: HOST_INFO from the profiler db msprof-analyze reads the
    steps from, the device from the PROF folder's device_<id> (a text rank id, as msprof-analyze has it)."""
    prof = tmp_path / "job" / prof_db_job.rank_dirs[3].name
    shutil.copytree(prof_db_job.rank_dirs[3], prof)
    assert files_db.read_rank_host(3, str(prof), "msprof") == (("0", "localhost"), [("3", 3, "0", str(prof))], None)
    shutil.rmtree(prof / "device_3")
    host, rows, warning = files_db.read_rank_host(3, str(prof), "msprof")
    assert (host, rows) == (None, [])
    assert warning == f"{prof}: no device_<id> folder; the rank is left out of HostInfo and RankDeviceMap"
    for db in prof.glob("msprof_*.db"):
        db.unlink()
    assert files_db.read_rank_host(3, str(prof), "msprof")[2] == (
        f"rank 3: no msprof_<timestamp>.db in {prof}; the rank is left out of HostInfo and RankDeviceMap"
    )
    ms = tmp_path / "w_1_20240101000000000_ascend_ms"
    (ms / "ASCEND_PROFILER_OUTPUT").mkdir(parents=True)
    con = sqlite3.connect(ms / "ASCEND_PROFILER_OUTPUT" / "ascend_mindspore_profiler_12.db")
    with con:
        con.execute("CREATE TABLE HOST_INFO (hostUid TEXT, hostName TEXT)")
        con.execute("INSERT INTO HOST_INFO VALUES ('77', 'node-b')")
    con.close()
    assert files_db.read_rank_host(12, str(ms), "mindspore")[2] == (
        f"{ms}: no PROF_* folder; the rank is left out of HostInfo and RankDeviceMap"
    )
    (ms / "PROF_000001_20240101000000000_ABCDEFGH" / "device_4").mkdir(parents=True)
    assert files_db.read_rank_host(12, str(ms), "mindspore") == (("77", "node-b"), [("12", 4, "77", str(ms))], None)
    facts = files_db.db_facts(
        [files_db.read_rank_host(12, str(ms), "mindspore"), (("0", "x"), [("2", 2, "0", "/p")], None)]
    )
    assert facts.devices == [("12", 4, "77", str(ms)), ("2", 2, "0", "/p")]  # msprof-analyze sorts its text rank ids


def test_the_step_of_msprof_and_mindspore_rows_is_null_only_there(tmp_path) -> None:
    """msprof-analyze's Step of a msprof / MindSpore db rank's rows is None; a torch_npu db rank's empty Step stays."""
    tables = merge.ClusterTables(
        step_rows=[["", "rank", 0, 1.0], ["", "rank", 1, 2.0], ["", "stage", "(0,1)", 2.0], ["", "stage", "(2,3)", 1.0]]
    )
    rows = files_db.step_rows(tables, stepless={0, 1})
    assert [r[0] for r in rows] == [None, None, None, ""]
    assert [r[0] for r in files_db.step_rows(tables)] == ["", "", "", ""]


def test_the_auto_engine_weighs_what_prof_and_mindspore_ranks_read(job, ms_job, prof_db_job, monkeypatch) -> None:
    """``auto`` picks the local Dask cluster by the bytes the reductions read: a PROF or MindSpore rank's files
    count (they counted 0, so such a job always ran in-process)."""
    from workbench.core.cluster.engine import EngineSpec

    for generated in (job, ms_job, prof_db_job):
        found = ranks.discover(str(generated.rank_dirs[0].parent)).ranks
        read = [Path(f) for s in found for f in reduce.input_files(s)]
        size = sum(f.stat().st_size for f in read if f.is_file())
        assert size > 0 and analyze.input_bytes(found) == size
        monkeypatch.setattr(analyze, "AUTO_LOCAL_BYTES", size)  # the job is that big: no longer small
        assert analyze._resolve_auto(EngineSpec("auto"), found).kind == "local"
        monkeypatch.setattr(analyze, "AUTO_LOCAL_BYTES", size + 1)
        assert analyze._resolve_auto(EngineSpec("auto"), found).kind == "sync"


def test_damaged_files_of_a_prof_or_mindspore_rank_are_warnings_never_an_exception(job, ms_job, tmp_path) -> None:
    """A seeded mutation campaign over the files the two readers read: each run parses or warns."""
    import random

    rnd = random.Random(20)
    prof, ms = job.rank_dirs[1], ms_job.rank_dirs[1]
    targets = [
        (prof, "analyze/communication.json"),
        (prof, "analyze/communication_matrix.json"),
        (prof, "device_1/info.json.1"),
        (prof, next(prof.glob("mindstudio_profiler_output/msprof_*.json")).relative_to(prof).as_posix()),
        (ms, "ASCEND_PROFILER_OUTPUT/ascend_mindspore_profiler_1.db"),
        (ms, "ASCEND_PROFILER_OUTPUT/communication_analyzer.db"),
    ]
    for i in range(36):
        folder, name = targets[i % len(targets)]
        copy = tmp_path / f"{i}" / folder.name
        shutil.copytree(folder, copy)
        data = bytearray((copy / name).read_bytes())
        for _ in range(rnd.randint(1, 6)):
            at = rnd.randrange(len(data))
            if rnd.random() < 0.3:
                del data[at:]
                break
            data[at] = rnd.randrange(256)
        (copy / name).write_bytes(bytes(data))
        found = ranks.discover(str(copy.parent))
        assert found.ranks or name.startswith("device_"), name  # only a damaged info.json loses the rank
        for source in found.ranks:
            red = reduce.reduce_source(source)
            assert all(isinstance(w, str) and "Traceback" not in w for w in red.warnings)


@pytest.mark.parametrize(
    ("layout", "export", "framework"),
    [("msprof", "text", "pytorch"), ("torch_npu", "db", "mindspore"), ("msprof", "db", "pytorch")],
)
def test_prof_and_mindspore_ranks_reduce_on_ssh_started_workers_without_workbench(
    sshd_server, ssh_home, tmp_path, no_workbench_python, capsys, layout, export, framework
) -> None:
    """The new readers travel by value to Dask workers whose Python cannot import workbench."""
    from workbench.cli import main
    from workbench.core.services.hosts import HostStore

    job = tmp_path / "job"
    write_cluster_job(job, 4, tp=2, slow_rank=3, layout=layout, export=export, framework=framework)
    HostStore().save([sshd_server.host("cann-a")])
    here, remote = tmp_path / "here", tmp_path / "remote"
    assert main(["cluster", "analyze", str(job), "--out", str(here), "--workers", "1"]) == 0
    capsys.readouterr()
    code = main(
        ["cluster", "analyze", str(job), "--out", str(remote), "--hosts", "cann-a",
         "--remote-python", no_workbench_python, "--json"]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    doc = json.loads(out)
    assert doc["engine"] == "ssh cann-a" and doc["ranks"] == list(range(4)) and doc["warnings"] == []
    for name in files.NAMES:
        assert (remote / name).read_bytes() == (here / name).read_bytes(), name
    if export == "db":  # the host facts too, read on the workers (files_db.read_rank_host by value)
        tables = db_tables(remote / files_db.DB_NAME)
        assert tables == db_tables(here / files_db.DB_NAME) and sum(tables[files_db.DEVICE_TABLE][1].values()) == 4
