"""Held-out prompts by class, for acceptance per prompt class (``--prompt-class``):

- ``chat``: the hand-written held-out chat requests (``minedraft.prompts``), chat-templated;
- ``text``: raw-text completion, the openings of Python standard-library module docstrings;
- ``code``: code completion, the first lines of standard-library functions.

``text`` and ``code`` come from ``data/prompt_classes.json`` (built once by
scripts/build_prompt_classes.py; each entry names its package, file and object) and are
sent as raw text, never chat-templated: the draft was distilled on chat prompts only.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from ..types import InvalidInputError

_FILE = Path(__file__).resolve().parent.parent / "data" / "prompt_classes.json"

# class -> whether its prompts are chat requests (templated) or raw completions
PROMPT_CLASSES: dict[str, bool] = {"chat": True, "text": False, "code": False}


@functools.lru_cache(maxsize=1)
def _entries() -> dict[str, list[dict[str, Any]]]:
    return json.loads(_FILE.read_text())


def class_entries(name: str) -> list[dict[str, Any]]:
    """The stored prompts of a raw class with where each came from."""
    if name not in PROMPT_CLASSES or PROMPT_CLASSES[name]:
        raise InvalidInputError(f"prompt class must be one of ['text', 'code'] here, got {name!r}")
    return list(_entries()[name])


def class_prompts(name: str, n: int) -> tuple[list[str], str]:
    """``n`` prompts of class ``name`` (cycled if the set is smaller) and their source."""
    if name not in PROMPT_CLASSES:
        raise InvalidInputError(f"prompt_class must be one of {list(PROMPT_CLASSES)}, got {name!r}")
    if name == "chat":
        from .. import prompts as builtin

        texts = builtin.bench_prompts(min(n, len(builtin.heldout_prompts())))
        source = "minedraft.prompts.bench_prompts"
    else:
        texts = [e["prompt"] for e in class_entries(name)]
        source = f"minedraft/data/prompt_classes.json:{name}"
    return [texts[i % len(texts)] for i in range(n)], source
