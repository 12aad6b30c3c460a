"""Read CANN summary CSVs exactly and fast: by header name, `N/A` = missing, exact timestamps.

The CANN tools write numbers with tricks (see docs/cann-formats.md §2 and §10):
- missing values are ``N/A`` (never read as 0);
- torch_npu quotes start times with a trailing TAB (``"1736413971558972.912\\t"``);
- shapes are written with tripled quotes around ``81920,4096;8192,512`` (the CSV parser leaves
  one pair of quotes, which is stripped);
- timestamps are decimal µs since the epoch with 3 decimals: they are converted to int64 ns
  digit by digit, never through float64 (which loses the last digits at epoch magnitude).

Reading: Arrow's CSV parser (``pyarrow.csv``) reads each column straight into the type its schema
asks for: numbers as float64 / int64, text dictionary-encoded, timestamps as text turned into int64
ns from a byte matrix when every value has one width (the usual ``1736413971558972.912``, TABs
around it or not), else digit by digit with Arrow compute kernels. A file bigger than :data:`PIECE`
is read in pieces split at record boundaries (quote parity; each boundary found as the reading goes,
so parsing starts at once), :data:`AHEAD` pieces parsed at once (one thread each, without the GIL:
the thread also fills its piece's number nulls, unpacks its text codes and turns its timestamps
into ns) while the one before is copied into the result; each piece is read into a buffer
(never memory-mapped: mapped pages of the whole file would count as the process's memory)
and its columns are appended to result columns sized for the whole file: anonymous memory maps, so
the room never written costs nothing (numpy's huge-page advice would hold up to 2 MB more per
column). Numbers are copied once, from Arrow's buffers; text keeps each piece's own codes (int16
while they fit) until the pieces of :data:`TRIM` bytes are mapped to the file's codes with one hash
lookup of their dictionaries, every new word cleaned once. What the pieces allocated is handed back
to the system (Arrow's system pool, glibc ``malloc_trim``) every :data:`TRIM` bytes, so the peak
memory is the result plus a few pieces, and a cancel takes effect between pieces. A column whose
values do not fit the type asked for (``12.0`` in an integer column, text in a PMU column) is read
again as text and converted value by value as before. Every conversion is checked; a malformed
value raises :class:`ProfilingDataError` naming the file, the line and the column. Line numbers are
only counted (:func:`record_lines`) when an error needs one.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import mmap
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from workbench.core.memtrim import release_freed
from workbench.core.profiling.errors import ProfilingDataError

from . import decimals

MISSING = frozenset({"", "N/A", "NA", "n/a", "nan", "NaN", "None", "null"})
_DECIMAL = re.compile(r"^[+-]?\d+(\.\d*)?$")
CHUNK = 8 << 20  # bytes per read of the line-number pass
PIECE = 2 << 20  # a bigger file is parsed in pieces of about this size, one parse block each
TRIM = 8 << 20  # bytes of pieces after which their text is resolved and what they freed handed back
AHEAD = 2  # pieces parsed at once (one thread each) while the one before is converted
SAMPLE_ROWS = 64
INT64_MAX = 2**63 - 1
csv.field_size_limit(1 << 30)

# The kinds a column is read as (the looser kinds are the fallbacks of the stricter ones).
READ_KINDS = ("int", "float", "decimal", "text", "ns", "ns_us")
_LOOSER = {"int": "text", "float": "text", "decimal": "text"}
_ARROW_TYPE = {
    "int": pa.int64(),
    "float": pa.float64(),
    "decimal": pa.float64(),
    "text": pa.dictionary(pa.int32(), pa.string()),
    "ns": pa.string(),
    "ns_us": pa.string(),
}
_CONVERSION = re.compile(r"In CSV column #(\d+): (?:Row #\d+: )?CSV conversion error to (\w+)")


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


SCAN = 4 << 20  # bytes per read of the piece split (read, not mapped: mapped pages count as memory)


def _quotes(chunk: bytes, start: int, stop: int) -> int:
    """The quote characters in ``chunk[start:stop]`` (vectorised: bytes.count is a byte loop)."""
    if stop - start < 65536:
        return chunk.count(b'"', start, stop)
    return int(np.count_nonzero(np.frombuffer(chunk, dtype=np.uint8, count=stop - start, offset=start) == 34))


def split_pieces(path: Path, piece: int | None = None) -> list[tuple[int, int]]:
    """Byte ranges of the data records (after the header), each about ``piece`` bytes, split
    where a newline is outside quotes (quote parity counted from the file start)."""
    return list(iter_pieces(path, piece))


def iter_pieces(path: Path, piece: int | None = None) -> Iterator[tuple[int, int]]:
    """:func:`split_pieces` one range at a time, each as soon as its end is found (the reader parses
    the first pieces while the rest of the file is still being split)."""
    piece = piece or PIECE
    bounds: list[int] = []
    target = 0  # the next split goes at the first record end at or after this offset
    parity = 0  # quotes seen before ``at`` (mod 2)
    at = 0  # offset up to which quotes are counted
    with open(path, "rb") as fh:
        size = fh.seek(0, 2)
        fh.seek(0)
        base = 0
        while at < size:
            chunk = fh.read(SCAN)
            if not chunk:
                break
            end = base + len(chunk)
            while at < end:
                if at < target:  # count quotes up to the target (or the chunk end)
                    stop = min(target, end)
                    parity ^= _quotes(chunk, at - base, stop - base) & 1
                    at = stop
                    continue
                nl = chunk.find(b"\n", at - base)
                if nl < 0:
                    parity ^= chunk.count(b'"', at - base) & 1
                    at = end
                    continue
                parity ^= chunk.count(b'"', at - base, nl) & 1
                at = base + nl + 1
                if parity == 0:  # a record ends here
                    bounds.append(at)
                    if len(bounds) > 1 and bounds[-1] < size:
                        yield bounds[-2], bounds[-1]
                    target = at + piece if size - at > piece + piece // 4 else size
            base = end
    if not bounds or bounds[0] >= size:
        return
    if len(bounds) > 1 and bounds[-1] == size:
        yield bounds[-2], bounds[-1]
    else:
        yield bounds[-1], size


# ---- the table ----------------------------------------------------------------------------------


@dataclass
class Column:
    """One column as read: ``kind`` in :data:`READ_KINDS` and its arrays.

    int: ``values`` int64 + ``missing``; float: ``values`` float64 (NaN = missing); decimal: a float
    column whose every value is exact in thousandths, ``values`` int16 / int32 of them
    (:mod:`.decimals`; a ``decimal`` column that is not reads back as ``float``); text:
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
    whole: list[tuple[int, int]] | None = None  # read unsplit (after a split whose pieces did not parse)
    while True:
        try:
            columns, rows = _read_pieces(path, iter_pieces(path) if whole is None else whole, kinds, cancel_check)
            break
        except _Looser as exc:
            kinds[exc.index] = _LOOSER[kinds[exc.index]]
        except _Unparsable as exc:
            pieces = split_pieces(path)
            if len(pieces) > 1 and whole is None:
                whole = [(pieces[0][0], pieces[-1][1])]
                continue
            raise _structure_error(path, width, exc.message) from None
        except OSError as exc:
            raise ProfilingDataError(f"{path}: cannot read ({exc.strerror or exc})") from exc
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
    pieces: Iterable[tuple[int, int]],
    kinds: dict[int, str],
    cancel_check: Callable[[], None] | None,
) -> tuple[dict[int, Column], int]:
    """Each piece parsed, converted and appended to the growing result columns; the row count.

    The piece is read into a buffer (not memory-mapped: mapped pages of the whole file would stay
    in the process's memory) from the system allocator, and everything made from it is freed
    before the next piece, so the memory of a piece is reused by the next one.
    """
    width = len(kinds)
    names = [f"c{i}" for i in range(width)]
    pool = pa.system_memory_pool()  # the default pool (mimalloc) keeps what a piece freed
    # Each piece is ONE parse block (so Arrow's own block splitting, which would need the slow
    # quote-aware chunker, never runs: the pieces already end at record ends) and AHEAD pieces are
    # parsed at once, one per thread; the parser itself keeps quoted newlines inside their value.
    parse_options = pacsv.ParseOptions(newlines_in_values=False)
    convert_options = pacsv.ConvertOptions(
        column_types={names[i]: _ARROW_TYPE[k] for i, k in kinds.items()},
        null_values=sorted(MISSING),
        strings_can_be_null=True,
        quoted_strings_can_be_null=True,
        true_values=[],
        false_values=[],
        timestamp_parsers=[],
    )
    out = {i: _Growing(kinds[i]) for i in range(width)}
    offset = 0
    size = path.stat().st_size
    total = 0  # bytes of data records: the file after the header (known from the first piece)
    done = trimmed = 0

    def parse(start: int, end: int) -> tuple[pa.Table, dict[int, Any]]:
        """The piece parsed, and (still in this worker thread, mostly without the GIL) its number and
        timestamp columns made ready to copy: nulls filled, masks unpacked, timestamps as int64 ns."""
        table = parse_table(start, end)
        ready: dict[int, Any] = {}
        for i in range(width):
            kind = kinds[i]
            if kind in ("ns", "ns_us"):
                ready[i] = _ns_piece(table.column(i), "us" if kind == "ns_us" else "auto", 0)
            elif kind == "text":
                ready[i] = _text_codes(table.column(i))
            elif kind != "decimal":
                ready[i] = _filled_numbers(table.column(i), kind == "int")
        held = [i for i in range(width) if kinds[i] == "decimal"]
        if held:  # the decimal columns as one block (NaN where missing), encoded at once
            block = np.empty((len(held), table.num_rows), dtype=np.float64)
            for row, i in zip(block, held):
                values, missing = _numbers(table.column(i))
                row[:] = values
                if missing is not None:
                    row[missing] = np.nan
            for row, i, ints in zip(block, held, decimals.encode_block(block)):
                ready[i] = (row, ints)
        return table, ready

    def parse_table(start: int, end: int) -> pa.Table:
        data = source.read_at(end - start, start)
        read_options = pacsv.ReadOptions(column_names=names, block_size=end - start + 1, use_threads=False)
        try:
            return pacsv.read_csv(
                pa.BufferReader(data),
                read_options=read_options,
                parse_options=parse_options,
                convert_options=convert_options,
                memory_pool=pool,
            )
        except pa.ArrowInvalid as exc:
            message = str(exc)
            if message.startswith("Empty CSV"):  # only blank lines
                return pa.table({n: pa.array([], type=_ARROW_TYPE[kinds[i]]) for i, n in enumerate(names)})
            conversion = _CONVERSION.search(message)
            if conversion and conversion.group(2) != "string" and int(conversion.group(1)) in _looser_ok(kinds):
                raise _Looser(int(conversion.group(1))) from None
            raise _Unparsable(message) from None

    # the next pieces are parsed (Arrow, without the GIL) while this one is converted
    with (
        _default_pool(pool),
        pa.OSFile(str(path), memory_pool=pool) as source,
        ThreadPoolExecutor(AHEAD, thread_name_prefix="csv-piece") as ahead,
    ):
        ranges = iter(pieces)  # split as the reading goes (:func:`iter_pieces`)
        upcoming: deque[tuple[int, int, Future[tuple[pa.Table, dict[int, Any]]]]] = deque()

        def submit() -> None:
            got = next(ranges, None)
            if got is not None:
                upcoming.append((*got, ahead.submit(parse, *got)))

        for _ in range(AHEAD):
            submit()
        while upcoming:
            if cancel_check is not None:
                cancel_check()
            start, end, future = upcoming.popleft()
            table, ready = future.result()
            submit()
            total = total or size - start
            done += end - start
            # rows to expect in all: this piece's rows per byte, over the whole data, plus a margin
            # (a quarter more: the pages of the buffers never written are never taken from the system)
            expect = int(offset + table.num_rows + table.num_rows * (total - done) / max(1, end - start) * 1.25) + 64
            for i in range(width):
                kind = kinds[i]
                if kind == "text":  # the piece's own codes and dictionary, resolved a few pieces at a time
                    out[i].add_text(ready[i], expect)
                elif kind in ("ns", "ns_us"):
                    out[i].add(_at_rows(ready[i], offset), expect)
                elif kind == "decimal":
                    floats, ints = ready[i]
                    out[i].add_decimal(floats, ints, expect)
                else:
                    values, missing = ready[i]
                    out[i].add_numbers(values, missing, expect)
            offset += table.num_rows
            del table, ready  # the piece's memory goes before the next one is taken
            if done - trimmed >= TRIM:  # the text of these pieces resolved, what they freed handed back
                for grow in out.values():
                    grow.resolve()
                release_freed()
                trimmed = done
    release_freed()
    columns = {i: grow.column() for i, grow in out.items()}
    return columns, offset


