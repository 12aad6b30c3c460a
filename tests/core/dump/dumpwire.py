"""Dump file bytes built by hand for the tests: a minimal protobuf wire encoder + struct.

Independent of workbench.core.dump (which decodes with the protobuf runtime): field numbers are
the documented AclDumpMsg.proto ones (docs/cann-formats.md §7.1).
"""

from __future__ import annotations

import struct


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def key(field: int, wire: int) -> bytes:
    return varint(field << 3 | wire)


def vfield(field: int, value: int) -> bytes:
    return key(field, 0) + varint(value) if value else b""


def lfield(field: int, payload: bytes) -> bytes:
    return key(field, 2) + varint(len(payload)) + payload


def shape_msg(dims) -> bytes:
    # repeated uint64 dim = 1, written unpacked (both encodings are valid for a proto3 reader)
    return b"".join(key(1, 0) + varint(d) for d in dims)


def tensor_msg(
    *,
    output: bool,
    data_type: int,
    fmt: int,
    shape,
    size: int,
    original_shape=(),
    original_op: tuple[str, int] | None = None,
) -> bytes:
    # OpInput: data_type 1, format 2, shape 3, data 4, size 5, original_shape 6
    # OpOutput: data_type 1, format 2, shape 3, original_op 4, data 5, size 6, original_shape 7
    body = vfield(1, data_type) + vfield(2, fmt) + lfield(3, shape_msg(shape))
    if output:
        if original_op:
            body += lfield(4, lfield(1, original_op[0].encode()) + vfield(2, original_op[1]))
        body += vfield(6, size)
        if original_shape:
            body += lfield(7, shape_msg(original_shape))
    else:
        body += vfield(5, size)
        if original_shape:
            body += lfield(6, shape_msg(original_shape))
    return body


def dump_bytes(
    op_name: str, inputs: list[dict], outputs: list[dict], version: str = "2.0", dump_time: int = 1623919128584912
) -> bytes:
    """inputs/outputs: dicts with raw, data_type, fmt, shape[, original_shape, original_op]."""
    header = lfield(1, version.encode()) + vfield(2, dump_time)
    for t in outputs:
        header += lfield(3, tensor_msg(output=True, size=len(t["raw"]), **{k: v for k, v in t.items() if k != "raw"}))
    for t in inputs:
        header += lfield(4, tensor_msg(output=False, size=len(t["raw"]), **{k: v for k, v in t.items() if k != "raw"}))
    header += lfield(6, op_name.encode())
    return (
        struct.pack("<Q", len(header))
        + header
        + b"".join(t["raw"] for t in inputs)
        + b"".join(t["raw"] for t in outputs)
    )
