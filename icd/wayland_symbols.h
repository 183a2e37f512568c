// Every libwayland-client symbol Caldera uses: the one list wayland_loader.cpp looks up with dlsym and
// egl_wayland.cpp calls through (wayland_loader.h). libEGL_caldera.so.0 does not link libwayland-client,
// so it loads where Wayland is not installed; a new call needs its line here (the link fails with
// --no-undefined otherwise).
#pragma once

#define CALDERA_WAYLAND_SONAME "libwayland-client.so.0"

// Functions: F(name).
#define CALDERA_WAYLAND_FUNCTIONS(F) \
  F(wl_display_connect)              \
  F(wl_display_disconnect)           \
  F(wl_display_get_error)
