"""The held-out prompt set in the core (``minedraft.prompts``): file shape, determinism across
processes, the benchmark's nested subsets, and bad sizes. The training prompts are the
reference adapter's data (tests/adapters/reference/test_distill_prompts.py, which also checks
that the two sets are kept apart)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from minedraft import prompts
from minedraft.types import InvalidInputError

MIN_HELDOUT = 300


def test_module_is_torch_free_and_the_same_in_another_process():
    # A fresh interpreter with another hash seed loads the module alone (package and `types`
    # stubbed) and must give the identical bench subset.
    code = f"""
import json, sys, types
pkg = types.ModuleType("minedraft"); pkg.__path__ = [{os.path.dirname(prompts.__file__)!r}]
stub = types.ModuleType("minedraft.types"); stub.InvalidInputError = ValueError
sys.modules.update({{"minedraft": pkg, "minedraft.types": stub}})
import minedraft.prompts as p
assert "torch" not in sys.modules
print(json.dumps(p.bench_prompts(40)))
"""
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert json.loads(out.stdout) == prompts.bench_prompts(40)


def test_heldout_counts_and_file_shape():
    ho = prompts.heldout_prompts()
    assert len(ho) >= MIN_HELDOUT
    assert prompts.heldout_prompts(10) == ho[:10]
    with open(prompts._HELDOUT_FILE, encoding="utf-8") as f:
        assert json.load(f) == ho


def test_heldout_has_no_duplicates_and_clean_text():
    ho = prompts.heldout_prompts()
    assert len(ho) == len(set(ho))
    for p in ho:
        assert p == p.strip() and p
        assert not re.search(r"\{[a-zA-Z]\}", p), p


def test_bench_prompts_are_a_fixed_nested_heldout_subset():
    ho = set(prompts.heldout_prompts())
    b8, b32 = prompts.bench_prompts(8), prompts.bench_prompts(32)
    assert b32[:8] == b8 and set(b32) <= ho and len(set(b32)) == 32
    assert prompts.bench_prompts(32) == b32
    assert b8 != prompts.heldout_prompts(8)  # a mix, not just the file's first prompts


@pytest.mark.parametrize("call", [
    lambda: prompts.heldout_prompts(-1), lambda: prompts.heldout_prompts(10**6),
    lambda: prompts.heldout_prompts(2.5), lambda: prompts.heldout_prompts(True),
    lambda: prompts.bench_prompts(0), lambda: prompts.bench_prompts(None),
    lambda: prompts.bench_prompts(10**6),
])
def test_bad_sizes_are_rejected(call):
    with pytest.raises(InvalidInputError):
        call()
