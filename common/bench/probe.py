"""Micro-measurements on warm requests, outside any scheduler.

- ``calibrate``: T_draft(b, k, L) and T_verify(b, k, L), the inputs of the cost model, at
  two contexts L: the prompts as they are and lengthened by ``LONG_CONTEXT`` tokens, so
  that the fit can separate attention (which grows with L) from the rest. Requests are
  prefilled once; the timed calls are then decode steps: each verification commits its
  tokens, and the next draft call feeds them, right after a target forward, as in SD.
  For PSD's lanes (``overlapped``) two batches of b take turns as in PSD: one is verified
  on the target lane while the other is drafted on the draft lane, so that each call is
  timed sharing the cores with the other lane's call, as it is in PSD.
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
        params = params or SamplingParams(temperature=0.0, max_new_tokens=1 << 20)
        self.requests = [RequestState(prompt_ids=list(prompts[i % len(prompts)]), params=params) for i in range(batch)]
        if engines.drafter is not None:
            engines.drafter.propose(self.requests, [1] * batch)
        engines.target.score(self.requests, DraftBlock.empty([r.request_id for r in self.requests]))

    def draft(self, k: int) -> DraftBlock:
        assert self.engines.drafter is not None
        return self.engines.drafter.propose(self.requests, [k] * len(self.requests))

    def verify(self, block: DraftBlock) -> VerifyOutcome:
        return verify(block, self.engines.target.score(self.requests, block), self.requests)

    def commit(self, outcome: VerifyOutcome) -> None:
        """Append the emitted tokens and tell the engines, as a scheduler's commit does (no
        stop conditions: these requests run for as long as they are timed)."""
        for req, tokens in zip(self.requests, outcome.emitted):
            req.output_ids.extend(tokens)
        for engine in (self.engines.drafter, self.engines.target):
            if engine is not None:
                engine.on_verified(outcome)

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
              contexts: Sequence[int] = CALIBRATION_CONTEXTS, overlapped: bool = False) -> list[dict[str, Any]]:
    """Seconds of one drafting call (k tokens) and one verification (score k + 1 positions
    and apply the acceptance rule) per (batch, k) at each extra context of ``contexts``
    (tokens added to the prompts); k = 0 is an AR step. Each call is timed in a decode step
    (``reps`` of them after one untimed): SD's sequence, or with ``overlapped`` (and
    k > 0) PSD's, each lane on ``threads`` intra-op threads. Each point records
    ``context``, the longest committed sequence of its batch at the first timed step, and
    ``overlapped``."""
    ks = sorted({0, *ks}) if engines.drafter is not None else [0]
    lanes = LanePair("threads", intra_op_threads=threads) if overlapped else None
    points: list[dict[str, Any]] = []
    try:
        with intra_op_threads(threads), torch.inference_mode():
            for b in batch_sizes:
                for extra in contexts:
                    points += _calibrate_batch(engines, lengthened(prompts, extra), b, ks, threads, reps, lanes, tick)
    finally:
        if lanes is not None:
            lanes.close()
    return points


def _calibrate_batch(engines: EnginePair, prompts: Sequence[Sequence[int]], b: int, ks: Sequence[int],
                     threads: int | None, reps: int, lanes: LanePair | None,
                     tick: Callable[[], None] | None) -> list[dict[str, Any]]:
    """The points of one batch size at one context: SD's steps, or PSD's on ``lanes``."""
    pair = [WarmBatch(engines, prompts, b) for _ in range(1 if lanes is None else 2)]
    points = []
    try:
        for k in ks:
            context = max(r.num_committed for r in pair[0].requests)
            if lanes is not None and k > 0:
                drafts, verifies = time_overlapped_steps(pair, lanes, k, reps)
            else:
                drafts, verifies = time_sequential_steps(pair[0], k, reps)
            points.append({"threads": threads, "batch": b, "k": k, "context": context,
                           "overlapped": lanes is not None and k > 0,
                           **_summary("t_draft", drafts), **_summary("t_verify", verifies)})
            if tick:
                tick()
    finally:
        for warm in pair:
            warm.close()
    return points


def _summary(name: str, times: list[float]) -> dict[str, float | None]:
    """Median (fitted: the cost model predicts decode throughput, which pays the typical
    step, not the luckiest) and fastest (``_min``)."""
    if not times:
        return {name: None, f"{name}_min": None}
    return {name: statistics.median(times), f"{name}_min": min(times)}


def _timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """``fn(*args)`` and its seconds; inference mode is per thread, so lanes need their own."""
    with torch.inference_mode():
        t0 = time.perf_counter()
        result = fn(*args)
        return result, time.perf_counter() - t0


def time_sequential_steps(warm: WarmBatch, k: int, reps: int) -> tuple[list[float], list[float]]:
    """SD's steps (AR's at k = 0): draft, verify, commit. The first is untimed: the first
    call at a new size may allocate."""
    empty = DraftBlock.empty([r.request_id for r in warm.requests])
    drafts, verifies = [], []
    for _ in range(reps + 1):
        block, t_draft = _timed(warm.draft, k) if k > 0 else (empty, 0.0)
        outcome, t_verify = _timed(warm.verify, block)
        warm.commit(outcome)
        drafts.append(t_draft)
        verifies.append(t_verify)
    return (drafts[1:] if k > 0 else []), verifies[1:]


def time_overlapped_steps(pair: list[WarmBatch], lanes: LanePair, k: int, reps: int) -> tuple[list[float], list[float]]:
    """PSD's steps on its two lanes: verify one batch's drafts while drafting the other's,
    commit, swap. The first is untimed."""
    verified, drafted = pair
    block = verified.draft(k)
    drafts, verifies = [], []
    for _ in range(reps + 1):
        verifying = lanes.target.submit("verify", _timed, verified.verify, block)
        drafting = lanes.draft.submit("draft", _timed, drafted.draft, k)
        (outcome, t_verify), (block, t_draft) = verifying.result(), drafting.result()
        verified.commit(outcome)
        verified, drafted = drafted, verified
        drafts.append(t_draft)
        verifies.append(t_verify)
    return drafts[1:], verifies[1:]


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
        for name, params in (("greedy", SamplingParams(temperature=0.0, max_new_tokens=1 << 20)),
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
