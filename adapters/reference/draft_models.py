"""Draft models for a target, their checkpoints, and loading.

Two kinds, both over the target's vocabulary and both borrowing the target's (frozen)
token embedding and LM head at run time, so a checkpoint holds only what was trained:

- ``standalone``: a small Llama (``StandaloneDraft``) that reads tokens only. It runs in the
  ordinary ``ModelRunner``/``ReferenceDrafter`` like any causal LM.
- ``eagle``: an EAGLE-style head (``EagleDraft``, Li et al. 2024). Position j reads the
  embedding of token j and a feature of position j - 1: the target's last hidden state for
  committed positions, its own output for positions it drafted. One decoder layer maps
  ``fc([embedding; feature])`` to the next feature, which the target's LM head turns into
  the next-token distribution. It runs in ``EagleDrafter`` (engines.py), fed by the
  target's ``FeatureStore``.

Either may restrict its head to a token subset (``token_map``: the N target ids the draft
can propose, e.g. the 8k most frequent). The head still returns full-vocabulary logits,
-inf outside the subset, so the core sees an ordinary distribution over the target's ids.

A checkpoint is a directory with ``config.json`` (``"format": "minedraft-draft"``) and
``model.safetensors``. The decoder layers use the Llama parameter names, so target layers
copy in directly.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from minedraft.types import InvalidInputError
from minedraft.validation import require_int, require_number

from .cpu_kernels import few_rows_linear

FORMAT = "minedraft-draft"
CONFIG_NAME = "config.json"
WEIGHTS_NAME = "model.safetensors"
KINDS = ("eagle", "standalone")


@dataclass
class DraftConfig:
    kind: str = "eagle"
    vocab_size: int = 49152
    hidden_size: int = 576
    intermediate_size: int = 1536
    num_layers: int = 1
    num_attention_heads: int = 9
    num_key_value_heads: int = 3
    head_dim: int = 64
    rms_norm_eps: float = 1e-5
    rope_theta: float = 100000.0
    max_position_embeddings: int = 8192
    token_map_size: int = 0  # 0: full vocabulary head
    target: str = ""  # the target it was trained for (a built-in name or a path)
    vocab_hash: str = ""  # vocab_fingerprint(target tokenizer), checked at load time when set
    init_layers: list[int] = field(default_factory=list)  # target layers copied at initialisation
    training: dict[str, Any] = field(default_factory=dict)  # recipe summary, informational

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidInputError(f"draft kind must be one of {KINDS}, got {self.kind!r}")
        for name in ("vocab_size", "hidden_size", "intermediate_size", "num_layers", "num_attention_heads",
                     "num_key_value_heads", "head_dim", "max_position_embeddings"):
            require_int(f"draft config {name}", getattr(self, name), 1)
        require_int("draft config token_map_size", self.token_map_size, 0)
        require_number("draft config rms_norm_eps", self.rms_norm_eps, 0, low_open=True)
        require_number("draft config rope_theta", self.rope_theta, 0, low_open=True)

    @staticmethod
    def for_target(model: nn.Module, kind: str, **overrides: Any) -> DraftConfig:
        """Attention/MLP shapes of the target ``model``'s layers (so they can be copied in)."""
        c = model.config
        heads = c.num_attention_heads
        rope = getattr(c, "rope_parameters", None) or {}
        theta = rope.get("rope_theta", getattr(c, "rope_theta", 10000.0))
        base = dict(
            kind=kind, vocab_size=int(c.vocab_size), hidden_size=int(c.hidden_size),
            intermediate_size=int(c.intermediate_size), num_attention_heads=int(heads),
            num_key_value_heads=int(getattr(c, "num_key_value_heads", heads) or heads),
            head_dim=int(getattr(c, "head_dim", None) or c.hidden_size // heads),
            rms_norm_eps=float(getattr(c, "rms_norm_eps", 1e-5)), rope_theta=float(theta),
            max_position_embeddings=int(getattr(c, "max_position_embeddings", 2048)),
        )
        base.update(overrides)
        return DraftConfig(**base)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": 1, **asdict(self)}

    @staticmethod
    def from_json(data: dict[str, Any], where: str = "config") -> DraftConfig:
        if data.get("format") != FORMAT:
            raise InvalidInputError(f"{where} is not a minedraft draft config (format={data.get('format')!r})")
        known = {f for f in DraftConfig.__dataclass_fields__}
        return DraftConfig(**{k: v for k, v in data.items() if k in known})


def vocab_fingerprint(tokenizer: Any) -> str:
    """A short hash of token -> id: two tokenizers with equal fingerprints map ids alike."""
    items = sorted(tokenizer.get_vocab().items(), key=lambda kv: kv[1])
    return hashlib.sha256("\n".join(f"{i}\t{t}" for t, i in items).encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------------------
# Building blocks (Llama layout and parameter names)
# ---------------------------------------------------------------------------------------


class RMSNorm(nn.Module):
    def __init__(self, size: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dtype = x.dtype
        x = x.float()
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x.to(dtype)


def rope_cos_sin(positions: torch.Tensor, head_dim: int, theta: float, dtype: torch.dtype) -> tuple[
    torch.Tensor, torch.Tensor
]:
    """cos/sin ``[batch, 1, q, head_dim]`` for integer positions ``[batch, q]`` (Llama default rope)."""
    inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32, device=positions.device) / head_dim))
    freqs = positions.float().unsqueeze(-1) * inv  # [batch, q, head_dim / 2]
    emb = torch.cat([freqs, freqs], -1)
    return emb.cos().to(dtype).unsqueeze(1), emb.sin().to(dtype).unsqueeze(1)


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], -1)


