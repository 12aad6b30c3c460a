"""The Query tab of a report document: SQL (DuckDB, read-only) over the report's tables.

``pane.QueryPane`` = examples + Run / Stop / Export / Show on Timeline, the SQL editor
(``editor.SqlEditor``: table and column completion, Ctrl+Enter runs) and the results table
(``model.ResultModel``: pages an Arrow result in chunks, so a million rows scroll smoothly).
The query runs on the task bridge (core ``profiling.query.run_query``); Stop interrupts DuckDB.
"""
