"""The data that flows between stages of one speculative step.

Vocabulary (shared by every module, after vLLM's rejection sampler):

- *committed* tokens: prompt plus every output token already emitted. Drafts and
  scores are always conditioned on committed tokens only.
- *draft* tokens: the k proposals a drafter makes for one request.
- *accepted* tokens: the leading draft tokens the verification rule keeps.
- *recovered* token: the token sampled from norm(max(0, p - q)) (or the target argmax
  under greedy) at the first rejected position.
- *bonus* token: the token sampled from the target at position k + 1 when every draft
  token was accepted.

Ragged batches are flat tensors with cumulative offsets: request ``i`` owns rows
``cu[i]:cu[i + 1]``.
"""

from __future__ import annotations

import enum
import itertools
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import torch

from .validation import InvalidInputError, require_int, require_number


def _invalid(field_name: str, value: object, expectation: str) -> InvalidInputError:
    return InvalidInputError(f"{field_name} {expectation}, got {value!r}")


@dataclass(frozen=True)
class SamplingParams:
    """Per-request sampling and stopping parameters, with vLLM's and SGLang's names and
    defaults: ``temperature`` 1.0 samples from the target, 0 decodes greedily (and then
    ``top_k``, ``top_p`` and ``seed`` change nothing).

    ``stop`` strings end a request; its ``text`` is cut just before the first one (after
    it with ``include_stop_str_in_output``), while ``token_ids`` keep the token that
    completed it. ``seed`` makes a sampled request reproduce whatever batch it runs in,
    except in modes whose draws depend on measured times or on the other requests (flex,
    and ``extra_proposals``): there the output is still distributed as the target's.
    """

    temperature: float = 1.0
    top_k: int = 0  # 0 or -1: off
    top_p: float = 1.0
    seed: int | None = None
    max_new_tokens: int = 64
    stop: tuple[str, ...] = ()
    stop_token_ids: tuple[int, ...] = ()
    ignore_eos: bool = False
    include_stop_str_in_output: bool = False

    def __post_init__(self) -> None:
        require_number("SamplingParams.temperature", self.temperature, 0)
        require_int("SamplingParams.top_k", self.top_k, -1)  # 0 or -1 disables it
        require_number("SamplingParams.top_p", self.top_p, 0, 1, low_open=True)
        require_int("SamplingParams.max_new_tokens", self.max_new_tokens, 1)
        require_int("SamplingParams.seed", self.seed, optional=True)
        for flag in ("ignore_eos", "include_stop_str_in_output"):
            if not isinstance(getattr(self, flag), bool):
                raise _invalid(f"SamplingParams.{flag}", getattr(self, flag), "must be True or False")
        stop = () if self.stop is None else (self.stop,) if isinstance(self.stop, str) else self.stop
        if not isinstance(stop, Iterable) or isinstance(stop, (bytes, Mapping)):
            raise _invalid("SamplingParams.stop", self.stop, "must be a string or a list of strings")
        object.__setattr__(self, "stop", tuple(stop))
        if any(not isinstance(s, str) or not s for s in self.stop):
            raise _invalid("SamplingParams.stop", self.stop, "must hold non-empty strings")
        ids = self.stop_token_ids
        ids = () if ids is None else (ids,) if isinstance(ids, numbers.Integral) and not isinstance(ids, bool) else ids
        if not isinstance(ids, Iterable) or isinstance(ids, (str, bytes, Mapping)):
            raise _invalid("SamplingParams.stop_token_ids", self.stop_token_ids, "must be a list of token ids")
        ids = tuple(ids)
        if any(isinstance(t, bool) or not isinstance(t, numbers.Integral) or t < 0 for t in ids):
            raise _invalid("SamplingParams.stop_token_ids", self.stop_token_ids, "must hold token ids (ints >= 0)")
        object.__setattr__(self, "stop_token_ids", tuple(int(t) for t in ids))

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0


class FinishReason(str, enum.Enum):
    LENGTH = "length"
    STOP = "stop"  # EOS, a stop token id or a stop string
    CANCELLED = "cancelled"
    ERROR = "error"


_request_ids = itertools.count()


