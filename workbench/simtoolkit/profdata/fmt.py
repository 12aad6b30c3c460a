"""Byte-level formatting shared by every writer: timestamps, numbers, CSV lines, JSON events.

Why a module of its own: the real tools have quirks (µs timestamps as decimal strings with three
decimals, quoted shapes with doubled quotes, a TAB after torch_npu start times, ``N/A`` for missing
values) and every writer must reproduce them identically. Timestamps are integer nanoseconds
everywhere in this package and are never passed through float64 (1.7e15 µs has no room for
nanoseconds in a double).
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

NA = "N/A"
_NEEDS_QUOTES = (",", '"', "\n", "\r", "\t")


def ts_us(ns: int) -> str:
    """Epoch nanoseconds -> µs decimal string with exactly three decimals (``"1704161511420306.491"``)."""
    return f"{ns // 1000}.{ns % 1000:03d}"


def dur_us(ns: int) -> float:
    """A duration in ns -> float µs (exact to the ns for any realistic duration)."""
    return ns / 1000


def dur_text(ns: int) -> str:
    """A duration in µs as CSV text; zero is written ``0`` like the real files."""
    return "0" if ns == 0 else repr(ns / 1000)


def r3(value: float) -> str:
    """A float rounded to 3 decimals, integers-valued zero written as ``0``."""
    v = round(value, 3)
    return "0" if v == 0 else repr(v)


def r4(value: float) -> str:
    v = round(value, 4)
    return "0" if v == 0 else repr(v)


def csv_field(value: str) -> str:
    if any(c in value for c in _NEEDS_QUOTES):
        return '"' + value.replace('"', '""') + '"'
    return value


def csv_line(fields: Iterable[str]) -> str:
    """One CSV record the way the CANN tools write it: minimal quoting (also for TAB), ``\\n`` end."""
    return ",".join(csv_field(f) for f in fields) + "\n"


def csv_text(header: list[str], rows: Iterable[list[str]]) -> str:
    return "".join([csv_line(header), *(csv_line(r) for r in rows)])


def pycsv_text(header: list[str], rows: Iterable[list[str]], end: str = "\r\n") -> str:
    """A CSV as torch_npu's own files are written, with Python's csv module: a TAB is not quoted, lines end
    ``\\r\\n`` (memory_record, operator_memory, step_trace_time) or ``\\n`` (npu_module_mem; the sample's)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator=end)
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()


def quoted_shapes(shapes: str) -> str:
    """Shapes as the tools store them: the value itself carries quotes (CSV shows ``\"\"\"1,3\"\"\"``)."""
    return f'"{shapes}"'


def dump_event(event: dict) -> str:
    """One trace event with the separators of the real files (``{"ph": "X", "name": ...}``)."""
    return json.dumps(event, ensure_ascii=False)


def write_json_array(path: Path, events: Iterable[dict]) -> int:
    """Stream events into a one-line JSON array (no list of all events is built); returns the count."""
    n = 0
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write("[")
        for ev in events:
            if n:
                fh.write(", ")
            fh.write(dump_event(ev))
            n += 1
        fh.write("]")
    return n


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)


class StagedDir:
    """Build a report folder under a hidden temporary name, then rename it into place.

    A reader therefore never sees a half-written PROF_* or *_ascend_pt folder; on error the
    temporary folder is removed. An existing target is never overwritten.
    """

    def __init__(self, target: Path):
        self.target = Path(target)
        self.tmp = self.target.with_name(f".{self.target.name}.part")

    def __enter__(self) -> Path:
        if self.target.exists():
            raise FileExistsError(f"{self.target}: output folder already exists; refusing to overwrite it")
        if self.tmp.exists():
            shutil.rmtree(self.tmp)
        self.tmp.mkdir(parents=True)
        return self.tmp

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
            return
        os.replace(self.tmp, self.target)
