"""SFTP building blocks shared by the SSH transport and the file transfers.

:func:`rename_over` and :func:`sftp_makedirs` act on a paramiko ``SFTPClient``;
:class:`SftpEndpoint` is what :mod:`workbench.core.services.transfer` needs of a transport
(:class:`workbench.core.services.ssh.SshTransport` is one). Keeping them here lets ``ssh``
use ``transfer`` for its ``put``/``get`` without ``transfer`` importing ``ssh``.
"""

from __future__ import annotations

import contextlib
import errno
import stat as stat_mod
from typing import Protocol

import paramiko

from workbench.core.services.transport import FileStat


class SftpEndpoint(Protocol):
    """A connected host the transfers run over (e.g. ``SshTransport``)."""

    label: str
    # temporary upload files (.wbpart-*) a dropped connection left behind: removed by the next transfer
    orphan_parts: list[str]

    @property
    def connected(self) -> bool: ...

    def sftp(self) -> paramiko.SFTPClient: ...

    def list_tree(self, path: str) -> dict[str, FileStat]: ...

    def close(self) -> None: ...


def rename_over(sftp: paramiko.SFTPClient, src: str, dst: str) -> None:
    """Rename replacing ``dst`` (posix-rename@openssh.com; plain rename after removal otherwise)."""
    try:
        sftp.posix_rename(src, dst)
    except OSError:
        with contextlib.suppress(FileNotFoundError):
            sftp.remove(dst)
        sftp.rename(src, dst)


def sftp_makedirs(sftp: paramiko.SFTPClient, path: str, parents: bool = True) -> None:
    parts = [p for p in path.split("/") if p]
    prefix = "/" if path.startswith("/") else ""
    todo = [prefix + "/".join(parts[: i + 1]) for i in range(len(parts))] if parents else [path]
    for p in todo:
        try:
            if stat_mod.S_ISDIR(sftp.stat(p).st_mode or 0):
                continue
            raise NotADirectoryError(errno.ENOTDIR, "exists and is not a folder", p)
        except FileNotFoundError:
            sftp.mkdir(p)
