"""CANN machines: the hosts the user works on, kept in ``config_dir()/hosts.json``.

A :class:`Host` says how to reach a machine (hostname, port, user, auth method, key file,
ProxyJump) and where its toolkit is: ``toolkit`` is the path the user set (empty: detect), and
``detected_toolkit`` caches the toolkit root that detection found on the host (written by
``host check`` and ``remote run``; an older file without it loads as "not detected yet"). Secrets
are never stored: a key passphrase or a password is asked through the connection's prompter
each time it is needed.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from workbench.core.fsutil import atomic_write_text, backup_aside
from workbench.core.paths import config_dir

SCHEMA_VERSION = 1
AUTH_METHODS = ("auto", "agent", "key", "password")
LOCAL_HOSTNAME = "local"  # a host with this hostname is this machine (demo host): no SSH
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")


class HostError(ValueError):
    """A host definition or the hosts file is wrong; the message names the field or line."""


@dataclass
class Host:
    name: str
    hostname: str
    port: int = 22
    user: str = ""
    auth: str = "auto"  # auto: agent, then the key file / default keys, then password
    key_file: str = ""
    proxy_jump: str = ""  # another host's name, or [user@]host[:port][,next...] as in ssh_config
    toolkit: str = ""  # user-set toolkit path (empty: detect)
    detected_toolkit: str = ""  # cache: the toolkit root detection found on the host ("" = not yet)
    keepalive_s: int = 30
    simulated: bool = False  # the demo host / a host running the simulated toolkit
    extra: dict[str, Any] = field(default_factory=dict)

    def validate(self) -> Host:
        if not _NAME_RE.match(self.name or ""):
            raise HostError(
                f"host name {self.name!r}: expected 1-64 letters, digits, '.', '_', '-', '@' "
                "starting with a letter or digit"
            )
        if not self.hostname or any(c.isspace() for c in self.hostname):
            raise HostError(f"host {self.name!r}: hostname {self.hostname!r}: expected a host name or address")
        if not isinstance(self.port, int) or not 0 < self.port < 65536:
            raise HostError(f"host {self.name!r}: port {self.port!r}: expected a number from 1 to 65535")
        if self.auth not in AUTH_METHODS:
            raise HostError(f"host {self.name!r}: auth {self.auth!r}: expected one of {', '.join(AUTH_METHODS)}")
        if self.auth == "key" and not self.key_file:
            raise HostError(f"host {self.name!r}: auth 'key' needs a key file")
        return self

    @property
    def toolkit_path(self) -> str:
        """The toolkit commands source: the user's setting, else the one detected before ("" = none)."""
        return self.toolkit or self.detected_toolkit

    @property
    def label(self) -> str:
        user = f"{self.user}@" if self.user else ""
        return f"{user}{self.hostname}:{self.port}"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        extra = data.pop("extra")
        for k, v in extra.items():
            data.setdefault(k, v)
        return data

    @classmethod
    def from_dict(cls, raw: dict[str, Any], where: str = "hosts.json") -> Host:
        if not isinstance(raw, dict):
            raise HostError(f"{where}: expected an object per host")
        known = {f.name for f in fields(cls)} - {"extra"}
        kwargs = {k: v for k, v in raw.items() if k in known}
        # Secrets must never come back from disk even if someone wrote them there.
        extra = {k: v for k, v in raw.items() if k not in known and k not in ("password", "passphrase")}
        for key, typ in (
            ("name", str),
            ("hostname", str),
            ("port", int),
            ("user", str),
            ("auth", str),
            ("key_file", str),
            ("proxy_jump", str),
            ("toolkit", str),
            ("detected_toolkit", str),
            ("keepalive_s", int),
            ("simulated", bool),
        ):
            if key in kwargs and not isinstance(kwargs[key], typ):
                raise HostError(f"{where}: field {key!r}: expected {typ.__name__}, got {kwargs[key]!r}")
        if "name" not in kwargs or "hostname" not in kwargs:
            raise HostError(f"{where}: expected fields 'name' and 'hostname'")
        return cls(**kwargs, extra=extra).validate()


