"""Baseline comparison: two reports side by side (``view.py``), the dialog that picks them
(``dialog.py``) and the report document's Baseline Comparison pane (``baseline.py``), over
``workbench.core.compare``."""
