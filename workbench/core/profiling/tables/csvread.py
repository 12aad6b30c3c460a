"""Read CANN summary CSVs exactly and fast: by header name, `N/A` = missing, exact timestamps.

The CANN tools write numbers with tricks (see docs/cann-formats.md §2 and §10):
- missing values are ``N/A`` (never read as 0);
- torch_npu quotes start times with a trailing TAB (``"1736413971558972.912\\t"``);
- shapes are written with tripled quotes around ``81920,4096;8192,512`` (the CSV parser leaves
  one pair of quotes, which is stripped);
- timestamps are decimal µs since the epoch with 3 decimals: they are converted to int64 ns
  digit by digit, never through float64 (which loses the last digits at epoch magnitude).

Reading: Arrow's multi-threaded CSV parser (``pyarrow.csv``) reads each column straight into the
type its schema asks for: numbers as float64 / int64, text dictionary-encoded (a million rows of a
few hundred names cost 4 bytes a row), timestamps as text parsed digit by digit with Arrow compute
kernels. A file bigger than :data:`PIECE` is read in pieces split at record boundaries (quote
parity), each piece converted before the next is parsed, so the peak memory is the result plus one
piece, and a cancel takes effect between pieces. A column whose values do not fit the type asked for
(``12.0`` in an integer column, text in a PMU column) is read again as text and converted value
by value as before. Every conversion is checked; a malformed value raises
:class:`ProfilingDataError` naming the file, the line and the column. Line numbers are only counted
(:func:`record_lines`) when an error needs one.
"""

from __future__ import annotations

import codecs
import csv
import mmap
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from workbench.core.profiling.errors import ProfilingDataError

MISSING = frozenset({"", "N/A", "NA", "n/a", "nan", "NaN", "None", "null"})
_DECIMAL = re.compile(r"^[+-]?\d+(\.\d*)?$")
CHUNK = 8 << 20  # bytes per read of the line-number pass
PIECE = 96 << 20  # a bigger file is parsed in pieces of about this size
BLOCK = 8 << 20  # Arrow's parse block (the unit of its parallelism)
SAMPLE_ROWS = 64
INT64_MAX = 2**63 - 1
csv.field_size_limit(1 << 30)

# The kinds a column is read as (the looser kinds are the fallbacks of the stricter ones).
READ_KINDS = ("int", "float", "text", "ns", "ns_us")
_LOOSER = {"int": "text", "float": "text"}
_ARROW_TYPE = {
    "int": pa.int64(),
    "float": pa.float64(),
    "text": pa.dictionary(pa.int32(), pa.string()),
    "ns": pa.string(),
    "ns_us": pa.string(),
}
_CONVERSION = re.compile(r"In CSV column #(\d+): CSV conversion error to (\w+)")


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
    Blank lines are skipped, as the parser skips them. Only run when an error needs a line.
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


def _record_end(mm: mmap.mmap, start: int, at: int) -> int | None:
    """The offset after the first newline at or after ``at`` that ends a record, counting quote
    parity from ``start`` (a record boundary); None when the rest of the file is one record."""
    quotes = mm[start:at].count(b'"')
    pos = at
    while True:
        nl = mm.find(b"\n", pos)
        if nl < 0:
            return None
        quotes += mm[pos:nl].count(b'"')
        if quotes % 2 == 0:
            return nl + 1
        pos = nl + 1


def split_pieces(path: Path, piece: int | None = None) -> list[tuple[int, int]]:
    """Byte ranges of the data records (after the header), each about ``piece`` bytes, split
    where a newline is outside quotes."""
    piece = piece or PIECE
    with open(path, "rb") as fh:
        size = fh.seek(0, 2)
        if size == 0:
            return []
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            data_start = _record_end(mm, 0, 0)
            if data_start is None or data_start >= size:
                return []
            bounds = [data_start]
            while size - bounds[-1] > piece + piece // 4:
                end = _record_end(mm, bounds[-1], bounds[-1] + piece)
                if end is None or end >= size:
                    break
                bounds.append(end)
            bounds.append(size)
    return list(zip(bounds[:-1], bounds[1:]))


# ---- the table ----------------------------------------------------------------------------------


