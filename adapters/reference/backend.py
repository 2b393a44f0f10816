"""The reference backend: builds a ReferenceTarget/ReferenceDrafter pair from model sources."""

from __future__ import annotations

from typing import Any

from minedraft.backends import EnginePair, EngineSpec
from minedraft.types import InvalidInputError

from .engines import ReferenceDrafter, ReferenceTarget
from .loading import check_same_vocabulary, load_causal_lm, load_tokenizer, resolve_dtype
from .runner import ModelRunner


def _max_context(model: Any) -> int:
    config = model.config
    for attr in ("max_position_embeddings", "n_positions", "max_sequence_length"):
        value = getattr(config, attr, None)
        if isinstance(value, int) and value > 0:
            return value
    return 2048


def _eos_ids(model: Any, tokenizer: Any) -> tuple[int, ...]:
    ids: set[int] = set()
    for source in (getattr(model, "generation_config", None), model.config, tokenizer):
        value = getattr(source, "eos_token_id", None) if source is not None else None
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, (list, tuple)):
            ids.update(int(v) for v in value)
    return tuple(sorted(ids))


class ReferenceBackend:
    name = "reference"

    def build(self, spec: EngineSpec) -> EnginePair:
        if not isinstance(spec.device, str) or not (spec.device == "cpu" or spec.device.startswith("cuda")):
            raise InvalidInputError(f"device must be 'cpu' or 'cuda[:N]', got {spec.device!r}")
        dtype = resolve_dtype(spec.dtype, spec.device)
        draft_device = spec.draft_device or spec.device
        target_model = load_causal_lm(
            spec.target, dtype=dtype, device=spec.device, allow_pickle=spec.allow_pickle,
            trust_remote_code=spec.trust_remote_code, field_name="target",
        )
        tokenizer = load_tokenizer(spec.tokenizer if spec.tokenizer is not None else spec.target,
                                   trust_remote_code=spec.trust_remote_code)
        slots = max(8, 2 * spec.max_batch_size)
        target = ReferenceTarget(ModelRunner(target_model, max_slots=slots), max_context=_max_context(target_model))
        drafter = None
        if spec.draft is not None:
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
            runner = ModelRunner(draft_model, max_slots=slots)
            check_same_vocabulary(tokenizer, draft_tok, target.vocab_size, runner.vocab_size)
            drafter = ReferenceDrafter(runner)
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
