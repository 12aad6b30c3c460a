"""The simulated N-rank torch_npu training job (workbench/simtoolkit/profdata/clusterjob.py): every rank's
folder holds what msprof-analyze ``cluster`` reads, consistent across the ranks of each HCCL group, with the
planted slow rank and slow link visible where a cluster analysis looks. Read with plain json / csv (not
the workbench's readers); the group hash is recomputed here from its definition."""

from __future__ import annotations

import csv
import json
import re
import shutil
import statistics
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

from workbench.simtoolkit.profdata.__main__ import main
from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

OUT = "ASCEND_PROFILER_OUTPUT"
FOLDER = re.compile(r"^node\d{3}_\d+_\d{17}_ascend_pt$")
OP_KEY = re.compile(r"^hcom_(allReduce|send|receive)__\d+_\d+_1@(\d+)$")
SLOW_RANK = 5  # stage 1, tp index 1, dp index 0
SLOW_LINK = (0, 2)  # the dp group (0, 2) of stage 0


def _hash(text: str) -> int:
    """msprof-analyze's double_hash (cluster_analyse/common_func/utils.py), written from its definition:
    two 32-bit rolling hashes (x29 and x131 per character), the x29 one in the high word."""
    a = b = 0
    for ch in text:
        a = (a * 29 + ord(ch)) % 2**32
        b = (b * 131 + ord(ch)) % 2**32
    return a * 2**32 + b


def _json(path: Path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _steps(rank_dir: Path) -> list[dict[str, float]]:
    with open(rank_dir / OUT / "step_trace_time.csv", newline="", encoding="utf-8") as fh:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(fh)]


def _ops(rank_dir: Path) -> dict[tuple[str, str], dict]:
    """(step, op key) -> the op's entry in communication.json (no Total Op Info)."""
    doc = _json(rank_dir / OUT / "communication.json")
    return {
        (step, key): info
        for step, kinds in doc.items()
        for entries in kinds.values()
        for key, info in entries.items()
        if key != "Total Op Info"
    }


def _groups(rank_dir: Path) -> dict[str, dict]:
    """hash -> parallel_group_info entry (with its communicator name) of one rank."""
    info = _json(rank_dir / "profiler_metadata.json")["parallel_group_info"]
    return {str(_hash(name)): dict(entry, name=name) for name, entry in info.items()}


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    """8 ranks, tp=2, pp=2 (dp=2), a slow rank and a slow link."""
    return write_cluster_job(
        tmp_path_factory.mktemp("job") / "job", 8, tp=2, pp=2, slow_rank=SLOW_RANK, slow_link=SLOW_LINK
    )


@pytest.fixture(scope="module")
def even(tmp_path_factory):
    """The same job without a slow rank or link."""
    return write_cluster_job(tmp_path_factory.mktemp("even") / "job", 8, tp=2, pp=2)


def test_every_rank_has_its_own_folder_and_nothing_else_is_written(job):
    assert (job.world_size, job.tp, job.pp, job.dp) == (8, 2, 2, 2)
    root = job.rank_dirs[0].parent
    assert sorted(p.name for p in root.iterdir()) == sorted(d.name for d in job.rank_dirs)  # no manifest
    assert len({d.name for d in job.rank_dirs}) == 8
    for rank, d in enumerate(job.rank_dirs):
        assert FOLDER.match(d.name), d.name
        info = _json(d / f"profiler_info_{rank}.json")
        assert info["rank_id"] == rank and info["simulated"] is True
        assert sorted(p.name for p in (d / OUT).iterdir()) == [
            "communication.json",
            "communication_matrix.json",
            "step_trace_time.csv",
        ]
        assert "simulated" in next((d / "logs").iterdir()).read_text(encoding="utf-8")
        meta = _json(d / "profiler_metadata.json")
        assert meta["ENV_VARIABLES"] == {"ASCEND_RT_VISIBLE_DEVICES": str(rank % 8)}


