"""Verification rules: greedy exactness and the lossless distribution of speculative sampling.

The sampling tests use a synthetic setting where the target distribution at each position
does not depend on the prefix, so losslessness means: the first emitted token is
distributed as p_0, and the second emitted token (present iff draft 0 was accepted) as
p_1. Checked with chi-square tests over >= 100k samples and fixed seeds.
"""

from __future__ import annotations

import pytest
import torch
from scipy.stats import chisquare

from minedraft import DraftBlock, RequestState, SamplingParams, VerifyScores, verify
from minedraft.sampling import processed_probs, row_params

VOCAB = 8
N = 100_000


def _block(draft_tokens: torch.Tensor, draft_probs: torch.Tensor | None, reqs) -> DraftBlock:
    batch, k = draft_tokens.shape
    return DraftBlock(
        [r.request_id for r in reqs], draft_tokens.reshape(-1), torch.arange(0, batch * k + 1, k),
        draft_probs=None if draft_probs is None else draft_probs.repeat(batch, 1),
    )


def _scores(target_logits: torch.Tensor, batch: int) -> VerifyScores:
    positions = target_logits.shape[0]
    return VerifyScores(target_logits.repeat(batch, 1), torch.arange(0, batch * positions + 1, positions))


def _processed(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
    t, k, p = row_params([params] * logits.shape[0])
    return processed_probs(logits, t, k, p)


def _assert_distributed_as(samples: torch.Tensor, probs: torch.Tensor) -> None:
    counts = torch.bincount(samples, minlength=VOCAB).double()
    support = probs > 0
    assert counts[~support].sum() == 0, "sampled a token the target gives zero probability"
    expected = probs[support].double() / probs[support].double().sum() * counts.sum()
    stat, pvalue = chisquare(counts[support].numpy(), expected.numpy())
    assert pvalue > 1e-3, f"chi-square p={pvalue:.2e}: counts {counts.tolist()} vs expected {expected.tolist()}"


PARAMS = [
    SamplingParams(temperature=1.0),
    SamplingParams(temperature=0.6),
    SamplingParams(temperature=1.3, top_k=5),
    SamplingParams(temperature=0.9, top_p=0.7),
    SamplingParams(temperature=1.0, top_k=6, top_p=0.85),
]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: f"T{p.temperature}-k{p.top_k}-p{p.top_p}")
def test_speculative_sampling_is_lossless(params: SamplingParams) -> None:
    gen = torch.Generator().manual_seed(1234)
    k = 3
    target_logits = torch.randn(k + 1, VOCAB, generator=gen) * 1.5  # [k + 1, vocab]
    # A draft that is related to the target but clearly different from it.
    draft_logits = target_logits[:k] + torch.randn(k, VOCAB, generator=gen)  # [k, vocab]
    p = _processed(target_logits, params)  # [k + 1, vocab]
    q = _processed(draft_logits, params)  # [k, vocab]
    torch.manual_seed(99)
    reqs = [RequestState(prompt_ids=[1], params=params) for _ in range(N)]
    drafts = torch.stack([torch.multinomial(q[j], N, replacement=True) for j in range(k)], 1)  # [N, k]
    out = verify(_block(drafts, q, reqs), _scores(target_logits, N), reqs)
    first = torch.tensor([e[0] for e in out.emitted])
    _assert_distributed_as(first, p[0])
    second = torch.tensor([e[1] for e in out.emitted if len(e) > 1])
    assert len(second) > 10_000
    _assert_distributed_as(second, p[1])
    # Acceptance of the first draft token is sum_x min(p, q) in expectation.
    accept_rate = sum(n > 0 for n in out.num_accepted) / N
    assert abs(accept_rate - float(torch.minimum(p[0], q[0]).sum())) < 0.01


def test_point_mass_drafts_are_lossless() -> None:
    """n-gram style drafts (no q): a fixed proposal must not bias the output."""
    params = SamplingParams(temperature=1.0)
    gen = torch.Generator().manual_seed(7)
    target_logits = torch.randn(3, VOCAB, generator=gen)  # [k + 1, vocab]
    p = _processed(target_logits, params)
    torch.manual_seed(5)
    reqs = [RequestState(prompt_ids=[1], params=params) for _ in range(N)]
    drafts = torch.tensor([[int(p[0].argmax()), 3]]).repeat(N, 1)  # [N, 2] the same proposal every time
    out = verify(_block(drafts, None, reqs), _scores(target_logits, N), reqs)
    _assert_distributed_as(torch.tensor([e[0] for e in out.emitted]), p[0])
    _assert_distributed_as(torch.tensor([e[1] for e in out.emitted if len(e) > 1]), p[1])


