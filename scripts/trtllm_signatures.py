#!/usr/bin/env python3
"""Extract the signatures of the TensorRT-LLM symbols minedraft's adapter touches.

Reads TensorRT-LLM's source with ``ast`` (nothing is imported, so it runs without
TensorRT-LLM or a GPU), either from a checkout or from a tag of a git repository, and
writes a JSON snapshot: for each symbol its parameters (name, kind, default as source
text) or, for pydantic config classes, its fields. The contract test
(tests/adapters/tensorrt_llm/test_contract.py) compares the stand-ins with the snapshot,
so a stand-in that drifts from the pinned release fails.

    python scripts/trtllm_signatures.py --source PATH/TO/TensorRT-LLM --release 1.2.1 \\
        --out tests/adapters/tensorrt_llm/upstream_signatures_v1.2.1.json
    python scripts/trtllm_signatures.py --git-dir PATH/TO/TensorRT-LLM/.git --ref v1.2.1 --release 1.2.1 --out ...

To move the adapter to a new release: run it on that release, diff the snapshot, update
the stand-ins and the adapter until the contract test passes, then gate the version.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path

# (file in the TensorRT-LLM tree, qualified name, "function" | "fields")
SYMBOLS: list[tuple[str, str, str]] = [
    ("tensorrt_llm/_torch/speculative/drafter.py", "Drafter.__init__", "function"),
    ("tensorrt_llm/_torch/speculative/drafter.py", "Drafter.prepare_draft_tokens", "function"),
    ("tensorrt_llm/_torch/speculative/drafter.py", "Drafter.should_use_spec_decode", "function"),
    ("tensorrt_llm/_torch/speculative/drafter.py", "Drafter.pad_draft_tokens_for_cuda_graph", "function"),
    ("tensorrt_llm/_torch/speculative/drafter.py", "Drafter.get_draft_len_for_batch_size", "function"),
    ("tensorrt_llm/_torch/speculative/drafter.py", "Drafter.update_max_total_draft_tokens", "function"),
    ("tensorrt_llm/_torch/speculative/drafter.py", "Drafter.run_drafter_post", "function"),
    ("tensorrt_llm/_torch/pyexecutor/resource_manager.py", "BaseResourceManager.get_max_resource_count", "function"),
    ("tensorrt_llm/_torch/pyexecutor/resource_manager.py", "BaseResourceManager.get_needed_resource_to_completion",
     "function"),
    ("tensorrt_llm/_torch/pyexecutor/resource_manager.py", "BaseResourceManager.add_dummy_requests", "function"),
    ("tensorrt_llm/_torch/pyexecutor/resource_manager.py", "BaseResourceManager.prepare_resources", "function"),
    ("tensorrt_llm/_torch/pyexecutor/resource_manager.py", "BaseResourceManager.update_resources", "function"),
    ("tensorrt_llm/_torch/pyexecutor/resource_manager.py", "BaseResourceManager.free_resources", "function"),
    ("tensorrt_llm/_torch/pyexecutor/resource_manager.py", "BaseResourceManager.shutdown", "function"),
    ("tensorrt_llm/_torch/pyexecutor/sampling_utils.py", "greedy_search_sampling_batch", "function"),
    ("tensorrt_llm/llmapi/llm_args.py", "UserProvidedDecodingConfig", "fields"),
    ("tensorrt_llm/llmapi/llm_utils.py", "update_llm_args_with_extra_dict", "function"),
    ("tensorrt_llm/commands/serve.py", "get_llm_args", "function"),
    ("tensorrt_llm/commands/serve.py", "launch_server", "function"),
]

_KINDS = {"posonly": "POSITIONAL_ONLY", "args": "POSITIONAL_OR_KEYWORD", "vararg": "VAR_POSITIONAL",
          "kwonly": "KEYWORD_ONLY", "kwarg": "VAR_KEYWORD"}


def _find(tree: ast.Module, qualname: str) -> ast.AST:
    node: ast.AST = tree
    for part in qualname.split("."):
        body = getattr(node, "body", [])
        matches = [n for n in body if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                   and n.name == part]
        if not matches:
            raise KeyError(qualname)
        node = matches[-1]  # the last definition wins, as at import time
    return node


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[dict]:
    a = fn.args
    out: list[dict] = []
    positional = [("posonly", p) for p in a.posonlyargs] + [("args", p) for p in a.args]
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for (kind, p), default in zip(positional, defaults):
        out.append(_param(p.arg, kind, default))
    if a.vararg:
        out.append(_param(a.vararg.arg, "vararg", None))
    for p, default in zip(a.kwonlyargs, a.kw_defaults):
        out.append(_param(p.arg, "kwonly", default))
    if a.kwarg:
        out.append(_param(a.kwarg.arg, "kwarg", None))
    return out


def _param(name: str, kind: str, default: ast.AST | None) -> dict:
    entry = {"name": name, "kind": _KINDS[kind]}
    if default is not None:
        entry["default"] = ast.unparse(default)
    return entry


def _fields(cls: ast.ClassDef) -> list[dict]:
    """Annotated class attributes (pydantic fields), with the default when one is given
    (``= value`` or ``Field(default=value)``); ``Field(...)`` without one is required."""
    out = []
    for node in cls.body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        entry: dict = {"name": node.target.id}
        value = node.value
        if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "Field":
            kw = {k.arg: k.value for k in value.keywords}
            value = kw.get("default", value.args[0] if value.args else None)
        if value is not None:
            entry["default"] = ast.unparse(value)
        out.append(entry)
    return out


def extract(read) -> dict[str, dict]:
    """``read(path) -> source text``; returns {"file::qualname": entry}."""
    trees: dict[str, ast.Module] = {}
    symbols: dict[str, dict] = {}
    for path, qualname, kind in SYMBOLS:
        if path not in trees:
            trees[path] = ast.parse(read(path), filename=path)
        node = _find(trees[path], qualname)
        if kind == "fields":
            symbols[f"{path}::{qualname}"] = {"kind": "fields", "fields": _fields(node)}  # type: ignore[arg-type]
        else:
            symbols[f"{path}::{qualname}"] = {"kind": "function", "params": _params(node)}  # type: ignore[arg-type]
    return symbols


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--source", help="a TensorRT-LLM source tree (the directory holding tensorrt_llm/)")
    src.add_argument("--git-dir", help="a TensorRT-LLM git directory (with --ref)")
    p.add_argument("--ref", help="the tag or commit to read from --git-dir, e.g. v1.2.1")
    p.add_argument("--release", required=True, help="the release these signatures belong to, e.g. 1.2.1")
    p.add_argument("--note", default="", help="where the source came from, recorded in the snapshot")
    p.add_argument("--out", help="the JSON file to write (default: stdout)")
    args = p.parse_args(argv)
    if args.git_dir:
        if not args.ref:
            p.error("--git-dir needs --ref")

        def read(path: str) -> str:
            return subprocess.run(["git", "--git-dir", args.git_dir, "show", f"{args.ref}:{path}"],
                                  check=True, capture_output=True, text=True).stdout
        source = f"git {args.ref}"
    else:
        root = Path(args.source)

        def read(path: str) -> str:
            return (root / path).read_text()
        source = "source tree"
    try:
        symbols = extract(read)
    except (OSError, subprocess.CalledProcessError, KeyError, SyntaxError) as exc:
        print(f"trtllm_signatures: cannot extract ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 1
    doc = {"release": args.release, "source": source, "note": args.note, "symbols": symbols}
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
