"""The reference Drafter and Target: any transformers causal LM pair sharing a tokenizer."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import torch

from minedraft.sampling import processed_probs, row_params, sample_rows
from minedraft.types import DraftBlock, RequestState, VerifyOutcome, VerifyScores

from .runner import ModelRunner, Row, SlotKVCache, SlotOwner, feed_groups, ragged_batch


class _RunnerEngine:
    """Shared: rollback to the committed prefix after verification."""

    def __init__(self, runner: ModelRunner) -> None:
        self.runner = runner
        self.vocab_size = runner.vocab_size
        self._committed_len: dict[str, int] = {}  # committed length when last called

    def on_verified(self, outcome: VerifyOutcome) -> None:
        for rid, n_acc in zip(outcome.request_ids, outcome.num_accepted):
            if rid in self._committed_len:
                self.runner.truncate(rid, self._committed_len[rid] + n_acc)

    def release(self, request_id: str) -> None:
        self._committed_len.pop(request_id, None)
        self.runner.release(request_id)


class FeatureStore:
    """Per-request target features (last hidden states) of committed positions.

    The reference backend creates one per engine pair with an EAGLE-style drafter: the
    ReferenceTarget publishes the features of the positions that become committed at each
    verification, the drafter reads them. Thread-safe for disjoint requests (under PSD the
    draft lane reads sub-batch B while the target lane verifies sub-batch A)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buf: dict[str, torch.Tensor] = {}  # request_id -> [capacity, hidden]
        self._len: dict[str, int] = {}  # valid positions 0 .. len - 1

    def publish(self, request_id: str, start: int, features: torch.Tensor) -> None:
        """Features ``[n, hidden]`` of positions ``start .. start + n - 1``; later positions are
        dropped (a shorter committed prefix overrides). A gap leaves the store unchanged."""
        with self._lock:
            have = self._len.get(request_id, 0)
            if start > have:
                return
            end = start + features.shape[0]
            buf = self._buf.get(request_id)
            if buf is None or buf.shape[0] < end or buf.dtype != features.dtype:
                new = features.new_zeros(max(end, 2 * (buf.shape[0] if buf is not None else 64)), features.shape[-1])
                if buf is not None:
                    new[:start] = buf[:start].to(new.dtype)
                buf = self._buf[request_id] = new
            buf[start:end] = features
            self._len[request_id] = end

    def length(self, request_id: str) -> int:
        with self._lock:
            return self._len.get(request_id, 0)

    def read(self, request_id: str, start: int, end: int) -> torch.Tensor:
        """Features ``[end - start, hidden]`` of positions ``start .. end - 1`` (a copy)."""
        with self._lock:
            if end > self._len.get(request_id, 0) or start < 0:
                raise KeyError(f"features of {request_id!r} cover {self._len.get(request_id, 0)} positions, "
                               f"asked for [{start}, {end})")
            return self._buf[request_id][start:end].clone()

    def release(self, request_id: str) -> None:
        with self._lock:
            self._buf.pop(request_id, None)
            self._len.pop(request_id, None)