def _rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    return x * cos + _rotate_half(x) * sin


class Attention(nn.Module):
    def __init__(self, cfg: DraftConfig) -> None:
        super().__init__()
        h, d = cfg.hidden_size, cfg.head_dim
        self.heads, self.kv_heads, self.head_dim = cfg.num_attention_heads, cfg.num_key_value_heads, d
        self.q_proj = nn.Linear(h, self.heads * d, bias=False)
        self.k_proj = nn.Linear(h, self.kv_heads * d, bias=False)
        self.v_proj = nn.Linear(h, self.kv_heads * d, bias=False)
        self.o_proj = nn.Linear(self.heads * d, h, bias=False)

    def qkv(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple[torch.Tensor, ...]:
        b, q, _ = x.shape
        query = self.q_proj(x).view(b, q, self.heads, self.head_dim).transpose(1, 2)  # [b, heads, q, d]
        key = self.k_proj(x).view(b, q, self.kv_heads, self.head_dim).transpose(1, 2)  # [b, kv_heads, q, d]
        value = self.v_proj(x).view(b, q, self.kv_heads, self.head_dim).transpose(1, 2)
        return _rope(query, cos, sin), _rope(key, cos, sin), value

    def forward(self, x, cos, sin, mask, cache, layer_idx):
        """Cached attention: ``cache.update`` stores this step's K/V and returns the visible
        keys; ``mask`` is additive ``[batch, 1, q, kv_len]`` (None: plain causal, no cache)."""
        query, key, value = self.qkv(x, cos, sin)
        if cache is not None:
            key, value = cache.update(key, value, layer_idx)
        out = F.scaled_dot_product_attention(query, key, value, attn_mask=mask, is_causal=mask is None,
                                             enable_gqa=self.heads != self.kv_heads)
        b, _, q, _ = out.shape
        return self.o_proj(out.transpose(1, 2).reshape(b, q, self.heads * self.head_dim))


class MLP(nn.Module):
    def __init__(self, cfg: DraftConfig) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(cfg.hidden_size, cfg.intermediate_size, bias=False)
        self.up_proj = nn.Linear(cfg.hidden_size, cfg.intermediate_size, bias=False)
        self.down_proj = nn.Linear(cfg.intermediate_size, cfg.hidden_size, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(nn.Module):
    def __init__(self, cfg: DraftConfig) -> None:
        super().__init__()
        self.self_attn = Attention(cfg)
        self.mlp = MLP(cfg)
        self.input_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.post_attention_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)

    def forward(self, x, cos, sin, mask=None, cache=None, layer_idx=0):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin, mask, cache, layer_idx)
        return x + self.mlp(self.post_attention_layernorm(x))


