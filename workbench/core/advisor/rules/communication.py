"""Advisor rules: communication (see the package docstring). Each rule: a RuleText in TEXTS and a check
registered with @rule.

- ``communication.not_overlapped``: per step, ``Communication(Not Overlapped)`` against the step's device
  time (Computing + Not Overlapped + Free: what the Overlap Analysis lanes cover, the real sample's
  Stage); step_trace_time where the report has it, else the timeline's lanes. From 20 %.
- ``communication.small_packets``: msprof-analyze's packet rule on communication.json: an operator's
  SDMA transit size under 16 MB (RDMA: 1 MB) is a small packet; more than 20 % of the operators with a
  transfer small is the finding. (The files' ``Large Packet Ratio`` is 0 even for 264 MB SDMA transfers
  in the real sample, so it is quoted, not judged.)
- ``communication.byte_alignment``: msprof-analyze's byte-alignment rule on the small HCCL tasks of the
  timeline's Communication lanes: an SDMA Memcpy / Reduce_Inline not ON_CHIP moving more than 512 bytes
  whose size is not a multiple of 512 makes its operator unaligned.
- ``communication.slow_transport``: an operator whose transit bandwidth on a transport is under 80 % of
  what that transport is expected to give (HCCS / SDMA 18 GB/s: msprof-analyze's ``sdma_baseline``; RDMA
  12.5 GB/s, one 100 Gb/s port: chosen), among the operators large enough not to be small packets.
- ``communication.bandwidth_contention``: msprof-analyze's bandwidth-contention rule: an operator with an
  SDMA transfer that runs while a MatMul task computes (an OPs row whose name holds "matmul") and whose
  SDMA bandwidth is under 80 % of 18 GB/s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from workbench.core.advisor.model import Evidence, Fact, Finding, RuleText, Severity, count, ms, pct, rule

NOT_OVERLAPPED_SHARE = 0.20
SMALL_MB = {"SDMA": 16.0, "RDMA": 1.0}  # msprof-analyze packet.yaml: min_sdma_size 16, min_rdma_size 1 (MB)
SMALL_RATIO = 0.2  # msprof-analyze: min_sdma_ratio / min_rdma_ratio
ALIGN_BYTES = 512  # msprof-analyze ByteAlignmentChecker: _BASE_SIZE, _MIN_SIZE
ALIGN_KINDS = ("Memcpy", "Reduce_Inline")
EXPECTED_GBS = {"HCCS": 18.0, "SDMA": 18.0, "RDMA": 12.5}
SLOW_FRACTION = 0.8  # msprof-analyze bandwidth_contention: threshold 0.8 of the baseline
TOP = 5
TOLERANCE_NS = 1_000  # communication.json's start (µs, shortest float text) against the trace's

TEXTS: dict[str, RuleText] = {
    "communication.not_overlapped": RuleText(
        title="Communication not overlapped with computation takes {share} of the step ({time})",
        advice=(
            "The device waits for communication. Overlap it with computation: bucket gradients so their "
            "AllReduce starts during the backward pass, prefetch parameters (ZeRO / FSDP), use the "
            "communication-computation fusion operators, and reduce the communication volume (larger "
            "data-parallel groups only where the links allow it)."
        ),
        facts={
            "time": "Communication not overlapped",
            "share": "Share of the step",
            "communication": "All communication",
            "overlapped": "Overlapped with computation",
            "source": "Read from",
        },
    ),
    "communication.small_packets": RuleText(
        title="{share} of the {transport} communication operators move less than {limit} each",
        advice=(
            "Many small transfers make the host launch bottleneck and waste the link. In data parallelism "
            "increase the batch size or the gradient accumulation and the gradient bucket size; with ZeRO-3 "
            "consider ZeRO-2/1 if memory allows; use the affinity optimisers and fused operators that "
            "issue fewer communication operators."
        ),
        facts={
            "ops": "Operators with a {transport} transfer",
            "small": "Smaller than {limit}",
            "share": "Share of small operators (msprof-analyze flags 20 %)",
            "time": "Transit time of the small operators",
        },
    ),
    "communication.byte_alignment": RuleText(
        title="{count} communication operators move data sizes not aligned to 512 bytes",
        advice=(
            "SDMA transfers whose size is not a multiple of 512 bytes run slower. Pad the tensors you "
            "communicate (or the bucket sizes) to multiples of 512 bytes; ask the HCCL engineers for the "
            "operator's data layout where it is not yours to change."
        ),
        facts={
            "ops": "Unaligned operators",
            "tasks": "Unaligned transfers",
            "time": "Time of the unaligned transfers",
            "share": "Share of the SDMA transfer time",
        },
    ),
    "communication.bandwidth_contention": RuleText(
        title="{count} communication operators reach less than {limit} while MatMul runs beside them",
        advice=(
            "Computation and communication share the memory bandwidth. Compare a run with the overlap "
            "switched off (or the communication moved) to see whether the overlap still pays; where it does "
            "not, schedule the communication next to lighter operators."
        ),
        facts={
            "ops": "Operators below the limit",
            "slowest": "Slowest operator",
            "matmul": "MatMul tasks running beside them",
        },
    ),
    "communication.slow_transport": RuleText(
        title="{count} communication operators reach less than {limit} on {transport}",
        advice=(
            "The link runs under what it should give. Check for bandwidth contention with concurrent "
            "computation, the placement of the ranks (HCCS inside a server, RDMA between them), the NIC "
            "and switch configuration for RDMA, and compare with a run of the same operators alone."
        ),
        facts={
            "ops": "Slow operators",
            "expected": "Expected bandwidth of {transport}",
            "slowest": "Slowest operator",
            "median": "Median bandwidth of the large operators",
        },
    ),
}


def _number(frame: pd.DataFrame, column: str) -> np.ndarray:
    return pd.to_numeric(frame[column], errors="coerce").fillna(0.0).to_numpy(dtype=np.float64)


def _mb(value: float) -> str:
    return f"{value:.3f} MB"


def _gbs(value: float) -> str:
    return f"{value:.2f} GB/s"


def _op_slice(subject: Any, op: str, start_ns: Any) -> Evidence | None:
    """The operator's slice on a Communication lane of the timeline (its group lane), if there is one:
    the slice of its name running at its start."""
    tl = subject.report.timeline
    if tl is None or start_ns is None or pd.isna(start_ns):
        return None
    name = op.split("@")[0]
    ids = [i for i, n in enumerate(tl.names) if n == name]
    lanes = [ln.index for ln in tl.lanes if ln.process_name == "Communication"]
    if not ids or not lanes:
        return None
    hits = np.flatnonzero(np.isin(np.asarray(tl.name_id), ids) & np.isin(np.asarray(tl.lane), lanes))
    t = int(start_ns) - int(tl.origin_ns)
    start = np.asarray(tl.start_ns, dtype=np.int64)[hits]
    end = start + np.asarray(tl.dur_ns, dtype=np.int64)[hits]
    inside = hits[(start - TOLERANCE_NS <= t) & (t <= end)]
    if not len(inside):
        return None
    i = int(inside[np.argmin(np.abs(np.asarray(tl.start_ns, dtype=np.int64)[inside] - t))])
    lane = tl.lanes[int(tl.lane[i])]
    return Evidence(
        kind="slice",
        label=tl.name(i),
        lane=f"{lane.process_name} · {lane.thread_name or lane.tid}",
        device=lane.device,
        start_ns=int(tl.origin_ns) + int(tl.start_ns[i]),
        dur_ns=int(tl.dur_ns[i]),
    )


def _op_starts(subject: Any) -> dict[tuple[str, str], Any]:
    """(step, op) -> the operator's start (epoch ns) from the communication table."""
    comm = subject.table("communication")
    if comm is None or not len(comm) or "start_ns" not in comm:
        return {}
    return {(str(s), str(o)): t for s, o, t in zip(comm["step"], comm["op"], comm["start_ns"])}


