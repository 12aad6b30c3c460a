"""The merge of rank reductions into msprof-analyze's cluster tables: its rules on small hand-made
ranks, and byte-equal files to msprof-analyze's own on a generated job (when it is installed)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from workbench.core.cluster import files, merge, ranks, reduce
from workbench.core.cluster.merge import double_hash, megatron_indices
from workbench.core.cluster.reduce import RankReduction

HEADER = ["Computing", "Communication(Not Overlapped)", "Overlapped", "Communication", "Free", "Stage", "Bubble"]


def _time(elapse: float, wait: float, transit: float, sync: float) -> dict:
    return {
        "Start Timestamp(us)": 1.0,
        "Elapse Time(ms)": elapse,
        "Transit Time(ms)": transit,
        "Wait Time(ms)": wait,
        "Synchronization Time(ms)": sync,
        "Idle Time(ms)": elapse - wait - transit,
        "Wait Time Ratio": 0.5,
        "Synchronization Time Ratio": 0.5,
    }


def _band(size: float, time: float) -> dict:
    return {
        "HCCS": {
            "Transit Size(MB)": size,
            "Transit Time(ms)": time,
            "Bandwidth(GB/s)": 1.0,
            "Large Packet Ratio": 0.0,
            "Size Distribution": {"0.5": [2, time]},
        }
    }


def _rank(rank: int, computing: float, groups: dict[str, str], pp_peer: int | None = None) -> RankReduction:
    """A rank of a 4-rank job: tp groups {0,1} {2,3} (collective), pp pairs {0,2} {1,3} (p2p)."""
    red = RankReduction(rank, f"/job/r{rank}")
    red.step_header = list(HEADER)
    red.steps = [("1", [computing, 10.0, 1.0, 11.0, 5.0, 100.0 + computing, 0.0])]
    tp = groups["tp0"] if rank in (0, 1) else groups["tp1"]
    pp = groups["pp0"] if rank in (0, 2) else groups["pp1"]
    local = rank % 2
    red.communication = {
        "step1": {
            "collective": {
                f"hcom_allReduce__1_0_1@{tp}": {
                    "Communication Time Info": _time(2.0, 0.5 * rank, 1.0, 0.1),
                    "Communication Bandwidth Info": _band(4.0, 1.0),
                }
            },
            "p2p": {
                f"hcom_send__1_0_1@{pp}": {
                    "Communication Time Info": _time(1.0, 0.25, 0.5, 0.0),
                    "Communication Bandwidth Info": _band(1.0, 0.5),
                }
            },
        }
    }
    link = {
        "Transport Type": "HCCS",
        "Transit Size(MB)": 4.0,
        "Transit Time(ms)": 1.0 + rank,
        "Bandwidth(GB/s)": 1.0,
        "Op Name": "hcom_allReduce__1_0_1",
    }
    own = {
        "Transport Type": "LOCAL",
        "Transit Size(MB)": 1.0,
        "Transit Time(ms)": 0.5,
        "Bandwidth(GB/s)": 2.0,
        "Op Name": "hcom_allReduce__1_0_1",
    }
    red.matrix = {
        "step1": {
            "collective": {
                f"allReduce-top1@{tp}": {f"{local}-{1 - local}": link},
                f"allReduce-total@{tp}": {f"{local}-{1 - local}": link, f"{local}-{local}": own},
            }
        }
    }
    red.parallel_group_info = {
        "tp-id-0": {"group_name": "tp", "group_rank": local, "global_ranks": [0, 1]},
        "tp-id-1": {"group_name": "tp", "group_rank": local, "global_ranks": [2, 3]},
        "pp-id-0": {"group_name": "pp", "group_rank": rank // 2, "global_ranks": [0, 2]},
        "pp-id-1": {"group_name": "pp", "group_rank": rank // 2, "global_ranks": [1, 3]},
    }
    return red


@pytest.fixture
def groups() -> dict[str, str]:
    return {k: str(double_hash(f"{k[:2]}-id-{k[2]}")) for k in ("tp0", "tp1", "pp0", "pp1")}


def test_double_hash_is_two_32_bit_polynomials() -> None:
    a = b = 0
    for ch in "10.0.0.1%enp_60000_0_1":
        a = (a * 29 + ord(ch)) % 2**32
        b = (b * 131 + ord(ch)) % 2**32
    assert double_hash("10.0.0.1%enp_60000_0_1") == a * 2**32 + b
    assert double_hash("") == 0


def test_groups_take_their_parallel_names_and_pp_links_make_the_stages(groups) -> None:
    tables = merge.merge([_rank(r, 100.0 + r, groups) for r in (3, 1, 0, 2)])
    assert tables.ranks == [0, 1, 2, 3]
    records = tables.groups["comm_group_parallel_info"]
    by_name = {r["group_name"]: r for r in records}
    assert by_name[groups["tp0"]] == {
        "type": "collective",
        "rank_set": [0, 1],
        "group_name": groups["tp0"],
        "group_id": "tp-id-0",
        "pg_name": "tp",
    }
    assert by_name[groups["pp1"]]["type"] == "p2p" and by_name[groups["pp1"]]["rank_set"] == [1, 3]
    # the pp links {0,2} {1,3} hold at most one rank of each tp group: the tp groups are the stages
    assert tables.stages == [[0, 1], [2, 3]]
    stage_rows = [r for r in tables.step_rows if r[1] == "stage"]
    assert [r[2] for r in stage_rows] == ["(0, 1)", "(2, 3)"]
    assert stage_rows[0][3] == 101.0 and stage_rows[1][3] == 103.0  # column-wise max of the stage's ranks
    assert tables.step_header == ["Step", "Type", "Index", *HEADER]


def test_without_pp_names_there_are_no_stage_rows(groups) -> None:
    reds = [_rank(r, 100.0, groups) for r in range(4)]
    for red in reds:
        red.parallel_group_info = {}
    tables = merge.merge(reds)
    assert tables.stages == []
    assert all(r[1] == "rank" for r in tables.step_rows)
    assert all(r["group_id"] == "" and r["pg_name"] == "" for r in tables.groups["comm_group_parallel_info"])


def test_total_op_info_sums_times_and_recomputes_ratios_and_bandwidth(groups) -> None:
    tables = merge.merge([_rank(r, 100.0, groups) for r in range(4)])
    ops = tables.communication["(0, 1)"]["step1"]
    total = ops[f"Total Op Info@{groups['tp0']}"]
    assert list(total) == [0, 1]
    t1 = total[1]["Communication Time Info"]
    assert "Start Timestamp(us)" not in t1
    assert t1["Wait Time(ms)"] == 0.5 and t1["Transit Time(ms)"] == 1.0
    assert t1["Wait Time Ratio"] == round(0.5 / 1.5, 4)
    assert t1["Synchronization Time Ratio"] == round(0.1 / 1.1, 4)
    band = total[1]["Communication Bandwidth Info"]["HCCS"]
    assert list(band) == ["Transit Time(ms)", "Transit Size(MB)", "Size Distribution", "Bandwidth(GB/s)"]
    assert band["Bandwidth(GB/s)"] == 4.0 and band["Size Distribution"] == {"0.5": [2, 1.0]}


def test_matrix_links_become_global_ranks_and_only_total_rows_add_up(groups) -> None:
    tables = merge.merge([_rank(r, 100.0, groups) for r in range(4)])
    step = tables.matrix["(2, 3)"]["step1"]
    top = step[f"allReduce-top1@{groups['tp1']}"]
    assert set(top) == {"2-3", "3-2"}  # local 0/1 of the group are global 2/3 (their own r-r links)
    assert top["2-3"]["Transit Time(ms)"] == 3.0 and top["2-3"]["Bandwidth(GB/s)"] == round(4.0 / 3.0, 4)
    total = step[f"Total Op Info@{groups['tp1']}"]
    assert total["2-3"]["Transit Time(ms)"] == 3.0  # the top1 row is not added: only "total" rows are
    assert total["2-2"]["Transport Type"] == "LOCAL"


def test_an_unmapped_local_rank_falls_back_to_global_ranks_and_says_so(groups) -> None:
    reds = [_rank(r, 100.0, groups) for r in (0, 1)]
    for red in reds:  # no r-r links: msprof-analyze would drop every link
        for ops in red.matrix["step1"].values():
            for links in ops.values():
                for key in [k for k in links if k.split("-")[0] == k.split("-")[1]]:
                    del links[key]
    tables = merge.merge(reds)
    top = tables.matrix["(0, 1)"]["step1"][f"allReduce-top1@{groups['tp0']}"]
    assert set(top) == {"0-1", "1-0"}
    assert any("msprof-analyze drops it" in w for w in tables.warnings)


def test_megatron_indices_follow_the_partition() -> None:
    idx = megatron_indices(
        {"world_size": 8, "tensor_model_parallel_size": 2, "pipeline_model_parallel_size": 2, "data_parallel_size": 2}
    )
    # rank = stage * (world / pp) + dp * tp + tp_index
    assert idx == [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1), (0, 1, 0), (0, 1, 1), (1, 1, 0), (1, 1, 1)]
    assert megatron_indices({"world_size": 8, "tensor_model_parallel_size": 3}) is None
    assert megatron_indices({"world_size": "8"}) is None


def test_distributed_args_add_the_dp_pp_tp_columns(groups) -> None:
    reds = [_rank(r, 100.0, groups) for r in range(4)]
    reds[2].distributed_args = {
        "world_size": 4,
        "tensor_model_parallel_size": 2,
        "pipeline_model_parallel_size": 2,
        "data_parallel_size": 1,
    }
    tables = merge.merge(reds)
    assert tables.step_header[-3:] == ["DP Index", "PP Index", "TP Index"]
    rank3 = next(r for r in tables.step_rows if r[1] == "rank" and r[2] == 3)
    assert rank3[-3:] == [0, 1, 1]
    assert all(r[-3:] == ["NA", "NA", "NA"] for r in tables.step_rows if r[1] == "stage")


def test_step_values_are_taken_as_msprof_analyze_takes_them(tmp_path: Path) -> None:
    rank = tmp_path / "w_1_20240101000000000_ascend_pt"
    out = rank / "ASCEND_PROFILER_OUTPUT"
    out.mkdir(parents=True)
    (rank / "profiler_info_3.json").write_text("{}")
    (out / "step_trace_time.csv").write_text("Device_id,Step,Computing,Free\n3,7,12.5,N/A\n")
    red = reduce.reduce_rank(3, str(rank))
    assert red.step_header == ["Computing", "Free"]
    assert red.steps == [("7", [12.5, 0.0])]
    assert any("line 2, Free: 'N/A' is not a number" in w for w in red.warnings)
    assert any("no communication.json" in w for w in red.warnings)


# ---- against msprof-analyze itself ------------------------------------------------------------------


def _msprof_analyze(job: Path) -> Path:
    exe = shutil.which("msprof-analyze")
    if exe is None:
        pytest.skip("msprof-analyze is not installed (pip install msprof-analyze)")
    proc = subprocess.run([exe, "cluster", "-d", str(job)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return job / "cluster_analysis_output"


def _ours(job: Path) -> merge.ClusterTables:
    found = ranks.discover(str(job))
    return merge.merge(reduce.reduce_source(s) for s in found.ranks)


def _assert_same_files(tables: merge.ClusterTables, theirs: Path) -> None:
    assert files.step_csv_text(tables).encode() == (theirs / files.STEP_CSV).read_bytes()
    for name, doc in (
        (files.GROUP_JSON, tables.groups),
        (files.COMM_JSON, tables.communication),
        (files.MATRIX_JSON, tables.matrix),
    ):
        assert json.dumps(doc) == (theirs / name).read_text(), name


def test_a_two_rank_job_gives_msprof_analyzes_files_byte_for_byte(tmp_path: Path) -> None:
    from workbench.simtoolkit.profdata.torchnpu import write_torch_npu_job
    from workbench.simtoolkit.profdata.workload import mixed_parallel, resnet50_workload

    job = tmp_path / "job"
    write_torch_npu_job(job, mixed_parallel(resnet50_workload(kind="ops")), 2)
    ours = _ours(job)  # read before msprof-analyze writes its folder into the job
    _assert_same_files(ours, _msprof_analyze(job))


def _unordered(doc: object) -> object:
    """A JSON document with its lists of ranks as sets: msprof-analyze lists ranks and groups in the
    order its directory walk met the rank folders (the file system's), this app in rank order."""
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


@pytest.mark.parametrize("world", [8, 64])
def test_a_tp_pp_job_gives_msprof_analyzes_numbers(tmp_path: Path, world: int) -> None:
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    job = tmp_path / "job"
    plan = write_cluster_job(job, world, tp=2, pp=2, slow_rank=world // 2 + 1, slow_link=(2, 3))
    ours = _ours(job)
    theirs = _msprof_analyze(job)
    csv_ours = files.step_csv_text(ours).split("\r\n")
    csv_theirs = (theirs / files.STEP_CSV).read_bytes().decode().split("\r\n")
    assert csv_ours[0] == csv_theirs[0]
    assert sorted(csv_ours[1:]) == sorted(csv_theirs[1:])  # every value, byte for byte
    assert any(",stage," in row for row in csv_ours) and len(ours.stages) == 2  # pp 2: two stages
    assert _unordered(ours.groups) == _unordered(json.loads((theirs / files.GROUP_JSON).read_text()))
    for name, doc in ((files.COMM_JSON, ours.communication), (files.MATRIX_JSON, ours.matrix)):
        mine = json.loads(json.dumps(doc))  # the rank keys as the file has them
        assert _rank_tuple_keys(mine) == _rank_tuple_keys(json.loads((theirs / name).read_text())), name
    assert not [w for w in ours.warnings if "drops it" in w]
    from workbench.core.cluster import findings

    found = findings.find(ours)
    assert [s.rank for s in found.slow_ranks] == [plan.slow_rank]
    assert [(s.src, s.dst) for s in found.slow_links][:1] == [plan.slow_link]
