"""Stand-ins for the TensorRT-LLM 1.2.1 interfaces the minedraft adapter touches.

tensorrt-llm cannot be installed on the CPU test machines (no wheel on PyPI, no cp311
build), so these classes reproduce what the adapter reads and writes and what the
executor does around it, for one release: **1.2.1**. They were written from upstream's
source (NVIDIA/TensorRT-LLM, read through the code index), not copied; each names its
upstream file. The signatures of the upstream symbols the adapter calls or subclasses are
pinned by ``upstream_signatures_v1.2.1.json`` (made by ``scripts/trtllm_signatures.py``)
and checked by ``test_contract.py``: a stand-in that drifts from the snapshot fails there.

What is modelled beyond signatures (the behaviour the adapter relies on):
- ``Drafter``: the constructor stores the draft lengths; ``pad_draft_tokens_for_cuda_graph``
  pads every generation request with zeros to ``_static_max_total_draft_tokens``.
- ``PyExecutorStandIn``: the non-overlap ``PyExecutor._executor_loop`` (placeholders,
  scheduling, ``prepare_draft_tokens`` then padding, target forward, ``TorchSampler``
  acceptance, ``run_drafter_post``, ``free_resources``) and ``shutdown`` (which shuts
  down every resource manager, the user's spec resource manager included).
- ``create_py_executor``: ``py_executor_creator.create_py_executor`` with KV-cache
  estimation (``KvCacheCreator.configure_kv_cache_capacity``): a throwaway executor runs
  dummy context requests and is shut down, then the real executor is built with the same
  drafter and resource-manager objects.
- ``get_llm_args`` / ``launch_server`` (``commands/serve.py``): how ``trtllm-serve``
  builds the ``LLM`` and ``OpenAIServer``; ``OpenAIServer`` requires ``server_role`` and
  ``metadata_server_cfg`` (no defaults), as upstream's does.
- ``LLM``: validates its arguments as ``TorchLlmArgs`` does for the fields used here
  (unknown fields and unknown nested config fields are errors: upstream's configs are
  strict pydantic models).
"""

from __future__ import annotations

import asyncio
import enum
import sys
import types
from abc import ABC, abstractmethod
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

import torch

RELEASE = "1.2.1"


# -- 1.2.1 tensorrt_llm/bindings (LlmRequestState) ---------------------------------------
class LlmRequestState(enum.Enum):
    """The states of the C++ LlmRequestState the executor loop uses, in upstream's order
    (the capacity scheduler compares them); the adapter itself never reads them."""

    CONTEXT_INIT = 1
    GENERATION_IN_PROGRESS = 2
    GENERATION_COMPLETE = 3


# -- 1.2.1 tensorrt_llm/bindings SamplingConfig: every field None or one value per beam -----
@dataclass
class SamplingConfig:
    temperature: list[float] | None = None
    top_k: list[int] | None = None
    top_p: list[float] | None = None
    random_seed: list[int] | None = None
    beam_width: int = 1


# -- 1.2.1 tensorrt_llm/_torch/pyexecutor/llm_request.py (LlmRequest.__init__ py_* fields) --
class LlmRequest:
    """The Python fields of LlmRequest plus the binding methods the executor and the
    drafter call (get_tokens, get_num_tokens, add_new_token, state, prompt_len)."""

    def __init__(self, request_id: int, input_tokens: list[int], max_new_tokens: int,
                 sampling_config: SamplingConfig | None = None, end_id: int | None = None) -> None:
        # binding-side fields
        self.request_id = request_id
        self.prompt_len = len(input_tokens)
        self.orig_prompt_len = len(input_tokens)
        self.max_new_tokens = max_new_tokens
        self.end_id = end_id
        self.sampling_config = sampling_config or SamplingConfig()
        self.state = LlmRequestState.CONTEXT_INIT
        self._tokens = list(input_tokens)
        # py_* fields, as LlmRequest.__init__ sets them
        self.py_request_id = request_id
        self.py_end_id = end_id
        self.py_prompt_len = self.prompt_len
        self.py_orig_prompt_len = self.orig_prompt_len
        self.py_max_new_tokens = max_new_tokens
        self.py_batch_idx = None
        self.py_draft_pages_allocated = 0
        self.py_rewind_len = 0
        self.py_draft_tokens: list[int] = []
        self.py_draft_logits = None
        self.py_target_probs = None
        self.py_last_draft_tokens = None
        self.py_num_accepted_draft_tokens = 0
        self.py_decoding_iter = 0
        self.py_seq_slot = None
        self.is_attention_dp_dummy = False
        self.is_cuda_graph_dummy = False
        self.is_dummy_request = False
        self.py_draft_use_greedy_sampling = False  # set by ModelDrafter; read by rejection sampling

    @property
    def is_dummy(self) -> bool:
        return self.is_attention_dp_dummy or self.is_cuda_graph_dummy or self.is_dummy_request

    @property
    def is_context_init_state(self) -> bool:
        return self.state == LlmRequestState.CONTEXT_INIT

    @property
    def is_last_context_chunk(self) -> bool:
        return True  # the stand-in executor never chunks a prompt

    def get_tokens(self, beam: int) -> list[int]:
        return list(self._tokens)

    def get_num_tokens(self, beam: int) -> int:
        return len(self._tokens)

    def add_new_token(self, token: int, beam: int) -> None:
        self._tokens.append(int(token))

    def finish_by_length_or_end(self) -> bool:
        generated = len(self._tokens) - self.prompt_len
        if generated >= self.py_max_new_tokens or (self.py_end_id is not None and self._tokens[-1] == self.py_end_id):
            self.state = LlmRequestState.GENERATION_COMPLETE
            return True
        return False


