"""The draft model as a picklable recipe, built in TensorRT-LLM's executor process.

``tensorrt_llm.LLM`` may run its executor in a spawned worker and pickle its arguments
there, the drafter among them; live model weights should not travel that way. The
drafter therefore carries this recipe and builds the draft model on first use, through
the backend registry (``minedraft.backends``), so this adapter never imports another.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from minedraft.backends import EngineSpec, get_backend
from minedraft.protocols import Drafter
from minedraft.types import InvalidInputError


@dataclass
class BackendDrafter:
    """A picklable recipe for a Drafter built through the backend registry.

    Engines that run their executor in another process (TensorRT-LLM's LLM API pickles
    its arguments to MPI workers) get this recipe instead of live model weights; the
    worker builds the drafter on first use. The backend builds an engine *pair*; only its
    drafter is kept, and the target it loads on the way (the same source) is dropped at
    once. Sources that are in-memory modules are shared, not loaded twice.
    """

    model: Any
    backend: str = "reference"
    dtype: str = "auto"
    device: str = "cpu"
    tokenizer: Any = None
    allow_pickle: bool = False
    trust_remote_code: bool = False
    max_batch_size: int = 16
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.model is None or (isinstance(self.model, str) and not self.model):
            raise InvalidInputError(f"draft model must be a model source, got {self.model!r}")
        if not isinstance(self.backend, str) or not self.backend:
            raise InvalidInputError(f"draft backend must be a backend name, got {self.backend!r}")

    def __call__(self) -> Drafter:
        spec = EngineSpec(
            target=self.model, draft=self.model, dtype=self.dtype, device=self.device, draft_device=self.device,
            tokenizer=self.tokenizer, allow_pickle=self.allow_pickle, trust_remote_code=self.trust_remote_code,
            max_batch_size=self.max_batch_size, options=dict(self.options),
        )
        pair = get_backend(self.backend).build(spec)
        if pair.drafter is None:
            raise InvalidInputError(f"backend {self.backend!r} built no drafter for draft model {self.model!r}")
        return pair.drafter
