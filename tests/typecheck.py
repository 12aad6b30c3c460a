"""mypy over ``workbench/`` with a per-module exemption list that only shrinks.

The exempt modules are listed in pyproject.toml (``[[tool.mypy.overrides]]`` with
``ignore_errors = true``). This runs mypy once with the exemptions switched off and then:

- any error in a module that is not exempt fails the check (new code is typed);
- an exempt module that has no error any more fails too, until it is taken off the list (so the
  list can only get shorter).

    python tests/typecheck.py            # what CI runs
    python tests/typecheck.py --list     # print every error, exempt or not
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
ERROR = re.compile(r"^(?P<file>[^:\s]+\.py):(?P<line>\d+): error: (?P<text>.*)$")


def config() -> tuple[dict, list[str]]:
    """The ``[tool.mypy]`` settings and the exempt module names, from pyproject.toml."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mypy = dict(data["tool"]["mypy"])
    exempt: list[str] = []
    for override in mypy.pop("overrides", []):
        if override.get("ignore_errors"):
            exempt += [override["module"]] if isinstance(override["module"], str) else override["module"]
    return mypy, exempt


def _ini(settings: dict) -> str:
    lines = ["[mypy]"]
    for key, value in settings.items():
        text = (
            str(value).lower()
            if isinstance(value, bool)
            else (", ".join(value) if isinstance(value, list) else str(value))
        )
        lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"


def module_of(file: str) -> str:
    parts = list(Path(file).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def run_mypy(settings: dict) -> dict[str, list[str]]:
    """Errors by module, with no module exempt."""
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as fh:
        fh.write(_ini(settings))
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypy",
                "--config-file",
                fh.name,
                "--no-error-summary",
                "--hide-error-context",
                "workbench",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
    finally:
        Path(fh.name).unlink()
    if done.returncode not in (0, 1):
        raise SystemExit(f"mypy failed to run (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    errors: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        m = ERROR.match(line)
        if m:
            errors.setdefault(module_of(m["file"]), []).append(line)
    return errors


def main(argv: list[str]) -> int:
    settings, exempt = config()
    errors = run_mypy(settings)
    if "--list" in argv:
        for lines in errors.values():
            print("\n".join(lines))
    unknown = [
        m
        for m in exempt
        if not (ROOT / Path(*m.split("."))).with_suffix(".py").exists()
        and not (ROOT / Path(*m.split(".")) / "__init__.py").exists()
    ]
    new = {m: lines for m, lines in errors.items() if m not in exempt}
    fixed = [m for m in exempt if m not in errors and m not in unknown]
    for lines in new.values():
        print("\n".join(lines))
    if new:
        print(
            f"mypy: {sum(map(len, new.values()))} errors in {len(new)} modules that are not exempt "
            "(fix them; the exemption list in pyproject.toml only shrinks)"
        )
    if fixed:
        print(
            "mypy: these exempt modules have no errors now; take them off [[tool.mypy.overrides]] in "
            "pyproject.toml: " + ", ".join(fixed)
        )
    if unknown:
        print("mypy: exempt modules that do not exist: " + ", ".join(unknown))
    if not new:
        print(f"mypy: {sum(map(len, errors.values()))} errors in {len(errors)} exempt modules of {len(exempt)} listed")
    return 1 if new or fixed or unknown else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
