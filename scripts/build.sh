#!/usr/bin/env bash
# Configures (once) and builds Caldera into ./build (or $CALDERA_BUILD_DIR). Extra Meson options for the
# first configuration come from $CALDERA_MESON_ARGS: CI passes -Dwerror=true there; warnings are never
# errors by default, so packagers' builds with their own flags do not break. CALDERA_UNITY=on builds unity
# files (several sources per compiler run: about half the time; CI's lanes do, see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${CALDERA_BUILD_DIR:-build}"
if [ ! -f "$dir/build.ninja" ]; then
  # shellcheck disable=SC2086
  meson setup "$dir" --buildtype="${CALDERA_BUILDTYPE:-debugoptimized}" --unity="${CALDERA_UNITY:-off}" \
    ${CALDERA_MESON_ARGS:-}
fi
ninja -C "$dir" -j"$(nproc)"
