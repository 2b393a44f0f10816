"""SMC-SD modes: ``smc`` (sequential cycles) and ``smc-psd`` (composed with PSD). APPROXIMATE.

Each request fans out into N particles, each a ``RequestState`` of its own with id
``f"{request_id}#p{j}"``, so the unchanged Drafter and Target protocols draft and score
them like requests. A cycle: every live particle drafts gamma (= k) tokens, the target
scores them in one pass, ``minedraft.rules.smc_weights.smc_verify`` keeps them (up to the
first the target rules out), weighs them and adds a token from the target; then each
request whose ESS fell below ``ess_threshold * N`` resamples
(the rules are in ``minedraft.rules.smc_weights`` and docs/smc.md).

Engines: particles start from one prefill forked to the others, and resampling forks the
chosen ancestors, when the engine has the optional ``ParticleEngine`` capability;
otherwise the replaced particle is released and the engine recomputes it from its
committed tokens. Forks run between steps, on the scheduler thread, with both lanes idle.

Under ``smc-psd`` all particles of a request stay in one sub-batch, so a request's
population is verified, weighed and resampled together while the other sub-batch drafts.

Options: ``SMCOptions`` (CLI flags ``--smc-num-particles`` etc.). Trace rows: the
engine work counts particles (verify_batch, draft_batch, proposed, accepted), ``emitted``
counts what the requests advanced by (per request, the most any of its particles kept).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import torch

from ..protocols import Drafter, ParticleEngine, Target
from ..rules.smc_weights import (
    OUTPUT_RULES,
    RESAMPLERS,
    RESAMPLING_RULES,
    SMCOutcome,
    effective_sample_size,
    keep_survivors,
    select_particle,
    smc_verify,
)
from ..types import DraftBlock, FinishReason, RequestState, VerifyOutcome
from ..validation import require_choice, require_int, require_prob
from .base import Scheduler, SchedulerConfig, StepError, register_scheduler
from .options import ModeOptions
from .psd import ParallelSpeculativeScheduler, _timed


@dataclass(frozen=True)
class SMCOptions(ModeOptions):
    """SMC-SD settings (modes ``smc`` and ``smc-psd``). gamma, the tokens drafted per cycle,
    is ``num_speculative_tokens``."""

    cli_prefix: ClassVar[str] = "smc"

    num_particles: int = 4
    ess_threshold: float = 0.5  # resample when ESS < ess_threshold * N
    resampling: str = "systematic"
    output: str = "sample"

    def __post_init__(self) -> None:
        require_int("SMCOptions.num_particles", self.num_particles, 1)
        require_prob("SMCOptions.ess_threshold", self.ess_threshold)
        require_choice("SMCOptions.resampling", self.resampling, RESAMPLING_RULES)
        require_choice("SMCOptions.output", self.output, OUTPUT_RULES)


@dataclass(eq=False)  # identity: groups are compared and looked up by object
class ParticleGroup:
    """One request and its population."""

    request: RequestState
    particles: list[RequestState]
    log_weights: torch.Tensor  # [N] float64
    side: int = 0  # sub-batch under smc-psd

    def live(self) -> list[RequestState]:
        return [p for p in self.particles if not p.finished]


@dataclass
class SMCStats:
    """Population health, summed over the run (the trace's ``smc_stats``)."""

    cycles: int = 0  # request-cycles: one per request per verification
    resamples: int = 0
    collapses: int = 0  # every weight was 0; treated as uniform
    ess_fraction_sum: float = 0.0  # sum of ESS / N after each cycle
    forks: int = 0  # particle states copied by resampling

    @property
    def mean_ess_fraction(self) -> float:
        return self.ess_fraction_sum / self.cycles if self.cycles else 1.0

    @property
    def resample_rate(self) -> float:
        return self.resamples / self.cycles if self.cycles else 0.0


def _particle_generators(seed: int | None, j: int) -> tuple[torch.Generator | None, torch.Generator | None]:
    """Independent, reproducible streams per particle (copies must not draw in lockstep)."""
    if seed is None:
        return None, None
    base = (seed * 1_000_003 + 7919 * (j + 1)) % (2**62)
    return torch.Generator().manual_seed(2 * base + 1), torch.Generator().manual_seed(2 * base)


class _SMCMixin:
    """What both SMC modes share: particles, weights, resampling, the returned sequence."""

    exact = False  # approximate: output is not distributed exactly as the target's
    overlapping = False

    options_class = SMCOptions

    # Provided by Scheduler.
    target: Target
    drafter: Drafter | None
    config: SchedulerConfig
    options: SMCOptions

    def __init__(self, target: Target, drafter: Drafter | None, config: SchedulerConfig,
                 options: SMCOptions | Mapping[str, Any] | None = None) -> None:
        super().__init__(target, drafter, config, options)  # type: ignore[call-arg]
        self.smc = self.options
        self.smc_groups: dict[str, ParticleGroup] = {}  # request_id -> group
        self._owner: dict[str, tuple[ParticleGroup, int]] = {}  # particle id -> (group, index in it)
        self.smc_stats = SMCStats()
        self.trace.smc_stats = self.smc_stats  # type: ignore[attr-defined]

    # -- starting a request -------------------------------------------------------------------
    def _engines(self) -> list[Any]:
        return [e for e in (self.drafter, self.target) if e is not None]

    def _start(self, req: RequestState, side: int = 0) -> ParticleGroup | None:
        n = 1 if req.params.greedy else self.smc.num_particles
        particles = []
        for j in range(n):
            part = RequestState(prompt_ids=list(req.prompt_ids), params=req.params, request_id=f"{req.request_id}#p{j}",
                                output_ids=list(req.output_ids), arrival_time=req.arrival_time)
            part.draft_generator, part.verify_generator = _particle_generators(req.params.seed, j)
            particles.append(part)
        group = ParticleGroup(req, particles, torch.zeros(n, dtype=torch.float64), side)
        self.smc_groups[req.request_id] = group
        for j, part in enumerate(particles):
            self._owner[part.request_id] = (group, j)
        lanes = [(e, lane) for e, lane in ((self.target, self.lanes.target), (self.drafter, self.lanes.draft))
                 if isinstance(e, ParticleEngine)]
        if n > 1 and lanes:
            try:  # one prefill per forking engine, on its lane, then copies: the particles share the prompt KV
                futures = [lane.submit("prefill", engine.prefill, particles[0]) for engine, lane in lanes]
                for f in futures:
                    self.wait(f, [req], "prefill")  # type: ignore[attr-defined]
            except StepError:
                return None
            for engine, _ in lanes:
                engine.fork(particles[0].request_id, [p.request_id for p in particles[1:]])
        return group

    # -- the target lane ----------------------------------------------------------------------
    def score_and_verify(self, batch: list[RequestState], block: DraftBlock) -> VerifyOutcome:
        return smc_verify(block, self.target.score(batch, block), batch)

    # -- commit, weights, resampling, output ----------------------------------------------------
    def commit(self, batch: list[RequestState], block: DraftBlock, outcome: VerifyOutcome) -> int:
        """Append, weigh, stop, inform the engines, resample. Returns the tokens the
        *requests* advanced by (per request, the most any of its particles kept): what a
        user receives, so that trace-based throughput is not counted N times."""
        assert isinstance(outcome, SMCOutcome)
        now = time.perf_counter()
        groups: list[ParticleGroup] = []
        advance: dict[str, int] = {}
        for part, k, n_acc, tokens, ratios in zip(
            batch, block.lengths(), outcome.num_accepted, outcome.emitted, outcome.log_ratios
        ):
            group, index = self._owner[part.request_id]
            if group not in groups:
                groups.append(group)
            group.request.num_draft_tokens += k
            group.request.num_accepted_tokens += n_acc
            kept = 0
            for tok in tokens:
                part.output_ids.append(tok)
                kept += 1
                reason = self._stop_reason(part, tok)  # type: ignore[attr-defined]
                if reason is not None:
                    part.finish_reason = reason
                    break
            advance[group.request.request_id] = max(kept, advance.get(group.request.request_id, 0))
            # Drafts cut off by a stop condition were never emitted: they add no weight.
            group.log_weights[index] += sum(ratios[:kept])
        if self.drafter is not None:
            self.drafter.on_verified(outcome)
        self.target.on_verified(outcome)
        for group in groups:
            req = group.request
            req.num_verify_steps += 1
            if req.first_token_time is None:
                req.first_token_time = now
            for part in group.particles:
                if part.finished:
                    self._release_particle(part.request_id)
            self._after_cycle(group)
        return sum(advance.values())

    def _after_cycle(self, group: ParticleGroup) -> None:
        n = len(group.particles)
        stats = self.smc_stats
        stats.cycles += 1
        finite = torch.isfinite(group.log_weights)
        if not bool(finite.any()):
            stats.collapses += 1
            group.log_weights.zero_()
        ess = effective_sample_size(group.log_weights)
        stats.ess_fraction_sum += ess / n
        if group.live() and n > 1 and ess < self.smc.ess_threshold * n:
            self._resample(group)
        if not group.live():  # also when resampling copied only finished particles
            self._complete(group)

    def _resample(self, group: ParticleGroup) -> None:
        ancestors = RESAMPLERS[self.smc.resampling](group.log_weights, group.request.verify_generator)
        assignment = keep_survivors(ancestors)
        dsts_of: dict[int, list[int]] = {}
        for dst, src in enumerate(assignment):
            if src != dst:
                dsts_of.setdefault(src, []).append(dst)
        for src, dsts in dsts_of.items():
            source = group.particles[src]
            for dst in dsts:
                part = group.particles[dst]
                part.output_ids = list(source.output_ids)
                part.finish_reason, part.stop_reason = source.finish_reason, source.stop_reason
                self.smc_stats.forks += 1
            ids = [group.particles[d].request_id for d in dsts]
            for engine in self._engines():
                if source.finished or not isinstance(engine, ParticleEngine):
                    for pid in ids:  # a frozen copy needs no KV; a non-forking engine recomputes
                        engine.release(pid)
                else:
                    engine.fork(source.request_id, ids)
        group.log_weights.zero_()
        self.smc_stats.resamples += 1

    def _complete(self, group: ParticleGroup) -> None:
        req = group.request
        chosen = group.particles[select_particle(group.log_weights, self.smc.output, req.verify_generator)]
        req.output_ids, req.stop_reason = list(chosen.output_ids), chosen.stop_reason
        self._finish(req, chosen.finish_reason or FinishReason.STOP)  # type: ignore[attr-defined]

    # -- leaving --------------------------------------------------------------------------------
    def _release_particle(self, pid: str) -> None:
        for engine in self._engines():
            try:
                engine.release(pid)
            except Exception:  # noqa: BLE001 - a broken engine must not hide the finish
                pass

    def _forget(self, req: RequestState) -> None:
        super()._forget(req)  # type: ignore[misc]
        group = self.smc_groups.pop(req.request_id, None)
        if group is None:
            return
        for part in group.particles:
            self._owner.pop(part.request_id, None)
            self._release_particle(part.request_id)

    def _fail(self, batch: list[RequestState], message: str) -> None:
        """Lane failures name particles; deliver them to the requests that own them."""
        owners: dict[str, RequestState] = {}
        for item in batch:
            entry = self._owner.get(item.request_id)
            owner = entry[0].request if entry is not None else item
            owners.setdefault(owner.request_id, owner)
        super()._fail(list(owners.values()), message)  # type: ignore[misc]


@register_scheduler("smc")
class SMCScheduler(_SMCMixin, Scheduler):
    """Sequential SMC-SD: draft every live particle, score them in one pass, weigh, resample.
    ``max_batch_size`` counts requests (as in every mode); the engines see N rows for each."""

    def __init__(self, target: Target, drafter: Drafter | None, config: SchedulerConfig,
                 options: SMCOptions | Mapping[str, Any] | None = None) -> None:
        super().__init__(target, drafter, config, options)
        self.running: list[ParticleGroup] = []

    def _admit(self) -> list[ParticleGroup]:
        self.running = [g for g in self.running if g.request.request_id in self.smc_groups]
        while self.waiting and len(self.running) < self.config.max_batch_size:
            group = self._start(self.waiting.popleft())
            if group is not None:
                self.running.append(group)
        return list(self.running)

    def step(self) -> list[RequestState]:
        groups = self._admit()
        batch = [p for g in groups for p in g.live()]
        if not batch:
            return self.pop_finished()
        assert self.drafter is not None
        start = time.perf_counter()
        try:
            lengths = [self.max_draft_len(p, self.config.num_speculative_tokens) for p in batch]
            block, draft_time = self.wait(
                self.lanes.draft.submit("draft", _timed(self.drafter.propose), batch, lengths), batch, "draft"
            )
            outcome, verify_time = self.wait(
                self.lanes.target.submit("verify", _timed(self.score_and_verify), batch, block), batch, "verify"
            )
        except StepError:
            return self.pop_finished()
        context = self.context(batch)
        emitted = self.commit(batch, block, outcome)
        self.record(
            start=start, end=time.perf_counter(), verify_batch=len(batch), draft_batch=len(batch), running=len(batch),
            proposed=block.num_tokens, verify_width=block.width, accepted=sum(outcome.num_accepted), emitted=emitted,
            verify_context=context, draft_context=context,
            draft_time=draft_time, verify_time=verify_time, k=self.config.num_speculative_tokens,
        )
        return self.pop_finished()

    def _forget(self, req: RequestState) -> None:
        super()._forget(req)
        self.running = [g for g in self.running if g.request is not req]


@register_scheduler("smc-psd")
class SMCParallelScheduler(_SMCMixin, ParallelSpeculativeScheduler):
    """SMC-SD on MineDraft's two sub-batches: one verifies (and resamples) while the other
    drafts. A request's particles always share a sub-batch; ``max_batch_size`` counts
    requests per sub-batch, and newcomers join the sub-batch with fewer particles."""

    overlapping = True

    def _admit(self) -> None:
        cap = self.config.max_batch_size
        while self.waiting:
            count = [sum(g.side == s for g in self.smc_groups.values()) for s in (0, 1)]
            load = [sum(len(g.particles) for g in self.smc_groups.values() if g.side == s) for s in (0, 1)]
            # The lighter sub-batch (in particles) that still has room (in requests); ties: drafted next.
            open_sides = [s for s in (1 - self.turn, self.turn) if count[s] < cap]
            if not open_sides:
                break
            self._start(self.waiting.popleft(), min(open_sides, key=lambda s: load[s]))
        # Resampling can revive or freeze particles: rebuild both sub-batches from the groups.
        for s in (0, 1):
            self.groups[s][:] = [p for g in self.smc_groups.values() if g.side == s for p in g.live()]

    def _forget(self, req: RequestState) -> None:
        group = self.smc_groups.get(req.request_id)
        super()._forget(req)
        ids = {part.request_id for part in group.particles} if group is not None else set()
        for pid in ids:
            self.stored.pop(pid, None)
        for sub in self.groups:
            sub[:] = [p for p in sub if p.request_id not in ids]
