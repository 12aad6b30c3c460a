"""The fuzz suite's settings and its summary (issue #16).

Hypothesis runs under the profile ``fuzz`` (loaded here; no other folder uses hypothesis): no
deadline (a reader's first call compiles regexes, maps files ...), derandomized so that every run
tries the same inputs (a failure in CI reproduces locally), and a modest ``max_examples`` so the
whole folder stays well under 3 minutes on 2 cores. ``FUZZ_PROFILE=fuzz-long`` (random, 20x the
examples) is for a deliberate local hunt; ``FUZZ_EXAMPLES`` overrides the count.

At the end of a run the inputs tried per format and the failures are printed in the terminal
summary (with or without ``-s``) and written to ``tests/fuzz/last-run.txt``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from fuzzkit import TALLY
from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir

# hypothesis keeps a cache of constants even without an example database: here, not in the repo root
set_hypothesis_home_dir(Path(__file__).with_name(".hypothesis"))

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))
_COMMON = {
    "deadline": None,
    "database": None,
    "print_blob": True,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
}
settings.register_profile("fuzz", derandomize=True, max_examples=EXAMPLES, **_COMMON)
settings.register_profile("fuzz-long", derandomize=False, max_examples=EXAMPLES * 20, **_COMMON)
settings.load_profile(os.environ.get("FUZZ_PROFILE", "fuzz"))

LAST_RUN = Path(__file__).with_name("last-run.txt")
_STARTED = time.monotonic()


def summary_lines() -> list[str]:
    tried = sum(t for t, _ in TALLY.values())
    failed = sum(f for _, f in TALLY.values())
    lines = [f"fuzz: {tried} inputs tried, {failed} failures, {len(TALLY)} formats"]
    lines += [f"fuzz:   {fmt:<22} {t:>6} tried {f:>4} failed" for fmt, (t, f) in sorted(TALLY.items())]
    return lines


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TALLY:
        return
    lines = summary_lines()
    elapsed = time.monotonic() - _STARTED
    for line in lines:
        terminalreporter.write_line(line)
    profile = os.environ.get("FUZZ_PROFILE", "fuzz")
    header = f"# tests/fuzz last run: {time.strftime('%Y-%m-%d %H:%M:%S')}, profile {profile}, {elapsed:.0f} s\n"
    try:
        LAST_RUN.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    except OSError as exc:  # a read-only checkout: the terminal lines are the record
        terminalreporter.write_line(f"fuzz: cannot write {LAST_RUN}: {exc.strerror or exc}")