def get_draft_token_length(request: LlmRequest) -> int:
    """llm_request.py: len(py_draft_tokens), 0 for None."""
    return len(request.py_draft_tokens) if request.py_draft_tokens is not None else 0


# -- 1.2.1 tensorrt_llm/_torch/pyexecutor/scheduler.py (ScheduledRequests) -----------------
class ScheduledRequests:
    def __init__(self) -> None:
        self.context_requests: list[LlmRequest] = []
        self.generation_requests: list[LlmRequest] = []
        self.paused_requests: list[LlmRequest] = []

    @property
    def batch_size(self) -> int:
        return len(self.context_requests) + len(self.generation_requests)

    def all_requests(self) -> list[LlmRequest]:
        return self.context_requests + self.generation_requests


# -- 1.2.1 tensorrt_llm/_torch/speculative/drafter.py ------------------------------------------
class Drafter(ABC):
    """The user-drafter base: draft lengths in the constructor, padding to the static
    maximum (the length the target's CUDA graphs are captured at)."""

    def __init__(self, max_draft_len: int = None, max_total_draft_tokens: int = None,  # noqa: RUF013 - upstream's annotations
                 max_concurrency: int | None = None, draft_len_schedule: dict[int, int] | None = None) -> None:
        self.max_draft_len = max_draft_len
        self.max_total_draft_tokens = max_total_draft_tokens
        self._static_max_total_draft_tokens = max_total_draft_tokens
        self.max_concurrency = max_concurrency
        self.draft_len_schedule = draft_len_schedule

    @abstractmethod
    def prepare_draft_tokens(self, scheduled_requests: ScheduledRequests, resource_manager: Any = None) -> None:
        raise NotImplementedError

    def should_use_spec_decode(self, requests, max_batch_size, max_num_tokens, max_total_draft_tokens) -> bool:
        if self.max_concurrency is None:
            return True
        if not requests or max_batch_size <= 0 or max_num_tokens <= 0:
            return False
        token_cap = max_num_tokens // (1 + max_total_draft_tokens)
        if token_cap <= 0:
            return False
        return min(len(requests), max_batch_size, token_cap) <= self.max_concurrency

    def pad_draft_tokens_for_cuda_graph(self, scheduled_requests: ScheduledRequests) -> None:
        for req in scheduled_requests.generation_requests:
            pad = self._static_max_total_draft_tokens - get_draft_token_length(req)
            req.py_draft_tokens.extend(0 for _ in range(pad))

    def get_draft_len_for_batch_size(self, batch_size: int) -> int:
        thresholds = list(self.draft_len_schedule.keys())
        idx = bisect_right(thresholds, batch_size)
        return 0 if idx == 0 else self.draft_len_schedule[thresholds[idx - 1]]

    def update_max_total_draft_tokens(self, new_max_total_draft_tokens: int) -> None:
        self.max_total_draft_tokens = new_max_total_draft_tokens
        self.max_draft_len = new_max_total_draft_tokens

    def run_drafter_post(self, scheduled_requests, resource_manager=None, is_warmup: bool = False) -> None:  # noqa: B027 - a no-op hook upstream too
        pass


