"""SMC-SD (sequential Monte Carlo speculative decoding): the arithmetic. APPROXIMATE.

After Emara et al., "Faster LLM Inference via Sequential Monte Carlo" (arXiv 2604.15672).
Unlike every other mode, SMC-SD does not sample exactly from the target: it replaces
token-level rejection with importance weighting and resampling over N draft *particles*
per request, and its output distribution only approaches the target's as N grows.
docs/smc.md states the rules below and the measured drift.

Rules (pure functions here; ``minedraft.schedulers.smc`` drives the engines):

- *weight*: each cycle a particle drafts gamma tokens from q and keeps them, and its
  log-weight grows by ``sum_j log p(d_j) - log q'(d_j)``, with p and q the processed
  distributions (temperature, top-k, top-p of the request applied to both). The bonus
  token is sampled from p and adds nothing (its proposal is the target itself).
- *the target's support*: a draft the target rules out (p(d) = 0, outside its top-k/p) is
  never kept. The particle's drafts end before it, and in its place comes a token sampled
  from p. So each position's proposal is really q' = q + q(Z) p, with Z = {p = 0}: that
  is the q' the weights divide by (q' = q wherever q puts no mass on Z). A point-mass
  target (top_k = 1) is then followed exactly, and no population collapses on drafts
  the target forbids.
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
from dataclasses import dataclass, field

import torch

from ..sampling import processed_probs, row_params, sample_rows
from ..types import DraftBlock, InvalidInputError, RequestState, VerifyOutcome, VerifyScores
from .verification import verify

RESAMPLING_RULES = ("systematic", "multinomial")
OUTPUT_RULES = ("sample", "argmax")


# -- weights ------------------------------------------------------------------------------
def log_weight_increments(
    tokens: torch.Tensor,  # [k] int64: the drafts kept (the last may be a replacement drawn from p)
    target_probs: torch.Tensor,  # [k, vocab] processed p at those positions
    draft_probs: torch.Tensor,  # [k, vocab] processed q the drafts were sampled from
) -> torch.Tensor:  # [k] float64: log p(x_j) - log q'(x_j), q' = q + q(Z) p, Z = {p = 0}
    p_all = target_probs.double()
    q_all = draft_probs.to(target_probs.device).double()
    q_outside = (q_all * (p_all == 0)).sum(-1)  # [k] q(Z): drafts that are replaced by a draw from p
    idx = tokens.to(target_probs.device).unsqueeze(-1)
    p = p_all.gather(-1, idx).squeeze(-1)
    proposal = q_all.gather(-1, idx).squeeze(-1) + q_outside * p
    ratio = p.log() - proposal.clamp_min(1e-300).log()
    return torch.where(proposal > 0, ratio, torch.full_like(ratio, float("-inf"))).cpu()


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
    """A VerifyOutcome (sampled particles keep their drafts up to the first the target rules
    out, then a token from p) plus the log-weight increments ``log p - log q'`` of the tokens
    weighed (empty for greedy particles)."""

    log_ratios: list[list[float]] = field(default_factory=list)


def smc_verify(block: DraftBlock, scores: VerifyScores, particles: Sequence[RequestState]) -> SMCOutcome:
    """The SMC-SD counterpart of ``minedraft.rules.verification.verify``: keep the draft tokens
    up to the first the target rules out, weigh them, and sample the next token from the
    target (the bonus after all k, or in place of the ruled-out draft, then weighed too)."""
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
            drafts = block.tokens[start : start + k]  # [k]
            ruled_out = (p[:k].gather(-1, drafts.to(p.device).unsqueeze(-1)).squeeze(-1) == 0).nonzero()
            kept = int(ruled_out[0]) if len(ruled_out) else k  # drafts before the first the target rules out
            # The token after them: the bonus, or a draw from p in place of a ruled-out draft.
            extra = int(sample_rows(p[kept : kept + 1], [particles[i].verify_generator])[0])
            tokens = drafts[:kept].tolist() + [extra]
            weighed = kept + 1 if kept < k else k  # a replacement is a draw from q'; the bonus, from p itself
            if weighed:
                assert block.draft_probs is not None
                log_ratios[i] = log_weight_increments(torch.tensor(tokens[:weighed]), p[:weighed],
                                                      block.draft_probs[start : start + weighed]).tolist()
            num_accepted[i], emitted[i] = kept, tokens
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
