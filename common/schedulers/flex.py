"""Flex decoding (mode ``flex``): every step runs PSD, sequential SD or AR, as the policy says.

Built on the PSD scheduler's two sub-batches and draft store, but with the admission of
the sequential modes: ``max_batch_size`` caps the whole running batch (both sub-batches
together), so flex holds exactly the requests AR or SD would. Per step ``FlexPolicy``
(minedraft.rules.flex_policy) picks the mode, the draft cap k and per-request caps <= k
(0 for a request whose drafts keep being rejected):

- ``psd``: the overlapped PSD step itself (``ParallelSpeculativeScheduler.step``);
- ``sd``: one sequential step over *all* running requests: draft those without a stored
  draft, then verify everyone;
- ``ar``: verify all running requests without drafting anew.

Switching keeps losslessness for free: a stored draft was made from its request's
committed tokens, which only change when that request is verified, so it is verified as
is by whichever mode runs next (AR too: those tokens are already paid for). Engines roll
back to the committed prefix by the usual contract.

Sequential steps run inline in the scheduler's thread with every core the two lanes use
together (2 x ``intra_op_threads``, or the process's count before the lanes lowered it if
that is larger; ``FlexSettings.sequential_threads`` overrides), and overlapped steps on the
lanes: torch's per-thread OpenMP settings let the count switch between the two regimes
while both lanes are idle.

Options (``FlexOptions``): PSD's, plus the policy's ``FlexSettings`` (CLI flags
``--flex-margin`` etc.). The policy's measurements (draft and verify times per family,
acceptance per request) persist across ``generate`` calls in the engine pair's ``memory``
(``EnginePair.memory``, handed over by ``create_scheduler``), so warm-up is paid once per
engine pair. Every step draws with ``draft_confidence_threshold`` when it is set
(confidence-adaptive draft length). Step records carry mode ``flex:psd``, ``flex:sd`` or
``flex:ar``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import torch

from ..lanes import LanePair
from ..protocols import Drafter, Target
from ..rules.acceptance import RequestObservation
from ..rules.draft_budget import select_by_confidence
from ..rules.flex_policy import FAMILY, Decision, FlexPolicy, FlexSettings
from ..trace import StepRecord
from ..types import DraftBlock, RequestState, VerifyOutcome
from .base import SchedulerConfig, StepError, register_scheduler
from .options import PSDOptions
from .psd import ParallelSpeculativeScheduler


@dataclass(frozen=True)
class FlexOptions(FlexSettings, PSDOptions):
    """Mode ``flex``: PSD's options and the policy's settings (``FlexSettings``)."""

    cli_prefix: ClassVar[str] = "flex"

    def __post_init__(self) -> None:
        PSDOptions.__post_init__(self)
        FlexSettings.__post_init__(self)

    def settings(self) -> FlexSettings:
        return FlexSettings(**{f.name: getattr(self, f.name) for f in fields(FlexSettings)})


def remembered_policy(memory: dict[Any, Any] | None, num_speculative_tokens: int, settings: FlexSettings) -> FlexPolicy:
    """The policy kept in ``memory`` (an engine pair's) for this draft length and these
    settings, or a fresh one, kept there; without memory, a fresh one."""
    if memory is None:
        return FlexPolicy(num_speculative_tokens, settings)
    key = ("flex", num_speculative_tokens, settings)
    if key not in memory:
        memory[key] = FlexPolicy(num_speculative_tokens, settings)
    return memory[key]


@dataclass
class DraftCall:
    request_ids: list[str]
    batch: int  # requests that were asked for at least one token
    forwards: int  # draft forwards run: the longest draft returned
    seconds: float
    catch_up: bool  # some request first had to process many new committed tokens (prefill)


class ConfidenceDrafter:
    """Wraps the drafter: applies the confidence threshold, times each call and remembers
    what was asked and returned per request, for the policy."""

    def __init__(self, inner: Drafter, threshold: float | None) -> None:
        self.inner = inner
        self.vocab_size = inner.vocab_size
        self.threshold = threshold
        self.calls: list[DraftCall] = []
        self.asked: dict[str, tuple[int, int]] = {}  # request_id -> (requested, drafted)
        self._last: dict[str, tuple[int, int]] = {}  # committed length and cap at the last proposal
        self._primed: set[str] = set()  # requests the drafter has drafted for: their context is in its cache

    def propose(self, requests: Sequence[RequestState], num_tokens: Sequence[int],
                stop_threshold: float | None = None) -> DraftBlock:
        # Prefill, or catching up on tokens committed by AR steps, is not the cost of drafting.
        # A request's first draft is its prefill: the drafter feeds its whole context (an
        # EAGLE-style drafter returns no tokens before the target's first step, so the
        # committed count alone does not show it). Timed as drafting, the first SD call at 4
        # in flight cost 26.7 ms a forward against 7 ms, priced SD out and kept it out.
        catch_up = any(self._feeds_context(r, n) for r, n in zip(requests, num_tokens))
        t0 = time.perf_counter()
        threshold = self.threshold if stop_threshold is None else stop_threshold
        block = self.inner.propose(requests, num_tokens, stop_threshold=threshold)
        seconds = time.perf_counter() - t0
        lengths = block.lengths()
        for req, n, m in zip(requests, num_tokens, lengths):
            self.asked[req.request_id] = (n, m)
            self._last[req.request_id] = (req.num_committed, n)
            if m > 0:
                self._primed.add(req.request_id)
        self.calls.append(DraftCall([r.request_id for r in requests], sum(n > 0 for n in num_tokens),
                                    max(lengths, default=0), seconds, catch_up))
        return block

    def _feeds_context(self, req: RequestState, num_tokens: int) -> bool:
        """Whether this call first feeds the drafter context it has not seen: more tokens
        committed since the last proposal than that draft could have made, or the request's
        first draft."""
        committed, cap = self._last.get(req.request_id, (0, 0))
        return req.num_committed - committed > cap + 1 or (num_tokens > 0 and req.request_id not in self._primed)

    def on_verified(self, outcome: VerifyOutcome) -> None:
        self.inner.on_verified(outcome)

    def release(self, request_id: str) -> None:
        self.asked.pop(request_id, None)
        self._last.pop(request_id, None)
        self._primed.discard(request_id)
        self.inner.release(request_id)


@register_scheduler("flex")
class FlexScheduler(ParallelSpeculativeScheduler):
    options_class = FlexOptions
    options: FlexOptions
    uses_memory = True
    in_flight_per_batch = 1  # max_batch_size caps both sub-batches together

    def __init__(self, target: Target, drafter: Drafter | None, config: SchedulerConfig,
                 options: FlexOptions | Mapping[str, Any] | None = None, memory: dict[Any, Any] | None = None) -> None:
        self._process_threads = torch.get_num_threads()  # before the lanes change it
        super().__init__(target, drafter, config, options)
        self._overlapped_threads = torch.get_num_threads()
        self._regime = "overlapped"
        self.seq_lanes = LanePair("inline")
        assert self.drafter is not None
        try:
            self.policy = remembered_policy(memory, self.config.num_speculative_tokens, self.options.settings())
        except BaseException:
            self.lanes.close()  # started by the base class: no threads left behind, the thread count restored
            raise
        self.policy.start_run()
        self.drafter = ConfidenceDrafter(self.drafter, self.draft_threshold)
        self.decisions: list[Decision] = []
        self._k = self.config.num_speculative_tokens
        self._caps: dict[str, int] = {}
        self._mode = "psd"
        self._prefill = False

    @property
    def k_proposed(self) -> int:
        return self._k + self.extra_proposals

    def step(self) -> list[RequestState]:
        self._admit()
        if not self.groups[self.turn]:
            self.turn ^= 1
        first, second = list(self.groups[self.turn]), list(self.groups[1 - self.turn])
        if not first:
            return self.pop_finished()
        decision = self.policy.decide(
            ([r.request_id for r in first], [r.request_id for r in second]), overlap=self.lanes.concurrent
        )
        self.decisions.append(decision)
        self._mode = decision.mode
        self._k = decision.k if decision.k > 0 else self._k
        self._caps = decision.caps
        recorded = len(self.trace.steps)
        self.drafter.calls.clear()
        self._enter(FAMILY[decision.mode])
        if decision.mode == "psd":
            done = super().step()  # flips the turn itself
        else:
            self._sequential_step(first + second, draft=decision.mode == "sd")
            self.turn ^= 1  # keeps admission alternating between the sub-batches
            done = []
        if len(self.trace.steps) > recorded:
            self._observe(self.trace.steps[-1], decision, {r.request_id for r in first}, len(first + second))
        return done + self.pop_finished()

    def close(self) -> None:
        self._enter("overlapped")  # the lanes restore the thread count they found
        super().close()
        self.trace.intervals = sorted(self.trace.intervals + self.seq_lanes.intervals(), key=lambda iv: iv.start)

    def _admit(self) -> None:
        """Newcomers join the smaller sub-batch (ties: the one drafted next) while the whole
        running batch is below ``max_batch_size``. A newcomer in the sub-batch verified next
        is drafted serially first if that step is PSD; SD and AR steps do not care."""
        verify_group, next_group = self.groups[self.turn], self.groups[1 - self.turn]
        while self.waiting and len(verify_group) + len(next_group) < self.config.max_batch_size:
            (next_group if len(next_group) <= len(verify_group) else verify_group).append(self.waiting.popleft())

    def max_draft_len(self, req: RequestState, k: int) -> int:
        """The step's per-request cap applies on top of the usual limits (extra proposals
        ride on a request that drafts at all)."""
        cap = self._caps.get(req.request_id)
        if cap is not None:
            k = 0 if cap == 0 else min(k, cap + self.extra_proposals)
        return super().max_draft_len(req, k)

    # -- sequential steps ------------------------------------------------------------------
    def _sequential_step(self, batch: list[RequestState], draft: bool) -> None:
        start = time.perf_counter()
        lanes = self.seq_lanes
        missing = [r for r in batch if r.request_id not in self.stored and self.max_draft_len(r, self.k_proposed) > 0] \
            if draft else []
        draft_time = 0.0
        try:
            if missing:
                lengths = [self.max_draft_len(r, self.k_proposed) for r in missing]
                self._store(self.wait(lanes.draft.submit("draft", self.drafter.propose, missing, lengths),
                                      missing, "draft"))
                draft_time = time.perf_counter() - start
            block = self._verify_block(batch)
            t_verify = time.perf_counter()
            outcome = self.wait(lanes.target.submit("verify", self.score_and_verify, batch, block), batch, "verify")
            verify_time = time.perf_counter() - t_verify
        except StepError:
            return
        verify_context, draft_context = self.context(batch), self.context(missing)
        emitted = self.commit(batch, block, outcome)
        self.record(
            start=start, end=time.perf_counter(), verify_batch=len(batch), draft_batch=len(missing), running=len(batch),
            proposed=block.num_tokens, verify_width=block.width, accepted=sum(outcome.num_accepted), emitted=emitted,
            verify_context=verify_context, draft_context=draft_context,
            draft_time=draft_time, verify_time=verify_time,
        )

    def _verify_block(self, group: list[RequestState]) -> DraftBlock:
        """Stored drafts where there are any, empty ones elsewhere; the verify budget (with
        extra proposals) follows the current k."""
        blocks = [self.stored.pop(r.request_id) if r.request_id in self.stored else _empty(r.request_id) for r in group]
        block = DraftBlock.concat(blocks)
        if self.extra_proposals:
            budget = self.verify_budget or self._k * len(group)
            block = block.truncate(select_by_confidence(block, budget))
        return block

    def sequential_threads(self) -> int:
        """Intra-op threads of SD and AR steps: the cores both lanes use together."""
        chosen = self.policy.settings.sequential_threads
        if chosen is not None:
            return chosen
        lanes = self.config.intra_op_threads
        return max(self._process_threads, 2 * lanes if lanes and self.lanes.concurrent else 0)

    def _enter(self, regime: str) -> None:
        """Set the intra-op thread count of the regime (only the calling thread's OpenMP
        pool and the default for threads not yet started change; lane threads keep theirs)."""
        if regime != self._regime:
            threads = {"sequential": self.sequential_threads(), "overlapped": self._overlapped_threads}
            if threads[regime] != threads[self._regime]:
                torch.set_num_threads(threads[regime])
            self._regime = regime

    # -- what the policy learns ------------------------------------------------------------
    def commit(self, batch: Sequence[RequestState], block: DraftBlock, outcome: VerifyOutcome) -> int:
        self._prefill = any(req.num_verify_steps == 0 for req in batch)  # the target processed a prompt
        items = []
        for req, verified, accepted in zip(batch, block.lengths(), outcome.num_accepted):
            asked = self.drafter.asked.pop(req.request_id, None)
            items.append(RequestObservation(req.request_id, verified, accepted, *(asked or (None, None))))
        self.policy.observe_requests(items)
        return super().commit(batch, block, outcome)

    def record(self, **fields) -> StepRecord:
        fields["k"] = 0 if self._mode == "ar" else self._k
        # The wrapper knows catch-ups after AR steps too, which PSD's own rule cannot see.
        fields["draft_prefill"] = any(call.catch_up for call in self.drafter.calls)
        rec = super().record(**fields)
        rec.mode = f"flex:{self._mode}"
        return rec

    def _observe(self, rec: StepRecord, decision: Decision, verified_first: set[str], num_running: int) -> None:
        """Feed the step's measurements to the cost family it ran in, and its duration to the
        mode's realized rate. Left out: a PSD step's serial draft (cold sub-batch, no overlap)
        and draft calls or verifications that included a prefill, since they would skew the
        per-token fits; from the realized rate also steps in which the drafter caught up on
        tokens committed while it was idle (the one-off price of a switch), and every timing of
        a step the policy takes for a stall of the host (``FlexPolicy.stalled``)."""
        mode = decision.mode
        family = FAMILY[mode]
        clean = bool(rec.verify_batch) and not self._prefill
        caught_up = any(call.catch_up for call in self.drafter.calls)
        if clean and not caught_up and self.policy.stalled(decision, rec.duration):
            self.policy.note_step(mode, num_running, clean=False)
            return
        serial = False
        for call in self.drafter.calls:
            if mode == "psd" and set(call.request_ids) <= verified_first:
                serial = True
            elif call.forwards > 0 and call.batch > 0 and not call.catch_up:
                self.policy.observe_draft(family, call.batch, call.forwards, call.seconds)
        if clean:
            self.policy.observe_verify(family, rec.verify_batch, rec.verify_width, rec.verify_time)
            if mode == "psd" and not serial and rec.overlapped:
                self.policy.observe_overhead(family, rec.duration - max(rec.draft_time, rec.verify_time))
            elif mode != "psd":
                self.policy.observe_overhead(family, rec.duration - rec.draft_time - rec.verify_time)
        if clean and not caught_up:
            self.policy.observe_realized(decision, rec.duration, rec.emitted)
        self.policy.note_step(mode, num_running, clean=clean, caught_up=caught_up)

    def _forget(self, req: RequestState) -> None:
        super()._forget(req)
        self.policy.forget(req.request_id)


def _empty(request_id: str) -> DraftBlock:
    """No draft tokens, but a (0-length) logprob tensor so that concatenation keeps them."""
    block = DraftBlock.empty([request_id])
    block.draft_logprobs = torch.zeros(0, dtype=torch.float32)
    return block
