"""MineDraft: batch-parallel speculative decoding (PSD).

Two sub-batches. At step t the target lane verifies the drafts of one sub-batch (made at
step t - 1) while the draft lane drafts for the other; then they swap. A sub-batch's
committed tokens do not change between its drafting and its verification, so no draft
is ever wasted and the output is exactly that of SD (and of AR): identical under greedy,
identically distributed under sampling. A step costs about max(T_draft, T_verify).

Fallbacks (recorded as non-overlapped steps): cold start and newcomers in the verified
sub-batch are drafted serially first; with one sub-batch empty the step is plain SD.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..rules.draft_budget import select_by_confidence
from ..types import DraftBlock, RequestState, VerifyOutcome
from .base import Scheduler, StepError, register_scheduler
from .options import PSDOptions


def _timed(fn: Callable[..., Any]) -> Callable[..., tuple[Any, float]]:
    def run(*args: Any) -> tuple[Any, float]:
        t0 = time.perf_counter()
        return fn(*args), time.perf_counter() - t0

    return run


@register_scheduler("psd")
class ParallelSpeculativeScheduler(Scheduler):
    overlapping = True
    options_class = PSDOptions
    in_flight_per_batch = 2

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Modes built on this one with options of their own (trees, SMC) spend no slack.
        psd = self.options if isinstance(self.options, PSDOptions) else PSDOptions()
        self.extra_proposals, self.verify_budget = psd.extra_proposals, psd.verify_budget
        self.groups: tuple[list[RequestState], list[RequestState]] = ([], [])
        self.turn = 0  # index of the sub-batch verified at the next step
        self.stored: dict[str, DraftBlock] = {}  # request_id -> its single-request draft block

    def step(self) -> list[RequestState]:
        self._admit()
        if not self.groups[self.turn]:
            self.turn ^= 1  # drain: verify whichever sub-batch still has requests
        verify_group, draft_group = list(self.groups[self.turn]), list(self.groups[1 - self.turn])
        if not verify_group:
            return self.pop_finished()
        start = time.perf_counter()
        # Drafted now for the first time (serially, or in the overlap): the drafter reads prompts.
        draft_prefill = any(r.num_verify_steps == 0 and r.request_id not in self.stored
                            for r in verify_group + draft_group)
        try:
            serial_time = self._draft_missing(verify_group)
        except StepError:
            return self.pop_finished()
        block = self._verify_block(verify_group)
        verify_future = self.lanes.target.submit("verify", _timed(self.score_and_verify), verify_group, block)
        draft_future = None
        if draft_group:  # the overlap: draft the other sub-batch while the target verifies
            lengths = [self.max_draft_len(r, self.k_proposed) for r in draft_group]
            draft_future = self.lanes.draft.submit(
                "draft", _timed(self.drafter.propose), draft_group, lengths, self.draft_threshold
            )
        verified = self.try_wait(verify_future, verify_group, "verify")
        drafted = self.try_wait(draft_future, draft_group, "draft") if draft_future else (None, 0.0)
        if drafted is not None and drafted[0] is not None:
            self._store(drafted[0])
        if verified is None:
            return self.pop_finished()
        outcome, verify_time = verified
        verify_context, draft_context = self.context(verify_group), self.context(draft_group)
        emitted = self.commit(verify_group, block, outcome)
        self.record(
            start=start, end=time.perf_counter(), overlapped=bool(draft_group) and self.lanes.concurrent,
            verify_group=self.turn, verify_batch=len(verify_group), draft_batch=len(draft_group),
            running=len(verify_group) + len(draft_group), draft_prefill=draft_prefill,
            proposed=block.num_tokens, verify_width=block.width, accepted=sum(outcome.num_accepted), emitted=emitted,
            verify_context=verify_context, draft_context=draft_context,
            draft_time=(drafted[1] if drafted else 0.0) + serial_time, verify_time=verify_time,
            k=self.config.num_speculative_tokens, bytes_crossed=_outcome_bytes(outcome),
        )
        self.turn ^= 1
        return self.pop_finished()

    # -- pieces of the step ---------------------------------------------------------------
    @property
    def k_proposed(self) -> int:
        return self.config.num_speculative_tokens + self.extra_proposals

    def _admit(self) -> None:
        """Newcomers join the sub-batch drafted next, keeping the two balanced; on a cold
        sub-batch (empty, or still waiting for its first drafts) they may join it."""
        verify_group, next_group = self.groups[self.turn], self.groups[1 - self.turn]
        cap = self.config.max_batch_size
        # Admission cannot change coldness: only a cold sub-batch takes newcomers, which are cold.
        cold = not verify_group or any(r.request_id not in self.stored for r in verify_group)
        while self.waiting:
            if len(next_group) < cap and len(next_group) <= len(verify_group):
                next_group.append(self.waiting.popleft())
            elif cold and len(verify_group) < cap:
                verify_group.append(self.waiting.popleft())
            else:
                break  # wait one step: the roles swap and it joins the then drafted-next sub-batch

    def _draft_missing(self, group: list[RequestState]) -> float:
        missing = [r for r in group if r.request_id not in self.stored]
        if not missing:
            return 0.0
        lengths = [self.max_draft_len(r, self.k_proposed) for r in missing]
        block, seconds = self.wait(
            self.lanes.draft.submit("draft (serial)", _timed(self.drafter.propose), missing, lengths,
                                    self.draft_threshold),
            missing, "draft",
        )
        self._store(block)
        return seconds

    def _store(self, block: DraftBlock) -> None:
        for i, rid in enumerate(block.request_ids):
            self.stored[rid] = block.select([i])

    def _verify_block(self, group: list[RequestState]) -> DraftBlock:
        block = DraftBlock.concat([self.stored.pop(r.request_id) for r in group])
        if self.extra_proposals:
            budget = self.verify_budget or self.config.num_speculative_tokens * len(group)
            block = block.truncate(select_by_confidence(block, budget))
        return block

    def _forget(self, req: RequestState) -> None:
        super()._forget(req)
        self.stored.pop(req.request_id, None)
        for group in self.groups:
            if req in group:
                group.remove(req)


def _outcome_bytes(outcome: VerifyOutcome) -> int:
    """What crosses from the target lane back to the scheduler: token ids only."""
    return 8 * (sum(len(e) for e in outcome.emitted) + len(outcome.num_accepted))
