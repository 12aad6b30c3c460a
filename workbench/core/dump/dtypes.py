"""Dump data types and formats: enum numbers, names, and raw bytes <-> numpy arrays.

Numbers are those of ``toolkit.dumpdata.OutputDataType`` / ``OutputFormat`` (AclDumpMsg.proto,
docs/cann-formats.md §7.1; 32..36 from msaccucmp's constants). Decoding rules:

- plain types read little-endian; bool bytes are "non-zero = True"; ``DT_UNDEFINED`` is read as
  int8 bytes (as msaccucmp does);
- ``DT_BF16`` becomes float32 *exactly* (the 16 bits are the top half of a float32): numpy has no
  bfloat16;
- ``DT_UINT1`` unpacks 8 values a byte, most significant bit first (``np.unpackbits``, as msaccucmp);
- ``DT_INT4`` packs two values a byte, element 0 in the low nibble (the CANN/torch_npu int4 pack
  convention), sign-extended to int8; ``DT_INT2``/``DT_UINT2`` pack four a byte, element 0 in the
  lowest bits (same convention; not confirmed by a Huawei source);
- ``DT_COMPLEX32`` is two float16 -> complex64; ``DT_FLOAT8_E5M2``/``E4M3FN``/``E8M0`` -> float32.
"""

from __future__ import annotations

import math

import numpy as np

DATA_TYPE_NAMES = {
    0: "DT_UNDEFINED",
    1: "DT_FLOAT",
    2: "DT_FLOAT16",
    3: "DT_INT8",
    4: "DT_UINT8",
    5: "DT_INT16",
    6: "DT_UINT16",
    7: "DT_INT32",
    8: "DT_INT64",
    9: "DT_UINT32",
    10: "DT_UINT64",
    11: "DT_BOOL",
    12: "DT_DOUBLE",
    13: "DT_STRING",
    14: "DT_DUAL_SUB_INT8",
    15: "DT_DUAL_SUB_UINT8",
    16: "DT_COMPLEX64",
    17: "DT_COMPLEX128",
    18: "DT_QINT8",
    19: "DT_QINT16",
    20: "DT_QINT32",
    21: "DT_QUINT8",
    22: "DT_QUINT16",
    23: "DT_RESOURCE",
    24: "DT_STRING_REF",
    25: "DT_DUAL",
    26: "DT_VARIANT",
    27: "DT_BF16",
    28: "DT_INT4",
    29: "DT_UINT1",
    30: "DT_INT2",
    31: "DT_UINT2",
    32: "DT_COMPLEX32",
    33: "DT_HIFLOAT8",
    34: "DT_FLOAT8_E5M2",
    35: "DT_FLOAT8_E4M3FN",
    36: "DT_FLOAT8_E8M0",
}
FORMAT_NAMES = {
    0: "FORMAT_NCHW",
    1: "FORMAT_NHWC",
    2: "FORMAT_ND",
    3: "FORMAT_NC1HWC0",
    4: "FORMAT_FRACTAL_Z",
    5: "FORMAT_NC1C0HWPAD",
    6: "FORMAT_NHWC1C0",
    7: "FORMAT_FSR_NCHW",
    8: "FORMAT_FRACTAL_DECONV",
    9: "FORMAT_C1HWNC0",
    10: "FORMAT_FRACTAL_DECONV_TRANSPOSE",
    11: "FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS",
    12: "FORMAT_NC1HWC0_C04",
    13: "FORMAT_FRACTAL_Z_C04",
    14: "FORMAT_CHWN",
    15: "FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS",
    16: "FORMAT_HWCN",
    17: "FORMAT_NC1KHKWHWC0",
    18: "FORMAT_BN_WEIGHT",
    19: "FORMAT_FILTER_HWCK",
    20: "FORMAT_HASHTABLE_LOOKUP_LOOKUPS",
    21: "FORMAT_HASHTABLE_LOOKUP_KEYS",
    22: "FORMAT_HASHTABLE_LOOKUP_VALUE",
    23: "FORMAT_HASHTABLE_LOOKUP_OUTPUT",
    24: "FORMAT_HASHTABLE_LOOKUP_HITS",
    25: "FORMAT_C1HWNCoC0",
    26: "FORMAT_MD",
    27: "FORMAT_NDHWC",
    28: "FORMAT_FRACTAL_ZZ",
    29: "FORMAT_FRACTAL_NZ",
    30: "FORMAT_NCDHW",
    31: "FORMAT_DHWCN",
    32: "FORMAT_NDC1HWC0",
    33: "FORMAT_FRACTAL_Z_3D",
    34: "FORMAT_CN",
    35: "FORMAT_NC",
    36: "FORMAT_DHWNC",
    37: "FORMAT_FRACTAL_Z_3D_TRANSPOSE",
    38: "FORMAT_FRACTAL_ZN_LSTM",
    39: "FORMAT_FRACTAL_Z_G",
    40: "FORMAT_RESERVED",
    41: "FORMAT_ALL",
    42: "FORMAT_NULL",
    43: "FORMAT_ND_RNN_BIAS",
    44: "FORMAT_FRACTAL_ZN_RNN",
    45: "FORMAT_YUV",
    46: "FORMAT_YUV_A",
    47: "FORMAT_NCL",
    48: "FORMAT_FRACTAL_Z_WINO",
    49: "FORMAT_C1HWC0",
    255: "FORMAT_MAX",
}
FORMAT_NCHW, FORMAT_NHWC, FORMAT_ND, FORMAT_NC1HWC0, FORMAT_FRACTAL_Z = 0, 1, 2, 3, 4
FORMAT_FRACTAL_NZ, FORMAT_NCDHW, FORMAT_NDC1HWC0 = 29, 30, 32
DT = {name[3:]: number for number, name in DATA_TYPE_NAMES.items()}  # "FLOAT16" -> 2
FORMAT = {name[7:]: number for number, name in FORMAT_NAMES.items()}  # "NC1HWC0" -> 3

