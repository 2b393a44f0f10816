"""Autoregressive decoding and standard (sequential) speculative decoding.

AR is SD with an empty draft block: the target scores one position per request and the
verification rule samples from it, so both modes share one code path and one sampler.
"""

from __future__ import annotations

import time

from ..types import DraftBlock, RequestState
from .base import Scheduler, StepError, register_scheduler
from .options import DraftOptions


class _ContinuousBatching(Scheduler):
    """Running set of at most ``max_batch_size`` requests; waiting ones join between steps."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.running: list[RequestState] = []

    def _admit(self) -> list[RequestState]:
        self.running = [r for r in self.running if not r.finished]
        while self.waiting and len(self.running) < self.config.max_batch_size:
            self.running.append(self.waiting.popleft())
        return list(self.running)

    def _forget(self, req: RequestState) -> None:
        super()._forget(req)
        if req in self.running:
            self.running.remove(req)

    def step(self) -> list[RequestState]:
        batch = self._admit()
        if not batch:
            return self.pop_finished()
        start = time.perf_counter()
        # A request never verified is drafted for the first time: the drafter reads its prompt.
        draft_prefill = self.drafter is not None and any(r.num_verify_steps == 0 for r in batch)
        try:
            block, draft_time = self._draft(batch)
            t_verify = time.perf_counter()
            outcome = self.wait(self.lanes.target.submit("verify", self.score_and_verify, batch, block), batch, "verify")
            verify_time = time.perf_counter() - t_verify
        except StepError:
            return self.pop_finished()
        context = self.context(batch)
        emitted = self.commit(batch, block, outcome)
        self.record(
            start=start,
            end=time.perf_counter(),
            verify_batch=len(batch),
            running=len(batch),
            draft_prefill=draft_prefill,
            draft_batch=len(batch) if self.drafter is not None else 0,
            proposed=block.num_tokens, verify_width=block.width,
            verify_context=context, draft_context=context if self.drafter is not None else 0,
            accepted=sum(outcome.num_accepted),
            emitted=emitted,
            draft_time=draft_time,
            verify_time=verify_time,
            k=self.config.num_speculative_tokens if self.drafter is not None else 0,
        )
        return self.pop_finished()

    def _draft(self, batch: list[RequestState]) -> tuple[DraftBlock, float]:
        raise NotImplementedError


@register_scheduler("ar")
class AutoregressiveScheduler(_ContinuousBatching):
    """Target only: one token per request per step."""

    needs_drafter = False

    def _draft(self, batch: list[RequestState]) -> tuple[DraftBlock, float]:
        return DraftBlock.empty([r.request_id for r in batch]), 0.0


@register_scheduler("sd")
class SpeculativeScheduler(_ContinuousBatching):
    """Standard SD: draft k, verify, commit — the target idles while the drafter drafts."""

    options_class = DraftOptions

    def _draft(self, batch: list[RequestState]) -> tuple[DraftBlock, float]:
        assert self.drafter is not None
        t0 = time.perf_counter()
        lengths = [self.max_draft_len(r, self.config.num_speculative_tokens) for r in batch]
        block = self.wait(
            self.lanes.draft.submit("draft", self.drafter.propose, batch, lengths, self.draft_threshold),
            batch, "draft",
        )
        return block, time.perf_counter() - t0
