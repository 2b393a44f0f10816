"""Draft trees on the reference engine: one-pass tree scoring equals per-path chain scoring,
tree drafting follows the draft model on every branch, KV stays consistent after the
accepted path is compacted, and modes ``tree`` / ``tree-psd`` equal AR under greedy."""

from __future__ import annotations

import copy

import pytest
import torch

import minedraft.schedulers.tree as tree_mode
from minedraft import InvalidInputError, RequestState, SamplingParams, SchedulerConfig, create_scheduler
from minedraft.adapters.reference.engines import EagleDrafter, ReferenceDrafter, ReferenceTarget
from minedraft.adapters.reference.runner import ModelRunner, Row
from minedraft.adapters.reference.tree_engine import ReferenceTreeDrafter, ReferenceTreeTarget
from minedraft.rules.verification import verify
from minedraft.types import DraftBlock, DraftTree, TreeVerifyOutcome

from conftest import PROMPTS, build_pair, generate, tiny_gpt2, tiny_llama

MAX_NEW = [24, 9, 17, 30, 5, 12]
SHAPE = [-1, 0, 1, -1, 3, 0, -1]  # chain of 3, a branch at the root, one below node 0, a third root child


@pytest.fixture(scope="module")
def models():
    target = tiny_llama(layers=2, hidden=64, seed=0)
    close = copy.deepcopy(target)  # perturbed copy: acceptance ~0.4, so trees branch and get used
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for p in close.parameters():
            p.add_(torch.randn(p.shape, generator=gen, dtype=p.dtype) * 0.004)
    return target, close


def _trees(requests, seed: int) -> DraftTree:
    gen = torch.Generator().manual_seed(seed)
    trees = []
    for req in requests:
        tokens = torch.randperm(90, generator=gen)[: len(SHAPE)] + 2  # distinct: siblings differ
        trees.append(DraftTree([req.request_id], tokens, torch.tensor(SHAPE), torch.tensor([0, len(SHAPE)])))
    return DraftTree.concat(trees)


def _chain_logits(model, tokens: list[int], num_logits: int) -> torch.Tensor:
    """Reference: a fresh runner scores the plain sequence."""
    logits, _ = ModelRunner(model).forward([Row("fresh", tokens, num_logits)])
    return logits[0]


def _slot_kv(runner: ModelRunner, request_id: str, length: int) -> list[torch.Tensor]:
    slot = runner.slot_of[request_id]
    return [store[slot, :, :length] for store in (*runner.cache.keys, *runner.cache.values)]


@pytest.mark.parametrize("family", ["llama", "gpt2"])
def test_tree_scores_equal_chain_scores_and_kv_compacts(family):
    model = tiny_llama() if family == "llama" else tiny_gpt2()
    target = ReferenceTreeTarget(ModelRunner(model), max_context=256)
    requests = [RequestState(list(p), SamplingParams(temperature=0.0)) for p in (PROMPTS[0], PROMPTS[1], PROMPTS[2])]
    for step in range(2):  # the second step starts from the compacted cache of the first
        tree = _trees(requests, seed=step)
        scores = target.score_tree(requests, tree)
        for i, req in enumerate(requests):
            rows = scores.logits[int(scores.cu_num_positions[i]) : int(scores.cu_num_positions[i + 1])]
            tokens = tree.tokens_of(i)
            for node in range(len(SHAPE)):
                path = [tokens[j] for j in tree.path(i, node)]
                expected = _chain_logits(model, req.committed_ids + path, len(path) + 1)
                torch.testing.assert_close(rows[0], expected[0], rtol=0, atol=1e-10)  # the root
                torch.testing.assert_close(rows[1 + node], expected[-1], rtol=0, atol=1e-10)
        # Accept a path through the root's second child (nodes 3, 4) for request 0, the
        # chain prefix (nodes 0, 1) for request 1 and nothing for request 2.
        paths = [[3, 4], [0, 1], []]
        emitted = [[tree.tokens_of(i)[n] for n in p] + [7] for i, p in enumerate(paths)]
        target.on_verified(TreeVerifyOutcome([r.request_id for r in requests], [len(p) for p in paths], emitted,
                                             accepted_nodes=paths))
        for req, out in zip(requests, emitted):
            kept = req.committed_ids + out[:-1]
            assert target.runner.cached[req.request_id] == kept
            fresh = ModelRunner(model)
            fresh.forward([Row(req.request_id, kept, 1)])
            for got, want in zip(_slot_kv(target.runner, req.request_id, len(kept)),
                                 _slot_kv(fresh, req.request_id, len(kept))):
                torch.testing.assert_close(got, want, rtol=0, atol=1e-10)
            req.output_ids.extend(out)


