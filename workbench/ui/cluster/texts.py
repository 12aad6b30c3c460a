"""The Cluster document's words: step_trace_time column names, the findings' evidence lines and
core's status lines, in the UI's language (source strings marked for pyside6-lupdate)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from workbench.core.cluster.findings import SlowLink, SlowRank

CONTEXT = "ClusterView"

# msprof-analyze's cluster_step_trace_time columns (the data's own names) as the document shows them
COLUMNS = {
    "Computing": QT_TRANSLATE_NOOP("ClusterView", "Computing"),
    "Communication(Not Overlapped)": QT_TRANSLATE_NOOP("ClusterView", "Communication (Not Overlapped)"),
    "Overlapped": QT_TRANSLATE_NOOP("ClusterView", "Overlapped"),
    "Communication": QT_TRANSLATE_NOOP("ClusterView", "Communication"),
    "Free": QT_TRANSLATE_NOOP("ClusterView", "Free"),
    "Stage": QT_TRANSLATE_NOOP("ClusterView", "Stage"),
    "Bubble": QT_TRANSLATE_NOOP("ClusterView", "Bubble"),
    "Communication(Not Overlapped and Exclude Receive)": QT_TRANSLATE_NOOP(
        "ClusterView", "Communication (Not Overlapped, Exclude Receive)"
    ),
    "Preparing": QT_TRANSLATE_NOOP("ClusterView", "Preparing"),
}
NOT_TIMES = ("Step", "Type", "Index", "DP Index", "PP Index", "TP Index")  # columns that are no time in µs

# core's status lines of an analysis (workbench.core.cluster.analyze and .engine)
_STATUS = (
    (re.compile(r"^Finding the ranks under (.+)$"), QT_TRANSLATE_NOOP("ClusterView", "Finding the ranks under {0}")),
    (re.compile(r"^Merging (\d+) ranks$"), QT_TRANSLATE_NOOP("ClusterView", "Merging {0} ranks")),
    (
        re.compile(r"^rank (\d+) done \((\d+)/(\d+)\)$"),
        QT_TRANSLATE_NOOP("ClusterView", "Rank {0} done ({1}/{2})"),
    ),
    (
        re.compile(r"^Starting a local Dask cluster \((\d+) workers\)$"),
        QT_TRANSLATE_NOOP("ClusterView", "Starting a local Dask cluster ({0} workers)"),
    ),
    (
        re.compile(r"^Starting a Dask cluster over SSH on (.+)$"),
        QT_TRANSLATE_NOOP("ClusterView", "Starting a Dask cluster over SSH on {0}"),
    ),
    (
        re.compile(r"^Connecting to the Dask scheduler (.+)$"),
        QT_TRANSLATE_NOOP("ClusterView", "Connecting to the Dask scheduler {0}"),
    ),
)


def _translated(marked: object) -> str:
    """One of this module's marked strings (``QT_TRANSLATE_NOOP``) in the UI's language."""
    return QCoreApplication.translate(CONTEXT, str(marked))


def column_label(column: str) -> str:
    """A step_trace_time column in the UI's language (an unknown column as the file names it)."""
    return _translated(COLUMNS[column]) if column in COLUMNS else column


def time_columns(header: Sequence[str]) -> list[str]:
    """The step_trace_time columns that hold times (µs), in the file's order."""
    return [c for c in header if c not in NOT_TIMES]


def step_label(step: str) -> str:
    """A step id as shown; msprof-analyze leaves the Step cell empty when the job had no steps."""
    return step if step else "—"


def status_text(line: str) -> str:
    for pattern, template in _STATUS:
        m = pattern.match(line)
        if m:
            return _translated(template).format(*m.groups())
    return line


def id_ranges(ids: Sequence[int]) -> str:
    """``(0, 1, 2, 3, 6)`` -> ``0–3, 6``."""
    from workbench.ui.dialogs.report_picker import id_ranges as ranges

    return ranges(sorted(ids))


def us(value: float) -> str:
    return f"{value:,.1f} µs"


def ms(value: float) -> str:
    return f"{value:,.3f} ms"


def slow_rank_line(s: SlowRank, all_ranks: Sequence[int]) -> str:
    """One line of evidence for a slow rank (numbers with units)."""
    if tuple(sorted(s.peers)) == tuple(sorted(all_ranks)):
        peers = QCoreApplication.translate("ClusterView", "all ranks")
    else:
        peers = QCoreApplication.translate("ClusterView", "its stage (ranks {0})").format(id_ranges(s.peers))
    pct = (s.ratio - 1.0) * 100.0 if s.median_us else float("inf")
    line = QCoreApplication.translate(
        "ClusterView",
        "Rank {0}: Computing {1} in step {2}, {3} % ({4}) above the median {5} of {6}; slow in {7} of {8} steps",
    ).format(
        s.rank,
        us(s.computing_us),
        step_label(s.step),
        f"{pct:,.1f}",
        us(s.excess_us),
        us(s.median_us),
        peers,
        s.slow_steps,
        s.steps,
    )
    if s.others_wait_ms is not None and s.own_wait_ms is not None:
        line += QCoreApplication.translate(
            "ClusterView", "; the ranks sharing its groups waited {0} on average, rank {1} itself {2}"
        ).format(ms(s.others_wait_ms), s.rank, ms(s.own_wait_ms))
    return line


