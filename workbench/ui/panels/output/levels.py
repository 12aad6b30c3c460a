"""The level a line of tool output states, so the Output dock colours by it rather than by its stream.

The CANN tools write informational lines to stderr (msaccucmp logs everything there through
``logging``), so stderr alone does not mean an error. Recognised (docs/cann-formats.md §6.2, §7.3, §8.4):

- Python ``logging`` lines as msaccucmp writes them: ``2025-01-02 03:04:05 (1234) - [INFO] message``
  (also with ``,mmm`` milliseconds), and the ``logging`` default ``WARNING:name:message``;
- a bracketed level at the start: plog ``[ERROR] RUNTIME(901649,app):2026-…``, ``[INFO] …``, ``[WARN] …``;
- ATC's error-manager codes ``E10007: …`` / ``EZ3003: …`` (error) and ``W11001: …`` (warning), and its
  banners ``ATC run failed…`` (error) / ``ATC run success…`` (info);
- an indented line (ATC's ``Possible Cause:`` / ``Solution:`` / ``TraceBack`` lines, a multi-line log
  message) continues the line before it: :func:`classify` takes the previous line's level.

Anything else has no stated level (``None``): the stream decides (stderr red).
"""

from __future__ import annotations

import re

ERROR, WARNING, INFO, DEBUG = "error", "warning", "info", "debug"

_LEVELS = {
    "ERROR": ERROR,
    "CRITICAL": ERROR,
    "FATAL": ERROR,
    "WARNING": WARNING,
    "WARN": WARNING,
    "INFO": INFO,
    "EVENT": INFO,
    "DEBUG": DEBUG,
}
_NAMES = "|".join(_LEVELS)
_LOGGING = re.compile(
    rf"^\s*\d{{4}}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\s+(?:\(\d+\)\s+)?-?\s*\[({_NAMES})\]", re.IGNORECASE
)
_BRACKET = re.compile(rf"^\s*\[({_NAMES})\]", re.IGNORECASE)
_PY_DEFAULT = re.compile(rf"^({_NAMES}):[\w.]*:")
_ATC_ERROR = re.compile(r"^E[0-9A-Z]\d{4}:")
_ATC_WARNING = re.compile(r"^W\d{5}:")


def stated_level(line: str) -> str | None:
    """``"error"``/``"warning"``/``"info"``/``"debug"`` when ``line`` states its level, else None."""
    for pattern in (_LOGGING, _BRACKET, _PY_DEFAULT):
        m = pattern.match(line)
        if m:
            return _LEVELS[m.group(1).upper()]
    if _ATC_ERROR.match(line) or line.startswith("ATC run failed"):
        return ERROR
    if _ATC_WARNING.match(line):
        return WARNING
    if line.startswith("ATC run success"):
        return INFO
    return None


def classify(line: str, previous: str | None) -> str | None:
    """The level of ``line``: the one it states, else ``previous`` (the level of the line before it
    in the same output) for an indented continuation line, else None."""
    level = stated_level(line)
    if level is None and previous is not None and line[:1] in (" ", "\t") and line.strip():
        return previous
    return level
