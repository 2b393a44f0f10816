"""Draft trees on the reference engine: one-pass tree scoring and D²SD tree drafting.

KV layout in a request's slot (``SlotKVCache`` positions), with L committed tokens:

- ``0 .. L - 1``: the committed tokens, consecutive, as ``ModelRunner`` keeps them;
- target: node j of the tree at ``L + j``; drafter: chain node j at ``L + j`` (where
  autoregressive chain drafting writes it), branch tokens from ``L + k`` on.

A node's query sees the committed prefix and its ancestors (itself included) and nothing
else; its rope position is ``L + depth``. So each node's logits and KV are exactly those
of the chain "committed + path to the node", while the shared prefix is computed once.
After verification the accepted path's KV moves to ``L, L + 1, ...``
(``SlotKVCache.copy_positions``) and the runner's record of cached tokens grows by the
path, so the next call feeds only the newly emitted token.

The capability is a mixin per engine kind (``TreeTargetMixin``, ``TreeDrafterMixin``,
``EagleTreeDrafterMixin``); the backend composes them with the other capabilities into
ordinary classes (``backend.TreeParticleTarget`` and the drafters beside it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from minedraft.rules.draft_trees import ConfidenceTree, propose_confidence_tree
from minedraft.sampling import processed_probs, row_params, sample_rows
from minedraft.types import (
    Branch,
    BranchSpec,
    DraftBlock,
    DraftTree,
    RequestState,
    TreeVerifyOutcome,
    VerifyOutcome,
    VerifyScores,
)

from .engines import ReferenceDrafter, ReferenceTarget, propose_loop
from .runner import ModelRunner, Row, feed_groups


@dataclass
class _Query:
    """One fed tree token."""

    token: int
    rope: int  # rope position: L + depth
    storage: int  # where its KV is written in the slot
    sees: list[int]  # storage positions past the prefix it attends to (ancestors and itself)


@dataclass
class _TreeRow:
    request_id: str
    prefix: list[int]  # committed tokens
    start: int  # first prefix position fed (earlier ones are cached)
    nodes: list[_Query]
    root_logits: bool  # also return the logits after the last committed token


@dataclass
class _Layout:
    """Where a request's tree KV lives until verification decides which path stays."""

    prefix: list[int]
    tokens: list[int]  # node tokens
    storage: list[int | None]  # per node; None: never fed (a leaf of the drafter)


def _reusable_prefix(runner: ModelRunner, request_id: str, prefix: list[int], refeed_last: bool) -> int:
    """Cached tokens that match the prefix (all but the last when its logits are needed)."""
    cached = runner.cached.get(request_id, [])
    limit = min(len(cached), len(prefix) - (1 if refeed_last else 0))
    n = 0
    while n < limit and cached[n] == prefix[n]:
        n += 1
    return n


def _tree_forward(runner: ModelRunner, rows: Sequence[_TreeRow],
                  states: list[torch.Tensor] | None = None) -> list[torch.Tensor]:
    """Logits per row: ``[root?, nodes...]`` (``[int(root_logits) + len(nodes), vocab]``).
    With ``states``, also appends per row the last hidden states of every fed query
    (prefix tail, then nodes). Rows that feed a long prefix (prompt prefill) run
    separately, as ``ModelRunner`` does, so short rows are not padded to their length."""
    fed = [len(r.prefix) - r.start for r in rows]
    out: list[torch.Tensor | None] = [None] * len(rows)
    hidden: list[torch.Tensor | None] = [None] * len(rows)
    for group in feed_groups(fed, runner.PREFILL_SPLIT):
        sub = [rows[i] for i in group]
        tensors = _layout(sub)
        logits, _, hidden_all = runner.forward_explicit_states([r.request_id for r in sub], *tensors)
        for j, i in enumerate(group):
            out[i] = logits[j]
            hidden[i] = hidden_all[j, : fed[i] + len(rows[i].nodes)]
    if states is not None:
        states.extend(hidden)  # type: ignore[arg-type]
    return out  # type: ignore[return-value]


