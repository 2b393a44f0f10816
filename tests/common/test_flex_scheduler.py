"""The flex scheduler on model-free engines: admission, forced mode switches mid-request
(lossless, nothing re-drafted or lost) and per-request draft lengths that fall to k = 0
for a request whose drafts are always rejected. Decisions come from fixed cost tables and
the engines' deterministic acceptance, never from a clock."""

from __future__ import annotations

import pytest

from minedraft import RequestState, SamplingParams, SchedulerConfig, create_scheduler
from minedraft.rules.cost_model import CostModel
from minedraft.rules.flex_policy import FlexPolicy, FlexSettings

from conftest import run_to_end
from fake_engines import VOCAB, FakeDrafter, FakeTarget, ar_continuation, next_token

SWITCHY = (("psd", 3), ("psd", 1), ("sd", 4), ("ar", 0), ("psd", 5), ("ar", 0), ("sd", 2), ("psd", 2), ("sd", 5))


class RecordingDrafter(FakeDrafter):
    """Wrong on every token of the requests in ``bad`` (and every ``wrong_every``-th position
    elsewhere); records (request, committed length, asked, returned) per proposal."""

    def __init__(self, bad: set[str] = frozenset(), **kwargs) -> None:
        super().__init__(**kwargs)
        self.bad = set(bad)
        self.log: list[tuple[str, int, int, int]] = []

    def propose(self, requests, num_tokens, stop_threshold=None):
        block = super().propose(requests, num_tokens, stop_threshold)
        if self.bad:
            tokens = block.tokens.clone()
            for i, req in enumerate(requests):
                if req.request_id in self.bad:
                    lo, hi = int(block.cu_num_tokens[i]), int(block.cu_num_tokens[i + 1])
                    tokens[lo:hi] = (tokens[lo:hi] + 1) % VOCAB
            block.tokens = tokens
        for req, n, m in zip(requests, num_tokens, block.lengths()):
            self.log.append((req.request_id, req.num_committed, n, m))
        return block


def make(drafter, k=3, max_batch_size=4, lanes="threads"):
    config = SchedulerConfig(num_speculative_tokens=k, max_batch_size=max_batch_size, lanes=lanes, intra_op_threads=1)
    return create_scheduler("flex", FakeTarget(), drafter, config)


def requests(n, max_new=(20, 7, 13, 25, 4, 16), prefix="r"):
    return [RequestState(prompt_ids=[1 + i, 2 + i], params=SamplingParams(max_new_tokens=max_new[i % len(max_new)]),
                         request_id=f"{prefix}{i}") for i in range(n)]


def test_max_batch_size_caps_the_whole_running_batch():
    sched = make(FakeDrafter(), max_batch_size=5)
    sched.policy = FlexPolicy(3, FlexSettings(schedule=(("psd", 3), ("sd", 2), ("ar", 0))))
    in_flight = []
    original = sched.step

    def step():
        done = original()
        in_flight.append(len(sched.groups[0]) + len(sched.groups[1]))
        return done

    sched.step = step
    reqs = requests(12)
    run_to_end(sched, reqs, max_steps=500)
    assert max(in_flight) == 5  # as AR or SD with max_batch_size 5 would hold
    assert [r.output_ids for r in reqs] == [ar_continuation(r.prompt_ids, r.params.max_new_tokens) for r in reqs]


@pytest.mark.parametrize("max_batch_size", [2, 3, 6])
def test_forced_switches_mid_request_lose_and_redraft_nothing(max_batch_size):
    drafter = RecordingDrafter(wrong_every=3)
    sched = make(drafter, max_batch_size=max_batch_size)
    sched.policy = FlexPolicy(3, FlexSettings(schedule=SWITCHY))
    reqs = requests(6)
    run_to_end(sched, reqs, max_steps=500)
    assert [r.output_ids for r in reqs] == [ar_continuation(r.prompt_ids, r.params.max_new_tokens) for r in reqs]
    steps = sched.trace.steps
    assert {s.mode for s in steps} == {"flex:psd", "flex:sd", "flex:ar"}
    verified = sum(r.num_draft_tokens for r in reqs)
    drafted = sum(m for *_, m in drafter.log)
    assert drafted == verified == sum(s.proposed for s in steps)  # every draft token verified once
    # Never drafted twice from the same committed prefix: a stored draft is never redone.
    keys = [(rid, committed) for rid, committed, _, m in drafter.log if m > 0]
    assert len(keys) == len(set(keys))
    assert not sched.stored


