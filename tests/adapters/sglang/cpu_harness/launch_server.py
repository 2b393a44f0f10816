"""``python -m sglang.launch_server`` on CPU with the test harness (test harness only).

    python tests/adapters/sglang/cpu_harness/launch_server.py --model-path M --device cpu \
        --attention-backend intel_amx ... --speculative-algorithm MINEDRAFT ...

Runs SGLang's own ``sglang.launch_server`` module as ``__main__`` after
``harness.prepare_process()``, with the intel_amx backend allowed (see harness.py).
"""

from __future__ import annotations

import os
import runpy
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

if __name__ == "__main__":
    harness.prepare_process()
    with harness.amx_backend_allowed():
        runpy.run_module("sglang.launch_server", run_name="__main__", alter_sys=True)