def _layout(rows: Sequence[_TreeRow]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, list[list[int]]]:
    """input ids, rope positions, write positions (-1: pad), visibility ``[batch, q, kv_len]``
    and the query indices whose logits are wanted, for a batch of tree rows."""
    batch = len(rows)
    q = max(len(r.prefix) - r.start + len(r.nodes) for r in rows)
    kv_len = max(max([len(r.prefix)] + [n.storage + 1 for n in r.nodes]) for r in rows)
    input_ids = torch.zeros(batch, q, dtype=torch.long)
    positions = torch.zeros(batch, q, dtype=torch.long)
    write_pos = torch.full((batch, q), -1, dtype=torch.long)  # pads -> the scratch column
    visible = torch.zeros(batch, q, kv_len, dtype=torch.bool)
    visible[:, :, 0] = True  # pad queries see one key, so softmax stays finite
    key_index = torch.arange(kv_len)
    picks = []
    for b, row in enumerate(rows):
        length, m = len(row.prefix), len(row.prefix) - row.start
        if m:
            pos = torch.arange(row.start, length)
            input_ids[b, :m] = torch.tensor(row.prefix[row.start :], dtype=torch.long)
            positions[b, :m] = pos
            write_pos[b, :m] = pos
            visible[b, :m] = key_index.unsqueeze(0) <= pos.unsqueeze(1)  # causal over the prefix
        for j, node in enumerate(row.nodes):
            input_ids[b, m + j] = node.token
            positions[b, m + j] = node.rope
            write_pos[b, m + j] = node.storage
            visible[b, m + j, :length] = True  # the whole committed prefix ...
            visible[b, m + j, node.sees] = True  # ... and its ancestors, itself included
        picks.append(([m - 1] if row.root_logits else []) + list(range(m, m + len(row.nodes))))
    return input_ids, positions, write_pos, visible, picks


def _compact(runner: ModelRunner, request_id: str, layout: _Layout, path: list[int]) -> None:
    """Move the accepted path's KV to the positions right after the prefix (as far as the
    path's KV exists) and record it as cached."""
    base = len(layout.prefix)
    src, dst, keep = [], [], 0
    for depth, node in enumerate(path):
        where = layout.storage[node]
        if where is None:
            break
        if where != base + depth:
            src.append(where)
            dst.append(base + depth)
        keep += 1
    if request_id not in runner.slot_of or runner.cached.get(request_id, [])[:base] != layout.prefix:
        return  # the prefix itself was not (all) computed: leave it to the plain rollback
    if src:
        with torch.inference_mode():  # the cache tensors are inference tensors
            runner.cache.copy_positions(runner.slot_of[request_id], src, dst)
    runner.cached[request_id] = list(layout.prefix) + [layout.tokens[n] for n in path[:keep]]


class _TreeLayouts:
    """Shared: keep each request's tree layout until its outcome, then compact."""

    runner: ModelRunner

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._tree_layouts: dict[str, _Layout] = {}

    def on_verified(self, outcome: VerifyOutcome) -> None:
        if isinstance(outcome, TreeVerifyOutcome):
            for rid, path in zip(outcome.request_ids, outcome.accepted_nodes):
                layout = self._tree_layouts.pop(rid, None)
                if layout is not None:
                    _compact(self.runner, rid, layout, path)
        # The rollback to committed + accepted is now a no-op for compacted requests.
        super().on_verified(outcome)  # type: ignore[misc]

    def release(self, request_id: str) -> None:
        self._tree_layouts.pop(request_id, None)
        super().release(request_id)  # type: ignore[misc]


