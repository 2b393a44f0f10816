"""DraftPipeline: PSD drafting inside an engine loop that advances every request each step.

A small engine loop stands in for an executor that owns its schedule: each iteration it
snapshots the requests, asks the pipeline for drafts, verifies them with the reference
target and commits. Checks: every attached draft equals what a fresh drafter proposes
from the same committed tokens (so reconciliation keeps the draft cache consistent),
greedy output equals plain AR, sampled drafts carry the exact q they were drawn from.
"""

from __future__ import annotations

import copy

import pytest
import torch

from minedraft import DraftBlock, InvalidInputError, RequestState, SamplingParams, verify
from minedraft.adapters.reference.runner import Row
from minedraft.draft_pipeline import DraftPipeline, Snapshot
from minedraft.sampling import processed_probs, row_params

from conftest import build_pair, tiny_llama

PROMPTS = [[5, 6, 7, 8], [11, 12], [30, 31, 32, 33, 34, 35], [3], [40, 41, 42]]
MAX_NEW = [14, 9, 12, 6, 11]
ARRIVAL = [0, 0, 1, 3, 4]  # iteration at which each request reaches the engine


@pytest.fixture(scope="module")
def models():
    target = tiny_llama(layers=2, hidden=64, seed=0)
    unrelated = tiny_llama(layers=1, hidden=32, seed=1)
    close = copy.deepcopy(target)  # agrees with the target's argmax on about 2/3 of positions
    torch.manual_seed(123)
    with torch.no_grad():
        for p in close.parameters():
            p.add_(torch.randn_like(p) * 0.002)
    return target, unrelated, close


def _snapshot(req: RequestState, k: int) -> Snapshot:
    remaining = req.params.max_new_tokens - len(req.output_ids)
    return Snapshot(req.request_id, tuple(req.committed_ids), req.params, min(k, remaining - 1), remaining)


def run_engine(target, pipeline, requests, k, max_running=3, check=None):
    """An executor that owns its schedule: a newcomer's first iteration is its context step
    (one token, no drafts); later iterations verify whatever drafts the pipeline attached."""
    waiting, running, started, it = list(range(len(requests))), [], set(), 0
    while waiting or running:
        for i in [i for i in waiting if ARRIVAL[i] <= it and len(running) < max_running]:
            waiting.remove(i)
            running.append(i)
        ctx = [requests[i] for i in running if i not in started]
        gen = [requests[i] for i in running if i in started]
        proposals = pipeline.step([_snapshot(r, k) for r in gen], [_snapshot(r, k) for r in ctx]) if pipeline else {}
        if check is not None:
            check(gen, ctx, proposals)
        batch = ctx + gen
        if batch:
            drafts = [proposals[r.request_id].tokens if r.request_id in proposals else [] for r in batch]
            cu = torch.zeros(len(batch) + 1, dtype=torch.long)
            cu[1:] = torch.cumsum(torch.tensor([len(d) for d in drafts]), 0)
            block = DraftBlock([r.request_id for r in batch], torch.tensor(sum(drafts, []), dtype=torch.long), cu)
            outcome = verify(block, target.score(batch, block), batch)
            for req, tokens in zip(batch, outcome.emitted):
                req.output_ids.extend(tokens[: req.params.max_new_tokens - len(req.output_ids)])
            target.on_verified(outcome)
        started.update(running)
        for i in [i for i in running if requests[i].remaining_tokens <= 0]:
            running.remove(i)
            target.release(requests[i].request_id)
            if pipeline:
                pipeline.release(requests[i].request_id)
        it += 1
        assert it < 200
    return [r.output_ids for r in requests]


def _requests(params=None):
    return [RequestState(prompt_ids=list(p), params=params or SamplingParams(temperature=0.0, max_new_tokens=n))
            for p, n in zip(PROMPTS, MAX_NEW)]


@pytest.fixture(scope="module")
def ar_outputs(models):
    target, _, _ = models
    return run_engine(build_pair(target, None).target, None, _requests(), k=3)


