// Internal objects behind the EGL handles. Every handle an application passes in is looked up in these
// registries before it is dereferenced: EGL requires EGL_BAD_DISPLAY / EGL_BAD_CONTEXT / EGL_BAD_SURFACE
// for stale or garbage handles, never a crash.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <mutex>
#include <set>
#include <thread>

#include "frontend/platform.h"

namespace caldera::egl {

struct Display;
namespace x11 {
struct Screen;  // egl_x11.h
}
namespace wl {
struct Connection;  // egl_wayland.h
}

// EGL_MAX_PBUFFER_WIDTH/HEIGHT of every config, and the clamp of EGL_LARGEST_PBUFFER: Vulkan's guaranteed
// maxImageDimension2D is lower, but every desktop driver (and lavapipe) has 16384.
inline constexpr EGLint kMaxPbufferSize = 16384;

// Static description of one EGLConfig; the table is the same for every display (icd/egl_config.cpp).
struct ConfigInfo {
  EGLint id;  // EGL_CONFIG_ID; also the EGLConfig handle value (never 0, which is EGL_NO_CONFIG_KHR)
  EGLint red, green, blue, alpha;
  EGLint depth, stencil;
  ColorFormat format;
  EGLint samples = 0;  // EGL_SAMPLES (0: EGL_SAMPLE_BUFFERS 0); offered only where the device has them
};

struct ContextObj {
  Display* display = nullptr;
  Context* context = nullptr;          // the frontend state tracker
  const ConfigInfo* config = nullptr;  // null for EGL_KHR_no_config_context contexts
  EGLenum api = EGL_OPENGL_API;
  EGLint client_major = 3;  // the version reported through EGL_CONTEXT_CLIENT_VERSION
  bool current = false;     // bound to some thread (at most one, enforced in MakeCurrent)
  bool deleted = false;     // destroyed or terminated while current: freed on release
};

// EGL_BIND_TO_TEXTURE_RGB / _RGBA: single-sampled configs of 8-bit colour, whose pbuffers' colour image a
// texture can share (eglBindTexImage); as on Mesa, RGBA textures of configs without alpha too (alpha 1).
inline bool BindsToTexture(const ConfigInfo& c) {
  return c.samples == 0 && c.red == 8 && c.green == 8 && c.blue == 8;
}

struct SurfaceObj {
  Display* display = nullptr;
  Surface* surface = nullptr;
  const ConfigInfo* config = nullptr;
  EGLint width = 0, height = 0;
  bool largest_pbuffer = false;
  EGLint mipmap_level = 0;
  // Pbuffers made for texture binding (EGL 1.4 §3.6): EGL_TEXTURE_FORMAT / _TARGET / EGL_MIPMAP_TEXTURE, and
  // whether the colour buffer is bound to a texture now (eglBindTexImage).
  EGLint texture_format = EGL_NO_TEXTURE, texture_target = EGL_NO_TEXTURE;
  bool mipmap_texture = false;
  bool tex_bound = false;
  EGLint swap_interval = 1;
  EGLint gl_colorspace = EGL_GL_COLORSPACE_LINEAR;
  EGLint swap_behavior = EGL_BUFFER_DESTROYED;  // EGL's default; either holds (SurfaceAttrib)
  bool window = false;                          // a window surface (EGL_WIDTH/HEIGHT follow the window)
  bool pixmap = false;                          // an X pixmap surface (single-buffered)
  bool single_buffered = false;                 // a window made with EGL_RENDER_BUFFER EGL_SINGLE_BUFFER
  // EGL_KHR_partial_update's bookkeeping since the last frame boundary (a swap): whether the buffer age was
  // queried, and whether eglSetDamageRegionKHR was called.
  bool age_queried = false, damage_region_set = false;
  int bound = 0;         // how many threads' current state reference it (draw and/or read)
  bool deleted = false;  // destroyed or terminated while bound: freed on release
};

struct SyncObj {
  Display* display = nullptr;
  EGLenum type = EGL_SYNC_FENCE;
  caldera::PlatformFence* fence = nullptr;  // one reference; waits in progress hold their own
  ~SyncObj() { caldera::ReleaseFence(fence); }
};

struct Display {
  EGLenum platform = EGL_PLATFORM_SURFACELESS_MESA;
  x11::Screen* x11 = nullptr;         // EGL_PLATFORM_X11_KHR / EGL_PLATFORM_XCB_EXT: the native screen
  wl::Connection* wayland = nullptr;  // EGL_PLATFORM_WAYLAND_KHR: the compositor connection
  int32_t vulkan_index = -1;          // EGL_PLATFORM_DEVICE_EXT: the Vulkan physical device it opens
  bool initialized = false;
  Device* device = nullptr;        // open while initialized, or while terminated objects are still current
  std::set<ContextObj*> contexts;  // live handles only (deleted ones are owned by their current thread)
  std::set<SurfaceObj*> surfaces;
  std::set<SyncObj*> syncs;
  std::set<caldera::PlatformImage*> images;  // EGLImage handles are these pointers
  // Destroyed or terminated while current somewhere; freed by CollectGarbageLocked once released.
  std::set<ContextObj*> zombie_contexts;
  std::set<SurfaceObj*> zombie_surfaces;
};

// One lock for all EGL state: EGL calls are rare next to GL calls, and it keeps handle validation,
// current-ness and deferred deletion consistent across threads.
std::recursive_mutex& Lock();

// Taken at the top of every entry point: serialises EGL state and starts the call with EGL_SUCCESS, since
// eglGetError reports the outcome of the last call, successful or not.
struct EntryLock {
  EntryLock();
  std::lock_guard<std::recursive_mutex> guard;
};

// Error reporting: the last error of the calling thread (eglGetError reads and resets it).
void SetError(EGLint error);
EGLint TakeError();

// Validation helpers. Each sets the EGL error and returns null when the handle is not acceptable.
Display* LookupDisplay(EGLDisplay handle);             // EGL_BAD_DISPLAY
Display* LookupInitializedDisplay(EGLDisplay handle);  // + EGL_NOT_INITIALIZED
const ConfigInfo* LookupConfig(EGLConfig handle);      // EGL_BAD_CONFIG
// The config's EGL_NATIVE_VISUAL_ID on `dpy` (0: no window surfaces there).
EGLint ConfigNativeVisual(const Display* dpy, const ConfigInfo& c);
ContextObj* LookupContext(Display* dpy, EGLContext handle);  // EGL_BAD_CONTEXT
// Whether `handle` is a live context of any display (an EGL_BAD_MATCH, not EGL_BAD_CONTEXT, elsewhere).
bool IsContextOfAnyDisplay(EGLContext handle);
SurfaceObj* LookupSurface(Display* dpy, EGLSurface handle);  // EGL_BAD_SURFACE

// The current binding of the calling thread, as the vendor sees it.
struct ThreadCurrent {
  Display* display = nullptr;
  ContextObj* context = nullptr;
  SurfaceObj* draw = nullptr;
  SurfaceObj* read = nullptr;
};
ThreadCurrent& Current();

// Releases the calling thread's binding (frontend included) and frees objects deleted meanwhile.
void ReleaseCurrentLocked();

// Frees terminated/destroyed objects that are no longer current, and closes the device of a terminated
// display once nothing of it remains current. Called after every unbind.
void CollectGarbageLocked(Display* dpy);
void FreeContextLocked(ContextObj* ctx);
void FreeSurfaceLocked(SurfaceObj* surf);

// Current client API of the calling thread. glvnd owns it (eglBindAPI is answered there); without glvnd
// (Android) the vendor tracks it. The glue installs the source.
using CurrentApiFn = EGLenum (*)();
void SetCurrentApiSource(CurrentApiFn fn);
EGLenum CurrentApi();

}  // namespace caldera::egl
