// The X11 and xcb platforms of EGL: native displays, the screen's visuals for EGL_NATIVE_VISUAL_ID, and
// window validation and access for window surfaces. X types stay in egl_x11.cpp; the rest of icd/ sees
// only this interface.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdint>
#include <memory>
#include <set>
#include <vector>

#include "frontend/platform.h"

namespace caldera::egl::x11 {

struct Connection;  // the X connections behind one EGLDisplay (egl_x11.cpp)

struct Screen {
  Connection* connection = nullptr;
  void* native_display = nullptr;  // what the application passed (Display*, xcb_connection_t*)
  int screen = 0;
  uint32_t visual24 = 0;  // a TrueColor visual of depth 24 (0: none)
  uint32_t visual32 = 0;  // a TrueColor visual of depth 32 (0: none)
  // Every usable TrueColor visual of depth 24 / 32 (8-bit components), visual24 / visual32 first.
  std::vector<uint32_t> visuals24, visuals32;
  std::set<uint32_t> windows_with_surfaces;
};

// Whether the X libraries could be opened (the first call opens them; x11_loader.h). Without them every
// OpenScreen fails with EGL_BAD_PARAMETER and the platform extensions are left out of the strings.
bool PlatformAvailable();

// Opens the platform's display. EGL_DEFAULT_DISPLAY on the X11 platform opens $DISPLAY. Returns null with
// *error set (EGL_BAD_PARAMETER, EGL_BAD_ATTRIBUTE) when the display or its attributes are unusable or
// the X libraries are missing.
std::unique_ptr<Screen> OpenScreen(EGLenum platform, void* native_display, const EGLAttrib* attrib_list,
                                   EGLint* error);
// Whether `screen` is what these arguments name (the same EGLDisplay is returned for them).
bool SameScreen(const Screen& screen, EGLenum platform, void* native_display, const EGLAttrib* attrib_list);

// The visual a config with this alpha size renders for (depth 32 for alpha where the screen has one).
uint32_t VisualFor(const Screen& screen, EGLint alpha_size);
uint32_t VisualDepth(const Screen& screen, uint32_t visual);
// The display for a device that serves this screen (pipe::NativeDisplayHandle): a connection of Caldera's
// own to the same server, which lives as long as the process (never the application's, which it may close
// while a backend still uses it). kNone when none reaches that server.
pipe::NativeDisplayHandle BackendDisplayHandle(const Screen& screen);
// The screen's root window, for questions a backend answers about the screen's windows (how they can be
// presented to); never presented to itself.
pipe::NativeWindowHandle RootWindowHandle(const Screen& screen);
// The n-th of the screen's visuals that VisualFor picks among (its first when there are fewer): GLX gives
// each FBConfig a visual of its own where the server has enough, so glXGetConfig can tell them apart.
uint32_t DistinctVisualFor(const Screen& screen, EGLint alpha_size, size_t n);

// Checks `window` for a window surface of a config whose visual is `visual`: EGL_BAD_NATIVE_WINDOW when
// it is not an InputOutput window, EGL_BAD_MATCH when its depth or visual class does not fit, EGL_BAD_ALLOC
// when it already has a surface. On success the window is registered on the screen until the returned
// object is destroyed.
std::unique_ptr<NativeWindow> CreateWindow(Screen& screen, uint32_t window, uint32_t visual, EGLint* error);

// Checks `pixmap` for a pixmap surface of a config whose visual is `visual`: EGL_BAD_NATIVE_PIXMAP when it
// is not a pixmap (a window, a bad XID), EGL_BAD_MATCH when its depth differs from the visual's,
// EGL_BAD_ALLOC when it already has a surface. The returned object puts frames into the pixmap (PutFrame)
// and has no presentation handle. `claim` false (an eglCopyBuffers target): the pixmap may have a surface.
std::unique_ptr<NativeWindow> CreatePixmap(Screen& screen, uint32_t pixmap, uint32_t visual, EGLint* error,
                                           bool claim = true);

// Whether `window` is still a window on the server (one round trip): GLX's glXDestroyWindow raises
// GLXBadWindow for a GLXWindow whose X window was destroyed first.
bool WindowExists(Screen& screen, uint32_t window);

}  // namespace caldera::egl::x11
