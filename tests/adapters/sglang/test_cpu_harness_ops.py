"""The CPU harness's torch stand-ins for sgl_kernel's CPU ops, each against a plain
element-by-element reading of the Triton/CUDA kernel beside its SGLang call site, on
random inputs. Needs only torch (runs without sglang too)."""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).parent / "cpu_harness"))
import sglang_cpu_ops as ops  # noqa: E402


@pytest.fixture
def gen():
    return torch.Generator().manual_seed(0)


def _pool(gen, rows=6, width=40):
    return torch.randint(0, 1000, (rows, width), generator=gen, dtype=torch.int32)


def test_assign_draft_cache_locs_contiguous(gen):
    req_to_token = _pool(gen)
    rpi = torch.tensor([4, 1, 3])
    seq = torch.tensor([5, 0, 17])
    topk, cols = 1, 3
    out = torch.full((9,), -7, dtype=torch.int64)
    ops.assign_draft_cache_locs_contiguous_cpu(rpi, req_to_token, seq, out, 40, topk, cols)
    want = []
    for pid in range(3):  # program pid copies topk*cols slots from seq_lens[pid] on
        for off in range(topk * cols):
            want.append(int(req_to_token[rpi[pid], seq[pid] + off]))
    assert out.tolist() == want


@pytest.mark.parametrize("name", ["assign_extend_cache_locs_cpu", "assign_req_to_token_pool_cpu"])
def test_extend_cache_locs_and_req_to_token_pool(gen, name):
    req_to_token = _pool(gen)
    rpi = torch.tensor([2, 0, 5, 1])
    start = torch.randint(0, 10, (4,), generator=gen)
    end = start + torch.randint(0, 12, (4,), generator=gen)
    total = int((end - start).sum())
    packed = torch.randint(0, 1000, (total,), generator=gen, dtype=torch.int64)
    got_table, want_table = req_to_token.clone(), req_to_token.clone()
    got_out, want_out = packed.clone(), packed.clone()
    getattr(ops, name)(rpi, got_table, start, end, got_out, 40)
    for pid in range(4):
        out_offset = int(sum(end[j] - start[j] for j in range(pid)))  # tl.sum(end - start) over pid' < pid
        for t, pos in enumerate(range(int(start[pid]), int(end[pid]))):
            if name == "assign_extend_cache_locs_cpu":  # load from the table, store packed
                want_out[out_offset + t] = want_table[rpi[pid], pos]
            else:  # load packed, store into the table
                want_table[rpi[pid], pos] = int(want_out[out_offset + t])
    assert torch.equal(got_table, want_table) and torch.equal(got_out, want_out)


def test_fill_accept_out_cache_loc(gen):
    accept_index = torch.randint(-1, 12, (4, 3), generator=gen, dtype=torch.int32)
    out_cache_loc = torch.randint(0, 500, (12,), generator=gen)
    got = torch.full((12,), -5, dtype=torch.int64)
    ops.fill_accept_out_cache_loc_cpu(accept_index, out_cache_loc, got)
    want = torch.full((12,), -5, dtype=torch.int64)
    flat = accept_index.view(-1)
    for pid in range(flat.numel()):
        dst = int((flat[:pid] != -1).sum())
        if flat[pid] > -1:
            want[dst] = out_cache_loc[flat[pid]]
    assert torch.equal(got, want)


def test_fill_bonus_tokens(gen):
    stride = 4
    accept_tokens = torch.randint(0, 100, (5, stride), generator=gen)
    accept_lens = torch.randint(1, stride + 1, (5,), generator=gen, dtype=torch.int32)
    got = torch.zeros(5, dtype=torch.int64)
    ops.fill_bonus_tokens_cpu(accept_tokens, accept_lens, got, stride)
    flat = accept_tokens.view(-1)
    assert got.tolist() == [int(flat[stride * pid + accept_lens[pid] - 1]) for pid in range(5)]


def test_copy_all_layer_kv_cache_moves_rows_of_every_buffer(gen):
    buffers = [torch.randn(10, 2, 3, generator=gen), torch.randn(10, 5, generator=gen).to(torch.bfloat16)]
    before = [b.clone() for b in buffers]
    ptrs = torch.tensor([b.data_ptr() for b in buffers], dtype=torch.uint64)
    strides = torch.tensor([b[0].numel() * b.element_size() for b in buffers])
    src, tgt = torch.tensor([1, 2, 7]), torch.tensor([2, 5, 1])  # overlapping: loads precede stores
    ops.copy_all_layer_kv_cache_cpu(ptrs, strides, tgt, src)
    for b, old in zip(buffers, before):
        want = old.clone()
        want[tgt] = old[src]
        assert torch.equal(b, want)
    assert ctypes.sizeof(ctypes.c_void_p) == 8


