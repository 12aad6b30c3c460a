"""One interface for running commands and moving files on a host: local or over SSH.

Every service that touches a machine (toolkit detection, npu-smi, the ATC wizard, deployment,
run configurations) takes a :class:`Transport` and never cares whether it is a
:class:`LocalTransport` (subprocess, this machine: the demo host and "Local" run mode) or an
``SshTransport`` (``workbench.core.services.ssh``, a pooled paramiko connection).

Contract of ``run(argv, *, cwd, env, toolkit, devices, timeout, progress, cancel)``:

* ``argv`` is a list of strings; each reaches the other side *literally* (every piece is
  ``shlex.quote``-d; no word splitting, no ``$()``, no globbing). Want a shell? pass
  ``["bash", "-c", "a | b"]``.
* The command always runs under **bash** (never ``sh``: dash has no ``source``) as
  ``bash -c 'source <toolkit>/set_env.sh && cd <cwd> && export K=V … && exec argv…'`` in a new
  session (``setsid``), so its process group id is known and *Cancel* (or the timeout) kills the
  whole group: SIGTERM, then SIGKILL after a short grace.
* ``toolkit``: the path of a ``*.sh`` file to source, or a toolkit folder: its ``set_env.sh`` is
  sourced, else its parent's (``ascend-toolkit/latest`` or ``ascend-toolkit/<version>`` ->
  ``ascend-toolkit/set_env.sh``), else, for the install root (``/usr/local/Ascend``), the one in
  its ``ascend-toolkit/`` or ``cann/``; a missing script fails the command (status 1, message on
  stderr).
* ``devices``: device ids -> ``ASCEND_RT_VISIBLE_DEVICES=0,1``; ``env`` values are literal too.
* stdout and stderr lines are reported as they arrive with
  ``progress.partial(("stdout" | "stderr", line))`` in arrival order; ``line`` keeps its
  ``"\\n"`` (the last line may lack it), so ``"".join`` gives the exact output. Text is UTF-8
  (undecodable bytes become U+FFFD).
* Returns :class:`RunResult` (exit status, whole stdout, whole stderr). A non-zero status is
  *not* an exception (call ``result.check()`` for that); a timeout raises :class:`RunTimeout`;
  cancel raises ``workbench.core.tasks.Cancelled`` after the group is killed; a lost connection
  raises :class:`ConnectionLost`. All are :class:`TransportError` with an English message
  naming the host and what to do.

File methods take POSIX path strings on the target (absolute, or relative to the login/working
directory). ``put``/``get`` copy a file or a folder tree with progress and cancel; a file is
written under a temporary name beside its target and renamed only when complete and its size
checked, so an interrupted transfer never leaves a half file under the final name.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import selectors
import shlex
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from workbench.core.tasks import Cancelled, CancelToken, NullProgress, Progress

# First line the wrapper script prints on stdout: the process group id to kill on cancel.
PGID_MARKER = "\x1eWBPGID "
KILL_GRACE_S = 1.0
PART_PREFIX = ".wbpart-"  # temporary names of files being transferred: .wbpart-<rand>-<name>
PART_RE = re.compile(rf"^{re.escape(PART_PREFIX)}[0-9a-f]{{8}}-(.+)$")  # exactly what part_name() makes
CHUNK = 256 * 1024


class TransportError(Exception):
    """Something went wrong talking to a host; the message says which host and why."""


class ConnectionLost(TransportError):
    """The connection dropped in the middle of an operation (it reconnects on the next call)."""


class RunTimeout(TransportError):
    """A command ran longer than its timeout; its process group was killed."""


class RemoteCommandFailed(TransportError):
    """Raised by :meth:`RunResult.check` for a non-zero exit status."""


def reason(exc: BaseException) -> str:
    """An exception's own words for a user message: never its class name (``EOFError()`` has no
    words) nor the ``[Errno N]`` of an OSError."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror + (f": {exc.filename}" if exc.filename else "")
    text = str(exc).strip()
    if text:
        return text
    if isinstance(exc, EOFError):
        return "the host closed the connection"
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    return "no reason given"


