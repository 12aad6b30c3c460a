"""Baseline comparison: two reports side by side (issue 5)."""
