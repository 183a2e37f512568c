// Loading and driving the host EGL library directly (the why is in host_egl.h).
#include "backend/gles/host_egl.h"

#include <dlfcn.h>
#include <glvnd/libeglabi.h>

#include <mutex>
#include <vector>

#include "util/log.h"

namespace caldera::gles {
namespace {

// Where the host EGL lives by default. Platform specific, and only here: on a glvnd desktop the vendor
// library (not glvnd's libEGL.so.1, which may route back to Caldera); on Android the system EGL.
std::vector<std::string> DefaultHostLibraries() {
#if defined(__ANDROID__)
  return {"libEGL.so"};
#else
  return {"libEGL_mesa.so.0"};
#endif
}

// Set while this thread opens a host library: a host libEGL that routes back into Caldera's own
// eglInitialize (glvnd listing Caldera as a vendor) finds it set and fails instead of recursing.
thread_local int t_opening = 0;

// Exports Caldera gives a glvnd vendor library it drives itself. The vendor only needs them for its
// dispatch stubs and error reporting; the host context is never visible to glvnd.
thread_local EGLint t_host_error = EGL_SUCCESS;
void ExportThreadInit() {}
EGLenum ExportCurrentApi() {
  return EGL_OPENGL_ES_API;
}
__EGLvendorInfo* ExportCurrentVendor() {
  return nullptr;
}
EGLContext ExportCurrentContext() {
  return EGL_NO_CONTEXT;
}
EGLDisplay ExportCurrentDisplay() {
  return EGL_NO_DISPLAY;
}
EGLSurface ExportCurrentSurface(EGLint) {
  return EGL_NO_SURFACE;
}
__eglMustCastToProperFunctionPointerType ExportFetchDispatch(__EGLvendorInfo*, int) {
  return nullptr;
}
void ExportSetError(EGLint error) {
  t_host_error = error;
}
EGLBoolean ExportSetLastVendor(__EGLvendorInfo*) {
  return EGL_TRUE;
}
__EGLvendorInfo* ExportVendorFromDisplay(EGLDisplay) {
  return nullptr;
}
__EGLvendorInfo* ExportVendorFromDevice(EGLDeviceEXT) {
  return nullptr;
}
EGLBoolean ExportSetVendorForDevice(EGLDeviceEXT, __EGLvendorInfo*) {
  return EGL_TRUE;
}

const __EGLapiExports kExports = {
    ExportThreadInit,     ExportCurrentApi,        ExportCurrentVendor,    ExportCurrentContext,
    ExportCurrentDisplay, ExportCurrentSurface,    ExportFetchDispatch,    ExportSetError,
    ExportSetLastVendor,  ExportVendorFromDisplay, ExportVendorFromDevice, ExportSetVendorForDevice,
};

// A vendor library is initialised once per process (it keeps the exports in globals).
std::mutex g_vendor_mutex;
__EGLapiImports g_vendor_imports{};
void* g_vendor_handle = nullptr;

void* VendorProc(const char* name) {
  return g_vendor_imports.getProcAddress ? g_vendor_imports.getProcAddress(name) : nullptr;
}

void* g_direct_handle = nullptr;
void* (*g_direct_get_proc)(const char*) = nullptr;
void* DirectProc(const char* name) {
  if (void* p = dlsym(g_direct_handle, name)) return p;
  return g_direct_get_proc ? g_direct_get_proc(name) : nullptr;
}

EGLDisplay VendorPlatformDisplay(EGLenum platform, void* native, const EGLAttrib* attribs) {
  return g_vendor_imports.getPlatformDisplay(platform, native, attribs);
}

}  // namespace

std::unique_ptr<HostEgl> HostEgl::Open(std::string* why, const pipe::NativeDisplayHandle& native) {
  if (t_opening) {
    *why =
        "the host EGL library routed back into Caldera (set CALDERA_GLES_LIBRARY to the host vendor library)";
    return nullptr;
  }
  ++t_opening;
  std::unique_ptr<HostEgl> host(new HostEgl);
  std::vector<std::string> candidates;
  if (const char* lib = util::Env("CALDERA_GLES_LIBRARY"))
    candidates.push_back(lib);
  else
    candidates = DefaultHostLibraries();
  bool ok = false;
  std::string reasons;
  for (const auto& path : candidates) {
    std::string reason;
    if (host->Load(path, &reason) && host->Initialize(native, &reason)) {
      ok = true;
      break;
    }
    reasons += (reasons.empty() ? "" : "; ") + path + ": " + reason;
  }
  --t_opening;
  if (!ok) {
    *why = reasons;
    return nullptr;
  }
  return host;
}

bool HostEgl::Load(const std::string& path, std::string* why) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* err = dlerror();
    *why = err ? err : "dlopen failed";
    return false;
  }
  library_ = path;
  handle_ = handle;
  using VendorMain = EGLBoolean (*)(uint32_t, const __EGLapiExports*, __EGLvendorInfo*, __EGLapiImports*);
  if (auto vendor_main = reinterpret_cast<VendorMain>(dlsym(handle, "__egl_Main"))) {
    std::lock_guard lock(g_vendor_mutex);
    if (!g_vendor_handle) {
      // The vendor-info pointer is only handed back to us through the exports; any unique value works.
      static int vendor_tag;
      if (!vendor_main(EGL_VENDOR_ABI_VERSION, &kExports, reinterpret_cast<__EGLvendorInfo*>(&vendor_tag),
                       &g_vendor_imports) ||
          !g_vendor_imports.getProcAddress || !g_vendor_imports.getPlatformDisplay) {
        *why = "its __egl_Main refused Caldera's exports";
        return false;
      }
      g_vendor_handle = handle;
    }
    get_proc_ = VendorProc;
    get_platform_display_ = VendorPlatformDisplay;
  } else {
    // glvnd's own libEGL (it pulls in libGLdispatch) would route every call through the vendor list,
    // which holds Caldera: calling it from inside Caldera's eglInitialize recurses or deadlocks.
    if (dlsym(handle, "__glDispatchInit")) {
      *why = "it is glvnd's dispatcher, which would route back into Caldera; name a vendor library instead";
      return false;
    }
    g_direct_handle = handle;
    g_direct_get_proc = reinterpret_cast<void* (*)(const char*)>(dlsym(handle, "eglGetProcAddress"));
    if (!g_direct_get_proc) {
      *why = "neither __egl_Main nor eglGetProcAddress is exported";
      return false;
    }
    get_proc_ = DirectProc;
    get_platform_display_ =
        reinterpret_cast<decltype(get_platform_display_)>(DirectProc("eglGetPlatformDisplay"));
  }
  auto load = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(get_proc_(name));
    return fn != nullptr;
  };
  bool ok = load(initialize_, "eglInitialize") && load(terminate_, "eglTerminate") &&
            load(bind_api_, "eglBindAPI") && load(create_context_, "eglCreateContext") &&
            load(destroy_context_, "eglDestroyContext") && load(make_current_, "eglMakeCurrent") &&
            load(get_error_, "eglGetError") && load(create_sync_, "eglCreateSync") &&
            load(client_wait_sync_, "eglClientWaitSync") && load(wait_sync_, "eglWaitSync") &&
            load(destroy_sync_, "eglDestroySync") && load(query_string_, "eglQueryString") &&
            get_platform_display_;
  if (!ok) *why = "EGL 1.5 entry points missing (need eglGetPlatformDisplay, eglCreateSync, ...)";
  return ok;
}