def _chain_tree(bs, n):
    """What build_tree_kernel_efficient produces for topk = 1 chains (checked below)."""
    idx = torch.arange(bs * n).view(bs, n)
    nxt = torch.cat([torch.arange(1, n).repeat(bs, 1), torch.full((bs, 1), -1)], dim=1)
    return idx, nxt, torch.full((bs, n), -1)


def test_build_tree_for_chains(gen):
    bs, steps = 3, 3
    n = steps + 1
    seq = torch.tensor([7, 3, 11])
    # topk = 1 chain: parents_list [bs, steps] holds the draft token positions 0..steps-1 (step t's
    # token is t); the chain's selected index j has parent j - 1.
    parent_list = torch.cat([torch.full((bs, 1), -1), torch.arange(steps - 1).repeat(bs, 1)], dim=1)
    selected = torch.arange(steps).repeat(bs, 1)
    mask = torch.full((bs * n * n,), True)
    positions = torch.zeros(bs * n, dtype=torch.int64)
    r_idx, r_next, r_sib = (torch.full((bs, n), -1, dtype=torch.int64) for _ in range(3))
    ops.build_tree_kernel_efficient_cpu(parent_list, selected, seq, mask, positions, r_idx, r_next, r_sib,
                                        1, steps, n, 1)  # QLEN_ONLY mask
    want_idx, want_next, want_sib = _chain_tree(bs, n)
    assert torch.equal(r_idx, want_idx) and torch.equal(r_next, want_next) and torch.equal(r_sib, want_sib)
    assert positions.view(bs, n).tolist() == [[s + j for j in range(n)] for s in seq.tolist()]
    causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
    assert torch.equal(mask.view(bs, n, n), causal.expand(bs, n, n))


def _walk(cand, idx, nxt, sib, target, steps):
    """Greedy acceptance by definition: from the root, repeatedly move to the first child
    (in sibling order) whose token equals the target's prediction at the current node."""
    node, accepted, path = 0, 0, [int(idx[0])]
    for _ in range(1, steps):
        child = int(nxt[node])
        while child != -1 and int(cand[child]) != int(target[int(idx[node])]):
            child = int(sib[child])
        if child == -1:
            break
        node = child
        accepted += 1
        path.append(int(idx[child]))
    return accepted, path


@pytest.mark.parametrize("seed", range(5))
def test_verify_tree_greedy_on_random_trees(seed):
    g = torch.Generator().manual_seed(seed)
    bs, n, steps, vocab = 4, 6, 4, 3  # tiny vocab: many matches
    cand = torch.randint(0, vocab, (bs, n), generator=g)
    idx = torch.arange(bs * n).view(bs, n)
    nxt = torch.full((bs, n), -1)
    sib = torch.full((bs, n), -1)
    for b in range(bs):  # random tree over nodes 1..n-1, parents precede children
        depth = {0: 0}
        for node in range(1, n):
            parent = int(torch.randint(0, node, (1,), generator=g))
            while depth[parent] >= steps - 1:
                parent = int(torch.randint(0, node, (1,), generator=g))
            depth[node] = depth[parent] + 1
            sib[b, node] = nxt[b, parent]
            nxt[b, parent] = node
    target = torch.randint(0, vocab, (bs, n), generator=g)
    predicts = torch.full((bs * n,), -3, dtype=torch.int32)
    accept_index = torch.full((bs, steps), -1, dtype=torch.int32)
    accept_num = torch.zeros(bs, dtype=torch.int32)
    ops.verify_tree_greedy_cpu(predicts, accept_index, accept_num, cand, idx, nxt, sib, target)
    flat_target = target.view(-1)
    for b in range(bs):
        accepted, path = _walk(cand[b], idx[b], nxt[b], sib[b], flat_target, steps)
        assert int(accept_num[b]) == accepted
        assert accept_index[b, : accepted + 1].tolist() == path and (accept_index[b, accepted + 1:] == -1).all()
        for node in path:  # every accepted position predicts the target's token there
            assert int(predicts[node]) == int(flat_target[node])


