// EGLDisplay: platform selection, initialisation, termination and the query strings.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "egl_api.h"
#include "egl_objects.h"
#include "egl_wayland.h"
#include "egl_x11.h"
#include "frontend/platform.h"
#include "util/log.h"

#ifndef CALDERA_VERSION
#define CALDERA_VERSION "unknown"
#endif

namespace caldera::egl {
namespace {

// Displays are never freed: EGL keeps an EGLDisplay handle valid for the life of the process, even
// after eglTerminate. EGL_DEFAULT_DISPLAY without a platform is DefaultDisplay(); X11 and xcb displays
// are one per native display and screen, Wayland ones one per wl_display.
std::vector<Display*>& Displays() {
  static std::vector<Display*> displays;
  return displays;
}

Display* SurfacelessDisplay() {
  static Display* display = [] {
    auto* d = new Display;
    d->platform = EGL_PLATFORM_SURFACELESS_MESA;
    Displays().push_back(d);
    return d;
  }();
  return display;
}

constexpr char kVendor[] = "Caldera";
constexpr char kVersion[] = "1.5 Caldera " CALDERA_VERSION;
constexpr char kClientApis[] = "OpenGL OpenGL_ES";
// Only what is implemented. EGL_KHR_config_attribs is EGL 1.3's EGL_CONFORMANT and VG surface bits (no
// config has the VG bits). EGLImages come from GL 2D textures (any level where the device can alias one)
// and renderbuffers (egl_image.cpp); EGL_KHR_gl_texture_cubemap_image is added per display (QueryString).
// Not listed: EGL_KHR_gl_texture_3D_image, EGL_KHR_image_pixmap. EGL_MESA_configless_context is
// EGL_KHR_no_config_context under Mesa's older name (EGL_NO_CONFIG_MESA is EGL_NO_CONFIG_KHR, 0), which
// programs and piglit still test for.
// EGL_EXT_create_context_robustness is listed on every display; a robust-access context is refused
// (EGL_BAD_MATCH) on a device that cannot bound accesses.
constexpr char kDisplayExtensions[] =
    "EGL_EXT_buffer_age EGL_EXT_create_context_robustness EGL_EXT_swap_buffers_with_damage "
    "EGL_KHR_config_attribs EGL_KHR_context_flush_control EGL_KHR_create_context "
    "EGL_KHR_create_context_no_error EGL_KHR_fence_sync EGL_KHR_gl_colorspace EGL_KHR_gl_renderbuffer_image "
    "EGL_KHR_gl_texture_2D_image EGL_KHR_image_base EGL_KHR_partial_update "
    "EGL_KHR_swap_buffers_with_damage "
    "EGL_KHR_wait_sync "
    "EGL_KHR_get_all_proc_addresses EGL_KHR_no_config_context EGL_KHR_surfaceless_context "
    "EGL_MESA_configless_context "
    "EGL_MESA_query_driver";
// glvnd guesses the platform of eglGetDisplay(native display) from the vendors' platform strings (it hands
// eglGetPlatformDisplay to every vendor in turn). The X11 and xcb platforms are named only when the X
// libraries can be opened (x11::PlatformAvailable), so a machine without X sees surfaceless alone.
// The Wayland platform likewise only when libwayland-client can be opened (wl::PlatformAvailable); glvnd
// guesses Wayland for eglGetDisplay(wl_display*) only if some vendor names it here.
#define CALDERA_X11_PLATFORMS " EGL_KHR_platform_x11 EGL_EXT_platform_x11 EGL_EXT_platform_xcb"
#define CALDERA_WAYLAND_PLATFORMS " EGL_KHR_platform_wayland EGL_EXT_platform_wayland"
#define CALDERA_PLATFORM_BASE "EGL_MESA_platform_surfaceless EGL_EXT_platform_device"
#define CALDERA_CLIENT_BASE                                                                      \
  "EGL_EXT_client_extensions EGL_EXT_platform_base EGL_KHR_client_get_all_proc_addresses "       \
  "EGL_EXT_device_base EGL_EXT_device_enumeration EGL_EXT_device_query EGL_EXT_platform_device " \
  "EGL_MESA_platform_surfaceless"
// Indexed by (X11 available) | (Wayland available) << 1.
constexpr const char* kPlatformExtensions[4] = {
    CALDERA_PLATFORM_BASE,
    CALDERA_PLATFORM_BASE CALDERA_X11_PLATFORMS,
    CALDERA_PLATFORM_BASE CALDERA_WAYLAND_PLATFORMS,
    CALDERA_PLATFORM_BASE CALDERA_X11_PLATFORMS CALDERA_WAYLAND_PLATFORMS,
};
constexpr const char* kClientExtensions[4] = {
    CALDERA_CLIENT_BASE,
    CALDERA_CLIENT_BASE CALDERA_X11_PLATFORMS,
    CALDERA_CLIENT_BASE CALDERA_WAYLAND_PLATFORMS,
    CALDERA_CLIENT_BASE CALDERA_X11_PLATFORMS CALDERA_WAYLAND_PLATFORMS,
};
#undef CALDERA_CLIENT_BASE
#undef CALDERA_PLATFORM_BASE
#undef CALDERA_WAYLAND_PLATFORMS
#undef CALDERA_X11_PLATFORMS

size_t AvailablePlatforms() {
  return (x11::PlatformAvailable() ? 1u : 0u) | (wl::PlatformAvailable() ? 2u : 0u);
}

EGLDisplay X11Display(EGLenum platform, void* native_display, const EGLAttrib* attrib_list) {
  for (Display* d : Displays()) {
    if (d->platform == platform && d->x11 && x11::SameScreen(*d->x11, platform, native_display, attrib_list))
      return d;
  }
  EGLint error = EGL_SUCCESS;
  std::unique_ptr<x11::Screen> screen = x11::OpenScreen(platform, native_display, attrib_list, &error);
  if (!screen) {
    SetError(error);
    return EGL_NO_DISPLAY;
  }
  auto* d = new Display;
  d->platform = platform;
  d->x11 = screen.release();
  Displays().push_back(d);
  return d;
}

// One EGLDisplay per wl_display (and one for EGL_DEFAULT_DISPLAY, which connects to $WAYLAND_DISPLAY).
EGLDisplay WaylandDisplay(void* native_display, const EGLAttrib* attrib_list) {
  for (Display* d : Displays()) {
    if (d->wayland && d->wayland->native_display == native_display) {
      if (attrib_list && attrib_list[0] != EGL_NONE) {
        SetError(EGL_BAD_ATTRIBUTE);
        return EGL_NO_DISPLAY;
      }
      return d;
    }
  }
  EGLint error = EGL_SUCCESS;
  std::unique_ptr<wl::Connection> conn = wl::OpenDisplay(native_display, attrib_list, &error);
  if (!conn) {
    SetError(error);
    return EGL_NO_DISPLAY;
  }
  auto* d = new Display;
  d->platform = EGL_PLATFORM_WAYLAND_KHR;
  d->wayland = conn.release();
  Displays().push_back(d);
  return d;
}

// eglGetDisplay(EGL_DEFAULT_DISPLAY), which glvnd hands on as platform EGL_NONE: the platform Mesa takes for
// it, so that a program written against Mesa gets windows from it — $EGL_PLATFORM when set ("x11",
// "wayland", "surfaceless", as Mesa reads it), else X11 when $DISPLAY is set (Mesa's desktop default), else
// surfaceless. Where the chosen window system cannot be reached, surfaceless (said once): headless
// programs keep their display. One EGLDisplay for the process, chosen at the first call.
Display* DefaultDisplay() {
  static Display* display = [] {
    const char* env = util::Env("EGL_PLATFORM");
    const std::string wanted = env ? env : (util::Env("DISPLAY") ? "x11" : "surfaceless");
    EGLDisplay chosen = EGL_NO_DISPLAY;
    if (wanted == "x11" && x11::PlatformAvailable())
      chosen = X11Display(EGL_PLATFORM_X11_KHR, nullptr, nullptr);
    else if (wanted == "wayland" && wl::PlatformAvailable())
      chosen = WaylandDisplay(nullptr, nullptr);
    if (chosen != EGL_NO_DISPLAY) return static_cast<Display*>(chosen);
    if (wanted != "surfaceless")
      util::LogOnce(util::LogLevel::kInfo, "eglGetDisplay",
                    "EGL_DEFAULT_DISPLAY: the " + wanted + " platform cannot be reached; using surfaceless");
    return SurfacelessDisplay();
  }();
  return display;
}

}  // namespace

Display* LookupDisplay(EGLDisplay handle) {
  for (Display* d : Displays()) {
    if (d == handle) return d;
  }
  SetError(EGL_BAD_DISPLAY);
  return nullptr;
}

bool IsContextOfAnyDisplay(EGLContext handle) {
  for (Display* d : Displays())
    if (d->contexts.count(static_cast<ContextObj*>(handle))) return true;
  return false;
}

Display* LookupInitializedDisplay(EGLDisplay handle) {
  Display* d = LookupDisplay(handle);
  if (d && !d->initialized) {
    SetError(EGL_NOT_INITIALIZED);
    return nullptr;
  }
  return d;
}

const char* ClientExtensions() {
  return kClientExtensions[AvailablePlatforms()];
}
const char* PlatformExtensions() {
  return kPlatformExtensions[AvailablePlatforms()];
}

// EGL_EXT_platform_device: one EGLDisplay per EGLDeviceEXT, initialised on exactly that Vulkan device.
EGLDisplay DeviceDisplay(void* native_device, const EGLAttrib* attrib_list) {
  int32_t index = -1;
  if (!LookupDeviceIndex(static_cast<EGLDeviceEXT>(native_device), &index)) return EGL_NO_DISPLAY;
  if (attrib_list && attrib_list[0] != EGL_NONE) {
    SetError(EGL_BAD_ATTRIBUTE);  // EGL_EXT_platform_device defines no attribute
    return EGL_NO_DISPLAY;
  }
  for (Display* d : Displays())
    if (d->platform == EGL_PLATFORM_DEVICE_EXT && d->vulkan_index == index) return d;
  auto* d = new Display;
  d->platform = EGL_PLATFORM_DEVICE_EXT;
  d->vulkan_index = index;
  Displays().push_back(d);
  return d;
}

EGLDisplay GetPlatformDisplay(EGLenum platform, void* native_display, const EGLAttrib* attrib_list) {
  EntryLock lock;
  if (platform == EGL_PLATFORM_DEVICE_EXT) return DeviceDisplay(native_display, attrib_list);
  if (platform == EGL_PLATFORM_X11_KHR || platform == EGL_PLATFORM_XCB_EXT)
    return X11Display(platform, native_display, attrib_list);
  // EGL_PLATFORM_WAYLAND_EXT has the same value.
  if (platform == EGL_PLATFORM_WAYLAND_KHR) return WaylandDisplay(native_display, attrib_list);
  if (platform != EGL_NONE && platform != EGL_PLATFORM_SURFACELESS_MESA) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_NO_DISPLAY;
  }
  // EGL_MESA_platform_surfaceless: native_display must be EGL_DEFAULT_DISPLAY and no attribute is defined.
  if (native_display != nullptr) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_NO_DISPLAY;
  }
  if (attrib_list && attrib_list[0] != EGL_NONE) {
    SetError(EGL_BAD_ATTRIBUTE);
    return EGL_NO_DISPLAY;
  }
  // EGL_NONE is how glvnd forwards eglGetDisplay(EGL_DEFAULT_DISPLAY).
  return platform == EGL_NONE ? DefaultDisplay() : SurfacelessDisplay();
}