class TreeTargetMixin(_TreeLayouts):
    """``minedraft.protocols.TreeTarget`` for a ``ReferenceTarget``. With a feature store
    (EAGLE-style drafters), the features of the accepted path are published like those of
    accepted chain drafts."""

    _committed_len: dict[str, int]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._tree_feats: dict[str, tuple[int, torch.Tensor, torch.Tensor]] = {}  # start, prefix, nodes

    def score_tree(self, requests: Sequence[RequestState], tree: DraftTree) -> VerifyScores:
        rows, layouts = [], []
        for i, req in enumerate(requests):
            prefix, rid = req.committed_ids, req.request_id
            base = len(prefix)
            self._committed_len[rid] = base
            tokens, parents, depths = tree.tokens_of(i), tree.parents_of(i), tree.depths_of(i)
            sees: list[list[int]] = []
            for j, parent in enumerate(parents):
                sees.append((sees[parent] if parent >= 0 else []) + [base + j])
            nodes = [_Query(t, base + d, base + j, s) for j, (t, d, s) in enumerate(zip(tokens, depths, sees))]
            rows.append(_TreeRow(rid, prefix, _reusable_prefix(self.runner, rid, prefix, True), nodes, True))
            layouts.append(_Layout(prefix, tokens, [base + j for j in range(len(tokens))]))
        store = getattr(self, "feature_store", None)
        states: list[torch.Tensor] | None = [] if store is not None else None
        logits = _tree_forward(self.runner, rows, states)
        for b, (row, layout) in enumerate(zip(rows, layouts)):
            self.runner.cached[row.request_id] = list(row.prefix)  # node KV is not a prefix yet
            self._tree_layouts[row.request_id] = layout
            if store is not None:
                # As ReferenceTarget.score: the committed positions' features are final now,
                # the nodes' wait for the verdict (on_verified publishes the accepted path's).
                fed = len(row.prefix) - row.start
                store.publish(row.request_id, row.start, states[b][:fed])  # type: ignore[index]
                self._tree_feats[row.request_id] = (row.start, states[b][:fed], states[b][fed:])  # type: ignore[index]
        cu = torch.zeros(len(rows) + 1, dtype=torch.long)
        cu[1:] = torch.cumsum(torch.tensor([len(r.nodes) + 1 for r in rows], dtype=torch.long), 0)
        return VerifyScores(logits=torch.cat(logits), cu_num_positions=cu)  # [num_nodes + batch, vocab]

    def on_verified(self, outcome: VerifyOutcome) -> None:
        fed = getattr(self, "_fed", None)  # ReferenceTarget publishes these positions' features
        if isinstance(outcome, TreeVerifyOutcome):
            for rid, path in zip(outcome.request_ids, outcome.accepted_nodes):
                feats = self._tree_feats.pop(rid, None)
                if feats is not None and fed is not None:
                    start, prefix, nodes = feats  # committed positions: the prefix tail, then the path
                    fed[rid] = (start, torch.cat([prefix, nodes[torch.tensor(path, dtype=torch.long)]]))
        super().on_verified(outcome)

    def release(self, request_id: str) -> None:
        self._tree_feats.pop(request_id, None)
        super().release(request_id)


@dataclass
class _DraftedBranch(Branch):
    storage: list[int | None] = field(default_factory=list)  # per token; None: not fed
    sees: list[int] = field(default_factory=list)  # storage of the fed path so far


