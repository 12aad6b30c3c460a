"""The model graph document (issue #23): :mod:`.document` (the document, its panes, the opener),
:mod:`.canvas` (the view, its one painting item, the minimap), :mod:`.scene` (what is painted, level
of detail), :mod:`.work` (the tasks: read, lay out, map), :mod:`.render` (PNG export), :mod:`.style`
(op categories and colours)."""
