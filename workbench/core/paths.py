"""Where the workbench keeps its files. Tests point everything at a temp dir through
``ASCEND_WORKBENCH_HOME`` so they never touch the real user's configuration."""

from __future__ import annotations

import os
from pathlib import Path

ENV_HOME = "ASCEND_WORKBENCH_HOME"
APP_NAME = "ascend-workbench"


def _home_override() -> Path | None:
    value = os.environ.get(ENV_HOME)
    return Path(value).expanduser() if value else None


def config_dir() -> Path:
    """Settings and other user configuration (settings.json, known_hosts, hosts)."""
    override = _home_override()
    if override is not None:
        return override / "config"
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP_NAME, appauthor=False))


def state_dir() -> Path:
    """Window geometry and dock layout: kept apart from settings."""
    override = _home_override()
    if override is not None:
        return override / "state"
    from platformdirs import user_state_dir

    return Path(user_state_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """Caches of parsed reports whose source folder is read-only."""
    override = _home_override()
    if override is not None:
        return override / "cache"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """Data the app creates for the user: the demo project and the demo host's simulated toolkit."""
    override = _home_override()
    if override is not None:
        return override / "data"
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False))


def resource_path(*parts: str) -> Path:
    """A real filesystem path to a shipped resource (package ``workbench.resources``: icons,
    translations, samples). Wheels, editable installs and bundles all unpack resources to disk,
    so ``Path`` is enough."""
    import importlib.resources as ir

    return Path(str(ir.files("workbench.resources").joinpath(*parts)))
