// How the GLES backend reaches the host's EGL/GLES driver. It never goes through the process's libEGL:
// on a glvnd system that is glvnd itself, whose vendor list may contain Caldera (recursion) and whose
// per-thread current context belongs to the application's Caldera context. Instead the host *vendor*
// library is driven directly (see docs/ARCHITECTURE.md, "GLES backend"):
//  - a glvnd vendor library (libEGL_mesa.so.0 by default on Linux) is initialised through its own
//    `__egl_Main` with Caldera-provided exports, so glvnd's dispatch never sees the host context;
//  - a plain EGL library (Android's libEGL.so, or any CALDERA_GLES_LIBRARY without `__egl_Main`) is used
//    through its exported entry points.
// Either way the host context's current-ness lives in the host driver's own thread state, apart from
// glvnd's, so the application's current Caldera context and the host context never fight.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <memory>
#include <string>

#include "pipe/present.h"

namespace caldera::gles {

class HostEgl {
 public:
  // Loads and initialises the host library (CALDERA_GLES_LIBRARY or the platform default). Its display is
  // on `native`'s window system where the host has that platform and makes contexts current without
  // surfaces there (window_system() says so; CALDERA_GLES_NATIVE_PRESENT=0 never tries), else surfaceless.
  // Null with *why set when there is none, or when it would recurse into Caldera.
  static std::unique_ptr<HostEgl> Open(std::string* why, const pipe::NativeDisplayHandle& native = {});
  ~HostEgl();
  HostEgl(const HostEgl&) = delete;
  HostEgl& operator=(const HostEgl&) = delete;

  // A GLES 3.x context sharing objects with `share` (EGL_NO_CONTEXT for the first). No config, no surface.
  EGLContext CreateContext(EGLContext share, std::string* why);
  void DestroyContext(EGLContext context);
  // Binds `context` (or nothing) on the calling thread, surfaceless.
  bool MakeCurrent(EGLContext context);

  // Window surfaces, on a display opened on a window system (host_egl_window.cpp).
  pipe::WindowSystem window_system() const { return window_system_; }
  // A window surface for `window`, with the highest swap interval the host paces itself in *max_interval.
  // X11: the xcb window, with the host's config for its visual (else one of the same depth). Wayland: the
  // binding's foreign wl_egl_window on the window's wl_surface, with a config of the visual's alpha.
  EGLSurface CreateWindowSurface(const pipe::NativeWindowHandle& window, EGLint* max_interval,
                                 std::string* why);
  void DestroySurface(EGLSurface surface);
  // Binds `context` with `surface` for drawing and reading on the calling thread (EGL_NO_SURFACE: none).
  bool MakeCurrentWithSurface(EGLContext context, EGLSurface surface);
  bool SwapInterval(EGLint interval);  // of the surface current on the calling thread
  // Swaps `surface` (current on the calling thread); with the damage rectangles (x, y, w, h; bottom-up)
  // where the host has EGL_KHR/EXT_swap_buffers_with_damage, else the whole surface.
  bool SwapBuffers(EGLSurface surface, const EGLint* rects, EGLint n_rects);
  bool QuerySurfaceSize(EGLSurface surface, EGLint* width, EGLint* height);
  EGLint LastError() const { return get_error_(); }

  // Fences (EGL 1.5 syncs): created in a current context, waited on from any thread without one.
  EGLSync CreateFence();
  // EGL_CONDITION_SATISFIED, EGL_TIMEOUT_EXPIRED or EGL_FALSE.
  EGLint ClientWait(EGLSync sync, uint64_t timeout_ns);
  bool ServerWait(EGLSync sync);
  void DestroySync(EGLSync sync);

  // A host GL (or EGL) command, resolved in the host library only.
  void* GetProcAddress(const char* name) const;
  using ProcLookup = void* (*)(const char*);
  ProcLookup proc_lookup() const { return get_proc_; }
  const std::string& library() const { return library_; }
  int es_minor() const { return es_minor_; }
  // The host contexts have robust buffer access (asked for first; a host that refuses it gets plain ones).
  bool robust_access() const { return robust_access_; }

 private:
  HostEgl() = default;
  bool Load(const std::string& path, std::string* why);
  bool Initialize(const pipe::NativeDisplayHandle& native, std::string* why);
  bool InitializeWindowDisplay(const pipe::NativeDisplayHandle& native, std::string* why);
  bool LoadWindowEntryPoints();

  void* handle_ = nullptr;
  std::string library_;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  pipe::WindowSystem window_system_ = pipe::WindowSystem::kNone;
  int es_minor_ = 0;
  bool robust_access_ = false;
  bool made_one_ = false;
  // The host's own entry points (never glvnd's).
  void* (*get_proc_)(const char*) = nullptr;
  EGLDisplay(EGLAPIENTRY* get_platform_display_)(EGLenum, void*, const EGLAttrib*) = nullptr;
  PFNEGLINITIALIZEPROC initialize_ = nullptr;
  PFNEGLTERMINATEPROC terminate_ = nullptr;
  PFNEGLBINDAPIPROC bind_api_ = nullptr;
  PFNEGLCREATECONTEXTPROC create_context_ = nullptr;
  PFNEGLDESTROYCONTEXTPROC destroy_context_ = nullptr;
  PFNEGLMAKECURRENTPROC make_current_ = nullptr;
  PFNEGLGETERRORPROC get_error_ = nullptr;
  PFNEGLCREATESYNCPROC create_sync_ = nullptr;
  PFNEGLCLIENTWAITSYNCPROC client_wait_sync_ = nullptr;
  PFNEGLWAITSYNCPROC wait_sync_ = nullptr;
  PFNEGLDESTROYSYNCPROC destroy_sync_ = nullptr;
  PFNEGLQUERYSTRINGPROC query_string_ = nullptr;
  // Window surfaces (loaded with a window-system display).
  PFNEGLCHOOSECONFIGPROC choose_config_ = nullptr;
  PFNEGLGETCONFIGATTRIBPROC get_config_attrib_ = nullptr;
  PFNEGLCREATEPLATFORMWINDOWSURFACEPROC create_window_surface_ = nullptr;
  PFNEGLDESTROYSURFACEPROC destroy_surface_ = nullptr;
  PFNEGLSWAPBUFFERSPROC swap_buffers_ = nullptr;
  PFNEGLSWAPINTERVALPROC swap_interval_ = nullptr;
  PFNEGLQUERYSURFACEPROC query_surface_ = nullptr;
  PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC swap_with_damage_ = nullptr;  // optional
};

}  // namespace caldera::gles
