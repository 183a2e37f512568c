// The libglvnd EGL vendor glue: __egl_Main, the only exported symbol of libEGL_caldera.so.0.
//
// How glvnd's libEGL drives a vendor (libglvnd 1.6, src/EGL/libegl.c):
//  - eglGetDisplay(EGL_DEFAULT_DISPLAY) calls every vendor's getPlatformDisplay(EGL_NONE, ...) in manifest
//    order until one returns a display; eglGetPlatformDisplay does the same with the real platform. On
//    failure it asks the vendor's eglGetError, so we report through our own per-thread error.
//  - Every display-taking call is routed by glvnd's display->vendor map (unknown handles never reach
//    us: glvnd answers EGL_BAD_DISPLAY), after exports->setLastVendor, so a later eglGetError lands
//    in our eglGetError.
//  - eglGetError, eglBindAPI/eglQueryAPI, eglGetCurrent*, eglGetProcAddress and the no-display
//    eglQueryString are answered by libEGL itself. The client extension string is our client string
//    intersected with glvnd's known list, plus getVendorString(PLATFORM_EXTENSIONS) verbatim: that is
//    why the platform extension goes there.
//  - libEGL builds its GL dispatch table through getProcAddress, so it must resolve every gl* name.
#include <glvnd/libeglabi.h>

#include <cstring>

#include "egl_api.h"
#include "egl_objects.h"
#include "frontend/platform.h"

