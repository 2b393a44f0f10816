"""PSD as a TensorRT-LLM user-provided drafter.

TensorRT-LLM's PyExecutor (PyTorch backend) calls ``drafter.prepare_draft_tokens(batch)``
once per iteration, right before the target forward. This drafter translates the
scheduled ``LlmRequest`` objects into ``minedraft.draft_pipeline`` snapshots, attaches the
drafts the pipeline has ready (``py_draft_tokens``, plus ``py_draft_logits`` where the
installed sampler verifiably recovers q from them), and lets the pipeline draft the other
sub-batch on its own lane (thread, CUDA stream or second GPU) while the target runs. Accepted counts
come back through ``py_num_accepted_draft_tokens`` and the committed tokens.

The draft model is any ``minedraft.protocols.Drafter`` — in practice the reference
engine's, built through the backend registry (``minedraft.adapters.tensorrt_llm.recipe.BackendDrafter``),
so this adapter never imports another adapter.

The class is created at run time as a subclass of the installed
``tensorrt_llm._torch.speculative.drafter.Drafter`` (TensorRT-LLM 1.2.1, see compat):
``create_drafter`` / ``drafter_class`` import tensorrt_llm lazily and check its version.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Callable
from typing import Any

import torch

from minedraft.draft_pipeline import ON_MISS, DraftPipeline, Proposal, Snapshot
from minedraft.lanes import canonical_lane
from minedraft.protocols import Drafter as CoreDrafter
from minedraft.types import InvalidInputError, SamplingParams

from . import compat

logger = logging.getLogger(__name__)
_CLASSES: dict[type, type] = {}
_RM_CLASSES: dict[type, type] = {}


def _unwrap(value: Any) -> Any:
    """SamplingConfig fields are None or one-element lists (one entry per beam)."""
    if isinstance(value, (list, tuple)):
        return value[0] if value else None
    return value


def trt_sampling(req: Any) -> tuple[bool, float, int, float, int | None]:
    """(greedy, temperature, top_k, top_p, seed) as TensorRT-LLM's TorchSampler reads them
    (``_request_get_sampling_params`` / ``resolve_sampling_strategy`` in sampler.py and
    sampling_utils.py): greedy when nothing is set, or top_k == 1, top_p == 0 or
    temperature == 0; otherwise unset values default to T=1, top_p=1, top_k off."""
    cfg = req.sampling_config
    temperature, top_k, top_p = (_unwrap(getattr(cfg, f, None)) for f in ("temperature", "top_k", "top_p"))
    seed = _unwrap(getattr(cfg, "random_seed", None))
    greedy = (temperature is None and top_k is None and top_p is None) or top_k == 1 or top_p == 0 or temperature == 0
    return greedy, float(temperature or 1.0), int(top_k or 0), float(top_p or 1.0), None if seed is None else int(seed)


def _params(req: Any) -> SamplingParams:
    greedy, temperature, top_k, top_p, seed = trt_sampling(req)
    if seed is None:
        # Every tensor-parallel rank runs its own drafter and must draft the same tokens:
        # a per-request seed keeps their draft RNG streams identical.
        rid = _request_id(req)
        seed = (int(rid) if rid.isdigit() else zlib.crc32(rid.encode())) % (1 << 62)
    if greedy:
        return SamplingParams(temperature=0.0, seed=seed)
    return SamplingParams(temperature=temperature, top_k=max(top_k, 0), top_p=min(top_p, 1.0), seed=seed)


def _request_id(req: Any) -> str:
    rid = getattr(req, "py_request_id", None)
    return str(req.request_id if rid is None else rid)


def _is_dummy(req: Any) -> bool:
    """Warm-up, CUDA-graph and attention-DP padding requests: left to the executor."""
    return any(bool(getattr(req, f, False)) for f in ("is_dummy", "is_dummy_request", "is_cuda_graph_dummy",
                                                      "is_attention_dp_dummy"))


class _PSDDrafterMethods:
    """The methods of ``MineDraftTRTDrafter``; ``drafter_class`` mixes them into the
    installed TensorRT-LLM ``Drafter`` base."""

    _trt_base: type

    def __init__(
        self,
        drafter: CoreDrafter | None = None,
        *,
        num_speculative_tokens: int = 4,
        drafter_factory: Callable[[], CoreDrafter] | None = None,
        lane: str | None = None,
        device: str | None = None,
        on_miss: str = "serial",
        logits_device: str | None = None,
        vocab_size: int | None = None,
        timeout: float = 600.0,
        gc_iterations: int = 256,
    ) -> None:
        lane = _validate(drafter, drafter_factory, num_speculative_tokens, lane, on_miss, vocab_size, gc_iterations)
        compat.init_drafter_base(self._trt_base, self, num_speculative_tokens)
        # Rejection-sampling logits only where the sampler's q semantics verify (compat).
        self._pass_logits = compat.draft_q_is_softmax()
        self._core, self._factory = drafter, drafter_factory
        self._built: CoreDrafter | None = None  # from the factory, in the executor's process
        self._options = dict(lane=lane, device=device, on_miss=on_miss, logits_device=logits_device,
                             vocab_size=vocab_size, timeout=timeout, gc_iterations=gc_iterations)
        self._k = num_speculative_tokens
        self._pipeline: DraftPipeline | None = None
        self._closed_stats: list[dict[str, float]] = []  # pipelines closed by executor shutdowns
        self._iteration = 0
        self._last_seen: dict[str, int] = {}

    # -- the executor's hook -------------------------------------------------------------
    def prepare_draft_tokens(self, scheduled_requests: Any, resource_manager: Any = None) -> None:
        """Attach ready drafts to the generation requests, draft ahead for the others.
        Context requests are never given drafts."""
        pipeline = self._ensure_pipeline()
        self._iteration += 1
        generation = [r for r in scheduled_requests.generation_requests if not _is_dummy(r)]
        snaps = [self._snapshot(r) for r in generation]
        accepted = {s.request_id: int(getattr(r, "py_num_accepted_draft_tokens", 0) or 0)
                    for s, r in zip(snaps, generation)}
        context = [self._snapshot(r, context=True) for r in scheduled_requests.context_requests
                   if not _is_dummy(r) and getattr(r, "is_last_context_chunk", True)]
        for snap in (*snaps, *context):
            self._last_seen[snap.request_id] = self._iteration
        proposals = pipeline.step(snaps, context, accepted)
        for req, snap in zip(generation, snaps):
            proposal = proposals.get(snap.request_id)
            req.py_draft_tokens = [] if proposal is None else list(proposal.tokens)
            logits = None if proposal is None else self._draft_logits(req, proposal)
            if hasattr(req, "py_draft_logits"):
                req.py_draft_logits = logits  # never leave last iteration's q behind
            if hasattr(req, "py_draft_use_greedy_sampling"):
                req.py_draft_use_greedy_sampling = logits is not None
        self._collect_garbage()

    # -- requests leaving ----------------------------------------------------------------
    def release_request(self, request: Any) -> None:
        """A request finished or was cancelled (called by the resource manager)."""
        rid = _request_id(request)
        self._last_seen.pop(rid, None)
        if self._pipeline is not None:
            self._pipeline.release(rid)

    def make_resource_manager(self) -> Any:
        """A ``BaseResourceManager`` to pass as ``UserProvidedDecodingConfig.resource_manager``:
        the executor calls its ``free_resources`` when a request ends."""
        return resource_manager_class()(self)

    def shutdown(self) -> None:
        """Close the drafting pipeline (its lane and per-request draft state).

        TensorRT-LLM calls this through the resource manager whenever an executor shuts
        down — also the throwaway executor of its KV-cache estimation, after which the
        same drafter object serves the real executor. So the drafter stays usable: the
        next ``prepare_draft_tokens`` opens a fresh pipeline around the same draft model."""
        pipeline, self._pipeline = self._pipeline, None
        self._last_seen.clear()
        if pipeline is not None:
            pipeline.close()
            self._closed_stats.append(pipeline.stats())
            # The executor may run in a worker process: log what the benchmark needs.
            logger.info("minedraft PSD drafter stats: %s", self._closed_stats[-1])

    def stats(self) -> dict[str, float]:
        """The open pipeline's counters (``hit_rate``, ``acceptance_rate``, seconds spent),
        or the last closed one's."""
        if self._pipeline is not None:
            return self._pipeline.stats()
        return dict(self._closed_stats[-1]) if self._closed_stats else {}

    @property
    def core_drafter(self) -> CoreDrafter | None:
        """The minedraft Drafter in use (None until a factory has built it)."""
        return self._core if self._core is not None else self._built

    # -- pickling: LLM may send its arguments to executor worker processes ----------------
    def __reduce__(self):
        state = dict(self._options, drafter=self._core, drafter_factory=self._factory,
                     num_speculative_tokens=self._k)
        return _rebuild_drafter, (state,)

    # -- pieces ----------------------------------------------------------------------------
    def _ensure_pipeline(self) -> DraftPipeline:
        if self._pipeline is None:
            # The model built for the KV-cache estimation executor serves the real one too:
            # built again, two copies would be resident while the second loads.
            core = self._core if self._core is not None else self._built or self._factory()  # type: ignore[misc]
            if not isinstance(core, CoreDrafter):
                raise InvalidInputError(f"drafter_factory must return a minedraft Drafter, got {type(core).__name__}")
            vocab = self._options["vocab_size"]
            if vocab is not None and core.vocab_size > vocab:
                raise InvalidInputError(f"draft vocab_size ({core.vocab_size}) exceeds vocab_size ({vocab})")
            self._built = core  # not pickled: a copy rebuilds from the recipe
            lane = self._options["lane"] or ("cuda_streams" if torch.cuda.is_available() else "threads")
            self._pipeline = DraftPipeline(core, self._k, lane=lane, device=self._options["device"],
                                           on_miss=self._options["on_miss"], timeout=self._options["timeout"])
        return self._pipeline

    def _snapshot(self, req: Any, context: bool = False) -> Snapshot:
        tokens = tuple(int(t) for t in req.get_tokens(0))
        prompt_len = getattr(req, "py_prompt_len", None)
        prompt_len = req.prompt_len if prompt_len is None else prompt_len
        max_new = getattr(req, "py_max_new_tokens", None)
        max_new = req.max_new_tokens if max_new is None else max_new
        remaining = int(max_new) - (len(tokens) - int(prompt_len))
        # What the executor reserved KV for: it stamps py_draft_tokens with placeholders.
        reserved = 0 if context else len(req.py_draft_tokens or ())
        limit = max(0, min(self._k, reserved, remaining - 1))
        return Snapshot(_request_id(req), tokens, _params(req), limit, remaining)

    def _draft_logits(self, req: Any, proposal: Proposal) -> torch.Tensor | None:
        """Logits from which TorchSampler's rejection sampling recovers exactly our q.

        With ``py_draft_use_greedy_sampling`` set, the sampler takes q = softmax(logits), so
        ``log q`` is passed. None (TorchSampler then accepts a draft iff it equals the
        target's own sample, which is lossless for any draft) when: the request is greedy;
        fewer drafts than the padding length (rejection sampling would count the padding
        as accepted when every real draft passes); or the installed sampler failed the
        probe of that softmax (``compat.draft_q_is_softmax``)."""
        if not self._pass_logits or proposal.probs is None or len(proposal.tokens) != self._k:
            return None
        if trt_sampling(req)[0] or not hasattr(req, "py_draft_use_greedy_sampling"):
            return None
        probs = proposal.probs
        if probs.is_cuda:  # made on the draft lane's stream, consumed on the executor's
            probs.record_stream(torch.cuda.current_stream(probs.device))
        q = probs.float()  # [n, vocab]
        vocab = self._options["vocab_size"]
        if vocab is not None and q.shape[-1] < vocab:  # the target's (padded) vocabulary
            q = torch.nn.functional.pad(q, (0, vocab - q.shape[-1]))
        out = torch.log(q)  # -inf where q is 0
        device = self._options["logits_device"]
        if device is None:
            device = "cuda" if torch.cuda.is_available() else out.device
        return out.to(device)

    def _collect_garbage(self) -> None:
        """Without the resource manager nobody reports finished requests: forget those not
        scheduled for ``gc_iterations`` iterations (a paused one just recomputes later)."""
        horizon = self._iteration - self._options["gc_iterations"]
        stale = [rid for rid, seen in self._last_seen.items() if seen < horizon]
        for rid in stale:
            del self._last_seen[rid]
            if self._pipeline is not None:
                self._pipeline.release(rid)


