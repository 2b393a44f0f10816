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

from ..sampling import processed_probs, row_params, sample_rows
from ..types import DraftBlock, RequestState, VerifyOutcome, VerifyScores


def verify(block: DraftBlock, scores: VerifyScores, requests: Sequence[RequestState]) -> VerifyOutcome:
    """Apply the verification rule of each request to its draft tokens, vectorised over
    the ragged batch. Seeded requests draw their uniforms from their own generator."""
    batch = block.batch_size
    if len(requests) != batch:
        raise ValueError(f"verify got {len(requests)} requests for a block of {batch}")
    lengths = torch.tensor(block.lengths(), dtype=torch.long)  # [batch]
    device = scores.logits.device
    temperature, top_k, top_p = row_params([r.params for r in requests], (lengths + 1).tolist())
    greedy_req = torch.tensor([r.params.greedy for r in requests], dtype=torch.bool)  # [batch]
    if bool(greedy_req.all()):
        probs = None
        target_argmax = scores.logits.argmax(-1).cpu()  # [num_tokens + batch]
    else:
        probs = processed_probs(scores.logits, temperature.to(device), top_k.to(device), top_p.to(device))
        target_argmax = probs.argmax(-1).cpu()  # greedy rows are one-hot, so this is their argmax

    req_of = torch.repeat_interleave(torch.arange(batch), lengths)  # [num_tokens] request of each draft
    local = torch.arange(block.num_tokens) - block.cu_num_tokens[req_of]  # [num_tokens] index within request
    p_row = torch.arange(block.num_tokens) + req_of  # [num_tokens] score row deciding each draft
    drafts = block.tokens  # [num_tokens]
    reject = drafts != target_argmax[p_row]  # greedy rule
    if probs is not None:
        sampled_draft = ~greedy_req[req_of]  # [num_tokens]
        p_x = probs[p_row.to(device), drafts.to(device)].cpu()  # [num_tokens] p(draft)
        if block.draft_probs is None:  # point-mass drafts: q(x) = 1
            q_x = torch.ones_like(p_x)
        else:
            q_x = block.draft_probs[torch.arange(block.num_tokens, device=block.draft_probs.device),
                                    drafts.to(block.draft_probs.device)].float().cpu()
        ratio = torch.where(q_x > 0, p_x / q_x.clamp_min(1e-30), torch.zeros_like(p_x)).clamp(max=1.0)
        u = _per_request_uniforms(requests, lengths, ~greedy_req)
        reject = torch.where(sampled_draft, u >= ratio, reject)
    first_reject = torch.where(reject, local, lengths[req_of])  # [num_tokens]
    num_accepted = lengths.clone().scatter_reduce_(0, req_of, first_reject, reduce="amin")  # [batch]

    final_row = block.cu_num_tokens[:-1] + torch.arange(batch) + num_accepted  # [batch] row of the last token
    final = target_argmax[final_row].clone()  # [batch]
    if probs is not None:
        sampled = (~greedy_req).nonzero().squeeze(-1)
        dist = probs[final_row[sampled].to(device)].clone()  # [sampled, vocab]
        rejected = num_accepted[sampled] < lengths[sampled]
        if bool(rejected.any()):
            rows = sampled[rejected]
            at = block.cu_num_tokens[rows] + num_accepted[rows]  # [rejected] draft index of the rejection
            if block.draft_probs is None:
                q_rej = torch.zeros_like(dist[rejected])
                q_rej[torch.arange(len(rows)), drafts[at].to(device)] = 1.0
            else:
                q_rej = block.draft_probs[at.to(block.draft_probs.device)].to(device).float()
            residual = (dist[rejected] - q_rej).clamp_min(0.0)  # [rejected, vocab]
            # p == q up to round-off: a rejection had probability ~0 and p is the exact answer.
            empty = residual.sum(-1) <= 1e-12
            dist[rejected] = torch.where(empty.unsqueeze(-1), dist[rejected], residual)
        final[sampled] = sample_rows(dist, [requests[i].verify_generator for i in sampled.tolist()]).cpu()

    emitted = []
    n_list, token_list = num_accepted.tolist(), final.tolist()
    for i in range(batch):
        start = int(block.cu_num_tokens[i])
        emitted.append(drafts[start : start + n_list[i]].tolist() + [token_list[i]])
    return VerifyOutcome(request_ids=list(block.request_ids), num_accepted=n_list, emitted=emitted)


def _per_request_uniforms(requests: Sequence[RequestState], lengths: torch.Tensor, sampled: torch.Tensor) -> torch.Tensor:
    """U(0, 1) per draft token: seeded requests draw from their own generator (so their
    outcome does not depend on batch composition), the rest in one bulk draw."""
    u = torch.rand(int(lengths.sum()))  # [num_tokens]
    offset = 0
    for req, n, s in zip(requests, lengths.tolist(), sampled.tolist()):
        if s and req.verify_generator is not None and n:
            u[offset : offset + n] = torch.rand(n, generator=req.verify_generator)
        offset += n
    return u
