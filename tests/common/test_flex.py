"""The flex policy on synthetic cost tables: switch points, k choice, acceptance estimates,
hysteresis and warm-up. Pure bookkeeping: no models, no clocks."""

from __future__ import annotations

import math
import random

import pytest

from minedraft import InvalidInputError
from minedraft.rules.acceptance import RequestObservation
from minedraft.rules.cost_model import CostModel, expected_tokens
from minedraft.rules.flex_policy import FAMILY, PROBE_BACKOFF, Decision, FlexPolicy, FlexSettings
from minedraft.schedulers.options import DraftOptions


def table(d0: float, d1: float, v0: float, v1: float, v2: float, window: int = 256) -> CostModel:
    """A CostModel fed exact observations of T_d = k (d0 + d1 b), T_v = v0 + v1 b + v2 b (k + 1)."""
    model = CostModel(window=window)
    for b in (1, 2, 4, 8, 16):
        for k in (0, 1, 2, 4, 6):
            if k:
                model.observe_draft(b, k, k * (d0 + d1 * b))
            model.observe_verify(b, k, v0 + v1 * b + v2 * b * (k + 1))
    return model


def exact(alpha: float, ks: tuple[int, ...], overlapped: CostModel, sequential: CostModel | None = None,
          **settings) -> FlexPolicy:
    """A policy past warm-up, with one acceptance alpha for every request (no observations:
    the prior is alpha) and no confidence stop, deciding on every call (no hysteresis), every
    request drafting the batch's k (the closed forms assume it)."""
    s = dict(ks=ks, warmup=False, margin=0.0, patience=1, prior_alpha=alpha, per_request_k=False)
    s.update(settings)
    return FlexPolicy(ks[0], FlexSettings(**s), overlapped=overlapped, sequential=sequential or overlapped)


def split(n: int) -> tuple[list[str], list[str]]:
    ids = [f"r{i}" for i in range(n)]
    half = (n + 1) // 2
    return ids[:half], ids[half:]