def _validate(drafter, factory, k, lane, on_miss, vocab_size, gc_iterations) -> str | None:
    """Checks the arguments; returns the canonical lane name (or None)."""
    if (drafter is None) == (factory is None):
        raise InvalidInputError("pass exactly one of drafter (a minedraft Drafter) or drafter_factory")
    if drafter is not None and not isinstance(drafter, CoreDrafter):
        raise InvalidInputError(f"drafter must be a minedraft Drafter, got {type(drafter).__name__}")
    if factory is not None and not callable(factory):
        raise InvalidInputError(f"drafter_factory must be callable, got {type(factory).__name__}")
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise InvalidInputError(f"num_speculative_tokens must be an int >= 1, got {k!r}")
    if lane is not None:
        try:
            lane = canonical_lane(lane, "lane")
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from exc
    if on_miss not in ON_MISS:
        raise InvalidInputError(f"on_miss must be one of {ON_MISS}, got {on_miss!r}")
    if vocab_size is not None and (not isinstance(vocab_size, int) or vocab_size < 1):
        raise InvalidInputError(f"vocab_size must be an int >= 1 or None, got {vocab_size!r}")
    if not isinstance(gc_iterations, int) or gc_iterations < 1:
        raise InvalidInputError(f"gc_iterations must be an int >= 1, got {gc_iterations!r}")
    return lane


