"""SFTP uploads and downloads of files and folders, with progress, cancel and safe final names.

Every file is written as ``.wbpart-<random>-<name>`` beside its target, its size is checked, its
mtime and mode copied, and only then is it renamed over the target: an interrupted transfer
(cancel, dropped connection, full disk) never leaves a half file under the final name. A remote
temporary file that could not be removed because the connection dropped is remembered by the
transport and removed by its next transfer. One left by a process that was killed (no memory of
it survives) is removed by the next upload of the same file, from any process: a
``.wbpart-<8 hex>-<name>`` beside the target, of exactly our naming, a regular file, and not
written to for ``fsutil.STALE_TEMP_SECONDS`` (an hour, by the host's own clock: measured against
the mtime of the part just written), so a transfer still running elsewhere is never touched.

Throughput notes (measured, see benchmarks/bench_transfer.py): paramiko's own helpers stall —
``SFTPFile.prefetch`` runs a second thread that races the reader (a capped prefetch busy-waits;
an uncapped one sometimes drops to ~5 MiB/s), and pipelined ``write`` drains *every* reply
once 100 are pending, emptying the pipe. So both directions keep a fixed number of large
requests in flight from the calling thread, as OpenSSH's sftp does (this uses paramiko's
``_async_request``/``_read_response``, the same calls its SFTPFile makes). Targets follow ``scp``:
copying onto an existing folder puts the source inside it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat as stat_mod
import weakref
from collections import deque
from pathlib import Path
from typing import Any

import paramiko
from paramiko.sftp import CMD_DATA, CMD_READ, CMD_STATUS, CMD_WRITE, int64

from workbench.core.fsutil import STALE_TEMP_SECONDS
from workbench.core.services.sftp import SftpEndpoint, rename_over, sftp_makedirs
from workbench.core.services.transport import (
    PART_RE,
    ConnectionLost,
    TransportError,
    files_to_copy,
    part_name,
    posix_join,
    reason,
)
from workbench.core.tasks import Cancelled, CancelToken, Progress

log = logging.getLogger(__name__)
_NET_ERRORS = (paramiko.SSHException, EOFError, ConnectionError, TimeoutError, OSError)
# per connection: remote folder -> target name -> [(part path, mtime)] found there by one listing
_PART_SCANS: weakref.WeakKeyDictionary[Any, dict[str, dict[str, list[tuple[str, float]]]]] = weakref.WeakKeyDictionary()


class _Meter:
    """Counts bytes against a total and reports status/fraction."""

    def __init__(self, progress: Progress, total: int, verb: str, count: int) -> None:
        self.progress, self.total, self.verb, self.count = progress, max(total, 1), verb, count
        self.done = 0
        self.index = 0

    def start(self, name: str) -> None:
        self.index += 1
        suffix = f" ({self.index}/{self.count})" if self.count > 1 else ""
        self.progress.status(f"{self.verb} {name}{suffix}")

    def add(self, n: int) -> None:
        self.done += n
        self.progress.fraction(self.done / self.total)


def _lost(tr: SftpEndpoint, what: str, exc: BaseException) -> ConnectionLost:
    tr.close()
    return ConnectionLost(
        f"{tr.label}: the connection was lost while {what} ({reason(exc)}); "
        "no partial file was left under the final name. It will reconnect on the next try."
    )


def _remote_is_dir(sftp: paramiko.SFTPClient, path: str) -> bool:
    try:
        return stat_mod.S_ISDIR(sftp.stat(path).st_mode or 0)
    except FileNotFoundError:
        return False


# ------------------------------------------------------------------------------------------------
# pipelined SFTP reads and writes (one thread, a bounded number of requests in flight)
# ------------------------------------------------------------------------------------------------

# Measured on loopback (benchmarks/bench_transfer.py): fewer, larger requests cut paramiko's
# per-message Python cost; OpenSSH's sftp-server accepts up to 255 KiB per read or write.
WRITE_SIZE, WRITE_DEPTH = 128 * 1024, 16  # 2 MiB in flight: the server's channel window
READ_SIZE, READ_DEPTH = 128 * 1024, 32  # a server that caps reads lower shrinks READ_SIZE


class _Replies:
    """Receives paramiko's asynchronous SFTP replies for the requests we issued."""

    def __init__(self) -> None:
        self.done: dict[int, tuple[int, paramiko.Message]] = {}

    def _async_response(self, t: int, msg: paramiko.Message, num: int) -> None:
        self.done[num] = (t, msg)


