"""Verification rules: which draft tokens a request keeps, and which token follows them.

Terms (see ``minedraft.types``): for a request with k draft tokens the target scores k + 1
positions. Position j < k decides draft token j; the first rejected position yields a
*recovered* token; if all k are accepted, position k yields the *bonus* token. Every
request therefore emits between 1 and k + 1 tokens per verification.

Rules, both pure functions over ragged batches (flat tensors + cumulative offsets):

- greedy (temperature 0): accept the longest prefix equal to the target argmax, then emit
  the target argmax.
- lossless speculative sampling (Leviathan et al., Chen et al.): accept draft x with
  probability min(1, p(x) / q(x)); at the first rejection sample from
  norm(max(0, p - q)); the bonus token comes from p. p and q are the *processed*
  distributions (temperature, top-k, top-p applied identically). A draft without q
  (n-gram style) is a point mass q = onehot(x): accept with probability p(x), recover
  from p with x removed.

Requests of one block may mix greedy and sampled parameters.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from .sampling import processed_probs, row_params, sample_rows, uniforms
from .types import DraftBlock, RequestState, VerifyOutcome, VerifyScores


def verify(block: DraftBlock, scores: VerifyScores, requests: Sequence[RequestState]) -> VerifyOutcome:
    """Apply the verification rule of each request to its draft tokens."""
    if len(requests) != block.batch_size:
        raise ValueError(f"verify got {len(requests)} requests for a block of {block.batch_size}")
    lengths = block.lengths()
    params = [r.params for r in requests]
    positions = [k + 1 for k in lengths]
    temperature, top_k, top_p = row_params(params, positions)
    logits = scores.logits  # [num_tokens + batch, vocab]
    device = logits.device
    greedy_rows = temperature <= 0
    all_greedy = bool(greedy_rows.all())
    if all_greedy:
        target_choice = logits.argmax(-1).cpu()  # [num_tokens + batch]
        probs = None
    else:
        probs = processed_probs(logits, temperature.to(device), top_k.to(device), top_p.to(device))
        target_choice = probs.argmax(-1).cpu()

    num_accepted: list[int] = []
    emitted: list[list[int]] = []
    draft_tokens = block.tokens.tolist()
    for i, req in enumerate(requests):
        k = lengths[i]
        d_start = int(block.cu_num_tokens[i])
        p_start = int(scores.cu_num_positions[i])
        drafts = draft_tokens[d_start : d_start + k]
        if req.params.greedy:
            n, token = _greedy_one(drafts, target_choice[p_start : p_start + k + 1].tolist())
        else:
            assert probs is not None
            q = None if block.draft_probs is None else block.draft_probs[d_start : d_start + k]
            n, token = _sample_one(drafts, probs[p_start : p_start + k + 1], q, req.verify_generator)
        num_accepted.append(n)
        emitted.append(drafts[:n] + [token])
    return VerifyOutcome(request_ids=list(block.request_ids), num_accepted=num_accepted, emitted=emitted)


def _greedy_one(drafts: list[int], target_argmax: list[int]) -> tuple[int, int]:
    n = 0
    while n < len(drafts) and drafts[n] == target_argmax[n]:
        n += 1
    return n, target_argmax[n]


def _sample_one(
    drafts: list[int],
    p: torch.Tensor,  # [k + 1, vocab]
    q: torch.Tensor | None,  # [k, vocab] or None for point-mass drafts
    generator: torch.Generator | None,
) -> tuple[int, int]:
    k = len(drafts)
    if k:
        x = torch.tensor(drafts, device=p.device)
        p_x = p[:k].gather(-1, x.unsqueeze(-1)).squeeze(-1)  # [k]
        q_x = torch.ones_like(p_x) if q is None else q.to(p.device).gather(-1, x.unsqueeze(-1)).squeeze(-1)
        ratio = torch.where(q_x > 0, p_x / q_x.clamp_min(1e-30), torch.zeros_like(p_x)).clamp(max=1.0)
        u = uniforms([generator] * k, p.device)  # [k]
        rejected = (u >= ratio).nonzero()
        n = int(rejected[0]) if rejected.numel() else k
    else:
        n = 0
    if n == k:  # every draft accepted: bonus token from p
        return n, int(sample_rows(p[k : k + 1], [generator])[0])
    q_n = torch.zeros_like(p[n]) if q is None else q[n].to(p.device)
    if q is None:
        q_n[drafts[n]] = 1.0
    residual = (p[n] - q_n).clamp_min(0.0)  # [vocab]
    if float(residual.sum()) <= 1e-12:
        # p == q up to round-off: a rejection had probability ~0; p is the exact answer.
        residual = p[n]
    return n, int(sample_rows(residual.unsqueeze(0), [generator])[0])


def expected_tokens_per_step(acceptance: float, k: int) -> float:
    """E[tokens emitted per verification] with i.i.d. acceptance alpha: (1 - a^(k+1)) / (1 - a)."""
    if acceptance >= 1.0:
        return float(k + 1)
    return (1.0 - acceptance ** (k + 1)) / (1.0 - acceptance)
