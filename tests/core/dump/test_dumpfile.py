"""Dump files built by hand from the documented layout convert to the exact arrays, every dtype."""

from __future__ import annotations

import csv
import math
import struct

import numpy as np
import pytest
from dumpwire import dump_bytes

from workbench.core.dump.convert import convert_paths
from workbench.core.dump.dumpfile import DumpFileError, parse_dump_name, read_dump

ND, NCHW, NC1HWC0, FRACTAL_Z, FRACTAL_NZ = 2, 0, 3, 4, 29


def _f32_bits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


def _plain(code: str, values) -> bytes:
    return struct.pack("<%d%s" % (len(values), code), *values)


def _cases():
    """(name, data type number, raw bytes, shape, expected array)."""
    ints = [-3, 0, 7, -128 + 1, 100, 5]
    cases = [
        (
            "float",
            1,
            _plain("f", [1.5, -2.25, 3e38, 0.0, -0.0, 1e-40]),
            (2, 3),
            np.array([1.5, -2.25, 3e38, 0.0, -0.0, 1e-40], np.float32).reshape(2, 3),
        ),
        ("float16", 2, _plain("e", [1.0, -0.5, 65504.0, 6e-8]), (4,), np.array([1.0, -0.5, 65504.0, 6e-8], np.float16)),
        ("double", 12, _plain("d", [math.pi, -1e300]), (2,), np.array([math.pi, -1e300])),
        ("undefined as int8", 0, _plain("b", [1, -2, 3]), (3,), np.array([1, -2, 3], np.int8)),
        ("bool", 11, bytes([0, 1, 1, 0]), (2, 2), np.array([[False, True], [True, False]])),
        ("complex64", 16, _plain("f", [1, 2, -3, 4]), (2,), np.array([1 + 2j, -3 + 4j], np.complex64)),
        ("complex128", 17, _plain("d", [0.5, -1]), (1,), np.array([0.5 - 1j])),
        ("complex32", 32, _plain("e", [1, 2, 0.5, -0.25]), (2,), np.array([1 + 2j, 0.5 - 0.25j], np.complex64)),
    ]
    for name, number, code, dtype in [
        ("int8", 3, "b", np.int8),
        ("uint8", 4, "B", np.uint8),
        ("int16", 5, "h", np.int16),
        ("uint16", 6, "H", np.uint16),
        ("int32", 7, "i", np.int32),
        ("int64", 8, "q", np.int64),
        ("uint32", 9, "I", np.uint32),
        ("uint64", 10, "Q", np.uint64),
        ("dual_sub_int8", 14, "b", np.int8),
        ("dual_sub_uint8", 15, "B", np.uint8),
        ("qint8", 18, "b", np.int8),
        ("qint16", 19, "h", np.int16),
        ("qint32", 20, "i", np.int32),
        ("quint8", 21, "B", np.uint8),
        ("quint16", 22, "H", np.uint16),
        ("resource", 23, "q", np.int64),
    ]:
        vals = [abs(v) for v in ints] if code.isupper() else ints
        cases.append((name, number, _plain(code, vals), (3, 2), np.array(vals, dtype).reshape(3, 2)))
    bf16 = [1.0, -2.5, 0.15625, 65536.0, -0.0, float("inf")]  # low 16 bits of their float32 are zero
    cases.append(("bfloat16", 27, _plain("H", [_f32_bits(v) >> 16 for v in bf16]), (6,), np.array(bf16, np.float32)))
    int4 = [-8, 7, -1, 0, 3]
    packed = [(int4[i] & 0xF) | ((int4[i + 1] & 0xF) << 4 if i + 1 < len(int4) else 0) for i in range(0, 5, 2)]
    cases.append(("int4", 28, bytes(packed), (5,), np.array(int4, np.int8)))
    bits = [1, 0, 1, 1, 0, 0, 0, 1, 1, 1]
    bytes1 = [sum(b << (7 - j) for j, b in enumerate(bits[k : k + 8])) for k in range(0, 10, 8)]
    cases.append(("uint1", 29, bytes(bytes1), (10,), np.array(bits, np.uint8)))
    int2 = [-2, -1, 0, 1, 1, -2]
    b2 = [sum((v & 3) << (2 * j) for j, v in enumerate(int2[k : k + 4])) for k in range(0, 6, 4)]
    cases.append(("int2", 30, bytes(b2), (2, 3), np.array(int2, np.int8).reshape(2, 3)))
    uint2 = [3, 0, 2, 1, 3]
    u2 = [sum(v << (2 * j) for j, v in enumerate(uint2[k : k + 4])) for k in range(0, 5, 4)]
    cases.append(("uint2", 31, bytes(u2), (5,), np.array(uint2, np.uint8)))
    cases.append(
        ("float8_e5m2", 34, bytes([0x3C, 0xC0, 0x7C, 0x01]), (4,), np.array([1.0, -2.0, np.inf, 2.0**-16], np.float32))
    )
    cases.append(
        ("float8_e4m3fn", 35, bytes([0x38, 0xC8, 0x7F, 0x01]), (4,), np.array([1.0, -4.0, np.nan, 2.0**-9], np.float32))
    )
    cases.append(("float8_e8m0", 36, bytes([127, 128, 125, 255]), (4,), np.array([1.0, 2.0, 0.25, np.nan], np.float32)))
    cases.append(("scalar float", 1, _plain("f", [42.5]), (), np.array(42.5, np.float32)))
    return cases


