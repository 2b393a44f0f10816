#!/usr/bin/env bash
# SGLang adapter tests against the real sglang package, in a venv of their own
# (sglang pins CUDA torch 2.14.1 and transformers 5.19, which the main venv does not use).
# Fresh machine: ~3-4 min install (~11 GB), ~2 min tests on 2 CPU cores.
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
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider -W ignore::DeprecationWarning -W ignore::UserWarning \
    tests/adapters/sglang "$@"
