"""The layering rules of the design card, checked on the source tree."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ("transformers", "sglang", "tensorrt_llm")


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
        "import sys, minedraft, minedraft.cli, minedraft.schedulers, minedraft.cost_model; "
        f"print([m for m in {BACKENDS!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
