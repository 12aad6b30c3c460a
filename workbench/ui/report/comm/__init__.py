"""The Communication tab of a report document: per-op times, bandwidth per transport, the rank matrix."""
