"""Spending drafter slack: verify the most promising draft positions within a budget.

When the draft lane finishes before the target lane, PSD can draft k + e tokens per
request for free. Verification cost grows with the tokens verified, so a fixed budget of
positions per step is kept: the positions with the highest score across the whole
sub-batch, each request truncated to its furthest selected position (the selection
MineDraft's TETRIS code makes).

Losslessness needs care under sampling. Verifying a shorter prefix is exact only if the
decision to verify position j is a *stopping time*: it may depend on the drafts before j,
never on the token drafted at j. TETRIS scores position j by the cumulative draft
log-probability *including* d_j, which prefers positions whose sampled token happened to
be likely, and biases the output (e.g. q = (0.9, 0.1), p = (0.1, 0.9): the first token
comes out 0 with probability 0.11 instead of 0.1). So position j is scored by

    score_j = sum_{i<j} log q(d_i) + log max_v q_j(v)

which depends on d_<j only and never increases along a request (q(d_i) <= max q_i and
max q_{j+1} <= 1). With ties broken by position, "position j is among the top capacity"
then depends only on the other requests and this request's positions before j.
"""

from __future__ import annotations

import torch

from ..types import DraftBlock


def position_scores(block: DraftBlock) -> torch.Tensor:  # [num_tokens]
    """score_j = cumulative log q of the drafts before j + log max q_j, per request."""
    if block.draft_logprobs is None:
        raise ValueError("position_scores needs draft_logprobs in the draft block")
    chosen = block.draft_logprobs.float().cpu()  # [num_tokens] log q(d_j)
    best = chosen.clone()  # log max_v q_j(v); equals log q(d_j) for argmax (greedy) drafts
    if block.draft_probs is not None:
        q_max = block.draft_probs.float().max(-1).values.cpu()  # [num_tokens]
        # One-hot rows are greedy requests (their q is a point mass); their draft_logprobs
        # already carry the argmax confidence.
        sampled = q_max < 1.0 - 1e-6
        best = torch.where(sampled, torch.log(q_max.clamp_min(1e-30)), best)
    scores = torch.empty_like(chosen)
    for i, k in enumerate(block.lengths()):
        start = int(block.cu_num_tokens[i])
        before = torch.cumsum(chosen[start : start + k], 0) - chosen[start : start + k]  # sum_{i<j}
        scores[start : start + k] = before + best[start : start + k]
    return scores


def select_by_confidence(block: DraftBlock, capacity: int) -> list[int]:
    """New per-request draft lengths whose sum is at most ``capacity``."""
    lengths = block.lengths()
    if sum(lengths) <= capacity:
        return lengths
    scores = position_scores(block).tolist()
    ranked = []  # (score, position, request)
    for i, k in enumerate(lengths):
        start = int(block.cu_num_tokens[i])
        ranked.extend((scores[start + j], j, i) for j in range(k))
    ranked.sort(key=lambda t: (-t[0], t[1], t[2]))
    new_lengths = [0] * len(lengths)
    for _, j, i in ranked[:capacity]:
        new_lengths[i] = max(new_lengths[i], j + 1)
    return new_lengths
