"""The reference engine's particle capability (prefill once, fork slots) under SMC-SD:
after every fork and resampling, each particle's KV equals a fresh recomputation from
its own tokens, in the target and in the drafter."""

from __future__ import annotations

import copy

import pytest
import torch

from minedraft import SCHEDULERS, RequestState, SamplingParams, SchedulerConfig
from minedraft.adapters.reference.engines import ReferenceDrafter, ReferenceTarget
from minedraft.adapters.reference.runner import ModelRunner, Row
from minedraft.protocols import ParticleEngine
from minedraft.schedulers.smc import SMCOptions

from conftest import build_pair, tiny_llama

PROMPTS = [[5, 6, 7, 8, 9], list(range(20, 43)), [3, 4]]


@pytest.fixture(scope="module")
def models():
    target = tiny_llama(layers=2, hidden=64, seed=0)
    close = copy.deepcopy(target)  # a perturbed copy: weights differ, resampling happens
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for p in close.parameters():
            p.add_(torch.randn(p.shape, generator=gen, dtype=p.dtype) * 0.01)
    return target, close


def _kv(runner: ModelRunner, request_id: str, length: int) -> list[torch.Tensor]:
    slot = runner.slot_of[request_id]
    return [store[slot, :, :length] for store in (*runner.cache.keys, *runner.cache.values)]


def _assert_consistent(runner: ModelRunner, fresh: ModelRunner, request_id: str, tokens: list[int]) -> None:
    """The slot's cached record is a prefix of ``tokens``, its KV equals a recomputation,
    and the next-token logits from the slot equal those from scratch."""
    cached = runner.cached[request_id]
    assert tokens[: len(cached)] == cached, "cached tokens are not a prefix of the committed tokens"
    fresh.release("fresh")
    fresh.forward([Row("fresh", list(cached), 1)])
    for got, want in zip(_kv(runner, request_id, len(cached)), _kv(fresh, "fresh", len(cached))):
        torch.testing.assert_close(got, want, rtol=0, atol=1e-10)
    runner.copy_slot(request_id, "probe")  # probe a copy: the particle's own slot stays untouched
    (logits,), _ = runner.forward([Row("probe", list(tokens), 1)])
    runner.release("probe")
    fresh.release("fresh")
    (want_logits,), _ = fresh.forward([Row("fresh", list(tokens), 1)])
    torch.testing.assert_close(logits, want_logits, rtol=0, atol=1e-10)


def test_copy_slot_copies_only_what_differs_and_matches_recompute(models):
    target, _ = models
    runner, fresh = ModelRunner(target, max_slots=2), ModelRunner(target)
    a = [5, 6, 7, 8, 9, 10, 11, 12]
    b = a[:5] + [40, 41]
    runner.forward([Row("a", a, 1), Row("b", b, 1)])
    runner.copy_slot("a", "b")  # also grows the cache: two slots were not enough for the probe later
    assert runner.cached["b"] == a
    _assert_consistent(runner, fresh, "b", a + [13])
    # The next forward of b feeds only the new token: the copied KV is reused.
    _, _, _, starts = runner.forward_with_states([Row("b", a + [13], 1)])
    assert starts == [len(a)]
    runner.copy_slot("unknown", "b")  # nothing to copy from: b forgets its KV
    assert "b" not in runner.cached and "b" not in runner.slot_of


def test_prefill_once_then_fork_gives_every_particle_the_prompt(models):
    target, close = models
    pair = build_pair(target, close)
    assert isinstance(pair.target, ParticleEngine) and isinstance(pair.drafter, ParticleEngine)
    params = SamplingParams(temperature=1.0)
    prompt = PROMPTS[1]
    particles = [RequestState(prompt_ids=list(prompt), params=params, request_id=f"r#p{j}") for j in range(3)]
    for engine, model in ((pair.target, target), (pair.drafter, close)):
        engine.prefill(particles[0])
        engine.fork("r#p0", ["r#p1", "r#p2"])
        fresh = ModelRunner(model)
        for part in particles:
            assert engine.runner.cached[part.request_id] == prompt
            _assert_consistent(engine.runner, fresh, part.request_id, prompt)


def _smc(pair, prompts, seed0: int = 0, **smc):
    config = SchedulerConfig(num_speculative_tokens=3, max_batch_size=12)
    sched = SCHEDULERS["smc"](pair.target, pair.drafter, config, options=SMCOptions(**smc))
    reqs = [RequestState(prompt_ids=list(p), params=SamplingParams(temperature=1.0, max_new_tokens=14, seed=seed0 + i))
            for i, p in enumerate(prompts)]
    for r in reqs:
        sched.add_request(r)
    return sched, reqs


def test_resampling_keeps_every_particle_s_kv_consistent(models):
    target, close = models
    pair = build_pair(target, close)
    sched, reqs = _smc(pair, PROMPTS, num_particles=4, ess_threshold=1.0)  # resample whenever weights differ
    fresh_target, fresh_draft = ModelRunner(target), ModelRunner(close)
    checked_after_fork = 0
    for _ in range(100):
        if not sched.has_unfinished():
            break
        forks_before = sched.smc_stats.forks
        sched.step()
        for group in sched.smc_groups.values():
            for part in group.live():
                _assert_consistent(pair.target.runner, fresh_target, part.request_id, part.committed_ids)
                _assert_consistent(pair.drafter.runner, fresh_draft, part.request_id, part.committed_ids)
                checked_after_fork += sched.smc_stats.forks > forks_before
    assert not sched.has_unfinished()
    assert sched.smc_stats.resamples > 0 and checked_after_fork > 0
    assert all(len(r.output_ids) == 14 and r.error is None for r in reqs)


def test_forking_and_recomputing_engines_agree(models):
    """Engines without the capability are released and recompute; the output is the same
    whichever engines fork, and a forking target is fed fewer tokens (the prompt once per
    request)."""
    target, close = models
    fed: dict[str, int] = {}

    def counting(pair, name):
        runner = pair.target.runner
        inner = runner._forward_group_states

        def wrapped(rows, starts):
            fed[name] = fed.get(name, 0) + sum(len(r.tokens) - s for r, s in zip(rows, starts))
            return inner(rows, starts)

        runner._forward_group_states = wrapped
        return pair

    forking = counting(build_pair(target, close), "fork")
    plain = copy.copy(forking)
    plain.target = ReferenceTarget(ModelRunner(target), max_context=256)
    plain.drafter = ReferenceDrafter(ModelRunner(close))
    assert not isinstance(plain.target, ParticleEngine) and not isinstance(plain.drafter, ParticleEngine)
    counting(plain, "plain")
    mixed = counting(build_pair(target, close), "mixed")
    mixed.drafter = ReferenceDrafter(ModelRunner(close))
    outputs = []
    for pair in (forking, plain, mixed):
        sched, reqs = _smc(pair, PROMPTS, seed0=100, num_particles=4, ess_threshold=0.8)
        for _ in range(100):
            if not sched.has_unfinished():
                break
            sched.step()
        assert sched.smc_stats.resamples > 0
        outputs.append([r.output_ids for r in reqs])
    assert outputs[0] == outputs[1] == outputs[2]
    assert fed["fork"] == fed["mixed"] < fed["plain"] - 2 * sum(len(p) for p in PROMPTS)
