#!/usr/bin/env bash
# Install the test needs and run the whole suite (what CI runs through .ci/run):
#   1. system + Python packages (packaging/install.sh with the [test] extra)
#   2. the checkers: import-linter contracts, ruff (lint + format), mypy with its shrinking exemption list
#   3. tests/core and tests/fuzz again in an interpreter where PySide6 cannot be imported
#   4. the whole suite offscreen (a real sshd and Xvfb are started by the tests themselves)
# pytest's "no tests ran" (exit 5) is a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
bash packaging/install.sh "[test]" || exit 1
mkdir -p /run/sshd 2>/dev/null || true
export QT_QPA_PLATFORM=offscreen
status=0
echo "== import-linter =="
lint-imports --config pyproject.toml || status=1
echo "== ruff =="
ruff check . || status=1
ruff format --check . || status=1
echo "== mypy =="
python3 tests/typecheck.py || status=1
echo "== core tests with Qt blocked (and the fuzz suite of the core readers) =="
WORKBENCH_BLOCK_QT=1 python3 -m pytest tests/core tests/fuzz -q -p no:pytest-qt -p no:cacheprovider "$@"
rc=$?; [ $rc -eq 0 ] || { echo "core tests with Qt blocked: exit $rc"; status=1; }
echo "== whole suite =="
python3 -m pytest tests -q -p no:cacheprovider "$@"
rc=$?; [ $rc -eq 0 ] || { echo "whole suite: exit $rc"; status=1; }
exit $status
