"""Write one table (a view's rows) to CSV or XLSX with the report exporter's exact rules."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from workbench.core.profiling.errors import ProfilingDataError


def write_table(frame: pd.DataFrame, path: str | Path, sheet: str = "table") -> Path:
    """Atomically write ``frame`` to ``path`` (.csv or .xlsx, by extension)."""
    from workbench.core.profiling.export import export_report
    from workbench.core.profiling.report import Report

    out = Path(path)
    if out.suffix.lower() not in (".csv", ".xlsx"):
        raise ProfilingDataError(f"{out}: a table exports to .csv or .xlsx, not {out.suffix or '(no extension)'!r}")
    report = Report(source=out, kind="workbench", tables={sheet: frame.reset_index(drop=True)})
    return export_report(report, out, table=sheet)
