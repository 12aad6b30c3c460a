"""Find the CANN toolkit on a host, its version, its ``set_env.sh``, its tools and its NPUs.

Works through any :class:`~workbench.core.services.transport.Transport` (local or SSH), so the
same code checks the demo host and a remote Ascend server. Where CANN lives (docs/cann-formats.md §8.2):

* ≤8.3: ``/usr/local/Ascend/ascend-toolkit/latest`` (a symlink to ``…/<version>``), environment
  script ``/usr/local/Ascend/ascend-toolkit/set_env.sh``, version in
  ``latest/<arch>-linux/ascend_toolkit_install.info`` (``version=7.0.0`` key=value lines; older
  files also carry ``runtime_installed_version=[1.84.15.1.310:6.0.1]``-style lines);
* 8.5+: ``/usr/local/Ascend/cann`` with ``cann/set_env.sh`` and ``cann/<arch>-linux/…info``;
* non-root installs: the same under ``$HOME/Ascend``; or a path the user sets (the toolkit root,
  its parent, the ``Ascend`` folder, or the ``set_env.sh`` itself).

Tools always run through **bash** with ``source <set_env.sh>`` (the transport does it when given
``toolkit=info.set_env``); never ``sh``, where dash has no ``source``. :func:`toolkit_for_host` is
the toolkit a host's commands source: the user's setting, else the one found before (cached in
``hosts.json`` as ``detected_toolkit``), else detected now and cached.
"""

from __future__ import annotations

import logging
import posixpath
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from workbench.core.services.hosts import Host, HostError, HostStore
from workbench.core.services.npusmi import NpuSmiInfo, NpuSmiParseError, parse_npu_smi_board, parse_npu_smi_info
from workbench.core.services.transport import RunResult, Transport, TransportError
from workbench.core.tasks import CancelToken, NullProgress, Progress

DEFAULT_ROOTS = ("/usr/local/Ascend/ascend-toolkit/latest", "/usr/local/Ascend/cann")
HOME_ROOTS = ("Ascend/ascend-toolkit/latest", "Ascend/cann")
INFO_NAME = "ascend_toolkit_install.info"
SIM_MARKER = "simulated_toolkit.json"  # written only by workbench.simtoolkit
# Where each tool sits below the toolkit root, most usual first.
TOOL_PATHS = {
    "atc": ("bin/atc", "compiler/bin/atc", "atc/bin/atc"),
    "msprof": ("tools/profiler/bin/msprof", "bin/msprof"),
    "msaccucmp": ("tools/operator_cmp/compare/msaccucmp.py",),
    # the migration tools (docs/cann-formats.md §12): msFmkTransplt in the toolkit, convert_tf2npu in the TF
    # Adapter's site-packages beside it (<Ascend>/tfplugin/latest; from .../ascend-toolkit/latest or .../cann)
    "msfmktransplt": ("tools/ms_fmk_transplt/pytorch_gpu2npu.sh",),
    "convert_tf2npu_tf1": tuple(
        f"{up}tfplugin/latest/python/site-packages/npu_bridge/convert_tf2npu/main.py" for up in ("../../", "../")
    ),
    "convert_tf2npu_tf2": tuple(
        f"{up}tfplugin/latest/python/site-packages/npu_device/convert_tf2npu/main.py" for up in ("../../", "../")
    ),
}
NPU_SMI_FALLBACKS = ("/usr/local/sbin/npu-smi", "/usr/local/bin/npu-smi", "/usr/local/Ascend/driver/tools/npu-smi")
_VERSION_RE = re.compile(r"^\d+\.\d+\.(?:\d+|RC\d+|rc\d+|alpha\d+|beta\d+|T\d+)(?:\.\w+)?$")
_COMPONENT_RE = re.compile(r"^\[[^:\]]*:(?P<ver>[^\]]+)\]$")
LOOKED_FOR = f"a set_env.sh beside bin/atc or <arch>-linux/{INFO_NAME}"
log = logging.getLogger(__name__)


