"""Excel export of a comparison: sheets Overall, OpType, OpName, AICoreMetrics, MemoryPeaks,
MemoryCompareStatistic, CommunicationCompare, Warnings.

Worse cells (slower / added; for memory also higher) are red, better (faster / removed; lower)
green, as in the view; header rows are frozen; µs have three decimals, percentages two, and a
percentage without a baseline is the text ``n/a``. The memory and communication sheets carry
msprof-analyze's sheet and header names (compare_tools ``excel_config.py``: MemoryCompareStatistic
in its units ms and MB, CommunicationCompare in µs, ``Diff Ratio`` = comparison / base as a
percentage format), each side's column prefixed ``Base`` / ``Comparison`` (msprof-analyze puts
that word in a merged row above instead), plus our Status and Diff(%) columns. Written with
openpyxl's write-only mode and saved atomically (as the report export in
:mod:`workbench.core.profiling.export`, whose cell cleaning and row limit it shares).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.core import fsutil
from workbench.core.compare.model import BETTER, LABELS, WORSE, CompareError, Comparison
from workbench.core.profiling.export import EXCEL_MAX_ROWS, cell_value
from workbench.core.tasks import CancelToken, NullProgress, Progress

SHEETS = (
    "Overall",
    "OpType",
    "OpName",
    "AICoreMetrics",
    "MemoryPeaks",
    "MemoryCompareStatistic",
    "CommunicationCompare",
    "Warnings",
)
FORMATS = {"us": "0.000", "pct": "0.00", "count": "0", "value": "General", "mb": "0.000", "ratio": "0.00%"}
COLOURS = {"worse": ("FFC7CE", "9C0006"), "better": ("C6EFCE", "006100")}  # fill, font (Excel's good/bad)
# Columns of each sheet: (column, kind); kind picks the number format; "ns" is written as text
# (an epoch ns value does not fit Excel's 15 significant digits).
OP_SHEET = [
    ("key", "text"),
    ("task_type", "text"),
    ("status", "status"),
    ("base_count", "count"),
    ("current_count", "count"),
    ("base_total_us", "us"),
    ("current_total_us", "us"),
    ("diff_us", "diff"),
    ("diff_pct", "pct"),
    ("base_avg_us", "us"),
    ("current_avg_us", "us"),
    ("avg_diff_us", "diff"),
    ("avg_diff_pct", "pct"),
    ("base_min_us", "us"),
    ("current_min_us", "us"),
    ("base_max_us", "us"),
    ("current_max_us", "us"),
    ("base_first_ns", "ns"),
    ("current_first_ns", "ns"),
]
METRIC_SHEET = [
    ("key", "text"),
    ("metric", "text"),
    ("status", "status"),
    ("base", "value"),
    ("current", "value"),
    ("diff", "diff"),
    ("diff_pct", "pct"),
]
OVERALL_SHEET = [
    ("metric", "text"),
    ("unit", "text"),
    ("status", "status"),
    ("base", "value"),
    ("current", "value"),
    ("diff", "diff"),
    ("diff_pct", "pct"),
]
HEADERS = {**LABELS, "key": "OP Type"}
# Memory and communication sheets: (column, kind, header). "order" is the row number
# (msprof-analyze's Order Id / Top); "kb_mb" and "us_ms" write a KB / µs column in MB / ms.
MEMORY_PEAK_SHEET = [
    ("component", "text", "Component"),
    ("metric", "text", "Metric"),
    ("status", "status", "Status"),
    ("base", "mb", "Base Peak(MB)"),
    ("current", "mb", "Comparison Peak(MB)"),
    ("diff", "mb", "Diff Memory(MB)"),
    ("diff_pct", "pct", "Diff(%)"),
    ("diff_ratio", "ratio", "Diff Ratio"),
    ("base_peak_ns", "ns", "Base Peak Time(ns)"),
    ("current_peak_ns", "ns", "Comparison Peak Time(ns)"),
]
MEMORY_STATISTIC_SHEET = [
    ("", "order", "Top"),
    ("name", "text", "Operator Name"),
    ("status", "status", "Status"),
    ("base_duration_us", "us_ms", "Base Allocated Duration(ms)"),
    ("base_size_kb", "kb_mb", "Base Allocated Memory(MB)"),
    ("base_count", "count", "Base Operator Number"),
    ("current_duration_us", "us_ms", "Comparison Allocated Duration(ms)"),
    ("current_size_kb", "kb_mb", "Comparison Allocated Memory(MB)"),
    ("current_count", "count", "Comparison Operator Number"),
    ("diff_size_kb", "kb_mb", "Diff Memory(MB)"),
    ("diff_ratio", "ratio", "Diff Ratio"),
    ("diff_pct", "pct", "Diff(%)"),
]
COMMUNICATION_SHEET = [
    ("", "order", "Order Id"),
    ("comm_op", "text", "Communication OP Name"),
    ("status", "status", "Status"),
    ("base_calls", "count", "Base Calls"),
    ("base_total_us", "us", "Base Total Duration(us)"),
    ("base_avg_us", "us", "Base Avg Duration(us)"),
    ("base_max_us", "us", "Base Max Duration(us)"),
    ("base_min_us", "us", "Base Min Duration(us)"),
    ("current_calls", "count", "Comparison Calls"),
    ("current_total_us", "us", "Comparison Total Duration(us)"),
    ("current_avg_us", "us", "Comparison Avg Duration(us)"),
    ("current_max_us", "us", "Comparison Max Duration(us)"),
    ("current_min_us", "us", "Comparison Min Duration(us)"),
    ("diff_us", "diff", "Diff Duration(us)"),
    ("diff_ratio", "ratio", "Diff Ratio"),
    ("diff_pct", "pct", "Diff(%)"),
    ("avg_diff_pct", "pct", "Avg Diff(%)"),
    ("per_step_diff_pct", "pct", "Per Step Diff(%)"),
]
# what a unit-converting kind divides by, and the number format it is written with
SCALED = {"kb_mb": (1024.0, "mb"), "us_ms": (1000.0, "us")}


class _Styles:
    """Cell factory for one write-only sheet (openpyxl shares equal styles in the workbook)."""

    def __init__(self, sheet: Any) -> None:
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Font, PatternFill

        self.sheet, self.cell_type = sheet, WriteOnlyCell
        self.bold = Font(bold=True)
        self.fills = {k: (PatternFill("solid", fgColor=f), Font(color=c)) for k, (f, c) in COLOURS.items()}

    def header(self, names: list[str]) -> list[Any]:
        out = []
        for name in names:
            cell = self.cell_type(self.sheet, name)
            cell.font = self.bold
            out.append(cell)
        return out

    def cell(self, value: Any, kind: str, tone: str | None) -> Any:
        if kind in SCALED:
            scale, kind = SCALED[kind]
            value = value / scale if isinstance(value, (int, float)) and not isinstance(value, bool) else value
        if kind == "ns" and value is not None:
            value = str(value)
        elif kind in ("pct", "ratio") and value is None:
            value = "n/a"
        cell = self.cell_type(self.sheet, value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            cell.number_format = FORMATS.get(kind, FORMATS["us"] if kind == "diff" else "General")
        if tone and kind in ("status", "diff", "pct"):
            cell.fill, cell.font = self.fills[tone]
        return cell


def _tone(status: str) -> str | None:
    return "worse" if status in WORSE else "better" if status in BETTER else None


def _memory_tone(status: str) -> str | None:
    """Memory: more is worse (higher, added), less better (lower, removed)."""
    return "worse" if status == "higher" else "better" if status == "lower" else _tone(status)


def _table(
    book: Any,
    title: str,
    frame: pd.DataFrame,
    spec: list[tuple[str, str]],
    warnings: list[str],
    cancel: CancelToken,
    header_label: str | None = None,
    headers: list[str] | None = None,
    tone_of: Callable[[str], str | None] = _tone,
) -> Any:
    sheet = book.create_sheet(title)
    sheet.freeze_panes = "A2"
    styles = _Styles(sheet)
    names = list(headers) if headers else [HEADERS.get(c, c) for c, _ in spec]
    if header_label:
        names[0] = header_label
    sheet.append(styles.header(names))
    columns = [
        list(range(1, len(frame) + 1))
        if kind == "order"
        else frame[c].astype(object).tolist()
        if c in frame.columns
        else [None] * len(frame)
        for c, kind in spec
    ]
    status_index = [c for c, _ in spec].index("status")
    for n, values in enumerate(zip(*columns)):
        if n >= EXCEL_MAX_ROWS:
            warnings.append(f"sheet {title} truncated to {EXCEL_MAX_ROWS} rows (Excel's limit) of {len(frame)}")
            break
        if n % 65536 == 0:
            cancel.raise_if_cancelled()
        tone = tone_of(values[status_index])
        sheet.append([styles.cell(cell_value(v), kind, tone) for v, (_, kind) in zip(values, spec)])
    return sheet


def _named_table(
    book: Any,
    title: str,
    frame: pd.DataFrame,
    spec: list[tuple[str, str, str]],
    warnings: list[str],
    cancel: CancelToken,
    tone_of: Callable[[str], str | None] = _tone,
) -> Any:
    """A sheet whose spec names each column's header (the memory and communication sheets)."""
    columns = [(c, kind) for c, kind, _ in spec]
    return _table(book, title, frame, columns, warnings, cancel, headers=[h for _, _, h in spec], tone_of=tone_of)


