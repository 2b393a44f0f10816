"""Torch stand-ins for the ``sgl_kernel`` CPU ops that SGLang 0.5.23's speculative path
calls on a CPU device (test harness only; never shipped).

SGLang's CPU branches call ops of sgl-kernel's CPU build (``sglang-kernel-cpu``), which is
not on PyPI. Each function here has the signature of the CPU op it replaces and the
meaning of the Triton/CUDA kernel beside its call site in the installed sglang:

==================================== ===================================================
op                                   call site (Triton/CUDA version in the same file)
==================================== ===================================================
assign_draft_cache_locs_contiguous   kernels/ops/speculative/cache_locs.py
assign_extend_cache_locs             kernels/ops/speculative/cache_locs.py
assign_req_to_token_pool             srt/mem_cache/allocation.py
fill_accept_out_cache_loc            kernels/ops/speculative/eagle.py
fill_bonus_tokens                    kernels/ops/speculative/eagle.py
build_tree_kernel_efficient          kernels/ops/speculative/spec_tree.py
verify_tree_greedy                   kernels/ops/speculative/spec_tree.py
copy_all_layer_kv_cache              kernels/ops/kvcache/cache_move.py
build_draft_decode_metadata          srt/layers/attention/intel_amx_backend.py
decode_attention / extend_attention  srt/layers/attention/intel_amx_backend.py (the CPU
                                     attention backend; semantics of the triton backend's
                                     decode/extend kernels)
==================================== ===================================================

Index tensors are small, so plain per-request loops are used where they read clearly.
Output tensors are written in place, as the kernels do.
"""

from __future__ import annotations

import ctypes

import torch


def _row_offsets(start: torch.Tensor, end: torch.Tensor) -> list[int]:
    """Exclusive prefix sums of ``end - start``: where each request's slice lands."""
    lens = (end - start).tolist()
    out, acc = [], 0
    for n in lens:
        out.append(acc)
        acc += int(n)
    return out


# -- KV slot bookkeeping ------------------------------------------------------------------
def assign_draft_cache_locs_contiguous_cpu(req_pool_indices, req_to_token, seq_lens, out_cache_loc,
                                           pool_len: int, topk: int, num_cols: int) -> None:
    """out_cache_loc[i*n : (i+1)*n] = req_to_token[req_pool_indices[i], seq_lens[i] : +n], n = topk*num_cols."""
    n = topk * num_cols
    for i, (row, start) in enumerate(zip(req_pool_indices.tolist(), seq_lens.tolist())):
        out_cache_loc[i * n:(i + 1) * n] = req_to_token[row, start:start + n]


def assign_extend_cache_locs_cpu(req_pool_indices, req_to_token, start_offset, end_offset, out_cache_loc,
                                 pool_len: int) -> None:
    """Gather each request's slots [start, end) of its req_to_token row, packed back to back."""
    offsets = _row_offsets(start_offset, end_offset)
    for row, start, end, off in zip(req_pool_indices.tolist(), start_offset.tolist(), end_offset.tolist(), offsets):
        out_cache_loc[off:off + end - start] = req_to_token[row, start:end]


def assign_req_to_token_pool_cpu(req_pool_indices, req_to_token, start_offset, end_offset, out_cache_loc,
                                 pool_len: int) -> None:
    """The inverse scatter: req_to_token[row_i, start_i:end_i] = packed slice i of out_cache_loc."""
    offsets = _row_offsets(start_offset, end_offset)
    for row, start, end, off in zip(req_pool_indices.tolist(), start_offset.tolist(), end_offset.tolist(), offsets):
        req_to_token[row, start:end] = out_cache_loc[off:off + end - start].to(req_to_token.dtype)


def fill_accept_out_cache_loc_cpu(accept_index, out_cache_loc, accept_out_cache_loc) -> None:
    """Compact: the slots of the accepted positions (accept_index != -1, flat order)."""
    flat = accept_index.reshape(-1)
    picked = out_cache_loc[flat[flat != -1].long()]
    accept_out_cache_loc[:picked.numel()] = picked


def fill_bonus_tokens_cpu(accept_tokens, accept_lens, bonus_tokens, accept_stride: int) -> None:
    """bonus[i] = accept_tokens.flat[accept_stride * i + accept_lens[i] - 1] (the last accepted token)."""
    rows = torch.arange(accept_lens.numel(), device=accept_lens.device)
    flat = accept_tokens.reshape(-1)
    bonus_tokens.copy_(flat[rows * accept_stride + accept_lens.long() - 1].to(bonus_tokens.dtype))