def test_parallel_group_info_has_megatrons_groups(job):
    """Megatron's order: tp fastest-varying, then dp, then pp; group_rank is the rank's index."""
    tp, dp = 2, 2
    for rank, d in enumerate(job.rank_dirs):
        t, d_, p = rank % tp, rank // tp % dp, rank // (tp * dp)
        want = {
            "default_group": list(range(8)),
            "dp": [t + tp * (j + dp * p) for j in range(dp)],
            "mp": sorted(t2 + tp * (d_ + dp * p2) for t2 in range(tp) for p2 in range(2)),
            "tp": [i + tp * (d_ + dp * p) for i in range(tp)],
            "pp": [t + tp * (d_ + dp * s) for s in range(2)],
        }
        entries = list(_json(d / "profiler_metadata.json")["parallel_group_info"].values())
        assert [e["group_name"] for e in entries] == list(want)
        for e in entries:
            assert e["global_ranks"] == want[e["group_name"]]
            assert e["group_rank"] == e["global_ranks"].index(rank)
    kinds = defaultdict(set)
    for g in job.groups:
        kinds[g.kind].add(g.ranks)
    assert {k: len(v) for k, v in kinds.items()} == {"default_group": 1, "dp": 4, "mp": 2, "tp": 4, "pp": 4}


def test_op_keys_end_in_the_double_hash_of_their_communicator(job):
    for rank, d in enumerate(job.rank_dirs):
        groups = _groups(d)
        keys = {key for _step, key in _ops(d)}
        matrix = _json(d / OUT / "communication_matrix.json")
        keys |= {k for kinds in matrix.values() for entries in kinds.values() for k in entries}
        assert keys
        for key in keys:
            group_hash = key.rsplit("@", 1)[1]
            assert group_hash in groups, (rank, key)
            if "-" not in key.split("@")[0]:  # an operator (the matrix keys are "<type>-top1@..." etc.)
                m = OP_KEY.match(key)
                assert m, key
                kind = groups[group_hash]["group_name"]
                assert (m.group(1) in ("send", "receive")) == (kind == "pp"), key
    planted = {g.hash: g for g in job.groups}
    assert all(str(_hash(g.name)) == g.hash for g in planted.values())


def test_every_collective_runs_on_every_rank_of_its_group_under_the_same_name(job):
    seen: dict[tuple[str, str], set[int]] = defaultdict(set)
    p2p: dict[tuple[str, str], int] = {}
    for rank, d in enumerate(job.rank_dirs):
        for step, key in _ops(d):
            if "allReduce" in key:
                seen[(step, key)].add(rank)
            else:
                p2p[(step, key)] = rank
    groups = {g.hash: set(g.ranks) for g in job.groups}
    assert len(seen) > 10
    for (_step, key), ranks in seen.items():
        assert ranks == groups[key.rsplit("@", 1)[1]], key
    # send / receive: only between pipeline neighbours, over their pp group; as many sends as receives
    sends = defaultdict(int)
    receives = defaultdict(int)
    for (step, key), rank in p2p.items():
        members = sorted(groups[key.rsplit("@", 1)[1]])
        assert len(members) == 2 and rank in members
        (sends if key.startswith("hcom_send") else receives)[(step, key.rsplit("@", 1)[1])] += 1
    assert sends and sends == receives


def test_the_matrix_links_are_group_local_ranks_of_real_transfers(job):
    """Each rank's links are src-dst of group-local ranks, the source its own local rank, and a local copy
    (src == dst) names the rank itself, as msprof-analyze maps local ranks to global ones."""
    for rank, d in enumerate(job.rank_dirs):
        groups = _groups(d)
        for kinds in _json(d / OUT / "communication_matrix.json").values():
            for entries in kinds.values():
                for key, links in entries.items():
                    ranks = groups[key.rsplit("@", 1)[1]]["global_ranks"]
                    for link, e in links.items():
                        src, dst = (int(x) for x in link.split("-"))
                        assert ranks[src] == rank, (key, link)
                        assert (e["Transport Type"] == "LOCAL") == (src == dst)
                        assert e["Bandwidth(GB/s)"] == round(e["Transit Size(MB)"] / e["Transit Time(ms)"], 4)