# type -> numpy dtype read straight from the bytes
_PLAIN = {
    0: "i1",
    1: "<f4",
    2: "<f2",
    3: "i1",
    4: "u1",
    5: "<i2",
    6: "<u2",
    7: "<i4",
    8: "<i8",
    9: "<u4",
    10: "<u8",
    11: "u1",
    12: "<f8",
    14: "i1",
    15: "u1",
    16: "<c8",
    17: "<c16",
    18: "i1",
    19: "<i2",
    20: "<i4",
    21: "u1",
    22: "<u2",
    23: "<i8",
    27: "<u2",
    32: "<f2",
    34: "u1",
    35: "u1",
    36: "u1",
}
_PACKED_BITS = {28: 4, 29: 1, 30: 2, 31: 2}  # sub-byte types: bits per element
# numpy dtype -> data type, for writing dump files and telling a .npy's type
NUMPY_TO_DT = {
    "float32": 1,
    "float16": 2,
    "int8": 3,
    "uint8": 4,
    "int16": 5,
    "uint16": 6,
    "int32": 7,
    "int64": 8,
    "uint32": 9,
    "uint64": 10,
    "bool": 11,
    "float64": 12,
    "complex64": 16,
    "complex128": 17,
}


class DataTypeError(ValueError):
    """Bytes that cannot be a tensor of the declared type and shape."""


def data_type_name(number: int) -> str:
    return DATA_TYPE_NAMES.get(number, f"DT_{number}")


def format_name(number: int) -> str:
    """Short format name as the tools print it ("NC1HWC0"), or the number for unknown ones."""
    name = FORMAT_NAMES.get(number)
    return name[7:] if name else str(number)


def bits_per_element(data_type: int) -> int:
    if data_type in _PACKED_BITS:
        return _PACKED_BITS[data_type]
    if data_type in _PLAIN:
        return np.dtype(_PLAIN[data_type]).itemsize * 8 * (2 if data_type == 32 else 1)
    raise DataTypeError(f"data type {data_type_name(data_type)} ({data_type}) is not supported")


def _float8_table(exp_bits: int, man_bits: int, bias: int, fn: bool) -> np.ndarray:
    """float32 value of every byte of an 8-bit float (OCP E5M2 with inf/NaN, E4M3FN with only NaN)."""
    out = np.empty(256, dtype=np.float32)
    top = (1 << exp_bits) - 1
    for b in range(256):
        sign = -1.0 if b & 0x80 else 1.0
        e, m = (b >> man_bits) & top, b & ((1 << man_bits) - 1)
        if fn and e == top and m == (1 << man_bits) - 1:
            v = math.nan
        elif not fn and e == top:
            v = math.inf if m == 0 else math.nan
        elif e == 0:
            v = m / (1 << man_bits) * 2.0 ** (1 - bias)
        else:
            v = (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)
        out[b] = sign * v
    return out


