// The host EGL display on a window system, and its window surfaces: what the GLES backend's presenter
// (gles_present.cpp) draws frames into. Contexts of one EGL display share objects only with each other, so
// when a device serves an X11 display its host display is opened on the same X server (on Caldera's own
// connection), and when it serves a Wayland display on the application's wl_display (a wl_surface can only
// be used on its own connection); every host context of the device lives there. They are still made current
// without surfaces (EGL_KHR_surfaceless_context), and only the presenter's context binds a window surface.
#include <cstring>
#include <string>

#include "backend/gles/host_egl.h"
#include "util/log.h"

namespace caldera::gles {
namespace {

bool HasWord(const char* list, const char* word) {
  if (!list) return false;
  const size_t n = std::strlen(word);
  for (const char* p = list; (p = std::strstr(p, word)) != nullptr; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

}  // namespace

bool HostEgl::InitializeWindowDisplay(const pipe::NativeDisplayHandle& native, std::string* why) {
  const bool wayland = native.system == pipe::WindowSystem::kWayland;
  if ((native.system != pipe::WindowSystem::kXcb && !wayland) || !native.connection) {
    *why = "no X11 or Wayland connection to open it on";
    return false;
  }
  const char* name = wayland ? "Wayland" : "X11";
  if (!LoadWindowEntryPoints()) {
    *why = "the host lacks EGL 1.5's window-surface entry points";
    return false;
  }
  const EGLAttrib xcb_attribs[] = {EGL_PLATFORM_XCB_SCREEN_EXT, native.screen, EGL_NONE};
  EGLDisplay display = wayland ? get_platform_display_(EGL_PLATFORM_WAYLAND_KHR, native.connection, nullptr)
                               : get_platform_display_(EGL_PLATFORM_XCB_EXT, native.connection, xcb_attribs);
  if (display == EGL_NO_DISPLAY) {
    *why = std::string("the host has no ") + (wayland ? "EGL_KHR_platform_wayland" : "EGL_EXT_platform_xcb") +
           " display";
    return false;
  }
  EGLint major = 0, minor = 0;
  if (!initialize_(display, &major, &minor)) {
    *why = std::string("eglInitialize of the host's ") + name + " display failed";
    return false;
  }
  const char* extensions = query_string_(display, EGL_EXTENSIONS);
  if (major < 1 || (major == 1 && minor < 5) || !HasWord(extensions, "EGL_KHR_surfaceless_context") ||
      !HasWord(extensions, "EGL_KHR_no_config_context")) {
    // X11: left initialised (Mesa hands the same display to every caller on this connection). Wayland: the
    // application's connection may close after its eglTerminate, so the host's display goes first.
    if (wayland) terminate_(display);
    *why = std::string("the host's ") + name +
           " display lacks EGL 1.5, EGL_KHR_surfaceless_context or EGL_KHR_no_config_context";
    return false;
  }
  display_ = display;
  window_system_ = native.system;
  if (HasWord(extensions, "EGL_KHR_swap_buffers_with_damage"))
    swap_with_damage_ =
        reinterpret_cast<PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC>(get_proc_("eglSwapBuffersWithDamageKHR"));
  else if (HasWord(extensions, "EGL_EXT_swap_buffers_with_damage"))
    swap_with_damage_ =
        reinterpret_cast<PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC>(get_proc_("eglSwapBuffersWithDamageEXT"));
  util::LogOnce(util::LogLevel::kInfo, "gles-present",
                std::string("the host's EGL display is on the application's ") +
                    (wayland ? "Wayland connection" : "X server") + ": windows present through it");
  return true;
}

bool HostEgl::LoadWindowEntryPoints() {
  auto load = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(get_proc_(name));
    return fn != nullptr;
  };
  return load(choose_config_, "eglChooseConfig") && load(get_config_attrib_, "eglGetConfigAttrib") &&
         load(create_window_surface_, "eglCreatePlatformWindowSurface") &&
         load(destroy_surface_, "eglDestroySurface") && load(swap_buffers_, "eglSwapBuffers") &&
         load(swap_interval_, "eglSwapInterval") && load(query_surface_, "eglQuerySurface");
}

EGLSurface HostEgl::CreateWindowSurface(const pipe::NativeWindowHandle& window, EGLint* max_interval,
                                        std::string* why) {
  const bool wayland = window.system == pipe::WindowSystem::kWayland;
  if (window_system_ != window.system || window_system_ == pipe::WindowSystem::kNone) {
    *why = "the host's EGL display is not on the window's window system";
    return EGL_NO_SURFACE;
  }
  if (wayland && !window.foreign) {
    *why = "the Wayland window has no wl_egl_window for the host";
    return EGL_NO_SURFACE;
  }
  const EGLint want[] = {EGL_SURFACE_TYPE,
                         EGL_WINDOW_BIT,
                         EGL_RENDERABLE_TYPE,
                         EGL_OPENGL_ES3_BIT,
                         EGL_RED_SIZE,
                         8,
                         EGL_GREEN_SIZE,
                         8,
                         EGL_BLUE_SIZE,
                         8,
                         EGL_NONE};
  EGLConfig configs[256];
  EGLint count = 0;
  if (!choose_config_(display_, want, configs, 256, &count) || count <= 0) {
    *why = "the host has no 8-bit window config for GLES 3";
    return EGL_NO_SURFACE;
  }
  // X11: the config of the window's own visual. Wayland: an 8-bit one (the host sorts deeper ones such as
  // XRGB2101010 first) whose alpha is the config's (an opaque config must not show through: XRGB, not ARGB;
  // the visual is the wl_shm format, 0 being ARGB8888). Else the first (on X11 the host checks the depth at
  // creation).
  constexpr uint32_t kShmArgb8888 = 0;
  const EGLint want_alpha = window.visual == kShmArgb8888 ? 8 : 0;
  auto attrib = [&](EGLConfig c, EGLint name) {
    EGLint value = -1;
    return get_config_attrib_(display_, c, name, &value) ? value : -1;
  };
  EGLConfig config = configs[0];
  for (EGLint i = 0; i < count; ++i) {
    const bool match =
        wayland ? attrib(configs[i], EGL_RED_SIZE) == 8 && attrib(configs[i], EGL_ALPHA_SIZE) == want_alpha
                : uint32_t(attrib(configs[i], EGL_NATIVE_VISUAL_ID)) == window.visual;
    if (match) {
      config = configs[i];
      break;
    }
  }
  EGLint max = 1;
  if (!get_config_attrib_(display_, config, EGL_MAX_SWAP_INTERVAL, &max)) max = 1;
  *max_interval = max;
  // EGL_EXT_platform_xcb: the native window is a pointer to the xcb_window_t. EGL_KHR_platform_wayland: the
  // struct wl_egl_window*.
  uint32_t xid = window.window;
  void* native = wayland ? window.foreign->NativeWindow() : static_cast<void*>(&xid);
  EGLSurface surface = create_window_surface_(display_, config, native, nullptr);
  if (surface == EGL_NO_SURFACE) {
    *why = "eglCreatePlatformWindowSurface failed (0x" + std::to_string(get_error_()) + ")";
    return EGL_NO_SURFACE;
  }
  return surface;
}

void HostEgl::DestroySurface(EGLSurface surface) {
  if (surface != EGL_NO_SURFACE) destroy_surface_(display_, surface);
}

bool HostEgl::MakeCurrentWithSurface(EGLContext context, EGLSurface surface) {
  return make_current_(display_, surface, surface, context) == EGL_TRUE;
}

bool HostEgl::SwapInterval(EGLint interval) {
  return swap_interval_(display_, interval) == EGL_TRUE;
}

bool HostEgl::SwapBuffers(EGLSurface surface, const EGLint* rects, EGLint n_rects) {
  if (swap_with_damage_ && rects && n_rects > 0)
    return swap_with_damage_(display_, surface, rects, n_rects) == EGL_TRUE;
  return swap_buffers_(display_, surface) == EGL_TRUE;
}

bool HostEgl::QuerySurfaceSize(EGLSurface surface, EGLint* width, EGLint* height) {
  return query_surface_(display_, surface, EGL_WIDTH, width) == EGL_TRUE &&
         query_surface_(display_, surface, EGL_HEIGHT, height) == EGL_TRUE;
}

}  // namespace caldera::gles
