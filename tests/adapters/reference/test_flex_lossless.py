"""Flex decoding on the reference engine stays lossless while it switches modes.

Greedy: identical to AR token for token, on mixed batches (different prompt and output
lengths, continuous batching), with the policy forced through PSD, SD and AR steps and
draft lengths mid-run, and with the live cost-model policy. Sampling: with the draft equal
to the target every draft token must be accepted, which only holds if the draft
distributions q travel intact through the mode switches. The confidence threshold
shortens drafts and changes nothing in the output.
"""

from __future__ import annotations

import copy
import threading

import pytest
import torch

from minedraft import RequestState, SamplingParams, SchedulerConfig, create_scheduler
from minedraft.rules.flex_policy import FlexPolicy, FlexSettings

from conftest import (
    PROMPTS,
    build_pair,
    chi2_pvalue,
    exact_two_token_marginals,
    generate,
    run_to_end,
    tiny_llama,
)

MAX_NEW = [24, 9, 17, 30, 5, 12]
SWITCHY = (("psd", 3), ("psd", 1), ("sd", 4), ("ar", 0), ("psd", 5), ("ar", 0), ("sd", 2), ("psd", 2), ("sd", 5))
RUNS = (("psd", 4), ("psd", 4), ("psd", 2), ("sd", 3), ("sd", 3), ("ar", 0), ("psd", 1), ("ar", 0), ("ar", 0), ("sd", 2))


@pytest.fixture(scope="module")
def models():
    target = tiny_llama(layers=2, hidden=64, seed=0)
    close = copy.deepcopy(target)  # perturbed copy: acceptance ~0.4, mixed within batches
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for p in close.parameters():
            p.add_(torch.randn(p.shape, generator=gen, dtype=p.dtype) * 0.004)
    return target, close


@pytest.fixture(scope="module")
def ar_reference(models):
    target, _ = models
    outs, _ = generate(build_pair(target, None), "ar", PROMPTS, [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW])
    return [o.token_ids for o in outs]


def run_flex(pair, schedule, params, max_batch_size=2, k=3, threshold=None):
    """Drive a flex scheduler directly, with its policy replaced by a fixed schedule."""
    config = SchedulerConfig(num_speculative_tokens=k, max_batch_size=max_batch_size, lanes="threads",
                             intra_op_threads=1, eos_token_ids=pair.eos_token_ids)
    sched = create_scheduler("flex", pair.target, pair.drafter, config, {"draft_confidence_threshold": threshold})
    if schedule is not None:
        sched.policy = FlexPolicy(k, FlexSettings(schedule=schedule))
    reqs = [RequestState(prompt_ids=p, params=q) for p, q in zip(PROMPTS, params)]
    run_to_end(sched, reqs)
    return reqs, sched


@pytest.mark.parametrize("schedule", [SWITCHY, RUNS], ids=["switchy", "runs"])
@pytest.mark.parametrize("max_batch_size", [2, 8])
def test_greedy_identical_to_ar_through_forced_switches(models, ar_reference, schedule, max_batch_size):
    pair = build_pair(*models)
    reqs, sched = run_flex(pair, schedule, [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW], max_batch_size)
    assert [r.output_ids for r in reqs] == ar_reference
    assert all(r.error is None for r in reqs)
    steps = sched.trace.steps
    assert {s.mode for s in steps} == {"flex:psd", "flex:sd", "flex:ar"}
    assert any(s.overlapped for s in steps if s.mode == "flex:psd")
    assert sum(s.accepted for s in steps) > 0  # multi-token steps happened
    # Every pair of modes followed one another at least once, in one order or the other.
    pairs = {(a.mode, b.mode) for a, b in zip(steps, steps[1:])}
    for a, b in (("flex:psd", "flex:sd"), ("flex:sd", "flex:ar"), ("flex:ar", "flex:psd")):
        assert (a, b) in pairs or (b, a) in pairs
    assert not sched.stored  # no draft left behind


def test_greedy_identical_to_ar_with_the_live_policy(models, ar_reference):
    pair = build_pair(*models)
    params = [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW]
    steps = 0
    for _ in range(2):  # the second call reuses what the first one measured
        outs, llm = generate(pair, "flex", PROMPTS, params, num_speculative_tokens=3, max_batch_size=2)
        assert [o.token_ids for o in outs] == ar_reference
        assert all(o.error is None for o in outs)
        assert {s.mode for s in llm.last_trace.steps} <= {"flex:psd", "flex:sd", "flex:ar"}
        steps += len(llm.last_trace.steps)
    (policy,) = pair.memory.values()  # kept with the engines, not in the process
    assert policy.num_decisions == steps  # one policy saw both calls
    assert not policy.acceptance.alphas  # per-request estimates are dropped with the requests