class ReferenceTarget(_RunnerEngine):
    def __init__(self, runner: ModelRunner, max_context: int, feature_store: FeatureStore | None = None) -> None:
        super().__init__(runner)
        self.max_context = max_context
        self.feature_store = feature_store
        self._fed: dict[str, tuple[int, torch.Tensor]] = {}  # request_id -> (first fed position, features)

    def score(self, requests: Sequence[RequestState], block: DraftBlock) -> VerifyScores:
        rows = []
        for i, req in enumerate(requests):
            committed = req.committed_ids
            self._committed_len[req.request_id] = len(committed)
            drafts = block.tokens_of(i)
            rows.append(Row(req.request_id, committed + drafts, len(drafts) + 1))
        if self.feature_store is None:
            logits, _ = self.runner.forward(rows)
        else:
            logits, _, fed, starts = self.runner.forward_with_states(rows)
            for req, start, feats in zip(requests, starts, fed):
                # The committed positions' features are final now; the drafts' wait for
                # the verdict (on_verified). Publishing early lets callers that score
                # without committing (benchmark probes) draft right away.
                committed = self._committed_len[req.request_id]
                self.feature_store.publish(req.request_id, start, feats[: committed - start])
                self._fed[req.request_id] = (start, feats)
        cu = torch.zeros(len(rows) + 1, dtype=torch.long)
        cu[1:] = torch.cumsum(torch.tensor([r.num_logits for r in rows]), 0)
        return VerifyScores(logits=torch.cat(logits), cu_num_positions=cu)  # [num_tokens + batch, vocab]

    def on_verified(self, outcome: VerifyOutcome) -> None:
        if self.feature_store is not None:
            # Committed now: the accepted drafts too. The recovered/bonus token was never
            # fed, so its feature comes with the next verification.
            for rid, n_acc in zip(outcome.request_ids, outcome.num_accepted):
                fed = self._fed.pop(rid, None)
                if fed is not None and rid in self._committed_len and n_acc:
                    start, feats = fed
                    committed = self._committed_len[rid]
                    self.feature_store.publish(rid, committed, feats[committed - start : committed + n_acc - start])
        super().on_verified(outcome)

    def release(self, request_id: str) -> None:
        self._fed.pop(request_id, None)
        if self.feature_store is not None:
            self.feature_store.release(request_id)
        super().release(request_id)


StepLogits = Callable[[list[int], list[list[int]]], torch.Tensor]


def propose_loop(
    requests: Sequence[RequestState],
    num_tokens: Sequence[int],
    stop_threshold: float | None,
    vocab_size: int,
    step_logits: StepLogits,
) -> DraftBlock:
    """Autoregressive drafting shared by the reference drafters: ``step_logits(active,
    drafted)`` returns the next-token logits ``[len(active), vocab]`` of the active requests
    given the tokens each has drafted so far; tokens are sampled from the processed q."""
    sampled = any(not r.params.greedy for r in requests)
    drafted: list[list[int]] = [[] for _ in requests]
    q_rows: list[list[torch.Tensor]] = [[] for _ in requests]
    logprob_rows: list[list[float]] = [[] for _ in requests]
    confidence = [1.0] * len(requests)
    active = [i for i, n in enumerate(num_tokens) if n > 0]
    while active:
        logits_t = step_logits(active, drafted)  # [active, vocab]
        params = [requests[i].params for i in active]
        temperature, top_k, top_p = (t.to(logits_t.device) for t in row_params(params))
        q = processed_probs(logits_t, temperature, top_k, top_p)  # [active, vocab]
        tokens = sample_rows(q, [requests[i].draft_generator for i in active])
        # Confidence signal: q for sampled rows, the plain softmax for greedy ones.
        conf_dist = torch.where((temperature <= 0).unsqueeze(-1), torch.softmax(logits_t.float(), -1), q)
        chosen_p = conf_dist.gather(-1, tokens.to(conf_dist.device).unsqueeze(-1)).squeeze(-1)
        max_p = conf_dist.max(-1).values
        still = []
        for j, i in enumerate(active):
            drafted[i].append(int(tokens[j]))
            logprob_rows[i].append(float(torch.log(chosen_p[j].clamp_min(1e-30))))
            if sampled:
                q_rows[i].append(q[j])
            confidence[i] *= float(max_p[j])
            done = len(drafted[i]) >= num_tokens[i]
            if stop_threshold is not None and confidence[i] < stop_threshold:
                done = True
            if not done:
                still.append(i)
        active = still
    lengths = [len(d) for d in drafted]
    cu = torch.zeros(len(requests) + 1, dtype=torch.long)
    cu[1:] = torch.cumsum(torch.tensor(lengths, dtype=torch.long), 0)
    flat_q = [row for rows in q_rows for row in rows]
    return DraftBlock(
        request_ids=[r.request_id for r in requests],
        tokens=torch.tensor([t for d in drafted for t in d], dtype=torch.long),
        cu_num_tokens=cu,
        draft_probs=(torch.stack(flat_q) if flat_q else torch.zeros(0, vocab_size)) if sampled else None,
        draft_logprobs=torch.tensor([lp for rows in logprob_rows for lp in rows], dtype=torch.float32),
    )


