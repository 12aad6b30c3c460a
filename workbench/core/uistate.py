"""Window geometry and dock layout, kept apart from settings (``state_dir()/window.json``).

The Qt side stores opaque byte blobs (``saveGeometry``/``saveState``) here as base64. A damaged
file is ignored (and kept aside), so the app always starts.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
from pathlib import Path

from workbench.core import paths
from workbench.core.fsutil import atomic_write_text, backup_aside

STATE_VERSION = 1


def state_path() -> Path:
    return paths.state_dir() / "window.json"


def load_blobs(path: Path | None = None) -> tuple[dict[str, bytes], str | None]:
    """Return the saved blobs and, if the file was unusable, a message saying why."""
    path = path or state_path()
    if not path.exists():
        return {}, None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict) or raw.get("version") != STATE_VERSION:
            raise ValueError(f"expected an object with version {STATE_VERSION}")
        blobs = {k: base64.b64decode(v, validate=True) for k, v in raw.get("blobs", {}).items()}
    except (OSError, UnicodeDecodeError, ValueError, binascii.Error, AttributeError, TypeError) as exc:
        with contextlib.suppress(OSError):
            backup_aside(path)
        return {}, f"{path}: window layout could not be restored ({exc}); using the default layout"
    return blobs, None


def save_blobs(blobs: dict[str, bytes], path: Path | None = None) -> None:
    path = path or state_path()
    data = {"version": STATE_VERSION, "blobs": {k: base64.b64encode(v).decode("ascii") for k, v in blobs.items()}}
    atomic_write_text(path, json.dumps(data, indent=1) + "\n")