def test_live_policy_warms_up_every_mode(models, ar_reference):
    pair = build_pair(*models)
    outs, llm = generate(pair, "flex", PROMPTS, [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW],
                         num_speculative_tokens=3, max_batch_size=4)
    assert [o.token_ids for o in outs] == ar_reference
    assert {s.mode for s in llm.last_trace.steps} == {"flex:psd", "flex:sd", "flex:ar"}


def test_confidence_threshold_shortens_drafts_and_stays_lossless(models, ar_reference):
    pair = build_pair(*models)
    params = [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW]
    schedule = (("sd", 5), ("psd", 5))
    plain, _ = run_flex(pair, schedule, params, k=5)
    short, sched = run_flex(pair, schedule, params, k=5, threshold=0.05)
    for reqs in (plain, short):
        assert [r.output_ids for r in reqs] == ar_reference
    drafted = [sum(r.num_draft_tokens for r in reqs) / sum(r.num_verify_steps for r in reqs) for reqs in (plain, short)]
    assert drafted[1] < 0.8 * drafted[0]  # shorter drafts per verification
    assert sum(r.num_draft_tokens for r in short) > 0  # but drafting still happens
    # The policy saw the stops: continuation below 1.
    assert sched.policy.acceptance.gamma() < 1.0


def test_sampling_with_draft_equal_to_target_accepts_every_token_across_switches(models):
    target, _ = models
    pair = build_pair(target, copy.deepcopy(target))
    params = [SamplingParams(temperature=1.0, seed=100 + i, max_new_tokens=n) for i, n in enumerate(MAX_NEW)]
    reqs, sched = run_flex(pair, SWITCHY, params, max_batch_size=4)
    assert all(r.error is None and r.output_ids for r in reqs)
    steps = sched.trace.steps
    assert sum(s.proposed for s in steps) > 20
    assert sum(s.accepted for s in steps) == sum(s.proposed for s in steps)  # p == q: always accepted


def test_sequential_steps_run_inline_with_the_thread_count_of_the_sequential_modes(models, ar_reference):
    """PSD steps run on the lanes with intra_op_threads; SD/AR steps inline with the count the
    process had (what modes sd and ar would use); close() leaves that count in place."""
    pair = build_pair(*models)
    seen = []
    score = pair.target.score

    def spy(requests, block):
        seen.append((threading.current_thread() is threading.main_thread(), torch.get_num_threads()))
        return score(requests, block)

    pair.target.score = spy
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        # Short outputs: two intra-op threads on a busy 2-core box are slow.
        reqs, _ = run_flex(pair, (("sd", 3), ("psd", 3), ("ar", 0), ("psd", 2)),
                           [SamplingParams(temperature=0.0, max_new_tokens=min(6, n)) for n in MAX_NEW], max_batch_size=4)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
    assert [r.output_ids for r in reqs] == [ref[:6] for ref in ar_reference]
    assert {threads for inline, threads in seen if inline} == {2}
    assert {threads for inline, threads in seen if not inline} == {1}


def test_sampled_outputs_follow_the_target_distribution_through_forced_switches(models):
    """A perturbed draft (acceptance ~0.4) and a schedule that switches mode every step: the
    first two tokens of each request are often emitted under different modes, and both
    follow the target's exact marginals."""
    target, close = models
    pair = build_pair(target, close, max_batch_size=64)
    params = SamplingParams(temperature=0.9, top_k=24, max_new_tokens=2)
    prompt, n = [5, 6, 7], 2000
    config = SchedulerConfig(num_speculative_tokens=3, max_batch_size=64, lanes="threads", intra_op_threads=1,
                             eos_token_ids=pair.eos_token_ids)
    sched = create_scheduler("flex", pair.target, pair.drafter, config)
    sched.policy = FlexPolicy(3, FlexSettings(schedule=SWITCHY))
    torch.manual_seed(2024)
    reqs = [RequestState(prompt_ids=list(prompt), params=params) for _ in range(n)]
    run_to_end(sched, reqs)
    assert {s.mode for s in sched.trace.steps} == {"flex:psd", "flex:sd", "flex:ar"}
    assert all(r.error is None and len(r.output_ids) == 2 for r in reqs)
    p1, p2 = exact_two_token_marginals(target, prompt, params)
    assert chi2_pvalue([r.output_ids[0] for r in reqs], p1) > 1e-3
    assert chi2_pvalue([r.output_ids[1] for r in reqs], p2) > 1e-3