EGLBoolean Initialize(EGLDisplay handle, EGLint* major, EGLint* minor) {
  EntryLock lock;
  Display* dpy = LookupDisplay(handle);
  if (!dpy) return EGL_FALSE;
  if (!dpy->initialized) {
    // A display terminated while some of its contexts stayed current keeps its device until they are
    // released; re-initialising it simply adopts that device again.
    if (!dpy->device) {
      pipe::NativeDisplayHandle native;
      if (dpy->x11) native = x11::BackendDisplayHandle(*dpy->x11);
      if (dpy->wayland) native = wl::BackendDisplayHandle(*dpy->wayland);
      DeviceOpenResult result = OpenDevice(dpy->vulkan_index, native);
      if (!result.device) {
        SetError(EGL_NOT_INITIALIZED);
        return EGL_FALSE;
      }
      dpy->device = result.device;
    }
    dpy->initialized = true;
  }
  if (major) *major = 1;
  if (minor) *minor = 5;
  return EGL_TRUE;
}

EGLBoolean Terminate(EGLDisplay handle) {
  EntryLock lock;
  Display* dpy = LookupDisplay(handle);
  if (!dpy) return EGL_FALSE;
  if (!dpy->initialized) return EGL_TRUE;
  // Every handle becomes invalid now; objects still current on some thread live on as zombies until
  // released (EGL 1.5 §3.2).
  for (ContextObj* ctx : dpy->contexts) {
    ctx->deleted = true;
    dpy->zombie_contexts.insert(ctx);
  }
  for (SurfaceObj* surf : dpy->surfaces) {
    surf->deleted = true;
    dpy->zombie_surfaces.insert(surf);
  }
  for (SyncObj* sync : dpy->syncs) delete sync;
  for (caldera::PlatformImage* image : dpy->images) caldera::DestroyImage(image);  // siblings keep storage
  dpy->images.clear();
  dpy->contexts.clear();
  dpy->surfaces.clear();
  dpy->syncs.clear();
  dpy->initialized = false;
  CollectGarbageLocked(dpy);
  return EGL_TRUE;
}

