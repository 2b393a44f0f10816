"""Translation between SGLang's batch objects and the core's PSD split.

Pure tensor/object plumbing, no model forwards: sub-batches of a ``ScheduleBatch``, rows
of an ``EagleDraftInput``, and one ``GenerationBatchResult`` merged back from the results
of two sub-batches in the original row order. All of it runs on CPU tensors too, which is
how the tests drive it. Chain drafts only (topk = 1): request ``i`` of a verify result
owns rows ``i * K : (i + 1) * K`` of the flat token and logit tensors (K =
``speculative_num_draft_tokens``), accepted tokens first.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from typing import Any

import torch
from sglang.srt.layers.logits_processor import LogitsProcessorOutput
from sglang.srt.managers.utils import GenerationBatchResult
from sglang.srt.speculative.eagle_info import EagleDraftInput

_DRAFT_INPUT_ROW_FIELDS = ("topk_p", "topk_index", "draft_probs", "hidden_states", "bonus_tokens", "dsa_topk_indices")


def row_keys(batch: Any) -> tuple[list[str], list[int]]:
    """Request ids and committed KV lengths (the draft-store key and stamp) per row."""
    lens = batch.seq_lens_cpu if batch.seq_lens_cpu is not None else batch.seq_lens
    return [req.rid for req in batch.reqs], [int(x) for x in lens.tolist()]


def select_draft_input(draft_input: EagleDraftInput, rows: Sequence[int]) -> EagleDraftInput:
    """The draft input of ``rows``, as a new object (the batch's own stays untouched).
    Works on resolved inputs only: ``future_indices`` (overlap relay) is dropped."""
    some = next(getattr(draft_input, f) for f in _DRAFT_INPUT_ROW_FIELDS if getattr(draft_input, f) is not None)
    index = torch.as_tensor(list(rows), dtype=torch.long, device=some.device)
    picked = {f: (None if getattr(draft_input, f) is None else getattr(draft_input, f)[index]) for f in _DRAFT_INPUT_ROW_FIELDS}
    return dataclasses.replace(
        draft_input, future_indices=None, kv_indptr=None, kv_indices=None,
        window_kv_indptr=None, window_kv_indices=None, **picked,
    )


def concat_draft_inputs(parts: Sequence[EagleDraftInput], order: Sequence[int]) -> EagleDraftInput:
    """Concatenate per-sub-batch draft inputs and put row ``order[j]`` (original batch
    row of concatenated row j) back in its place."""
    inverse = _inverse(order)
    fields: dict[str, Any] = {}
    for f in _DRAFT_INPUT_ROW_FIELDS:
        values = [getattr(p, f) for p in parts]
        if any(v is None for v in values):
            fields[f] = None
            continue
        fields[f] = torch.cat(values)[inverse.to(values[0].device)]
    merged = dataclasses.replace(parts[0], future_indices=None, **fields)
    merged.cuda_graph_compatible = all(p.cuda_graph_compatible for p in parts)
    return merged


def has_penalties(sampling_info: Any) -> bool:
    """Whether a batch's sampling info carries frequency/presence/repetition penalty state.

    SGLang's scheduler hands the worker a forward-only copy
    (``SamplingBatchInfo.copy_for_forward``): its ``penalizer_orchestrator`` is None and
    the penalties come pre-accumulated in ``acc_additive_penalties`` /
    ``acc_scaling_penalties``. Batches built by hand keep the orchestrator. Both forms
    are recognised.
    """
    orchestrator = sampling_info.penalizer_orchestrator
    if orchestrator is not None and orchestrator.is_required:
        return True
    return sampling_info.acc_additive_penalties is not None or sampling_info.acc_scaling_penalties is not None


class _NoPenalizers:
    """Stands in for a missing orchestrator while ``SamplingBatchInfo.filter_batch``
    runs: that method calls ``penalizer_orchestrator.filter`` unconditionally."""

    is_required = False

    def filter(self, keep_indices: torch.Tensor) -> None:
        pass


_ACC_PENALTY_FIELDS = ("acc_additive_penalties", "acc_scaling_penalties")  # [bs, vocab] each


def sub_batch(batch: Any, rows: Sequence[int], draft_input: EagleDraftInput | None = None) -> Any:
    """A ``ScheduleBatch`` over ``rows`` that shares nothing mutable with ``batch``.

    ``filter_batch`` rebinds the batch's tensors and the sampling info's, so shallow
    copies of those two objects keep the running batch intact. Works on the scheduler's
    forward-only sampling copy too (no orchestrator; accumulated penalty rows are
    selected here, since SGLang's ``filter_batch`` leaves them whole). Custom logit
    processors are filtered by SGLang; the worker still sends batches with penalties or
    processors down SGLang's own path, because their state advances per verified token.
    """
    sub = copy.copy(batch)
    sampling = copy.copy(batch.sampling_info)
    detached = sampling.penalizer_orchestrator is None
    if detached:
        sampling.penalizer_orchestrator = _NoPenalizers()
    sub.sampling_info = sampling
    sub.spec_info = None
    try:
        sub.filter_batch(keep_indices=list(rows))
    finally:
        if detached:
            sampling.penalizer_orchestrator = None
    if len(rows) != len(batch.reqs):
        for name in _ACC_PENALTY_FIELDS:
            value = getattr(sampling, name)
            if value is not None:
                setattr(sampling, name, value[torch.as_tensor(list(rows), dtype=torch.long, device=value.device)])
    source = draft_input if draft_input is not None else batch.spec_info
    sub.spec_info = None if source is None else select_draft_input(source, rows)
    return sub


def assemble_tokens(num_rows: int, fresh_rows: Sequence[int], fresh: torch.Tensor | None,
                    stored: dict[int, torch.Tensor]) -> torch.Tensor:
    """Draft tokens of a sub-batch, ``[num_rows, steps]``: freshly drafted rows from
    ``fresh`` (in ``fresh_rows`` order), the others from the store."""
    if sorted(list(fresh_rows) + list(stored)) != list(range(num_rows)):
        raise ValueError(f"rows {sorted(fresh_rows)} + stored {sorted(stored)} do not cover {num_rows} rows")
    by_row = dict(stored)
    if fresh_rows:
        assert fresh is not None and fresh.shape[0] == len(fresh_rows)
        by_row.update({r: fresh[j] for j, r in enumerate(fresh_rows)})
    return torch.stack([by_row[r] for r in range(num_rows)])  # [num_rows, steps]


def merge_results(parts: Sequence[tuple[Sequence[int], GenerationBatchResult]], num_draft_tokens: int) -> GenerationBatchResult:
    """One result for the whole batch from the results of disjoint sub-batches.

    ``parts`` holds (original rows, result of the sub-batch over those rows). Per-request
    tensors are concatenated and put back in the original order; ``accept_index`` holds
    flat positions into ``next_token_ids`` and is shifted to the rows' new places.
    """
    k = num_draft_tokens
    order = [r for rows, _ in parts for r in rows]
    results = [res for _, res in parts]
    device = results[0].accept_lens.device
    inverse = _inverse(order).to(device)

    def rows_cat(tensors: list[torch.Tensor]) -> torch.Tensor:
        return torch.cat(tensors)[inverse]

    tokens = rows_cat([r.next_token_ids.view(-1, k) for r in results]).reshape(-1)
    accept_index = rows_cat([_local_accept_index(r.accept_index, k) for r in results])
    new_rows = torch.arange(len(order), device=device).unsqueeze(1) * k
    accept_index = torch.where(accept_index >= 0, accept_index + new_rows, accept_index)
    logits = [r.logits_output.next_token_logits for r in results]
    merged_logits = None
    if all(x is not None for x in logits):
        vocab = logits[0].shape[-1]
        merged_logits = rows_cat([x.view(-1, k, vocab) for x in logits]).reshape(-1, vocab)
    keep_alive = [ref for r in results for ref in (r.extra_keep_alive_refs or [])]
    return GenerationBatchResult(
        logits_output=LogitsProcessorOutput(next_token_logits=merged_logits),
        next_token_ids=tokens,
        can_run_cuda_graph=all(r.can_run_cuda_graph for r in results),
        speculative_num_draft_tokens=k,
        next_draft_input=concat_draft_inputs([r.next_draft_input for r in results], order),
        accept_lens=rows_cat([r.accept_lens for r in results]),
        accept_index=accept_index,
        new_seq_lens=rows_cat([r.new_seq_lens for r in results]),
        extra_keep_alive_refs=keep_alive,
    )


def shared_workspaces(first: Sequence[Any], second: Sequence[Any]) -> list[tuple[str, str]]:
    """Pairs of attention backends (one from each group) that share a workspace buffer:
    kernels of both groups on two streams at once would overwrite each other's scratch."""
    def buffers(backends: Sequence[Any]) -> dict[int, str]:
        found: dict[int, str] = {}
        stack = [b for b in backends if b is not None]
        while stack:
            b = stack.pop()
            ws = getattr(b, "workspace_buffer", None)
            if isinstance(ws, torch.Tensor) and ws.numel():
                found[ws.data_ptr()] = type(b).__name__
            stack.extend(x for x in getattr(b, "attn_backends", None) or [] if x is not None)
        return found

    a, b = buffers(first), buffers(second)
    return [(a[p], b[p]) for p in a if p in b]


def _local_accept_index(accept_index: torch.Tensor, k: int) -> torch.Tensor:
    """Flat positions -> positions within each request's own block (-1 stays -1)."""
    rows = torch.arange(accept_index.shape[0], device=accept_index.device).unsqueeze(1) * k
    return torch.where(accept_index >= 0, accept_index - rows, accept_index)


def _inverse(order: Sequence[int]) -> torch.Tensor:
    if sorted(order) != list(range(len(order))):
        raise ValueError(f"sub-batch rows {list(order)} are not a permutation of the batch rows")
    inverse = torch.empty(len(order), dtype=torch.long)
    inverse[torch.as_tensor(list(order), dtype=torch.long)] = torch.arange(len(order))
    return inverse
