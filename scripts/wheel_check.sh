#!/usr/bin/env bash
# Build the wheel, install it (not editable) into a fresh venv with the reference extras and
# CPU torch, and check it from outside the repository (scripts/wheel_check.py): the CLI, a
# short generate in every mode, and the entry points. Everything lives in a temp directory.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d -t minedraft-wheel-XXXXXX)"
trap 'rm -rf "$work"' EXIT
# Build from a copy of the checkout's files (tracked and untracked-but-not-ignored), so a
# stale build/ directory in the repository cannot leak removed modules into the wheel.
mkdir "$work/src"
git -C "$repo" ls-files -z --cached --others --exclude-standard \
  | tar -C "$repo" --null --ignore-failed-read -T - -cf - | tar -C "$work/src" -xf -
python3 -m pip wheel -q --no-deps "$work/src" -w "$work/dist"
wheel="$(ls "$work"/dist/minedraft-*.whl)"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "torch==2.13.0" "${wheel}[reference]"
cp "$repo/scripts/wheel_check.py" "$work/"
cd "$work"   # the repository's sources must not be importable
PATH="$work/venv/bin:$PATH" "$work/venv/bin/python" wheel_check.py --source "$work/src"
