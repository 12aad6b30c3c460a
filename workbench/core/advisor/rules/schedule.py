"""Advisor rules: schedule (see the package docstring). Each rule: a RuleText in TEXTS and a check
registered with @rule.

- ``schedule.device_idle``: per step, the time no device task runs between the step's first device task
  and its last (the union of the Ascend Hardware tasks: torch_npu's ``Free``); the largest gaps between
  consecutive tasks are the evidence (``lane`` items with the gap's start and length), and how much of
  the idle time host activity (Python operators, CANN API calls) was running says whether the host is
  the bottleneck. From 10 % of that time (msprof-analyze's free-time threshold); without a timeline,
  step_trace_time's ``Free``.
- ``schedule.dataloader``: slices named like a DataLoader (``enumerate(DataLoader)#...``, what
  msprof-analyze's dataloader rule matches: "dataloader" in the name) or ``GetNext`` (MindSpore / TF's
  iterator): one of 10 ms or more (msprof-analyze's threshold) or 10 % of the step time.
- ``schedule.recompile``: ``AscendCL@aclopCompileAndExecute`` (msprof-analyze's operator-dispatch rule,
  from 20 compilations) or any ``aclopCompile*`` host API: counts and time, from the timeline or
  api_statistic; also when they take 5 % of the step time.
- ``schedule.task_queue`` / ``schedule.launch_blocking`` / ``schedule.env_settings``: the environment
  variables profiler_metadata.json records (``ENV_VARIABLES``): TASK_QUEUE_ENABLE=0 (torch_npu's task
  queue off), ASCEND_LAUNCH_BLOCKING=1, and msprof-analyze's environment rule's other conditions
  (ASCEND_GLOBAL_LOG_LEVEL not 3, HCCL_RDMA_TC / HCCL_RDMA_SL / HCCL_ALGO set, ACLNN_CACHE_LIMIT empty or
  under 10000, HOST_CACHE_CAPACITY empty or 0, PYTORCH_NPU_ALLOC_CONF without expandable_segments:True).
- ``schedule.affinity_api``: msprof-analyze's affinity-API rule (rules/timeline_fusion_ops.yaml, the rules
  in force for CANN 8.0 / torch 2.1): a sequence of ``aten::`` / ``npu::`` operators on the Python lanes
  (in start order) that one fused torch_npu API replaces (``add-layer_norm`` -> npu_add_layer_norm), and
  the optimisers with a fused NPU version (``Optimizer.step#AdamW.step`` -> NpuFusedAdamW).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np

from workbench.core.advisor.model import Evidence, Fact, Finding, RuleText, Severity, count, ms, pct, rule

IDLE_SHARE = 0.10  # msprof-analyze: free time over 10 % of the end-to-end time
DATALOADER_NS = 10_000_000  # msprof-analyze: dataloader_duration_threshold 10000 us
DATALOADER_SHARE = 0.10
COMPILE_COUNT = 20  # msprof-analyze: MAX_OP_COMPILE_NUM
COMPILE_SHARE = 0.05
TOP = 5
OVERLAP = "Overlap Analysis"

TEXTS: dict[str, RuleText] = {
    "schedule.overview": RuleText(
        title="The steps take {e2e} end to end: computing {computing}, communication not overlapped "
        "{not_overlapped}, free {free}",
        advice=(
            "An overview of where the step time goes (msprof-analyze's end-to-end analysis): the other "
            "findings say what to change; the Steps tab shows each step's breakdown."
        ),
        facts={
            "e2e": "End-to-end time",
            "computing": "Computing",
            "not_overlapped": "Communication not overlapped",
            "free": "Free",
            "steps": "Steps",
        },
    ),
    "schedule.device_idle": RuleText(
        title="The device is idle {share} of the step time ({idle} of {total})",
        advice=(
            "The device waits for work. Where host activity fills its idle time the host is the bottleneck: "
            "keep the task queue on (TASK_QUEUE_ENABLE=1 or 2), bind the process to cores, avoid "
            "synchronisations (.item(), .cpu(), prints) inside the step, use fused operators and larger "
            "batches so each launch carries more work; otherwise look at what the gaps wait for."
        ),
        facts={
            "idle": "Device idle time",
            "share": "Share of the step time",
            "host": "Host activity during the idle time",
            "gaps": "Gaps between device tasks of {min_gap} or more",
            "largest": "Largest gap",
            "steps": "Steps",
        },
    ),
    "schedule.dataloader": RuleText(
        title="Data loading takes {share} of the step time ({time})",
        advice=(
            "The step waits for its input. Use more DataLoader workers (num_workers), pin_memory=True and "
            "prefetching, keep the data on fast local disk, avoid archive formats (tar, zip) and check that "
            "no other process (core binding, preprocessing) slows the loader down."
        ),
        facts={
            "time": "Data loading time",
            "share": "Share of the step time",
            "count": "Data loading calls",
            "longest": "Longest call (msprof-analyze flags 10 ms)",
        },
    ),
    "schedule.recompile": RuleText(
        title="Operators are compiled {count} times during the steps ({time})",
        advice=(
            "Operators compiled at run time stall the launches. Use the binary kernels: "
            "torch_npu.npu.set_compile_mode(jit_compile=False) and torch_npu.npu.config.allow_internal_format="
            "False; keep input shapes static (pad to fixed buckets) so an operator is not compiled again for "
            "every new shape."
        ),
        facts={
            "count": "Compilations",
            "time": "Compilation time",
            "share": "Share of the step time",
            "api": "Host API",
        },
    ),
    "schedule.affinity_api": RuleText(
        title="{api} can replace {count} operator sequences ({pattern})",
        advice=(
            "A fused NPU API does the work of this operator sequence in one call. Replace the sequence by it "
            "where the semantics match (see the torch_npu API reference); profile with with_stack=True to "
            "see the call stacks that lead to each sequence."
        ),
        facts={"count": "Occurrences", "pattern": "Operator sequence", "time": "Host time of the sequences"},
    ),
    "schedule.task_queue": RuleText(
        title="The task queue is switched off (TASK_QUEUE_ENABLE={value})",
        advice=(
            "With TASK_QUEUE_ENABLE=0 the Python thread launches every operator itself and the device waits "
            "for it. Unset it or export TASK_QUEUE_ENABLE=1 (2 also moves more of the launch work off the "
            "main thread)."
        ),
        facts={"value": "Value of TASK_QUEUE_ENABLE"},
    ),
    "schedule.launch_blocking": RuleText(
        title="Operators run synchronously (ASCEND_LAUNCH_BLOCKING={value})",
        advice=(
            "ASCEND_LAUNCH_BLOCKING=1 makes every launch wait for its operator: a debugging setting that "
            "serialises host and device. export ASCEND_LAUNCH_BLOCKING=0 (or unset it) for training."
        ),
        facts={"value": "Value of ASCEND_LAUNCH_BLOCKING"},
    ),
    "schedule.env_settings": RuleText(
        title="{count} environment settings can slow the run",
        advice=(
            "Change the settings listed (each line says what to set), then profile again. These are the "
            "environment variables msprof-analyze's advisor checks."
        ),
        facts={
            "ASCEND_GLOBAL_LOG_LEVEL": "ASCEND_GLOBAL_LOG_LEVEL (debug/info logging slows training; export "
            "ASCEND_GLOBAL_LOG_LEVEL=3)",
            "HCCL_RDMA_TC": "HCCL_RDMA_TC (RoCE DSCP value; must match the network's configuration)",
            "HCCL_RDMA_SL": "HCCL_RDMA_SL (RDMA NIC priority; must match the PFC priority)",
            "ACLNN_CACHE_LIMIT": "ACLNN_CACHE_LIMIT (aclnn operator cache; when host bound export "
            "ACLNN_CACHE_LIMIT=100000)",
            "HOST_CACHE_CAPACITY": "HOST_CACHE_CAPACITY (dynamic-shape cache off; export HOST_CACHE_CAPACITY=20)",
            "PYTORCH_NPU_ALLOC_CONF": "PYTORCH_NPU_ALLOC_CONF (export PYTORCH_NPU_ALLOC_CONF="
            "expandable_segments:True against fragmentation)",
            "HCCL_ALGO": "HCCL_ALGO (a fixed communication algorithm; unset it to let HCCL choose)",
        },
    ),
}


# --- timeline helpers --------------------------------------------------------------------------------


def _lane_label(lane: Any) -> str:
    return f"{lane.process_name} · {lane.thread_name or lane.tid}"


def _union(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merged, sorted intervals of [starts, ends)."""
    if not len(starts):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    order = np.argsort(starts, kind="stable")
    s, e = starts[order], ends[order]
    reach = np.maximum.accumulate(e)
    new = np.ones(len(s), dtype=bool)
    new[1:] = s[1:] > reach[:-1]
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, len(s) - 1)
    return s[first], reach[last]