class TokenMappedHead(nn.Module):
    """The target's LM head restricted to ``token_map`` (or complete when it is None).

    ``forward`` returns full-vocabulary logits (-inf outside the subset);
    ``subset_logits`` returns the ``[..., N]`` logits in ``token_map`` order (training)."""

    def __init__(self, vocab_size: int, token_map: torch.Tensor | None) -> None:
        super().__init__()
        self.vocab_size = vocab_size
        self.register_buffer("token_map", token_map, persistent=token_map is not None)
        self.register_buffer("weight_sub", torch.zeros(0), persistent=False)  # set by bind

    def bind(self, head_weight: torch.Tensor) -> None:
        """``head_weight`` [vocab, hidden] from the target; shared, never trained or saved."""
        w = head_weight.detach()
        self.weight_sub = w if self.token_map is None else w[self.token_map.to(w.device)].clone()

    @property
    def weight(self) -> torch.Tensor:  # what ModelRunner reads for the vocabulary size
        return self.weight_sub

    def subset_logits(self, x: torch.Tensor) -> torch.Tensor:
        return few_rows_linear(x, self.weight_sub.to(x.dtype))

    def expand(self, sub: torch.Tensor) -> torch.Tensor:
        """Subset logits ``[..., N]`` -> full-vocabulary logits ``[..., vocab]``."""
        if self.token_map is None:
            return sub
        full = sub.new_full((*sub.shape[:-1], self.vocab_size), float("-inf"))
        return full.index_copy_(-1, self.token_map.to(sub.device), sub)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.expand(self.subset_logits(x))


def _target_parts(target: nn.Module) -> tuple[torch.Tensor, torch.Tensor, Sequence[nn.Module] | None]:
    """Embedding weight, LM head weight and decoder layers of a transformers causal LM."""
    embed = target.get_input_embeddings().weight
    head = target.get_output_embeddings().weight
    base = getattr(target, target.base_model_prefix, None)
    return embed, head, getattr(base, "layers", None)


class _DraftBase(nn.Module):
    """Shared: config, the borrowed target embedding/head, checkpoint I/O."""

    def __init__(self, cfg: DraftConfig, token_map: torch.Tensor | None) -> None:
        super().__init__()
        self.draft_config = cfg
        self.register_buffer("embed_weight", torch.zeros(0), persistent=False)  # set by bind_target
        self.lm_head = TokenMappedHead(cfg.vocab_size, token_map)
        self.norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)

    @property
    def vocab_size(self) -> int:
        return self.draft_config.vocab_size

    def remap_tokens(self, token_map: torch.Tensor | None, target: nn.Module) -> _DraftBase:
        """Restrict the (borrowed, untrained) head to another token subset; None: all tokens."""
        token_map = _sorted_map(token_map, self.draft_config)
        self.lm_head = TokenMappedHead(self.vocab_size, token_map).to(self.norm.weight.device)
        return self.bind_target(target)

    def bind_target(self, target: nn.Module) -> _DraftBase:
        """Borrow the target's embedding and head (shared when dtype and device agree)."""
        embed, head, _ = _target_parts(target)
        ref = self.norm.weight
        if embed.shape != (self.vocab_size, self.draft_config.hidden_size):
            raise InvalidInputError(
                f"draft expects a target embedding of shape {(self.vocab_size, self.draft_config.hidden_size)}, "
                f"the target has {tuple(embed.shape)}"
            )
        self.embed_weight = embed.detach().to(device=ref.device, dtype=ref.dtype)
        self.lm_head.bind(head.detach().to(device=ref.device, dtype=ref.dtype))
        return self

    def copy_target_layers(self, target: nn.Module, indices: Sequence[int]) -> None:
        _, _, layers = _target_parts(target)
        if layers is None:
            raise InvalidInputError("copy_layers needs a target with Llama-style decoder layers")
        for mine, idx in zip(self.layers, indices):
            mine.load_state_dict(layers[idx].state_dict())
        self.norm.load_state_dict(getattr(target, target.base_model_prefix).norm.state_dict())

    def grow_layers(self, target: nn.Module, indices: Sequence[int]) -> None:
        """Append one decoder layer per target layer in ``indices``, copied from it but with its
        output projections (``o_proj``, ``down_proj``) zeroed: each new layer starts as the
        identity on the residual stream, so a trained draft keeps its outputs exactly and
        further training can only start from where it was."""
        _, _, layers = _target_parts(target)
        if layers is None:
            raise InvalidInputError("growing a draft needs a target with Llama-style decoder layers")
        ref = self.norm.weight
        for idx in indices:
            layer = DecoderLayer(self.draft_config).to(device=ref.device, dtype=ref.dtype)
            layer.load_state_dict(layers[idx].state_dict())
            with torch.no_grad():
                layer.self_attn.o_proj.weight.zero_()
                layer.mlp.down_proj.weight.zero_()
            self.layers.append(layer)
        self.draft_config.num_layers = len(self.layers)
        self.draft_config.init_layers = [*self.draft_config.init_layers, *indices]

    def embed(self, ids: torch.Tensor) -> torch.Tensor:
        return F.embedding(ids, self.embed_weight)

    def save(self, out_dir: str | Path, dtype: torch.dtype | None = None) -> None:
        """``config.json`` + ``model.safetensors`` (floating tensors in ``dtype``, default as is)."""
        from safetensors.torch import save_file

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        state = {k: v.detach().to(dtype or v.dtype if v.is_floating_point() else v.dtype).contiguous().cpu()
                 for k, v in self.state_dict().items()}
        save_file(state, str(out / WEIGHTS_NAME), metadata={"format": FORMAT, "kind": self.draft_config.kind})
        (out / CONFIG_NAME).write_text(json.dumps(self.draft_config.to_json(), indent=2) + "\n")

    def num_trained_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())