class ReferenceDrafter(_RunnerEngine):
    """Autoregressive drafting with the draft model, sampled from the processed q."""

    @property
    def max_context(self) -> int | None:
        """The draft model's own window: schedulers draft no further (``Drafter``)."""
        return self.runner.max_context

    def propose(
        self,
        requests: Sequence[RequestState],
        num_tokens: Sequence[int],
        stop_threshold: float | None = None,
    ) -> DraftBlock:
        committed = [r.committed_ids for r in requests]
        for i, req in enumerate(requests):
            self._committed_len[req.request_id] = len(committed[i])

        def step_logits(active: list[int], drafted: list[list[int]]) -> torch.Tensor:
            rows = [Row(requests[i].request_id, committed[i] + drafted[i], 1) for i in active]
            logits, _ = self.runner.forward(rows)
            return torch.cat(logits)  # [active, vocab]

        return propose_loop(requests, num_tokens, stop_threshold, self.vocab_size, step_logits)


class EagleDrafter(SlotOwner):
    """Drafting with an EAGLE-style head (``draft_models.EagleDraft``) fed target features.

    Its cache holds, per request, only positions computed from *target* features: the
    committed prefix whose features the target published. Each proposal first feeds the
    newly committed tokens (with their target features, the last position reading the
    previous one's), then drafts token by token feeding its own output features; those
    draft positions are overwritten by the next proposal. A request whose features are not
    published yet (its prompt has not been through the target) gets no draft tokens: its
    first step is plain decoding, which publishes them."""

    def __init__(self, model: torch.nn.Module, store: FeatureStore, max_slots: int = 32, capacity: int = 256) -> None:
        self.model = model.eval()
        self.store = store
        self.vocab_size = int(model.vocab_size)
        ref = model.norm.weight
        self.device, self.dtype = ref.device, ref.dtype
        self.hidden_size = int(ref.shape[0])
        self.cache = SlotKVCache(max_slots, capacity, self.device)
        self._free = list(range(max_slots))
        self.slot_of: dict[str, int] = {}
        self.cached: dict[str, list[int]] = {}  # tokens whose KV (from target features) is valid

    def ready(self, request: RequestState) -> bool:
        """Features of positions 0 .. n - 2 are published (n committed tokens)."""
        return self.store.length(request.request_id) >= request.num_committed - 1

    @torch.inference_mode()
    def propose(
        self,
        requests: Sequence[RequestState],
        num_tokens: Sequence[int],
        stop_threshold: float | None = None,
    ) -> DraftBlock:
        num_tokens = [n if n > 0 and self.ready(r) else 0 for r, n in zip(requests, num_tokens)]
        committed = [r.committed_ids for r in requests]
        last_feature: dict[int, torch.Tensor] = {}  # request index -> its latest output feature

        def step_logits(active: list[int], drafted: list[list[int]]) -> torch.Tensor:
            first = not drafted[active[0]]  # every active request is at the same draft step
            if first:
                fed, starts, feats = [], [], []
                for i in active:
                    rid, tokens = requests[i].request_id, committed[i]
                    self._slot(rid)
                    start = self._reusable(rid, tokens)
                    fed.append(tokens[start:])
                    starts.append(start)
                    feats.append(self._target_features(rid, start, len(tokens)))
            else:
                fed = [[drafted[i][-1]] for i in active]
                starts = [len(committed[i]) + len(drafted[i]) - 1 for i in active]
                feats = [last_feature[i].unsqueeze(0) for i in active]
            out = self._forward([requests[i].request_id for i in active], fed, starts, feats)
            if first:
                for i in active:  # KV of the committed prefix (target features) is reusable
                    self.cached[requests[i].request_id] = list(committed[i])
            for j, i in enumerate(active):
                last_feature[i] = out[j]
            return self.model.lm_head(torch.stack([out[j] for j in range(len(active))])).float()

        return propose_loop(requests, num_tokens, stop_threshold, self.vocab_size, step_logits)

    def _reusable(self, request_id: str, tokens: list[int]) -> int:
        """Longest cached prefix that matches, always re-feeding the last committed token."""
        cached = self.cached.get(request_id, [])
        limit = min(len(cached), len(tokens) - 1)
        n = 0
        while n < limit and cached[n] == tokens[n]:
            n += 1
        return n

    def _target_features(self, request_id: str, start: int, end: int) -> torch.Tensor:
        """Inputs for positions start .. end - 1: target features of start - 1 .. end - 2."""
        if end - 1 <= 0:
            return torch.zeros(end - start, self.hidden_size, dtype=self.dtype, device=self.device)
        feats = self.store.read(request_id, max(start - 1, 0), end - 1).to(self.device, self.dtype)
        if start == 0:  # position 0 has no previous position
            feats = torch.cat([feats.new_zeros(1, self.hidden_size), feats])
        return feats

    def _forward(self, request_ids: list[str], fed: list[list[int]], starts: list[int],
                 feats: list[torch.Tensor]) -> list[torch.Tensor]:
        """Output features of the last fed position of each row ``[hidden]``. Rows feeding more
        than ``ModelRunner.PREFILL_SPLIT`` tokens (a newcomer's prompt, a catch-up after AR
        steps) run in a forward of their own, as in the target's runner: padded together,
        every row would compute the longest row's positions (at 16 in flight the draft of a
        step after an admission took a median 68 ms padded and 32 split, 25 with none)."""
        groups = feed_groups([len(f) for f in fed], ModelRunner.PREFILL_SPLIT)
        if len(groups) == 1:
            return self._forward_padded(request_ids, fed, starts, feats)
        out: list[torch.Tensor | None] = [None] * len(fed)
        for group in groups:
            part = self._forward_padded([request_ids[j] for j in group], [fed[j] for j in group],
                                        [starts[j] for j in group], [feats[j] for j in group])
            for j, row in zip(group, part):
                out[j] = row
        return out  # type: ignore[return-value]

    def _forward_padded(self, request_ids: list[str], fed: list[list[int]], starts: list[int],
                        feats: list[torch.Tensor]) -> list[torch.Tensor]:
        """One forward over the rows, each padded to the longest."""
        kv_len = max(s + len(f) for f, s in zip(fed, starts))
        if kv_len > self.cache.capacity:
            self.cache.grow(capacity=max(kv_len, 2 * self.cache.capacity))
        batch = ragged_batch(fed, starts, self.cache.capacity, self.dtype)
        features = torch.zeros(len(fed), batch.input_ids.shape[1], self.hidden_size, dtype=self.dtype, device=self.device)
        for b, f in enumerate(feats):
            features[b, : f.shape[0]] = f
        slots = torch.tensor([self.slot_of[r] for r in request_ids], device=self.device)
        self.cache.bind(slots, batch.write_pos.to(self.device), batch.kv_len)
        out = self.model.step(batch.input_ids.to(self.device), features, batch.positions.to(self.device),
                              batch.mask.to(self.device), self.cache)  # [batch, q, hidden]
        return [out[b, len(f) - 1] for b, f in enumerate(fed)]

    def on_verified(self, outcome: VerifyOutcome) -> None:
        """Nothing to roll back: only target-feature positions are ever marked valid."""