def _sequential_check(fresh_drafter, k, seen):
    """Every attached draft equals a fresh drafter's greedy proposal from the same tokens."""

    def check(gen, ctx, proposals):
        assert set(proposals) <= {r.request_id for r in gen}  # never for context requests
        for req in gen:
            if req.request_id not in proposals:
                continue
            tokens = proposals[req.request_id].tokens
            assert 1 <= len(tokens) <= min(k, req.remaining_tokens - 1)
            probe = RequestState(prompt_ids=req.committed_ids, params=req.params, request_id="probe")
            expected = fresh_drafter.propose([probe], [len(tokens)]).tokens.tolist()
            fresh_drafter.release("probe")
            assert tokens == expected, f"{req.request_id} at {len(req.committed_ids)} committed tokens"
            seen.append(len(tokens))

    return check


@pytest.mark.parametrize("lane", ["inline", "thread"])
@pytest.mark.parametrize("on_miss, timeout", [("serial", 600.0), ("skip", float("inf"))])
def test_greedy_drafts_sequential_and_output_ar(models, ar_outputs, lane, on_miss, timeout):
    # timeout=inf waits without a limit (it used to overflow in Future.result and drop every draft).
    target, _, close = models
    pair, fresh = build_pair(target, close), build_pair(target, close).drafter
    pipe, seen, k = DraftPipeline(pair.drafter, 3, lane=lane, on_miss=on_miss, timeout=timeout), [], 3
    try:
        outs = run_engine(pair.target, pipe, _requests(), k, check=_sequential_check(fresh, k, seen))
        stats = pipe.stats()
    finally:
        pipe.close()
    assert outs == ar_outputs
    assert seen and stats["hits"] > 0 and stats["ahead_requests"] > 0  # drafting ahead happened and paid off
    assert stats["acceptance_rate"] > 0.3 and stats["draft_errors"] == 0
    assert stats["accepted_tokens"] > 0  # partial and full acceptance were reconciled
    assert pipe.num_tracked == 0 and not pair.drafter.runner.slot_of  # every request released


def test_misses_fall_back_and_stay_exact(models, ar_outputs):
    """An unrelated draft rarely guesses the target's token: misses must not leak stale drafts."""
    target, unrelated, _ = models
    pair, fresh = build_pair(target, unrelated), build_pair(target, unrelated).drafter
    pipe, seen = DraftPipeline(pair.drafter, 2, lane="thread"), []
    try:
        outs = run_engine(pair.target, pipe, _requests(), 2, check=_sequential_check(fresh, 2, seen))
        stats = pipe.stats()
    finally:
        pipe.close()
    assert outs == ar_outputs
    assert stats["misses"] > 0 and stats["serial_requests"] > 0


def test_sampled_drafts_carry_their_q(models):
    """Sampled drafts come with the processed draft distribution after exactly their prefix."""
    target, _, close = models
    pair, fresh = build_pair(target, close), build_pair(target, close).drafter
    params = [SamplingParams(temperature=0.8, top_k=20, top_p=0.9, seed=i, max_new_tokens=n)
              for i, n in enumerate(MAX_NEW)]
    reqs = [RequestState(prompt_ids=list(p), params=sp) for p, sp in zip(PROMPTS, params)]
    checked = []

    def check(gen, ctx, proposals):
        for req in gen:
            prop = proposals.get(req.request_id)
            if prop is None:
                continue
            assert prop.probs is not None and prop.probs.shape == (len(prop.tokens), fresh.vocab_size)
            # Logits after the committed prefix and after each draft but the last.
            logits, _ = fresh.runner.forward([Row("probe", req.committed_ids + prop.tokens[:-1], len(prop.tokens))])
            fresh.runner.release("probe")
            t, kk, p = row_params([req.params] * len(prop.tokens))
            q = processed_probs(logits[0], t, kk, p)  # [n, vocab]
            torch.testing.assert_close(prop.probs.float(), q, rtol=1e-5, atol=1e-6)
            assert all(q[i, tok] > 0 for i, tok in enumerate(prop.tokens))
            checked.append(req.request_id)

    pipe = DraftPipeline(pair.drafter, 3, lane="thread")
    try:
        run_engine(pair.target, pipe, reqs, 3, check=check)
    finally:
        pipe.close()
    assert len(checked) >= 5