def drafter_class() -> type:
    """``MineDraftTRTDrafter``: the installed ``Drafter`` ABC with the PSD methods."""
    base = compat.drafter_base()
    cls = _CLASSES.get(base)
    if cls is None:
        compat.check_drafter_constructor(base)  # fail before building a class for an unknown base
        cls = type("MineDraftTRTDrafter", (_PSDDrafterMethods, base),
                   {"__module__": __name__, "__qualname__": "MineDraftTRTDrafter", "_trt_base": base})
        _CLASSES[base] = cls
    return cls


class _ReleaseOnFinish:
    """Methods of the resource manager that tells the drafter when requests end. It owns
    no executor resources, so it never gates the scheduler (counts 0, as upstream's own
    non-owning managers do)."""

    def __init__(self, drafter: Any) -> None:
        self.drafter = drafter

    def get_max_resource_count(self) -> int:
        return 0

    def get_needed_resource_to_completion(self, request: Any) -> int:
        return 0

    def free_resources(self, request: Any) -> None:
        self.drafter.release_request(request)

    def shutdown(self) -> None:
        self.drafter.shutdown()

    def __reduce__(self):
        return _rebuild_resource_manager, (self.drafter,)


def resource_manager_class() -> type:
    base = compat.resource_manager_base()
    cls = _RM_CLASSES.get(base)
    if cls is None:
        cls = type("MineDraftResourceManager", (_ReleaseOnFinish, base),
                   {"__module__": __name__, "__qualname__": "MineDraftResourceManager"})
        _RM_CLASSES[base] = cls
    return cls