def _covered(ms_: np.ndarray, me: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Length of the merged intervals (ms_, me) before each time point of ``t``."""
    if not len(ms_):
        return np.zeros(len(t), np.int64)
    prefix = np.concatenate([[0], np.cumsum(me - ms_)])
    k = np.searchsorted(ms_, t, side="right") - 1
    kk = np.clip(k, 0, None)
    part = np.minimum(t, me[kk]) - ms_[kk]
    return np.where(k >= 0, prefix[kk] + part, 0)


def _overlap(ms_: np.ndarray, me: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per interval [a, b): how long the merged intervals cover it."""
    return _covered(ms_, me, b) - _covered(ms_, me, a)


def _step_windows(subject: Any) -> list[tuple[int, int, int]]:
    """(step id, start, end) in the timeline's relative ns; the device tasks' span when there are no steps."""

    def make() -> list[tuple[int, int, int]]:
        from workbench.core.profiling import steps

        tl = subject.report.timeline
        spans, _ = steps.step_spans(subject.report)
        origin = int(tl.origin_ns)
        out = [(s.id, s.start_ns - origin, s.end_ns - origin) for s in spans if s.end_ns > s.start_ns]
        if out:
            return out
        dev = _device_tasks(subject)
        if not len(dev[0]):
            return []
        return [(0, int(dev[0].min()), int(dev[1].max()))]

    return subject.cached("schedule.step_windows", make)


def _device_tasks(subject: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(start, end, slice index) of every task on an Ascend Hardware stream lane, by start."""

    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        tl = subject.report.timeline
        streams = np.array([ln.index for ln in tl.lanes if ln.is_stream], dtype=np.int64)
        idx = np.flatnonzero(np.isin(np.asarray(tl.lane), streams))
        start = np.asarray(tl.start_ns, dtype=np.int64)[idx]
        order = np.argsort(start, kind="stable")
        idx = idx[order]
        s = np.asarray(tl.start_ns, dtype=np.int64)[idx]
        return s, s + np.asarray(tl.dur_ns, dtype=np.int64)[idx], idx

    return subject.cached("schedule.device_tasks", make)


def _host_busy(subject: Any) -> tuple[np.ndarray, np.ndarray]:
    """Merged intervals of host activity: slices of the Python and CANN lanes, step annotations excepted."""

    def make() -> tuple[np.ndarray, np.ndarray]:
        tl = subject.report.timeline
        host = np.array(
            [
                ln.index
                for ln in tl.lanes
                if ln.device is None and not ln.is_stream and ln.process_name != "Overlap Analysis"
            ],
            dtype=np.int64,
        )
        mask = np.isin(np.asarray(tl.lane), host)
        steps_ids = [i for i, n in enumerate(tl.names) if n.startswith("ProfilerStep#")]
        if steps_ids:
            mask &= ~np.isin(np.asarray(tl.name_id), steps_ids)
        idx = np.flatnonzero(mask)
        s = np.asarray(tl.start_ns, dtype=np.int64)[idx]
        return _union(s, s + np.asarray(tl.dur_ns, dtype=np.int64)[idx])

    return subject.cached("schedule.host_busy", make)


def _slices_named(tl: Any, pattern: re.Pattern[str]) -> np.ndarray:
    ids = [i for i, n in enumerate(tl.names) if pattern.search(n)]
    if not ids:
        return np.zeros(0, np.int64)
    return np.flatnonzero(np.isin(np.asarray(tl.name_id), ids))


def _slice_evidence(tl: Any, i: int, values: dict[str, Any] | None = None) -> Evidence:
    lane = tl.lanes[int(tl.lane[i])]
    return Evidence(
        kind="slice",
        label=tl.name(i),
        lane=_lane_label(lane),
        device=lane.device,
        start_ns=int(tl.origin_ns) + int(tl.start_ns[i]),
        dur_ns=int(tl.dur_ns[i]),
        values=values or {},
    )


def _step_total(windows: list[tuple[int, int, int]]) -> int:
    return sum(e - s for _, s, e in windows)


def _in_steps(starts: np.ndarray, windows: list[tuple[int, int, int]]) -> np.ndarray:
    inside = np.zeros(len(starts), dtype=bool)
    for _, s, e in windows:
        inside |= (starts >= s) & (starts < e)
    return inside


def _severity(share: float, high: float, medium: float) -> Severity:
    return Severity.HIGH if share >= high else Severity.MEDIUM if share >= medium else Severity.LOW


# --- device idle / host bound --------------------------------------------------------------------------

MIN_GAP_NS = 10_000  # a gap worth listing: 10 us


@rule("schedule.overview", "schedule", TEXTS["schedule.overview"])
def overview(subject: Any) -> Iterable[Finding]:
    """The steps' end-to-end time as msprof-analyze's overall summary gives it: the sums over the steps of
    Computing, Communication (Not Overlapped) and Free (step_trace_time, else the Overlap Analysis lanes);
    always low: a summary, not a problem."""
    from workbench.core.profiling import steps

    frame = steps.step_breakdown(subject.report)
    if frame is None or not len(frame):
        return
    parts = {
        key: float(frame[column].astype("float64").fillna(0.0).sum()) * 1000  # µs -> ns
        for key, column in (
            ("computing", "computing_us"),
            ("not_overlapped", "communication_not_overlapped_us"),
            ("free", "free_us"),
        )
    }
    e2e = sum(parts.values())
    if e2e <= 0:
        return
    evidence = tuple(
        Evidence(
            kind="step",
            label=f"step {frame['step'].iloc[k]}",
            table="step_trace_time" if frame["source"].iloc[k] == "step_trace_time" else None,
            row=k,
            values={"step": str(frame["step"].iloc[k])},
        )
        for k in range(min(len(frame), TOP))
    )
    args = {"e2e": ms(e2e), **{key: ms(value) for key, value in parts.items()}}
    yield Finding(
        rule="schedule.overview",
        category="schedule",
        severity=Severity.LOW,
        args=args,
        facts=(
            Fact("e2e", ms(e2e)),
            Fact("computing", f"{ms(parts['computing'])} ({pct(parts['computing'], e2e)})"),
            Fact("not_overlapped", f"{ms(parts['not_overlapped'])} ({pct(parts['not_overlapped'], e2e)})"),
            Fact("free", f"{ms(parts['free'])} ({pct(parts['free'], e2e)})"),
            Fact("steps", count(len(frame))),
        ),
        evidence=evidence,
        evidence_total=len(frame),
    )


@rule("schedule.device_idle", "schedule", TEXTS["schedule.device_idle"])
def device_idle(subject: Any) -> Iterable[Finding]:
    tl = subject.report.timeline
    if tl is None or not any(ln.is_stream for ln in tl.lanes):
        yield from _idle_from_steps(subject)
        return
    windows = _step_windows(subject)
    starts, ends, idx = _device_tasks(subject)
    if not windows or not len(starts):
        return
    bs, be = _union(starts, ends)
    host_s, host_e = _host_busy(subject)
    total = 0
    idle_total = 0
    gaps: list[tuple[int, int, int]] = []  # (length, start, index of the task after it)
    step_idle: list[tuple[int, int, int, int]] = []  # (idle, step, start, end)
    for step, step_start, step_end in windows:
        lo, hi = (int(x) for x in np.searchsorted(starts, [step_start, step_end], side="left"))
        if lo == hi:
            continue
        ws, we = int(starts[lo]), int(ends[lo:hi].max())  # the device's part of the step (its Free)
        covered = _covered(bs, be, np.array([ws, we], dtype=np.int64))
        idle = (we - ws) - int(covered[1] - covered[0])
        idle_total += idle
        total += we - ws
        step_idle.append((idle, step, ws, we))
        j0 = int(np.searchsorted(be, ws, side="right"))  # the merged busy intervals inside [ws, we]
        j1 = int(np.searchsorted(bs, we, side="left"))
        lengths = bs[j0 + 1 : j1] - be[j0 : j1 - 1]
        big = np.flatnonzero(lengths >= MIN_GAP_NS)
        after = np.minimum(np.searchsorted(starts, bs[j0 + 1 : j1][big], side="left"), len(idx) - 1)
        gaps += zip(lengths[big].tolist(), be[j0 : j1 - 1][big].tolist(), idx[after].tolist())
    share = idle_total / total if total else 0.0
    if not step_idle or share < IDLE_SHARE:
        return
    gap_s = np.array([g[1] for g in gaps], dtype=np.int64)
    gap_e = gap_s + np.array([g[0] for g in gaps], dtype=np.int64)
    host_in_gaps = int(_overlap(host_s, host_e, gap_s, gap_e).sum()) if gaps else 0
    gap_total = int((gap_e - gap_s).sum()) if gaps else 0
    gaps.sort(key=lambda g: (-g[0], g[1]))
    origin = int(tl.origin_ns)
    evidence = []
    for length, at, nxt in gaps[:TOP]:
        lane = tl.lanes[int(tl.lane[nxt])]
        evidence.append(
            Evidence(
                kind="lane",
                label=tl.name(nxt),
                lane=_lane_label(lane),
                device=lane.device,
                start_ns=origin + at,
                dur_ns=length,
                values={
                    "gap_ns": length,
                    "next_task": tl.name(nxt),
                    "next_start_ns": origin + int(tl.start_ns[nxt]),
                },
            )
        )
    worst = max(step_idle)
    evidence.append(
        Evidence(
            kind="step",
            label=f"step {worst[1]}",
            start_ns=origin + worst[2],
            dur_ns=worst[3] - worst[2],
            values={"step": worst[1], "idle_ns": worst[0]},
        )
    )
    facts = [
        Fact("idle", ms(idle_total)),
        Fact("share", pct(share)),
        Fact("gaps", count(len(gaps)), {"min_gap": ms(MIN_GAP_NS)}),
    ]
    if gaps:
        facts.append(Fact("largest", ms(gaps[0][0])))
        facts.append(Fact("host", pct(host_in_gaps, gap_total)))
    facts.append(Fact("steps", count(len(windows))))
    yield Finding(
        rule="schedule.device_idle",
        category="schedule",
        severity=_severity(share, 0.5, 0.3),
        args={"share": pct(share), "idle": ms(idle_total), "total": ms(total)},
        facts=tuple(facts),
        evidence=tuple(evidence),
        evidence_total=len(gaps) + 1,
    )


def _idle_from_steps(subject: Any) -> Iterable[Finding]:
    """No timeline: step_trace_time's Free against the step (Computing + Not Overlapped + Free)."""
    from workbench.core.profiling import steps

    frame = steps.step_breakdown(subject.report)
    if frame is None or not len(frame):
        return
    free = frame["free_us"].astype("float64").fillna(0.0)
    whole = (
        frame["computing_us"].astype("float64").fillna(0.0)
        + frame["communication_not_overlapped_us"].astype("float64").fillna(0.0)
        + free
    )
    total, idle = float(whole.sum()) * 1000, float(free.sum()) * 1000
    share = idle / total if total else 0.0
    if share < IDLE_SHARE:
        return
    worst = int(np.argmax(free.to_numpy()))
    step = frame["step"].iloc[worst]
    yield Finding(
        rule="schedule.device_idle",
        category="schedule",
        severity=_severity(share, 0.5, 0.3),
        args={"share": pct(share), "idle": ms(idle), "total": ms(total)},
        facts=(Fact("idle", ms(idle)), Fact("share", pct(share)), Fact("steps", count(len(frame)))),
        evidence=(
            Evidence(
                kind="step",
                label=f"step {step}",
                table="step_trace_time",
                row=worst,
                values={"step": None if step is None else str(step), "free_us": float(free.iloc[worst])},
            ),
        ),
    )


# --- data loading --------------------------------------------------------------------------------------

DATALOADER = re.compile(r"dataloader|(^|[^A-Za-z])(Iterator)?GetNext", re.IGNORECASE)


@rule("schedule.dataloader", "schedule", TEXTS["schedule.dataloader"])
def dataloader(subject: Any) -> Iterable[Finding]:
    tl = subject.report.timeline
    if tl is None:
        return
    idx = _slices_named(tl, DATALOADER)
    if not len(idx):
        return
    # only the outermost of nested matches counts (a GetNext inside a DataLoader call is the same wait)
    starts = np.asarray(tl.start_ns, dtype=np.int64)[idx]
    durs = np.asarray(tl.dur_ns, dtype=np.int64)[idx]
    ms_, me = _union(starts, starts + durs)
    windows = _step_windows(subject)
    total = _step_total(windows)
    time_ns = int((me - ms_).sum())
    longest = int(durs.max())
    share = time_ns / total if total else 0.0
    if longest < DATALOADER_NS and share < DATALOADER_SHARE:
        return
    order = np.lexsort((starts, -durs))
    evidence = tuple(_slice_evidence(tl, int(idx[k])) for k in order[:TOP])
    yield Finding(
        rule="schedule.dataloader",
        category="schedule",
        severity=_severity(share, 0.3, 0.1),
        args={"share": pct(share), "time": ms(time_ns)},
        facts=(
            Fact("time", ms(time_ns)),
            Fact("share", pct(share)),
            Fact("count", count(len(idx))),
            Fact("longest", ms(longest)),
        ),
        evidence=evidence,
        evidence_total=len(idx),
    )


# --- operator recompilation ----------------------------------------------------------------------------

COMPILE = re.compile(r"aclopCompile")


@rule("schedule.recompile", "schedule", TEXTS["schedule.recompile"])
def recompile(subject: Any) -> Iterable[Finding]:
    tl = subject.report.timeline
    evidence: tuple[Evidence, ...] = ()
    share: float | None = None
    if tl is not None and len(tl):
        idx = _slices_named(tl, COMPILE)
        windows = _step_windows(subject)
        if len(idx) and windows:
            idx = idx[_in_steps(np.asarray(tl.start_ns, dtype=np.int64)[idx], windows)]
        if not len(idx):
            return
        durs = np.asarray(tl.dur_ns, dtype=np.int64)[idx]
        n, time_ns = len(idx), int(durs.sum())
        total = _step_total(windows)
        share = time_ns / total if total else None
        api = sorted({tl.name(int(i)) for i in idx})
        order = np.lexsort((np.asarray(tl.start_ns)[idx], -durs))
        evidence = tuple(_slice_evidence(tl, int(idx[k])) for k in order[:TOP])
    else:
        api_stat = subject.table("api_statistic")
        if api_stat is None or not len(api_stat) or "name" not in api_stat:
            return
        rows = api_stat[api_stat["name"].astype(str).str.contains(COMPILE.pattern)]
        if not len(rows):
            return
        n = int(rows["count"].astype("int64").sum())
        time_ns = int(round(float(rows["total_us"].astype("float64").sum()) * 1000))
        api = sorted(rows["name"].astype(str).unique())
        evidence = tuple(
            Evidence(kind="row", label=str(rows["name"].iloc[k]), table="api_statistic", row=int(rows.index[k]))
            for k in range(min(TOP, len(rows)))
        )
    if n < COMPILE_COUNT and (share is None or share < COMPILE_SHARE):
        return
    facts = [Fact("count", count(n)), Fact("time", ms(time_ns))]
    if share is not None:
        facts.append(Fact("share", pct(share)))
    facts.append(Fact("api", ", ".join(api)))
    yield Finding(
        rule="schedule.recompile",
        category="schedule",
        severity=_severity(share or 0.0, 0.2, 0.05),
        args={"count": count(n), "time": ms(time_ns)},
        facts=tuple(facts),
        evidence=evidence,
        evidence_total=n,
    )


# --- environment ----------------------------------------------------------------------------------------


def _env(subject: Any) -> dict[str, str]:
    meta = subject.report.info.get("profiler_metadata")
    env = meta.get("ENV_VARIABLES") if isinstance(meta, dict) else None
    if isinstance(env, str):  # the .db exports keep it as a JSON text
        import json

        try:
            env = json.loads(env)
        except ValueError:
            return {}
    return {str(k): "" if v is None else str(v) for k, v in env.items()} if isinstance(env, dict) else {}


def _setting(name: str, value: str) -> Evidence:
    return Evidence(kind="setting", label=f"{name}={value}", values={"name": name, "value": value})


@rule("schedule.task_queue", "environment", TEXTS["schedule.task_queue"])
def task_queue(subject: Any) -> Iterable[Finding]:
    value = _env(subject).get("TASK_QUEUE_ENABLE")
    if value is not None and value.strip() == "0":
        yield Finding(
            rule="schedule.task_queue",
            category="environment",
            severity=Severity.MEDIUM,
            args={"value": value},
            facts=(Fact("value", value),),
            evidence=(_setting("TASK_QUEUE_ENABLE", value),),
        )


@rule("schedule.launch_blocking", "environment", TEXTS["schedule.launch_blocking"])
def launch_blocking(subject: Any) -> Iterable[Finding]:
    value = _env(subject).get("ASCEND_LAUNCH_BLOCKING")
    if value is not None and _int(value) == 1:
        yield Finding(
            rule="schedule.launch_blocking",
            category="environment",
            severity=Severity.HIGH,
            args={"value": value},
            facts=(Fact("value", value),),
            evidence=(_setting("ASCEND_LAUNCH_BLOCKING", value),),
        )


def _int(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None


def _below(text: str, limit: int) -> bool:
    n = _int(text)
    return text.strip() == "" or (n is not None and n < limit)


# msprof-analyze's EnvironmentVariableChecker.ENV_SUGGEST_CONDITION (only variables the report records)
ENV_CONDITIONS = {
    "ASCEND_GLOBAL_LOG_LEVEL": lambda v: v.strip() != "" and _int(v) != 3,
    "HCCL_RDMA_TC": lambda v: v.strip() != "",
    "HCCL_RDMA_SL": lambda v: v.strip() != "",
    "ACLNN_CACHE_LIMIT": lambda v: _below(v, 10000),
    "HOST_CACHE_CAPACITY": lambda v: v.strip() == "" or _int(v) == 0,
    "PYTORCH_NPU_ALLOC_CONF": lambda v: "expandable_segments:True" not in v,
    "HCCL_ALGO": lambda v: v.strip() != "",
}


@rule("schedule.env_settings", "environment", TEXTS["schedule.env_settings"])
def env_settings(subject: Any) -> Iterable[Finding]:
    env = _env(subject)
    hits = [(name, env[name]) for name, bad in ENV_CONDITIONS.items() if name in env and bad(env[name])]
    if not hits:
        return
    yield Finding(
        rule="schedule.env_settings",
        category="environment",
        severity=Severity.LOW,
        args={"count": count(len(hits))},
        facts=tuple(Fact(name, value if value else '""') for name, value in hits),
        evidence=tuple(_setting(name, value) for name, value in hits),
    )


# --- affinity APIs (fused replacements of an operator sequence) ----------------------------------------

# msprof-analyze rules/timeline_fusion_ops.yaml, unique ids 0-3 (CANN 8.0.0, torch 2.1.0): API -> patterns
AFFINITY_ATEN: dict[str, tuple[str, ...]] = {
    "torch_npu.npu_confusion_transpose": (
        "(permute)-(contiguous){0,1}-(reshape)",
        "(permute)-(contiguous){0,1}-(view)",
        "(transpose)-(contiguous){0,1}-(reshape)",
        "(transpose)-(contiguous){0,1}-(view)",
        "(reshape)-(contiguous){0,1}-(permute)",
        "(reshape)-(contiguous){0,1}-(transpose)",
        "(view)-(contiguous){0,1}-(permute)",
        "(view)-(contiguous){0,1}-(transpose)",
    ),
    "torch_npu.fast_gelu": ("gelu",),
    "torch_npu.npu_scaled_masked_softmax": ("softmax-(mul){0,1}-(masked_fill_)", "softmax-(mul){0,1}-(add)"),
    "optimizer.clip_grad_norm_fused_": ("add-reciprocal-mul",),
    "torch_npu.npu_fusion_attention": (
        "matmul-(add){0,1}-(mul){0,1}-(masked_fill_){0,1}-softmax-(dropout){0,1}-matmul",
        "matmul-(add){0,1}-(mul){0,1}-(add){0,1}-softmax-(dropout){0,1}-matmul",
    ),
    "torch_npu.npu_rotary_mul": ("(chunk)-neg-cat-(mul){0,2}-add", "(slice)-neg-cat-(mul){0,2}-add"),
    "torch_npu.npu_rms_norm": ("(pow){0,1}-(mean){0,1}-(add){0,1}-rsqrt-mul-(type_as){0,1}",),
    "torch_npu.npu_swiglu": (
        "(slice)-silu-mul",
        "(chunk)-silu-mul",
        "(slice)-mul-silu",
        "(chunk)-mul-silu",
        "(slice)-sigmoid-mul-mul",
        "(chunk)-sigmoid-mul-mul",
        "(slice)-mul-sigmoid-mul",
        "(chunk)-mul-sigmoid-mul",
        "(slice)-mul-mul-sigmoid",
        "(chunk)-mul-mul-sigmoid",
    ),
    "torch_npu.npu_geglu": ("(slice)-gelu-mul", "(chunk)-gelu-mul", "(slice)-mul-gelu", "(chunk)-mul-gelu"),
    "torch_npu.npu_group_norm_silu": ("group_norm-silu",),
    "torch.addmm": ("mul-mul-add",),
    "torch_npu.npu_add_layer_norm": ("add-layer_norm",),
}
AFFINITY_OPTIMIZER: dict[str, tuple[str, ...]] = {
    f"torch_npu.optim.NpuFused{name}": (f"{name}.step",)
    for name in ("AdamW", "SGD", "Adadelta", "Lamb", "AdamP", "BertAdam", "RMSprop", "RMSpropTF", "Adam")
}
ATEN_PREFIXES = ("aten::", "npu::")
OPTIMIZER_PREFIX = "Optimizer.step#"


def _pattern_regex(rule_text: str) -> str:
    """msprof-analyze's form of a rule over ``-a--b--c-`` (every name wrapped in ``-``): ``(a){0,1}-b`` ->
    ``(-a-){0,1}(-b-)``, alternatives ``(a|b)`` -> ``(-a-|-b-)``."""
    out = ""
    for part in rule_text.split("-"):
        found = re.search(r"\(([\w.|]+)\)", part)
        if found:
            names, suffix = found.group(1), part[found.end() :]
        else:
            names, suffix = part, ""
        out += "(" + "|".join("-" + re.escape(n.strip()) + "-" for n in names.split("|")) + ")" + suffix
    return out


def _sequence(tl: Any, prefixes: tuple[str, ...]) -> tuple[list[str], np.ndarray]:
    """The names (prefix removed) and slice indices of the Python-lane slices named with ``prefixes``."""
    python = [ln.index for ln in tl.lanes if ln.process_name == "Python"]
    ids = [i for i, n in enumerate(tl.names) if n.lower().startswith(tuple(p.lower() for p in prefixes))]
    if not python or not ids:
        return [], np.zeros(0, np.int64)
    idx = np.flatnonzero(np.isin(np.asarray(tl.lane), python) & np.isin(np.asarray(tl.name_id), ids))
    idx = idx[np.lexsort((idx, np.asarray(tl.start_ns)[idx]))]
    names = []
    for i in idx:
        name = tl.name(int(i))
        for p in prefixes:
            if name.lower().startswith(p.lower()):
                name = name[len(p) :]
                break
        names.append(name)
    return names, idx


@rule("schedule.affinity_api", "schedule", TEXTS["schedule.affinity_api"])
def affinity_api(subject: Any) -> Iterable[Finding]:
    tl = subject.report.timeline
    if tl is None:
        return
    for table, prefixes in ((AFFINITY_ATEN, ATEN_PREFIXES), (AFFINITY_OPTIMIZER, (OPTIMIZER_PREFIX,))):
        names, idx = _sequence(tl, prefixes)
        if not names:
            continue
        text = "".join(f"-{n}-" for n in names)
        starts_at = np.cumsum([0] + [len(n) + 2 for n in names[:-1]])  # char offset of each token
        for api, patterns in table.items():
            hits: list[tuple[int, int, str]] = []  # (first token, tokens, pattern)
            for pattern in patterns:
                for m in re.finditer(_pattern_regex(pattern), text):
                    if m.end() == m.start():
                        continue
                    first = int(np.searchsorted(starts_at, m.start()))
                    tokens = m.group(0).count("--") + 1
                    hits.append((first, tokens, pattern))
            if not hits:
                continue
            hits.sort()
            host = 0
            for first, tokens, _ in hits:
                chosen = idx[first : first + tokens]
                ends = np.asarray(tl.start_ns)[chosen] + np.asarray(tl.dur_ns)[chosen]
                host += int(ends.max() - int(tl.start_ns[chosen[0]]))
            used = sorted({p for _, _, p in hits}, key=patterns.index)
            evidence = tuple(
                _slice_evidence(tl, int(idx[first]), {"sequence": "-".join(names[first : first + tokens])})
                for first, tokens, _ in hits[:TOP]
            )
            yield Finding(
                rule="schedule.affinity_api",
                category="schedule",
                severity=Severity.LOW,
                args={"api": api, "count": count(len(hits)), "pattern": ", ".join(used)},
                facts=(
                    Fact("count", count(len(hits))),
                    Fact("pattern", ", ".join(used)),
                    Fact("time", ms(host)),
                ),
                evidence=evidence,
                evidence_total=len(hits),
            )
