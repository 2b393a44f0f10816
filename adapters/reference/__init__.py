"""The reference engine: PyTorch + transformers, CPU or one/two GPUs."""

from .backend import ReferenceBackend
from .engines import ReferenceDrafter, ReferenceTarget
from .runner import ModelRunner

__all__ = ["ModelRunner", "ReferenceBackend", "ReferenceDrafter", "ReferenceTarget"]
