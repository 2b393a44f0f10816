"""How far an approximate mode (SMC-SD) drifts from the target's exact samples.

SMC-SD trades exactness for speed, so its modes are measured against exact samples (mode
"ar") on the same engines, the same prompts and the same temperature; every figure also
has its exact-sampling value, which is its finite-sample floor (or its expected value).
The rules themselves are in ``minedraft.rules.smc_weights``; scripts/smc_drift.py runs this
on real models and docs/smc.md reports the figures.

- first_token_kl: KL(empirical law of the first generated token || target's exact
  first-token distribution p1), averaged over prompts. p1 is computed, not sampled, so
  this is the one per-token KL that can be estimated from samples without a density for
  the SMC output (the other direction, KL(p1 || empirical), is infinite whenever a
  token is unseen). Exact samples give about (support - 1) / (2 * samples) > 0. Its
  standard error is over prompts; the others' are over samples.
- nll: mean per-token target negative log-likelihood, -log p(x_t | x_<t) at the
  sampling temperature, of the generated tokens (a cross-entropy; for exact samples, an
  estimate of the target's per-token entropy). Lower than exact: mode-seeking drift.
- greedy_agreement: share of generated tokens equal to the target's argmax given their
  own prefix; greedy_prefix: mean share of the target's greedy answer (first
  max_new_tokens tokens) that a sample reproduces as a prefix.
- tokens_per_pass: generated tokens per target verification pass, per request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import torch

from ..sampling import processed_probs, row_params
from ..schedulers import SCHEDULERS, SchedulerConfig, create_scheduler
from ..schedulers.smc import SMCOptions
from ..types import DraftBlock, InvalidInputError, RequestState, SamplingParams


def measure_drift(
    engines: Any,  # minedraft.backends.EnginePair
    prompts: Sequence[Sequence[int]],
    *,
    modes: Sequence[str] = ("smc",),
    temperature: float = 1.0,
    samples: int = 16,
    max_new_tokens: int = 16,
    num_speculative_tokens: int = 4,
    smc: SMCOptions | None = None,
    max_batch_size: int = 64,
    seed: int = 0,
) -> dict[str, Any]:
    """Drift of each mode in ``modes`` (and of exact sampling, ``ar``) from the target,
    as a JSON-ready dict: ``{"config": ..., "modes": {mode: figures}}``."""
    if temperature <= 0:
        raise InvalidInputError(f"temperature must be > 0 for a drift measurement, got {temperature!r}")
    greedy = SamplingParams(temperature=0.0, max_new_tokens=max_new_tokens, ignore_eos=True)
    greedy_out = _run_mode(engines, "ar", [list(p) for p in prompts], [greedy] * len(prompts), 1, max_batch_size, None)
    greedy_answers = [r.output_ids for r in greedy_out[0]]
    results: dict[str, Any] = {}
    for m, mode in enumerate(["ar", *[x for x in modes if x != "ar"]]):
        ids = [list(p) for p in prompts for _ in range(samples)]
        params = [SamplingParams(temperature=temperature, max_new_tokens=max_new_tokens, ignore_eos=True,
                                 seed=seed + 1_000_003 * m + i) for i in range(len(ids))]
        reqs, sched = _run_mode(engines, mode, ids, params, num_speculative_tokens, max_batch_size, smc)
        figures = _drift_figures(engines.target, reqs, greedy_answers, samples, params[0])
        stats = getattr(sched, "smc_stats", None)
        if stats is not None:
            figures.update(mean_ess_fraction=stats.mean_ess_fraction, resample_rate=stats.resample_rate)
        results[mode] = figures
    return {
        "config": dict(prompts=len(prompts), samples=samples, max_new_tokens=max_new_tokens, temperature=temperature,
                       num_speculative_tokens=num_speculative_tokens, smc=asdict(smc or SMCOptions()), seed=seed),
        "modes": results,
    }


def _run_mode(engines: Any, mode: str, prompts: list[list[int]], params: list[SamplingParams], k: int,
              max_batch_size: int, smc: SMCOptions | None) -> tuple[list[RequestState], Any]:
    cls = SCHEDULERS[mode]
    config = SchedulerConfig(num_speculative_tokens=k, max_batch_size=max_batch_size,
                             eos_token_ids=tuple(engines.eos_token_ids))
    drafter = engines.drafter if cls.needs_drafter else None
    sched = create_scheduler(mode, engines.target, drafter, config, smc if cls.options_class is SMCOptions else None)
    reqs = [RequestState(prompt_ids=p, params=sp) for p, sp in zip(prompts, params)]
    for r in reqs:
        sched.add_request(r)
    try:
        while sched.has_unfinished():
            sched.step()
    finally:
        sched.close()
    failed = [r.error for r in reqs if r.error]
    if failed:
        raise RuntimeError(f"mode {mode!r} failed during the drift measurement: {failed[0]}")
    return reqs, sched


def _drift_figures(target: Any, reqs: list[RequestState], greedy_answers: list[list[int]], samples: int,
                   params: SamplingParams, batch: int = 16) -> dict[str, float]:
    nll, agree, prefix, per_pass, kls = [], [], [], [], []
    for start in range(0, len(reqs), batch):
        chunk = reqs[start : start + batch]
        probes = [RequestState(prompt_ids=list(r.prompt_ids), params=params, request_id=f"drift-probe-{j}")
                  for j, r in enumerate(chunk)]
        lengths = torch.tensor([len(r.output_ids) for r in chunk], dtype=torch.long)
        cu = torch.zeros(len(chunk) + 1, dtype=torch.long)
        cu[1:] = torch.cumsum(lengths, 0)
        block = DraftBlock([p.request_id for p in probes], torch.tensor([t for r in chunk for t in r.output_ids]), cu)
        try:
            scores = target.score(probes, block)
        finally:
            for p in probes:
                target.release(p.request_id)
        for j, r in enumerate(chunk):
            rows = scores.logits[int(scores.cu_num_positions[j]) : int(scores.cu_num_positions[j + 1])]  # [h + 1, vocab]
            h = len(r.output_ids)
            p = processed_probs(rows[:h], *(t.to(rows.device) for t in row_params([params] * h))).double().cpu()
            x = torch.tensor(r.output_ids)
            nll.append(float(-p[torch.arange(h), x].log().mean()))
            agree.append(float((rows[:h].argmax(-1).cpu() == x).double().mean()))
            answer = greedy_answers[(start + j) // samples]
            n = 0
            while n < min(h, len(answer)) and r.output_ids[n] == answer[n]:
                n += 1
            prefix.append(n / max(1, len(answer)))
            per_pass.append(h / max(1, r.num_verify_steps))
            if (start + j) % samples == 0:
                kls.append([p[0], []])
            kls[-1][1].append(r.output_ids[0])
    first_kl = []
    for p1, firsts in kls:
        emp = torch.bincount(torch.tensor(firsts), minlength=p1.numel()).double() / len(firsts)
        seen = emp > 0
        first_kl.append(float((emp[seen] * (emp[seen] / p1[seen]).log()).sum()))
    return {
        "first_token_kl": _mean(first_kl), "first_token_kl_se": _se(first_kl), "nll": _mean(nll), "nll_se": _se(nll),
        "greedy_agreement": _mean(agree), "greedy_agreement_se": _se(agree),
        "greedy_prefix": _mean(prefix), "greedy_prefix_se": _se(prefix), "tokens_per_pass": _mean(per_pass),
    }


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _se(xs: Sequence[float]) -> float:
    if len(xs) < 2:
        return 0.0
    m = _mean(xs)
    return (sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs)) ** 0.5
