"""An advisor result as JSON, one self-contained HTML page, or an Excel workbook.

Every writer takes ``translate`` (the English template or label -> the text to show; identity by
default): the GUI passes the UI language's catalogue, so an export reads like the Advisor tab. Rule
texts (titles, advice, fact labels) and the fixed words of a page (:data:`LABELS`: headings,
severities, categories, evidence kinds) go through it; keys, raw values and exact int ns never do.

Writes are atomic (``fsutil.atomic_open``); an existing file is replaced only with ``force`` and an
input of the result (the report or cluster it is about) never.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from workbench.core.advisor.model import AdvisorResult, Evidence, Finding, Severity, fill

Translate = Callable[[str], str]

SEVERITY_LABELS = {"high": "High", "medium": "Medium", "low": "Low"}
CATEGORY_LABELS = {
    "compute": "Compute",
    "schedule": "Scheduling",
    "memory": "Memory",
    "communication": "Communication",
    "cluster": "Cluster",
    "environment": "Environment",
}
EVIDENCE_LABELS = {
    "op": "Operator",
    "slice": "Slice",
    "lane": "Lane",
    "row": "Table row",
    "step": "Step",
    "rank": "Rank",
    "link": "Link",
    "setting": "Setting",
}
# the fixed words of the HTML page and the workbook (the UI marks them for translation)
PAGE_LABELS = (
    "Advisor findings",
    "Source",
    "Findings",
    "Severity",
    "Category",
    "Rule",
    "Title",
    "Advice",
    "Facts",
    "Evidence",
    "Kind",
    "What",
    "Where",
    "Start (ns)",
    "Duration (ns)",
    "Values",
    "No findings.",
    "Warnings",
    "{shown} of {total} items",
    "Finding",
    "#",
    "rank {rank}",
)
LABELS = (*SEVERITY_LABELS.values(), *CATEGORY_LABELS.values(), *EVIDENCE_LABELS.values(), *PAGE_LABELS)


def _same(text: str) -> str:
    return text


def severity_label(severity: Severity | str, translate: Translate = _same) -> str:
    value = severity.value if isinstance(severity, Severity) else str(severity)
    return translate(SEVERITY_LABELS.get(value, value))


def category_label(category: str, translate: Translate = _same) -> str:
    return translate(CATEGORY_LABELS[category]) if category in CATEGORY_LABELS else category


def evidence_kind_label(kind: str, translate: Translate = _same) -> str:
    return translate(EVIDENCE_LABELS[kind]) if kind in EVIDENCE_LABELS else kind


def rank_label(finding: Finding, translate: Translate = _same) -> str:
    """ "rank 3" for a finding of a cluster's rank (its own report), "" for one of the report / cluster."""
    return "" if finding.rank is None else fill(translate("rank {rank}"), {"rank": str(int(finding.rank))})


def plain(value: Any) -> Any:
    """A raw value as JSON has it: numpy scalars and arrays to Python, ints stay exact ints."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, int)):
        return value
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    item = getattr(value, "item", None)  # numpy scalar
    if callable(item) and getattr(value, "ndim", 0) == 0:
        return plain(item())
    tolist = getattr(value, "tolist", None)  # numpy array
    if callable(tolist):
        return plain(tolist())
    return str(value)


def where(e: Evidence) -> str:
    """Where an evidence item is, in the data's own words (lane, table row, rank, device)."""
    bits = []
    if e.lane:
        bits.append(e.lane)
    if e.table is not None:
        bits.append(f"{e.table}[{e.row}]" if e.row is not None else e.table)
    elif e.row is not None:
        bits.append(f"row {e.row}")
    if e.rank is not None:
        bits.append(f"rank {e.rank}")
    if e.device is not None:
        bits.append(f"device {e.device}")
    return " · ".join(bits)