# -- 1.2.1 tensorrt_llm/_torch/pyexecutor/resource_manager.py ----------------------------------
class BaseResourceManager(ABC):
    @abstractmethod
    def get_max_resource_count(self) -> int:
        raise NotImplementedError

    @abstractmethod
    def get_needed_resource_to_completion(self, request: LlmRequest) -> int:
        raise NotImplementedError

    def add_dummy_requests(self, request_ids: list[int]):  # noqa: B027 - a no-op hook upstream too
        pass

    def prepare_resources(self, scheduled_batch: ScheduledRequests):  # noqa: B027 - a no-op hook upstream too
        pass

    def update_resources(self, scheduled_batch: ScheduledRequests):  # noqa: B027 - a no-op hook upstream too
        pass

    def free_resources(self, request: LlmRequest):  # noqa: B027 - a no-op hook upstream too
        pass

    def shutdown(self):  # noqa: B027 - a no-op hook upstream too
        pass


class ResourceManager:
    """The executor's container (``resource_managers``, keyed by type); the user's
    resource manager is registered under SPEC_RESOURCE_MANAGER
    (``speculative/utils.py`` get_spec_resource_manager for USER_PROVIDED)."""

    def __init__(self, managers: dict[str, BaseResourceManager]) -> None:
        self.resource_managers = dict(managers)

    def get_resource_manager(self, name: str):
        return self.resource_managers.get(name)

    def prepare_resources(self, batch: ScheduledRequests) -> None:
        for manager in self.resource_managers.values():
            manager.prepare_resources(batch)

    def update_resources(self, batch: ScheduledRequests) -> None:
        for manager in self.resource_managers.values():
            manager.update_resources(batch)

    def free_resources(self, request: LlmRequest) -> None:
        for manager in reversed(list(self.resource_managers.values())):
            manager.free_resources(request)


# -- 1.2.1 tensorrt_llm/llmapi/llm_args.py (configs; strict: unknown fields are errors) ----------
REQUIRED = object()


class _StrictConfig:
    """A pydantic ``StrictBaseModel`` reduced to what the tests need: declared fields with
    defaults, required fields, and a named error for anything else."""

    FIELDS: dict[str, Any] = {}

    def __init__(self, **kwargs: Any) -> None:
        unknown = sorted(set(kwargs) - set(self.FIELDS))
        if unknown:
            raise ValueError(f"{type(self).__name__}: extra field {unknown[0]!r} not permitted")
        for name, default in self.FIELDS.items():
            if name not in kwargs and default is REQUIRED:
                raise ValueError(f"{type(self).__name__}: field {name!r} required")
            setattr(self, name, kwargs.get(name, default))


class UserProvidedDecodingConfig(_StrictConfig):
    """decoding_type "User_Provided": ``drafter`` (a Drafter) required, ``resource_manager``
    optional; plus the ``DecodingBaseConfig`` fields the adapter sets."""

    OWN_FIELDS = {"decoding_type": "User_Provided", "drafter": REQUIRED, "resource_manager": None}
    FIELDS = {**OWN_FIELDS, "max_draft_len": None}  # max_draft_len: from DecodingBaseConfig

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_total_draft_tokens = self.max_draft_len  # the validator: linear drafts only


class KvCacheConfig(_StrictConfig):
    FIELDS = {"free_gpu_memory_fraction": None, "enable_block_reuse": True, "max_tokens": None}


class CudaGraphConfig(_StrictConfig):
    FIELDS = {"batch_sizes": None, "max_batch_size": 0, "enable_padding": False}


class SchedulerConfig(_StrictConfig):
    FIELDS = {"capacity_scheduler_policy": "GUARANTEED_NO_EVICT", "context_chunking_policy": None,
              "dynamic_batch_config": None}


class BuildConfig(_StrictConfig):
    max_beam_width, max_batch_size, max_num_tokens, max_seq_len = 1, 2048, 8192, None
    FIELDS = {"max_beam_width": 1, "max_batch_size": 2048, "max_num_tokens": 8192, "max_seq_len": None}


# The TorchLlmArgs fields the adapter, trtllm-serve's get_llm_args and the shipped YAML use,
# with the config class a nested mapping becomes (None: a plain value).
TORCH_LLM_ARGS: dict[str, type | None] = {
    "model": None, "tokenizer": None, "backend": None, "tensor_parallel_size": None,
    "pipeline_parallel_size": None, "moe_expert_parallel_size": None, "gpus_per_node": None,
    "trust_remote_code": None, "build_config": BuildConfig, "max_batch_size": None, "max_num_tokens": None,
    "max_beam_width": None, "max_seq_len": None, "kv_cache_config": KvCacheConfig,
    "scheduler_config": SchedulerConfig, "num_postprocess_workers": None, "postprocess_tokenizer_dir": None,
    "reasoning_parser": None, "fail_fast_on_attention_window_too_large": None, "enable_chunked_prefill": None,
    "speculative_config": None, "disable_overlap_scheduler": None, "cuda_graph_config": CudaGraphConfig,
    "attn_backend": None, "enable_iter_perf_stats": None, "print_iter_log": None,
}


