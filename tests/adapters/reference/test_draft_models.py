"""Draft architectures (token-mapped head, standalone, EAGLE) on tiny float64 models: the
mapped head, checkpoint round trips, the target-feature plumbing, and losslessness."""

from __future__ import annotations

import pytest
import torch

from minedraft import InvalidInputError, RequestState, SamplingParams
from minedraft.adapters.reference import draft_models as dm
from minedraft.adapters.reference.engines import EagleDrafter, FeatureStore
from minedraft.adapters.reference.runner import ModelRunner
from minedraft.rules.verification import verify

from conftest import PROMPTS, build_pair, generate, tiny_llama

MAX_NEW = [20, 9, 14, 25, 6, 11]
TOKEN_MAP = torch.arange(0, 96, 2)  # even ids only


@pytest.fixture(scope="module")
def target():
    return tiny_llama(layers=2, hidden=64, seed=0)


def make_draft(target, kind, token_map=None, seed=3, copy_layers=()):
    torch.manual_seed(seed)
    cfg = dm.DraftConfig.for_target(target, kind, num_layers=1)
    return dm.build_draft(cfg, target, token_map=token_map, copy_layers=copy_layers).eval()


@pytest.fixture(scope="module")
def ar_reference(target):
    outs, _ = generate(build_pair(target, None), "ar", PROMPTS, [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW])
    return [o.token_ids for o in outs]


def test_token_mapped_head_is_minus_inf_outside_the_subset(target):
    draft = make_draft(target, "eagle", token_map=TOKEN_MAP)
    x = torch.randn(3, 64, dtype=torch.float64)
    logits = draft.lm_head(x)  # [3, vocab]
    assert logits.shape == (3, 96)
    outside = torch.ones(96, dtype=torch.bool)
    outside[TOKEN_MAP] = False
    assert torch.isinf(logits[:, outside]).all() and (logits[:, outside] < 0).all()
    full = x @ target.lm_head.weight.T  # the target's own head on the subset
    torch.testing.assert_close(logits[:, TOKEN_MAP], full[:, TOKEN_MAP])
    probs = torch.softmax(logits, -1)
    assert float(probs[:, outside].sum()) == 0.0
    torch.testing.assert_close(probs.sum(-1), torch.ones(3, dtype=torch.float64))


@pytest.mark.parametrize("kind", ["eagle", "standalone"])
def test_checkpoint_round_trip_keeps_outputs_and_skips_target_weights(tmp_path, target, kind):
    draft = make_draft(target, kind, token_map=TOKEN_MAP, copy_layers=[1])
    draft.save(tmp_path)
    from safetensors.torch import load_file

    saved = load_file(str(tmp_path / dm.WEIGHTS_NAME))
    assert not any("embed" in k or "weight_sub" in k for k in saved)  # borrowed, not shipped
    assert torch.equal(saved["lm_head.token_map"], TOKEN_MAP)
    assert dm.is_draft_source(tmp_path) and not dm.is_draft_source(tmp_path / "nothing")
    loaded = dm.load_draft_model(tmp_path, dtype=torch.float64, device="cpu", target=target)
    assert type(loaded) is type(draft) and loaded.draft_config.init_layers == [1]
    ids = torch.tensor([[5, 6, 7, 8, 9, 10]])
    if kind == "eagle":
        feats = torch.randn(1, 6, 64, dtype=torch.float64)
        a, b = draft.unrolled(ids, feats, 2), loaded.unrolled(ids, feats, 2)
        for x, y in zip(a, b):
            torch.testing.assert_close(x, y)
    else:
        torch.testing.assert_close(draft(ids), loaded(ids))
    with pytest.raises(InvalidInputError, match="load it with a target"):
        dm.load_draft_model(tmp_path, dtype=torch.float64, device="cpu")