def test_the_step_and_communication_numbers_add_up_as_torch_npu_computes_them(job):
    for d in job.rank_dirs:
        rows = _steps(d)
        assert [r["Step"] for r in rows] == [1, 2]
        for r in rows:
            assert r["Overlapped"] == pytest.approx(r["Communication"] - r["Communication(Not Overlapped)"])
            assert r["Communication(Not Overlapped and Exclude Receive)"] == pytest.approx(
                r["Communication(Not Overlapped)"] - r["Bubble"]
            )
            assert r["Computing"] > 0 and r["Communication"] > 0 and r["Stage"] > 0 and r["Preparing"] > 0
        for (_step, key), info in _ops(d).items():
            t = info["Communication Time Info"]
            assert t["Idle Time(ms)"] == pytest.approx(
                t["Elapse Time(ms)"] - t["Transit Time(ms)"] - t["Wait Time(ms)"]
            )
            assert 0 < t["Synchronization Time(ms)"] <= t["Wait Time(ms)"] < t["Elapse Time(ms)"]
            if t["Transit Time(ms)"]:
                total = t["Wait Time(ms)"] + t["Transit Time(ms)"]
                assert t["Wait Time Ratio"] == round(t["Wait Time(ms)"] / total, 4)
            hccs, sdma = (info["Communication Bandwidth Info"][k] for k in ("HCCS", "SDMA"))
            assert sdma["Transit Size(MB)"] == hccs["Transit Size(MB)"]
            if "receive" not in key:
                assert hccs["Transit Time(ms)"] > 0


def test_the_slow_rank_computes_longest_and_its_groups_wait_for_it(job, even):
    computing = {r: sum(x["Computing"] for x in _steps(d)) for r, d in enumerate(job.rank_dirs)}
    others = [v for r, v in computing.items() if r != SLOW_RANK]
    assert computing[SLOW_RANK] > 1.25 * statistics.median(others)
    assert max(computing, key=computing.__getitem__) == SLOW_RANK

    def sync(plan, rank: int, kinds: tuple[str, ...]) -> float:
        groups = _groups(plan.rank_dirs[rank])
        return sum(
            info["Communication Time Info"]["Synchronization Time(ms)"]
            for (_s, key), info in _ops(plan.rank_dirs[rank]).items()
            if groups[key.rsplit("@", 1)[1]]["group_name"] in kinds
        )

    peers = {r for g in job.groups if g.kind in ("tp", "dp") and SLOW_RANK in g.ranks for r in g.ranks} - {SLOW_RANK}
    assert peers == {4, 7}
    for peer in peers:  # they wait for it: longer synchronisation than in the even job, and than the slow rank
        assert sync(job, peer, ("tp", "dp")) > 2 * sync(even, peer, ("tp", "dp"))
        assert sync(job, peer, ("tp", "dp")) > 2 * sync(job, SLOW_RANK, ("tp", "dp"))
        not_overlapped = [
            sum(x["Communication(Not Overlapped)"] for x in _steps(p.rank_dirs[peer])) for p in (job, even)
        ]
        assert not_overlapped[0] > not_overlapped[1] * 1.1


def _link_bandwidths(plan) -> dict[tuple[int, int], tuple[str, float]]:
    """Global src -> dst link -> (transport, bandwidth over every operator of the job), from the ranks'
    ``<type>-total@group`` matrix entries (local ranks mapped through parallel_group_info)."""
    acc: dict[tuple[int, int], list] = {}
    for d in plan.rank_dirs:
        groups = _groups(d)
        for kinds in _json(d / OUT / "communication_matrix.json").values():
            for entries in kinds.values():
                for key, links in entries.items():
                    if "-total@" not in key:
                        continue
                    ranks = groups[key.rsplit("@", 1)[1]]["global_ranks"]
                    for link, e in links.items():
                        src, dst = (ranks[int(x)] for x in link.split("-"))
                        got = acc.setdefault((src, dst), [e["Transport Type"], 0.0, 0.0])
                        got[1] += e["Transit Size(MB)"]
                        got[2] += e["Transit Time(ms)"]
    return {link: (kind, size / time) for link, (kind, size, time) in acc.items()}


