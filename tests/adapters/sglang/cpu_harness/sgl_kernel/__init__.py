"""Stand-in ``sgl_kernel`` for running SGLang 0.5.23 on a CPU without sgl-kernel's CPU build
(test harness only; put this directory first on ``PYTHONPATH``).

The installed ``sglang-kernel`` wheel is a CUDA build: importing it fails without
``libcuda.so.1``. SGLang's CPU engine (``SGLANG_USE_CPU_ENGINE=1``) imports many names from
it at module import time, but on the paths exercised here calls only the ops that
``sglang_cpu_ops`` provides. So:

- the ops of ``sglang_cpu_ops`` are real (torch) implementations, exported here and, for
  the attention ops the intel_amx backend reads from ``torch.ops.sgl_kernel``, set there;
- every other name (and every ``sgl_kernel.*`` submodule) resolves to a placeholder that
  raises ``NotImplementedError`` naming itself when called, so a path that needs an op
  this harness lacks fails loudly instead of computing something else.

``torch.ops.sgl_kernel.convert_weight_packed`` is deliberately absent: SGLang keys its
AMX weight packing off it, and linear layers stay plain torch.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types

import sglang_cpu_ops as _ops
import torch

_OPS = [name for name in dir(_ops) if name.endswith("_cpu") and callable(getattr(_ops, name))]
_TORCH_OPS = ("decode_attention_cpu", "extend_attention_cpu")


class _Missing:
    """A name of sgl_kernel this harness does not provide."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(f"{self._name} is not provided by the SGLang CPU test harness")

    def __getattr__(self, attr: str) -> _Missing:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Missing(f"{self._name}.{attr}")

    def __repr__(self) -> str:
        return f"<sgl_kernel stand-in {self._name}>"


def _missing_attr(module_name: str):
    def __getattr__(attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Missing(f"{module_name}.{attr}")

    return __getattr__


class _SubmoduleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Any ``sgl_kernel.x.y`` resolves to an empty module of placeholders."""

    def find_spec(self, fullname, path, target=None):
        if fullname.startswith(__name__ + "."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__path__ = []
        module.__getattr__ = _missing_attr(spec.name)
        return module

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _SubmoduleFinder())
__getattr__ = _missing_attr(__name__)
__version__ = "0.0.0+cpu-test-harness"
for _name in _OPS:
    globals()[_name] = getattr(_ops, _name)
for _name in _TORCH_OPS:
    setattr(torch.ops.sgl_kernel, _name, getattr(_ops, _name))
