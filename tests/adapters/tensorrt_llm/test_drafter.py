"""The TensorRT-LLM drafter, driven through stand-ins of TensorRT-LLM 1.2.1, the pinned
release (trtllm_standins.py): drafts only for generation requests, never longer than
max_draft_len, equal to sequential drafting from the same committed tokens, reconciled
after partial acceptance, requests joining and leaving; greedy output equals plain AR."""

from __future__ import annotations

import pickle
import sys

import pytest
import torch

from minedraft import InvalidInputError, RequestState, SamplingParams
from minedraft.adapters.reference.runner import Row
from minedraft.adapters.tensorrt_llm import (
    SUPPORTED_VERSIONS,
    UnsupportedTensorRTLLMError,
    create_drafter,
    llm_kwargs,
    speculative_config,
)
from minedraft.adapters.tensorrt_llm.drafter import trt_sampling
from minedraft.adapters.tensorrt_llm.recipe import BackendDrafter
from minedraft.sampling import processed_probs, row_params

import trtllm_standins as trt
from conftest import build_pair

K = 3
PROMPTS = [[5, 6, 7, 8], [11, 12], [30, 31, 32, 33, 34, 35], [3], [40, 41, 42]]
MAX_NEW = [14, 9, 12, 6, 11]
ARRIVAL = [0, 0, 1, 3, 4]
UNTOUCHED = object()


def _requests(configs=None) -> list[trt.LlmRequest]:
    configs = configs or [trt.SamplingConfig() for _ in PROMPTS]
    return [trt.LlmRequest(100 + i, p, n, cfg, end_id=None)
            for i, (p, n, cfg) in enumerate(zip(PROMPTS, MAX_NEW, configs))]


@torch.no_grad()
def _plain_ar(target) -> list[list[int]]:
    outs = []
    for prompt, n in zip(PROMPTS, MAX_NEW):
        tokens = list(prompt)
        for _ in range(n):
            tokens.append(int(target(torch.tensor([tokens])).logits[0, -1].argmax()))
        outs.append(tokens[len(prompt):])
    return outs


def _run(trtllm, target, drafter, requests, *, max_batch_size=3, check=None, spec_rm=True, pause=None):
    """Feed requests to the stand-in executor at their arrival iterations until all finish."""
    rm = drafter.make_resource_manager() if spec_rm else None
    ex = trt.PyExecutorStandIn(target, drafter, rm, max_draft_len=K, max_batch_size=max_batch_size,
                               on_drafts=check, pause=pause)
    pending = list(zip(ARRIVAL, requests))
    while pending or ex.has_work():
        for item in [p for p in pending if p[0] <= ex.iteration]:
            pending.remove(item)
            ex.add_request(item[1])
        for req in ex.active:  # context requests must come back exactly as they went in
            if req.is_context_init_state:
                req.py_draft_tokens = UNTOUCHED
                req.py_draft_logits = UNTOUCHED
        ex.step()
        assert ex.iteration < 200
    return ex


def _sequential(fresh, committed: list[int], n: int, params=None) -> list[int]:
    from minedraft import SamplingParams

    probe = RequestState(prompt_ids=committed, params=params or SamplingParams(temperature=0.0), request_id="probe")
    tokens = fresh.propose([probe], [n]).tokens.tolist()
    fresh.release("probe")
    return tokens


# -- loading, versions, constructor fields -----------------------------------------------
def test_module_imports_without_tensorrt_llm():
    assert "tensorrt_llm" not in sys.modules  # importing the adapter above did not import it
    with pytest.raises(UnsupportedTensorRTLLMError, match=r"1\.2\.1 only"):
        create_drafter(None, drafter_factory=lambda: None)