def test_tree_drafter_follows_the_draft_model_on_every_branch(models):
    _, close = models
    drafter = ReferenceTreeDrafter(ModelRunner(close))
    requests = [RequestState(list(p), SamplingParams(temperature=0.0)) for p in (PROMPTS[0], PROMPTS[2], PROMPTS[3])]
    tree = drafter.propose_tree(requests, [4, 3, 4], num_branches=2)
    chain = ReferenceDrafter(ModelRunner(close)).propose(requests, [4, 3, 4])
    for i, req in enumerate(requests):
        tokens, parents = tree.tokens_of(i), tree.parents_of(i)
        k = chain.lengths()[i]
        assert tokens[:k] == chain.tokens_of(i) and parents[:k] == list(range(-1, k - 1))
        assert len(tokens) > k  # branched
        assert max(tree.depths_of(i)) == k - 1  # branches stop at the chain's depth
        for node in range(k, len(tokens)):
            path = [tokens[j] for j in tree.path(i, node)]
            logits = _chain_logits(close, req.committed_ids + path[:-1], 1)[0]
            first_child = parents.index(parents[node])
            if first_child != node:  # an alternative: the best token other than the chain's
                best_two = logits.topk(2).indices.tolist()
                assert tokens[node] == [t for t in best_two if t != tokens[first_child]][0]
            else:  # a continuation: the greedy draft
                assert tokens[node] == int(logits.argmax())
    # Accept the path to request 0's last node (the end of its last branch): the drafter's
    # KV is compacted too, except for that leaf, which it drafted but never fed.
    path = tree.path(0, tree.lengths()[0] - 1)
    assert path[-1] >= chain.lengths()[0]
    out = [tree.tokens_of(0)[n] for n in path] + [5]
    drafter.on_verified(TreeVerifyOutcome([requests[0].request_id], [len(path)], [out], accepted_nodes=[path]))
    kept = drafter.runner.cached[requests[0].request_id]
    base = requests[0].committed_ids
    assert kept[: len(base)] == base and kept[len(base) :] == out[: len(kept) - len(base)]
    assert len(kept) == len(base) + len(path) - 1
    fresh = ModelRunner(close)
    fresh.forward([Row("x", kept, 1)])
    for got, want in zip(_slot_kv(drafter.runner, requests[0].request_id, len(kept)), _slot_kv(fresh, "x", len(kept))):
        torch.testing.assert_close(got, want, rtol=0, atol=1e-10)


def test_tree_drafter_cache_stays_consistent_over_rounds(models):
    """Rounds of propose_tree / accept a path through a branch / commit, including a round
    where a request drafts nothing: every chain equals a fresh drafter's on the same
    committed tokens, so the compacted KV was right."""
    _, close = models
    drafter = ReferenceTreeDrafter(ModelRunner(close))
    requests = [RequestState(list(PROMPTS[1]), SamplingParams(temperature=0.0)), RequestState(list(PROMPTS[5]), SamplingParams(temperature=0.0))]
    for step in range(4):
        lengths = [3, 0 if step == 1 else 2]
        tree = drafter.propose_tree(requests, lengths, num_branches=2)
        fresh = ReferenceDrafter(ModelRunner(close)).propose(requests, lengths)
        paths, emitted = [], []
        for i in range(2):
            assert tree.tokens_of(i)[: lengths[i]] == fresh.tokens_of(i)
            path = tree.path(i, tree.lengths()[i] - 1) if tree.lengths()[i] else []
            paths.append(path)
            emitted.append([tree.tokens_of(i)[n] for n in path] + [11 + step])
        drafter.on_verified(TreeVerifyOutcome([r.request_id for r in requests], [len(p) for p in paths], emitted,
                                              accepted_nodes=paths))
        for req, out in zip(requests, emitted):
            req.output_ids.extend(out)
            cached = drafter.runner.cached[req.request_id]
            assert cached == req.committed_ids[: len(cached)]


