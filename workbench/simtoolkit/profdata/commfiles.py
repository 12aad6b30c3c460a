"""``communication.json`` and ``communication_matrix.json`` of a torch_npu rank (docs/cann-formats.md §4.2),
computed from the rank's small communication tasks (:mod:`.hccl`) the way the tools do:

1. msprof's communication analysis (msparser ``cluster/communication_parser.py``,
   ``communication_matrix_parser.py``, ``meta_parser.py``), per operator: the time info from the master
   plane's tasks (Transit = its SDMA Memcpy / Reduce_Inline to other ranks, Wait = its Notify_Wait,
   Synchronization = the Notify_Waits before its first transfer, Elapse = its first start to its last end,
   Idle = Elapse - Transit - Wait, ratios wait / (wait + transit) and sync / (sync + transit) to 4
   decimals, Start Timestamp = the earliest task, µs); the bandwidth per transport (``RDMA, HCCS, PCIE,
   SDMA, SIO``) from every plane's transfers (by link type; SDMA = HCCS + PCIE + SIO; GB/s = MB / ms to 4
   decimals; Large Packet Ratio = the share of packets above 32 MB (0.5 MB for RDMA); ``Size
   Distribution`` ``{packet MB: [count, ms]}``, MB = 10^6 bytes); the matrix per operator and ``src-dst``
   link over every plane's transfers, the local copies included (``LOCAL``);
2. torch_npu's ``_communication_parser`` on top: the operators filed into the step whose window holds
   their start (``step<N>``), split into ``p2p`` (names starting ``hcom_send`` / ``hcom_receive`` /
   ``hcom_batchsendrecv``) and ``collective``, a ``Total Op Info`` per kind that has operators (times
   summed, ratios recomputed; per transport only time, size and distribution summed); the matrix per op
   type (the first of torch_npu's type words in the name), group and link: ``top1`` / ``middle`` /
   ``bottom1`` / ``total`` / ``bottom2`` / ``bottom3`` over the operators sorted by bandwidth, each entry
   with its ``Op Name``.

Floats are what those tools' arithmetic gives (ns / 10^6 summed in task order); the JSON is written with
``json.dumps`` defaults like the real files.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any

from .hccl import CommOp
from .overlap import Window

TRANSPORTS = ("RDMA", "HCCS", "PCIE", "SDMA", "SIO")
LARGE_PACKET_MB = {"RDMA": 0.5, "HCCS": 32, "PCIE": 32, "SIO": 32}
NS_TO_MS = 1_000_000
B_TO_MB = 1000**2
MB_TO_GB = 1000
MS_TO_S = 1000
HCCL_PATTERN = re.compile(
    r"send|reduce|invalid|broadcast|allreduce|receive|allgather|reducescatter|scatter|alltoall|alltoallv|"
    r"alltoallvc|batchsendrecv"
)
P2P_PREFIXES = ("hcom_send", "hcom_receive", "hcom_batchsendrecv")
TIME_INFO = "Communication Time Info"
BANDWIDTH_INFO = "Communication Bandwidth Info"


def op_key(op: CommOp) -> str:
    return f"{op.name}@{op.group}"


def _master(op: CommOp) -> list:
    return [c for c in op.tasks if c.plane == 0]


def time_info(op: CommOp) -> dict[str, Any]:
    """msprof's ``Communication Time Info`` of one operator."""
    d: dict[str, Any] = dict.fromkeys(
        (
            "Start Timestamp(us)",
            "Elapse Time(ms)",
            "Transit Time(ms)",
            "Wait Time(ms)",
            "Synchronization Time(ms)",
            "Idle Time(ms)",
            "Wait Time Ratio",
            "Synchronization Time Ratio",
        ),
        0,
    )
    master = _master(op)
    wait_flag = True
    for c in master:
        if c.transit:
            wait_flag = False
            d["Transit Time(ms)"] += c.dur_ns / NS_TO_MS
        if c.kind == "Notify_Wait":
            wait = c.dur_ns / NS_TO_MS
            if wait_flag:
                d["Synchronization Time(ms)"] += wait
            d["Wait Time(ms)"] += wait
    latest = max(master, key=lambda c: c.start_ns + c.dur_ns)
    earliest = min(master, key=lambda c: c.start_ns)
    d["Elapse Time(ms)"] = (latest.start_ns + latest.dur_ns - earliest.start_ns) / NS_TO_MS
    d["Idle Time(ms)"] = d["Elapse Time(ms)"] - d["Transit Time(ms)"] - d["Wait Time(ms)"]
    _ratios(d)
    d["Start Timestamp(us)"] = op.start_ns / 1000  # its text is exact: the schedule starts these on 500 ns
    return d