# -- 1.2.1 tensorrt_llm/llmapi/llm_utils.py ----------------------------------------------------
def update_llm_args_with_extra_dict(llm_args: dict, llm_args_dict: dict, extra_llm_api_options: str | None = None):
    """Nested mappings of the known config fields become config objects; then the extra
    dict overrides llm_args (it is the YAML that overrides trtllm-serve's flags)."""
    converted = dict(llm_args_dict)
    for name in ("kv_cache_config", "scheduler_config", "build_config"):
        if isinstance(converted.get(name), dict):
            converted[name] = TORCH_LLM_ARGS[name](**converted[name])
    return {**llm_args, **converted}


# -- 1.2.1 tensorrt_llm/llmapi/llm.py LLM (PyTorch backend): validates, then records -------------
class LLM:
    instances: list[LLM] = []

    def __init__(self, model: str, **kwargs: Any) -> None:
        for name, value in kwargs.items():
            if name not in TORCH_LLM_ARGS:
                raise ValueError(f"TorchLlmArgs: extra field {name!r} not permitted")
            cls = TORCH_LLM_ARGS[name]
            if cls is not None and isinstance(value, dict):  # pydantic validates nested mappings
                kwargs[name] = cls(**value)
        spec = kwargs.get("speculative_config")
        if isinstance(spec, UserProvidedDecodingConfig) and not isinstance(spec.drafter, Drafter):
            raise ValueError("UserProvidedDecodingConfig.drafter must be a Drafter")
        self.model, self.kwargs, self.shut_down = model, kwargs, False
        self.tokenizer = None
        LLM.instances.append(self)

    def shutdown(self) -> None:
        self.shut_down = True


# -- 1.2.1 tensorrt_llm/serve/openai_server.py (construction only) -------------------------------
class OpenAIServer:
    """Constructed as launch_server constructs it; ``server_role`` and
    ``metadata_server_cfg`` have no defaults upstream."""

    instances: list[OpenAIServer] = []

    def __init__(self, llm, model: str, server_role, metadata_server_cfg, disagg_cluster_config=None,
                 multimodal_server_config=None) -> None:
        self.llm, self.model, self.server_role, self.served = llm, model, server_role, None
        OpenAIServer.instances.append(self)

    async def __call__(self, host: str, port: int) -> None:
        self.served = (host, port)


# -- 1.2.1 tensorrt_llm/commands/serve.py ----------------------------------------------------
def get_llm_args(model: str, tokenizer: str | None = None, backend: str = "pytorch",
                 max_beam_width: int = BuildConfig.max_beam_width, max_batch_size: int = BuildConfig.max_batch_size,
                 max_num_tokens: int = BuildConfig.max_num_tokens, max_seq_len: int = BuildConfig.max_seq_len,
                 tensor_parallel_size: int = 1, pipeline_parallel_size: int = 1,
                 moe_expert_parallel_size: int | None = None, gpus_per_node: int | None = None,
                 free_gpu_memory_fraction: float = 0.9, num_postprocess_workers: int = 0,
                 trust_remote_code: bool = False, reasoning_parser: str | None = None,
                 fail_fast_on_attention_window_too_large: bool = False, enable_chunked_prefill: bool = False,
                 **llm_args_extra_dict: Any):
    """trtllm-serve's defaults as an llm_args dict, plus the unused extra keywords."""
    llm_args = {
        "model": model, "scheduler_config": SchedulerConfig(), "tokenizer": tokenizer,
        "tensor_parallel_size": tensor_parallel_size, "pipeline_parallel_size": pipeline_parallel_size,
        "moe_expert_parallel_size": moe_expert_parallel_size, "gpus_per_node": gpus_per_node or 1,
        "trust_remote_code": trust_remote_code,
        "build_config": BuildConfig(max_batch_size=max_batch_size, max_num_tokens=max_num_tokens,
                                    max_beam_width=max_beam_width, max_seq_len=max_seq_len),
        "max_batch_size": max_batch_size, "max_num_tokens": max_num_tokens, "max_beam_width": max_beam_width,
        "max_seq_len": max_seq_len, "kv_cache_config": KvCacheConfig(free_gpu_memory_fraction=free_gpu_memory_fraction),
        "backend": backend, "num_postprocess_workers": num_postprocess_workers,
        "postprocess_tokenizer_dir": tokenizer or model, "reasoning_parser": reasoning_parser,
        "fail_fast_on_attention_window_too_large": fail_fast_on_attention_window_too_large,
        "enable_chunked_prefill": enable_chunked_prefill,
    }
    return llm_args, llm_args_extra_dict


