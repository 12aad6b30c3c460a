"""Protobuf text format (``key: value`` and ``key { … }``) as used by Caffe ``.prototxt`` files and
AIPP ``--insert_op_conf`` files, with line numbers kept for error messages.

Only what those files use is supported: scalar fields (quoted strings or bare tokens), nested
messages (``key {`` or ``key: {``) and ``#`` comments. Repeated fields simply repeat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(
    r'\s*(?:(#[^\n]*)|([A-Za-z_][\w.]*)\s*:?\s*(\{)|([A-Za-z_][\w.]*)\s*:\s*("(?:[^"\\]|\\.)*"|[^\s{}#]+)|(\}))'
)


_END = re.compile(r"\s*\Z")
_SPACE = re.compile(r"\s*")


class PrototxtError(ValueError):
    """Text that is not protobuf text format; ``where`` is ``"<source> (line n)"`` or the source."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


@dataclass
class Entry:
    """One field: ``value`` is the scalar text (quotes removed) or, for a message, ``children``."""

    key: str
    line: int
    value: str | None = None
    children: list[Entry] = field(default_factory=list)
    quoted: bool = False

    @property
    def is_message(self) -> bool:
        return self.value is None


def parse_entries(text: str, source: str) -> list[Entry]:
    """The top-level fields of ``text``; raises :class:`PrototxtError` naming ``source`` and line."""
    root: list[Entry] = []
    stack: list[list[Entry]] = [root]
    opened: list[Entry] = []
    pos, line = 0, 1
    while not _END.match(text, pos):
        m = _TOKEN.match(text, pos)
        if not m:
            ws = _SPACE.match(text, pos)
            line += text.count("\n", pos, ws.end() if ws else pos)
            raise PrototxtError(f"{source} (line {line})", "expected 'name: value', 'name {' or '}'")
        token = m.group(0)
        line += token.count("\n", 0, len(token) - len(token.lstrip()))  # the token's own line
        pos = m.end()
        comment, block, _, key, value, close = m.groups()
        tok_line = line
        line += token.lstrip().count("\n")
        if comment:
            continue
        if block:
            entry = Entry(block, tok_line)
            stack[-1].append(entry)
            stack.append(entry.children)
            opened.append(entry)
        elif key:
            quoted = value.startswith('"')
            stack[-1].append(Entry(key, tok_line, value[1:-1] if quoted else value, quoted=quoted))
        elif close:
            if len(stack) == 1:
                raise PrototxtError(source, f"line {tok_line}: '}}' without a matching '{{'")
            stack.pop()
            opened.pop()
    if len(stack) != 1:
        raise PrototxtError(source, f"'{opened[-1].key} {{' opened on line {opened[-1].line} is never closed")
    return root


def to_dict(entries: list[Entry]) -> dict:
    """Nested dicts of lists: ``{"layer": [{"name": ["conv1"], ...}]}``."""
    out: dict = {}
    for e in entries:
        out.setdefault(e.key, []).append(to_dict(e.children) if e.is_message else e.value)
    return out


def parse_prototxt(text: str, source: str) -> dict:
    """Protobuf text into nested dicts of lists (see :func:`to_dict`)."""
    return to_dict(parse_entries(text, source))