def test_sampled_tree_records_the_laws_it_drew_from(models):
    _, close = models
    drafter = ReferenceTreeDrafter(ModelRunner(close))
    params = SamplingParams(temperature=0.8, top_k=20, seed=3)
    requests = [RequestState(list(PROMPTS[0]), params), RequestState(list(PROMPTS[4]), params)]
    tree = drafter.propose_tree(requests, [4, 4], num_branches=3)
    assert tree.draft_probs is not None
    torch.testing.assert_close(tree.draft_probs.sum(-1), torch.ones(tree.num_tokens), rtol=0, atol=1e-5)
    for i in range(2):
        tokens, parents = tree.tokens_of(i), tree.parents_of(i)
        start = int(tree.cu_num_nodes[i])
        for node, parent in enumerate(parents):
            law = tree.draft_probs[start + node]
            assert law[tokens[node]] > 0
            earlier = [tokens[j] for j in range(node) if parents[j] == parent]
            assert all(law[t] == 0 for t in earlier)  # drawn without the earlier siblings
            assert int((law > 0).sum()) <= 20  # top-k applied to q as to p
    again = ReferenceTreeDrafter(ModelRunner(close)).propose_tree(
        [RequestState(list(PROMPTS[0]), params), RequestState(list(PROMPTS[4]), params)], [4, 4], num_branches=3)
    assert torch.equal(again.tokens, tree.tokens)  # seeded drafting is reproducible


@pytest.fixture(scope="module")
def ar_reference(models):
    target, _ = models
    outs, _ = generate(build_pair(target, None), "ar", PROMPTS, [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW])
    return [o.token_ids for o in outs]


@pytest.mark.parametrize(("mode", "k", "lanes"), [("tree", 4, "inline"), ("tree-psd", 3, "inline"),
                                                  ("tree-psd", 4, "threads"), ("tree", 1, "inline")])
def test_greedy_tree_modes_equal_ar(models, ar_reference, monkeypatch, mode, k, lanes):
    target, close = models
    seen: list[TreeVerifyOutcome] = []
    verify_tree = tree_mode.verify_tree

    def spy(*args):
        outcome = verify_tree(*args)
        seen.append(outcome)
        return outcome

    monkeypatch.setattr(tree_mode, "verify_tree", spy)
    outs, llm = generate(build_pair(target, close, max_batch_size=4), mode, PROMPTS,
                         [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW], num_speculative_tokens=k,
                         max_batch_size=4 if mode == "tree" else 2, lanes=lanes)
    assert all(o.error is None for o in outs)
    assert [o.token_ids for o in outs] == ar_reference
    summary = llm.last_trace.summary()
    assert summary["tokens_per_target_step"] > 1.3
    # Some accepted paths left the chain (a chain is nodes 0, 1, 2, ... in order).
    assert any(p != list(range(len(p))) for o in seen for p in o.accepted_nodes)
    if lanes == "threads":
        assert summary["overlapped_share"] > 0.3


def test_seeded_sampling_reproduces_in_any_batch(models):
    target, close = models
    params = [SamplingParams(temperature=0.9, seed=s, max_new_tokens=12) for s in (1, 2, 3)]
    prompts = [PROMPTS[0], PROMPTS[2], PROMPTS[5]]
    together, _ = generate(build_pair(target, close), "tree", prompts, params, num_speculative_tokens=3)
    alone = [generate(build_pair(target, close), "tree", [p], [sp], num_speculative_tokens=3)[0][0]
             for p, sp in zip(prompts, params)]
    assert [o.token_ids for o in together] == [o.token_ids for o in alone]
    assert all(len(o.token_ids) == 12 and o.error is None for o in together)


def test_tree_modes_need_tree_engines_and_valid_settings(models):
    target, close = models
    plain_target = ReferenceTarget(ModelRunner(target), max_context=256)
    plain_drafter = ReferenceDrafter(ModelRunner(close))
    with pytest.raises(InvalidInputError, match="score_tree"):
        create_scheduler("tree", plain_target, plain_drafter, SchedulerConfig())
    tree_target = ReferenceTreeTarget(ModelRunner(target), max_context=256)
    with pytest.raises(InvalidInputError, match="propose_tree"):
        create_scheduler("tree-psd", tree_target, plain_drafter, SchedulerConfig())
    with pytest.raises(InvalidInputError, match="needs a draft model"):
        create_scheduler("tree", tree_target, None, SchedulerConfig())
    with pytest.raises(InvalidInputError, match="tree_branches must be an int >= 0, got -1"):
        create_scheduler("tree", tree_target, ReferenceTreeDrafter(ModelRunner(close)), SchedulerConfig(),
                         {"tree_branches": -1})


