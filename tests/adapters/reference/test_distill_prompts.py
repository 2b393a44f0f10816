"""The distillation training prompts (data shipped with the reference adapter): that they
are what the former in-core generator built, that the generator script still makes them,
sizes, coverage, and separation from the held-out evaluation set."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from minedraft import prompts as core_prompts
from minedraft.adapters.reference import distill_prompts as prompts
from minedraft.types import InvalidInputError

GENERATOR = Path(__file__).resolve().parents[3] / "scripts" / "make_distill_prompts.py"

MIN_TRAINING = 5000
MIN_PER_CATEGORY = 100
NEAR_DUP_N = 8  # a shared run of this many words counts as a near-duplicate


def _words(s: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", s.lower())


def _ngrams(s: str, n: int) -> set[tuple[str, ...]]:
    w = _words(s)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def _sha256(obj: object) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False).encode()).hexdigest()


def test_shipped_prompts_are_what_the_former_core_module_built():
    """Hashes of what ``minedraft.prompts`` (the templates in the core, before the prompts
    became data) returned, taken before the move: the same prompts, categories and orders."""
    assert _sha256(prompts.training_prompts_by_category()) == (
        "d0e5c9e87e5a6fe1652ce292d5bfde957208a4c11665b0f036e54cebc052121b")
    assert _sha256(prompts.CATEGORIES) == "701683db8e80c87576df99c0f45ee7e22c04ac186710fbfb548eaa7b0bdffe33"
    assert _sha256(prompts.training_prompts()) == (
        "1586109785c9e5fe8a582d8bc22e819fab9dce2b9ebcd7e531177a06aaa27c12")
    assert _sha256(prompts.training_prompts(50, seed=3)) == (
        "400a18521a8a766f1e233afc94085d726ded315456d09854796864904b8a7733")


def test_generator_script_makes_the_shipped_files_under_any_hash_seed(tmp_path):
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    check = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True, env=env)
    assert check.returncode == 0, check.stderr
    # --check does compare: files that differ by one prompt fail it
    stale = tmp_path / "stale"
    shutil.copytree(Path(prompts.__file__).parent / "distill_data", stale)
    rows = gzip.decompress((stale / "training_prompts.jsonl.gz").read_bytes()).decode().splitlines()
    (stale / "training_prompts.jsonl.gz").write_bytes(gzip.compress("\n".join(rows[:-1]).encode()))
    check = subprocess.run([sys.executable, str(GENERATOR), "--check", "--out-dir", str(stale)],
                           capture_output=True, text=True)
    assert check.returncode == 1 and "rerun" in check.stderr


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
    for ps in (prompts.training_prompts(), core_prompts.heldout_prompts()):
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


def test_heldout_is_disjoint_from_training():
    train = prompts.training_prompts()
    ho = core_prompts.heldout_prompts()
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
    for h in core_prompts.heldout_prompts():
        words = _content_words(h)
        shared = Counter(i for w in words for i in postings.get(w, ()))
        for i, k in shared.items():
            if k / (len(words) + len(train[i]) - k) >= 0.6:
                too_close.append((h, train_prompts[i]))
    assert not too_close, too_close[:5]


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
    lambda: prompts.training_prompts(5, seed="x"),
])
def test_bad_sizes_are_rejected(call):
    with pytest.raises(InvalidInputError):
        call()
