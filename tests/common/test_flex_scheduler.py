"""The flex scheduler on model-free engines: admission, forced mode switches mid-request
(lossless, nothing re-drafted or lost) and per-request draft lengths that fall to k = 0
for a request whose drafts are always rejected. Decisions come from fixed cost tables and
the engines' deterministic acceptance, never from a clock."""

from __future__ import annotations

import time

import pytest

from minedraft import InvalidInputError, RequestState, SamplingParams, SchedulerConfig, create_scheduler
from minedraft.rules.cost_model import CostModel, expected_tokens
from minedraft.rules.flex_policy import FlexPolicy, FlexSettings

from conftest import run_to_end
from fake_engines import VOCAB, FakeDrafter, FakeTarget, ar_continuation

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
    return [RequestState(prompt_ids=[1 + i, 2 + i], params=SamplingParams(temperature=0.0, max_new_tokens=max_new[i % len(max_new)]),
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

    def observe_realized(self, *args) -> None:
        pass


def cpu_table(scale: float = 1.0) -> CostModel:
    """Like the embedded pair at two threads: a verification is mostly fixed cost (37 ms plus
    0.5 ms per row), a draft forward 8 ms (every cost times ``scale``)."""
    model = CostModel()
    for b in (1, 2, 4, 8):
        for k in (0, 1, 2, 4):
            if k:
                model.observe_draft(b, k, scale * k * (0.008 + 0.0005 * b))
            model.observe_verify(b, k, scale * (0.037 + 0.0005 * b * (k + 1)))
    return model


ADAPTIVE_KS = (1, 2, 3, 4, 5, 6, 8)  # the tests below exercise adaptive draft lengths (opt-in)


def fixed_policy(k0=4, **settings) -> FixedCosts:
    settings.setdefault("ks", ADAPTIVE_KS)
    table = cpu_table()
    return FixedCosts(k0, FlexSettings(warmup=False, **settings), overlapped=table, sequential=table)


def drafted_per_verification(drafter, rid):
    return [m for r, _, _, m in drafter.log if r == rid]


# One pseudo-observation pulling a request's estimate towards its batch's: drafts here cost
# 0.5 ms a row and a forward, so with the default four a request rejected every time, in a
# batch that accepts everything, stays above the break-even and drafts on (cheaply).
LIGHT_PULL = 1.0


def test_rejected_requests_fall_to_k0_while_the_others_keep_drafting():
    bad = {"r1", "r3"}
    drafter = RecordingDrafter(bad=bad)
    sched = make(drafter, k=4, max_batch_size=4, lanes="inline")
    sched.policy = fixed_policy(request_prior_weight=LIGHT_PULL)
    reqs = requests(4, max_new=(40,))
    run_to_end(sched, reqs, max_steps=500)
    assert [r.output_ids for r in reqs] == [ar_continuation(r.prompt_ids, 40) for r in reqs]
    for rid in bad:
        proposals = [(committed, m) for r, committed, _, m in drafter.log if r == rid and m]
        # A few rejected drafts, then k = 0. A draft row costs 0.5 ms a forward in the table,
        # so a request stops once its estimated acceptance, in tokens at the step's seconds
        # per token, is worth less. Its evidence then fades towards the global rate, so it
        # is probed again now and then, one short draft at a time, spaced out.
        first_stop = next(i for i in range(1, len(proposals)) if proposals[i][0] - proposals[i - 1][0] > 1)
        assert first_stop <= 8, proposals
        gaps = [b[0] - a[0] for a, b in zip(proposals[first_stop - 1:], proposals[first_stop:])]
        # A probe at most every third verification (the first gap is the shortest: the
        # batch's k, rising a step at a time, lifts what one accepted draft would be worth),
        # later ones further apart (the steady estimate that prices a draft recovers slowly).
        assert min(gaps) >= 3 and all(g >= 5 for g in gaps[1:]), proposals
        assert len(proposals) <= 40 // 3
        assert [r for r in reqs if r.request_id == rid][0].num_draft_tokens <= 3 * 4
    good = [r for r in reqs if r.request_id not in bad]
    assert all(r.num_accepted_tokens == r.num_draft_tokens > 10 for r in good)  # still drafting, all accepted


class EarlyStreakDrafter(RecordingDrafter):
    """Wrong on the first ``streak`` proposals of the requests in ``bad``, right afterwards."""

    def __init__(self, bad: set[str], streak: int) -> None:
        super().__init__(bad=bad)
        self.left = dict.fromkeys(bad, streak)

    def propose(self, requests, num_tokens, stop_threshold=None):
        self.bad = {r.request_id for r, n in zip(requests, num_tokens) if n and self.left.get(r.request_id, 0) > 0}
        for rid in self.bad:
            self.left[rid] -= 1
        return super().propose(requests, num_tokens, stop_threshold)


def test_a_request_stopped_by_a_streak_of_rejections_drafts_again():
    """A request whose first drafts are all rejected stops drafting; while it does not draft
    its estimate fades back to the batch's rate, so it drafts again and, the draft being
    good for it now, keeps drafting: a short unlucky streak does not cost it SD for good."""
    drafter = EarlyStreakDrafter(bad={"r1"}, streak=4)
    sched = make(drafter, k=4, max_batch_size=4, lanes="inline")
    sched.policy = fixed_policy()
    reqs = requests(4, max_new=(40,))
    run_to_end(sched, reqs, max_steps=500)
    assert [r.output_ids for r in reqs] == [ar_continuation(r.prompt_ids, 40) for r in reqs]
    r1 = next(r for r in reqs if r.request_id == "r1")
    proposals = [committed for r, committed, _, m in drafter.log if r == "r1" and m]
    assert any(b - a > 1 for a, b in zip(proposals, proposals[1:]))  # it stopped for a while ...
    assert r1.num_accepted_tokens >= 10  # ... and drafted again, accepted


class WidthRecording(FixedCosts):
    def observe_verify(self, family, batch, width, seconds) -> None:
        self.verified = getattr(self, "verified", []) + [(batch, width)]


def test_steps_record_and_feed_the_padded_width():
    """Good requests draft 4 while bad ones draft none: the steps are ragged, and each
    records, and hands the policy, its longest draft rather than the mean."""
    drafter = RecordingDrafter(bad={"r1", "r3"})
    sched = make(drafter, k=4, max_batch_size=4, lanes="inline")
    table = cpu_table()
    sched.policy = WidthRecording(4, FlexSettings(warmup=False, ks=ADAPTIVE_KS, request_prior_weight=LIGHT_PULL),
                                  overlapped=table, sequential=table)
    run_to_end(sched, requests(4, max_new=(40,)), max_steps=500)
    steps = [s for s in sched.trace.steps if s.verify_batch]
    ragged = [s for s in steps if 0 < s.proposed < s.verify_width * s.verify_batch]
    assert ragged
    assert all(s.proposed <= s.verify_width * s.verify_batch and s.verify_width <= 8 for s in steps)
    assert (4, 4) in sched.policy.verified  # four requests, two drafting 4: width 4, mean 2
    assert sched.decisions[-1].caps.get("r0", 4) > 0


class StallOnce(FakeTarget):
    """Stalls one verification (its ``stall_at``-th) for ``seconds``: a host preempting the process."""

    def __init__(self, stall_at: int, seconds: float) -> None:
        super().__init__()
        self.stall_at, self.seconds = stall_at, seconds

    def score(self, requests, block):
        if len(self.calls) == self.stall_at:
            time.sleep(self.seconds)
        return super().score(requests, block)


class TimingRecording(FlexPolicy):
    def observe_verify(self, family, batch, width, seconds) -> None:
        self.verify_seconds = getattr(self, "verify_seconds", []) + [seconds]
        super().observe_verify(family, batch, width, seconds)

    def observe_realized(self, decision, seconds, tokens=None) -> None:
        self.realized_seconds = getattr(self, "realized_seconds", []) + [seconds]
        super().observe_realized(decision, seconds, tokens)


def test_a_stalled_step_feeds_no_timing_to_the_policy():
    """One verification held up for 1.5 s where the cost table predicts about 0.3 s a step (the
    fake engines take about 1 ms, so no other step comes near 3x that on a loaded machine): a
    stall of the host, so neither the cells nor the realized rate see it, while every other
    clean step is fed as before."""
    config = SchedulerConfig(num_speculative_tokens=2, max_batch_size=2, lanes="inline", intra_op_threads=1)
    sched = create_scheduler("flex", StallOnce(stall_at=12, seconds=1.5), FakeDrafter(), config)
    table = cpu_table(scale=5.0)
    sched.policy = TimingRecording(2, FlexSettings(warmup=False), overlapped=table, sequential=table)
    run_to_end(sched, requests(2, max_new=(40,)), max_steps=200)
    verified = [s for s in sched.trace.steps if s.verify_batch]
    assert [s.verify_time >= 1.5 for s in verified].count(True) == 1
    assert max(sched.policy.verify_seconds) < 1.5 and max(sched.policy.realized_seconds) < 1.5
    assert len(sched.policy.verify_seconds) == len(verified) - 2  # all but the prompts' prefill and the stall


def test_all_rejected_switches_the_batch_to_ar_within_a_few_steps():
    """Every draft rejected: AR from the fourth step at the latest, and the draft is re-tried
    rarely and briefly (the global estimate ages while nothing is drafted): one-token drafts
    in single steps, more than 30 AR steps apart (a draft mode that lost every drafter
    returns once a draft is predicted to pay by the margin, without the patience, so the
    spacing is the estimate's)."""
    reqs = requests(2, max_new=(200,))
    drafter = RecordingDrafter(bad={r.request_id for r in reqs})
    sched = make(drafter, k=4, max_batch_size=2, lanes="inline")
    sched.policy = fixed_policy()
    run_to_end(sched, reqs, max_steps=2000)
    assert [r.output_ids for r in reqs] == [ar_continuation(r.prompt_ids, 200) for r in reqs]
    modes = [d.mode for d in sched.decisions]
    first_ar = modes.index("ar")
    assert first_ar <= 3, modes
    retries = [i for i in range(first_ar, len(modes)) if modes[i] != "ar"]
    gaps = [b - a for a, b in zip([first_ar, *retries], retries)]
    assert 1 <= len(retries) <= 6 and all(g > 30 for g in gaps), retries
    assert all(sched.decisions[i].k == 1 for i in retries)
    # at most three rejected drafts of 4 each, then one token per request and retry
    assert sum(r.num_draft_tokens for r in reqs) <= 2 * 3 * 4 + 2 * len(retries)


def test_caps_follow_the_marginal_break_even():
    """request_caps against the closed form: request i drafts k iff its expected accepted
    tokens E_i(k) - 1, at the step's seconds per token, are worth more than what one request
    not drafting saves (its draft rows: the verification keeps its padded width)."""
    policy = fixed_policy(prior_weight=1e-9)
    table = cpu_table()
    alphas = {"a": 0.9, "b": 0.5, "c": 0.05}
    for rid, alpha in alphas.items():
        for counts in (policy.acceptance.alphas, policy.acceptance.steady):  # fast and steady alike
            counts[rid] = type(policy.acceptance.global_alpha)(hits=1e6 * alpha, misses=1e6 * (1 - alpha))
    groups = (list(alphas), [])
    k, n = 4, 3
    seconds = table.t_draft(n, k) + table.t_verify(n, k)
    tokens = sum(expected_tokens(a, k) for a in alphas.values())
    saved = table.t_draft(n, k) - table.t_draft(n - 1, k)
    caps = policy.request_caps("sd", k, groups)
    for rid, alpha in alphas.items():
        assert caps[rid] == (k if (expected_tokens(alpha, k) - 1) * seconds / tokens > saved else 0)
    assert caps == {"a": k, "b": k, "c": 0}


def test_caps_price_a_request_not_drafting_by_the_fit_not_by_two_noisy_cells():
    """Measured draft cells at b = 8 and b = 7 that differ by six times the draft's slope
    (one taken in a slow spell, one in a fast one) must not cut requests whose drafts pay:
    what one request not drafting saves is the batch's own cost times the fit's shape.
    Priced as the difference of the two cells it was 6 ms a step here, more than the 4.7 ms
    that a request accepting 0.6 of its drafts brings, and every request stopped drafting
    although SD is predicted faster than AR."""
    policy = fixed_policy(k0=2, ks=None)
    for rid in "abcdefgh":
        for counts in (policy.acceptance.alphas, policy.acceptance.steady):
            counts[rid] = type(policy.acceptance.global_alpha)(hits=6e5, misses=4e5)
    for _ in range(3):
        policy.cells.add("sequential", "draft", 8, 1, 0.0135)  # slow spell
        policy.cells.add("sequential", "draft", 7, 1, 0.0105)  # fast spell
    groups = (list("abcdefgh"), [])
    assert 2 * (policy.t_draft("sequential", 8, 1) - policy.t_draft("sequential", 7, 1)) == pytest.approx(0.006)
    assert policy.predict("sd", 2, groups) > policy.predict("ar", 0, groups)
    assert policy.request_caps("sd", 2, groups) == dict.fromkeys("abcdefgh", 2)


def test_a_short_draft_among_long_ones_saves_no_verification():
    """The verification is priced at the longest draft (the padded width), the drafting at
    the requests that draft."""
    policy = fixed_policy()
    table = cpu_table()
    _, seconds = policy.predict_step("sd", 4, (["a", "b"], []), {"a": 4, "b": 0})
    assert seconds == pytest.approx(table.t_draft(1, 4) + table.t_verify(2, 4))
    _, psd = policy.predict_step("psd", 4, (["a", "b"], ["c"]), {"a": 4, "b": 0, "c": 0})
    # Sub-batch (a, b) is verified at width 4 while c is drafted; c's verification at width 0.
    cycle = max(0.0, table.t_verify(2, 4)) + max(table.t_draft(1, 4), table.t_verify(1, 0))
    assert psd == pytest.approx(cycle / 2)


def test_a_requests_first_draft_and_a_catch_up_are_not_timed_as_drafting():
    """The policy's draft costs leave out calls that fed a request's whole context to the
    drafter: its first draft (an EAGLE-style drafter returns nothing before the target's
    first step, so the committed count alone does not show it) and the first after AR steps."""
    from minedraft.schedulers.flex import ConfidenceDrafter

    class Returning(FakeDrafter):
        def __init__(self) -> None:
            super().__init__()
            self.give = 0

        def propose(self, requests, num_tokens, stop_threshold=None):
            return super().propose(requests, [min(n, self.give) for n in num_tokens], stop_threshold)

    inner = Returning()
    drafter = ConfidenceDrafter(inner, None)
    req = RequestState(prompt_ids=[1, 2, 3], params=SamplingParams(temperature=0.0, max_new_tokens=30), request_id="a")
    flags = []
    # (tokens the drafter returns, tokens committed since the last call): nothing drafted
    # yet; the first draft (its prefill); a plain draft (k + 1 committed); 10 committed
    # without drafting (AR steps); a plain draft again
    for give, committed in ((0, 0), (2, 1), (2, 3), (2, 10), (2, 3)):
        req.output_ids += [5] * committed
        inner.give = give
        drafter.propose([req], [2])
        flags.append(drafter.calls[-1].catch_up)
    assert flags == [True, True, False, True, False]
    drafter.release("a")
    drafter.propose([req], [2])
    assert drafter.calls[-1].catch_up  # a released request starts over


def test_steps_flag_the_drafters_catch_up_after_ar_steps():
    """An SD step after four AR steps first feeds the drafter the tokens AR committed (more
    than the last draft could have made): ``draft_prefill`` marks it, as it marks the first
    drafts; SD steps after SD steps and AR steps (no draft call) are not marked."""
    plan = (("ar", 0),) * 4 + (("sd", 2),) * 3
    sched = make(FakeDrafter(wrong_every=3), k=2, max_batch_size=2)
    sched.policy = FlexPolicy(2, FlexSettings(schedule=plan))
    run_to_end(sched, requests(2, max_new=(60, 60)), max_steps=500)
    steps = sched.trace.steps[:3 * len(plan)]
    assert [s.mode for s in steps] == [f"flex:{m}" for m, _ in plan] * 3
    assert [s.draft_prefill for s in steps] == [i % len(plan) == 4 for i in range(len(steps))]


def test_a_fixed_schedule_starts_from_its_first_entry_in_every_run():
    # The policy (and what it measured) is kept per engine pair across runs; a fixed plan
    # is not carried on from where the last run left it.
    memory: dict = {}
    config = SchedulerConfig(num_speculative_tokens=2, max_batch_size=2, lanes="threads", intra_op_threads=1)
    plans = []
    for _ in range(3):
        sched = create_scheduler("flex", FakeTarget(), FakeDrafter(), config,
                                 {"schedule": [("sd", 2), ("ar", 0), ("ar", 0)]}, memory=memory)
        run_to_end(sched, requests(1, max_new=(12,)))
        plans.append([d.mode for d in sched.decisions])
    assert len(memory) == 1 and plans[0] == plans[1] == plans[2] and plans[0][:3] == ["sd", "ar", "ar"]


def test_flex_settings_given_as_lists_are_kept_as_tuples_and_bad_plans_are_named():
    settings = FlexSettings(ks=[2, 4], schedule=[["psd", 3], ("ar", 0)])
    assert settings.ks == (2, 4) and settings.schedule == (("psd", 3), ("ar", 0))
    hash(settings)  # the key of the policy kept per engine pair
    with pytest.raises(InvalidInputError, match=r"FlexSettings.schedule must be a list of \(mode, k\) pairs, got 'psd:3'"):
        FlexSettings(schedule="psd:3")
