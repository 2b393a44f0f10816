"""Serving metrics of one load level, defined as vLLM's ``benchmark_serving`` and SGLang's
``bench_serving`` define them (docs/serving-bench.md):

- TTFT: first streamed token's arrival - the request's send time (queueing and prefill included);
- TPOT: per request, (E2E latency - TTFT) / (output tokens - 1), requests of 2+ tokens;
- ITL: every gap between consecutive streamed chunks, pooled over requests. Speculative
  decoding commits several tokens per step, so a chunk may carry several tokens (as with
  vLLM/SGLang's spec decoding): ITL then exceeds TPOT;
- E2E latency: last chunk's arrival - send time;
- output throughput: output tokens of completed requests / benchmark duration (first send
  to last completion); request throughput likewise;
- goodput: completed requests meeting every given SLO (TTFT <= slo_ttft, TPOT <= slo_tpot;
  a one-token request has TPOT 0) per second of the benchmark.

Percentiles interpolate linearly between order statistics (numpy's default).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .metrics import percentile

PERCENTILES = (50, 90, 99)


@dataclass
class RequestRecord:
    """One request as the client saw it (times on the client's perf_counter clock)."""

    index: int
    arrival: float  # scheduled send time, seconds after the benchmark start
    start: float = 0.0  # when it was sent
    end: float = 0.0  # when the last chunk (or the error) arrived
    chunk_times: list[float] = field(default_factory=list)  # arrival of every streamed chunk with tokens
    chunk_tokens: list[int] = field(default_factory=list)  # tokens per chunk (1 each if unknown)
    output_tokens: int = 0
    prompt_tokens: int | None = None
    token_ids: list[int] | None = None  # in-process transport only
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def ttft(self) -> float | None:
        return self.chunk_times[0] - self.start if self.chunk_times else None

    @property
    def latency(self) -> float:
        return self.end - self.start

    @property
    def tpot(self) -> float | None:
        if self.output_tokens < 2 or self.ttft is None:
            return None
        return (self.latency - self.ttft) / (self.output_tokens - 1)

    @property
    def itls(self) -> list[float]:
        return [b - a for a, b in zip(self.chunk_times, self.chunk_times[1:])]

    def to_json(self, origin: float) -> dict[str, Any]:
        return {"index": self.index, "arrival": self.arrival, "start": self.start - origin,
                "ttft": self.ttft, "latency": self.latency, "tpot": self.tpot, "output_tokens": self.output_tokens,
                "prompt_tokens": self.prompt_tokens, "chunks": len(self.chunk_times), "error": self.error}


def distribution(values: Sequence[float]) -> dict[str, float | None]:
    """Mean and the ``PERCENTILES``; None throughout when there are no values."""
    if not values:
        return {"mean": None, **{f"p{q}": None for q in PERCENTILES}}
    return {"mean": statistics.fmean(values), **{f"p{q}": percentile(values, q) for q in PERCENTILES}}


def meets_slo(record: RequestRecord, slo_ttft: float | None, slo_tpot: float | None) -> bool:
    if not record.ok:
        return False
    if slo_ttft is not None and (record.ttft is None or record.ttft > slo_ttft):
        return False
    return slo_tpot is None or (record.tpot or 0.0) <= slo_tpot


def summarize(records: Sequence[RequestRecord], duration: float, slo_ttft: float | None = None,
              slo_tpot: float | None = None) -> dict[str, Any]:
    """The metrics of one run (a mode at one load) from its request records; seconds throughout."""
    done = [r for r in records if r.ok]
    tokens = sum(r.output_tokens for r in done)
    has_slo = slo_ttft is not None or slo_tpot is not None
    good = sum(meets_slo(r, slo_ttft, slo_tpot) for r in done) if has_slo else None
    per_s = (lambda x: x / duration) if duration > 0 else (lambda x: 0.0)
    errors = [r for r in records if not r.ok]
    return {
        "num_requests": len(records), "completed": len(done), "errors": len(errors),
        "error_messages": sorted({r.error for r in errors})[:5], "duration": duration,
        "output_tokens": tokens, "request_throughput": per_s(len(done)), "output_throughput": per_s(tokens),
        "ttft": distribution([r.ttft for r in done if r.ttft is not None]),
        "tpot": distribution([r.tpot for r in done if r.tpot is not None]),
        "itl": distribution([g for r in done for g in r.itls]),
        "e2e_latency": distribution([r.latency for r in done]),
        "tokens_per_chunk": (tokens / sum(len(r.chunk_times) for r in done)) if done and any(
            r.chunk_times for r in done) else None,
        "slo": {"ttft": slo_ttft, "tpot": slo_tpot},
        "good_requests": good, "goodput": None if good is None else per_s(good),
    }


def rate_label(rate: float | None) -> str:
    """A request rate as the reports print it (``inf``: all requests at once)."""
    return "inf" if rate is None or math.isinf(rate) else f"{rate:g}"
