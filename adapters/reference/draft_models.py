"""Draft model checkpoints the reference engine can load."""

from __future__ import annotations

from pathlib import Path

import torch


def load_draft_model(path: str | Path, *, dtype: torch.dtype, device: str) -> torch.nn.Module:
    """A draft saved as a transformers checkpoint (safetensors) in ``path``."""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(str(path), dtype=dtype, use_safetensors=True)
    return model.to(device).eval()