CASES = _cases()


@pytest.mark.parametrize("name,dt,raw,shape,expected", CASES, ids=[c[0] for c in CASES])
def test_every_dtype_converts_to_the_exact_array(tmp_path, name, dt, raw, shape, expected):
    f = tmp_path / "dump" / f"Mul.layer1.mul.{dt}.0.1623919128584912"
    f.parent.mkdir()
    other = {"raw": _plain("f", [0.5]), "data_type": 1, "fmt": ND, "shape": (1,)}
    f.write_bytes(dump_bytes("layer1.mul", [other], [{"raw": raw, "data_type": dt, "fmt": ND, "shape": shape}]))
    report = convert_paths([tmp_path / "dump"], tmp_path / "out")
    assert report.errors == [] and report.files_ok == 1
    got = np.load(tmp_path / "out" / f"{f.name}.output.0.npy")
    assert got.dtype == expected.dtype, name
    assert got.shape == expected.shape
    assert np.array_equal(got, expected, equal_nan=got.dtype.kind in "fc")
    assert np.array_equal(np.load(tmp_path / "out" / f"{f.name}.input.0.npy"), np.array([0.5], np.float32))


def test_header_fields_and_name(tmp_path):
    raw = _plain("f", [1, 2])
    f = tmp_path / "Conv2D.res2a_branch1.3.0.1623919128584912"
    f.write_bytes(
        dump_bytes(
            "res2a_branch1",
            [],
            [
                {
                    "raw": raw,
                    "data_type": 1,
                    "fmt": NCHW,
                    "shape": (1, 2, 1, 1),
                    "original_shape": (1, 2, 1, 1),
                    "original_op": ("conv", 2),
                }
            ],
        )
    )
    d = read_dump(f)
    assert (d.op_type, d.op_name, d.version, d.dump_time) == ("Conv2D", "res2a_branch1", "2.0", 1623919128584912)
    out = d.outputs[0]
    assert out.shape == (1, 2, 1, 1) and out.original_op == ("conv", 2) and out.offset == len(f.read_bytes()) - 8
    assert parse_dump_name("Add.a.b.c.12.0.99").op_name == "a.b.c"
    assert parse_dump_name("result.csv") is None


def test_damaged_files_are_reported_with_offset_and_the_others_convert(tmp_path):
    src = tmp_path / "dump"
    src.mkdir()
    good = dump_bytes("ok", [], [{"raw": _plain("f", [1, 2, 3]), "data_type": 1, "fmt": ND, "shape": (3,)}])
    (src / "Add.ok.1.0.100").write_bytes(good)
    (src / "Add.short.2.0.101").write_bytes(good[:-4])  # last tensor truncated
    (src / "Add.header.3.0.102").write_bytes(struct.pack("<Q", 10_000) + b"\x00" * 20)
    (src / "Add.garbage.4.0.103").write_bytes(struct.pack("<Q", 4) + b"\xff\xff\xff\xff")
    report = convert_paths([src], tmp_path / "out")
    assert report.files_ok == 1 and report.files_failed == 3
    by_file = {e.split(":")[0].rsplit("/", 1)[-1]: e for e in report.errors}
    header_len = struct.unpack("<Q", good[:8])[0]
    assert (
        f"at byte offset {8 + header_len}: output 0 declares 12 bytes but only 8 remain" in by_file["Add.short.2.0.101"]
    )
    assert "at byte offset 0: header length 10000 exceeds" in by_file["Add.header.3.0.102"]
    assert (
        "at byte offset 8:" in by_file["Add.garbage.4.0.103"]
        and "not a valid DumpData" in by_file["Add.garbage.4.0.103"]
    )
    assert np.array_equal(np.load(tmp_path / "out" / "Add.ok.1.0.100.output.0.npy"), [1, 2, 3])
    with pytest.raises(DumpFileError, match="Add.short"):
        read_dump(src / "Add.short.2.0.101")


