"""The verification budget (drafter slack) must keep verification lossless: whether a
position is verified may depend on the drafts before it, never on the token drafted there."""

from __future__ import annotations

import torch

from minedraft import DraftBlock, RequestState, SamplingParams, VerifyScores, verify
from minedraft.rules.draft_budget import select_by_confidence

VOCAB = 6


def _block(tokens: list[list[int]], q: torch.Tensor) -> DraftBlock:
    """q: [requests, positions, vocab]; tokens: per request."""
    flat = torch.tensor([t for row in tokens for t in row])
    probs = q.reshape(-1, VOCAB)
    lengths = [len(r) for r in tokens]
    cu = torch.zeros(len(tokens) + 1, dtype=torch.long)
    cu[1:] = torch.cumsum(torch.tensor(lengths), 0)
    return DraftBlock([f"r{i}" for i in range(len(tokens))], flat, cu, draft_probs=probs,
                      draft_logprobs=torch.log(probs[torch.arange(len(flat)), flat]))


def test_inclusion_of_a_position_does_not_depend_on_its_own_token():
    gen = torch.Generator().manual_seed(0)
    for trial in range(200):
        requests, k = 3, 4
        q = torch.softmax(torch.randn(requests, k, VOCAB, generator=gen) * 2, -1)
        tokens = [[int(torch.multinomial(q[i, j], 1, generator=gen)) for j in range(k)] for i in range(requests)]
        capacity = int(torch.randint(1, requests * k, (1,), generator=gen))
        base = select_by_confidence(_block(tokens, q), capacity)
        for i in range(requests):
            for j in range(k):
                for other in range(VOCAB):
                    changed = [row[:] for row in tokens]
                    changed[i][j] = other
                    new = select_by_confidence(_block(changed, q), capacity)
                    # Position j of request i is verified iff its length exceeds j.
                    assert (new[i] > j) == (base[i] > j), (trial, i, j, other)


def test_budget_is_respected_and_prefers_confident_requests():
    q = torch.full((2, 3, VOCAB), 0.02)
    q[0, :, 0] = 0.9  # request 0 is confident, request 1 is not
    q[1, :, :] = 1.0 / VOCAB
    q = q / q.sum(-1, keepdim=True)
    lengths = select_by_confidence(_block([[0, 0, 0], [1, 2, 3]], q), capacity=3)
    assert sum(lengths) <= 3 and lengths[0] >= lengths[1]


def test_truncated_verification_is_lossless_on_the_counterexample():
    """q = (0.9, 0.1), p = (0.1, 0.9) with a competing request of flat q: scoring by
    log q(d) would verify request 0 only when it drafted token 0 (output 0 w.p. 0.11)."""
    p_logits = torch.log(torch.tensor([[0.1, 0.9], [0.5, 0.5]]))
    q0, q1 = torch.tensor([0.9, 0.1]), torch.tensor([0.5, 0.5])
    params = SamplingParams(temperature=1.0)
    torch.manual_seed(1)
    n, zeros = 20_000, 0
    for _ in range(n):
        d0, d1 = int(torch.multinomial(q0, 1)), int(torch.multinomial(q1, 1))
        probs = torch.stack([q0, q1])  # [2, 2]
        block = DraftBlock(["a", "b"], torch.tensor([d0, d1]), torch.tensor([0, 1, 2]), draft_probs=probs,
                           draft_logprobs=torch.log(torch.stack([q0[d0], q1[d1]])))
        block = block.truncate(select_by_confidence(block, capacity=1))
        reqs = [RequestState(prompt_ids=[1], params=params) for _ in range(2)]
        rows, cu = [], [0]
        for i, k in enumerate(block.lengths()):
            rows += [p_logits[0]] * (k + 1) if i == 0 else [p_logits[1]] * (k + 1)
            cu.append(cu[-1] + k + 1)
        out = verify(block, VerifyScores(torch.stack(rows), torch.tensor(cu)), reqs)
        zeros += out.emitted[0][0] == 0
    rate = zeros / n
    assert abs(rate - 0.1) < 4 * (0.1 * 0.9 / n) ** 0.5, rate  # 0.11 would be 4.7 sigma away