@pytest.mark.parametrize("kind", ["eagle", "standalone"])
def test_grown_layers_start_as_the_identity_and_then_learn(tmp_path, target, kind):
    draft = make_draft(target, kind, token_map=TOKEN_MAP, copy_layers=[1])
    ids = torch.tensor([[5, 6, 7, 8, 9, 10]])
    feats = torch.randn(1, 6, 64, dtype=torch.float64)

    def outputs(model):
        return model.unrolled(ids, feats, 2) if kind == "eagle" else [model(ids)]

    before = outputs(draft)
    draft.grow_layers(target, [0])
    assert len(draft.layers) == 2 and draft.draft_config.num_layers == 2
    assert draft.draft_config.init_layers == [1, 0]
    for name in ("q_proj", "k_proj", "v_proj"):  # copied from the target's layer 0
        torch.testing.assert_close(getattr(draft.layers[1].self_attn, name).weight,
                                   getattr(target.model.layers[0].self_attn, name).weight)
    for x, y in zip(before, outputs(draft)):
        torch.testing.assert_close(x, y, rtol=0, atol=0)
    draft.save(tmp_path)
    loaded = dm.load_draft_model(tmp_path, dtype=torch.float64, device="cpu", target=target)
    assert loaded.draft_config.num_layers == 2 and loaded.draft_config.init_layers == [1, 0]
    for x, y in zip(before, outputs(loaded)):
        torch.testing.assert_close(x, y)
    # The zeroed projections get gradients: the new layer is not dead weight.
    sum(o.pow(2).sum() for o in outputs(loaded)).backward()
    assert float(loaded.layers[1].self_attn.o_proj.weight.grad.abs().sum()) > 0
    assert float(loaded.layers[1].mlp.down_proj.weight.grad.abs().sum()) > 0


def test_layers_copied_from_the_target(target):
    draft = make_draft(target, "standalone", copy_layers=[1])
    for name, p in target.model.layers[1].state_dict().items():
        assert torch.equal(draft.layers[0].state_dict()[name], p)
    # The copy computes exactly the target's layer: same rope, attention and MLP.
    x = torch.randn(1, 5, 64, dtype=torch.float64)
    pos = torch.arange(5).unsqueeze(0)
    cos, sin = dm.rope_cos_sin(pos, 16, draft.draft_config.rope_theta, x.dtype)
    emb = target.model.rotary_emb(x, pos)
    mask = None
    ref = target.model.layers[1](x, attention_mask=mask, position_ids=pos, position_embeddings=emb)
    ref = ref[0] if isinstance(ref, tuple) else ref
    torch.testing.assert_close(draft.layers[0](x, cos, sin), ref)


def test_target_publishes_committed_features(target):
    """After each verification the store holds the target's last hidden state of every
    committed position but the last: exactly what a full forward computes."""
    store = FeatureStore()
    pair = build_pair(target, None)
    pair.target.feature_store = store
    req = RequestState(prompt_ids=[5, 6, 7, 8, 9], params=SamplingParams(temperature=0.0, max_new_tokens=20))
    drafts = [[], [3, 4], [17], [2, 2, 2]]
    for d in drafts:
        block = dm_block(req, d)
        outcome = verify(block, pair.target.score([req], block), [req])
        req.output_ids.extend(outcome.emitted[0])
        pair.target.on_verified(outcome)
        n = req.num_committed
        assert store.length(req.request_id) == n - 1
        with torch.no_grad():
            full = target.model(input_ids=torch.tensor([req.committed_ids]))[0][0]  # [n, hidden]
        torch.testing.assert_close(store.read(req.request_id, 0, n - 1), full[: n - 1])
    pair.target.release(req.request_id)
    assert store.length(req.request_id) == 0


def dm_block(req, drafts):
    from minedraft.types import DraftBlock

    return DraftBlock(request_ids=[req.request_id], tokens=torch.tensor(drafts, dtype=torch.long),
                      cu_num_tokens=torch.tensor([0, len(drafts)]))


def grown_eagle(target):
    """A two-layer EAGLE draft whose grown layer computes something (random projections)."""
    draft = make_draft(target, "eagle", token_map=TOKEN_MAP)
    draft.grow_layers(target, [1])
    with torch.no_grad():
        for w in (draft.layers[1].self_attn.o_proj.weight, draft.layers[1].mlp.down_proj.weight):
            w.normal_(0, 0.05, generator=torch.Generator().manual_seed(4))
    return draft


