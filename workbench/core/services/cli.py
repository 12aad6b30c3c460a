"""Headless verbs for CANN machines: ``host``, ``remote`` and ``deploy`` (Qt-free).

Every verb taking a host name also accepts ``demo``, the built-in demo host (simulated CANN).
Commands always run through bash with the host's toolkit environment sourced: ``--toolkit``, else
the host's setting, else the toolkit detected on the host (cached in hosts.json).

Exit codes: 0 ok, 2 bad input (message on stderr), 1 remote failure; ``remote run`` exits with
the remote command's status. SIGINT (Ctrl-C) or SIGTERM cancels the job as the GUI's Stop does
(the remote process group is killed, a transfer leaves no partial file) and exits 130 / 143
with one line; a second signal stops waiting at once. Secrets are asked on the terminal only
(never stored, never read from arguments); without a terminal a key passphrase or password
cannot be given.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from workbench.core.services.demohost import resolve_host
from workbench.core.services.hosts import Host, HostError, HostStore, absolute_key_path
from workbench.core.services.knownhosts import HostKeyInfo
from workbench.core.services.transport import RemoteCommandFailed, Transport, TransportError, describe
from workbench.core.tasks import Cancelled, CancelToken, NullProgress, run_inline
from workbench.core.verbs import register_verb

BAD_INPUT = (HostError, ValueError, FileNotFoundError, NotADirectoryError, IsADirectoryError)


class TerminalPrompter:
    """Asks on the terminal; accepts unknown host keys only with ``--accept-new-host-key``."""

    def __init__(self, accept_new: bool = False) -> None:
        self.accept_new = accept_new
        self.tty = sys.stdin.isatty()

    def confirm_host_key(self, info: HostKeyInfo) -> bool:
        print(
            f"{info.host_name} ({info.address}): {info.key_type} host key fingerprint is {info.fingerprint}",
            file=sys.stderr,
        )
        if self.accept_new:
            print("accepted (--accept-new-host-key)", file=sys.stderr)
            return True
        if not self.tty:
            print("not accepted: run again with --accept-new-host-key after checking the fingerprint", file=sys.stderr)
            return False
        return input("Accept this key and remember it? [y/N] ").strip().lower() in ("y", "yes")

    def ask_passphrase(self, host: Host, key_file: str) -> str | None:
        return getpass.getpass(f"Passphrase for {key_file}: ") if self.tty else None

    def ask_password(self, host: Host) -> str | None:
        return getpass.getpass(f"Password for {host.label}: ") if self.tty else None


class _StreamProgress(NullProgress):
    """Writes ("stdout"|"stderr", line) partials to our own stdout/stderr as they arrive."""

    def partial(self, item: Any) -> None:
        if isinstance(item, tuple) and len(item) == 2 and item[0] in ("stdout", "stderr"):
            out = sys.stdout if item[0] == "stdout" else sys.stderr
            out.write(item[1])
            out.flush()


def open_transport(host: Host, accept_new: bool = False) -> Transport:
    from workbench.core.services.ssh import transport_for

    return transport_for(host, TerminalPrompter(accept_new))


class SignalCancel:
    """While active, SIGINT and SIGTERM cancel ``cancel`` (the kill path the GUI's Stop takes)
    instead of killing this process; ``signum`` is the first signal received (None: none).

    The token is cancelled from a helper thread: its callbacks (a local process-group kill) may
    take a moment and must not run inside the interrupted code. A second signal raises
    KeyboardInterrupt, for when the host no longer answers."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self, cancel: CancelToken) -> None:
        self.cancel = cancel
        self.signum: int | None = None

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name if self.signum else ""

    @property
    def exit_code(self) -> int:
        return 128 + (self.signum or signal.SIGINT)

    def _handle(self, signum: int, _frame: object) -> None:
        if self.signum is not None:
            raise KeyboardInterrupt
        self.signum = signum
        threading.Thread(target=self.cancel.cancel, name="signal-cancel", daemon=True).start()

    @contextlib.contextmanager
    def active(self) -> Iterator[SignalCancel]:
        if threading.current_thread() is not threading.main_thread():
            yield self  # signal handlers can only be set on the main thread
            return
        old = {s: signal.signal(s, self._handle) for s in self.SIGNALS}
        try:
            yield self
        finally:
            for s, handler in old.items():
                signal.signal(s, handler)


def _fail(msg: str, code: int) -> int:
    print(f"ascend-workbench: {msg}", file=sys.stderr)
    return code


def _guard(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except BAD_INPUT as exc:
            return _fail(str(exc), 2)
        except (TransportError, OSError) as exc:
            return _fail(str(exc), 1)
        except (Cancelled, KeyboardInterrupt):
            return _fail("cancelled", 1)

    return run


def _print(data: Any, as_json: bool, text: str) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False) if as_json else text)


