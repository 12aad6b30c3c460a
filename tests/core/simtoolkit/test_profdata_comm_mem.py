"""The simulated torch_npu run's memory, step and communication files (docs/cann-formats.md §4.2-§4.4):
the layout of the real samples/torch_npu-910B-rank0-comm-mem, and every value recomputed from the run's
own trace_view.json with plain json / csv (not the workbench's readers), as torch_npu and msprof compute
them. The last tests open the same run with the workbench."""

from __future__ import annotations

import collections
import csv
import json
import re
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest
from _profdata_util import load_trace, read_csv, ts_ns

from workbench.simtoolkit.profdata import (
    Op,
    Tensor,
    Workload,
    data_parallel,
    mixed_parallel,
    resnet50_workload,
    write_torch_npu_job,
)

REAL = "torch_npu-910B-rank0-comm-mem"
MEMORY_CSVS = ("memory_record.csv", "operator_memory.csv", "npu_module_mem.csv", "step_trace_time.csv")
TYPE_WORDS = re.compile(  # torch_npu's op type words, the first found in the name
    r"send|reduce|invalid|broadcast|allreduce|receive|allgather|reducescatter|scatter|alltoall|alltoallv|"
    r"alltoallvc|batchsendrecv"
)


def _workload() -> Workload:
    return mixed_parallel(resnet50_workload(kind="ops", blocks=(1, 1, 1, 1)), bucket_elements=1 << 20)


@pytest.fixture(scope="module")
def job(tmp_path_factory) -> list[Path]:
    """Both ranks of a 2-rank hybrid-parallel job, 2 steps, Text and Db."""
    return write_torch_npu_job(tmp_path_factory.mktemp("job"), _workload(), 2, steps=2, export_type="Text+Db")


def _out(rank_dir: Path) -> Path:
    return rank_dir / "ASCEND_PROFILER_OUTPUT"


