"""SMC-SD: weight, ESS and resampling arithmetic; the scheduler on a model-free bigram
engine (reduction to exact sampling with N = 1 and draft == target, correction of a wrong
draft by the weights, greedy exactness, PSD composition, errors and cancellation).

Statistical checks use fixed seeds and chi-square tests (p > 1e-3) or tolerances several
standard errors wide."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import pytest
import torch
from scipy.stats import chisquare

from minedraft import (
    LLM,
    SCHEDULERS,
    DraftBlock,
    InvalidInputError,
    RequestState,
    SamplingParams,
    VerifyScores,
)
from minedraft.backends import EnginePair
from minedraft.bench.drift import measure_drift
from minedraft.rules.smc_weights import (
    SMCOutcome,
    effective_sample_size,
    keep_survivors,
    log_weight_increments,
    multinomial_resample,
    normalized_weights,
    select_particle,
    smc_verify,
    systematic_resample,
)
from minedraft.sampling import processed_probs, row_params, sample_rows
from minedraft.schedulers import SchedulerConfig, create_scheduler
from minedraft.schedulers.smc import SMCOptions
from minedraft.types import VerifyOutcome

V = 4  # bigram vocabulary


# -- a model-free engine: next-token logits depend on the last token only ----------------------
class Bigram:
    """Drafter and Target over a fixed bigram logit table ``[V, V]`` (stateless)."""

    def __init__(self, table: torch.Tensor, with_probs: bool = True) -> None:
        self.table = table.double()
        self.vocab_size = table.shape[0]
        self.max_context = 512
        self.with_probs = with_probs
        self.released: list[str] = []
        self.batches: list[list[str]] = []

    def propose(self, requests: Sequence[RequestState], num_tokens: Sequence[int], stop_threshold=None) -> DraftBlock:
        drafted: list[list[int]] = [[] for _ in requests]
        probs: list[list[torch.Tensor]] = [[] for _ in requests]
        last = [r.committed_ids[-1] for r in requests]
        for step in range(max(num_tokens, default=0)):
            rows = [i for i, n in enumerate(num_tokens) if n > step]
            q = processed_probs(self.table[[last[i] for i in rows]], *row_params([requests[i].params for i in rows]))
            tokens = sample_rows(q, [requests[i].draft_generator for i in rows]).tolist()  # [rows]
            for j, i in enumerate(rows):
                last[i] = tokens[j]
                drafted[i].append(tokens[j])
                probs[i].append(q[j])
        cu = torch.zeros(len(requests) + 1, dtype=torch.long)
        cu[1:] = torch.cumsum(torch.tensor([len(d) for d in drafted], dtype=torch.long), 0)
        flat = [row for rows in probs for row in rows]
        return DraftBlock(
            [r.request_id for r in requests], torch.tensor([t for d in drafted for t in d], dtype=torch.long), cu,
            draft_probs=(torch.stack(flat) if flat else torch.zeros(0, V)) if self.with_probs else None,
        )

    def score(self, requests: Sequence[RequestState], block: DraftBlock) -> VerifyScores:
        self.batches.append([r.request_id for r in requests])
        rows, sizes = [], []
        for i, req in enumerate(requests):
            seq = [req.committed_ids[-1]] + block.tokens_of(i)
            rows += [self.table[t] for t in seq]
            sizes.append(len(seq))
        cu = torch.zeros(len(requests) + 1, dtype=torch.long)
        cu[1:] = torch.cumsum(torch.tensor(sizes), 0)
        return VerifyScores(torch.stack(rows), cu)

    def on_verified(self, outcome: VerifyOutcome) -> None:
        pass

    def release(self, request_id: str) -> None:
        self.released.append(request_id)


TARGET = torch.tensor([[1.0, 0.2, -0.5, 0.3], [0.0, 1.2, 0.4, -1.0], [-0.3, 0.1, 0.9, 0.5], [0.6, -0.8, 0.2, 1.1]])
WRONG_DRAFT = torch.tensor([[-1.0, 1.2, 0.5, 0.0], [0.8, -0.5, 0.4, 0.6], [0.7, 0.3, -0.9, 0.2], [0.1, 0.9, 0.6, -0.7]])


def _bigram_probs(table: torch.Tensor, temperature: float) -> torch.Tensor:  # [V, V]
    return torch.softmax(table.double() / temperature, -1)


def _run(mode: str, target, drafter, reqs: list[RequestState], k: int = 2, **smc) -> object:
    config = SchedulerConfig(num_speculative_tokens=k, max_batch_size=256)
    sched = SCHEDULERS[mode](target, drafter, config, options=SMCOptions(**smc))
    pending = list(reqs)
    steps = 0
    while pending or sched.has_unfinished():
        while pending and len(sched.waiting) < 64:  # keep the waiting queue short: cheap bookkeeping
            sched.add_request(pending.pop(0))
        sched.step()
        steps += 1
        assert steps < 2_000
    sched.close()
    return sched


def _requests(n: int, temperature: float, max_new: int, seed0: int = 0, prompt: int = 0) -> list[RequestState]:
    return [RequestState(prompt_ids=[prompt], params=SamplingParams(temperature=temperature, max_new_tokens=max_new,
                                                                   seed=seed0 + i)) for i in range(n)]


# -- weights and ESS ---------------------------------------------------------------------------
def test_log_weight_increments_are_log_p_minus_log_q_prime():
    p = torch.tensor([[0.5, 0.3, 0.2, 0.0], [0.1, 0.1, 0.4, 0.4], [0.25, 0.25, 0.25, 0.25]])
    q = torch.tensor([[0.25, 0.25, 0.25, 0.25], [0.7, 0.1, 0.1, 0.1], [0.0, 0.5, 0.5, 0.0]])
    inc = log_weight_increments(torch.tensor([1, 2, 1]), p, q)
    assert inc.dtype == torch.float64
    # Row 0: q puts 0.25 on the token p rules out, whose draws are replaced by draws from p,
    # so q' = q + 0.25 p there; rows 1 and 2: q' = q.
    assert inc.tolist() == pytest.approx([math.log(0.3 / (0.25 + 0.25 * 0.3)), math.log(0.4 / 0.1),
                                          math.log(0.25 / 0.5)])
    # A token q' cannot propose (q = 0 and no mass outside p's support: impossible for a real draw): -inf.
    inc = log_weight_increments(torch.tensor([1, 2, 0]), p, q)
    assert inc[2] == -math.inf and math.isfinite(float(inc[1]))


def test_ess_arithmetic():
    assert effective_sample_size(torch.zeros(8)) == pytest.approx(8.0)
    assert effective_sample_size(torch.tensor([0.0, -math.inf, -math.inf])) == pytest.approx(1.0)
    w = torch.tensor([0.5, 0.25, 0.25], dtype=torch.float64)
    assert effective_sample_size(w.log()) == pytest.approx(1 / (0.25 + 0.0625 + 0.0625))
    # Only ratios matter, and huge log-weights do not overflow.
    assert effective_sample_size(w.log() + 1e4) == pytest.approx(effective_sample_size(w.log()))
    assert normalized_weights(torch.tensor([1000.0, 1000.0])).tolist() == pytest.approx([0.5, 0.5])
    # Every weight zero: no information, treated as uniform.
    assert normalized_weights(torch.full((4,), -math.inf)).tolist() == [0.25] * 4
    assert effective_sample_size(torch.full((4,), -math.inf)) == pytest.approx(4.0)


def test_systematic_resampling_counts_and_unbiasedness():
    w = torch.tensor([0.05, 0.0, 0.42, 0.13, 0.3, 0.1])
    n = w.numel()
    totals = torch.zeros(n, dtype=torch.float64)
    gen = torch.Generator().manual_seed(7)
    reps = 4000
    for _ in range(reps):
        anc = systematic_resample(w.log(), gen)
        assert anc == sorted(anc) and len(anc) == n
        counts = torch.bincount(torch.tensor(anc), minlength=n).double()
        # Low variance: floor(N w) or ceil(N w) copies; a zero weight never survives.
        assert bool(((counts >= torch.floor(n * w) - 1e-9) & (counts <= torch.ceil(n * w) + 1e-9)).all()), counts
        totals += counts
    assert (totals / reps).tolist() == pytest.approx((n * w).tolist(), abs=0.03)


def test_multinomial_resampling_is_unbiased():
    w = torch.tensor([0.05, 0.0, 0.42, 0.13, 0.3, 0.1])
    gen = torch.Generator().manual_seed(11)
    draws = [a for _ in range(3000) for a in multinomial_resample(w.log(), gen)]
    counts = torch.bincount(torch.tensor(draws), minlength=6).double()
    assert counts[1] == 0
    support = w > 0
    _, pvalue = chisquare(counts[support].numpy(), (w[support] / w.sum() * counts.sum()).numpy())
    assert pvalue > 1e-3


def test_keep_survivors_preserves_offspring_and_fixes_survivors():
    for anc in ([2, 2, 2, 4, 4, 5], [0, 0, 0, 0], [1, 3, 3, 3], [0, 1, 2, 3]):
        out = keep_survivors(anc)
        assert Counter(out) == Counter(anc)
        assert all(out[a] == a for a in set(anc))


def test_select_particle_rules():
    lw = torch.tensor([0.1, 2.0, 2.0, -math.inf]).double()
    assert select_particle(lw, "argmax") == 1  # first maximum
    gen = torch.Generator().manual_seed(3)
    picks = torch.tensor([select_particle(lw, "sample", gen) for _ in range(6000)])
    counts = torch.bincount(picks, minlength=4).double()
    w = normalized_weights(lw)
    assert counts[3] == 0
    _, pvalue = chisquare(counts[:3].numpy(), (w[:3] * counts.sum()).numpy())
    assert pvalue > 1e-3


@pytest.mark.parametrize(
    "kwargs, name",
    [(dict(num_particles=0), "num_particles"), (dict(ess_threshold=1.5), "ess_threshold"),
     (dict(resampling="stratified"), "resampling"), (dict(output="best"), "output")],
)
def test_options_are_validated(kwargs, name):
    with pytest.raises(InvalidInputError, match=name):
        SMCOptions(**kwargs)


def _smc_cycle(ruled_out_at: int | None, seed: int = 0):
    """One particle, k = 2 drafts under top_k = 3, the draft at ``ruled_out_at`` (if any)
    outside the target's top 3, the others inside."""
    gen = torch.Generator().manual_seed(seed)
    params = SamplingParams(temperature=0.7, top_k=3, seed=seed)
    logits = torch.randn(3, V, generator=gen)  # [k + 1, vocab] target
    q = processed_probs(torch.randn(2, V, generator=gen), *row_params([SamplingParams(temperature=0.7)] * 2))  # [k, vocab]
    p = processed_probs(logits, *row_params([params] * 3))  # [k + 1, vocab]
    drafts = [int(torch.argmax(p[j])) if j != ruled_out_at else int(torch.argmin(p[j])) for j in range(2)]
    req = RequestState(prompt_ids=[0], params=params, request_id="r#p0")
    block = DraftBlock(["r#p0"], torch.tensor(drafts), torch.tensor([0, 2]), draft_probs=q)
    return smc_verify(block, VerifyScores(logits, torch.tensor([0, 3])), [req]), drafts, p, q


