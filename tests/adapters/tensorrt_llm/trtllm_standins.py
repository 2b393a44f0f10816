"""Stand-ins for the TensorRT-LLM interfaces the minedraft adapter touches.

tensorrt-llm cannot be installed on the CPU test machines (no wheel on PyPI, no cp311
build), so these classes reproduce, field for field, what the adapter reads and writes
and what the executor does around it. They were written from the upstream source
(NVIDIA/TensorRT-LLM, read through the code index), not copied; each names the upstream
file it follows. Two interface generations are modelled:

- "1.0": the 1.0-era ``Drafter`` (``__init__(max_concurrency=None)``, padding to
  ``self.max_draft_len``), ``LlmRequest`` without ``py_draft_use_greedy_sampling``,
  ``update_llm_args_with_extra_dict`` in ``tensorrt_llm/llmapi/llm_utils.py``.
- "1.2": the 1.2-era ``Drafter`` (``__init__(max_draft_len, max_total_draft_tokens,
  max_concurrency, draft_len_schedule)``, padding to ``_static_max_total_draft_tokens``,
  ``draft_len_schedule`` consulted by the executor), ``LlmRequest`` with
  ``py_draft_use_greedy_sampling`` and ``py_disable_speculative_decoding``,
  ``update_llm_args_with_extra_dict`` in ``tensorrt_llm/llmapi/llm_args.py``.

The mapping of interface generation to release number follows
/work/shared/reference/tensorrt-llm-integration.md (section 3); it was not checked against
release tags, because the code index holds file versions without tags.
"""

from __future__ import annotations

import enum
import sys
import types
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import torch

VERSIONS = {"1.0": "1.0.0", "1.2": "1.2.1"}


# -- tensorrt_llm/bindings (LlmRequestState) ---------------------------------------------
class LlmRequestState(enum.Enum):
    """The states of the C++ LlmRequestState the executor loop uses, in upstream's order
    (the capacity scheduler compares them); the adapter itself never reads them."""

    CONTEXT_INIT = 1
    GENERATION_IN_PROGRESS = 2
    GENERATION_COMPLETE = 3


# -- tensorrt_llm/bindings SamplingConfig: every field None or one value per beam -----------
@dataclass
class SamplingConfig:
    temperature: list[float] | None = None
    top_k: list[int] | None = None
    top_p: list[float] | None = None
    random_seed: list[int] | None = None
    beam_width: int = 1


# -- tensorrt_llm/_torch/pyexecutor/llm_request.py (LlmRequest.__init__ py_* fields) --------
class LlmRequest:
    """The Python fields of LlmRequest plus the binding methods the executor and the
    drafter call (get_tokens, get_num_tokens, add_new_token, state, prompt_len)."""

    def __init__(self, request_id: int, input_tokens: list[int], max_new_tokens: int,
                 sampling_config: SamplingConfig | None = None, end_id: int | None = None,
                 generation: str = "1.2") -> None:
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
        if generation == "1.2":
            self.py_draft_use_greedy_sampling = False
            self.py_disable_speculative_decoding = False

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


# -- tensorrt_llm/_torch/pyexecutor/scheduler.py ------------------------------------------
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