def copy_all_layer_kv_cache_cpu(data_ptrs, strides, tgt_loc, src_loc) -> None:
    """For every buffer (base address, row bytes): rows[tgt] = rows[src], all loads before
    the stores, as the Triton kernel's single tile does."""
    src = src_loc.tolist()
    tgt = tgt_loc.tolist()
    for base, stride in zip(data_ptrs.tolist(), strides.tolist()):
        rows = [ctypes.string_at(base + s * stride, stride) for s in src]
        for t, data in zip(tgt, rows):
            ctypes.memmove(base + t * stride, data, stride)


# -- EAGLE tree build and greedy verification ---------------------------------------------
def build_tree_kernel_efficient_cpu(parent_list, selected_index, verified_seq_len, tree_mask, positions,
                                    retrieve_index, retrieve_next_token, retrieve_next_sibling,
                                    topk: int, depth: int, draft_token_num: int, tree_mask_mode: int) -> None:
    """Port of ``sgl_build_tree_kernel_efficient_triton`` (one loop body per request)."""
    bs = verified_seq_len.numel()
    seq = verified_seq_len.tolist()
    sel = selected_index.reshape(bs, -1).tolist()
    parents = parent_list.reshape(bs, -1).tolist() if parent_list.numel() else [[] for _ in range(bs)]
    mask = tree_mask.view(-1)
    pos = positions.view(-1)
    r_index, r_next, r_sib = retrieve_index.view(-1), retrieve_next_token.view(-1), retrieve_next_sibling.view(-1)
    prefix = 0
    n = draft_token_num
    for b in range(bs):
        seq_len = seq[b]
        seq_tree_idx = n * n * b + prefix * n
        prefix += seq_len
        pos[b * n] = seq_len

        def parent_slot(idx: int, sel_b=sel[b], parents_b=parents[b]) -> int | None:
            """Position (1-based) among the draft tokens of the parent of selected token idx; 0 = root."""
            parent_tb = sel_b[idx] // topk
            if parent_tb == 0:
                return 0
            parent_token = parents_b[parent_tb]
            for pp in range(n - 1):
                if sel_b[pp] == parent_token:
                    return pp + 1
            return None

        for i in range(n - 1, 0, -1):
            r_index[b * n + i] = b * n + i
            p = parent_slot(i - 1)
            if p is not None:
                addr = b * n + p
                prev = int(r_next[addr])
                r_next[addr] = i
                if prev != -1:
                    r_sib[b * n + i] = prev
        r_index[b * n] = b * n
        for tok in range(n):
            if tree_mask_mode == 0:  # FULL_MASK
                idx = seq_tree_idx + (seq_len + n) * tok + seq_len + 1
            else:
                idx = n * n * b + n * tok + 1
            mask[idx - 1] = 1
            mask[idx:idx + n - 1] = 0
            if tok == 0:
                continue
            cur, position = tok - 1, 0
            for _ in range(depth):
                position += 1
                mask[idx + cur] = 1
                p = parent_slot(cur)
                if p is None or p == 0:
                    break
                cur = p - 1
            pos[b * n + tok] = position + seq_len


def verify_tree_greedy_cpu(predicts, accept_index, accept_token_num, candidates, retrive_index,
                           retrive_next_token, retrive_next_sibling, target_predict) -> None:
    """Port of ``verify_tree_greedy_kernel_triton``: walk down the tree, at each level take the
    first child (in sibling order) whose token equals the target's prediction."""
    bs, n = candidates.shape
    steps = accept_index.shape[1]
    cand = candidates.tolist()
    r_index, r_next, r_sib = retrive_index.tolist(), retrive_next_token.tolist(), retrive_next_sibling.tolist()
    target = target_predict.reshape(-1).tolist()
    for b in range(bs):
        last = r_index[b][0]
        accept_index[b, 0] = last
        accepted = 0
        cur = 0
        for _level in range(1, steps):
            cur = r_next[b][cur]
            want = target[last]
            matched = False
            while cur != -1:
                if cand[b][cur] == want:
                    predicts[last] = want
                    accepted += 1
                    accept_index[b, accepted] = r_index[b][cur]
                    last = r_index[b][cur]
                    matched = True
                    break
                cur = r_sib[b][cur]
            if not matched:
                break
        accept_token_num[b] = accepted
        predicts[last] = target[last]