@contextlib.contextmanager
def _default_pool(pool: pa.MemoryPool) -> Iterator[None]:
    """Arrow's compute kernels allocate from ``pool`` meanwhile (they take the default pool)."""
    before = pa.default_memory_pool()
    pa.set_memory_pool(pool)
    try:
        yield
    finally:
        pa.set_memory_pool(before)


class _Growing:
    """A column's arrays, appended piece by piece into buffers sized for the whole file (grown
    by a quarter when the estimate falls short), so the result is never copied whole. The buffers
    are anonymous memory maps (:func:`_buffer`): the part never written costs nothing.

    Text: each piece's codes into its own dictionary are appended as they are and mapped to the
    file's codes (cleaned uniques in first-seen order, -1 = missing) by :meth:`resolve`, for the
    pieces of several MB at once: one hash lookup of their dictionaries against the words known."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.values: np.ndarray | None = None
        self.missing: np.ndarray | None = None
        self.rows = 0
        self.error: tuple[int, str, str] | None = None
        # text: the words met so far (raw and cleaned -> code), their cleaned uniques, the pieces not resolved
        self.seen: dict[str, int] = {}
        self.uniques: list[str] = []
        self.known: pa.Array = pa.array([], type=pa.string())
        self.known_codes = np.zeros(0, dtype=np.int32)
        self.pending: list[tuple[pa.Array, int, int]] = []  # (dictionary, first row, rows)

    def _room(self, n: int, expect: int, dtype: np.dtype, missing: bool) -> None:
        """Buffers that hold ``n`` more values of ``dtype`` (widened if narrower)."""
        if self.values is None:
            self.values = _buffer(max(expect, n), dtype)
            if missing:
                self.missing = _buffer(len(self.values), np.dtype(bool))
            return
        size = len(self.values)
        if self.rows + n > size:
            size = max(self.rows + n, size + size // 4)
        wider = self.values.dtype.itemsize < dtype.itemsize
        if wider or size > len(self.values):
            self.values = _grown(self.values, self.rows, size, dtype if wider else self.values.dtype)
            if self.missing is not None and size > len(self.missing):
                self.missing = _grown(self.missing, self.rows, size, self.missing.dtype)

    def add(self, piece: Column, expect: int) -> None:
        """Append ``piece`` (timestamps: values, missing and the first bad value)."""
        n = len(piece.values)
        if self.error is None and piece.error is not None:
            self.error = piece.error
        self._room(n, expect, piece.values.dtype, piece.missing is not None)
        assert self.values is not None
        self.values[self.rows : self.rows + n] = piece.values
        if self.missing is not None and piece.missing is not None:
            self.missing[self.rows : self.rows + n] = piece.missing
        self.rows += n

    def add_numbers(self, values: np.ndarray, missing: np.ndarray | None, expect: int) -> None:
        """Append numbers as :func:`_filled_numbers` gives them: int with its missing mask (0 under it),
        float with NaN (no mask)."""
        n = len(values)
        self._room(n, expect, values.dtype, self.kind == "int")
        assert self.values is not None
        self.values[self.rows : self.rows + n] = values
        if self.missing is not None:
            self.missing[self.rows : self.rows + n] = False if missing is None else missing
        self.rows += n

    def add_decimal(self, values: np.ndarray, ints: np.ndarray | None, expect: int) -> None:
        """Append a decimal piece: its scaled integers (``ints``, :func:`.decimals.encode`) while
        every piece so far had them, else its float64 ``values`` (the column held as float from then on)."""
        held = None if self.values is None else self.values.dtype
        if ints is None or (held is not None and held.kind == "f"):
            if self.values is not None and held is not None and held.kind == "i":  # held as integers: float64 now
                floats = _buffer(len(self.values), np.dtype(np.float64))
                floats[: self.rows] = decimals.decode(self.values[: self.rows])
                self.values = floats
            self.add_numbers(values, None, expect)
            return
        if held is not None and ints.dtype.itemsize < held.itemsize:
            ints = decimals.widen(ints)
        self._room(len(ints), expect, ints.dtype, False)
        assert self.values is not None
        if held is not None and self.values.dtype != held:  # int16 grown to int32: its missing too
            done = self.values[: self.rows]
            done[done == decimals.missing_of(held)] = decimals.missing_of(self.values.dtype)
        self.values[self.rows : self.rows + len(ints)] = ints
        self.rows += len(ints)

    def add_text(self, chunks: list[tuple[pa.Array, np.ndarray]], expect: int) -> None:
        """Append a piece of dictionary-encoded text (:func:`_text_codes`): its codes (-1 = null),
        in the piece's own dictionary until :meth:`resolve`."""
        for dictionary, codes in chunks:
            n = len(codes)
            wide = len(dictionary) >= 32767  # codes kept as int16 while they fit (see resolve)
            self._room(n, expect, np.dtype(np.int32 if wide else np.int16), False)
            assert self.values is not None
            self.values[self.rows : self.rows + n] = codes
            self.pending.append((dictionary, self.rows, n))
            self.rows += n

    def resolve(self) -> None:
        """The pending pieces' codes as the file's codes; new words cleaned once each (in first-seen order)."""
        if not self.pending:
            return
        words = pa.concat_arrays([d for d, _, _ in self.pending]) if len(self.pending) > 1 else self.pending[0][0]
        at = pc.index_in(words, value_set=self.known)
        at = (pc.fill_null(at, -1) if at.null_count else at).to_numpy()
        codes = np.empty(len(words), dtype=np.int32)
        hit = at >= 0
        codes[hit] = self.known_codes[at[hit]]
        new = np.flatnonzero(~hit)
        if len(new):
            raw = words.take(pa.array(new)).to_pylist()
            added = np.empty(len(raw), dtype=np.int32)
            for n, word in enumerate(raw):
                code = self.seen.get(word)
                if code is None:
                    value = clean(word)
                    code = -1 if value in MISSING else self.seen.get(value)
                    if code is None:
                        code = self.seen[value] = len(self.uniques)
                        self.uniques.append(value)
                    self.seen[word] = code
                added[n] = code
            codes[new] = added
            fresh = list(dict.fromkeys(raw))  # each new word once, in order
            self.known = pa.concat_arrays([self.known, pa.array(fresh, type=pa.string())])
            self.known_codes = np.concatenate([self.known_codes, np.array([self.seen[w] for w in fresh], np.int32)])
        assert self.values is not None
        if len(self.uniques) >= 32767 and self.values.dtype.itemsize < 4:
            self.values = _grown(self.values, self.rows, len(self.values), np.dtype(np.int32))
        at_word = 0
        for dictionary, first, n in self.pending:
            lut = np.empty(len(dictionary) + 1, dtype=self.values.dtype)
            lut[:-1] = codes[at_word : at_word + len(dictionary)]
            lut[-1] = -1  # a null's -1 indexes the last
            part = self.values[first : first + n]
            part[:] = lut[part]
            at_word += len(dictionary)
        self.pending = []

    def column(self) -> Column:
        if self.kind == "text":
            self.resolve()
        kind = (
            "float" if self.kind == "decimal" and (self.values is None or self.values.dtype.kind == "f") else self.kind
        )
        if self.values is None:
            empty = {"float": np.float64, "text": np.int32}.get(kind, np.int64)
            return Column(kind, np.zeros(0, dtype=empty), np.zeros(0, dtype=bool), self.uniques)
        # views, never copies: the part of a buffer never written costs no memory
        values = self.values[: self.rows]
        missing = None if self.missing is None else self.missing[: self.rows]
        return Column(kind, values, missing, self.uniques, self.error)


