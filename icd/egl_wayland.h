// The Wayland platform of EGL (EGL_KHR_platform_wayland / EGL_EXT_platform_wayland): native displays and
// window surfaces from wl_egl_window. Wayland types stay in egl_wayland.cpp; the rest of icd/ sees only this
// interface.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <memory>

#include "frontend/platform.h"

namespace caldera::egl::wl {

struct Connection {
  void* display = nullptr;         // the wl_display* Caldera uses
  void* native_display = nullptr;  // what the application passed (null: EGL_DEFAULT_DISPLAY)
  bool own = false;                // we connected (EGL_DEFAULT_DISPLAY): ours to keep for the process
};

// Whether libwayland-client could be opened (the first call opens it; wayland_loader.h). Without it
// OpenDisplay fails with EGL_BAD_PARAMETER and the platform extensions are left out of the strings.
bool PlatformAvailable();

// Opens the platform's display: `native_display` is the application's wl_display*; EGL_DEFAULT_DISPLAY
// connects to $WAYLAND_DISPLAY. Null with *error set (EGL_BAD_PARAMETER, EGL_BAD_ATTRIBUTE) when the display
// or its attributes are unusable or the library is missing.
std::unique_ptr<Connection> OpenDisplay(void* native_display, const EGLAttrib* attrib_list, EGLint* error);

// The config's EGL_NATIVE_VISUAL_ID: the wl_shm format the frame's layout corresponds to.
EGLint VisualFor(EGLint alpha_size, EGLint red_size);

// A window surface's native side for `egl_window` (a struct wl_egl_window*) of a config whose
// EGL_NATIVE_VISUAL_ID is `visual`: EGL_BAD_NATIVE_WINDOW for a null window or one without a wl_surface,
// EGL_BAD_ALLOC when it already has a surface. The window's destruction (wl_egl_window_destroy) makes later
// swaps fail with EGL_BAD_NATIVE_WINDOW.
std::unique_ptr<NativeWindow> CreateWindow(Connection& connection, void* egl_window, uint32_t visual,
                                           EGLint* error);

// The display a device of this connection is opened for (pipe::NativeDisplayHandle).
pipe::NativeDisplayHandle BackendDisplayHandle(const Connection& connection);

}  // namespace caldera::egl::wl
