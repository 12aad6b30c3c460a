"""FROZEN COPY of the pandas-based csvread.py before issue #18 (the oracle of test_csv_arrow.py); do not edit."""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from workbench.core.profiling.errors import ProfilingDataError

MISSING = frozenset({"", "N/A", "NA", "n/a", "nan", "NaN", "None", "null"})
_DECIMAL = re.compile(r"^[+-]?\d+(\.\d*)?$")
CHUNK = 8 << 20
SAMPLE_ROWS = 64
csv.field_size_limit(1 << 30)


def clean(value: str) -> str:
    """Strip the decoration CANN puts around values: whitespace, TABs and stray quote pairs."""
    value = value.strip()
    while len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        value = value[1:-1].strip()
    return value


def is_decimal(text: str) -> bool:
    return bool(_DECIMAL.match(text))


def decimal_us_to_ns(text: str) -> int:
    """``"1736413971558972.912"`` -> 1736413971558972912 exactly (rounds beyond the ns digit)."""
    if not _DECIMAL.match(text):
        raise ValueError(text)
    sign = -1 if text[0] == "-" else 1
    text = text.lstrip("+-")
    whole, _, frac = text.partition(".")
    frac = frac + "0000"
    ns = int(whole or "0") * 1000 + int(frac[:3])
    if frac[3] >= "5":
        ns += 1
    return sign * ns


def decimal_ns_to_ns(text: str) -> int:
    if not _DECIMAL.match(text):
        raise ValueError(text)
    whole, _, frac = text.partition(".")
    value = int(whole)
    if frac[:1] >= "5":
        value += 1 if value >= 0 else -1
    return value


# ---- structure ---------------------------------------------------------------------------------


def record_lines(path: Path, width: int, cancel_check: Callable[[], None] | None = None) -> np.ndarray:
    """Line number of every data record; a record whose field count differs from ``width`` raises.

    Commas and newlines inside quotes do not count (quote parity, so doubled quotes are fine).
    Blank lines are skipped, as the parser skips them.
    """
    starts: list[np.ndarray] = []
    parity = 0  # inside quotes at the chunk start?
    fields = 1  # fields of the current record so far
    rec_len = 0  # bytes of the current record so far (blank-line detection)
    line = 1  # physical line of the chunk start
    rec_line = 1  # line where the current record started
    header_done = False
    with open(path, "rb") as fh:
        while True:
            chunk = fh.read(CHUNK)
            if not chunk:
                break
            if cancel_check is not None:
                cancel_check()
            b = np.frombuffer(chunk, dtype=np.uint8)
            # quote parity (uint8 cumsum wraps, parity survives): 0 = outside quotes
            quotes = np.cumsum((b == 34).view(np.uint8), dtype=np.uint8) + np.uint8(parity)
            outside = (quotes & 1) == 0
            nl_all = np.flatnonzero(b == 10)
            ends = nl_all[outside[nl_all]]
            commas = np.cumsum((b == 44) & outside, dtype=np.int32)  # a chunk holds < 2^31 bytes
            if len(ends):
                at_end = commas[ends].astype(np.int64)
                counts = np.diff(np.concatenate(([0], at_end))) + 1
                tail_commas = int(commas[-1]) - int(at_end[-1])
                counts[0] += fields - 1
                lengths = ends - np.concatenate(([-1], ends[:-1]))  # bytes incl. the newline
                lengths[0] += rec_len
                end_lines = line + np.searchsorted(nl_all, ends)  # line of each record's newline
                start_lines = np.concatenate(([rec_line], end_lines[:-1] + 1))
                blank = (counts == 1) & (lengths <= 2) & _blank_bytes(b, ends, rec_len)
                bad = np.flatnonzero((counts != width) & ~blank)
                if not header_done:
                    bad = bad[bad > 0]
                if len(bad):
                    k = int(bad[0])
                    raise ProfilingDataError(
                        f"{path}: line {int(start_lines[k])}: expected {width} fields as in "
                        f"the header, got {int(counts[k])}"
                    )
                keep = ~blank
                if not header_done:
                    keep[0] = False
                    header_done = True
                starts.append(start_lines[keep])
                fields = tail_commas + 1
                rec_len = len(b) - int(ends[-1]) - 1
                rec_line = int(end_lines[-1]) + 1
            else:
                fields += int(commas[-1])
                rec_len += len(b)
            line += len(nl_all)
            parity = int(quotes[-1]) & 1
    if rec_len and not (rec_len <= 1 and fields == 1) and header_done:
        if fields != width:
            raise ProfilingDataError(
                f"{path}: line {rec_line}: expected {width} fields as in the header, "
                f"got {fields} (the file may be truncated)"
            )
        starts.append(np.array([rec_line]))
    return np.concatenate(starts) if starts else np.zeros(0, dtype=np.int64)


def _blank_bytes(b: np.ndarray, ends: np.ndarray, carried: int) -> np.ndarray:
    """True where the record ending at ``ends`` holds only an optional CR."""
    prev = np.concatenate(([-1], ends[:-1]))
    length = ends - prev - 1
    length[0] += carried
    cr = np.zeros(len(ends), dtype=bool)
    ok = length == 1
    idx = ends[ok] - 1
    cr[ok] = b[idx] == 13 if len(idx) else cr[ok]
    return (length == 0) | cr


