"""Run the advisor's rules over a report or a cluster.

:func:`advise` takes an opened :class:`~workbench.core.profiling.report.Report`; :func:`advise_cluster`
a :class:`~workbench.core.cluster.report.ClusterReport`. Every registered rule of the target runs on
its own: a rule that raises is one warning line of the result (its id and the error), the others still
run. Between rules the run polls ``cancel`` and reports ``progress`` (fraction of rules done).

Rules receive a *subject*: the report (or cluster report) plus a per-run cache (:meth:`ReportSubject.
cached`), so rules that need the same derived table (device busy intervals, the OPs with their task
types, ...) compute it once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.core.advisor import rules as _load_rules  # noqa: F401  (registers every rule module)
from workbench.core.advisor.model import AdvisorResult, Finding, Rule, rules
from workbench.core.tasks import CancelToken, NullProgress, Progress


@dataclass
class ReportSubject:
    report: Any  # workbench.core.profiling.report.Report
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def cached(self, key: str, make: Callable[[], Any]) -> Any:
        """``make()`` once per run under ``key``."""
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def table(self, name: str):
        """The report's table ``name``, or None when the report has no such table."""
        return self.report.tables.get(name)


@dataclass
class ClusterSubject:
    cluster: Any  # workbench.core.cluster.report.ClusterReport
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def cached(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]


def _run(
    subject: Any,
    target: str,
    source: str,
    only: Sequence[str] | None,
    progress: Progress | None,
    cancel: CancelToken | None,
) -> AdvisorResult:
    progress = progress or NullProgress()
    chosen: list[Rule] = [r for r in rules(target) if not only or r.id in only or r.category in only]
    result = AdvisorResult(source=source)
    for i, r in enumerate(chosen):
        if cancel is not None:
            cancel.raise_if_cancelled()
        progress.fraction(i / len(chosen) if chosen else None)
        try:
            found: list[Finding] = list(r.check(subject) or ())
        except Exception as exc:  # noqa: BLE001  (one rule's failure is a warning, never a failed run)
            result.warnings.append(f"advisor rule {r.id} could not run: {exc}")
            continue
        result.rules_run.append(r.id)
        result.findings.extend(found)
    progress.fraction(1.0)
    return result


def advise(
    report: Any,
    *,
    only: Sequence[str] | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> AdvisorResult:
    """Every report rule (or those whose id or category is in ``only``) over ``report``."""
    return _run(ReportSubject(report), "report", str(report.source), only, progress, cancel)


def advise_cluster(
    cluster: Any,
    *,
    only: Sequence[str] | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> AdvisorResult:
    """Every cluster rule over ``cluster`` (a ClusterReport)."""
    return _run(ClusterSubject(cluster), "cluster", str(cluster.source), only, progress, cancel)
