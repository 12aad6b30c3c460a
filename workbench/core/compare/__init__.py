"""Baseline comparison (Qt-free): a current profiling report against a baseline.

    comparison = compare_paths(base, current, by="type", tolerance_pct=1.0)   # work function
    comparison = compare_reports(base_report, current_report, pairs=[(0, 1)])  # two open reports
    comparison.base / .current          Side summaries (kind, devices, chip, CANN, model, PMU group, totals)
    comparison.rows / .op_rows("name")  OP rows (added / removed / slower / faster / same), regressions first
    comparison.metrics                  AI Core metric rows per OP type; comparison.overall: overall rows
    comparison.warnings                 every mismatch (devices, kind, chip, CANN, model, PMU, missing tables)
    comparison.instances(key)           occurrences of one key paired in order of appearance
    write_xlsx(comparison, "out.xlsx")  Overall, OpType, OpName, AICoreMetrics, Warnings sheets

CLI: ``ascend-workbench compare BASE CURRENT --json [--by type|name] [--out F.xlsx]
[--fail-on-regression PCT] [--tolerance PCT]`` (exit 3 on a regression beyond PCT).

Inside: ``rows`` (statuses, columns, percentages) < ``opdiff`` (OP rows, instances) < ``model``
(Comparison, Side) < ``facts``, ``overall`` < ``engine``; ``xlsx`` and ``cli`` on top. May use the
profiling engine (reports), ``tasks``, ``fsutil`` and ``verbs``.
"""

from __future__ import annotations

from workbench.core.compare.engine import compare_paths, compare_reports
from workbench.core.compare.model import DEFAULT_TOLERANCE_PCT, LABELS, STATUSES, CompareError, Comparison, Side
from workbench.core.compare.xlsx import write_xlsx

__all__ = [
    "DEFAULT_TOLERANCE_PCT",
    "LABELS",
    "STATUSES",
    "CompareError",
    "Comparison",
    "Side",
    "compare_paths",
    "compare_reports",
    "write_xlsx",
]