@dataclass(eq=False)  # identity semantics: two requests are never "equal"
class RequestState:
    """One request as the schedulers see it: the committed tokens and how to stop."""

    prompt_ids: list[int]
    params: SamplingParams
    request_id: str = field(default_factory=lambda: f"req-{next(_request_ids)}")
    output_ids: list[int] = field(default_factory=list)
    finish_reason: FinishReason | None = None
    stop_reason: int | str | None = None  # the stop token id or stop string that ended it (vLLM's)
    error: str | None = None
    # Seeded generators: drafting and verification draw from independent streams so
    # that the verification randomness does not depend on how many draws drafting made.
    draft_generator: torch.Generator | None = None
    verify_generator: torch.Generator | None = None
    # Bookkeeping filled by the scheduler.
    arrival_time: float = 0.0
    first_token_time: float | None = None
    finish_time: float | None = None
    num_draft_tokens: int = 0
    num_accepted_tokens: int = 0
    num_verify_steps: int = 0

    def __post_init__(self) -> None:
        if not self.prompt_ids:
            raise _invalid("prompt", self.prompt_ids, "must contain at least one token")
        if self.params.seed is not None:  # any int: torch takes seeds modulo 2**64
            self.draft_generator = torch.Generator().manual_seed((self.params.seed * 2 + 1) % 2**64)
            self.verify_generator = torch.Generator().manual_seed((self.params.seed * 2) % 2**64)

    @property
    def committed_ids(self) -> list[int]:
        return self.prompt_ids + self.output_ids

    @property
    def num_committed(self) -> int:
        return len(self.prompt_ids) + len(self.output_ids)

    @property
    def finished(self) -> bool:
        return self.finish_reason is not None

    @property
    def remaining_tokens(self) -> int:
        return self.params.max_new_tokens - len(self.output_ids)