def _reply(sftp: paramiko.SFTPClient, replies: _Replies, num: int) -> tuple[int, paramiko.Message]:
    while num not in replies.done:
        sftp._read_response()
    return replies.done.pop(num)


def _pipelined_write(
    sftp: paramiko.SFTPClient,
    handle: bytes,
    fin,
    meter: _Meter,  # noqa: ANN001
    cancel: CancelToken,
) -> int:
    """Stream ``fin`` into an open remote handle keeping up to WRITE_DEPTH writes in flight."""
    replies, pending, offset = _Replies(), deque(), 0

    def settle(num: int) -> None:
        t, msg = _reply(sftp, replies, num)
        if t != CMD_STATUS:
            raise paramiko.SFTPError("expected a status reply to a write")
        sftp._convert_status(msg)  # raises on a server-side error (disk full, permission...)

    while True:
        cancel.raise_if_cancelled()
        block = fin.read(WRITE_SIZE)
        if not block:
            break
        pending.append(sftp._async_request(replies, CMD_WRITE, handle, int64(offset), block))
        offset += len(block)
        meter.add(len(block))
        while len(pending) > WRITE_DEPTH or (pending and pending[0] in replies.done):
            settle(pending.popleft())
    while pending:
        settle(pending.popleft())
    return offset


def _pipelined_read(
    sftp: paramiko.SFTPClient,
    handle: bytes,
    size: int,
    fout,
    meter: _Meter,  # noqa: ANN001
    cancel: CancelToken,
) -> int:
    """Read ``size`` bytes of an open remote handle in order, keeping up to READ_DEPTH reads in flight."""
    replies, pending, offset, got, request = _Replies(), deque(), 0, 0, READ_SIZE
    while offset < size or pending:
        cancel.raise_if_cancelled()
        while offset < size and len(pending) < READ_DEPTH:
            n = min(request, size - offset)
            pending.append((sftp._async_request(replies, CMD_READ, handle, int64(offset), n), offset, n))
            offset += n
        num, at, n = pending.popleft()
        t, msg = _reply(sftp, replies, num)
        if t == CMD_STATUS:
            sftp._convert_status(msg)  # an error raises; EOF means the file shrank
            break
        if t != CMD_DATA:
            raise paramiko.SFTPError("expected data in reply to a read")
        data = msg.get_string()
        if len(data) < n:  # short read: fetch the rest before the next block (order matters)
            request = max(len(data), 4096)  # the server's cap: ask for no more from now on
            pending.appendleft(
                (
                    sftp._async_request(replies, CMD_READ, handle, int64(at + len(data)), n - len(data)),
                    at + len(data),
                    n - len(data),
                )
            )
        fout.write(data)
        got += len(data)
        meter.add(len(data))
    for num, _, _ in pending:  # only after an early EOF: collect the outstanding replies
        _reply(sftp, replies, num)
    return got


# ------------------------------------------------------------------------------------------------
# upload
# ------------------------------------------------------------------------------------------------


