"""SSH connections to CANN machines: authentication, host keys, pooling, reconnect, commands.

:class:`SshTransport` implements :class:`~workbench.core.services.transport.Transport` over one
paramiko connection that it (re)opens on demand: after a drop the failing call raises
:class:`ConnectionLost` and the next call reconnects. Keepalive is on. :class:`ConnectionPool`
hands out one transport per host name.

Secrets are asked through a :class:`Prompter` (the UI shows dialogs; the CLI reads the
terminal) and kept only for the connection attempt: never stored.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import select
import shlex
import socket
import stat as stat_mod
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Callable, Protocol

import paramiko
from paramiko.buffered_pipe import BufferedPipe

from workbench.core.services.hosts import LOCAL_HOSTNAME, Host, HostError, HostStore
from workbench.core.services.knownhosts import HostKeyChecker, HostKeyInfo
from workbench.core.services.sftp import rename_over, sftp_makedirs
from workbench.core.services.transfer import download, upload
from workbench.core.services.transport import (
    KILL_GRACE_S,
    ConnectionLost,
    FileStat,
    LineSplitter,
    RunResult,
    RunTimeout,
    TransportError,
    build_script,
    describe,
    part_name,
    posix_join,
    reason,
)
from workbench.core.tasks import Cancelled, CancelToken, NullProgress, Progress

CONNECT_TIMEOUT_S = 15.0
# paramiko logs its transport thread's failures (with tracebacks) at ERROR; without a handler of its
# own, Python would print them on stderr. Our exceptions already say what went wrong, in one line.
logging.getLogger("paramiko").addHandler(logging.NullHandler())
# AES-GCM is one C call per packet in paramiko: clearly faster than CTR + a separate HMAC.
PREFERRED_CIPHERS = ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr", "aes256-ctr")


class AuthError(TransportError):
    """The server refused every credential offered."""


class Prompter(Protocol):
    """Asks the user; returning None (or False) means "cancel"."""

    def confirm_host_key(self, info: HostKeyInfo) -> bool: ...
    def ask_passphrase(self, host: Host, key_file: str) -> str | None: ...
    def ask_password(self, host: Host) -> str | None: ...


@dataclass
class CallbackPrompter:
    """A prompter built from optional callables; a missing callable answers "no"."""

    confirm: Callable[[HostKeyInfo], bool] | None = None
    passphrase: Callable[[Host, str], str | None] | None = None
    password: Callable[[Host], str | None] | None = None

    def confirm_host_key(self, info: HostKeyInfo) -> bool:
        return bool(self.confirm and self.confirm(info))

    def ask_passphrase(self, host: Host, key_file: str) -> str | None:
        return self.passphrase(host, key_file) if self.passphrase else None

    def ask_password(self, host: Host) -> str | None:
        return self.password(host) if self.password else None


def _lost(label: str, what: str, exc: BaseException) -> ConnectionLost:
    return ConnectionLost(
        f"{label}: the connection was lost while {what} ({reason(exc)}); it will reconnect on the next try"
    )


def _default_user() -> str:
    import getpass

    return getpass.getuser()


class SshTransport:
    """A host reached over SSH (see the module docstring). Thread-safe; reconnects lazily."""

    is_local = False

    def __init__(
        self,
        host: Host,
        prompter: Prompter | None = None,
        *,
        checker: HostKeyChecker | None = None,
        store: HostStore | None = None,
    ) -> None:
        self.host = host.validate()
        self.prompter: Prompter = prompter or CallbackPrompter()
        self.checker = checker or HostKeyChecker()
        self._store = store
        self._lock = threading.RLock()
        self._transport: paramiko.Transport | None = None
        self._jump: SshTransport | None = None
        # one SFTP session per thread: paramiko's client answers whichever thread reads next, so two
        # threads sharing one (a probe while a conversion starts) wait for each other's replies forever
        self._sftps: dict[int, paramiko.SFTPClient] = {}
        # temporary upload files (.wbpart-*) left on the host when the connection dropped mid
        # transfer: removed by the next transfer over this host's connection
        self.orphan_parts: list[str] = []
        self.user = host.user or _default_user()
        self.label = f"{host.name} ({self.user}@{host.hostname}:{host.port})"

    # --- connection -------------------------------------------------------------------------
    def connect(self) -> paramiko.Transport:
        """The live paramiko transport, connecting (again) if needed."""
        with self._lock:
            t = self._transport
            if t is not None and t.is_active() and t.is_authenticated():
                return t
            self._drop()
            self._transport = self._open()
            return self._transport

    @property
    def connected(self) -> bool:
        t = self._transport
        return bool(t and t.is_active() and t.is_authenticated())

    def _open_socket(self) -> socket.socket | paramiko.Channel:
        if self.host.proxy_jump:
            self._jump = self._jump_transport()
            try:
                return self._jump.connect().open_channel(
                    "direct-tcpip", (self.host.hostname, self.host.port), ("127.0.0.1", 0), timeout=CONNECT_TIMEOUT_S
                )
            except (paramiko.SSHException, OSError) as exc:
                raise TransportError(
                    f"{self.label}: the jump host {self._jump.label} cannot reach "
                    f"{self.host.hostname}:{self.host.port}: {exc}"
                ) from exc
        try:
            sock = socket.create_connection((self.host.hostname, self.host.port), timeout=CONNECT_TIMEOUT_S)
            # Small messages (SFTP requests, window adjustments) must not wait for Nagle's
            # algorithm: with delayed ACKs that stalls every round trip (measured: 2x on downloads).
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock
        except socket.gaierror as exc:
            raise TransportError(f"{self.label}: unknown host name {self.host.hostname!r} ({exc.strerror})") from exc
        except OSError as exc:
            reason = exc.strerror or str(exc)
            if exc.errno == errno.ECONNREFUSED:
                reason = "connection refused (is sshd running on that port?)"
            raise TransportError(f"{self.label}: cannot connect: {reason}") from exc

    def _jump_transport(self) -> SshTransport:
        spec = self.host.proxy_jump.split(",")[-1].strip()
        store = self._store or HostStore()
        try:
            jump_host = store.get(spec)
        except HostError:
            user, _, rest = spec.rpartition("@")
            hostname, _, port = rest.partition(":")
            jump_host = Host(
                name=f"{self.host.name}-jump",
                hostname=hostname,
                port=int(port or 22),
                user=user,
                key_file=self.host.key_file,
                proxy_jump=",".join(self.host.proxy_jump.split(",")[:-1]),
            )
        return SshTransport(jump_host, self.prompter, checker=self.checker, store=self._store)

    def _open(self) -> paramiko.Transport:
        sock = self._open_socket()
        t = paramiko.Transport(sock)
        try:
            opts = t.get_security_options()
            opts.ciphers = tuple(c for c in PREFERRED_CIPHERS if c in opts.ciphers) + tuple(
                c for c in opts.ciphers if c not in PREFERRED_CIPHERS
            )
            known = self.checker.preferred_key_types(self.host.hostname, self.host.port)
            if known:
                opts.key_types = tuple(k for k in known if k in opts.key_types) + tuple(
                    k for k in opts.key_types if k not in known
                )
            try:
                t.start_client(timeout=CONNECT_TIMEOUT_S)
            except (paramiko.SSHException, EOFError, OSError) as exc:
                raise TransportError(f"{self.label}: SSH handshake failed: {reason(exc)}") from exc
            self.checker.check(
                self.host.name,
                self.host.hostname,
                self.host.port,
                t.get_remote_server_key(),
                self.prompter.confirm_host_key,
            )
            self._authenticate(t)
            t.set_keepalive(max(0, int(self.host.keepalive_s)))
            return t
        except BaseException:
            t.close()
            if self._jump is not None:
                self._jump.close()
                self._jump = None
            raise

    # --- authentication ---------------------------------------------------------------------
    def _authenticate(self, t: paramiko.Transport) -> None:
        auth = self.host.auth
        tried: list[str] = []
        if auth in ("auto", "agent") and self._try_agent(t, tried):
            return
        if auth in ("auto", "key"):
            for key_file in self._key_files():
                if self._try_key(t, key_file, tried):
                    return
        if auth in ("auto", "password") and self._try_password(t, tried):
            return
        raise AuthError(
            f"{self.label}: authentication failed: "
            + ("; ".join(tried) if tried else f"no credentials available for auth '{auth}'")
        )

    def _key_files(self) -> list[str]:
        import os

        if self.host.key_file:
            return [os.path.expanduser(self.host.key_file)]
        if self.host.auth == "key":
            return []
        names = ("id_ed25519", "id_ecdsa", "id_rsa")
        return [p for p in (os.path.expanduser(f"~/.ssh/{n}") for n in names) if os.path.exists(p)]

    def _try_agent(self, t: paramiko.Transport, tried: list[str]) -> bool:
        agent = paramiko.Agent()
        try:
            keys = agent.get_keys()
            if not keys:
                if self.host.auth == "agent":
                    tried.append("ssh-agent has no keys (is SSH_AUTH_SOCK set?)")
                return False
            for key in keys:
                with contextlib.suppress(paramiko.AuthenticationException):
                    t.auth_publickey(self.user, key)
                    if t.is_authenticated():
                        return True
            tried.append(f"the server refused all {len(keys)} ssh-agent key(s)")
            return False
        except paramiko.SSHException as exc:
            tried.append(f"ssh-agent: {exc}")
            return False
        finally:
            agent.close()

    def _load_key(self, key_file: str) -> paramiko.PKey:
        try:
            return paramiko.PKey.from_path(key_file)
        except (paramiko.PasswordRequiredException, TypeError) as exc:
            # OpenSSH-format keys report a missing passphrase as TypeError("...password...").
            if isinstance(exc, TypeError) and "password" not in str(exc):
                raise AuthError(f"{self.label}: key file {key_file}: not a readable private key ({exc})") from None
            passphrase = self.prompter.ask_passphrase(self.host, key_file)
            if passphrase is None:
                raise AuthError(f"{self.label}: key file {key_file} is encrypted and no passphrase was given") from None
            try:
                return paramiko.PKey.from_path(key_file, passphrase.encode())  # 3.x: passphrase=, 5.x: password=
            except (paramiko.SSHException, ValueError, TypeError) as exc2:
                raise AuthError(f"{self.label}: key file {key_file}: wrong passphrase ({exc2})") from None
        except FileNotFoundError:
            raise AuthError(f"{self.label}: key file {key_file} does not exist") from None
        except (paramiko.SSHException, ValueError, OSError) as exc:
            raise AuthError(f"{self.label}: key file {key_file}: not a readable private key ({exc})") from None

    def _try_key(self, t: paramiko.Transport, key_file: str, tried: list[str]) -> bool:
        key = self._load_key(key_file)
        try:
            t.auth_publickey(self.user, key)
        except paramiko.AuthenticationException:
            tried.append(f"the server refused key file {key_file} for user {self.user!r}")
            return False
        except paramiko.SSHException as exc:
            raise AuthError(f"{self.label}: key file {key_file}: {exc}") from exc
        return t.is_authenticated()

    def _try_password(self, t: paramiko.Transport, tried: list[str]) -> bool:
        password = self.prompter.ask_password(self.host)
        if password is None:
            if self.host.auth == "password":
                tried.append("no password was given")
            return False
        try:
            t.auth_password(self.user, password)
        except paramiko.BadAuthenticationType as exc:
            tried.append(f"the server does not accept passwords (allowed: {', '.join(exc.allowed_types)})")
            return False
        except paramiko.AuthenticationException:
            tried.append(f"wrong password for user {self.user!r}")
            return False
        return t.is_authenticated()

    # --- lifecycle --------------------------------------------------------------------------
    def _drop(self) -> None:
        for client in self._sftps.values():
            with contextlib.suppress(Exception):
                client.close()
        self._sftps.clear()
        if self._transport is not None:
            with contextlib.suppress(Exception):
                self._transport.close()
            self._transport = None
        if self._jump is not None:
            self._jump.close()
            self._jump = None

    def close(self) -> None:
        with self._lock:
            self._drop()

    def __enter__(self) -> SshTransport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- commands ---------------------------------------------------------------------------
    def run(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        toolkit: str | None = None,
        devices: Sequence[int | str] | None = None,
        timeout: float | None = None,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> RunResult:
        progress = progress or NullProgress()
        cancel = cancel or CancelToken()
        cancel.raise_if_cancelled()
        script = build_script(argv, cwd=cwd, env=env, toolkit=toolkit, devices=devices)
        command = describe(argv)
        t = self.connect()
        try:
            chan = t.open_session(timeout=CONNECT_TIMEOUT_S)
            order = _ArrivalOrder(chan)  # before any output can arrive
            chan.exec_command("exec setsid -w bash -c " + shlex.quote(script))
        except (paramiko.SSHException, EOFError, OSError) as exc:
            self.close()
            raise _lost(self.label, f"starting {command}", exc) from exc
        pgid: list[int] = []
        splitter = LineSplitter(progress, pgid.append)
        deadline = None if timeout is None else time.monotonic() + timeout
        killed = timed_out = False
        try:
            while True:
                if not killed and (cancel.cancelled or (deadline is not None and time.monotonic() > deadline)):
                    timed_out = not cancel.cancelled
                    if pgid:
                        killed = splitter.killed = True
                        self.kill_group(pgid[0])
                if order.drain(splitter):
                    continue
                if (chan.exit_status_ready() and chan.eof_received) or chan.closed or not t.is_active():
                    break
                select.select([chan], [], [], 0.2)
            order.drain(splitter)
            splitter.finish()
            # exit_status_ready() is also True once the channel is closed; paramiko then leaves the
            # status at -1, which no server can send (it is an unsigned 32-bit number).
            status = chan.recv_exit_status() if chan.exit_status_ready() else -1
            has_status = status != -1
        except (paramiko.SSHException, EOFError, OSError) as exc:
            self.close()
            raise _lost(self.label, f"running {command}", exc) from exc
        finally:
            chan.close()
        if cancel.cancelled:
            raise Cancelled()
        if timed_out:
            raise RunTimeout(f"{self.label}: {command} ran longer than {timeout:g} s; its process group was killed")
        if not has_status:
            self.close()
            raise ConnectionLost(
                f"{self.label}: the connection was lost while running {command}; the command "
                "may still be running on the host. It will reconnect on the next try."
            )
        return splitter.result(status, command)

    def kill_group(self, pgid: int) -> None:
        """SIGTERM the remote process group, SIGKILL it if still alive after the grace period."""
        steps = int(KILL_GRACE_S / 0.1)
        script = (
            f"kill -TERM -- -{pgid} 2>/dev/null || exit 0; for i in $(seq {steps}); do "
            f"kill -0 -- -{pgid} 2>/dev/null || exit 0; sleep 0.1; done; kill -KILL -- -{pgid} 2>/dev/null; exit 0"
        )
        try:
            chan = self.connect().open_session(timeout=CONNECT_TIMEOUT_S)
            try:
                chan.exec_command("exec bash -c " + shlex.quote(script))
                chan.recv_exit_status()
            finally:
                chan.close()
        except (paramiko.SSHException, EOFError, OSError, TransportError):
            pass  # the connection is gone: the run loop reports that

    # --- files ------------------------------------------------------------------------------
    def sftp(self) -> paramiko.SFTPClient:
        """This thread's SFTP session on the live connection (opened on first use, reopened after
        a reconnect); sessions of threads that ended are closed."""
        with self._lock:
            t = self.connect()
            me = threading.get_ident()
            client = self._sftps.get(me)
            if client is None or client.get_channel().get_transport() is not t or client.get_channel().closed:
                alive = {th.ident for th in threading.enumerate()}
                for ident in [i for i in self._sftps if i not in alive or i == me]:
                    with contextlib.suppress(Exception):
                        self._sftps.pop(ident).close()
                try:
                    client = paramiko.SFTPClient.from_transport(t)
                except (paramiko.SSHException, EOFError, OSError) as exc:
                    self.close()
                    raise _lost(self.label, "opening SFTP", exc) from exc
                assert client is not None
                self._sftps[me] = client
            return client

    def _fs(self, what: str, fn: Callable[[paramiko.SFTPClient], object]) -> object:
        sftp = self.sftp()
        try:
            return fn(sftp)
        except (FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError):
            raise
        except OSError as exc:
            if isinstance(exc, IOError) and exc.errno is not None:
                raise
            self.close()
            raise _lost(self.label, what, exc) from exc
        except (paramiko.SSHException, EOFError) as exc:
            self.close()
            raise _lost(self.label, what, exc) from exc

    def read_bytes(self, path: str) -> bytes:
        def go(s: paramiko.SFTPClient) -> bytes:
            with s.open(path, "rb") as fh:
                fh.prefetch()
                return fh.read()

        return self._fs(f"reading {path}", go)  # type: ignore[return-value]

    def read_text(self, path: str, encoding: str = "utf-8") -> str:
        return self.read_bytes(path).decode(encoding, errors="replace")

    def write_text(self, path: str, text: str, encoding: str = "utf-8") -> None:
        data = text.encode(encoding)

        def go(s: paramiko.SFTPClient) -> None:
            tmp = part_name(path)
            try:
                with s.open(tmp, "wb") as fh:
                    fh.write(data)
                rename_over(s, tmp, path)
            except BaseException:
                try:
                    s.remove(tmp)
                except Exception:  # noqa: BLE001 - the connection is gone: removed later
                    self.orphan_parts.append(tmp)
                raise

        self._fs(f"writing {path}", go)

    def stat(self, path: str) -> FileStat:
        st = self._fs(f"reading {path}", lambda s: s.stat(path))
        return FileStat(st.st_size or 0, float(st.st_mtime or 0), stat_mod.S_ISDIR(st.st_mode or 0))  # type: ignore[attr-defined]

    def exists(self, path: str) -> bool:
        try:
            self._fs(f"reading {path}", lambda s: s.lstat(path))
            return True
        except FileNotFoundError:
            return False

    def is_dir(self, path: str) -> bool:
        try:
            return self.stat(path).is_dir
        except FileNotFoundError:
            return False

    def listdir(self, path: str) -> list[str]:
        return sorted(self._fs(f"listing {path}", lambda s: s.listdir(path)))  # type: ignore[arg-type]

    def list_tree(self, path: str) -> dict[str, FileStat]:
        def go(s: paramiko.SFTPClient) -> dict[str, FileStat]:
            out: dict[str, FileStat] = {}
            todo = [""]
            while todo:
                rel = todo.pop()
                for a in s.listdir_attr(posix_join(path, rel)):
                    child = posix_join(rel, a.filename)
                    is_dir = stat_mod.S_ISDIR(a.st_mode or 0)
                    out[child] = FileStat(a.st_size or 0, float(a.st_mtime or 0), is_dir)
                    if is_dir:
                        todo.append(child)
            return out

        return self._fs(f"listing {path}", go)  # type: ignore[return-value]

    def mkdir(self, path: str, parents: bool = True) -> None:
        self._fs(f"creating {path}", lambda s: sftp_makedirs(s, path, parents))

    def remove(self, path: str) -> None:
        def go(s: paramiko.SFTPClient) -> None:
            if stat_mod.S_ISDIR(s.lstat(path).st_mode or 0):
                s.rmdir(path)
            else:
                s.remove(path)

        self._fs(f"removing {path}", go)

    def set_mtime(self, path: str, mtime: float) -> None:
        self._fs(f"updating {path}", lambda s: s.utime(path, (mtime, mtime)))

    def home(self) -> str:
        return self._fs("reading the home folder", lambda s: s.normalize("."))  # type: ignore[return-value]

    def put(
        self,
        local,
        remote: str,
        *,
        progress: Progress | None = None,  # type: ignore[no-untyped-def]
        cancel: CancelToken | None = None,
    ) -> int:
        return upload(self, local, remote, progress=progress or NullProgress(), cancel=cancel or CancelToken())

    def get(
        self,
        remote: str,
        local,
        *,
        progress: Progress | None = None,  # type: ignore[no-untyped-def]
        cancel: CancelToken | None = None,
    ) -> int:
        return download(self, remote, local, progress=progress or NullProgress(), cancel=cancel or CancelToken())


class _OrderedPipe(BufferedPipe):
    """A channel input buffer that also logs (stream, size) of each arrival, in order."""

    def __init__(self, stream: str, order: _ArrivalOrder) -> None:
        super().__init__()
        self._stream, self._order = stream, order

    def feed(self, data: bytes) -> None:  # called on paramiko's transport thread, in arrival order
        with self._order.lock:
            super().feed(data)
            self._order.log.append((self._stream, len(data)))


class _ArrivalOrder:
    """Reads a channel's stdout and stderr in the order the packets arrived (paramiko keeps two
    separate buffers, so reading one then the other would reorder lines across streams)."""

    def __init__(self, chan: paramiko.Channel) -> None:
        self.lock = threading.Lock()
        self.log: deque[tuple[str, int]] = deque()
        self.chan = chan
        chan.in_buffer = _OrderedPipe("stdout", self)
        chan.in_stderr_buffer = _OrderedPipe("stderr", self)

    def drain(self, splitter: LineSplitter) -> bool:
        """Hand every arrived chunk to ``splitter`` in order; True if there was any."""
        got = False
        while True:
            with self.lock:
                if not self.log:
                    return got
                stream, size = self.log.popleft()
            got = True
            read = self.chan.recv if stream == "stdout" else self.chan.recv_stderr
            while size > 0:  # recv also sends the window adjustments
                data = read(size)
                if not data:
                    break
                size -= len(data)
                splitter.feed(stream, data)


class ConnectionPool:
    """One :class:`SshTransport` per host name, opened on first use, closed by :meth:`close_all`."""

    def __init__(
        self, prompter: Prompter | None = None, store: HostStore | None = None, checker: HostKeyChecker | None = None
    ) -> None:
        self.prompter = prompter
        self.store = store or HostStore()
        self.checker = checker
        self._lock = threading.Lock()
        self._by_name: dict[str, SshTransport] = {}

    def get(self, host: Host | str) -> SshTransport:
        if isinstance(host, str):
            host = self.store.get(host)
        with self._lock:
            tr = self._by_name.get(host.name)
            if tr is None or tr.host != host:
                if tr is not None:
                    tr.close()
                tr = SshTransport(host, self.prompter, checker=self.checker or HostKeyChecker(), store=self.store)
                self._by_name[host.name] = tr
            return tr

    def forget(self, name: str) -> None:
        with self._lock:
            tr = self._by_name.pop(name, None)
        if tr is not None:
            tr.close()

    def close_all(self) -> None:
        with self._lock:
            items, self._by_name = list(self._by_name.values()), {}
        for tr in items:
            tr.close()


def transport_for(host: Host, prompter: Prompter | None = None, pool: ConnectionPool | None = None):  # noqa: ANN201
    """The right transport for a host: LocalTransport for ``hostname == "local"``, else SSH
    (from ``pool`` when given, so connections are shared)."""
    from workbench.core.services.transport import LocalTransport

    if host.hostname == LOCAL_HOSTNAME:
        # the simulated demo host keeps its work folders (atc, accuracy, profiling output) in the
        # workbench's data folder, not in the user's real home
        from workbench.core import paths

        return LocalTransport(label=host.name, home=paths.data_dir() / "demo-host" if host.simulated else None)
    if pool is not None:
        return pool.get(host)
    return SshTransport(host, prompter)