class TreeDrafterMixin(_TreeLayouts):
    """``TreeDrafter`` and ``BranchDrafter`` for a ``ReferenceDrafter``: the chain is drafted
    autoregressively, the branches autoregressively too, all of them in one batched
    forward per step with tree attention over the cached prefix and chain."""

    _committed_len: dict[str, int]
    vocab_size: int

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._chain_logits: dict[str, list[torch.Tensor]] = {}  # per request: draft logits per depth
        self._chain_prefix: dict[str, list[int]] = {}

    def propose_tree(
        self,
        requests: Sequence[RequestState],
        num_tokens: Sequence[int],
        num_branches: int,
        branch_tokens: int | None = None,
    ) -> DraftTree:
        try:
            built = propose_confidence_tree(self, requests, num_tokens, num_branches, branch_tokens)  # type: ignore[arg-type]
            self._record_layouts(requests, built)
        finally:
            for req in requests:
                self._chain_logits.pop(req.request_id, None)
                self._chain_prefix.pop(req.request_id, None)
        return built.tree

    def draft_chain(self, requests: Sequence[RequestState], num_tokens: Sequence[int]) -> DraftBlock:
        committed = [r.committed_ids for r in requests]
        seen: list[list[torch.Tensor]] = [[] for _ in requests]
        for i, req in enumerate(requests):
            self._committed_len[req.request_id] = len(committed[i])

        def step_logits(active: list[int], drafted: list[list[int]]) -> torch.Tensor:
            rows = [Row(requests[i].request_id, committed[i] + drafted[i], 1) for i in active]
            logits, _ = self.runner.forward(rows)  # type: ignore[attr-defined]
            for j, i in enumerate(active):
                seen[i].append(logits[j][0])  # [vocab]: kept for the alternatives
            return torch.cat(logits)  # [active, vocab]

        block = propose_loop(requests, num_tokens, None, self.vocab_size, step_logits)
        for i, req in enumerate(requests):
            self._chain_logits[req.request_id] = seen[i]
            self._chain_prefix[req.request_id] = committed[i]
        return block

    def draft_branches(
        self, requests: Sequence[RequestState], chain: DraftBlock, specs: Sequence[BranchSpec]
    ) -> list[Branch]:
        logits = [self._chain_logits[requests[s.request_index].request_id][s.start] for s in specs]
        branches, rows_q, free = _start_branches(requests, chain, specs, logits)
        active = [b for b, br in enumerate(branches) if 0 < len(br.tokens) < specs[b].length]
        while active:
            self._extend(requests, branches, active, rows_q, free)
            active = [b for b in active if len(branches[b].tokens) < specs[b].length]
        return _finish_branches(branches, rows_q)

    def _extend(self, requests, branches, active, rows_q, free) -> None:
        """One batched step: feed each active branch's last token, draft the next."""
        rows, order = _frontier_rows(requests, branches, active, free)
        logits = torch.cat(_tree_forward(self.runner, rows))  # type: ignore[attr-defined]  # [active, vocab]
        _draw_next(requests, branches, order, logits, rows_q)

    def _record_layouts(self, requests: Sequence[RequestState], built: ConfidenceTree) -> None:
        chain_lengths, sizes = built.chain.lengths(), built.tree.lengths()
        storage: list[list[int | None]] = []
        for i, req in enumerate(requests):
            base, k = len(req.committed_ids), chain_lengths[i]
            # Chain drafting fed every chain token but the last.
            storage.append([base + j if j < k - 1 else None for j in range(k)] + [None] * (sizes[i] - k))
        for br, nodes in zip(built.branches, built.branch_nodes):
            for where, node in zip(br.storage, nodes):  # type: ignore[attr-defined]
                if storage[br.request_index][node] is None:
                    storage[br.request_index][node] = where
        for i, req in enumerate(requests):
            if chain_lengths[i]:  # drafting fed the committed prefix: its KV is valid
                prefix = self._chain_prefix.get(req.request_id, req.committed_ids)
                self._tree_layouts[req.request_id] = _Layout(prefix, built.tree.tokens_of(i), storage[i])

    def release(self, request_id: str) -> None:
        self._chain_logits.pop(request_id, None)
        self._chain_prefix.pop(request_id, None)
        super().release(request_id)


def _start_branches(requests, chain: DraftBlock, specs: Sequence[BranchSpec], logits: list[torch.Tensor]):
    """Each spec's first token (``_alternative``) from the draft logits at its branch point;
    its ancestors are the chain nodes before it, stored at L + j. Branch tokens are
    stored from L + k on (``free``)."""
    lengths = chain.lengths()
    free = {i: len(requests[i].committed_ids) + lengths[i] for i in range(len(requests))}  # next free storage
    branches: list[_DraftedBranch] = []
    rows_q: list[list[torch.Tensor]] = []
    for spec, row in zip(specs, logits):
        i, p = spec.request_index, spec.start
        base = len(requests[i].committed_ids)
        br = _DraftedBranch(i, p, [], None, [], sees=[base + j for j in range(p)])
        q_rows: list[torch.Tensor] = []
        alt = _alternative(requests[i], row, chain.tokens_of(i)[p])
        if alt is not None:
            token, q, logprob = alt
            br.tokens.append(token)
            br.logprobs.append(logprob)  # type: ignore[union-attr]
            br.storage.append(None)
            if q is not None:
                q_rows.append(q)
        branches.append(br)
        rows_q.append(q_rows)
    return branches, rows_q, free


