"""Output dock: one tab per job with its streamed text; search and save."""
