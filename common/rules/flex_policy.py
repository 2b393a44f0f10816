"""Flex decoding policy: each step, PSD, sequential SD or AR, and the draft length k.

FlexDraft observes that overlapped draft-and-verify wins at small batch and sequential
verification at large batch. This module makes that choice from the cost model
(``minedraft.rules.cost_model``) fed with live measurements; it is pure bookkeeping (no engine,
no clock), so its decisions can be tested on synthetic cost tables. The scheduler that
executes the decisions is ``minedraft.schedulers.flex``; docs/flex.md has the rationale.

**Two cost families.** Overlapped steps (PSD: two lanes contend for cores or streams) and
sequential steps (SD, AR: run inline with the full intra-op thread count) are timed under
different conditions, so each family has its own ``CostModel`` and per-step overhead c,
and each mode is predicted from the family it runs in. With N running requests split in
sub-batches A (verified next) and B:

- ``psd``: one cycle of two steps costs ``max(T_d(B), T_v(A)) + max(T_d(A), T_v(B)) + 2 c``
  and emits ``sum_i E_i`` tokens (every request verified once);
- ``sd`` over all N: ``T_d(N) + T_v(N) + c`` per step, ``sum_i E_i`` tokens;
- ``ar`` over all N: ``T_v(N, 0) + c`` per step, N tokens.

With balanced sub-batches, one acceptance rate and no confidence stop these are exactly
``CostModel.predict`` (PSD at sub-batch N / 2).

**Acceptance, per request** (``minedraft.rules.acceptance``): decayed per-request and
global estimates of the acceptance rate alpha and the confidence continuation gamma,
which give each request's expected tokens and the batch's expected draft width per cap.

**Warm-up and exploration.** A family needs observations before its predictions mean
anything (the verify fit needs two distinct k to separate per-position from per-request
cost). Until a mode has run its warm-up plan (k0 = ``num_speculative_tokens``; ``psd``:
k0, k_alt, k_alt, so that the overlapped verify fit sees drafts of two lengths, since a
PSD step verifies what the step before drafted; ``sd``: k0, k_alt; ``ar``: one step; each
of these twice in a row, so that the cells it leaves are settled; k_alt = k0 // 2, or 2
for k0 = 1), it is run next, in the order psd, sd, ar, and on until its family holds the
measurements its prediction needs. Plan steps count once measured: a step whose
verification included a prompt's prefill is not, nor a draft call that first caught up on
tokens committed while the drafter sat idle (at most 2 x plan + 2 tries). Afterwards a
mode other than the current one is probed for one step when it is predicted within
``explore_gap`` of the best and was either never run at a batch size within a factor 1.5
of the present one (the fit would be an extrapolation) or not run for ``explore_every``
decisions (costs drift); a probe whose drafter first had to catch up (so its draft was not
timed) is run once more, and only once. AR, whose probe costs one step and no catch-up, is
probed within ``ar_probe_gap`` (by default whatever its prediction), and also when not run
for ``explore_every`` of the present batch-size bucket's decisions. A draft mode's
staleness probes at a bucket back off, each waiting twice as long as the last (up to
``PROBE_BACKOFF`` x ``explore_every``), while each finds the last one's measurement still
out of reach (``_back_off``). A neighbouring draft length of the current mode (the next
candidate either side) within ``explore_gap`` of the best is probed while its verification
cell holds no more than its provisional first observation (``MeasuredCells.thin``).

**Measured cells before the fit** (``minedraft.rules.measured_cells``): a candidate is
priced from the measured seconds of its exact shape once timed twice, else from the
fit corrected by the nearest settled batch size at the same length, so a mispredicted
candidate gets chosen, measured and corrected.

**Realized rates** (``minedraft.rules.step_statistics``). The per-cell costs time the
forwards; a step also pays what they do not see: the first steps after a switch of shapes
and models running slower, per-step work outside the forwards, the lanes contending. So
each mode keeps, per batch-size bucket (1, 2-3, 4-7, ...), its clean steps' predicted over
measured seconds (decayed sums, weight ``realized_weight``), and its predicted tokens/s
are multiplied by it: a mode whose steps keep taking longer than the model said loses to
one that runs as predicted. Time only: tokens are the acceptance tracker's business, and a
few unlucky verifications must not penalise a mode twice (once in alpha, once here). Steps
in which the drafter caught up on tokens committed while it was idle are left out by the
scheduler: that is the price of a switch, paid once, not the mode's rate, and so is the
first of a run of steps over ``STALL`` x their predicted seconds (a stall of the host,
``stalled``). A correction is trusted only while it is fresh: a mode not run for
``explore_every`` decisions is probed if its uncorrected prediction is competitive, and
the probe's step starts the mode's statistics at that bucket afresh (the correction from
none), so one bad spell cannot lock a mode out for good.

**Hysteresis.** The policy keeps a current (mode, k) and switches to the predicted best
only after ``patience`` consecutive decisions in which some candidate beats the current
one by more than ``margin`` plus the noise of the comparison (relative predicted
tokens/s): between two modes, the standard error of the difference of their mean
log(measured / predicted) step times over their recent clean steps (decayed, weight
``realized_weight``, per batch-size bucket; ``switch_noise``). On a shared machine a run of
slow steps raises the current mode's cells while the idle mode's stay as they were, and a
predicted gain within that error is as likely that as a real one. A step's own spread
would be too wide a gate: at 1 in flight it held AR where SD was 1.3-1.5x faster. Within a
mode the draft length moves one candidate at a time (among ``ks``, opt-in: by default
k0 is the only length). Per-request caps act outside the hysteresis: when every cap of
the current draft mode falls to 0 (nobody drafting is ahead by the margin,
``request_caps``) the step is AR at once, and the way back to that mode needs the margin
and the noise but not the patience. A draft mode whose every cap is 0 is no candidate but
stays a probe, uncapped, so that a stale cell cannot keep it out at a batch size for good.

**Switches checked on measurement.** A switch between modes rests on predictions, one of
them possibly stale (the mode left is re-measured only by probes). Each mode keeps its
measured tokens/s per batch-size bucket (decayed sums of its clean steps' tokens and
seconds); once the mode switched to has run ``patience`` clean steps at the bucket it was
chosen at, its measured rate is held against the one of the mode it left, and if it is
lower by more than the margin plus the noise, the switch is reverted and the mode barred
from the hysteresis at that bucket until it is probed again or the load changes bucket.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..types import InvalidInputError
from ..validation import require_int, require_ints, require_number, require_prob
from .acceptance import AcceptanceTracker, RequestObservation, RunningBatch
from .cost_model import CostModel
from .measured_cells import PROVISIONAL, MeasuredCells, near_batch
from .step_statistics import StepStatistics, batch_bucket

FLEX_MODES = ("psd", "sd", "ar")
FAMILY = {"psd": "overlapped", "sd": "sequential", "ar": "sequential"}


def nearest_index(ks: Sequence[int], k: int) -> int:
    """Index of the draft length in sorted ``ks`` nearest ``k``."""
    return min(range(len(ks)), key=lambda i: abs(ks[i] - k))


@dataclass(frozen=True)
class FlexSettings:
    # Draft lengths the policy may pick besides the mode's num_speculative_tokens (None: that
    # one only). Adaptive lengths are opt-in: priced on acceptance estimates that follow
    # streaks, a move to k = 3 at 1-2 in flight was expected to deliver 1.13-1.40x the tokens
    # it did, and flex's decode steps ran 0.90-0.93x fixed SD's at 4 in flight where it was
    # not stuck on AR (docs/flex.md, "Draft lengths").
    ks: tuple[int, ...] | None = None
    margin: float = 0.05  # predicted relative gain a switch needs, beyond the step-time noise ...
    patience: int = 3  # ... in this many consecutive decisions
    warmup: bool = True  # run each mode's warm-up plan before trusting its predictions
    explore_every: int = 64  # re-probe a competitive mode not run for this many decisions
    explore_gap: float = 0.2  # probe only modes predicted within this share of the best
    # AR is probed (never run near this batch size, or stale) within this share of the best;
    # 1: whatever its prediction. Its probe costs one step at AR's real speed, a draft
    # mode's also the drafter's catch-up (``_probe``).
    ar_probe_gap: float = 1.0
    decay: float = 0.9  # per-observation decay of a request's acceptance counts behind its draft caps
    # Per-observation decay of a request's steady acceptance counts, which price the draft
    # lengths: a streak of accepted drafts lifts the fast estimate for a few verifications,
    # and priced by it the batch's k wandered to 3-8 and back at 1 in flight.
    steady_decay: float = 0.97
    # Per-step decay of the global acceptance counts in steps that draft nothing: evidence
    # ages, so a draft given up on a bad spell is tried again in time (one bad for every
    # request is re-tried rarely, and briefly).
    idle_decay: float = 0.99
    # Drafted verifications behind the global acceptance estimate: its counts decay by
    # 1 - 1 / global_window per request verified with a draft. Decayed once per step
    # instead (None), it would hold about 10 verifications at 1 in flight, too few to tell
    # k = 1 from k = 3, and 320 at 32.
    global_window: float | None = 64.0
    prior_alpha: float = 0.5
    prior_weight: float = 4.0  # pseudo-observations behind the global estimate (towards prior_alpha)
    # Pseudo-observations pulling a request's estimate towards the global one. With 1, one
    # rejected first draft halved a new request's estimate (at k = 2 and an acceptance of
    # 0.5, one request in two), and two such requests took 2-4 in flight to AR for 20-60
    # steps while their estimates crept back. With 4 it falls to 0.8x the batch's rate, and
    # a request rejected every time still falls to about 0.3x it (its counts decay by
    # ``decay``, so they hold about 10 verifications): below break-even where drafting costs.
    request_prior_weight: float = 4.0
    schedule: tuple[tuple[str, int], ...] = ()  # fixed cyclic (mode, k) plan: tests, ablations
    cell_min_obs: int = 1  # predict from a measured (family, batch, length) cell after this many; 0: fit only
    cell_weight: float = 0.3  # weight of a new observation in a cell's running average
    # Weight of a step in a mode's realized / predicted tokens/s (0: predictions used as is).
    realized_weight: float = 0.2
    # Per-request draft caps: a request whose drafts keep being rejected stops drafting
    # (k = 0, plain decoding) while the others keep drafting, when that raises the step's
    # predicted tokens/s (``FlexPolicy.request_caps``). False: every request drafts the batch's k.
    per_request_k: bool = True
    # Intra-op threads of sequential (SD, AR) steps; None: the cores the two PSD lanes use
    # together (2 x intra_op_threads), or the process's count if that is larger.
    sequential_threads: int | None = None

    def __post_init__(self) -> None:
        if self.ks is not None:
            require_ints("FlexSettings.ks", self.ks, 1)
            object.__setattr__(self, "ks", tuple(self.ks))  # settings key the policy kept per engine pair
        if isinstance(self.schedule, str) or not isinstance(self.schedule, (list, tuple)) \
                or any(not isinstance(e, (list, tuple)) or len(e) != 2 for e in self.schedule):
            raise InvalidInputError(f"FlexSettings.schedule must be a list of (mode, k) pairs, got {self.schedule!r}")
        object.__setattr__(self, "schedule", tuple(tuple(e) for e in self.schedule))
        require_number("FlexSettings.margin", self.margin, 0)
        require_number("FlexSettings.explore_gap", self.explore_gap, 0, 1)
        require_number("FlexSettings.ar_probe_gap", self.ar_probe_gap, 0, 1)
        require_int("FlexSettings.patience", self.patience, 1)
        require_number("FlexSettings.decay", self.decay, 0, 1, low_open=True)
        require_number("FlexSettings.steady_decay", self.steady_decay, 0, 1, low_open=True)
        require_number("FlexSettings.idle_decay", self.idle_decay, 0, 1, low_open=True)
        if self.global_window is not None:
            require_number("FlexSettings.global_window", self.global_window, 1)
        require_int("FlexSettings.cell_min_obs", self.cell_min_obs, 0)
        require_number("FlexSettings.cell_weight", self.cell_weight, 0, 1, low_open=True)
        require_number("FlexSettings.realized_weight", self.realized_weight, 0, 1)
        require_prob("FlexSettings.prior_alpha", self.prior_alpha)
        for name in ("prior_weight", "request_prior_weight"):
            require_number(f"FlexSettings.{name}", getattr(self, name), 0, low_open=True)
        require_int("FlexSettings.sequential_threads", self.sequential_threads, 1, optional=True)
        for mode, k in self.schedule:
            if mode not in FLEX_MODES or not isinstance(k, int) or k < 0:
                raise InvalidInputError(f"FlexSettings.schedule entries must be (mode in {FLEX_MODES}, k >= 0), "
                                        f"got {(mode, k)!r}")


def _best_per_mode(values: dict[tuple[str, int], float], modes: Iterable[str]) -> dict[str, float]:
    """The highest value per mode over its (mode, k) candidates, for the modes that have any."""
    return {m: max(v for c, v in values.items() if c[0] == m) for m in modes if any(c[0] == m for c in values)}


def _rate(step: tuple[float, float]) -> float:
    tokens, seconds = step
    return tokens / seconds if seconds > 0 else 0.0


@dataclass
class SwitchCheck:
    """A switch between modes made on predictions, checked on measurement: the (mode, k)
    left, its measured tokens/s at the batch-size bucket when it was left, and the new
    mode's clean steps since (tokens, seconds, steps)."""

    left: tuple[str, int]
    bucket: int
    left_rate: float
    tokens: float = 0.0
    seconds: float = 0.0
    steps: int = 0


