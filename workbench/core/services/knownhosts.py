"""Host key checks against ``~/.ssh/known_hosts`` and the app's own ``config_dir()/known_hosts``.

* a key listed for the host (plain, ``[host]:port``, hashed ``|1|…`` or wildcard entries) -> ok;
* a *different* key of the same type listed -> :class:`HostKeyChanged`, naming the file and the
  line to remove (as OpenSSH does; the user's files are never edited behind their back);
* nothing listed -> :class:`UnknownHostKey` unless the ``accept`` callback, shown the SHA256
  fingerprint, says yes: then the key is appended to the app's own file.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.core.fsutil import atomic_write_text
from workbench.core.paths import config_dir
from workbench.core.services.transport import TransportError

# Only for annotations: paramiko costs ~0.15 s to import, which `host --help` and the window's first paint
# must not pay (the SSH transport, services/ssh.py, imports it when it connects).
if TYPE_CHECKING:
    import paramiko


class HostKeyError(TransportError):
    """The server's host key is not trusted."""


class UnknownHostKey(HostKeyError):
    """The host key is in no known_hosts file and was not accepted."""


class HostKeyChanged(HostKeyError):
    """A different key is recorded for this host: possible man-in-the-middle."""


@dataclass(frozen=True)
class HostKeyInfo:
    """What the user is shown when asked to trust a host key."""

    host_name: str  # the workbench host name (or the hostname)
    address: str  # "host" or "[host]:port" as written in known_hosts
    key_type: str
    fingerprint: str  # "SHA256:…" as ssh-keygen -lf prints it
    key_base64: str


@dataclass(frozen=True)
class KnownEntry:
    file: Path
    line: int
    key_type: str
    key_base64: str
    revoked: bool = False


def fingerprint(key: paramiko.PKey) -> str:
    digest = hashlib.sha256(key.asbytes()).digest()
    return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")


def known_name(hostname: str, port: int) -> str:
    return hostname if port == 22 else f"[{hostname}]:{port}"


def app_known_hosts() -> Path:
    return config_dir() / "known_hosts"


def user_known_hosts() -> Path:
    return Path(os.path.expanduser("~/.ssh/known_hosts"))


def _glob(pattern: str) -> re.Pattern[str]:
    """OpenSSH patterns know only ``*`` and ``?`` (``[host]:port`` brackets are literal)."""
    return re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern))


def _pattern_matches(field: str, name: str) -> bool:
    if field.startswith("|1|"):
        try:
            _, _, salt_b64, hash_b64 = field.split("|", 3)
            salt = base64.b64decode(salt_b64)
            expected = base64.b64decode(hash_b64)
        except (ValueError, base64.binascii.Error):
            return False
        return hmac.compare_digest(hmac.new(salt, name.encode(), hashlib.sha1).digest(), expected)
    matched = False
    for pattern in field.split(","):
        negated = pattern.startswith("!")
        pattern = pattern[1:] if negated else pattern
        if _glob(pattern.lower()).fullmatch(name.lower()):
            if negated:
                return False
            matched = True
    return matched


def lookup(files: Sequence[Path], hostname: str, port: int) -> list[KnownEntry]:
    """Every entry for the host in ``files`` with its file and 1-based line number."""
    name = known_name(hostname, port)
    found: list[KnownEntry] = []
    for path in files:
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for lineno, line in enumerate(lines, 1):
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            marker = ""
            if parts[0].startswith("@"):
                marker, parts = parts[0], parts[1:]
            if marker == "@cert-authority" or len(parts) < 3:
                continue
            if _pattern_matches(parts[0], name):
                found.append(KnownEntry(path, lineno, parts[1], parts[2], revoked=marker == "@revoked"))
    return found


class HostKeyChecker:
    """Verifies a server key; ``files`` are read, ``app_file`` also receives accepted keys."""

    def __init__(self, files: Sequence[Path] | None = None, app_file: Path | None = None) -> None:
        self.app_file = app_file or app_known_hosts()
        self.files = list(files) if files is not None else [user_known_hosts(), self.app_file]

    def preferred_key_types(self, hostname: str, port: int) -> list[str]:
        """Key types already recorded for the host (ask the server for these first)."""
        return list(dict.fromkeys(e.key_type for e in lookup(self.files, hostname, port) if not e.revoked))

    def check(
        self, host_name: str, hostname: str, port: int, key: paramiko.PKey, accept: Callable[[HostKeyInfo], bool] | None
    ) -> None:
        key_b64 = key.get_base64()
        key_type = key.get_name()
        entries = lookup(self.files, hostname, port)
        for e in entries:
            if e.revoked and e.key_base64 == key_b64:
                raise HostKeyChanged(
                    f"host {host_name!r}: the server's {key_type} key is marked @revoked "
                    f"in {e.file} line {e.line}; refusing to connect"
                )
        if any(e.key_type == key_type and e.key_base64 == key_b64 and not e.revoked for e in entries):
            return
        changed = [e for e in entries if e.key_type == key_type and not e.revoked]
        if changed:
            e = changed[0]
            raise HostKeyChanged(
                f"host {host_name!r} ({known_name(hostname, port)}): the server's {key_type} host key "
                f"({fingerprint(key)}) differs from the one recorded in {e.file} line {e.line}. "
                "Someone may be intercepting the connection, or the host was reinstalled. If you trust the "
                f"new key, remove line {e.line} from {e.file} (ssh-keygen -R '{known_name(hostname, port)}'"
                f" -f '{e.file}') and connect again."
            )
        info = HostKeyInfo(host_name, known_name(hostname, port), key_type, fingerprint(key), key_b64)
        if accept is None or not accept(info):
            raise UnknownHostKey(
                f"host {host_name!r} ({info.address}): unknown {key_type} host key {info.fingerprint} "
                "was not accepted; verify the fingerprint on the host (ssh-keygen -lf "
                "/etc/ssh/ssh_host_*_key.pub) and accept it to connect"
            )
        self.remember(info)

    def remember(self, info: HostKeyInfo) -> None:
        """Append an accepted key to the app's known_hosts (atomically)."""
        old = ""
        with contextlib.suppress(FileNotFoundError):
            old = self.app_file.read_text(encoding="utf-8")
        if old and not old.endswith("\n"):
            old += "\n"
        atomic_write_text(self.app_file, old + f"{info.address} {info.key_type} {info.key_base64}\n")