bool HostEgl::Initialize(const pipe::NativeDisplayHandle& native, std::string* why) {
  if (native.system != pipe::WindowSystem::kNone) {
    std::string window_why = "CALDERA_GLES_NATIVE_PRESENT=0";
    if (util::EnvFlag("CALDERA_GLES_NATIVE_PRESENT", true) && InitializeWindowDisplay(native, &window_why))
      return true;
    util::LogOnce(util::LogLevel::kInfo, "gles-present",
                  "the host's EGL display stays surfaceless (" + window_why + "): windows are read back");
  }
  display_ = get_platform_display_(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display_ == EGL_NO_DISPLAY) {
    *why = "no surfaceless display (EGL_MESA_platform_surfaceless)";
    return false;
  }
  EGLint major = 0, minor = 0;
  if (!initialize_(display_, &major, &minor)) {
    *why = "eglInitialize failed";
    display_ = EGL_NO_DISPLAY;
    return false;
  }
  if (major < 1 || (major == 1 && minor < 5)) {
    *why = "EGL " + std::to_string(major) + "." + std::to_string(minor) + " (1.5 needed)";
    return false;
  }
  return true;
}

HostEgl::~HostEgl() {
  if (display_ != EGL_NO_DISPLAY && make_current_)
    make_current_(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  // The display is left initialised and the library loaded: a vendor library keeps Caldera's exports in
  // globals, and other Caldera devices in this process may still use the same host display. Except on
  // Wayland: the device closes at the application's eglTerminate, after which it may disconnect the
  // wl_display the host's display holds proxies of (and a later connection may get the same address).
  if (window_system_ == pipe::WindowSystem::kWayland && display_ != EGL_NO_DISPLAY && terminate_)
    terminate_(display_);
}

EGLContext HostEgl::CreateContext(EGLContext share, std::string* why) {
  bind_api_(EGL_OPENGL_ES_API);
  // Robust buffer access first (what Caldera's robust contexts promise), then without. Once one kind was
  // made, later contexts (which share with it) are made the same way.
  const bool first = !made_one_;
  for (bool robust : {true, false}) {
    if (!first && robust != robust_access_) continue;
    for (int minor : {2, 1, 0}) {
      if (!first && minor != es_minor_) continue;
      const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                3,
                                EGL_CONTEXT_MINOR_VERSION,
                                minor,
                                EGL_CONTEXT_OPENGL_ROBUST_ACCESS,
                                robust ? EGL_TRUE : EGL_FALSE,
                                EGL_NONE};
      EGLContext ctx = create_context_(display_, EGL_NO_CONFIG_KHR, share, attribs);
      if (ctx != EGL_NO_CONTEXT) {
        es_minor_ = minor;
        robust_access_ = robust;
        made_one_ = true;
        return ctx;
      }
    }
  }
  *why = "the host cannot create a GLES 3.x context without a config (EGL_KHR_no_config_context) — error 0x" +
         std::to_string(get_error_());
  return EGL_NO_CONTEXT;
}

void HostEgl::DestroyContext(EGLContext context) {
  if (context != EGL_NO_CONTEXT) destroy_context_(display_, context);
}

bool HostEgl::MakeCurrent(EGLContext context) {
  return make_current_(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_TRUE;
}

EGLSync HostEgl::CreateFence() {
  return create_sync_(display_, EGL_SYNC_FENCE, nullptr);
}

EGLint HostEgl::ClientWait(EGLSync sync, uint64_t timeout_ns) {
  return client_wait_sync_(display_, sync, EGL_SYNC_FLUSH_COMMANDS_BIT,
                           timeout_ns == UINT64_MAX ? EGL_FOREVER : timeout_ns);
}

bool HostEgl::ServerWait(EGLSync sync) {
  return wait_sync_(display_, sync, 0) == EGL_TRUE;
}

void HostEgl::DestroySync(EGLSync sync) {
  if (sync != EGL_NO_SYNC) destroy_sync_(display_, sync);
}

void* HostEgl::GetProcAddress(const char* name) const {
  return get_proc_(name);
}

}  // namespace caldera::gles
