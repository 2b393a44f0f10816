"""The held-out prompt set, for the benchmark and acceptance measurement: hand-written
prompts in ``data/heldout_prompts.json``, sharing no template with the distillation
training prompts (those are data of the reference adapter: ``minedraft.adapters.reference.
distill_prompts``). Pure Python: no torch, no tokenizer.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

from .types import InvalidInputError

_DATA_DIR = Path(__file__).parent / "data"
_HELDOUT_FILE = _DATA_DIR / "heldout_prompts.json"
_BENCH_SEED = "minedraft.prompts:bench"


def check_count(n: object, limit: int, field: str, minimum: int = 0) -> None:
    """``n`` must be None or an int in ``[minimum, limit]``."""
    if n is None:
        return
    if isinstance(n, bool) or not isinstance(n, int) or not minimum <= n <= limit:
        raise InvalidInputError(f"{field} must be an int in [{minimum}, {limit}] or None, got {n!r}")


@functools.cache
def _heldout() -> tuple[str, ...]:
    with open(_HELDOUT_FILE, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, list) or not all(isinstance(p, str) and p.strip() for p in data):
        raise ValueError(f"{_HELDOUT_FILE} must hold a JSON list of non-empty strings")
    return tuple(data)


def heldout_prompts(n: int | None = None) -> list[str]:
    """The first ``n`` held-out evaluation prompts (all when ``None``), in file order."""
    data = _heldout()
    check_count(n, len(data), "n")
    return list(data if n is None else data[:n])


def bench_prompts(n: int) -> list[str]:
    """A fixed subset of ``n`` held-out prompts for the benchmark: a prefix of one fixed
    permutation, so ``bench_prompts(8)`` is contained in ``bench_prompts(16)``."""
    data = list(_heldout())
    check_count(n, len(data), "n", minimum=1)
    if n is None:
        raise InvalidInputError("n must be an int, got None")
    random.Random(_BENCH_SEED).shuffle(data)
    return data[:n]
