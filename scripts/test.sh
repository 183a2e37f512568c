#!/usr/bin/env bash
# Install, build and run every test (unit, EGL, differential GL scenes vs Mesa llvmpipe, validation-layer
# runs, piglit list, guard layer) with the inline pipe, then again with the run-ahead pipe
# (CALDERA_PIPE=inproc), all but the suites the pipe mode cannot change (unit tests build their own pipes; the
# layer and install tests load no GL). The default, CALDERA_PIPE=auto, picks one of the two modes by the CPU
# count; each pass names its mode so both are covered on any machine.
# CI (.ci/run) bounds its time with three variables, each a space-separated list of suites:
# CALDERA_TEST_PASS1_SKIP and CALDERA_TEST_PASS2_SKIP leave suites out of a pass, and CALDERA_TEST_PASS2_SUITES
# restricts pass 2 to the suites named (its sanitizer lane runs the rest with the run-ahead pipe);
# CALDERA_TEST_PASS1_NO_TWINS=1 leaves the plain twins of validation runs out of pass 1.
# Arguments go to both passes (e.g. --suite compat). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"
# Pipeline caches written by tests stay inside the build tree.
export XDG_CACHE_HOME="$PWD/build/test-cache"
suite_args() {  # suite_args <option> <suites...>: "--no-suite a --no-suite b" and the like
  local option=$1
  shift
  for suite in "$@"; do printf '%s\n%s\n' "$option" "$suite"; done
}
mapfile -t pass1 < <(suite_args --no-suite ${CALDERA_TEST_PASS1_SKIP:-})
mapfile -t pass2 < <(suite_args --no-suite ${CALDERA_TEST_PASS2_SKIP:-unit layer install}
  suite_args --suite ${CALDERA_TEST_PASS2_SUITES:-})
if [ -n "${CALDERA_TEST_PASS1_NO_TWINS:-}" ]; then
  # Pass 1 leaves out every test that has a "-validation" twin: the twin runs the same program with the
  # validation layer beneath, and the plain one runs with the run-ahead pipe (pass 2 or the sanitizer lane).
  mapfile -t listed < <(meson test -C build --list --setup inline "${pass1[@]}" "$@" 2>/dev/null |
    sed -n 's|^[^ ]* / ||p')
  declare -A has_twin=()
  for name in "${listed[@]}"; do [[ $name == *-validation ]] && has_twin[${name%-validation}]=1; done
  names=()
  for name in "${listed[@]}"; do [ -n "${has_twin[$name]:-}" ] || names+=("$name"); done
  echo "test: pass 1 runs ${#names[@]} of ${#listed[@]} tests (the plain twins of validation runs are left out)"
  pass1+=("${names[@]}")
fi
meson test -C build --print-errorlogs --num-processes 2 --setup inline "${pass1[@]}" "$@"
echo "test: again with CALDERA_PIPE=inproc: ${pass2[*]}"
meson test -C build --print-errorlogs --num-processes 2 --setup inproc "${pass2[@]}" "$@"