@pytest.mark.parametrize("layers", [1, 2])
def test_eagle_drafter_matches_the_unrolled_training_computation(target, layers):
    """The cached, ragged drafting path and the training-time unrolled path agree: draft
    token s is the argmax of unrolled step s at position n - 1 + s."""
    draft = make_draft(target, "eagle", token_map=TOKEN_MAP) if layers == 1 else grown_eagle(target)
    store = FeatureStore()
    drafter = EagleDrafter(draft, store, max_slots=4)
    reqs = [RequestState(prompt_ids=p, params=SamplingParams(temperature=0.0)) for p in ([5, 6, 7, 8, 9, 10, 11], [30, 31, 32])]
    with torch.no_grad():
        hidden = [target.model(input_ids=torch.tensor([r.prompt_ids]))[0][0] for r in reqs]
    for r, h in zip(reqs, hidden):
        store.publish(r.request_id, 0, h[:-1])
    assert drafter.propose(reqs[:1], [3]).num_tokens == 3  # cache filled for request 0 only
    reqs[0].output_ids.append(40)  # one more committed token: the reusable-prefix path
    with torch.no_grad():
        h0 = target.model(input_ids=torch.tensor([reqs[0].committed_ids]))[0][0]
    store.publish(reqs[0].request_id, 0, h0[:-1])
    hidden[0] = h0
    block = drafter.propose(reqs, [3, 3])
    assert block.lengths() == [3, 3]
    for i, (r, h) in enumerate(zip(reqs, hidden)):
        d = block.tokens_of(i)
        n = r.num_committed
        ids = torch.tensor([r.committed_ids + d[:-1]])
        feats = torch.cat([torch.zeros(1, 64, dtype=h.dtype), h, torch.zeros(len(d) - 1, 64, dtype=h.dtype)])[: ids.shape[1]]
        with torch.no_grad():
            outs = draft.unrolled(ids, feats.unsqueeze(0), 3)
        expected = [int(draft.lm_head(outs[s][0, n - 1 + s]).argmax()) for s in range(3)]
        assert d == expected


def test_eagle_drafter_feeds_a_prompt_apart_from_the_few_token_rows(target):
    """A newcomer's prompt (over ``PREFILL_SPLIT`` tokens) and a running request's newly
    committed token go through separate forwards, not one padding every row to the prompt's
    length; the drafts are those of each request proposed alone."""
    draft = make_draft(target, "eagle", token_map=TOKEN_MAP)
    prompts = ([5, 6, 7, 8], [3 + i % 50 for i in range(ModelRunner.PREFILL_SPLIT + 9)])

    def propose(which: list[int]) -> tuple[list[list[int]], list[tuple[int, int]]]:
        store, shapes = FeatureStore(), []
        drafter = EagleDrafter(draft, store, max_slots=4)
        reqs = [RequestState(prompt_ids=list(p), params=SamplingParams(temperature=0.0), request_id=f"r{i}")
                for i, p in enumerate(prompts)]
        with torch.no_grad():
            for r in reqs:
                store.publish(r.request_id, 0, target.model(input_ids=torch.tensor([r.prompt_ids]))[0][0][:-1])
        drafter.propose(reqs[:1], [2])  # request 0 runs already: its next proposal feeds one token
        reqs[0].output_ids.append(40)
        with torch.no_grad():
            store.publish("r0", 0, target.model(input_ids=torch.tensor([reqs[0].committed_ids]))[0][0][:-1])
        padded = drafter._forward_padded

        def spy(ids, fed, starts, feats):
            shapes.append((len(fed), max(len(f) for f in fed)))  # (rows, padded length)
            return padded(ids, fed, starts, feats)

        drafter._forward_padded = spy
        block = drafter.propose([reqs[i] for i in which], [3] * len(which))
        return [block.tokens_of(j) for j in range(len(which))], shapes

    together, shapes = propose([0, 1])
    assert together == propose([0])[0] + propose([1])[0]
    assert shapes[:2] == [(1, 1), (1, len(prompts[1]))]  # the first draft step: two forwards
    assert all(rows == 2 and length == 1 for rows, length in shapes[2:])  # then one token each


