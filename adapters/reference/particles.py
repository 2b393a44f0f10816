"""Particle support for the reference engine (``minedraft.protocols.ParticleEngine``).

SMC-SD turns one request into N particles, each a sequence with its own id, and
resampling replaces some particles by copies of others. The reference engines keep one
KV slot per id, so:

- ``prefill(request)`` runs the request's committed tokens (the prompt) once, in the
  first particle's slot;
- ``fork(src, dsts)`` copies ``src``'s slot into each ``dst``'s slot with
  ``ModelRunner.copy_slot``, together with the record of which tokens the KV covers (and,
  on a target with a feature store, the published features).

What "the particles share the prompt KV" means here: the prompt's KV is *computed* once
per request and *copied* to the other particles; each slot then holds its own copy (a
slot cache has no reference-counted pages, unlike SGLang's paged cache, so memory is not
shared). A resampling fork copies only the positions where source and destination
differ, i.e. from their last common ancestor on.
"""

from __future__ import annotations

from collections.abc import Sequence

from minedraft.types import DraftBlock, RequestState

from .engines import ReferenceDrafter, ReferenceTarget
from .runner import ModelRunner, Row


class ForkableRunnerEngine:
    """Adds ``prefill`` and ``fork`` to an engine built on a ``ModelRunner``."""

    runner: ModelRunner
    _committed_len: dict[str, int]

    def prefill(self, request: RequestState) -> None:
        committed = request.committed_ids
        self._committed_len[request.request_id] = len(committed)
        self.runner.forward([Row(request.request_id, committed, 1)])

    def fork(self, src_id: str, dst_ids: Sequence[str]) -> None:
        for dst in dst_ids:
            if dst == src_id:
                continue
            self.runner.copy_slot(src_id, dst)
            if src_id in self._committed_len:
                self._committed_len[dst] = self._committed_len[src_id]
            else:
                self._committed_len.pop(dst, None)


class ParticleTarget(ForkableRunnerEngine, ReferenceTarget):
    """The reference target with the ``ParticleEngine`` capability. With a feature store
    (EAGLE-style drafters read the target's features) the features are forked too, and
    prefill goes through ``score`` so that the prompt's features are published."""

    def prefill(self, request: RequestState) -> None:
        self.score([request], DraftBlock.empty([request.request_id]))

    def fork(self, src_id: str, dst_ids: Sequence[str]) -> None:
        super().fork(src_id, dst_ids)
        for dst in dst_ids:
            if dst == src_id:
                continue
            self._fed.pop(dst, None)
            if self.feature_store is not None:
                self.feature_store.release(dst)
                n = self.feature_store.length(src_id)
                if n:
                    self.feature_store.publish(dst, 0, self.feature_store.read(src_id, 0, n))


class ParticleDrafter(ForkableRunnerEngine, ReferenceDrafter):
    """The reference drafter with the ``ParticleEngine`` capability."""