# -- EAGLE-style drafter (target features) ---------------------------------------------------
def _eagle_pair(target):
    from minedraft.adapters.reference import draft_models as dm

    torch.manual_seed(3)
    draft = dm.build_draft(dm.DraftConfig.for_target(target, "eagle", num_layers=1), target, copy_layers=[1]).eval()
    return build_pair(target, draft)


def _first_step(pair, req) -> None:
    """One plain AR step, so the target publishes the prompt's features."""
    block = DraftBlock.empty([req.request_id])
    outcome = verify(block, pair.target.score([req], block), [req])
    req.output_ids.extend(outcome.emitted[0])
    pair.target.on_verified(outcome)


def test_eagle_tree_branches_continue_as_the_chain_would(models):
    """Each branch equals EAGLE drafting forced down its path: same features, same tokens."""
    target, _ = models
    pair = _eagle_pair(target)
    req = RequestState(list(PROMPTS[2]), SamplingParams(temperature=0.0))
    _first_step(pair, req)
    tree = pair.drafter.propose_tree([req], [4], num_branches=3)
    assert tree.lengths()[0] > 4
    fresh = EagleDrafter(pair.drafter.model, pair.drafter.store, max_slots=2)
    rid, prefix = req.request_id, req.committed_ids
    tokens, parents = tree.tokens_of(0), tree.parents_of(0)
    for node in range(4, len(tokens)):  # branch nodes: replay their path through plain EAGLE steps
        fresh.release(rid)
        fresh._slot(rid)
        out = fresh._forward([rid], [prefix], [0], [fresh._target_features(rid, 0, len(prefix))])[0]
        path = tree.path(0, node)
        for depth, n in enumerate(path):
            logits = fresh.model.lm_head(out).float()
            first_child = parents.index(parents[n])
            if n == node and first_child != n:  # an alternative: best token but the chain's
                assert tokens[n] == [t for t in logits.topk(2).indices.tolist() if t != tokens[first_child]][0]
            elif n == node:
                assert tokens[n] == int(logits.argmax())
            out = fresh._forward([rid], [[tokens[n]]], [len(prefix) + depth], [out.unsqueeze(0)])[0]


def test_tree_verification_publishes_the_accepted_paths_features(models):
    target, _ = models
    pair = _eagle_pair(target)
    req = RequestState(list(PROMPTS[0]), SamplingParams(temperature=0.0))
    _first_step(pair, req)
    tree = _trees([req], seed=4)
    scores = pair.target.score_tree([req], tree)
    path = [3, 4]  # through the root's second child
    emitted = [tree.tokens_of(0)[n] for n in path] + [9]
    pair.target.on_verified(TreeVerifyOutcome([req.request_id], [2], [emitted], accepted_nodes=[path]))
    req.output_ids.extend(emitted)
    n = req.num_committed
    assert pair.drafter.store.length(req.request_id) == n - 1
    with torch.no_grad():
        full = target.model(input_ids=torch.tensor([req.committed_ids]))[0][0]  # [n, hidden]
    torch.testing.assert_close(pair.drafter.store.read(req.request_id, 0, n - 1), full[: n - 1], rtol=0, atol=1e-10)
    assert scores.logits.shape[0] == len(SHAPE) + 1


@pytest.mark.parametrize("mode", ["tree", "tree-psd"])
def test_greedy_tree_modes_with_an_eagle_draft_equal_ar(models, ar_reference, mode):
    target, _ = models
    outs, llm = generate(_eagle_pair(target), mode, PROMPTS, [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW],
                         num_speculative_tokens=3, max_batch_size=4)
    assert all(o.error is None for o in outs)
    assert [o.token_ids for o in outs] == ar_reference
    assert sum(s.proposed for s in llm.last_trace.steps) > 0  # trees were drafted (features arrived)
