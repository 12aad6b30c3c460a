"""Tests of workbench.core.cluster (a package: tests/core/compare has a test_engine.py too)."""