class StandaloneDraft(_DraftBase):
    """A small Llama over the target's frozen embedding; runs in ``ModelRunner``."""

    base_model_prefix = "model"

    def __init__(self, cfg: DraftConfig, token_map: torch.Tensor | None = None) -> None:
        super().__init__(cfg, token_map)
        self.layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.num_layers))
        self.model = _StandaloneBackbone(self)

    def get_output_embeddings(self) -> TokenMappedHead:
        return self.lm_head

    def hidden(self, input_ids, attention_mask=None, position_ids=None, cache=None) -> torch.Tensor:
        """Last hidden states ``[batch, q, hidden]`` (post-norm)."""
        x = self.embed(input_ids)
        if position_ids is None:
            position_ids = torch.arange(input_ids.shape[1], device=input_ids.device).expand_as(input_ids)
        cos, sin = rope_cos_sin(position_ids, self.draft_config.head_dim, self.draft_config.rope_theta, x.dtype)
        for i, layer in enumerate(self.layers):
            x = layer(x, cos, sin, attention_mask, cache, i)
        return self.norm(x)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        """Subset logits for a plain causal pass (training)."""
        return self.lm_head.subset_logits(self.hidden(input_ids))


class _StandaloneBackbone(nn.Module):
    """The ``model.model`` that ModelRunner calls: HF-style keyword interface."""

    def __init__(self, owner: StandaloneDraft) -> None:
        super().__init__()
        self._owner = [owner]  # a list, so the owner is not registered as a submodule (no cycle)

    def forward(self, input_ids, attention_mask=None, position_ids=None, cache=None, use_cache=True, **_: Any):
        return (self._owner[0].hidden(input_ids, attention_mask, position_ids, cache),)


