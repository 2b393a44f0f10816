"""Few-row CPU products: the swapped form equals F.linear up to float rounding, falls back
exactly where it does not apply, and the backend option is validated."""

from __future__ import annotations

import pickle

import pytest
import torch
import torch.nn.functional as F

from minedraft import InvalidInputError
from minedraft.adapters.reference import ReferenceBackend
from minedraft.adapters.reference.cpu_kernels import FEW_ROWS, few_rows_linear, use_few_rows_products
from minedraft.backends import EngineSpec

from conftest import tiny_llama


@pytest.mark.parametrize("rows", list(range(1, FEW_ROWS + 3)))
@pytest.mark.parametrize("bias", [False, True])
def test_matches_linear_in_fp32(rows, bias):
    gen = torch.Generator().manual_seed(rows)
    weight = torch.randn(40, 24, generator=gen)
    b = torch.randn(40, generator=gen) if bias else None
    x = torch.randn(rows, 24, generator=gen)
    got = few_rows_linear(x, weight, b)
    assert got.shape == (rows, 40) and got.is_contiguous()
    torch.testing.assert_close(got, F.linear(x, weight, b), rtol=1e-5, atol=1e-5)


def test_keeps_leading_dimensions():
    weight, x = torch.randn(10, 6), torch.randn(2, 3, 6)  # [batch, q, hidden]: 6 rows
    got = few_rows_linear(x, weight)
    assert got.shape == (2, 3, 10)
    torch.testing.assert_close(got, F.linear(x, weight), rtol=1e-5, atol=1e-5)


def test_other_dtypes_take_linear_itself():
    weight, x = torch.randn(10, 6, dtype=torch.float64), torch.randn(3, 6, dtype=torch.float64)
    assert torch.equal(few_rows_linear(x, weight), F.linear(x, weight))


def test_patched_model_matches_unpatched():
    model = tiny_llama(layers=2, hidden=64, seed=3).to(torch.float32)
    ids = torch.tensor([[5, 9, 17, 3]])
    with torch.inference_mode():
        before = model(ids).logits
        n = use_few_rows_products(model)
        after = model(ids).logits
    assert n == 2 * 7 + 1  # q, k, v, o, gate, up, down per layer, and the LM head
    torch.testing.assert_close(after, before, rtol=1e-4, atol=1e-4)
    assert use_few_rows_products(model) == 0  # idempotent
    copy = pickle.loads(pickle.dumps(model))  # the class swap keeps models picklable
    with torch.inference_mode():
        torch.testing.assert_close(copy(ids).logits, after)


def test_backend_option_is_validated():
    spec = EngineSpec(target=tiny_llama(seed=0), draft=None, dtype="float64", options={"few_rows_products": "yes"})
    with pytest.raises(InvalidInputError, match=r"few_rows_products.*'yes'"):
        ReferenceBackend().build(spec)
