"""The two engine-facing protocols every backend implements.

Engines own model weights and KV caches; schedulers own requests and decide what runs
when. The contract that keeps caches consistent without the scheduler knowing about
them: an engine may keep KV for any prefix of a request's *committed* tokens, and must
discard (or overwrite) KV past the committed prefix it is handed next. Drafts and scores
are always computed from ``RequestState.committed_ids`` at call time.

Engines are not thread-safe individually, but a drafter and a target must tolerate being
called concurrently from two different threads (the PSD lanes), each on a disjoint set of
requests for the drafter and the target respectively.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from .types import DraftBlock, RequestState, VerifyOutcome, VerifyScores


@runtime_checkable
class Drafter(Protocol):
    """Proposes draft tokens from committed prefixes."""

    vocab_size: int

    def propose(
        self,
        requests: Sequence[RequestState],
        num_tokens: Sequence[int],
        stop_threshold: float | None = None,
    ) -> DraftBlock:
        """Draft up to ``num_tokens[i]`` tokens for each request (0 allowed).

        With ``stop_threshold`` a request stops drafting early once the running product
        of its draft max-probabilities falls below it (confidence-adaptive length).
        """
        ...

    def on_verified(self, outcome: VerifyOutcome) -> None:
        """The requests' committed tokens grew by ``outcome.emitted``; KV past the
        accepted drafts is stale and must be rolled back before the next proposal."""
        ...

    def release(self, request_id: str) -> None:
        """Forget a finished or cancelled request and free its cache."""
        ...


@runtime_checkable
class Target(Protocol):
    """Scores draft blocks in one forward pass."""

    vocab_size: int
    max_context: int

    def score(self, requests: Sequence[RequestState], block: DraftBlock) -> VerifyScores:
        """Logits for the k_i + 1 positions of every request: the target's next-token
        distribution after the committed prefix and after each draft token."""
        ...

    def on_verified(self, outcome: VerifyOutcome) -> None:
        """Commit accepted tokens; release the KV of rejected ones."""
        ...

    def release(self, request_id: str) -> None:
        ...
