"""Batched forward passes over ragged requests with a slot-based KV cache.

Every request owns one slot of a preallocated cache ``[slots, kv_heads, capacity, head_dim]``
per layer. A forward writes the new tokens' KV at each row's own positions and builds an
explicit 4-D attention mask, so rows of different lengths share one batch and a rollback
is just a shorter valid length: nothing is copied, and one request's rejected tokens can
never touch another's cache. Works for Hugging Face causal LMs that route KV through
``cache.update`` and accept 4-D masks and ``position_ids`` (Llama family, GPT-2, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch


class SlotKVCache:
    """Duck-typed transformers cache: ``update`` scatters into slots, returns the batch's keys."""

    def __init__(self, num_slots: int, capacity: int, device: torch.device) -> None:
        self.num_slots = num_slots
        self.capacity = capacity
        self.device = device
        self.keys: list[torch.Tensor] = []  # per layer [slots, kv_heads, capacity + 1, head_dim]
        self.values: list[torch.Tensor] = []
        # Per-forward state, set by ``bind``.
        self._slots = torch.zeros(0, dtype=torch.long)
        self._write_pos = torch.zeros(0, 0, dtype=torch.long)
        self._kv_len = 0

    def bind(self, slots: torch.Tensor, write_pos: torch.Tensor, kv_len: int) -> None:
        self._slots, self._write_pos, self._kv_len = slots, write_pos, kv_len

    def grow(self, capacity: int | None = None, num_slots: int | None = None) -> None:
        """Reallocate larger (rare: capacity doubles), keeping the stored KV."""
        new_cap = max(capacity or self.capacity, self.capacity)
        new_slots = max(num_slots or self.num_slots, self.num_slots)
        for store in (self.keys, self.values):
            for i, old in enumerate(store):
                new = old.new_zeros(new_slots, old.shape[1], new_cap + 1, old.shape[3])
                new[: old.shape[0], :, : self.capacity] = old[:, :, : self.capacity]
                store[i] = new
        self.capacity, self.num_slots = new_cap, new_slots

    def update(self, key_states: torch.Tensor, value_states: torch.Tensor, layer_idx: int, *args, **kwargs):
        # key_states: [batch, kv_heads, q, head_dim]
        if layer_idx == len(self.keys):
            shape = (self.num_slots, key_states.shape[1], self.capacity + 1, key_states.shape[3])
            self.keys.append(key_states.new_zeros(shape))
            self.values.append(value_states.new_zeros(shape))
        k_store, v_store = self.keys[layer_idx], self.values[layer_idx]
        rows = self._slots.unsqueeze(-1)  # [batch, 1]
        k_store[rows, :, self._write_pos] = key_states.transpose(1, 2)  # [batch, q, kv_heads, head_dim]
        v_store[rows, :, self._write_pos] = value_states.transpose(1, 2)
        return k_store[self._slots, :, : self._kv_len], v_store[self._slots, :, : self._kv_len]

    def get_seq_length(self, layer_idx: int = 0) -> int:
        return self._kv_len

    def copy_positions(self, slot: int, src: Sequence[int], dst: Sequence[int]) -> None:
        """Move KV within a slot (tree verification compacts the accepted path)."""
        s, d = torch.tensor(list(src)), torch.tensor(list(dst))
        for store in (*self.keys, *self.values):
            store[slot, :, d] = store[slot, :, s].clone()


def feed_groups(fed: Sequence[int], limit: int) -> list[list[int]]:
    """Row indices split into those feeding at most ``limit`` tokens and those feeding more
    (empty groups dropped). Each group runs as one padded forward, so a prompt's prefill
    does not pad the few-token rows to its length."""
    groups = ([i for i, n in enumerate(fed) if n <= limit], [i for i, n in enumerate(fed) if n > limit])
    return [g for g in groups if g]