def _ratio(a: float, b: float) -> float | None:
    return None if b == 0 else round(a / b, 4)


def _ratios(d: dict[str, Any]) -> None:
    wait, transit, sync = d["Wait Time(ms)"], d["Transit Time(ms)"], d["Synchronization Time(ms)"]
    if (r := _ratio(wait, wait + transit)) is not None:
        d["Wait Time Ratio"] = r
    if (r := _ratio(sync, sync + transit)) is not None:
        d["Synchronization Time Ratio"] = r


def _bandwidth_type(link: str) -> str:
    return link if link in ("HCCS", "PCIE", "SIO") else "SDMA"


def bandwidth_info(op: CommOp) -> dict[str, dict[str, Any]]:
    """msprof's ``Communication Bandwidth Info`` of one operator (every plane)."""
    out: dict[str, dict[str, Any]] = {}
    for t in TRANSPORTS:
        out[t] = {"Transit Size(MB)": 0, "Transit Time(ms)": 0, "Bandwidth(GB/s)": 0, "Large Packet Ratio": 0}
        out[t]["Size Distribution"] = defaultdict(lambda: [0, 0])
    for plane in dict.fromkeys(c.plane for c in op.tasks):
        for c in (x for x in op.tasks if x.plane == plane):
            if not c.transit:
                continue
            kind = _bandwidth_type(c.link)
            size, dur = c.size / B_TO_MB, c.dur_ns / NS_TO_MS
            out[kind]["Transit Size(MB)"] += size
            out[kind]["Transit Time(ms)"] += dur
            out[kind]["Size Distribution"][size][0] += 1
            out[kind]["Size Distribution"][size][1] += dur
    for t in TRANSPORTS:
        info = out[t]
        if t == "SDMA":
            for part in ("HCCS", "PCIE", "SIO"):
                info["Transit Size(MB)"] += out[part]["Transit Size(MB)"]
                info["Transit Time(ms)"] += out[part]["Transit Time(ms)"]
        if info["Transit Time(ms)"] != 0:
            info["Bandwidth(GB/s)"] = round(
                (info["Transit Size(MB)"] / MB_TO_GB) / (info["Transit Time(ms)"] / MS_TO_S), 4
            )
        if t == "SDMA":
            continue
        packets = sum(v[0] for v in info["Size Distribution"].values())
        large = sum(v[0] for k, v in info["Size Distribution"].items() if k > LARGE_PACKET_MB[t])
        if packets:
            info["Large Packet Ratio"] = round(large / packets, 4)
    return out


def op_links(op: CommOp) -> dict[str, dict[str, Any]]:
    """msprof's matrix entry of one operator: per ``src-dst`` link its transport, size, time, bandwidth."""
    acc: dict[str, list] = {}
    for plane in dict.fromkeys(c.plane for c in op.tasks):
        for c in (x for x in op.tasks if x.plane == plane):
            if c.transport != "SDMA" or c.kind not in ("Memcpy", "Reduce_Inline"):
                continue
            got = acc.setdefault(f"{c.src_rank}-{c.dst_rank}", ["", 0, 0])
            got[0] = "LOCAL" if c.link == "ON_CHIP" else c.link
            got[1] += c.size / B_TO_MB
            got[2] += c.dur_ns / NS_TO_MS
    return {
        link: {
            "Transport Type": kind,
            "Transit Size(MB)": size,
            "Transit Time(ms)": time,
            "Bandwidth(GB/s)": round(size / time, 4) if time else 0,
        }
        for link, (kind, size, time) in acc.items()
    }


def _step_key(step: int | None) -> str:
    return f"step{step}" if step is not None else "step"


def _by_step(ops: list[CommOp], windows: list[Window]) -> list[tuple[str, list[CommOp]]]:
    """torch_npu's split: every step of the run (in order) with the operators whose start it holds."""
    if not windows:
        return [("step", list(ops))]
    steps: list[tuple[str, list[CommOp]]] = [(_step_key(w[0]), []) for w in windows]
    for op in ops:
        start = op.start_ns
        for i, (_step, lo, hi, _fwk) in enumerate(windows):
            if lo <= start <= hi:
                steps[i][1].append(op)
                break
    return steps


