#!/usr/bin/env bash
# Install, build and run every test (unit, EGL, differential GL scenes vs Mesa llvmpipe, validation-layer
# runs, piglit list, guard layer) with the inline pipe, then the whole suite again with the run-ahead pipe
# (CALDERA_PIPE=inproc). The default, CALDERA_PIPE=auto, picks one of the two by the CPU count; each pass names
# its mode so both are covered on any machine.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"
# Pipeline caches written by tests stay inside the build tree.
export XDG_CACHE_HOME="$PWD/build/test-cache"
meson test -C build --print-errorlogs --num-processes 2 --setup inline "$@"
echo "test: the suite again with CALDERA_PIPE=inproc"
meson test -C build --print-errorlogs --num-processes 2 --setup inproc "$@"
