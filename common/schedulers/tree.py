"""Tree drafting modes: D²SD confidence-guided draft trees, sequential and under PSD.

- ``tree``: SD whose drafts are prefix trees (``minedraft.rules.draft_trees``), verified in one target
  pass per step.
- ``tree-psd``: the PSD schedule (``minedraft.schedulers.psd``) with tree drafts: the draft
  lane builds the trees of one sub-batch while the target verifies the other's, so the
  extra drafting that branching costs is paid by the draft lane's slack.

Both reuse their chain scheduler unchanged: the drafter is presented through
``Drafter.propose`` by ``TreeProposer`` (which returns ``DraftTree``s), and verification
dispatches on the draft type. Options (``TreeOptions``): ``tree_branches`` (K, default 4 as
in D²SD) and ``tree_branch_tokens`` (tokens per branch, default: down to the chain depth).
Trees take no PSD verify budget (``extra_proposals``/``verify_budget``): pruning a node by
its own draft probability would bias sampling (see ``minedraft.rules.draft_trees``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..protocols import Drafter, Target, TreeDrafter, TreeTarget
from ..rules.draft_trees import verify_tree
from ..types import DraftBlock, DraftTree, InvalidInputError, RequestState, VerifyOutcome
from ..validation import require_int
from .base import SchedulerConfig, register_scheduler
from .options import ModeOptions
from .psd import ParallelSpeculativeScheduler
from .sequential import SpeculativeScheduler

DEFAULT_BRANCHES = 4


class TreeProposer:
    """A ``TreeDrafter`` seen through ``Drafter.propose``: returns ``DraftTree``s."""

    def __init__(self, drafter: TreeDrafter, num_branches: int, branch_tokens: int | None) -> None:
        self.drafter = drafter
        self.num_branches = num_branches
        self.branch_tokens = branch_tokens
        self.vocab_size = drafter.vocab_size

    def propose(
        self, requests: Sequence[RequestState], num_tokens: Sequence[int], stop_threshold: float | None = None
    ) -> DraftTree:
        return self.drafter.propose_tree(requests, num_tokens, self.num_branches, self.branch_tokens)

    def on_verified(self, outcome: VerifyOutcome) -> None:
        self.drafter.on_verified(outcome)

    def release(self, request_id: str) -> None:
        self.drafter.release(request_id)


@dataclass(frozen=True)
class TreeOptions(ModeOptions):
    """D²SD tree shape (modes ``tree`` and ``tree-psd``)."""

    tree_branches: int = DEFAULT_BRANCHES  # K: alternatives a request may get (0: the chain alone)
    tree_branch_tokens: int | None = None  # tokens per branch; None: down to the chain depth

    def __post_init__(self) -> None:
        require_int("tree_branches", self.tree_branches, 0)
        require_int("tree_branch_tokens", self.tree_branch_tokens, 1, optional=True)


class _TreeVerification:
    """Mixin over a chain scheduler: tree drafter in, tree verification out."""

    name: str
    options: TreeOptions
    options_class = TreeOptions

    def __init__(self, target: Target, drafter: Drafter | None, config: SchedulerConfig,
                 options: TreeOptions | Mapping[str, Any] | None = None) -> None:
        # Check before the base class starts lanes: nothing half-built on bad input.
        if not isinstance(target, TreeTarget):
            raise InvalidInputError(
                f"mode {self.name!r} needs a target with score_tree (minedraft.protocols.TreeTarget), "
                f"got {type(target).__name__}"
            )
        if drafter is not None and not isinstance(drafter, TreeDrafter):
            raise InvalidInputError(
                f"mode {self.name!r} needs a drafter with propose_tree (minedraft.protocols.TreeDrafter), "
                f"got {type(drafter).__name__}"
            )
        super().__init__(target, drafter, config, options)  # type: ignore[call-arg]
        self.drafter = TreeProposer(drafter, self.options.tree_branches,  # type: ignore[arg-type]
                                    self.options.tree_branch_tokens)

    def score_and_verify(self, batch: Sequence[RequestState], block: DraftBlock | DraftTree) -> VerifyOutcome:
        if isinstance(block, DraftTree):
            return verify_tree(block, self.target.score_tree(batch, block), batch)
        return super().score_and_verify(batch, block)


@register_scheduler("tree")
class TreeScheduler(_TreeVerification, SpeculativeScheduler):
    """Sequential SD with D²SD draft trees."""

    exact = True  # lossless: output distributed exactly as the target's
    overlapping = False


@register_scheduler("tree-psd")
class TreeParallelScheduler(_TreeVerification, ParallelSpeculativeScheduler):
    """PSD with D²SD draft trees: stored per request, concatenated for verification."""

    exact = True
    overlapping = True  # LLM gives it concurrent lanes by default

    def _verify_block(self, group: list[RequestState]) -> DraftTree:
        return DraftTree.concat([self.stored.pop(r.request_id) for r in group])