# -- tensorrt_llm/_torch/speculative/drafter.py, 1.0-era ------------------------------------
class DrafterV10(ABC):
    """1.0-era Drafter: only max_concurrency in the constructor; the executor pads drafts to
    ``self.max_draft_len``, which a user drafter must set itself."""

    def __init__(self, max_concurrency: int | None = None) -> None:
        self.max_concurrency = max_concurrency

    @abstractmethod
    def prepare_draft_tokens(self, scheduled_requests: ScheduledRequests, resource_manager: Any = None) -> None:
        raise NotImplementedError

    def should_use_spec_decode(self, requests, max_batch_size, max_num_tokens, max_total_draft_tokens) -> bool:
        if self.max_concurrency is None:
            return True
        tokens_per_request = 1 + max_total_draft_tokens
        effective = min(len(requests), max_batch_size, max_num_tokens // tokens_per_request)
        return 0 < effective <= self.max_concurrency

    def pad_draft_tokens_for_cuda_graph(self, scheduled_requests: ScheduledRequests) -> None:
        for req in scheduled_requests.generation_requests:
            req.py_draft_tokens.extend(0 for _ in range(self.max_draft_len - get_draft_token_length(req)))

    def run_drafter_post(self, scheduled_requests, resource_manager=None, is_warmup: bool = False) -> None:  # noqa: B027 - a no-op hook upstream too
        pass


# -- tensorrt_llm/_torch/speculative/drafter.py, 1.2-era ------------------------------------
class DrafterV12(ABC):
    """1.2-era Drafter: draft lengths in the constructor, padding to the static maximum,
    draft_len_schedule hooks and no-op overlap hooks."""

    def __init__(self, max_draft_len: int | None = None, max_total_draft_tokens: int | None = None,
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
        tokens_per_request = 1 + max_total_draft_tokens
        effective = min(len(requests), max_batch_size, max_num_tokens // tokens_per_request)
        return 0 < effective <= self.max_concurrency

    def pad_draft_tokens_for_cuda_graph(self, scheduled_requests: ScheduledRequests) -> None:
        for req in scheduled_requests.generation_requests:
            pad = self._static_max_total_draft_tokens - get_draft_token_length(req)
            req.py_draft_tokens.extend(0 for _ in range(pad))

    def get_draft_len_for_batch_size(self, batch_size: int) -> int:
        thresholds = sorted(self.draft_len_schedule)
        chosen = [t for t in thresholds if t <= batch_size]
        return self.draft_len_schedule[chosen[-1]] if chosen else 0

    def update_max_total_draft_tokens(self, new_max_total_draft_tokens: int) -> None:
        self.max_total_draft_tokens = new_max_total_draft_tokens
        self.max_draft_len = new_max_total_draft_tokens

    def run_drafter_post(self, scheduled_requests, resource_manager=None, is_warmup: bool = False) -> None:  # noqa: B027 - a no-op hook upstream too
        pass

    def cleanup_previous_draft_resources(self) -> None:  # noqa: B027 - a no-op hook upstream too
        pass

    def should_forward_draft_model(self, scheduled_batch) -> bool:
        return True

    def generate_draft_tokens_with_overlap(self, *args, **kwargs) -> None:  # noqa: B027 - a no-op hook upstream too
        pass


# -- tensorrt_llm/_torch/pyexecutor/resource_manager.py -------------------------------------
class BaseResourceManager(ABC):
    @abstractmethod
    def get_max_resource_count(self) -> int:
        raise NotImplementedError

    @abstractmethod
    def get_needed_resource_to_completion(self, request: LlmRequest) -> int:
        raise NotImplementedError

    def add_dummy_requests(self, request_ids: list[int]) -> None:  # noqa: B027 - a no-op hook upstream too
        pass

    def prepare_resources(self, scheduled_batch: ScheduledRequests) -> None:  # noqa: B027 - a no-op hook upstream too
        pass

    def update_resources(self, scheduled_batch: ScheduledRequests) -> None:  # noqa: B027 - a no-op hook upstream too
        pass

    def free_resources(self, request: LlmRequest) -> None:  # noqa: B027 - a no-op hook upstream too
        pass

    def shutdown(self) -> None:  # noqa: B027 - a no-op hook upstream too
        pass


class ResourceManager:
    """The executor's container; the user's resource manager is registered under
    SPEC_RESOURCE_MANAGER (speculative/utils.py get_spec_resource_manager, USER_PROVIDED)."""

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

    def shutdown(self) -> None:
        for manager in self.resource_managers.values():
            manager.shutdown()


# -- tensorrt_llm/llmapi/llm_args.py (UserProvidedDecodingConfig, KvCacheConfig) ------------
class UserProvidedDecodingConfig:
    """decoding_type "User_Provided": drafter must be a Drafter, resource_manager optional;
    a validator makes max_total_draft_tokens equal to max_draft_len (linear drafts only)."""

    decoding_type = "User_Provided"

    def __init__(self, *, max_draft_len: int, drafter: Any, resource_manager: Any = None, drafter_base: type) -> None:
        if not isinstance(drafter, drafter_base):
            raise TypeError("drafter must be a Drafter")
        if resource_manager is not None and not isinstance(resource_manager, BaseResourceManager):
            raise TypeError("resource_manager must be a BaseResourceManager")
        self.max_draft_len = max_draft_len
        self.max_total_draft_tokens = max_draft_len
        self.drafter = drafter
        self.resource_manager = resource_manager


@dataclass
class KvCacheConfig:
    free_gpu_memory_fraction: float | None = None
    enable_block_reuse: bool = True


def update_llm_args_with_extra_dict(llm_args: dict, llm_args_dict: dict, extra_llm_api_options: str | None = None):
    """llm_utils.py / llm_args.py: nested YAML dicts become config objects, then merge."""
    converted = dict(llm_args_dict)
    if isinstance(converted.get("kv_cache_config"), dict):
        converted["kv_cache_config"] = KvCacheConfig(**converted["kv_cache_config"])
    return {**llm_args, **converted}


# -- tensorrt_llm/__init__.py LLM and tensorrt_llm/serve OpenAIServer (records only) ---------
class LLM:
    instances: list[LLM] = []

    def __init__(self, model: str, **kwargs: Any) -> None:
        self.model, self.kwargs, self.shut_down = model, kwargs, False
        LLM.instances.append(self)

    def shutdown(self) -> None:
        self.shut_down = True


class OpenAIServer:
    instances: list[OpenAIServer] = []

    def __init__(self, llm, model: str, tool_parser=None, server_role=None, metadata_server_cfg=None) -> None:
        self.llm, self.model, self.served = llm, model, None
        OpenAIServer.instances.append(self)

    async def __call__(self, host: str, port: int, sockets=None) -> None:
        self.served = (host, port)


# -- tensorrt_llm/_torch/pyexecutor/sampling_utils.py (strategies, sample, rejection) -------
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
        return torch.softmax(logits.float(), -1)
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


# -- tensorrt_llm/_torch/pyexecutor/py_executor.py (non-overlap _executor_loop) + sampler.py --
class PyExecutorStandIn:
    """One iteration = PyExecutor._executor_loop without the overlap scheduler (which
    TensorRT-LLM disables for USER_PROVIDED): stamp draft placeholders on generation
    requests, schedule at most ``max_batch_size`` requests in arrival order, prepare
    resources, ``prepare_draft_tokens`` then ``pad_draft_tokens_for_cuda_graph``, target
    forward over [last token, drafts], TorchSampler acceptance, ``run_drafter_post``,
    ``free_resources`` for finished requests."""

    def __init__(self, target: torch.nn.Module, drafter: Any, spec_resource_manager: Any, *, max_draft_len: int,
                 max_batch_size: int = 8, max_num_tokens: int = 8192, generation: str = "1.2", seed: int = 0,
                 on_drafts=None, pause=None) -> None:
        self.target, self.drafter, self.generation = target, drafter, generation
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
        if self.generation == "1.2":
            if self.drafter.draft_len_schedule is not None:
                self.max_total_draft_tokens = self.drafter.get_draft_len_for_batch_size(len(self.active))
                self.drafter.update_max_total_draft_tokens(self.max_total_draft_tokens)
            self.use_spec_decode = self.drafter.should_use_spec_decode(
                self.active, self.max_batch_size, self.max_num_tokens, self.max_total_draft_tokens)
        for req in self.active:
            if req.state != LlmRequestState.GENERATION_IN_PROGRESS:
                continue
            req.py_last_draft_tokens = req.py_draft_tokens
            disabled = getattr(req, "py_disable_speculative_decoding", False)
            if self.max_total_draft_tokens > 0 and self.use_spec_decode and not disabled:
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
        self._prepare_draft_requests()
        batch = self._schedule()
        self.resource_manager.prepare_resources(batch)
        if self.use_spec_decode:
            self.drafter.prepare_draft_tokens(batch, self.resource_manager)
            if self.on_drafts is not None:
                self.on_drafts(self, batch)
            self.drafter.pad_draft_tokens_for_cuda_graph(batch)
        logits = self._forward(batch)
        self.drafter.run_drafter_post(batch, self.resource_manager, False)
        self._update_requests(batch, logits)
        self.resource_manager.update_resources(batch)
        for req in [r for r in self.active if r.state == LlmRequestState.GENERATION_COMPLETE]:
            self.active.remove(req)
            self.finished.append(req)
            self.resource_manager.free_resources(req)
        self.iteration += 1
        return batch

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


# -- installing the modules ------------------------------------------------------------------
def build_modules(generation: str) -> dict[str, types.ModuleType]:
    """``sys.modules`` entries for a fake ``tensorrt_llm`` of one interface generation."""
    drafter_base = DrafterV10 if generation == "1.0" else DrafterV12

    def module(name: str, **attrs: Any) -> types.ModuleType:
        mod = types.ModuleType(name)
        mod.__dict__.update(attrs)
        return mod

    class BoundUserProvidedDecodingConfig(UserProvidedDecodingConfig):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(drafter_base=drafter_base, **kwargs)

    mods = {
        "tensorrt_llm": module("tensorrt_llm", __version__=VERSIONS[generation], LLM=LLM),
        "tensorrt_llm._torch": module("tensorrt_llm._torch"),
        "tensorrt_llm._torch.speculative": module("tensorrt_llm._torch.speculative"),
        "tensorrt_llm._torch.speculative.drafter": module("tensorrt_llm._torch.speculative.drafter",
                                                          Drafter=drafter_base),
        "tensorrt_llm._torch.pyexecutor": module("tensorrt_llm._torch.pyexecutor"),
        "tensorrt_llm._torch.pyexecutor.resource_manager": module(
            "tensorrt_llm._torch.pyexecutor.resource_manager", BaseResourceManager=BaseResourceManager,
            ResourceManager=ResourceManager),
        "tensorrt_llm.llmapi": module("tensorrt_llm.llmapi", UserProvidedDecodingConfig=BoundUserProvidedDecodingConfig,
                                      KvCacheConfig=KvCacheConfig, LLM=LLM),
        "tensorrt_llm.serve": module("tensorrt_llm.serve", OpenAIServer=OpenAIServer),
    }
    where = "tensorrt_llm.llmapi.llm_utils" if generation == "1.0" else "tensorrt_llm.llmapi.llm_args"
    mods[where] = module(where, update_llm_args_with_extra_dict=update_llm_args_with_extra_dict)
    for name, mod in mods.items():  # parents expose children as attributes, as real packages do
        parent, _, child = name.rpartition(".")
        if parent in mods:
            setattr(mods[parent], child, mod)
    return mods


@dataclass
class Installed:
    generation: str
    drafter_base: type
    modules: dict[str, types.ModuleType] = field(default_factory=dict)


def install(monkeypatch, generation: str, version: str | None = None) -> Installed:
    """Put a fake tensorrt_llm into sys.modules for the duration of one test."""
    mods = build_modules(generation)
    if version is not None:
        mods["tensorrt_llm"].__version__ = version
    for name in [n for n in sys.modules if n == "tensorrt_llm" or n.startswith("tensorrt_llm.")]:
        monkeypatch.delitem(sys.modules, name)
    for name, mod in mods.items():
        monkeypatch.setitem(sys.modules, name, mod)
    LLM.instances.clear()
    OpenAIServer.instances.clear()
    base = mods["tensorrt_llm._torch.speculative.drafter"].Drafter
    return Installed(generation, base, mods)
