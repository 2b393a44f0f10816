"""The PSD scheduler on model-free engines: alternation, overlap, admission, balance,
drafter slack, and errors in either lane."""

from __future__ import annotations

import time

import pytest

from minedraft import RequestState, SamplingParams, SchedulerConfig, create_scheduler

from fake_engines import FakeDrafter, FakeTarget, ar_continuation


def _run(sched, reqs_by_step: dict[int, list[RequestState]] | None = None, max_steps: int = 1000) -> int:
    steps = 0
    reqs_by_step = reqs_by_step or {}
    while sched.has_unfinished() or any(s >= steps for s in reqs_by_step):
        for r in reqs_by_step.pop(steps, []):
            sched.add_request(r)
        sched.step()
        steps += 1
        assert steps < max_steps, "scheduler did not finish"
    return steps


def _psd(drafter=None, target=None, extra_proposals=0, **config):
    config.setdefault("num_speculative_tokens", 3)
    config.setdefault("lanes", "threads")
    return create_scheduler("psd", target or FakeTarget(), drafter or FakeDrafter(wrong_every=3), SchedulerConfig(**config),
                            {"extra_proposals": extra_proposals})


def _req(prompt_last: int, n: int) -> RequestState:
    return RequestState(prompt_ids=[1, prompt_last], params=SamplingParams(temperature=0.0, max_new_tokens=n))


def test_alternates_sub_batches_and_overlaps():
    sched = _psd()
    reqs = [_req(i, 20) for i in range(6)]
    for r in reqs:
        sched.add_request(r)
    _run(sched)
    sched.close()
    for r in reqs:
        assert r.output_ids == ar_continuation(r.prompt_ids, 20)
    steps = sched.trace.steps
    groups = [s.verify_group for s in steps]
    assert groups[:6] == [0, 1, 0, 1, 0, 1]
    assert all(s.overlapped for s in steps[:6])
    assert all(s.verify_batch == 3 and s.draft_batch == 3 for s in steps[:6])
    # Drafts for the verified sub-batch were made in the previous step: exactly one
    # serial (cold-start) draft call in the whole run.
    intervals = sched.trace.intervals
    assert sum(iv.label == "draft (serial)" for iv in intervals) == 1


def test_lanes_really_overlap_in_time():
    drafter, target = FakeDrafter(sleep=0.05), FakeTarget(sleep=0.05)
    sched = _psd(drafter, target)
    for i in range(4):
        sched.add_request(_req(i, 12))
    _run(sched)
    sched.close()
    draft = [iv for iv in sched.trace.intervals if iv.lane == "draft"]
    verify = [iv for iv in sched.trace.intervals if iv.lane == "target"]
    overlap = sum(max(0.0, min(d.end, v.end) - max(d.start, v.start)) for d in draft for v in verify)
    assert overlap > 0.5 * sum(v.end - v.start for v in verify)


def test_newcomers_join_the_sub_batch_drafted_next_and_stay_balanced():
    sched = _psd()
    first = [_req(i, 30) for i in range(4)]
    late = [_req(10 + i, 8) for i in range(3)]
    for r in first:
        sched.add_request(r)
    sched.step()
    sched.step()
    next_group = 1 - sched.turn
    for r in late:
        sched.add_request(r)
    sched.step()
    sizes = [len(g) for g in sched.groups]
    assert abs(sizes[0] - sizes[1]) <= 1
    members = {r.request_id: gi for gi, g in enumerate(sched.groups) for r in g}
    assert members[late[0].request_id] == next_group
    # Never moved mid-flight: every original request stays in its sub-batch.
    before = {r.request_id: gi for gi, g in enumerate(sched.groups) for r in g if r in first}
    sched.step()
    after = {r.request_id: gi for gi, g in enumerate(sched.groups) for r in g if r in first}
    assert before == after
    _run(sched)
    sched.close()
    for r in first + late:
        assert r.output_ids == ar_continuation(r.prompt_ids, r.params.max_new_tokens)