# 1.0.0, 1.1.0 and 1.2.0 were accepted before the pin: a regression test of the version gate.
@pytest.mark.parametrize("version", ["0.21.0", "1.0.0", "1.1.0", "1.2.0", "1.2.1rc1", "1.3.0rc1", "2.0.0"])
def test_versions_other_than_the_pinned_release_fail_clearly(monkeypatch, trt_models, version):
    trt.install(monkeypatch, version=version)
    target, _, close = trt_models
    core = build_pair(target, close).drafter
    with pytest.raises(UnsupportedTensorRTLLMError, match=rf"{version} is not supported.*1\.2\.1 only"):
        create_drafter(core, num_speculative_tokens=K)
    monkeypatch.setenv("MINEDRAFT_TRTLLM_ALLOW_UNTESTED", "1")
    assert create_drafter(core, num_speculative_tokens=K).max_draft_len == K


@pytest.mark.parametrize("version", ["1.2.1", "1.2.1.post1", "1.2.1+cu130"])
def test_the_pinned_release_and_its_builds_are_accepted(monkeypatch, trt_models, version):
    trt.install(monkeypatch, version=version)
    target, _, close = trt_models
    assert SUPPORTED_VERSIONS == "==1.2.1"
    assert create_drafter(build_pair(target, close).drafter, num_speculative_tokens=K).max_draft_len == K


def test_a_transitional_drafter_constructor_is_refused_even_when_untested_is_allowed(monkeypatch, trt_models):
    """Some releases between 1.0 and 1.2 have ``Drafter.__init__(max_concurrency=None)`` and
    pad to ``self.max_draft_len``: not the pinned padding contract, so not accepted."""
    installed = trt.install(monkeypatch, version="1.1.0")
    monkeypatch.setenv("MINEDRAFT_TRTLLM_ALLOW_UNTESTED", "1")

    class Transitional(trt.Drafter):
        def __init__(self, max_concurrency=None):
            self.max_concurrency = max_concurrency

    installed.modules["tensorrt_llm._torch.speculative.drafter"].Drafter = Transitional
    target, _, close = trt_models
    with pytest.raises(UnsupportedTensorRTLLMError, match="unknown tensorrt_llm Drafter constructor.*max_concurrency"):
        create_drafter(build_pair(target, close).drafter, num_speculative_tokens=K)


def test_unknown_drafter_constructor_fails_clearly(monkeypatch, trt_models):
    installed = trt.install(monkeypatch)

    class Renamed(trt.Drafter):
        def __init__(self, draft_len=None):
            pass

    installed.modules["tensorrt_llm._torch.speculative.drafter"].Drafter = Renamed
    target, _, close = trt_models
    with pytest.raises(UnsupportedTensorRTLLMError, match="unknown tensorrt_llm Drafter constructor.*draft_len"):
        create_drafter(build_pair(target, close).drafter, num_speculative_tokens=K)


def test_every_field_the_executor_reads_is_set(trtllm, trt_models):
    target, _, close = trt_models
    core = build_pair(target, close).drafter
    drafter = create_drafter(core, num_speculative_tokens=K, lane="inline")
    assert isinstance(drafter, trtllm.drafter_base)
    assert (drafter.max_draft_len, drafter.max_total_draft_tokens, drafter._static_max_total_draft_tokens) == (K, K, K)
    assert drafter.max_concurrency is None and drafter.draft_len_schedule is None
    assert not hasattr(drafter, "_needs_padding_kv_extension")  # a later release's attribute, not 1.2.1's
    batch = trt.ScheduledRequests()
    batch.generation_requests = [trt.LlmRequest(1, [1], 5), trt.LlmRequest(2, [2], 5)]
    batch.generation_requests[0].py_draft_tokens = [7]
    drafter.pad_draft_tokens_for_cuda_graph(batch)  # the executor pads every request to k
    assert [r.py_draft_tokens for r in batch.generation_requests] == [[7, 0, 0], [0, 0, 0]]
    assert drafter.should_use_spec_decode([object()] * 64, 64, 8192, K)
    config = speculative_config(core, num_speculative_tokens=K, lane="inline")
    assert config.max_draft_len == K and isinstance(config.drafter, trtllm.drafter_base)
    assert isinstance(config.resource_manager, trt.BaseResourceManager)
    assert config.resource_manager.get_max_resource_count() == 0  # never gates the scheduler
    kwargs = llm_kwargs(drafter=core, num_speculative_tokens=K, lane="inline")
    assert kwargs["disable_overlap_scheduler"] is True and kwargs["speculative_config"].max_draft_len == K


