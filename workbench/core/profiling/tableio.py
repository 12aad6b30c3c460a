"""Write one table (a view's rows) to CSV or XLSX with the report exporter's exact rules."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from workbench.core.profiling.errors import ProfilingDataError


def write_table(frame: pd.DataFrame, path: str | Path, sheet: str = "table", inputs: Iterable[str | Path] = ()) -> Path:
    """Atomically write ``frame`` to ``path`` (.csv or .xlsx, by extension). ``inputs`` are the files
    the table was read from (a report's :meth:`~Report.input_paths`): never written over. An existing
    other file is replaced: the caller has the user's yes (the GUI's save dialog asked)."""
    from workbench.core import fsutil
    from workbench.core.profiling.export import export_report
    from workbench.core.profiling.report import Report

    out = Path(path)
    if out.suffix.lower() not in (".csv", ".xlsx"):
        raise ProfilingDataError(f"{out}: a table exports to .csv or .xlsx, not {out.suffix or '(no extension)'!r}")
    fsutil.refuse_inputs(out, list(inputs), inside=False)
    # the table's own source is a name no file has (export_report refuses to write over a report's source)
    report = Report(source=out.with_name(f"<{sheet}>"), kind="workbench", tables={sheet: frame.reset_index(drop=True)})
    return export_report(report, out, table=sheet)
