#!/usr/bin/env bash
# Configures (once) and builds Caldera into ./build. Warnings are errors (meson.build sets werror).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  meson setup build --buildtype=debugoptimized
fi
ninja -C build -j"$(nproc)"