def test_single_request_runs_sequential_steps():
    sched = _psd()
    r = _req(3, 10)
    sched.add_request(r)
    _run(sched)
    sched.close()
    assert r.output_ids == ar_continuation(r.prompt_ids, 10)
    assert not any(s.overlapped for s in sched.trace.steps)


def test_extra_proposals_respect_the_verification_budget_and_stay_exact():
    sched = _psd(FakeDrafter(wrong_every=4), num_speculative_tokens=2, extra_proposals=3)
    reqs = [_req(i, 25) for i in range(6)]
    for r in reqs:
        sched.add_request(r)
    _run(sched)
    sched.close()
    for r in reqs:
        assert r.output_ids == ar_continuation(r.prompt_ids, 25)
    assert all(s.proposed <= 2 * s.verify_batch for s in sched.trace.steps)
    assert max(s.proposed for s in sched.trace.steps) == 2 * 3  # budget used in full


@pytest.mark.parametrize("where", ["draft", "target"])
def test_lane_exception_reaches_affected_requests_only(where):
    bad = _req(5, 15)
    good = [_req(i, 15) for i in range(4)]
    drafter = FakeDrafter(fail_on={bad.request_id} if where == "draft" else None)
    target = FakeTarget(fail_on={bad.request_id} if where == "target" else None)
    sched = _psd(drafter, target)
    for r in [*good, bad]:
        sched.add_request(r)
    t0 = time.perf_counter()
    _run(sched)
    assert time.perf_counter() - t0 < 30
    assert bad.finish_reason.value == "error" and "exploded" in bad.error
    for r in good:
        if r.finish_reason.value == "error":
            continue  # shared the failing lane call with the bad request
        assert r.output_ids == ar_continuation(r.prompt_ids, 15)
    assert all(r.finished for r in [*good, bad]), "no request lost"
    assert any(r.finish_reason.value == "length" for r in good)
    # The engine stays usable: a new request runs to completion.
    drafter.fail_on.clear()
    target.fail_on.clear()
    again = _req(9, 6)
    sched.add_request(again)
    _run(sched)
    sched.close()
    assert again.output_ids == ar_continuation(again.prompt_ids, 6)


def test_hung_lane_fails_requests_within_the_step_timeout():
    drafter = FakeDrafter(sleep=1.5)
    sched = _psd(drafter, step_timeout=0.2)
    reqs = [_req(i, 4) for i in range(2)]
    for r in reqs:
        sched.add_request(r)
    t0 = time.perf_counter()
    _run(sched)
    assert time.perf_counter() - t0 < 1.4
    assert all(r.finish_reason.value == "error" and "step_timeout" in r.error for r in reqs)
    sched.close()


def test_cancel_in_either_sub_batch_releases_engine_state():
    drafter, target = FakeDrafter(), FakeTarget()
    sched = _psd(drafter, target)
    reqs = [_req(i, 40) for i in range(4)]
    for r in reqs:
        sched.add_request(r)
    sched.step()
    sched.step()
    victims = [sched.groups[0][0], sched.groups[1][0]]
    for v in victims:
        sched.cancel(v.request_id)
    assert all(v.request_id not in sched.stored for v in victims)
    _run(sched)
    sched.close()
    for v in victims:
        assert v.finish_reason.value == "cancelled"
        assert v.request_id in drafter.released and v.request_id in target.released
    for r in reqs:
        if r not in victims:
            assert r.output_ids == ar_continuation(r.prompt_ids, 40)