# --- not overlapped -------------------------------------------------------------------------------------


@rule("communication.not_overlapped", "communication", TEXTS["communication.not_overlapped"])
def not_overlapped(subject: Any) -> Iterable[Finding]:
    from workbench.core.profiling import steps

    frame = steps.step_breakdown(subject.report)
    if frame is None or not len(frame):
        return
    comp = _number(frame, "computing_us")
    nov = _number(frame, "communication_not_overlapped_us")
    free = _number(frame, "free_us")
    comm = _number(frame, "communication_us")
    whole = comp + nov + free
    total_us, nov_us = float(whole.sum()), float(nov.sum())
    share = nov_us / total_us if total_us else 0.0
    if share < NOT_OVERLAPPED_SHARE or nov_us <= 0:
        return
    evidence = []
    order = np.argsort(-nov, kind="stable")
    for k in order[:TOP]:
        step = frame["step"].iloc[k]
        evidence.append(
            Evidence(
                kind="step",
                label=f"step {step}",
                table="step_trace_time" if frame["source"].iloc[k] == "step_trace_time" else None,
                row=int(k),
                values={
                    "step": None if pd.isna(step) else str(step),
                    "not_overlapped_us": float(nov[k]),
                    "step_us": float(whole[k]),
                },
            )
        )
    evidence += _not_overlapped_slices(subject)
    yield Finding(
        rule="communication.not_overlapped",
        category="communication",
        severity=Severity.HIGH if share >= 0.5 else Severity.MEDIUM if share >= 0.35 else Severity.LOW,
        args={"share": pct(share), "time": ms(nov_us * 1000)},
        facts=(
            Fact("time", ms(nov_us * 1000)),
            Fact("share", pct(share)),
            Fact("communication", ms(float(comm.sum()) * 1000)),
            Fact("overlapped", ms(float((comm - nov).sum()) * 1000)),
            Fact("source", str(frame["source"].iloc[0])),
        ),
        evidence=tuple(evidence),
    )