@dataclass
class Column:
    """One column as read: ``kind`` in :data:`READ_KINDS` and its arrays.

    int: ``values`` int64 + ``missing``; float: ``values`` float64 (NaN = missing); text:
    ``values`` int32 codes into ``uniques`` (cleaned strings, -1 = missing), in first-seen order;
    ns / ns_us: ``values`` exact int64 ns + ``missing``.
    """

    kind: str
    values: np.ndarray
    missing: np.ndarray | None = None
    uniques: list[str] = field(default_factory=list)
    error: tuple[int, str, str] | None = None  # (row, expected, value) of a bad timestamp


@dataclass
class CsvTable:
    """A parsed CSV: cleaned header, its columns as read, and each row's line number on demand."""

    path: Path
    header: list[str]
    columns: dict[int, Column]
    rows: int
    _lines: np.ndarray | None = None

    def __len__(self) -> int:
        return self.rows

    @property
    def lines(self) -> np.ndarray:
        """Line number of every record (counted on first use: only errors need them)."""
        if self._lines is None:
            self._lines = record_lines(self.path, len(self.header))
        return self._lines

    def line_of(self, row: int) -> str:
        try:
            lines = self.lines
        except ProfilingDataError:
            lines = np.zeros(0, dtype=np.int64)
        if 0 <= row < len(lines) and len(lines) == self.rows:
            return f"line {int(lines[row])}"
        return f"record {row + 1}"

    def fail(self, row: int, column: int, expected: str, value: object) -> ProfilingDataError:
        return ProfilingDataError(
            f"{self.path}: {self.line_of(row)}, column '{self.header[column]}': expected {expected}, got {value!r}"
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
    read_kinds: Callable[[list[str], list[list[str]]], dict[int, str]],
    cancel_check: Callable[[], None] | None = None,
) -> CsvTable:
    """Parse ``path``; ``read_kinds(header, sample_rows)`` says how each column is read (a kind of
    :data:`READ_KINDS`; columns it leaves out are read as ``float``)."""
    header, sample = _sample(path)
    width = len(header)
    asked = read_kinds(header, sample)
    kinds = {i: asked.get(i, "float") for i in range(width)}
    try:
        pieces = split_pieces(path)
    except OSError as exc:
        raise ProfilingDataError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    whole = False  # read unsplit (after a split whose pieces did not parse)
    while True:
        try:
            parts = _read_pieces(path, [(pieces[0][0], pieces[-1][1])] if whole else pieces, kinds, cancel_check)
            break
        except _Looser as exc:
            kinds[exc.index] = _LOOSER[kinds[exc.index]]
        except _Unparsable as exc:
            if len(pieces) > 1 and not whole:
                whole = True
                continue
            raise _structure_error(path, width, exc.message) from None
    rows = sum(len(c.values) for p in parts if (c := p[0]) is not None) if width else 0
    columns = {}
    for i in range(width):  # each column joined, then its pieces dropped: never the table twice
        columns[i] = _join(kinds[i], [p[i] for p in parts])
        for p in parts:
            p[i] = None
    table = CsvTable(path, header, columns, rows)
    for i, col in columns.items():  # a timestamp error found while reading: named now
        if col.error is not None:
            raise table.fail(*col.error[:1], i, *col.error[1:])
    return table


class _Looser(Exception):
    """Column ``index`` holds values its kind refuses: read it one kind looser."""

    def __init__(self, index: int) -> None:
        self.index = index


class _Unparsable(Exception):
    def __init__(self, message: str) -> None:
        self.message = message


def _structure_error(path: Path, width: int, message: str) -> ProfilingDataError:
    """The exact error of a file Arrow refused: a record of the wrong width names its line."""
    if "invalid UTF8" in message:
        line = _bad_utf8_line(path)
        where = f"line {line}: " if line is not None else ""
        return ProfilingDataError(f"{path}: {where}not UTF-8 text (expected a text CSV file)")
    record_lines(path, width)  # raises naming the line of a record of the wrong width
    first = message.strip().splitlines()[0] if message.strip() else "unreadable"
    return ProfilingDataError(f"{path}: unreadable CSV ({first[:200]})")


def _bad_utf8_line(path: Path) -> int | None:
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(CHUNK), b""):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                return line + chunk.count(b"\n", 0, max(0, exc.start))
            line += chunk.count(b"\n")
    return None


