"""The Steps tab of a report document: per step, where the time went (a stacked bar chart and the table)."""
