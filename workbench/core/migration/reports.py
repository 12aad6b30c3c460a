"""Readers for the migration tools' report files and the result model (docs/cann-formats.md, "Migration tools").

TensorFlow (convert_tf2npu): ``success_report.txt`` (``<file>:<line> <code inserted/changed>``),
``failed_report.txt`` (``Finish conver[t] file: <file>`` and ``<file>:<line>, NPU Unsupport[ed] API:
<api>``), ``api_analysis_report.xlsx`` (Chinese headers: ``序号 脚本文件名 代码行 模块名 API名
支持度|工具迁移API支持度 迁移建议|说明``), ``api_brief_report.txt`` (``1.In brief: Total API: n, in
which Support: a, …``) and ``need_migration_doc.txt``. PyTorch (msFmkTransplt): ``change_list.csv``
(``File,Start Line,End Line,Operation Type,Message``), ``unsupported_api.csv`` (older
``unsupported_op.csv``), ``unknown_api.csv``, ``api_precision_advice.csv``,
``api_performance_advice.csv`` (``File,Start Line,End Line,OP,Tips``), ``cuda_op_list.csv``
(columns not documented: read as they come, with a warning) and ``msFmkTranspltlog.txt``.

Columns are found by header name; a value that is not one of the documented support values is
kept and warned about. Bad input raises :class:`MigrationReportError` naming file, line and field.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

TF_FILES = ("success_report.txt", "failed_report.txt", "api_analysis_report.xlsx", "api_brief_report.txt")
PT_API_FILES = {  # file -> category of its rows
    "unsupported_api.csv": "unsupported",
    "unsupported_op.csv": "unsupported",
    "unknown_api.csv": "unknown",
    "api_precision_advice.csv": "precision_advice",
    "api_performance_advice.csv": "performance_advice",
}
PT_FILES = ("change_list.csv", *PT_API_FILES, "msFmkTranspltlog.txt")
PT_RESULT_SUBDIR = "transplant_result_file"  # MindStudio's layout keeps the report files here

# support value -> category (convert_tf2npu's api_analysis_report.xlsx, old and new wording)
SUPPORT_VALUES = {
    "支持": "supported",
    "支持(无需迁移)": "supported",
    "支持（无需迁移）": "supported",
    "支持但需工具迁移": "migrated_by_tool",
    "工具迁移后API功能支持": "migrated_by_tool",
    "支持但需手工迁移": "manual",
    "分析中": "analysing",
    "不支持": "unsupported",
    "废弃": "deprecated",
    "NA": "na",
}
CATEGORIES = (
    "supported",
    "migrated_by_tool",
    "manual",
    "analysing",
    "unsupported",
    "deprecated",
    "na",
    "unknown",
    "precision_advice",
    "performance_advice",
    "other",
)
XLSX_COLUMNS: dict[str, tuple[str, ...]] = {  # field -> accepted headers (first is the documented one)
    "file": ("脚本文件名",),
    "line": ("代码行",),
    "module": ("模块名",),
    "api": ("API名",),
    "support": ("支持度", "工具迁移API支持度"),
    "advice": ("迁移建议", "说明"),
}
XLSX_REQUIRED = ("file", "line", "api", "support")
CHANGE_COLUMNS: dict[str, tuple[str, ...]] = {
    "file": ("File",),
    "line": ("Start Line",),
    "end_line": ("End Line",),
    "kind": ("Operation Type",),
    "text": ("Message",),
}
API_COLUMNS: dict[str, tuple[str, ...]] = {
    "file": ("File",),
    "line": ("Start Line",),
    "end_line": ("End Line",),
    "api": ("OP",),
    "advice": ("Tips",),
}
BRIEF_KEYS = {  # api_brief_report.txt key -> counts key
    "Total API": "total",
    "Support": "supported",
    "Support after migrated by tool": "migrated_by_tool",
    "Support after migrated manually": "manual",
    "Analysing": "analysing",
    "Unsupport": "unsupported",
    "Deprecated": "deprecated",
    "NA": "na",
    "No operator is involved": "no_operator",
}


class MigrationReportError(ValueError):
    """A report file that cannot be read: the message names file, line and field."""


@dataclass
class Change:
    """A change the tool made: ``line`` is in the migrated file (convert_tf2npu's success report,
    msFmkTransplt's change list)."""

    file: str
    line: int
    end_line: int
    kind: str  # msFmkTransplt's Operation Type, "insert"/"modify" for convert_tf2npu
    text: str
    source: str  # the report file it came from


@dataclass
class ApiRow:
    """An API the tool analysed: ``line`` is in the input file."""

    file: str
    line: int
    module: str
    api: str
    support: str  # the tool's own value (Chinese for convert_tf2npu)
    category: str  # one of CATEGORIES
    advice: str
    source: str


@dataclass
class MigrationReport:
    tool: str  # "convert_tf2npu" | "msFmkTransplt"
    folder: str
    changes: list[Change] = field(default_factory=list)
    apis: list[ApiRow] = field(default_factory=list)
    brief: dict[str, dict[str, int]] = field(default_factory=dict)  # "in_brief"/"unique" -> counts
    files_read: list[str] = field(default_factory=list)
    converted_files: list[str] = field(default_factory=list)
    manual_notes: list[str] = field(default_factory=list)  # need_migration_doc.txt lines
    extra_tables: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # e.g. cuda_op_list.csv
    log_status: str = ""  # msFmkTransplt: "success" | "fail" | "" (no log)
    log_errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def unsupported(self) -> list[ApiRow]:
        return [a for a in self.apis if a.category in ("unsupported", "deprecated")]

    def counts(self) -> dict[str, int]:
        """Rows per category plus ``changes``, ``files`` (files with a change or an API row)."""
        c = Counter(a.category for a in self.apis)
        out = {cat: c.get(cat, 0) for cat in CATEGORIES}
        out["apis"] = len(self.apis)
        out["changes"] = len(self.changes)
        out["files"] = len({x.file for x in self.changes} | {a.file for a in self.apis})
        return out

    def by_file(self) -> dict[str, tuple[list[Change], list[ApiRow]]]:
        files: dict[str, tuple[list[Change], list[ApiRow]]] = {}
        for ch in self.changes:
            files.setdefault(ch.file, ([], []))[0].append(ch)
        for a in self.apis:
            files.setdefault(a.file, ([], []))[1].append(a)
        return dict(sorted(files.items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "folder": self.folder,
            "counts": self.counts(),
            "brief": self.brief,
            "changes": [asdict(c) for c in self.changes],
            "apis": [asdict(a) for a in self.apis],
            "files_read": self.files_read,
            "manual_notes": self.manual_notes,
            "log_status": self.log_status,
            "log_errors": self.log_errors,
            "warnings": self.warnings,
        }


# --- helpers ------------------------------------------------------------------------------------


def _text(path: Path) -> list[str]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise MigrationReportError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = raw.decode("gbk")
        except UnicodeDecodeError:
            raise MigrationReportError(f"{path}: not a text file (neither UTF-8 nor GBK)") from None
    return text.splitlines()


def _int(value: Any, where: str, column: str) -> int:
    if isinstance(value, bool):
        raise MigrationReportError(f"{where}: {column}: expected a line number, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    s = str(value if value is not None else "").strip()
    if re.fullmatch(r"\d+(\.0+)?", s):
        return int(float(s))
    raise MigrationReportError(f"{where}: {column}: expected a line number, got {s!r}")


def _columns(
    header: list[str], spec: dict[str, tuple[str, ...]], where: str, required: tuple[str, ...]
) -> dict[str, int]:
    names = [str(h).strip() if h is not None else "" for h in header]
    found: dict[str, int] = {}
    for key, aliases in spec.items():
        for alias in aliases:
            if alias in names:
                found[key] = names.index(alias)
                break
    missing = [spec[k][0] for k in required if k not in found]
    if missing:
        raise MigrationReportError(
            f"{where}: missing column {' / '.join(missing)} (header: {', '.join(n for n in names if n) or 'empty'})"
        )
    return found


def _rel(path: str, roots: tuple[str, ...]) -> str:
    p = path.replace("\\", "/")
    for root in roots:
        r = root.replace("\\", "/").rstrip("/") + "/"
        if p.startswith(r):
            return p[len(r) :]
    return p


def _category(value: str, where: str, warnings: list[str]) -> str:
    v = value.strip()
    if v in SUPPORT_VALUES:
        return SUPPORT_VALUES[v]
    warnings.append(f"{where}: support value {v!r} is not one of the documented ones ({', '.join(SUPPORT_VALUES)})")
    return "other"


# --- convert_tf2npu -----------------------------------------------------------------------------

_SUCCESS = re.compile(r"^(?P<file>.+?):(?P<line>\d+)\s+(?P<text>.*)$")
_FINISH = re.compile(r"^Finish conver(?:t)? file:\s*(?P<file>.+)$")
_FAILED = re.compile(r"^(?P<file>.+?):(?P<line>\d+),\s*NPU Unsupport(?:ed)? API:\s*(?P<api>.+)$")
_BRIEF_LINE = re.compile(r"^\s*(?P<n>\d+)\.(?P<label>[^:]+):\s*(?P<rest>.*)$")
_PAIR = re.compile(r"^\s*(?:in which\s+)?(?P<key>[A-Za-z][A-Za-z ]*?)\s*:\s*(?P<value>\S+)\s*$")


def read_success_report(path: Path, roots: tuple[str, ...] = ()) -> list[Change]:
    out = []
    for n, line in enumerate(_text(path), start=1):
        if not line.strip():
            continue
        m = _SUCCESS.match(line)
        if not m:
            raise MigrationReportError(f"{path}:{n}: expected '<file>:<line> <code>', got {line[:80]!r}")
        text = m.group("text").strip()
        if len(text) >= 2 and text[0] == text[-1] == '"':
            text = text[1:-1]
        ln = int(m.group("line"))
        kind = "modify" if text.startswith("change ") else "insert"
        out.append(Change(_rel(m.group("file"), roots), ln, ln, kind, text, path.name))
    return out


def read_failed_report(path: Path, roots: tuple[str, ...] = ()) -> tuple[list[ApiRow], list[str], list[str]]:
    """(unsupported API rows, files the tool finished, warnings for lines of no known form)."""
    rows: list[ApiRow] = []
    files: list[str] = []
    warnings: list[str] = []
    for n, line in enumerate(_text(path), start=1):
        if not line.strip():
            continue
        if m := _FINISH.match(line.strip()):
            files.append(_rel(m.group("file").strip(), roots))
        elif m := _FAILED.match(line.strip()):
            api = m.group("api").strip()
            rows.append(
                ApiRow(
                    _rel(m.group("file"), roots),
                    int(m.group("line")),
                    api.split(".")[0],
                    api,
                    "不支持",
                    "unsupported",
                    "",
                    path.name,
                )
            )
        else:
            warnings.append(f"{path}:{n}: line of no known form kept out: {line[:80]!r}")
    return rows, files, warnings


def read_api_analysis_xlsx(path: Path, roots: tuple[str, ...] = ()) -> tuple[list[ApiRow], list[str]]:
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - zip, XML and openpyxl errors all mean "not an xlsx"
        raise MigrationReportError(f"{path}: not a readable .xlsx workbook ({exc})") from None
    try:
        ws = wb.worksheets[0]
        rows_iter = ws.iter_rows(values_only=True)
        header = next(rows_iter, None)
        if header is None:
            raise MigrationReportError(
                f"{path}: the sheet is empty (expected the header 脚本文件名, 代码行, API名, 支持度)"
            )
        cols = _columns(list(header), XLSX_COLUMNS, f"{path}: sheet {ws.title}: row 1", XLSX_REQUIRED)
        warnings: list[str] = []
        out: list[ApiRow] = []
        for r, row in enumerate(rows_iter, start=2):
            if row is None or all(v is None or str(v).strip() == "" for v in row):
                continue
            where = f"{path}: sheet {ws.title}: row {r}"

            def cell(key: str, row: tuple = row) -> Any:
                i = cols.get(key)
                return row[i] if i is not None and i < len(row) else None

            support = str(cell("support") or "").strip()
            out.append(
                ApiRow(
                    _rel(str(cell("file") or "").strip(), roots),
                    _int(cell("line"), where, XLSX_COLUMNS["line"][0]),
                    str(cell("module") or "").strip(),
                    str(cell("api") or "").strip(),
                    support,
                    _category(support, where, warnings),
                    str(cell("advice") or "").strip(),
                    path.name,
                )
            )
        return out, warnings
    finally:
        wb.close()


def read_brief(path: Path) -> dict[str, dict[str, int]]:
    """``{"in_brief": {...}, "unique": {...}}`` from api_brief_report.txt (keys of :data:`BRIEF_KEYS`;
    an unknown key is kept under its own words)."""
    out: dict[str, dict[str, int]] = {}
    for n, line in enumerate(_text(path), start=1):
        if not line.strip():
            continue
        m = _BRIEF_LINE.match(line)
        if not m:
            raise MigrationReportError(
                f"{path}:{n}: expected '1.In brief: Total API: n, in which …', got {line[:80]!r}"
            )
        label = (
            "in_brief"
            if "brief" in m.group("label").lower()
            else "unique"
            if "duplicate" in m.group("label").lower()
            else m.group("label").strip()
        )
        counts: dict[str, int] = {}
        for part in m.group("rest").split(","):
            if not part.strip():
                continue
            p = _PAIR.match(part)
            if not p:
                raise MigrationReportError(f"{path}:{n}: expected 'Name: number' pairs, got {part.strip()!r}")
            key = p.group("key").strip()
            try:
                value = int(p.group("value"))
            except ValueError:
                raise MigrationReportError(f"{path}:{n}: {key}: expected a count, got {p.group('value')!r}") from None
            counts[BRIEF_KEYS.get(key, key)] = value
        out[label] = counts
    return out


# --- msFmkTransplt ------------------------------------------------------------------------------


def _read_csv(path: Path) -> tuple[list[str], list[tuple[int, list[str]]]]:
    lines = _text(path)
    reader = csv.reader(lines)
    try:
        header = next(reader)
    except StopIteration:
        raise MigrationReportError(f"{path}: empty file (expected a header line)") from None
    except csv.Error as exc:
        raise MigrationReportError(f"{path}:1: not CSV: {exc}") from None
    rows = []
    try:
        for row in reader:
            if row and any(c.strip() for c in row):
                rows.append((reader.line_num, row))
    except csv.Error as exc:
        raise MigrationReportError(f"{path}:{reader.line_num}: not CSV: {exc}") from None
    return header, rows


def read_change_list(path: Path) -> list[Change]:
    header, rows = _read_csv(path)
    cols = _columns(header, CHANGE_COLUMNS, f"{path}:1", ("file", "line"))
    out = []
    for n, row in rows:

        def get(key: str, row: list[str] = row) -> str:
            i = cols.get(key)
            return row[i].strip() if i is not None and i < len(row) else ""

        where = f"{path}:{n}"
        line = _int(get("line"), where, "Start Line")
        end = _int(get("end_line"), where, "End Line") if get("end_line") else line
        out.append(Change(get("file"), line, end, get("kind"), get("text"), path.name))
    return out


def read_api_csv(path: Path, category: str) -> list[ApiRow]:
    header, rows = _read_csv(path)
    cols = _columns(header, API_COLUMNS, f"{path}:1", ("file", "line", "api"))
    out = []
    for n, row in rows:

        def get(key: str, row: list[str] = row) -> str:
            i = cols.get(key)
            return row[i].strip() if i is not None and i < len(row) else ""

        api = get("api")
        out.append(
            ApiRow(
                get("file"),
                _int(get("line"), f"{path}:{n}", "Start Line"),
                api.split(".")[0],
                api,
                "",
                category,
                get("advice"),
                path.name,
            )
        )
    return out


def read_transplant_log(path: Path) -> tuple[str, list[str]]:
    """(``"success"`` / ``"fail"`` / ``""``, the [ERROR] messages) of msFmkTranspltlog.txt."""
    status = ""
    errors = []
    for line in _text(path):
        if "MsFmkTransplt run success" in line:
            status = "success"
        elif "MsFmkTransplt run fail" in line:
            status = "fail"
        elif "[ERROR]" in line:
            errors.append(line.split("[ERROR]", 1)[1].strip())
    return status, errors


# --- a report folder ----------------------------------------------------------------------------


def find_report_dir(folder: str | Path) -> Path:
    """The folder holding the report files: ``folder`` itself, or the one folder below it (up to 3
    levels: ``report_npu_<time>/``, ``<name>_msft/``, ``transplant_result_file/``) that holds them."""
    root = Path(folder)
    if not root.is_dir():
        raise MigrationReportError(f"{folder}: not a folder (expected a migration report folder)")
    names = set(TF_FILES) | set(PT_FILES)
    found = sorted({p.parent for p in root.glob("**/*") if p.name in names and len(p.relative_to(root).parts) <= 4})
    if not found:
        raise MigrationReportError(
            f"{folder}: no migration report here (expected success_report.txt / api_analysis_report.xlsx of "
            "convert_tf2npu or change_list.csv / unsupported_api.csv of msFmkTransplt)"
        )
    if len(found) > 1:
        top = [p for p in found if p == root]
        if top:
            return root
        listed = ", ".join(str(p.relative_to(root)) for p in found[:4])
        raise MigrationReportError(f"{folder}: more than one report folder below it ({listed}); open one of them")
    return found[0]


def read_report_folder(folder: str | Path, input_roots: tuple[str, ...] = ()) -> MigrationReport:
    """Every report file of one run. ``input_roots``: prefixes cut from the absolute file paths
    convert_tf2npu writes (the input folder on the host), so that files read as project paths."""
    d = find_report_dir(folder)
    present = {p.name for p in d.iterdir() if p.is_file()}
    if present & set(TF_FILES):
        return _read_tf(d, present, input_roots)
    return _read_pt(d, present)


def _read_tf(d: Path, present: set[str], roots: tuple[str, ...]) -> MigrationReport:
    rep = MigrationReport("convert_tf2npu", str(d))
    if "success_report.txt" in present:
        rep.changes = read_success_report(d / "success_report.txt", roots)
        rep.files_read.append("success_report.txt")
    if "api_analysis_report.xlsx" in present:
        rep.apis, warns = read_api_analysis_xlsx(d / "api_analysis_report.xlsx", roots)
        rep.warnings += warns
        rep.files_read.append("api_analysis_report.xlsx")
    if "failed_report.txt" in present:
        failed, rep.converted_files, warns = read_failed_report(d / "failed_report.txt", roots)
        rep.warnings += warns
        rep.files_read.append("failed_report.txt")
        known = {(a.file, a.line, a.api) for a in rep.apis}
        rep.apis += [a for a in failed if (a.file, a.line, a.api) not in known]
    if "api_brief_report.txt" in present:
        rep.brief = read_brief(d / "api_brief_report.txt")
        rep.files_read.append("api_brief_report.txt")
        total = rep.brief.get("in_brief", {}).get("total")
        xlsx_rows = sum(1 for a in rep.apis if a.source == "api_analysis_report.xlsx")
        if total is not None and "api_analysis_report.xlsx" in present and total != xlsx_rows:
            rep.warnings.append(
                f"{d / 'api_brief_report.txt'}: Total API {total} but api_analysis_report.xlsx has {xlsx_rows} rows"
            )
    if "need_migration_doc.txt" in present:
        rep.manual_notes = [ln for ln in _text(d / "need_migration_doc.txt") if ln.strip()]
        rep.files_read.append("need_migration_doc.txt")
    rep.changes.sort(key=lambda c: (c.file, c.line))
    rep.apis.sort(key=lambda a: (a.category not in ("unsupported", "deprecated"), a.file, a.line))
    return rep


def _read_pt(d: Path, present: set[str]) -> MigrationReport:
    rep = MigrationReport("msFmkTransplt", str(d))
    if "change_list.csv" in present:
        rep.changes = read_change_list(d / "change_list.csv")
        rep.files_read.append("change_list.csv")
    for name, category in PT_API_FILES.items():
        if name in present:
            rep.apis += read_api_csv(d / name, category)
            rep.files_read.append(name)
    if "cuda_op_list.csv" in present:
        header, rows = _read_csv(d / "cuda_op_list.csv")
        rep.extra_tables["cuda_op_list.csv"] = [dict(zip(header, row)) for _, row in rows]
        rep.files_read.append("cuda_op_list.csv")
        rep.warnings.append(f"{d / 'cuda_op_list.csv'}: its columns are not documented; shown as they are")
    if "msFmkTranspltlog.txt" in present:
        rep.log_status, rep.log_errors = read_transplant_log(d / "msFmkTranspltlog.txt")
        rep.files_read.append("msFmkTranspltlog.txt")
    rep.changes.sort(key=lambda c: (c.file, c.line))
    rep.apis.sort(key=lambda a: (a.category != "unsupported", a.file, a.line))
    return rep