@dataclass
class DraftBlock:
    """Draft tokens for a set of requests, ragged, as flat tensors.

    ``draft_probs`` holds the draft distribution q each token was sampled from (after
    temperature/top-k/top-p), needed by lossless speculative sampling. It is None for
    greedy-only blocks and for probability-free drafters (n-gram style), which the
    verification rule treats as a point mass on the proposed token.
    """

    request_ids: list[str]
    tokens: torch.Tensor  # [num_tokens] int64
    cu_num_tokens: torch.Tensor  # [batch + 1] int64
    draft_probs: torch.Tensor | None = None  # [num_tokens, vocab] float32
    draft_logprobs: torch.Tensor | None = None  # [num_tokens] log q(token), confidence signal

    @property
    def batch_size(self) -> int:
        return len(self.request_ids)

    @property
    def num_tokens(self) -> int:
        return int(self.tokens.numel())

    def lengths(self) -> list[int]:
        return (self.cu_num_tokens[1:] - self.cu_num_tokens[:-1]).tolist()

    @property
    def width(self) -> int:
        """The longest draft: targets score a batch as a [batch, width + 1] rectangle
        (shorter rows padded), so this, not the mean, sets a verification's cost."""
        return max(self.lengths(), default=0)

    def tokens_of(self, index: int) -> list[int]:
        start, end = self.cu_num_tokens[index].item(), self.cu_num_tokens[index + 1].item()
        return self.tokens[start:end].tolist()

    @staticmethod
    def empty(request_ids: list[str]) -> DraftBlock:
        """A block with no draft tokens: verifying it is plain autoregressive decoding."""
        return DraftBlock(
            request_ids=list(request_ids),
            tokens=torch.zeros(0, dtype=torch.long),
            cu_num_tokens=torch.zeros(len(request_ids) + 1, dtype=torch.long),
        )

    @staticmethod
    def concat(blocks: list[DraftBlock]) -> DraftBlock:
        """Blocks of disjoint requests, one after another. A block without draft_probs
        (greedy) contributes zero rows where others carry probabilities: the greedy rule
        never reads them."""
        if not blocks:
            return DraftBlock.empty([])
        tokens = torch.cat([b.tokens for b in blocks])
        lengths = [n for b in blocks for n in b.lengths()]
        cu = torch.zeros(len(lengths) + 1, dtype=torch.long)
        cu[1:] = torch.cumsum(torch.tensor(lengths, dtype=torch.long), 0)
        probs = None
        with_probs = [b.draft_probs for b in blocks if b.draft_probs is not None]
        if with_probs:
            vocab, dtype, device = with_probs[0].shape[-1], with_probs[0].dtype, with_probs[0].device
            probs = torch.cat(
                [
                    b.draft_probs if b.draft_probs is not None else torch.zeros(b.num_tokens, vocab, dtype=dtype, device=device)
                    for b in blocks
                ]
            )
        logprobs = None
        if all(b.draft_logprobs is not None for b in blocks):
            logprobs = torch.cat([b.draft_logprobs for b in blocks])  # type: ignore[misc]
        return DraftBlock(
            request_ids=[rid for b in blocks for rid in b.request_ids],
            tokens=tokens,
            cu_num_tokens=cu,
            draft_probs=probs,
            draft_logprobs=logprobs,
        )

    def select(self, indices: list[int]) -> DraftBlock:
        """The sub-block of the given requests, in the given order."""
        lengths = self.lengths()
        rows = [torch.arange(self.cu_num_tokens[i].item(), self.cu_num_tokens[i + 1].item()) for i in indices]
        flat = torch.cat(rows) if rows else torch.zeros(0, dtype=torch.long)
        cu = torch.zeros(len(indices) + 1, dtype=torch.long)
        if indices:
            cu[1:] = torch.cumsum(torch.tensor([lengths[i] for i in indices]), 0)
        return DraftBlock(
            request_ids=[self.request_ids[i] for i in indices],
            tokens=self.tokens[flat],
            cu_num_tokens=cu,
            draft_probs=None if self.draft_probs is None else self.draft_probs[flat],
            draft_logprobs=None if self.draft_logprobs is None else self.draft_logprobs[flat],
        )

    def truncate(self, new_lengths: list[int]) -> DraftBlock:
        """Keep the first ``new_lengths[i]`` draft tokens of request i (TETRIS, flex)."""
        lengths = self.lengths()
        if len(new_lengths) != len(lengths) or any(n < 0 or n > m for n, m in zip(new_lengths, lengths)):
            raise ValueError(f"truncate lengths {new_lengths} do not fit draft lengths {lengths}")
        rows = [
            torch.arange(self.cu_num_tokens[i].item(), self.cu_num_tokens[i].item() + n)
            for i, n in enumerate(new_lengths)
        ]
        flat = torch.cat(rows) if rows else torch.zeros(0, dtype=torch.long)
        cu = torch.zeros(len(new_lengths) + 1, dtype=torch.long)
        cu[1:] = torch.cumsum(torch.tensor(new_lengths, dtype=torch.long), 0)
        return DraftBlock(
            request_ids=list(self.request_ids),
            tokens=self.tokens[flat],
            cu_num_tokens=cu,
            draft_probs=None if self.draft_probs is None else self.draft_probs[flat],
            draft_logprobs=None if self.draft_logprobs is None else self.draft_logprobs[flat],
        )


@dataclass
class VerifyScores:
    """The target's logits for the k_i + 1 positions of every request of a draft block."""

    logits: torch.Tensor  # [num_draft_tokens + batch, vocab]
    cu_num_positions: torch.Tensor  # [batch + 1]; request i owns k_i + 1 rows


@dataclass
class VerifyOutcome:
    """What verification decided for each request of a block."""

    request_ids: list[str]
    num_accepted: list[int]  # accepted draft tokens per request
    emitted: list[list[int]]  # accepted tokens followed by the recovered or bonus token

    def __post_init__(self) -> None:
        assert len(self.request_ids) == len(self.num_accepted) == len(self.emitted)


# -- draft trees (rules in minedraft.rules.draft_trees) ------------------------------------
def cumulative_offsets(lengths: Sequence[int]) -> torch.Tensor:
    cu = torch.zeros(len(lengths) + 1, dtype=torch.long)
    if len(lengths):
        cu[1:] = torch.cumsum(torch.tensor(list(lengths), dtype=torch.long), 0)
    return cu


