"""The package has no import cycles and keeps private names inside their own package.

The graph is built from the source (tests/import_graph.py), so imports inside functions and under
``TYPE_CHECKING`` count: a cycle hidden in a function is still a cycle.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from import_graph import cycles, import_graph, imports_of, module_files, private_imports  # noqa: E402


def test_no_import_cycles_in_workbench():
    found = cycles(import_graph(ROOT))
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_no_private_name_imported_from_another_package():
    assert private_imports(ROOT) == []


def test_the_checker_sees_a_cycle_hidden_in_a_function(tmp_path):
    pkg = tmp_path / "workbench" / "core"
    pkg.mkdir(parents=True)
    (tmp_path / "workbench" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from workbench.core import b\n")
    (pkg / "b.py").write_text("def f():\n    from workbench.core.a import thing\n")
    (pkg / "c.py").write_text(
        "from __future__ import annotations\nfrom typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .a import x\n"
    )
    graph = import_graph(tmp_path)
    assert cycles(graph) == [["workbench.core.a", "workbench.core.b"]]
    assert graph["workbench.core.c"] == {"workbench.core.a"}


def test_the_checker_sees_a_private_import_across_packages(tmp_path):
    for d in ("workbench", "workbench/p", "workbench/q"):
        (tmp_path / d).mkdir(parents=True, exist_ok=True)
        (tmp_path / d / "__init__.py").write_text("")
    (tmp_path / "workbench/p/_impl.py").write_text("_x = 1\n")
    (tmp_path / "workbench/p/ok.py").write_text("from ._impl import _x\n")  # same package: fine
    (tmp_path / "workbench/q/bad.py").write_text("from workbench.p._impl import _x\nfrom workbench.p import _impl\n")
    found = private_imports(tmp_path)
    assert found == ["workbench/q/bad.py:1: _x from workbench.p._impl", "workbench/q/bad.py:2: _impl from workbench.p"]


def test_a_submodule_importing_its_own_package_is_no_cycle():
    files = module_files(ROOT)
    name = "workbench.core.profiling.timeline.loader"
    assert "workbench.core.profiling.timeline" not in imports_of(name, files[name], files)
