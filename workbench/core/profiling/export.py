"""Export a report's tables: xlsx (one sheet per table), csv (one table) or json (all tables).

Times are written as they are held: ``start_ns`` stays an exact integer (Excel would round an
epoch ns value, so the xlsx holds it as text), missing values are empty cells / ``null``.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.core import fsutil
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.report import Report
from workbench.core.tasks import CancelToken, NullProgress, Progress

EXCEL_MAX_ROWS = 1_048_575  # one header row + data
EXCEL_EXACT_INT = 10**15 - 1  # Excel shows 15 significant digits: larger integers go in as text
FORMATS = (".xlsx", ".csv", ".json")


def cell_value(value: Any) -> Any:
    """A plain Python value (None for missing)."""
    if value is None or value is pd.NA:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, np.generic):
        value = value.item()
        if isinstance(value, float) and math.isnan(value):
            return None
    return value


def _rows(frame: pd.DataFrame):
    columns = [
        frame[c].astype(object) if isinstance(frame[c].dtype, pd.CategoricalDtype) else frame[c] for c in frame.columns
    ]
    for values in zip(*[c.tolist() for c in columns]):
        yield [cell_value(v) for v in values]


def export_report(
    report: Report,
    out: str | Path,
    table: str | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Path:
    """Write ``report`` to ``out``; the format follows the extension (work function)."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise ProfilingDataError(f"{out}: unknown export format {suffix or '(none)'!r} (expected one of {FORMATS})")
    fsutil.refuse_inputs(out, report.input_paths(), inside=False)
    names = list(report.tables)
    if table is not None:
        if table not in report.tables:
            raise ProfilingDataError(f"{report.source}: no table {table!r} (tables: {', '.join(names) or 'none'})")
        names = [table]
    elif suffix == ".csv":
        raise ProfilingDataError(f"{out}: a CSV holds one table; choose it with --table ({', '.join(names)})")
    progress.status(f"Exporting {out.name}")
    if suffix == ".xlsx":
        _xlsx(report, names, out, cancel)
    elif suffix == ".csv":
        with fsutil.atomic_open(out, "w", encoding="utf-8") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow([str(c) for c in report.tables[names[0]].columns])
            for n, row in enumerate(_rows(report.tables[names[0]])):
                if n % 65536 == 0:
                    cancel.raise_if_cancelled()
                writer.writerow(["N/A" if v is None else v for v in row])
    else:
        doc = {
            "source": str(report.source),
            "kind": report.kind,
            "devices": report.devices,
            "warnings": report.warnings,
            "tables": {
                n: {"columns": [str(c) for c in report.tables[n].columns], "rows": list(_rows(report.tables[n]))}
                for n in names
            },
        }
        fsutil.atomic_write_text(out, json.dumps(doc, ensure_ascii=False, default=str))
    progress.fraction(1.0)
    return out


def _xlsx(report: Report, names: list[str], out: Path, cancel: CancelToken) -> None:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    used: set[str] = set()
    for name in names:
        frame = report.tables[name]
        title = _sheet_title(name, used)
        sheet = book.create_sheet(title)
        sheet.append([str(c) for c in frame.columns])
        stamps = [i for i, c in enumerate(frame.columns) if str(c).endswith("_ns")]  # always text: one type
        ints = [i for i, c in enumerate(frame.columns) if i not in stamps and pd.api.types.is_integer_dtype(frame[c])]
        for n, row in enumerate(_rows(frame)):
            if n >= EXCEL_MAX_ROWS:
                report.warnings.append(f"{out.name}: sheet {title} truncated to {EXCEL_MAX_ROWS} rows (Excel's limit)")
                break
            if n % 65536 == 0:
                cancel.raise_if_cancelled()
            for i in stamps:
                if row[i] is not None:
                    row[i] = str(row[i])
            for i in ints:  # Excel keeps 15 digits of a number: a bigger integer is written as its digits
                if row[i] is not None and abs(row[i]) > EXCEL_EXACT_INT:
                    row[i] = str(row[i])
            sheet.append(row)
    with fsutil.atomic_open(out, "wb", encoding=None) as fh:
        book.save(fh)


def _sheet_title(name: str, used: set[str]) -> str:
    base = "".join("_" if ch in "[]:*?/\\" else ch for ch in name)[:31] or "table"
    title, n = base, 1
    while title in used:
        n += 1
        title = f"{base[:28]}_{n}"
    used.add(title)
    return title