def _read_pieces(
    path: Path,
    pieces: list[tuple[int, int]],
    kinds: dict[int, str],
    cancel_check: Callable[[], None] | None,
) -> list[list[Column | None]]:
    """Each piece parsed and converted (a list of columns per piece)."""
    width = len(kinds)
    names = [f"c{i}" for i in range(width)]
    read_options = pacsv.ReadOptions(column_names=names, block_size=BLOCK, use_threads=True)
    parse_options = pacsv.ParseOptions(newlines_in_values=True)
    convert_options = pacsv.ConvertOptions(
        column_types={names[i]: _ARROW_TYPE[k] for i, k in kinds.items()},
        null_values=sorted(MISSING),
        strings_can_be_null=True,
        quoted_strings_can_be_null=True,
        true_values=[],
        false_values=[],
        timestamp_parsers=[],
    )
    seen: dict[int, dict[str, int]] = {i: {} for i, k in kinds.items() if k == "text"}
    uniques: dict[int, list[str]] = {i: [] for i in seen}
    parts: list[list[Column | None]] = []
    offset = 0
    with pa.memory_map(str(path)) as source:
        for start, end in pieces:
            if cancel_check is not None:
                cancel_check()
            data = source.read_at(end - start, start)
            try:
                table = pacsv.read_csv(
                    pa.BufferReader(data),
                    read_options=read_options,
                    parse_options=parse_options,
                    convert_options=convert_options,
                )
            except pa.ArrowInvalid as exc:
                message = str(exc)
                if message.startswith("Empty CSV"):  # only blank lines
                    table = pa.table({n: pa.array([], type=_ARROW_TYPE[kinds[i]]) for i, n in enumerate(names)})
                else:
                    conversion = _CONVERSION.search(message)
                    if conversion and conversion.group(2) != "string" and int(conversion.group(1)) in _looser_ok(kinds):
                        raise _Looser(int(conversion.group(1))) from None
                    raise _Unparsable(message) from None
            del data
            part: list[Column | None] = []
            for i in range(width):
                chunked = table.column(i)
                kind = kinds[i]
                if kind == "text":
                    part.append(_text_piece(chunked, seen[i], uniques[i]))
                elif kind in ("ns", "ns_us"):
                    part.append(_ns_piece(chunked, "us" if kind == "ns_us" else "auto", offset))
                elif kind == "int":
                    values = pc.fill_null(chunked, 0).to_numpy()
                    part.append(Column(kind, values, chunked.is_null().to_numpy()))
                else:
                    part.append(Column(kind, chunked.to_numpy()))  # float: nulls become NaN
            offset += table.num_rows
            del table
            parts.append(part)
    for p in parts:  # the text columns share their uniques (first-seen order over all pieces)
        for i, col in enumerate(p):
            if col is not None and col.kind == "text":
                col.uniques = uniques[i]
    return parts


def _looser_ok(kinds: dict[int, str]) -> set[int]:
    return {i for i, k in kinds.items() if k in _LOOSER}


def _text_piece(chunked: pa.ChunkedArray, seen: dict[str, int], uniques: list[str]) -> Column:
    """Dictionary-encoded text as codes into the file's cleaned uniques (missing = -1)."""
    codes = []
    for chunk in chunked.chunks:
        words = chunk.dictionary.to_pylist()
        lut = np.empty(len(words) + 1, dtype=np.int32)
        for n, word in enumerate(words):
            code = seen.get(word)  # ``seen`` maps raw and cleaned words: each is cleaned once per file
            if code is None:
                value = clean(word)
                code = -1 if value in MISSING else seen.get(value)
                if code is None:
                    code = seen[value] = len(uniques)
                    uniques.append(value)
                seen[word] = code
            lut[n] = code
        lut[-1] = -1
        indices = pc.fill_null(chunk.indices, len(words)).to_numpy()
        codes.append(lut[indices])
    values = np.concatenate(codes) if codes else np.zeros(0, dtype=np.int32)
    return Column("text", values)


_NUMBER = r"^(?P<sign>[+-]?)(?P<whole>\d*)(?P<dot>\.?)(?P<frac>\d*)$"
_US_WHOLE_MAX = INT64_MAX // 1000 - 1


