"""Mode options through ``LLM``: ``LLM(..., mode="tree", tree_branches=2)`` on real (tiny) models."""

from __future__ import annotations

import pytest

from minedraft import LLM, InvalidInputError, SamplingParams

from conftest import PROMPTS, tiny_llama

MAX_NEW = [12, 7, 9, 5, 10, 6]


@pytest.fixture(scope="module")
def models():
    return tiny_llama(layers=2, hidden=64, seed=0), tiny_llama(layers=1, hidden=32, seed=1)


def _run(target, draft, mode, **options):
    llm = LLM(target, draft, mode=mode, dtype="float64", num_speculative_tokens=3, **options)
    outs = llm.generate(PROMPTS, [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW])
    assert all(o.error is None for o in outs)
    return [o.token_ids for o in outs], llm


def test_llm_tree_branches_equals_ar_greedily_and_reaches_the_trees(models):
    target, draft = models
    ar, _ = _run(target, None, "ar")
    chain, chain_llm = _run(target, draft, "tree", tree_branches=0)
    tree, tree_llm = _run(target, draft, "tree", tree_branches=2, tree_branch_tokens=2)
    assert tree == chain == ar
    assert tree_llm.options.tree_branches == 2
    nodes = [sum(s.proposed for s in llm.last_trace.steps) / sum(s.verify_batch for s in llm.last_trace.steps)
             for llm in (chain_llm, tree_llm)]
    assert nodes[0] <= 3 < nodes[1]  # a chain scores at most k nodes per request; branches add more


def test_llm_refuses_options_before_loading_anything():
    with pytest.raises(InvalidInputError, match="tree_branches is not an option of mode 'psd'"):
        LLM("no-such-model", "no-such-draft", mode="psd", tree_branches=2)
    with pytest.raises(InvalidInputError, match="tree_branch_tokens must be an int >= 1 or None, got 0"):
        LLM("no-such-model", "no-such-draft", mode="tree-psd", tree_branch_tokens=0)
