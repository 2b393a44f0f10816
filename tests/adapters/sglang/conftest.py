"""SGLang adapter tests: they run against the real sglang package (CPU only) and skip
where it is not installed (scripts/ci_sglang.sh builds a venv that has it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def _tiny_llama(path, vocab: int = 64) -> str:
    from transformers import LlamaConfig

    cfg = LlamaConfig(vocab_size=vocab, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                      num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=128)
    cfg.architectures = ["LlamaForCausalLM"]
    cfg.save_pretrained(path)
    return str(path)


@pytest.fixture(scope="session")
def model_paths(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    return _tiny_llama(root / "target"), _tiny_llama(root / "draft")


@pytest.fixture(scope="session")
def registered():
    from minedraft.adapters.sglang.plugin import register

    register()


@pytest.fixture(scope="session")
def resolve(model_paths, registered):
    """Parse and resolve server arguments the way `python -m sglang.launch_server` does."""
    from sglang.srt.arg_groups.overrides import resolved_view
    from sglang.srt.server_args import prepare_server_args

    def run(*extra: str, draft: bool = True):
        argv = ["--model-path", model_paths[0], "--device", "cpu", "--skip-tokenizer-init"]
        if draft:
            argv += ["--speculative-draft-model-path", model_paths[1]]
        args = prepare_server_args(argv + list(extra))
        args.resolve_once()
        return args, resolved_view(args)

    return run


@pytest.fixture(scope="session")
def published(resolve):
    """A published runtime context (SamplingBatchInfo and friends read it)."""
    from sglang.srt.runtime_context import publish

    args, _ = resolve("--speculative-algorithm", "MINEDRAFT", "--speculative-num-draft-tokens", "3")
    publish(args, role="scheduler")
    return args


@pytest.fixture(scope="session")
def model() -> str:
    """SmolLM2-135M-Instruct as a safetensors directory, for decoding inside SGLang on CPU.

    The main venv converts the embedded GGUF into ``$MINEDRAFT_CACHE/smollm2-135m-instruct``
    (``minedraft.adapters.reference.embedded.target_checkpoint``); scripts/ci_sglang.sh
    does that and sets MINEDRAFT_SGLANG_E2E=1, which turns a missing checkpoint into a
    failure instead of a skip.
    """
    path = os.environ.get("MINEDRAFT_SGLANG_TARGET")
    if not path:
        cache = Path(os.environ.get("MINEDRAFT_CACHE", Path.home() / ".cache" / "minedraft"))
        path = str(cache / "smollm2-135m-instruct")
    if not (Path(path) / "config.json").exists():
        if os.environ.get("MINEDRAFT_SGLANG_E2E") == "1":
            pytest.fail(f"SmolLM2-135M-Instruct checkpoint not found at {path}")
        pytest.skip("SmolLM2-135M-Instruct checkpoint not built (scripts/ci_sglang.sh builds it)")
    return path
