"""``communication.json`` and ``communication_matrix.json`` (docs/cann-formats.md §4.2) read into tables.

Two layouts of each file exist (both read here, told apart per top-level key):

- torch_npu / MindSpore ``ASCEND_PROFILER_OUTPUT``: ``{"step50": {"p2p": {...}, "collective": {...}}}``
  (``"step"`` when the run had no steps), each kind holding the ops by name and a ``Total Op Info``;
- msprof ``PROF_*/analyze/`` (``msprof --analyze=on``): the ops by name at the top level, no step, no kind
  (p2p are the ``hcom_send`` / ``hcom_receive`` / ``hcom_batchsendrecv`` ops, as msprof-analyze splits them).

Keys are matched by name with every alias seen, ignoring case and spaces. ``Start Timestamp(us)`` becomes
exact int64 epoch ns from the number's text (never through float64). ``Total Op Info`` rows are kept, marked
``total``; transports are kept whatever their name. A missing field is empty (NaN / <NA>) and said once per
file in the warnings; a value of the wrong type, a top level that is not an object or a damaged file raises
one :class:`ProfilingDataError` naming the file and the key.

Tables (one row per ...):

- ``communication``: op — step, kind, op (the key as written), name (before ``@``), group (after ``@``), total,
  start_ns, elapse_ms, transit_ms, wait_ms, sync_ms, idle_ms, wait_ratio, sync_ratio;
- ``communication_bandwidth``: op and transport — step, kind, op, total, transport, size_mb, time_ms,
  bandwidth_gbs, large_packet_ratio (+ bandwidth_utilization where a file has it);
- ``communication_sizes``: op, transport and packet size — step, kind, op, total, transport, packet_mb, count,
  time_ms (empty where the file gives counts only);
- ``communication_matrix``: link of a matrix entry — step, kind, group_op, op_type, statistic, group, src,
  dst, transport, size_mb, time_ms, bandwidth_gbs, op_name (+ large_packet_ratio, bandwidth_utilization).
  ``statistic`` is what torch_npu made of the ops of one type and group: ``top1``, ``middle``, ``bottom1..3``
  (single ops picked by bandwidth), ``total`` (all of them summed); ``op`` for an msprof per-op entry,
  ``all`` for a ``Total Op Info`` entry.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.core.profiling.errors import ProfilingDataError

COMMUNICATION_TABLES = ("communication", "communication_bandwidth", "communication_sizes")
MATRIX_TABLE = "communication_matrix"
TOTAL_OP = "Total Op Info"
KINDS = ("collective", "p2p")
P2P_PREFIXES = ("hcom_send", "hcom_receive", "hcom_batchsendrecv")
# The op types torch_npu and msprof-analyze find in an op name (the first match in the name wins).
HCCL_TYPES = re.compile(
    r"send|reduce|invalid|broadcast|allreduce|receive|allgather|reducescatter|scatter|alltoall|alltoallv|"
    r"alltoallvc|batchsendrecv"
)
STATISTICS = ("top1", "middle", "bottom1", "bottom2", "bottom3", "total")

# canonical key -> the keys files use for it
TIME_INFO = ("Communication Time Info",)
BANDWIDTH_INFO = ("Communication Bandwidth Info",)
START = ("Start Timestamp(us)", "Start Timestamp")
TIME_FIELDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("elapse_ms", ("Elapse Time(ms)", "Elapsed Time(ms)")),
    ("transit_ms", ("Transit Time(ms)",)),
    ("wait_ms", ("Wait Time(ms)",)),
    ("sync_ms", ("Synchronization Time(ms)",)),
    ("idle_ms", ("Idle Time(ms)",)),
    ("wait_ratio", ("Wait Time Ratio",)),
    ("sync_ratio", ("Synchronization Time Ratio",)),
)
BANDWIDTH_FIELDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("size_mb", ("Transit Size(MB)",)),
    ("time_ms", ("Transit Time(ms)",)),
    ("bandwidth_gbs", ("Bandwidth(GB/s)",)),
    ("large_packet_ratio", ("Large Packet Ratio",)),
)
OPTIONAL_FIELDS: tuple[tuple[str, tuple[str, ...]], ...] = (("bandwidth_utilization", ("Bandwidth(Utilization)",)),)
SIZE_DISTRIBUTION = ("Size Distribution",)
TRANSPORT = ("Transport Type",)
OP_NAME = ("Op Name",)
MATRIX_FIELDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("size_mb", ("Transit Size(MB)",)),
    ("time_ms", ("Transit Time(ms)",)),
    ("bandwidth_gbs", ("Bandwidth(GB/s)",)),
)
MATRIX_OPTIONAL: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("large_packet_ratio", ("Large Packet Ratio",)),
    ("bandwidth_utilization", ("Bandwidth(Utilization)",)),
)
_LINK = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*$")
_STEP = re.compile(r"^(?:step)?(\d*)$", re.IGNORECASE)
_NUMBER_TEXT = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$")
INT64_MAX = 2**63 - 1


class _FloatText(str):
    """A JSON number with a fraction or exponent, kept as the text it was written as."""


@dataclass
class CommTables:
    """What one file was read into: tables by name and the warnings (each naming the file)."""

    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _norm(key: str) -> str:
    return re.sub(r"\s+", "", key).lower()


def _find(obj: dict, aliases: tuple[str, ...]) -> tuple[bool, Any]:
    """(found, value) of the first alias ``obj`` holds (case and spaces ignored)."""
    for alias in aliases:
        if alias in obj:
            return True, obj[alias]
    wanted = {_norm(a) for a in aliases}
    for key, value in obj.items():
        if isinstance(key, str) and _norm(key) in wanted:
            return True, value
    return False, None


def _what(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return f"the number {value}"
    text = str(value)
    return json.dumps(text if len(text) <= 40 else text[:39] + "…", ensure_ascii=False)


def _where(keys: tuple[Any, ...]) -> str:
    return " / ".join(json.dumps(str(k), ensure_ascii=False) for k in keys)


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.missing: Counter[str] = Counter()  # alias -> entries without it
        self.seen: Counter[str] = Counter()  # what kind of entries were counted (for "of N")

    def fail(self, keys: tuple[Any, ...], expected: str, value: Any) -> ProfilingDataError:
        return ProfilingDataError(f"{self.path}: {_where(keys)}: expected {expected}, found {_what(value)}")

    def load(self) -> dict:
        try:
            raw = self.path.read_bytes()
        except OSError as exc:
            raise ProfilingDataError(f"{self.path}: cannot read ({exc.strerror or exc})") from exc
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ProfilingDataError(f"{self.path}: not UTF-8 text (byte {exc.start} cannot be decoded)") from exc
        try:
            doc = json.loads(text, parse_float=_FloatText)
        except json.JSONDecodeError as exc:
            raise ProfilingDataError(
                f"{self.path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg} "
                "(a truncated or damaged file)"
            ) from exc
        except RecursionError as exc:
            raise ProfilingDataError(f"{self.path}: nested too deeply to be a communication file") from exc
        except ValueError as exc:  # an integer of more digits than Python converts
            raise ProfilingDataError(f"{self.path}: not valid JSON ({exc})") from exc
        if not isinstance(doc, dict):
            raise ProfilingDataError(
                f"{self.path}: expected a JSON object (steps, or communication ops by name) at the top level, "
                f"found {_what(doc)}"
            )
        return doc

    def obj(self, value: Any, keys: tuple[Any, ...], expected: str = "an object") -> dict:
        if not isinstance(value, dict):
            raise self.fail(keys, expected, value)
        return value

    def number(self, value: Any, keys: tuple[Any, ...]) -> float:
        if value is None:
            return float("nan")
        if isinstance(value, bool):
            raise self.fail(keys, "a number", value)
        if isinstance(value, (int, float)):
            try:
                return float(value)
            except OverflowError as exc:
                raise self.fail(keys, "a number a float holds", value) from exc
        if isinstance(value, str) and (isinstance(value, _FloatText) or _NUMBER_TEXT.match(value)):
            return float(value)
        raise self.fail(keys, "a number", value)

    def epoch_ns(self, value: Any, keys: tuple[Any, ...]) -> int | None:
        """µs since the epoch -> exact int ns from the number's text (half up beyond the ns digit)."""
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise self.fail(keys, "a time in µs", value)
        if isinstance(value, str) and not (isinstance(value, _FloatText) or _NUMBER_TEXT.match(value)):
            raise self.fail(keys, "a time in µs", value)
        try:
            ns = int((Decimal(str(value).strip()) * 1000).to_integral_value(rounding=ROUND_HALF_UP))
        except (InvalidOperation, ValueError, OverflowError) as exc:
            raise self.fail(keys, "a time in µs", value) from exc
        if not -INT64_MAX <= ns <= INT64_MAX:
            raise self.fail(keys, "a time in µs that fits int64 ns", value)
        return ns

    def fields(
        self, obj: dict, spec: tuple[tuple[str, tuple[str, ...]], ...], keys: tuple[Any, ...], count: bool = True
    ) -> dict[str, float]:
        out = {}
        for name, aliases in spec:
            found, value = _find(obj, aliases)
            if not found:
                if count:
                    self.missing[aliases[0]] += 1
                out[name] = float("nan")
                continue
            out[name] = self.number(value, (*keys, aliases[0]))
        return out

    def optional(self, obj: dict, spec: tuple[tuple[str, tuple[str, ...]], ...], keys: tuple[Any, ...]) -> dict:
        out = {}
        for name, aliases in spec:
            found, value = _find(obj, aliases)
            if found:
                out[name] = self.number(value, (*keys, aliases[0]))
        return out

    def warnings(self, entries: int, what: str) -> list[str]:
        return [
            f"{self.path}: {n} of {entries} {what} have no {alias!r}; left empty"
            for alias, n in sorted(self.missing.items())
            if n
        ]