def _kind(name: str) -> str | None:
    lower = name.lower()
    if lower.startswith(P2P_PREFIXES):
        return "p2p"
    return None if lower.startswith("total") else "collective"


def _total(entries: dict[str, dict]) -> dict[str, Any]:
    """torch_npu's ``Total Op Info`` of one kind."""
    times: dict[str, Any] = defaultdict(float)
    bands: dict[str, dict[str, Any]] = {}
    for info in entries.values():
        for key, value in info[TIME_INFO].items():
            if key not in ("Wait Time Ratio", "Synchronization Time Ratio", "Start Timestamp(us)"):
                times[key] += value
        for transport, part in info[BANDWIDTH_INFO].items():
            if transport not in bands:
                bands[transport] = {"Transit Time(ms)": 0, "Transit Size(MB)": 0}
                bands[transport]["Size Distribution"] = defaultdict(lambda: [0, 0])
            for key, value in part.items():
                if key in ("Transit Time(ms)", "Transit Size(MB)"):
                    bands[transport][key] += value
                if key == "Size Distribution":
                    for size, (count, dur) in value.items():
                        bands[transport][key][size][0] += count
                        bands[transport][key][size][1] += dur

    def ratio(a: float, b: float) -> float:
        return 0 if abs(b) < 1e-15 else round(a / b, 4)

    times["Wait Time Ratio"] = ratio(times["Wait Time(ms)"], times["Wait Time(ms)"] + times["Transit Time(ms)"])
    times["Synchronization Time Ratio"] = ratio(
        times["Synchronization Time(ms)"], times["Transit Time(ms)"] + times["Synchronization Time(ms)"]
    )
    return {TIME_INFO: times, BANDWIDTH_INFO: bands}


def communication(ops: list[CommOp], windows: list[Window]) -> dict[str, Any]:
    """The content of communication.json."""
    out: dict[str, Any] = {}
    for step, mine in _by_step(ops, windows):
        kinds: dict[str, dict[str, Any]] = {"p2p": {}, "collective": {}}
        for op in mine:
            kind = _kind(op_key(op))
            if kind is not None:
                kinds[kind][op_key(op)] = {TIME_INFO: time_info(op), BANDWIDTH_INFO: bandwidth_info(op)}
        for entries in kinds.values():
            if entries:
                entries["Total Op Info"] = _total(entries)
        out[step] = kinds
    return out