class EagleDraft(_DraftBase):
    """EAGLE-style draft head: fc([embed(x_j); f_{j-1}]) -> decoder layers -> norm -> f_j."""

    def __init__(self, cfg: DraftConfig, token_map: torch.Tensor | None = None) -> None:
        super().__init__(cfg, token_map)
        h = cfg.hidden_size
        self.fc = nn.Linear(2 * h, h, bias=True)
        with torch.no_grad():  # start as "feature plus a little embedding"
            self.fc.weight.mul_(0.1)
            self.fc.weight[:, h:] += torch.eye(h)
            self.fc.bias.zero_()
        self.layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.num_layers))

    def step(self, input_ids, features, position_ids, mask, cache) -> torch.Tensor:
        """Cached forward: ids ``[batch, q]``, features ``[batch, q, hidden]`` (of the
        previous positions) -> output features ``[batch, q, hidden]``."""
        x = self.fc(torch.cat([self.embed(input_ids), features.to(self.embed_weight.dtype)], -1))
        cos, sin = rope_cos_sin(position_ids, self.draft_config.head_dim, self.draft_config.rope_theta, x.dtype)
        for i, layer in enumerate(self.layers):
            x = layer(x, cos, sin, mask, cache, i)
        return self.norm(x)

    def unrolled(self, input_ids: torch.Tensor, features: torch.Tensor, steps: int, start: int = 0) -> list[torch.Tensor]:
        """Training-time test: outputs ``[batch, L, hidden]`` of drafting steps 0..steps-1 at
        every position, without a cache.

        Step 0 reads the target features (``features[:, j]`` = target feature of j - 1). Step
        s reads step s - 1's output of position j - 1 and attends to step 0's keys up to
        j - s plus the keys steps 1..s wrote at j - s + 1 .. j: what drafting token s after a
        committed prefix of j - s + 1 tokens sees at run time. Steps >= 1 compute only
        positions >= ``start`` (training needs no drafts inside the prompt); their outputs are
        ``[batch, L - start, hidden]``."""
        b, length = input_ids.shape
        emb = self.embed(input_ids)
        pos = torch.arange(length, device=input_ids.device).expand(b, length)
        cos, sin = rope_cos_sin(pos, self.draft_config.head_dim, self.draft_config.rope_theta, emb.dtype)
        outs: list[torch.Tensor] = []
        feats = features
        kv: list[list[tuple[torch.Tensor, torch.Tensor]]] = [[] for _ in self.layers]  # per layer, per step
        for s in range(steps):
            lo = 0 if s == 0 else start  # positions computed at this step
            x = self.fc(torch.cat([emb[:, lo:], feats], -1))
            for li, layer in enumerate(self.layers):
                x = _unrolled_layer(layer, x, cos[:, :, lo:], sin[:, :, lo:], kv[li], s, lo)
            out = self.norm(x)
            outs.append(out)
            # Next step, position j (>= start) reads this step's output at j - 1.
            prev = out[:, start - lo - 1 : length - lo - 1] if start > lo else out[:, : length - lo - 1]
            if prev.shape[1] < length - start:
                prev = torch.cat([torch.zeros_like(out[:, :1]), prev], 1)
            feats = prev
        return outs


def _unrolled_layer(layer: DecoderLayer, x, cos, sin, kv_steps: list, s: int, lo: int = 0) -> torch.Tensor:
    """One layer of unrolled step ``s`` over positions ``lo .. L - 1`` (``x`` holds those)."""
    attn = layer.self_attn
    hq, hk, d = attn.heads, attn.kv_heads, attn.head_dim
    query, key, value = attn.qkv(layer.input_layernorm(x), cos, sin)  # [b, h, q, d], [b, hk, q, d]
    kv_steps.append((key, value))
    b, _, length, _ = query.shape  # length: positions computed at this step
    if s == 0:
        out = F.scaled_dot_product_attention(query, key, value, is_causal=True, enable_gqa=hq != hk)
    else:
        rep = hq // hk
        k0, v0 = (t.repeat_interleave(rep, 1) for t in kv_steps[0])  # [b, h, L, d], all positions
        scale = 1.0 / math.sqrt(d)
        scores0 = query @ k0.transpose(-1, -2) * scale  # [b, h, q, L]
        qpos = torch.arange(lo, lo + length, device=x.device)
        visible = torch.arange(k0.shape[2], device=x.device).unsqueeze(0) <= (qpos.unsqueeze(1) - s)  # key <= j - s
        scores0 = scores0.masked_fill(~visible, float("-inf"))
        diag_scores, diag_values = [], []
        for r in range(1, s + 1):  # step r's key at position j - s + r (a shift by s - r)
            kr, vr = (_shift(t.repeat_interleave(rep, 1), s - r) for t in kv_steps[r])
            diag_scores.append((query * kr).sum(-1, keepdim=True) * scale)  # [b, h, L, 1]
            diag_values.append(vr)
        keys0 = k0.shape[2]
        weights = torch.softmax(torch.cat([scores0, *diag_scores], -1).float(), -1).to(query.dtype)
        out = weights[..., :keys0] @ v0
        for r, vr in enumerate(diag_values):
            out = out + weights[..., keys0 + r : keys0 + r + 1] * vr
        # Positions j < s have no step-0 key visible; their rows are never used (masked in the loss).
        out = torch.nan_to_num(out)
    out = attn.o_proj(out.transpose(1, 2).reshape(b, length, hq * d))
    x = x + out
    return x + layer.mlp(layer.post_attention_layernorm(x))


def _shift(t: torch.Tensor, by: int) -> torch.Tensor:
    """``t[..., j, :]`` -> ``t[..., j - by, :]`` along the position axis (zeros where j < by)."""
    if by == 0:
        return t
    return torch.cat([torch.zeros_like(t[..., :by, :]), t[..., :-by, :]], -2)


