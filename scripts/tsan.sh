#!/usr/bin/env bash
# ThreadSanitizer: builds the library and the threaded tests with -fsanitize=thread into ./build-tsan and runs
# them (four threads rendering at once, two contexts of one share group handing objects over, the run-ahead
# rules, the staging arena's waits, the GLES backend's present worker in an Xvfb window), with the inline and
# the inproc pipe. Any race
# report fails the run; races inside lavapipe itself are suppressed (tests/sanitizers/tsan.supp).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
dir=build-tsan
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" --buildtype=plain --unity="${CALDERA_UNITY:-off}" -Db_sanitize=thread -Db_lundef=false \
    -Dc_args="-O1 -g1" -Dcpp_args="-O1 -g1"
fi
tests=(tests/integration/gl/gl_threads tests/integration/gl/gl_share_lifetime tests/integration/gl/gl_run_ahead
       tests/integration/gl/gl_staging_arena)
ninja -C "$dir" -j"$(nproc)" icd/libEGL_caldera.so.0 "${tests[@]}" tests/integration/windows/x11_egl_window
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"
export __EGL_VENDOR_LIBRARY_FILENAMES="$PWD/$dir/json/caldera_dev.json"
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:suppressions=$PWD/tests/sanitizers/tsan.supp"
# The distribution's interpreter where there is one (a version manager's shim costs a start-up each run).
python=$(command -v /usr/bin/python3 || command -v python3)
# Each in both pipe modes: inproc adds an apply thread per context (run-ahead).
for mode in inline inproc; do
  for t in "${tests[@]}"; do
    echo "tsan: $t (CALDERA_PIPE=$mode)"
    CALDERA_PIPE=$mode "$dir/$t"
  done
  # The staging arena overfilled: the GL thread waits for the apply thread, a submission and the device.
  echo "tsan: gl_staging_arena, 1 MiB arena (CALDERA_PIPE=$mode)"
  CALDERA_PIPE=$mode CALDERA_STAGING_ARENA_BYTES=1048576 "$dir/tests/integration/gl/gl_staging_arena" --expect pressure
done
# The GLES backend's host window surface: the executing context hands frames to the present worker (every window
# check of x11_egl_window, in its own Xvfb; the runner fails on the sanitizer's exit code).
for mode in inline inproc; do
  echo "tsan: x11_egl_window, GLES backend's present worker (CALDERA_PIPE=$mode)"
  CALDERA_PIPE=$mode CALDERA_BACKEND=gles CALDERA_GLES_NATIVE_PRESENT=1 "$python" tests/integration/windows/run_windows_test.py \
    --check window --binary "$dir/tests/integration/windows/x11_egl_window" --x11-path shm \
    --vendor-json "$PWD/$dir/json/caldera_dev.json"
done
# Two contexts' apply threads ordered where they share objects, with the apply threads late on purpose.
echo "tsan: gl_share_lifetime, apply threads 100 ms late (CALDERA_PIPE=inproc)"
CALDERA_PIPE=inproc CALDERA_TEST_APPLY_LAG_MS=100 "$dir/tests/integration/gl/gl_share_lifetime"
echo "tsan: no data race reported in $((${#tests[@]} + 1)) programs, inline and inproc"
