"""Turning logits into the distribution a request samples from.

The same function shapes the draft distribution q and the target distribution p, so that
temperature, top-k and top-p are applied identically to both — a precondition for
speculative sampling to be lossless with respect to the *processed* target distribution.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from .types import SamplingParams


def row_params(params: Sequence[SamplingParams], repeats: Sequence[int] | None = None) -> tuple[
    torch.Tensor, torch.Tensor, torch.Tensor
]:
    """Per-row temperature, top-k and top-p tensors, each request repeated ``repeats[i]`` times."""
    reps = list(repeats) if repeats is not None else [1] * len(params)
    temperature = torch.tensor([p.temperature for p, n in zip(params, reps) for _ in range(n)], dtype=torch.float32)
    top_k = torch.tensor([p.top_k for p, n in zip(params, reps) for _ in range(n)], dtype=torch.long)
    top_p = torch.tensor([p.top_p for p, n in zip(params, reps) for _ in range(n)], dtype=torch.float32)
    return temperature, top_k, top_p


def processed_probs(
    logits: torch.Tensor,  # [rows, vocab]
    temperature: torch.Tensor,  # [rows]; 0 means greedy (the row becomes a point mass)
    top_k: torch.Tensor,  # [rows]; <= 0 disables
    top_p: torch.Tensor,  # [rows]; 1 disables
) -> torch.Tensor:  # [rows, vocab] float32
    logits = logits.float()
    greedy = temperature <= 0
    scaled = logits / torch.where(greedy, torch.ones_like(temperature), temperature).unsqueeze(-1)
    vocab = logits.shape[-1]
    needs_k = (top_k > 0) & (top_k < vocab)
    needs_p = top_p < 1.0
    if bool(needs_k.any()) or bool(needs_p.any()):
        scaled = _apply_top_k_top_p(scaled, top_k, top_p, needs_k, needs_p)
    probs = torch.softmax(scaled, dim=-1)
    if bool(greedy.any()):
        one_hot = torch.zeros_like(probs)
        one_hot.scatter_(-1, logits.argmax(-1, keepdim=True), 1.0)
        probs = torch.where(greedy.unsqueeze(-1), one_hot, probs)
    return probs


def _apply_top_k_top_p(
    scaled: torch.Tensor,  # [rows, vocab]
    top_k: torch.Tensor,
    top_p: torch.Tensor,
    needs_k: torch.Tensor,
    needs_p: torch.Tensor,
) -> torch.Tensor:
    sorted_logits, sorted_idx = scaled.sort(dim=-1, descending=True)  # [rows, vocab]
    vocab = scaled.shape[-1]
    ranks = torch.arange(vocab).unsqueeze(0)  # [1, vocab]
    k = torch.where(needs_k, top_k, torch.full_like(top_k, vocab)).unsqueeze(-1)
    remove = ranks >= k
    # top-p over what top-k left: keep the smallest prefix whose mass reaches top_p; the
    # first token is always kept.
    masked = sorted_logits.masked_fill(remove, float("-inf"))
    cum = torch.softmax(masked, dim=-1).cumsum(-1)
    mass_before = cum - torch.softmax(masked, dim=-1)
    remove_p = (mass_before >= top_p.unsqueeze(-1)) & needs_p.unsqueeze(-1)
    remove = remove | remove_p
    remove[:, 0] = False
    masked = sorted_logits.masked_fill(remove, float("-inf"))
    return torch.full_like(scaled, float("-inf")).scatter(-1, sorted_idx, masked)


def uniforms(generators: Sequence[torch.Generator | None], device: torch.device | str = "cpu") -> torch.Tensor:
    """One U(0, 1) draw per row, from the row's own generator when it has one, so that
    seeded requests reproduce whatever batch they run in. Drawn on CPU, then moved."""
    draws = [
        torch.rand(1, generator=g) if g is not None else torch.rand(1) for g in generators
    ]
    u = torch.cat(draws) if draws else torch.zeros(0)
    return u.to(device)


def sample_rows(
    probs: torch.Tensor,  # [rows, vocab]
    generators: Sequence[torch.Generator | None],
) -> torch.Tensor:  # [rows] int64
    """One token per row by inverse-CDF sampling (works on any device)."""
    u = uniforms(generators, probs.device)  # [rows]
    cdf = probs.float().cumsum(-1)  # [rows, vocab]
    target = (u * cdf[:, -1]).unsqueeze(-1)
    idx = torch.searchsorted(cdf, target, right=True).squeeze(-1)
    # Guard against float round-off at the top end and zero-mass tokens.
    idx = idx.clamp_(max=probs.shape[-1] - 1)
    return idx