@dataclass
class Row:
    """One request in a forward: its full token sequence and which logits it wants."""

    request_id: str
    tokens: list[int]  # committed tokens followed by any draft tokens
    num_logits: int  # logits wanted for the last ``num_logits`` positions


class SlotOwner:
    """One KV slot per request id, growing the cache when every slot is taken, plus the
    record of which tokens each slot's KV covers. Users set ``cache``, ``_free``,
    ``slot_of`` and ``cached``."""

    cache: SlotKVCache
    _free: list[int]
    slot_of: dict[str, int]
    cached: dict[str, list[int]]

    def _slot(self, request_id: str) -> int:
        if request_id not in self.slot_of:
            if not self._free:
                old = self.cache.num_slots
                self.cache.grow(num_slots=old * 2)
                self._free.extend(range(old, old * 2))
            self.slot_of[request_id] = self._free.pop(0)
            self.cached[request_id] = []
        return self.slot_of[request_id]

    def release(self, request_id: str) -> None:
        slot = self.slot_of.pop(request_id, None)
        self.cached.pop(request_id, None)
        if slot is not None:
            self._free.append(slot)


def max_context_of(model: torch.nn.Module) -> int | None:
    """The model's context window from its config (2048 where the config names none; None
    for a model without a transformers config, such as minedraft's own drafts)."""
    config = getattr(model, "config", None)
    if config is None:
        return None
    for attr in ("max_position_embeddings", "n_positions", "max_sequence_length"):
        value = getattr(config, attr, None)
        if isinstance(value, int) and value > 0:
            return value
    return 2048