def launch_server(host: str, port: int, llm_args: dict, metadata_server_cfg=None, server_role=None,
                  disagg_cluster_config=None, multimodal_server_config=None):
    if llm_args["backend"] != "pytorch":
        raise ValueError(f"{llm_args['backend']} is not a backend the stand-in models")
    llm = LLM(**llm_args)
    server = OpenAIServer(llm=llm, model=llm_args["model"], server_role=server_role,
                          metadata_server_cfg=metadata_server_cfg, disagg_cluster_config=disagg_cluster_config,
                          multimodal_server_config=multimodal_server_config)
    asyncio.run(server(host, port))


# -- 1.2.1 tensorrt_llm/_torch/pyexecutor/sampling_utils.py (strategies, sample) ----------------
def greedy_search_sampling_batch(logits, *, return_probs: bool = True):
    """Argmax, and the probabilities ``sample(("greedy", None), ...)`` returns: the softmax
    of the logits in the file version read for 1.2.1. (Other versions return a one-hot
    here; the adapter probes this function instead of trusting either.)"""
    next_tokens = torch.argmax(logits, dim=-1)
    softmax = torch.softmax(logits, dim=-1) if return_probs else None
    return next_tokens, softmax


def resolve_strategy(cfg: SamplingConfig, vocab_size: int) -> tuple:
    unwrap = lambda v: None if v is None else v[0]  # noqa: E731
    temperature, top_k, top_p = unwrap(cfg.temperature), unwrap(cfg.top_k), unwrap(cfg.top_p)
    if (temperature is None and top_k is None and top_p is None) or top_k == 1 or top_p == 0 or temperature == 0:
        return ("greedy",)
    return ("sample", temperature or 1.0, top_k or vocab_size, top_p or 1.0)


def strategy_probs(strategy: tuple, logits: torch.Tensor) -> torch.Tensor:
    """The probabilities ``sample()`` returns: softmax of logits / max(T, 1e-5) after top-k
    (threshold at the k-th value) and top-p (drop tokens after the first cumulative > p)."""
    if strategy[0] == "greedy":
        return _MODULES_GREEDY()(logits.float())[1]
    _, temperature, top_k, top_p = strategy
    logits = logits.float() / max(temperature, 1e-5)
    if top_k < logits.shape[-1]:
        kth = torch.topk(logits, top_k, dim=-1).values[:, -1:]
        logits = torch.where(logits < kth, torch.full_like(logits, float("-inf")), logits)
    if top_p < 1:
        sorted_logits, order = torch.sort(logits, descending=True, dim=-1)
        cum = torch.softmax(sorted_logits, -1).cumsum(-1)
        drop = cum > top_p
        drop[:, 1:] = drop[:, :-1].clone()
        drop[:, 0] = False
        logits = logits.masked_fill(drop.scatter(1, order, drop), float("-inf"))
    return torch.softmax(logits, -1)