def _json(path: Path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _ns(cell: str) -> int | None:
    return None if cell == "" else ts_ns(cell.rstrip("\t"))


def _bytes(cell: str) -> int | None:
    return None if cell == "" else round(float(cell) * 2**20)


# ---- the trace, read plainly -------------------------------------------------------------------------------


class Trace:
    def __init__(self, path: Path) -> None:
        events = load_trace(path)
        self.procs = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
        self.threads = {
            (e["pid"], e["tid"]): e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"
        }
        self.slices = [
            dict(e, start=ts_ns(e["ts"]), end=ts_ns(e["ts"]) + round(e["dur"] * 1000)) for e in events if e["ph"] == "X"
        ]
        self.flows = [e for e in events if e["ph"] in "sf"]

    def of(self, process: str, thread_prefix: str = "") -> list[dict]:
        return [
            s
            for s in self.slices
            if self.procs[s["pid"]] == process and self.threads[(s["pid"], s["tid"])].startswith(thread_prefix)
        ]

    def thread(self, s: dict) -> str:
        return self.threads[(s["pid"], s["tid"])]

    def windows(self) -> list[tuple[int, int, int, int]]:
        """torch_npu's step ranges (docs §4.4): from the first device task the step's ops launched (their
        async_npu flows) to the later of the step's end and those tasks' ends; (step, lo, hi, step start)."""
        device = {(s["pid"], s["tid"], s["start"]): s for s in self.of("Ascend Hardware")}
        starts = {str(f["id"]): ts_ns(f["ts"]) for f in self.flows if f["cat"] == "async_npu" and f["ph"] == "s"}
        ends = {str(f["id"]): f for f in self.flows if f["cat"] == "async_npu" and f["ph"] == "f"}
        out = []
        for step in (s for s in self.of("Python") if s["name"].startswith("ProfilerStep#")):
            hit = [ends[i] for i, at in starts.items() if step["start"] <= at <= step["end"]]
            tasks = [device[(f["pid"], f["tid"], ts_ns(f["ts"]))] for f in hit]
            lo = min(t["start"] for t in tasks)
            hi = max(step["end"], max(t["end"] for t in tasks))
            out.append((int(step["name"].split("#")[1]), lo, hi, step["start"]))
        return sorted(out, key=lambda w: w[1])

    def comm_ops(self) -> list[tuple[dict, list[dict]]]:
        """Each communication operator (its Group lane slice) with its small tasks (the Plane lanes)."""
        planes = self.of("Communication", "Plane ")
        return [
            (op, sorted((p for p in planes if op["start"] <= p["start"] < op["end"]), key=lambda p: p["start"]))
            for op in self.of("Communication", "Group ")
        ]


def _merge(spans):
    out = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [tuple(x) for x in out]


def _minus(a, b):
    out = []
    for s, e in a:
        pieces = [(s, e)]
        for bs, be in b:
            pieces = [q for ps, pe in pieces for q in ((ps, min(pe, bs)), (max(ps, be), pe)) if q[1] > q[0]]
        out += pieces
    return sorted(out)


# ---- layout against the real sample ------------------------------------------------------------------------


def test_the_files_have_the_real_headers_line_ends_and_cell_quirks(samples, job):
    real = samples / REAL
    for rank_dir in job:
        out = _out(rank_dir)
        for name in MEMORY_CSVS:
            raw, ours = (real / name).read_bytes(), (out / name).read_bytes()
            assert ours.split(b"\n")[0] == raw.split(b"\n")[0], name  # the header, line end included
            crlf = b"\r\n" in raw
            assert (b"\r\n" in ours) == crlf and ours.count(b"\n") == (
                ours.count(b"\r\n") if crlf else ours.count(b"\n")
            )
            assert b'"' not in ours, name  # nothing quoted: the TAB after a time is not quoted (csv module)
        # every time point ends with a TAB; durations of PTA rows too; GE durations are plain numbers
        _, records = read_csv(out / "memory_record.csv")
        assert records and all(re.fullmatch(r"\d{16}\.\d{3}\t", r["Timestamp(us)"]) for r in records)
        _, op_mem = read_csv(out / "operator_memory.csv")
        for r in op_mem:
            assert re.fullmatch(r"\d{16}\.\d{3}\t", r["Allocation Time(us)"])
            assert re.fullmatch(r"(\d{16}\.\d{3}\t)?", r["Release Time(us)"])
            pattern = r"\d+(\.\d{1,2})?" if r["Name"].startswith("cann::") else r"\d+\.\d{3}\t"
            assert r["Duration(us)"] == "" or re.fullmatch(pattern, r["Duration(us)"]), r
        _, modules = read_csv(out / "npu_module_mem.csv")
        assert all(re.fullmatch(r"\d{16}\.\d{3}\t", r["Timestamp(us)"]) for r in modules)
        # the components and empty cells the sample has: APP reserved only, GE no active / stream,
        # allocations never released with empty release cells
        _, real_records = read_csv(real / "memory_record.csv")
        assert (
            {r["Component"] for r in records}
            == {r["Component"] for r in real_records}
            == {
                "APP",
                "PTA",
                "GE",
                "PTA+GE",
            }
        )
        for rows in (records, real_records):
            app = [r for r in rows if r["Component"] == "APP"]
            ge = [r for r in rows if r["Component"] == "GE"]
            assert app and all(r["Total Allocated(MB)"] == r["Total Active(MB)"] == r["Stream Ptr"] == "" for r in app)
            assert ge and all(r["Total Active(MB)"] == r["Stream Ptr"] == "" for r in ge)
            assert [r["Component"] for r in rows[: len(app)]] == ["APP"] * len(app)  # APP first, as the sample
        unreleased = [r for r in op_mem if r["Release Time(us)"] == ""]
        assert unreleased and all(
            r[c] == ""
            for r in unreleased
            for c in (
                "Active Release Time(us)",
                "Duration(us)",
                "Release Total Allocated(MB)",
                "Release Total Active(MB)",
            )
        )
        assert any(r["Name"].startswith("cann::") for r in op_mem) and any(
            r["Name"].startswith("aten::") for r in op_mem
        )
        # the CANN modules of the sample, in its order, each sampled at the same times
        _, real_modules = read_csv(real / "npu_module_mem.csv")
        assert list(dict.fromkeys(r["Component"] for r in modules)) == list(
            dict.fromkeys(r["Component"] for r in real_modules)
        )
        times = collections.defaultdict(list)
        for r in modules:
            times[r["Component"]].append(r["Timestamp(us)"])
        assert len({tuple(v) for v in times.values()}) == 1 and len(times["APP"]) > 3


def _ordered_keys(obj, depth: int) -> list:
    return list(obj) if depth == 0 else [list(v) for v in obj.values()]


def test_communication_json_has_the_real_key_layout(samples, job):
    real = _json(samples / REAL / "communication.json")
    real_op = real["step50"]["collective"]["hcom_allReduce__586_0_1@17522688603477080586"]
    real_total = real["step50"]["collective"]["Total Op Info"]
    ours = _json(_out(job[0]) / "communication.json")
    assert list(ours) == ["step1", "step2"]
    kinds_seen = set()
    for step in ours.values():
        assert list(step) == list(real["step50"])  # p2p, collective
        for kind, ops in step.items():
            assert ops, kind
            assert list(ops)[-1] == "Total Op Info"
            for key, op in ops.items():
                if key == "Total Op Info":
                    assert list(op) == list(real_total)
                    assert list(op["Communication Time Info"]) == list(real_total["Communication Time Info"])
                    assert list(op["Communication Bandwidth Info"]) == list(real_total["Communication Bandwidth Info"])
                    for transport, info in op["Communication Bandwidth Info"].items():
                        assert list(info) == list(real_total["Communication Bandwidth Info"][transport])
                    continue
                assert re.fullmatch(r"hcom_[A-Za-z]+__\d+_\d+_\d+@\d+", key)
                kinds_seen.add(key.split("__")[0])
                assert ("p2p" if key.startswith(("hcom_send", "hcom_receive")) else "collective") == kind
                assert list(op) == list(real_op)
                assert list(op["Communication Time Info"]) == list(real_op["Communication Time Info"])
                assert list(op["Communication Bandwidth Info"]) == list(real_op["Communication Bandwidth Info"])
                for transport, info in op["Communication Bandwidth Info"].items():
                    assert list(info) == list(real_op["Communication Bandwidth Info"][transport])
                    for size, value in info["Size Distribution"].items():  # {"packet MB": [count, ms]}
                        assert float(size) > 0 and isinstance(value[0], int) and isinstance(value[1], float)
    assert kinds_seen == {
        f"hcom_{k}" for k in ("allReduce", "allGather", "reduceScatter", "broadcast", "send", "receive")
    }


def test_communication_matrix_has_the_real_key_layout(samples, job):
    real = _json(samples / REAL / "communication_matrix.json")
    real_group = real["step50"]["collective"]
    real_entry = real_group["allreduce-top1@17522688603477080586"]["0-1"]
    real_total = real_group["allreduce-total@17522688603477080586"]["0-1"]
    ours = _json(_out(job[0]) / "communication_matrix.json")
    assert list(ours) == ["step1", "step2"]
    for step in ours.values():
        assert list(step) == list(real["step50"])
        stats = collections.defaultdict(list)
        for kind, groups in step.items():
            for key, links in groups.items():
                m = re.fullmatch(r"([a-z]+)-(top1|middle|bottom1|bottom2|bottom3|total)@(\d+)", key)
                assert m, key
                stats[(kind, m.group(1))].append(m.group(2))
                for link, entry in links.items():
                    assert re.fullmatch(r"\d+-\d+", link)
                    assert list(entry) == list(real_total if m.group(2) == "total" else real_entry)
                    assert entry["Transport Type"] in ("HCCS", "LOCAL")
        # the sample's order of the statistics (bottom2 / bottom3 once there are 2 / 3 ops of a type)
        assert stats[("collective", "allreduce")] == ["top1", "middle", "bottom1", "total", "bottom2"]
        assert {t for _k, t in stats} == {"allreduce", "allgather", "reduce", "broadcast", "send", "receive"}
    assert list(real_group) == [
        f"allreduce-{s}@17522688603477080586" for s in ("top1", "middle", "bottom1", "total")
    ] + [f"allreduce-{s}@17522688603477080586" for s in ("bottom2", "bottom3")]


# ---- values against the trace ------------------------------------------------------------------------------


def test_the_overlap_lanes_are_the_union_of_the_device_tasks(job):
    for rank_dir in job:
        tr = Trace(_out(rank_dir) / "trace_view.json")
        compute = _merge((s["start"], s["end"]) for s in tr.of("Ascend Hardware") if not s["name"].startswith("hcom_"))
        comm = _merge((s["start"], s["end"]) for s in tr.of("Communication", "Group "))
        busy = _merge(compute + comm)
        lanes = collections.defaultdict(list)
        for s in tr.of("Overlap Analysis"):
            lanes[tr.thread(s)].append((s["start"], s["end"]))
        assert sorted(lanes["Computing"]) == compute
        assert sorted(lanes["Communication"]) == comm
        assert sorted(lanes["Communication(Not Overlapped)"]) == _minus(comm, compute)
        assert sorted(lanes["Free"]) == [(busy[i][1], busy[i + 1][0]) for i in range(len(busy) - 1)]
        assert _minus(comm, compute) != comm  # some communication overlaps computing


def test_step_trace_time_is_what_torch_npu_computes_from_the_trace(job):
    """Per step: the sums of the Overlap Analysis slices whose start is in the step's window, Bubble the
    hcom_receive* slices of the device processes, Stage = span - Bubble, Preparing = first task - step start."""
    for rank_dir in job:
        out = _out(rank_dir)
        tr = Trace(out / "trace_view.json")
        windows = tr.windows()
        picked = [(tr.thread(s), s) for s in tr.of("Overlap Analysis")]
        picked += [("bubble", s) for p in ("Ascend Hardware", "Communication") for s in tr.of(p)]
        picked = [(k, s) for k, s in picked if k != "bubble" or s["name"].startswith("hcom_receive")]
        want = {}
        for step, _lo, _hi, step_start in windows:
            want[step] = {"sum": collections.Counter(), "lo": None, "hi": None, "first": None, "fwk": step_start}
        for kind, s in picked:
            step = next((w[0] for w in windows if w[1] <= s["start"] < w[2]), None)
            if step is None:
                continue
            w = want[step]
            w["sum"][kind] += s["end"] - s["start"]
            w["lo"] = s["start"] if w["lo"] is None else min(w["lo"], s["start"])
            w["hi"] = s["end"] if w["hi"] is None else max(w["hi"], s["end"])
            if kind in ("Computing", "Communication"):
                w["first"] = s["start"] if w["first"] is None else min(w["first"], s["start"])
        _, rows = read_csv(out / "step_trace_time.csv")
        assert [int(r["Step"]) for r in rows] == [1, 2]
        for r in rows:
            w = want[int(r["Step"])]
            c = w["sum"]
            bubble = c["bubble"]
            expect = {
                "Computing": c["Computing"],
                "Communication(Not Overlapped)": c["Communication(Not Overlapped)"],
                "Overlapped": c["Communication"] - c["Communication(Not Overlapped)"],
                "Communication": c["Communication"],
                "Free": c["Free"],
                "Stage": w["hi"] - w["lo"] - bubble,
                "Bubble": bubble,
                "Communication(Not Overlapped and Exclude Receive)": c["Communication(Not Overlapped)"] - bubble,
                "Preparing": w["first"] - w["fwk"],
            }
            for column, ns in expect.items():
                assert float(r[column]) == pytest.approx(ns / 1000, abs=1e-6), column
            assert bubble > 0 and c["Communication"] > c["Communication(Not Overlapped)"] > 0
            # Stage is the step's span on the device: computing + not overlapped + free (+ the receives)
            assert float(r["Stage"]) == pytest.approx(
                (c["Computing"] + c["Communication(Not Overlapped)"] + c["Free"] - bubble) / 1000, abs=1e-6
            )


def _op_times(tr: Trace, tasks: list[dict]) -> dict:
    """msprof's Communication Time Info from the master plane (Plane 0): transit = Memcpy / Reduce_Inline to
    another rank, wait = Notify_Wait, sync = the waits before the first transfer."""
    master = [t for t in tasks if tr.thread(t) == "Plane 0"]
    transit = wait = sync = 0
    moved = False
    for t in master:
        dur = t["end"] - t["start"]
        if t["name"] in ("Memcpy", "Reduce_Inline") and t["args"]["link type"] != "ON_CHIP":
            transit += dur
            moved = True
        if t["name"] == "Notify_Wait":
            wait += dur
            sync += 0 if moved else dur
    elapse = max(t["end"] for t in master) - min(t["start"] for t in master)
    return {"start": min(t["start"] for t in tasks), "elapse": elapse, "transit": transit, "wait": wait, "sync": sync}


def test_communication_json_is_msprofs_analysis_of_the_plane_tasks(job):
    for rank_dir in job:
        out = _out(rank_dir)
        tr = Trace(out / "trace_view.json")
        windows = tr.windows()
        doc = _json(out / "communication.json")
        seen = 0
        for op, tasks in tr.comm_ops():
            assert tasks and tasks[0]["start"] == op["start"] and max(t["end"] for t in tasks) == op["end"]
            step = next(w[0] for w in windows if w[1] <= op["start"] <= w[2])
            kind = "p2p" if op["name"].startswith(("hcom_send", "hcom_receive")) else "collective"
            group = tr.thread(op).split()[1]
            info = doc[f"step{step}"][kind][f"{op['name']}@{group}"]
            t, got = _op_times(tr, tasks), info["Communication Time Info"]
            assert Decimal(repr(got["Start Timestamp(us)"])) * 1000 == t["start"]  # exact: the float holds the ns
            assert got["Elapse Time(ms)"] == pytest.approx(t["elapse"] / 1e6, rel=1e-12)
            assert got["Transit Time(ms)"] == pytest.approx(t["transit"] / 1e6, rel=1e-12, abs=1e-15)
            assert got["Wait Time(ms)"] == pytest.approx(t["wait"] / 1e6, rel=1e-12)
            assert got["Synchronization Time(ms)"] == pytest.approx(t["sync"] / 1e6, rel=1e-12)
            assert got["Idle Time(ms)"] == pytest.approx((t["elapse"] - t["transit"] - t["wait"]) / 1e6, abs=1e-12)
            assert got["Wait Time Ratio"] == round(t["wait"] / (t["wait"] + t["transit"]), 4)
            assert got["Synchronization Time Ratio"] == round(t["sync"] / (t["sync"] + t["transit"]), 4)
            # bandwidth over every plane's transfers to other ranks (all HCCS here; SDMA = HCCS + PCIE + SIO)
            moves = [x for x in tasks if x["name"] in ("Memcpy", "Reduce_Inline") and x["args"]["link type"] == "HCCS"]
            size = sum(x["args"]["size(Byte)"] for x in moves) / 1e6
            time = sum(x["end"] - x["start"] for x in moves) / 1e6
            bands = info["Communication Bandwidth Info"]
            for name in ("HCCS", "SDMA"):
                assert bands[name]["Transit Size(MB)"] == pytest.approx(size, rel=1e-12)
                assert bands[name]["Transit Time(ms)"] == pytest.approx(time, rel=1e-12)
                assert bands[name]["Bandwidth(GB/s)"] == (round(size / time, 4) if time else 0)
            dist = collections.defaultdict(lambda: [0, 0.0])
            for x in moves:
                dist[x["args"]["size(Byte)"] / 1e6][0] += 1
                dist[x["args"]["size(Byte)"] / 1e6][1] += (x["end"] - x["start"]) / 1e6
            assert {float(k): v[0] for k, v in bands["HCCS"]["Size Distribution"].items()} == {
                k: v[0] for k, v in dist.items()
            }
            for k, v in bands["HCCS"]["Size Distribution"].items():
                assert v[1] == pytest.approx(dist[float(k)][1], rel=1e-12)
            if moves:
                assert bands["HCCS"]["Large Packet Ratio"] == round(sum(s > 32 for s in dist) / len(moves), 4)
            for name in ("RDMA", "PCIE", "SIO"):
                assert bands[name]["Transit Size(MB)"] == bands[name]["Transit Time(ms)"] == 0
            seen += 1
        assert seen == sum(len(ops) - 1 for step in doc.values() for ops in step.values())
        # Total Op Info: the sums of its kind's ops, ratios recomputed
        for step in doc.values():
            for ops in step.values():
                total = ops["Total Op Info"]["Communication Time Info"]
                real = [v["Communication Time Info"] for k, v in ops.items() if k != "Total Op Info"]
                for key in ("Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)", "Idle Time(ms)"):
                    assert total[key] == pytest.approx(sum(r[key] for r in real), rel=1e-12, abs=1e-15)
                w, tr_ = total["Wait Time(ms)"], total["Transit Time(ms)"]
                assert total["Wait Time Ratio"] == round(w / (w + tr_), 4)
                sizes = ops["Total Op Info"]["Communication Bandwidth Info"]["HCCS"]
                assert sizes["Transit Size(MB)"] == pytest.approx(
                    sum(
                        v["Communication Bandwidth Info"]["HCCS"]["Transit Size(MB)"]
                        for k, v in ops.items()
                        if k != "Total Op Info"
                    )
                )


def test_communication_matrix_is_the_links_of_the_plane_tasks(job):
    for rank, rank_dir in enumerate(job):
        out = _out(rank_dir)
        tr = Trace(out / "trace_view.json")
        windows = tr.windows()
        doc = _json(out / "communication_matrix.json")
        per = collections.defaultdict(lambda: collections.defaultdict(list))  # (step, kind, key) -> link -> ops
        for op, tasks in tr.comm_ops():
            step = next(w[0] for w in windows if w[1] <= op["start"] <= w[2])
            kind = "p2p" if op["name"].startswith(("hcom_send", "hcom_receive")) else "collective"
            group = tr.thread(op).split()[1]
            links = collections.defaultdict(lambda: [None, 0, 0])
            for x in tasks:
                if x["name"] in ("Memcpy", "Reduce_Inline"):
                    got = links[f"{x['args']['src rank']}-{x['args']['dst rank']}"]
                    got[0] = "LOCAL" if x["args"]["link type"] == "ON_CHIP" else x["args"]["link type"]
                    got[1] += x["args"]["size(Byte)"] / 1e6
                    got[2] += (x["end"] - x["start"]) / 1e6
            word = TYPE_WORDS.search(op["name"].lower()).group()
            for link, (transport, size, time) in links.items():
                assert int(link.split("-")[0]) == rank
                per[(f"step{step}", kind, f"{word}-%s@{group}")][link].append((op["name"], transport, size, time))
        assert per
        for (step, kind, key), links in per.items():
            for link, ops in links.items():
                total = doc[step][kind][key % "total"][link]
                assert total["Transport Type"] == ops[0][1]
                assert total["Transit Size(MB)"] == pytest.approx(sum(o[2] for o in ops), rel=1e-12)
                assert total["Transit Time(ms)"] == pytest.approx(sum(o[3] for o in ops), rel=1e-12)
                assert total["Bandwidth(GB/s)"] == round(total["Transit Size(MB)"] / total["Transit Time(ms)"], 4)
                fastest = max(ops, key=lambda o: round(o[2] / o[3], 4))
                top = doc[step][kind][key % "top1"][link]
                assert top["Op Name"] == fastest[0] and top["Bandwidth(GB/s)"] == round(fastest[2] / fastest[3], 4)
                slowest = doc[step][kind][key % "bottom1"][link]
                assert slowest["Bandwidth(GB/s)"] == min(round(o[2] / o[3], 4) for o in ops)
        # the ring peer and the local copy: rank 0 of 2 links 0-1 and 0-0
        assert {link for links in per.values() for link in links} == {f"{rank}-{1 - rank}", f"{rank}-{rank}"}


def test_memory_record_is_the_replay_of_operator_memory(job):
    for rank_dir in job:
        out = _out(rank_dir)
        _, records = read_csv(out / "memory_record.csv")
        _, op_mem = read_csv(out / "operator_memory.csv")
        for component, rows in (
            ("PTA", [r for r in op_mem if not r["Name"].startswith("cann::")]),
            ("GE", [r for r in op_mem if r["Name"].startswith("cann::")]),
        ):
            events = sorted(
                [(_ns(r["Allocation Time(us)"]), round(float(r["Size(KB)"]) * 1024)) for r in rows]
                + [
                    (_ns(r["Release Time(us)"]), -round(float(r["Size(KB)"]) * 1024))
                    for r in rows
                    if r["Release Time(us)"]
                ]
            )
            mine = [r for r in records if r["Component"] == component]
            assert [_ns(r["Timestamp(us)"]) for r in mine] == [ts for ts, _ in events]
            level = _bytes(mine[0]["Total Allocated(MB)"]) - events[0][1]  # what was allocated before the profile
            for (_ts, delta), r in zip(events, mine):
                level += delta
                assert _bytes(r["Total Allocated(MB)"]) == level
                assert _bytes(r["Total Reserved(MB)"]) >= level
                if component == "PTA":
                    assert r["Total Active(MB)"] == r["Total Allocated(MB)"]
            reserved = [_bytes(r["Total Reserved(MB)"]) for r in mine]
            assert reserved == sorted(reserved)  # the caching allocator's pool never shrinks
            # each allocation's totals are the curve at its allocation and release
            at = {_ns(r["Timestamp(us)"]): r for r in mine}
            for r in rows:
                a = at[_ns(r["Allocation Time(us)"])]
                assert r["Allocation Total Allocated(MB)"] == a["Total Allocated(MB)"]
                assert r["Allocation Total Reserved(MB)"] == a["Total Reserved(MB)"]
                if r["Release Time(us)"]:
                    b = at[_ns(r["Release Time(us)"])]
                    assert r["Release Total Allocated(MB)"] == b["Total Allocated(MB)"]
        # PTA+GE follows every PTA / GE record with the sums (GE counts from its first record on)
        ge_alloc = ge_res = 0
        last = pta = None
        for r in records:
            if r["Component"] == "GE":
                ge_alloc, ge_res = _bytes(r["Total Allocated(MB)"]), _bytes(r["Total Reserved(MB)"])
            if r["Component"] in ("PTA", "GE"):
                last = r
                pta = r if r["Component"] == "PTA" else pta
            elif r["Component"] == "PTA+GE":
                assert last is not None and pta is not None and r["Timestamp(us)"] == last["Timestamp(us)"]
                assert _bytes(r["Total Allocated(MB)"]) == _bytes(pta["Total Allocated(MB)"]) + ge_alloc
                assert _bytes(r["Total Reserved(MB)"]) == _bytes(pta["Total Reserved(MB)"]) + ge_res
                assert r["Total Active(MB)"] == pta["Total Active(MB)"]
                last = None


def test_allocations_lie_inside_their_operators_spans_on_the_timeline(job):
    for rank_dir in job:
        out = _out(rank_dir)
        tr = Trace(out / "trace_view.json")
        python = [s for s in tr.of("Python") if s.get("cat") == "cpu_op"]
        device = tr.of("Ascend Hardware")
        _, op_mem = read_csv(out / "operator_memory.csv")
        released_inside = 0
        for r in op_mem:
            alloc, release = _ns(r["Allocation Time(us)"]), _ns(r["Release Time(us)"])
            if r["Name"].startswith("cann::"):  # GE: the kernel's span on the device
                kernel = r["Name"][len("cann::") :]
                assert any(s["name"] == kernel and s["start"] <= alloc <= release <= s["end"] for s in device), r
                continue
            owner = [s for s in python if s["name"] == r["Name"] and s["start"] <= alloc < s["end"]]
            assert owner, r
            if release is not None:
                assert alloc < release and any(s["start"] <= release < s["end"] for s in python), r
                released_inside += any(release < s["end"] for s in owner)
        assert released_inside  # workspaces freed inside their own op


def test_npu_module_mem_is_the_pools_of_the_run(job):
    for rank_dir in job:
        out = _out(rank_dir)
        _, modules = read_csv(out / "npu_module_mem.csv")
        _, records = read_csv(out / "memory_record.csv")
        pta = [(_ns(r["Timestamp(us)"]), _bytes(r["Total Reserved(MB)"])) for r in records if r["Component"] == "PTA"]
        ge = {_bytes(r["Total Reserved(MB)"]) for r in records if r["Component"] == "GE"}
        by = collections.defaultdict(list)
        for r in modules:
            by[r["Component"]].append((_ns(r["Timestamp(us)"]), _bytes(r["Total Reserved(MB)"])))
        for ts, value in by["APP"]:  # the caching allocator's pool
            before = [res for at, res in pta if at <= ts]
            if before:
                assert value == before[-1]
        assert len(by) == 77 and ge and {v for _, v in by["GE"]} == ge  # CANN's modules; GE's pool
        assert all(v > 0 for _, v in by["HCCL"]) and all(v > 0 for _, v in by["RUNTIME"])  # a 2-rank job's buffers
        assert all(v == 0 for m, vs in by.items() if m not in ("APP", "GE", "HCCL", "RUNTIME") for _, v in vs)


def test_the_database_export_holds_the_same_numbers(job):
    for rank, rank_dir in enumerate(job):
        out = _out(rank_dir)
        con = sqlite3.connect(f"file:{out / 'analysis.db'}?mode=ro", uri=True)
        _, steps = read_csv(out / "step_trace_time.csv")
        got = con.execute("SELECT step, computing, overlapped, stage, bubble, preparing FROM StepTraceTime").fetchall()
        assert got == [
            (r["Step"], *(float(r[c]) for c in ("Computing", "Overlapped", "Stage", "Bubble", "Preparing")))
            for r in steps
        ]
        doc = _json(out / "communication.json")
        times = con.execute(
            "SELECT hccl_op_name, group_name, start_timestamp, elapse_time, wait_time, step, type FROM CommAnalyzerTime"
        ).fetchall()
        assert times == [
            (k.split("@")[0], k.split("@")[1], v["Communication Time Info"]["Start Timestamp(us)"])
            + (
                v["Communication Time Info"]["Elapse Time(ms)"],
                v["Communication Time Info"]["Wait Time(ms)"],
                step,
                kind,
            )
            for step, kinds in doc.items()
            for kind, ops in kinds.items()
            for k, v in ops.items()
            if k != "Total Op Info"
        ]
        matrix = _json(out / "communication_matrix.json")
        links = con.execute(
            "SELECT hccl_op_name, src_rank, dst_rank, transport_type, bandwidth, step, type, op_name "
            "FROM CommAnalyzerMatrix"
        ).fetchall()
        assert links == [
            (key.split("@")[0], int(link.split("-")[0]), int(link.split("-")[1]), e["Transport Type"])
            + (e["Bandwidth(GB/s)"], step, kind, e.get("Op Name"))
            for step, kinds in matrix.items()
            for kind, groups in kinds.items()
            for key, ls in groups.items()
            for link, e in ls.items()
        ]
        bw = con.execute(
            "SELECT sum(count) FROM CommAnalyzerBandwidth WHERE transport_type = 'HCCS' AND count IS NOT NULL"
        ).fetchone()[0]
        assert bw == sum(
            c
            for kinds in doc.values()
            for ops in kinds.values()
            for k, v in ops.items()
            if k != "Total Op Info"
            for c, _ in v["Communication Bandwidth Info"]["HCCS"]["Size Distribution"].values()
        )
        # the memory tables hold the operator_memory rows, NULL where a cell is empty
        db = sqlite3.connect(f"file:{out / f'ascend_pytorch_profiler_{rank}.db'}?mode=ro", uri=True)
        _, op_mem = read_csv(out / "operator_memory.csv")
        got = db.execute("SELECT allocationTime, releaseTime FROM OP_MEMORY").fetchall()
        assert got == [(_ns(r["Allocation Time(us)"]), _ns(r["Release Time(us)"])) for r in op_mem]


# ---- jobs, determinism ------------------------------------------------------------------------------------


def _tiny() -> Workload:
    t = Tensor((64, 256), "FLOAT16", "ND")
    ops = (
        Op("aclnnMm_MatMulV3Common_MatMulV3", "MatMulV3", (t, Tensor((256, 256), "FLOAT16", "ND")), (t,), "AI_CORE"),
        Op("aclnnAdd_AddAiCore_Add", "Add", (t, t), (t,), "AI_VECTOR_CORE"),
        Op("aclnnRelu_ReluAiCore_Relu", "Relu", (t,), (t,), "AI_VECTOR_CORE"),
        Op("aclnnMul_MulAiCore_Mul", "Mul", (t, t), (t,), "AI_VECTOR_CORE"),
    )
    return Workload("tiny", ops, "ops")


def test_an_eight_rank_job_links_every_rank(tmp_path):
    roots = write_torch_npu_job(tmp_path, data_parallel(_tiny(), bucket_elements=1 << 16), 8, steps=1)
    assert len({p.name for p in roots}) == 8
    src, dst = set(), set()
    for rank, root in enumerate(roots):
        assert (root / f"profiler_info_{rank}.json").is_file()
        matrix = _json(_out(root) / "communication_matrix.json")
        for kinds in matrix.values():
            for groups in kinds.values():
                for key, links in groups.items():
                    if "-total@" in key:
                        for link in links:
                            a, b = (int(x) for x in link.split("-"))
                            assert a == rank  # each rank's file holds its own links
                            src.add(a)
                            dst.add(b)
        # 8 ranks: two planes, to the ring neighbours
        planes = {
            int(name.split()[1])
            for (_pid, _tid), name in Trace(_out(root) / "trace_view.json").threads.items()
            if name.startswith("Plane ")
        }
        assert planes == {0, 1}
    assert src == dst == set(range(8))


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_seed_same_bytes(tmp_path):
    write = lambda out, seed: write_torch_npu_job(out, _workload(), 2, steps=1, seed=seed, export_type="Text+Db")  # noqa: E731
    a, b, c = write(tmp_path / "a", 3), write(tmp_path / "b", 3), write(tmp_path / "c", 4)
    assert [p.name for p in a] == [p.name for p in b]
    for pa, pb in zip(a, b):
        ta = _tree(pa)
        assert {
            f"ASCEND_PROFILER_OUTPUT/{n}" for n in (*MEMORY_CSVS, "communication.json", "communication_matrix.json")
        } <= set(ta)
        assert ta == _tree(pb)
    assert (
        _tree(c[0])["ASCEND_PROFILER_OUTPUT/communication.json"]
        != _tree(a[0])["ASCEND_PROFILER_OUTPUT/communication.json"]
    )


def test_only_level1_and_level2_write_the_communication_analysis(tmp_path):
    """torch_npu writes communication(_matrix).json at Level1 / Level2 only; the memory and step files always."""
    for level in ("Level0", "Level1", "Level2"):
        (root,) = write_torch_npu_job(tmp_path / level, _workload(), 2, steps=1, ranks=[1], profiler_level=level)
        names = {p.name for p in _out(root).iterdir()}
        comm = {"communication.json", "communication_matrix.json"}
        assert (comm <= names) == (level != "Level0") and not (comm & names and level == "Level0"), level
        assert {"memory_record.csv", "operator_memory.csv", "npu_module_mem.csv", "step_trace_time.csv"} <= names


# ---- the workbench reads them ------------------------------------------------------------------------------


def test_the_workbench_shows_the_numbers_written(job):
    from workbench.core.profiling.build import open_report
    from workbench.core.profiling.comm import communication_view
    from workbench.core.profiling.memory import memory_view
    from workbench.core.profiling.steps import step_breakdown

    report = open_report(job[0].parent, use_cache=False)
    view = communication_view(report)
    assert view is not None and view.warnings == []
    for rank, rank_dir in enumerate(job):
        doc = _json(_out(rank_dir) / "communication.json")
        ops = view.ops[view.ops["rank"] == rank]
        want = sorted(
            (
                int(step[4:]),
                k,
                v["Communication Time Info"]["Elapse Time(ms)"],
                v["Communication Time Info"]["Wait Time(ms)"],
            )
            for step, kinds in doc.items()
            for ops_ in kinds.values()
            for k, v in ops_.items()
            if k != "Total Op Info"
        )
        got = sorted(zip(ops["step"].astype(int), ops["op"].astype(str), ops["elapse_ms"], ops["wait_ms"]))
        assert got == want
        bw = view.bandwidth[(view.bandwidth["rank"] == rank) & (view.bandwidth["transport"] == "HCCS")]
        assert sorted(bw["bandwidth_gbs"]) == sorted(
            v["Communication Bandwidth Info"]["HCCS"]["Bandwidth(GB/s)"]
            for kinds in doc.values()
            for ops_ in kinds.values()
            for k, v in ops_.items()
            if k != "Total Op Info"
        )
        matrix = _json(_out(rank_dir) / "communication_matrix.json")
        links = view.matrix[view.matrix["rank"] == rank]
        assert len(links) == sum(len(ls) for kinds in matrix.values() for g in kinds.values() for ls in g.values())
    frame = step_breakdown(report)
    for rank_dir in job:
        _, rows = read_csv(_out(rank_dir) / "step_trace_time.csv")
        for r in rows:
            mine = frame[(frame["step"] == int(r["Step"])) & (frame["stage_us"] == float(r["Stage"]))]
            assert len(mine) == 1 and mine["bubble_us"].iloc[0] == float(r["Bubble"])
            assert mine["computing_us"].iloc[0] == float(r["Computing"])
    memory = memory_view(report)
    assert memory is not None
    for rank, rank_dir in enumerate(job):
        _, records = read_csv(_out(rank_dir) / "memory_record.csv")
        want = [float(r["Total Allocated(MB)"]) for r in records if r["Component"] == "PTA"]
        _ts, values = memory.curve(f"PTA (NPU:{rank})", "allocated")
        assert list(values) == want
        peak = memory.peak(f"PTA (NPU:{rank})", "allocated")
        assert peak is not None and peak.value_mb == max(want)


def test_the_demo_project_opens_a_two_rank_run_with_every_view(tmp_path):
    """A first start (nothing configured) copies the shipped samples into the demo project: its torch_npu
    report is rank 0 of a 2-rank job with the memory, step and communication files, and they show."""
    from workbench.core import demo
    from workbench.core.profiling.build import open_report
    from workbench.core.profiling.comm import communication_view
    from workbench.core.profiling.memory import memory_view
    from workbench.core.profiling.steps import step_breakdown

    _project, reports = demo.ensure_demo_project()
    torch = [p for p in reports if p.name.endswith("_ascend_pt")]
    assert len(torch) == 1
    (root,) = torch
    assert (root / "profiler_info_0.json").is_file()
    names = {p.name for p in _out(root).iterdir()}
    assert {*MEMORY_CSVS, "communication.json", "communication_matrix.json", "trace_view.json"} <= names
    report = open_report(root, use_cache=False)
    comm = communication_view(report)
    assert comm is not None and len(comm.ops) and set(comm.matrix["dst"].astype(int)) == {0, 1}
    assert {"p2p", "collective"} <= set(comm.ops["kind"].astype(str))
    steps = step_breakdown(report)
    assert steps is not None and (steps["stage_us"] > 0).all() and (steps["overlapped_us"] > 0).all()
    memory = memory_view(report)
    assert memory is not None and {"PTA", "GE", "APP"} <= set(memory.components) and len(memory.operators)
    with open(_out(root) / "step_trace_time.csv", newline="", encoding="utf-8") as fh:
        assert next(csv.reader(fh))[0] == "Step"
