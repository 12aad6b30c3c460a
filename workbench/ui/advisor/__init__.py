"""The Advisor pane and the findings' marks in the report views (issue #21)."""