class ModelRunner(SlotOwner):
    """Owns a model, its slot cache and the per-request record of cached tokens."""

    PREFILL_SPLIT = 16  # rows feeding more tokens than this run in a separate forward

    def __init__(self, model: torch.nn.Module, max_slots: int = 32, capacity: int = 256) -> None:
        self.model = model.eval()
        self.device = next(model.parameters()).device
        self.dtype = next(model.parameters()).dtype
        self.cache = SlotKVCache(max_slots, capacity, self.device)
        self.slot_of: dict[str, int] = {}
        self.cached: dict[str, list[int]] = {}  # tokens whose KV is valid, per request
        self._free = list(range(max_slots))
        self._base = getattr(model, model.base_model_prefix)
        self._head = model.get_output_embeddings()
        # A token-mapped draft head computes a subset but returns full-vocabulary logits.
        self.vocab_size = int(getattr(self._head, "vocab_size", None) or self._head.weight.shape[0])
        self.max_context = max_context_of(model)


    def truncate(self, request_id: str, length: int) -> None:
        """Mark KV past ``length`` stale (a rollback; nothing is copied)."""
        if request_id in self.cached:
            del self.cached[request_id][length:]

    @torch.inference_mode()
    def copy_slot(self, src_id: str, dst_id: str) -> None:
        """``dst_id`` takes over ``src_id``'s cached tokens and their KV (particle forks).
        KV at a position depends only on the tokens up to it, so positions where the two
        records already agree are kept and only the rest is copied."""
        src_tokens = self.cached.get(src_id)
        if src_id == dst_id:
            return
        if src_tokens is None:
            self.release(dst_id)  # nothing to copy: dst recomputes from its tokens
            return
        dst_tokens = self.cached.get(dst_id, [])
        common, limit = 0, min(len(src_tokens), len(dst_tokens))
        while common < limit and src_tokens[common] == dst_tokens[common]:
            common += 1
        src_slot, dst_slot = self.slot_of[src_id], self._slot(dst_id)
        for store in (*self.cache.keys, *self.cache.values):  # [slots, kv_heads, capacity + 1, head_dim]
            store[dst_slot, :, common : len(src_tokens)] = store[src_slot, :, common : len(src_tokens)]
        self.cached[dst_id] = list(src_tokens)

    # -- forward -----------------------------------------------------------------------
    def _reusable(self, row: Row) -> int:
        """Longest valid cached prefix, leaving at least the positions whose logits we need."""
        cached = self.cached.get(row.request_id, [])
        limit = min(len(cached), len(row.tokens) - row.num_logits)
        n = limit
        if cached[:limit] != row.tokens[:limit]:  # rare: fall back to the exact common prefix
            n = 0
            while n < limit and cached[n] == row.tokens[n]:
                n += 1
        return n

    @torch.inference_mode()
    def forward(self, rows: Sequence[Row]) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
        """Logits ``[num_logits, vocab]`` and last hidden states ``[num_logits, hidden]`` per row."""
        logits, hidden, _, _ = self.forward_with_states(rows)
        return logits, hidden

    @torch.inference_mode()
    def forward_with_states(self, rows: Sequence[Row]) -> tuple[
        list[torch.Tensor], list[torch.Tensor], list[torch.Tensor], list[int]
    ]:
        """Like ``forward``, plus, per row, the last hidden states of every position this call
        fed (``[len(tokens) - start, hidden]``) and that first fed position ``start`` (the
        positions before it came from the cache). EAGLE-style drafters read these."""
        starts = [self._reusable(r) for r in rows]
        fed = [len(r.tokens) - s for r, s in zip(rows, starts)]
        logits: list[torch.Tensor | None] = [None] * len(rows)
        hidden: list[torch.Tensor | None] = [None] * len(rows)
        fed_hidden: list[torch.Tensor | None] = [None] * len(rows)
        for group in feed_groups(fed, self.PREFILL_SPLIT):
            out_l, out_h, out_f = self._forward_group_states([rows[i] for i in group], [starts[i] for i in group])
            for j, i in enumerate(group):
                logits[i], hidden[i], fed_hidden[i] = out_l[j], out_h[j], out_f[j]
        return logits, hidden, fed_hidden, starts  # type: ignore[return-value]

    def _forward_group_states(self, rows: Sequence[Row], starts: Sequence[int]) -> tuple[
        list[torch.Tensor], list[torch.Tensor], list[torch.Tensor]
    ]:
        fed = [len(r.tokens) - s for r, s in zip(rows, starts)]
        kv_len = max(len(r.tokens) for r in rows)
        if kv_len > self.cache.capacity:
            self.cache.grow(capacity=max(kv_len, 2 * self.cache.capacity))
        slots = torch.tensor([self._slot(r.request_id) for r in rows], device=self.device)
        batch = ragged_batch([r.tokens[s:] for r, s in zip(rows, starts)], starts, self.cache.capacity, self.dtype)
        self.cache.bind(slots, batch.write_pos.to(self.device), batch.kv_len)
        out = self._base(
            input_ids=batch.input_ids.to(self.device),
            attention_mask=batch.mask.to(self.device),
            position_ids=batch.positions.to(self.device),
            cache=self.cache,
            use_cache=True,
        )
        hidden_all = out[0]  # [batch, q, hidden]
        picks = [hidden_all[b, n - row.num_logits : n] for b, (row, n) in enumerate(zip(rows, fed))]
        flat = torch.cat(picks)  # [sum num_logits, hidden]
        logits_flat = self._head(flat).float()  # [sum num_logits, vocab]
        for row in rows:
            self.cached[row.request_id] = list(row.tokens)
        sizes = [r.num_logits for r in rows]
        fed_hidden = [hidden_all[b, :n] for b, n in enumerate(fed)]
        return list(logits_flat.split(sizes)), list(flat.split(sizes)), fed_hidden

    @torch.inference_mode()
    def forward_explicit_states(
        self,
        request_ids: Sequence[str],
        input_ids: torch.Tensor,  # [batch, q]
        positions: torch.Tensor,  # [batch, q] rope positions
        write_pos: torch.Tensor,  # [batch, q] storage positions in the slot; -1 for pads
        visible: torch.Tensor,  # [batch, q, kv_len] bool: which stored keys each query sees
        picks: Sequence[Sequence[int]],  # per row: the query indices whose logits are wanted
    ) -> tuple[list[torch.Tensor], list[torch.Tensor], torch.Tensor]:
        """One forward with a caller-built layout (tree attention: a query's rope position,
        storage position and visible keys need not be consecutive). Returns logits
        ``[len(picks[b]), vocab]`` and last hidden states per row, and the last hidden states
        of every query ``[batch, q, hidden]`` (target features for EAGLE-style drafters). Pad
        queries must see at least one key. Leaves ``cached`` alone: the caller records which
        KV is valid."""
        kv_len = visible.shape[-1]
        if kv_len > self.cache.capacity:
            self.cache.grow(capacity=max(kv_len, 2 * self.cache.capacity))
        slots = torch.tensor([self._slot(r) for r in request_ids], device=self.device)
        write = torch.where(write_pos < 0, torch.full_like(write_pos, self.cache.capacity), write_pos)
        mask = torch.zeros(visible.shape[0], 1, visible.shape[1], kv_len, dtype=self.dtype)
        mask.masked_fill_(~visible.unsqueeze(1), torch.finfo(self.dtype).min)
        self.cache.bind(slots, write.to(self.device), kv_len)
        out = self._base(
            input_ids=input_ids.to(self.device),
            attention_mask=mask.to(self.device),
            position_ids=positions.to(self.device),
            cache=self.cache,
            use_cache=True,
        )
        hidden_all = out[0]  # [batch, q, hidden]
        index = [torch.tensor(list(p), dtype=torch.long, device=self.device) for p in picks]
        flat = torch.cat([hidden_all[b, idx] for b, idx in enumerate(index)])  # [sum picks, hidden]
        logits_flat = self._head(flat).float()  # [sum picks, vocab]
        sizes = [len(p) for p in picks]
        return list(logits_flat.split(sizes)), list(flat.split(sizes)), hidden_all