def test_switches_mid_request_happen():
    """Every request lives through steps of at least two different modes."""
    sched = make(FakeDrafter(wrong_every=3), max_batch_size=2)
    sched.policy = FlexPolicy(3, FlexSettings(schedule=SWITCHY))
    reqs = requests(2, max_new=(30, 30))
    verified_in: dict[str, list[str]] = {r.request_id: [] for r in reqs}
    original = sched.commit

    def commit(batch, block, outcome):
        for r in batch:
            verified_in[r.request_id].append(sched._mode)
        return original(batch, block, outcome)

    sched.commit = commit
    run_to_end(sched, reqs, max_steps=500)
    assert all(len(set(modes)) == 3 for modes in verified_in.values())
    assert [r.output_ids for r in reqs] == [ar_continuation(r.prompt_ids, 30) for r in reqs]


class FixedCosts(FlexPolicy):
    """A policy on a fixed cost table: the scheduler's timings are ignored, so decisions
    follow the acceptance the engines produce and nothing else."""

    def observe_draft(self, *args) -> None:
        pass

    def observe_verify(self, *args) -> None:
        pass

    def observe_overhead(self, *args) -> None:
        pass


def cpu_table() -> CostModel:
    """Like the embedded pair at two threads: a verification is mostly fixed cost (37 ms plus
    0.5 ms per row), a draft forward 8 ms."""
    model = CostModel()
    for b in (1, 2, 4, 8):
        for k in (0, 1, 2, 4):
            if k:
                model.observe_draft(b, k, k * (0.008 + 0.0005 * b))
            model.observe_verify(b, k, 0.037 + 0.0005 * b * (k + 1))
    return model


def fixed_policy(k0=4, **settings) -> FixedCosts:
    table = cpu_table()
    return FixedCosts(k0, FlexSettings(warmup=False, **settings), overlapped=table, sequential=table)


def drafted_per_verification(drafter, rid):
    return [m for r, _, _, m in drafter.log if r == rid]


def test_rejected_requests_fall_to_k0_while_the_others_keep_drafting():
    bad = {"r1", "r3"}
    drafter = RecordingDrafter(bad=bad)
    sched = make(drafter, k=4, max_batch_size=4, lanes="inline")
    sched.policy = fixed_policy()
    reqs = requests(4, max_new=(40,))
    run_to_end(sched, reqs, max_steps=500)
    assert [r.output_ids for r in reqs] == [ar_continuation(r.prompt_ids, 40) for r in reqs]
    for rid in bad:
        lengths = drafted_per_verification(drafter, rid)
        # A few rejected drafts, then k = 0 for good: no further proposal asks for tokens.
        first_zero = next(i for i, n in enumerate(lengths + [0]) if n == 0)
        assert first_zero <= 3, lengths
        assert not any(lengths[first_zero:])
        assert [r for r in reqs if r.request_id == rid][0].num_draft_tokens <= 3 * 4
    good = [r for r in reqs if r.request_id not in bad]
    assert all(r.num_accepted_tokens == r.num_draft_tokens > 10 for r in good)  # still drafting, all accepted
    assert sched.decisions[-1].caps.get("r0", 4) > 0


def test_all_rejected_switches_the_batch_to_ar_within_a_few_steps():
    reqs = requests(2, max_new=(40,))
    drafter = RecordingDrafter(bad={r.request_id for r in reqs})
    sched = make(drafter, k=4, max_batch_size=2, lanes="inline")
    sched.policy = fixed_policy()
    run_to_end(sched, reqs, max_steps=500)
    assert [r.output_ids for r in reqs] == [ar_continuation(r.prompt_ids, 40) for r in reqs]
    modes = [d.mode for d in sched.decisions]
    first_ar = modes.index("ar")
    assert first_ar <= 3, modes
    assert set(modes[first_ar:]) == {"ar"}
    assert sum(r.num_draft_tokens for r in reqs) <= 2 * 3 * 4  # at most three rejected drafts each


def test_caps_follow_the_break_even_acceptance():
    """request_caps against the closed form: drafting the j-th token pays iff
    alpha (gamma alpha)^(j - 1) > (T_sd - T_ar) / (k T_ar)."""
    policy = fixed_policy(prior_weight=1e-9)
    table = cpu_table()
    for rid, alpha in (("a", 0.9), ("b", 0.5), ("c", 0.1)):
        policy.acceptance.alphas[rid] = type(policy.acceptance.global_alpha)(hits=1e6 * alpha, misses=1e6 * (1 - alpha))
    groups = (["a", "b", "c"], [])
    k, n = 4, 3
    t_ar = table.t_verify(n, 0)
    threshold = (table.t_draft(n, k) + table.t_verify(n, k) - t_ar) / (k * t_ar)
    caps = policy.request_caps("sd", k, groups)
    for rid, alpha in (("a", 0.9), ("b", 0.5), ("c", 0.1)):
        assert caps[rid] == sum(alpha**j > threshold for j in range(1, k + 1))
    assert caps["a"] > caps["b"] > caps["c"] == 0
    assert next_token(0) == 3  # the fake engines' rule, used above through ar_continuation