# -- 1.2.1 tensorrt_llm/_torch/pyexecutor/py_executor.py (non-overlap loop, shutdown) + sampler.py
class PyExecutorStandIn:
    """One iteration = PyExecutor._executor_loop without the overlap scheduler (which
    TensorRT-LLM disables for USER_PROVIDED): stamp draft placeholders on generation
    requests, schedule at most ``max_batch_size`` requests in arrival order, prepare
    resources, ``prepare_draft_tokens`` then ``pad_draft_tokens_for_cuda_graph``, target
    forward over [last token, drafts], TorchSampler acceptance, ``run_drafter_post``,
    ``free_resources`` for finished requests."""

    def __init__(self, target: torch.nn.Module, drafter: Any, spec_resource_manager: Any, *, max_draft_len: int,
                 max_batch_size: int = 8, max_num_tokens: int = 8192, seed: int = 0,
                 on_drafts=None, pause=None) -> None:
        self.target, self.drafter = target, drafter
        self.is_warmup, self.is_shutdown = False, False
        managers = {"SPEC_RESOURCE_MANAGER": spec_resource_manager} if spec_resource_manager is not None else {}
        self.resource_manager = ResourceManager(managers)
        self.max_total_draft_tokens = max_draft_len
        self.max_batch_size, self.max_num_tokens = max_batch_size, max_num_tokens
        self.active: list[LlmRequest] = []
        self.finished: list[LlmRequest] = []
        self.iteration = 0
        self.use_spec_decode = True
        self.generator = torch.Generator().manual_seed(seed)
        self.on_drafts = on_drafts  # test hook: sees the batch after prepare_draft_tokens, before padding
        self.pause = pause  # (iteration, request) -> True: a generation request sits this one out
        self.vocab_size = int(target.get_output_embeddings().weight.shape[0])

    def add_request(self, request: LlmRequest) -> None:
        self.active.append(request)

    def has_work(self) -> bool:
        return bool(self.active)

    # -- _prepare_and_schedule_batch ---------------------------------------------------------
    def _prepare_draft_requests(self) -> None:
        if self.drafter.draft_len_schedule is not None:
            self.max_total_draft_tokens = self.drafter.get_draft_len_for_batch_size(len(self.active))
            self.drafter.update_max_total_draft_tokens(self.max_total_draft_tokens)
        self.use_spec_decode = self.drafter.should_use_spec_decode(
            self.active, self.max_batch_size, self.max_num_tokens, self.max_total_draft_tokens)
        for req in self.active:
            if req.state != LlmRequestState.GENERATION_IN_PROGRESS:
                continue
            req.py_last_draft_tokens = req.py_draft_tokens
            if self.max_total_draft_tokens > 0 and self.use_spec_decode:
                req.py_draft_tokens = [0] * self.max_total_draft_tokens
                req.py_draft_pages_allocated = self.max_total_draft_tokens
            else:
                req.py_draft_tokens = []
                req.py_draft_pages_allocated = 0

    def _schedule(self) -> ScheduledRequests:
        batch = ScheduledRequests()
        for req in self.active[: self.max_batch_size]:
            if req.state == LlmRequestState.GENERATION_IN_PROGRESS:
                # A capacity scheduler under memory pressure (MAX_UTILIZATION) pauses some.
                paused = self.pause is not None and self.pause(self.iteration, req)
                (batch.paused_requests if paused else batch.generation_requests).append(req)
            elif req.state == LlmRequestState.CONTEXT_INIT:
                batch.context_requests.append(req)
        return batch

    def step(self) -> ScheduledRequests:
        if self.is_shutdown:
            raise RuntimeError("PyExecutor has already been shutdown")
        self._prepare_draft_requests()
        batch = self._schedule()
        self.resource_manager.prepare_resources(batch)
        if self.use_spec_decode:
            self.drafter.prepare_draft_tokens(batch, self.resource_manager)
            if self.on_drafts is not None:
                self.on_drafts(self, batch)
            self.drafter.pad_draft_tokens_for_cuda_graph(batch)
        logits = self._forward(batch)
        self.drafter.run_drafter_post(batch, self.resource_manager, self.is_warmup)
        self._update_requests(batch, logits)
        self.resource_manager.update_resources(batch)
        for req in [r for r in self.active if r.state == LlmRequestState.GENERATION_COMPLETE]:
            self.active.remove(req)
            self.finished.append(req)
            self.resource_manager.free_resources(req)
        self.iteration += 1
        return batch

    def shutdown(self) -> None:
        """PyExecutor.shutdown: stop the loop, then shut down every resource manager."""
        self.is_shutdown = True
        for manager in self.resource_manager.resource_managers.values():
            if manager:
                manager.shutdown()

    def run_until_done(self, limit: int = 500) -> None:
        while self.has_work():
            self.step()
            if self.iteration >= limit:
                raise RuntimeError("the stand-in executor did not finish")

    # -- _forward_step: the target scores [last token, d_1..d_k] -----------------------------
    @torch.no_grad()
    def _forward(self, batch: ScheduledRequests) -> dict[int, torch.Tensor]:
        out = {}
        for req in batch.all_requests():
            drafts = [] if req.is_context_init_state else list(req.py_draft_tokens)
            ids = torch.tensor([req.get_tokens(0) + drafts])
            out[req.py_request_id] = self.target(ids).logits[0, -(len(drafts) + 1):]  # [1 + k, vocab]
        return out

    # -- TorchSampler.update_requests / process_draft_tokens ----------------------------------
    def _update_requests(self, batch: ScheduledRequests, logits: dict[int, torch.Tensor]) -> None:
        for req in batch.context_requests:
            strategy = resolve_strategy(req.sampling_config, self.vocab_size)
            req.add_new_token(self._sample(strategy, logits[req.py_request_id])[0], 0)
            req.state = LlmRequestState.GENERATION_IN_PROGRESS
            req.finish_by_length_or_end()
        for req in batch.generation_requests:
            strategy = resolve_strategy(req.sampling_config, self.vocab_size)
            row_logits = logits[req.py_request_id]  # [1 + k, vocab]
            if strategy[0] != "greedy" and req.py_draft_logits is not None:
                num_accepted = self._rejection_sampling(req, strategy, row_logits)
            else:
                num_accepted = self._greedy_or_pointmass(req, self._sample(strategy, row_logits))
            if get_draft_token_length(req) > 0:
                req.py_num_accepted_draft_tokens = num_accepted
                req.py_rewind_len = req.py_draft_pages_allocated - num_accepted
            else:
                req.py_num_accepted_draft_tokens = 0
                req.py_rewind_len = 0
            req.py_decoding_iter += 1

    def _sample(self, strategy: tuple, logits: torch.Tensor) -> list[int]:
        """The target's own token at every position (argmax, or a sample from p)."""
        if strategy[0] == "greedy":
            return logits.argmax(-1).tolist()
        probs = strategy_probs(strategy, logits)
        return torch.multinomial(probs, 1, generator=self.generator).squeeze(-1).tolist()

    def _greedy_or_pointmass(self, req: LlmRequest, new_tokens: list[int]) -> int:
        """_process_draft_tokens_greedy: accept drafts (padding included) while they equal
        the target's token at their position; always add the target's token after them."""
        token = new_tokens[0]
        req.add_new_token(token, 0)
        if req.finish_by_length_or_end() or get_draft_token_length(req) == 0:
            return 0
        num_accepted = 0
        for draft in req.py_draft_tokens:
            if draft != token:
                break
            num_accepted += 1
            token = new_tokens[num_accepted]
            req.add_new_token(token, 0)
            if req.finish_by_length_or_end():
                break
        return num_accepted

    def _rejection_sampling(self, req: LlmRequest, strategy: tuple, row_logits: torch.Tensor) -> int:
        """_process_draft_tokens_rejection_sampling: q from py_draft_logits processed with the
        request's strategy (or plain softmax when py_draft_use_greedy_sampling), p from the
        target; rows of q, not the padded draft list, say how many drafts count; when none
        is rejected, every entry of py_draft_tokens (padding included) is accepted."""
        draft_strategy = ("greedy",) if getattr(req, "py_draft_use_greedy_sampling", False) else strategy
        q = strategy_probs(draft_strategy, req.py_draft_logits)  # [n, vocab]
        p = strategy_probs(strategy, row_logits)  # [1 + k, vocab]
        req.py_target_probs = p
        n = q.shape[0]
        drafts = torch.tensor(req.py_draft_tokens[:n])
        idx = torch.arange(n)
        accept = torch.minimum(torch.ones(()), p[idx, drafts] / q[idx, drafts])
        rejected = (torch.rand(n, generator=self.generator) > accept).nonzero()
        num_accepted = get_draft_token_length(req) if rejected.numel() == 0 else int(rejected[0])
        for i in range(num_accepted):
            req.add_new_token(req.py_draft_tokens[i], 0)
            if req.finish_by_length_or_end():
                return i + 1
        if rejected.numel():
            residual = (p[num_accepted] - q[num_accepted]).clamp_min(0)
            token = int(torch.multinomial(residual, 1, generator=self.generator))
        else:
            token = self._sample(strategy, row_logits[num_accepted:num_accepted + 1])[0]
        req.add_new_token(token, 0)
        req.finish_by_length_or_end()
        return num_accepted



