"""The built-in prompt sets: determinism, sizes, coverage, and separation of the held-out
evaluation set from the templated training set."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter

import pytest

from minedraft import prompts
from minedraft.types import InvalidInputError

MIN_TRAINING = 5000
MIN_HELDOUT = 300
MIN_PER_CATEGORY = 100
NEAR_DUP_N = 8  # a shared run of this many words counts as a near-duplicate


def _words(s: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", s.lower())


def _ngrams(s: str, n: int) -> set[tuple[str, ...]]:
    w = _words(s)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def test_training_is_deterministic_within_and_across_processes():
    assert prompts.training_prompts() == prompts.training_prompts()
    # A fresh interpreter with another hash seed must build the identical list. It loads the
    # module alone (package and `types` stubbed), which also proves the module is torch-free.
    code = f"""
import json, sys, types
pkg = types.ModuleType("minedraft"); pkg.__path__ = [{os.path.dirname(prompts.__file__)!r}]
stub = types.ModuleType("minedraft.types"); stub.InvalidInputError = ValueError
sys.modules.update({{"minedraft": pkg, "minedraft.types": stub}})
import minedraft.prompts as p
assert "torch" not in sys.modules
print(json.dumps(p.training_prompts(50, seed=3)))
"""
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert json.loads(out.stdout) == prompts.training_prompts(50, seed=3)


def test_training_counts_and_categories():
    by_cat = prompts.training_prompts_by_category()
    assert list(by_cat) == list(prompts.CATEGORIES)
    assert len(prompts.CATEGORIES) >= 15
    for name, ps in by_cat.items():
        assert len(ps) >= MIN_PER_CATEGORY, (name, len(ps))
        assert prompts.CATEGORIES[name].strip()
    assert prompts.category_counts() == {k: len(v) for k, v in by_cat.items()}
    everything = prompts.training_prompts()
    assert len(everything) == sum(prompts.category_counts().values()) >= MIN_TRAINING
    assert sorted(everything) == sorted(p for ps in by_cat.values() for p in ps)


def test_no_exact_duplicates_and_clean_text():
    for ps in (prompts.training_prompts(), prompts.heldout_prompts()):
        assert len(ps) == len(set(ps))
        for p in ps:
            assert p == p.strip() and p
            assert "{" not in p or "}" in p, p  # no unfilled template slot
            assert not re.search(r"\{[a-zA-Z]\}", p), p
            assert not re.search(r"[a-z]\.\.(\s|$)|[?!]\.(\s|$)", p), p  # 'a.m..' or '?.' from joins


def test_training_has_varied_wording():
    ps = prompts.training_prompts()
    openers = {tuple(_words(p)[:2]) for p in ps}
    assert len(openers) >= 400  # many distinct two-word openers, not a handful of templates
    lengths = [len(_words(p)) for p in ps]
    assert min(lengths) <= 4 and max(lengths) >= 80  # a few words up to several sentences


def test_seed_and_n_select_a_stratified_prefix():
    full = prompts.training_prompts(seed=0)
    assert prompts.training_prompts(200, seed=0) == full[:200]
    other = prompts.training_prompts(seed=1)
    assert other != full and sorted(other) == sorted(full)
    # the first few hundred prompts already cover every category
    head = set(prompts.training_prompts(300, seed=7))
    for name, ps in prompts.training_prompts_by_category().items():
        assert head & set(ps), name


def test_heldout_counts_and_file_shape():
    ho = prompts.heldout_prompts()
    assert len(ho) >= MIN_HELDOUT
    assert prompts.heldout_prompts(10) == ho[:10]
    with open(prompts._HELDOUT_FILE, encoding="utf-8") as f:
        assert json.load(f) == ho


def test_heldout_is_disjoint_from_training():
    train = prompts.training_prompts()
    ho = prompts.heldout_prompts()
    assert not set(ho) & set(train)
    train_grams: set[tuple[str, ...]] = set()
    for p in train:
        train_grams |= _ngrams(p, NEAR_DUP_N)
    shared = {h: g for h in ho for g in _ngrams(h, NEAR_DUP_N) if g in train_grams}
    assert not shared, shared


_STOP = set("""a an the of to and or in on for with is are was were be what how why do does i my me you your
can could would should it that this which who whats what's about from at as by if into its it's not no so than then
there their they them we our us please give tell write make some any more most""".split())


def _content_words(s: str) -> set[str]:
    return {w.rstrip("s") for w in re.findall(r"[a-z]+", s.lower()) if w not in _STOP and len(w) > 2}


def test_heldout_asks_different_things_than_training():
    """No held-out prompt is the same question reworded: its content words overlap every
    training prompt's by less than 60% (Jaccard)."""
    train_prompts = prompts.training_prompts()
    train = [_content_words(p) for p in train_prompts]
    postings: dict[str, list[int]] = {}
    for i, words in enumerate(train):
        for w in words:
            postings.setdefault(w, []).append(i)
    too_close = []
    for h in prompts.heldout_prompts():
        words = _content_words(h)
        shared = Counter(i for w in words for i in postings.get(w, ()))
        for i, k in shared.items():
            if k / (len(words) + len(train[i]) - k) >= 0.6:
                too_close.append((h, train_prompts[i]))
    assert not too_close, too_close[:5]


def test_bench_prompts_are_a_fixed_nested_heldout_subset():
    ho = set(prompts.heldout_prompts())
    b8, b32 = prompts.bench_prompts(8), prompts.bench_prompts(32)
    assert b32[:8] == b8 and set(b32) <= ho and len(set(b32)) == 32
    assert prompts.bench_prompts(32) == b32
    assert b8 != prompts.heldout_prompts(8)  # a mix, not just the file's first prompts


def test_categories_select_a_subset_in_stratified_order():
    picked = ["pets", "whatif"]
    by_cat = prompts.training_prompts_by_category()
    sub = prompts.training_prompts(seed=3, categories=picked)
    assert sorted(sub) == sorted(by_cat["pets"] + by_cat["whatif"])
    assert sub == prompts.training_prompts(seed=3, categories=picked)
    head = prompts.training_prompts(40, seed=3, categories=picked)
    assert head == sub[:40] and set(head) & set(by_cat["pets"]) and set(head) & set(by_cat["whatif"])
    everything = prompts.training_prompts(seed=3, categories=list(prompts.CATEGORIES))
    assert everything == prompts.training_prompts(seed=3)


@pytest.mark.parametrize("categories", [["pets", "nonsense"], [], "pets"])
def test_bad_categories_are_rejected_by_name(categories):
    with pytest.raises(InvalidInputError, match="categories"):
        prompts.training_prompts(categories=categories)


@pytest.mark.parametrize("call", [
    lambda: prompts.training_prompts(-1), lambda: prompts.training_prompts(10**9),
    lambda: prompts.training_prompts(2.5), lambda: prompts.training_prompts(True),
    lambda: prompts.training_prompts(5, seed="x"), lambda: prompts.heldout_prompts(10**6),
    lambda: prompts.bench_prompts(0), lambda: prompts.bench_prompts(None),
])
def test_bad_sizes_are_rejected(call):
    with pytest.raises(InvalidInputError):
        call()
