"""Chunked decoding of a Chrome-trace event array without holding the whole file.

The file is read in blocks; each block is cut at a *candidate* event boundary (``}`` ``,``
``{"key":``) and the piece is decoded by msgspec as ``[ ... ]`` of typed :class:`RawEvent`
structs whose bulky fields stay :class:`msgspec.Raw`. A piece that starts at a true boundary and
decodes cleanly proves its cut was a true boundary too (a cut inside a nested value or a string
cannot decode), so a false candidate only costs a retry with an earlier cut. Errors are mapped
back to file byte offsets and event numbers; a file that ends early (a crashed run) yields every
complete event plus a truncation note.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

import msgspec
from msgspec import Raw

_EMPTY = Raw(b"")


class FastEvent(msgspec.Struct, gc=False):
    """One trace event in the common shape (string ts, integer pid/tid); args stay raw text."""

    ph: str = ""
    name: str = ""
    cat: str = ""
    pid: int = 0
    tid: int = 0
    ts: str = ""
    dur: Raw = _EMPTY
    id: int | str = ""
    bp: str = ""
    args: Raw = _EMPTY


class RawEvent(msgspec.Struct, gc=False):
    """Any other shape (numeric ts, string pids...): every variable field stays raw JSON text."""

    ph: str = ""
    name: str = ""
    cat: str = ""
    pid: Raw = _EMPTY
    tid: Raw = _EMPTY
    ts: Raw = Raw(b"null")
    dur: Raw = _EMPTY
    id: Raw = _EMPTY
    bp: str = ""
    args: Raw = _EMPTY


_FAST = msgspec.json.Decoder(list[FastEvent])
_STRUCTURE = msgspec.json.Decoder(list[Raw])  # JSON well-formedness only (cheap)
_GENERIC = msgspec.json.Decoder(list[RawEvent])
_WS = b" \t\r\n"
# `}` `,` `{"known key":` — the start of the next top-level event (verified by decoding).
_BOUNDARY = re.compile(rb'\}\s*,\s*(?=\{\s*"(?:ph|name|cat|pid|tid|ts|dur|id|bp|args|s|tts|id2|bind_id|sf|stack)"\s*:)')
_ARRAY_END = re.compile(rb"\}\s*\]")
_BYTE = re.compile(r"\(byte (\d+)\)")
_AT_INDEX = re.compile(r"at `\$\[(\d+)\]")
_TRACE_EVENTS = re.compile(rb'"traceEvents"\s*:\s*\[')


class ScanError(Exception):
    """Bad input at file byte ``offset`` (``event`` = index of the event concerned, if known)."""

    def __init__(self, message: str, offset: int, event: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.event = event

    def __reduce__(self):  # picklable: a worker process hands it back to the parent
        return type(self), (self.message, self.offset, self.event)


class FieldError(Exception):
    """Raised by a sink: event ``index`` (within the chunk) has a bad field."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.message = message

    def __reduce__(self):
        return type(self), (self.index, self.message)


class SplitError(Exception):
    """A range handed to a parallel worker did not end on a true event boundary."""


@dataclass
class ScanEnd:
    """How the event array ended."""

    events: int = 0
    # the file ends before the array closes: ("inside", event number, byte) or ("after", events, None)
    cut: tuple | None = None

    def note(self, base: int = 0) -> str | None:
        """The truncation warning, event numbers shifted by ``base`` events read before this piece."""
        if self.cut is None:
            return None
        kind, event, byte = self.cut
        if kind == "inside":
            return f"file ends inside event {base + event} (byte {byte}); loaded {base + event} complete events"
        return f"file ends after event {base + event} without closing the event array"