def _integrate(per_op: dict[str, dict[str, dict]]) -> dict[str, dict]:
    """torch_npu's matrix of one kind: per (type, group, link) top1 / middle / bottom1 / total / bottom2 / bottom3."""
    grouped: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for key, links in per_op.items():
        m = HCCL_PATTERN.search(key.lower())
        op_type = m.group() if m else key.split("__")[0]
        for link, entry in links.items():
            entry["Op Name"] = key.split("@")[0]
            grouped[(op_type, key.split("@")[-1], link)].append(entry)
    out: dict[str, dict] = defaultdict(dict)
    for (op_type, group, link), data in grouped.items():
        data.sort(key=lambda x: x["Bandwidth(GB/s)"], reverse=True)
        size = sum(x["Transit Size(MB)"] for x in data)
        time = sum(x["Transit Time(ms)"] for x in data)
        out[f"{op_type}-top1@{group}"][link] = data[0]
        out[f"{op_type}-middle@{group}"][link] = data[len(data) // 2]
        out[f"{op_type}-bottom1@{group}"][link] = data[-1]
        out[f"{op_type}-total@{group}"][link] = {
            "Transport Type": data[0]["Transport Type"],
            "Transit Size(MB)": size,
            "Transit Time(ms)": time,
            "Bandwidth(GB/s)": 0 if abs(time) < 1e-15 else round(size / time, 4),
        }
        if len(data) >= 2:
            out[f"{op_type}-bottom2@{group}"][link] = data[-2]
        if len(data) >= 3:
            out[f"{op_type}-bottom3@{group}"][link] = data[-3]
    return dict(out)


def matrix(ops: list[CommOp], windows: list[Window]) -> dict[str, Any]:
    """The content of communication_matrix.json (only the steps that hold operators; ``"step"`` if none)."""
    split = _by_step(ops, windows)
    if not any(mine for _step, mine in split):
        split = [("step", list(ops))]
    out: dict[str, Any] = {}
    for step, mine in split:
        if not mine:
            continue
        kinds: dict[str, dict[str, dict]] = {"p2p": {}, "collective": {}}
        for op in mine:
            kind = _kind(op_key(op))
            if kind is not None:
                kinds[kind][op_key(op)] = op_links(op)
        out[step] = {kind: _integrate(per_op) for kind, per_op in kinds.items()}
    return out


def dumps(doc: dict) -> str:
    return json.dumps(doc)


# ---- analysis.db (the db form of the two files; columns docs/cann-formats.md §11, UNVERIFIED details) ----

TIME_COLUMNS = (
    "hccl_op_name",
    "group_name",
    "start_timestamp",
    "elapse_time",
    "transit_time",
    "wait_time",
    "synchronization_time",
    "idle_time",
    "step",
    "type",
)
BANDWIDTH_COLUMNS = (
    "hccl_op_name",
    "group_name",
    "transport_type",
    "transit_size",
    "transit_time",
    "bandwidth",
    "large_packet_ratio",
    "package_size",
    "count",
    "total_duration",
    "step",
    "type",
)
MATRIX_COLUMNS = (
    "hccl_op_name",
    "group_name",
    "src_rank",
    "dst_rank",
    "transport_type",
    "transit_size",
    "transit_time",
    "bandwidth",
    "step",
    "type",
    "op_name",
)


def analysis_rows(comm_doc: dict, matrix_doc: dict, *, producer: bool = False) -> dict[str, list[tuple]]:
    """CommAnalyzerTime / CommAnalyzerBandwidth / CommAnalyzerMatrix rows from the two files' content
    (the operators only, no ``Total Op Info``; one bandwidth row per transport and packet size).

    ``producer=True``: the layout torch_npu / msprof write (docs/cann-formats.md §11), which msprof-analyze's
    db mode reads: no row for a transport whose size, time, bandwidth and large-packet ratio are all 0, one
    ``0, 0, 0`` packet row for a transport without sizes, ``src_rank`` / ``dst_rank`` as text, ``''`` as the
    op name of a ``-total`` entry. The default keeps the simulator's own (every transport, NULL packet cells,
    integer ranks, NULL op name), which the workbench's db reader is tested against."""
    times: list[tuple] = []
    bands: list[tuple] = []
    for step, kinds in comm_doc.items():
        for kind, entries in kinds.items():
            for key, info in entries.items():
                if key == "Total Op Info":
                    continue
                name, group = key.split("@")[0], key.split("@")[-1]
                t = info[TIME_INFO]
                times.append(
                    (name, group, t["Start Timestamp(us)"], t["Elapse Time(ms)"], t["Transit Time(ms)"])
                    + (t["Wait Time(ms)"], t["Synchronization Time(ms)"], t["Idle Time(ms)"], step, kind)
                )
                for transport, b in info[BANDWIDTH_INFO].items():
                    base: tuple = (name, group, transport, b["Transit Size(MB)"], b["Transit Time(ms)"])
                    base += (b["Bandwidth(GB/s)"], b["Large Packet Ratio"])
                    if producer and not any(base[3:]):
                        continue  # msprof writes no row for a transport without traffic
                    dist = b["Size Distribution"] or ({0: [0, 0]} if producer else {None: [None, None]})
                    for size, (count, dur) in dist.items():
                        bands.append((*base, size, count, dur, step, kind))
    links: list[tuple] = []
    for step, kinds in matrix_doc.items():
        for kind, groups in kinds.items():
            for key, entries in groups.items():
                name, group = key.split("@")[0], key.split("@")[-1]
                for link, e in entries.items():
                    src_text, _, dst_text = link.partition("-")
                    src: int | str = src_text if producer else int(src_text)
                    dst: int | str = dst_text if producer else int(dst_text)
                    op_name = e.get("Op Name", "" if producer else None)
                    links.append(
                        (name, group, src, dst, e["Transport Type"], e["Transit Size(MB)"], e["Transit Time(ms)"])
                        + (e["Bandwidth(GB/s)"], step, kind, op_name)
                    )
    return {"CommAnalyzerTime": times, "CommAnalyzerBandwidth": bands, "CommAnalyzerMatrix": links}


__all__ = ["analysis_rows", "bandwidth_info", "communication", "dumps", "matrix", "op_links", "time_info"]
