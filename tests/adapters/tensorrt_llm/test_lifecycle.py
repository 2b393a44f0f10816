"""How TensorRT-LLM 1.2.1 builds and tears down executors around the drafter, and what its
sampler does with draft logits: the drafter survives the KV-cache estimation pass, and
sampled requests never depend on unverified sampler semantics."""

from __future__ import annotations

import pytest
import torch
from test_drafter import ARRIVAL, MAX_NEW, PROMPTS, K, _plain_ar, _requests

from minedraft.adapters.tensorrt_llm import speculative_config

import trtllm_standins as trt
from conftest import build_pair


def _serve_requests(ex, requests) -> None:
    pending = list(zip(ARRIVAL, requests))
    while pending or ex.has_work():
        for item in [p for p in pending if p[0] <= ex.iteration]:
            pending.remove(item)
            ex.add_request(item[1])
        ex.step()
        assert ex.iteration < 200


@pytest.mark.parametrize("lane", ["inline", "threads"])
def test_drafter_survives_the_kv_cache_estimation_executor(trtllm, trt_models, lane):
    """create_py_executor runs a throwaway executor, shuts it down (and with it the spec
    resource manager, hence the drafter), then serves with the same objects."""
    target, _, close = trt_models
    spec = speculative_config(build_pair(target, close).drafter, num_speculative_tokens=K, lane=lane)
    ex = trt.create_py_executor(target, spec, max_batch_size=3, estimate_kv_cache=True)
    requests = _requests()
    _serve_requests(ex, requests)
    assert [r.get_tokens(0)[r.prompt_len:] for r in requests] == _plain_ar(target)
    assert spec.drafter.stats()["attached_requests"] > 0
    ex.shutdown()  # LLM.shutdown: the drafter closes again and keeps its numbers
    assert spec.drafter.stats()["attached_requests"] > 0 and spec.drafter._pipeline is None


def test_a_draft_built_by_its_factory_is_built_once_across_the_estimation_pass(trtllm, trt_models):
    # The estimation executor's shutdown closes the pipeline, not the model: a second build
    # would hold two copies while it loads (out of memory at trtllm-serve's default 0.9).
    from minedraft.backends import register_backend

    target, _, close = trt_models
    builds = []

    class CountingBackend:
        name = "counting-trt-draft"

        def build(self, spec):
            builds.append(spec.draft)
            return build_pair(spec.target, spec.draft)

    register_backend("counting-trt-draft", CountingBackend)
    spec = speculative_config(draft_model=close, draft_backend="counting-trt-draft", num_speculative_tokens=K,
                              lane="inline")
    ex = trt.create_py_executor(target, spec, max_batch_size=3, estimate_kv_cache=True)
    requests = _requests()
    _serve_requests(ex, requests)
    assert [r.get_tokens(0)[r.prompt_len:] for r in requests] == _plain_ar(target)
    ex.shutdown()
    assert len(builds) == 1


def test_a_shut_down_drafter_serves_a_second_executor_from_scratch(trtllm, trt_models):
    target, _, close = trt_models
    core = build_pair(target, close).drafter
    spec = speculative_config(core, num_speculative_tokens=K, lane="inline")
    for _ in range(2):
        ex = trt.create_py_executor(target, spec, max_batch_size=3, estimate_kv_cache=False)
        requests = _requests()
        _serve_requests(ex, requests)
        assert [r.get_tokens(0)[r.prompt_len:] for r in requests] == _plain_ar(target)
        ex.shutdown()
        assert not core.runner.slot_of  # closing released every request's draft state


def _one_hot_greedy(logits, *, return_probs: bool = True):
    """The other semantics upstream has had for sample(("greedy", None), ...): a one-hot q."""
    next_tokens = torch.argmax(logits, dim=-1)
    probs = torch.zeros_like(logits).scatter_(1, next_tokens.unsqueeze(-1), 1.0) if return_probs else None
    return next_tokens, probs


def _sampled_run(trtllm, trt_models, monkeypatch, one_hot: bool):
    if one_hot:
        monkeypatch.setattr(trtllm.modules["tensorrt_llm._torch.pyexecutor.sampling_utils"],
                            "greedy_search_sampling_batch", _one_hot_greedy)
    target, _, close = trt_models
    spec = speculative_config(build_pair(target, close).drafter, num_speculative_tokens=K, lane="inline")
    seen = {"logits": 0, "drafts": 0}

    def check(ex, batch):
        for req in batch.generation_requests:
            seen["drafts"] += bool(req.py_draft_tokens)
            seen["logits"] += req.py_draft_logits is not None

    # No estimation pass here: this test is about the sampler alone.
    ex = trt.create_py_executor(target, spec, max_batch_size=3, on_drafts=check, estimate_kv_cache=False)
    configs = [trt.SamplingConfig(temperature=[0.8], top_k=[20], random_seed=[i]) for i in range(len(PROMPTS))]
    requests = _requests(configs)
    _serve_requests(ex, requests)
    assert all(len(r.get_tokens(0)) - r.prompt_len == n for r, n in zip(requests, MAX_NEW))
    return seen


def test_draft_logits_only_for_a_sampler_that_recovers_q(trtllm, trt_models, monkeypatch):
    """With a sampler whose greedy draft strategy yields a one-hot q, rejection sampling
    against our q would change sampled outputs: no draft logits go to it (token-match
    acceptance, lossless for any sampler). With the softmax one, they do."""
    seen = _sampled_run(trtllm, trt_models, monkeypatch, one_hot=True)
    assert seen["drafts"] > 3 and seen["logits"] == 0


def test_draft_logits_for_the_verified_sampler(trtllm, trt_models, monkeypatch):
    seen = _sampled_run(trtllm, trt_models, monkeypatch, one_hot=False)
    assert seen["drafts"] > 3 and seen["logits"] > 3


def test_greedy_stays_ar_whatever_the_sampler_does_with_draft_logits(trtllm, trt_models, monkeypatch):
    monkeypatch.setattr(trtllm.modules["tensorrt_llm._torch.pyexecutor.sampling_utils"],
                        "greedy_search_sampling_batch", _one_hot_greedy)
    target, _, close = trt_models
    spec = speculative_config(build_pair(target, close).drafter, num_speculative_tokens=K, lane="inline")
    ex = trt.create_py_executor(target, spec, max_batch_size=3, estimate_kv_cache=False)
    requests = _requests()
    _serve_requests(ex, requests)
    assert [r.get_tokens(0)[r.prompt_len:] for r in requests] == _plain_ar(target)
