"""The benchmark's requests: built-in prompts, chat-templated and tokenised once, and one
``SamplingParams`` per request (fixed output length, as in MineDraft's evaluation)."""

from __future__ import annotations

import random
from typing import Any

from ..backends import EnginePair
from ..types import InvalidInputError, SamplingParams
from .prompt_classes import PROMPT_CLASSES, class_prompts


def prompt_texts(n: int) -> tuple[list[str], str]:
    """``n`` prompts and where they came from; the built-in set is cycled if ``n`` exceeds it.
    A prompt set that cannot be loaded is an error: the bench never measures another one."""
    from .. import prompts as builtin

    try:
        available = len(builtin.heldout_prompts())
        texts = builtin.bench_prompts(min(n, available))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(
            f"the bench prompt set (minedraft.prompts.bench_prompts, file {builtin._HELDOUT_FILE}) could not be "
            f"loaded: {type(exc).__name__}: {exc}; reinstall minedraft or restore the file"
        ) from exc
    texts = [texts[i % len(texts)] for i in range(n)]
    return texts, "minedraft.prompts.bench_prompts"


def _encode(tokenizer: Any, text: str, templated: bool) -> list[int]:
    if templated:
        try:
            return list(tokenizer.encode(text, add_special_tokens=False))  # the template has them
        except TypeError:
            pass
    return list(tokenizer.encode(text))


def prompt_ids(engines: EnginePair, n: int, chat: bool, seed: int,
               prompt_class: str = "chat") -> tuple[list[list[int]], dict[str, Any]]:
    """Token ids of ``n`` prompts of ``prompt_class`` (minedraft.bench.prompt_classes; only
    chat prompts are chat-templated). Engines without a tokenizer (in-memory models) get
    synthetic prompts of 8 to 24 random token ids."""
    tok = engines.tokenizer
    if tok is None:
        rng = random.Random(seed)
        vocab = engines.target.vocab_size
        ids = [[rng.randrange(2, vocab) for _ in range(rng.randint(8, 24))] for _ in range(n)]
        return ids, {"source": "synthetic token ids", "chat_template": False, "prompt_class": "synthetic"}
    if prompt_class == "chat":
        texts, source = prompt_texts(n)
    else:
        texts, source = class_prompts(prompt_class, n)
    templated = bool(chat and PROMPT_CLASSES[prompt_class] and getattr(tok, "chat_template", None)
                     and hasattr(tok, "apply_chat_template"))
    if templated:
        texts = [tok.apply_chat_template([{"role": "user", "content": t}], tokenize=False, add_generation_prompt=True)
                 for t in texts]
    ids = [_encode(tok, t, templated) for t in texts]
    return ids, {"source": source, "chat_template": templated, "prompt_class": prompt_class}


def request_params(n: int, max_new_tokens: int, temperature: float, seed: int,
                   spread: float = 0.0) -> list[SamplingParams]:
    """Outputs of a length fixed per request (EOS ignored) so that every mode does the same
    work; sampled runs seed each request, so modes draw from identical per-request streams.
    ``spread`` > 0 draws request i's length uniformly from [N (1 - spread), N (1 + spread)]
    with a generator seeded by ``seed``, so request i asks for the same length in every mode."""
    lengths = [max_new_tokens] * n
    if spread > 0:
        rng = random.Random(seed)
        low, high = max(1, round(max_new_tokens * (1 - spread))), round(max_new_tokens * (1 + spread))
        lengths = [rng.randint(low, high) for _ in range(n)]
    return [
        SamplingParams(temperature=temperature, max_new_tokens=length, ignore_eos=True,
                       seed=(seed + i) if temperature > 0 else None)
        for i, length in enumerate(lengths)
    ]