def slow_link_line(s: SlowLink) -> str:
    """One line of evidence for a slow link (numbers with units)."""
    return QCoreApplication.translate(
        "ClusterView", "Link {0} → {1} ({2}): {3} GB/s, {4} % of the {2} links' median {5} GB/s; {6} MB in {7}"
    ).format(
        s.src,
        s.dst,
        s.transport or "—",
        f"{s.bandwidth:,.2f}",
        f"{s.ratio * 100:,.0f}",
        f"{s.median:,.2f}",
        f"{s.size_mb:,.1f}",
        ms(s.time_ms),
    )


# core's warning lines (workbench.core.cluster.texts.WARNING_TEMPLATES), for pyside6-lupdate; a test checks
# the lists match
WARNING_LABELS = (
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: not a folder"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: cannot be read ({1})"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: {1} does not name a rank number (profiler_info_<rank>.json)"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: no profiler_info_<rank>.json, so its rank is unknown; skipped"),
    QT_TRANSLATE_NOOP(
        "ClusterWarning", "{0}: no ASCEND_PROFILER_OUTPUT folder (the profiling was not parsed); skipped"
    ),
    QT_TRANSLATE_NOOP("ClusterWarning", "rank {0}: {1} folders; the newest, {2}, is taken (not {3})"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: no device_<id>/info.json.<id>, so its rank is unknown; skipped"),
    QT_TRANSLATE_NOOP(
        "ClusterWarning", "{0}: not parsed (no mindstudio_profiler_output and analyze folders: run {1}); skipped"
    ),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: expected an object with rank_id, found {1}; skipped"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: rank_id {1} is not a rank number; skipped"),
    QT_TRANSLATE_NOOP(
        "ClusterWarning",
        "{0}: {1} devices in one PROF folder; read as one rank, as msprof-analyze reads it (the rank of {2})",
    ),
    QT_TRANSLATE_NOOP(
        "ClusterWarning", "{0} PROF folders have no rank_id ({1}, ...) while others have one; they are left out"
    ),
    QT_TRANSLATE_NOOP(
        "ClusterWarning", "rank {0}: {1} folders of device {2} without a rank_id; the oldest, {3}, is taken (not {4})"
    ),
    QT_TRANSLATE_NOOP(
        "ClusterWarning", "{0} PROF folders ({1}, ...) are left out: the torch_npu / MindSpore ranks are analysed"
    ),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: not valid JSON ({1})"),
    QT_TRANSLATE_NOOP("ClusterWarning", "rank {0}: no step_trace_time.csv in {1}"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: not a readable CSV ({1}); its steps are left out"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: empty (expected a header row starting with Step)"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: line 1 has no Step column (found {1}, ...)"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: line {1}, {2}: {3} is not a number; taken as 0"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: expected an object of steps, found {1}"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: step {1} is not an object; skipped"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: {1}/{2} is not an object; skipped"),
    QT_TRANSLATE_NOOP("ClusterWarning", "rank {0}: no communication.json or communication_matrix.json in {1}"),
    QT_TRANSLATE_NOOP("ClusterWarning", "rank {0}: no msprof_<timestamp>.json in {1}; its steps are left out"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: event {1}, dur: {2} is not a number; taken as 0"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: expected a list of trace events, found {1}; no steps"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: expected an object of operators, found {1}"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: operator {1} is not an object; skipped"),
    QT_TRANSLATE_NOOP("ClusterWarning", "rank {0}: no {1} in {2}; no steps or parallel_group_info"),
    QT_TRANSLATE_NOOP("ClusterWarning", "rank {0}: no {1} in {2}; no communication"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: no table {1}; the rank's steps are left out"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}, column {1}: {2} is not a number; taken as 0"),
    QT_TRANSLATE_NOOP(
        "ClusterWarning",
        "profiler_metadata.json: distributed_args do not describe a Megatron partition (world_size = tp x pp x dp, "
        "integer sizes); no DP/PP/TP Index columns",
    ),
    QT_TRANSLATE_NOOP(
        "ClusterWarning",
        "profiler_metadata.json: distributed_args describe {0} ranks but {1} ranks have data; "
        "no DP/PP/TP Index columns",
    ),
    QT_TRANSLATE_NOOP("ClusterWarning", "ranks {0} of the {1}-rank job have no step data"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: link {1} is not src-dst; skipped"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: local rank {1} maps to no global rank"),
    QT_TRANSLATE_NOOP(
        "ClusterWarning",
        "{0}: link {1} mapped through parallel_group_info (no r-r link of its ranks); msprof-analyze drops it",
    ),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0} ranks ({1}) are on both {2} and {3} (one shared disk?); {4}'s are taken"),
    QT_TRANSLATE_NOOP("ClusterWarning", "rank {0}: its worker was lost; reduced again on {1}"),
    QT_TRANSLATE_NOOP("ClusterWarning", "rank {0}: no {1} in {2}; the rank is left out of HostInfo and RankDeviceMap"),
    QT_TRANSLATE_NOOP(
        "ClusterWarning",
        "{0}: not a readable SQLite database ({1}); the rank is left out of HostInfo and RankDeviceMap",
    ),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: no {1} rows; the rank is left out of HostInfo and RankDeviceMap"),
    QT_TRANSLATE_NOOP("ClusterWarning", "{0}: no PROF_* folder; the rank is left out of HostInfo and RankDeviceMap"),
    QT_TRANSLATE_NOOP(
        "ClusterWarning", "{0}: no device_<id> folder; the rank is left out of HostInfo and RankDeviceMap"
    ),
)


def warning_text(line: str) -> str:
    """A warning of the analysis in the UI's language where core made it from a known template."""
    from workbench.core.cluster.texts import WARNING_TEMPLATES
    from workbench.ui.labels import tr_template

    return tr_template("ClusterWarning", line, WARNING_TEMPLATES)