def _ns_piece(chunked: pa.ChunkedArray, unit: str, offset: int) -> Column:
    """Decimal timestamps as exact int64 ns, parsed digit by digit by Arrow kernels.

    ``unit='auto'``: 18+ digit values are ns already. A malformed value is kept in ``uniques``
    as (row, expected, value) and raised once the table can name its line.
    """
    text = pc.utf8_trim_whitespace(chunked)
    text = pc.utf8_trim_whitespace(pc.utf8_trim(text, '"'))
    missing = pc.or_kleene(pc.is_null(text), pc.is_in(text, pa.array(sorted(MISSING)))).to_numpy(zero_copy_only=False)
    missing = np.asarray(missing, dtype=bool)
    parts = pc.extract_regex(pc.fill_null(text, "0"), _NUMBER)
    ok = np.asarray(parts.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
    n = len(missing)
    if not n:
        return Column("ns", np.zeros(0, dtype=np.int64), missing)
    parts = pc.fill_null(parts, {"sign": "", "whole": "", "dot": "", "frac": ""}) if not ok.all() else parts
    whole = pc.struct_field(parts, "whole")
    frac = pc.struct_field(parts, "frac")
    dot = pc.struct_field(parts, "dot")
    whole_len = pc.utf8_length(whole).to_numpy(zero_copy_only=False)
    has_dot = pc.equal(dot, ".").to_numpy(zero_copy_only=False)
    frac_len = pc.utf8_length(frac).to_numpy(zero_copy_only=False)
    ok &= (whole_len > 0) | has_dot
    ok &= has_dot | (frac_len == 0)
    bad = np.flatnonzero(~ok & ~missing)
    if len(bad):
        return _ns_error(n, missing, offset + int(bad[0]), "a decimal timestamp in µs or N/A", text, int(bad[0]))
    use = ~missing
    too_long = np.flatnonzero((whole_len > 18) & use)
    if len(too_long):
        k = int(too_long[0])
        return _ns_error(n, missing, offset + k, "a timestamp that fits in 64 bits", text, k)
    w = pc.cast(pc.utf8_lpad(whole, 1, "0"), pa.int64()).to_numpy(zero_copy_only=False)
    frac4 = pc.utf8_rpad(frac, 4, "0")
    ms = pc.cast(pc.utf8_slice_codeunits(frac4, 0, 3), pa.int64()).to_numpy(zero_copy_only=False)
    fourth = pc.cast(pc.utf8_slice_codeunits(frac4, 3, 4), pa.int64()).to_numpy(zero_copy_only=False)
    first = ms // 100
    as_ns = np.zeros(n, dtype=bool) if unit == "us" else whole_len >= 18
    overflow = np.flatnonzero(use & ~as_ns & (w > _US_WHOLE_MAX))
    if len(overflow):
        k = int(overflow[0])
        return _ns_error(n, missing, offset + k, "a timestamp that fits in 64 bits", text, k)
    data = np.where(as_ns, w + (first >= 5), w * 1000 + ms + (fourth >= 5))
    negative = pc.equal(pc.struct_field(parts, "sign"), "-").to_numpy(zero_copy_only=False)
    data = np.where(negative, -data, data)
    data[missing] = 0
    return Column("ns", data.astype(np.int64, copy=False), missing)


def _ns_error(n: int, missing: np.ndarray, row: int, expected: str, text: pa.ChunkedArray, k: int) -> Column:
    value = text.take(pa.array([k]))[0].as_py()
    return Column("ns", np.zeros(n, dtype=np.int64), missing, error=(row, expected, str(value)))


def _join(kind: str, pieces: list[Column | None]) -> Column:
    """The pieces of one column as one, freeing each piece's arrays as it is copied."""
    if not pieces:
        empty = {"float": np.float64, "text": np.int32}.get(kind, np.int64)
        return Column(kind, np.zeros(0, dtype=empty), np.zeros(0, dtype=bool))
    cols = [p for p in pieces if p is not None]
    first = cols[0]
    if len(cols) == 1:
        return first
    error = next((p.error for p in cols if p.error is not None), None)
    values = np.concatenate([p.values for p in cols])
    missing = None if first.missing is None else np.concatenate([p.missing for p in cols if p.missing is not None])
    return Column(kind, values, missing, first.uniques, error)


# ---- typed column conversion ------------------------------------------------------------------


def _sorted_categorical(col: Column) -> pd.Categorical:
    """Text codes (first-seen uniques) as a pd.Categorical with sorted categories."""
    order = sorted(range(len(col.uniques)), key=col.uniques.__getitem__)
    lut = np.empty(len(order) + 1, dtype=np.int32)
    lut[order] = np.arange(len(order), dtype=np.int32)
    lut[-1] = -1
    codes = lut[col.values]  # -1 indexes the trailing -1
    categories = pd.Index([col.uniques[i] for i in order], dtype=object)
    return pd.Categorical.from_codes(codes, categories=categories)


def _first_row(codes: np.ndarray, bad_codes: list[int]) -> int:
    return int(np.flatnonzero(np.isin(codes, np.asarray(bad_codes, dtype=codes.dtype)))[0])


def to_float(table: CsvTable, index: int, scale: float = 1.0) -> np.ndarray:
    """Column as float64 with NaN for missing; a non-number names its line."""
    col = table.columns[index]
    if col.kind == "float":
        out = col.values
    elif col.kind == "int":
        out = col.values.astype(np.float64)
        out[col.missing] = np.nan
    else:
        lut = np.full(len(col.uniques) + 1, np.nan)
        bad: list[int] = []
        for n, word in enumerate(col.uniques):
            try:
                lut[n] = float(word)
            except ValueError:
                bad.append(n)
        if bad:
            row = _first_row(col.values, bad)
            raise table.fail(row, index, "a number or N/A", col.uniques[int(col.values[row])])
        out = lut[col.values]
    return out * scale if scale != 1.0 else out


def _int_of(word: str) -> int:
    """``12`` or ``12.0`` as an int; ValueError otherwise, OverflowError beyond int64."""
    try:
        value = int(word)
    except ValueError:
        f = float(word)
        if not f.is_integer():
            raise ValueError(word) from None
        value = int(f)
    if not -(2**63) <= value <= INT64_MAX:
        raise OverflowError(word)
    return value


def to_int(table: CsvTable, index: int) -> pd.arrays.IntegerArray:
    """Column as nullable Int64 (missing = <NA>); accepts ``12`` and ``12.0``."""
    col = table.columns[index]
    if col.kind == "int":
        assert col.missing is not None
        return pd.arrays.IntegerArray(col.values, col.missing)
    if col.kind == "float":
        data = col.values
        missing = np.isnan(data)
        ok = missing | ((data == np.floor(data)) & (np.abs(data) < 2.0**53))
        if ok.all():
            return pd.arrays.IntegerArray(np.where(missing, 0, data).astype(np.int64), missing)
        i = int(np.flatnonzero(~ok)[0])
        raise table.fail(i, index, "an integer or N/A", float(data[i]))
    lut = np.zeros(len(col.uniques) + 1, dtype=np.int64)
    for n, word in enumerate(col.uniques):
        try:
            lut[n] = _int_of(word)
        except OverflowError:  # beyond int64: one clear error, never a wrapped number
            row = _first_row(col.values, [n])
            raise table.fail(row, index, "an integer that fits in 64 bits or N/A", word) from None
        except ValueError:
            row = _first_row(col.values, [n])
            raise table.fail(row, index, "an integer or N/A", word) from None
    return pd.arrays.IntegerArray(lut[col.values], col.values < 0)


def to_ns(table: CsvTable, index: int, unit: str = "us") -> pd.arrays.IntegerArray:
    """The exact nullable int64 ns of a column read as ``ns`` / ``ns_us``."""
    col = table.columns[index]
    assert col.kind in ("ns", "ns_us") and col.missing is not None, col.kind
    return pd.arrays.IntegerArray(col.values, col.missing)


def to_str(table: CsvTable, index: int) -> pd.Categorical:
    """Column as a categorical of cleaned strings (missing = NaN): compact for a million rows."""
    col = table.columns[index]
    if col.kind == "text":
        return _sorted_categorical(col)
    raise AssertionError(f"column {index} was read as {col.kind}, not text")


_INTEGER_HEADER = re.compile(r"(cycles?|count|calls|\bid\b|_id$|\bnum\b|pid|tid|iteration|step)", re.IGNORECASE)


def auto_read_kind(header: str) -> str:
    """How a column no schema knows is read first: int where its header names a counter or id."""
    return "int" if _INTEGER_HEADER.search(header) else "float"


def auto_column(table: CsvTable, index: int) -> object:
    """Numbers become float64 (Int64 for integral counters/ids named so), anything else strings.

    The choice depends on the header, not on the values, so the same column has the same type
    in every file (a ratio column that happens to be all ``0`` is still float).
    """
    col = table.columns[index]
    if col.kind == "text" and not (col.uniques and all(_DECIMAL.match(v) for v in col.uniques)):
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
