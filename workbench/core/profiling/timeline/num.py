"""Exact, vectorised conversion of JSON decimal texts (µs) to integer nanoseconds.

Chrome-trace ``ts`` values are decimal strings such as ``"1704161511420306.491"`` (or plain JSON
numbers); float64 cannot hold them to the nanosecond, so they are never parsed as floats here.
Many texts are joined into one byte string, the decimal point is removed and numpy parses the
resulting integers; the position of the point tells the power of ten. More than three decimals
are rounded half-up (towards +inf), which keeps ``round(ts + dur)`` translation-invariant so
nested slices stay nested. Odd texts (exponents, >18 digits) take an exact ``Decimal`` path.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_FLOOR, Decimal, InvalidOperation, localcontext

import numpy as np

_INT64_MAX = np.int64(2**63 - 1)
_POW10 = np.array([10**k for k in range(19)], dtype=np.int64)
_MAX_US = Decimal(2**63) / 1000 + 1  # beyond: not an int64 of ns (checked before the exact maths)


class NumberError(ValueError):
    """A text that is not a decimal number; ``index`` says which item."""

    def __init__(self, index: int, text: bytes) -> None:
        super().__init__(f"expected a decimal number, got {text[:40]!r}")
        self.index = index


def _slow_one(index: int, text: bytes) -> int:
    """Exact ns from one JSON number or numeric string text (any notation)."""
    t = text.strip()
    if t[:1] == b'"' and t[-1:] == b'"' and len(t) >= 2:
        t = t[1:-1].strip()
    try:
        value = Decimal(t.decode("ascii"))
    except (InvalidOperation, UnicodeDecodeError, ValueError):
        raise NumberError(index, text) from None
    if not value.is_finite() or abs(value) > _MAX_US:
        raise NumberError(index, text)
    with localcontext() as ctx:
        ctx.prec = len(t) + 8  # exact: the default 28 digits would round long texts first
        ns = int((value * 1000 + Decimal("0.5")).to_integral_value(rounding=ROUND_FLOOR))
    if not -(2**63) <= ns < 2**63:
        raise NumberError(index, text)
    return ns


def us_texts_to_ns(items: Sequence[bytes], empty_ns: int | None = None) -> np.ndarray:
    """Convert JSON texts of µs values (numbers or quoted numbers) to exact int64 ns.

    ``empty_ns`` is used for empty texts (a missing field); ``None`` makes them an error.
    Raises :class:`NumberError` naming the first bad item.
    """
    n = len(items)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    # a comma inside an item fails the count check
    joined = ",".join(items).encode("utf-8") if isinstance(items[0], str) else b",".join(items)
    if b'"' in joined:
        joined = joined.replace(b'"', b"")
    a = np.frombuffer(joined, dtype=np.uint8)
    if len(a) == 0:
        return _slow_all(items, empty_ns)
    seps = np.flatnonzero(a == 44)
    if len(seps) != n - 1:  # a comma inside an item
        return _slow_all(items, empty_ns)
    starts = np.empty(n, dtype=np.int64)
    starts[0] = 0
    starts[1:] = seps + 1
    ends = np.empty(n, dtype=np.int64)
    ends[:-1] = seps
    ends[-1] = len(a)
    lengths = ends - starts
    dots = np.flatnonzero(a == 46)
    frac = np.zeros(n, dtype=np.int64)
    has_dot = np.zeros(n, dtype=bool)
    if len(dots) == n and bool(((dots > starts) & (dots < ends)).all()):
        frac = ends - dots - 1  # the usual case: one point in every item
        has_dot[:] = True
    elif len(dots):
        owner = np.searchsorted(seps, dots)
        if bool((owner[1:] == owner[:-1]).any()):
            return _slow_all(items, empty_ns)
        frac[owner] = ends[owner] - dots - 1
        has_dot[owner] = True
    minus = a[np.minimum(starts, len(a) - 1)] == 45
    ndigits = lengths - has_dot - minus
    empty = lengths == 0
    odd = (ndigits > 19) | (empty if empty_ns is None else np.zeros(n, dtype=bool))
    odd |= (ndigits == 0) & ~empty
    odd |= (frac == 0) & has_dot  # "5." is not JSON: let Decimal judge it
    text = joined.replace(b".", b"") if len(dots) else joined
    if empty.any():
        # np.fromstring stops at an empty field: give it a harmless 0 and fix it below.
        parts = text.split(b",")
        text = b",".join(p if p else b"0" for p in parts)
    # Text mode stops at the first character that is not part of a number (a letter, an
    # exponent, a second sign...): the count check below sends such items to the exact path.
    try:
        values = np.fromstring(text, dtype=np.int64, sep=",")  # noqa: NPY201 - text mode, fast
    except ValueError:
        return _slow_all(items, empty_ns)
    if len(values) != n:
        return _slow_all(items, empty_ns)
    out = np.zeros(n, dtype=np.int64)
    short = frac <= 3
    scale = _POW10[3 - np.minimum(frac, 3)]
    odd |= np.abs(values) >= _INT64_MAX // scale  # would overflow (or fromstring saturated)
    short &= ~odd
    out[short] = values[short] * scale[short]
    long_ = ~short & ~odd & (frac > 3)
    if long_.any():
        div = _POW10[np.minimum(frac[long_] - 3, 18)]
        out[long_] = (values[long_] + div // 2) // div
    if empty.any() and empty_ns is not None:
        out[empty] = empty_ns
    for i in np.flatnonzero(odd).tolist():
        it = items[i]
        out[i] = _slow_one(i, it.encode("utf-8") if isinstance(it, str) else bytes(it))
    return out


def _slow_all(items: Sequence[bytes], empty_ns: int | None) -> np.ndarray:
    out = np.empty(len(items), dtype=np.int64)
    for i, it in enumerate(items):
        b = it.encode("utf-8") if isinstance(it, str) else bytes(it)
        out[i] = empty_ns if (not b and empty_ns is not None) else _slow_one(i, b)
    return out
