"""What a loaded timeline is: :class:`Timeline` (slices as numpy columns), its lanes, flows,
instants and counters, the string-column helpers, and the array description the cache and the saved
report use (:meth:`Timeline.to_arrays` / :meth:`Timeline.from_arrays`).

Times are exact integer nanoseconds relative to ``origin_ns``; args stay raw JSON in an
:class:`~workbench.core.profiling.timeline.store.ArgsStore` and are decoded on demand.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import numpy as np

from .store import ArgsStore, BlobView

META_VERSION = 2  # 2: a big flow-name table is kept in arrays (flow_name_blob/off), not in the JSON
READ_META_VERSIONS = (1, 2)
BIG_TABLE = 4096  # flow-name tables longer than this go to arrays


class TimelineError(Exception):
    """Bad trace input; the message names the file, position and what was expected."""


@dataclass
class Lane:
    """One row group of the timeline: a (process, thread) pair."""

    index: int
    pid: str
    tid: str
    process_name: str
    thread_name: str
    device: int | None
    sort_index: int
    is_stream: bool


@dataclass
class Counter:
    """A counter track (``ph: C``): one or more series sampled at ``ts_ns``."""

    process_name: str
    name: str
    device: int | None
    ts_ns: np.ndarray
    series: dict[str, np.ndarray]


class CodeColumn(Sequence):
    """Read-only sequence of strings stored as int codes into a table."""

    def __init__(self, codes: np.ndarray, table: list[str]) -> None:
        self.codes, self.table = codes, table

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self.table[c] for c in self.codes[i].tolist()]
        return self.table[int(self.codes[i])]

    def __iter__(self) -> Iterator[str]:
        table = self.table
        return (table[c] for c in self.codes.tolist())


class TextTable(Sequence):
    """Read-only table of strings held as one UTF-8 blob + offsets, decoded on access: a cached
    trace's million flow names cost nothing until one is shown."""

    def __init__(self, blob: np.ndarray, offsets: np.ndarray) -> None:
        self.blob, self.offsets = blob, offsets

    @classmethod
    def of(cls, texts: Sequence[str]) -> TextTable:
        if isinstance(texts, TextTable):
            return texts
        joined = "".join(texts)
        if joined.isascii():  # the usual case, in a few C calls (no per-name bytecode holding the GIL)
            offsets = np.zeros(len(texts) + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)), out=offsets[1:])
            return cls(np.frombuffer(joined.encode("ascii"), dtype=np.uint8), offsets)
        encoded = [t.encode("utf-8") for t in texts]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)), out=offsets[1:])
        return cls(np.frombuffer(b"".join(encoded), dtype=np.uint8), offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        a, b = int(self.offsets[i]), int(self.offsets[i + 1])
        return self.blob[a:b].tobytes().decode("utf-8")


class BytesColumn(Sequence):
    """Read-only sequence of strings stored UTF-8 encoded in a fixed-width ``S`` array."""

    def __init__(self, data: np.ndarray) -> None:
        self.data = data

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [b.decode("utf-8") for b in self.data[i].tolist()]
        return bytes(self.data[i]).decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        return (b.decode("utf-8") for b in self.data.tolist())


@dataclass
class Flows:
    """Paired flow events (``s`` → ``f``); ``*_slice`` is -1 where no slice encloses the point."""

    cat: Sequence[str]
    id: Sequence[str]
    name: Sequence[str]
    src_slice: np.ndarray
    dst_slice: np.ndarray
    src_ns: np.ndarray
    dst_ns: np.ndarray
    src_lane: np.ndarray
    dst_lane: np.ndarray

    def __len__(self) -> int:
        return len(self.src_ns)


@dataclass
class Instants:
    """Instant events (``i``/``I``/``R``)."""

    lane: np.ndarray
    ts_ns: np.ndarray
    name_id: np.ndarray
    cat_id: np.ndarray

    def __len__(self) -> int:
        return len(self.ts_ns)


SLICE_ARRAYS = ("lane", "start_ns", "dur_ns", "name_id", "cat_id", "depth", "parent", "args_off", "args_len")


@dataclass(eq=False)
class Timeline:
    """A whole trace as columns. Slice ``i`` is ``lane[i]``, ``start_ns[i]``, ``dur_ns[i]``..."""

    source: list[str]
    origin_ns: int
    lanes: list[Lane]
    lane: np.ndarray
    start_ns: np.ndarray
    dur_ns: np.ndarray
    name_id: np.ndarray
    cat_id: np.ndarray
    depth: np.ndarray
    parent: np.ndarray
    names: list[str]
    cats: list[str]
    flows: Flows
    instants: Instants
    counters: list[Counter]
    event_count: int
    flow_count: int
    span_ns: int
    warnings: list[str]
    devices: list[int]
    args_off: np.ndarray
    args_len: np.ndarray
    _store: ArgsStore = field(repr=False, default_factory=ArgsStore)

    def __len__(self) -> int:
        return len(self.start_ns)

    def __repr__(self) -> str:
        return (
            f"Timeline({len(self)} slices, {len(self.lanes)} lanes, {self.flow_count} flows, "
            f"{len(self.counters)} counters, source={self.source!r})"
        )

    @property
    def end_ns(self) -> np.ndarray:
        return self.start_ns + self.dur_ns

    def name(self, i: int) -> str:
        return self.names[int(self.name_id[i])]

    def args(self, i: int) -> dict:
        """The ``args`` object of slice ``i`` ({} when it had none), decoded now. Args that do not
        decode (bytes that are not UTF-8, nesting deeper than any tool writes) come back as their
        text under ``"args (not decodable)"``, never as an exception in a view."""
        raw = self._store.get(int(self.args_off[i]), int(self.args_len[i]))
        if not raw:
            return {}
        try:
            value = msgspec.json.decode(raw)
        except (msgspec.DecodeError, RecursionError):
            return {"args (not decodable)": bytes(raw[:512]).decode("utf-8", errors="replace")}
        return value if isinstance(value, dict) else {"args": value}

    def lane_slices(self, lane: int) -> slice:
        """The contiguous index range of ``lane``'s slices."""
        lo, hi = np.searchsorted(self.lane, [lane, lane + 1])
        return slice(int(lo), int(hi))

    # -- cache / saved report -------------------------------------------------------------------
    def to_arrays(self, embed_args: bool = True) -> tuple[dict, dict[str, np.ndarray]]:
        """(JSON-able meta, arrays) describing everything; :meth:`from_arrays` inverts it.

        ``embed_args=False`` leaves the raw args out (meta then records no args: :meth:`args`
        of the rebuilt timeline returns {}), for callers that keep them elsewhere.
        """
        arrays: dict[str, Any] = {k: getattr(self, k) for k in SLICE_ARRAYS}  # arrays, and a BlobView
        if embed_args:
            arrays["args_blob"] = BlobView(self._store)  # written piecewise, never joined in memory
        else:
            arrays["args_len"] = np.zeros(len(self.args_len), dtype=np.int64)
        fl = self.flows
        flow_cats = _table_of(fl.cat)
        name_table, name_codes = _table_of(fl.name)
        flow_names: tuple[Sequence[str] | None, np.ndarray] = (name_table, name_codes)
        if len(name_table) > BIG_TABLE:  # a JSON list of a million names costs seconds to write and read
            texts = TextTable.of(name_table)
            arrays.update({"flow_name_blob": texts.blob, "flow_name_off": texts.offsets})
            flow_names = (None, flow_names[1])
        arrays.update(
            {
                "flow_cat": flow_cats[1],
                "flow_name": flow_names[1],
                "flow_id": _bytes_of(fl.id),
                "flow_src_slice": fl.src_slice,
                "flow_dst_slice": fl.dst_slice,
                "flow_src_ns": fl.src_ns,
                "flow_dst_ns": fl.dst_ns,
                "flow_src_lane": fl.src_lane,
                "flow_dst_lane": fl.dst_lane,
                "inst_lane": self.instants.lane,
                "inst_ts": self.instants.ts_ns,
                "inst_name": self.instants.name_id,
                "inst_cat": self.instants.cat_id,
            }
        )
        counters = []
        for k, c in enumerate(self.counters):
            arrays[f"counter{k}_ts"] = c.ts_ns
            keys = list(c.series)
            for j, key in enumerate(keys):
                arrays[f"counter{k}_s{j}"] = c.series[key]
            counters.append({"process_name": c.process_name, "name": c.name, "device": c.device, "series": keys})
        meta = {
            "version": META_VERSION,
            "source": self.source,
            "origin_ns": str(self.origin_ns),
            "lanes": [msgspec.structs.asdict(_LaneRec(**vars(lane))) for lane in self.lanes],
            "names": self.names,
            "cats": self.cats,
            "flow_cats": flow_cats[0],
            "flow_names": flow_names[0],
            "counters": counters,
            "event_count": self.event_count,
            "flow_count": self.flow_count,
            "span_ns": str(self.span_ns),
            "warnings": self.warnings,
            "devices": self.devices,
        }
        return meta, arrays

    @classmethod
    def from_arrays(cls, meta: dict, arrays: dict[str, np.ndarray]) -> Timeline:
        """Rebuild from :meth:`to_arrays` output (arrays may be read-only memory maps)."""
        if meta.get("version") not in READ_META_VERSIONS:
            raise TimelineError(
                f"timeline data version {meta.get('version')!r} is not supported "
                f"(this workbench reads versions {', '.join(map(str, READ_META_VERSIONS))})"
            )
        flow_names = meta["flow_names"]
        if flow_names is None:
            flow_names = TextTable(arrays["flow_name_blob"], arrays["flow_name_off"])
        counters = []
        for k, c in enumerate(meta["counters"]):
            series = {key: arrays[f"counter{k}_s{j}"] for j, key in enumerate(c["series"])}
            counters.append(Counter(c["process_name"], c["name"], c["device"], arrays[f"counter{k}_ts"], series))
        blob = arrays.get("args_blob")
        store = ArgsStore.from_array(blob) if blob is not None else ArgsStore.from_array(np.zeros(0, np.uint8))
        flows = Flows(
            CodeColumn(arrays["flow_cat"], meta["flow_cats"]),
            BytesColumn(arrays["flow_id"]),
            CodeColumn(arrays["flow_name"], flow_names),
            arrays["flow_src_slice"],
            arrays["flow_dst_slice"],
            arrays["flow_src_ns"],
            arrays["flow_dst_ns"],
            arrays["flow_src_lane"],
            arrays["flow_dst_lane"],
        )
        return cls(
            source=list(meta["source"]),
            origin_ns=int(meta["origin_ns"]),
            lanes=[Lane(**lane) for lane in meta["lanes"]],
            **{k: arrays[k] for k in SLICE_ARRAYS if k not in ("args_off", "args_len")},
            names=list(meta["names"]),
            cats=list(meta["cats"]),
            flows=flows,
            instants=Instants(arrays["inst_lane"], arrays["inst_ts"], arrays["inst_name"], arrays["inst_cat"]),
            counters=counters,
            event_count=int(meta["event_count"]),
            flow_count=int(meta["flow_count"]),
            span_ns=int(meta["span_ns"]),
            warnings=list(meta["warnings"]),
            devices=list(meta["devices"]),
            args_off=arrays["args_off"],
            args_len=arrays["args_len"],
            _store=store,
        )


class _LaneRec(msgspec.Struct):
    index: int
    pid: str
    tid: str
    process_name: str
    thread_name: str
    device: int | None
    sort_index: int
    is_stream: bool


def _table_of(column: Sequence[str]) -> tuple[Sequence[str], np.ndarray]:
    if isinstance(column, CodeColumn):
        table = column.table
        return (table if isinstance(table, TextTable) else list(table)), column.codes
    index: dict[str, int] = {}
    codes = np.fromiter((index.setdefault(s, len(index)) for s in column), dtype=np.int32, count=len(column))
    return list(index), codes


def _bytes_of(column: Sequence[str]) -> np.ndarray:
    if isinstance(column, BytesColumn):
        return column.data
    return np.array([s.encode("utf-8") for s in column], dtype=bytes) if len(column) else np.zeros(0, "S1")