def test_invalid_arguments_are_named(trtllm, trt_models):
    from minedraft import InvalidInputError

    target, _, close = trt_models
    core = build_pair(target, close).drafter
    for kwargs, name in [({"num_speculative_tokens": 0}, "num_speculative_tokens"), ({"lane": "gpu"}, "lane"),
                         ({"on_miss": "retry"}, "on_miss"), ({"vocab_size": 0}, "vocab_size")]:
        with pytest.raises(InvalidInputError, match=name):
            create_drafter(core, **{"num_speculative_tokens": K, **kwargs})
    with pytest.raises(InvalidInputError, match="exactly one"):
        create_drafter(None, num_speculative_tokens=K)
    with pytest.raises(InvalidInputError, match="exactly one"):
        speculative_config(core, draft_model="somewhere")
    with pytest.raises(InvalidInputError, match="Drafter"):
        create_drafter(object(), num_speculative_tokens=K)


# -- the executor loop ---------------------------------------------------------------------
@pytest.mark.parametrize("on_miss,lane", [("serial", "threads"), ("skip", "inline"), ("serial", "thread")])
def test_greedy_loop_matches_ar_and_drafts_are_sequential(trtllm, trt_models, on_miss, lane):
    target, _, close = trt_models
    core, fresh = build_pair(target, close).drafter, build_pair(target, close).drafter
    drafter = create_drafter(core, num_speculative_tokens=K, lane=lane, on_miss=on_miss)
    seen = {"drafts": 0, "context": 0, "unscheduled": 0, "paused": 0}

    def check(ex, batch):
        for req in batch.context_requests:
            assert req.py_draft_tokens is UNTOUCHED and req.py_draft_logits is UNTOUCHED
            seen["context"] += 1
        for req in batch.generation_requests:
            drafts = req.py_draft_tokens
            assert len(drafts) <= K
            assert req.py_draft_logits is None  # greedy: the sampler needs no q
            if drafts:
                assert drafts == _sequential(fresh, req.get_tokens(0), len(drafts))
                seen["drafts"] += 1
        seen["unscheduled"] += len(ex.active) - batch.batch_size
        seen["paused"] += len(batch.paused_requests)

    def pause(iteration, req):  # generation requests now and then sit an iteration out
        return (iteration + req.py_request_id) % 5 == 0

    requests = _requests()
    ex = _run(trtllm, target, drafter, requests, check=check, pause=pause)
    stats = drafter.stats()
    drafter.shutdown()
    assert [r.get_tokens(0)[r.prompt_len:] for r in requests] == _plain_ar(target)
    assert seen["drafts"] > 5 and seen["context"] == len(PROMPTS) and seen["unscheduled"] > 0 and seen["paused"] > 0
    assert stats["hits"] > 0 and stats["accepted_tokens"] > 0 and stats["draft_errors"] == 0
    assert len(ex.finished) == len(PROMPTS)
    assert not core.runner.slot_of  # every finished request was released through the resource manager


def test_misses_with_an_unrelated_draft_stay_exact(trtllm, trt_models):
    target, unrelated, _ = trt_models
    core = build_pair(target, unrelated).drafter
    drafter = create_drafter(core, num_speculative_tokens=K, lane="threads")
    requests = _requests()
    _run(trtllm, target, drafter, requests)
    stats = drafter.stats()
    drafter.shutdown()
    assert [r.get_tokens(0)[r.prompt_len:] for r in requests] == _plain_ar(target)
    assert stats["misses"] > 0 and stats["serial_requests"] > 0