# -- attention (intel_amx backend's ops, with the triton backend's semantics) ----------------
def build_draft_decode_metadata_cpu(req_to_token, req_pool_indices, seq_lens, topk: int, num_steps: int,
                                    pool_len: int) -> torch.Tensor:
    """Per draft branch (request i, branch t) a req_to_token row: the request's committed
    prefix, then the branch's own draft slots (``seq_len + t * num_steps + step``), as
    ``generate_draft_decode_kv_indices`` lays them out with page size 1."""
    bs = req_pool_indices.numel()
    out = torch.zeros((bs * topk, pool_len), dtype=req_to_token.dtype, device=req_to_token.device)
    for i, (row, n) in enumerate(zip(req_pool_indices.tolist(), seq_lens.tolist())):
        for t in range(topk):
            out[i * topk + t, :n] = req_to_token[row, :n]
            out[i * topk + t, n:n + num_steps] = req_to_token[row, n + t * num_steps:n + (t + 1) * num_steps]
    return out


def _attend(q, keys, values, scaling: float, logit_cap: float, causal_from: int | None) -> torch.Tensor:
    """Softmax attention of q [m, Hq, D] over keys/values [n, Hkv, D] (GQA by repetition).
    With ``causal_from`` = p, query j sees keys [0, p + j]."""
    hq, hkv = q.shape[1], keys.shape[1]
    keys = keys.repeat_interleave(hq // hkv, dim=1).float()
    values = values.repeat_interleave(hq // hkv, dim=1).float()
    scores = torch.einsum("mhd,nhd->hmn", q.float(), keys) * scaling  # [Hq, m, n]
    if logit_cap and logit_cap > 0:
        scores = logit_cap * torch.tanh(scores / logit_cap)
    if causal_from is not None:
        m, n = q.shape[0], keys.shape[0]
        visible = torch.arange(n).view(1, n) <= (causal_from + torch.arange(m)).view(m, 1)
        scores = scores.masked_fill(~visible, float("-inf"))
    return torch.einsum("hmn,nhd->mhd", torch.softmax(scores, dim=-1), values)  # [m, Hq, Dv]


def _check_plain(name: str, is_cross: bool, window: int, sinks, tree_mask=None) -> None:
    if is_cross or window > 0 or sinks is not None or tree_mask is not None:
        raise NotImplementedError(f"{name}: cross attention, sliding windows, sinks and tree masks are not "
                                  "provided by the CPU test harness (chain drafts of a plain decoder only)")


def decode_attention_cpu(q, k_buffer, v_buffer, k_scale, v_scale, o, k, v, cache_loc, attn_logits, req_to_token,
                         req_pool_indices, seq_lens, scaling, logit_cap, is_cross, window, encoder_lens,
                         sinks) -> None:
    """One query per row: write k/v (when given) at cache_loc, then attend over the row's
    first seq_lens[i] slots of req_to_token."""
    _check_plain("decode_attention_cpu", is_cross, window, sinks)
    if k is not None and v is not None:
        k_buffer[cache_loc.long()] = k.view(-1, *k_buffer.shape[1:]).to(k_buffer.dtype)
        v_buffer[cache_loc.long()] = v.view(-1, *v_buffer.shape[1:]).to(v_buffer.dtype)
    for i, (row, n) in enumerate(zip(req_pool_indices.tolist(), seq_lens.tolist())):
        slots = req_to_token[row, :n].long()
        out = _attend(q[i:i + 1], k_buffer[slots], v_buffer[slots], scaling, logit_cap, None)
        o[i] = out[0].to(o.dtype)


def extend_attention_cpu(q, k_extend, v_extend, o, k_buffer, v_buffer, k_scale, v_scale, req_to_token,
                         req_pool_indices, seq_lens, extend_seq_lens, extend_start_loc, max_extend_len, scaling,
                         logit_cap, is_cross, window, encoder_lens, sinks, tree_mask, is_causal) -> None:
    """Per request: its extend_seq_lens[i] queries (from extend_start_loc[i]) attend over the
    cached prefix (the first seq_lens[i] - extend_seq_lens[i] slots of its req_to_token row)
    followed by the extend keys, causally among the extend tokens."""
    _check_plain("extend_attention_cpu", is_cross, window, sinks, tree_mask)
    rows = req_pool_indices.tolist()
    for row, total, ext, start in zip(rows, seq_lens.tolist(), extend_seq_lens.tolist(), extend_start_loc.tolist()):
        prefix = total - ext
        slots = req_to_token[row, :prefix].long()
        if k_extend is not None:
            keys = torch.cat([k_buffer[slots].to(k_extend.dtype), k_extend[start:start + ext]])
            values = torch.cat([v_buffer[slots].to(v_extend.dtype), v_extend[start:start + ext]])
        else:  # the layer shares another layer's cache, which already holds the extend tokens
            slots = req_to_token[row, :total].long()
            keys, values = k_buffer[slots], v_buffer[slots]
        out = _attend(q[start:start + ext], keys, values, scaling, logit_cap, prefix if is_causal else None)
        o[start:start + ext] = out.to(o.dtype)
