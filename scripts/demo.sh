#!/usr/bin/env bash
# The main job: install, build, then render the bundled GL 3.3 program through Caldera on lavapipe (glvnd
# picks Caldera's EGL vendor from the dev manifest) and write caldera-demo.png.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh
export __EGL_VENDOR_LIBRARY_FILENAMES="$PWD/build/json/caldera_dev.json"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"
build/tools/caldera-demo "${1:-caldera-demo.png}"
