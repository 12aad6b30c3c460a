"""The Memory tab of a report document: memory curves per component, the peak, operator allocations, modules."""
