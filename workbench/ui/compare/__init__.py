"""Baseline comparison: two reports side by side."""