def test_reconcile_reports_engine_accepted_counts(models):
    """After partial acceptance the drafter hears the engine's count and rolls back to it."""
    target, _, close = models
    drafter = build_pair(target, close).drafter
    calls = []
    original = drafter.on_verified
    drafter.on_verified = lambda outcome: (calls.append(outcome), original(outcome))
    pipe = DraftPipeline(drafter, 4, lane="inline")
    req = RequestState(prompt_ids=[5, 6, 7], params=SamplingParams(temperature=0.0, max_new_tokens=50))
    try:
        props = {}
        for _ in range(4):  # draft ahead, then verify with drafts
            props = pipe.step([_snapshot(req, 4)])
            if props:
                break
            req.output_ids.append(9)  # the engine's token, not the draft's guess: forces serial drafts
        drafts = props[req.request_id].tokens
        assert len(drafts) == 4
        req.output_ids.extend(drafts[:2] + [(drafts[2] + 1) % 96])  # the engine kept 2 drafts
        pipe.step([_snapshot(req, 4)], accepted={req.request_id: 2})
    finally:
        pipe.close()
    last = calls[-1]
    assert last.request_ids == [req.request_id] and last.num_accepted == [2]
    assert last.emitted == [drafts[:2] + [(drafts[2] + 1) % 96]]
    # A count that contradicts the tokens is not trusted.
    pipe = DraftPipeline(drafter, 4, lane="inline")
    req2 = RequestState(prompt_ids=[8, 9], params=SamplingParams(temperature=0.0, max_new_tokens=50))
    try:
        for _ in range(4):
            props = pipe.step([_snapshot(req2, 4)])
            if props:
                break
            req2.output_ids.append(9)
        drafts = props[req2.request_id].tokens
        req2.output_ids.extend([(drafts[0] + 1) % 96])
        pipe.step([_snapshot(req2, 4)], accepted={req2.request_id: 3})
    finally:
        pipe.close()
    assert calls[-1].num_accepted == [0]


def test_drafter_failure_leaves_requests_without_drafts(models, ar_outputs):
    target, _, close = models
    pair = build_pair(target, close)
    real = pair.drafter.propose
    count = {"n": 0}

    def flaky(requests, num_tokens, stop_threshold=None):
        count["n"] += 1
        if count["n"] % 3 == 0:
            raise RuntimeError("draft device fell over")
        return real(requests, num_tokens, stop_threshold)

    pair.drafter.propose = flaky
    pipe = DraftPipeline(pair.drafter, 3, lane="thread")
    try:
        outs = run_engine(pair.target, pipe, _requests(), 3)
        stats = pipe.stats()
    finally:
        pipe.close()
    assert outs == ar_outputs
    assert stats["draft_errors"] > 0


def test_invalid_settings_are_named(models):
    target, _, close = models
    drafter = build_pair(target, close).drafter
    for kwargs, name in [({"num_speculative_tokens": 0}, "num_speculative_tokens"),
                         ({"lane": "gpu"}, "lane"), ({"on_miss": "retry"}, "on_miss"), ({"timeout": 0}, "timeout"),
                         ({"timeout": float("nan")}, "timeout"), ({"timeout": True}, "timeout")]:
        args = {"num_speculative_tokens": 3, **kwargs}
        with pytest.raises(InvalidInputError, match=name):
            DraftPipeline(drafter, args.pop("num_speculative_tokens"), **args)
    with pytest.raises(InvalidInputError, match="drafter"):
        DraftPipeline(object(), 3)
    pipe = DraftPipeline(drafter, 3, lane="inline")
    pipe.close()
    with pytest.raises(RuntimeError, match="close"):
        pipe.step([])


def test_lanes_take_the_canonical_names_and_their_aliases(models):
    from minedraft.lanes import ThreadLane

    target, _, close = models
    drafter = build_pair(target, close).drafter
    for lane, threaded in [("inline", False), ("sequential", False), ("threads", True), ("thread", True),
                           ("devices", True)]:
        pipe = DraftPipeline(drafter, 3, lane=lane)
        assert isinstance(pipe._lane, ThreadLane) is threaded, lane
        pipe.close()
    if not torch.cuda.is_available():
        for lane in ("cuda_streams", "cuda_stream"):
            with pytest.raises(InvalidInputError, match="cuda_streams.*needs CUDA"):
                DraftPipeline(drafter, 3, lane=lane)
