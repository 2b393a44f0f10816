"""The layering rules of the design card, checked on the source tree."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ("transformers", "sglang", "tensorrt_llm")
PACKAGES = {"minedraft": ROOT / "common", "minedraft.adapters": ROOT / "adapters"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_imports_no_backend():
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / "common").rglob("*.py")
        for name in _imports(path)
        if name.split(".")[0] in BACKENDS
    ]
    assert offenders == []


def test_adapters_do_not_import_each_other():
    adapters = [p.name for p in (ROOT / "adapters").iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    offenders = []
    for adapter in adapters:
        for path in (ROOT / "adapters" / adapter).rglob("*.py"):
            for name in _imports(path):
                parts = name.split(".")
                if parts[:2] == ["minedraft", "adapters"] and len(parts) > 2 and parts[2] != adapter:
                    offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_importing_the_core_loads_no_backend():
    code = (
        "import sys, minedraft, minedraft.cli, minedraft.schedulers, minedraft.rules.cost_model; "
        f"print([m for m in {BACKENDS!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- import circles ----------------------------------------------------------------------------
def _modules() -> dict[str, Path]:
    """Every minedraft module name -> its file (packages by their ``__init__.py``)."""
    found = {}
    for package, base in PACKAGES.items():
        for path in base.rglob("*.py"):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def _runtime_edges(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """minedraft modules that ``name`` imports at run time, at top level or inside a function
    (``if TYPE_CHECKING`` blocks excluded). ``from pkg import sub`` counts as an import of
    ``pkg.sub`` when that is a module; a parent package's ``__init__`` is not counted."""
    tree = ast.parse(path.read_text(), filename=str(path))
    skip = _type_checking_nodes(tree)
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in modules:
                    out.add(f"{module}.{alias.name}")
                elif module in modules:
                    out.add(module)
    out.discard(name)
    return out


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles_among_minedraft_modules():
    modules = _modules()
    graph = {name: _runtime_edges(name, path, modules) for name, path in modules.items()}
    assert graph["minedraft.schedulers"] >= {"minedraft.schedulers.psd", "minedraft.schedulers.base"}
    assert _circles(graph) == []


def test_rules_never_import_drivers():
    """Rules are pure: schedulers (drivers) import rules, never the other way round."""
    modules = _modules()
    offenders = [
        f"{name} imports {dep}"
        for name, path in modules.items() if name.startswith("minedraft.rules")
        for dep in _runtime_edges(name, path, modules)
        if dep.startswith(("minedraft.schedulers", "minedraft.api", "minedraft.bench", "minedraft.adapters"))
    ]
    assert offenders == []