def create_drafter(drafter: CoreDrafter | None = None, **kwargs: Any) -> Any:
    """A ``MineDraftTRTDrafter`` around a minedraft Drafter (or a picklable factory of one).

    Keyword arguments: ``num_speculative_tokens`` (k, the executor's max_draft_len),
    ``drafter_factory``, ``lane`` ('cuda_streams', 'devices', 'threads', 'inline', or an alias
    accepted by ``minedraft.lanes.canonical_lane``; default: cuda_streams when CUDA is available), ``device`` (the draft device, for its stream), ``on_miss``
    ('serial' or 'skip'), ``logits_device`` (where py_draft_logits go; default: CUDA when
    available), ``vocab_size`` (the target's padded vocabulary, if larger than the
    draft's), ``timeout`` (seconds), ``gc_iterations``.
    """
    return drafter_class()(drafter, **kwargs)


def _rebuild_drafter(state: dict[str, Any]) -> Any:
    state = dict(state)
    return create_drafter(state.pop("drafter"), **state)


def _rebuild_resource_manager(drafter: Any) -> Any:
    return resource_manager_class()(drafter)


def speculative_config(
    drafter: CoreDrafter | None = None,
    *,
    draft_model: Any = None,
    num_speculative_tokens: int = 4,
    draft_backend: str = "reference",
    draft_dtype: str = "auto",
    draft_device: str | None = None,
    draft_tokenizer: Any = None,
    allow_pickle: bool = False,
    trust_remote_code: bool = False,
    **options: Any,
) -> Any:
    """``UserProvidedDecodingConfig`` for ``tensorrt_llm.LLM(speculative_config=...)``.

    Give either a built minedraft ``drafter`` or a ``draft_model`` source; the latter is
    built lazily, inside the executor process, through the ``draft_backend`` registered
    under ``minedraft.backends`` (default: the reference engine). ``options`` go to
    ``create_drafter``. Pass ``disable_overlap_scheduler=True`` to ``LLM`` as well (or use
    ``llm_kwargs``): TensorRT-LLM forces it off for user-provided drafters anyway.
    """
    from .recipe import BackendDrafter

    if (drafter is None) == (draft_model is None):
        raise InvalidInputError("pass exactly one of drafter (a minedraft Drafter) or draft_model (a model source)")
    device = draft_device or ("cuda" if torch.cuda.is_available() else "cpu")
    if draft_model is not None:
        options["drafter_factory"] = BackendDrafter(
            model=draft_model, backend=draft_backend, dtype=draft_dtype, device=device, tokenizer=draft_tokenizer,
            allow_pickle=allow_pickle, trust_remote_code=trust_remote_code,
        )
    options.setdefault("device", device)
    trt_drafter = create_drafter(drafter, num_speculative_tokens=num_speculative_tokens, **options)
    from tensorrt_llm.llmapi import UserProvidedDecodingConfig

    return UserProvidedDecodingConfig(max_draft_len=num_speculative_tokens, drafter=trt_drafter,
                                      resource_manager=trt_drafter.make_resource_manager())


def llm_kwargs(**kwargs: Any) -> dict[str, Any]:
    """``LLM(model, **llm_kwargs(draft_model=..., num_speculative_tokens=4))``: the
    speculative config plus the executor setting user-provided drafters require."""
    return {"speculative_config": speculative_config(**kwargs), "disable_overlap_scheduler": True}

