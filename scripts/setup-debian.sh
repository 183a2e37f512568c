#!/usr/bin/env bash
# Installs every Debian 12 package Caldera needs to build, test and benchmark. Idempotent: packages that
# are already present are skipped by apt, and the script is quiet when nothing is missing.
set -euo pipefail

packages=(
  # build
  meson ninja-build cmake pkg-config g++ clang python3 clang-format
  # Vulkan: loader, headers, registry (vk.xml), lavapipe, validation layers, vulkaninfo
  libvulkan-dev vulkan-tools mesa-vulkan-drivers vulkan-validationlayers
  # shader path
  glslang-dev glslang-tools spirv-tools libspirv-cross-c-shared-dev spirv-cross
  # GL side: glvnd (libEGL, libOpenGL, libGLESv2), Khronos XML, Mesa llvmpipe as reference renderer
  libglvnd-dev libegl-dev libgles-dev libgl-dev khronos-api libgl1-mesa-dri libegl-mesa0 libepoxy-dev
  # tests, windows, pictures, charts
  doctest-dev libpng-dev piglit xvfb xauth libx11-dev python3-matplotlib
  # X11 windows (EGL on X11: xcb, Present; real programs and screenshots in the windows tests)
  libx11-xcb-dev libxcb1-dev libxcb-present-dev libxcb-shm0-dev mesa-utils mesa-utils-bin glmark2-es2-x11 x11-apps
  apitrace apitrace-tracers
  # Wayland windows (headers only for the driver: wl_egl_window's backend ABI; scanner and protocols for the
  # test program; a headless compositor and real programs in the windows tests)
  libwayland-dev libwayland-egl-backend-dev wayland-protocols weston glmark2-es2-wayland
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: all ${#packages[@]} packages present"