@pytest.mark.parametrize("mode", ["ar", "sd", "psd", "flex"])
def test_steps_record_the_context_they_verified(mode):
    """verify_context is the longest committed sequence (prompt + output) of the requests a
    step verified, counted before the step's tokens. A verified request always gains a
    token, so the verified ones are those whose committed length changed in the step."""
    prompts = {"a": [1, 2, 3, 4, 5, 6, 7], "b": [1, 9]}
    reqs = [RequestState(prompt_ids=p, params=SamplingParams(temperature=0.0, max_new_tokens=12), request_id=rid)
            for rid, p in prompts.items()]
    drafter = None if mode == "ar" else FakeDrafter(wrong_every=3)
    lanes = "threads" if mode in ("psd", "flex") else "inline"
    sched = create_scheduler(mode, FakeTarget(), drafter, SchedulerConfig(num_speculative_tokens=2, lanes=lanes))
    for r in reqs:
        sched.add_request(r)
    checked = 0
    while sched.has_unfinished():
        before = {r.request_id: r.num_committed for r in reqs}
        sched.step()
        verified = [rid for rid, n in before.items() if next(r for r in reqs if r.request_id == rid).num_committed > n]
        if verified:
            (rec,) = sched.trace.steps[checked:]
            assert rec.verify_context == max(before[rid] for rid in verified), (mode, rec)
        checked = len(sched.trace.steps)
    assert checked > 4 and max(s.verify_context for s in sched.trace.steps) > len(prompts["a"])


@pytest.mark.parametrize("mode", ["ar", "sd", "psd", "flex"])
def test_steps_record_the_requests_in_flight(mode):
    """``running`` counts the requests in flight during the step (both sub-batches under
    PSD): those unfinished before it that admission took out of the queue. Five requests of
    different lengths through two slots (per sub-batch under PSD), so newcomers join mid-run
    and the tail drains."""
    reqs = [_req(i, n) for i, n in enumerate((3, 9, 5, 12, 7))]
    drafter = None if mode == "ar" else FakeDrafter(wrong_every=3)
    lanes = "threads" if mode in ("psd", "flex") else "inline"
    sched = create_scheduler(mode, FakeTarget(), drafter,
                             SchedulerConfig(num_speculative_tokens=2, max_batch_size=2, lanes=lanes))
    for r in reqs:
        sched.add_request(r)
    seen = []
    while sched.has_unfinished():
        unfinished = {r.request_id for r in reqs if not r.finished}
        recorded = len(sched.trace.steps)
        sched.step()
        if len(sched.trace.steps) > recorded:
            (rec,) = sched.trace.steps[recorded:]
            in_flight = unfinished - {r.request_id for r in sched.waiting}
            assert rec.running == len(in_flight), (mode, rec)
            seen.append(rec.running)
    sched.close()
    capacity = 4 if mode == "psd" else 2
    assert max(seen) == capacity and min(seen) == 1, (mode, seen)


class _LoggingDrafter(FakeDrafter):
    """Records the request ids each proposal drafted at least one token for."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.drafted: list[set[str]] = []

    def propose(self, requests, num_tokens, stop_threshold=None):
        self.drafted.append({r.request_id for r, n in zip(requests, num_tokens) if n > 0})
        return super().propose(requests, num_tokens, stop_threshold)


@pytest.mark.parametrize("mode", ["sd", "psd"])
def test_steps_flag_draft_calls_that_read_a_prompt(mode):
    """``draft_prefill`` marks exactly the steps whose draft calls included a request never
    verified before: its first draft, for which the drafter reads the prompt (under PSD
    newcomers are drafted a step before their first verification)."""
    reqs = [_req(i, n) for i, n in enumerate((3, 9, 5, 12, 7))]
    drafter = _LoggingDrafter(wrong_every=3)
    sched = create_scheduler(mode, FakeTarget(), drafter, SchedulerConfig(
        num_speculative_tokens=2, max_batch_size=2, lanes="threads" if mode == "psd" else "inline"))
    for r in reqs:
        sched.add_request(r)
    flags, expected = [], []
    while sched.has_unfinished():
        verified_before = {r.request_id: r.num_verify_steps for r in reqs}
        calls, recorded = len(drafter.drafted), len(sched.trace.steps)
        sched.step()
        if len(sched.trace.steps) > recorded:
            drafted = set().union(*drafter.drafted[calls:])
            expected.append(any(verified_before[rid] == 0 for rid in drafted))
            flags.append(sched.trace.steps[-1].draft_prefill)
    sched.close()
    assert flags == expected and 2 <= sum(flags) < len(flags), (mode, flags)
