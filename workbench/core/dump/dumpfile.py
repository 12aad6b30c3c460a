"""Read and write CANN dump files without CANN (docs/cann-formats.md §7.1).

A dump file named ``{op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}`` is a little-endian
``uint64`` header length N, N bytes of a protobuf ``toolkit.dumpdata.DumpData`` message (tensor
metadata with ``size`` and usually empty ``data``), then the raw tensor bytes: all inputs, then
all outputs, then buffers, each ``size`` bytes long. The message types are built at run time from
the documented fields (AclDumpMsg.proto field numbers) with the protobuf runtime, so no generated
code or ``.proto`` compiler is needed; fields this build does not know are skipped by protobuf.
"""

from __future__ import annotations

import mmap
import os
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

from workbench.core.dump import dtypes
from workbench.core.fsutil import atomic_write_bytes

PACKAGE = "toolkit.dumpdata"
_U64 = struct.Struct("<Q")
_F = descriptor_pb2.FieldDescriptorProto
# (name, number, type, label, message/enum type name or None)
_MESSAGES: dict[str, list[tuple[str, int, int, int, str | None]]] = {
    "OriginalOp": [
        ("name", 1, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None),
        ("output_index", 2, _F.TYPE_UINT32, _F.LABEL_OPTIONAL, None),
        ("data_type", 3, _F.TYPE_ENUM, _F.LABEL_OPTIONAL, "OutputDataType"),
        ("format", 4, _F.TYPE_ENUM, _F.LABEL_OPTIONAL, "OutputFormat"),
    ],
    "Shape": [("dim", 1, _F.TYPE_UINT64, _F.LABEL_REPEATED, None)],
    "OpOutput": [
        ("data_type", 1, _F.TYPE_ENUM, _F.LABEL_OPTIONAL, "OutputDataType"),
        ("format", 2, _F.TYPE_ENUM, _F.LABEL_OPTIONAL, "OutputFormat"),
        ("shape", 3, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Shape"),
        ("original_op", 4, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "OriginalOp"),
        ("data", 5, _F.TYPE_BYTES, _F.LABEL_OPTIONAL, None),
        ("size", 6, _F.TYPE_UINT64, _F.LABEL_OPTIONAL, None),
        ("original_shape", 7, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Shape"),
        ("sub_format", 8, _F.TYPE_INT32, _F.LABEL_OPTIONAL, None),
    ],
    "OpInput": [
        ("data_type", 1, _F.TYPE_ENUM, _F.LABEL_OPTIONAL, "OutputDataType"),
        ("format", 2, _F.TYPE_ENUM, _F.LABEL_OPTIONAL, "OutputFormat"),
        ("shape", 3, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Shape"),
        ("data", 4, _F.TYPE_BYTES, _F.LABEL_OPTIONAL, None),
        ("size", 5, _F.TYPE_UINT64, _F.LABEL_OPTIONAL, None),
        ("original_shape", 6, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, "Shape"),
        ("sub_format", 7, _F.TYPE_INT32, _F.LABEL_OPTIONAL, None),
    ],
    "OpBuffer": [
        ("buffer_type", 1, _F.TYPE_ENUM, _F.LABEL_OPTIONAL, "BufferType"),
        ("data", 2, _F.TYPE_BYTES, _F.LABEL_OPTIONAL, None),
        ("size", 3, _F.TYPE_UINT64, _F.LABEL_OPTIONAL, None),
    ],
    "DumpData": [
        ("version", 1, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None),
        ("dump_time", 2, _F.TYPE_UINT64, _F.LABEL_OPTIONAL, None),
        ("output", 3, _F.TYPE_MESSAGE, _F.LABEL_REPEATED, "OpOutput"),
        ("input", 4, _F.TYPE_MESSAGE, _F.LABEL_REPEATED, "OpInput"),
        ("buffer", 5, _F.TYPE_MESSAGE, _F.LABEL_REPEATED, "OpBuffer"),
        ("op_name", 6, _F.TYPE_STRING, _F.LABEL_OPTIONAL, None),
    ],
}
BUFFER_TYPES = {0: "l1"}


def _build_classes() -> dict[str, type]:
    fdp = descriptor_pb2.FileDescriptorProto(name="workbench_dumpdata.proto", package=PACKAGE, syntax="proto3")
    for enum_name, values in (
        ("OutputDataType", dtypes.DATA_TYPE_NAMES),
        ("OutputFormat", dtypes.FORMAT_NAMES),
        ("BufferType", {0: "L1"}),
    ):
        enum = fdp.enum_type.add(name=enum_name)
        for number, name in sorted(values.items()):
            enum.value.add(name=name, number=number)
    for msg_name, fields in _MESSAGES.items():
        msg = fdp.message_type.add(name=msg_name)
        for name, number, ftype, label, type_name in fields:
            f = msg.field.add(name=name, number=number, type=ftype, label=label)
            if type_name:
                f.type_name = f".{PACKAGE}.{type_name}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return {
        name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{PACKAGE}.{name}")) for name in _MESSAGES
    }


MESSAGES = _build_classes()
DumpDataMessage = MESSAGES["DumpData"]


class DumpFileError(ValueError):
    """A dump file that does not follow the layout: names the file, the byte offset and what was expected."""

    def __init__(self, path: str | os.PathLike[str], offset: int, message: str) -> None:
        super().__init__(f"{path}: at byte offset {offset}: {message}")
        self.path = str(path)
        self.offset = offset


_NAME_RE = re.compile(r"^(?P<type>[^.]+)\.(?P<name>.+)\.(?P<task>\d+)\.(?P<stream>\d+)\.(?P<ts>\d+)$")


@dataclass(frozen=True)
class DumpName:
    op_type: str
    op_name: str
    task_id: int
    stream_id: int
    timestamp: int


def parse_dump_name(file_name: str) -> DumpName | None:
    """Split ``{op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}``; None for other names.

    The op name may itself contain dots: the type is the first field, the three numbers the last.
    """
    m = _NAME_RE.match(file_name)
    if not m:
        return None
    return DumpName(m["type"], m["name"], int(m["task"]), int(m["stream"]), int(m["ts"]))


@dataclass
class DumpTensor:
    """One input, output or buffer of a dump file; ``raw`` is its bytes (a view into the file)."""

    kind: str  # "input" | "output" | "buffer"
    index: int
    data_type: int
    format: int
    shape: tuple[int, ...]
    original_shape: tuple[int, ...]
    sub_format: int
    size: int
    offset: int  # of the raw bytes in the file
    raw: memoryview | bytes = b""
    original_op: tuple[str, int] | None = None  # (name, output_index) for outputs that carry it
    buffer_type: int = 0

    @property
    def dtype_name(self) -> str:
        return dtypes.data_type_name(self.data_type)

    @property
    def format_name(self) -> str:
        return dtypes.format_name(self.format)

    def array(self):
        """The tensor as a numpy array of its dump shape (see :func:`dtypes.decode`)."""
        return dtypes.decode(self.raw, self.data_type, self.shape, where=f"{self.kind} {self.index}")


@dataclass
class DumpFile:
    path: str
    name: DumpName | None
    version: str
    dump_time: int
    op_name: str
    header_length: int
    inputs: list[DumpTensor] = field(default_factory=list)
    outputs: list[DumpTensor] = field(default_factory=list)
    buffers: list[DumpTensor] = field(default_factory=list)
    trailing_bytes: int = 0

    @property
    def op_type(self) -> str:
        return self.name.op_type if self.name else ""

    def tensors(self) -> list[DumpTensor]:
        return [*self.inputs, *self.outputs]


def _dims(shape_msg) -> tuple[int, ...]:
    return tuple(int(d) for d in shape_msg.dim)


def parse_dump_bytes(data: bytes | memoryview | mmap.mmap, path: str = "<bytes>") -> DumpFile:
    """Parse a whole dump file held in memory; tensors' ``raw`` are zero-copy views into ``data``."""
    view = memoryview(data)
    total = len(view)
    if total < _U64.size:
        raise DumpFileError(path, 0, f"file is {total} bytes, shorter than the 8-byte header length")
    (header_len,) = _U64.unpack_from(view, 0)
    if header_len > total - _U64.size:
        raise DumpFileError(
            path,
            0,
            f"header length {header_len} exceeds the {total - _U64.size} bytes "
            "after the 8-byte length field (not a dump file, or truncated)",
        )
    msg = DumpDataMessage()
    try:
        msg.ParseFromString(bytes(view[_U64.size : _U64.size + header_len]))
    except DecodeError as err:
        raise DumpFileError(
            path, _U64.size, f"the {header_len}-byte header is not a valid DumpData protobuf message ({err})"
        ) from None
    offset = _U64.size + header_len
    dump = DumpFile(
        path=path,
        name=parse_dump_name(os.path.basename(path)),
        version=msg.version,
        dump_time=msg.dump_time,
        op_name=msg.op_name,
        header_length=header_len,
    )

    def take(kind: str, index: int, item) -> tuple[memoryview | bytes, int]:
        nonlocal offset
        size = int(item.size)
        if item.data:  # old layout: bytes inside the message
            return item.data, -1
        if offset + size > total:
            raise DumpFileError(
                path, offset, f"{kind} {index} declares {size} bytes but only {total - offset} remain in the file"
            )
        start, offset = offset, offset + size
        return view[start : start + size], start

    for i, t in enumerate(msg.input):
        raw, at = take("input", i, t)
        dump.inputs.append(
            DumpTensor(
                "input",
                i,
                t.data_type,
                t.format,
                _dims(t.shape),
                _dims(t.original_shape),
                t.sub_format,
                int(t.size),
                at,
                raw,
            )
        )
    for i, t in enumerate(msg.output):
        raw, at = take("output", i, t)
        orig = (t.original_op.name, int(t.original_op.output_index)) if t.HasField("original_op") else None
        dump.outputs.append(
            DumpTensor(
                "output",
                i,
                t.data_type,
                t.format,
                _dims(t.shape),
                _dims(t.original_shape),
                t.sub_format,
                int(t.size),
                at,
                raw,
                orig,
            )
        )
    for i, b in enumerate(msg.buffer):
        raw, at = take("buffer", i, b)
        dump.buffers.append(
            DumpTensor("buffer", i, 0, 0, (), (), 0, int(b.size), at, raw, buffer_type=int(b.buffer_type))
        )
    dump.trailing_bytes = total - offset
    return dump


def read_dump(path: str | os.PathLike[str]) -> DumpFile:
    """Read a dump file (memory-mapped: tensors are views, nothing is copied until decoded)."""
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size == 0:
                raise DumpFileError(p, 0, "the file is empty")
            data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as err:
        raise DumpFileError(p, 0, f"cannot read the file ({err.strerror or err})") from None
    return parse_dump_bytes(data, str(p))


@dataclass
class TensorSpec:
    """What :func:`encode_dump` writes for one tensor: raw bytes plus metadata."""

    raw: bytes
    data_type: int
    format: int = dtypes.FORMAT_ND
    shape: tuple[int, ...] = ()
    original_shape: tuple[int, ...] = ()
    sub_format: int = 0
    original_op: tuple[str, int] | None = None


def encode_dump(
    op_name: str, inputs: list[TensorSpec], outputs: list[TensorSpec], *, dump_time: int = 0, version: str = "2.0"
) -> bytes:
    """The bytes of a dump file in the real layout (header length, DumpData, raw tensors)."""
    msg = DumpDataMessage(version=version, dump_time=dump_time, op_name=op_name)
    for spec, repeated in [(s, msg.input) for s in inputs] + [(s, msg.output) for s in outputs]:
        t = repeated.add(data_type=spec.data_type, format=spec.format, size=len(spec.raw), sub_format=spec.sub_format)
        t.shape.dim.extend(spec.shape)
        if spec.original_shape:
            t.original_shape.dim.extend(spec.original_shape)
        if spec.original_op is not None and repeated is msg.output:
            t.original_op.name, t.original_op.output_index = spec.original_op
    header = msg.SerializeToString()
    return b"".join([_U64.pack(len(header)), header, *(s.raw for s in inputs), *(s.raw for s in outputs)])


def write_dump(
    path: str | os.PathLike[str], op_name: str, inputs: list[TensorSpec], outputs: list[TensorSpec], **kw
) -> None:
    atomic_write_bytes(path, encode_dump(op_name, inputs, outputs, **kw))
