"""The main window's docks, one folder each: project_explorer, output, tasks, details."""