def upload(
    tr: SftpEndpoint,
    local: str | os.PathLike[str],
    remote: str,
    *,
    progress: Progress,
    cancel: CancelToken,
    files: list[str] | None = None,
) -> int:
    """Copy a local file or folder to ``remote``; returns the bytes sent.

    ``files`` (POSIX relpaths under a local folder) restricts a folder upload to those files
    (deployment sends only new and changed ones).
    """
    src = Path(local)
    if not src.exists():
        raise FileNotFoundError(f"{src}: no such file or folder to upload")
    sftp = tr.sftp()
    remove_orphan_parts(tr, sftp)
    try:
        if _remote_is_dir(sftp, remote) and files is None:
            remote = posix_join(remote, src.name)
        dirs, entries = files_to_copy(src)
        if files is not None:
            wanted = set(files)
            entries = [(rel, size) for rel, size in entries if rel in wanted]
            dirs = sorted({rel.rpartition("/")[0] for rel, _ in entries} | {""})
        meter = _Meter(progress, sum(s for _, s in entries), "Uploading", len(entries))
        for d in dirs:
            if src.is_dir():
                sftp_makedirs(sftp, posix_join(remote, d))
        if not src.is_dir():
            parent = remote.rstrip("/").rpartition("/")[0]
            if parent:
                sftp_makedirs(sftp, parent)
        for rel, size in entries:
            cancel.raise_if_cancelled()
            meter.start(rel or src.name)
            _put_file(sftp, src / rel if rel else src, posix_join(remote, rel), size, meter, cancel, tr)
    except (Cancelled, TransportError, FileNotFoundError, PermissionError):
        raise
    except _NET_ERRORS as exc:
        if isinstance(exc, OSError) and getattr(exc, "errno", None) and not isinstance(exc, ConnectionError):
            raise TransportError(f"{tr.label}: upload to {remote} failed: {reason(exc)}") from exc
        raise _lost(tr, f"uploading to {remote}", exc) from exc
    progress.fraction(1.0)
    return meter.done


def _put_file(
    sftp: paramiko.SFTPClient,
    source: Path,
    target: str,
    size: int,
    meter: _Meter,
    cancel: CancelToken,
    tr: SftpEndpoint,
) -> None:
    tmp = part_name(target)
    st = source.stat()
    earlier = _earlier_parts(sftp, tr, target)
    try:
        with open(source, "rb") as fin, sftp.open(tmp, "wb") as fout:
            _pipelined_write(sftp, fout.handle, fin, meter, cancel)
        written = sftp.stat(tmp)
        got = written.st_size
        _remove_stale(sftp, tr, earlier, written.st_mtime)
        if got != size:
            raise TransportError(
                f"{tr.label}: {target}: the upload wrote {got} bytes, expected {size}; the file was not replaced"
            )
        sftp.chmod(tmp, stat_mod.S_IMODE(st.st_mode))
        sftp.utime(tmp, (st.st_atime, st.st_mtime))
        rename_over(sftp, tmp, target)
    except BaseException:
        orphans = getattr(tr, "orphan_parts", None)
        try:
            if not tr.connected:
                raise ConnectionError("connection lost")
            sftp.remove(tmp)
        except FileNotFoundError:
            pass
        except Exception:  # noqa: BLE001 - the connection is gone: the next transfer removes it
            if orphans is not None:
                orphans.append(tmp)
        raise


def _earlier_parts(sftp: paramiko.SFTPClient, tr: SftpEndpoint, target: str) -> list[tuple[str, float]]:
    """The ``.wbpart-<8 hex>-<name>`` regular files beside ``target`` (of its name): left by an
    earlier upload of it. Each remote folder is listed once per connection."""
    folder, _, name = target.rstrip("/").rpartition("/")
    if not folder and target.startswith("/"):
        folder = "/"
    scans = _PART_SCANS.setdefault(tr, {})
    if folder not in scans:
        found: dict[str, list[tuple[str, float]]] = {}
        try:
            listing = sftp.listdir_attr(folder or ".")
        except (FileNotFoundError, PermissionError, NotADirectoryError):
            listing = []  # the upload itself says what is wrong with the folder
        for a in listing:
            m = PART_RE.match(a.filename)
            if m and stat_mod.S_ISREG(a.st_mode or 0):
                found.setdefault(m.group(1), []).append((posix_join(folder, a.filename), float(a.st_mtime or 0)))
        scans[folder] = found
    return scans[folder].pop(name, [])