@dataclass
class DraftTree:
    """Draft prefix trees for a set of requests, ragged, as flat tensors.

    ``parents[g]`` is the parent's index *within its request* (-1: a child of the root);
    parents precede children. ``draft_probs[g]`` is the law node g's token was drawn from
    (see ``minedraft.rules.draft_trees``); an all-zero row, or ``draft_probs=None``, marks a
    deterministic candidate. ``depths`` (0 for children of the root) is derived.
    """

    request_ids: list[str]
    tokens: torch.Tensor  # [num_nodes] int64
    parents: torch.Tensor  # [num_nodes] int64, request-local, -1 = root
    cu_num_nodes: torch.Tensor  # [batch + 1] int64
    draft_probs: torch.Tensor | None = None  # [num_nodes, vocab]
    draft_logprobs: torch.Tensor | None = None  # [num_nodes] log q(token), confidence signal
    depths: torch.Tensor = field(init=False)  # [num_nodes] int64

    def __post_init__(self) -> None:
        n, batch = self.tokens.numel(), len(self.request_ids)
        if self.tokens.dim() != 1 or self.parents.shape != self.tokens.shape:
            raise ValueError(f"tree tokens {tuple(self.tokens.shape)} and parents {tuple(self.parents.shape)} must be equal 1-D")
        cu = self.cu_num_nodes
        if cu.shape != (batch + 1,) or int(cu[0]) != 0 or int(cu[-1]) != n or bool((cu[1:] < cu[:-1]).any()):
            raise ValueError(f"tree cu_num_nodes {cu.tolist()} does not fit {batch} requests and {n} nodes")
        for name, t in (("draft_probs", self.draft_probs), ("draft_logprobs", self.draft_logprobs)):
            if t is not None and t.shape[0] != n:
                raise ValueError(f"tree {name} has {t.shape[0]} rows for {n} nodes")
        req = self._request_of_node()
        local = torch.arange(n) - cu[req]
        bad = ((self.parents < -1) | (self.parents >= local)).nonzero()
        if bad.numel():
            g = int(bad[0])
            raise ValueError(f"tree parents: node {g} has parent {int(self.parents[g])}, which must be -1 or an "
                             f"earlier node of the same request")
        parent_g = torch.where(self.parents >= 0, self.parents + cu[req], torch.full_like(self.parents, -1))
        depths = torch.zeros(n, dtype=torch.long)
        for _ in range(n):  # parents precede children: at most max-depth rounds change anything
            new = torch.where(parent_g >= 0, depths[parent_g.clamp(min=0)] + 1, torch.zeros_like(depths))
            if torch.equal(new, depths):
                break
            depths = new
        self.depths = depths
        # Siblings must differ: a repeated candidate would need its own rejection stage.
        key = (self.parent_rows() * (int(self.tokens.max()) + 1 if n else 1) + self.tokens).sort().values
        if bool((key[1:] == key[:-1]).any()):
            raise ValueError("tree siblings must carry distinct tokens")

    # -- shape ---------------------------------------------------------------------------
    @property
    def batch_size(self) -> int:
        return len(self.request_ids)

    @property
    def num_tokens(self) -> int:
        """Nodes in the tree (= draft tokens the target scores), as for ``DraftBlock``."""
        return int(self.tokens.numel())

    def lengths(self) -> list[int]:
        """Nodes per request."""
        return (self.cu_num_nodes[1:] - self.cu_num_nodes[:-1]).tolist()

    @property
    def width(self) -> int:
        """Most nodes of one request (the padded width the target scores, as for ``DraftBlock``)."""
        return max(self.lengths(), default=0)

    def _request_of_node(self) -> torch.Tensor:  # [num_nodes]
        counts = self.cu_num_nodes[1:] - self.cu_num_nodes[:-1]
        return torch.repeat_interleave(torch.arange(self.batch_size), counts)

    def parent_rows(self) -> torch.Tensor:  # [num_nodes]
        """Score row of each node's parent (layout: request i owns rows cu[i] + i .. cu[i + 1] + i)."""
        req = self._request_of_node()
        base = self.cu_num_nodes[req] + req  # root row of the node's request
        return torch.where(self.parents >= 0, base + 1 + self.parents, base)

    def node_rows(self) -> torch.Tensor:  # [num_nodes]
        """Score row of the distribution after each node."""
        return torch.arange(self.num_tokens) + self._request_of_node() + 1

    def _span(self, index: int) -> slice:
        return slice(int(self.cu_num_nodes[index]), int(self.cu_num_nodes[index + 1]))

    def tokens_of(self, index: int) -> list[int]:
        return self.tokens[self._span(index)].tolist()

    def parents_of(self, index: int) -> list[int]:
        return self.parents[self._span(index)].tolist()

    def depths_of(self, index: int) -> list[int]:
        return self.depths[self._span(index)].tolist()

    def path(self, index: int, node: int) -> list[int]:
        """Request-local node indices from the root's child down to ``node``."""
        parents = self.parents_of(index)
        out = []
        while node >= 0:
            out.append(node)
            node = parents[node]
        return out[::-1]

    # -- construction --------------------------------------------------------------------
    @staticmethod
    def empty(request_ids: list[str]) -> DraftTree:
        z = torch.zeros(0, dtype=torch.long)
        return DraftTree(list(request_ids), z, z.clone(), torch.zeros(len(request_ids) + 1, dtype=torch.long))

    @staticmethod
    def from_block(block: DraftBlock) -> DraftTree:
        """A chain per request: node j's parent is node j - 1."""
        req = torch.repeat_interleave(torch.arange(block.batch_size), torch.tensor(block.lengths(), dtype=torch.long))
        local = torch.arange(block.num_tokens) - block.cu_num_tokens[req]
        return DraftTree(
            list(block.request_ids), block.tokens.clone(), local - 1, block.cu_num_tokens.clone(),
            draft_probs=block.draft_probs, draft_logprobs=block.draft_logprobs,
        )

    @staticmethod
    def concat(trees: Sequence[DraftTree]) -> DraftTree:
        """Trees of disjoint requests, one after another (zero ``draft_probs`` rows where a
        tree has none: deterministic candidates, which the greedy rule never reads)."""
        if not trees:
            return DraftTree.empty([])
        lengths = [n for t in trees for n in t.lengths()]
        probs = None
        with_probs = [t.draft_probs for t in trees if t.draft_probs is not None]
        if with_probs:
            ref = with_probs[0]
            probs = torch.cat([
                t.draft_probs if t.draft_probs is not None
                else ref.new_zeros(t.num_tokens, ref.shape[-1]) for t in trees
            ])
        logprobs = None
        if all(t.draft_logprobs is not None for t in trees):
            logprobs = torch.cat([t.draft_logprobs for t in trees])  # type: ignore[misc]
        return DraftTree(
            [rid for t in trees for rid in t.request_ids], torch.cat([t.tokens for t in trees]),
            torch.cat([t.parents for t in trees]), cumulative_offsets(lengths), draft_probs=probs, draft_logprobs=logprobs,
        )

    def select(self, indices: list[int]) -> DraftTree:
        """The sub-tree-batch of the given requests, in the given order."""
        rows = [torch.arange(int(self.cu_num_nodes[i]), int(self.cu_num_nodes[i + 1])) for i in indices]
        flat = torch.cat(rows) if rows else torch.zeros(0, dtype=torch.long)
        lengths = self.lengths()
        return DraftTree(
            [self.request_ids[i] for i in indices], self.tokens[flat], self.parents[flat],
            cumulative_offsets([lengths[i] for i in indices]),
            draft_probs=None if self.draft_probs is None else self.draft_probs[flat],
            draft_logprobs=None if self.draft_logprobs is None else self.draft_logprobs[flat],
        )


@dataclass
class TreeVerifyOutcome(VerifyOutcome):
    """``VerifyOutcome`` plus the accepted path: request-local node indices, root first,
    so engines can compact the accepted nodes' KV."""

    accepted_nodes: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        assert [len(p) for p in self.accepted_nodes] == list(self.num_accepted)


@dataclass(frozen=True)
class BranchSpec:
    """Ask for an alternative continuation of request ``request_index``'s chain that keeps
    chain[:start] and replaces chain[start]; ``length`` tokens (depths start .. start +
    length - 1)."""

    request_index: int
    start: int
    length: int


@dataclass
class Branch:
    """A drafted alternative: ``tokens`` at depths start, start + 1, ... below chain[:start].

    ``probs[m]`` is the law tokens[m] was drawn from given its path (and, for tokens[0],
    anything drafted before it, such as the chain); None (or a zero row) for deterministic
    tokens. A drafter may exclude chain[start] itself (sampling without replacement) or
    not: ``merge_branches`` conditions the law on differing from existing siblings.
    """

    request_index: int
    start: int
    tokens: list[int]
    probs: torch.Tensor | None = None  # [len(tokens), vocab]
    logprobs: list[float] | None = None
