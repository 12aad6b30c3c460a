"""Read-only text or hex view: what a file opens in when no dedicated viewer exists.

Text is shown if the first bytes decode as UTF-8 (or GBK, common on Chinese hosts) without NUL
bytes; otherwise a hex dump. Only the first ``LIMIT`` bytes are shown, and the view says so.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

LIMIT = 4 * 1024 * 1024


def decode_text(data: bytes) -> str | None:
    if b"\x00" in data[:8192]:
        return None
    for enc in ("utf-8", "gbk"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError as exc:
            # a multi-byte character cut at the read limit is fine
            if enc == "utf-8" and exc.start >= len(data) - 4:
                return data[: exc.start].decode(enc)
    return None


def hex_dump(data: bytes, width: int = 16) -> str:
    lines = []
    for off in range(0, len(data), width):
        chunk = data[off : off + width]
        hexpart = " ".join(f"{b:02x}" for b in chunk)
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{off:08x}  {hexpart:<{width * 3}} {text}")
    return "\n".join(lines)


class TextView(QWidget):
    def __init__(self, path: str | Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = Path(path)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.edit = QPlainTextEdit(self)
        self.edit.setReadOnly(True)
        self.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.edit)
        self.mode = "text"
        self.reload()

    def reload(self) -> None:
        try:
            size = self.path.stat().st_size
            with self.path.open("rb") as fh:
                data = fh.read(LIMIT)
        except OSError as exc:
            self.mode = "error"
            self.note.setText(self.tr("Cannot read {0}: {1}").format(self.path, exc.strerror or exc))
            self.edit.clear()
            return
        text = decode_text(data)
        self.mode = "text" if text is not None else "hex"
        self.edit.setPlainText(text if text is not None else hex_dump(data))
        parts = [self.tr("Read-only text view") if self.mode == "text" else self.tr("Read-only hex view")]
        if size > LIMIT:
            parts.append(self.tr("showing the first {0} MiB of {1} MiB").format(LIMIT // 2**20, round(size / 2**20, 1)))
        self.note.setText(" — ".join(parts))