def test_smc_verify_keeps_drafts_weighs_them_and_adds_a_bonus():
    out, drafts, p, q = _smc_cycle(None)
    assert isinstance(out, SMCOutcome)
    assert out.num_accepted == [2] and out.emitted[0][:2] == drafts and len(out.emitted[0]) == 3
    assert p[2, out.emitted[0][2]] > 0  # the bonus token comes from the processed target
    outside = [float(q[j][p[j] == 0].sum()) for j in range(2)]  # q(Z): all of q's mass the top-3 target rules out
    want = [math.log(p[j, d] / (q[j, d] + outside[j] * p[j, d])) for j, d in enumerate(drafts)]
    assert out.log_ratios[0] == pytest.approx(want, rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("at", [0, 1])
def test_smc_verify_replaces_a_draft_the_target_rules_out(at):
    # The drafts end before the ruled-out one; a draw from p takes its place, weighed by q'.
    for seed in range(20):
        out, drafts, p, q = _smc_cycle(at, seed)
        tokens = out.emitted[0]
        assert out.num_accepted == [at] and tokens[:at] == drafts[:at] and len(tokens) == at + 1
        assert all(p[j, t] > 0 for j, t in enumerate(tokens))  # never outside the target's top-k
        outside = [float(q[j][p[j] == 0].sum()) for j in range(at + 1)]
        want = [math.log(p[j, t] / (q[j, t] + outside[j] * p[j, t])) for j, t in enumerate(tokens)]
        assert out.log_ratios[0] == pytest.approx(want, rel=1e-5, abs=1e-6)


# -- the scheduler -----------------------------------------------------------------------------
def test_modes_are_registered_and_marked_approximate():
    assert SCHEDULERS["smc"].exact is False and SCHEDULERS["smc-psd"].exact is False
    assert getattr(SCHEDULERS["sd"], "exact", True) is True


def test_one_particle_with_draft_equal_to_target_is_exact_sampling():
    """N = 1 keeps every draft unweighted: exact only because q == p. With k = 2 and five
    tokens the output is draft, draft, bonus, draft, bonus."""
    temperature = 0.8
    engine = Bigram(TARGET)
    reqs = _requests(4000, temperature, max_new=5)
    sched = _run("smc", engine, Bigram(TARGET), reqs, num_particles=1)
    probs = _bigram_probs(TARGET, temperature)
    joint = torch.zeros(V, V, V, dtype=torch.float64)  # exact law of tokens 2..4 given token 1
    counts = torch.zeros(V, V, V, dtype=torch.float64)
    for r in reqs:
        assert len(r.output_ids) == 5 and r.error is None
        counts[tuple(r.output_ids[1:4])] += 1
    first = torch.tensor([r.output_ids[0] for r in reqs])
    _, p1 = chisquare(torch.bincount(first, minlength=V).numpy(), (probs[0] * len(reqs)).numpy())
    assert p1 > 1e-3
    # Tokens 2..4 (draft, bonus, draft) given token 1, pooled over token 1.
    for a in range(V):
        for b in range(V):
            for c in range(V):
                joint[a, b, c] = sum(probs[0, x] * probs[x, a] for x in range(V)) * probs[a, b] * probs[b, c]
    _, p2 = chisquare(counts.flatten().numpy(), (joint.flatten() * len(reqs)).numpy())
    assert p2 > 1e-3
    assert sched.smc_stats.collapses == 0 and sched.smc_stats.resamples == 0


def _sir_law(p: torch.Tensor, q: torch.Tensor, n: int, draws: int = 400_000) -> torch.Tensor:
    """Monte Carlo law of importance resampling: draw n outcomes from q, keep one with
    probability proportional to p / q. What one SMC cycle returns under the "sample" rule."""
    gen = torch.Generator().manual_seed(123)
    idx = torch.multinomial(q, draws * n, replacement=True, generator=gen).view(draws, n)  # [draws, n]
    pick = torch.multinomial((p / q)[idx], 1, generator=gen).squeeze(1)
    return torch.bincount(idx[torch.arange(draws), pick], minlength=p.numel()).double() / draws


def test_weights_correct_a_wrong_draft():
    """Tokens 1 and 2 are drafts, and with three tokens there is one cycle and no
    resampling. Unweighted (N = 1) they follow q; with N = 8 particles their law is that of
    importance resampling with weights p / q, much closer to the target (but not equal:
    SMC-SD is approximate)."""
    temperature, n_reqs, n_particles = 1.0, 1000, 8
    p, q = _bigram_probs(TARGET, temperature), _bigram_probs(WRONG_DRAFT, temperature)
    p_pair = (p[0].unsqueeze(1) * p).flatten()  # [V * V] law of tokens 1, 2 under the target
    q_pair = (q[0].unsqueeze(1) * q).flatten()

    def counts(reqs) -> torch.Tensor:
        return torch.bincount(torch.tensor([r.output_ids[0] * V + r.output_ids[1] for r in reqs]), minlength=V * V)

    def tv(c: torch.Tensor, law: torch.Tensor) -> float:
        return 0.5 * float((c.double() / c.sum() - law).abs().sum())

    one = _requests(n_reqs, temperature, max_new=3)
    _run("smc", Bigram(TARGET), Bigram(WRONG_DRAFT), one, num_particles=1)
    many = _requests(n_reqs, temperature, max_new=3, seed0=10_000)
    sched = _run("smc", Bigram(TARGET), Bigram(WRONG_DRAFT), many, num_particles=n_particles)
    sir = _sir_law(p_pair, q_pair, n_particles)
    _, p_one = chisquare(counts(one).numpy(), (q_pair * n_reqs).numpy())
    _, p_many = chisquare(counts(many).numpy(), (sir * n_reqs).numpy())
    assert p_one > 1e-3 and p_many > 1e-3, (p_one, p_many)
    assert tv(counts(many), p_pair) < 0.5 * tv(counts(one), p_pair)
    assert sched.smc_stats.mean_ess_fraction < 0.9  # the weights did differ


def _smc_reference(p: torch.Tensor, q: torch.Tensor, n: int, draws: int = 60_000) -> torch.Tensor:
    """An independent, vectorised SMC-SD on the bigram pair: two cycles of (draft, draft,
    bonus), multinomial resampling after each, then a uniform pick. The law of tokens
    (1, 4), as a [V * V] vector."""
    gen = torch.Generator().manual_seed(321)
    last = torch.zeros(draws * n, dtype=torch.long)
    kept: list[torch.Tensor] = []
    for _ in range(2):
        log_w = torch.zeros(draws * n, dtype=torch.float64)
        for _ in range(2):
            x = torch.multinomial(q[last], 1, generator=gen).squeeze(1)
            log_w += (p[last, x] / q[last, x]).log()
            kept.append(x)
            last = x
        last = torch.multinomial(p[last], 1, generator=gen).squeeze(1)
        ancestors = torch.multinomial(torch.softmax(log_w.view(draws, n), -1), n, replacement=True, generator=gen)
        flat = (ancestors + torch.arange(draws).unsqueeze(1) * n).flatten()
        last, kept = last[flat], [t[flat] for t in kept]
    pair = (kept[0] * V + kept[2]).view(draws, n)[:, 0]  # tokens 1 and 4 (token 3 is the bonus)
    return torch.bincount(pair, minlength=V * V).double() / draws


def test_resampling_over_several_cycles_matches_a_reference_smc():
    """Forced resampling (threshold 1) every cycle with a wrong draft; seven tokens are two
    full cycles and a bonus-only one (no weight, no resampling). The law of tokens 1 and 4
    (a draft of each cycle) matches an independent implementation: resampling copies
    whole histories and resets the weights."""
    temperature, n_reqs, n_particles = 1.0, 800, 8
    reqs = _requests(n_reqs, temperature, max_new=7, seed0=500)
    sched = _run("smc", Bigram(TARGET), Bigram(WRONG_DRAFT), reqs, num_particles=n_particles, ess_threshold=1.0,
                 resampling="multinomial")
    assert all(len(r.output_ids) == 7 for r in reqs)
    assert sched.smc_stats.resamples >= 2 * n_reqs - 5 and sched.smc_stats.forks > 0
    law = _smc_reference(_bigram_probs(TARGET, temperature), _bigram_probs(WRONG_DRAFT, temperature), n_particles)
    counts = torch.bincount(torch.tensor([r.output_ids[0] * V + r.output_ids[3] for r in reqs]), minlength=V * V)
    support = law > 0
    _, pvalue = chisquare(counts[support].numpy(), (law[support] * n_reqs).numpy())
    assert pvalue > 1e-3, (counts.tolist(), (law * n_reqs).tolist())


@pytest.mark.parametrize("threshold", [0.0, 1.0])
def test_resampling_resets_the_weights_and_the_threshold_decides(threshold):
    """ESS < threshold * N triggers resampling, after which all log-weights are 0; with
    threshold 0 the weights accumulate across cycles."""
    config = SchedulerConfig(num_speculative_tokens=2)
    sched = SCHEDULERS["smc"](Bigram(TARGET), Bigram(WRONG_DRAFT), config,
                              options=SMCOptions(num_particles=6, ess_threshold=threshold))
    req = _requests(1, 1.0, max_new=30, seed0=3)[0]
    sched.add_request(req)
    sched.step()
    group = sched.smc_groups[req.request_id]
    first = group.log_weights.clone()
    sched.step()
    if threshold == 0.0:
        assert sched.smc_stats.resamples == 0
        assert bool((first != 0).any()) and bool((group.log_weights != first).any())
    else:
        assert sched.smc_stats.resamples == 2 and sched.smc_stats.forks > 0
        assert group.log_weights.tolist() == [0.0] * 6
        # Survivors keep their slot; copies share a survivor's whole history.
        histories = [tuple(p.output_ids) for p in group.particles]
        assert len(set(histories)) < 6 and all(len(h) == 6 for h in histories)


def test_greedy_requests_follow_the_exact_greedy_rule():
    reqs = _requests(3, 0.0, max_new=9)
    _run("smc", Bigram(TARGET), Bigram(WRONG_DRAFT), reqs, num_particles=8)
    seq, last = [], 0
    for _ in range(9):
        last = int(torch.argmax(TARGET[last]))
        seq.append(last)
    assert all(r.output_ids == seq for r in reqs)


@pytest.mark.parametrize("mode", ["smc", "smc-psd"])
def test_a_point_mass_target_is_followed_whatever_the_draft(mode):
    # top_k = 1 makes p a point mass: the wrong draft's tokens are ruled out and replaced,
    # never kept (they used to collapse every weight to -inf and be returned).
    reqs = [RequestState(prompt_ids=[0], params=SamplingParams(temperature=1.0, top_k=1, seed=i, max_new_tokens=9))
            for i in range(6)]
    sched = _run(mode, Bigram(TARGET), Bigram(WRONG_DRAFT), reqs, num_particles=4)
    seq, last = [], 0
    for _ in range(9):
        last = int(torch.argmax(TARGET[last]))
        seq.append(last)
    assert [r.output_ids for r in reqs] == [seq] * 6 and sched.smc_stats.collapses == 0


def test_sampled_output_stays_inside_the_targets_top_k():
    reqs = _requests(300, 1.0, max_new=6)
    reqs = [RequestState(r.prompt_ids, SamplingParams(temperature=1.0, top_k=2, seed=i, max_new_tokens=6))
            for i, r in enumerate(reqs)]
    _run("smc", Bigram(TARGET), Bigram(WRONG_DRAFT), reqs, num_particles=4)
    allowed = {a: set(torch.topk(TARGET[a], 2).indices.tolist()) for a in range(V)}
    for r in reqs:
        seq = r.prompt_ids + r.output_ids
        assert all(b in allowed[a] for a, b in zip(seq, seq[1:])), seq


def test_psd_keeps_a_request_s_particles_together_and_matches_sequential():
    n_particles = 4
    target = Bigram(TARGET)
    psd_reqs = _requests(6, 1.0, max_new=9, seed0=42)
    config = SchedulerConfig(num_speculative_tokens=2, max_batch_size=8, lanes="threads")
    sched = SCHEDULERS["smc-psd"](target, Bigram(WRONG_DRAFT), config,
                                  options=SMCOptions(num_particles=n_particles, ess_threshold=0.9))
    for r in psd_reqs:
        sched.add_request(r)
    for _ in range(1000):
        if not sched.has_unfinished():
            break
        sched.step()
    sched.close()
    assert not sched.has_unfinished()
    assert sum(s.overlapped for s in sched.trace.steps) > 0
    for ids in target.batches:
        per_request = Counter(pid.split("#")[0] for pid in ids)
        assert set(per_request.values()) == {n_particles}, per_request
    seq_reqs = _requests(6, 1.0, max_new=9, seed0=42)
    _run("smc", Bigram(TARGET), Bigram(WRONG_DRAFT), seq_reqs, num_particles=n_particles, ess_threshold=0.9)
    assert [r.output_ids for r in psd_reqs] == [r.output_ids for r in seq_reqs]
    assert sched.smc_stats.resamples > 0


def test_max_batch_size_counts_requests_each_with_all_its_particles():
    target = Bigram(TARGET)
    reqs = _requests(5, 1.0, max_new=6, seed0=9)
    sched = SCHEDULERS["smc"](target, Bigram(WRONG_DRAFT), SchedulerConfig(num_speculative_tokens=2, max_batch_size=2),
                              options=SMCOptions(num_particles=3))
    for r in reqs:
        sched.add_request(r)
    for _ in range(100):
        if not sched.has_unfinished():
            break
        sched.step()
    assert all(len(r.output_ids) == 6 for r in reqs)
    per_batch = [Counter(pid.split("#")[0] for pid in ids) for ids in target.batches]
    assert max(len(c) for c in per_batch) == 2 and all(set(c.values()) == {3} for c in per_batch)


def test_eos_freezes_a_particle_and_the_request_ends_when_all_have():
    eos = 3
    reqs = _requests(40, 1.0, max_new=30, seed0=7)
    sched = create_scheduler("smc", Bigram(TARGET), Bigram(WRONG_DRAFT),
                             SchedulerConfig(num_speculative_tokens=3, eos_token_ids=(eos,)))
    for r in reqs:
        sched.add_request(r)
    for _ in range(1000):
        if not sched.has_unfinished():
            break
        sched.step()
    for r in reqs:
        assert r.finish_reason is not None and r.error is None
        assert eos not in r.output_ids[:-1]  # nothing after a stop token
        assert (r.output_ids[-1] == eos) == (r.finish_reason.value == "stop")
    assert any(r.finish_reason.value == "stop" for r in reqs)


def test_drafter_without_q_fails_the_request_with_a_message():
    reqs = _requests(2, 1.0, max_new=5)
    _run("smc", Bigram(TARGET), Bigram(TARGET, with_probs=False), reqs)
    assert all(r.finish_reason.value == "error" and "draft_probs" in (r.error or "") for r in reqs)


def test_cancel_releases_every_particle():
    target, drafter = Bigram(TARGET), Bigram(WRONG_DRAFT)
    sched = create_scheduler("smc", target, drafter, SchedulerConfig(num_speculative_tokens=2))
    req = _requests(1, 1.0, max_new=50)[0]
    sched.add_request(req)
    sched.step()
    sched.cancel(req.request_id)
    assert not sched.has_unfinished() and req.finish_reason.value == "cancelled"
    for engine in (target, drafter):
        assert {f"{req.request_id}#p{j}" for j in range(4)} <= set(engine.released)
    assert not sched.smc_groups and not sched._owner


def test_llm_runs_smc_mode_with_given_engines():
    pair = EnginePair(target=Bigram(TARGET), drafter=Bigram(WRONG_DRAFT), tokenizer=None)
    llm = LLM(None, None, mode="smc", engines=pair, num_speculative_tokens=3)
    outs = llm.generate([[0], [1, 2]], SamplingParams(temperature=0.9, max_new_tokens=8, seed=1))
    assert [len(o.token_ids) for o in outs] == [8, 8] and all(o.finish_reason == "length" for o in outs)
    assert llm.last_trace.smc_stats.cycles > 0
    # Trace rows: engine work counts particles, emitted counts what the requests received.
    steps = llm.last_trace.steps
    assert sum(s.emitted for s in steps) == 16
    assert sum(s.verify_batch for s in steps) == 4 * 2 * 2  # 4 particles, 2 requests, 2 cycles of 4 tokens


def test_measure_drift_figures_are_right_on_a_known_chain():
    """Exact sampling's figures match their closed forms on the bigram chain (per-token
    entropy, probability of the argmax); an unweighted wrong draft (N = 1) drifts."""
    h, samples = 6, 300
    pair = EnginePair(target=Bigram(TARGET), drafter=Bigram(WRONG_DRAFT), tokenizer=None)
    report = measure_drift(pair, [[0], [2]], modes=("smc",), samples=samples, max_new_tokens=h,
                           num_speculative_tokens=2, smc=SMCOptions(num_particles=1), temperature=1.0)
    ar, smc = report["modes"]["ar"], report["modes"]["smc"]
    p = _bigram_probs(TARGET, 1.0)
    entropy, top = -(p * p.log()).sum(-1), p.max(-1).values  # [V] per state
    want_nll = want_agree = 0.0
    for start in (0, 2):
        state = torch.zeros(V, dtype=torch.float64)
        state[start] = 1.0
        for _ in range(h):
            want_nll += float(state @ entropy) / (2 * h)
            want_agree += float(state @ top) / (2 * h)
            state = state @ p
    assert abs(ar["nll"] - want_nll) < 4 * ar["nll_se"]
    assert abs(ar["greedy_agreement"] - want_agree) < 4 * ar["greedy_agreement_se"]
    assert ar["tokens_per_pass"] == 1.0 and smc["tokens_per_pass"] == 3.0
    q = _bigram_probs(WRONG_DRAFT, 1.0)
    kl_q = 0.5 * sum(float((q[s] * (q[s] / p[s]).log()).sum()) for s in (0, 2))  # the first token follows q
    assert ar["first_token_kl"] < 0.05 and abs(smc["first_token_kl"] - kl_q) < 0.1 * kl_q
    with pytest.raises(InvalidInputError, match="temperature"):
        measure_drift(pair, [[0]], temperature=0.0)