WARMUP_STEP_CAP = 32  # steps a mode's warm-up may take, untimed ones included
PROBE_BACKOFF = 8  # a dominated draft mode's staleness probes come at most this many times rarer (``_back_off``)
STALL = 3.0  # a clean step over this many times its predicted seconds is a stall of the host (``stalled``)


@dataclass
class Decision:
    mode: str  # "psd", "sd" or "ar"
    k: int  # draft cap (0 for ar)
    reason: str  # "warmup", "explore", "hold", "switch", "revert", "schedule", "unmeasured"
    predicted: dict[str, float] = field(default_factory=dict)  # best tokens/s per mode (exploit only)
    caps: dict[str, int] = field(default_factory=dict)  # per-request draft caps <= k (absent: k)
    expected: float | None = None  # the cost model's tokens/s for this (mode, k), before correction
    expected_seconds: float | None = None  # the cost model's seconds for this step, before correction
    running: int = 0  # requests running when it was decided


@dataclass(frozen=True)
class Prices:
    """One decision's candidates, priced: ``caps`` per (mode, k) ([n] per-request draft caps;
    None: every request k), ``steps`` their (expected tokens, seconds), ``expected`` their
    tokens/s, ``probes`` those times each mode's realized ratio, and ``scores`` the same
    without the draft modes whose every cap is 0 (probes only); ``per_mode`` the best score
    per mode."""

    batch: RunningBatch
    caps: dict[tuple[str, int], np.ndarray | None]
    steps: dict[tuple[str, int], tuple[float, float]]
    expected: dict[tuple[str, int], float]
    probes: dict[tuple[str, int], float]
    scores: dict[tuple[str, int], float]
    per_mode: dict[str, float]