def test_the_slow_link_has_by_far_the_smallest_bandwidth_of_its_transport(job, even):
    links = _link_bandwidths(job)
    hccs = {k: bw for k, (kind, bw) in links.items() if kind == "HCCS"}
    assert SLOW_LINK in hccs and len(hccs) > 10
    rest = [bw for k, bw in hccs.items() if k != SLOW_LINK]
    assert hccs[SLOW_LINK] < 0.5 * min(rest)
    assert _link_bandwidths(even)[SLOW_LINK][1] > 0.8 * statistics.median(rest)
    # communication.json: the slow link's source shows it in the HCCS bandwidth of its ops over that group
    src, dst = SLOW_LINK
    (group,) = [g for g in job.groups if g.kind != "default_group" and {src, dst} <= set(g.ranks) and len(g.ranks) == 2]

    def hccs_bw(plan, rank):
        return [
            info["Communication Bandwidth Info"]["HCCS"]["Bandwidth(GB/s)"]
            for (_s, key), info in _ops(plan.rank_dirs[rank]).items()
            if key.endswith("@" + group.hash)
        ]

    assert max(hccs_bw(job, src)) < 0.5 * min(hccs_bw(job, dst))
    assert max(hccs_bw(job, src)) < 0.5 * min(hccs_bw(even, src))


def test_a_rank_is_a_few_tens_of_kb(job):
    for d in job.rank_dirs:
        size = sum(p.stat().st_size for p in d.rglob("*") if p.is_file())
        assert size < 80_000, (d.name, size)


def test_a_64_rank_job_generates_with_all_its_groups(tmp_path):
    plan = write_cluster_job(tmp_path / "job", 64, tp=4, pp=2, slow_rank=33, slow_link=(1, 2), seed=3)
    assert plan.dp == 8 and len(plan.rank_dirs) == 64
    assert sorted(p.name for p in (tmp_path / "job").iterdir()) == sorted(d.name for d in plan.rank_dirs)
    assert len({g.hash for g in plan.groups}) == len(plan.groups) == 1 + 8 + 8 + 16 + 32  # default, dp, mp, tp, pp
    for rank, d in enumerate(plan.rank_dirs):
        assert (d / f"profiler_info_{rank}.json").is_file()
        assert {g.hash for g in plan.groups_of(rank)} == set(_groups(d))
    computing = [sum(x["Computing"] for x in _steps(d)) for d in plan.rank_dirs]
    assert max(range(64), key=computing.__getitem__) == 33


