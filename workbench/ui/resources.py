"""Locate shipped resources (package ``workbench.resources``): icons, translations, samples."""

from __future__ import annotations

import importlib.resources as ir
from pathlib import Path


def resource_path(*parts: str) -> Path:
    """A real filesystem path to a shipped resource (wheels, editable installs and bundles
    all unpack resources to disk, so ``Path`` is enough)."""
    return Path(str(ir.files("workbench.resources").joinpath(*parts)))
