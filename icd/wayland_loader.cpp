// Opening libwayland-client at run time (wayland_loader.h). It is looked up by soname through the normal
// library search path; CALDERA_TEST_WAYLAND_LIB_DIR (tests only) opens it from one directory instead, so a
// test can make it missing on a machine that has it, even in a process that has it loaded already.
#include "wayland_loader.h"

#include <dlfcn.h>

#include "util/log.h"

namespace caldera::egl::wl {
namespace {

WaylandLibrary g_library;
std::string g_failure;

std::string DlError() {
  const char* e = dlerror();
  return e ? e : "unknown error";
}

// Fills g_library, or leaves it empty with g_failure set. The handle stays open for the process on
// success: the pointers must outlive every display, and displays are never freed.
bool Load() {
  const char* dir = util::Env("CALDERA_TEST_WAYLAND_LIB_DIR");
  if (dir && *dir)
    util::LogOnce(util::LogLevel::kWarning, "CALDERA_TEST_WAYLAND_LIB_DIR",
                  std::string("set: libwayland-client is opened from ") + dir + " only (tests only)");
  std::string path = dir && *dir ? std::string(dir) + "/" CALDERA_WAYLAND_SONAME : CALDERA_WAYLAND_SONAME;
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (!handle) {
    g_failure = std::string(CALDERA_WAYLAND_SONAME) + " cannot be opened: " + DlError();
    return false;
  }
  WaylandLibrary lib;
#define CALDERA_WAYLAND_LOOKUP(name)                                                              \
  lib.name = reinterpret_cast<decltype(lib.name)>(dlsym(handle, #name));                          \
  if (!lib.name) {                                                                                \
    g_failure = std::string(#name) + " is missing from " CALDERA_WAYLAND_SONAME ": " + DlError(); \
    dlclose(handle);                                                                              \
    return false;                                                                                 \
  }
  CALDERA_WAYLAND_FUNCTIONS(CALDERA_WAYLAND_LOOKUP)
  CALDERA_WAYLAND_DATA(CALDERA_WAYLAND_LOOKUP)
#undef CALDERA_WAYLAND_LOOKUP
  g_library = lib;
  return true;
}

}  // namespace

const WaylandLibrary* LoadWaylandLibrary() {
  // A function-local static: the first caller loads, concurrent ones wait for its answer.
  static const bool loaded = [] {
    bool ok = Load();
    if (!ok)
      util::LogOnce(util::LogLevel::kInfo, "wayland", "the Wayland platform is unavailable: " + g_failure);
    return ok;
  }();
  return loaded ? &g_library : nullptr;
}

const std::string& LoadFailure() {
  return g_failure;
}

const WaylandLibrary& Wayland() {
  return g_library;
}

}  // namespace caldera::egl::wl