def test_the_same_arguments_write_the_same_bytes(tmp_path):
    a = write_cluster_job(tmp_path / "a", 4, tp=2, slow_rank=3, seed=7)
    b = write_cluster_job(tmp_path / "b", 4, tp=2, slow_rank=3, seed=7)
    for x, y in zip(a.rank_dirs, b.rank_dirs):
        files = sorted(p.relative_to(x) for p in x.rglob("*") if p.is_file())
        assert files == sorted(p.relative_to(y) for p in y.rglob("*") if p.is_file())
        assert all((x / f).read_bytes() == (y / f).read_bytes() for f in files)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"world_size": 1}, "world_size: 1 is not between 2 and 1024"),
        ({"world_size": 1025}, "world_size: 1025 is not between 2 and 1024"),
        ({"world_size": 8, "tp": 3}, "world_size: 8 is not a multiple of tp * pp = 3 * 1 = 3"),
        ({"world_size": 8, "tp": 0}, "tp and pp must be at least 1"),
        ({"world_size": 8, "steps": 0}, "steps: 0 must be at least 1"),
        ({"world_size": 8, "slow_rank": 8}, "slow_rank: 8 is not a rank of this 8-rank job (0..7)"),
        ({"world_size": 8, "tp": 2, "slow_link": (0, 3)}, "slow_link: 0-3 is not a link of this job"),
        ({"world_size": 8, "slow_link": (0,)}, "slow_link: expected (src, dst) ranks"),
    ],
)
def test_bad_arguments_say_which_and_write_nothing(tmp_path, args, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        write_cluster_job(tmp_path / "job", **args)
    assert not (tmp_path / "job").exists()


def test_an_existing_rank_folder_is_never_overwritten(tmp_path):
    plan = write_cluster_job(tmp_path / "job", 2)
    (plan.rank_dirs[0] / "mine.txt").write_text("keep", encoding="utf-8")
    shutil.rmtree(plan.rank_dirs[1])
    with pytest.raises(FileExistsError, match="already exists"):
        write_cluster_job(tmp_path / "job", 2)
    assert (plan.rank_dirs[0] / "mine.txt").read_text(encoding="utf-8") == "keep"
    assert not plan.rank_dirs[1].exists()  # nothing written when one folder is in the way


def test_a_full_rank_opens_as_a_report_whose_timeline_gives_its_step_file(tmp_path):
    from workbench.core.profiling.build import open_report
    from workbench.core.profiling.comm import communication_view
    from workbench.core.profiling.steps import step_breakdown, step_breakdown_from_timeline

    full = write_cluster_job(tmp_path / "full", 4, tp=2, pp=2, slow_rank=2, full=True)
    lean = write_cluster_job(tmp_path / "lean", 4, tp=2, pp=2, slow_rank=2)
    for f, lf in zip(full.rank_dirs, lean.rank_dirs):  # full=True adds files; the cluster files are the same
        for name in ("profiler_metadata.json", f"{OUT}/step_trace_time.csv", f"{OUT}/communication.json"):
            assert (f / name).read_bytes() == (lf / name).read_bytes(), name
        assert {"trace_view.json", "kernel_details.csv", "memory_record.csv"} <= {p.name for p in (f / OUT).iterdir()}
    rank = 3
    report = open_report(full.rank_dirs[rank], use_cache=False)
    assert not [w for w in report.warnings if "communication" in w or "step_trace_time" in w]
    rows = _steps(full.rank_dirs[rank])
    for frame in (step_breakdown(report), step_breakdown_from_timeline(report)):
        assert frame is not None and list(frame["step"].astype(int)) == [1, 2]
        for r, (_i, got) in zip(rows, frame.iterrows()):
            for column, key in (("Computing", "computing_us"), ("Bubble", "bubble_us"), ("Stage", "stage_us")):
                assert got[key] == pytest.approx(r[column], abs=1e-3), column
    view = communication_view(report)
    assert view is not None and view.warnings == []
    want = sorted(key for _step, key in _ops(full.rank_dirs[rank]))
    assert sorted(view.ops[view.ops["op"].astype(str).str.startswith("hcom")]["op"].astype(str)) == want


def test_the_cli_writes_the_job_and_says_errors_in_one_line(tmp_path, capsys):
    out = tmp_path / "job"
    assert main(["cluster", str(out), "--world-size", "4", "--pp", "2", "--slow-rank", "1", "--slow-link", "0-2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [str(p) for p in sorted(out.iterdir())] and len(lines) == 4
    assert main(["cluster", str(tmp_path / "other"), "--world-size", "4", "--slow-link", "0to2"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["error: --slow-link: expected SRC-DST ranks such as 0-1, got '0to2'"]
    assert main(["cluster", str(out), "--world-size", "4", "--pp", "2"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: ") and "already exists" in line


def test_msprof_analyze_finds_the_ranks_the_stages_and_the_planted_groups(job, tmp_path):
    exe = shutil.which("msprof-analyze")
    if exe is None:
        pytest.skip("msprof-analyze is not installed (pip install msprof-analyze) - the real tool is the reference")
    copy = tmp_path / "job"  # msprof-analyze writes cluster_analysis_output/ into the folder it reads
    shutil.copytree(job.rank_dirs[0].parent, copy)
    done = subprocess.run([exe, "cluster", "-d", str(copy)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    out = copy / "cluster_analysis_output"
    with open(out / "cluster_step_trace_time.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for step in ("1", "2"):
        ranks = {r["Index"] for r in rows if r["Step"] == step and r["Type"] == "rank"}
        stages = {r["Index"] for r in rows if r["Step"] == step and r["Type"] == "stage"}
        assert ranks == {str(r) for r in range(8)}
        assert stages == {"(0, 1, 2, 3)", "(4, 5, 6, 7)"}
    mine = {r["Index"]: float(r["Computing"]) for r in rows if r["Step"] == "1" and r["Type"] == "rank"}
    assert mine[str(SLOW_RANK)] == pytest.approx(_steps(job.rank_dirs[SLOW_RANK])[0]["Computing"])
    found = _json(out / "communication_group.json")
    listed = {(e["group_id"], e["pg_name"], tuple(e["rank_set"]), e["type"]) for e in found["comm_group_parallel_info"]}
    planted = {
        (g.name, g.kind, g.ranks, "p2p" if g.kind == "pp" else "collective")
        for g in job.groups
        if g.kind != "default_group"
    }
    assert listed == planted


# ---- layout="msprof": a PROF_* folder per rank ----------------------------------------------------------

PROF = re.compile(r"^PROF_000001_\d{17}_[A-Z]{16}$")


@pytest.fixture(scope="module")
def prof_job(tmp_path_factory):
    """The 8-rank job of ``job`` profiled by msprof: one PROF folder per rank."""
    return write_cluster_job(
        tmp_path_factory.mktemp("prof") / "job",
        8,
        tp=2,
        pp=2,
        slow_rank=SLOW_RANK,
        slow_link=SLOW_LINK,
        layout="msprof",
    )


def test_a_msprof_job_has_a_prof_folder_per_rank_with_its_rank_in_info_json(prof_job):
    root = prof_job.rank_dirs[0].parent
    assert sorted(p.name for p in root.iterdir()) == sorted(d.name for d in prof_job.rank_dirs)
    assert len({d.name for d in prof_job.rank_dirs}) == 8
    for rank, d in enumerate(prof_job.rank_dirs):
        assert PROF.match(d.name), d.name
        dev = rank % 8
        assert _json(d / f"device_{dev}" / f"info.json.{dev}")["rank_id"] == rank
        assert sorted(p.name for p in (d / "analyze").iterdir()) == ["communication.json", "communication_matrix.json"]
        (timeline,) = (d / "mindstudio_profiler_output").glob("msprof_*.json")
        assert re.fullmatch(r"msprof_\d{14}\.json", timeline.name)
        names = {e.get("name") for e in _json(timeline)}
        assert {"Computing", "Communication", "Communication(Not Overlapped)", "Free"} <= names
        assert not (d / "profiler_metadata.json").exists()  # msprof writes none


def test_msprofs_analyze_files_hold_the_operators_of_the_torch_npu_job_at_the_top_level(job, prof_job):
    for rank in range(8):
        theirs = _json(prof_job.rank_dirs[rank] / "analyze" / "communication.json")
        assert all(OP_KEY.match(key) for key in theirs), list(theirs)[:3]  # no steps, no kinds, no totals
        assert theirs == {key: info for (_step, key), info in _ops(job.rank_dirs[rank]).items()}
        links = _json(prof_job.rank_dirs[rank] / "analyze" / "communication_matrix.json")
        assert set(links) == set(theirs)
        assert all(re.fullmatch(r"\d+-\d+", link) for op in links.values() for link in op)


def test_a_msprof_db_job_has_msprofs_db_and_communication_analyzer_db_instead_of_the_text_files(tmp_path):
    db = write_cluster_job(tmp_path / "db", 2, layout="msprof", export="db")
    both = write_cluster_job(tmp_path / "both", 2, layout="msprof", export="both")
    for rank, (d, b) in enumerate(zip(db.rank_dirs, both.rank_dirs)):
        names = sorted(p.name for p in d.iterdir())
        (msprof_db,) = [n for n in names if n.endswith(".db")]
        assert re.fullmatch(r"msprof_\d{14}\.db", msprof_db)
        assert names == sorted(["analyze", f"device_{rank}", "host", "mindstudio_profiler_log", msprof_db])
        assert sorted(p.name for p in (d / "analyze").iterdir()) == ["communication_analyzer.db"]
        assert sorted(p.name for p in (b / "analyze").iterdir()) == [
            "communication.json",
            "communication_analyzer.db",
            "communication_matrix.json",
        ]
        assert (b / "mindstudio_profiler_output").is_dir() and (b / msprof_db).is_file()
        assert (d / msprof_db).read_bytes() == (b / msprof_db).read_bytes()


def test_the_cli_writes_a_msprof_job(tmp_path, capsys):
    out = tmp_path / "job"
    assert main(["cluster", str(out), "--world-size", "2", "--layout", "msprof"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sorted(lines) == sorted(str(p) for p in out.iterdir()) and len(lines) == 2
    assert all(PROF.match(Path(line).name) for line in lines)
    assert sorted(_json(next(Path(line).glob("device_*/info.json.*")))["rank_id"] for line in lines) == [0, 1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"layout": "mindstudio"}, "layout: 'mindstudio' is not one of torch_npu, msprof"),
        ({"layout": "msprof", "full": True}, "layout msprof: only what cluster analysis reads (no full)"),
    ],
)
def test_bad_layouts_say_which_and_write_nothing(tmp_path, args, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        write_cluster_job(tmp_path / "job", 4, **args)
    assert not (tmp_path / "job").exists()


# ---- framework="mindspore": *_ascend_ms folders, its db export ---------------------------------------------


def test_a_mindspore_db_job_has_its_profiler_db_and_msprofs_communication_analyzer_db(job, tmp_path):
    import sqlite3

    ms = write_cluster_job(
        tmp_path / "ms", 8, tp=2, pp=2, slow_rank=SLOW_RANK, slow_link=SLOW_LINK, export="db", framework="mindspore"
    )
    for rank, (d, text) in enumerate(zip(ms.rank_dirs, job.rank_dirs)):
        assert d.name == text.name.replace("_ascend_pt", "_ascend_ms")
        assert sorted(p.name for p in (d / OUT).iterdir()) == [
            f"ascend_mindspore_profiler_{rank}.db",
            "communication_analyzer.db",
        ]
        assert (d / "profiler_metadata.json").read_bytes() == (text / "profiler_metadata.json").read_bytes()
        con = sqlite3.connect(d / OUT / "communication_analyzer.db")
        try:
            cols = {t: [c[1] for c in con.execute(f"PRAGMA table_info({t})")] for t in ("CommAnalyzerTime",)}
            assert "step" not in cols["CommAnalyzerTime"] and "type" not in cols["CommAnalyzerTime"]
            times = {
                f"{name}@{group}": (start, elapse)
                for name, group, start, elapse in con.execute(
                    "SELECT hccl_op_name, group_name, start_timestamp, elapse_time FROM CommAnalyzerTime"
                )
            }
            matrix_ops = {f"{n}@{g}" for n, g in con.execute("SELECT hccl_op_name, group_name FROM CommAnalyzerMatrix")}
        finally:
            con.close()
        ops = _ops(text)
        want = {
            key: (i["Communication Time Info"]["Start Timestamp(us)"], i["Communication Time Info"]["Elapse Time(ms)"])
            for (_s, key), i in ops.items()
        }
        assert times == want  # the text job's operators, one row each (no steps)
        assert matrix_ops == set(want)  # per operator, not integrated
        con = sqlite3.connect(d / OUT / f"ascend_mindspore_profiler_{rank}.db")
        try:
            (info,) = con.execute("SELECT value FROM META_DATA WHERE name = 'parallel_group_info'").fetchone()
            (n_ops,) = con.execute("SELECT count(*) FROM COMMUNICATION_OP").fetchone()
        finally:
            con.close()
        assert json.loads(info) == _json(text / "profiler_metadata.json")["parallel_group_info"]
        assert n_ops == len(ops)


def test_the_cli_writes_a_mindspore_db_job(tmp_path, capsys):
    out = tmp_path / "job"
    assert main(["cluster", str(out), "--world-size", "2", "--framework", "mindspore", "--export", "db"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(line.endswith("_ascend_ms") for line in lines)
    assert (Path(lines[1]) / OUT / "ascend_mindspore_profiler_1.db").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"framework": "tensorflow"}, "framework: 'tensorflow' is not one of pytorch, mindspore"),
        ({"framework": "mindspore", "full": True}, "framework mindspore: only the *_ascend_ms folders"),
        ({"framework": "mindspore", "layout": "msprof"}, "framework mindspore: only the *_ascend_ms folders"),
    ],
)
def test_bad_frameworks_say_which_and_write_nothing(tmp_path, args, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        write_cluster_job(tmp_path / "job", 4, **args)
    assert not (tmp_path / "job").exists()
