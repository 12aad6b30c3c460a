"""Report document: timeline, data pane (Event View, Statistics, AI Core Metrics, Selection), Analysis Summary."""
