"""Loading causal LMs and tokenizers for the reference engine.

Sources, safest first: a local directory with safetensors, a GGUF file, a built-in name
(``smollm2``, the embedded target; ``smollm2-draft``, the shipped draft), or a Hugging Face
model id when a hub is reachable. Pickle checkpoints (``*.bin``, ``*.pt``) and
``trust_remote_code`` load only when the caller opts in explicitly.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import torch

from minedraft.types import InvalidInputError

from .weights_check import check_safetensors

_DTYPES = {
    "float32": torch.float32,
    "fp32": torch.float32,
    "float64": torch.float64,
    "bfloat16": torch.bfloat16,
    "bf16": torch.bfloat16,
    "float16": torch.float16,
    "fp16": torch.float16,
}


def resolve_dtype(dtype: str | torch.dtype, device: str) -> torch.dtype:
    """``auto``: bf16 where the hardware runs it fast (CUDA with bf16, CPUs with AVX-512 BF16
    or AMX), fp32 elsewhere."""
    if isinstance(dtype, torch.dtype):
        return dtype
    if dtype == "auto":
        if device.startswith("cuda"):
            return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        return torch.bfloat16 if cpu_has_fast_bf16() else torch.float32
    if dtype not in _DTYPES:
        raise InvalidInputError(f"dtype must be 'auto' or one of {sorted(_DTYPES)}, got {dtype!r}")
    return _DTYPES[dtype]


def cpu_has_fast_bf16() -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


_GGUF_MAGIC = b"GGUF"
_GGUF_HEADER_BYTES = 24  # magic, version (u32), tensor count (u64), metadata count (u64)
# What the GGUF reader raises on a truncated or mangled file (a short buffer, a bad offset).
_GGUF_READ_ERRORS = (ValueError, IndexError, EOFError, OSError)


def _check_gguf_header(path: Path, field_name: str) -> None:
    with open(path, "rb") as f:
        head = f.read(_GGUF_HEADER_BYTES)
    if len(head) < _GGUF_HEADER_BYTES or not head.startswith(_GGUF_MAGIC):
        raise InvalidInputError(
            f"{field_name}: {str(path)!r} is not a GGUF file (it is {path.stat().st_size} bytes and "
            f"does not start with a GGUF header); it may be truncated or corrupt: re-download it"
        )


def _load_gguf(path: Path, field_name: str, **kwargs: Any) -> torch.nn.Module:
    from transformers import AutoModelForCausalLM

    _check_gguf_header(path, field_name)
    try:
        return AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name, **kwargs)
    except _GGUF_READ_ERRORS as exc:
        raise InvalidInputError(
            f"{field_name}: GGUF file {str(path)!r} could not be read ({type(exc).__name__}: {exc}); "
            "it may be truncated or corrupt (re-download it), or hold a model transformers cannot load"
        ) from exc


def load_causal_lm(
    source: str | os.PathLike | torch.nn.Module,
    *,
    dtype: torch.dtype = torch.float32,
    device: str = "cpu",
    allow_pickle: bool = False,
    trust_remote_code: bool = False,
    field_name: str = "model",
) -> torch.nn.Module:
    """A causal LM from a module, a directory, a GGUF file, a built-in name or a hub id."""
    if isinstance(source, torch.nn.Module):
        return source.to(device=device, dtype=dtype).eval()
    from transformers import AutoModelForCausalLM

    from . import embedded

    check_source(source, allow_pickle=allow_pickle, field_name=field_name)
    name = str(source)
    if name in embedded.BUILTIN_MODELS:
        return embedded.BUILTIN_MODELS[name](dtype=dtype, device=device)
    path = Path(name)
    kwargs: dict[str, Any] = {"dtype": dtype, "trust_remote_code": trust_remote_code}
    if path.suffix == ".gguf":
        return _load_gguf(path, field_name, **kwargs).to(device).eval()
    if path.is_dir():
        has_safetensors = any(path.glob("*.safetensors"))
        check_safetensors(sorted(path.glob("*.safetensors")), field_name)
        try:
            model = AutoModelForCausalLM.from_pretrained(str(path), use_safetensors=not allow_pickle or has_safetensors,
                                                         **kwargs)
        except OSError as exc:  # e.g. pickle weights beside an unrelated *.safetensors file
            raise InvalidInputError(f"{field_name}: could not load the model directory {name!r}: {exc}") from exc
        return model.to(device).eval()
    try:  # a hub id
        model = AutoModelForCausalLM.from_pretrained(name, use_safetensors=not allow_pickle, **kwargs)
    except OSError as exc:
        raise InvalidInputError(
            f"{field_name}: could not load {name!r} as a Hugging Face model id (no such local path, and the hub "
            f"was unreachable or has no such model): {exc}"
        ) from exc
    return model.to(device).eval()


def check_source(source: Any, *, allow_pickle: bool = False, field_name: str = "model") -> None:
    """What can be told of a model source without loading it: a GGUF file that exists, a
    directory with weights (pickle ones only by opt-in), or a name that is no local path (a
    built-in name or a hub id). Checked for both models before either loads."""
    if source is None or isinstance(source, torch.nn.Module):
        return
    from . import embedded

    name = str(source)
    if name in embedded.BUILTIN_MODELS:
        return
    path = Path(name)
    if path.suffix == ".gguf":
        if not path.is_file():
            raise InvalidInputError(f"{field_name}: GGUF file {name!r} does not exist")
        return
    if path.is_dir():
        has_safetensors = any(path.glob("*.safetensors"))
        has_pickle = any(path.glob("*.bin")) or any(path.glob("*.pt"))
        if not has_safetensors and has_pickle and not allow_pickle:
            raise InvalidInputError(
                f"{field_name}: {name!r} holds only pickle checkpoints (*.bin/*.pt), which can run code when "
                "loaded; pass allow_pickle=True (CLI: --allow-pickle) if you trust them"
            )
        if not has_safetensors and not has_pickle:
            raise InvalidInputError(f"{field_name}: directory {name!r} has no *.safetensors weights")
        return
    if path.exists() or name.startswith((".", "/", "~")) or name.count("/") > 1:  # a path, not a hub id
        raise InvalidInputError(f"{field_name}: {name!r} is neither a model directory nor a .gguf file")


_TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "vocab.json", "tokenizer.model")


def load_tokenizer(source: str | os.PathLike | Any | None, *, trust_remote_code: bool = False) -> Any | None:
    """The tokenizer of a model source; None for in-memory modules without one."""
    if source is None or isinstance(source, torch.nn.Module):
        return None
    if not isinstance(source, (str, os.PathLike)):
        return source  # already a tokenizer object
    from transformers import AutoTokenizer

    from . import embedded

    name = str(source)
    if name in embedded.BUILTIN_TOKENIZERS:
        return embedded.BUILTIN_TOKENIZERS[name]()
    path = Path(name)
    if path.suffix == ".gguf":
        return AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    if path.is_dir() and not any((path / f).exists() for f in _TOKENIZER_FILES):
        return None  # weights only: callers pass token ids, or a tokenizer explicitly
    return AutoTokenizer.from_pretrained(name, trust_remote_code=trust_remote_code)


def check_same_vocabulary(target_tok: Any, draft_tok: Any, target_vocab: int, draft_vocab: int) -> None:
    """Draft and target must map token ids identically, or drafts mean nothing to the target."""
    if target_vocab != draft_vocab:
        raise InvalidInputError(
            f"draft vocabulary size ({draft_vocab}) differs from target vocabulary size ({target_vocab}); "
            "speculative decoding needs a draft that shares the target's tokenizer"
        )
    if target_tok is not None and draft_tok is not None and target_tok.get_vocab() != draft_tok.get_vocab():
        raise InvalidInputError(
            "draft tokenizer maps tokens to ids differently from the target tokenizer; "
            "speculative decoding needs a draft that shares the target's tokenizer"
        )