def _MODULES_GREEDY():  # noqa: N802 - looked up at call time, so a test can swap the sampler's semantics
    mod = sys.modules.get("tensorrt_llm._torch.pyexecutor.sampling_utils")
    return mod.greedy_search_sampling_batch if mod is not None else greedy_search_sampling_batch


# -- 1.2.1 tensorrt_llm/_torch/pyexecutor/py_executor_creator.py + _util.py (KvCacheCreator) --------
def create_py_executor(target: torch.nn.Module, spec_config: UserProvidedDecodingConfig, *,
                       estimate_kv_cache: bool = True, **executor_kwargs: Any) -> PyExecutorStandIn:
    """create_py_executor for USER_PROVIDED: the drafter and resource manager are the
    config's own objects (get_spec_drafter / get_spec_resource_manager), kept in
    ``resources`` across both executors. With KV-cache estimation, a first executor runs
    dummy context requests (configure_kv_cache_capacity) and is shut down — which shuts
    down its resource managers — before the real executor is built with the same objects."""
    resources = {}
    if spec_config.resource_manager is not None:
        resources["SPEC_RESOURCE_MANAGER"] = spec_config.resource_manager
    drafter, k = spec_config.drafter, spec_config.max_draft_len

    def build() -> PyExecutorStandIn:
        ex = PyExecutorStandIn(target, drafter, None, max_draft_len=k, **executor_kwargs)
        ex.resource_manager = ResourceManager(resources)
        return ex

    if estimate_kv_cache:
        probe = build()
        probe.is_warmup = True
        for i in range(2):  # _create_dummy_context_requests: one new token each
            probe.add_request(LlmRequest(-(i + 1), [1, 2, 3], 1))
        try:
            probe.run_until_done()
        finally:
            probe.is_warmup = False
            probe.shutdown()
        del probe
    return build()


