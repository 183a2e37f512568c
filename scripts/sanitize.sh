#!/usr/bin/env bash
# The sanitizer lane: builds Caldera and its tests with AddressSanitizer + UndefinedBehaviorSanitizer into
# ./build-asan and runs the test suite there with the run-ahead pipe (the suites left out are named below;
# lavapipe, Mesa and the other system libraries stay unsanitized). Programs that are not built here (piglit,
# python) load the sanitized library through LD_PRELOAD. Leak checking runs on the EGL create/destroy, context and share-group tests, with the system
# libraries' own leaks suppressed (tests/sanitizers/lsan.supp).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
dir=build-asan
if [ ! -f "$dir/build.ninja" ]; then
  # -O1 with line tables: what sanitizers want, and half the compile time of -O2 -g (CI's time is bounded).
  # glslang is built without RTTI: UBSan's vptr check cannot see its types.
  meson setup "$dir" --buildtype=plain --unity="${CALDERA_UNITY:-off}" -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args="-O1 -g1" -Dcpp_args="-O1 -g1 -fno-sanitize=vptr" -Dcpp_link_args=-fno-sanitize=vptr
fi
ninja -C "$dir" -j"$(nproc)"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"
export XDG_CACHE_HOME="$PWD/$dir/test-cache"
libasan=$(gcc -print-file-name=libasan.so)
libubsan=$(gcc -print-file-name=libubsan.so)
export LD_PRELOAD="$libasan:$libubsan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export CALDERA_SANITIZED=1  # tests skip resident-memory bounds (the sanitizer's quarantine holds freed memory)
# The suite, with the run-ahead pipe (CALDERA_PIPE=inproc): memory errors and undefined behaviour abort the
# test; leaks are checked below. In CI this lane is the run-ahead pass for the suites it runs (scripts/test.sh
# runs the rest with inproc, unsanitized). A request no host can satisfy fails as it does without the sanitizer
# (bad_alloc). Left out, each for a reason:
# - fuzz: meson sets its own ASAN_OPTIONS for tests, and ASan then aborts on the fuzzer's 2^50-byte glBufferData.
# - trace: its captures and replays of whole programs take minutes under the sanitizer.
# - validation and guard variants: they run Caldera's code exactly as their plain twins do (which run here),
#   with a Vulkan layer's own work on top; the unsanitized passes run them.
# - piglit: its lists run one program after another for many minutes under the sanitizer (CI's time is
#   bounded); the unsanitized passes run them in both pipe modes, and the GL paths they reach have their own
#   tests here.
# - timing (frame rates, swap costs) and bench: they would measure the sanitizer's slowdown, not Caldera.
ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1" \
  meson test -C "$dir" --print-errorlogs --num-processes 2 --timeout-multiplier 4 --setup inproc \
  --no-suite bench --no-suite fuzz --no-suite trace --no-suite validation --no-suite guard --no-suite piglit \
  --no-suite timing "$@"
# Leak checking where Caldera creates and destroys displays, contexts, surfaces and shared objects: the
# (sanitized) test programs run directly, without the runners' python. lavapipe stays loaded (LD_PRELOAD) so
# that its own leaks are named and suppressed rather than reported from an unloaded module.
export LD_PRELOAD="$libasan:$libubsan:/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allocator_may_return_null=1"
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
export __EGL_VENDOR_LIBRARY_FILENAMES="$PWD/$dir/json/caldera_dev.json"
leak_runs=(
  "tests/integration/egl/egl_conformance"
  "tests/integration/gl/gl_share_lifetime"
  "tests/integration/gl/gl_threads"
  "tests/integration/gl/gl_errors"
  "env CALDERA_TEST_FAULT=device-lost@4 $dir/tests/integration/gl/gl_faults device-lost"
  "env CALDERA_TEST_FAULT=oom@6 $dir/tests/integration/gl/gl_faults oom"
)
for run in "${leak_runs[@]}"; do
  [[ $run == env* ]] || run="$dir/$run"
  echo "sanitize: leak check: $run"
  $run >"$dir/leak-check.log" 2>&1 || { cat "$dir/leak-check.log"; echo "sanitize: FAILED: $run"; exit 1; }
done
echo "sanitize: no leaks in ${#leak_runs[@]} leak-checked runs"