def _step_id(key: str) -> int | None:
    m = _STEP.match(key.strip())
    if m and m.group(1) and int(m.group(1)) <= INT64_MAX:
        return int(m.group(1))
    return None


_STEP_KEY = re.compile(r"^step\d*$", re.IGNORECASE)
_OP_KEYS = {_norm(k) for k in (*TIME_INFO, *BANDWIDTH_INFO)}


def _is_step(top: Any, value: Any) -> bool:
    """A top-level entry that is a step of the torch_npu layout: it holds p2p / collective, or is
    named ``step<N>`` and holds neither an op's info nor a matrix link."""
    if not isinstance(value, dict):
        return False
    if not value or any(_norm(str(k)) in KINDS for k in value):
        return True
    named = bool(_STEP_KEY.match(str(top).strip()))
    return named and not any(_norm(str(k)) in _OP_KEYS or _LINK.match(str(k)) for k in value)


def _kind_of(op: str) -> str:
    return "p2p" if op.lower().startswith(P2P_PREFIXES) else "collective"


def _is_total(op: str) -> bool:
    return op.strip().lower().startswith("total")


def _entries(reader: _Reader, doc: dict) -> list[tuple[int | None, str, str, Any, tuple[Any, ...]]]:
    """(step, kind, op key, value, key path) of every op (or matrix group) of either layout."""
    out: list[tuple[int | None, str, str, Any, tuple[Any, ...]]] = []
    for top, value in doc.items():
        if _is_step(top, value):
            step = _step_id(str(top))
            for kind_key, ops in value.items():
                kind = _norm(str(kind_key))
                if kind not in KINDS:
                    raise reader.fail((top, kind_key), "'p2p' or 'collective'", kind_key)
                for op, entry in reader.obj(ops, (top, kind_key), "an object of ops by name").items():
                    out.append((step, kind, str(op), entry, (top, kind_key, op)))
        else:
            reader.obj(value, (top,), "an object (a step, or a communication op)")
            out.append((None, _kind_of(str(top)), str(top), value, (top,)))
    return out