_E8M0 = np.array([2.0 ** (e - 127) if e != 255 else np.nan for e in range(256)], dtype=np.float32)
_LUT = {34: _float8_table(5, 2, 15, fn=False), 35: _float8_table(4, 3, 7, fn=True), 36: _E8M0}


def element_count(shape: tuple[int, ...], nbytes: int, data_type: int) -> tuple[tuple[int, ...], int]:
    """(shape to use, element count). An empty shape with more than one element's bytes is 1-D."""
    if shape:
        return tuple(shape), math.prod(shape)
    bits = bits_per_element(data_type)
    n = nbytes * 8 // bits
    return ((), 1) if n <= 1 else ((n,), n)


def _unpack(raw: np.ndarray, bits: int, signed: bool, msb_first: bool, count: int) -> np.ndarray:
    per = 8 // bits
    shifts = np.arange(per, dtype=np.uint8) * bits
    if msb_first:
        shifts = shifts[::-1]
    vals = ((raw[:, None] >> shifts) & ((1 << bits) - 1)).reshape(-1)[:count]
    if signed:
        vals = vals.astype(np.int8)
        vals[vals >= 1 << (bits - 1)] -= 1 << bits
    return vals


def decode(raw, data_type: int, shape: tuple[int, ...], where: str = "tensor") -> np.ndarray:
    """Raw dump bytes -> numpy array of ``shape`` (see the module docstring for each type)."""
    shape, count = element_count(tuple(shape), len(raw), data_type)
    bits = bits_per_element(data_type)
    need = (count * bits + 7) // 8
    if len(raw) < need:
        raise DataTypeError(
            f"{where}: {data_type_name(data_type)} of shape {list(shape)} needs {need} bytes, the file has {len(raw)}"
        )
    if count == 0:
        return np.zeros(shape, dtype=np.float32 if data_type == 27 else _PLAIN.get(data_type, "i1"))
    if data_type in _PACKED_BITS:
        packed = np.frombuffer(raw, dtype=np.uint8, count=need)
        arr = _unpack(packed, bits, signed=data_type in (28, 30), msb_first=data_type == 29, count=count)
        return arr.reshape(shape)
    dt = np.dtype(_PLAIN[data_type])
    n_items = count * (2 if data_type == 32 else 1)
    arr = np.frombuffer(raw, dtype=dt, count=n_items)
    if data_type == 27:  # bfloat16: the high half of a float32
        arr = (arr.astype(np.uint32) << 16).view(np.float32)
    elif data_type == 11:
        arr = arr != 0
    elif data_type == 32:
        arr = arr.astype(np.float32).view(np.complex64)
    elif data_type in _LUT:
        arr = _LUT[data_type][arr]
    elif dt.byteorder == "<":
        arr = arr.astype(dt.newbyteorder("="), copy=False)
    return arr.reshape(shape)


def float32_to_bf16_bits(values: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bit patterns, rounding to nearest even (NaN kept quiet)."""
    u = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    rounded = np.where(np.isnan(values), (u >> 16) | 0x40, rounded)
    return rounded.astype(np.uint16)


def encode(array: np.ndarray, data_type: int) -> bytes:
    """numpy array -> raw dump bytes of ``data_type`` (the inverse of :func:`decode`)."""
    flat = np.asarray(array).reshape(-1)
    if data_type == 27:
        return float32_to_bf16_bits(flat.astype(np.float32)).astype("<u2").tobytes()
    if data_type in _PACKED_BITS:
        bits = _PACKED_BITS[data_type]
        per = 8 // bits
        vals = (flat.astype(np.int16) & ((1 << bits) - 1)).astype(np.uint8)
        vals = np.concatenate([vals, np.zeros((-len(vals)) % per, dtype=np.uint8)]).reshape(-1, per)
        shifts = np.arange(per, dtype=np.uint8) * bits
        if data_type == 29:
            shifts = shifts[::-1]
        return np.bitwise_or.reduce(vals << shifts, axis=1).astype(np.uint8).tobytes()
    if data_type in (11,):
        return flat.astype(np.uint8).tobytes()
    if data_type in _PLAIN and data_type not in _LUT and data_type != 32:
        return flat.astype(_PLAIN[data_type]).tobytes()
    raise DataTypeError(f"writing data type {data_type_name(data_type)} is not supported")
