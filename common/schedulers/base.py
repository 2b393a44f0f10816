"""What every scheduler shares: request bookkeeping, stop conditions, error delivery.

A scheduler drives a Drafter and a Target through their protocols with continuous
batching: requests join (``add_request``) and leave (finish, cancel) between steps, and
each stops at its own max_new_tokens, EOS, stop token ids or stop strings.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from ..lanes import LanePair, require_lanes_available
from ..protocols import Drafter, Target
from ..rules.verification import verify
from ..trace import StepRecord, Trace
from ..types import DraftBlock, FinishReason, InvalidInputError, RequestState, VerifyOutcome
from ..validation import require_int, require_number
from .options import DraftOptions, ModeOptions


@dataclass
class SchedulerConfig:
    """What every mode shares; what one mode takes alone is its options class
    (``Scheduler.options_class``, see ``minedraft.schedulers.options``)."""

    num_speculative_tokens: int = 4  # draft length k (SMC-SD's gamma, flex's starting k)
    max_batch_size: int = 16  # requests verified together (per sub-batch under PSD)
    eos_token_ids: tuple[int, ...] = ()
    step_timeout: float | None = 600.0  # seconds a lane call may take before its requests fail (None: no limit)
    lanes: str = "inline"
    intra_op_threads: int | None = None
    detokenize: Callable[[list[int]], str] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        require_int("num_speculative_tokens", self.num_speculative_tokens, 1)
        require_int("max_batch_size", self.max_batch_size, 1)
        require_number("step_timeout", self.step_timeout, 0, low_open=True, optional=True)
        require_lanes_available(self.lanes)  # checked here, before any engine is built on it
        require_int("intra_op_threads", self.intra_op_threads, 1, optional=True)


class StepError(RuntimeError):
    """A lane call failed; every request of the affected batch receives it."""


class Scheduler:
    """Base: owns the waiting queue, the running set and the commit rule."""

    name = "base"
    needs_drafter = True
    exact = True  # output distributed exactly as the target's (False: approximate, e.g. SMC)
    overlapping = False  # wants concurrent draft and target lanes
    options_class: type[ModeOptions] = ModeOptions  # what the mode takes beyond the config
    uses_memory = False  # takes ``memory=`` (state kept across schedulers on the same engines)
    in_flight_per_batch = 1  # requests in flight per max_batch_size (PSD: two sub-batches)

    def __init__(self, target: Target, drafter: Drafter | None, config: SchedulerConfig,
                 options: ModeOptions | Mapping[str, Any] | None = None) -> None:
        self.options = self.options_class.build(self.name, options)
        if self.needs_drafter and drafter is None:
            raise InvalidInputError(f"mode {self.name!r} needs a draft model, got draft=None")
        if drafter is not None and drafter.vocab_size != target.vocab_size:
            raise InvalidInputError(
                f"draft vocab_size ({drafter.vocab_size}) differs from target vocab_size ({target.vocab_size})"
            )
        self.target = target
        self.drafter = drafter
        # A drafter may declare its own context window (``Drafter.max_context``); wrappers that
        # modes put around it later do not hide it.
        self._draft_context: int | None = getattr(drafter, "max_context", None)
        self.config = config
        self.lanes = LanePair(config.lanes, config.intra_op_threads)
        self.trace = Trace()
        self.waiting: deque[RequestState] = deque()
        self.requests: dict[str, RequestState] = {}
        self._step_index = 0
        self._finished_since_step: list[RequestState] = []

    # -- requests -----------------------------------------------------------------------
    def add_request(self, request: RequestState) -> None:
        if request.request_id in self.requests:
            raise InvalidInputError(f"request_id {request.request_id!r} is already running")
        problem = self.request_problem(request)
        if problem is not None:
            raise InvalidInputError(f"request {request.request_id!r}: {problem}")
        request.arrival_time = request.arrival_time or time.perf_counter()
        self.requests[request.request_id] = request
        self.waiting.append(request)

    def request_problem(self, request: RequestState) -> str | None:
        """Why this scheduler cannot take ``request`` (a phrase), or None. An id outside the
        vocabulary would otherwise fail inside a forward, or index another row."""
        ids, target = request.prompt_ids, self.target
        if len(ids) >= target.max_context:
            return (f"the prompt has {len(ids)} tokens, which must be below the target context window "
                    f"({target.max_context})")
        if ids and not 0 <= min(ids) <= max(ids) < target.vocab_size:  # min/max in C; the position only on failure
            j, tok = next((j, t) for j, t in enumerate(ids) if not 0 <= t < target.vocab_size)
            return f"the prompt has token id {tok} at position {j}, outside the target's vocabulary [0, {target.vocab_size})"
        if request.params.stop and self.config.detokenize is None:
            return (f"stop strings {list(request.params.stop)!r} need a tokenizer to read the output and this "
                    "engine has none (stop_token_ids work without one)")
        return None

    def cancel(self, request_id: str) -> None:
        req = self.requests.get(request_id)
        if req is None or req.finished:
            return
        self._finish(req, FinishReason.CANCELLED)

    def has_unfinished(self) -> bool:
        return any(not r.finished for r in self.requests.values())

    def step(self) -> list[RequestState]:
        """Run one step; return the requests that finished in it."""
        raise NotImplementedError

    def close(self) -> None:
        self.trace.intervals = self.lanes.intervals()
        self.lanes.close()

    # -- shared pieces --------------------------------------------------------------------
    @property
    def draft_threshold(self) -> float | None:
        """The confidence stop of chain drafting, for modes whose options have one."""
        return self.options.draft_confidence_threshold if isinstance(self.options, DraftOptions) else None

    def max_draft_len(self, req: RequestState, k: int) -> int:
        """Never draft past what the request may still emit or the context (the target's, and
        the drafter's where it declares a shorter one) can hold."""
        window = min(self.target.max_context, self._draft_context or self.target.max_context)
        room = window - req.num_committed - 1
        return max(0, min(k, req.remaining_tokens - 1, room))

    def wait(self, future: Future, batch: Sequence[RequestState], what: str):
        """Wait for a lane call; on failure every request of ``batch`` fails with it."""
        try:
            timeout = self.config.step_timeout
            return future.result(timeout=None if timeout is None or math.isinf(timeout) else timeout)
        except FutureTimeout:
            self._fail(batch, f"{what} did not finish within step_timeout={self.config.step_timeout}s")
        except Exception as exc:  # noqa: BLE001 - delivered to the requests
            self._fail(batch, f"{what} failed: {type(exc).__name__}: {exc}")
        raise StepError(what)

    def try_wait(self, future: Future, batch: Sequence[RequestState], what: str):
        """Like ``wait``, but returns None after delivering the error."""
        try:
            return self.wait(future, batch, what)
        except StepError:
            return None

    def pop_finished(self) -> list[RequestState]:
        """Requests that finished (any reason) since the last call."""
        done, self._finished_since_step = self._finished_since_step, []
        return done

    def score_and_verify(self, batch: Sequence[RequestState], block: DraftBlock) -> VerifyOutcome:
        """Runs on the target lane: acceptance happens next to the scores, so only the
        small outcome (token ids) crosses lanes, never the full-vocabulary distributions."""
        return verify(block, self.target.score(batch, block), batch)

    def commit(self, batch: Sequence[RequestState], block: DraftBlock, outcome: VerifyOutcome) -> int:
        """Append emitted tokens, apply stop conditions, inform the engines. Returns the
        number of tokens committed."""
        now = time.perf_counter()
        committed = 0
        for req, k, n_acc, tokens in zip(batch, block.lengths(), outcome.num_accepted, outcome.emitted):
            req.num_verify_steps += 1
            req.num_draft_tokens += k
            req.num_accepted_tokens += n_acc
            if req.first_token_time is None:
                req.first_token_time = now
            for tok in tokens:
                req.output_ids.append(tok)
                committed += 1
                reason = self._stop_reason(req, tok)
                if reason is not None:
                    req.finish_reason = reason
                    break
        if self.drafter is not None:
            self.drafter.on_verified(outcome)
        self.target.on_verified(outcome)
        for req in batch:
            if req.finished:
                self._finish(req, req.finish_reason)
        return committed

    def _stop_reason(self, req: RequestState, tok: int) -> FinishReason | None:
        p = req.params
        if not p.ignore_eos and tok in self.config.eos_token_ids:
            return FinishReason.STOP
        if tok in p.stop_token_ids:
            req.stop_reason = tok
            return FinishReason.STOP
        if p.stop and self.config.detokenize is not None:
            # Enough tokens to hold the longest stop string wherever the new token ends it: a
            # token is at least a UTF-8 byte, bar a few that decode to nothing on their own.
            window = max(len(s.encode()) for s in p.stop) + 16
            text = self.config.detokenize(req.output_ids[-window:])
            found = [(at, i) for i, s in enumerate(p.stop) if (at := text.find(s)) >= 0]
            if found:
                req.stop_reason = p.stop[min(found)[1]]
                return FinishReason.STOP
        if len(req.output_ids) >= p.max_new_tokens:
            return FinishReason.LENGTH
        if req.num_committed >= self.target.max_context:  # the window is full (vLLM: max_model_len)
            return FinishReason.LENGTH
        return None

    def _finish(self, req: RequestState, reason: FinishReason | None) -> None:
        req.finish_reason = reason or FinishReason.STOP
        req.finish_time = time.perf_counter()
        self._finished_since_step.append(req)
        self._forget(req)
        for engine in (self.drafter, self.target):
            if engine is not None:
                try:
                    engine.release(req.request_id)
                except Exception:  # noqa: BLE001 - a broken engine must not hide the finish
                    pass

    def _forget(self, req: RequestState) -> None:
        """Remove a request from scheduler-specific structures (sub-batches, draft store)."""
        try:
            self.waiting.remove(req)
        except ValueError:
            pass

    def _fail(self, batch: Sequence[RequestState], message: str) -> None:
        for req in batch:
            if not req.finished:
                req.error = message
                self._finish(req, FinishReason.ERROR)

    @staticmethod
    def context(batch: Sequence[RequestState]) -> int:
        """Longest committed sequence of a batch (0 for none): with padded attention every row
        attends over this many cached positions, so step cost grows with it."""
        return max((r.num_committed for r in batch), default=0)

    def record(self, **fields) -> StepRecord:
        rec = StepRecord(step=self._step_index, mode=self.name, **fields)
        self._step_index += 1
        self.trace.add(rec)
        return rec


SCHEDULERS: dict[str, type[Scheduler]] = {}


def register_scheduler(name: str) -> Callable[[type[Scheduler]], type[Scheduler]]:
    """Small registry instead of if-chains over mode names (after SGLang's spec registry)."""

    def wrap(cls: type[Scheduler]) -> type[Scheduler]:
        if name in SCHEDULERS:
            raise ValueError(f"scheduler {name!r} is already registered")
        cls.name = name
        SCHEDULERS[name] = cls
        return cls

    return wrap


def create_scheduler(mode: str, target: Target, drafter: Drafter | None, config: SchedulerConfig,
                     options: ModeOptions | Mapping[str, Any] | None = None,
                     memory: dict[Any, Any] | None = None) -> Scheduler:
    """``options``: the mode's options (an instance of its ``options_class`` or a dict);
    ``memory``: state a mode keeps across schedulers on the same engines (the caller owns
    it, e.g. ``EnginePair.memory``; flex keeps its learned costs there)."""
    if mode not in SCHEDULERS:
        raise InvalidInputError(f"mode must be one of {sorted(SCHEDULERS)}, got {mode!r}")
    cls = SCHEDULERS[mode]
    if memory is not None and cls.uses_memory:
        return cls(target, drafter, config, options, memory=memory)
    return cls(target, drafter, config, options)
