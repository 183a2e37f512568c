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

namespace caldera::gles {

class HostEgl {
 public:
  // Loads and initialises the host library (CALDERA_GLES_LIBRARY or the platform default) on a
  // surfaceless display. Null with *why set when there is none, or when it would recurse into Caldera.
  static std::unique_ptr<HostEgl> Open(std::string* why);
  ~HostEgl();
  HostEgl(const HostEgl&) = delete;
  HostEgl& operator=(const HostEgl&) = delete;

  // A GLES 3.x context sharing objects with `share` (EGL_NO_CONTEXT for the first). No config, no surface.
  EGLContext CreateContext(EGLContext share, std::string* why);
  void DestroyContext(EGLContext context);
  // Binds `context` (or nothing) on the calling thread, surfaceless.
  bool MakeCurrent(EGLContext context);

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
  bool Initialize(std::string* why);

  void* handle_ = nullptr;
  std::string library_;
  EGLDisplay display_ = EGL_NO_DISPLAY;
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
};

}  // namespace caldera::gles
