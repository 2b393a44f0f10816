"""Model-free engines for scheduler tests (core only, no transformers).

The target's next-token rule is a fixed function of the last committed token, so AR output
is known in closed form; the drafter follows the same rule except at positions chosen by
``wrong_every`` (to produce rejections). Both keep per-request call logs so tests can check
what the scheduler asked of them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import torch

from minedraft.types import DraftBlock, RequestState, VerifyOutcome, VerifyScores

VOCAB = 32


def next_token(last: int) -> int:
    return (last * 7 + 3) % VOCAB


def ar_continuation(prompt: list[int], n: int) -> list[int]:
    out, last = [], prompt[-1]
    for _ in range(n):
        last = next_token(last)
        out.append(last)
    return out


class FakeTarget:
    vocab_size = VOCAB
    max_context = 512

    def __init__(self, fail_on: set[str] | None = None, sleep: float = 0.0) -> None:
        self.fail_on = fail_on or set()
        self.sleep = sleep
        self.calls: list[list[str]] = []
        self.released: list[str] = []
        self.lock = threading.Lock()

    def score(self, requests: Sequence[RequestState], block: DraftBlock) -> VerifyScores:
        with self.lock:
            self.calls.append([r.request_id for r in requests])
        if self.sleep:
            time.sleep(self.sleep)
        if any(r.request_id in self.fail_on for r in requests):
            raise RuntimeError("target exploded")
        rows = []
        for i, req in enumerate(requests):
            seq = req.committed_ids + block.tokens_of(i)
            for pos in range(req.num_committed - 1, len(seq)):
                row = torch.full((VOCAB,), -10.0)
                row[next_token(seq[pos])] = 10.0
                rows.append(row)
        cu = torch.zeros(len(requests) + 1, dtype=torch.long)
        cu[1:] = torch.cumsum(torch.tensor([k + 1 for k in block.lengths()]), 0)
        return VerifyScores(torch.stack(rows), cu)

    def on_verified(self, outcome: VerifyOutcome) -> None:
        pass

    def release(self, request_id: str) -> None:
        self.released.append(request_id)


class FakeDrafter:
    vocab_size = VOCAB

    def __init__(self, wrong_every: int = 0, fail_on: set[str] | None = None, sleep: float = 0.0) -> None:
        self.wrong_every = wrong_every
        self.fail_on = fail_on or set()
        self.sleep = sleep
        self.calls: list[list[str]] = []
        self.released: list[str] = []
        self.active = 0
        self.max_active = 0
        self.lock = threading.Lock()

    def propose(self, requests, num_tokens, stop_threshold=None) -> DraftBlock:
        with self.lock:
            self.calls.append([r.request_id for r in requests])
            self.active += 1
            self.max_active = max(self.max_active, self.active)
        try:
            if self.sleep:
                time.sleep(self.sleep)
            if any(r.request_id in self.fail_on for r in requests):
                raise RuntimeError("drafter exploded")
            tokens, lengths = [], []
            for req, n in zip(requests, num_tokens):
                last = req.committed_ids[-1]
                for j in range(n):
                    pos = req.num_committed + j
                    tok = next_token(last)
                    if self.wrong_every and pos % self.wrong_every == 0:
                        tok = (tok + 1) % VOCAB
                    tokens.append(tok)
                    last = tok
                lengths.append(n)
            cu = torch.zeros(len(requests) + 1, dtype=torch.long)
            cu[1:] = torch.cumsum(torch.tensor(lengths, dtype=torch.long), 0)
            return DraftBlock([r.request_id for r in requests], torch.tensor(tokens, dtype=torch.long), cu,
                              draft_logprobs=-torch.arange(len(tokens), dtype=torch.float32) * 0.1)
        finally:
            with self.lock:
                self.active -= 1

    def on_verified(self, outcome: VerifyOutcome) -> None:
        pass

    def release(self, request_id: str) -> None:
        self.released.append(request_id)