def _text_codes(chunked: pa.ChunkedArray) -> list[tuple[pa.Array, np.ndarray]]:
    """Each chunk of a dictionary-encoded piece as (its dictionary, its codes with -1 for null)."""
    return [
        (chunk.dictionary, (pc.fill_null(chunk.indices, -1) if chunk.null_count else chunk.indices).to_numpy())
        for chunk in chunked.chunks
    ]


def _filled_numbers(chunked: pa.ChunkedArray, integer: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """:func:`_numbers` with the nulls filled by Arrow (0 for int, NaN for float: no mask then)."""
    values, missing = _numbers(chunked)
    if missing is None:
        return values, None
    values, _ = _numbers(pc.fill_null(chunked, 0 if integer else float("nan")))
    return values, missing if integer else None


def _at_rows(piece: Column, offset: int) -> Column:
    """A piece's timestamps whose bad value (row counted in the piece) is named by its row in the file."""
    if piece.error is not None:
        piece.error = (piece.error[0] + offset, *piece.error[1:])
    return piece


def _numbers(chunked: pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray | None]:
    """A numeric piece as a view of Arrow's values buffer (undefined under a null, never copied) and
    its null mask (None: no null)."""
    if chunked.num_chunks != 1:
        chunked = pa.chunked_array(
            [pa.concat_arrays(chunked.chunks) if chunked.num_chunks else pa.array([], chunked.type)]
        )
    chunk = chunked.chunk(0)
    n, start = len(chunk), chunk.offset
    dtype = np.dtype(chunk.type.to_pandas_dtype())
    values = np.frombuffer(chunk.buffers()[1], dtype=dtype, count=start + n)[start:] if n else np.zeros(0, dtype)
    if not chunk.null_count:
        return values, None
    bits = np.frombuffer(chunk.buffers()[0], dtype=np.uint8)
    valid = np.unpackbits(bits, count=start + n, bitorder="little")[start:].view(bool)
    return values, ~valid


MAPPED = 1 << 20  # a result buffer of at least this many bytes is an anonymous memory map


def _buffer(size: int, dtype: np.dtype) -> np.ndarray:
    """An uninitialised array of ``size`` values whose pages are only taken when written.

    numpy asks for transparent huge pages on big arrays: a buffer filled piece by piece then holds
    up to 2 MB it never uses beyond its last write (and faults cost more); an anonymous map (4 KB
    pages, no huge-page advice) holds only what was written and is unmapped when freed."""
    nbytes = size * dtype.itemsize
    if nbytes < MAPPED:
        return np.empty(size, dtype=dtype)
    return np.frombuffer(mmap.mmap(-1, nbytes), dtype=dtype, count=size)


def _grown(array: np.ndarray, used: int, size: int, dtype: np.dtype) -> np.ndarray:
    bigger = _buffer(size, np.dtype(dtype))
    bigger[:used] = array[:used]
    return bigger


def _looser_ok(kinds: dict[int, str]) -> set[int]:
    return {i for i, k in kinds.items() if k in _LOOSER}


_NUMBER = r"^(?P<sign>[+-]?)(?P<whole>\d*)(?P<dot>\.?)(?P<frac>\d*)$"
_US_WHOLE_MAX = INT64_MAX // 1000 - 1


def _ns_piece(chunked: pa.ChunkedArray, unit: str, offset: int) -> Column:
    """Decimal timestamps as exact int64 ns, parsed digit by digit by Arrow kernels.

    ``unit='auto'``: 18+ digit values are ns already. A malformed value is kept in ``uniques``
    as (row, expected, value) and raised once the table can name its line.
    """
    fixed: list[np.ndarray] = []
    for chunk in chunked.chunks:
        values = _fixed_width_ns(chunk, unit)
        if values is None:
            break
        fixed.append(values)
    if len(fixed) == chunked.num_chunks:  # the usual file: every value d..d.ddd of one width
        values = fixed[0] if len(fixed) == 1 else np.concatenate(fixed) if fixed else np.zeros(0, dtype=np.int64)
        return Column("ns", values.astype(np.int64, copy=False), np.zeros(len(values), dtype=bool))
    text = pc.utf8_trim_whitespace(pc.utf8_trim(pc.utf8_trim_whitespace(chunked), '"'))
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


def _fixed_width_ns(chunk: pa.Array, unit: str) -> np.ndarray | None:
    """The fast path of :func:`_ns_piece`: when every value of ``chunk`` is plain digits with the
    dot at one place (``1736413971558972.912``, the same TABs or spaces around each: torch_npu's
    ``"…972.912\t"``), the digits are read as a byte matrix; None when any value is missing,
    signed, of another width or too big (the general path decides)."""
    n = len(chunk)
    if n == 0 or chunk.null_count:
        return None
    offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32)[chunk.offset : chunk.offset + n + 1]
    width = int(offsets[1] - offsets[0])
    if width == 0 or int(offsets[-1] - offsets[0]) != width * n or not (np.diff(offsets) == width).all():
        return None
    raw = np.frombuffer(chunk.buffers()[2], dtype=np.uint8)[offsets[0] : offsets[-1]].reshape(n, width)
    lead, trail = 0, width  # columns of blanks in every value (what the general path trims)
    while lead < trail and _blank(raw[:, lead]):
        lead += 1
    while trail > lead and _blank(raw[:, trail - 1]):
        trail -= 1
    if trail == lead:
        return None
    if (lead, trail) != (0, width):
        raw, width = raw[:, lead:trail], trail - lead
    dot = int(np.flatnonzero(raw[0] == 46)[0]) if (raw[0] == 46).any() else width
    if not 1 <= dot <= 16 or (unit != "us" and dot >= 18):
        return None
    digits = np.delete(raw, dot, axis=1) if dot < width else raw
    digits = digits - np.uint8(48)
    if (digits > 9).any() or (dot < width and not (raw[:, dot] == 46).all()):
        return None
    whole = np.zeros(n, dtype=np.int64)
    for j in range(dot):
        whole = whole * 10 + digits[:, j]
    if dot == 16 and int(whole.max()) > _US_WHOLE_MAX:
        return None
    frac = digits[:, dot:]
    ns = whole * 1000
    for j, scale in zip(range(min(3, frac.shape[1])), (100, 10, 1)):
        ns += frac[:, j].astype(np.int64) * scale
    if frac.shape[1] > 3:
        ns += frac[:, 3] >= 5
    return ns