def _finish_branches(branches: list[_DraftedBranch], rows_q: list[list[torch.Tensor]]) -> list[Branch]:
    for br, q_rows in zip(branches, rows_q):
        br.probs = torch.stack(q_rows) if q_rows else None
    return list(branches)


def _frontier_rows(requests, branches, active: list[int], free: dict[int, int]) -> tuple[list[_TreeRow], list[int]]:
    """One tree row per request: each active branch's last token as a query (storage
    allocated now) that sees the prefix, the chain up to the branch point and the branch."""
    by_request: dict[int, list[int]] = {}
    for b in active:
        by_request.setdefault(branches[b].request_index, []).append(b)
    rows, order = [], []
    for i, members in by_request.items():
        req = requests[i]
        base = len(req.committed_ids)
        nodes = []
        for b in members:
            br = branches[b]
            where = free[i]
            free[i] += 1
            br.storage[-1] = where
            br.sees.append(where)
            nodes.append(_Query(br.tokens[-1], base + br.start + len(br.tokens) - 1, where, list(br.sees)))
            order.append(b)
        rows.append(_TreeRow(req.request_id, req.committed_ids, base, nodes, False))
    return rows, order


def _draw_next(requests, branches, order: list[int], logits: torch.Tensor, rows_q) -> None:
    """Append to each branch in ``order`` its next token, drawn from its row of ``logits``
    like a chain draft (greedy: argmax; sampled: from the processed q, law recorded)."""
    params = [requests[branches[b].request_index].params for b in order]
    temperature, top_k, top_p = (t.to(logits.device) for t in row_params(params))
    q = processed_probs(logits, temperature, top_k, top_p)  # [active, vocab]
    tokens = sample_rows(q, [requests[branches[b].request_index].draft_generator for b in order])
    conf = torch.where((temperature <= 0).unsqueeze(-1), torch.softmax(logits.float(), -1), q)
    chosen = conf.gather(-1, tokens.to(conf.device).unsqueeze(-1)).squeeze(-1)
    for j, b in enumerate(order):
        br = branches[b]
        br.tokens.append(int(tokens[j]))
        br.logprobs.append(float(torch.log(chosen[j].clamp_min(1e-30))))
        br.storage.append(None)
        if not requests[br.request_index].params.greedy:
            rows_q[b].append(q[j])


def _alternative(req: RequestState, logits: torch.Tensor, exclude: int) -> tuple[int, torch.Tensor | None, float] | None:
    """A token for the chain position whose draft was ``exclude``: greedy, the best other
    token (deterministic: no law recorded); sampled, a draw from q without ``exclude``
    (sampling without replacement), recorded with that law. None: q has no other token."""
    if req.params.greedy:
        top = logits.topk(2).indices.tolist()
        token = top[1] if top[0] == exclude else top[0]
        return token, None, max(float(torch.log_softmax(logits.float(), -1)[token]), -1e30)
    temperature, top_k, top_p = (t.to(logits.device) for t in row_params([req.params]))
    q = processed_probs(logits.unsqueeze(0), temperature, top_k, top_p)[0]  # [vocab]
    q[exclude] = 0.0
    mass = float(q.sum())
    if mass <= 1e-9:
        return None
    q = q / mass
    token = int(sample_rows(q.unsqueeze(0), [req.draft_generator])[0])
    return token, q, float(torch.log(q[token].clamp_min(1e-30)))


