"""Baseline comparison (Qt-free): a current profiling report against a baseline.

    comparison = compare_paths(base, current, by="type", tolerance_pct=1.0)   # work function
    comparison = compare_reports(base_report, current_report, pairs=[(0, 1)])  # two open reports
    comparison.base / .current          Side summaries (kind, devices, chip, CANN, model, PMU group, totals)
    comparison.rows / .op_rows("name")  OP rows (added / removed / slower / faster / same), regressions first
    comparison.metrics                  AI Core metric rows per OP type; comparison.overall: overall rows
    comparison.memory_peaks / .memory_ops   peak allocated / reserved per component; allocations per operator
    comparison.communication            per communication op type (msprof-analyze's grouping)
    comparison.warnings                 every mismatch (devices, kind, chip, CANN, model, PMU, missing tables,
                                        memory / communication data on one side only)
    comparison.instances(key)           occurrences of one key paired in order of appearance
    write_xlsx(comparison, "out.xlsx")  Overall, OpType, OpName, AICoreMetrics, MemoryPeaks,
                                        MemoryCompareStatistic, CommunicationCompare, Warnings sheets

CLI: ``ascend-workbench compare BASE CURRENT --json [--by type|name] [--out F.xlsx]
[--fail-on-regression PCT] [--tolerance PCT]`` (exit 3 on a regression beyond PCT: the total, an OP
row, a communication op type, a memory peak).

Inside: ``rows`` (statuses, columns, percentages, ratios) < ``opdiff`` (OP rows, instances) <
``memdiff`` (memory rows, over ``profiling.memory``), ``commdiff`` (communication rows, over
``profiling.comm``; built with ``opdiff``) < ``model`` (Comparison, Side) < ``facts``, ``overall`` <
``engine``; ``xlsx`` and ``cli`` on top. May use the profiling engine (reports), ``tasks``,
``fsutil`` and ``verbs``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.core.compare.engine import compare_paths, compare_reports
    from workbench.core.compare.model import (
        DEFAULT_TOLERANCE_PCT,
        LABELS,
        STATUSES,
        CompareError,
        Comparison,
        Side,
    )
    from workbench.core.compare.xlsx import write_xlsx

# The names are imported on first use (PEP 562): `compare --help` and the window's start must not
# pay for pandas, which the engine imports.
_HOMES = {
    "compare_paths": "engine",
    "compare_reports": "engine",
    "DEFAULT_TOLERANCE_PCT": "model",
    "LABELS": "model",
    "STATUSES": "model",
    "CompareError": "model",
    "Comparison": "model",
    "Side": "model",
    "write_xlsx": "xlsx",
}


def __getattr__(name: str) -> Any:
    import importlib

    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


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