def test_reconciliation_after_partial_acceptance(trtllm, trt_models):
    """The executor kept 2 of 3 drafts: the drafter hears 2, and drafts from there on are
    those of sequential drafting. Padding the executor accepted is not counted."""
    target, _, close = trt_models
    core, fresh = build_pair(target, close).drafter, build_pair(target, close).drafter
    outcomes = []
    original = core.on_verified
    core.on_verified = lambda outcome: (outcomes.append(outcome), original(outcome))
    drafter = create_drafter(core, num_speculative_tokens=K, lane="inline")
    req = trt.LlmRequest(7, [5, 6, 7, 8], 40)
    req.state = trt.LlmRequestState.GENERATION_IN_PROGRESS

    def prepare():
        batch = trt.ScheduledRequests()
        batch.generation_requests.append(req)
        req.py_draft_tokens = [0] * K  # the executor's placeholders
        drafter.prepare_draft_tokens(batch, None)
        return list(req.py_draft_tokens)

    drafts = prepare()
    while not drafts:  # newcomer: drafted ahead first; the target's token is 9
        req.add_new_token(9, 0)
        drafts = prepare()
    assert drafts == _sequential(fresh, req.get_tokens(0), K)
    committed = req.get_tokens(0)
    for tok in drafts[:2] + [(drafts[2] + 1) % 96]:
        req.add_new_token(tok, 0)
    req.py_num_accepted_draft_tokens = 2
    assert prepare() == []  # verified last time: drafted ahead now
    assert outcomes[-1].num_accepted == [2] and outcomes[-1].emitted == [drafts[:2] + [(drafts[2] + 1) % 96]]
    cached = core.runner.cached[str(req.py_request_id)]
    assert cached[: len(committed) + 2] == req.get_tokens(0)[: len(committed) + 2]
    req.add_new_token(0, 0)  # the target's token next iteration
    drafts = prepare()  # a hit, or serial drafting after the miss: drafts either way
    assert drafts == _sequential(fresh, req.get_tokens(0), K)
    # The executor accepts all drafts and two padding zeros; only our drafts count.
    for tok in drafts + [0, 0, 5]:
        req.add_new_token(tok, 0)
    req.py_num_accepted_draft_tokens = K + 2
    prepare()
    assert outcomes[-1].num_accepted == [K] and outcomes[-1].emitted == [drafts + [0, 0, 5]]
    drafter.shutdown()


def test_dummy_requests_and_gc_without_resource_manager(trtllm, trt_models):
    target, _, close = trt_models
    core = build_pair(target, close).drafter
    drafter = create_drafter(core, num_speculative_tokens=K, lane="inline", gc_iterations=2)
    requests = _requests()
    dummy = trt.LlmRequest(999, [1, 2], 5)
    dummy.state, dummy.is_cuda_graph_dummy = trt.LlmRequestState.GENERATION_IN_PROGRESS, True
    _run(trtllm, target, drafter, requests, spec_rm=False)
    assert [r.get_tokens(0)[r.prompt_len:] for r in requests] == _plain_ar(target)
    empty = trt.ScheduledRequests()
    for _ in range(4):  # unseen for more than gc_iterations=2, then released at the next call
        drafter.prepare_draft_tokens(empty, None)
    assert drafter._pipeline.num_tracked == 0 and not core.runner.slot_of  # forgotten without being told
    batch = trt.ScheduledRequests()
    dummy.py_draft_tokens = [0] * K
    batch.generation_requests.append(dummy)
    drafter.prepare_draft_tokens(batch, None)
    assert dummy.py_draft_tokens == [0] * K and drafter._pipeline.num_tracked == 0  # left to the executor
    drafter.shutdown()