@dataclass(frozen=True)
class RunResult:
    exit_status: int
    stdout: str
    stderr: str
    command: str = ""

    @property
    def ok(self) -> bool:
        return self.exit_status == 0

    def check(self) -> RunResult:
        if self.exit_status != 0:
            tail = self.stderr.strip().splitlines()[-5:]
            raise RemoteCommandFailed(
                f"{self.command or 'command'} exited with status {self.exit_status}"
                + (": " + " / ".join(tail) if tail else "")
            )
        return self


@dataclass(frozen=True)
class FileStat:
    size: int
    mtime: float
    is_dir: bool


@runtime_checkable
class Transport(Protocol):
    """What every host connection offers (see the module docstring for the run contract)."""

    label: str  # "root@10.0.0.5:22" or "local": for messages
    is_local: bool

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
    ) -> RunResult: ...

    def read_text(self, path: str, encoding: str = "utf-8") -> str: ...
    def read_bytes(self, path: str) -> bytes: ...
    def write_text(self, path: str, text: str, encoding: str = "utf-8") -> None: ...  # atomic
    def exists(self, path: str) -> bool: ...
    def is_dir(self, path: str) -> bool: ...
    def stat(self, path: str) -> FileStat: ...  # FileNotFoundError if missing
    def listdir(self, path: str) -> list[str]: ...  # names, sorted
    def list_tree(self, path: str) -> dict[str, FileStat]: ...  # POSIX relpath -> stat, recursive, files and dirs
    def mkdir(self, path: str, parents: bool = True) -> None: ...
    def remove(self, path: str) -> None: ...  # a file (or an empty dir)
    def set_mtime(self, path: str, mtime: float) -> None: ...
    def home(self) -> str: ...
    def put(
        self,
        local: str | os.PathLike[str],
        remote: str,
        *,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> int: ...  # bytes sent; file or folder
    def get(
        self,
        remote: str,
        local: str | os.PathLike[str],
        *,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> int: ...  # bytes received; file or folder
    def close(self) -> None: ...


# ------------------------------------------------------------------------------------------------
# The command wrapper shared by every transport
# ------------------------------------------------------------------------------------------------

_ENV_NAME_OK = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def check_env_name(name: str) -> str:
    if not name or name[0].isdigit() or not set(name) <= _ENV_NAME_OK:
        raise ValueError(
            f"environment variable name {name!r}: expected letters, digits and '_', not starting with a digit"
        )
    return name


def toolkit_env_candidates(toolkit: str) -> list[str]:
    """The ``set_env.sh`` files a toolkit path may designate, in order: the path itself if it is
    a script, else ``<root>/set_env.sh``, ``<root>/../set_env.sh`` (CANN <= 8.3 keeps it in
    ``ascend-toolkit/`` beside ``latest/`` and the versioned folders), then the install root's
    ``<root>/ascend-toolkit/set_env.sh`` (<= 8.3) and ``<root>/cann/set_env.sh`` (8.5+)."""
    if toolkit.endswith(".sh"):
        return [toolkit]
    root = toolkit.rstrip("/") or "/"
    return [
        f"{root}/set_env.sh",
        f"{root}/../set_env.sh",
        f"{root}/ascend-toolkit/set_env.sh",
        f"{root}/cann/set_env.sh",
    ]


def _source_step(toolkit: str) -> str:
    candidates = toolkit_env_candidates(toolkit)
    if len(candidates) == 1:
        return "source " + shlex.quote(candidates[0])
    quoted = " ".join(shlex.quote(c) for c in candidates)
    root = toolkit.rstrip("/") or "/"
    missing = shlex.quote(f"no set_env.sh in {root}, its parent folder, {root}/ascend-toolkit or {root}/cann")
    return (
        f"{{ for _wb_env in {quoted} ''; do [ -f \"$_wb_env\" ] && break; done; "
        f'if [ -n "$_wb_env" ]; then source "$_wb_env"; else echo {missing} >&2; false; fi; }}'
    )


def build_script(
    argv: Sequence[str],
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    toolkit: str | None = None,
    devices: Sequence[int | str] | None = None,
) -> str:
    """The bash script run for ``argv``: prints the pgid marker, then sources, cds, exports, execs."""
    if not argv:
        raise ValueError("command: expected at least the program name, got an empty argument list")
    steps: list[str] = []
    if toolkit:
        steps.append(_source_step(toolkit))
    if cwd:
        steps.append("cd -- " + shlex.quote(cwd))
    exports = [f"{check_env_name(k)}={shlex.quote(str(v))}" for k, v in (env or {}).items()]
    if devices is not None:
        ids = ",".join(str(int(d)) for d in devices)
        exports.append(f"ASCEND_RT_VISIBLE_DEVICES={shlex.quote(ids)}")
    if exports:
        steps.append("export " + " ".join(exports))
    steps.append("exec " + " ".join(shlex.quote(str(a)) for a in argv))
    # bash runs as a session leader (setsid), so its pid is the process group id.
    marker = f"printf '%s%s\\n' {shlex.quote(PGID_MARKER)} \"$$\""
    return marker + "\n" + " && ".join(steps)


def describe(argv: Sequence[str]) -> str:
    return " ".join(shlex.quote(str(a)) for a in argv)


_SETSID_KILLED = re.compile(r"^setsid: child \d+ did not exit normally")


class LineSplitter:
    """Turns stdout/stderr chunks into ``progress.partial((stream, line))`` calls in order.

    Strips the pgid marker line (the first stdout line) and hands its value to ``on_pgid``. Once
    ``killed`` is set (the caller killed the group: cancel, timeout), the wrapper's own complaint
    about it (``setsid: child N did not exit normally``) is dropped: it is not the command's output.
    """

    def __init__(self, progress: Progress, on_pgid: Callable[[int], None]) -> None:
        self._progress = progress
        self._on_pgid = on_pgid
        self._pending = {"stdout": b"", "stderr": b""}
        self._seen_marker = False
        self.killed = False
        self.out: dict[str, list[str]] = {"stdout": [], "stderr": []}

    def feed(self, stream: str, data: bytes) -> None:
        buf = self._pending[stream] + data
        *lines, rest = buf.split(b"\n")
        self._pending[stream] = rest
        for raw in lines:
            self._line(stream, raw + b"\n")

    def finish(self) -> None:
        for stream in ("stdout", "stderr"):
            if self._pending[stream]:
                raw, self._pending[stream] = self._pending[stream], b""
                self._line(stream, raw)

    def _line(self, stream: str, raw: bytes) -> None:
        text = raw.decode("utf-8", errors="replace")
        if stream == "stdout" and not self._seen_marker:
            self._seen_marker = True
            if text.startswith(PGID_MARKER):
                with contextlib.suppress(ValueError):
                    self._on_pgid(int(text[len(PGID_MARKER) :].strip()))
                return
        if stream == "stderr" and self.killed and _SETSID_KILLED.match(text):
            return
        self.out[stream].append(text)
        self._progress.partial((stream, text))

    def result(self, status: int, command: str) -> RunResult:
        return RunResult(status, "".join(self.out["stdout"]), "".join(self.out["stderr"]), command)


def part_name(target: str) -> str:
    """A temporary sibling name for ``target`` (POSIX string) while it is being written."""
    head, _, name = target.rstrip("/").rpartition("/")
    tmp = f"{PART_PREFIX}{uuid.uuid4().hex[:8]}-{name}"
    return f"{head}/{tmp}" if head or target.startswith("/") else tmp


def posix_join(base: str, rel: str) -> str:
    if not rel or rel == ".":
        return base
    return base.rstrip("/") + "/" + rel if base else rel


# ------------------------------------------------------------------------------------------------
# LocalTransport
# ------------------------------------------------------------------------------------------------


class LocalTransport:
    """This machine through subprocess and the file system (demo host, "Local" run mode).

    With a ``home`` (the simulated demo host's own login folder) it behaves as an SSH host does:
    relative paths, a relative ``cwd`` and a run without ``cwd`` are in that folder. Without one,
    they are relative to this process's current folder.
    """

    is_local = True

    def __init__(self, label: str = "local", home: str | os.PathLike[str] | None = None) -> None:
        self.label = label
        self._home = Path(home) if home is not None else None  # the simulated demo host's own "home"

    def _at(self, path: str | os.PathLike[str]) -> str:
        """``path`` on this host: a relative one is taken from the home folder when there is one."""
        if self._home is None or os.path.isabs(path):
            return os.fspath(path)
        return os.path.join(self.home(), path)

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
        if self._home is not None:
            cwd = self._at(cwd) if cwd else self.home()
            toolkit = self._at(toolkit) if toolkit else toolkit
        script = build_script(argv, cwd=cwd, env=env, toolkit=toolkit, devices=devices)
        command = describe(argv)
        proc = subprocess.Popen(
            ["bash", "-c", script],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        pgid = proc.pid  # start_new_session: the child is its own group leader

        def kill() -> None:
            kill_local_group(pgid)

        cancel.on_cancel(kill)
        splitter = LineSplitter(progress, lambda _pgid: None)
        deadline = None if timeout is None else time.monotonic() + timeout
        timed_out = False
        with selectors.DefaultSelector() as sel:
            assert proc.stdout is not None and proc.stderr is not None
            sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
            sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
            open_streams = 2
            while open_streams:
                if deadline is not None and time.monotonic() > deadline and not timed_out:
                    timed_out = True
                    kill()
                for key, _ in sel.select(timeout=0.1):
                    data = os.read(key.fd, CHUNK)
                    if not data:
                        sel.unregister(key.fileobj)
                        open_streams -= 1
                    else:
                        splitter.feed(key.data, data)
        status = proc.wait()
        proc.stdout.close()
        proc.stderr.close()
        splitter.finish()
        if cancel.cancelled:
            raise Cancelled()
        if timed_out:
            raise RunTimeout(f"{self.label}: {command} ran longer than {timeout:g} s; its process group was killed")
        return splitter.result(status if status >= 0 else 128 - status, command)

    # --- files ------------------------------------------------------------------------------
    def read_text(self, path: str, encoding: str = "utf-8") -> str:
        return Path(self._at(path)).read_text(encoding=encoding)

    def read_bytes(self, path: str) -> bytes:
        return Path(self._at(path)).read_bytes()

    def write_text(self, path: str, text: str, encoding: str = "utf-8") -> None:
        from workbench.core.fsutil import atomic_write_text

        atomic_write_text(self._at(path), text, encoding=encoding)

    def exists(self, path: str) -> bool:
        return os.path.lexists(self._at(path))

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(self._at(path))

    def stat(self, path: str) -> FileStat:
        path = self._at(path)
        st = os.stat(path)
        return FileStat(st.st_size, st.st_mtime, os.path.isdir(path))

    def listdir(self, path: str) -> list[str]:
        return sorted(os.listdir(self._at(path)))

    def list_tree(self, path: str) -> dict[str, FileStat]:
        root = Path(self._at(path))
        out: dict[str, FileStat] = {}
        for dirpath, dirnames, filenames in os.walk(root):
            for name in dirnames + filenames:
                full = Path(dirpath) / name
                with contextlib.suppress(FileNotFoundError):
                    st = full.stat()
                    out[full.relative_to(root).as_posix()] = FileStat(st.st_size, st.st_mtime, full.is_dir())
        return out

    def mkdir(self, path: str, parents: bool = True) -> None:
        Path(self._at(path)).mkdir(parents=parents, exist_ok=True)

    def remove(self, path: str) -> None:
        path = self._at(path)
        if os.path.isdir(path) and not os.path.islink(path):
            os.rmdir(path)
        else:
            os.unlink(path)

    def set_mtime(self, path: str, mtime: float) -> None:
        os.utime(self._at(path), (mtime, mtime))

    def home(self) -> str:
        if self._home is None:
            return str(Path.home())
        self._home.mkdir(parents=True, exist_ok=True)
        return str(self._home)

    def put(
        self,
        local: str | os.PathLike[str],
        remote: str,
        *,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> int:
        return copy_tree(Path(local), Path(self._at(remote)), progress or NullProgress(), cancel or CancelToken())

    def get(
        self,
        remote: str,
        local: str | os.PathLike[str],
        *,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> int:
        return copy_tree(Path(self._at(remote)), Path(local), progress or NullProgress(), cancel or CancelToken())

    def close(self) -> None:
        pass

    def __enter__(self) -> LocalTransport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def kill_local_group(pgid: int, grace: float = KILL_GRACE_S) -> None:
    """SIGTERM a local process group, then SIGKILL whatever is left after ``grace`` seconds."""
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return
    except PermissionError:
        return
    end = time.monotonic() + grace
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def files_to_copy(src: Path) -> tuple[list[str], list[tuple[str, int]]]:
    """(folders, [(file, size)]) under a local ``src`` as POSIX relpaths ('' = src itself is a file)."""
    if not src.is_dir():
        return [], [("", src.stat().st_size)]
    dirs: list[str] = [""]
    files: list[tuple[str, int]] = []
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        rel = Path(dirpath).relative_to(src).as_posix()
        rel = "" if rel == "." else rel
        dirs.extend(posix_join(rel, d) for d in dirnames)
        files.extend((posix_join(rel, f), (Path(dirpath) / f).stat().st_size) for f in sorted(filenames))
    return dirs, files


def copy_tree(src: Path, dst: Path, progress: Progress, cancel: CancelToken) -> int:
    """Local copy of a file or folder with the same temp-name-then-rename rule as transfers
    (and the same ``scp`` rule: onto an existing folder, the copy goes inside it)."""
    if not src.exists():
        raise FileNotFoundError(errno.ENOENT, "no such file or folder", str(src))
    if dst.is_dir():
        dst = dst / src.name
    dirs, files = files_to_copy(src)
    total = sum(size for _, size in files) or 1
    done = 0
    for d in dirs:
        (dst / d).mkdir(parents=True, exist_ok=True)
    scans: dict[Path, dict[str, list[Path]]] = {}
    for rel, size in files:
        source = src / rel if rel else src
        target = dst / rel if rel else dst
        target.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale_parts(target, scans)
        tmp = Path(part_name(str(target)))
        try:
            with open(source, "rb") as fin, open(tmp, "wb") as fout:
                while True:
                    cancel.raise_if_cancelled()
                    block = fin.read(CHUNK)
                    if not block:
                        break
                    fout.write(block)
                    done += len(block)
                    progress.fraction(done / total)
            if tmp.stat().st_size != size:
                raise TransportError(f"{target}: copied {tmp.stat().st_size} bytes, expected {size}")
            shutil.copystat(source, tmp)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
    progress.fraction(1.0)
    return done


def _remove_stale_parts(target: Path, scans: dict[Path, dict[str, list[Path]]]) -> None:
    """Remove the ``.wbpart-<8 hex>-<name>`` regular files beside ``target`` of its name that a
    killed copy left (not written to for an hour: a copy still running is never touched). Each
    folder is listed once per copy."""
    from workbench.core.fsutil import STALE_TEMP_SECONDS

    folder = target.parent
    if folder not in scans:
        found: dict[str, list[Path]] = {}
        with contextlib.suppress(OSError):
            for entry in os.scandir(folder):
                m = PART_RE.match(entry.name)
                if m and entry.is_file(follow_symlinks=False):
                    found.setdefault(m.group(1), []).append(Path(entry.path))
        scans[folder] = found
    now = time.time()
    for part in scans[folder].pop(target.name, []):
        with contextlib.suppress(OSError):
            if now - part.lstat().st_mtime > STALE_TEMP_SECONDS:
                part.unlink()


def iter_lines(events: Iterable[tuple[str, object]]) -> list[tuple[str, str]]:
    """The ``(stream, line)`` partials out of a RecordingProgress's events (tests, CLI)."""
    return [item for kind, item in events if kind == "partial" and isinstance(item, tuple)]  # type: ignore[misc]