def test_draft_equal_to_target_accepts_everything() -> None:
    params = SamplingParams(temperature=0.8, top_k=5)
    logits = torch.randn(4, VOCAB, generator=torch.Generator().manual_seed(3))
    p = _processed(logits, params)
    reqs = [RequestState(prompt_ids=[1], params=params) for _ in range(2000)]
    drafts = torch.stack([torch.multinomial(p[j], 2000, replacement=True) for j in range(3)], 1)
    out = verify(_block(drafts, p[:3], reqs), _scores(logits, 2000), reqs)
    assert out.num_accepted == [3] * 2000
    assert all(len(e) == 4 for e in out.emitted)


def test_greedy_accepts_longest_matching_prefix_then_target_token() -> None:
    logits = torch.full((4, VOCAB), -5.0)
    argmax = [2, 5, 1, 7]
    for j, t in enumerate(argmax):
        logits[j, t] = 5.0
    reqs = [RequestState(prompt_ids=[1], params=SamplingParams(temperature=0.0)) for _ in range(4)]
    drafts = torch.tensor([[2, 5, 1], [2, 4, 1], [0, 5, 1], [2, 5, 3]])  # all, 1, 0, 2 accepted
    out = verify(_block(drafts, None, reqs), _scores(logits, 4), reqs)
    assert out.num_accepted == [3, 1, 0, 2]
    assert out.emitted == [[2, 5, 1, 7], [2, 5], [2], [2, 5, 1]]


def test_mixed_greedy_and_sampled_ragged_batch() -> None:
    """Ragged lengths (0, 2, 3) with greedy and sampled requests in one block."""
    logits = torch.randn(3 + 1 + 2 + 1 + 3 + 1, VOCAB, generator=torch.Generator().manual_seed(11))
    greedy = SamplingParams(temperature=0.0)
    sampled = SamplingParams(temperature=1.0, seed=4)
    reqs = [RequestState(prompt_ids=[1], params=p) for p in (greedy, sampled, greedy)]
    lengths = [3, 0, 2]
    # Rows are laid out request by request: k_i + 1 rows each.
    lengths = [3, 0, 2]
    cu_pos = [0, 4, 5, 8]
    tokens = torch.tensor([int(logits[0].argmax()), int(logits[1].argmax()), 0, int(logits[5].argmax()), 1])
    block = DraftBlock([r.request_id for r in reqs], tokens, torch.tensor([0, 3, 3, 5]),
                       draft_probs=torch.full((5, VOCAB), 1.0 / VOCAB))
    out = verify(block, VerifyScores(logits[:8], torch.tensor(cu_pos)), reqs)
    g0 = 2 if int(logits[2].argmax()) != 0 else 3
    assert out.num_accepted[0] == g0
    assert out.emitted[0][-1] == int(logits[g0].argmax())
    assert out.num_accepted[1] == 0 and len(out.emitted[1]) == 1
    assert out.emitted[2][0] == int(logits[5].argmax())
    assert lengths[0] == 3


def test_seeded_requests_reproduce_regardless_of_batch() -> None:
    params = SamplingParams(temperature=1.0, seed=123)
    logits = torch.randn(3, VOCAB, generator=torch.Generator().manual_seed(0))
    q = torch.softmax(torch.randn(2, VOCAB, generator=torch.Generator().manual_seed(1)), -1)
    drafts = torch.tensor([[1, 2]])

    def run(batch_extra: int) -> list[int]:
        reqs = [RequestState(prompt_ids=[1], params=params)] + [
            RequestState(prompt_ids=[1], params=SamplingParams(temperature=1.0)) for _ in range(batch_extra)
        ]
        out = verify(_block(drafts.repeat(len(reqs), 1), q, reqs), _scores(logits, len(reqs)), reqs)
        return out.emitted[0]

    assert run(0) == run(5) == run(17)


def test_top_k_top_p_processing() -> None:
    logits = torch.log(torch.tensor([[0.5, 0.2, 0.15, 0.1, 0.05]]))
    t = torch.tensor([1.0])
    probs = processed_probs(logits, t, torch.tensor([2]), torch.tensor([1.0]))
    assert torch.allclose(probs, torch.tensor([[0.5 / 0.7, 0.2 / 0.7, 0, 0, 0]]), atol=1e-6)
    probs = processed_probs(logits, t, torch.tensor([0]), torch.tensor([0.8]))  # keeps 0.5, 0.2, 0.15
    assert torch.allclose(probs, torch.tensor([[0.5, 0.2, 0.15, 0, 0]]) / 0.85, atol=1e-6)
    greedy = processed_probs(logits, torch.tensor([0.0]), torch.tensor([0]), torch.tensor([1.0]))
    assert greedy.tolist() == [[1.0, 0, 0, 0, 0]]