def locate_events(f: BinaryIO, size: int) -> int:
    """Offset just after the ``[`` that opens the event array (top-level array or traceEvents)."""
    head = f.read(min(size, 1 << 20))
    i = 0
    if head.startswith(b"\xef\xbb\xbf"):
        i = 3
    while i < len(head) and head[i] in _WS:
        i += 1
    if i >= len(head):
        raise ScanError("the file is empty (expected a JSON array of trace events)", 0)
    first = head[i : i + 1]
    if first == b"[":
        return i + 1
    if first == b"{":
        f.seek(0)
        head = f.read(min(size, 64 << 20))
        m = _TRACE_EVENTS.search(head, i)
        if m is not None and _prefix_is_members(head[i : m.start()]):
            return m.end()
        raise ScanError('expected a JSON array of trace events or an object with "traceEvents"', i)
    if b"\x00" in head[:4096]:
        raise ScanError("binary data, not a JSON trace (expected '[' or '{')", i)
    raise ScanError(f"expected '[' or '{{' to start a JSON trace, found {head[i : i + 20]!r}", i)


def _prefix_is_members(prefix: bytes) -> bool:
    """True when ``prefix`` is ``{`` followed by complete ``"key": value,`` members."""
    body = prefix.rstrip()
    if body.endswith(b","):
        body = body[:-1]
    try:
        return isinstance(msgspec.json.decode(body + b"}"), dict)
    except msgspec.DecodeError:
        return False


def _strip_lead(buf: bytes, pos: int) -> int:
    n = len(buf)
    while pos < n and buf[pos] in _WS:
        pos += 1
    return pos


class _Reader:
    """Growing window over the file from ``offset``; ``buf`` holds bytes [offset, offset+len)."""

    def __init__(self, f: BinaryIO, start: int, end: int, block: int) -> None:
        self.f, self.end, self.block = f, end, block
        f.seek(start)
        self.offset = start
        self.buf = b""
        self.eof = start >= end

    def fill(self, want: int) -> None:
        while not self.eof and len(self.buf) < want:
            data = self.f.read(min(max(want - len(self.buf), self.block), self.end - self.offset - len(self.buf)))
            if not data:
                self.eof = True
                break
            self.buf = self.buf + data if self.buf else data
            if self.offset + len(self.buf) >= self.end:
                self.eof = True

    def consume(self, n: int) -> None:
        self.buf = self.buf[n:]
        self.offset += n


Sink = Callable[[list, int, int], None]  # (events, file offset of the chunk, index of its first event)


def scan_events(
    f: BinaryIO,
    start: int,
    end: int,
    sink: Sink,
    *,
    block: int = 16 << 20,
    first_index: int = 0,
    is_range: bool = False,
    tick: Callable[[int], None] | None = None,
) -> ScanEnd:
    """Decode the events from ``start`` (just after ``[`` or at an event's ``{``) to ``end``.

    ``is_range``: the piece ends at ``end`` on an event boundary (a parallel worker's share)
    instead of at the array's ``]``.
    """
    r = _Reader(f, start, end, block)
    _MODE.fast = True
    count = first_index
    need_comma = False
    while True:
        r.fill(block)
        p = _strip_lead(r.buf, 0)
        if p < len(r.buf) and r.buf[p : p + 1] == b"," and need_comma:
            p = _strip_lead(r.buf, p + 1)
        if p >= len(r.buf):
            r.consume(p)
            if r.eof:
                if is_range:
                    return ScanEnd(count - first_index)
                n_done = count - first_index
                return ScanEnd(n_done, ("after", n_done, None))
            continue
        if r.buf[p : p + 1] == b"]":
            if is_range:
                raise SplitError()
            return ScanEnd(count - first_index)
        if r.buf[p : p + 1] != b"{":
            what = "',' or ']'" if need_comma else "'{' or ']'"
            raise ScanError(f"expected {what} between trace events, found {r.buf[p : p + 20]!r}", r.offset + p, count)
        r.consume(p)
        if r.eof:
            done = _final_piece(r, count, sink, is_range)
            if done.cut is not None:  # make the event number relative to this piece's start
                kind, event, byte = done.cut
                done.cut = (kind, event - first_index, byte)
            count += done.events
            done.events = count - first_index
            return done
        cut = _last_boundary(r.buf)
        if cut is None:  # one event bigger than a block: read more
            r.fill(len(r.buf) * 2)
            continue
        got = _decode_cut(r, cut, count, sink)
        if got < 0:  # no true event boundary in the buffer yet
            r.fill(len(r.buf) * 2)
            continue
        count += got
        need_comma = True
        if tick is not None:
            tick(r.offset)


