"""Few-row fp32 matrix products on CPU.

Decoding multiplies every weight by a handful of rows: one per request under AR, k + 1 per
request when verifying drafts. With torch 2.13's MKL on an AVX2 EPYC (docs/embedded-pair.md
has the timings and the command), ``F.linear`` on 2 to 8 rows costs nearly as much per row
as on one row, as if the weight were streamed from memory once per row, so verifying
k + 1 positions cost 1.6-1.9x an AR step. The same product written with the roles swapped,
``torch.mm(weight, x.T)``, streams the weight once: 2 to 4 rows cost about what one does.
Three rows take a slow path of their own, so they are padded to four.

``use_few_rows_products(model)`` routes a model's ``nn.Linear`` layers through
``few_rows_linear``; results equal ``F.linear``'s up to float rounding. Only CPU fp32
products with at most ``FEW_ROWS`` rows take the swapped form.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

FEW_ROWS = 8  # beyond this F.linear's own blocking is as good or better


def few_rows_linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
    """``F.linear(x, weight, bias)``, computed as ``weight @ x.T`` for a few CPU fp32 rows."""
    rows = x.numel() // max(x.shape[-1], 1)
    if not 1 < rows <= FEW_ROWS or x.device.type != "cpu" or x.dtype != torch.float32 or weight.dtype != x.dtype:
        return F.linear(x, weight, bias)
    flat = x.reshape(rows, x.shape[-1])  # [rows, in]
    if rows == 3:
        flat = torch.cat([flat, flat.new_zeros(1, flat.shape[1])])
    out = torch.mm(weight, flat.t()).t()[:rows].contiguous()  # [rows, out]
    if bias is not None:
        out += bias
    return out.reshape(*x.shape[:-1], weight.shape[0])


class FewRowsLinear(nn.Linear):
    """``nn.Linear`` computing through ``few_rows_linear`` (same parameters and state dict)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return few_rows_linear(x, self.weight, self.bias)


def use_few_rows_products(model: nn.Module) -> int:
    """Turn every plain ``nn.Linear`` of ``model`` into a ``FewRowsLinear`` in place (the
    class changes, nothing else: the model still pickles and copies); returns how many."""
    count = 0
    for module in model.modules():
        if type(module) is nn.Linear:
            module.__class__ = FewRowsLinear
            count += 1
    return count