# -- sampling: the q the executor recovers from py_draft_logits ------------------------------
@pytest.mark.parametrize("top_p", [1.0, 0.9])
def test_sampled_draft_logits_give_the_sampler_our_q(trtllm, trt_models, top_p):
    target, _, close = trt_models
    core, fresh = build_pair(target, close).drafter, build_pair(target, close).drafter
    drafter = create_drafter(core, num_speculative_tokens=K, lane="threads")
    configs = [trt.SamplingConfig(temperature=[0.8], top_k=[20], top_p=[top_p], random_seed=[i]) for i in range(5)]
    seen = {"logits": 0, "drafts": 0}

    def check(ex, batch):
        for req in batch.generation_requests:
            drafts, logits = req.py_draft_tokens, req.py_draft_logits
            if not drafts:
                continue
            seen["drafts"] += 1
            if logits is None:
                # No q only where the sampler could not recover it exactly.
                assert len(drafts) < K
                continue
            assert len(drafts) == K and logits.shape == (K, fresh.vocab_size)
            strategy = trt.resolve_strategy(req.sampling_config, ex.vocab_size)
            draft_strategy = ("greedy",) if getattr(req, "py_draft_use_greedy_sampling", False) else strategy
            q_trt = trt.strategy_probs(draft_strategy, logits)
            _, temperature, top_k, p, _ = trt_sampling(req)
            from minedraft import SamplingParams

            params = SamplingParams(temperature=temperature, top_k=top_k, top_p=p)
            draft_logits, _ = fresh.runner.forward([Row("probe", req.get_tokens(0) + drafts[:-1], K)])
            fresh.runner.release("probe")
            t, kk, pp = row_params([params] * K)
            q_ref = processed_probs(draft_logits[0], t, kk, pp)  # [K, vocab]
            torch.testing.assert_close(q_trt, q_ref, rtol=1e-4, atol=1e-6)
            seen["logits"] += 1

    requests = _requests(configs)
    _run(trtllm, target, drafter, requests, check=check)
    drafter.shutdown()
    assert seen["drafts"] > 3
    assert seen["logits"] > 3
    assert all(len(r.get_tokens(0)) - r.prompt_len == n for r, n in zip(requests, MAX_NEW))


# -- processes: LLM may pickle its arguments to executor workers --------------------------
def test_drafter_pickles_as_a_recipe(trtllm, trt_models):
    from minedraft.backends import register_backend

    target, _, close = trt_models

    class TinyDraftBackend:
        name = "tiny-trt-draft"

        def build(self, spec):
            return build_pair(spec.target, spec.draft)

    register_backend("tiny-trt-draft", TinyDraftBackend)
    config = speculative_config(draft_model=close, draft_backend="tiny-trt-draft", num_speculative_tokens=K,
                                lane="inline")
    assert config.drafter.core_drafter is None  # nothing built in the parent process
    drafter, manager = pickle.loads(pickle.dumps((config.drafter, config.resource_manager)))
    assert isinstance(drafter, trtllm.drafter_base) and manager.drafter is drafter
    assert isinstance(drafter._factory, BackendDrafter) and drafter.max_draft_len == K
    requests = _requests()
    _run(trtllm, target, drafter, requests)
    assert [r.get_tokens(0)[r.prompt_len:] for r in requests] == _plain_ar(target)
    assert drafter.stats()["attached_requests"] > 0 and drafter.core_drafter is not None
    copy = pickle.loads(pickle.dumps(drafter))  # once built, a copy still travels as the recipe
    assert copy.core_drafter is None and isinstance(copy._factory, BackendDrafter)
    drafter.shutdown()


def test_backend_drafter_recipe_builds_through_registry(trt_models):
    from minedraft.backends import register_backend

    _, _, close = trt_models

    class TinyBackend:
        name = "tiny-draft-test"

        def build(self, spec):
            assert spec.target is spec.draft  # the recipe asks for the draft model only
            return build_pair(spec.target, spec.draft)

    register_backend("tiny-draft-test", TinyBackend)
    drafter = BackendDrafter(model=close, backend="tiny-draft-test")()
    block = drafter.propose([RequestState(prompt_ids=[1, 2, 3], params=SamplingParams(temperature=0.0))], [2])
    assert block.num_tokens == 2
    with pytest.raises(InvalidInputError, match="backend"):
        BackendDrafter(model=close, backend="no-such-backend")()
    with pytest.raises(InvalidInputError, match="draft model"):
        BackendDrafter(model="")