def _split(op: str) -> tuple[str, str | None]:
    if "@" not in op:
        return op, None
    return op.split("@")[0], op.split("@")[-1]


def read_communication(path: Path) -> CommTables:
    """``communication.json`` of either layout into ``communication``, ``communication_bandwidth`` and
    ``communication_sizes`` (see the module docstring)."""
    path = Path(path)
    reader = _Reader(path)
    doc = reader.load()
    ops: list[dict] = []
    bandwidth: list[dict] = []
    sizes: list[dict] = []
    real = 0
    for step, kind, op, entry, keys in _entries(reader, doc):
        entry = reader.obj(entry, keys)
        total = _is_total(op)
        real += not total
        name, group = _split(op)
        row: dict[str, Any] = {"step": step, "kind": kind, "op": op, "name": name, "group": group, "total": total}
        found, info = _find(entry, TIME_INFO)
        if not found and not total:
            reader.missing[TIME_INFO[0]] += 1
        info = reader.obj(info, (*keys, TIME_INFO[0])) if found else {}
        has_start, start = _find(info, START)
        if found and not has_start and not total:  # a total has no start by design
            reader.missing[START[0]] += 1
        row["start_ns"] = reader.epoch_ns(start, (*keys, TIME_INFO[0], START[0])) if has_start else None
        row.update(reader.fields(info, TIME_FIELDS, (*keys, TIME_INFO[0]), count=found and not total))
        ops.append(row)
        found, links = _find(entry, BANDWIDTH_INFO)
        if not found:
            if not total:
                reader.missing[BANDWIDTH_INFO[0]] += 1
            continue
        for transport, tinfo in reader.obj(links, (*keys, BANDWIDTH_INFO[0])).items():
            tkeys = (*keys, BANDWIDTH_INFO[0], transport)
            tinfo = reader.obj(tinfo, tkeys)
            base = {"step": step, "kind": kind, "op": op, "total": total, "transport": str(transport)}
            # Total Op Info carries sizes and times only (torch_npu computes no bandwidth for it)
            values = reader.fields(tinfo, BANDWIDTH_FIELDS[:2], tkeys, count=not total)
            values.update(reader.fields(tinfo, BANDWIDTH_FIELDS[2:], tkeys, count=not total))
            bandwidth.append({**base, **values, **reader.optional(tinfo, OPTIONAL_FIELDS, tkeys)})
            has_dist, dist = _find(tinfo, SIZE_DISTRIBUTION)
            if not has_dist:
                continue
            for size, value in reader.obj(dist, (*tkeys, SIZE_DISTRIBUTION[0])).items():
                skeys = (*tkeys, SIZE_DISTRIBUTION[0], size)
                packet = reader.number(str(size), skeys)
                if isinstance(value, list):
                    if not 1 <= len(value) <= 2:
                        raise reader.fail(skeys, "[count, time in ms]", value)
                    count = reader.number(value[0], skeys)
                    time_ms = reader.number(value[1], skeys) if len(value) == 2 else float("nan")
                else:  # older files: the count only
                    count, time_ms = reader.number(value, skeys), float("nan")
                if not (np.isfinite(count) and count == int(count) and 0 <= count < 2.0**63):
                    raise reader.fail(skeys, "a packet count", value[0] if isinstance(value, list) else value)
                sizes.append({**base, "packet_mb": packet, "count": int(count), "time_ms": time_ms})
    out = CommTables(warnings=reader.warnings(real, "communication ops"))
    out.tables["communication"] = comm_frame(
        ops,
        ["step", "kind", "op", "name", "group", "total", "start_ns", *(f for f, _ in TIME_FIELDS)],
    )
    extra = [f for f, _ in OPTIONAL_FIELDS if any(f in r for r in bandwidth)]
    out.tables["communication_bandwidth"] = comm_frame(
        bandwidth, ["step", "kind", "op", "total", "transport", *(f for f, _ in BANDWIDTH_FIELDS), *extra]
    )
    out.tables["communication_sizes"] = comm_frame(
        sizes, ["step", "kind", "op", "total", "transport", "packet_mb", "count", "time_ms"]
    )
    return out


