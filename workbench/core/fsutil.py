"""File helpers that never lose data: atomic writes and safe backups."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO]:
    """Open a temp file beside ``path``; on success fsync and rename it over ``path``.

    On any exception the temp file is removed and ``path`` is untouched, so a reader never sees
    a half-written file under the final name.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    binary = "b" in mode
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, mode, encoding=None if binary else encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):
            # mkstemp creates 0600: give the file the mode the user would get from open()
            # (the old file's mode when replacing one).
            os.chmod(tmp, target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    with atomic_open(path, "w", encoding=encoding) as fh:
        fh.write(text)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    with atomic_open(path, "wb", encoding=None) as fh:
        fh.write(data)


def backup_aside(path: Path, suffix: str = "corrupt") -> Path | None:
    """Keep a damaged file under a new name (never delete it); return the new path."""
    if not path.exists():
        return None
    n = 0
    while True:
        candidate = path.with_name(f"{path.name}.{suffix}{'' if n == 0 else f'.{n}'}")
        if not candidate.exists():
            break
        n += 1
    os.replace(path, candidate)
    return candidate