def evidence_dict(e: Evidence) -> dict[str, Any]:
    return {
        "kind": e.kind,
        "label": e.label,
        "table": e.table,
        "row": None if e.row is None else int(e.row),
        "lane": e.lane,
        "device": None if e.device is None else int(e.device),
        "start_ns": None if e.start_ns is None else int(e.start_ns),
        "dur_ns": None if e.dur_ns is None else int(e.dur_ns),
        "rank": None if e.rank is None else int(e.rank),
        "values": plain(dict(e.values)),
    }


def finding_dict(f: Finding, translate: Translate = _same) -> dict[str, Any]:
    return {
        "rule": f.rule,
        "category": f.category,
        "severity": f.severity.value,
        "rank": None if f.rank is None else int(f.rank),
        "title": f.title(translate),
        "advice": f.advice(translate),
        "args": dict(f.args),
        "facts": [
            {"key": fact.key, "label": label, "value": value}
            for fact, (label, value) in zip(f.facts, f.fact_lines(translate))
        ],
        "evidence": [evidence_dict(e) for e in f.evidence],
        "evidence_total": len(f.evidence) if f.evidence_total is None else int(f.evidence_total),
    }


def counts(result: AdvisorResult) -> dict[str, int]:
    """Findings per severity value, every severity listed (high first)."""
    out = {s.value: 0 for s in Severity}
    for f in result.findings:
        out[f.severity.value] += 1
    return out


def to_dict(result: AdvisorResult, translate: Translate = _same) -> dict[str, Any]:
    return {
        "source": result.source,
        "counts": counts(result),
        "findings": [finding_dict(f, translate) for f in result.sorted()],
        "rules_run": list(result.rules_run),
        "warnings": list(result.warnings),
    }


def to_json(result: AdvisorResult, translate: Translate = _same) -> str:
    """Every field of every finding (sorted by severity): rule, category, severity, title, advice,
    facts, evidence with exact int ns, evidence_total; plus the counts, the rules run and warnings."""
    return json.dumps(to_dict(result, translate), ensure_ascii=False, indent=1) + "\n"


