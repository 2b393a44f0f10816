"""The reference Drafter and Target: any transformers causal LM pair sharing a tokenizer."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from minedraft.sampling import processed_probs, row_params, sample_rows
from minedraft.types import DraftBlock, RequestState, VerifyOutcome, VerifyScores

from .runner import ModelRunner, Row


class _RunnerEngine:
    """Shared: rollback to the committed prefix after verification."""

    def __init__(self, runner: ModelRunner) -> None:
        self.runner = runner
        self.vocab_size = runner.vocab_size
        self._committed_len: dict[str, int] = {}  # committed length when last called

    def on_verified(self, outcome: VerifyOutcome) -> None:
        for rid, n_acc in zip(outcome.request_ids, outcome.num_accepted):
            if rid in self._committed_len:
                self.runner.truncate(rid, self._committed_len[rid] + n_acc)

    def release(self, request_id: str) -> None:
        self._committed_len.pop(request_id, None)
        self.runner.release(request_id)


class ReferenceTarget(_RunnerEngine):
    def __init__(self, runner: ModelRunner, max_context: int) -> None:
        super().__init__(runner)
        self.max_context = max_context

    def score(self, requests: Sequence[RequestState], block: DraftBlock) -> VerifyScores:
        rows = []
        for i, req in enumerate(requests):
            committed = req.committed_ids
            self._committed_len[req.request_id] = len(committed)
            drafts = block.tokens_of(i)
            rows.append(Row(req.request_id, committed + drafts, len(drafts) + 1))
        logits, _ = self.runner.forward(rows)
        cu = torch.zeros(len(rows) + 1, dtype=torch.long)
        cu[1:] = torch.cumsum(torch.tensor([r.num_logits for r in rows]), 0)
        return VerifyScores(logits=torch.cat(logits), cu_num_positions=cu)  # [num_tokens + batch, vocab]


class ReferenceDrafter(_RunnerEngine):
    """Autoregressive drafting with the draft model, sampled from the processed q."""

    def propose(
        self,
        requests: Sequence[RequestState],
        num_tokens: Sequence[int],
        stop_threshold: float | None = None,
    ) -> DraftBlock:
        sampled = any(not r.params.greedy for r in requests)
        drafted: list[list[int]] = [[] for _ in requests]
        q_rows: list[list[torch.Tensor]] = [[] for _ in requests]
        logprob_rows: list[list[float]] = [[] for _ in requests]
        confidence = [1.0] * len(requests)
        committed = [r.committed_ids for r in requests]
        for i, req in enumerate(requests):
            self._committed_len[req.request_id] = len(committed[i])
        active = [i for i, n in enumerate(num_tokens) if n > 0]
        while active:
            rows = [Row(requests[i].request_id, committed[i] + drafted[i], 1) for i in active]
            logits, _ = self.runner.forward(rows)
            logits_t = torch.cat(logits)  # [active, vocab]
            params = [requests[i].params for i in active]
            temperature, top_k, top_p = (t.to(logits_t.device) for t in row_params(params))
            q = processed_probs(logits_t, temperature, top_k, top_p)  # [active, vocab]
            tokens = sample_rows(q, [requests[i].draft_generator for i in active])
            # Confidence signal: q for sampled rows, the plain softmax for greedy ones.
            conf_dist = torch.where((temperature <= 0).unsqueeze(-1), torch.softmax(logits_t.float(), -1), q)
            chosen_p = conf_dist.gather(-1, tokens.to(conf_dist.device).unsqueeze(-1)).squeeze(-1)
            max_p = conf_dist.max(-1).values
            still = []
            for j, i in enumerate(active):
                drafted[i].append(int(tokens[j]))
                logprob_rows[i].append(float(torch.log(chosen_p[j].clamp_min(1e-30))))
                if sampled:
                    q_rows[i].append(q[j])
                confidence[i] *= float(max_p[j])
                done = len(drafted[i]) >= num_tokens[i]
                if stop_threshold is not None and confidence[i] < stop_threshold:
                    done = True
                if not done:
                    still.append(i)
            active = still
        lengths = [len(d) for d in drafted]
        cu = torch.zeros(len(requests) + 1, dtype=torch.long)
        cu[1:] = torch.cumsum(torch.tensor(lengths, dtype=torch.long), 0)
        flat_q = [row for rows in q_rows for row in rows]
        return DraftBlock(
            request_ids=[r.request_id for r in requests],
            tokens=torch.tensor([t for d in drafted for t in d], dtype=torch.long),
            cu_num_tokens=cu,
            draft_probs=(torch.stack(flat_q) if flat_q else torch.zeros(0, self.vocab_size)) if sampled else None,
            draft_logprobs=torch.tensor([lp for rows in logprob_rows for lp in rows], dtype=torch.float32),
        )