def test_build_draft_decode_metadata(gen):
    req_to_token = _pool(gen)
    rpi, seq = torch.tensor([3, 0]), torch.tensor([5, 9])
    topk, steps = 2, 3
    out = ops.build_draft_decode_metadata_cpu(req_to_token, rpi, seq, topk, steps, 40)
    for i in range(2):
        for t in range(topk):
            row = out[i * topk + t]
            # generate_draft_decode_kv_indices, page size 1: prefix, then branch t's own chain slots.
            want = [int(req_to_token[rpi[i], p]) for p in range(int(seq[i]))]
            want += [int(req_to_token[rpi[i], int(seq[i]) + t * steps + s]) for s in range(steps)]
            assert row[: len(want)].tolist() == want


def _naive_attention(q, keys, values, scale):
    """One query head at a time: softmax(q . k * scale) . v."""
    out = torch.zeros(q.shape[0], values.shape[-1], dtype=torch.float64)
    for m in range(q.shape[0]):
        w = torch.softmax(torch.tensor([float(q[m] @ keys[n]) * scale for n in range(keys.shape[0])],
                                       dtype=torch.float64), 0)
        out[m] = (w.view(-1, 1) * values.double()).sum(0)
    return out


def _kv_setup(gen, slots=64, hkv=2, d=8):
    return torch.randn(slots, hkv, d, generator=gen), torch.randn(slots, hkv, d, generator=gen)


def test_decode_attention_writes_kv_and_attends_gqa(gen):
    hq, hkv, d = 4, 2, 8
    k_buf, v_buf = _kv_setup(gen)
    req_to_token = torch.randperm(64, generator=gen).view(2, 32).to(torch.int32)
    rpi, seq = torch.tensor([1, 0]), torch.tensor([6, 11])
    q = torch.randn(2, hq, d, generator=gen)
    k_new, v_new = torch.randn(2, hkv, d, generator=gen), torch.randn(2, hkv, d, generator=gen)
    loc = torch.stack([req_to_token[1, 5], req_to_token[0, 10]]).long()  # the new token's slot
    o = torch.empty(2, hq, d)
    ops.decode_attention_cpu(q, k_buf, v_buf, 1.0, 1.0, o, k_new, v_new, loc, None, req_to_token, rpi, seq,
                             0.3, 0.0, False, 0, None, None)
    assert torch.equal(k_buf[loc], k_new) and torch.equal(v_buf[loc], v_new)
    for i in range(2):
        slots = req_to_token[rpi[i], : seq[i]].long()
        for h in range(hq):
            kv_h = h // (hq // hkv)
            want = _naive_attention(q[i, h].view(1, d), k_buf[slots, kv_h], v_buf[slots, kv_h], 0.3)
            assert torch.allclose(o[i, h].double(), want[0], atol=1e-5)


def test_extend_attention_prefix_plus_causal_extend(gen):
    hq, hkv, d = 4, 2, 8
    k_buf, v_buf = _kv_setup(gen)
    req_to_token = torch.randperm(64, generator=gen).view(2, 32).to(torch.int32)
    rpi = torch.tensor([0, 1])
    ext, prefix = torch.tensor([3, 4]), torch.tensor([5, 0])
    seq = prefix + ext
    start = torch.tensor([0, 3])
    q = torch.randn(7, hq, d, generator=gen)
    k_ext, v_ext = torch.randn(7, hkv, d, generator=gen), torch.randn(7, hkv, d, generator=gen)
    o = torch.empty(7, hq, d)
    ops.extend_attention_cpu(q, k_ext, v_ext, o, k_buf, v_buf, 1.0, 1.0, req_to_token, rpi, seq, ext, start, 4,
                             0.25, 0.0, False, 0, None, None, None, True)
    for i in range(2):
        p = int(prefix[i])
        slots = req_to_token[rpi[i], :p].long()
        for j in range(int(ext[i])):
            row = int(start[i]) + j
            keys = torch.cat([k_buf[slots], k_ext[int(start[i]):row + 1]])  # prefix + extend tokens up to j
            values = torch.cat([v_buf[slots], v_ext[int(start[i]):row + 1]])
            for h in range(hq):
                kv_h = h // (hq // hkv)
                want = _naive_attention(q[row, h].view(1, d), keys[:, kv_h], values[:, kv_h], 0.25)
                assert torch.allclose(o[row, h].double(), want[0], atol=1e-5)


def test_unsupported_attention_features_fail_loudly(gen):
    k_buf, v_buf = _kv_setup(gen)
    with pytest.raises(NotImplementedError, match="sliding windows"):
        ops.decode_attention_cpu(torch.zeros(1, 2, 8), k_buf, v_buf, 1.0, 1.0, torch.zeros(1, 2, 8), None, None,
                                 None, None, torch.zeros(1, 4, dtype=torch.int32), torch.tensor([0]),
                                 torch.tensor([2]), 1.0, 0.0, False, 5, None, None)