@dataclass
class RaggedBatch:
    """Padded inputs for rows that feed different numbers of tokens at different offsets."""

    input_ids: torch.Tensor  # [batch, q] int64, zeros in the padding
    positions: torch.Tensor  # [batch, q] int64
    write_pos: torch.Tensor  # [batch, q] int64; padding writes to the scratch column ``capacity``
    mask: torch.Tensor  # [batch, 1, q, kv_len] additive (0 visible, dtype min hidden)
    kv_len: int


def ragged_batch(fed: Sequence[Sequence[int]], starts: Sequence[int], capacity: int, dtype: torch.dtype) -> RaggedBatch:
    """Row b feeds tokens ``fed[b]`` at positions ``starts[b]``, ``starts[b] + 1``, ...; each
    query sees its own row's cache up to and including its position (causal)."""
    batch = len(fed)
    q = max(len(f) for f in fed)
    kv_len = max(s + len(f) for f, s in zip(fed, starts))
    input_ids = torch.zeros(batch, q, dtype=torch.long)
    positions = torch.zeros(batch, q, dtype=torch.long)
    write_pos = torch.full((batch, q), capacity, dtype=torch.long)  # pads -> scratch column
    visible = torch.zeros(batch, q, kv_len, dtype=torch.bool)
    visible[:, :, 0] = True  # pad queries see one key, so softmax stays finite
    key_index = torch.arange(kv_len)
    for b, (tokens, start) in enumerate(zip(fed, starts)):
        n = len(tokens)
        input_ids[b, :n] = torch.tensor(list(tokens), dtype=torch.long)
        pos = torch.arange(start, start + n)
        positions[b, :n] = pos
        write_pos[b, :n] = pos
        visible[b, :n] = key_index.unsqueeze(0) <= pos.unsqueeze(1)  # causal over this row's cache
    mask = torch.zeros(batch, 1, q, kv_len, dtype=dtype)
    mask.masked_fill_(~visible.unsqueeze(1), torch.finfo(dtype).min)
    return RaggedBatch(input_ids, positions, write_pos, mask, kv_len)
