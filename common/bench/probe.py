"""Micro-measurements on warm requests, outside any scheduler.

- ``calibrate``: T_draft(b, k, L) and T_verify(b, k, L), the inputs of the cost model, at
  two contexts L: the prompts as they are and lengthened by ``LONG_CONTEXT`` tokens, so
  that the fit can separate attention (which grows with L) from the rest. Requests are
  prefilled once; every timed call then does steady-state work (the engines reuse the
  cached committed prefix, so drafting feeds one token per step and verification k + 1).
- ``cooperative_verification``: PSD runs acceptance on the target lane so that only token
  ids cross lanes. The naive split (MineDraft's code) materialises the processed
  full-vocabulary target distributions (probabilities and log-probabilities), hands them
  to the draft lane and accepts there. Both are timed on the same warm requests and drafts,
  and must decide the same outcome.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any

import torch

from ..backends import EnginePair
from ..lanes import LanePair
from ..rules.verification import verify
from ..sampling import processed_probs, row_params
from ..types import DraftBlock, RequestState, SamplingParams, VerifyOutcome, VerifyScores


@contextmanager
def intra_op_threads(n: int | None):
    """Set torch's (process-global) intra-op thread count for a block, then restore it."""
    saved = torch.get_num_threads()
    if n is not None:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(saved)


def _times(fn: Callable[[], Any], reps: int) -> tuple[list[float], Any]:
    times, result = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return times, result


def _median_time(fn: Callable[[], Any], reps: int) -> tuple[float, Any]:
    times, result = _times(fn, reps)
    return statistics.median(times), result


class WarmBatch:
    """b requests whose prompts are already in both engines' caches."""

    def __init__(self, engines: EnginePair, prompts: Sequence[Sequence[int]], batch: int,
                 params: SamplingParams | None = None) -> None:
        self.engines = engines
        params = params or SamplingParams(max_new_tokens=1 << 20)
        self.requests = [RequestState(prompt_ids=list(prompts[i % len(prompts)]), params=params) for i in range(batch)]
        if engines.drafter is not None:
            engines.drafter.propose(self.requests, [1] * batch)
        engines.target.score(self.requests, DraftBlock.empty([r.request_id for r in self.requests]))

    def draft(self, k: int) -> DraftBlock:
        assert self.engines.drafter is not None
        return self.engines.drafter.propose(self.requests, [k] * len(self.requests))

    def verify(self, block: DraftBlock) -> VerifyOutcome:
        return verify(block, self.engines.target.score(self.requests, block), self.requests)

    def close(self) -> None:
        for req in self.requests:
            for engine in (self.engines.drafter, self.engines.target):
                if engine is not None:
                    engine.release(req.request_id)


LONG_CONTEXT = 192  # tokens added to every prompt for the second calibration context
CALIBRATION_CONTEXTS = (0, LONG_CONTEXT)  # extra tokens of each calibration pass


def lengthened(prompts: Sequence[Sequence[int]], extra: int) -> list[list[int]]:
    """Each prompt followed by ``extra`` more of its own tokens, cycled (cost depends on the
    length, not on what the tokens say)."""
    return [list(p) + [p[i % len(p)] for i in range(extra)] for p in prompts]


def calibrate(engines: EnginePair, prompts: Sequence[Sequence[int]], batch_sizes: Sequence[int],
              ks: Sequence[int], threads: int | None, reps: int = 3,
              tick: Callable[[], None] | None = None,
              contexts: Sequence[int] = CALIBRATION_CONTEXTS) -> list[dict[str, Any]]:
    """Seconds of one drafting call (k tokens) and one verification (score k + 1 positions
    and apply the acceptance rule) per (batch, k) at each extra context of ``contexts``
    (tokens added to the prompts); k = 0 is an AR step. Each point records ``context``, the
    longest committed sequence of its batch."""
    points = []
    ks = sorted({0, *ks}) if engines.drafter is not None else [0]
    with intra_op_threads(threads), torch.inference_mode():
        for b in batch_sizes:
            for extra in contexts:
                warm = WarmBatch(engines, lengthened(prompts, extra), b)
                context = max(r.num_committed for r in warm.requests)
                try:
                    for k in ks:
                        points.append({"threads": threads, "batch": b, "k": k, "context": context,
                                       **_time_step(warm, k, reps)})
                        if tick:
                            tick()
                finally:
                    warm.close()
    return points


