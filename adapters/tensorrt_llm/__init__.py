"""TensorRT-LLM adapter: PSD as a user-provided drafter of the PyTorch-backend executor.

``speculative_config(draft_model=...)`` (or ``llm_kwargs``) builds the
``UserProvidedDecodingConfig`` for ``tensorrt_llm.LLM``; ``minedraft serve-trtllm --config``
serves it behind TensorRT-LLM's OpenAI server. Importing this package does not import
TensorRT-LLM: the functions that need it import it then, and fail with the supported
versions named (``SUPPORTED_VERSIONS``). See docs/tensorrt-llm.md.
"""

from .compat import SUPPORTED_VERSIONS, UnsupportedTensorRTLLMError, require_tensorrt_llm
from .drafter import create_drafter, drafter_class, llm_kwargs, resource_manager_class, speculative_config
from .serve import ServeConfig, load_serve_config, parse_serve_config

__all__ = [
    "SUPPORTED_VERSIONS",
    "ServeConfig",
    "UnsupportedTensorRTLLMError",
    "create_drafter",
    "drafter_class",
    "llm_kwargs",
    "load_serve_config",
    "parse_serve_config",
    "require_tensorrt_llm",
    "resource_manager_class",
    "speculative_config",
]