class ToolkitNotFound(TransportError):
    """No CANN toolkit at the places looked at; the message lists them (so does ``looked``)."""

    def __init__(self, message: str, looked: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.looked = tuple(looked)


@dataclass(frozen=True)
class ToolkitInfo:
    root: str  # e.g. /usr/local/Ascend/ascend-toolkit/latest
    set_env: str  # the script every run sources
    version: str | None  # "8.0.RC1", None when no version file says it
    arch: str | None  # "x86_64" / "aarch64"
    tools: dict[str, str | None]  # TOOL_PATHS' tools and npu_smi -> path or None
    simulated: bool  # installed by workbench.simtoolkit
    install_info: dict[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    def has(self, tool: str) -> bool:
        return bool(self.tools.get(tool))

    def to_json(self) -> dict:
        return {
            "toolkit_path": self.root,
            "set_env": self.set_env,
            "cann_version": self.version,
            "arch": self.arch,
            "simulated": self.simulated,
            "tools": {k: bool(v) for k, v in self.tools.items()},
            "tool_paths": dict(self.tools),
            "warnings": list(self.warnings),
        }


def parse_install_info(text: str, source: str) -> dict[str, str]:
    """``key=value`` lines of an ``ascend_toolkit_install.info``; blank and ``#`` lines skipped."""
    out: dict[str, str] = {}
    for no, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{source}: line {no}: expected 'key=value', got {line!r}")
        out[key.strip()] = value.strip()
    return out


def version_from_info(info: dict[str, str]) -> str | None:
    """``version=`` (any case); else the version inside ``*_installed_version=[component:version]``."""
    for key, value in info.items():
        if key.lower() == "version" and value:
            return value
    for key, value in info.items():
        if key.endswith("_installed_version"):
            m = _COMPONENT_RE.match(value)
            if m:
                return m.group("ver")
    return None


def bash_script(script: str) -> list[str]:
    """argv running a shell snippet under bash (use with ``transport.run(..., toolkit=...)``)."""
    return ["bash", "-c", script]


class _Finder:
    """One detection pass over one transport (keeps the list of places looked at)."""

    def __init__(self, transport: Transport, cancel: CancelToken) -> None:
        self.t = transport
        self.cancel = cancel
        self.looked: list[str] = []

    def exists(self, path: str) -> bool:
        self.cancel.raise_if_cancelled()
        try:
            return self.t.exists(path)
        except OSError:
            return False

    def set_env_for(self, root: str) -> str | None:
        for cand in (posixpath.join(root, "set_env.sh"), posixpath.join(posixpath.dirname(root), "set_env.sh")):
            if self.exists(cand):
                return cand
        return None

    def arch_dirs(self, root: str) -> list[str]:
        try:
            return [n for n in self.t.listdir(root) if n.endswith("-linux")]
        except OSError:
            return []

    def looks_like_root(self, root: str) -> bool:
        if not self.t.is_dir(root):
            return False
        return bool(self.arch_dirs(root)) or any(self.exists(posixpath.join(root, p)) for p in TOOL_PATHS["atc"])

    def roots_for(self, path: str) -> list[tuple[str, str | None]]:
        """(root, forced set_env) candidates a user-given path may mean, most specific first."""
        path = path.rstrip("/") or "/"
        if path.endswith(".sh"):
            base = posixpath.dirname(path)
            return [(posixpath.join(base, "latest"), path), (base, path)]
        return [
            (posixpath.join(path, "latest"), None),
            (path, None),
            (posixpath.join(path, "ascend-toolkit", "latest"), None),
            (posixpath.join(path, "cann"), None),
        ]

    def find(self, paths: Sequence[str]) -> tuple[str, str]:
        for path in paths:
            for root, forced in self.roots_for(path):
                self.looked.append(root)
                if not self.exists(root) or not self.looks_like_root(root):
                    continue
                set_env = forced or self.set_env_for(root)
                if set_env:
                    return root, set_env
        looked = list(dict.fromkeys(self.looked))
        raise ToolkitNotFound(
            f"{self.t.label}: no CANN toolkit found. Looked for a set_env.sh and a toolkit "
            f"(bin/atc or <arch>-linux/{INFO_NAME}) at: {', '.join(looked)}. "
            "Install the CANN toolkit or set its path in the host settings.",
            looked,
        )


def detect_toolkit(
    transport: Transport,
    user_path: str | None = None,
    *,
    search: Sequence[str] | None = None,
    cancel: CancelToken | None = None,
) -> ToolkitInfo:
    """Find the toolkit: at ``user_path`` only when given, else the standard places (``search``
    overrides them, for tests), then ``$HOME/Ascend``. Raises ToolkitNotFound listing the places."""
    cancel = cancel or CancelToken()
    f = _Finder(transport, cancel)
    if user_path:
        paths: list[str] = [user_path]
    else:
        paths = list(search if search is not None else DEFAULT_ROOTS)
        if search is None:
            try:
                home = transport.home()
                paths += [posixpath.join(home, p) for p in HOME_ROOTS]
            except (OSError, TransportError):
                pass
    root, set_env = f.find(paths)
    warnings: list[str] = []
    info: dict[str, str] = {}
    arch = None
    for name in f.arch_dirs(root):
        info_path = posixpath.join(root, name, INFO_NAME)
        if f.exists(info_path):
            try:
                info = parse_install_info(transport.read_text(info_path), info_path)
            except (OSError, ValueError, UnicodeDecodeError) as exc:
                warnings.append(f"{info_path}: unreadable ({exc})")
            arch = info.get("arch") or name[: -len("-linux")]
            break
    version = version_from_info(info) if info else None
    if version is None:
        version = _version_from_path(transport, root, cancel)
        if version is None:
            warnings.append(f"{root}: no {INFO_NAME} states the CANN version")
    tools: dict[str, str | None] = {}
    for tool, rels in TOOL_PATHS.items():
        paths = [posixpath.normpath(posixpath.join(root, r)) for r in rels]
        tools[tool] = next((p for p in paths if f.exists(p)), None)
    tools["npu_smi"] = _find_npu_smi(transport, f, set_env, cancel)
    simulated = f.exists(posixpath.join(root, SIM_MARKER))
    return ToolkitInfo(root, set_env, version, arch, tools, simulated, info, tuple(warnings))


def remember_detected(host: Host, root: str, store: HostStore | None = None) -> None:
    """Cache a detection result in the stored ``host`` ("" forgets it); a host that is not stored
    (the demo host) or a hosts file that cannot be written is left as it is."""
    if host.toolkit:
        return  # the user's setting wins; nothing to cache
    try:
        (store or HostStore()).remember_detected_toolkit(host, root)
    except (HostError, OSError) as exc:
        log.warning("could not cache the toolkit of %s: %s", host.name, exc)


def toolkit_for_host(
    transport: Transport,
    host: Host,
    *,
    store: HostStore | None = None,
    cancel: CancelToken | None = None,
) -> str:
    """The toolkit path commands on ``host`` source (give it to ``transport.run(toolkit=...)``): the
    user-set ``host.toolkit``; else the root detected before (``host.detected_toolkit``) while it is
    still on the host; else the standard places are searched now (the same detection as ``host
    check``) and what was found is cached in the hosts file. Raises ToolkitNotFound."""
    if host.toolkit:
        return host.toolkit
    cancel = cancel or CancelToken()
    if host.detected_toolkit:
        cancel.raise_if_cancelled()
        try:
            if transport.exists(host.detected_toolkit):
                return host.detected_toolkit
        except OSError:
            pass
    try:
        info = detect_toolkit(transport, cancel=cancel)
    except ToolkitNotFound:
        if host.detected_toolkit:
            remember_detected(host, "", store)  # moved or removed: forget it
        raise
    remember_detected(host, info.root, store)
    return info.root


def _version_from_path(transport: Transport, root: str, cancel: CancelToken) -> str | None:
    """``latest`` usually links to ``…/<version>``; ``cann-8.5.0`` names it too."""
    try:
        result = transport.run(["readlink", "-f", root], timeout=30, cancel=cancel)
    except TransportError:
        return None
    name = posixpath.basename(result.stdout.strip()) if result.ok else ""
    name = name[len("cann-") :] if name.startswith("cann-") else name
    return name if _VERSION_RE.match(name) else None


def _find_npu_smi(transport: Transport, f: _Finder, set_env: str, cancel: CancelToken) -> str | None:
    try:
        result = transport.run(bash_script("command -v npu-smi"), toolkit=set_env, timeout=30, cancel=cancel)
        path = result.stdout.strip().splitlines()[-1] if result.ok and result.stdout.strip() else ""
        if path:
            return path
    except TransportError:
        pass
    return next((p for p in NPU_SMI_FALLBACKS if f.exists(p)), None)


def run_tool(transport: Transport, toolkit: ToolkitInfo, argv: Sequence[str], **kwargs) -> RunResult:
    """Run a toolkit command with the toolkit environment sourced (bash, never sh)."""
    return transport.run(argv, toolkit=toolkit.set_env, **kwargs)


def read_npu_smi(
    transport: Transport,
    toolkit: ToolkitInfo,
    *,
    timeout: float = 60,
    cancel: CancelToken | None = None,
    resolve_socs: bool = True,
) -> NpuSmiInfo:
    """Run ``npu-smi info`` on the host and parse it. Raises TransportError when it fails.

    With ``resolve_socs`` every device whose Name does not tell its ``--soc_version`` (Atlas A3)
    is asked with ``npu-smi info -t board -i <npu> -c <chip>`` (:func:`resolve_board_socs`)."""
    cmd = toolkit.tools.get("npu_smi") or "npu-smi"
    result = run_tool(transport, toolkit, [cmd, "info"], timeout=timeout, cancel=cancel)
    if not result.ok:
        tail = " / ".join(result.stderr.strip().splitlines()[-3:])
        raise TransportError(
            f"{transport.label}: 'npu-smi info' exited with status {result.exit_status}" + (f": {tail}" if tail else "")
        )
    info = parse_npu_smi_info(result.stdout, f"{transport.label}: npu-smi info")
    if resolve_socs and any(d.soc_ambiguous for d in info.devices):
        info = resolve_board_socs(transport, toolkit, info, timeout=timeout, cancel=cancel)
    return info


_BOARD_MARK = "@@wb-board"


def resolve_board_socs(
    transport: Transport,
    toolkit: ToolkitInfo,
    info: NpuSmiInfo,
    *,
    timeout: float = 60,
    cancel: CancelToken | None = None,
) -> NpuSmiInfo:
    """``info`` with each ambiguous device's Chip Name / NPU Name from the board query (one bash run
    for all of them). A chip whose query fails or does not say stays ambiguous; ``warnings`` says why."""
    cmd = shlex.quote(toolkit.tools.get("npu_smi") or "npu-smi")
    wanted = [(d.npu_id, d.chip_id) for d in info.devices if d.soc_ambiguous]
    script = "".join(
        f"echo '{_BOARD_MARK} {n} {c}'; {cmd} info -t board -i {n} -c {c} 2>&1; echo \"{_BOARD_MARK} rc $?\"; "
        for n, c in wanted
    )
    warnings = list(info.warnings)
    try:
        result = run_tool(transport, toolkit, bash_script(script), timeout=timeout, cancel=cancel)
    except TransportError as exc:
        warnings.append(f"{transport.label}: npu-smi info -t board: {exc}")
        return replace(info, warnings=tuple(warnings))
    answers: dict[tuple[int, int], tuple[str, list[str]]] = {}
    key: tuple[int, int] | None = None
    lines: list[str] = []
    for line in result.stdout.splitlines():
        if line.startswith(_BOARD_MARK + " rc ") and key is not None:
            answers[key] = (line.split()[-1], lines)
            key, lines = None, []
        elif line.startswith(_BOARD_MARK + " "):
            parts = line.split()
            key, lines = (int(parts[1]), int(parts[2])), []
        elif key is not None:
            lines.append(line)
    devices = []
    for d in info.devices:
        if not d.soc_ambiguous:
            devices.append(d)
            continue
        what = f"{transport.label}: npu-smi info -t board -i {d.npu_id} -c {d.chip_id}"
        status, out = answers.get((d.npu_id, d.chip_id), ("?", []))
        if status != "0":
            tail = " / ".join(ln.strip() for ln in out[-2:] if ln.strip())
            warnings.append(f"{what}: exited with status {status}" + (f": {tail}" if tail else ""))
            devices.append(d)
            continue
        try:
            board = parse_npu_smi_board("\n".join(out), what)
        except NpuSmiParseError as exc:
            warnings.append(str(exc))
            devices.append(d)
            continue
        if (board.npu_id, board.chip_id) != (d.npu_id, d.chip_id) or not board.npu_name:
            warnings.append(
                f"{what}: expected the NPU Name of NPU {d.npu_id} chip {d.chip_id}, got NPU {board.npu_id} "
                f"chip {board.chip_id} with NPU Name {board.npu_name or '(none)'}"
            )
            devices.append(d)
            continue
        devices.append(d.with_board(board))
    return replace(info, devices=tuple(devices), warnings=tuple(warnings))


def check_host(
    transport: Transport,
    user_path: str | None = None,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> dict:
    """Work function behind ``host check``: the toolkit and its devices as a JSON-ready dict
    ``{reachable, toolkit_path, cann_version, simulated, tools: {atc, msprof, msaccucmp, npu_smi},
    devices: [{id, chip, soc_version, health, ...}]}``; ``errors`` lists what could not be read."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    progress.status(f"Looking for the CANN toolkit on {transport.label}")
    out: dict = {
        "reachable": True,
        "toolkit_path": None,
        "cann_version": None,
        "simulated": False,
        "tools": {"atc": False, "msprof": False, "msaccucmp": False, "npu_smi": False},
        "devices": [],
        "errors": [],
    }
    try:
        info = detect_toolkit(transport, user_path, cancel=cancel)
    except ToolkitNotFound as exc:
        out["errors"].append(str(exc))
        return out
    out.update(
        {
            "toolkit_path": info.root,
            "set_env": info.set_env,
            "cann_version": info.version,
            "simulated": info.simulated,
            "tools": {k: bool(v) for k, v in info.tools.items()},
        }
    )
    out["errors"].extend(info.warnings)
    progress.fraction(0.5)
    if info.has("npu_smi"):
        progress.status("Reading npu-smi info")
        try:
            smi = read_npu_smi(transport, info, cancel=cancel)
            out["devices"] = smi.to_json()
            out["errors"].extend(smi.warnings)
        except (TransportError, ValueError) as exc:
            out["errors"].append(str(exc))
    progress.fraction(1.0)
    return out
