#!/usr/bin/env bash
# Install, build and run every test (unit, EGL, differential GL scenes vs Mesa llvmpipe, validation-layer
# runs, piglit list, guard layer). Pass 1 runs the whole suite with the inline pipe, except the guard-layer
# variants. Pass 2 runs with the run-ahead pipe (CALDERA_PIPE=inproc): by default the whole suite again except
# the Vulkan-validation variants (the guard variants run sync validation beneath the guard's run-ahead checks)
# and the suites the pipe mode cannot change (unit tests build their own pipes; the layer and install tests
# load no GL). The default, CALDERA_PIPE=auto, picks one of the two modes by the CPU count; each pass names
# its mode so both are covered on any machine.
# CI (.ci/run) sets CALDERA_TEST_PASS2_SUITES: its sanitizer lane runs the rest of the suite with the run-ahead
# pipe, so pass 2 runs only what that lane leaves out. Arguments go to both passes (e.g. --suite compat).
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"
# Pipeline caches written by tests stay inside the build tree.
export XDG_CACHE_HOME="$PWD/build/test-cache"
meson test -C build --print-errorlogs --num-processes 2 --setup inline --no-suite guard "$@"
if [ -n "${CALDERA_TEST_PASS2_SUITES:-}" ]; then
  pass2=()
  for suite in $CALDERA_TEST_PASS2_SUITES; do pass2+=(--suite "$suite"); done
else
  pass2=(--no-suite unit --no-suite layer --no-suite install)
fi
echo "test: the suite again with CALDERA_PIPE=inproc (${CALDERA_TEST_PASS2_SUITES:-all but unit, layer, install})"
meson test -C build --print-errorlogs --num-processes 2 --setup inproc --no-suite validation "${pass2[@]}" "$@"