def _remove_stale(sftp: paramiko.SFTPClient, tr: SftpEndpoint, parts: list[tuple[str, float]], now: Any) -> None:
    """Remove the earlier parts not written to for STALE_TEMP_SECONDS; ``now`` is the host's
    clock (the mtime of the part this upload just wrote), so a skewed local clock cannot make a
    running transfer look stale."""
    if now is None:
        return
    for path, mtime in parts:
        if float(now) - mtime <= STALE_TEMP_SECONDS:
            continue
        try:
            sftp.remove(path)
            log.info("%s: removed %s, left by an interrupted upload", tr.label, path)
        except FileNotFoundError:
            pass
        except PermissionError as exc:
            log.warning("%s: cannot remove %s, left by an interrupted upload: %s", tr.label, path, reason(exc))


def remove_orphan_parts(tr: SftpEndpoint, sftp: paramiko.SFTPClient) -> list[str]:
    """Remove the temporary files an earlier upload over ``tr`` could not remove because its
    connection dropped (only those: files this workbench named ``.wbpart-<random>-…``). Returns
    the ones removed."""
    orphans = getattr(tr, "orphan_parts", None)
    removed: list[str] = []
    while orphans:
        path = orphans.pop()
        try:
            sftp.remove(path)
            removed.append(path)
        except FileNotFoundError:
            pass
        except _NET_ERRORS:
            orphans.append(path)
            break
    return removed


# ------------------------------------------------------------------------------------------------
# download
# ------------------------------------------------------------------------------------------------


def download(
    tr: SftpEndpoint,
    remote: str,
    local: str | os.PathLike[str],
    *,
    progress: Progress,
    cancel: CancelToken,
    files: list[str] | None = None,
) -> int:
    """Copy a remote file or folder to ``local``; returns the bytes received."""
    sftp = tr.sftp()
    remove_orphan_parts(tr, sftp)
    dst = Path(local)
    try:
        try:
            top = sftp.stat(remote)
        except FileNotFoundError:
            raise FileNotFoundError(f"{tr.label}: {remote}: no such file or folder to download") from None
        name = remote.rstrip("/").rpartition("/")[2] or remote
        if dst.is_dir() and files is None:
            dst = dst / name
        if stat_mod.S_ISDIR(top.st_mode or 0):
            tree = tr.list_tree(remote)
            entries = [(rel, st.size) for rel, st in sorted(tree.items()) if not st.is_dir]
            if files is not None:
                wanted = set(files)
                entries = [(rel, size) for rel, size in entries if rel in wanted]
            dst.mkdir(parents=True, exist_ok=True)
            for rel, st in sorted(tree.items()):
                if st.is_dir and files is None:
                    (dst / rel).mkdir(parents=True, exist_ok=True)
        else:
            entries = [("", top.st_size or 0)]
        meter = _Meter(progress, sum(s for _, s in entries), "Downloading", len(entries))
        for rel, size in entries:
            cancel.raise_if_cancelled()
            meter.start(rel or name)
            _get_file(sftp, posix_join(remote, rel), dst / rel if rel else dst, size, meter, cancel, tr)
    except (Cancelled, TransportError, FileNotFoundError, PermissionError):
        raise
    except _NET_ERRORS as exc:
        if isinstance(exc, OSError) and getattr(exc, "errno", None) and not isinstance(exc, ConnectionError):
            raise TransportError(f"{tr.label}: download of {remote} failed: {reason(exc)}") from exc
        raise _lost(tr, f"downloading {remote}", exc) from exc
    progress.fraction(1.0)
    return meter.done


def _get_file(
    sftp: paramiko.SFTPClient,
    source: str,
    target: Path,
    size: int,
    meter: _Meter,
    cancel: CancelToken,
    tr: SftpEndpoint,
) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(part_name(str(target)))
    got = 0
    try:
        with sftp.open(source, "rb") as fin, open(tmp, "wb") as fout:
            st = fin.stat()
            got = _pipelined_read(sftp, fin.handle, size, fout, meter, cancel)
        if got != size:
            raise TransportError(
                f"{tr.label}: {source}: received {got} bytes, expected {size} (did the file "
                f"change during the download?); {target} was not replaced"
            )
        os.chmod(tmp, stat_mod.S_IMODE(st.st_mode or 0o644))
        os.utime(tmp, (st.st_atime or st.st_mtime or 0, st.st_mtime or 0))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