void FreeContextLocked(ContextObj* ctx) {
  caldera::DestroyContext(ctx->context);
  delete ctx;
}

void FreeSurfaceLocked(SurfaceObj* surf) {
  caldera::DestroySurface(surf->surface);
  delete surf;
}

void CollectGarbageLocked(Display* dpy) {
  if (!dpy) return;
  for (auto it = dpy->zombie_contexts.begin(); it != dpy->zombie_contexts.end();) {
    if ((*it)->current) {
      ++it;
      continue;
    }
    FreeContextLocked(*it);
    it = dpy->zombie_contexts.erase(it);
  }
  for (auto it = dpy->zombie_surfaces.begin(); it != dpy->zombie_surfaces.end();) {
    if ((*it)->bound > 0) {
      ++it;
      continue;
    }
    FreeSurfaceLocked(*it);
    it = dpy->zombie_surfaces.erase(it);
  }
  if (!dpy->initialized && dpy->device && dpy->zombie_contexts.empty() && dpy->zombie_surfaces.empty()) {
    CloseDevice(dpy->device);
    dpy->device = nullptr;
  }
}

const char* QueryString(EGLDisplay handle, EGLint name) {
  EntryLock lock;
  if (handle == EGL_NO_DISPLAY) {
    // EGL_EXT_client_extensions and EGL 1.5 allow these two without a display.
    if (name == EGL_EXTENSIONS) return ClientExtensions();
    if (name == EGL_VERSION) return kVersion;
    SetError(EGL_BAD_DISPLAY);
    return nullptr;
  }
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return nullptr;
  switch (name) {
    case EGL_VENDOR:
      return kVendor;
    case EGL_VERSION:
      return kVersion;
    case EGL_CLIENT_APIS:
      return kClientApis;
    case EGL_EXTENSIONS: {
      // Cube-face images where the device can alias one face of an image (a GLES host needs texture views).
      static const std::string with_cubemap =
          std::string(kDisplayExtensions) + " EGL_KHR_gl_texture_cubemap_image";
      return dpy->device && DeviceHasSubresourceImages(*dpy->device) ? with_cubemap.c_str()
                                                                     : kDisplayExtensions;
    }
    default:
      SetError(EGL_BAD_PARAMETER);
      return nullptr;
  }
}

// EGL_MESA_query_driver. The name is the one driver behind every display (whichever backend it opened);
// the configuration is in the driconf XML form the extension names, with no options: Caldera is configured
// by environment variables (docs/ENVIRONMENT.md), none of which is a driconf option. The caller frees the
// string with free().
const char* GetDisplayDriverName(EGLDisplay handle) {
  EntryLock lock;
  if (!LookupInitializedDisplay(handle)) return nullptr;
  return "caldera";
}

char* GetDisplayDriverConfig(EGLDisplay handle) {
  EntryLock lock;
  if (!LookupInitializedDisplay(handle)) return nullptr;
  static constexpr char kConfig[] =
      "<?xml version=\"1.0\" standalone=\"yes\"?>\n"
      "<driinfo>\n"
      "</driinfo>\n";
  char* copy = static_cast<char*>(std::malloc(sizeof(kConfig)));
  if (!copy) {
    SetError(EGL_BAD_ALLOC);
    return nullptr;
  }
  std::memcpy(copy, kConfig, sizeof(kConfig));
  return copy;
}

EGLBoolean ReleaseThread() {
  EntryLock lock;
  ReleaseCurrentLocked();
  return EGL_TRUE;
}

}  // namespace caldera::egl