# ---- the table ----------------------------------------------------------------------------------


@dataclass
class CsvTable:
    """A parsed CSV: cleaned header, positional columns as parsed, and each row's line number."""

    path: Path
    header: list[str]
    frame: pd.DataFrame  # columns 0..width-1
    lines: np.ndarray

    def __len__(self) -> int:
        return len(self.frame)

    def fail(self, row: int, column: int, expected: str, value: object) -> ProfilingDataError:
        return ProfilingDataError(
            f"{self.path}: line {int(self.lines[row])}, column '{self.header[column]}': "
            f"expected {expected}, got {value!r}"
        )


def _sample(path: Path) -> tuple[list[str], list[list[str]]]:
    try:
        fh = open(path, newline="", encoding="utf-8-sig", errors="strict")  # noqa: SIM115 - the with follows: open's error apart
    except OSError as exc:
        raise ProfilingDataError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    with fh:
        try:
            head = fh.read(65536)
        except UnicodeDecodeError as exc:
            raise ProfilingDataError(f"{path}: not a text CSV file (binary data at byte {exc.start})") from exc
        if "\x00" in head:
            raise ProfilingDataError(f"{path}: not a text CSV file (binary data)")
        fh.seek(0)
        reader = csv.reader(fh)
        try:
            header = next(reader)
            rows = [r for _, r in zip(range(SAMPLE_ROWS), reader)]
        except StopIteration:
            raise ProfilingDataError(f"{path}: empty file (expected a CSV header line)") from None
        except (csv.Error, UnicodeDecodeError) as exc:
            raise ProfilingDataError(f"{path}: line {reader.line_num}: unreadable CSV ({exc})") from exc
    return [clean(h) for h in header], [[clean(v) for v in r] for r in rows]


def read_csv(
    path: Path,
    text_columns: Callable[[list[str], list[list[str]]], set[int]],
    cancel_check: Callable[[], None] | None = None,
) -> CsvTable:
    """Parse ``path``; ``text_columns(header, sample_rows)`` names the columns kept as text."""
    header, sample = _sample(path)
    width = len(header)
    lines = record_lines(path, width, cancel_check)
    as_text = text_columns(header, sample)
    try:
        frame = pd.read_csv(
            path,
            header=None,
            skiprows=1,
            names=list(range(width)),
            dtype={i: str for i in as_text},
            na_values=sorted(MISSING),
            keep_default_na=False,
            engine="c",
            encoding="utf-8-sig",
            skip_blank_lines=True,
            low_memory=False,
        )
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as exc:
        raise ProfilingDataError(f"{path}: unreadable CSV ({str(exc).strip()})") from exc
    except pd.errors.EmptyDataError:
        frame = pd.DataFrame({i: pd.Series(dtype=object) for i in range(width)})
    if len(frame) != len(lines):
        raise ProfilingDataError(f"{path}: {len(lines)} records found but {len(frame)} parsed (unbalanced quotes?)")
    return CsvTable(path, header, frame, lines)


# ---- typed column conversion ------------------------------------------------------------------


def _text(table: CsvTable, index: int) -> tuple[np.ndarray, np.ndarray]:
    """Column ``index`` as cleaned strings (numpy ``U``) and a missing mask."""
    col = table.frame[index]
    missing = col.isna().to_numpy()
    values = np.strings.strip(col.fillna("").astype(str).to_numpy(dtype=str))
    values = np.strings.strip(np.strings.strip(values, '"'))
    missing = missing | np.isin(values, list(MISSING))
    return values, missing


def _first_bad(ok: np.ndarray, missing: np.ndarray) -> int | None:
    bad = np.flatnonzero(~ok & ~missing)
    return int(bad[0]) if len(bad) else None


def to_float(table: CsvTable, index: int, scale: float = 1.0) -> np.ndarray:
    """Column as float64 with NaN for missing; a non-number names its line."""
    col = table.frame[index]
    if pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype):
        out = col.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        values, missing = _text(table, index)
        out = np.full(len(values), np.nan)
        for i in np.flatnonzero(~missing).tolist():
            try:
                out[i] = float(values[i])
            except ValueError:
                raise table.fail(i, index, "a number or N/A", str(values[i])) from None
    return out * scale if scale != 1.0 else out