def absolute_key_path(path: str, cwd: str | os.PathLike[str] | None = None) -> str:
    """A key file as typed -> an absolute path: ``~`` expanded, a relative path taken from ``cwd``
    (default: the current folder). Symlinks are not resolved (a link to a rotated key keeps
    working); ``..`` and ``.`` are folded only where that names the same file."""
    if not path:
        return path
    p = Path(os.path.expanduser(path))
    if not p.is_absolute():
        p = Path(cwd if cwd is not None else os.getcwd()) / p
    folded = os.path.normpath(p)
    return folded if os.path.realpath(folded) == os.path.realpath(p) else str(p)


def hosts_file() -> Path:
    return config_dir() / "hosts.json"


class HostStore:
    """Load, edit and save the hosts list (atomic writes; a damaged file is kept aside)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or hosts_file()

    def _read(self) -> dict[str, Any] | None:
        """The file's JSON object (None: no file); its version and shape checked."""
        if not self.path.exists():
            return None
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8-sig"))
        except json.JSONDecodeError as exc:
            raise HostError(f"{self.path}: line {exc.lineno}: not valid JSON ({exc.msg})") from exc
        except RecursionError:
            raise HostError(f"{self.path}: nested too deeply to be a hosts file") from None
        except UnicodeDecodeError as exc:
            raise HostError(f"{self.path}: not UTF-8 text (byte {exc.start}); expected a JSON hosts file") from None
        except OSError as exc:
            raise HostError(f"{self.path}: cannot read ({exc.strerror or exc})") from None
        items = raw.get("hosts") if isinstance(raw, dict) else None
        if not isinstance(items, list):
            raise HostError(f'{self.path}: expected {{"schema_version": 1, "hosts": [...]}}')
        return raw

    def load(self) -> list[Host]:
        raw = self._read()
        if raw is None:
            return []
        return [Host.from_dict(item, f"{self.path}: hosts[{i}]") for i, item in enumerate(raw["hosts"])]

    def save(self, hosts: list[Host]) -> None:
        """Write ``hosts``, keeping the file's other top-level keys; a file written by a newer
        workbench (a higher ``schema_version``) is never rewritten by this one."""
        names = [h.name for h in hosts]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise HostError(f"duplicate host name(s): {', '.join(sorted(dup))}")
        raw = self._read() or {}
        version = raw.get("schema_version", SCHEMA_VERSION)
        if not isinstance(version, int) or isinstance(version, bool) or version > SCHEMA_VERSION:
            raise HostError(
                f"{self.path}: schema_version {version!r} is newer than this workbench writes ({SCHEMA_VERSION}); "
                "not changing it (use the newer workbench, or edit the file)"
            )
        data = {**raw, "schema_version": SCHEMA_VERSION, "hosts": [h.validate().to_dict() for h in hosts]}
        atomic_write_text(self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    def get(self, name: str) -> Host:
        for host in self.load():
            if host.name == name:
                return host
        raise HostError(f"no host named {name!r} in {self.path}")

    def add(self, host: Host, replace: bool = False) -> Host:
        host.validate()
        hosts = self.load()
        existing = [h for h in hosts if h.name == host.name]
        if existing and not replace:
            raise HostError(f"a host named {host.name!r} already exists in {self.path}")
        hosts = [h for h in hosts if h.name != host.name] + [host]
        self.save(hosts)
        return host

    def update(self, host: Host) -> Host:
        self.get(host.name)
        return self.add(host, replace=True)

    def remember_detected_toolkit(self, host: Host, root: str) -> bool:
        """Cache ``root`` (found by detection; "" forgets it) as ``host``'s ``detected_toolkit``, only
        while the stored host of that name is still ``host`` otherwise. True if the file changed."""
        hosts = self.load()
        for i, stored in enumerate(hosts):
            if stored.name != host.name:
                continue
            if replace(stored, detected_toolkit="") != replace(host, detected_toolkit=""):
                return False  # redefined meanwhile: its own detection will fill it
            if stored.detected_toolkit == root:
                return False
            hosts[i] = replace(stored, detected_toolkit=root)
            self.save(hosts)
            return True
        return False

    def remove(self, name: str) -> None:
        hosts = self.load()
        if not any(h.name == name for h in hosts):
            raise HostError(f"no host named {name!r} in {self.path}")
        self.save([h for h in hosts if h.name != name])

    def repair(self) -> Path | None:
        """Keep a damaged hosts file aside (never deleted) so a new one can be written."""
        return backup_aside(self.path)
