"""The one error type of the profiling engine, below every other module of it."""

from __future__ import annotations


class ProfilingDataError(ValueError):
    """Bad profiling input; the message names the file (and line/column) and what was expected."""
