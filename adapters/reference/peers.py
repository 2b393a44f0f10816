"""What a user would otherwise run on the same model pair: Hugging Face transformers'
plain ``generate`` and its assisted generation (``generate(assistant_model=...)``).

Each peer is ``fn(engines, prompt_ids, *, max_new_tokens, num_speculative_tokens, temperature,
seed) -> {"outputs", "latency", "ttft", "wall_time", "settings"}`` (per-request lists, one
request at a time) with an attribute ``uses_draft``.

``minedraft bench`` runs them in the same session as AR/SD/PSD, on the very model objects
the reference engines hold, one request at a time (assisted generation supports batch 1
only). The core never imports transformers: it reaches these through the reference
backend's optional ``peers()`` capability.

Settings, chosen so that the comparison is like for like (and recorded in the results):
end-of-sequence is ignored like ``SamplingParams(ignore_eos=True)`` (every request emits
exactly ``max_new_tokens``); assisted generation drafts a constant
``num_assistant_tokens = k`` with no confidence-based early stop, i.e. standard SD with
the bench's k; sampling (T > 0) disables HF's default top-k = 50.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any

import torch

from minedraft.backends import EnginePair
from minedraft.types import InvalidInputError


class _FirstTokenClock:
    """A generate() streamer that notes when the first generated tokens arrive."""

    def __init__(self) -> None:
        self.calls = 0
        self.first: float | None = None

    def put(self, value: torch.Tensor) -> None:
        self.calls += 1
        if self.calls == 2 and self.first is None:  # call 1 is the prompt itself
            self.first = time.perf_counter()

    def end(self) -> None:
        pass


@contextmanager
def _quiet_transformers():
    """Assisted generation logs deprecation notices about its own internal kwargs."""
    from transformers.utils import logging

    level = logging.get_verbosity()
    logging.set_verbosity_error()
    try:
        yield
    finally:
        logging.set_verbosity(level)


def _generation_config(model: Any, max_new_tokens: int, temperature: float) -> Any:
    gc = copy.deepcopy(model.generation_config)
    gc.max_new_tokens = max_new_tokens
    gc.min_new_tokens = None
    gc.eos_token_id = None  # ignore EOS: fixed output length, as the bench's requests
    gc.do_sample = temperature > 0
    if gc.do_sample:
        gc.temperature, gc.top_k, gc.top_p = temperature, 0, 1.0
    else:
        gc.temperature, gc.top_k, gc.top_p = None, None, None
    if gc.pad_token_id is None:
        gc.pad_token_id = 0
    return gc


@contextmanager
def _assistant_settings(draft: Any, k: int):
    """Constant k drafts per round, no confidence threshold; restored afterwards (the draft
    model object is shared with the reference drafter)."""
    dgc = draft.generation_config
    saved = {a: getattr(dgc, a, None) for a in
             ("num_assistant_tokens", "num_assistant_tokens_schedule", "assistant_confidence_threshold")}
    dgc.num_assistant_tokens, dgc.num_assistant_tokens_schedule, dgc.assistant_confidence_threshold = k, "constant", 0.0
    try:
        yield
    finally:
        for a, v in saved.items():
            setattr(dgc, a, v)


def _run(model: Any, prompts: Sequence[Sequence[int]], max_new_tokens: int, temperature: float, seed: int,
         assistant: Any = None) -> dict[str, Any]:
    gc = _generation_config(model, max_new_tokens, temperature)
    device = next(model.parameters()).device
    outputs, latencies, ttfts = [], [], []
    with torch.inference_mode(), _quiet_transformers():
        for i, prompt in enumerate(prompts):
            ids = torch.tensor([list(prompt)], dtype=torch.long, device=device)  # [1, prompt_len]
            torch.manual_seed(seed + i)
            clock = _FirstTokenClock()
            t0 = time.perf_counter()
            out = model.generate(ids, attention_mask=torch.ones_like(ids), generation_config=gc,
                                 assistant_model=assistant, streamer=clock)
            t1 = time.perf_counter()
            outputs.append(out[0, ids.shape[1]:].tolist())
            latencies.append(t1 - t0)
            ttfts.append((clock.first or t1) - t0)
    return {"outputs": outputs, "latency": latencies, "ttft": ttfts, "wall_time": sum(latencies)}


def hf_generate(engines: EnginePair, prompts: Sequence[Sequence[int]], *, max_new_tokens: int,
                num_speculative_tokens: int, temperature: float = 0.0, seed: int = 0) -> dict[str, Any]:
    """Plain ``model.generate`` of the target, one request at a time."""
    result = _run(_model_of(engines.target, "target"), prompts, max_new_tokens, temperature, seed)
    result["settings"] = {"implementation": "transformers generate", "batch_size": 1, "ignore_eos": True}
    return result


def hf_assisted(engines: EnginePair, prompts: Sequence[Sequence[int]], *, max_new_tokens: int,
                num_speculative_tokens: int, temperature: float = 0.0, seed: int = 0) -> dict[str, Any]:
    """``model.generate(assistant_model=draft)`` with a constant k, one request at a time."""
    if engines.drafter is None:
        raise InvalidInputError("peer hf_assisted needs a draft model, got none")
    draft = _model_of(engines.drafter, "draft")
    with _assistant_settings(draft, num_speculative_tokens):
        result = _run(_model_of(engines.target, "target"), prompts, max_new_tokens, temperature, seed, draft)
    result["settings"] = {
        "implementation": "transformers assisted generation", "batch_size": 1, "ignore_eos": True,
        "num_assistant_tokens": num_speculative_tokens, "num_assistant_tokens_schedule": "constant",
        "assistant_confidence_threshold": 0.0,
    }
    return result


def _model_of(engine: Any, what: str) -> Any:
    runner = getattr(engine, "runner", None)
    if runner is None:
        raise InvalidInputError(f"peers need reference engines; the {what} engine is {type(engine).__name__}")
    return runner.model


def _assisted_unsupported(engines: EnginePair) -> str | None:
    """Assisted generation drives a standalone causal LM; an EAGLE-style head needs the
    target's hidden states, which transformers' assistant interface does not pass."""
    runner = getattr(engines.drafter, "runner", None)
    if runner is None or not hasattr(runner.model, "generate"):
        return (f"hf_assisted skipped: the draft engine ({type(engines.drafter).__name__}) is not a standalone "
                "causal LM that transformers' assisted generation can drive")
    return None


hf_generate.uses_draft = False  # type: ignore[attr-defined]
hf_assisted.uses_draft = True  # type: ignore[attr-defined]
hf_generate.unsupported = lambda engines: None  # type: ignore[attr-defined]
hf_assisted.unsupported = _assisted_unsupported  # type: ignore[attr-defined]
PEERS: dict[str, Callable[..., dict[str, Any]]] = {"hf_generate": hf_generate, "hf_assisted": hf_assisted}
