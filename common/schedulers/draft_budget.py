"""Spending drafter slack: verify the most promising draft positions within a budget.

When the draft lane finishes before the target lane, PSD can draft k + e tokens per
request for free. Verification cost grows with the tokens verified, so a fixed budget of
positions per step is kept: the positions with the highest cumulative draft
log-probability across the whole sub-batch (the selection MineDraft's TETRIS code makes),
each request truncated to its furthest selected position. The selection uses draft-side
information only, so verifying the shorter prefix stays lossless.
"""

from __future__ import annotations

import torch

from ..types import DraftBlock


def select_by_confidence(block: DraftBlock, capacity: int) -> list[int]:
    """New per-request draft lengths whose sum is at most ``capacity``."""
    lengths = block.lengths()
    if sum(lengths) <= capacity:
        return lengths
    if block.draft_logprobs is None:
        raise ValueError("select_by_confidence needs draft_logprobs in the draft block")
    scores = []  # (cumulative log q, request, position)
    for i, k in enumerate(lengths):
        start = int(block.cu_num_tokens[i])
        cum = torch.cumsum(block.draft_logprobs[start : start + k].float(), 0).tolist()
        scores.extend((c, i, j) for j, c in enumerate(cum))
    # Cumulative log-probs fall along a request, so the top-capacity set is prefix-closed
    # per request except for ties; taking the furthest selected position keeps it so.
    scores.sort(key=lambda t: (-t[0], t[2]))
    new_lengths = [0] * len(lengths)
    for _, i, j in scores[:capacity]:
        new_lengths[i] = max(new_lengths[i], j + 1)
    return new_lengths