def test_shape_bytes_mismatch_is_a_tensor_error_not_a_crash(tmp_path):
    f = tmp_path / "Relu.r.1.0.5"
    f.write_bytes(
        dump_bytes(
            "r",
            [{"raw": _plain("f", [1, 2]), "data_type": 1, "fmt": ND, "shape": (4,)}],
            [{"raw": _plain("f", [3]), "data_type": 1, "fmt": ND, "shape": (1,)}],
        )
    )
    report = convert_paths([f], tmp_path / "out")
    assert len(report.errors) == 1 and "input 0" in report.errors[0] and "needs 16 bytes" in report.errors[0]
    assert (tmp_path / "out" / "Relu.r.1.0.5.output.0.npy").exists()


def test_nc1hwc0_to_nchw_crops_padded_channels(tmp_path):
    n, c, h, w, c0 = 2, 20, 3, 2, 16
    c1 = -(-c // c0)
    dev = np.arange(n * c1 * h * w * c0, dtype=np.float32).reshape(n, c1, h, w, c0)
    expected = np.empty((n, c, h, w), np.float32)
    for i in range(n):
        for ch in range(c):
            for y in range(h):
                for x in range(w):
                    expected[i, ch, y, x] = dev[i, ch // c0, y, x, ch % c0]
    f = tmp_path / "Conv2D.conv.1.0.7"
    f.write_bytes(
        dump_bytes(
            "conv",
            [],
            [
                {
                    "raw": dev.tobytes(),
                    "data_type": 1,
                    "fmt": NC1HWC0,
                    "shape": dev.shape,
                    "original_shape": (n, c, h, w),
                }
            ],
        )
    )
    convert_paths([f], tmp_path / "out")
    assert np.array_equal(np.load(tmp_path / "out" / f"{f.name}.output.0.npy"), dev)
    assert np.array_equal(np.load(tmp_path / "out" / f"{f.name}.output.0.NCHW.npy"), expected)


def test_fractal_nz_to_nd(tmp_path):
    b, m, n, m0, n0 = 2, 5, 20, 16, 16
    m1, n1 = -(-m // m0), -(-n // n0)
    dev = np.random.default_rng(3).standard_normal((b, n1, m1, m0, n0)).astype(np.float16)
    expected = np.empty((b, m, n), np.float16)
    for k in range(b):
        for i in range(m):
            for j in range(n):
                expected[k, i, j] = dev[k, j // n0, i // m0, i % m0, j % n0]
    f = tmp_path / "MatMul.mm.1.0.7"
    f.write_bytes(
        dump_bytes(
            "mm",
            [],
            [
                {
                    "raw": dev.tobytes(),
                    "data_type": 2,
                    "fmt": FRACTAL_NZ,
                    "shape": dev.shape,
                    "original_shape": (b, m, n),
                }
            ],
        )
    )
    convert_paths([f], tmp_path / "out")
    assert np.array_equal(np.load(tmp_path / "out" / f"{f.name}.output.0.ND.npy"), expected)


def test_fractal_z_to_nchw(tmp_path):
    n, c, h, w, ni, c0 = 20, 3, 2, 2, 16, 16
    c1, no = 1, 2
    dev = np.arange(c1 * h * w * no * ni * c0, dtype=np.float32).reshape(c1 * h * w, no, ni, c0)
    expected = np.empty((n, c, h, w), np.float32)
    for a in range(n):
        for ch in range(c):
            for y in range(h):
                for x in range(w):
                    expected[a, ch, y, x] = dev[(ch // c0) * h * w + y * w + x, a // ni, a % ni, ch % c0]
    f = tmp_path / "Conv2D.weight.1.0.7"
    f.write_bytes(
        dump_bytes(
            "weight",
            [
                {
                    "raw": dev.tobytes(),
                    "data_type": 1,
                    "fmt": FRACTAL_Z,
                    "shape": dev.shape,
                    "original_shape": (n, c, h, w),
                }
            ],
            [],
        )
    )
    convert_paths([f], tmp_path / "out")
    assert np.array_equal(np.load(tmp_path / "out" / f"{f.name}.input.0.NCHW.npy"), expected)


def test_too_long_names_go_through_mapping_csv(tmp_path):
    op = "x" * 260
    f = tmp_path / f"Add.{op[:240]}.1.0.7"
    f.write_bytes(dump_bytes(op, [], [{"raw": _plain("f", [1]), "data_type": 1, "fmt": ND, "shape": (1,)}]))
    report = convert_paths([f], tmp_path / "out")
    with open(tmp_path / "out" / "mapping.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows == [[report.written[0].name, f"{f.name}.output.0.npy"]]
    assert len(report.written[0].name) < 255