# -- installing the modules ----------------------------------------------------------------
def build_modules() -> dict[str, types.ModuleType]:
    """``sys.modules`` entries for a fake ``tensorrt_llm`` 1.2.1."""

    def module(name: str, **attrs: Any) -> types.ModuleType:
        mod = types.ModuleType(name)
        mod.__dict__.update(attrs)
        return mod

    mods = {
        "tensorrt_llm": module("tensorrt_llm", __version__=RELEASE, LLM=LLM),
        "tensorrt_llm._torch": module("tensorrt_llm._torch"),
        "tensorrt_llm._torch.speculative": module("tensorrt_llm._torch.speculative"),
        "tensorrt_llm._torch.speculative.drafter": module("tensorrt_llm._torch.speculative.drafter", Drafter=Drafter),
        "tensorrt_llm._torch.pyexecutor": module("tensorrt_llm._torch.pyexecutor"),
        "tensorrt_llm._torch.pyexecutor.resource_manager": module(
            "tensorrt_llm._torch.pyexecutor.resource_manager", BaseResourceManager=BaseResourceManager,
            ResourceManager=ResourceManager),
        "tensorrt_llm._torch.pyexecutor.sampling_utils": module(
            "tensorrt_llm._torch.pyexecutor.sampling_utils", greedy_search_sampling_batch=greedy_search_sampling_batch),
        "tensorrt_llm.llmapi": module("tensorrt_llm.llmapi", UserProvidedDecodingConfig=UserProvidedDecodingConfig,
                                      KvCacheConfig=KvCacheConfig, CudaGraphConfig=CudaGraphConfig, LLM=LLM),
        "tensorrt_llm.llmapi.llm_args": module("tensorrt_llm.llmapi.llm_args",
                                               UserProvidedDecodingConfig=UserProvidedDecodingConfig),
        "tensorrt_llm.llmapi.llm_utils": module("tensorrt_llm.llmapi.llm_utils",
                                                update_llm_args_with_extra_dict=update_llm_args_with_extra_dict),
        "tensorrt_llm.commands": module("tensorrt_llm.commands"),
        "tensorrt_llm.commands.serve": module("tensorrt_llm.commands.serve", get_llm_args=get_llm_args,
                                              launch_server=launch_server),
        "tensorrt_llm.serve": module("tensorrt_llm.serve", OpenAIServer=OpenAIServer),
    }
    for name, mod in mods.items():  # parents expose children as attributes, as real packages do
        parent, _, child = name.rpartition(".")
        if parent in mods:
            setattr(mods[parent], child, mod)
    return mods


# upstream file of each stand-in module, for the contract test
UPSTREAM_FILES = {
    "tensorrt_llm._torch.speculative.drafter": "tensorrt_llm/_torch/speculative/drafter.py",
    "tensorrt_llm._torch.pyexecutor.resource_manager": "tensorrt_llm/_torch/pyexecutor/resource_manager.py",
    "tensorrt_llm._torch.pyexecutor.sampling_utils": "tensorrt_llm/_torch/pyexecutor/sampling_utils.py",
    "tensorrt_llm.llmapi.llm_args": "tensorrt_llm/llmapi/llm_args.py",
    "tensorrt_llm.llmapi.llm_utils": "tensorrt_llm/llmapi/llm_utils.py",
    "tensorrt_llm.commands.serve": "tensorrt_llm/commands/serve.py",
}


@dataclass
class Installed:
    modules: dict[str, types.ModuleType] = field(default_factory=dict)

    @property
    def drafter_base(self) -> type:
        return self.modules["tensorrt_llm._torch.speculative.drafter"].Drafter


def install(monkeypatch, version: str | None = None) -> Installed:
    """Put a fake tensorrt_llm into sys.modules for the duration of one test."""
    mods = build_modules()
    if version is not None:
        mods["tensorrt_llm"].__version__ = version
    for name in [n for n in sys.modules if n == "tensorrt_llm" or n.startswith("tensorrt_llm.")]:
        monkeypatch.delitem(sys.modules, name)
    for name, mod in mods.items():
        monkeypatch.setitem(sys.modules, name, mod)
    LLM.instances.clear()
    OpenAIServer.instances.clear()
    return Installed(mods)
