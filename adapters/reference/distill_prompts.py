"""The distillation training prompts: data in ``distill_data/`` (``categories.json``, and
``training_prompts.jsonl.gz`` with one ``{"category", "prompt"}`` object a line), made from
templates by ``scripts/make_distill_prompts.py`` (docs/prompts.md). The held-out prompts the
draft is measured on live in the core (``minedraft.prompts``). Pure Python.
"""

from __future__ import annotations

import functools
import gzip
import json
import random
from collections.abc import Sequence
from pathlib import Path

from minedraft.prompts import check_count
from minedraft.types import InvalidInputError

_DATA_DIR = Path(__file__).parent / "distill_data"
_CATEGORIES_FILE = _DATA_DIR / "categories.json"
_PROMPTS_FILE = _DATA_DIR / "training_prompts.jsonl.gz"


def _load_categories() -> dict[str, str]:
    with open(_CATEGORIES_FILE, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or not all(isinstance(v, str) and v.strip() for v in data.values()):
        raise ValueError(f"{_CATEGORIES_FILE} must hold a JSON object: category name -> description")
    return data


# Training categories, name -> one-line description, in build order.
CATEGORIES: dict[str, str] = _load_categories()


@functools.cache
def _training_by_category() -> dict[str, tuple[str, ...]]:
    """Each category's prompts in build order (the file's order)."""
    out: dict[str, list[str]] = {name: [] for name in CATEGORIES}
    with gzip.open(_PROMPTS_FILE, "rt", encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            row = json.loads(line)
            if row.get("category") not in out or not isinstance(row.get("prompt"), str) or not row["prompt"]:
                raise ValueError(f"{_PROMPTS_FILE} line {number}: want a known category and a non-empty prompt, "
                                 f"got {line.strip()[:200]}")
            out[row["category"]].append(row["prompt"])
    return {name: tuple(ps) for name, ps in out.items()}


def training_prompts_by_category() -> dict[str, list[str]]:
    """The whole training set, by category (keys in ``CATEGORIES`` order)."""
    return {name: list(ps) for name, ps in _training_by_category().items()}


def category_counts() -> dict[str, int]:
    """Number of training prompts per category."""
    return {name: len(ps) for name, ps in _training_by_category().items()}


def training_prompts(n: int | None = None, seed: int = 0, categories: Sequence[str] | None = None) -> list[str]:
    """``n`` training prompts (all of them when ``None``) in a ``seed``-determined order,
    from ``categories`` only when given (names from ``CATEGORIES``).

    The order is stratified: every prefix holds the categories in proportion to their
    sizes, so a small ``n`` still covers every category.
    """
    by_cat = _training_by_category()
    if categories is not None:
        if isinstance(categories, str) or not categories:
            raise InvalidInputError(f"categories must be a non-empty list of names, got {categories!r}")
        unknown = [c for c in categories if c not in by_cat]
        if unknown:
            raise InvalidInputError(f"categories: unknown name(s) {unknown}; known: {sorted(by_cat)}")
        by_cat = {name: ps for name, ps in by_cat.items() if name in categories}
    total = sum(len(ps) for ps in by_cat.values())
    check_count(n, total, "n")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidInputError(f"seed must be an int, got {seed!r}")
    rng = random.Random(seed)
    keyed = []
    for ps in by_cat.values():
        order = list(ps)
        rng.shuffle(order)
        # item i of a category of size m sits at a random point of its 1/m-wide slot
        keyed += [((i + rng.random()) / len(order), p) for i, p in enumerate(order)]
    keyed.sort(key=lambda kp: kp[0])
    prompts = [p for _, p in keyed]
    return prompts if n is None else prompts[:n]
