"""Which models an application run through the simulated toolkit uses (the simulated runtime's view).

A real application loads its model itself (``aclmdlLoadFromFile(path)``): from a path among its
arguments (``python3 infer.py --model ./m.om``, ``./main ../model/m.om``) or one written in its
source (``MODEL_PATH = "./model/resnet50.om"`` in an acl Python sample, a ``const char*`` compiled
into a C++ sample's binary). A Python app's call goes to the simulated pyACL runtime (:mod:`pyacl`),
which knows the model; a C++ app's call the simulator cannot watch, so :func:`model_files` finds the
same paths: first the arguments (a whole argument or the value of ``--name=value``), then the
``.om`` / ``.onnx`` path literals in the application's own files (its script or executable). A
relative path is resolved like the runtime does, against the working directory, else against the
folder of the file naming it. Only existing files count; the order is the order found.

For an application that did not use the simulated pyACL runtime, both the runtime's dump after it
(:func:`dumpwriter.dump_after_app`) and the simulated ``msprof`` (which ops it profiles) use this, so
they agree on the model an application runs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

MODEL_SUFFIXES = (".om", ".onnx")
SCRIPT_SUFFIXES = (".py", ".sh", ".bash")
SCRIPT_LIMIT = 32 * 1024 * 1024  # bytes of an application file searched for paths
# Interpreters and launchers: the application is the script they run, not their own binary.
_RUNNERS = re.compile(r"^(python[\d.]*|bash|sh|dash|zsh|env|nohup|taskset|numactl|time|stdbuf)$")


def _literal(suffixes: Sequence[str]) -> re.Pattern[bytes]:
    ends = b"|".join(re.escape(s.encode()) for s in suffixes)
    return re.compile(rb"[A-Za-z0-9_./~+@-]*[A-Za-z0-9_~+@-](?:" + ends + rb")(?![A-Za-z0-9_])")


def _existing(text: str, bases: Sequence[Path]) -> Path | None:
    path = Path(os.path.expanduser(text))
    candidates = [path] if path.is_absolute() else [base / path for base in bases]
    return next((Path(os.path.abspath(p)) for p in candidates if p.is_file()), None)


def _app_files(app: Sequence[str], cwd: Path) -> list[Path]:
    """The application's own files: its executable (unless an interpreter) and the scripts among its arguments."""
    files = []
    for k, arg in enumerate(app):
        if k == 0 and ("/" not in arg or _RUNNERS.match(Path(arg).name)):
            continue
        if k > 0 and not arg.endswith(SCRIPT_SUFFIXES):
            continue
        path = Path(arg) if Path(arg).is_absolute() else cwd / arg
        if path.is_file():
            files.append(path)
    return files


def argument_paths(
    app: Sequence[str], cwd: str | os.PathLike[str] | None = None, suffixes: Sequence[str] = MODEL_SUFFIXES
) -> list[Path]:
    """Existing files ending in ``suffixes`` named by the app's arguments (whole, or ``--name=value``)."""
    base = Path(cwd or os.getcwd())
    found: list[Path] = []
    for arg in app[1:]:
        for text in [arg, arg.partition("=")[2]] if "=" in arg else [arg]:
            path = _existing(text, [base]) if text.endswith(tuple(suffixes)) else None
            if path is not None and path not in found:
                found.append(path)
    return found


def script_paths(
    app: Sequence[str], cwd: str | os.PathLike[str] | None = None, suffixes: Sequence[str] = MODEL_SUFFIXES
) -> list[Path]:
    """Existing files ending in ``suffixes`` whose paths are written in the app's script or executable."""
    base = Path(cwd or os.getcwd())
    pattern = _literal(suffixes)
    found: list[Path] = []
    for f in _app_files(app, base):
        try:
            with open(f, "rb") as fh:
                data = fh.read(SCRIPT_LIMIT)
        except OSError:
            continue
        for m in pattern.finditer(data):
            path = _existing(m.group().decode("utf-8", "replace"), [base, f.parent])
            if path is not None and path not in found:
                found.append(path)
    return found


def model_files(
    app: Sequence[str], cwd: str | os.PathLike[str] | None = None, suffixes: Sequence[str] = MODEL_SUFFIXES
) -> list[Path]:
    """The existing model files (``.om`` / ``.onnx``, or ``suffixes``) ``app`` uses, in the order found:
    :func:`argument_paths` first, then :func:`script_paths`."""
    found = argument_paths(app, cwd, suffixes)
    seen = {p.resolve() for p in found}
    for path in script_paths(app, cwd, suffixes):
        if path.resolve() not in seen:
            seen.add(path.resolve())
            found.append(path)
    return found
