"""SMC-SD (sequential Monte Carlo speculative decoding): the arithmetic. APPROXIMATE.

After Emara et al., "Faster LLM Inference via Sequential Monte Carlo" (arXiv 2604.15672).
Unlike every other mode, SMC-SD does not sample exactly from the target: it replaces
token-level rejection with importance weighting and resampling over N draft *particles*
per request, and its output distribution only approaches the target's as N grows.
docs/smc.md states the rules below and the measured drift.

Rules (pure functions here; ``minedraft.schedulers.smc`` drives the engines):

- *weight*: each cycle a particle drafts gamma tokens from q, all of them are kept, and
  its log-weight grows by ``sum_j log p(d_j) - log q(d_j)``, with p and q the processed
  distributions (temperature, top-k, top-p of the request applied to both). The bonus
  token is sampled from p and adds nothing (its proposal is the target itself). A token
  with q(d) = 0 (impossible for a real draw) or p(d) = 0 (outside the target's top-k/p)
  gives the particle log-weight -inf.
- *resampling*: when the effective sample size ESS = (sum w)^2 / sum w^2 falls below
  ``ess_threshold * N``, N ancestors are drawn (systematic by default, or multinomial)
  and all log-weights reset to 0. Particles that survive keep their own slot and only
  the dead ones are overwritten (``keep_survivors``), so no copy reads an overwritten
  source. Finished particles keep their frozen weight and take part in resampling.
  If every weight is 0 (all log-weights -inf) the population carries no information:
  the weights are treated as uniform.
- *output*: once every particle has finished, the request returns one particle: by
  default one drawn with probability proportional to its weight (``"sample"``, the SMC
  estimate of the target distribution); ``"argmax"`` returns the highest log-weight
  (ties: lowest index), the rule of the authors' SGLang engine (``get_best_particle``).
- *greedy* requests (temperature 0) have a point-mass target; they run as one particle
  under the exact greedy verification rule, so greedy output equals the target's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import torch

from .sampling import processed_probs, row_params, sample_rows
from .types import DraftBlock, InvalidInputError, RequestState, SamplingParams, VerifyOutcome, VerifyScores
from .verification import verify

RESAMPLING_RULES = ("systematic", "multinomial")
OUTPUT_RULES = ("sample", "argmax")


@dataclass(frozen=True)
class SMCOptions:
    """SMC-SD settings. gamma (tokens drafted per cycle) is ``num_speculative_tokens``."""

    num_particles: int = 4
    ess_threshold: float = 0.5  # resample when ESS < ess_threshold * N
    resampling: str = "systematic"
    output: str = "sample"

    def __post_init__(self) -> None:
        if not isinstance(self.num_particles, int) or self.num_particles < 1:
            raise InvalidInputError(f"SMCOptions.num_particles must be an int >= 1, got {self.num_particles!r}")
        if not isinstance(self.ess_threshold, (int, float)) or not 0.0 <= self.ess_threshold <= 1.0:
            raise InvalidInputError(f"SMCOptions.ess_threshold must be in [0, 1], got {self.ess_threshold!r}")
        if self.resampling not in RESAMPLING_RULES:
            raise InvalidInputError(f"SMCOptions.resampling must be one of {RESAMPLING_RULES}, got {self.resampling!r}")
        if self.output not in OUTPUT_RULES:
            raise InvalidInputError(f"SMCOptions.output must be one of {OUTPUT_RULES}, got {self.output!r}")


# -- weights ------------------------------------------------------------------------------
def log_weight_increments(
    drafts: torch.Tensor,  # [k] int64
    target_probs: torch.Tensor,  # [k, vocab] processed p at the k draft positions
    draft_probs: torch.Tensor,  # [k, vocab] processed q the drafts were sampled from
) -> torch.Tensor:  # [k] float64: log p(d_j) - log q(d_j)
    idx = drafts.to(target_probs.device).unsqueeze(-1)
    p = target_probs.gather(-1, idx).squeeze(-1).double()
    q = draft_probs.to(target_probs.device).gather(-1, idx).squeeze(-1).double()
    ratio = p.log() - q.clamp_min(1e-300).log()
    return torch.where(q > 0, ratio, torch.full_like(ratio, float("-inf"))).cpu()


def normalized_weights(log_weights: torch.Tensor) -> torch.Tensor:  # [N] float64, sums to 1
    """Self-normalised weights; uniform when every weight is 0 (all log-weights -inf)."""
    lw = log_weights.double()
    if not bool(torch.isfinite(lw).any()):
        return torch.full_like(lw, 1.0 / lw.numel())
    return torch.softmax(lw, 0)


def effective_sample_size(log_weights: torch.Tensor) -> float:
    """(sum w)^2 / sum w^2, in [1, N]; N for equal weights (and for all-zero weights)."""
    w = normalized_weights(log_weights)
    return float(1.0 / (w * w).sum())


# -- resampling -----------------------------------------------------------------------------
def systematic_resample(log_weights: torch.Tensor, generator: torch.Generator | None = None) -> list[int]:
    """N ancestors from one uniform: positions (u + i) / N, i = 0..N-1, on the weight CDF.
    Each particle gets floor(N w) or ceil(N w) offspring; zero-weight particles none."""
    w = normalized_weights(log_weights)
    n = w.numel()
    cdf = w.cumsum(0)  # [N]
    u = float(torch.rand(1, generator=generator, dtype=torch.float64))
    positions = (u + torch.arange(n, dtype=torch.float64)) / n * cdf[-1]
    return torch.searchsorted(cdf, positions, right=True).clamp_(max=n - 1).tolist()


def multinomial_resample(log_weights: torch.Tensor, generator: torch.Generator | None = None) -> list[int]:
    """N ancestors drawn independently with probability w."""
    w = normalized_weights(log_weights)
    return torch.multinomial(w, w.numel(), replacement=True, generator=generator).tolist()


RESAMPLERS: dict[str, Callable[[torch.Tensor, torch.Generator | None], list[int]]] = {
    "systematic": systematic_resample,
    "multinomial": multinomial_resample,
}


def keep_survivors(ancestors: Sequence[int]) -> list[int]:
    """The same offspring counts, arranged so that every particle with offspring keeps its
    own index (``result[i] == i``); dead indices receive the extra copies. Particles are
    exchangeable, so the arrangement does not change the population."""
    n = len(ancestors)
    counts = [0] * n
    for a in ancestors:
        counts[a] += 1
    extras = [i for i in range(n) for _ in range(max(0, counts[i] - 1))]
    result = list(range(n))
    dead = [i for i in range(n) if counts[i] == 0]
    for slot, src in zip(dead, extras):
        result[slot] = src
    return result


def select_particle(log_weights: torch.Tensor, rule: str = "sample", generator: torch.Generator | None = None) -> int:
    """The returned-sequence rule: draw by weight (``sample``) or take the best (``argmax``)."""
    if rule == "argmax":
        return int(torch.argmax(log_weights.double()))  # first maximum on ties
    if rule != "sample":
        raise InvalidInputError(f"output rule must be one of {OUTPUT_RULES}, got {rule!r}")
    w = normalized_weights(log_weights)
    u = float(torch.rand(1, generator=generator, dtype=torch.float64))
    return int(torch.searchsorted(w.cumsum(0), torch.tensor([u * float(w.sum())], dtype=torch.float64), right=True)
               .clamp_(max=w.numel() - 1))


# -- one cycle ------------------------------------------------------------------------------
@dataclass
class SMCOutcome(VerifyOutcome):
    """A VerifyOutcome (sampled particles keep all k drafts, then a bonus token) plus the
    per-draft-token log-weight increments ``log p - log q`` (empty for greedy particles)."""

    log_ratios: list[list[float]] = field(default_factory=list)


def smc_verify(block: DraftBlock, scores: VerifyScores, particles: Sequence[RequestState]) -> SMCOutcome:
    """The SMC-SD counterpart of ``minedraft.verification.verify``: keep every draft token,
    weigh it, and sample the bonus token from the target at the last position."""
    if len(particles) != block.batch_size:
        raise ValueError(f"smc_verify got {len(particles)} particles for a block of {block.batch_size}")
    lengths = block.lengths()
    sampled = [i for i, p in enumerate(particles) if not p.params.greedy]
    greedy = [i for i, p in enumerate(particles) if p.params.greedy]
    if sampled and block.draft_probs is None and any(lengths[i] for i in sampled):
        raise ValueError("SMC-SD needs the draft distribution q (DraftBlock.draft_probs); this drafter gives none")
    num_accepted = [0] * len(particles)
    emitted: list[list[int]] = [[] for _ in particles]
    log_ratios: list[list[float]] = [[] for _ in particles]
    if greedy:  # point-mass target: the exact greedy rule
        sub = verify(block.select(greedy), _select_scores(scores, greedy), [particles[i] for i in greedy])
        for j, i in enumerate(greedy):
            num_accepted[i], emitted[i] = sub.num_accepted[j], sub.emitted[j]
    if sampled:
        positions = [lengths[i] + 1 for i in sampled]
        rows = torch.cat([torch.arange(int(scores.cu_num_positions[i]), int(scores.cu_num_positions[i + 1])) for i in sampled])
        logits = scores.logits[rows.to(scores.logits.device)]  # [sum (k_i + 1), vocab]
        temperature, top_k, top_p = (t.to(logits.device) for t in row_params([particles[i].params for i in sampled], positions))
        p_all = processed_probs(logits, temperature, top_k, top_p)  # [sum (k_i + 1), vocab]
        offset = 0
        for i, n_pos in zip(sampled, positions):
            k, start = n_pos - 1, int(block.cu_num_tokens[i])
            p = p_all[offset : offset + n_pos]  # [k + 1, vocab]
            offset += n_pos
            drafts = block.tokens[start : start + k]
            if k:
                assert block.draft_probs is not None
                log_ratios[i] = log_weight_increments(drafts, p[:k], block.draft_probs[start : start + k]).tolist()
            bonus = int(sample_rows(p[k : k + 1], [particles[i].verify_generator])[0])
            num_accepted[i], emitted[i] = k, drafts.tolist() + [bonus]
    return SMCOutcome(
        request_ids=list(block.request_ids), num_accepted=num_accepted, emitted=emitted, log_ratios=log_ratios
    )


def _select_scores(scores: VerifyScores, indices: list[int]) -> VerifyScores:
    cu = scores.cu_num_positions
    rows = [torch.arange(int(cu[i]), int(cu[i + 1])) for i in indices]
    sizes = torch.tensor([len(r) for r in rows], dtype=torch.long)
    new_cu = torch.zeros(len(indices) + 1, dtype=torch.long)
    new_cu[1:] = torch.cumsum(sizes, 0)
    flat = torch.cat(rows).to(scores.logits.device)
    return VerifyScores(logits=scores.logits[flat], cu_num_positions=new_cu)


# -- drift from the target --------------------------------------------------------------------
# SMC-SD trades exactness for speed, so its mode reports how far its samples drift from
# the target's own. Measured against exact samples (mode "ar") on the same engines, the
# same prompts and the same temperature; every figure also has its exact-sampling value,
# which is its finite-sample floor (or its expected value).
#
# - first_token_kl: KL(empirical law of the first generated token || target's exact
#   first-token distribution p1), averaged over prompts. p1 is computed, not sampled, so
#   this is the one per-token KL that can be estimated from samples without a density for
#   the SMC output (the other direction, KL(p1 || empirical), is infinite whenever a
#   token is unseen). Exact samples give about (support - 1) / (2 * samples) > 0. Its
#   standard error is over prompts; the others' are over samples.
# - nll: mean per-token target negative log-likelihood, -log p(x_t | x_<t) at the
#   sampling temperature, of the generated tokens (a cross-entropy; for exact samples, an
#   estimate of the target's per-token entropy). Lower than exact: mode-seeking drift.
# - greedy_agreement: share of generated tokens equal to the target's argmax given their
#   own prefix; greedy_prefix: mean share of the target's greedy answer (first
#   max_new_tokens tokens) that a sample reproduces as a prefix.
# - tokens_per_pass: generated tokens per target verification pass, per request.

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
    from .schedulers import SCHEDULERS, SchedulerConfig  # here: the schedulers import this module

    cls = SCHEDULERS[mode]
    config = SchedulerConfig(num_speculative_tokens=k, max_batch_size=max_batch_size,
                             eos_token_ids=tuple(engines.eos_token_ids))
    drafter = engines.drafter if cls.needs_drafter else None
    sched = cls(engines.target, drafter, config, smc=smc) if getattr(cls, "exact", True) is False \
        else cls(engines.target, drafter, config)
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
