"""Build the import graph of the ``workbench`` package from its source and find cycles.

Every ``import`` / ``from … import`` statement counts, wherever it stands (module level, inside a
function, under ``if TYPE_CHECKING``). ``from pkg import name`` is an edge to ``pkg.name`` when that
is a module, else to ``pkg``. Importing ``a.b.c`` also runs ``a`` and ``a.b``; those package edges are
added except for packages that already enclose the importing module (Python runs them first).

A second check: no ``_private`` name (module or attribute) is imported from another package; a
module's package is its folder, so private helpers stay inside the folder that owns them.

Run as a script to print both: ``python tests/import_graph.py [ROOT]``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def module_files(root: Path, package: str = "workbench") -> dict[str, Path]:
    """Map every module name below ``root/package`` to its file."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _is_package(name: str, files: dict[str, Path]) -> bool:
    path = files.get(name)
    return path is not None and path.name == "__init__.py"


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def imports_of(name: str, path: Path, files: dict[str, Path]) -> set[str]:
    """The workbench modules that ``name`` imports (see the module docstring for the rules)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = name if _is_package(name, files) else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = here.split(".")
                if node.level > 1:
                    base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts)
                if node.module:
                    base = f"{base}.{node.module}"
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in files else base)
    edges: set[str] = set()
    own = set(_ancestors(name))
    for target in targets:
        while target and target not in files:  # ``import a.b.name`` of a non-module name
            target = target.rpartition(".")[0]
        if not target or not target.startswith("workbench"):
            continue
        for mod in [*_ancestors(target), target]:
            if mod in files and mod != name and mod not in own:
                edges.add(mod)
    return edges


def _package_of(name: str, files: dict[str, Path]) -> str:
    return name if _is_package(name, files) else name.rpartition(".")[0]


def private_imports(root: Path) -> list[str]:
    """``file:line: name`` for every private name a module imports from another package."""
    files = module_files(root)
    found: list[str] = []
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        here = _package_of(name, files)
        for node in ast.walk(tree):
            pairs: list[tuple[str, str]] = []  # (module imported from, private name)
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = here.split(".")
                    base = ".".join(parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts)
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                pairs = [(base, a.name) for a in node.names]
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    mod, _, last = alias.name.rpartition(".")
                    pairs.append((mod, last))
            for base, item in pairs:
                if not base.startswith("workbench"):
                    continue
                dotted = f"{base}.{item}".split(".")
                for i, part in enumerate(dotted):
                    if part.startswith("_") and not part.startswith("__"):
                        owner = ".".join(dotted[:i])  # the module or package the private name lives in
                        owner = _package_of(owner, files) if owner in files else owner
                        if owner != here:
                            found.append(f"{path.relative_to(root)}:{node.lineno}: {item} from {base}")
                        break
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    files = module_files(root)
    return {name: imports_of(name, path, files) for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1]
    graph = import_graph(root)
    found = cycles(graph)
    for comp in found:
        members = set(comp)
        print("cycle:", " ".join(comp))
        for m in comp:
            print("   ", m, "->", ", ".join(sorted(graph[m] & members)))
    private = private_imports(root)
    for line in private:
        print("private import across packages:", line)
    print(f"{len(graph)} modules, {len(found)} cycles, {len(private)} private imports across packages")
    return 1 if found or private else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