def test_eagle_drafter_waits_for_features(target):
    drafter = EagleDrafter(make_draft(target, "eagle"), FeatureStore(), max_slots=2)
    req = RequestState(prompt_ids=[5, 6, 7], params=SamplingParams(temperature=0.0))
    assert drafter.propose([req], [4]).num_tokens == 0  # prompt not through the target yet


@pytest.mark.parametrize("mode", ["sd", "psd"])
@pytest.mark.parametrize("kind", ["eagle", "standalone"])
def test_greedy_identical_to_ar(target, ar_reference, mode, kind):
    pair = build_pair(target, make_draft(target, kind, token_map=TOKEN_MAP, copy_layers=[1]))
    assert isinstance(pair.drafter, EagleDrafter) == (kind == "eagle")
    outs, llm = generate(pair, mode, PROMPTS, [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW],
                         num_speculative_tokens=3, max_batch_size=4)
    assert [o.token_ids for o in outs] == ar_reference
    assert all(o.error is None for o in outs)
    summary = llm.last_trace.summary()
    assert summary["proposed"] > 0 if "proposed" in summary else sum(s.proposed for s in llm.last_trace.steps) > 0
    if kind == "eagle":  # features are released with the requests
        assert pair.target.feature_store is not None and not pair.target.feature_store._len


@pytest.mark.parametrize("mode", ["sd", "psd"])
def test_grown_eagle_greedy_identical_to_ar(target, ar_reference, mode):
    outs, _ = generate(build_pair(target, grown_eagle(target)), mode, PROMPTS,
                       [SamplingParams(temperature=0.0, max_new_tokens=n) for n in MAX_NEW], num_speculative_tokens=3, max_batch_size=4)
    assert [o.token_ids for o in outs] == ar_reference and all(o.error is None for o in outs)


def test_sampled_eagle_drafts_carry_valid_distributions(target):
    pair = build_pair(target, make_draft(target, "eagle", token_map=TOKEN_MAP))
    params = [SamplingParams(temperature=1.0, seed=i, max_new_tokens=12, ignore_eos=True) for i in range(3)]
    outs, llm = generate(pair, "sd", PROMPTS[:3], params, num_speculative_tokens=3)
    assert all(o.error is None and len(o.token_ids) == 12 for o in outs)
    req = RequestState(prompt_ids=[5, 6, 7], params=SamplingParams(temperature=1.0, seed=0))
    block = pair.drafter.propose([req], [3])
    assert block.num_tokens == 0  # no features yet; publish them and draft again
    with torch.no_grad():
        h = target.model(input_ids=torch.tensor([req.prompt_ids]))[0][0]
    pair.drafter.store.publish(req.request_id, 0, h[:-1])
    block = pair.drafter.propose([req], [3])
    q = block.draft_probs
    assert q is not None and q.shape == (3, 96)
    torch.testing.assert_close(q.sum(-1), torch.ones(3, dtype=q.dtype))
    odd = torch.arange(1, 96, 2)
    assert float(q[:, odd].sum()) == 0.0 and all(t % 2 == 0 for t in block.tokens.tolist())


def test_unrolled_start_skips_the_prompt_without_changing_outputs(target):
    draft = make_draft(target, "eagle", token_map=TOKEN_MAP)
    ids = torch.randint(2, 96, (2, 12), generator=torch.Generator().manual_seed(0))
    feats = torch.randn(2, 12, 64, dtype=torch.float64)
    full = draft.unrolled(ids, feats, 3)
    part = draft.unrolled(ids, feats, 3, start=4)
    torch.testing.assert_close(part[0], full[0])
    for s in (1, 2):  # valid from position start + s on (earlier rows read skipped features)
        torch.testing.assert_close(part[s][:, s:], full[s][:, 4 + s:])


def test_scoring_publishes_committed_features_before_the_verdict(target):
    """Callers that score without committing (benchmark probes) can draft right away."""
    pair = build_pair(target, make_draft(target, "eagle"))
    req = RequestState(prompt_ids=[5, 6, 7, 8], params=SamplingParams(temperature=0.0))
    assert pair.drafter.propose([req], [3]).num_tokens == 0
    pair.target.score([req], dm_block(req, []))
    assert pair.target.feature_store.length(req.request_id) == 4
    assert pair.drafter.propose([req], [3]).num_tokens == 3