def to_int(table: CsvTable, index: int) -> pd.arrays.IntegerArray:
    """Column as nullable Int64 (missing = <NA>); accepts ``12`` and ``12.0``."""
    col = table.frame[index]
    if pd.api.types.is_integer_dtype(col.dtype):
        data = col.to_numpy(dtype=np.int64)
        return pd.arrays.IntegerArray(data, np.zeros(len(data), dtype=bool))
    if pd.api.types.is_float_dtype(col.dtype):
        data = col.to_numpy(dtype=np.float64)
        missing = np.isnan(data)
        ok = missing | ((data == np.floor(data)) & (np.abs(data) < 2.0**53))
        if ok.all():
            return pd.arrays.IntegerArray(np.where(missing, 0, data).astype(np.int64), missing)
        i = int(np.flatnonzero(~ok)[0])
        raise table.fail(i, index, "an integer or N/A", data[i])
    values, missing = _text(table, index)
    data = np.zeros(len(values), dtype=np.int64)
    for i in np.flatnonzero(~missing).tolist():
        v = str(values[i])
        try:
            data[i] = int(v)
        except OverflowError:  # beyond int64: one clear error, never a wrapped number
            raise table.fail(i, index, "an integer that fits in 64 bits or N/A", v) from None
        except ValueError:
            try:
                f = float(v)
                if not f.is_integer():
                    raise ValueError(v) from None
                data[i] = int(f)
            except (ValueError, OverflowError):
                raise table.fail(i, index, "an integer or N/A", v) from None
    return pd.arrays.IntegerArray(data, missing)


def to_ns(table: CsvTable, index: int, unit: str = "us") -> pd.arrays.IntegerArray:
    """Decimal timestamps as exact nullable int64 ns; ``unit='auto'`` treats 18+ digit values as ns."""
    values, missing = _text(table, index)
    present = np.where(missing, "0", values)
    negative = np.strings.startswith(present, "-")
    body = np.strings.lstrip(present, "+-")
    whole, dot, frac = np.strings.partition(body, ".")
    ok = (
        (np.strings.isdigit(whole) | (np.strings.str_len(whole) == 0))
        & (np.strings.isdigit(frac) | (np.strings.str_len(frac) == 0))
        & (np.strings.str_len(body) > 0)
    )
    bad = _first_bad(ok, missing)
    if bad is not None:
        raise table.fail(bad, index, "a decimal timestamp in µs or N/A", str(values[bad]))
    whole = np.where(np.strings.str_len(whole) == 0, "0", whole)
    digits = np.strings.str_len(whole)
    if (digits > 18).any():
        i = int(np.flatnonzero(digits > 18)[0])
        raise table.fail(i, index, "a timestamp that fits in 64 bits", str(values[i]))
    w = whole.astype(np.int64)
    frac4 = np.strings.ljust(frac, 4, "0")
    ms = np.strings.slice(frac4, 0, 3).astype(np.int64)
    round_up = np.strings.slice(frac4, 3, 4).astype(np.int64) >= 5
    as_ns = (unit == "ns") | ((unit == "auto") & (digits >= 18))
    first_frac = np.strings.slice(frac4, 0, 1).astype(np.int64) >= 5
    us_value = np.where(as_ns, 0, w) * 1000 + np.where(as_ns, 0, ms + round_up)
    ns_value = np.where(as_ns, w + first_frac, 0)
    data = np.where(as_ns, ns_value, us_value)
    data = np.where(negative, -data, data)
    return pd.arrays.IntegerArray(np.where(missing, 0, data).astype(np.int64), missing)


def to_str(table: CsvTable, index: int) -> pd.Categorical:
    """Column as a categorical of cleaned strings (missing = NaN): compact for a million rows."""
    col = table.frame[index]
    cat = pd.Categorical(col.astype(object).where(col.notna(), None))
    cats = [clean(str(c)) for c in cat.categories]
    codes = np.asarray(cat.codes, dtype=np.int64)
    if cats != [str(c) for c in cat.categories] or any(c in MISSING for c in cats):
        uniq = pd.Index(sorted({c for c in cats if c not in MISSING}))
        remap = np.array([uniq.get_loc(c) if c not in MISSING else -1 for c in cats] + [-1], dtype=np.int64)
        codes = remap[codes]
        return pd.Categorical.from_codes(codes, categories=uniq)
    return cat


_INTEGER_HEADER = re.compile(r"(cycles?|count|calls|\bid\b|_id$|\bnum\b|pid|tid|iteration|step)", re.IGNORECASE)


def auto_column(table: CsvTable, index: int) -> object:
    """Numbers become float64 (Int64 for integral counters/ids named so), anything else strings.

    The choice depends on the header, not on the values, so the same column has the same type
    in every file (a ratio column that happens to be all ``0`` is still float).
    """
    col = table.frame[index]
    numeric = pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype)
    if not numeric:
        values, missing = _text(table, index)
        present = values[~missing]
        if len(present) and all(_DECIMAL.match(v) for v in np.unique(present).tolist()):
            numeric = True
    if not numeric:
        return to_str(table, index)
    if _INTEGER_HEADER.search(table.header[index]):
        try:
            return to_int(table, index)
        except ProfilingDataError:
            pass
    return to_float(table, index)


def find_column(header: list[str], aliases: list[str]) -> int | None:
    """Index of the first header matching one of ``aliases`` (case- and space-insensitive)."""
    norm = [_norm(h) for h in header]
    for alias in aliases:
        key = _norm(alias)
        if key in norm:
            return norm.index(key)
    return None


def _norm(name: str) -> str:
    return re.sub(r"\s+", "", name).lower()
