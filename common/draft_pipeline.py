"""PSD inside an engine's own loop: draft while the target runs, attach the drafts next time.

``minedraft.schedulers.psd`` owns the schedule, so it can keep the sub-batch being drafted
out of the step that verifies the other one. Some engines own their schedule instead
(TensorRT-LLM's PyExecutor): they call a drafter once per iteration, just before the
target forward, and advance *every* scheduled generation request by at least one token in
that iteration. A draft computed while iteration t runs is therefore conditioned on a
prefix that iteration t itself extends. This module keeps PSD exact under that rule:

- Requests carry a sub-batch tag (0/1); the iteration parity ``turn`` alternates. The
  sub-batch ``turn`` is *verified with drafts* this iteration; the other one gets no drafts
  this iteration (the engine still advances it by one target token) and is *drafted ahead*
  on the draft lane while the target runs.
- Drafting ahead cannot know the one token the target is about to add, so it guesses it:
  the draft model's argmax g after the committed prefix c, then drafts k tokens after
  c + [g] with the request's own sampling parameters. Next iteration those drafts are used
  only if the engine's committed tokens are exactly c + [g] (a *hit*); otherwise they are
  dropped (a *miss*) and the request is drafted serially (``on_miss="serial"``, the PSD
  fallback) or verified without drafts and drafted ahead again (``on_miss="skip"``).
  Drafts are thus always conditioned on exactly the committed tokens they are verified
  after, so verification stays lossless; the hit rate is reported in ``stats()``.
- Draft state is reconciled from what the engine reports: the accepted count of the drafts
  attached last time (checked against the committed tokens) goes to
  ``Drafter.on_verified``, so the drafter rolls its KV back to the accepted prefix.

The pipeline is backend-neutral: it sees requests as ``Snapshot`` (committed token ids,
sampling parameters, limits) and drives any ``minedraft.protocols.Drafter``. Engine
adapters translate their request objects to snapshots and the returned ``Proposal`` back.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field

import torch

from .lanes import LANE_KINDS, Lane, ThreadLane, canonical_lane
from .protocols import Drafter
from .types import InvalidInputError, RequestState, SamplingParams, VerifyOutcome
from .validation import require_number

logger = logging.getLogger(__name__)

LANES = LANE_KINDS  # canonical names; canonical_lane() also takes the old spellings
ON_MISS = ("serial", "skip")
_GREEDY = SamplingParams(temperature=0.0)


@dataclass(frozen=True)
class Snapshot:
    """One request as the engine holds it at the start of an iteration."""

    request_id: str
    committed: tuple[int, ...]  # prompt + generated tokens, as the engine has them now
    params: SamplingParams
    limit: int  # draft tokens the engine can take for it this iteration (0: none)
    remaining: int  # tokens it may still emit, this iteration's included


@dataclass
class Proposal:
    """Drafts for one request, to be verified after exactly the committed tokens it was
    snapshotted with."""

    tokens: list[int]
    probs: torch.Tensor | None  # [len(tokens), vocab] the q each token was drawn from; None: greedy


@dataclass
class _Chain:
    base: tuple[int, ...]  # the committed tokens the drafts are conditioned on
    tokens: list[int]
    probs: torch.Tensor | None  # [len(tokens), vocab]
    guessed: bool = False  # base ends with a guessed token (drafted ahead)

    def head(self, n: int) -> _Chain:
        probs = None if self.probs is None else self.probs[:n]
        return _Chain(self.base, self.tokens[:n], probs, self.guessed)


@dataclass
class _Track:
    group: int
    generator: torch.Generator | None
    chain: _Chain | None = None  # drafts ready for the next iteration
    attached: _Chain | None = None  # drafts handed to the engine last iteration


@dataclass
class _Job:
    future: Future
    request_ids: list[str] = field(default_factory=list)


class DraftPipeline:
    """Drafts ahead for the sub-batch verified next while the engine's target runs.

    Call ``step`` once per engine iteration, before the target forward, with the generation
    requests the engine scheduled (and, optionally, the context requests whose prompt
    completes in this iteration). Not thread-safe itself: call it from one thread. The
    drafter runs on the pipeline's draft lane only.
    """

    def __init__(
        self,
        drafter: Drafter,
        num_speculative_tokens: int,
        *,
        lane: str = "threads",
        device: str | None = None,
        on_miss: str = "serial",
        timeout: float | None = 600.0,
    ) -> None:
        if not isinstance(num_speculative_tokens, int) or num_speculative_tokens < 1:
            raise InvalidInputError(f"num_speculative_tokens must be an int >= 1, got {num_speculative_tokens!r}")
        try:
            lane = canonical_lane(lane, "lane")
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from exc
        if on_miss not in ON_MISS:
            raise InvalidInputError(f"on_miss must be one of {ON_MISS}, got {on_miss!r}")
        require_number("timeout", timeout, 0, low_open=True, optional=True)  # None or inf: no limit
        if not isinstance(drafter, Drafter):
            raise InvalidInputError(f"drafter must implement minedraft.protocols.Drafter, got {type(drafter).__name__}")
        if lane == "cuda_streams" and not torch.cuda.is_available():
            raise InvalidInputError("lane='cuda_streams' needs CUDA, but torch.cuda.is_available() is False")
        self.drafter = drafter
        self.k = num_speculative_tokens
        self.on_miss = on_miss
        self.timeout = None if timeout is None or math.isinf(timeout) else float(timeout)
        if lane == "inline":
            self._lane: Lane = Lane("draft")
        elif lane == "cuda_streams":  # the draft's own stream on a GPU it shares with the target
            self._lane = ThreadLane("draft", torch.cuda.Stream(device=device))
        else:  # threads, or devices: the draft sits on its own device, a thread is enough
            self._lane = ThreadLane("draft")
        self._tracks: dict[str, _Track] = {}
        self._job: _Job | None = None
        self._releases: list[str] = []
        self._turn = 0
        self._closed = False
        self.counters: dict[str, float] = dict.fromkeys(
            ("steps", "attached_requests", "attached_tokens", "accepted_tokens", "hits", "misses",
             "serial_requests", "ahead_requests", "bare_requests", "draft_errors",
             "serial_seconds", "ahead_seconds", "wait_seconds"), 0,
        )

    # -- the per-iteration entry point ---------------------------------------------------
    def step(
        self,
        generation: Sequence[Snapshot],
        context: Sequence[Snapshot] = (),
        accepted: Mapping[str, int] | None = None,
    ) -> dict[str, Proposal]:
        """Drafts to attach to ``generation`` requests now (absent: none), and start drafting
        ahead for the rest. ``accepted``: the engine's accepted-draft count per request for
        the drafts attached last time. ``context``: requests whose prompt completes now."""
        if self._closed:
            raise RuntimeError("DraftPipeline.step called after close()")
        self._join()
        self._apply_releases()
        self._reconcile(generation, accepted or {})
        turn, attached, serial, ahead = self._turn, {}, [], []
        for snap in generation:
            track = self._track(snap, turn)
            chain, track.chain = track.chain, None
            matches = chain is not None and chain.base == snap.committed and bool(chain.tokens)
            if matches and snap.limit > 0:
                attached[snap.request_id] = chain.head(snap.limit)
                track.group = turn  # verified now, so drafted next
                self.counters["hits"] += chain.guessed
                continue
            # A right guess the request has no room to use (limit 0) is no miss.
            self.counters["misses"] += bool(chain is not None and chain.guessed and not matches)
            if track.group != turn:
                ahead.append(snap)
            elif self.on_miss == "serial" and snap.limit > 0:
                serial.append(snap)
            else:  # verified bare now; drafted ahead for the next iteration
                track.group = 1 - turn
                self.counters["bare_requests"] += 1
                ahead.append(snap)
        for snap in context:
            if self._track(snap, turn).group != turn:
                ahead.append(snap)
        if serial:
            for snap, chain in zip(serial, self._draft_serial(serial)):
                if chain is not None and chain.tokens:
                    attached[snap.request_id] = chain
                else:
                    self.counters["bare_requests"] += 1
        for rid, chain in attached.items():
            self._tracks[rid].attached = chain
            self.counters["attached_requests"] += 1
            self.counters["attached_tokens"] += len(chain.tokens)
        self._start_ahead(ahead)
        self._turn ^= 1
        self.counters["steps"] += 1
        return {rid: Proposal(list(c.tokens), c.probs) for rid, c in attached.items()}

    def release(self, request_id: str) -> None:
        """Forget a finished request. Safe to call from any thread at any time: it takes
        effect before the next drafter call."""
        self._releases.append(str(request_id))

    def close(self) -> None:
        if self._closed:
            return
        try:
            self._join()
        finally:
            self._releases.extend(self._tracks)
            self._apply_releases()
            self._lane.close()
            self._closed = True

    def stats(self) -> dict[str, float]:
        """Counters plus ``hit_rate`` (drafted-ahead chains whose guessed token the target
        produced) and ``acceptance_rate`` of the attached drafts."""
        out = dict(self.counters)
        guesses = out["hits"] + out["misses"]
        out["hit_rate"] = out["hits"] / guesses if guesses else 0.0
        out["acceptance_rate"] = out["accepted_tokens"] / out["attached_tokens"] if out["attached_tokens"] else 0.0
        return out

    @property
    def num_tracked(self) -> int:
        return len(self._tracks)

    # -- bookkeeping ---------------------------------------------------------------------
    def _track(self, snap: Snapshot, turn: int) -> _Track:
        track = self._tracks.get(snap.request_id)
        if track is None:
            sizes = [0, 0]
            for other in self._tracks.values():
                sizes[other.group] += 1
            # Newcomers join the smaller sub-batch, the one drafted next on a tie (MineDraft).
            group = turn if sizes[turn] < sizes[1 - turn] else 1 - turn
            generator = None
            if snap.params.seed is not None:
                generator = torch.Generator().manual_seed(snap.params.seed * 2 + 1)
            track = _Track(group=group, generator=generator)
            self._tracks[snap.request_id] = track
        return track

    def _reconcile(self, generation: Sequence[Snapshot], accepted: Mapping[str, int]) -> None:
        """Tell the drafter how many of last iteration's drafts each request kept."""
        ids, counts, emitted = [], [], []
        for snap in generation:
            track = self._tracks.get(snap.request_id)
            if track is None or track.attached is None:
                continue
            chain, track.attached = track.attached, None
            base = chain.base
            if snap.committed == base:  # not verified after all: the drafts are still good
                track.chain = chain
                continue
            if snap.committed[: len(base)] != base:
                continue  # the engine rewrote the request; the drafter re-syncs on its next call
            new = list(snap.committed[len(base):])
            derived = 0
            while derived < min(len(new), len(chain.tokens)) and new[derived] == chain.tokens[derived]:
                derived += 1
            # The engine's count is authoritative when it agrees with the tokens; it may count
            # padding the engine accepted past our drafts, which the drafter never saw.
            n = min(int(accepted.get(snap.request_id, derived)), len(chain.tokens))
            if n < 0 or new[:n] != chain.tokens[:n]:
                logger.debug("accepted count %s of %s disagrees with its tokens; using %d",
                             accepted.get(snap.request_id), snap.request_id, derived)
                n = derived
            ids.append(snap.request_id)
            counts.append(n)
            emitted.append(new)
            self.counters["accepted_tokens"] += n
        if ids:
            self.drafter.on_verified(VerifyOutcome(request_ids=ids, num_accepted=counts, emitted=emitted))

    def _apply_releases(self) -> None:
        while self._releases:
            rid = self._releases.pop()
            if self._tracks.pop(rid, None) is not None:
                try:
                    self.drafter.release(rid)
                except Exception:  # noqa: BLE001 - a broken drafter must not stop the engine
                    logger.exception("drafter.release(%r) failed", rid)

    # -- drafting ------------------------------------------------------------------------
    def _draft_serial(self, snaps: list[Snapshot]) -> list[_Chain | None]:
        """Draft now, on the critical path, from exactly the committed tokens."""
        t0 = time.perf_counter()
        items = [(s.request_id, s.committed, s.params, self._tracks[s.request_id].generator,
                  min(self.k, s.limit)) for s in snaps]
        future = self._lane.submit("draft (serial)", self._timed_propose, items, False)
        try:
            chains, _ = future.result(timeout=self.timeout)
        except FutureTimeout as exc:
            raise TimeoutError(f"serial drafting did not finish within timeout={self.timeout}s") from exc
        except Exception:  # noqa: BLE001 - drafts are optional: verify without them
            logger.exception("serial drafting failed; verifying %d requests without drafts", len(snaps))
            self.counters["draft_errors"] += 1
            chains = [None] * len(snaps)
        self.counters["serial_requests"] += len(snaps)
        self.counters["serial_seconds"] += time.perf_counter() - t0
        return chains

    def _start_ahead(self, snaps: list[Snapshot]) -> None:
        """Draft for the next iteration while the engine's target runs this one."""
        items = []
        for s in snaps:
            length = min(self.k, s.remaining - 2)  # next iteration may still take this many
            if length >= 1:
                items.append((s.request_id, s.committed, s.params, self._tracks[s.request_id].generator, length))
        if not items:
            return
        future = self._lane.submit("draft (ahead)", self._timed_propose, items, True)
        self._job = _Job(future=future, request_ids=[it[0] for it in items])
        self.counters["ahead_requests"] += len(items)

    def _join(self) -> None:
        job, self._job = self._job, None
        if job is None:
            return
        t0 = time.perf_counter()
        try:
            chains, seconds = job.future.result(timeout=self.timeout)
            self.counters["ahead_seconds"] += seconds
        except FutureTimeout as exc:
            raise TimeoutError(f"drafting ahead did not finish within timeout={self.timeout}s") from exc
        except Exception:  # noqa: BLE001 - drafts are optional: those requests go without
            logger.exception("drafting ahead failed for %d requests", len(job.request_ids))
            self.counters["draft_errors"] += 1
            chains = []
        finally:
            self.counters["wait_seconds"] += time.perf_counter() - t0  # the draft lane's excess over the target
        for rid, chain in zip(job.request_ids, chains):
            track = self._tracks.get(rid)
            if track is not None and chain is not None and rid not in self._releases:
                track.chain = chain
        if len(self._lane.intervals) > 4096:  # a server runs for ever: keep the lane's log bounded
            self._lane.intervals.clear()

    def _timed_propose(self, items: list[tuple], guess: bool) -> tuple[list[_Chain | None], float]:
        t0 = time.perf_counter()
        return self._propose_chains(items, guess), time.perf_counter() - t0

    def _propose_chains(self, items: list[tuple], guess: bool) -> list[_Chain | None]:
        """Runs on the draft lane. ``guess``: first take the draft's argmax as the token the
        target is about to add, then draft after it."""
        bases = [tuple(committed) for _, committed, _, _, _ in items]
        if guess:
            firsts = [RequestState(prompt_ids=list(b), params=_GREEDY, request_id=rid)
                      for (rid, *_), b in zip(items, bases)]
            guessed = self.drafter.propose(firsts, [1] * len(items))
            bases = [b + tuple(guessed.tokens_of(i)) for i, b in enumerate(bases)]
        states = []
        for (rid, _, params, generator, _), base in zip(items, bases):
            state = RequestState(prompt_ids=list(base), params=params, request_id=rid)
            state.draft_generator = generator  # one stream per request across calls
            states.append(state)
        block = self.drafter.propose(states, [length for *_, length in items])
        chains: list[_Chain | None] = []
        for i, ((_, committed, params, _, _), base) in enumerate(zip(items, bases)):
            if guess and len(base) != len(committed) + 1:
                chains.append(None)  # the drafter made no guess
                continue
            start, end = int(block.cu_num_tokens[i]), int(block.cu_num_tokens[i + 1])
            probs = None
            if block.draft_probs is not None and not params.greedy:
                probs = block.draft_probs[start:end]  # [n, vocab]
            chains.append(_Chain(base, block.tokens[start:end].tolist(), probs, guessed=guess))
        return chains