def test_predictions_equal_cost_model_formulas():
    model = table(0.002, 0.0004, 0.01, 0.0003, 0.0009)
    model.overhead = 0.0015
    policy = exact(0.7, (3,), model)
    policy.overhead["overlapped"] = 0.0015
    for n in (2, 6, 12):
        groups = split(n)
        for mode, batch in (("ar", n), ("sd", n), ("psd", n // 2)):
            want = model.predict(mode, batch, 3, 0.7).tokens_per_second
            assert policy.predict(mode, 3, groups) == pytest.approx(want, rel=1e-9)
    assert expected_tokens(0.7, 3, 1.0) == pytest.approx((1 - 0.7**4) / (1 - 0.7))


def test_psd_sd_switch_point_lands_on_the_analytic_crossover():
    # Same costs in both families, verification-bound PSD (T_v(b) >= T_d(b) for all b):
    # PSD's cycle over N requests is T_v(a) + T_v(N - a) = 2 v0 + w N with w = v1 + v2 (k + 1);
    # SD's step is k d0 + k d1 N + v0 + w N. PSD wins iff k d1 N > v0 - k d0.
    d0, d1, v0, v1, v2, k = 0.001, 0.0005, 0.021, 0.0005, 0.0005, 4
    crossover = (v0 - k * d0) / (k * d1)  # 8.5
    policy = exact(0.8, (k,), table(d0, d1, v0, v1, v2))
    for b in range(1, 13):
        assert v0 + v1 * b + v2 * b * (k + 1) >= k * (d0 + d1 * b)  # the regime the formula assumes
    modes = {n: policy.decide(split(n)).mode for n in range(2, 25)}
    assert modes == {n: "sd" if n < crossover else "psd" for n in range(2, 25)}


def test_sd_ar_switch_point_lands_on_the_analytic_crossover():
    # SD wins iff E (v0 + (v1 + v2) N) > k d0 + v0 + (k d1 + v1 + v2 (k + 1)) N.
    d0, d1, v0, v1, v2, k, alpha = 0.0005, 0.0002, 0.02, 0.0005, 0.0005, 2, 0.3
    e = (1 - alpha ** (k + 1)) / (1 - alpha)
    crossover = ((e - 1) * v0 - k * d0) / (k * d1 + v1 + v2 * (k + 1) - e * (v1 + v2))  # ~6.7
    assert 3 < crossover < 20
    policy = exact(alpha, (k,), table(d0, d1, v0, v1, v2))
    modes = {n: policy.decide(split(n), overlap=False).mode for n in range(1, 21)}
    assert modes == {n: "sd" if n < crossover else "ar" for n in range(1, 21)}


def test_contended_overlap_per_batch_size_matches_the_closed_forms():
    """Overlapped steps 1.3x slower (the lanes share the hardware), odd N included (unequal
    sub-batches). The expected mode per N comes from the closed forms, written out here."""
    d0, d1, v0, v1, v2, k, alpha, rho = 0.002, 0.0003, 0.01, 0.0002, 0.0003, 4, 0.8, 1.3

    def t_d(b):
        return k * (d0 + d1 * b)

    def t_v(b, kk=k):
        return v0 + v1 * b + v2 * b * (kk + 1)

    seq = table(d0, d1, v0, v1, v2)
    ov = table(rho * d0, rho * d1, rho * v0, rho * v1, rho * v2)
    policy = exact(alpha, (k,), ov, seq)
    e = (1 - alpha ** (k + 1)) / (1 - alpha)
    expected = {}
    for n in range(2, 33):
        a, b = (n + 1) // 2, n // 2
        psd = n * e / (rho * (max(t_d(b), t_v(a)) + max(t_d(a), t_v(b))))
        sd = n * e / (t_d(n) + t_v(n))
        ar = n / t_v(n, 0)
        expected[n] = max((psd, "psd"), (sd, "sd"), (ar, "ar"))[1]
    assert [expected[n] for n in (2, 14, 32)] == ["sd", "psd", "ar"]  # the table has switches to find
    assert {n: policy.decide(split(n)).mode for n in range(2, 33)} == expected


def test_k_is_the_argmax_of_the_closed_form():
    d0, d1, v0, v1, v2 = 0.0002, 0.00002, 0.01, 0.0002, 0.0001  # cheap drafts: SD beats AR
    model = table(d0, d1, v0, v1, v2)
    ks = (1, 2, 3, 4, 5, 6, 8)
    chosen = {}
    for alpha in (0.2, 0.5, 0.8, 0.95):
        policy = exact(alpha, ks, model)
        decision = policy.decide(split(6), overlap=False)
        assert decision.mode == "sd"

        def sd(k, alpha=alpha):
            return 6 * expected_tokens(alpha, k) / (k * (d0 + d1 * 6) + v0 + v1 * 6 + v2 * 6 * (k + 1))

        assert decision.k == max(ks, key=sd)
        chosen[alpha] = decision.k
    assert chosen[0.95] > chosen[0.5] >= chosen[0.2]  # longer drafts when they get accepted


def test_per_request_acceptance_enters_the_prediction():
    model = table(0.001, 0.0002, 0.01, 0.0002, 0.0004)
    policy = exact(0.5, (4,), model)
    for _ in range(50):
        policy.observe_requests([RequestObservation("a", 4, 4), RequestObservation("b", 4, 0)])
    alphas = [policy.acceptance.alpha(r, steady=True) for r in ("a", "b")]
    step = model.t_draft(2, 4) + model.t_verify(2, 4)
    want = sum(expected_tokens(a, 4) for a in alphas) / step
    assert policy.predict("sd", 4, (["a"], ["b"])) == pytest.approx(want)
    # Not the same as the prediction at the mean alpha (E[tau] is convex in alpha here).
    assert want != pytest.approx(2 * expected_tokens(sum(alphas) / 2, 4) / step, rel=1e-3)
    # Per-request caps below k: each request's tokens at its own cap, the width the longest.
    tokens, seconds = policy.predict_step("sd", 4, (["a"], ["b"]), {"a": 2, "b": 0})
    assert tokens == pytest.approx(expected_tokens(alphas[0], 2) + 1.0)
    assert seconds == pytest.approx(model.t_draft(1, 2) + model.t_verify(2, 2))


def test_a_streak_of_accepted_drafts_moves_the_caps_estimate_not_the_price_of_k():
    """The fast per-request estimate reacts within a few verifications (caps); the steady one
    prices the draft lengths, so a short streak of fully accepted drafts does not lengthen k."""
    model = table(0.001, 0.0002, 0.01, 0.0002, 0.0004)
    policy = exact(0.5, (1, 2, 3, 4, 6, 8), model, prior_weight=1000.0)
    ids = (["r"], [])
    for i in range(40):  # alpha 0.5 at k = 2: accepted 0, 1 or 2 in proportion 2 : 1 : 1
        policy.observe_requests([RequestObservation("r", 2, (0, 0, 1, 2)[i % 4])])
    before = policy.decide(ids)
    for _ in range(4):
        policy.observe_requests([RequestObservation("r", 2, 2)])
    acc = policy.acceptance
    assert acc.alpha("r") > 0.68 and acc.alpha("r", steady=True) < 0.61
    after = policy.decide(ids)
    assert (after.mode, after.k) == (before.mode, before.k) == ("sd", 2)
    # Priced by the fast estimate, the same streak takes k to the longest draft.
    fast = exact(0.5, (1, 2, 3, 4, 6, 8), model, prior_weight=1000.0, steady_decay=0.9)
    for i in range(40):
        fast.observe_requests([RequestObservation("r", 2, (0, 0, 1, 2)[i % 4])])
    for _ in range(4):
        fast.observe_requests([RequestObservation("r", 2, 2)])
    assert fast.decide(ids).k > 2


def test_one_rejected_first_draft_does_not_take_a_batch_off_sd():
    """Each request's estimate is pulled towards the batch's by ``request_prior_weight`` (4)
    pseudo-observations. With one, a new request's first draft rejected (at k = 2 and an
    acceptance of 0.5, one request in two) halved its estimate: at 4 in flight two such
    requests took the batch to AR, where it stayed for 20-60 steps while their estimates
    crept back, on a CPU where SD k=2 is 1.1-1.2x AR there. Four hold it at 0.8x the
    batch's rate; a request rejected every time still falls, as the evidence piles up."""
    costs = table(0.005, 0.0005, 0.038, 0.00015, 0.0016)  # CPU-like at 4 rows: 7 ms a draft forward, AR 47 ms
    groups = (["a", "b", "c", "d"], [])

    def decided(**settings) -> tuple[str, FlexPolicy]:
        policy = FlexPolicy(2, FlexSettings(warmup=False, margin=0.0, patience=1, **settings),
                            overlapped=costs, sequential=costs)
        acc = policy.acceptance
        acc.global_alpha.hits, acc.global_alpha.misses = 520.0, 480.0
        for rid in "ab":  # running for a while at the batch's rate
            for counts in (acc.alphas, acc.steady):
                counts[rid] = type(acc.global_alpha)(hits=5.2, misses=4.8)
        policy.observe_requests([RequestObservation(rid, 2, 0) for rid in "cd"])  # new: first drafts rejected
        return policy.decide(groups).mode, policy

    mode, policy = decided()
    assert mode == "sd" and policy.acceptance.alpha("c", steady=True) > 0.79 * policy.acceptance.alpha()
    assert decided(request_prior_weight=1.0)[0] == "ar"
    for _ in range(12):  # rejected every time: the request's own evidence wins
        policy.observe_requests([RequestObservation("c", 2, 0)])
    assert policy.acceptance.alpha("c") < 0.4 * policy.acceptance.alpha()


def test_a_mode_is_entered_one_length_from_where_it_was_last_decided():
    """Switching into a draft mode moves its length one candidate from the one it last ran at
    (a probe's, say), as within a mode: two fully accepted probe drafts of a new request must
    not take SD in at the longest draft. A mode never decided before enters at its best."""
    model = table(0.001, 0.0002, 0.01, 0.0002, 0.0004)
    ks, ids = (1, 2, 3, 4, 6, 8), (["r"], [])
    policy = exact(0.93, ks, model)  # alpha 0.93: SD's best length is the longest
    policy.current = ("ar", 0)
    policy.last_length["sd"] = 3
    assert (lambda d: (d.mode, d.k, d.reason))(policy.decide(ids)) == ("sd", 4, "switch")
    fresh = exact(0.93, ks, model)
    fresh.current = ("ar", 0)
    assert (lambda d: (d.mode, d.k))(fresh.decide(ids)) == ("sd", 8)


class Scaled:
    """A cost table whose every cost is multiplied by ``factor`` (a noisy estimate of it)."""

    ready = True

    def __init__(self, model: CostModel, factor: float) -> None:
        self.model, self.factor = model, factor

    def t_draft(self, batch, k):
        return self.factor * self.model.t_draft(batch, k)

    def t_verify(self, batch, k):
        return self.factor * self.model.t_verify(batch, k)


# Same costs in both families; at N = 8, SD is 1.5% ahead of PSD, at N = 12 PSD is ahead.
CLOSE = (0.001, 0.0005, 0.021, 0.0005, 0.0005)


def run_policy(policy: FlexPolicy, factors: list[tuple[float, float]], n: int = 8) -> list[str]:
    base = table(*CLOSE)
    modes = []
    for f_ov, f_seq in factors:
        policy.models["overlapped"], policy.models["sequential"] = Scaled(base, f_ov), Scaled(base, f_seq)
        modes.append(policy.decide(split(n)).mode)
    return modes


def test_hysteresis_ignores_alternating_inputs_and_follows_persistent_ones():
    settings = dict(ks=(4,), warmup=False, margin=0.05, patience=3, prior_alpha=0.7, per_request_k=False)
    psd_wins, sd_wins = (0.8, 1.0), (1.0, 0.8)  # 20% apart, each way
    policy = FlexPolicy(4, FlexSettings(**settings))
    assert run_policy(policy, [psd_wins, sd_wins] * 20 + [psd_wins]) == ["psd"] * 41
    assert run_policy(policy, [sd_wins] * 3) == ["psd", "psd", "sd"]  # switches on the patience-th
    eager = FlexPolicy(4, FlexSettings(**{**settings, "margin": 0.0, "patience": 1}))
    assert run_policy(eager, [psd_wins, sd_wins] * 5) == ["psd", "sd"] * 5  # without hysteresis it flaps


def test_hysteresis_on_noisy_estimates():
    """Two modes 1.5% apart, each family's estimate jittering by +-5% per decision: the
    default settings stay put, a policy without hysteresis keeps switching."""
    rng = random.Random(1)
    factors = [(1 + rng.uniform(-0.05, 0.05), 1 + rng.uniform(-0.05, 0.05)) for _ in range(300)]

    def switches(**settings) -> int:
        policy = FlexPolicy(4, FlexSettings(ks=(4,), warmup=False, prior_alpha=0.7, per_request_k=False, **settings))
        modes = run_policy(policy, factors)
        assert set(modes) <= {"psd", "sd"}
        return sum(a != b for a, b in zip(modes, modes[1:]))

    assert switches(margin=0.0, patience=1) > 50
    assert switches() <= 2  # defaults: margin 5%, patience 3


def warmup_steps(policy: FlexPolicy) -> int:
    return sum(len(plan) for plan in policy.warmup_plan.values())


def test_warmup_runs_each_mode_then_exploits():
    model = table(0.001, 0.0002, 0.01, 0.0002, 0.0004)
    policy = FlexPolicy(4, FlexSettings(), overlapped=model, sequential=model)
    seen = []
    for _ in range(14):
        d = policy.decide(split(6))
        seen.append((d.mode, d.k, d.reason))
        policy.note_step(d.mode, 6)
    # Each length twice: a shape's first call is cold and its cell keeps only the second.
    assert seen[:12] == [("psd", 4, "warmup")] * 2 + [("psd", 2, "warmup")] * 4 + [("sd", 4, "warmup")] * 2 \
        + [("sd", 2, "warmup")] * 2 + [("ar", 0, "warmup")] * 2
    assert all(reason in ("switch", "hold") for _, _, reason in seen[12:])


def test_warmup_counts_measured_steps_and_skips_psd_without_two_sub_batches():
    policy = FlexPolicy(3)
    d = policy.decide((["only"], []))
    assert (d.mode, d.k, d.reason) == ("sd", 3, "warmup")
    policy.note_step("sd", 1, clean=False)  # prefill: not measured, tried again
    assert policy.decide((["only"], [])).k == 3
    policy.note_step("sd", 1)
    assert policy.decide((["only"], [])).k == 3  # k0 again: its first call was cold
    policy.note_step("sd", 1)
    assert policy.decide((["only"], [])).k == 1  # k_alt
    assert policy.decide((["a"], ["b"]), overlap=False).mode == "sd"  # no concurrent lanes: no psd
    unmeasurable = FlexPolicy(3)
    for _ in range(20):  # bounded: a mode never measured cleanly stops being warmed up
        d = unmeasurable.decide((["only"], []))
        unmeasurable.note_step(d.mode, 1, clean=False)
    assert (d.mode, d.reason) == ("sd", "unmeasured")


def test_a_mode_warmed_up_without_a_timed_draft_is_run_until_one_is_timed():
    """A draft call that first caught up on tokens committed while the drafter sat idle is
    not timed, so SD's warm-up steps after PSD's can leave the sequential family without a
    draft measurement; an unmeasured mode is never a candidate (SD sat out a whole run at
    4 in flight that way). Its warm-up runs on until the draft is timed."""
    policy = FlexPolicy(2, FlexSettings(ks=(1, 2)))
    groups = (["a"], ["b"])

    def run(draft_timed: bool = True) -> Decision:
        d = policy.decide(groups)
        policy.observe_verify(FAMILY[d.mode], 2, d.k, 0.05)
        if draft_timed and d.mode != "ar":
            policy.observe_draft(FAMILY[d.mode], 2, d.k, 0.01)
        policy.note_step(d.mode, 2)
        return d

    assert [(d.mode, d.k) for d in (run() for _ in range(6))] == [("psd", 2)] * 2 + [("psd", 1)] * 4
    assert [(d.mode, d.k, d.reason) for d in (run(False) for _ in range(4))] == \
        [("sd", 2, "warmup")] * 2 + [("sd", 1, "warmup")] * 2
    assert not policy.usable("sd")
    assert (lambda d: (d.mode, d.k, d.reason))(run()) == ("sd", 2, "warmup")  # plan run, draft untimed: again
    assert policy.usable("sd") and [(d.mode, d.reason) for d in (run(), run())] == [("ar", "warmup")] * 2
    assert "sd" in policy.decide(groups).predicted


def test_untimed_first_drafts_do_not_use_up_a_modes_warm_up():
    """Each request's first draft feeds its context to the drafter and is not timed. On a
    stream of short requests (the bench's warm-up call) those took all of SD's tries, and a
    mode never timed is never a candidate: SD sat out whole runs. They are not counted as
    tries, up to ``WARMUP_STEP_CAP`` steps in all."""
    from minedraft.rules.flex_policy import WARMUP_STEP_CAP

    policy = FlexPolicy(2, FlexSettings(ks=(1, 2)))
    for _ in range(12):  # short requests: every SD step feeds a new context
        d = policy.decide((["a"], []))
        assert (d.mode, d.reason) == ("sd", "warmup")
        policy.note_step("sd", 1, caught_up=True)
    policy.observe_verify("sequential", 1, 2, 0.05)
    policy.observe_draft("sequential", 1, 2, 0.01)  # a request long enough to be timed
    policy.note_step("sd", 1)
    d = policy.decide((["a"], []))
    assert policy.usable("sd") and (d.mode, d.reason) == ("ar", "warmup")  # SD warmed up: AR's turn
    never = FlexPolicy(2, FlexSettings(ks=(1, 2)))
    steps = 0
    while never.decide((["a"], [])).mode == "sd" and steps <= WARMUP_STEP_CAP:
        never.note_step("sd", 1, caught_up=True)  # bounded all the same
        steps += 1
    assert steps == WARMUP_STEP_CAP and not never.usable("sd")


def test_probes_a_competitive_mode_at_a_new_batch_size():
    model = table(*CLOSE)
    policy = FlexPolicy(4, FlexSettings(ks=(4,), prior_alpha=0.8), overlapped=model, sequential=model)
    for _ in range(warmup_steps(policy) + 1):  # warm-up at N = 4, then SD (the crossover is at 8.5)
        d = policy.decide(split(4))
        policy.note_step(d.mode, 4)
    assert policy.current == ("sd", 4)
    d = policy.decide(split(12))  # PSD was only measured at N = 4: probe it here once
    assert (d.mode, d.reason) == ("psd", "explore")
    policy.note_step(d.mode, 12)
    d = policy.decide(split(12))
    assert d.reason != "explore" or d.mode == "ar"  # AR, if competitive, is the only other probe
    policy.note_step(d.mode, 12)
    assert policy.decide(split(12)).reason in ("hold", "switch")
    assert policy.decide(split(13)).reason in ("hold", "switch")  # within 1.5x of a measured size


def test_stale_modes_are_probed_again():
    model = table(*CLOSE)
    policy = FlexPolicy(4, FlexSettings(ks=(4,), prior_alpha=0.8, explore_every=10, explore_gap=0.3,
                                        ar_probe_gap=0.3), overlapped=model, sequential=model)
    reasons = []
    for _ in range(40):
        d = policy.decide(split(6))
        policy.note_step(d.mode, 6)
        reasons.append((d.mode, d.reason))
    probes = [i for i, (m, r) in enumerate(reasons) if r == "explore"]
    # Only the competitive non-current mode (AR is more than 30% behind here, both gaps 0.3).
    assert probes and all(reasons[i][0] == "psd" for i in probes)
    assert all(b - a > 10 for a, b in zip(probes, probes[1:]))


# A CPU-like sequential table at N = 2 requests: one row through the target (AR) is cheap,
# 2 to 4 rows cost about three times as much and then little more; drafts are cheap.
NONLINEAR_VERIFY = {0: 0.10, 1: 0.30, 2: 0.31, 3: 0.32}
DRAFT_PER_FORWARD = 0.01


def measured_policy(alpha: float, **settings) -> FlexPolicy:
    """A policy (warm-up off, no hysteresis) whose sequential costs at N = 2 were fed as the
    scheduler feeds them: each (k) cell twice, verify and draft."""
    s = dict(ks=(1, 2, 3), warmup=False, margin=0.0, patience=1, prior_alpha=alpha)
    s.update(settings)
    policy = FlexPolicy(3, FlexSettings(**s))
    for _ in range(2):
        for k, seconds in NONLINEAR_VERIFY.items():
            policy.observe_verify("sequential", 2, float(k), seconds)
            if k:
                policy.observe_draft("sequential", 2, k, k * DRAFT_PER_FORWARD)
    return policy


def test_measured_cells_and_the_piecewise_fit_follow_a_nonlinear_table():
    alpha, groups = 0.8, split(2)
    true = {("ar", 0): 2 / NONLINEAR_VERIFY[0]}
    for k in (1, 2, 3):
        true["sd", k] = 2 * expected_tokens(alpha, k, 1.0) / (NONLINEAR_VERIFY[k] + k * DRAFT_PER_FORWARD)
    assert max(true, key=true.get) == ("ar", 0)  # AR is best on the measured table ...
    fit_only = measured_policy(alpha, cell_min_obs=0)
    # The piecewise fit bends at the knot (4 rows) and agrees (a straight line says SD) ...
    assert fit_only.decide(groups, overlap=False).mode == "ar"
    assert fit_only.models["sequential"].coefficients()["r_knot"] == 4.0
    policy = measured_policy(alpha)
    for (mode, k), tokens_per_s in true.items():
        assert policy.predict(mode, k, groups) == pytest.approx(tokens_per_s, rel=1e-9)
    d = policy.decide(groups, overlap=False)
    assert (d.mode, d.k) == ("ar", 0)
    # A batch size never measured: the fit, corrected by measured / fitted at the nearest
    # measured batch size (here N = 2) for the same length.
    fit = policy.models["sequential"]
    for k in (0, 1, 3):
        want = fit.t_verify(6, k) * NONLINEAR_VERIFY[k] / fit.t_verify(2, k)
        assert policy.t_verify("sequential", 6, float(k)) == pytest.approx(want, rel=1e-9)
    # No measured cell at that length at all: the fit alone.
    assert policy.t_verify("sequential", 6, 5.0) == pytest.approx(fit.t_verify(6, 5))


def test_measured_cells_average_recent_observations_and_skip_fractional_lengths():
    policy = FlexPolicy(2, FlexSettings(cell_weight=0.5, cell_min_obs=2))
    policy.observe_verify("sequential", 4, 2.0, 0.9)  # a cold first call: provisional
    assert policy.cells.get("sequential", "verify", 4, 2.0, 2) is None  # one observation: not yet
    policy.observe_verify("sequential", 4, 2.1, 0.2)  # within the tolerance of 2: same cell, replaces it
    assert policy.cells.get("sequential", "verify", 4, 2.0, 2) == pytest.approx(0.2)
    policy.observe_verify("sequential", 4, 2.0, 0.4)  # from the second on: a running average
    assert policy.cells.get("sequential", "verify", 4, 2.0, 2) == pytest.approx(0.3)
    policy.observe_verify("sequential", 4, 1.5, 9.0)  # a fractional mean (confidence stops): fit only
    assert policy.cells.counts == {("sequential", "verify", 4, 2): 3}


def test_a_cold_first_call_at_a_new_batch_size_cannot_price_a_mode_out():
    """In a drain SD met batch sizes it had run once: one cold draft call at 4 rows timed
    18.8 ms a forward (7 warm), and priced on it SD stayed out for the rest of the drain, its
    cell never timed again. A lone first observation now prices its shape from above only,
    where a settled cell at the same length corrects the fit; once timed twice a shape is
    priced as measured, slow or not."""
    groups = (["a", "b", "c", "d"], [])
    policy = FlexPolicy(2, FlexSettings(ks=(2,), warmup=False, margin=0.0, patience=1, prior_alpha=0.6))
    for _ in range(2):  # settled at 8 rows: 7 ms a draft forward, 60 ms to verify k = 2, 50 ms AR
        policy.observe_draft("sequential", 8, 2, 0.014)
        policy.observe_verify("sequential", 8, 2.0, 0.060)
        policy.observe_verify("sequential", 8, 0.0, 0.050)
        policy.observe_verify("sequential", 4, 0.0, 0.045)
    policy.observe_draft("sequential", 4, 2, 2 * 0.0188)  # cold: provisional
    policy.observe_verify("sequential", 4, 2.0, 0.090)  # cold: provisional
    fit = policy.models["sequential"]
    draft_from_8 = 2 * fit.t_draft(4, 1) * 0.007 / fit.t_draft(8, 1)
    verify_from_8 = fit.t_verify(4, 2) * 0.060 / fit.t_verify(8, 2)
    assert draft_from_8 < 2 * 0.0188 and verify_from_8 < 0.090
    assert policy.t_draft("sequential", 4, 2) == pytest.approx(draft_from_8)
    assert policy.t_verify("sequential", 4, 2.0) == pytest.approx(verify_from_8)
    assert policy.decide(groups).mode == "sd"  # priced on the cold calls: AR (checked below)
    cold = FlexPolicy(2, FlexSettings(ks=(2,), warmup=False, margin=0.0, patience=1, prior_alpha=0.6,
                                      per_request_k=False))
    cold.observe_draft("sequential", 4, 2, 2 * 0.0188)
    cold.observe_verify("sequential", 4, 2.0, 0.090)
    for _ in range(2):
        cold.observe_verify("sequential", 4, 0.0, 0.045)
    assert cold.predict("ar", 0, groups) > cold.predict("sd", 2, groups)
    policy.observe_draft("sequential", 4, 2, 2 * 0.0188)  # slow twice: measured, priced as such
    policy.observe_verify("sequential", 4, 2.0, 0.090)
    assert policy.t_draft("sequential", 4, 2) == pytest.approx(2 * 0.0188)
    assert policy.t_verify("sequential", 4, 2.0) == pytest.approx(0.090)


def stale_slow_sd_cells(**settings) -> FlexPolicy:
    """A policy whose SD cells at 4 rows were last timed in a slow spell (82.5 ms a
    verification of 2 drafts, 9.7 ms a draft forward; 55-60 and 7 are usual) and whose AR
    cell is fresh (55 ms): priced on them, SD at 4 in flight loses to AR for every request."""
    policy = FlexPolicy(2, FlexSettings(ks=(2,), warmup=True, prior_alpha=0.5, **settings))
    policy.warmup_plan = {m: () for m in policy.warmup_plan}  # measured below instead
    for _ in range(2):
        policy.observe_verify("sequential", 4, 0.0, 0.055)
        policy.observe_verify("sequential", 4, 2.0, 0.0825)
        policy.observe_draft("sequential", 4, 2, 2 * 0.0097)
        policy.observe_verify("overlapped", 2, 2.0, 0.2)  # PSD: measured, far behind
        policy.observe_draft("overlapped", 2, 2, 0.2)
    return policy


def test_a_draft_mode_priced_out_on_a_stale_cell_is_still_probed():
    """Every request's cap at 0 makes SD plain AR, so SD is no candidate; it stays a probe,
    uncapped (every request drafts k), or it would never be timed at this batch size again."""
    policy = stale_slow_sd_cells(explore_every=10)
    groups, decisions = (["a", "b", "c", "d"], []), []
    for _ in range(40):
        d = policy.decide(groups, overlap=False)
        policy.note_step(d.mode, 4)
        decisions.append(d)
    assert all("sd" not in d.predicted for d in decisions)  # no SD candidate: every cap is 0
    probes = [i for i, d in enumerate(decisions) if (d.mode, d.reason) == ("sd", "explore")]
    assert len(probes) >= 3 and all(b - a > 10 for a, b in zip(probes, probes[1:]))
    assert all(decisions[i].caps == {} for i in probes)  # uncapped: every request drafts k
    assert all(d.mode == "ar" for i, d in enumerate(decisions) if i not in probes)


def test_a_draft_mode_priced_just_under_ar_is_left_by_the_hysteresis_not_at_once():
    """Nobody drafting makes a draft mode plain AR, taken at once, outside the hysteresis;
    only when ahead by the margin, as the way back must be. A draft mode priced just under AR
    is a mode choice like any other, made with margin and patience. Taken at once, a dip of
    SD's price 1.5% under AR's at 8 in flight switched to AR, and SD, predicted 2-4% ahead
    for the next 60 steps, never cleared the margin back."""
    policy = FlexPolicy(2, FlexSettings(ks=(2,), warmup=False, prior_alpha=0.5, patience=3))
    for _ in range(2):
        policy.observe_verify("sequential", 4, 0.0, 0.055)  # AR: 4 tokens in 55 ms, 72.7 tok/s
        policy.observe_verify("sequential", 4, 2.0, 0.060)
        policy.observe_draft("sequential", 4, 2, 2 * 0.007)
    groups = (["a", "b", "c", "d"], [])
    d = policy.decide(groups, overlap=False)
    assert d.mode == "sd" and set(d.caps.values()) == {2}  # 7 tokens in 74 ms: 94.6 tok/s
    for _ in range(8):  # the verification drifts to 84 ms: SD at 71.3 tok/s, 2% under AR
        policy.observe_verify("sequential", 4, 2.0, 0.0842)
    decisions = [policy.decide(groups, overlap=False) for _ in range(5)]
    assert all(d.predicted["ar"] > d.predicted["sd"] > d.predicted["ar"] / 1.05 for d in decisions)
    assert all((d.mode, d.reason) == ("sd", "hold") for d in decisions)
    for _ in range(8):  # 110 ms: SD at 56.3 tok/s, AR ahead by far more than the margin
        policy.observe_verify("sequential", 4, 2.0, 0.110)
    d = policy.decide(groups, overlap=False)
    assert (d.mode, d.reason, d.predicted.get("sd")) == ("ar", "switch", None)  # at once


def test_a_step_far_over_its_prediction_is_a_stall_unless_the_next_is_too():
    """Over ``STALL`` x the predicted seconds a step is a stall of the host; in a run of such
    steps of one mode only the first is: the rest are the mode's cost (a slower regime, or a
    prediction far too low), which the policy must learn."""
    policy = FlexPolicy(2)
    sd = Decision("sd", 2, "hold", expected_seconds=0.05)
    ar = Decision("ar", 0, "hold", expected_seconds=0.04)
    assert [policy.stalled(sd, s) for s in (0.06, 1.5, 0.05, 1.5)] == [False, True, False, True]
    policy = FlexPolicy(2)
    assert [policy.stalled(sd, s) for s in (0.5, 0.5, 0.5, 0.05, 0.5)] == [True, False, False, False, True]
    assert policy.stalled(ar, 0.5)  # per mode: SD's run of slow steps says nothing of AR's
    assert not policy.stalled(Decision("sd", 2, "warmup"), 9.0)  # nothing predicted: nothing to judge by


def test_a_mode_slower_than_predicted_loses_to_one_that_runs_as_predicted():
    groups = split(2)
    policy = measured_policy(0.99)  # acceptance near 1: the cells say SD k=3 beats AR (22.5 vs 20 tok/s)
    d = policy.decide(groups, overlap=False)
    assert (d.mode, d.k) == ("sd", 3) and d.expected == pytest.approx(policy.predict("sd", 3, groups))
    tokens, seconds = policy.predict_step("sd", 3, groups, d.caps)
    assert d.expected_seconds == pytest.approx(seconds) and d.expected == pytest.approx(tokens / seconds)
    policy.observe_realized(d, seconds=d.expected_seconds)  # ran as predicted: no change
    assert policy.step_statistics.realized == {("sd", 2): pytest.approx(1.0)}  # N = 2: bucket 2-3
    assert policy.decide(groups, overlap=False).mode == "sd"
    for _ in range(3):  # SD's steps take twice what the model said (a cost the cells miss)
        d = policy.decide(groups, overlap=False)
        if d.mode == "sd":
            policy.observe_realized(d, seconds=2 * d.expected_seconds)
    d = policy.decide(groups, overlap=False)
    assert d.mode == "ar" and policy.realized_ratio("ar", 2) == 1.0 and policy.realized_ratio("sd", 2) < 0.9
    assert d.predicted["sd"] == pytest.approx(policy.predict("sd", 3, groups) * policy.realized_ratio("sd", 2))
    assert d.predicted["sd"] < d.predicted["ar"] == pytest.approx(20.0)
    # Another batch-size bucket keeps its own ratio: at N = 1 the shortfall at N = 2 does not apply.
    assert policy.realized_ratio("sd", 1) == 1.0 and policy.realized_ratio("sd", 3) < 0.9


def test_a_gain_within_the_step_time_noise_does_not_switch():
    """SD is predicted 12.5% ahead of AR. The switch needs the margin (5%) plus the noise of
    the modes' step times: AR's steps scattering by +-25% around their prediction hold it
    back; AR's steps running as predicted let it through."""
    groups = split(2)
    for factors, switches in (([0.8, 1.25] * 4, False), ([1.0] * 8, True)):
        policy = measured_policy(0.99, margin=0.05)
        ar = Decision("ar", 0, "hold", running=2, expected_seconds=NONLINEAR_VERIFY[0])
        for f in factors:
            policy.observe_realized(ar, seconds=f * ar.expected_seconds)
        assert policy.step_noise("ar", 2) == pytest.approx(0.22 if not switches else 0.0, abs=0.03)
        assert policy.step_noise("sd", 2) == 0.0  # never ran
        policy.current = ("ar", 0)
        d = policy.decide(groups, overlap=False)
        assert d.predicted["sd"] > 1.1 * d.predicted["ar"]
        assert (d.mode == "sd") is switches, (factors, d)


def test_the_switch_gate_is_the_noise_of_the_mean_rates_not_of_a_step():
    """Both modes have 40 steps behind their rates, each step scattering by about 14%
    around its prediction. SD's 12.5% predicted lead is below margin plus the spread of
    one step of each (5% + 20%) but well above margin plus the standard error of the
    difference of the two means (5% + 14% x sqrt(2 x 0.11)): it switches. Two steps behind
    each rate (effective weight 0.68 each) widen the gate again."""
    groups = split(2)
    for steps, switches in ((40, True), (2, False)):
        policy = measured_policy(0.99, margin=0.05)
        for mode, k in (("ar", 0), ("sd", 3)):
            seconds = policy.predict_step(mode, k, groups)[1]
            d = Decision(mode, k, "hold", running=2, expected_seconds=seconds)
            for f in ([0.87, 1.15] * steps)[:steps]:
                policy.observe_realized(d, seconds=f * seconds)
        if steps == 40:
            assert policy.step_noise("ar", 2) == pytest.approx(0.14, abs=0.01)
            assert math.hypot(policy.step_noise("ar", 2), policy.step_noise("sd", 2)) > 0.125 - 0.05
            assert policy.switch_noise("ar", "sd", 2) == pytest.approx(0.14 * math.sqrt(2 / 9), rel=0.1)
        assert policy.switch_noise("sd", "sd", 2) == 0.0  # one mode's noise cancels between its ks
        policy.current = ("ar", 0)
        d = policy.decide(groups, overlap=False)
        assert d.predicted["sd"] > 1.1 * d.predicted["ar"]
        assert (d.mode == "sd") is switches, (steps, d)


def test_a_stale_correction_does_not_lock_a_mode_out():
    """SD penalised by a bad spell is probed again once stale, on its uncorrected prediction,
    and a step that runs as predicted lifts the penalty."""
    groups = split(2)
    policy = measured_policy(0.99, explore_every=8, warmup=True)
    policy.runs.update({m: len(plan) for m, plan in policy.warmup_plan.items()})  # warm-up done
    for _ in range(6):
        d = policy.decide(groups, overlap=False)
        if d.mode == "sd":
            policy.observe_realized(d, seconds=3 * d.expected_seconds)
        policy.note_step(d.mode, 2)
    assert policy.current[0] == "ar" and policy.realized_ratio("sd", 2) < 0.8
    reasons = []
    for _ in range(10):
        d = policy.decide(groups, overlap=False)
        reasons.append((d.mode, d.reason))
        if d.mode == "sd":
            policy.observe_realized(d, seconds=d.expected_seconds)
        policy.note_step(d.mode, 2)
    assert ("sd", "explore") in reasons
    penalised = policy.realized_ratio("sd", 2)
    assert penalised > 1 / 3  # the probe ran as predicted and moved the ratio back up


def test_probes_of_a_mode_they_keep_finding_dominated_back_off():
    """SD's uncorrected price stays within ``explore_gap`` of AR (0.98x), but its steps run at
    2.5x their prediction: each staleness probe finds the last one's measurement still out of
    reach, and the next waits twice as long, up to ``PROBE_BACKOFF`` x ``explore_every``.
    Once a probe measures SD as predicted, the one after it comes ``explore_every`` later."""
    groups = split(2)
    policy = measured_policy(0.9, explore_every=8, warmup=True, ks=(3,), per_request_k=False)
    policy.runs.update({m: len(plan) for m, plan in policy.warmup_plan.items()})  # warm-up done
    probes, slow = [], 2.5
    for i in range(400):
        if i == 250:
            slow = 1.0  # SD now runs as predicted
        d = policy.decide(groups, overlap=False)
        if d.mode == "sd":
            probes.append(i)
            assert d.reason == "explore" and d.predicted["sd"] < d.predicted["ar"]
        policy.observe_realized(d, seconds=(slow if d.mode == "sd" else 1.0) * d.expected_seconds, tokens=2)
        policy.note_step(d.mode, 2)
    gaps = [b - a for a, b in zip(probes, probes[1:])]
    limit = PROBE_BACKOFF * 8
    assert gaps[:4] == [9, 17, 33, limit + 1]  # explore_every decisions since SD ran, then 2x, 4x, ...
    assert all(g == limit + 1 for g in gaps[4:7]) and probes[5] < 250 < probes[6]
    # The first probe after 250 still judges by the slow step before it; the next by its own.
    assert gaps[7:] == [9] * len(gaps[7:]) and len(gaps[7:]) >= 5


def test_a_probe_of_a_stale_mode_starts_its_statistics_afresh():
    """SD's steps run 3x over their prediction for a spell and flex moves to AR. Once SD has
    not run for ``explore_every`` decisions it is probed, and its statistics at that bucket
    start afresh: the correction from none, the probe's step (1.5x over its prediction)
    moving it by ``realized_weight`` (to 1 / 1.1; decayed on from the spell's 0.4 it would
    stay under 0.5, and from the probe's step alone it would be 1 / 1.5), the measured rate
    from the probe alone. SD, predicted well ahead at this acceptance, is taken back."""
    groups = split(2)
    policy = measured_policy(0.99, explore_every=8, warmup=True)
    policy.runs.update({m: len(plan) for m, plan in policy.warmup_plan.items()})  # warm-up done
    for _ in range(6):
        d = policy.decide(groups, overlap=False)
        policy.observe_realized(d, seconds=(3 if d.mode == "sd" else 1) * d.expected_seconds, tokens=2)
        policy.note_step(d.mode, 2)
    assert policy.current[0] == "ar" and policy.realized_ratio("sd", 2) < 0.5
    modes = []
    while "sd" not in modes:
        d = policy.decide(groups, overlap=False)
        modes.append(d.mode)
        policy.observe_realized(d, seconds=(1.5 if d.mode == "sd" else 1) * d.expected_seconds, tokens=2)
        policy.note_step(d.mode, 2)
    assert d.reason == "explore" and policy.realized_ratio("sd", 2) == pytest.approx(1 / 1.1)
    assert policy.measured_rate("sd", 2) == pytest.approx(2 / (1.5 * d.expected_seconds))
    assert [policy.decide(groups, overlap=False).mode for _ in range(2)][-1] == "sd"
    # Fresh: the statistics decay step by step; a step at twice its prediction moves the
    # correction part of the way.
    before = policy.realized_ratio("sd", 2)
    d = policy.decide(groups, overlap=False)
    policy.observe_realized(d, seconds=2 * d.expected_seconds)
    assert d.mode == "sd" and 0.6 * before < policy.realized_ratio("sd", 2) < 0.95 * before


def test_schedule_overrides_and_falls_back_without_two_sub_batches():
    policy = FlexPolicy(4, FlexSettings(schedule=(("psd", 3), ("ar", 0), ("sd", 5))))
    got = [(d.mode, d.k) for d in (policy.decide(split(4)) for _ in range(4))]
    assert got == [("psd", 3), ("ar", 0), ("sd", 5), ("psd", 3)]
    assert policy.decide((["a"], [])).mode == "ar" and policy.decide((["a"], [])).mode == "sd"


def test_draft_lengths_default_to_the_configured_k_and_widen_only_by_opt_in():
    """By default flex varies the mode (and per-request caps), not the draft length: its
    candidates are AR and each draft mode at the engine's num_speculative_tokens. ``ks``
    adds lengths, always with that k among them."""
    assert FlexPolicy(3).candidates(("psd", "sd", "ar")) == [("psd", 3), ("sd", 3), ("ar", 0)]
    assert FlexPolicy(3, FlexSettings(ks=(1, 5))).ks == (1, 3, 5)
    # Cheap drafts, a verification fixed in cost, acceptance 0.9: longer drafts pay.
    model = table(0.001, 0.0001, 0.02, 0.0001, 0.0002)
    adaptive = exact(0.9, (3, 1, 2, 4, 5, 6, 8), model)
    assert adaptive.decide(split(4)).k > 3
    default = FlexPolicy(3, FlexSettings(warmup=False, margin=0.0, patience=1, prior_alpha=0.9, per_request_k=False),
                         overlapped=model, sequential=model)
    assert [default.decide(split(4)).k for _ in range(5)] == [3] * 5


@pytest.mark.parametrize("bad", [dict(ks=()), dict(ks=(0,)), dict(margin=-0.1), dict(patience=0), dict(decay=0.0), dict(idle_decay=1.5),
                                 dict(prior_alpha=1.5), dict(schedule=(("tree", 1),)), dict(schedule=(("sd", -1),)),
                                 dict(cell_min_obs=-1), dict(cell_weight=0.0), dict(cell_weight=1.5),
                                 dict(realized_weight=-0.1), dict(realized_weight=1.5), dict(explore_gap=1.2),
                                 dict(ar_probe_gap=-0.1)])
def test_settings_validation(bad):
    with pytest.raises(InvalidInputError):
        FlexSettings(**bad)


@pytest.mark.parametrize("value", [0, 0.0, 1.0, 1.5, -0.2, True, "0.1", math.nan])
def test_draft_confidence_threshold_validation(value):
    with pytest.raises(InvalidInputError, match="draft_confidence_threshold"):
        DraftOptions(draft_confidence_threshold=value)


def test_draft_confidence_threshold_accepts_probabilities():
    assert DraftOptions(draft_confidence_threshold=0.01).draft_confidence_threshold == 0.01
    assert DraftOptions().draft_confidence_threshold is None


def test_a_decision_prices_its_candidates_as_outside_one():
    """decide() memoises costs and step predictions for its own duration; what it reports
    must equal the same predictions made outside a decision, and observations between
    decisions must reach the next one."""
    policy = measured_policy(0.8)
    groups = split(2)
    for _ in range(3):
        d = policy.decide(groups, overlap=False)
        assert policy._memo is None
        tokens, seconds = policy.predict_step(d.mode, d.k, groups, d.caps or None)
        assert d.expected == pytest.approx(tokens / seconds, rel=1e-12)
        assert d.expected_seconds == pytest.approx(seconds, rel=1e-12)
        # Verifications of this shape now cost twice as much: the next decision sees it.
        for _ in range(20):
            policy.observe_verify("sequential", 2, float(d.k), 2 * policy.t_verify("sequential", 2, float(d.k)))
        assert policy.t_verify("sequential", 2, float(d.k)) > seconds
    tracker = policy.acceptance
    alpha = tracker.alpha("r0")
    tracker.observe([RequestObservation("r0", verified=3, accepted=0)])
    assert tracker.alpha("r0") < alpha  # the memoised rates follow new observations
    tracker.forget("r0")
    assert tracker.alpha("r0") == tracker.alpha()


def test_draft_cells_are_per_forward_so_one_slow_call_cannot_price_a_k_out():
    """Drafting k tokens is k forwards of one shape: every draft call feeds one per-forward
    cell per (family, batch). A single slow call at a k rarely run (19.8 ms for 2 forwards,
    against about 4 ms a forward at k = 1 and 3) moves that cell by its weight, and k = 2
    is priced at twice the cell, not at the outlier."""
    policy = FlexPolicy(2, FlexSettings())
    for _ in range(4):
        policy.observe_draft("sequential", 1, 1, 0.0041)
        policy.observe_draft("sequential", 1, 3, 3 * 0.0034)
    policy.observe_draft("sequential", 1, 2, 0.0198)
    per_forward = policy.t_draft("sequential", 1, 1)
    assert 0.0034 < per_forward < 0.0198 / 2
    assert policy.t_draft("sequential", 1, 2) == pytest.approx(2 * per_forward)
    assert policy.t_draft("sequential", 1, 3) == pytest.approx(3 * per_forward)
    assert policy.t_draft("sequential", 1, 2.5) == pytest.approx(2.5 * per_forward)  # expected widths too


def sd_at_one_in_flight(cold_k2: float, ks: tuple[int, ...] = (1, 2)) -> FlexPolicy:
    """A policy at 1 in flight (no PSD) past warm-up, running SD k = 1 on well measured
    cells, whose k = 2 verification was timed once, cold (``cold_k2`` seconds; 0.050 warm)."""
    policy = FlexPolicy(2, FlexSettings(ks=ks, prior_alpha=0.6, margin=0.0, patience=1))
    policy.observe_verify("sequential", 1, 2.0, cold_k2)
    for _ in range(3):
        policy.observe_verify("sequential", 1, 0.0, 0.048)
        policy.observe_verify("sequential", 1, 1.0, 0.050)
        policy.observe_draft("sequential", 1, 1, 0.006)
    for mode in ("sd", "ar"):  # the warm-up plans ran
        policy.runs[mode] = len(policy.warmup_plan[mode])
        policy.note_step(mode, 1)
    policy.current = ("sd", 1)
    return policy


def test_a_length_priced_on_one_cold_observation_is_probed_and_then_chosen():
    """At 1 in flight, one cold k = 2 verification (67 ms against 50 warm) priced k = 2 out
    for a whole run; the length is now probed while its cell holds only that provisional
    observation, the probe's warm time replaces it, and k = 2 wins."""
    groups = (["r0"], [])
    policy = sd_at_one_in_flight(cold_k2=0.067)
    assert policy.predict("sd", 1, groups) > policy.predict("sd", 2, groups)  # the cold cell prices k = 2 out
    d = policy.decide(groups, overlap=False)
    assert (d.mode, d.k, d.reason) == ("sd", 2, "explore")
    policy.observe_verify("sequential", 1, 2.0, 0.050)
    policy.observe_draft("sequential", 1, 2, 0.012)
    policy.note_step("sd", 1)
    assert policy.predict("sd", 2, groups) > policy.predict("sd", 1, groups)
    chosen = [policy.decide(groups, overlap=False) for _ in range(3)]
    assert [(d.mode, d.k) for d in chosen[-2:]] == [("sd", 2), ("sd", 2)]
    assert all(d.reason != "explore" for d in chosen)  # measured twice: no more probing


def test_a_length_far_behind_or_well_measured_is_not_probed():
    groups = (["r0"], [])
    far = sd_at_one_in_flight(cold_k2=0.500)  # more than explore_gap behind: not worth a step
    assert far.decide(groups, overlap=False).reason != "explore"
    measured = sd_at_one_in_flight(cold_k2=0.067)
    measured.observe_verify("sequential", 1, 2.0, 0.067)  # slow twice: measured, not provisional
    assert measured.decide(groups, overlap=False).reason != "explore"


def test_only_the_neighbouring_lengths_are_probed():
    """Running k = 1 with candidates 1, 3, 2: a thin k = 3 (the cold cell) is not probed while
    k = 2, the next candidate, is well measured; once k = 2 runs, k = 3 is its neighbour."""
    groups = (["r0"], [])
    policy = sd_at_one_in_flight(cold_k2=1.0, ks=(1, 2, 3))  # k = 2 priced out: far behind, no probe
    policy.observe_verify("sequential", 1, 3.0, 0.052)  # one observation: thin
    assert policy.predict("sd", 3, groups) > 0.8 * policy.predict("sd", 1, groups)  # within explore_gap
    assert policy.decide(groups, overlap=False).reason != "explore"
    policy.current = ("sd", 2)
    policy.observe_verify("sequential", 1, 2.0, 0.051)
    policy.observe_verify("sequential", 1, 2.0, 0.051)
    d = policy.decide(groups, overlap=False)
    assert (d.mode, d.k, d.reason) == ("sd", 3, "explore")


def test_a_probe_whose_draft_caught_up_is_run_once_more():
    """A probe of SD after AR steps makes the drafter catch up first, so its draft call is not
    timed: the next decision probes SD again, once."""
    model = table(*CLOSE)
    policy = FlexPolicy(4, FlexSettings(ks=(4,), prior_alpha=0.8, explore_every=10, explore_gap=0.3,
                                        ar_probe_gap=0.3), overlapped=model, sequential=model)
    groups, reasons = split(6), []
    for _ in range(45):  # probes come every 12 decisions from the 14th on
        d = policy.decide(groups)
        caught_up = d.reason == "explore" and not any(r == "explore" for _, r in reasons[-1:])
        policy.note_step(d.mode, 6, caught_up=caught_up)
        reasons.append((d.mode, d.reason))
    probes = [i for i, (_, r) in enumerate(reasons) if r == "explore"]
    assert len(probes) == 6
    # Each probe came in a pair: the caught-up one and the measured one after it.
    assert all(reasons[i + 1] == reasons[i] for i in probes[::2])
    assert all(i + 1 == j for i, j in zip(probes[::2], probes[1::2]))


def test_a_repeated_probe_is_not_repeated_again_whatever_it_caught_up():
    """At 32 in flight requests admitted under AR steps made every repeat of an SD probe catch
    up too, and each repeat asked for another: SD ran up to 12 probes in a row. A probe is
    repeated once at most."""
    model = table(*CLOSE)
    policy = FlexPolicy(4, FlexSettings(ks=(4,), prior_alpha=0.8, explore_every=10, explore_gap=0.3,
                                        ar_probe_gap=0.3), overlapped=model, sequential=model)
    groups, reasons = split(6), []
    for _ in range(45):
        d = policy.decide(groups)
        policy.note_step(d.mode, 6, caught_up=d.reason == "explore")  # every probe catches up
        reasons.append((d.mode, d.reason))
    probes = [i for i, (_, r) in enumerate(reasons) if r == "explore"]
    assert len(probes) == 6
    assert all(i + 1 == j for i, j in zip(probes[::2], probes[1::2]))  # in pairs ...
    assert all(j - i > 2 for i, j in zip(probes[1::2], probes[2::2]))  # ... never more in a row


def test_a_draft_mode_capped_out_returns_as_soon_as_a_draft_pays_again():
    """At 1 in flight a run of rejections takes the request's cap to 0: once nobody drafting
    is ahead by the margin, that step is AR at once (caps act outside the hysteresis), and
    the way back is on the first decision that predicts the draft mode ahead by the margin,
    not ``patience`` decisions later."""
    cpu = table(0.015, 0.0005, 0.037, 0.0, 0.0005)  # verification mostly fixed, a slow draft
    policy = FlexPolicy(2, FlexSettings(ks=(2,), warmup=False, patience=3), overlapped=cpu, sequential=cpu)
    groups = (["r0"], [])
    for i in range(20):  # the draft pays: 4 in 5 drafts accepted
        policy.observe_requests([RequestObservation("r0", verified=2, accepted=0 if i % 5 == 4 else 2)])
        assert policy.decide(groups, overlap=False).mode == "sd"
    for _ in range(40):  # a stretch the draft cannot follow: AR at once when the cap falls to 0
        policy.observe_requests([RequestObservation("r0", verified=2, accepted=0)])
        d = policy.decide(groups, overlap=False)
        if d.mode == "ar":
            break
    assert (d.mode, d.reason, d.predicted.get("sd")) == ("ar", "switch", None)
    modes, draft = [], 0.0155
    for _ in range(30):  # AR steps, while the draft gets cheaper by half a millisecond a step
        policy.observe_requests([RequestObservation("r0", verified=0, accepted=0)])
        draft -= 0.0005
        policy.observe_draft("sequential", 1, 2, 2 * draft)
        d = policy.decide(groups, overlap=False)
        ahead = d.predicted.get("sd", 0.0) > 1.05 * d.predicted["ar"]  # no "sd": nobody drafts
        modes.append((d.mode, ahead))
    back = next(i for i, (_, sd_ahead) in enumerate(modes) if sd_ahead)
    assert back > 0 and modes[back][0] == "sd" and all(m == "ar" for m, _ in modes[:back])


def test_one_request_s_rejections_leave_its_draft_mode_only_by_the_margin():
    """With one request in flight its cap is the mode. Its fast estimate failing break-even
    alone took SD to AR at once, even with SD priced ahead of AR (the price rests on the
    steady estimate), and the way back needed the margin and the noise: AR held 25-65 steps
    at 1 in flight where SD runs 1.25x AR. A cap that fails alone is nobody drafting, taken
    at once only when ahead by the margin; within it the hysteresis holds the current mode."""
    cpu = table(0.006, 0.0, 0.040, 0.0, 0.002)  # AR 42 ms a step, SD k=2 58 ms
    policy = FlexPolicy(2, FlexSettings(ks=(2,), warmup=False, patience=3, prior_alpha=0.35),
                        overlapped=cpu, sequential=cpu)
    groups = (["r0"], [])
    decisions = []
    for accepted in (1, 0, 0, 1, 0, 2, 0, 0, 1, 0, 1, 0, 0, 1, 2, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0):
        policy.observe_requests([RequestObservation("r0", verified=2, accepted=accepted)])
        decisions.append(policy.decide(groups, overlap=False))
    assert all((d.mode, d.reason) in {("sd", "hold"), ("sd", "switch")} for d in decisions)
    assert decisions[-1].predicted["ar"] < decisions[-1].predicted["sd"] < 1.05 * decisions[-1].predicted["ar"]
    for _ in range(12):  # the rejections go on: AR is soon ahead by the margin, and taken at once
        policy.observe_requests([RequestObservation("r0", verified=2, accepted=0)])
        d = policy.decide(groups, overlap=False)
        if d.mode == "ar":
            break
    assert (d.mode, d.reason, d.predicted.get("sd")) == ("ar", "switch", None)


def switched_to_sd(margin: float = 0.05) -> tuple[FlexPolicy, tuple[list[str], list[str]]]:
    """A policy whose model never corrects itself (realized_weight 0, no new cells) and
    predicts SD k=3 12.5% ahead of AR at N = 2, after ten AR steps measured at AR's predicted
    rate (20 tok/s) and the switch to SD they lead to."""
    groups = split(2)
    policy = measured_policy(0.99, margin=margin, patience=3, realized_weight=0.0)
    policy.current = ("ar", 0)
    for _ in range(10):
        policy.observe_realized(Decision("ar", 0, "hold", running=2), seconds=NONLINEAR_VERIFY[0], tokens=2)
    assert policy.measured_rate("ar", 2) == pytest.approx(20.0)
    decisions = [policy.decide(groups, overlap=False) for _ in range(3)]
    assert [(d.mode, d.reason) for d in decisions] == [("ar", "hold")] * 2 + [("sd", "switch")]
    return policy, groups


def run_sd(policy: FlexPolicy, groups, slowdown: float, steps: int) -> list[Decision]:
    """``steps`` decisions, SD's steps emitting their predicted tokens in ``slowdown`` times
    their predicted seconds, AR's as predicted."""
    out = []
    for _ in range(steps):
        d = policy.decide(groups, overlap=False)
        tokens, seconds = policy.predict_step(d.mode, d.k, groups, d.caps or None)
        policy.observe_realized(d, seconds=seconds * (slowdown if d.mode == "sd" else 1.0), tokens=round(tokens))
        out.append(d)
    return out


def test_a_switch_that_delivers_less_than_the_mode_it_left_is_reverted():
    """SD runs at half its predicted speed, which the model never learns: its measured rate
    after three steps (about 12 tok/s) is below AR's measured 20 by more than the margin, so
    the switch is reverted and SD is kept out of the hysteresis at this load; at another
    load (bucket) it may be chosen again."""
    policy, groups = switched_to_sd()
    decisions = run_sd(policy, groups, slowdown=2.0, steps=20)
    assert [(d.mode, d.reason) for d in decisions[:4]] == [("sd", "hold")] * 3 + [("ar", "revert")]
    assert all((d.mode, d.reason) == ("ar", "hold") for d in decisions[4:])
    assert decisions[-1].predicted["sd"] > 1.1 * decisions[-1].predicted["ar"]  # still mispredicted, still barred
    elsewhere = [policy.decide(split(4), overlap=False) for _ in range(3)]  # another bucket: not barred
    assert elsewhere[0].predicted["sd"] > 1.1 * elsewhere[0].predicted["ar"]
    assert [(d.mode, d.reason) for d in elsewhere] == [("ar", "hold")] * 2 + [("sd", "switch")]


def test_a_switch_that_delivers_is_kept():
    policy, groups = switched_to_sd()
    decisions = run_sd(policy, groups, slowdown=1.0, steps=20)
    assert all((d.mode, d.reason) == ("sd", "hold") for d in decisions)
    assert policy.measured_rate("sd", 2) > policy.measured_rate("ar", 2)


def test_ar_is_probed_where_unmeasured_or_stale_at_its_bucket_whatever_its_prediction():
    """AR's cell at 16 rows was left high by one slow observation (90 ms a step; about half
    that is usual): priced far behind SD, more than ``explore_gap``. AR steps in the drains
    at 4 rows keep it fresh globally, so only its staleness at the 16-row bucket shows that
    cell is old. AR's probe costs one step at its real speed, so it is probed there
    whatever its prediction (``ar_probe_gap`` 1), once per ``explore_every`` of that
    bucket's decisions; with a narrow gap, never."""
    def slow_ar_cell(**settings) -> FlexPolicy:
        policy = FlexPolicy(2, FlexSettings(ks=(2,), warmup=True, prior_alpha=0.5, explore_every=10, **settings))
        policy.warmup_plan = {m: () for m in policy.warmup_plan}  # measured below instead
        for _ in range(2):
            for rows in (4, 16):
                policy.observe_verify("sequential", rows, 0.0, 0.090 if rows == 16 else 0.040)
                policy.observe_verify("sequential", rows, 2.0, 0.060 if rows == 16 else 0.045)
                policy.observe_draft("sequential", rows, 2, 2 * 0.006)
            policy.observe_verify("overlapped", 8, 2.0, 0.5)  # PSD: measured, far behind
            policy.observe_draft("overlapped", 8, 2, 0.5)
        policy.note_step("ar", 16)  # AR was run here once, long ago
        return policy

    groups = ([f"r{i}" for i in range(16)], [])

    def run(policy: FlexPolicy) -> list[Decision]:
        decisions = []
        for i in range(60):
            d = policy.decide(groups, overlap=False)
            policy.note_step(d.mode, 16)
            decisions.append(d)
            if i % 5 == 4:  # a drain's AR step at 4 rows: AR is never stale globally
                policy.note_step("ar", 4)
        return decisions

    policy = slow_ar_cell()
    assert policy.predict("ar", 0, groups) < 0.5 * policy.predict("sd", 2, groups)
    decisions = run(policy)
    probes = [i for i, d in enumerate(decisions) if (d.mode, d.reason) == ("ar", "explore")]
    assert len(probes) >= 3 and all(b - a > 10 for a, b in zip(probes, probes[1:]))
    assert all(d.mode == "sd" for i, d in enumerate(decisions) if i not in probes)
    assert all(d.mode == "sd" for d in run(slow_ar_cell(ar_probe_gap=0.2)))
    never_here = slow_ar_cell()
    never_here.seen_batches["ar"] = {4}  # AR never ran near 16 rows: an extrapolation, probed at once
    first = never_here.decide(groups, overlap=False)  # nothing current yet: the best
    never_here.note_step(first.mode, 16)
    d = never_here.decide(groups, overlap=False)
    assert (first.mode, d.mode, d.reason) == ("sd", "ar", "explore")