def _last_boundary(buf: bytes, limit: int | None = None) -> int | None:
    hi = len(buf) if limit is None else limit
    lo = max(0, hi - (64 << 10))
    while True:
        last = None
        for m in _BOUNDARY.finditer(buf, lo, hi):
            last = m.start() + 1
        if last is not None or lo == 0:
            return last
        lo = max(0, lo - (hi - lo) * 8)


def _decode(piece: bytes) -> list:
    """Decode ``[piece]``: the fast typed shape first, the all-raw shape when a field differs."""
    text = b"[" + piece + b"]"
    if getattr(_MODE, "fast", True):
        try:
            return _FAST.decode(text)
        except msgspec.ValidationError:
            pass
    events = _GENERIC.decode(text)
    _MODE.fast = False
    return events


_MODE = threading.local()  # .fast: whether the typed decoder fits the file this thread reads


def _deliver(r: _Reader, events: list, count: int, sink: Sink) -> None:
    try:
        sink(events, r.offset, count)
    except FieldError as e:
        where = r.offset + _event_start(r.buf, e.index)
        raise ScanError(e.message, where, count + e.index) from None


def _decode_cut(r: _Reader, cut: int, count: int, sink: Sink) -> int:
    """Decode ``buf[:cut]`` and consume it; return the number of events, or -1 if no candidate
    cut in the buffer is a true boundary (one event bigger than the buffer: read more).

    A false cut (inside a nested value or a string) fails at or after the cut, never before it:
    the text up to it is a valid JSON prefix. So an error before the cut is the file's own fault.
    """
    order = None
    while True:
        try:
            events = _decode(r.buf[:cut])
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            _raise_if_genuine(e, r, cut, count)
            if order is None:
                cands = [m.start() + 1 for m in _BOUNDARY.finditer(r.buf)]
                order = iter([c for c in reversed(cands) if c < cut] + [c for c in cands if c > cut])
            after = next(order, None)
            if after is None:
                return -1
            cut = after
            continue
        _deliver(r, events, count, sink)
        r.consume(cut)
        return len(events)


def _raise_if_genuine(e: Exception, r: _Reader, cut: int, count: int) -> None:
    """Raise ScanError when the failure lies before the cut (not an artefact of a false cut)."""
    msg = str(e)
    m = _BYTE.search(msg)
    if isinstance(e, msgspec.DecodeError) and m is not None:
        pos = int(m.group(1)) - 1  # position in buf (the piece was prefixed with '[')
        if pos < cut:
            idx = _event_at(r.buf, pos)
            raise ScanError(f"malformed JSON: {msg.split(' (byte')[0]}", r.offset + max(pos, 0), count + idx)
        return
    mi = _AT_INDEX.search(msg)
    if isinstance(e, msgspec.ValidationError) and mi is not None and _well_formed(r.buf[:cut]):
        idx = int(mi.group(1))
        where = _event_start(r.buf, idx)
        # msgspec numbers events within the decoded piece: name the event by its number in the file
        msg = msg[: mi.start()] + f"at `$[{count + idx}]" + msg[mi.end() :]
        raise ScanError(f"unexpected trace event field: {msg}", r.offset + where, count + idx)


def _well_formed(piece: bytes) -> bool:
    try:
        _STRUCTURE.decode(b"[" + piece + b"]")
    except (msgspec.DecodeError, msgspec.ValidationError):
        return False
    return True


def _count_boundaries(buf: bytes, cut: int) -> int:
    return sum(1 for _ in _BOUNDARY.finditer(buf, 0, cut))


def _event_start(buf: bytes, idx: int) -> int:
    if idx == 0:
        return 0
    for k, m in enumerate(_BOUNDARY.finditer(buf), 1):
        if k == idx:
            return _strip_lead(buf, m.end())
    return 0


def _event_at(buf: bytes, pos: int) -> int:
    return sum(1 for _ in _BOUNDARY.finditer(buf, 0, max(pos, 0)))


