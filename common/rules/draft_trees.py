"""Draft trees: confidence-guided branching (D²SD) and lossless one-pass tree verification.

A request's drafts form a prefix tree whose root is its committed prefix. Nodes are
flattened per request in topological order (a parent before its children); the batch is
ragged with cumulative offsets, like ``DraftBlock``. Siblings carry distinct tokens, and
a node's children are *tried in index order* by the sampling rule below.

Building a tree (D²SD, Zhang et al., arXiv 2606.04446; ``catnanami/D2-SD``
``generation/d3_generator.py``):

1. draft a chain d_0..d_{k-1} with confidences c_i (the draft probability of d_i);
2. first-rejection probabilities r_0 = 1 - c_0, r_i = (prod_{j<i} c_j)(1 - c_i)
   (``first_rejection_probs``); take the top-K positions (``select_branch_points``);
3. for each chosen position p, draft an alternative continuation that keeps d_<p as a
   visible prefix and replaces d_p, all branches in one batched drafter pass;
4. insert the branches into the chain's prefix tree (``merge_branches``).

The two drafting stages form the ``BranchDrafter`` protocol; ``propose_confidence_tree``
composes them. An autoregressive drafter implements stage 3 with tree attention; a block
(diffusion) drafter, e.g. D²SD's variable-prefix drafter, implements it with one masked
pass over all branches.

Verification (``verify_tree``), given the target's logits at the root and after every
node (one pass, tree attention):

- greedy: follow the child equal to the target argmax for as long as one exists, then
  emit the target argmax.
- sampling: multi-candidate recursive rejection sampling. At a node with target
  distribution p and children x_1..x_m (index order), each recorded with the law q_j it
  was drawn from *given the path, the earlier siblings and everything drafted before it*:

      r <- p
      for j = 1..m:  accept x_j with probability min(1, r(x_j) / q_j(x_j)); on accept
                     descend into x_j (r <- p at x_j) and repeat
                     on reject:  r <- norm(max(0, r - q_j))
      no child accepted: emit a sample of r and stop

  This is SpecInfer's multi-step speculative sampling (Miao et al., arXiv 2305.09781,
  Alg. 2) for i.i.d. candidates (q_j = q), and recursive rejection sampling for
  candidates drawn *without replacement* (Jeon et al., "Recursive Speculative Decoding",
  arXiv 2402.14160; Sequoia, Chen et al., arXiv 2402.12374), where q_j is q with
  x_1..x_{j-1} removed and renormalised. Why it is lossless: given the candidates before
  it, stage j is plain speculative sampling (Leviathan et al., arXiv 2211.17192) of the
  target r_j with proposal q_j, so P(emit y from stage j on) = min(q_j(y), r_j(y)) +
  P(reject) * r_{j+1}(y) = r_j(y), where P(reject) = sum max(0, r_j - q_j) is exactly the
  mass of the residual r_{j+1}. r_{j+1} depends on q_j, not on x_j, so the induction
  needs only that x_j ~ q_j conditionally on what came before — q_j may depend on x_<j
  (sampling without replacement, or any adaptive scheme).

  Candidates not sampled from a law (deterministic, e.g. the greedy top-2 alternative,
  n-gram or block-drafter argmaxes) are recorded with an all-zero ``draft_probs`` row and
  verified as a point mass q_j = onehot(x_j): accept with probability r(x_j), else
  r <- r with x_j removed, renormalised. That is lossless for *any* x_j, however chosen,
  as long as the choice is independent of the verifier's randomness: the stage emits
  x_j with probability r(x_j) and otherwise a sample of r conditioned on != x_j, i.e. a
  sample of r. (It equals the "sample-and-match" rule of the D²SD and FlexDraft releases:
  sample y ~ r and descend iff y is a child.)

  The tree's *shape* may depend on draft randomness (D²SD branches where the chain's
  confidences are low) without breaking this: whether stage j + 1 exists never changes
  stage j's acceptance or residual. What must not happen is that a node's existence
  depends on its own token (e.g. pruning nodes by their own draft probability) unless its
  recorded law is conditioned on that: ``merge_branches`` drops a branch token equal to
  an existing sibling and records the kept one's law as q restricted to non-siblings and
  renormalised, which is its law given that it was kept.

Scores layout: ``VerifyScores`` with n_i + 1 rows for request i: row 0 is the target's
distribution after the committed prefix (the root), row 1 + j the distribution after
node j.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from ..sampling import processed_probs, row_params
from ..types import (
    Branch,
    BranchSpec,
    DraftBlock,
    DraftTree,
    RequestState,
    TreeVerifyOutcome,
    VerifyScores,
    cumulative_offsets,
)

if TYPE_CHECKING:
    from ..protocols import BranchDrafter


# -- building trees (D²SD) ----------------------------------------------------------------
def first_rejection_probs(confidence: torch.Tensor) -> torch.Tensor:
    """``[..., k]`` draft confidences c -> ``[..., k]`` r with r_0 = 1 - c_0 and
    r_i = (prod_{j<i} c_j)(1 - c_i): the probability that the first rejection falls at i
    if each draft is accepted with probability equal to its confidence (D²SD)."""
    c = confidence.double().clamp(0.0, 1.0)
    before = torch.cumprod(torch.cat([torch.ones_like(c[..., :1]), c[..., :-1]], -1), -1)  # prod_{j<i} c_j
    return (before * (1.0 - c)).to(confidence.dtype)


def select_branch_points(confidence: Sequence[float] | torch.Tensor, num_branches: int,
                         min_prob: float = 1e-6) -> list[int]:
    """Positions (ascending) of the ``num_branches`` largest first-rejection probabilities
    of one chain's confidences, ties to the earlier position; positions with r <= min_prob
    (no alternative token can exist there) are skipped. Plain floats: one chain is short."""
    if isinstance(confidence, torch.Tensor):
        confidence = confidence.reshape(-1).tolist()
    if num_branches <= 0 or not confidence:
        return []
    r, before = [], 1.0
    for c in confidence:
        c = min(max(float(c), 0.0), 1.0)
        r.append(before * (1.0 - c))
        before *= c
    order = sorted(range(len(r)), key=lambda i: (-r[i], i))[:num_branches]
    return sorted(i for i in order if r[i] > min_prob)


def merge_branches(chain: DraftBlock, branches: Sequence[Branch]) -> tuple[DraftTree, list[list[int]]]:
    """Insert branches (in order) into each request's chain as a prefix tree.

    A branch token equal to an existing sibling follows that node instead of adding one (a
    repeated candidate would need a rejection stage of its own); a new node's law is its
    recorded law restricted to the tokens of its siblings so far and renormalised — its
    law given that it was not a repeat (a no-op for tokens drawn without replacement).
    Returns the tree and, per branch, the node index of each of its tokens.
    """
    lengths = chain.lengths()
    per_request: list[list[int]] = [[] for _ in lengths]
    for b, br in enumerate(branches):
        if not 0 <= br.request_index < len(lengths) or not 0 <= br.start <= lengths[br.request_index]:
            raise ValueError(f"branch {b} (request {br.request_index}, start {br.start}) leaves no chain node")
        per_request[br.request_index].append(b)
    chain_tokens = chain.tokens.tolist()
    chain_lps = None if chain.draft_logprobs is None else chain.draft_logprobs.tolist()
    offsets = chain.cu_num_tokens.tolist()
    branch_nodes: list[list[int]] = [[] for _ in branches]
    tokens: list[int] = []
    parents: list[int] = []
    logprobs: list[float] = []
    sizes: list[int] = []
    new_nodes: list[int] = []  # global ids of branch nodes with a recorded law ...
    new_sources: list[tuple[int, int]] = []  # ... and its (branch, token index)
    exclusions: list[tuple[int, int]] = []  # (index into new_nodes, sibling token to remove)
    for i, k in enumerate(lengths):
        base = len(tokens)
        req_tokens = chain_tokens[offsets[i] : offsets[i] + k]
        tokens += req_tokens
        parents += range(-1, k - 1)
        logprobs += [0.0] * k if chain_lps is None else chain_lps[offsets[i] : offsets[i] + k]
        if not per_request[i]:
            sizes.append(k)
            continue
        children = {(j - 1, t): j for j, t in enumerate(req_tokens)}  # (parent, token) -> local node
        siblings: dict[int, list[int]] = {j - 1: [t] for j, t in enumerate(req_tokens)}
        for b in per_request[i]:
            br = branches[b]
            parent = br.start - 1
            for m, tok in enumerate(br.tokens):
                node = children.get((parent, tok))
                if node is None:
                    node = len(tokens) - base
                    if br.probs is not None:
                        exclusions += [(len(new_nodes), t) for t in siblings.get(parent, [])]
                        new_nodes.append(base + node)
                        new_sources.append((b, m))
                    tokens.append(tok)
                    parents.append(parent)
                    logprobs.append(br.logprobs[m] if br.logprobs is not None else 0.0)
                    children[(parent, tok)] = node
                    siblings.setdefault(parent, []).append(tok)
                branch_nodes[b].append(node)
                parent = node
        sizes.append(len(tokens) - base)
    tokens_t = torch.tensor(tokens, dtype=torch.long)
    parents_t = torch.tensor(parents, dtype=torch.long)
    cu = cumulative_offsets(sizes)
    probs = _merged_laws(chain, branches, cu, tokens_t, new_nodes, new_sources, exclusions)
    tree = DraftTree(
        list(chain.request_ids), tokens_t, parents_t, cu, draft_probs=probs,
        draft_logprobs=None if chain.draft_logprobs is None else torch.tensor(logprobs, dtype=torch.float32),
    )
    return tree, branch_nodes


def _merged_laws(chain: DraftBlock, branches: Sequence[Branch], cu: torch.Tensor, tokens: torch.Tensor,
                 new_nodes: list[int], new_sources: list[tuple[int, int]],
                 exclusions: list[tuple[int, int]]) -> torch.Tensor | None:
    """``[num_nodes, vocab]`` laws: chain rows as drafted; branch rows restricted to
    non-siblings and renormalised; zero rows (deterministic) elsewhere."""
    with_probs = [br.probs for br in branches if br.probs is not None]
    ref = chain.draft_probs if chain.draft_probs is not None else (with_probs[0] if with_probs else None)
    if ref is None:
        return None
    probs = ref.new_zeros(tokens.numel(), ref.shape[-1])
    if chain.draft_probs is not None and chain.num_tokens:
        # Chain node j of request i sits at global id cu[i] + j.
        lengths = torch.tensor(chain.lengths(), dtype=torch.long)
        req = torch.repeat_interleave(torch.arange(len(lengths)), lengths)
        local = torch.arange(chain.num_tokens) - chain.cu_num_tokens[req]
        probs[cu[req] + local] = chain.draft_probs.to(probs.dtype)
    if new_nodes:
        starts, total = {}, 0
        for b, br in enumerate(branches):
            if br.probs is not None:
                starts[b] = total
                total += br.probs.shape[0]
        stacked = torch.cat(with_probs).to(probs.device, probs.dtype)  # [sum branch tokens, vocab]
        rows = stacked[torch.tensor([starts[b] + m for b, m in new_sources])]  # [new, vocab]
        if exclusions:
            at = torch.tensor(exclusions)
            rows[at[:, 0], at[:, 1].to(rows.device)] = 0
        nodes = torch.tensor(new_nodes)
        own = rows[torch.arange(len(new_nodes)), tokens[nodes].to(rows.device)]
        drawn = rows.sum(-1) > 0  # zero rows stay zero: deterministic tokens
        if bool((drawn & (own <= 0)).any()):
            raise ValueError("a branch token has zero probability under its recorded law")
        probs[nodes] = torch.where(drawn.unsqueeze(-1), rows / rows.sum(-1, keepdim=True).clamp_min(1e-30), rows)
    return probs


@dataclass
class ConfidenceTree:
    """What ``propose_confidence_tree`` built: the tree and the pieces it came from."""

    tree: DraftTree
    chain: DraftBlock
    specs: list[BranchSpec]
    branches: list[Branch]
    branch_nodes: list[list[int]]  # per branch: node index of each of its tokens


def propose_confidence_tree(
    drafter: BranchDrafter,
    requests: Sequence[RequestState],
    num_tokens: Sequence[int],
    num_branches: int,
    branch_tokens: int | None = None,
) -> ConfidenceTree:
    """D²SD drafting: a chain, then up to ``num_branches`` alternatives per request where the
    first rejection is most likely, each ``branch_tokens`` long (default: down to the
    chain's depth), merged into a prefix tree. Chain confidences come from
    ``draft_logprobs``."""
    chain = drafter.draft_chain(requests, num_tokens)
    specs: list[BranchSpec] = []
    if num_branches > 0:
        if chain.draft_logprobs is None:
            raise ValueError("propose_confidence_tree needs draft_logprobs (confidences) in the chain")
        logprobs, offsets = chain.draft_logprobs.tolist(), chain.cu_num_tokens.tolist()
        for i, k in enumerate(chain.lengths()):
            confidence = [math.exp(lp) for lp in logprobs[offsets[i] : offsets[i] + k]]
            for p in select_branch_points(confidence, num_branches):
                length = k - p if branch_tokens is None else min(branch_tokens, k - p)
                if length > 0:
                    specs.append(BranchSpec(i, p, length))
    branches = list(drafter.draft_branches(requests, chain, specs)) if specs else []
    tree, branch_nodes = merge_branches(chain, branches)
    return ConfidenceTree(tree, chain, specs, branches, branch_nodes)


# -- verification ---------------------------------------------------------------------------
def child_table(tree: DraftTree) -> torch.Tensor:
    """``[num_nodes + batch, max_children]``: children (global node ids, index order) of
    each score row, -1 padded."""
    n, rows = tree.num_tokens, tree.num_tokens + tree.batch_size
    parent_row = tree.parent_rows()
    counts = torch.bincount(parent_row, minlength=rows)  # [rows]
    width = int(counts.max()) if n else 0
    table = torch.full((rows, width), -1, dtype=torch.long)
    if n:
        sorted_rows, order = torch.sort(parent_row, stable=True)
        first = torch.cumsum(counts, 0) - counts  # [rows] first slot of each row's children
        rank = torch.arange(n) - first[sorted_rows]
        table[sorted_rows, rank] = order
    return table


def verify_tree(tree: DraftTree, scores: VerifyScores, requests: Sequence[RequestState]) -> TreeVerifyOutcome:
    """Apply each request's rule (module docstring) to its tree. Sampled requests are
    processed together, level by level; seeded ones draw from their own generator, in an
    order that does not depend on the rest of the batch."""
    batch = tree.batch_size
    if len(requests) != batch:
        raise ValueError(f"verify_tree got {len(requests)} requests for a tree of {batch}")
    sizes = tree.lengths()
    expected = cumulative_offsets([n + 1 for n in sizes])
    if not torch.equal(scores.cu_num_positions.cpu().long(), expected):
        raise ValueError(f"tree scores have positions {scores.cu_num_positions.tolist()}, expected {expected.tolist()}")
    logits = scores.logits  # [num_nodes + batch, vocab]
    table = child_table(tree)  # [rows, width]
    root_rows = (tree.cu_num_nodes[:-1] + torch.arange(batch)).tolist()
    greedy = [r.params.greedy for r in requests]
    paths: list[list[int]] = [[] for _ in range(batch)]
    final = [0] * batch
    if any(greedy):
        _greedy_walk(tree, logits.argmax(-1).cpu().tolist(), table.tolist(), root_rows, greedy, paths, final)
    sampled = [i for i in range(batch) if not greedy[i]]
    if sampled:
        _sample_walk(tree, logits, table, root_rows, requests, sampled, paths, final)
    tokens = tree.tokens.tolist()
    offsets = tree.cu_num_nodes.tolist()
    accepted = [[g - offsets[i] for g in paths[i]] for i in range(batch)]
    return TreeVerifyOutcome(
        request_ids=list(tree.request_ids),
        num_accepted=[len(p) for p in paths],
        emitted=[[tokens[g] for g in paths[i]] + [final[i]] for i in range(batch)],
        accepted_nodes=accepted,
    )


def _greedy_walk(tree, argmax, table, root_rows, greedy, paths, final) -> None:
    tokens = tree.tokens.tolist()
    node_row = tree.node_rows().tolist()
    for i, is_greedy in enumerate(greedy):
        if not is_greedy:
            continue
        row = root_rows[i]
        while True:
            want = argmax[row]
            child = next((c for c in table[row] if c >= 0 and tokens[c] == want), None)
            if child is None:
                final[i] = want
                break
            paths[i].append(child)
            row = node_row[child]


def _sample_walk(tree, logits, table, root_rows, requests, sampled, paths, final) -> None:
    device = logits.device
    sizes = tree.lengths()
    counts = torch.tensor([sizes[i] + 1 for i in sampled], dtype=torch.long)
    firsts = torch.tensor([root_rows[i] for i in sampled], dtype=torch.long)
    within = torch.arange(int(counts.sum())) - torch.repeat_interleave(torch.cumsum(counts, 0) - counts, counts)
    row_index = torch.repeat_interleave(firsts, counts) + within  # rows of the sampled requests
    temperature, top_k, top_p = row_params([requests[i].params for i in sampled], [sizes[i] + 1 for i in sampled])
    # Target distributions for the sampled requests' rows only; local[r] = index into probs.
    probs = processed_probs(logits[row_index.to(device)], temperature.to(device), top_k.to(device), top_p.to(device))
    local = torch.full((logits.shape[0],), -1, dtype=torch.long)
    local[row_index] = torch.arange(len(row_index))
    tokens = tree.tokens.to(device)
    node_row = tree.node_rows()
    q_all = tree.draft_probs
    uniforms = _Uniforms([requests[i].verify_generator for i in sampled])
    count = len(sampled)
    cur = torch.tensor([root_rows[i] for i in sampled], dtype=torch.long)  # [count] current score row
    r = probs[local[cur].to(device)].clone()  # [count, vocab] residual target at the current node
    alive = torch.ones(count, dtype=torch.bool)
    while bool(alive.any()):
        moved = torch.zeros(count, dtype=torch.bool)
        nxt = cur.clone()
        for j in range(table.shape[1]):
            child = table[cur, j]  # [count]
            trying = alive & ~moved & (child >= 0)
            if not bool(trying.any()):
                break  # children are packed: nobody has a (j + 1)-th either
            idx = trying.nonzero().squeeze(-1)
            nodes = child[idx]
            x = tokens[nodes.to(device)]
            q = _candidate_laws(q_all, nodes, x, r.shape[-1], device)  # [n, vocab]
            ar = torch.arange(len(idx), device=device)
            r_x, q_x = r[idx.to(device), x], q[ar, x]
            ratio = torch.where(q_x > 0, r_x / q_x.clamp_min(1e-30), torch.zeros_like(r_x)).clamp(max=1.0)
            accept = (uniforms(idx).to(device) < ratio).cpu()
            for b, g in zip(idx[accept].tolist(), nodes[accept].tolist()):
                paths[sampled[b]].append(g)
            moved[idx[accept]] = True
            nxt[idx[accept]] = node_row[nodes[accept]]
            rej = idx[~accept].to(device)
            if rej.numel():
                residual = (r[rej] - q[~accept.to(device)]).clamp_min(0.0)  # [n_rej, vocab]
                mass = residual.sum(-1, keepdim=True)
                # mass ~ 0: r == q up to round-off, the rejection had probability ~0; keep r.
                r[rej] = torch.where(mass > 1e-12, residual / mass.clamp_min(1e-30), r[rej])
        stop = (alive & ~moved).nonzero().squeeze(-1)
        if stop.numel():
            picked = _sample(r[stop.to(device)], uniforms(stop))
            for b, t in zip(stop.tolist(), picked.tolist()):
                final[sampled[b]] = t
            alive[stop] = False
        if bool(moved.any()):
            cur = torch.where(moved, nxt, cur)
            r[moved.to(device)] = probs[local[cur[moved]].to(device)]


def _candidate_laws(q_all: torch.Tensor | None, nodes: torch.Tensor, x: torch.Tensor, vocab: int,
                    device: torch.device) -> torch.Tensor:
    """Each candidate's law; deterministic candidates (no or zero row) are point masses."""
    point = torch.zeros(len(nodes), vocab, device=device)
    point[torch.arange(len(nodes), device=device), x] = 1.0
    if q_all is None:
        return point
    q = q_all[nodes.to(q_all.device)].to(device).float()
    return torch.where((q.sum(-1) > 0).unsqueeze(-1), q, point)


class _Uniforms:
    """U(0, 1) draws for rows of the sampled requests: seeded rows from their own generator
    (so a seeded request's outcome does not depend on the batch), the rest in one draw."""

    def __init__(self, generators: Sequence[torch.Generator | None]) -> None:
        self.generators = list(generators)
        self.seeded = torch.tensor([g is not None for g in generators], dtype=torch.bool)

    def __call__(self, rows: torch.Tensor) -> torch.Tensor:  # [n] -> [n]
        u = torch.rand(len(rows))
        if bool(self.seeded.any()):
            for j in self.seeded[rows].nonzero().squeeze(-1).tolist():
                u[j] = torch.rand(1, generator=self.generators[int(rows[j])])[0]
        return u


def _sample(dist: torch.Tensor, u: torch.Tensor) -> torch.Tensor:
    """Inverse-CDF sample of each (unnormalised) row of ``dist`` with uniforms ``u``."""
    cdf = dist.float().cumsum(-1)
    idx = torch.searchsorted(cdf, (u.to(dist.device) * cdf[:, -1]).unsqueeze(-1), right=True).squeeze(-1)
    return idx.clamp_(max=dist.shape[-1] - 1).cpu()
