"""The side-by-side diff of an input file and its migrated copy (the Migration Report's diff view), Qt-free.

:func:`diff_lines` aligns two files line by line with :mod:`difflib` into :class:`DiffRow` rows: an
unchanged line has both numbers, a replaced block pairs its lines (the shorter side padded with
rows of no line), an inserted line has no input line, a deleted one no migrated line.
:class:`FileDiff` finds the row of a line on either side (a change of the migration report names a
line of the migrated file, an API row a line of the input file). :func:`diff_files` reads both
files (UTF-8, else GBK as the tools write on Chinese Windows, else Latin-1); a missing side is
empty and named in :attr:`FileDiff.missing`. :func:`project_files` finds the migrated project and the
input project of a report folder as ``run_migration`` lays them out locally.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path

EQUAL, REPLACE, INSERT, DELETE = "equal", "replace", "insert", "delete"
MAX_BYTES = 16 * 1024 * 1024  # a source file larger than this is not diffed


class DiffError(ValueError):
    """A file that cannot be read for the diff: the message names it."""


@dataclass(frozen=True)
class DiffRow:
    left: int | None  # 1-based line of the input file (None: a padding row)
    right: int | None  # 1-based line of the migrated file
    left_text: str
    right_text: str
    tag: str  # EQUAL | REPLACE | INSERT | DELETE

    @property
    def changed(self) -> bool:
        return self.tag != EQUAL


@dataclass
class FileDiff:
    input_path: str
    output_path: str
    rows: list[DiffRow] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # the paths that do not exist

    def row_of(self, line: int, side: str) -> int:
        """The row showing ``line`` of ``side`` ("left": input, "right": migrated); a line beyond
        the end gives the last row, 0 for an empty diff."""
        if not self.rows:
            return 0
        attr = "left" if side == "left" else "right"
        best = 0
        for i, row in enumerate(self.rows):
            n = getattr(row, attr)
            if n is None:
                continue
            if n == line:
                return i
            if n < line:
                best = i
        return best

    def changed_rows(self) -> list[int]:
        return [i for i, r in enumerate(self.rows) if r.changed]

    def counts(self) -> dict[str, int]:
        out = {EQUAL: 0, REPLACE: 0, INSERT: 0, DELETE: 0}
        for r in self.rows:
            out[r.tag] += 1
        return out


def diff_lines(a: list[str], b: list[str]) -> list[DiffRow]:
    """Align ``a`` (input) and ``b`` (migrated) into rows."""
    rows: list[DiffRow] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == EQUAL:
            rows += [DiffRow(i1 + k + 1, j1 + k + 1, a[i1 + k], b[j1 + k], EQUAL) for k in range(i2 - i1)]
            continue
        n = max(i2 - i1, j2 - j1)
        for k in range(n):
            left = i1 + k if i1 + k < i2 else None
            right = j1 + k if j1 + k < j2 else None
            kind = REPLACE if left is not None and right is not None else (DELETE if right is None else INSERT)
            rows.append(
                DiffRow(
                    left + 1 if left is not None else None,
                    right + 1 if right is not None else None,
                    a[left] if left is not None else "",
                    b[right] if right is not None else "",
                    kind,
                )
            )
    return rows


def read_source(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a source file (no line ends); DiffError naming it when it cannot be read."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise DiffError(f"{p}: {size:,} bytes; files over {MAX_BYTES // (1024 * 1024)} MB are not compared")
        raw = p.read_bytes()
    except OSError as exc:
        raise DiffError(f"{p}: cannot read: {exc.strerror or exc}") from None
    if b"\0" in raw[:8192]:
        raise DiffError(f"{p}: not a text file (it holds NUL bytes)")
    for encoding in ("utf-8-sig", "gbk"):
        try:
            return raw.decode(encoding).splitlines()
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1").splitlines()


def diff_files(input_path: str | os.PathLike[str], output_path: str | os.PathLike[str]) -> FileDiff:
    """The diff of the input file and the migrated file; a side that does not exist is empty and
    listed in ``missing`` (DiffError for one that exists but cannot be read)."""
    missing = [str(p) for p in (input_path, output_path) if not Path(p).is_file()]
    a = read_source(input_path) if str(input_path) not in missing else []
    b = read_source(output_path) if str(output_path) not in missing else []
    return FileDiff(str(input_path), str(output_path), diff_lines(a, b), missing)


@dataclass(frozen=True)
class ProjectFiles:
    """Where the files of a report's rows are: ``input_dir`` (the GPU project) and ``output_dir``
    (the migrated copy), each None when not found."""

    input_dir: Path | None
    output_dir: Path | None

    def pair(self, rel: str) -> tuple[Path | None, Path | None]:
        rel = rel.replace("\\", "/").lstrip("/")
        return (
            self.input_dir / rel if self.input_dir is not None else None,
            self.output_dir / rel if self.output_dir is not None else None,
        )


def project_files(
    report_dir: str | os.PathLike[str], tool: str, input_dir: str | os.PathLike[str] | None = None
) -> ProjectFiles:
    """The migrated project of a report folder: msFmkTransplt writes its reports into the migrated
    copy (``<name>_msft/``, or its ``transplant_result_file/``); convert_tf2npu's ``report_npu_<time>/``
    sits in ``report/`` beside ``output/<name>_npu_<time>/`` in ``run_migration``'s local layout (the
    newest one there). ``input_dir``: the GPU project when the caller knows it."""
    d = Path(report_dir)
    out: Path | None = None
    if tool == "msFmkTransplt":
        out = d.parent if d.name == "transplant_result_file" else d
    else:
        stamp = d.name[len("report_npu_") :] if d.name.startswith("report_npu_") else ""
        outputs = d.parent.parent / "output"
        if outputs.is_dir():
            found = sorted(p for p in outputs.iterdir() if p.is_dir() and "_npu_" in p.name)
            same = [p for p in found if stamp and p.name.endswith("_npu_" + stamp)]
            chosen = same or found
            out = chosen[-1] if chosen else None
    return ProjectFiles(Path(input_dir) if input_dir else None, out)