def _not_overlapped_slices(subject: Any) -> list[Evidence]:
    """The longest slices of the timeline's Overlap Analysis ``Communication(Not Overlapped)`` lane."""
    tl = subject.report.timeline
    if tl is None:
        return []
    lanes = [
        ln
        for ln in tl.lanes
        if ln.process_name == "Overlap Analysis" and ln.thread_name == "Communication(Not Overlapped)"
    ]
    out: list[Evidence] = []
    for lane in lanes:
        part = tl.lane_slices(lane.index)
        durs = np.asarray(tl.dur_ns[part], dtype=np.int64)
        for k in np.argsort(-durs, kind="stable")[:TOP]:
            i = part.start + int(k)
            out.append(
                Evidence(
                    kind="slice",
                    label=tl.name(i),
                    lane=f"{lane.process_name} · {lane.thread_name}",
                    device=lane.device,
                    start_ns=int(tl.origin_ns) + int(tl.start_ns[i]),
                    dur_ns=int(tl.dur_ns[i]),
                )
            )
    return out


def _bandwidth_evidence(
    subject: Any,
    starts: dict[tuple[str, str], Any],
    picked: pd.DataFrame,
    key: np.ndarray,
    values: dict[str, np.ndarray | str],
) -> list[Evidence]:
    """The TOP rows of ``picked`` (communication_bandwidth rows) by ``key``, smallest first: each its row
    (its step, then ``values``: a text as it is, an array (one per row of ``picked``) its row's number) and
    its operator's slice on the timeline."""
    evidence: list[Evidence] = []
    for pos in np.argsort(key, kind="stable")[:TOP]:
        k = int(pos)
        row = picked.iloc[k]
        evidence.append(
            Evidence(
                kind="row",
                label=str(row["op"]).split("@")[0],
                table="communication_bandwidth",
                row=int(picked.index[k]),
                values={
                    "step": str(row["step"]),
                    **{name: v if isinstance(v, str) else float(v[k]) for name, v in values.items()},
                },
            )
        )
        found = _op_slice(subject, str(row["op"]), starts.get((str(row["step"]), str(row["op"]))))
        if found is not None:
            evidence.append(found)
    return evidence


# --- small packets -------------------------------------------------------------------------------------


@rule("communication.small_packets", "communication", TEXTS["communication.small_packets"])
def small_packets(subject: Any) -> Iterable[Finding]:
    bw = subject.table("communication_bandwidth")
    if bw is None or not len(bw):
        return
    ops = bw[~bw["total"].astype(bool)] if "total" in bw else bw
    starts = _op_starts(subject)
    for transport, limit in SMALL_MB.items():
        rows = ops[ops["transport"].astype(str) == transport]
        size = _number(rows, "size_mb")
        have = size > 0
        rows, size = rows[have], size[have]
        if not len(rows):
            continue
        small = size < limit
        ratio = float(small.mean())
        if ratio <= SMALL_RATIO:
            continue
        time = _number(rows, "time_ms")
        evidence = _bandwidth_evidence(
            subject, starts, rows[small], size[small], {"size_mb": size[small], "transport": transport}
        )
        args = {"share": pct(ratio), "transport": transport, "limit": _mb(limit)}
        facts = [
            Fact("ops", count(len(rows)), {"transport": transport}),
            Fact("small", count(int(small.sum())), {"limit": _mb(limit)}),
            Fact("share", pct(ratio)),
            Fact("time", ms(float(time[small].sum()) * 1e6)),
        ]
        yield Finding(
            rule="communication.small_packets",
            category="communication",
            severity=Severity.HIGH if ratio >= 0.7 else Severity.MEDIUM if ratio >= 0.4 else Severity.LOW,
            args=args,
            facts=tuple(facts),
            evidence=tuple(evidence),
            evidence_total=int(small.sum()),
        )


