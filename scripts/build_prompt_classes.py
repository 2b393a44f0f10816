"""Build common/data/prompt_classes.json: held-out raw-text and code-completion prompts for
the per-class acceptance measurement (``minedraft bench --prompt-class text|code``).

Sources the draft never trained on (it was distilled on chat prompts, docs/prompts.md):
module docstrings (text) and function openings (code) of the top-level modules of the
running Python's standard library. Picks are deterministic: files in sorted order, every
``stride``-th qualifying one. Run once; the JSON is committed, so the set does not change
with the Python that later reads it.
"""

from __future__ import annotations

import ast
import json
import sys
import sysconfig
from pathlib import Path

PER_CLASS = 24
TEXT_CHARS = 420  # prompt length for text: the docstring's opening, cut at a word boundary
CODE_LINES = 10  # prompt length for code: a function's first lines (signature, docstring, body)
MIN_CODE_LINES = 16


def _modules() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(p for p in root.glob("*.py") if not p.name.startswith(("_", "test")))


def _parse(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, OSError):
        return None


def _text_prompt(path: Path) -> str | None:
    tree = _parse(path)
    doc = ast.get_docstring(tree) if tree else None
    if not doc or len(doc) < 2 * TEXT_CHARS:
        return None
    cut = doc[:TEXT_CHARS]
    return cut[: cut.rfind(" ")] if " " in cut else cut


def _code_prompt(path: Path) -> tuple[str, str] | None:
    tree = _parse(path)
    if tree is None:
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.end_lineno - node.lineno + 1 >= MIN_CODE_LINES:
            return node.name, "\n".join(lines[node.lineno - 1 : node.lineno - 1 + CODE_LINES]) + "\n"
    return None


def _pick(candidates: list, n: int) -> list:
    stride = max(1, len(candidates) // n)
    return candidates[::stride][:n]


def build() -> dict:
    stdlib = f"python {sys.version_info.major}.{sys.version_info.minor} standard library"
    text, code = [], []
    for path in _modules():
        t = _text_prompt(path)
        if t:
            text.append({"prompt": t, "package": stdlib, "file": path.name, "object": "module docstring"})
        c = _code_prompt(path)
        if c:
            code.append({"prompt": c[1], "package": stdlib, "file": path.name, "object": f"def {c[0]}"})
    return {
        "about": "Held-out raw-text (stdlib module docstrings, opening) and code (stdlib function openings) "
                 "prompts; built by scripts/build_prompt_classes.py. Chat prompts: heldout_prompts.json.",
        "text": _pick(text, PER_CLASS), "code": _pick(code, PER_CLASS),
    }


if __name__ == "__main__":
    out = Path(__file__).resolve().parents[1] / "common" / "data" / "prompt_classes.json"
    out.write_text(json.dumps(build(), indent=1) + "\n")
    data = json.loads(out.read_text())
    print(f"wrote {out.name}: {len(data['text'])} text, {len(data['code'])} code prompts")
