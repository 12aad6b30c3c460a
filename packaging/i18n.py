"""Translation catalogue maintenance (Qt Linguist flow).

    python packaging/i18n.py update          # pyside6-lupdate: add new source strings to the .ts
    python packaging/i18n.py fill F.json     # put translations from {"Context|source": "译文"} into the .ts
    python packaging/i18n.py release         # pyside6-lrelease: compile .ts -> .qm (shipped)
    python packaging/i18n.py check           # exit 1 if a string has no zh_CN translation

The .ts file (resources/translations/workbench_zh_CN.ts) is the source of truth; edit it with
pyside6-linguist or with `fill`. tests/ui/test_translations.py runs `check` logic.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TS = ROOT / "resources" / "translations" / "workbench_zh_CN.ts"
QM = TS.with_suffix(".qm")


def ui_sources() -> list[str]:
    return sorted(str(p) for p in (ROOT / "workbench" / "ui").rglob("*.py"))


def _tool(name: str) -> str:
    exe = shutil.which(f"pyside6-{name}")
    if not exe:
        raise SystemExit(f"pyside6-{name} not found: install PySide6-Essentials")
    return exe


def lupdate(ts: Path) -> None:
    subprocess.run(
        [
            _tool("lupdate"),
            *ui_sources(),
            "-ts",
            str(ts),
            "-target-language",
            "zh_CN",
            "-no-obsolete",
            "-locations",
            "none",
        ],
        check=True,
        capture_output=True,
        text=True,
    )


def untranslated(ts: Path) -> list[str]:
    """Source strings lacking a finished translation, as 'Context|source'."""
    missing = []
    for ctx in ET.parse(ts).getroot().iter("context"):
        name = ctx.findtext("name")
        for msg in ctx.iter("message"):
            tr = msg.find("translation")
            if tr is None or not (tr.text or "").strip() or tr.get("type") in ("unfinished", "obsolete", "vanished"):
                missing.append(f"{name}|{msg.findtext('source')}")
    return missing


def check() -> list[str]:
    """Update a temp copy of the catalogue from the current sources and list what lacks a translation."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / TS.name
        shutil.copy(TS, copy)
        lupdate(copy)
        return untranslated(copy)


def fill(mapping_file: Path) -> int:
    mapping = json.loads(mapping_file.read_text(encoding="utf-8"))
    tree = ET.parse(TS)
    count = 0
    for ctx in tree.getroot().iter("context"):
        name = ctx.findtext("name")
        for msg in ctx.iter("message"):
            key = f"{name}|{msg.findtext('source')}"
            if key in mapping:
                tr = msg.find("translation")
                tr.text = mapping[key]
                tr.attrib.pop("type", None)
                count += 1
    tree.write(TS, encoding="utf-8", xml_declaration=True)
    return count


def release(out: Path = QM) -> None:
    subprocess.run([_tool("lrelease"), str(TS), "-qm", str(out)], check=True, capture_output=True, text=True)


def main(argv: list[str]) -> int:
    cmd = argv[0] if argv else "check"
    if cmd == "update":
        lupdate(TS)
    elif cmd == "fill":
        print(f"filled {fill(Path(argv[1]))} translations")
    elif cmd == "release":
        release()
    elif cmd == "check":
        missing = check()
        for m in missing:
            print("untranslated:", m)
        return 1 if missing else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
