"""Handing freed heap memory back to the system.

A reader that allocates and frees columns of a few MB gets them from the C heap (glibc raises its
mmap threshold up to 32 MB as big arrays are freed), and the heap keeps what they leave, counted in
the process's memory. :func:`release_freed` asks glibc (``malloc_trim``) to return it; elsewhere it
does nothing.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable


def _load() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None).malloc_trim  # type: ignore[no-any-return]  # glibc only
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _load()


def release_freed() -> None:
    """Give the heap's free pages back to the system (glibc ``malloc_trim``; elsewhere nothing)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)
