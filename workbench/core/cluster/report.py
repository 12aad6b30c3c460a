"""The saved cluster report: the merged tables, the findings and where each rank's data is, in one
``cluster.wbcluster`` file next to the msprof-analyze files, so a cluster re-opens at once.

The file is JSON (msgspec) with a ``format`` and ``version``; a file of another version or a damaged
one is refused with one line naming it, and the caller re-analyses (the inputs are never touched).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from workbench.core.cluster.findings import Findings, SlowLink, SlowRank
from workbench.core.cluster.merge import ClusterTables
from workbench.core.fsutil import atomic_write_bytes, refuse_existing

REPORT_NAME = "cluster.wbcluster"
FORMAT = "ascend-workbench cluster report"
VERSION = 1


class ClusterReportError(ValueError):
    """A saved cluster report that cannot be read (the message names the file and what is wrong)."""


@dataclass
class RankInfo:
    rank: int
    path: str
    host: str | None = None
    worker: str = ""  # the engine worker that reduced it
    retried: bool = False
    error: str = ""


@dataclass
class ClusterReport:
    source: str  # the folder analysed
    tables: ClusterTables
    findings: Findings
    ranks: list[RankInfo] = field(default_factory=list)
    engine: str = ""  # how the reductions ran (sync, local 2 workers, ssh a,b, tcp://...)
    created: float = field(default_factory=time.time)
    from_files: bool = False  # read from an existing cluster_analysis_output (no rank data read)
    warnings: list[str] = field(default_factory=list)  # everything the analysis had to say, kept for re-opening

    @property
    def rank_paths(self) -> dict[int, str]:
        return {r.rank: r.path for r in self.ranks if r.path}


def _encode(report: ClusterReport) -> bytes:
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "report": report}
    return msgspec.json.encode(doc)


def save(report: ClusterReport, folder: str | Path, *, force: bool = False) -> Path:
    path = Path(folder) / REPORT_NAME
    refuse_existing(path, force)
    Path(folder).mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, _encode(report))
    return path


class _Envelope(msgspec.Struct):
    format: str
    version: int
    report: msgspec.Raw


def load(path: str | Path) -> ClusterReport:
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ClusterReportError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    try:
        env = msgspec.json.decode(raw, type=_Envelope)
    except msgspec.DecodeError as exc:
        raise ClusterReportError(f"{p}: not a cluster report ({exc})") from None
    if env.format != FORMAT:
        raise ClusterReportError(f"{p}: format {env.format!r} is not {FORMAT!r}")
    if env.version != VERSION:
        raise ClusterReportError(f"{p}: version {env.version} (this app reads version {VERSION}); analyse again")
    try:
        report = msgspec.json.decode(env.report, type=ClusterReport)
    except msgspec.ValidationError as exc:
        raise ClusterReportError(f"{p}: {exc}") from None
    # msgspec gives tuples of a frozen dataclass back as lists where typed loosely: normalise
    report.findings = Findings(
        [SlowRank(**{**vars(s), "peers": tuple(s.peers)}) for s in report.findings.slow_ranks],
        [SlowLink(**{**vars(s), "ops": tuple(s.ops)}) for s in report.findings.slow_links],
    )
    return report