class EagleTreeDrafterMixin:
    """``TreeDrafter`` and ``BranchDrafter`` for an ``EagleDrafter``.

    The chain is ``EagleDrafter.propose``, with each step's output feature recorded: the
    feature after d_<p gives d_p's distribution (hence the alternative at p) and is the
    input feature of whatever token is fed at depth p. Branches then continue one
    tree-masked step per depth, each query seeing the committed prefix (target-feature KV),
    the chain before its branch point and its own branch. Nothing is compacted: the EAGLE
    cache only ever counts target-feature positions as valid."""

    model: torch.nn.Module
    cache: Any
    slot_of: dict[str, int]
    dtype: torch.dtype
    device: torch.device
    hidden_size: int

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._recording: dict[str, list[torch.Tensor]] | None = None
        self._chain_features: dict[str, list[torch.Tensor]] = {}  # per request: output feature per depth

    def _forward(self, request_ids, fed, starts, feats):
        out = super()._forward(request_ids, fed, starts, feats)  # type: ignore[misc]
        if self._recording is not None:
            for rid, feature in zip(request_ids, out):
                self._recording.setdefault(rid, []).append(feature)
        return out

    def propose_tree(
        self,
        requests: Sequence[RequestState],
        num_tokens: Sequence[int],
        num_branches: int,
        branch_tokens: int | None = None,
    ) -> DraftTree:
        try:
            return propose_confidence_tree(self, requests, num_tokens, num_branches, branch_tokens).tree  # type: ignore[arg-type]
        finally:
            for req in requests:
                self._chain_features.pop(req.request_id, None)

    def draft_chain(self, requests: Sequence[RequestState], num_tokens: Sequence[int]) -> DraftBlock:
        self._recording = {}
        try:
            block = self.propose(requests, num_tokens)  # type: ignore[attr-defined]
        finally:
            recorded, self._recording = self._recording, None
        for req in requests:
            self._chain_features[req.request_id] = recorded.get(req.request_id, [])
        return block

    @torch.inference_mode()
    def draft_branches(
        self, requests: Sequence[RequestState], chain: DraftBlock, specs: Sequence[BranchSpec]
    ) -> list[Branch]:
        features = [self._chain_features[requests[s.request_index].request_id][s.start] for s in specs]
        logits = list(self.model.lm_head(torch.stack(features)).float()) if specs else []
        branches, rows_q, free = _start_branches(requests, chain, specs, logits)
        feature_in = dict(enumerate(features))  # branch -> input feature of its next fed token
        active = [b for b, br in enumerate(branches) if 0 < len(br.tokens) < specs[b].length]
        while active:
            rows, order = _frontier_rows(requests, branches, active, free)
            out = self._tree_step(rows, [feature_in[b] for b in order])  # [active, hidden]
            for j, b in enumerate(order):
                feature_in[b] = out[j]
            _draw_next(requests, branches, order, self.model.lm_head(out).float(), rows_q)
            active = [b for b in active if len(branches[b].tokens) < specs[b].length]
        return _finish_branches(branches, rows_q)

    def _tree_step(self, rows: list[_TreeRow], features: list[torch.Tensor]) -> torch.Tensor:
        """One EAGLE step over tree rows (no prefix feed): output features of the nodes."""
        input_ids, positions, write_pos, visible, _ = _layout(rows)
        kv_len = visible.shape[-1]
        if kv_len > self.cache.capacity:
            self.cache.grow(capacity=max(kv_len, 2 * self.cache.capacity))
        feats = torch.zeros(*input_ids.shape, self.hidden_size, dtype=self.dtype, device=self.device)
        at = [(b, j) for b, row in enumerate(rows) for j in range(len(row.nodes))]
        for (b, j), feature in zip(at, features):
            feats[b, j] = feature
        write = torch.where(write_pos < 0, torch.full_like(write_pos, self.cache.capacity), write_pos)
        mask = torch.zeros(len(rows), 1, *visible.shape[1:], dtype=self.dtype)
        mask.masked_fill_(~visible.unsqueeze(1), torch.finfo(self.dtype).min)
        slots = torch.tensor([self.slot_of[r.request_id] for r in rows], device=self.device)
        self.cache.bind(slots, write.to(self.device), kv_len)
        out = self.model.step(input_ids.to(self.device), feats, positions.to(self.device), mask.to(self.device),
                              self.cache)  # [batch, q, hidden]
        return torch.stack([out[b, j] for b, j in at])

    def release(self, request_id: str) -> None:
        self._chain_features.pop(request_id, None)
        super().release(request_id)  # type: ignore[misc]


class ReferenceTreeTarget(TreeTargetMixin, ReferenceTarget):
    """The reference target with ``score_tree``."""


class ReferenceTreeDrafter(TreeDrafterMixin, ReferenceDrafter):
    """The reference drafter with ``propose_tree`` (D²SD)."""