def _statistic(group_op: str) -> tuple[str | None, str]:
    """(op type, statistic) of a matrix entry's name: ``allreduce-top1@g`` -> (allreduce, top1)."""
    name = group_op.split("@")[0]
    if _is_total(group_op):
        return None, "all"
    head, _, tail = name.rpartition("-")
    if head and tail in STATISTICS:
        return head, tail
    m = HCCL_TYPES.search(name.lower())
    return (m.group() if m else name.split("__")[0]), "op"


def read_communication_matrix(path: Path) -> CommTables:
    """``communication_matrix.json`` of either layout into ``communication_matrix`` (one row per link)."""
    path = Path(path)
    reader = _Reader(path)
    doc = reader.load()
    rows: list[dict] = []
    bad_links: list[str] = []
    for step, kind, group_op, entry, keys in _entries(reader, doc):
        op_type, statistic = _statistic(group_op)
        _, group = _split(group_op)
        for link, info in reader.obj(entry, keys, "an object of links ('src-dst')").items():
            lkeys = (*keys, link)
            info = reader.obj(info, lkeys)
            m = _LINK.match(str(link))
            if m is None:
                bad_links.append(str(link))
            src = int(m.group(1)) if m and int(m.group(1)) <= INT64_MAX else None
            dst = int(m.group(2)) if m and int(m.group(2)) <= INT64_MAX else None
            has_t, transport = _find(info, TRANSPORT)
            if not has_t:
                reader.missing[TRANSPORT[0]] += 1
            elif not isinstance(transport, str):
                raise reader.fail((*lkeys, TRANSPORT[0]), "a transport name", transport)
            has_op, op_name = _find(info, OP_NAME)
            if has_op and op_name is not None and not isinstance(op_name, str):
                raise reader.fail((*lkeys, OP_NAME[0]), "an op name", op_name)
            row = {
                "step": step,
                "kind": kind,
                "group_op": group_op,
                "op_type": op_type,
                "statistic": statistic,
                "group": group,
                "src": src,
                "dst": dst,
                "transport": transport if has_t else None,
                **reader.fields(info, MATRIX_FIELDS, lkeys),
                "op_name": op_name if has_op else None,
                **reader.optional(info, MATRIX_OPTIONAL, lkeys),
            }
            rows.append(row)
    out = CommTables(warnings=reader.warnings(len(rows), "matrix links"))
    if bad_links:
        shown = ", ".join(repr(k) for k in sorted(set(bad_links))[:3])
        out.warnings.append(f"{path}: {len(bad_links)} links are not named 'src-dst' ({shown}); their ranks are empty")
    extra = [f for f, _ in MATRIX_OPTIONAL if any(f in r for r in rows)]
    columns = ["step", "kind", "group_op", "op_type", "statistic", "group", "src", "dst", "transport"]
    out.tables[MATRIX_TABLE] = comm_frame(rows, [*columns, *(f for f, _ in MATRIX_FIELDS), "op_name", *extra])
    return out


_INT_COLUMNS = ("rank", "step", "start_ns", "src", "dst", "count")
_TEXT_COLUMNS = ("kind", "op", "name", "group", "transport", "group_op", "op_type", "statistic", "op_name")


def comm_frame(rows: list[dict], columns: list[str]) -> pd.DataFrame:
    """Typed columns: Int64 ids and ns (exact), categorical text, float64 numbers, bool flags (the
    communication tables' types, whichever export they come from)."""
    data: dict[str, Any] = {}
    for c in columns:
        values = [r.get(c) for r in rows]
        if c in _INT_COLUMNS:
            ints = np.array([0 if v is None else v for v in values], dtype=np.int64)
            data[c] = pd.arrays.IntegerArray(ints, np.array([v is None for v in values], dtype=bool))
        elif c in _TEXT_COLUMNS:
            data[c] = pd.Categorical(values)
        elif c == "total":
            data[c] = np.array(values, dtype=bool)
        else:
            data[c] = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    return pd.DataFrame(data, index=pd.RangeIndex(len(rows)))
