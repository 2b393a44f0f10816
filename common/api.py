"""The offline API, shaped like vLLM's and SGLang's: ``LLM(...).generate(prompts, params)``."""

from __future__ import annotations

import logging
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import torch

from .backends import EnginePair, EngineSpec, get_backend
from .lanes import canonical_lane
from .schedulers import SCHEDULERS, SchedulerConfig, create_scheduler
from .types import FinishReason, InvalidInputError, RequestState, SamplingParams

logger = logging.getLogger(__name__)

# SchedulerConfig fields a caller may set beyond the named arguments (the rest LLM fills in).
_SHARED_CONFIG = frozenset(f.name for f in fields(SchedulerConfig)) - {"eos_token_ids", "detokenize"}


@dataclass
class RequestOutput:
    request_id: str
    prompt: str | None
    prompt_token_ids: list[int]
    token_ids: list[int]
    text: str | None
    finish_reason: str
    stop_reason: int | str | None = None  # the stop token id or stop string that ended it, as vLLM's
    error: str | None = None
    metrics: dict[str, float] = field(default_factory=dict)


def _is_token_id(value: object) -> bool:
    """An integer (numpy's and 0-d tensors' too), not a bool: ``True`` is no token id."""
    if isinstance(value, bool):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def default_lanes(mode: str, device: str, draft_device: str | None) -> str:
    """Overlapping modes get concurrent lanes; sequential ones run inline."""
    if not SCHEDULERS[mode].overlapping:
        return "inline"
    if draft_device is not None and draft_device != device:
        return "devices"
    return "cuda_streams" if device.startswith("cuda") else "threads"


