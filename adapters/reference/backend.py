"""The reference backend: builds a ReferenceTarget/ReferenceDrafter pair from model sources."""

from __future__ import annotations

from typing import Any

import torch

from minedraft.backends import EnginePair, EngineSpec
from minedraft.types import InvalidInputError
from minedraft.validation import require_bool

from . import draft_models, embedded
from .cpu_kernels import use_few_rows_products
from .engines import EagleDrafter, FeatureStore
from .loading import check_same_vocabulary, check_source, load_causal_lm, load_tokenizer, resolve_dtype
from .particles import ParticleDrafter, ParticleTarget
from .runner import ModelRunner
from .tree_engine import EagleTreeDrafterMixin, TreeDrafterMixin, TreeTargetMixin


# The engines this backend builds: each capability is a mixin (trees: tree_engine; forking
# for SMC: particles) over the plain engine, composed here.
class TreeParticleTarget(TreeTargetMixin, ParticleTarget):
    """The reference target with ``score_tree`` and particle forking."""


class TreeParticleDrafter(TreeDrafterMixin, ParticleDrafter):
    """The reference drafter with ``propose_tree`` (D²SD) and particle forking."""


class TreeEagleDrafter(EagleTreeDrafterMixin, EagleDrafter):
    """The EAGLE drafter with ``propose_tree``."""


def _eos_ids(model: Any, tokenizer: Any) -> tuple[int, ...]:
    ids: set[int] = set()
    for source in (getattr(model, "generation_config", None), model.config, tokenizer):
        value = getattr(source, "eos_token_id", None) if source is not None else None
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, (list, tuple)):
            ids.update(int(v) for v in value)
    return tuple(sorted(ids))


def check_device(field_name: str, device: Any) -> None:
    """``device`` is 'cpu' or 'cuda[:N]' and this machine has it: refused before any weights
    load, not by a CUDA assertion after them."""
    if not isinstance(device, str) or not (device == "cpu" or device == "cuda" or device.startswith("cuda:")):
        raise InvalidInputError(f"{field_name} must be 'cpu' or 'cuda[:N]', got {device!r}")
    if device == "cpu":
        return
    if not torch.cuda.is_available():
        raise InvalidInputError(f"{field_name}={device!r} needs CUDA, but torch.cuda.is_available() is False")
    index = device.partition(":")[2]
    if index and (not index.isdigit() or int(index) >= torch.cuda.device_count()):
        raise InvalidInputError(f"{field_name}={device!r}: this machine has {torch.cuda.device_count()} CUDA "
                                f"device(s), cuda:0 to cuda:{torch.cuda.device_count() - 1}")


def _load_minedraft_draft(source: Any, target_model: Any, dtype: Any, device: str) -> Any:
    """A minedraft draft (module, built-in name or directory), bound to ``target_model``."""
    if isinstance(source, torch.nn.Module):
        return source.to(device=device, dtype=dtype).bind_target(target_model).eval()
    path = embedded.draft_checkpoint() if str(source) == embedded.DRAFT_NAME else source
    return draft_models.load_draft_model(path, dtype=dtype, device=device, target=target_model)


def _is_shipped_draft(source: Any) -> bool:
    return not isinstance(source, torch.nn.Module) and str(source) == embedded.DRAFT_NAME


def _check_fingerprint(config: draft_models.DraftConfig, tokenizer: Any) -> None:
    if config.vocab_hash and tokenizer is not None and hasattr(tokenizer, "get_vocab"):
        if draft_models.vocab_fingerprint(tokenizer) != config.vocab_hash:
            raise InvalidInputError(
                "draft was trained on a tokenizer that maps tokens to ids differently from the target's "
                f"(vocabulary fingerprint {config.vocab_hash} vs {draft_models.vocab_fingerprint(tokenizer)})"
            )