def _final_piece(r: _Reader, count: int, sink: Sink, is_range: bool) -> ScanEnd:
    """The rest of the file/range is in ``buf``: decode it up to the array end or a truncation."""
    buf = r.buf
    if is_range:
        body = buf.rstrip()
        if body.endswith(b","):
            body = body[:-1]
        try:
            events = _decode(body)
        except (msgspec.DecodeError, msgspec.ValidationError):
            raise SplitError() from None
        _deliver(r, events, count, sink)
        return ScanEnd(len(events))
    ends = list(_ARRAY_END.finditer(buf))
    # The array normally closes at the very end (top-level array): try that first.
    for m in ends[-1:] + ends[:-1]:
        cut = m.start() + 1
        if not _well_formed(buf[:cut]):
            continue  # a `}]` inside a value, or past the array's end
        try:
            events = _decode(buf[:cut])
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            _raise_if_genuine(e, r, cut, count)
            raise _locate_bad_event(r.buf[:cut], r.offset, count, e) from None
        _deliver(r, events, count, sink)
        return ScanEnd(len(events))
    if ends and buf.rstrip().endswith((b"]", b"}")):
        # The file is closed, so it was not cut off: it is malformed. Report where.
        cut = ends[-1].start() + 1
        try:
            _STRUCTURE.decode(b"[" + buf[:cut] + b"]")
        except msgspec.DecodeError as e:
            at = _BYTE.search(str(e))
            pos = int(at.group(1)) - 1 if at else 0
            raise ScanError(
                f"malformed JSON: {str(e).split(' (byte')[0]}", r.offset + max(pos, 0), count + _event_at(buf, pos)
            ) from None
        except msgspec.ValidationError:
            pass
    # No closing bracket: the file was cut off (or is malformed near its end).
    loaded = 0
    last = _last_boundary(buf)
    if last is not None:
        loaded = max(_decode_cut(r, last, count, sink), 0)
        count += loaded
        p = _strip_lead(r.buf, 0)
        if r.buf[p : p + 1] == b",":
            p = _strip_lead(r.buf, p + 1)
        r.consume(p)
    rest = r.buf.rstrip()
    if rest.endswith(b","):
        rest = rest[:-1].rstrip()
    if rest:
        try:
            events = _decode(rest)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return ScanEnd(loaded, ("inside", count, r.offset))
        _deliver(r, events, count, sink)
        loaded += len(events)
        count += len(events)
    return ScanEnd(loaded, ("after", count, None))


def _locate_bad_event(piece: bytes, offset: int, count: int, e: Exception) -> ScanError:
    """The error for the first event of ``piece`` that fails on its own (msgspec named no byte,
    e.g. for invalid UTF-8), so the position does not depend on where the piece started."""
    try:
        raws = _STRUCTURE.decode(b"[" + piece + b"]")
    except (msgspec.DecodeError, msgspec.ValidationError):
        raws = []
    pos = 0
    for k, raw in enumerate(raws):
        text = bytes(raw)
        at = piece.find(text, pos)
        try:
            _decode(text)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return ScanError(f"malformed trace event: {e}", offset + max(at, 0), count + k)
        pos = max(at, pos) + len(text)
    return ScanError(f"malformed trace event: {e}", offset, count)


def iter_lines_offsets(f: BinaryIO, offset: int) -> tuple[int, int]:
    """(line, column), both 1-based, of byte ``offset`` in ``f``."""
    f.seek(0)
    line, last_nl, pos = 1, -1, 0
    while pos < offset:
        data = f.read(min(1 << 22, offset - pos))
        if not data:
            break
        c = data.count(b"\n")
        if c:
            line += c
            last_nl = pos + data.rfind(b"\n")
        pos += len(data)
    return line, offset - last_nl


def candidate_splits(f: BinaryIO, start: int, size: int, parts: int) -> Iterator[int]:
    """Offsets of likely event starts near ``start + k * (size - start) / parts``."""
    for k in range(1, parts):
        at = start + (size - start) * k // parts
        f.seek(at)
        window = f.read(1 << 20)
        m = _BOUNDARY.search(window)
        if m is None:
            return
        yield at + _strip_lead(window, m.end())
