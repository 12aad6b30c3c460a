"""The fuzz suite's one assertion, its tally and its input generators (no Qt, no hypothesis state).

:func:`feed` runs a reader on one input: it must return, or raise the area's own error type with a
message naming the file (and no traceback text) — anything else (KeyError, TypeError,
RecursionError, UnicodeDecodeError, zlib.error, ...) is a failure. Every call is counted per format
in :data:`TALLY`; ``conftest.py`` prints the counts at the end of the run and writes ``last-run.txt``.

:func:`mutate` is the byte-level mutator both the hypothesis tests and the seeded mutation campaign
use: bit flips, truncation, byte insert/delete, chunk duplication, splice of two files, a BOM
prefix, CRLF line ends.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import hypothesis.strategies as st

# format -> [inputs tried, failures]
TALLY: dict[str, list[int]] = defaultdict(lambda: [0, 0])


def feed(
    fmt: str,
    path: str | Path,
    call: Callable[[], object],
    ok: tuple[type[BaseException], ...],
    names: tuple[str, ...] = (),
) -> object:
    """``call()`` returns, or raises one of ``ok`` whose message names ``path`` (or one of ``names``)."""
    TALLY[fmt][0] += 1
    wanted = (str(path), *names)
    try:
        return call()
    except ok as exc:
        msg = str(exc)
        if not any(w and w in msg for w in wanted) or "Traceback" in msg:
            TALLY[fmt][1] += 1
            raise AssertionError(f"{fmt}: {type(exc).__name__} does not name {path}: {msg[:400]!r}") from exc
        return None
    except Exception as exc:  # noqa: BLE001 - exactly what the fuzz looks for
        TALLY[fmt][1] += 1
        raise AssertionError(f"{fmt}: {path}: raised {type(exc).__name__}: {str(exc)[:400]!r}") from exc


# ----- byte-level mutation

MUTATIONS = ("bitflip", "truncate", "insert", "delete", "duplicate", "splice", "bom", "crlf")
_INTERESTING = [b"\x00", b"\xff", b'"', b",", b"\n", b"\r", b"{", b"[", b"]", b"}", b"\\", b"\xc3", b"\xd6\xd0"]


def mutate(data: bytes, rnd: random.Random, other: bytes = b"", kind: str | None = None) -> tuple[str, bytes]:
    """One deterministic mutation of ``data`` (``kind`` or one drawn from ``rnd``)."""
    kind = kind or rnd.choice(MUTATIONS)
    n = len(data)
    if kind == "bitflip":
        buf = bytearray(data)
        for _ in range(rnd.randint(1, 8)):
            if buf:
                i = rnd.randrange(len(buf))
                buf[i] ^= 1 << rnd.randrange(8)
        return kind, bytes(buf)
    if kind == "truncate":
        return kind, data[: rnd.randint(0, max(0, n - 1))]
    if kind == "insert":
        at = rnd.randint(0, n)
        piece = (
            rnd.choice(_INTERESTING) * rnd.randint(1, 4) if rnd.random() < 0.7 else rnd.randbytes(rnd.randint(1, 16))
        )
        return kind, data[:at] + piece + data[at:]
    if kind == "delete":
        at = rnd.randint(0, n)
        return kind, data[:at] + data[at + rnd.randint(1, 64) :]
    if kind == "duplicate":
        at = rnd.randint(0, n)
        size = rnd.randint(1, max(1, min(4096, n)))
        return kind, data[: at + size] + data[at : at + size] + data[at + size :]
    if kind == "splice":
        other = other or data
        return kind, data[: rnd.randint(0, n)] + other[rnd.randint(0, len(other)) :]
    if kind == "bom":
        return kind, b"\xef\xbb\xbf" + data
    if kind == "crlf":
        return kind, data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    raise ValueError(kind)


def mutated(data: bytes, other: bytes = b"") -> st.SearchStrategy[bytes]:
    """Hypothesis strategy: 1-3 stacked mutations of ``data``."""

    @st.composite
    def build(draw: st.DrawFn) -> bytes:
        rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
        out = data
        for _ in range(draw(st.integers(1, 3))):
            out = mutate(out, rnd, other)[1]
        return out

    return build()


# ----- structured generators

HUGE_INTS = [2**63, 2**63 - 1, -(2**63) - 1, 2**64, 10**30, -(10**40)]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(HUGE_INTS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)


def json_values(max_leaves: int = 30) -> st.SearchStrategy[object]:
    """JSON values of any shape (mixed types where objects and lists are expected)."""
    return st.recursive(
        scalars,
        lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)),
        max_leaves=max_leaves,
    )


def deep_json(depth: int) -> bytes:
    """``depth`` nested lists/objects: RecursionError bait for any json.loads."""
    return (
        b'{"a":' * (depth // 2) + b"[" * (depth - depth // 2) + b"1" + b"]" * (depth - depth // 2) + b"}" * (depth // 2)
    )


def encodings(text: str) -> st.SearchStrategy[bytes]:
    """``text`` as UTF-8, with a BOM, CRLF, or GBK (where it encodes), or as Latin-1 bytes."""

    def gbk(t: str) -> bytes:
        return t.encode("gbk", errors="replace")

    return st.sampled_from(
        [
            text.encode("utf-8", "surrogatepass"),
            b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass"),
            text.replace("\n", "\r\n").encode("utf-8", "surrogatepass"),
            gbk(text),
            text.encode("latin-1", errors="replace"),
        ]
    )


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