# --- host -------------------------------------------------------------------------------------


def _host_args(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = sub.add_parser("add", help="add (or with --replace, redefine) a CANN machine")
    p.add_argument("name")
    p.add_argument("--hostname", required=True, help="host name or address ('local': this machine, no SSH)")
    p.add_argument("--port", type=int, default=22)
    p.add_argument("--user", default="")
    p.add_argument("--key", default="", help="private key file (its passphrase is asked, never stored)")
    p.add_argument("--auth", choices=("auto", "agent", "key", "password"), help="default: key with --key, else auto")
    p.add_argument("--proxy-jump", default="", help="a host name from this list, or [user@]host[:port]")
    p.add_argument(
        "--toolkit",
        default="",
        help="CANN toolkit on that host: the install root (/usr/local/Ascend), its ascend-toolkit/, "
        "ascend-toolkit/latest or a versioned folder; checked there and stored as found (default: detect)",
    )
    p.add_argument("--replace", action="store_true", help="replace a host of the same name")
    p.add_argument(
        "--accept-new-host-key",
        action="store_true",
        help="connect now and remember the host's key if it is not known yet (fingerprint printed)",
    )
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("list", help="list the CANN machines")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("remove", help="remove a CANN machine")
    p.add_argument("name")
    p = sub.add_parser("check", help="connect; report the toolkit, its version, tools and NPUs")
    p.add_argument("name")
    p.add_argument("--accept-new-host-key", action="store_true")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("import", help="import hosts from an ssh config file (default ~/.ssh/config)")
    p.add_argument("--config", default=None)
    p.add_argument("--json", action="store_true")


def _toolkit_on_host(tr: Transport, host: Host, given: str) -> str:
    """The toolkit ``--toolkit`` names on the host, as detection resolves it: the install root
    (/usr/local/Ascend), ``ascend-toolkit/``, ``ascend-toolkit/latest`` or a versioned folder give
    the toolkit root found there; a ``set_env.sh`` is kept as given. Raises ValueError (one line
    saying what was looked for) when there is none."""
    from workbench.core.services.toolkit import LOOKED_FOR, ToolkitNotFound, detect_toolkit

    path = given
    if path == "~" or path.startswith("~/"):
        path = tr.home().rstrip("/") + path[1:]
    elif not path.startswith("/"):
        path = tr.home().rstrip("/") + "/" + path
    try:
        info = detect_toolkit(tr, path)
    except ToolkitNotFound as exc:
        raise ValueError(
            f"--toolkit {given}: no CANN toolkit there on {host.name}: looked for {LOOKED_FOR} in "
            f"{', '.join(exc.looked)}; expected the install root (e.g. /usr/local/Ascend), its "
            "ascend-toolkit/ folder, ascend-toolkit/latest or a versioned folder"
        ) from None
    return path if path.endswith(".sh") else info.root


def _host_add(args: argparse.Namespace, store: HostStore) -> int:
    key = absolute_key_path(args.key)
    if args.key and not Path(key).is_file():
        raise FileNotFoundError(f"--key {args.key}: no such key file ({key})")
    host = Host(
        name=args.name,
        hostname=args.hostname,
        port=args.port,
        user=args.user,
        key_file=key,
        auth=args.auth or ("key" if args.key else "auto"),
        proxy_jump=args.proxy_jump,
        toolkit=args.toolkit,
    ).validate()
    if not args.replace and any(h.name == host.name for h in store.load()):
        raise HostError(f"a host named {host.name!r} already exists in {store.path}")
    unchecked: TransportError | None = None
    if args.accept_new_host_key or args.toolkit:
        tr = open_transport(host, accept_new=args.accept_new_host_key)
        try:
            tr.run(["true"]).check()
            if args.toolkit:
                host.toolkit = _toolkit_on_host(tr, host, args.toolkit)
        except TransportError as exc:
            unchecked = exc
        finally:
            tr.close()
    store.add(host, replace=args.replace)
    if unchecked is not None and args.accept_new_host_key:
        return _fail(f"host {host.name!r} was saved, but connecting failed: {unchecked}", 1)
    if unchecked is not None:
        print(
            f"ascend-workbench: host {host.name!r} was saved; --toolkit {args.toolkit} was not checked "
            f"on it (not reachable: {unchecked})",
            file=sys.stderr,
        )
    _print({"added": host.to_dict()}, args.json, f"added {host.name} ({host.label})")
    return 0


def _toolkit_column(h: Host) -> str:
    if h.toolkit:
        return h.toolkit
    return f"{h.detected_toolkit} (detected)" if h.detected_toolkit else "-"


@_guard
def _host(args: argparse.Namespace) -> int:
    store = HostStore()
    if args.action == "add":
        return _host_add(args, store)
    if args.action == "list":
        hosts = store.load()
        _print(
            [h.to_dict() for h in hosts],
            args.json,
            "\n".join(f"{h.name}\t{h.label}\t{_toolkit_column(h)}" for h in hosts) or "no hosts",
        )
        return 0
    if args.action == "remove":
        store.remove(args.name)
        print(f"removed {args.name}")
        return 0
    if args.action == "import":
        from workbench.core.services.sshconfig import import_ssh_config

        added = []
        existing = {h.name for h in store.load()}
        for host in import_ssh_config(args.config):
            if host.name not in existing:
                store.add(host)
                added.append(host.name)
        _print({"imported": added}, args.json, "imported: " + (", ".join(added) or "nothing new"))
        return 0
    # check
    from workbench.core.services.toolkit import check_host, remember_detected

    host = resolve_host(args.name, store)
    tr = open_transport(host, accept_new=args.accept_new_host_key)
    try:
        try:
            tr.run(["true"]).check()
        except TransportError as exc:
            result = {
                "reachable": False,
                "toolkit_path": None,
                "cann_version": None,
                "tools": {"atc": False, "msprof": False, "msaccucmp": False, "npu_smi": False},
                "devices": [],
                "errors": [str(exc)],
            }
            _print(result, args.json, f"{host.name}: not reachable: {exc}")
            return 1
        result = run_inline(check_host, tr, host.toolkit or None)
        remember_detected(host, result.get("toolkit_path") or "", store)
    finally:
        tr.close()
    devices = ", ".join(f"{d.get('id')}:{d.get('chip')}:{d.get('health')}" for d in result.get("devices", []))
    _print(
        result,
        args.json,
        f"{host.name}: reachable; toolkit {result.get('toolkit_path') or 'not found'} "
        f"(CANN {result.get('cann_version') or '?'}); devices: {devices or 'none'}",
    )
    return 0


# --- remote -----------------------------------------------------------------------------------


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cwd", default=None)
    p.add_argument("--env", action="append", default=[], metavar="K=V")
    p.add_argument("--devices", default=None, help="ASCEND_RT_VISIBLE_DEVICES, e.g. 0,1")
    p.add_argument(
        "--toolkit",
        default=None,
        help="source this toolkit's set_env.sh (default: the host's setting, else the toolkit detected there)",
    )
    p.add_argument("--timeout", type=float, default=None, help="seconds; the process group is killed after")
    p.add_argument("--accept-new-host-key", action="store_true")


def _split_command(args: argparse.Namespace) -> list[str]:
    """argparse's REMAINDER keeps options given after NAME (``run h --env A=1 -- cmd``): parse
    those up to the first ``--``; everything after it is the literal command."""
    command = list(args.command)
    if command and command[0].startswith("-"):
        cut = command.index("--") if "--" in command else len(command)
        opts = argparse.ArgumentParser(prog="ascend-workbench remote run", add_help=False)
        _run_options(opts)
        for key, value in vars(opts.parse_args(command[:cut])).items():
            if value not in (None, False, []):
                setattr(args, key, getattr(args, key) + value if key == "env" else value)
        command = command[cut + 1 :]
    return command


def _remote_args(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = sub.add_parser("run", help="run a command on a host; output streams; exits with its status")
    p.add_argument("name")
    _run_options(p)
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- CMD [ARG...] (after --, every word is literal)")
    for verb, helptext, a, b in (
        ("put", "upload a file or folder", "local", "remote"),
        ("get", "download a file or folder", "remote", "local"),
    ):
        p = sub.add_parser(verb, help=helptext)
        p.add_argument("name")
        p.add_argument(a)
        p.add_argument(b)
        p.add_argument("--accept-new-host-key", action="store_true")
        p.add_argument("--json", action="store_true")


@_guard
def _remote(args: argparse.Namespace) -> int:
    from workbench.core.services.runner import parse_devices, parse_env

    host = resolve_host(args.name)
    if args.action == "run":
        argv = _split_command(args)
        if not argv:
            raise ValueError("remote run: expected a command after --")
        env = parse_env(args.env)
        devices = parse_devices(args.devices) if args.devices is not None else None
    elif args.action == "put" and not Path(args.local).exists():
        raise FileNotFoundError(f"{args.local}: no such file or folder to upload")
    tr = open_transport(host, accept_new=args.accept_new_host_key)
    cancel = CancelToken()
    signals = SignalCancel(cancel)
    what = f"{host.name}: " + (describe(argv) if args.action == "run" else f"remote {args.action}")
    try:
        with signals.active():
            if args.action == "run":
                missing: list[str] = []
                toolkit = args.toolkit or _host_toolkit(tr, host, cancel, missing)
                result = tr.run(
                    argv,
                    cwd=args.cwd,
                    env=env,
                    toolkit=toolkit,
                    devices=devices,
                    timeout=args.timeout,
                    progress=_StreamProgress(),
                    cancel=cancel,
                )
                if result.exit_status == 127 and missing:  # "command not found": say why
                    print(f"ascend-workbench: set_env.sh was not sourced: {missing[0]}", file=sys.stderr)
                return result.exit_status
            if args.action == "put":
                n = tr.put(args.local, args.remote, cancel=cancel)
                _print({"bytes": n, "local": args.local, "remote": args.remote}, args.json, f"sent {n} bytes")
            else:
                n = tr.get(args.remote, args.local, cancel=cancel)
                _print({"bytes": n, "remote": args.remote, "local": args.local}, args.json, f"received {n} bytes")
            return 0
    except (Cancelled, KeyboardInterrupt) as exc:
        if signals.signum is None:
            raise
        if isinstance(exc, KeyboardInterrupt):  # a second signal: we stopped waiting for the host
            stopped = "stopped waiting for the host; the command may still be running there"
        elif args.action == "run":
            stopped = "its process group on the host was killed"
        else:
            stopped = "no partial file was kept"
        return _fail(f"{what}: cancelled by {signals.name}; {stopped}", signals.exit_code)
    except RemoteCommandFailed as exc:
        return _fail(str(exc), 1)
    finally:
        tr.close()


def _host_toolkit(tr: Transport, host: Host, cancel: CancelToken, missing: list[str]) -> str | None:
    """The toolkit to source for ``host`` (its setting, else the detected one); None when the host
    has none (the command then runs without set_env.sh; why is appended to ``missing``)."""
    from workbench.core.services.toolkit import ToolkitNotFound, toolkit_for_host

    try:
        return toolkit_for_host(tr, host, cancel=cancel)
    except ToolkitNotFound as exc:
        missing.append(str(exc))
        return None


# --- deploy -----------------------------------------------------------------------------------


def _deploy_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="the CANN machine")
    parser.add_argument("--project", required=True, help="the project folder")
    parser.add_argument("--dry-run", action="store_true", help="show the plan, send nothing")
    parser.add_argument(
        "--overwrite-conflicts",
        action="store_true",
        help="also send the files changed on the host since the last deploy (conflicts), replacing the "
        "host's copy (default: they are listed and left as they are)",
    )
    parser.add_argument("--accept-new-host-key", action="store_true")
    parser.add_argument("--json", action="store_true")


@_guard
def _deploy(args: argparse.Namespace) -> int:
    from workbench.core.project import ProjectError, open_project
    from workbench.core.services.deploy import (
        CHANGED_ON_HOST,
        CONFLICT,
        NEW_FOLDER,
        SyncFailed,
        compute_plan,
        project_mappings,
        sync,
    )

    try:
        project = open_project(args.project)
    except ProjectError as exc:
        raise ValueError(str(exc)) from None
    mappings = project_mappings(project)
    host = resolve_host(args.name)
    tr = open_transport(host, accept_new=args.accept_new_host_key)
    cancel = CancelToken()
    signals = SignalCancel(cancel)
    failed: SyncFailed | None = None
    try:
        with signals.active():
            plan = run_inline(compute_plan, tr, mappings, project.root, cancel=cancel)
            out: dict[str, Any] = {"host": host.name, "dry_run": args.dry_run, "plan": plan.to_dict()}
            if not args.dry_run:
                overwrite = plan.held_back if args.overwrite_conflicts else []
                try:
                    out["result"] = run_inline(sync, tr, plan, overwrite=overwrite, cancel=cancel).to_dict()
                except SyncFailed as exc:
                    failed = exc
                    out["result"] = exc.result.to_dict()
    except (Cancelled, KeyboardInterrupt):
        if signals.signum is None:
            raise
        return _fail(f"deploy to {host.name}: cancelled by {signals.name}", signals.exit_code)
    finally:
        tr.close()
    counts = out["plan"]["counts"]
    folders = counts[NEW_FOLDER]
    if args.dry_run:
        text = (
            f"plan: {counts['new']} new, {counts['changed']} changed, {counts['unchanged']} unchanged, "
            f"{folders} folder{'' if folders == 1 else 's'} to create, {counts['remote-only']} remote-only (kept), "
            f"{counts['skipped-link']} symbolic link{'' if counts['skipped-link'] == 1 else 's'} skipped "
            "(never followed)"
        )
        n = counts[CONFLICT] + counts[CHANGED_ON_HOST]
        if n:
            text += f", {n} conflict{'' if n == 1 else 's'} (changed on the host since the last deploy; " + (
                "sent: --overwrite-conflicts)"
                if args.overwrite_conflicts
                else "not sent without --overwrite-conflicts)"
            )
        text += "".join(f"\n  {i.action}: {i.rel}" for i in plan.held_back)
    else:
        text = f"deployed to {host.name}: {out['result']['summary']}"
        not_sent = out["result"]["conflicts_not_sent"]
        text += "".join(f"\n  not sent, changed on the host: {rel}" for rel in not_sent)
        if not_sent:
            text += "\n(run again with --overwrite-conflicts to replace the host's copies)"
    if failed is not None:
        if args.json:
            _print(out, True, "")
        return _fail(str(failed), 1)
    _print(out, args.json, text)
    return 0


register_verb(
    "host",
    "CANN machines: add, list, remove, check (toolkit, version, NPUs), import from ~/.ssh/config",
    _host_args,
    _host,
)
register_verb("remote", "run a command on a CANN machine, or copy files to / from it", _remote_args, _remote)
register_verb(
    "deploy",
    "sync a project to a CANN machine (new and changed files; remote-only files and host edits are kept)",
    _deploy_args,
    _deploy,
)