# --- HTML --------------------------------------------------------------------------------------------

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","Microsoft YaHei",sans-serif;margin:24px;
color:#222;max-width:1100px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}
h3{font-size:15px;margin:16px 0 6px}.src{color:#666;font-size:13px;word-break:break-all}
.counts span{display:inline-block;margin:10px 10px 0 0;padding:4px 10px;border-radius:12px;font-weight:600}
.high{background:#f8d7da;color:#842029}.medium{background:#fff3cd;color:#664d03}.low{background:#cfe2ff;color:#084298}
.finding{border:1px solid #ddd;border-left-width:5px;border-radius:4px;padding:8px 12px;margin:10px 0}
.finding.high{border-left-color:#c0392b;background:#fff}.finding.medium{border-left-color:#e0a800;background:#fff}
.finding.low{border-left-color:#3d7bd9;background:#fff}.sev{font-size:12px;padding:1px 6px;border-radius:8px}
table{border-collapse:collapse;font-size:13px;margin:4px 0}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}
th{background:#f4f4f4}.advice{background:#f3f8f3;padding:6px 10px;border-radius:4px}.rule{color:#888;font-size:12px}
.rank{font-size:12px;padding:1px 6px;border-radius:8px;background:#e8e8e8;color:#333}
"""


def to_html(result: AdvisorResult, translate: Translate = _same) -> str:
    """One self-contained page (no script, no link): the counts by severity, then a section per
    category, each finding with its facts table, advice and evidence list. Everything escaped."""
    t = translate
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8">',
        f"<title>{e(t('Advisor findings'))}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{e(t('Advisor findings'))}</h1>",
        f'<div class="src">{e(t("Source"))}: {e(str(result.source))}</div>',
        '<div class="counts">',
    ]
    for value, n in counts(result).items():
        parts.append(f'<span class="{value}">{e(severity_label(value, t))}: {n}</span>')
    parts.append("</div>")
    findings = result.sorted()
    if not findings:
        parts.append(f"<p>{e(t('No findings.'))}</p>")
    categories: list[str] = []
    for f in findings:
        if f.category not in categories:
            categories.append(f.category)
    categories.sort(key=lambda c: (min(f.severity.rank for f in findings if f.category == c), c))
    for category in categories:
        parts.append(f'<h2 id="{e(category)}">{e(category_label(category, t))}</h2>')
        for f in (f for f in findings if f.category == category):
            parts.append(_html_finding(f, t))
    if result.warnings:
        parts.append(f"<h2>{e(t('Warnings'))}</h2><ul>")
        parts += [f"<li>{e(w)}</li>" for w in result.warnings]
        parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _html_finding(f: Finding, t: Translate) -> str:
    e = html.escape
    sev = f.severity.value
    out = [
        f'<div class="finding {sev}">',
        f'<h3><span class="sev {sev}">{e(severity_label(sev, t))}</span> {_html_rank(f, t)}{e(f.title(t))}</h3>',
        f'<div class="rule">{e(t("Rule"))}: {e(f.rule)}</div>',
    ]
    lines = f.fact_lines(t)
    if lines:
        out.append(f"<table><tr><th colspan=2>{e(t('Facts'))}</th></tr>")
        out += [f"<tr><td>{e(label)}</td><td>{e(value)}</td></tr>" for label, value in lines]
        out.append("</table>")
    advice = f.advice(t)
    if advice:
        out.append(f'<p class="advice"><b>{e(t("Advice"))}:</b> {e(advice)}</p>')
    if f.evidence:
        total = len(f.evidence) if f.evidence_total is None else f.evidence_total
        head = e(t("Evidence"))
        if total > len(f.evidence):
            head += " (" + e(t("{shown} of {total} items").format(shown=len(f.evidence), total=total)) + ")"
        out.append(
            f"<table><tr><th colspan=6>{head}</th></tr><tr><th>{e(t('Kind'))}</th><th>{e(t('What'))}</th>"
            f"<th>{e(t('Where'))}</th><th>{e(t('Start (ns)'))}</th><th>{e(t('Duration (ns)'))}</th>"
            f"<th>{e(t('Values'))}</th></tr>"
        )
        for ev in f.evidence:
            values = ", ".join(f"{k}={plain(v)}" for k, v in ev.values.items())
            out.append(
                f"<tr><td>{e(evidence_kind_label(ev.kind, t))}</td><td>{e(ev.label)}</td><td>{e(where(ev))}</td>"
                f"<td>{'' if ev.start_ns is None else int(ev.start_ns)}</td>"
                f"<td>{'' if ev.dur_ns is None else int(ev.dur_ns)}</td><td>{e(values)}</td></tr>"
            )
        out.append("</table>")
    out.append("</div>")
    return "\n".join(out)


def _html_rank(f: Finding, t: Translate) -> str:
    label = rank_label(f, t)
    return f'<span class="rank">{html.escape(label)}</span> ' if label else ""


# --- xlsx --------------------------------------------------------------------------------------------

FINDING_COLUMNS = ("#", "Severity", "Category", "Rule", "Title", "Facts", "Advice", "Evidence", "Rank")
EVIDENCE_COLUMNS = ("Finding", "Rule", "Kind", "What", "Where", "Start (ns)", "Duration (ns)", "Values", "Rank")


def _xlsx_sheets(result: AdvisorResult, t: Translate) -> list[tuple[str, list[str], list[list[Any]]]]:
    findings, evidence = [], []
    for n, f in enumerate(result.sorted(), 1):
        facts = "\n".join(f"{label}: {value}" for label, value in f.fact_lines(t))
        total = len(f.evidence) if f.evidence_total is None else f.evidence_total
        findings.append(
            [n, severity_label(f.severity, t), category_label(f.category, t), f.rule, f.title(t), facts]
            + [f.advice(t), total, f.rank]
        )
        for ev in f.evidence:
            values = ", ".join(f"{k}={plain(v)}" for k, v in ev.values.items())
            evidence.append(
                [n, f.rule, evidence_kind_label(ev.kind, t), ev.label, where(ev)]
                + [_ns_text(ev.start_ns), _ns_text(ev.dur_ns)]
                + [values, f.rank]
            )
    return [
        ("Findings", [t(c) for c in FINDING_COLUMNS], findings),
        ("Evidence", [t(c) for c in EVIDENCE_COLUMNS], evidence),
    ]


def _ns_text(ns: int | None) -> str | None:
    """An epoch ns as the digits (Excel's numbers are doubles: 19 digits do not survive as a number)."""
    return None if ns is None else str(int(ns))


def to_xlsx_bytes(result: AdvisorResult, translate: Translate = _same) -> bytes:
    """The workbook: sheet "Findings" (one row per finding, sorted by severity) and "Evidence" (one
    row per evidence item, its finding's number first); start and duration as the exact digits of
    their int ns (text cells: a spreadsheet number is a double and would round an epoch ns)."""
    import io

    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    book = Workbook(write_only=True)
    for title, header, rows in _xlsx_sheets(result, translate):
        sheet = book.create_sheet(title)
        bold = Font(bold=True)
        cells = []
        for name in header:
            cell = WriteOnlyCell(sheet, value=name)
            cell.font = bold
            cells.append(cell)
        sheet.append(cells)
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


# --- writing -------------------------------------------------------------------------------------------


def _inputs(result: AdvisorResult, inputs: Iterable[str | os.PathLike[str]] | None) -> list[str | os.PathLike[str]]:
    return [result.source, *(inputs or ())]


def check_out(out: str | os.PathLike[str], force: bool, suffixes: tuple[str, ...]) -> Path:
    """Refuse an output without one of ``suffixes`` or that exists without ``force`` (before any work)."""
    from workbench.core.fsutil import OutputRefused, refuse_existing

    path = Path(out)
    if path.suffix.lower() not in suffixes:
        raise OutputRefused(f"{out}: expected a {' or '.join(suffixes)} file name")
    if path.is_dir():
        raise OutputRefused(f"{out}: is a folder; expected a {' or '.join(suffixes)} file name")
    refuse_existing(path, force)
    return path


def _write(
    data: bytes,
    result: AdvisorResult,
    out: str | os.PathLike[str],
    force: bool,
    suffixes: tuple[str, ...],
    inputs: Iterable[str | os.PathLike[str]] | None,
) -> Path:
    from workbench.core.fsutil import atomic_open, refuse_inputs

    path = check_out(out, force, suffixes)
    refuse_inputs(path, _inputs(result, inputs))
    with atomic_open(path, "wb", encoding=None) as fh:
        fh.write(data)
    return path


def write_json(
    result: AdvisorResult,
    out: str | os.PathLike[str],
    *,
    force: bool = False,
    translate: Translate = _same,
    inputs: Iterable[str | os.PathLike[str]] | None = None,
) -> Path:
    return _write(to_json(result, translate).encode("utf-8"), result, out, force, (".json",), inputs)


def write_html(
    result: AdvisorResult,
    out: str | os.PathLike[str],
    *,
    force: bool = False,
    translate: Translate = _same,
    inputs: Iterable[str | os.PathLike[str]] | None = None,
) -> Path:
    return _write(to_html(result, translate).encode("utf-8"), result, out, force, (".html", ".htm"), inputs)


def write_xlsx(
    result: AdvisorResult,
    out: str | os.PathLike[str],
    *,
    force: bool = False,
    translate: Translate = _same,
    inputs: Iterable[str | os.PathLike[str]] | None = None,
) -> Path:
    check_out(out, force, (".xlsx",))  # refused before the workbook is built
    return _write(to_xlsx_bytes(result, translate), result, out, force, (".xlsx",), inputs)


WRITERS = {"json": write_json, "html": write_html, "xlsx": write_xlsx}
to_xlsx = write_xlsx  # the workbook written to a file (to_xlsx_bytes: the bytes)
