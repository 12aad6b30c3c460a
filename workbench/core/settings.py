"""Typed, versioned user settings in ``config_dir()/settings.json``.

The schema is a dataclass; every field is checked on load, and a bad value is reported with
the file, the field and what was expected, then replaced by its default. A file that is not
JSON at all is kept aside as ``settings.json.corrupt`` (never deleted) and defaults are used.
Keys this version does not know are preserved on save, so an older build never erases what a
newer one wrote. Window and dock state are *not* settings: see ``workbench.core.uistate``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core import paths
from workbench.core.fsutil import atomic_write_text, backup_aside

SCHEMA_VERSION = 2
LANGUAGES = ("", "en", "zh_CN")  # "" = follow the system locale
THEMES = ("light", "dark")


@dataclass
class Settings:
    schema_version: int = SCHEMA_VERSION
    language: str = ""
    theme: str = "light"
    recent_projects: list[str] = field(default_factory=list)
    recent_reports: list[str] = field(default_factory=list)
    max_recent: int = 10
    last_project: str = ""
    open_demo_when_unconfigured: bool = True
    timeline_color_rule: bool = False  # MindStudio Timeline Color: colour API slices by time share
    timeline_color_a: float = 5.0  # green < a % <= yellow
    timeline_color_b: float = 10.0  # yellow < b % <= red
    extra: dict[str, Any] = field(default_factory=dict)  # unknown keys, kept verbatim

    def add_recent(self, kind: str, path: str) -> None:
        """Put ``path`` first in the recent ``kind`` list ("projects" or "reports"), as an absolute
        path (a relative one would name another place when started from another folder)."""
        path = _absolute(path)
        items: list[str] = getattr(self, f"recent_{kind}")
        if path in items:
            items.remove(path)
        items.insert(0, path)
        del items[self.max_recent :]

    def remove_recent(self, kind: str, path: str) -> None:
        items: list[str] = getattr(self, f"recent_{kind}")
        for candidate in (path, _absolute(path)):
            if candidate in items:
                items.remove(candidate)


def _absolute(path: str) -> str:
    return os.path.abspath(os.path.expanduser(path))


_CHOICES: dict[str, tuple[str, ...]] = {"language": LANGUAGES, "theme": THEMES}


class SettingsError(Exception):
    """A settings problem a user can act on: the message names the file and the field."""


def _migrate_0_to_1(raw: dict[str, Any]) -> dict[str, Any]:
    # Pre-release files kept recent items under "recent" as {"projects": [...], "reports": [...]}.
    recent = raw.pop("recent", None)
    if isinstance(recent, dict):
        raw.setdefault("recent_projects", recent.get("projects", []))
        raw.setdefault("recent_reports", recent.get("reports", []))
    return raw


def _migrate_1_to_2(raw: dict[str, Any]) -> dict[str, Any]:
    # v1 called the language "locale" and used "zh" for Simplified Chinese.
    if "locale" in raw:
        value = raw.pop("locale")
        raw.setdefault("language", "zh_CN" if value in ("zh", "zh_CN") else value)
    return raw


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _migrate_0_to_1, 1: _migrate_1_to_2}


def settings_path() -> Path:
    return paths.config_dir() / "settings.json"


def _expected(f: dataclasses.Field[Any]) -> str:
    return {
        "int": "a whole number",
        "float": "a number",
        "str": "a string",
        "bool": "true or false",
        "list[str]": "a list of strings",
    }.get(str(f.type), str(f.type))


def _valid(f: dataclasses.Field[Any], value: Any) -> bool:
    t = str(f.type)
    if t == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "bool":
        return isinstance(value, bool)
    if t == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= float(value) <= 100.0
    if t == "str":
        return isinstance(value, str) and (f.name not in _CHOICES or value in _CHOICES[f.name])
    if t == "list[str]":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return True


def from_dict(raw: dict[str, Any], source: str = "settings") -> tuple[Settings, list[str]]:
    """Build settings from a parsed file; returns the settings and a list of problems found."""
    problems: list[str] = []
    version = raw.get("schema_version", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        problems.append(f"{source}: field 'schema_version' must be a whole number >= 0, got {version!r}")
        version = 0
    if version > SCHEMA_VERSION:
        problems.append(
            f"{source}: written by a newer version (schema {version}, this build knows "
            f"{SCHEMA_VERSION}); unknown fields are kept"
        )
    while version < SCHEMA_VERSION:
        raw = MIGRATIONS[version](dict(raw))
        version += 1
    known = {f.name: f for f in dataclasses.fields(Settings) if f.name not in ("extra", "schema_version")}
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "schema_version":
            continue
        f = known.get(key)
        if f is None:
            extra[key] = value
        elif _valid(f, value):
            values[key] = value
        else:
            choices = f" (one of {', '.join(repr(c) for c in _CHOICES[key])})" if key in _CHOICES else ""
            problems.append(
                f"{source}: field '{key}' must be {_expected(f)}{choices}, got {value!r}; using the default"
            )
    settings = Settings(**values, extra=extra)
    if settings.timeline_color_a > settings.timeline_color_b:
        problems.append(
            f"{source}: Timeline Color needs a <= b, got a={settings.timeline_color_a}, "
            f"b={settings.timeline_color_b}; using 5 and 10"
        )
        settings.timeline_color_a, settings.timeline_color_b = 5.0, 10.0
    if settings.max_recent < 1:
        problems.append(f"{source}: field 'max_recent' must be at least 1, got {settings.max_recent}")
        settings.max_recent = 10
    return settings, problems


def to_dict(settings: Settings) -> dict[str, Any]:
    data = dataclasses.asdict(settings)
    extra = data.pop("extra")
    data["schema_version"] = SCHEMA_VERSION
    for key, value in extra.items():
        data.setdefault(key, value)
    return data


def load(path: Path | None = None) -> tuple[Settings, list[str]]:
    """Load settings; never raises for a bad file: problems come back as messages."""
    path = path or settings_path()
    if not path.exists():
        return Settings(), []
    try:
        raw = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        if isinstance(exc, RecursionError):
            exc = ValueError("nested too deeply")  # type: ignore[assignment]
        kept = None
        with contextlib.suppress(OSError):
            kept = backup_aside(path)
        note = f"; the damaged file was kept as {kept}" if kept else ""
        return Settings(), [f"{path}: not valid settings JSON{where}: {exc}; using defaults{note}"]
    if not isinstance(raw, dict):
        kept = backup_aside(path)
        return Settings(), [
            f"{path}: expected a JSON object at the top level, got "
            f"{type(raw).__name__}; using defaults; the file was kept as {kept}"
        ]
    return from_dict(raw, str(path))


def save(settings: Settings, path: Path | None = None) -> None:
    path = path or settings_path()
    try:
        atomic_write_text(path, json.dumps(to_dict(settings), indent=2, ensure_ascii=False) + "\n")
    except OSError as exc:
        raise SettingsError(f"{path}: cannot write settings: {exc.strerror or exc}") from exc
