"""``workbench.core.atc``'s package names load on first use and are always what they name: two of
them, ``validate`` and ``explain``, are also submodule names, and the first import of a submodule
binds it onto its package — over the function, had the package not kept it (the reverted PEP 562
attempt, c0bfa12: "'module' object is not callable" in 22 converter tests). Each case is a fresh
process: this one has imported the package long ago."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# Checks every package name after ``steps`` ran: the object of its defining module, never a module,
# and ``validate`` / ``explain`` called through the package and through ``from … import``.
CHECK = """
import importlib, json, pkgutil, sys, types
import workbench.core.atc as atc

def import_submodules():
    for info in pkgutil.iter_modules(atc.__path__):
        importlib.import_module(f"workbench.core.atc.{info.name}")

def use_names():
    for name in atc.__all__:
        getattr(atc, name)

%(steps)s

wrong = {}
for name in atc.__all__:
    value = getattr(atc, name)
    home = sys.modules.get(getattr(value, "__module__", "") or "")
    if isinstance(value, types.ModuleType) or home is None or getattr(home, name, None) is not value:
        wrong[name] = repr(value)
print("WRONG " + json.dumps(wrong), flush=True)
from workbench.core.atc import ConversionJob, explain, validate
issues = atc.validate(ConversionJob())
print("RESULT " + json.dumps({
    "validate": [(i.code, i.field) for i in issues] == [(i.code, i.field) for i in validate(ConversionJob())],
    "codes": sorted({i.code for i in issues}),
    "explain": atc.explain("E10004") == explain("E10004") and bool(atc.explain("E10004").fix),
}))
"""

ORDERS = {
    # every submodule imported first (what the converter wizard's pages and the converter tests do)
    "submodules first": "import_submodules()",
    # the package names used first, then the submodules imported (their binding comes after)
    "names first": "use_names()\nimport_submodules()",
    # a name whose home imports validate and explain (Issue: validate.py imports explain.py)
    "one name, then the clashing ones": "atc.Issue\nimport workbench.core.atc.explain",
    # `convert --help` leaves only the CLI imported; its handler then imports from the submodules
    "the CLI's handler": "import workbench.core.atc.cli\nfrom workbench.core.atc.validate import ERROR, validate",
}


@pytest.mark.parametrize("order", list(ORDERS))
def test_package_names_are_the_functions_whatever_was_imported_first(order, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", CHECK % {"steps": ORDERS[order]}],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    out = proc.stdout.splitlines()
    wrong = [json.loads(x[len("WRONG ") :]) for x in out if x.startswith("WRONG ")]
    assert wrong == [{}], f"package names that are not what they name: {wrong}\n{proc.stderr}"
    lines = [x for x in out if x.startswith("RESULT ")]
    assert lines, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    result = json.loads(lines[-1][len("RESULT ") :])
    assert result["validate"] and "E10004" in result["codes"], result  # the empty job: no model, no SoC
    assert result["explain"], result


def test_dir_lists_the_package_names():
    import workbench.core.atc as atc

    assert set(atc.__all__) <= set(dir(atc))


# What `convert --help` / `model --help` may import of the converter: its package and the CLI module.
HELP = """
import sys
from workbench import cli
try:
    cli.main([%(verb)r, "--help"])
except SystemExit as exc:
    print("EXIT", exc.code)
print("MODULES " + " ".join(sorted(m for m in sys.modules if m.startswith("workbench."))))
"""


@pytest.mark.parametrize("verb", ["convert", "model"])
def test_convert_and_model_help_import_no_converter_module(verb, tmp_path):
    """Before, the package imported every ATC module (run: the transports, the toolkit detection,
    npu-smi; structure: the om JSON reader) for a --help (0.12-0.15 s whole process)."""
    proc = subprocess.run(
        [sys.executable, "-c", HELP % {"verb": verb}], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert f"usage: ascend-workbench {verb}" in proc.stdout, proc.stderr
    assert "EXIT 0" in proc.stdout.splitlines()
    modules = next(x for x in proc.stdout.splitlines() if x.startswith("MODULES ")).split()[1:]
    converter = [m for m in modules if m.startswith("workbench.core.atc")]
    assert converter == ["workbench.core.atc", "workbench.core.atc.cli"]
    heavy = {
        "workbench.core.services.transport",
        "workbench.core.services.toolkit",
        "workbench.core.services.npusmi",
        "workbench.core.dump.omjson",
        "workbench.core.tasks",
    }
    assert not heavy & set(modules), sorted(heavy & set(modules))
