"""When the serving benchmark's requests arrive, and what each asks for.

Arrivals follow vLLM's ``benchmark_serving``: gaps drawn from a gamma distribution with
shape ``burstiness`` and mean 1 / rate (burstiness 1: a Poisson process); rate inf sends
every request at once (then ``max_concurrency`` alone shapes the load). Prompts are drawn
from the prompt set and output lengths from [N (1 - s), N (1 + s)], all from one seeded
generator, so that every mode and transport sees the same schedule.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..types import InvalidInputError


@dataclass(frozen=True)
class ServingRequest:
    index: int
    arrival: float  # seconds after the benchmark start
    prompt_ids: tuple[int, ...]
    prompt_text: str | None  # what the HTTP transport sends; None: send the token ids
    max_new_tokens: int


def arrival_times(n: int, rate: float, seed: int, burstiness: float = 1.0) -> list[float]:
    """``n`` send times (seconds from the start; the first at 0) at ``rate`` requests/s."""
    if not (isinstance(rate, (int, float)) and rate > 0):
        raise InvalidInputError(f"request rate must be a number > 0 (or inf), got {rate!r}")
    if not (isinstance(burstiness, (int, float)) and burstiness > 0):
        raise InvalidInputError(f"burstiness must be a number > 0, got {burstiness!r}")
    if math.isinf(rate):
        return [0.0] * n
    rng = random.Random(f"arrivals:{seed}")
    times, t = [], 0.0
    for _ in range(n):
        times.append(t)
        t += rng.gammavariate(burstiness, 1.0 / (rate * burstiness))
    return times


def output_lengths(n: int, max_new_tokens: int, spread: float, seed: int) -> list[int]:
    if not 0 <= spread < 1:
        raise InvalidInputError(f"output length spread must be in [0, 1), got {spread!r}")
    rng = random.Random(f"lengths:{seed}")
    low, high = max(1, round(max_new_tokens * (1 - spread))), round(max_new_tokens * (1 + spread))
    return [rng.randint(low, high) for _ in range(n)]


def build_requests(prompt_ids: Sequence[Sequence[int]], prompt_texts: Sequence[str | None], n: int, rate: float,
                   max_new_tokens: int, spread: float, seed: int, burstiness: float = 1.0) -> list[ServingRequest]:
    """``n`` requests: prompt i drawn (seeded, with replacement once the set is used up)
    from the pool, output length drawn per request, send time from ``arrival_times``."""
    if not prompt_ids or len(prompt_ids) != len(prompt_texts):
        raise InvalidInputError(f"prompt pool must be non-empty with one text per prompt, got {len(prompt_ids)} "
                                f"prompts and {len(prompt_texts)} texts")
    if n < 1:
        raise InvalidInputError(f"num_prompts must be >= 1, got {n!r}")
    rng = random.Random(f"prompts:{seed}")
    order = list(range(len(prompt_ids)))
    rng.shuffle(order)
    picks = [order[i] if i < len(order) else rng.randrange(len(order)) for i in range(n)]
    lengths = output_lengths(n, max_new_tokens, spread, seed)
    times = arrival_times(n, rate, seed, burstiness)
    return [ServingRequest(i, times[i], tuple(prompt_ids[p]), prompt_texts[p], lengths[i])
            for i, p in enumerate(picks)]
