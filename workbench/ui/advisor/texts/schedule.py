"""Texts of core/advisor/rules/schedule.py marked for translation (see the package docstring)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP  # noqa: F401

STRINGS: tuple[str, ...] = ()