def _blank(column: np.ndarray) -> bool:
    return bool(((column == 9) | (column == 32)).all())


def _ns_error(n: int, missing: np.ndarray, row: int, expected: str, text: pa.ChunkedArray, k: int) -> Column:
    value = text.take(pa.array([k]))[0].as_py()
    return Column("ns", np.zeros(n, dtype=np.int64), missing, error=(row, expected, str(value)))


# ---- typed column conversion ------------------------------------------------------------------


def _sorted_categorical(col: Column) -> pd.Categorical:
    """Text codes (first-seen uniques) as a pd.Categorical with sorted categories."""
    order = sorted(range(len(col.uniques)), key=col.uniques.__getitem__)
    small = np.int8 if len(order) < 127 else np.int16 if len(order) < 32767 else np.int32  # pandas' own choice
    lut = np.empty(len(order) + 1, dtype=small)
    lut[order] = np.arange(len(order), dtype=small)
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
    elif col.kind == "decimal":
        out = decimals.decode(col.values)
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
    if col.kind in ("float", "decimal"):
        data = col.values if col.kind == "float" else decimals.decode(col.values)
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
    """How a column no schema knows is read first: int where its header names a counter or id,
    else decimal (float64 values, held compact while every one is exact in thousandths)."""
    return "int" if _INTEGER_HEADER.search(header) else "decimal"


def auto_column(table: CsvTable, index: int) -> object:
    """Numbers become float64 (Int64 for integral counters/ids named so; a :class:`.decimals.DecimalArray`
    where read as decimal and every value is exact in thousandths), anything else strings.

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
    if col.kind == "decimal":
        return decimals.DecimalArray(col.values)
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