def _time_step(warm: WarmBatch, k: int, reps: int) -> dict[str, float | None]:
    """Fastest and median of ``reps`` calls. The cost model fits the fastest: the intrinsic
    cost, least disturbed by other processes on a shared machine."""
    out: dict[str, float | None] = {"t_draft": None, "t_draft_median": None}
    block = DraftBlock.empty([r.request_id for r in warm.requests])
    if k > 0:
        warm.draft(k)  # one untimed call: the first one at a new size may allocate
        times, block = _times(lambda: warm.draft(k), reps)
        out.update(t_draft=min(times), t_draft_median=statistics.median(times))
    times, _ = _times(lambda: warm.verify(block), reps)
    out.update(t_verify=min(times), t_verify_median=statistics.median(times))
    return out


def _handoff_probs(target: Any, requests: Sequence[RequestState],
                   block: DraftBlock) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Naive split, target lane: score, then materialise processed p and log p for every row."""
    scores = target.score(requests, block)
    temperature, top_k, top_p = row_params([r.params for r in requests], [k + 1 for k in block.lengths()])
    dev = scores.logits.device
    p = processed_probs(scores.logits, temperature.to(dev), top_k.to(dev), top_p.to(dev))  # [rows, vocab] fp32
    return p, torch.log(p), scores.cu_num_positions


def _accept_elsewhere(p: torch.Tensor, logp: torch.Tensor, cu: torch.Tensor, block: DraftBlock,
                      requests: Sequence[RequestState]) -> VerifyOutcome:
    """Naive split, draft lane: receive (copy) the distributions and run acceptance there.
    log p is the logit vector whose processed distribution is p again (greedy, or T = 1
    without top-k/top-p), so the shared rule decides exactly as on the target lane."""
    p_recv, logp_recv = p.clone(), logp.clone()  # the crossing: a receive buffer on the drafter's side
    del p_recv
    return verify(block, VerifyScores(logits=logp_recv, cu_num_positions=cu), requests)


def _reseed(requests: Sequence[RequestState], seed: int) -> None:
    for i, req in enumerate(requests):
        if req.verify_generator is not None:
            req.verify_generator.manual_seed(2 * (seed + i))


def cooperative_verification(engines: EnginePair, prompts: Sequence[Sequence[int]], batch: int, k: int,
                             reps: int = 5, seed: int = 0) -> dict[str, Any]:
    """Cooperative (accept on the target lane, token ids cross) against the naive split
    (full-vocabulary p and log p cross to the draft lane, accepted there), greedy and T = 1."""
    cases = []
    lanes = LanePair("threads", intra_op_threads=1)
    try:
        for name, params in (("greedy", SamplingParams(max_new_tokens=1 << 20)),
                             ("sampled T=1", SamplingParams(temperature=1.0, seed=seed, max_new_tokens=1 << 20))):
            warm = WarmBatch(engines, prompts, batch, params)
            try:
                cases.append(_coop_case(name, warm, lanes, k, reps, seed))
            finally:
                warm.close()
    finally:
        lanes.close()
    return {"batch_size": batch, "k": k, "reps": reps, "vocab_size": engines.target.vocab_size, "cases": cases}


def _coop_case(name: str, warm: WarmBatch, lanes: LanePair, k: int, reps: int, seed: int) -> dict[str, Any]:
    reqs, target = warm.requests, warm.engines.target
    block = warm.draft(k)

    def cooperative() -> VerifyOutcome:
        _reseed(reqs, seed)
        return lanes.target.submit("verify (cooperative)", warm.verify, block).result()

    def naive() -> tuple[VerifyOutcome, int]:
        _reseed(reqs, seed)
        p, logp, cu = lanes.target.submit("score + materialise p", _handoff_probs, target, reqs, block).result()
        out = lanes.draft.submit("accept (naive split)", _accept_elsewhere, p, logp, cu, block, reqs).result()
        return out, p.numel() * p.element_size() + logp.numel() * logp.element_size()

    cooperative(), naive()  # warm-up
    t_coop, out_coop = _median_time(cooperative, reps)
    t_naive, (out_naive, naive_bytes) = _median_time(naive, reps)
    coop_bytes = 8 * (sum(len(e) for e in out_coop.emitted) + len(out_coop.num_accepted))
    return {
        "sampling": name, "cooperative_seconds": t_coop, "naive_seconds": t_naive,
        "difference_seconds": t_naive - t_coop, "bytes_cooperative": coop_bytes, "bytes_naive": naive_bytes,
        "same_outcome": out_coop.num_accepted == out_naive.num_accepted and out_coop.emitted == out_naive.emitted,
    }
