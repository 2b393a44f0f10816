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
from dataclasses import dataclass, field

import torch


class InvalidInputError(ValueError):
    """Bad user input; the message names the field and the value."""


def _invalid(field_name: str, value: object, expectation: str) -> InvalidInputError:
    return InvalidInputError(f"{field_name} {expectation}, got {value!r}")


@dataclass(frozen=True)
class SamplingParams:
    """Per-request sampling and stopping parameters (vLLM/SGLang naming)."""

    temperature: float = 0.0
    top_k: int = 0  # 0 or -1: off
    top_p: float = 1.0
    seed: int | None = None
    max_new_tokens: int = 64
    stop: tuple[str, ...] = ()
    stop_token_ids: tuple[int, ...] = ()
    ignore_eos: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.temperature, (int, float)) or self.temperature < 0:
            raise _invalid("SamplingParams.temperature", self.temperature, "must be a number >= 0")
        if not isinstance(self.top_k, int) or self.top_k < -1:
            raise _invalid("SamplingParams.top_k", self.top_k, "must be an int >= -1 (0 or -1 disables it)")
        if not isinstance(self.top_p, (int, float)) or not 0.0 < self.top_p <= 1.0:
            raise _invalid("SamplingParams.top_p", self.top_p, "must be in (0, 1]")
        if not isinstance(self.max_new_tokens, int) or self.max_new_tokens < 1:
            raise _invalid("SamplingParams.max_new_tokens", self.max_new_tokens, "must be an int >= 1")
        if self.seed is not None and not isinstance(self.seed, int):
            raise _invalid("SamplingParams.seed", self.seed, "must be an int or None")
        if isinstance(self.stop, str):
            object.__setattr__(self, "stop", (self.stop,))
        object.__setattr__(self, "stop", tuple(self.stop))
        object.__setattr__(self, "stop_token_ids", tuple(self.stop_token_ids))
        if any(not s for s in self.stop):
            raise _invalid("SamplingParams.stop", self.stop, "must not contain empty strings")

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
        if self.params.seed is not None:
            self.draft_generator = torch.Generator().manual_seed(self.params.seed * 2 + 1)
            self.verify_generator = torch.Generator().manual_seed(self.params.seed * 2)

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
