"""Tasks dock: every running job with a progress bar, status text and Cancel."""
