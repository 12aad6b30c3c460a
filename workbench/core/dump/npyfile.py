"""A NumPy ``.npy`` file (a golden tensor, what ``dump convert`` writes) read for viewing: its header
(shape, dtype) without the data, and the array. Every problem is one :class:`NpyFileError` naming
the file and what was expected (never numpy's own exception)."""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
from numpy.lib import format as npy_format


class NpyFileError(ValueError):
    """A file that is not a readable .npy array: names the file and what is wrong."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = str(path)


def read_npy_header(path: str | os.PathLike[str]) -> tuple[tuple[int, ...], np.dtype, bool]:
    """(shape, dtype, fortran_order) of the .npy file at ``path``; checks that the data is all there."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size == 0:
            raise NpyFileError(p, "empty file (0 bytes), expected a .npy array")
        with open(p, "rb") as fh:
            if fh.read(len(npy_format.MAGIC_PREFIX)) != npy_format.MAGIC_PREFIX:
                raise NpyFileError(p, "not a .npy file (it does not start with the NumPy magic \\x93NUMPY)")
            fh.seek(0)
            try:
                version = npy_format.read_magic(fh)
                if version == (1, 0):
                    shape, fortran, dtype = npy_format.read_array_header_1_0(fh)
                else:
                    shape, fortran, dtype = npy_format.read_array_header_2_0(fh)
            except (ValueError, EOFError, SyntaxError, TypeError) as exc:
                raise NpyFileError(p, f"damaged .npy header ({exc})") from None
            data_offset = fh.tell()
    except OSError as exc:
        raise NpyFileError(p, f"cannot be read ({exc.strerror or exc})") from None
    if dtype.hasobject:
        raise NpyFileError(p, "holds Python objects (a pickled array), not numbers; it is not opened")
    expected = math.prod(shape) * dtype.itemsize
    if size - data_offset < expected:
        held = size - data_offset
        raise NpyFileError(
            p, f"truncated: shape {list(shape)} of {dtype} needs {expected} data bytes, the file holds {held}"
        )
    return tuple(int(n) for n in shape), dtype, bool(fortran)


def load_npy(path: str | os.PathLike[str]) -> np.ndarray:
    """The array of the .npy file at ``path`` (read into memory; never unpickles)."""
    read_npy_header(path)
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        raise NpyFileError(path, f"cannot be read as a .npy array ({exc})") from None