def _facts(comparison: Comparison) -> list[tuple[str, Any, Any]]:
    b, c = comparison.base, comparison.current

    def listed(v: list[int]) -> str:
        return ", ".join(map(str, v))

    return [
        ("Source", b.source, c.source),
        ("Kind", b.kind, c.kind),
        ("Devices", listed(b.devices), listed(c.devices)),
        ("Compared devices", listed(b.compared_devices), listed(c.compared_devices)),
        ("Chip / SoC", b.chip, c.chip),
        ("CANN version", b.cann_version, c.cann_version),
        ("Model name", b.model_name, c.model_name),
        ("AI Core PMU group", b.pmu_group, c.pmu_group),
        ("OPs", b.op_count, c.op_count),
        ("Span(us)", b.span_us, c.span_us),
        ("Compared by", comparison.by, comparison.by),
        ("Tolerance(%)", comparison.tolerance_pct, comparison.tolerance_pct),
    ]


def write_xlsx(
    comparison: Comparison, out: str | Path, progress: Progress | None = None, cancel: CancelToken | None = None
) -> Path:
    """Write the comparison to ``out`` (.xlsx), atomically (work function)."""
    from openpyxl import Workbook

    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    out = Path(out)
    if out.suffix.lower() != ".xlsx":
        raise CompareError(f"{out}: expected an .xlsx file name")
    fsutil.refuse_inputs(out, [comparison.base.source, comparison.current.source], inside=False)
    progress.status(f"Writing {out.name}")
    book = Workbook(write_only=True)
    notes: list[str] = []
    sheet = _table(book, "Overall", comparison.overall, OVERALL_SHEET, notes, cancel)
    sheet.append([])
    styles = _Styles(sheet)
    sheet.append(styles.header(["Report", "Base", "Current"]))
    for label, base, current in _facts(comparison):
        sheet.append([label, cell_value(base), cell_value(current)])
    for n, (title, by, label) in enumerate((("OpType", "type", "OP Type"), ("OpName", "name", "Op Name"))):
        progress.fraction(0.1 + 0.4 * n)
        _table(book, title, comparison.op_rows(by), OP_SHEET, notes, cancel, label)
    _table(book, "AICoreMetrics", comparison.metrics, METRIC_SHEET, notes, cancel, "OP Type")
    progress.fraction(0.9)
    _named_table(book, "MemoryPeaks", comparison.memory_peaks, MEMORY_PEAK_SHEET, notes, cancel, _memory_tone)
    _named_table(
        book, "MemoryCompareStatistic", comparison.memory_ops, MEMORY_STATISTIC_SHEET, notes, cancel, _memory_tone
    )
    _named_table(book, "CommunicationCompare", comparison.communication, COMMUNICATION_SHEET, notes, cancel)
    sheet = book.create_sheet("Warnings")
    sheet.freeze_panes = "A2"
    sheet.append(_Styles(sheet).header(["#", "Warning"]))
    for n, text in enumerate(comparison.warnings + notes, 1):
        sheet.append([n, text])
    with fsutil.atomic_open(out, "wb", encoding=None) as fh:
        book.save(fh)
    progress.fraction(1.0)
    return out