class ReferenceBackend:
    name = "reference"

    def peers(self) -> dict[str, Any]:
        """Optional capability used by ``minedraft bench``: the implementations a user would
        otherwise run on this pair (transformers generate / assisted generation)."""
        from .peers import PEERS

        return PEERS

    def build(self, spec: EngineSpec) -> EnginePair:
        check_device("device", spec.device)
        if spec.draft_device is not None:
            check_device("draft_device", spec.draft_device)
        dtype = resolve_dtype(spec.dtype, spec.device)
        draft_device = spec.draft_device or spec.device
        for name, source in (("target", spec.target), ("draft", spec.draft)):  # both, before either loads
            check_source(source, allow_pickle=spec.allow_pickle, field_name=name)
        target_model = load_causal_lm(
            spec.target, dtype=dtype, device=spec.device, allow_pickle=spec.allow_pickle,
            trust_remote_code=spec.trust_remote_code, field_name="target",
        )
        tokenizer = load_tokenizer(spec.tokenizer if spec.tokenizer is not None else spec.target,
                                   trust_remote_code=spec.trust_remote_code)
        few_rows = spec.options.get("few_rows_products", True)
        require_bool("options['few_rows_products']", few_rows)
        if few_rows:  # CPU fp32 decoding products on a few rows: see cpu_kernels
            use_few_rows_products(target_model)
        slots = max(8, 2 * spec.max_batch_size)
        target_runner = ModelRunner(target_model, max_slots=slots)
        drafter: ParticleDrafter | EagleDrafter | None = None
        store: FeatureStore | None = None
        if spec.draft is not None and (_is_shipped_draft(spec.draft) or draft_models.is_draft_source(spec.draft)):
            # A minedraft draft borrows the target's embedding and head; an EAGLE one also
            # reads the target's features, published through a shared store.
            draft_dtype = resolve_dtype(spec.options.get("draft_dtype", dtype), draft_device)
            draft_model = _load_minedraft_draft(spec.draft, target_model, draft_dtype, draft_device)
            _check_fingerprint(draft_model.draft_config, tokenizer)
            if few_rows:
                use_few_rows_products(draft_model)
            if isinstance(draft_model, draft_models.EagleDraft):
                store = FeatureStore()
                drafter = TreeEagleDrafter(draft_model, store, max_slots=slots)
            else:
                drafter = TreeParticleDrafter(ModelRunner(draft_model, max_slots=slots))
            check_same_vocabulary(None, None, target_runner.vocab_size, drafter.vocab_size)
        elif spec.draft is not None:
            draft_model = load_causal_lm(
                spec.draft, dtype=resolve_dtype(spec.options.get("draft_dtype", dtype), draft_device),
                device=draft_device, allow_pickle=spec.allow_pickle, trust_remote_code=spec.trust_remote_code,
                field_name="draft",
            )
            draft_tok = None
            if spec.tokenizer is None and not hasattr(spec.draft, "parameters"):
                try:
                    draft_tok = load_tokenizer(spec.draft, trust_remote_code=spec.trust_remote_code)
                except (OSError, ValueError):
                    draft_tok = None  # a draft without its own tokenizer files shares the target's
            if few_rows:
                use_few_rows_products(draft_model)
            runner = ModelRunner(draft_model, max_slots=slots)
            check_same_vocabulary(tokenizer, draft_tok, target_runner.vocab_size, runner.vocab_size)
            drafter = TreeParticleDrafter(runner)
        target = TreeParticleTarget(target_runner, max_context=target_runner.max_context or 2048, feature_store=store)
        return EnginePair(
            target=target,
            drafter=drafter,
            tokenizer=tokenizer,
            eos_token_ids=_eos_ids(target_model, tokenizer),
            info={
                "backend": self.name,
                "target": str(spec.target) if not hasattr(spec.target, "parameters") else type(spec.target).__name__,
                "draft": None if spec.draft is None else (str(spec.draft) if not hasattr(spec.draft, "parameters") else type(spec.draft).__name__),
                "dtype": str(dtype).replace("torch.", ""),
                "device": spec.device,
                "draft_device": draft_device,
            },
        )