class LLM:
    """Speculative decoding over any backend's engine pair.

    ``mode`` is a registered scheduler: ``ar`` (target only), ``sd`` (sequential SD),
    ``psd`` (MineDraft batch-parallel SD) and the modes added by other modules. Keyword
    arguments beyond the named ones are the mode's options (its ``options_class``, e.g.
    ``tree_branches=2`` for ``tree``, ``extra_proposals=2`` for ``psd``); one the mode does
    not take is an error.
    """

    def __init__(
        self,
        target: Any,
        draft: Any = None,
        mode: str = "psd",
        *,
        backend: str = "reference",
        num_speculative_tokens: int = 4,
        max_batch_size: int = 16,
        dtype: str = "auto",
        device: str = "cpu",
        draft_device: str | None = None,
        tokenizer: Any = None,
        lanes: str | None = None,
        intra_op_threads: int | None = None,
        allow_pickle: bool = False,
        trust_remote_code: bool = False,
        engines: EnginePair | None = None,
        **mode_options: Any,
    ) -> None:
        if mode not in SCHEDULERS:
            raise InvalidInputError(f"mode must be one of {sorted(SCHEDULERS)}, got {mode!r}")
        if mode != "ar" and draft is None and engines is None:
            raise InvalidInputError(f"mode {mode!r} needs a draft model, got draft=None")
        # Validate the scheduler settings before loading any weights: nothing half-built.
        self.lane_kind = lanes or default_lanes(mode, device, draft_device)
        if lanes is None and self.lane_kind == "cuda_streams" and not torch.cuda.is_available():  # named as given
            raise InvalidInputError(f"device={device!r} needs CUDA, but torch.cuda.is_available() is False")
        if canonical_lane(self.lane_kind) == "devices" and (draft_device is None or draft_device == device):
            raise InvalidInputError(f"lanes='devices' puts the draft on its own device: pass a draft_device other "
                                    f"than device={device!r}, got draft_device={draft_device!r}")
        threads = intra_op_threads if intra_op_threads is not None else (1 if self.lane_kind == "threads" else None)
        self._config_kwargs = dict(
            num_speculative_tokens=num_speculative_tokens, max_batch_size=max_batch_size,
            lanes=self.lane_kind, intra_op_threads=threads,
            **{k: mode_options.pop(k) for k in list(mode_options) if k in _SHARED_CONFIG},
        )
        SchedulerConfig(**self._config_kwargs)
        self.options = SCHEDULERS[mode].options_class.build(mode, mode_options)
        self.mode = mode
        self.engines = engines or get_backend(backend).build(
            EngineSpec(
                target=target, draft=draft if mode != "ar" else None, dtype=dtype, device=device,
                draft_device=draft_device, tokenizer=tokenizer, allow_pickle=allow_pickle,
                trust_remote_code=trust_remote_code, max_batch_size=max_batch_size,
            )
        )
        self.tokenizer = self.engines.tokenizer

    def _config(self) -> SchedulerConfig:
        detok = None
        if self.tokenizer is not None:
            def detok(ids: list[int]) -> str:  # as the output's text is decoded: stop strings match what users see
                return _decode(self.tokenizer, ids)
        return SchedulerConfig(eos_token_ids=self.engines.eos_token_ids, detokenize=detok, **self._config_kwargs)

    def encode(self, prompt: str | Sequence[int], name: str = "prompt", special_tokens: bool = True) -> list[int]:
        """Token ids of a text, or the given ids checked to be integers (a float is refused,
        not truncated). ``name``: the prompt's name in error messages. ``special_tokens``:
        whether the tokenizer adds its special tokens (BOS) to a text; a rendered chat
        template already holds them."""
        if isinstance(prompt, str):
            if self.tokenizer is None:
                raise InvalidInputError(f"{name} is text but the engine has no tokenizer; pass token ids")
            if not special_tokens:
                try:
                    return list(self.tokenizer.encode(prompt, add_special_tokens=False))
                except TypeError:  # a minimal tokenizer without the keyword adds none
                    pass
            return list(self.tokenizer.encode(prompt))
        if not isinstance(prompt, Iterable) or isinstance(prompt, (bytes, bytearray)):
            raise InvalidInputError(f"{name} must be a text or a list of token ids, got {prompt!r}")
        ids = []
        for j, tok in enumerate(prompt):
            if not _is_token_id(tok):
                raise InvalidInputError(f"{name}[{j}] must be an int token id, got {tok!r}")
            ids.append(operator.index(tok))
        return ids

    def chat_prompt(self, conversation: Sequence[Mapping[str, str]], index: int = 0) -> str:
        """One conversation (``[{"role": ..., "content": ...}, ...]``) as the prompt text the
        target's chat template makes of it, the assistant's turn opened. ``index``: its place
        in a batch, for error messages."""
        name = f"messages[{index}]"
        if isinstance(conversation, (str, Mapping)) or not isinstance(conversation, Sequence) or not conversation:
            raise InvalidInputError(f"{name} must be a non-empty list of messages, got {conversation!r}")
        for j, msg in enumerate(conversation):
            if not isinstance(msg, Mapping) or not all(isinstance(msg.get(key), str) for key in ("role", "content")):
                raise InvalidInputError(f"{name}[{j}] must be a dict with str 'role' and 'content', got {msg!r}")
        if self.tokenizer is None or not getattr(self.tokenizer, "chat_template", None):
            raise InvalidInputError("chat needs a target tokenizer with a chat template; this target has none "
                                    "(use generate with prompt text or token ids)")
        return self.tokenizer.apply_chat_template([dict(m) for m in conversation], tokenize=False,
                                                  add_generation_prompt=True)

    def chat(
        self,
        messages: Sequence[Mapping[str, str]] | Sequence[Sequence[Mapping[str, str]]],
        sampling_params: SamplingParams | Sequence[SamplingParams] | None = None,
        *,
        use_tqdm: bool = False,
    ) -> list[RequestOutput]:
        """Like vLLM's ``LLM.chat``: one conversation or a list of them, each through the
        target's chat template (``chat_prompt``), then ``generate``. Every conversation is
        checked before any runs."""
        if isinstance(messages, (str, Mapping)) or not isinstance(messages, Sequence):
            raise InvalidInputError(f"messages must be a conversation (a list of role/content dicts) or a list of "
                                    f"them, got {messages!r}")
        single = bool(messages) and isinstance(messages[0], Mapping)
        conversations = [messages] if single else list(messages)
        if not conversations:
            raise InvalidInputError("messages must hold at least one conversation, got []")
        prompts = [self.chat_prompt(c, i) for i, c in enumerate(conversations)]  # type: ignore[arg-type]
        # The template renders BOS itself where the model wants one: tokenizing its text
        # with special tokens would double it (Llama-3-style tokenizers).
        return self._generate(prompts, sampling_params, use_tqdm, special_tokens=False)

    def generate(
        self,
        prompts: str | Sequence[str] | Sequence[Sequence[int]],
        sampling_params: SamplingParams | Sequence[SamplingParams] | None = None,
        *,
        use_tqdm: bool = False,
    ) -> list[RequestOutput]:
        """Like vLLM's ``LLM.generate``: texts are tokenized with the tokenizer's special
        tokens; outputs come back in the prompts' order."""
        return self._generate(prompts, sampling_params, use_tqdm, special_tokens=True)

    def _generate(self, prompts: Any, sampling_params: Any, use_tqdm: bool, special_tokens: bool) -> list[RequestOutput]:
        if isinstance(prompts, (Mapping, bytes, bytearray)) or not isinstance(prompts, Iterable):
            raise InvalidInputError(f"prompts must be a text, a list of token ids or a list of either, got {prompts!r}")
        prompts = [prompts] if isinstance(prompts, str) else list(prompts)  # type: ignore[list-item]
        if prompts and _is_token_id(prompts[0]):  # one prompt given as token ids
            prompts = [prompts]
        params = sampling_params if sampling_params is not None else SamplingParams()
        if isinstance(params, SamplingParams):
            params_list = [params] * len(prompts)
        elif isinstance(params, Sequence) and all(isinstance(p, SamplingParams) for p in params):
            params_list = list(params)
        else:
            raise InvalidInputError(f"sampling_params must be a SamplingParams or a list of them, got {params!r}")
        if len(params_list) != len(prompts):
            raise InvalidInputError(
                f"sampling_params has {len(params_list)} entries for {len(prompts)} prompts"
            )
        requests = []
        for i, (prompt, p) in enumerate(zip(prompts, params_list)):
            ids = self.encode(prompt, f"prompts[{i}]", special_tokens)
            if not ids:
                raise InvalidInputError(f"prompts[{i}] is empty")
            requests.append(RequestState(prompt_ids=ids, params=p))
        scheduler = create_scheduler(self.mode, self.engines.target, self.engines.drafter, self._config(),
                                     self.options, memory=self.engines.memory)
        interrupted = False
        try:
            # Check every request before admitting any: bad input must not half-run a batch.
            for i, req in enumerate(requests):
                problem = scheduler.request_problem(req)
                if problem is not None:
                    raise InvalidInputError(f"prompts[{i}]: {problem}")
            for req in requests:
                scheduler.add_request(req)
            bar = None
            if use_tqdm:
                from tqdm import tqdm

                bar = tqdm(total=len(requests), desc=f"minedraft {self.mode}", unit="req")
            while scheduler.has_unfinished():
                done = scheduler.step()
                if bar is not None:
                    bar.update(len(done))
            if bar is not None:
                bar.close()
        except KeyboardInterrupt:
            interrupted = True
            raise
        finally:
            scheduler.close()  # first, so that no lane call is still running on a request
            if interrupted:  # Ctrl-C: cancel what is in flight, so the engines free its state
                for req in requests:
                    scheduler.cancel(req.request_id)
        self.last_trace = scheduler.trace
        failed = [r for r in requests if r.finish_reason == FinishReason.ERROR]
        if failed:  # returned, as the rest of the batch is, but never silently
            logger.warning("%d of %d requests failed (finish_reason 'error'), the first: %s",
                           len(failed), len(requests), failed[0].error)
        return [self._output(r, prompt) for r, prompt in zip(requests, prompts)]

    def _output(self, req: RequestState, prompt: Any) -> RequestOutput:
        text = _output_text(self.tokenizer, req) if self.tokenizer is not None else None
        metrics = {
            "num_draft_tokens": float(req.num_draft_tokens),
            "num_accepted_tokens": float(req.num_accepted_tokens),
            "num_verify_steps": float(req.num_verify_steps),
            "latency": (req.finish_time or 0.0) - req.arrival_time,
            "ttft": (req.first_token_time or 0.0) - req.arrival_time,
        }
        return RequestOutput(
            request_id=req.request_id,
            prompt=prompt if isinstance(prompt, str) else None,
            prompt_token_ids=list(req.prompt_ids),
            token_ids=list(req.output_ids),
            text=text,
            finish_reason=(req.finish_reason or FinishReason.ERROR).value,
            stop_reason=req.stop_reason,
            error=req.error,
            metrics=metrics,
        )


def _output_text(tokenizer: Any, req: RequestState) -> str:
    """The output's text as vLLM gives it: without the stop that ended the request (a stop
    string and what follows it in its token, or a stop token id's text) unless
    ``include_stop_str_in_output``."""
    stop, keep = req.stop_reason, req.params.include_stop_str_in_output
    if isinstance(stop, int) and not keep:
        return _decode(tokenizer, req.output_ids[:-1])
    text = _decode(tokenizer, req.output_ids)
    if isinstance(stop, str):  # it ends in the last token: search the text that token added
        start = max(0, len(_decode(tokenizer, req.output_ids[:-1])) - len(stop) - 3)  # slack: partial characters
        at = text.find(stop, start)
        at = text.find(stop) if at < 0 else at
        if at >= 0:
            text = text[:at + (len(stop) if keep else 0)]
    return text


def _decode(tokenizer: Any, ids: list[int]) -> str:
    try:
        return tokenizer.decode(ids, skip_special_tokens=True)
    except TypeError:  # a minimal tokenizer without the keyword
        return tokenizer.decode(ids)
