"""Shared fixtures: tiny random-init models, built from configs, in float64 so that batch
composition can never flip an argmax through round-off."""

from __future__ import annotations

import pytest
import torch
from scipy.stats import chisquare

torch.set_num_threads(1)  # two cores, and lanes run in threads: oversubscription slows everything


def tiny_llama(vocab: int = 96, layers: int = 2, hidden: int = 64, seed: int = 0, max_pos: int = 256):
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    cfg = LlamaConfig(
        vocab_size=vocab, hidden_size=hidden, intermediate_size=2 * hidden, num_hidden_layers=layers,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=max_pos,
        bos_token_id=0, eos_token_id=1, pad_token_id=0,
    )
    return LlamaForCausalLM(cfg).to(torch.float64).eval()


def tiny_gpt2(vocab: int = 96, layers: int = 2, hidden: int = 64, seed: int = 0, max_pos: int = 256):
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(seed)
    cfg = GPT2Config(vocab_size=vocab, n_embd=hidden, n_layer=layers, n_head=4, n_positions=max_pos,
                     bos_token_id=0, eos_token_id=1)
    return GPT2LMHeadModel(cfg).to(torch.float64).eval()


@pytest.fixture(scope="session")
def target_model():
    return tiny_llama(layers=2, hidden=64, seed=0)


@pytest.fixture(scope="session")
def draft_model():
    return tiny_llama(layers=1, hidden=32, seed=1)


def build_pair(target, draft, max_batch_size: int = 16):
    """A reference EnginePair over in-memory models (no tokenizer: token-id prompts)."""
    from minedraft.adapters.reference import ReferenceBackend
    from minedraft.backends import EngineSpec

    return ReferenceBackend().build(
        EngineSpec(target=target, draft=draft, dtype="float64", max_batch_size=max_batch_size)
    )


@pytest.fixture
def engine_pair(target_model, draft_model):
    return build_pair(target_model, draft_model)


def generate(pair, mode: str, prompts, params, **options):
    """Run prompts (token-id lists) through a mode on an existing engine pair."""
    from minedraft import LLM

    llm = LLM(None, None, mode=mode, engines=pair, **options)
    return llm.generate(prompts, params), llm


def run_to_end(sched, reqs, max_steps: int | None = None) -> None:
    """Admit every request, step until all finish (failing past ``max_steps`` steps, when
    given), then close the scheduler's lanes."""
    try:
        for r in reqs:
            sched.add_request(r)
        steps = 0
        while sched.has_unfinished():
            sched.step()
            steps += 1
            assert max_steps is None or steps < max_steps
    finally:
        sched.close()


PROMPTS = [[5, 6, 7, 8, 9], [11, 12], list(range(20, 60)), [3], [40, 41, 42, 43, 44, 45, 46], [7] * 25]


def exact_two_token_marginals(target, prompt, params):
    """p(t1) and p(t2) = sum_t1 p(t1) p(t2 | t1) under the processed target distribution."""
    from minedraft.sampling import processed_probs, row_params

    t, k, p = row_params([params])
    with torch.no_grad():
        logits = target(torch.tensor([prompt])).logits[0, -1:]
        p1 = processed_probs(logits, t, k, p)[0]
        support = p1.nonzero().squeeze(-1)
        batch = torch.tensor([prompt + [int(x)] for x in support])
        cond = processed_probs(target(batch).logits[:, -1], t.repeat(len(support)), k.repeat(len(support)),
                               p.repeat(len(support)))
    p2 = (p1[support].unsqueeze(-1).double() * cond.double()).sum(0)
    return p1.double(), p2


def chi2_pvalue(samples: list[int], probs: torch.Tensor) -> float:
    counts = torch.bincount(torch.tensor(samples), minlength=len(probs)).double()
    expected = probs * len(samples)
    assert counts[probs == 0].sum() == 0
    big = expected >= 5  # pool rare tokens into one bin
    obs, exp = counts[big], expected[big]
    if expected[~big].sum() > 0:
        obs = torch.cat([obs, counts[~big].sum(0, keepdim=True)])
        exp = torch.cat([exp, expected[~big].sum(0, keepdim=True)])
    exp = exp * obs.sum() / exp.sum()
    return float(chisquare(obs.numpy(), exp.numpy()).pvalue)
