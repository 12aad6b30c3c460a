"""File helpers that never lose data: atomic writes and safe backups."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

STALE_TEMP_SECONDS = 3600  # a temp of ours this old belongs to a write that was killed


def remove_stale_temps(target: Path) -> list[Path]:
    """Remove ``.<name>.<random>.part`` temps beside ``target`` left by a killed write of it (ours
    by their exact naming, and older than an hour, so a write still running is never touched)."""
    removed: list[Path] = []
    now = time.time()
    pattern = re.compile(rf"^\.{re.escape(target.name)}\.[A-Za-z0-9_]{{8}}\.part$")
    try:
        candidates = [p for p in target.parent.iterdir() if pattern.match(p.name)]
    except OSError:
        return removed
    for tmp in candidates:
        with contextlib.suppress(OSError):
            if tmp.is_file() and not tmp.is_symlink() and now - tmp.lstat().st_mtime > STALE_TEMP_SECONDS:
                tmp.unlink()
                removed.append(tmp)
    return removed


def write_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` must change: ``path`` itself, or the final target of a symlink
    (a chain of links is followed; a dangling link names the file it will create)."""
    target = Path(path)
    return Path(os.path.realpath(target)) if target.is_symlink() else target


class ReadOnlyFile(PermissionError):
    """A write to a file whose permission bits allow nobody to write it (e.g. 0444): refused even
    where the process could replace it (root, or a rename in a writable folder), unless the caller
    has the user's yes (``replace_read_only=True``)."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EACCES, "the file is read-only; make it writable to change it", str(path))
        self.path = path

    def __str__(self) -> str:
        return f"{self.path}: the file is read-only; make it writable to change it"


def refuse_read_only(path: str | os.PathLike[str]) -> None:
    """Raise :class:`ReadOnlyFile` when ``path``'s write target exists with no write bit set."""
    target = write_target(path)
    try:
        st = target.stat()
    except OSError:
        return
    if stat.S_ISREG(st.st_mode) and not stat.S_IMODE(st.st_mode) & 0o222:
        raise ReadOnlyFile(Path(path))


@contextlib.contextmanager
def atomic_open(
    path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8", *, replace_read_only: bool = False
) -> Iterator[IO]:
    """Open a temp file beside ``path``'s target; on success fsync it and put it in place.

    On any exception the temp file is removed and ``path`` is untouched, so a reader never sees
    a half-written file under the final name.

    - A read-only target (no write bit for anyone) is refused with :class:`ReadOnlyFile` before
      anything is written, unless ``replace_read_only``; the replaced file then stays read-only.
    - A symlink is written through: its target (the end of the chain) is replaced atomically and
      the link stays a link.
    - The new file keeps the replaced file's permission bits (and, where the OS allows, its owner);
      a new file gets the mode ``open()`` would give it (0666 minus the umask).
    - A target with other hard links is not replaced (that would silently split it from them):
      the new content is first written completely to the temp file, the old content is copied
      to a backup beside it (``.<name>.<random>.bak``), then the target is rewritten in place, so
      every link sees the new content. That step is not atomic for a concurrent reader; if it
      fails, the old content is put back from the backup, and should that fail too the backup is
      kept and its path is in the error.
    """
    if not replace_read_only:
        refuse_read_only(path)
    target = write_target(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    binary = "b" in mode
    remove_stale_temps(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, mode, encoding=None if binary else encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        try:
            old: os.stat_result | None = target.stat()
        except OSError:
            old = None
        if old is not None and stat.S_ISREG(old.st_mode) and old.st_nlink > 1:
            _rewrite_in_place(Path(tmp), target)
            os.unlink(tmp)
            return
        if old is not None and hasattr(os, "chown"):
            with contextlib.suppress(OSError):
                os.chown(tmp, old.st_uid, old.st_gid)  # before chmod: chown may clear set-id bits
        with contextlib.suppress(OSError):
            # mkstemp creates 0600: give the file the mode the user would get from open()
            # (the old file's mode when replacing one).
            os.chmod(tmp, stat.S_IMODE(old.st_mode) if old is not None else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _rewrite_in_place(new: Path, target: Path) -> None:
    """Copy ``new``'s bytes into ``target`` keeping its inode (hard links), after a backup."""
    fd, backup = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".bak", dir=target.parent)
    os.close(fd)
    shutil.copyfile(target, backup)
    try:
        _copy_into(new, target)
    except BaseException as exc:
        try:
            _copy_into(Path(backup), target)
        except OSError:
            raise OSError(
                f"{target}: rewriting the hard-linked file failed ({exc}) and so did restoring it; "
                f"its old content is kept in {backup}"
            ) from exc
        with contextlib.suppress(OSError):
            os.unlink(backup)
        raise
    with contextlib.suppress(OSError):
        os.unlink(backup)


def _copy_into(source: Path, target: Path) -> None:
    with open(source, "rb") as src, open(target, "r+b") as dst:
        dst.truncate(0)
        shutil.copyfileobj(src, dst)
        dst.flush()
        os.fsync(dst.fileno())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_text(
    path: str | os.PathLike[str], text: str, encoding: str = "utf-8", *, replace_read_only: bool = False
) -> None:
    with atomic_open(path, "w", encoding=encoding, replace_read_only=replace_read_only) as fh:
        fh.write(text)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    with atomic_open(path, "wb", encoding=None) as fh:
        fh.write(data)


def backup_aside(path: Path, suffix: str = "corrupt") -> Path | None:
    """Keep a damaged file under a new name beside ``path`` (never delete it); return the new path.

    A regular file is renamed. For a symlink the damaged content is copied (the link and its
    target stay where they are, so a following atomic write still goes through the link).
    """
    if not path.exists():
        return None
    n = 0
    while True:
        candidate = path.with_name(f"{path.name}.{suffix}{'' if n == 0 else f'.{n}'}")
        if not candidate.exists() and not candidate.is_symlink():
            break
        n += 1
    if path.is_symlink():
        shutil.copy2(write_target(path), candidate)
    else:
        os.replace(path, candidate)
    return candidate


class OutputRefused(ValueError):
    """An output path that would replace an input of the same command, or an existing file
    without the user's yes (``--force`` on the command line)."""


def refuse_inputs(out: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]], inside: bool = True) -> None:
    """Refuse ``out`` when writing it would replace what the command reads: one of ``inputs``
    itself, or (``inside``) an existing file inside an input folder. A new file is fine."""
    out = Path(out)
    if not (out.exists() or out.is_symlink()):
        return
    target = out.resolve()
    for src in inputs:
        source = Path(src)
        if not source.exists():
            continue
        resolved = source.resolve()
        if target == resolved:
            raise OutputRefused(f"{out}: is an input of this command; write the result to another file")
        if inside and resolved.is_dir() and resolved in target.parents:
            raise OutputRefused(f"{out}: is a file inside the input {source}; write the result elsewhere")


def refuse_existing(out: str | os.PathLike[str], force: bool) -> None:
    """Refuse an ``out`` that exists unless ``force`` (the CLI's ``--force``; the GUI asks)."""
    out = Path(out)
    if not force and (out.exists() or out.is_symlink()):
        raise OutputRefused(f"{out}: exists; pass --force to replace it")
