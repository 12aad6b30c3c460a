"""Import hosts from an OpenSSH client config (``~/.ssh/config``).

Each concrete ``Host`` alias (no ``*``/``?``/``!`` pattern) becomes a :class:`Host` with the
HostName, User, Port, first IdentityFile and ProxyJump that OpenSSH would use for it (wildcard
blocks such as ``Host *`` are applied by paramiko's resolver, as ssh itself does).
"""

from __future__ import annotations

import os
from pathlib import Path

from workbench.core.services.hosts import Host, HostError


def default_ssh_config() -> Path:
    return Path(os.path.expanduser("~/.ssh/config"))


def import_ssh_config(path: str | os.PathLike[str] | None = None) -> list[Host]:
    """Hosts defined in an ssh config file (empty list when it does not exist)."""
    cfg_path = Path(path) if path else default_ssh_config()
    if not cfg_path.exists():
        return []
    import paramiko  # here: importing this module (the host dialogs do at start-up) must not cost paramiko

    try:
        config = paramiko.SSHConfig.from_path(str(cfg_path))
    except Exception as exc:  # noqa: BLE001 - paramiko raises several types for bad configs
        raise HostError(f"{cfg_path}: cannot read this ssh config: {exc}") from exc
    hosts: list[Host] = []
    for alias in sorted(config.get_hostnames()):
        if any(c in alias for c in "*?!") or not alias:
            continue
        entry = config.lookup(alias)
        try:
            port = int(entry.get("port", 22))
        except ValueError as exc:
            raise HostError(f"{cfg_path}: Host {alias}: Port {entry.get('port')!r}: expected a number") from exc
        identity = entry.get("identityfile") or []
        host = Host(
            name=alias,
            hostname=entry.get("hostname", alias),
            port=port,
            user=entry.get("user", ""),
            auth="auto",
            key_file=os.path.expanduser(identity[0]) if identity else "",
            proxy_jump=entry.get("proxyjump", "") if entry.get("proxyjump", "").lower() != "none" else "",
        )
        try:
            hosts.append(host.validate())
        except HostError as exc:
            raise HostError(f"{cfg_path}: Host {alias}: {exc}") from exc
    return hosts