namespace caldera::egl {
namespace {

const __EGLapiExports* g_exports = nullptr;

EGLenum GlvndCurrentApi() {
  return g_exports->getCurrentApi();
}

struct ProcEntry {
  const char* name;
  void* proc;
};

#define CALDERA_EGL_PROC(name, fn) \
  { name, reinterpret_cast<void*>(&fn) }

const ProcEntry kProcs[] = {
    CALDERA_EGL_PROC("eglBindAPI", BindAPI),
    CALDERA_EGL_PROC("eglBindTexImage", BindTexImage),
    CALDERA_EGL_PROC("eglChooseConfig", ChooseConfig),
    CALDERA_EGL_PROC("eglClientWaitSync", ClientWaitSync),
    CALDERA_EGL_PROC("eglCopyBuffers", CopyBuffers),
    CALDERA_EGL_PROC("eglCreateContext", CreateContext),
    CALDERA_EGL_PROC("eglCreateImage", CreateImage),
    CALDERA_EGL_PROC("eglCreatePbufferFromClientBuffer", CreatePbufferFromClientBuffer),
    CALDERA_EGL_PROC("eglCreatePbufferSurface", CreatePbufferSurface),
    CALDERA_EGL_PROC("eglCreatePixmapSurface", CreatePixmapSurface),
    CALDERA_EGL_PROC("eglCreatePlatformPixmapSurface", CreatePlatformPixmapSurface),
    CALDERA_EGL_PROC("eglCreatePlatformWindowSurface", CreatePlatformWindowSurface),
    CALDERA_EGL_PROC("eglCreatePlatformWindowSurfaceEXT", CreatePlatformWindowSurfaceEXT),
    CALDERA_EGL_PROC("eglCreatePlatformPixmapSurfaceEXT", CreatePlatformPixmapSurfaceEXT),
    CALDERA_EGL_PROC("eglCreateSync", CreateSync),
    CALDERA_EGL_PROC("eglCreateWindowSurface", CreateWindowSurface),
    CALDERA_EGL_PROC("eglDestroyContext", DestroyContext),
    CALDERA_EGL_PROC("eglDestroyImage", DestroyImage),
    CALDERA_EGL_PROC("eglDestroySurface", DestroySurface),
    CALDERA_EGL_PROC("eglDestroySync", DestroySync),
    CALDERA_EGL_PROC("eglGetConfigAttrib", GetConfigAttrib),
    CALDERA_EGL_PROC("eglGetConfigs", GetConfigs),
    CALDERA_EGL_PROC("eglGetCurrentContext", GetCurrentContext),
    CALDERA_EGL_PROC("eglGetCurrentDisplay", GetCurrentDisplay),
    CALDERA_EGL_PROC("eglGetCurrentSurface", GetCurrentSurface),
    CALDERA_EGL_PROC("eglGetError", GetError),
    CALDERA_EGL_PROC("eglGetPlatformDisplay", GetPlatformDisplay),
    CALDERA_EGL_PROC("eglGetSyncAttrib", GetSyncAttrib),
    CALDERA_EGL_PROC("eglInitialize", Initialize),
    CALDERA_EGL_PROC("eglMakeCurrent", MakeCurrent),
    CALDERA_EGL_PROC("eglQueryAPI", QueryAPI),
    CALDERA_EGL_PROC("eglQueryContext", QueryContext),
    CALDERA_EGL_PROC("eglQueryString", QueryString),
    CALDERA_EGL_PROC("eglQuerySurface", QuerySurface),
    CALDERA_EGL_PROC("eglReleaseTexImage", ReleaseTexImage),
    CALDERA_EGL_PROC("eglReleaseThread", ReleaseThread),
    CALDERA_EGL_PROC("eglSurfaceAttrib", SurfaceAttrib),
    CALDERA_EGL_PROC("eglSwapBuffers", SwapBuffers),
    CALDERA_EGL_PROC("eglSwapBuffersWithDamageKHR", SwapBuffersWithDamage),
    CALDERA_EGL_PROC("eglSwapBuffersWithDamageEXT", SwapBuffersWithDamage),
    CALDERA_EGL_PROC("eglSetDamageRegionKHR", SetDamageRegion),
    CALDERA_EGL_PROC("eglSwapInterval", SwapInterval),
    CALDERA_EGL_PROC("eglTerminate", Terminate),
    CALDERA_EGL_PROC("eglWaitClient", WaitClient),
    CALDERA_EGL_PROC("eglWaitGL", WaitGL),
    CALDERA_EGL_PROC("eglWaitNative", WaitNative),
    CALDERA_EGL_PROC("eglWaitSync", WaitSync),
    // EGL_KHR_fence_sync / EGL_KHR_wait_sync (EGLint forms; the ones with EGL 1.5's signature are shared).
    CALDERA_EGL_PROC("eglCreateSyncKHR", CreateSyncKHR),
    CALDERA_EGL_PROC("eglDestroySyncKHR", DestroySync),
    CALDERA_EGL_PROC("eglClientWaitSyncKHR", ClientWaitSync),
    CALDERA_EGL_PROC("eglGetSyncAttribKHR", GetSyncAttribKHR),
    CALDERA_EGL_PROC("eglWaitSyncKHR", WaitSyncKHR),
    // EGL_KHR_image_base (eglDestroyImageKHR has EGL 1.5's signature).
    CALDERA_EGL_PROC("eglCreateImageKHR", CreateImageKHR),
    CALDERA_EGL_PROC("eglDestroyImageKHR", DestroyImage),
    // Devices: libEGL itself calls eglQueryDevicesEXT and eglQueryDisplayAttribEXT (noting each device's
    // vendor).
    CALDERA_EGL_PROC("eglQueryDevicesEXT", QueryDevicesEXT),
    CALDERA_EGL_PROC("eglQueryDeviceStringEXT", QueryDeviceStringEXT),
    CALDERA_EGL_PROC("eglQueryDeviceAttribEXT", QueryDeviceAttribEXT),
    CALDERA_EGL_PROC("eglQueryDisplayAttribEXT", QueryDisplayAttribEXT),
    // EGL_MESA_query_driver
    CALDERA_EGL_PROC("eglGetDisplayDriverName", GetDisplayDriverName),
    CALDERA_EGL_PROC("eglGetDisplayDriverConfig", GetDisplayDriverConfig),
};

#undef CALDERA_EGL_PROC

EGLDisplay VendorGetPlatformDisplay(EGLenum platform, void* native_display, const EGLAttrib* attrib_list) {
  return GetPlatformDisplay(platform, native_display, attrib_list);
}

EGLBoolean VendorGetSupportsAPI(EGLenum api) {
  return api == EGL_OPENGL_API || api == EGL_OPENGL_ES_API;
}

const char* VendorGetString(int name) {
  return name == __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS ? PlatformExtensions() : nullptr;
}

void* VendorGetProcAddress(const char* name) {
  if (!name) return nullptr;
  if (std::strncmp(name, "egl", 3) == 0) {
    for (const ProcEntry& e : kProcs) {
      if (std::strcmp(e.name, name) == 0) return e.proc;
    }
    return nullptr;
  }
  if (std::strncmp(name, "gl", 2) == 0) return caldera::GetGLProcAddress(name);
  return nullptr;
}

// Display extension functions beyond EGL 1.5 core reach the vendor through dispatch stubs: glvnd asks for
// a stub by name (getDispatchAddress), assigns it an index (setDispatchIndex), and the stub finds the vendor
// from the EGLDisplay and calls that vendor's entry at the index.
struct DispatchStub {
  const char* name;
  void* stub;
  int index = -1;
};
extern DispatchStub g_dispatch_stubs[];  // defined after the stubs it names

// The function of `vendor` (who owns the call's display or device) for stub `i`, with libEGL told which
// vendor answers (for eglGetError); null with `error` when no vendor owns the handle.
template <typename Fn>
Fn DispatchFrom(__EGLvendorInfo* vendor, int i, EGLint error) {
  if (!vendor || g_dispatch_stubs[i].index < 0) {
    g_exports->setEGLError(error);
    return nullptr;
  }
  g_exports->setLastVendor(vendor);
  return reinterpret_cast<Fn>(g_exports->fetchDispatchEntry(vendor, g_dispatch_stubs[i].index));
}

template <typename Fn>
Fn DispatchFor(int i, EGLDisplay dpy) {
  return DispatchFrom<Fn>(g_exports->getVendorFromDisplay(dpy), i, EGL_BAD_DISPLAY);
}

template <typename Fn>
Fn DispatchForDevice(int i, EGLDeviceEXT device) {
  return DispatchFrom<Fn>(g_exports->getVendorFromDevice(device), i, EGL_BAD_DEVICE_EXT);
}

template <int I, typename R, typename... Args>
R DeviceStub(EGLDeviceEXT device, Args... args) {
  auto fn = DispatchForDevice<R (*)(EGLDeviceEXT, Args...)>(I, device);
  return fn ? fn(device, args...) : R{};
}

// Stub I: finds the vendor from the display and forwards every argument; a display no vendor owns gets
// EGL_BAD_DISPLAY and the zero of the return type (EGL_FALSE, EGL_NO_SYNC_KHR).
template <int I, typename R, typename... Args>
R Stub(EGLDisplay dpy, Args... args) {
  auto fn = DispatchFor<R (*)(EGLDisplay, Args...)>(I, dpy);
  return fn ? fn(dpy, args...) : R{};
}

enum StubIndex : int {
  kSwapBuffersWithDamageKHR,
  kSwapBuffersWithDamageEXT,
  kSetDamageRegionKHR,
  kCreateSyncKHR,
  kDestroySyncKHR,
  kClientWaitSyncKHR,
  kGetSyncAttribKHR,
  kWaitSyncKHR,
  kCreateImageKHR,
  kDestroyImageKHR,
  kQueryDeviceStringEXT,
  kQueryDeviceAttribEXT,
  kGetDisplayDriverName,
  kGetDisplayDriverConfig,
  kCreatePlatformWindowSurfaceEXT,
  kCreatePlatformPixmapSurfaceEXT,
};

#define CALDERA_EGL_STUB(name, index, ...) \
  { name, reinterpret_cast<void*>(&Stub<index, __VA_ARGS__>) }

// In StubIndex order.
DispatchStub g_dispatch_stubs[] = {
    CALDERA_EGL_STUB("eglSwapBuffersWithDamageKHR", kSwapBuffersWithDamageKHR, EGLBoolean, EGLSurface,
                     const EGLint*, EGLint),
    CALDERA_EGL_STUB("eglSwapBuffersWithDamageEXT", kSwapBuffersWithDamageEXT, EGLBoolean, EGLSurface,
                     const EGLint*, EGLint),
    CALDERA_EGL_STUB("eglSetDamageRegionKHR", kSetDamageRegionKHR, EGLBoolean, EGLSurface, EGLint*, EGLint),
    CALDERA_EGL_STUB("eglCreateSyncKHR", kCreateSyncKHR, EGLSyncKHR, EGLenum, const EGLint*),
    CALDERA_EGL_STUB("eglDestroySyncKHR", kDestroySyncKHR, EGLBoolean, EGLSyncKHR),
    CALDERA_EGL_STUB("eglClientWaitSyncKHR", kClientWaitSyncKHR, EGLint, EGLSyncKHR, EGLint, EGLTimeKHR),
    CALDERA_EGL_STUB("eglGetSyncAttribKHR", kGetSyncAttribKHR, EGLBoolean, EGLSyncKHR, EGLint, EGLint*),
    CALDERA_EGL_STUB("eglWaitSyncKHR", kWaitSyncKHR, EGLint, EGLSyncKHR, EGLint),
    CALDERA_EGL_STUB("eglCreateImageKHR", kCreateImageKHR, EGLImageKHR, EGLContext, EGLenum, EGLClientBuffer,
                     const EGLint*),
    CALDERA_EGL_STUB("eglDestroyImageKHR", kDestroyImageKHR, EGLBoolean, EGLImageKHR),
    {"eglQueryDeviceStringEXT",
     reinterpret_cast<void*>(&DeviceStub<kQueryDeviceStringEXT, const char*, EGLint>)},
    {"eglQueryDeviceAttribEXT",
     reinterpret_cast<void*>(&DeviceStub<kQueryDeviceAttribEXT, EGLBoolean, EGLint, EGLAttrib*>)},
    // EGL_MESA_query_driver
    CALDERA_EGL_STUB("eglGetDisplayDriverName", kGetDisplayDriverName, const char*),
    CALDERA_EGL_STUB("eglGetDisplayDriverConfig", kGetDisplayDriverConfig, char*),
    // EGL_EXT_platform_base (libglvnd dispatches only the EGL 1.5 names itself)
    CALDERA_EGL_STUB("eglCreatePlatformWindowSurfaceEXT", kCreatePlatformWindowSurfaceEXT, EGLSurface,
                     EGLConfig, void*, const EGLint*),
    CALDERA_EGL_STUB("eglCreatePlatformPixmapSurfaceEXT", kCreatePlatformPixmapSurfaceEXT, EGLSurface,
                     EGLConfig, void*, const EGLint*),
};

#undef CALDERA_EGL_STUB

void* VendorGetDispatchAddress(const char* name) {
  for (const DispatchStub& d : g_dispatch_stubs)
    if (name && std::strcmp(d.name, name) == 0) return d.stub;
  return nullptr;
}
void VendorSetDispatchIndex(const char* name, int index) {
  for (DispatchStub& d : g_dispatch_stubs)
    if (name && std::strcmp(d.name, name) == 0) d.index = index;
}

}  // namespace
}  // namespace caldera::egl

extern "C" __attribute__((visibility("default"))) EGLBoolean __egl_Main(uint32_t version,
                                                                        const __EGLapiExports* exports,
                                                                        __EGLvendorInfo* vendor,
                                                                        __EGLapiImports* imports) {
  using namespace caldera::egl;
  (void)vendor;
  if (EGL_VENDOR_ABI_GET_MAJOR_VERSION(version) != EGL_VENDOR_ABI_MAJOR_VERSION || !exports || !imports) {
    return EGL_FALSE;
  }
  if (caldera::InsideSpawnServer()) return EGL_FALSE;  // glvnd skips this vendor in a caldera-server process
  g_exports = exports;
  SetCurrentApiSource(&GlvndCurrentApi);
  // libEGL hands us a zeroed table (calloc), so the optional callbacks we leave alone stay null.
  imports->getPlatformDisplay = VendorGetPlatformDisplay;
  imports->getSupportsAPI = VendorGetSupportsAPI;
  imports->getVendorString = VendorGetString;
  imports->getProcAddress = VendorGetProcAddress;
  imports->getDispatchAddress = VendorGetDispatchAddress;
  imports->setDispatchIndex = VendorSetDispatchIndex;
  return EGL_TRUE;
}
