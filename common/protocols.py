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

from .types import Branch, BranchSpec, DraftBlock, DraftTree, RequestState, VerifyOutcome, VerifyScores


@runtime_checkable
class Drafter(Protocol):
    """Proposes draft tokens from committed prefixes.

    Optional: ``max_context`` (int), the drafter's context window where it is shorter than
    the target's; schedulers then never ask it to draft past it (a request beyond it is
    verified without a draft)."""

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


@runtime_checkable
class ParticleEngine(Protocol):
    """Optional capability: copy one request's engine state to another id.

    Used by particle methods (SMC-SD, ``minedraft.schedulers.smc``), where one request
    becomes several sequences that start from a shared prompt and are resampled, i.e.
    replaced by copies of each other. An engine without it still works: the scheduler
    then ``release``s the replaced id and the engine recomputes from the committed tokens
    on its next call, which the contract above already allows.
    """

    def prefill(self, request: RequestState) -> None:
        """Compute and keep KV for the request's committed tokens, so that ``fork`` can
        hand it to other ids instead of every id recomputing it."""
        ...

    def fork(self, src_id: str, dst_ids: Sequence[str]) -> None:
        """Each ``dst`` id continues from ``src``'s state: whatever ``dst`` held is
        dropped, and ``dst`` gets the KV (and the record of which tokens it covers) that
        ``src`` holds now. ``src`` is unchanged. The next call passes each ``dst`` with
        committed tokens equal to ``src``'s."""
        ...


@runtime_checkable
class TreeDrafter(Protocol):
    """Optional capability: proposes a prefix tree of drafts per request (``minedraft.rules.draft_trees``).

    ``num_tokens[i]`` bounds the tree's depth (as ``Drafter.propose`` bounds a chain);
    ``num_branches`` is how many alternatives a request may get, ``branch_tokens`` how long
    each may be (None: down to the chain's depth). Every node's ``draft_probs`` row is the
    law its token was drawn from, given its path and what was drafted before it (zero row:
    deterministic), which is what keeps tree verification lossless. ``on_verified``
    receives a ``minedraft.rules.draft_trees.TreeVerifyOutcome`` (with the accepted node path).
    A drafter that implements ``BranchDrafter`` gets this from
    ``minedraft.rules.draft_trees.propose_confidence_tree``.
    """

    vocab_size: int

    def propose_tree(
        self,
        requests: Sequence[RequestState],
        num_tokens: Sequence[int],
        num_branches: int,
        branch_tokens: int | None = None,
    ) -> DraftTree:
        ...

    def on_verified(self, outcome: VerifyOutcome) -> None:
        ...

    def release(self, request_id: str) -> None:
        ...


@runtime_checkable
class BranchDrafter(Protocol):
    """The two drafting stages of D²SD, composed by ``minedraft.rules.draft_trees.propose_confidence_tree``.

    Shaped for both drafter kinds: an autoregressive drafter drafts the chain token by
    token and the branches with tree attention; a block (diffusion) drafter drafts the
    chain as one block with per-position confidences, and the branches in one masked pass
    in which each branch sees its chain prefix (D²SD's variable-prefix drafter).
    """

    def draft_chain(self, requests: Sequence[RequestState], num_tokens: Sequence[int]) -> DraftBlock:
        """``num_tokens[i]`` drafts per request, with ``draft_logprobs`` (log of each draft's
        probability: the confidences) and, for sampled requests, ``draft_probs``."""
        ...

    def draft_branches(
        self, requests: Sequence[RequestState], chain: DraftBlock, specs: Sequence[BranchSpec]
    ) -> list[Branch]:
        """One ``Branch`` per spec, in order: ``spec.length`` tokens that keep
        chain[:spec.start] and replace chain[spec.start] (a first token equal to it is
        allowed but wasted)."""
        ...


@runtime_checkable
class TreeTarget(Protocol):
    """Optional capability: scores a ``DraftTree`` in one forward pass.

    Returns ``VerifyScores`` with n_i + 1 rows per request: the distribution after the
    committed prefix, then after each node (its prefix being the committed tokens and the
    node's ancestors). ``on_verified`` receives a ``minedraft.rules.draft_trees.TreeVerifyOutcome``,
    whose accepted path lets the engine keep the accepted nodes' KV (the reference engine
    moves it to consecutive positions) rather than recompute it.
    """

    vocab_size: int
    max_context: int

    def score_tree(self, requests: Sequence[RequestState], tree: DraftTree) -> VerifyScores:
        ...

    def on_verified(self, outcome: VerifyOutcome) -> None:
        ...

    def release(self, request_id: str) -> None:
        ...