# --- byte alignment ------------------------------------------------------------------------------------


@rule("communication.byte_alignment", "communication", TEXTS["communication.byte_alignment"])
def byte_alignment(subject: Any) -> Iterable[Finding]:
    tl = subject.report.timeline
    if tl is None:
        return
    comm_lanes = [ln for ln in tl.lanes if ln.process_name == "Communication"]
    plane_lanes = [ln for ln in comm_lanes if str(ln.thread_name).startswith("Plane")]
    op_lanes = [ln for ln in comm_lanes if ln not in plane_lanes]
    if not plane_lanes:
        return
    kinds = {i for i, n in enumerate(tl.names) if n in ALIGN_KINDS}
    if not kinds:
        return
    # the operators: slices of the group lanes, by start, to find the one holding a small task
    op_idx = (
        np.concatenate([np.arange(tl.lane_slices(ln.index).start, tl.lane_slices(ln.index).stop) for ln in op_lanes])
        if op_lanes
        else np.zeros(0, np.int64)
    )
    op_idx = op_idx[np.argsort(np.asarray(tl.start_ns)[op_idx], kind="stable")] if len(op_idx) else op_idx
    op_start = np.asarray(tl.start_ns, dtype=np.int64)[op_idx]
    op_end = op_start + np.asarray(tl.dur_ns, dtype=np.int64)[op_idx]
    total_ns = bad_ns = 0
    bad_tasks = 0
    bad_ops: dict[int, int] = {}  # op slice -> unaligned transfer time
    name_id = np.asarray(tl.name_id)
    for ln in plane_lanes:
        part = tl.lane_slices(ln.index)
        for i in range(part.start, part.stop):
            if int(name_id[i]) not in kinds:
                continue
            args = tl.args(i)
            size = args.get("size(Byte)")
            if (
                str(args.get("transport type", "")) != "SDMA"
                or str(args.get("link type", "")) == "ON_CHIP"
                or not isinstance(size, (int, float))
                or size <= ALIGN_BYTES
            ):
                continue
            dur = int(tl.dur_ns[i])
            total_ns += dur
            if int(size) % ALIGN_BYTES:
                bad_ns += dur
                bad_tasks += 1
                k = int(np.searchsorted(op_start, int(tl.start_ns[i]), side="right")) - 1
                key = int(op_idx[k]) if k >= 0 and op_end[k] >= int(tl.start_ns[i]) else -1
                bad_ops[key] = bad_ops.get(key, 0) + dur
    if not bad_tasks:
        return
    share = bad_ns / total_ns if total_ns else 0.0
    evidence = []
    for i, dur in sorted(bad_ops.items(), key=lambda kv: -kv[1])[:TOP]:
        if i < 0:
            continue
        lane = tl.lanes[int(tl.lane[i])]
        evidence.append(
            Evidence(
                kind="slice",
                label=tl.name(i),
                lane=f"{lane.process_name} · {lane.thread_name or lane.tid}",
                device=lane.device,
                start_ns=int(tl.origin_ns) + int(tl.start_ns[i]),
                dur_ns=int(tl.dur_ns[i]),
                values={"unaligned_ns": dur},
            )
        )
    n_ops = len(bad_ops)
    yield Finding(
        rule="communication.byte_alignment",
        category="communication",
        severity=Severity.HIGH if share >= 0.7 else Severity.MEDIUM if share >= 0.2 else Severity.LOW,
        args={"count": count(n_ops)},
        facts=(
            Fact("ops", count(n_ops)),
            Fact("tasks", count(bad_tasks)),
            Fact("time", ms(bad_ns)),
            Fact("share", pct(share)),
        ),
        evidence=tuple(evidence),
        evidence_total=n_ops,
    )


# --- slow transport ------------------------------------------------------------------------------------