class FlexPolicy:
    """Chooses (mode, k) per step from the two cost families and the acceptance estimates."""

    def __init__(self, num_speculative_tokens: int, settings: FlexSettings | None = None,
                 overlapped: CostModel | None = None, sequential: CostModel | None = None) -> None:
        self.settings = settings or FlexSettings()
        k0 = self.num_speculative_tokens = num_speculative_tokens  # k0 of the warm-up plan
        self.ks = tuple(sorted(set(self.settings.ks or ()) | {k0}))
        self.models = {"overlapped": overlapped or CostModel(), "sequential": sequential or CostModel()}
        self.overhead = {"overlapped": 0.0, "sequential": 0.0}
        self.measured = {(f, what): 0 for f in ("overlapped", "sequential") for what in ("draft", "verify")}
        self._overhead_seen = {"overlapped": False, "sequential": False}
        s = self.settings
        self.acceptance = AcceptanceTracker(s.decay, s.prior_alpha, s.prior_weight, s.request_prior_weight,
                                            s.idle_decay, s.global_window, s.steady_decay)
        self.cells = MeasuredCells(s.cell_weight)
        k_alt = max(1, k0 // 2) if k0 > 1 else 2
        # Each length twice in a row: a shape's first call pays one-off costs (a first SD draft
        # after PSD steps: 12.6-17.7 ms a forward at 4 rows, 6-7 warm), and its cell keeps
        # only the second (MeasuredCells.add), so the prices SD and PSD start from are warm.
        plans = {"psd": (k0, k_alt, k_alt), "sd": (k0, k_alt), "ar": (0,)}
        self.warmup_plan = {m: tuple(k for k in plan for _ in range(PROVISIONAL + 1)) for m, plan in plans.items()}
        self.current: tuple[str, int] | None = None
        self.streak = 0
        self.num_decisions = 0
        self.runs = {m: 0 for m in FLEX_MODES}  # clean (measured) steps per mode
        self.attempts = {m: 0 for m in FLEX_MODES}  # all steps per mode
        self.caught_up = {m: 0 for m in FLEX_MODES}  # steps whose draft fed a context first (untimed)
        self.last_run = {m: 0 for m in FLEX_MODES}  # num_decisions when the mode last ran
        # Decisions taken per batch-size bucket, and their count there when each mode last ran
        # there: AR's staleness at a bucket (``_probe``) is counted in that bucket's decisions.
        self.decisions_at: dict[int, int] = {}
        self.last_run_at: dict[tuple[str, int], int] = {}
        self.seen_batches: dict[str, set[int]] = {m: set() for m in FLEX_MODES}
        # Realized-rate corrections, noise and measured rates of clean steps per (mode, bucket).
        self.step_statistics = StepStatistics(self.settings.realized_weight, self.settings.explore_every)
        self._schedule_pos = 0
        self._check: SwitchCheck | None = None  # the last switch between modes, until judged
        self._barred: tuple[str, int] | None = None  # (mode, bucket) a reverted switch went to
        self._capped_out: str | None = None  # the draft mode left for AR when its every cap fell to 0
        self.last_length: dict[str, int] = {}  # the draft length each mode was last decided at
        self._probing: str | None = None  # the mode of the last probe, until its step is noted
        self._probe_again: str | None = None  # a probe whose draft caught up: run it once more
        self._repeating = False  # the probe under way is such a repeat, not run again whatever it caught up
        # Decisions between staleness probes of a draft mode at a bucket (absent: explore_every),
        # doubled while each probe finds the mode's last measurement still dominated (``_back_off``).
        self._probe_every: dict[tuple[str, int], int] = {}
        self._over: dict[str, bool] = {}  # whether each mode's last clean step took over STALL x its prediction
        # Costs and step predictions already computed in the decision under way (None outside
        # one): a decision prices every (mode, k) candidate, most of them several times.
        self._memo: dict[tuple, object] | None = None

    def start_run(self) -> None:
        """A new scheduler (a ``generate`` call, a bench trial) runs on this policy: what was
        measured is kept, and a fixed schedule starts again from its first entry."""
        self._schedule_pos = 0

    # -- observations (fed by the scheduler from its StepRecords and draft calls) --------
    def observe_draft(self, family: str, batch: int, forwards: int, seconds: float) -> None:
        if batch > 0 and forwards > 0 and seconds > 0:
            self.models[family].observe_draft(batch, forwards, seconds)
            self.cells.add(family, "draft", batch, 1, seconds / forwards, self.num_decisions)  # per forward: T_d = k f(b)
            self.measured[family, "draft"] += 1

    def observe_verify(self, family: str, batch: int, width: float, seconds: float) -> None:
        """A verification of ``batch`` requests whose longest draft was ``width`` tokens."""
        if batch > 0 and seconds > 0:
            self.models[family].observe_verify(batch, width, seconds)
            self.cells.add(family, "verify", batch, width, seconds, self.num_decisions)
            self.measured[family, "verify"] += 1

    def usable(self, mode: str) -> bool:
        """Whether the family of ``mode`` has the measurements its prediction needs (a model
        handed in already fitted counts as measured)."""
        family = FAMILY[mode]
        if self.models[family].ready:
            return True
        needs = ("verify",) if mode == "ar" else ("draft", "verify")
        return all(self.measured[family, what] > 0 for what in needs)

    def observe_overhead(self, family: str, seconds: float, weight: float = 0.2) -> None:
        seconds = max(seconds, 0.0)
        if not self._overhead_seen[family]:
            self.overhead[family], self._overhead_seen[family] = seconds, True
        else:
            self.overhead[family] += weight * (seconds - self.overhead[family])
        if family == "overlapped":
            self.models[family].overhead = self.overhead[family]

    def observe_requests(self, items: Iterable[RequestObservation]) -> None:
        self.acceptance.observe(items)

    def note_step(self, mode: str, num_running: int, clean: bool = True, caught_up: bool = False) -> None:
        """A step of ``mode`` ran with ``num_running`` requests; ``clean``: its verification was
        measured (no prefill in it); ``caught_up``: its drafter first fed a request's context (its
        first draft, or tokens committed while the drafter sat idle), so its draft was not
        measured. Warm-up counts clean steps only."""
        if caught_up and self._probing == mode and mode != "ar" and not self._repeating:
            self._probe_again = mode
        self._probing = None
        self.runs[mode] += int(clean)
        self.attempts[mode] += 1
        self.caught_up[mode] += int(caught_up)
        self.last_run[mode] = self.num_decisions
        bucket = batch_bucket(num_running)
        self.last_run_at[mode, bucket] = self.decisions_at.get(bucket, 0)
        self.seen_batches[mode].add(num_running)

    def stalled(self, decision: Decision, seconds: float) -> bool:
        """Whether a clean step run on ``decision`` that took ``seconds`` is a stall of the host,
        whose timings the scheduler then leaves out as it does a prefill step's: over
        ``STALL`` x its predicted seconds, unless the mode's clean step before it was over
        too. In a run of such steps only the first is left out: the rest are the mode's cost
        (a slower regime, or a prediction far too low), which must be learnt. One
        verification at 1 in flight that took about 1.5 s, 30x its usual, moved SD's cell
        there from 47 to 478 ms and its realized rate to 0.21, and flex ran AR at 1 in
        flight for the rest of the run, where SD is 1.2-1.3x AR (equal requests in flight
        and cores)."""
        expected = decision.expected_seconds
        over = bool(expected) and seconds > STALL * expected
        stall = over and not self._over.get(decision.mode, False)
        self._over[decision.mode] = over
        return stall

    def observe_realized(self, decision: Decision, seconds: float, tokens: int | None = None) -> None:
        """A step run on ``decision`` took ``seconds`` (all of the step, not just its forwards)
        and emitted ``tokens``. Predicted over measured time corrects that mode's later
        predictions: what the per-cell costs miss (shapes switching, per-step work outside
        the forwards). Tokens over seconds is the mode's measured rate, against which a
        switch is judged (``SwitchCheck``)."""
        key = (decision.mode, batch_bucket(decision.running))
        self.step_statistics.observe(key, self.num_decisions, decision.expected_seconds, seconds, tokens)
        check = self._check
        if tokens is not None and seconds > 0 and check and decision.reason in ("hold", "switch") \
                and self.current and decision.mode == self.current[0] and key[1] == check.bucket:
            check.tokens, check.seconds, check.steps = check.tokens + tokens, check.seconds + seconds, check.steps + 1

    def measured_rate(self, mode: str, num_running: int) -> float | None:
        """Measured tokens/s of ``mode``'s recent clean steps at this bucket, if it ran there
        within ``explore_every`` decisions."""
        return self.step_statistics.measured_rate((mode, batch_bucket(num_running)), self.num_decisions)

    def step_noise(self, mode: str, num_running: int) -> float:
        """Standard deviation of log(measured / predicted) step time of ``mode``'s recent
        clean steps at this batch size's bucket (0 before two of them)."""
        return self.step_statistics.noise((mode, batch_bucket(num_running)))

    def switch_noise(self, current: str, best: str, num_running: int) -> float:
        """Noise of the gap between two modes' corrected rates: the standard error of the
        difference of their mean log step-time ratios, from the larger of the two step
        spreads (one machine) and the effective number of steps behind each mean (a mode with
        none at this bucket counts as one). Two draft lengths of one mode share its mean, so
        its noise cancels from their gap (0): that gap is in cells and acceptance, which
        margin and patience gate."""
        if current == best:
            return 0.0
        bucket = batch_bucket(num_running)
        spread = max(self.step_noise(current, num_running), self.step_noise(best, num_running))
        return spread * math.sqrt(sum(self.step_statistics.weight_sq((m, bucket)) for m in (current, best)))

    def realized_ratio(self, mode: str, num_running: int) -> float:
        """Predicted over measured step time of ``mode`` at this batch size's bucket (1: none
        yet): the factor on its predicted tokens/s."""
        return self.step_statistics.realized_ratio((mode, batch_bucket(num_running)))

    def forget(self, request_id: str) -> None:
        self.acceptance.forget(request_id)

    # -- predictions --------------------------------------------------------------------
    def predict(self, mode: str, k: int, groups: tuple[Sequence[str], Sequence[str]],
                caps: dict[str, int] | None = None) -> float:
        """Predicted tokens/s of running ``mode`` with draft cap k on the two sub-batches
        (``caps``: per-request caps <= k, default k for every request)."""
        tokens, seconds = self.predict_step(mode, k, groups, caps)
        return tokens / seconds if seconds > 0 else 0.0

    def predict_step(self, mode: str, k: int, groups: tuple[Sequence[str], Sequence[str]],
                     caps: dict[str, int] | None = None) -> tuple[float, float]:
        """(expected tokens, seconds) of one step of ``mode``; PSD's as half of its two-step cycle."""
        n = len(groups[0]) + len(groups[1])
        if n == 0:
            return 0.0, 0.0
        if mode == "ar":
            return float(n), self.t_verify("sequential", n, 0) + self.overhead["sequential"]
        batch = self._running(groups)
        return self._step(mode, batch, batch.caps(k, caps))

    def _memoized(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """``compute()``, kept for the rest of the decision under way (if one is)."""
        if self._memo is None:
            return compute()
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def _running(self, groups: tuple[Sequence[str], Sequence[str]]) -> RunningBatch:
        return self._memoized(("batch", id(groups)), lambda: RunningBatch(self.acceptance, groups, self.ks[-1]))

    def _step(self, mode: str, batch: RunningBatch, cap: np.ndarray) -> tuple[float, float]:
        return self._memoized(("step", mode, id(batch), cap.tobytes()), lambda: self._predict_step(mode, batch, cap))

    def _predict_step(self, mode: str, batch: RunningBatch, cap: np.ndarray) -> tuple[float, float]:
        """``cap``: [n] per-request draft caps."""
        tokens = batch.tokens(cap)
        if mode == "sd":
            draft, verify = self._costs("sequential", batch, slice(0, len(batch)), cap)
            return tokens, draft + verify + self.overhead["sequential"]
        if mode == "psd":
            if not 0 < batch.split < len(batch):
                raise ValueError("psd needs two non-empty sub-batches")
            draft_a, verify_a = self._costs("overlapped", batch, slice(0, batch.split), cap)
            draft_b, verify_b = self._costs("overlapped", batch, slice(batch.split, len(batch)), cap)
            cycle = max(draft_b, verify_a) + max(draft_a, verify_b) + 2 * self.overhead["overlapped"]
            return tokens / 2, cycle / 2
        raise ValueError(f"mode must be one of {FLEX_MODES}, got {mode!r}")

    def _costs(self, family: str, batch: RunningBatch, rows: slice, cap: np.ndarray) -> tuple[float, float]:
        """Seconds of drafting the requests of ``rows`` that draft at all (cap > 0) and of
        verifying all of them, at their expected longest draft."""
        mine = cap[rows]  # [rows]
        width = batch.width(mine, batch.gamma[rows])
        draft = self._t_draft_some(family, len(mine), int(np.count_nonzero(mine)), width)
        return draft, self.t_verify(family, len(mine), width)

    def _t_draft_some(self, family: str, rows: int, drafting: int, forwards: float) -> float:
        """Seconds of drafting ``drafting`` of a sub-batch's ``rows`` requests: the rows' own
        cost, scaled by the fit's shape. What a request not drafting saves is then the fit's
        slope, not the difference of two measured cells (b and b - 1): each is noisy by
        several percent, their difference by as much as the whole slope, and priced that
        way the per-request caps cut 3-4 of 8 requests out of SD at 8 in flight, saving
        about 3 ms of a 100 ms step and losing 3 of its 15 tokens."""
        if drafting == 0 or forwards <= 0:
            return 0.0
        full = self.t_draft(family, rows, forwards)
        if drafting == rows:
            return full
        fit = self.models[family].t_draft
        return full * fit(drafting, 1) / fit(rows, 1)  # CostModel.t_draft is floored at 1e-9

    def request_caps(self, mode: str, k: int, groups: tuple[Sequence[str], Sequence[str]]) -> dict[str, int]:
        """Per-request draft caps for ``mode`` at batch cap k: k, or 0 (plain decoding). The
        target scores a padded rectangle as wide as the longest draft, so a request drafting
        fewer tokens than the others saves no verification: the choice worth making per
        request is whether it drafts at all. One request not drafting saves ``saved`` seconds
        (its draft rows at the fit's slope, ``_t_draft_some``; the same for every request:
        costs depend on how many draft, not on which) and loses its ``E_i(k) - 1`` expected
        accepted tokens, each worth the step's seconds per token; it drafts iff the tokens
        are worth more. Nobody drafts only when that is predicted faster than those drafting
        (everyone, if each request fails alone) by more than the margin (the last drafters
        take the width with them): such a candidate is plain AR, which competes as a mode of
        its own."""
        batch = self._running(groups)
        return dict(zip(batch.ids, self._request_caps(mode, k, batch).tolist()))

    def _request_caps(self, mode: str, k: int, batch: RunningBatch) -> np.ndarray:
        """``request_caps`` as an [n] array."""
        n = len(batch)
        everyone = np.full(n, k)  # [n]
        tokens, seconds = self._step(mode, batch, everyone)
        if tokens <= 0:
            return everyone
        # The request whose drafting is priced: one from the larger sub-batch, so that under
        # PSD its sub-batch still drafts without it (the width stays).
        without = everyone.copy()
        without[0 if batch.split >= n - batch.split else batch.split] = 0
        saved = seconds - self._step(mode, batch, without)[1]
        per_token = seconds / tokens
        caps = np.where((batch.fast_table[:, k] - 1.0) * per_token > saved, k, 0)  # [n]
        # Nobody drafting is plain AR, taken at once, outside the hysteresis: only when ahead by
        # the margin, as the way back must be, whether the requests fail one by one or only
        # together. Ahead by any amount, a dip of SD's price 1.5% under AR's at 8 in flight
        # switched to AR at once, and SD, predicted 2-4% ahead again for the next 60 steps,
        # never cleared the margin back; at 1 in flight three rejected drafts of the one
        # request did the same for 25-65 steps where SD runs 1.25x AR (equal requests in
        # flight and cores).
        drafting = caps if caps.any() else everyone  # [n]
        none = np.zeros(n, dtype=caps.dtype)  # [n]
        ahead = _rate(self._step(mode, batch, none)) > _rate(self._step(mode, batch, drafting)) * (1.0 + self.settings.margin)
        return none if ahead else drafting

    def t_verify(self, family: str, batch: int, width: float) -> float:
        """Seconds of one verification of ``batch`` requests whose longest draft is ``width``:
        the measured cell, else the corrected fit."""
        return self._cost(family, "verify", batch, width, self.models[family].t_verify)

    def t_draft(self, family: str, batch: int, forwards: float) -> float:
        if forwards <= 0:
            return 0.0
        return forwards * self._cost(family, "draft", batch, 1, self.models[family].t_draft)

    def _cost(self, family: str, kind: str, batch: int, length: float, fit: Callable[[int, float], float]) -> float:
        return self._memoized(("cost", family, kind, batch, length),
                              lambda: self._measured_or_fitted(family, kind, batch, length, fit))

    def _measured_or_fitted(self, family: str, kind: str, batch: int, length: float,
                            fit: Callable[[int, float], float]) -> float:
        """The cell measured at this shape, else the fit corrected by the nearest measured
        batch size at this length. A cell's lone first observation (``MeasuredCells.add``:
        provisional) prices the shape from above only where a settled cell (two or more
        observations) at this length gives the fit's correction: a shape's first call pays
        one-off costs, and priced on them (one draft forward at 4 rows timed at 18.8 ms,
        7 ms warm) SD stayed out of a whole drain, its cell never timed again."""
        min_obs = self.settings.cell_min_obs
        if min_obs < 1:
            return fit(batch, length)
        settled = max(min_obs, PROVISIONAL + 1)
        cell = self.cells.get(family, kind, batch, length, settled)
        if cell is not None:
            return cell
        provisional = self.cells.get(family, kind, batch, length, min_obs)
        near = self.cells.nearest(family, kind, batch, length, settled)
        if near is None:  # nothing settled at this length: the shape's own first call, else any
            if provisional is not None:
                return provisional
            near = self.cells.nearest(family, kind, batch, length, min_obs)
        fitted = fit(batch, length)
        if near is not None and fit(near[0], length) >= 1e-6:
            fitted *= near[1] / fit(near[0], length)
        return fitted if provisional is None else min(provisional, fitted)

    def candidates(self, modes: Iterable[str]) -> list[tuple[str, int]]:
        return [(m, k) for m in modes for k in ((0,) if m == "ar" else self.ks)]

    # -- the decision -------------------------------------------------------------------------
    def decide(self, groups: tuple[Sequence[str], Sequence[str]], overlap: bool = True) -> Decision:
        """``groups``: request ids of the sub-batch verified next and of the other one.
        ``overlap``: whether the lanes can run draft and target concurrently."""
        self._memo = {}
        try:
            return self._decide(groups, overlap)
        finally:
            self._memo = None

    def _decide(self, groups: tuple[Sequence[str], Sequence[str]], overlap: bool) -> Decision:
        self.num_decisions += 1
        n = len(groups[0]) + len(groups[1])
        bucket = batch_bucket(n)
        self.decisions_at[bucket] = self.decisions_at.get(bucket, 0) + 1
        eligible = [m for m in FLEX_MODES if m != "psd" or (overlap and groups[0] and groups[1])]
        planned = self._planned(eligible)
        if planned:
            return planned
        eligible = [m for m in eligible if self.usable(m)]
        if not eligible:  # nothing measured yet (warm-up cut short): plain SD, which measures both
            return Decision("sd", self.num_speculative_tokens, "unmeasured")
        prices = self._price(groups, eligible, n)
        probe = self._choose_probe(prices, n)
        self._lift_bar(probe, n)
        if probe:
            self._probing = probe[0]
            return self._decision(prices, probe, "explore")
        reverted = self._judge_switch(prices.scores, n)
        if reverted:
            return self._decision(prices, reverted, "revert")
        return self._decision(prices, *self._hysteresis(prices.scores, eligible, n))

    def _planned(self, eligible: Sequence[str]) -> Decision | None:
        """The fixed schedule's next step, else the next warm-up step of a mode that needs one."""
        s = self.settings
        if s.schedule:
            mode, k = s.schedule[self._schedule_pos % len(s.schedule)]
            self._schedule_pos += 1
            if mode not in eligible:
                mode = "sd"
            return Decision(mode, 0 if mode == "ar" else max(k, 1), "schedule")
        for mode in eligible:
            # A plan run but not measured (a draft that first fed a request's context, its
            # first draft or one after AR steps, is not timed) is run on: an unmeasured mode
            # is never a candidate, and SD stayed out of a whole run at 4 in flight that way.
            # Those steps do not use up the plan's tries (the bench's warm-up call spent them
            # all on requests of two or three tokens), up to WARMUP_STEP_CAP steps in all.
            plan = self.warmup_plan[mode]
            unfinished = self.runs[mode] < len(plan) or not self.usable(mode)
            tries = self.attempts[mode] - self.caught_up[mode]
            if s.warmup and unfinished and tries < 2 * len(plan) + 2 and self.attempts[mode] < WARMUP_STEP_CAP:
                return Decision(mode, plan[self.runs[mode] % len(plan)], "warmup")
        return None

    def _price(self, groups: tuple[Sequence[str], Sequence[str]], eligible: Sequence[str], n: int) -> Prices:
        """Every (mode, k) candidate priced with its per-request caps."""
        batch = self._running(groups)
        caps = {c: self._caps(c, batch) for c in self.candidates(eligible)}  # [n] each; None: every request k
        # A candidate whose caps are all 0 drafts nothing: it is AR, already a candidate. A draft
        # mode left with no candidate stays a probe, uncapped: priced out on a stale cell (a
        # slow spell's last steps at 4 rows, 82 ms a verification where 55-60 is usual) it
        # would otherwise never run at this batch size again, and flex held AR for a whole
        # trial at 4 in flight where SD is 1.1x AR.
        capped_out = {m for m in eligible if m != "ar" and all(v is not None and not v.any()
                                                                for c, v in caps.items() if c[0] == m)}
        caps = {c: None if c[0] in capped_out else v for c, v in caps.items()
                if c[0] in capped_out or v is None or v.any()}
        steps = {c: self.predict_step(*c, groups) if v is None else self._step(c[0], batch, v) for c, v in caps.items()}
        expected = {c: t / sec if sec > 0 else 0.0 for c, (t, sec) in steps.items()}
        probes = {c: e * self.realized_ratio(c[0], n) for c, e in expected.items()}
        scores = {c: v for c, v in probes.items() if c[0] not in capped_out}
        return Prices(batch, caps, steps, expected, probes, scores, _best_per_mode(scores, eligible))

    def _choose_probe(self, prices: Prices, n: int) -> tuple[str, int] | None:
        """A stale or unmeasured mode to probe (``_probe``), at its best length, else a thin
        neighbouring draft length of the current mode (``_probe_length``), else None."""
        probes = prices.probes
        probe_rates = _best_per_mode(probes, FLEX_MODES)
        probed_mode = self._probe(list(probe_rates), probe_rates, _best_per_mode(prices.expected, probe_rates), n)
        if probed_mode:
            return max((c for c in probes if c[0] == probed_mode), key=lambda c: probes[c])
        return self._probe_length(prices.scores, n)

    def _decision(self, prices: Prices, chosen: tuple[str, int], reason: str) -> Decision:
        self.last_length[chosen[0]] = chosen[1]
        caps = prices.caps[chosen]
        per_request = {} if caps is None else dict(zip(prices.batch.ids, caps.tolist()))
        return Decision(*chosen, reason, prices.per_mode, per_request, expected=prices.expected[chosen],
                        running=len(prices.batch), expected_seconds=prices.steps[chosen][1])

    def _hysteresis(self, scores: dict[tuple[str, int], float], eligible: Sequence[str],
                    n: int) -> tuple[tuple[str, int], str]:
        """The current (mode, k), or the best once it has led by the margin plus the noise
        for ``patience`` decisions (a return from a cap-out: one), with its reason."""
        s = self.settings
        best = max(scores, key=lambda c: scores[c])
        if self.current is None or self.current not in scores:
            self._check = None
            # Per-request caps act at every step, outside the hysteresis: a draft mode whose
            # every cap fell to 0 is AR at once (remembered, for the way back).
            capped = self.current is not None and self.current[0] in eligible and best[0] == "ar"
            self._capped_out = self.current[0] if capped and self.current[0] != "ar" else None
            self.current, self.streak = best, 0
            return best, "switch"
        if self._barred and best[0] == self._barred[0]:  # a reverted switch is not made again at this load
            allowed = [c for c in scores if c[0] != self._barred[0]]
            best = max(allowed, key=lambda c: scores[c]) if allowed else best
        noise = self.switch_noise(self.current[0], best[0], n)
        if scores[best] > scores[self.current] * (1.0 + s.margin + noise):
            self.streak += 1
        else:
            self.streak = 0
        # The way back from a cap-out to the mode that had it is gated like any switch but
        # without patience, as the cap-out had none: held to patience it stayed on AR for
        # 7-30 steps at a time at 1 in flight, where SD k=2 is 1.3x AR.
        capped_return = self.streak and best[0] == self._capped_out and self.current[0] == "ar"
        if self.streak >= s.patience or capped_return:
            chosen = self._step_towards(best, scores)
            if chosen[0] != self.current[0]:
                left_rate = self.measured_rate(self.current[0], n)
                self._check = SwitchCheck(self.current, batch_bucket(n), left_rate) \
                    if left_rate and not capped_return else None
            self.current, self.streak, self._capped_out = chosen, 0, None
            return chosen, "switch"
        return self.current, "hold"

    def _lift_bar(self, probe: tuple[str, int] | None, n: int) -> None:
        """A mode barred after a reverted switch is free again once the load leaves the bucket
        or the mode is probed (its estimates then measured anew)."""
        if self._barred and (self._barred[1] != batch_bucket(n) or probe and probe[0] == self._barred[0]):
            self._barred = None

    def _judge_switch(self, scores: dict[tuple[str, int], float], n: int) -> tuple[str, int] | None:
        """Once the mode switched to has run ``patience`` clean steps at the bucket it was
        chosen at, its measured tokens/s is held against the one measured for the mode it
        left: below it by more than margin + noise, the switch rested on a misprediction and
        is reverted, and the mode is barred from the hysteresis at this bucket until it is
        probed again or the load moves to another bucket. (Seen once at 16 in flight: flex
        switched from AR to PSD and held it for 55 of 64 steps at half AR's rate.)"""
        check, s = self._check, self.settings
        if check is None or self.current is None:
            return None
        if check.bucket != batch_bucket(n):  # the load moved: the rates are not comparable
            self._check = None
            return None
        if check.steps < s.patience:
            return None
        self._check = None
        if check.left not in scores:
            return None
        noise = self.switch_noise(self.current[0], check.left[0], n)
        if check.tokens / check.seconds * (1.0 + s.margin + noise) >= check.left_rate:
            return None
        self._barred = (self.current[0], check.bucket)
        self.current, self.streak = check.left, 0
        return check.left

    def _step_towards(self, best: tuple[str, int], scores: dict[tuple[str, int], float]) -> tuple[str, int]:
        """The draft length moves one candidate at a time towards the best, from the running
        one or, entering another mode, from the length that mode was last decided at: with
        lengths priced on the fast estimate (0.9 decay), a streak of accepted drafts passed
        the hysteresis and at 1 in flight took k from 2 to 5 or 6 just as the streak ended,
        and a new request's two fully accepted probe drafts took SD in at k = 8 from a probe
        at 3; a single step is the smaller mistake whatever the estimate. A mode never
        decided before is entered at its best length."""
        assert self.current is not None
        start = self.current[1] if best[0] == self.current[0] else self.last_length.get(best[0])
        if start is None:
            return best
        ks = sorted(k for m, k in scores if m == best[0])
        here = nearest_index(ks, start)
        if ks[here] == best[1]:
            return best
        return best[0], ks[here + (1 if best[1] > ks[here] else -1)]

    def _caps(self, candidate: tuple[str, int], batch: RunningBatch) -> np.ndarray | None:
        mode, k = candidate
        if mode == "ar" or not self.settings.per_request_k:
            return None
        return self._request_caps(mode, k, batch)

    def _probe(self, eligible: Sequence[str], per_mode: dict[str, float], uncorrected: dict[str, float],
               n: int) -> str | None:
        """A competitive mode whose cost estimate is an extrapolation or stale, if any. A stale
        mode competes on its uncorrected prediction: its realized-rate correction is as old
        as its last run. A probe whose draft had to catch up first (the drafter sat out AR
        steps, so its call was not timed as drafting) is run once more, measured this time,
        but only once: at 32 in flight, requests admitted under AR steps kept every repeat
        catching up as well, and SD ran 5-12 probes in a row where its steps cost 2-4 AR
        steps each.

        AR competes within ``ar_probe_gap`` (by default whatever its prediction), and is stale
        also when it has not run for ``explore_every`` of the present batch-size bucket's
        decisions (AR steps in a drain's tail refresh nothing at the full batch). Its
        extrapolations and cells can be far off: never run at 16 rows, AR was priced at
        87-90 tok/s there against SD's 200-230 and ran at about 250; one observation in a
        drain left its cell at 16 rows at 110 ms while its steps took 55-72. Flex then ran SD
        on 78-99% of the steps of trials at 16 in flight, at 0.87-0.93x AR. AR's probe costs
        one step at AR's real speed, so its prediction need not be close; a draft mode's also
        costs the drafter's catch-up on AR's tokens and is run twice (a 32-row catch-up took
        179 ms, a draft 35), and with a gap of 0.5 SD and PSD were probed on 13-34% and 1-7%
        of the steps at 32 in flight, at 0.78-0.82x AR (ratios at equal requests in flight
        and cores)."""
        if not self.settings.warmup or self.current is None:
            return None
        again, self._probe_again = self._probe_again, None
        self._repeating = again in eligible and again != self.current[0]
        if self._repeating:
            return again
        top, s = max(per_mode.values()), self.settings
        bucket = batch_bucket(n)
        for mode in eligible:
            if mode == self.current[0]:
                continue
            near = any(near_batch(b, n) for b in self.seen_batches[mode])
            every = self._probe_every.get((mode, bucket), s.explore_every)  # AR's never backs off
            stale = self.num_decisions - 1 - self.last_run[mode] >= every
            if mode == "ar":
                stale = stale or self.decisions_at[bucket] - 1 - self.last_run_at.get((mode, bucket), 0) \
                    >= s.explore_every
            score = uncorrected[mode] if stale else per_mode[mode]
            gap = s.ar_probe_gap if mode == "ar" else s.explore_gap
            if score >= (1.0 - gap) * top and (not near or stale):
                if mode != "ar" and near:
                    self._back_off(mode, bucket, every, dominated=per_mode[mode] < (1.0 - gap) * top)
                return mode
        return None

    def _back_off(self, mode: str, bucket: int, every: int, dominated: bool) -> None:
        """A staleness probe of a draft mode re-measures a correction that has aged. When the
        correction it re-measures (that of the last probe) still puts the mode out of reach,
        the next probe at this bucket waits twice as long, up to ``PROBE_BACKOFF`` x
        ``explore_every``; when it does not, the wait is ``explore_every`` again. At 32 in
        flight SD's uncorrected price stays within ``explore_gap`` of AR (0.80-0.85x) while
        its steps run at about 0.7x AR's rate; a probe and the repeat its drafter's catch-up
        asks for, once every 64 decisions, took 4-11% of a flex trial's decode time at
        0.4-0.85x AR's rate (equal requests in flight and cores)."""
        limit = PROBE_BACKOFF * self.settings.explore_every
        self._probe_every[mode, bucket] = min(2 * every, limit) if dominated else self.settings.explore_every

    def _probe_length(self, scores: dict[tuple[str, int], float], n: int) -> tuple[str, int] | None:
        """A neighbouring draft length of the current mode (the next candidate either side,
        the only ones ``_step_towards`` can move to) predicted within ``explore_gap`` of the
        best whose verification cost rests on a provisional observation at most
        (``MeasuredCells.thin``): one cold first step must not price a length out for good, as
        it did at 1 in flight (k = 2 held at 67 ms a verification, 45-50 ms when run again).
        Lengths further away are not probed: at 4 in flight, probing every thin length at
        every batch size the trial's tail passed through took 5-7 steps of 40, most at k = 5-8."""
        if not self.settings.warmup or self.current is None or self.current[0] == "ar":
            return None
        mode, top = self.current[0], max(scores.values())
        if self.cells.thin(FAMILY[mode], "verify", n, self.current[1]):
            return None  # the running length is no better measured: nothing to weigh it against
        here = nearest_index(self.ks, self.current[1])
        neighbours = {(mode, self.ks[i]) for i in (here - 1, here + 1) if 0 <= i < len(self.ks)}
        thin = [c for c in neighbours if c in scores and scores[c] >= (1.0 - self.settings.explore_gap) * top
                and self.cells.thin(FAMILY[mode], "verify", n, c[1])]
        return max(thin, key=lambda c: scores[c]) if thin else None