DraftModel = StandaloneDraft | EagleDraft
_CLASSES: dict[str, type[_DraftBase]] = {"eagle": EagleDraft, "standalone": StandaloneDraft}


def _sorted_map(token_map: torch.Tensor | None, cfg: DraftConfig) -> torch.Tensor | None:
    """The token subset as sorted ids (None: the full vocabulary), recorded in ``cfg``."""
    if token_map is None:
        cfg.token_map_size = 0
        return None
    token_map = torch.as_tensor(token_map, dtype=torch.long).sort().values
    cfg.token_map_size = int(token_map.numel())
    return token_map


def build_draft(cfg: DraftConfig, target: nn.Module | None = None, token_map: torch.Tensor | None = None,
                copy_layers: Sequence[int] = (), dtype: torch.dtype | None = None) -> _DraftBase:
    """A fresh draft for ``target`` (layers optionally copied from it), bound to its embedding
    and head, in ``dtype`` (default: the target's)."""
    if token_map is not None:
        token_map = _sorted_map(token_map, cfg)
    model = _CLASSES[cfg.kind](cfg, token_map)
    if target is not None:
        ref = target.get_input_embeddings().weight
        model.to(device=ref.device, dtype=dtype or ref.dtype)
        if copy_layers:
            model.copy_target_layers(target, copy_layers)
            cfg.init_layers = list(copy_layers)
        model.bind_target(target)
    return model


# ---------------------------------------------------------------------------------------
# Checkpoints
# ---------------------------------------------------------------------------------------


def read_config(path: str | Path) -> DraftConfig | None:
    """The draft config in directory ``path``, or None when it is not a minedraft draft."""
    cfg_path = Path(path) / CONFIG_NAME
    if not cfg_path.is_file():
        return None
    try:
        data = json.loads(cfg_path.read_text())
    except (OSError, json.JSONDecodeError) as exc:  # a broken config is no model of any kind
        raise InvalidInputError(f"{str(cfg_path)!r} cannot be read as JSON: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    return DraftConfig.from_json(data, str(cfg_path))


def is_draft_source(source: Any) -> bool:
    """A draft module or a minedraft draft directory (the shipped draft's name is the
    embedded pair's, checked by the backend)."""
    if isinstance(source, _DraftBase):
        return True
    if isinstance(source, nn.Module) or source is None:
        return False
    name = str(source)
    return Path(name).is_dir() and read_config(name) is not None


def load_draft_model(
    path: str | Path,
    *,
    dtype: torch.dtype,
    device: str,
    target: nn.Module | None = None,
) -> nn.Module:
    """A draft checkpoint in ``path``: a minedraft draft (bound to ``target``'s embedding and
    head; needs ``target``) or, for other directories, a transformers checkpoint (safetensors)."""
    from .weights_check import check_safetensors

    cfg = read_config(path)
    if cfg is None:
        from transformers import AutoModelForCausalLM

        check_safetensors(sorted(Path(path).glob("*.safetensors")), "draft")
        model = AutoModelForCausalLM.from_pretrained(str(path), dtype=dtype, use_safetensors=True)
        return model.to(device).eval()
    if target is None:
        raise InvalidInputError(f"draft {str(path)!r} borrows its target's embedding and head; load it with a target")
    from safetensors.torch import load_file

    weights_path = Path(path) / WEIGHTS_NAME
    if not weights_path.is_file():
        raise InvalidInputError(f"draft directory {str(path)!r} has no {WEIGHTS_NAME}")
    check_safetensors([weights_path], "draft")
    state = load_file(str(weights_path))
    token_map = state.get("lm_head.token_map")
    model = _CLASSES[cfg.kind](cfg, token_map)
    try:
        missing, unexpected = model.load_state_dict(state, strict=False)
    except RuntimeError as exc:  # shapes that differ from the config's
        raise InvalidInputError(f"draft weights in {str(weights_path)!r} do not match its config: {exc}") from exc
    if unexpected or [k for k in missing if not k.endswith(("embed_weight", "weight_sub"))]:
        raise InvalidInputError(
            f"draft weights in {str(weights_path)!r} do not match its config: missing {missing}, unexpected {unexpected}"
        )
    model.to(device=device, dtype=dtype)
    return model.bind_target(target).eval()