@rule("communication.slow_transport", "communication", TEXTS["communication.slow_transport"])
def slow_transport(subject: Any) -> Iterable[Finding]:
    bw = subject.table("communication_bandwidth")
    if bw is None or not len(bw):
        return
    ops = bw[~bw["total"].astype(bool)] if "total" in bw else bw
    starts = _op_starts(subject)
    for transport, expected in EXPECTED_GBS.items():
        if transport == "SDMA" and (ops["transport"].astype(str) == "HCCS").any():
            continue  # SDMA sums the HCCS (and PCIE / SIO) transfers of the same operators: judged once
        rows = ops[ops["transport"].astype(str) == transport]
        size = _number(rows, "size_mb")
        limit_mb = SMALL_MB["RDMA" if transport == "RDMA" else "SDMA"]
        big = size >= limit_mb
        rows, size = rows[big], size[big]
        if not len(rows):
            continue
        rate = _number(rows, "bandwidth_gbs")
        slow = rate < expected * SLOW_FRACTION
        if not slow.any():
            continue
        evidence = _bandwidth_evidence(
            subject,
            starts,
            rows[slow],
            rate[slow],
            {"transport": transport, "bandwidth_gbs": rate[slow], "size_mb": size[slow]},
        )
        worst = float(rate[slow].min())
        n = int(slow.sum())
        share = n / len(rows)
        yield Finding(
            rule="communication.slow_transport",
            category="communication",
            severity=Severity.MEDIUM if share >= 0.5 else Severity.LOW,
            args={"count": count(n), "limit": _gbs(expected * SLOW_FRACTION), "transport": transport},
            facts=(
                Fact("ops", f"{n} / {len(rows)}"),
                Fact("expected", _gbs(expected), {"transport": transport}),
                Fact("slowest", _gbs(worst)),
                Fact("median", _gbs(float(np.median(rate)))),
            ),
            evidence=tuple(evidence),
            evidence_total=n,
        )


# --- bandwidth contention ------------------------------------------------------------------------------


@rule("communication.bandwidth_contention", "communication", TEXTS["communication.bandwidth_contention"])
def bandwidth_contention(subject: Any) -> Iterable[Finding]:
    bw, comm, ops = subject.table("communication_bandwidth"), subject.table("communication"), subject.table("ops")
    if any(t is None or not len(t) for t in (bw, comm, ops)) or "start_ns" not in comm or "start_ns" not in ops:
        return
    sdma = bw[(~bw["total"].astype(bool)) & (bw["transport"].astype(str) == "SDMA")]
    sdma = sdma[_number(sdma, "size_mb") > 0]
    rate = {(str(s), str(o)): float(b) for s, o, b in zip(sdma["step"], sdma["op"], _number(sdma, "bandwidth_gbs"))}
    matmul = ops[ops["name"].astype(str).str.lower().str.contains("matmul")]
    if not rate or not len(matmul):
        return
    m_start = pd.to_numeric(matmul["start_ns"], errors="coerce").to_numpy(dtype=np.float64)
    m_end = m_start + _number(matmul, "duration_us") * 1000
    limit = EXPECTED_GBS["SDMA"] * SLOW_FRACTION
    slow: list[tuple[float, Any, int, list[int]]] = []  # (bandwidth, communication row, its index, matmul rows)
    for k in range(len(comm)):
        row = comm.iloc[k]
        if bool(row.get("total", False)) or pd.isna(row["start_ns"]):
            continue
        key = (str(row["step"]), str(row["op"]))
        if key not in rate or rate[key] >= limit:
            continue
        start = float(row["start_ns"])
        end = start + float(row["elapse_ms"]) * 1e6
        beside = np.flatnonzero((m_start <= end) & (m_end >= start))
        if len(beside):
            slow.append((rate[key], row, int(comm.index[k]), [int(matmul.index[j]) for j in beside]))
    if not slow:
        return
    slow.sort(key=lambda x: x[0])
    evidence: list[Evidence] = []
    for value, row, at, rows in slow[:TOP]:
        found = _op_slice(subject, str(row["op"]), row["start_ns"])
        if found is not None:
            evidence.append(dataclasses.replace(found, values={"bandwidth_gbs": value}))
        else:
            evidence.append(
                Evidence(
                    kind="row", label=str(row["name"]), table="communication", row=at, values={"bandwidth_gbs": value}
                )
            )
        first = ops.loc[rows[0]]
        evidence.append(
            Evidence(
                kind="op",
                label=str(first["name"]),
                table="ops",
                row=int(ops.index.get_loc(rows[0])),
                device=None if pd.isna(first.get("device")) else int(first["device"]),
                start_ns=int(first["start_ns"]),
                dur_ns=int(round(float(first["duration_us"]) * 1000)),
            )
        )
    n = len(slow)
    yield Finding(
        rule="communication.bandwidth_contention",
        category="communication",
        severity=Severity.MEDIUM if n >= 3 else Severity.LOW,
        args={"count": count(n), "limit": _gbs(limit)},
        facts=(
            Fact("ops", count(n)),
            Fact("slowest", _gbs(slow[0][0])),
            Fact("matmul", count(len({r for *_, rows in slow for r in rows}))),
        ),
        evidence=tuple(evidence),
        evidence_total=n,
    )
