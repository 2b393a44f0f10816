"""Set up a process to run SGLang 0.5.23 on CPU with the speculative path (test harness only).

What is stand-in here and what is SGLang's own code is listed in docs/sglang.md ("Running
it on CPU"). In short: SGLang's scheduler, model runner, KV pools, STANDALONE worker and
the intel_amx attention backend's Python code are SGLang's; the sgl-kernel CPU ops they
call are the torch versions in ``sglang_cpu_ops``.

``prepare_process()`` must run before sglang is imported. ``amx_backend_allowed()`` must
wrap the launcher's server-argument resolution: SGLang rewrites
``--attention-backend intel_amx`` to ``torch_native`` on CPUs without AMX, but
torch_native has no TARGET_VERIFY mode and no multi-step draft backend. Only the
attention backend's choice is affected; weight packing keys off a separate check that
stays off.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HARNESS_DIR = Path(__file__).resolve().parent


def prepare_process() -> None:
    """Environment for this process and the scheduler processes SGLang spawns."""
    os.environ["SGLANG_USE_CPU_ENGINE"] = "1"
    # SGLang wraps a few CPU helpers in torch.compile; compiling them with inductor costs
    # minutes of g++ on a small CI machine. Every mode runs them eagerly instead.
    os.environ.setdefault("TORCHDYNAMO_DISABLE", "1")
    paths = [str(HARNESS_DIR)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    if str(HARNESS_DIR) not in sys.path:
        sys.path.insert(0, str(HARNESS_DIR))
    if "sgl_kernel" in sys.modules and not getattr(sys.modules["sgl_kernel"], "__version__", "").endswith("harness"):
        raise RuntimeError("the real sgl_kernel was imported before the CPU test harness was set up")


def amx_backend_allowed():
    """A context in which SGLang's platform facts report AMX (argument resolution only)."""
    from sglang.srt.runtime_context import override_platform

    return override_platform(has_amx=True)


def engine_args(model: str, mode: str, *, draft: str | None = None, num_steps: int = 3,
                max_running_requests: int = 4, dtype: str = "float32", **extra) -> dict:
    """``sglang.Engine`` / server arguments for AR, STANDALONE or MINEDRAFT on CPU."""
    args = dict(model_path=model, device="cpu", attention_backend="intel_amx", disable_cuda_graph=True,
                sampling_backend="pytorch", dtype=dtype, mem_fraction_static=0.3, max_total_tokens=8192,
                max_running_requests=max_running_requests, disable_overlap_schedule=True, log_level="error")
    if mode != "AR":
        args.update(speculative_algorithm=mode, speculative_draft_model_path=draft or model,
                    speculative_num_steps=num_steps, speculative_eagle_topk=1,
                    speculative_num_draft_tokens=num_steps + 1)
    args.update(extra)
    return args
